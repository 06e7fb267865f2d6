// Batch simulation on a pool of threads (RULES.md 1.6 "Seeds in batches").
// Results are the same whatever the thread count: game i always uses seed
// s + i, its own generators, and lands at its own place in the arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dominocore/players.hpp"
#include "dominocore/rules.hpp"

namespace dominocore {

/// Flat, row-major arrays (for numpy). Per round i of all rounds, in order
/// (a match's rounds are consecutive); per match j.
struct SimResult {
  int players = 0;
  std::vector<int32_t> points;       ///< rounds x players
  std::vector<uint8_t> reason;       ///< per round: 0 = out, 1 = blocked
  std::vector<int8_t> out_seat;      ///< per round, -1 when blocked
  std::vector<int8_t> starter;       ///< per round
  std::vector<int32_t> moves;        ///< per round: moves after the set-up
  std::vector<int32_t> round_index;  ///< per round: its index in its match (or the given index)
  std::vector<int64_t> match_index;  ///< per round: its match (= i in rounds mode)
  std::vector<int32_t> totals;       ///< matches x players (empty in rounds mode)
  std::vector<uint8_t> winners;      ///< matches x players, 1 = (shared) winner

  size_t num_rounds() const noexcept { return reason.size(); }
  size_t num_matches() const noexcept { return players ? totals.size() / static_cast<size_t>(players) : 0; }
};

/// Plays match i = 0..n-1 with match seed `seed + i` (mod 2^64).
/// `policies`: one for every seat, or one per seat. threads <= 0: all cores.
SimResult simulate_matches(const Rules& rules, uint64_t matches, uint64_t seed,
                           const std::vector<Policy>& policies = {Policy::Random},
                           int threads = 1);

/// Plays round i = 0..n-1 as a standalone round of index `round_index` whose
/// generator (and random-play generator) derive from seed `seed + i`.
SimResult simulate_rounds(const Rules& rules, uint64_t rounds, uint64_t seed, int round_index = 0,
                          const std::vector<Policy>& policies = {Policy::Random},
                          int threads = 1);

}  // namespace dominocore
