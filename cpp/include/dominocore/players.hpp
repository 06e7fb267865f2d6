// Built-in players (docs/rules.md 1.6): random, greedy and learned
// (docs/learning.md), and a per-seat table.
// (Defined in src/bots.cpp; the simulation loop inlines the engine of src/engine.hpp.)
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "dominocore/move.hpp"
#include "dominocore/network.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

/// The random-play generator of a game with seed s is seeded s ^ this.
inline constexpr uint64_t kRandomPlayXor = 0xD1B54A32D192ED03ull;

enum class Policy : uint8_t { Random = 0, Greedy = 1, Learned = 2 };
const char* policy_name(Policy p) noexcept;
/// "random" / "greedy" / "learned"; throws RulesError otherwise.
Policy parse_policy(std::string_view s);

/// Picks moves[below(len(moves))] from the distinct legal moves in canonical
/// order, calling below() even when one move is legal.
class RandomPlayer {
 public:
  /// `seed` is the game's seed (the match seed, or a standalone round's);
  /// the player's own generator is seeded seed ^ kRandomPlayXor.
  explicit RandomPlayer(uint64_t seed = 0) noexcept : rng_(seed ^ kRandomPlayXor) {}
  void reseed(uint64_t seed) noexcept { rng_ = Rng(seed ^ kRandomPlayXor); }
  /// Throws StateError when the round is over.
  Move choose(const State& s);
  Rng& rng() noexcept { return rng_; }
  const Rng& rng() const noexcept { return rng_; }

 private:
  Rng rng_;
  Move buf_[kMaxDistinctMoves];
};

/// Greedy: the legal Place whose tile scores most in hand (0-0 = 50 under
/// double_blank_50), ties to the lowest tile index, on that tile's first
/// placement in the game's canonical order; else Draw, else Pass. Throws
/// StateError when over.
Move greedy_move(const State& s);

/// A policy per seat plus the game's one random-play generator, which every
/// random seat draws from in move order.
class Bots {
 public:
  /// `policies`: one entry (every seat) or one per seat.
  /// Throws RulesError for another length.
  Bots(const std::vector<Policy>& policies, int players, uint64_t seed);
  void reseed(uint64_t seed) noexcept { random_.reseed(seed); }
  /// The random seats' shared generator (a saved match restores it).
  Rng& rng() noexcept { return random_.rng(); }
  Policy policy(int seat) const noexcept { return policies_[seat]; }
  /// Whether a seat plays the learned policy (whose network is looked up,
  /// once, for the first round's rules: network_for()).
  bool learned() const noexcept { return learned_; }
  /// Gives the learned seats `network` (which must fit the rules played;
  /// network_for() gives one that does) instead of looking it up.
  void use_network(std::shared_ptr<const Network> network) noexcept {
    network_ = std::move(network);
  }
  /// The move for the player to move.
  Move choose(const State& s);
  /// Plays the round to its end.
  void play_out(State& s);

 private:
  Policy policies_[kMaxPlayers];
  bool learned_ = false;
  RandomPlayer random_;
  std::shared_ptr<const Network> network_;
};

}  // namespace dominocore
