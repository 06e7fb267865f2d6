// Fives and Threes' shorthand for make_rules (docs/games/fives_and_threes.md).
#include "dominocore/games/fives_and_threes.hpp"

namespace dominocore {

Rules fives_and_threes(int players, int set, std::optional<int> hand_size) {
  RulesSpec s;
  s.game = Game::FivesAndThrees;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  return make_rules(s);
}

}  // namespace dominocore
