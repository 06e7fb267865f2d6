// The exact count of determinization worlds, seat by seat
// (docs/information.md 4, "The count by seat").
//
// Seen from one seat, the other seats interact only through the pool U of
// tiles nobody placed: a tile a seat placed from a slot not known can only sit
// in that seat's slots, and a tile of U allowed in a seat's slots is allowed in
// a suffix of its chain (the slots in the order it got them). So:
//
// 1. Per seat, a count over its placed tiles alone (one at a time into its
//    free slots, slots that every tile still to place and every suffix start
//    treat alike merged into classes whose free room is the state) gives the
//    ways to leave each *profile* of free slots (how many at or after each
//    suffix start), and from them A(h): the ways to fill the seat given how
//    many tiles of U of each suffix start it receives (the tiles of U taken
//    latest start first: a falling factorial per start).
// 2. Across seats, a count whose state is how many tiles of U are left in each
//    group (tiles of U with the same suffix start in every seat still to
//    fill): the seat takes x_g tiles of group g in C(left_g, x_g) ways and is
//    filled in A(h(x)) ways; the rest of U fills the yard.
//
// Sampling walks the same counts backwards: uniform over the assignments of
// tiles to slots, the yard's order uniform too.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "dominocore/rng.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore::detail {

/// ln(n!), summed: std::lgamma would do, but it writes glibc's global
/// `signgam`, a data race when searches count on several threads. n stays
/// below the set's 190 tiles, so the sum is as exact as the stats need.
inline double log_factorial(int n) noexcept {
  double s = 0;
  for (int k = 2; k <= n; ++k) s += std::log(static_cast<double>(k));
  return s;
}

/// The slot model as the count by seat reads it.
struct SeatModel {
  struct Seat {
    int first_slot = 0;  ///< its slots are first_slot, first_slot + 1, ... in the order got
    std::vector<TileSet> allowed;  ///< per slot: the tiles it may hold
    std::vector<int> placed;  ///< tiles it placed from a slot not known (only it may hold them)
  };
  std::vector<Seat> seats;
  std::vector<int> pool;  ///< U: every other tile to place (the seats' other slots, then the yard)
};

class SeatCount {
 public:
  /// Builds the count. Throws std::length_error past `max_work` units of
  /// work (states, the takes and sum steps tried from them, and the profiles
  /// of each A(h) evaluated);
  /// std::domain_error when a tile of U is allowed in slots of a seat that are
  /// not a suffix of its chain (the slot model of docs/information.md 4 rules
  /// it out); std::logic_error when no world exists.
  SeatCount(const SeatModel& model, uint64_t max_work);
  ~SeatCount();
  SeatCount(const SeatCount&) = delete;
  SeatCount& operator=(const SeatCount&) = delete;

  /// A uniform world: tile_of_slot[slot] for every slot of every seat, and
  /// `yard` (cleared first) the rest of U in a uniform order.
  void sample(Rng& rng, std::vector<int>& tile_of_slot, std::vector<int>& yard) const;

  /// The work the count took (in the units of max_work).
  uint64_t work() const noexcept { return work_; }
  /// log2 of the number of worlds: assignments to the seats' slots times the
  /// orders of the yard.
  double log2_count() const noexcept { return log2_; }

  struct Chain;  ///< one seat's count (seat_count_chain.hpp)
  struct Stage;  ///< the count across seats at one seat (seat_count.cpp)

 private:
  /// The ways to fill the seats from stage k on, from state r (the tiles of U
  /// left in each group; `hash` its hash), memoised; `counted` reads the memo.
  double count(size_t k, const uint8_t* r, uint64_t hash, uint64_t max_work);
  double counted(size_t k, const uint8_t* r, uint64_t hash) const;

  std::vector<std::unique_ptr<Chain>> chains_;       ///< one per seat
  std::vector<std::unique_ptr<Stage>> stages_;       ///< one per seat, then the yard's
  std::vector<uint8_t> start_;                       ///< the first state: every tile of U
  std::vector<std::vector<double>> single_forward_;  ///< one other seat: its sums, once
  uint64_t start_hash_ = 0;
  uint64_t work_ = 0;
  double log2_ = 0;
};

}  // namespace dominocore::detail
