// Batch simulation on a pool of threads (docs/rules.md 1.6 "Seeds in batches").
// Results are the same whatever the thread count: game i always uses seed
// s + i, its own generators, and lands at its own place in the arrays.
//
// The work always runs on worker threads; the calling thread only waits and,
// about every 50 ms, calls an optional monitor that reports progress and may
// stop the run. Workers look at the stop flag after every round, so a stopped
// run ends within a round's time; every worker is joined before a simulation
// returns or throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "dominocore/players.hpp"
#include "dominocore/rules.hpp"

namespace dominocore {

/// The most worker threads one simulation may ask for (threads > this:
/// RulesError). "All cores" (threads <= 0) is capped at this number too.
inline constexpr int kMaxThreads = 256;
/// The most rounds (or matches) one simulation plays (more: RulesError).
inline constexpr uint64_t kMaxSimCount = uint64_t{1} << 40;

/// Progress report and stop switch of a running simulation. Called on the
/// calling thread about every 50 ms while the workers run, and once more at
/// the end with done == total. `done` and `total` count rounds in
/// simulate_rounds, matches in simulate_matches. Returning false stops the run
/// (Cancelled is thrown); an exception it throws stops the run and propagates.
using SimMonitor = std::function<bool(uint64_t done, uint64_t total)>;

/// Thrown by a simulation whose monitor returned false.
class Cancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// std::allocator, except that resize() leaves new elements of a trivial type
/// uninitialised: a simulation sizes its arrays up front and every slot is
/// written once by a worker, so a zero-filling pass over gigabytes on the
/// calling thread (which Ctrl-C could not interrupt) would be wasted.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using SimArray = std::vector<T, DefaultInitAllocator<T>>;

/// Flat, row-major arrays (for numpy). Per round i of all rounds, in order
/// (a match's rounds are consecutive); per match j.
struct SimResult {
  int players = 0;
  SimArray<int32_t> points;       ///< rounds x players
  SimArray<uint8_t> reason;       ///< per round: 0 = out, 1 = blocked, 2 = target
  SimArray<int8_t> out_seat;      ///< per round, -1 when blocked
  SimArray<int8_t> starter;       ///< per round
  SimArray<int32_t> moves;        ///< per round: moves after the set-up
  SimArray<int64_t> match_index;  ///< per round: its match (= i in rounds mode)
  SimArray<int32_t> totals;       ///< matches x players (empty in rounds mode)
  SimArray<uint8_t> winners;      ///< matches x players, 1 = (shared) winner

  size_t num_rounds() const noexcept { return reason.size(); }
  size_t num_matches() const noexcept {
    return players ? totals.size() / static_cast<size_t>(players) : 0;
  }
};

/// Plays match i = 0..n-1 with match seed `seed + i` (mod 2^64).
/// `policies`: one for every seat, or one per seat. threads <= 0: all cores.
/// Throws RulesError (bad rules, policies, matches > kMaxSimCount, threads >
/// kMaxThreads), std::bad_alloc (the result does not fit in memory),
/// std::runtime_error (a worker thread could not be started), Cancelled.
SimResult simulate_matches(const Rules& rules, uint64_t matches, uint64_t seed,
                           const std::vector<Policy>& policies = {Policy::Random}, int threads = 1,
                           const SimMonitor& monitor = {});

/// Plays round i = 0..n-1 as a standalone round of index `round_index` whose
/// generator (and random-play generator) derive from seed `seed + i`.
/// Throws as simulate_matches, and StateError for a bad round index.
SimResult simulate_rounds(const Rules& rules, uint64_t rounds, uint64_t seed, int round_index = 0,
                          const std::vector<Policy>& policies = {Policy::Random}, int threads = 1,
                          const SimMonitor& monitor = {});

}  // namespace dominocore
