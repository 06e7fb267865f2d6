// Built-in players (players.hpp). Bots::play_out() is the simulation loop: it
// switches once on the game and runs the engine's play_out, in which the move
// generator and apply() inline (src/engine.hpp).
#include "dominocore/players.hpp"
#include "engine.hpp"

#include <string>

namespace dominocore {

const char* policy_name(Policy p) noexcept {
  return p == Policy::Random ? "random" : p == Policy::Greedy ? "greedy" : "learned";
}

Policy parse_policy(std::string_view s) {
  if (s == "random") return Policy::Random;
  if (s == "greedy") return Policy::Greedy;
  if (s == "learned") return Policy::Learned;
  throw RulesError("unknown policy '" + std::string(s) +
                   "': expected 'random', 'greedy' or 'learned'");
}

Move RandomPlayer::choose(const State& s) {
  const int n = s.distinct_moves(buf_);
  if (n == 0) throw StateError("the round is over: there is no move to choose");
  return buf_[rng_.below_unchecked(static_cast<uint64_t>(n))];
}

Move greedy_move(const State& s) {
  if (s.is_over()) throw StateError("the round is over: there is no move to choose");
  return games::with_game(s.r_.rules.game,
                          [&](auto tag) { return Engine<DOMINOCORE_GAME(tag)>::greedy(s.r_); });
}

Bots::Bots(const std::vector<Policy>& policies, int players, uint64_t seed) : random_(seed) {
  if (players < 1 || players > kMaxPlayers)
    throw RulesError("players must be 1.." + std::to_string(kMaxPlayers));
  if (policies.size() != 1 && policies.size() != static_cast<size_t>(players))
    throw RulesError("policies: give one policy for every seat, or one per seat (" +
                     std::to_string(players) + "), not " + std::to_string(policies.size()));
  for (int s = 0; s < kMaxPlayers; ++s) {
    policies_[s] =
        policies.size() == 1 ? policies[0] : policies[static_cast<size_t>(s < players ? s : 0)];
    learned_ = learned_ || (s < players && policies_[s] == Policy::Learned);
  }
}

Move Bots::choose(const State& s) {
  const int cur = s.current_player();
  if (cur < 0) throw StateError("the round is over: there is no move to choose");
  switch (policies_[cur]) {
    case Policy::Random: return random_.choose(s);
    case Policy::Greedy: return greedy_move(s);
    case Policy::Learned: break;
  }
  if (!network_) network_ = network_for(s.rules());
  return learned_move(s, *network_);
}

void Bots::play_out(State& s) {
  if (learned_) {  // the network reads the observation, so this loop keeps the history
    while (!s.is_over()) s.push_unchecked(choose(s));
    return;
  }
  games::with_game(s.r_.rules.game, [&](auto tag) {
    Engine<DOMINOCORE_GAME(tag)>::play_out(s.r_, policies_, random_.rng());
  });
}

}  // namespace dominocore
