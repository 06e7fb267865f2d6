// All Fives' shorthand for make_rules (docs/games/all_fives.md).
#include "dominocore/games/all_fives.hpp"

namespace dominocore {

Rules all_fives(int players, int set, std::optional<int> hand_size) {
  RulesSpec s;
  s.game = Game::AllFives;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  return make_rules(s);
}

}  // namespace dominocore
