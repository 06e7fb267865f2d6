// A vectorized environment: N rounds of one rules object stepped at once on a
// small pool of threads (docs/ecosystem.md 4).
//
// Every environment i plays rounds one after another: its k-th round (k = 0,
// 1, ...) is the standalone round State(rules, seed = round_seed(s, i, k),
// round_index), and its random policy draws from a generator seeded with that
// round's seed ^ kRandomPlayXor. Each environment reads and writes only its
// own state and its own rows of the arrays, so the results are the same
// whatever the thread count.
//
// The arrays are owned here, row-major, and rewritten by every call:
//   observations  N x K float32: observation_tensor(seat to move)
//   masks         N x A bytes:   1 at the legal action ids
//   seats         N int32:       the seat to move
//   rewards       N x p float32: each seat's change in round margin over the step
//                 (the margin of the points so far: play points, and the end
//                 points once over); in the games that score only at the end,
//                 the round margins when the round just ended, else 0
//   terminations  N bytes:       1 when the round just ended (same-step auto-reset)
//   actions       N int32:       the actions just played
//   episodes      N int64:       k, the index of the round each environment plays
// A round that ends in step() is replaced at once by the environment's next
// round: the observation, mask and seat are the new round's. A round that ends
// at its set-up, before any move (docs/rules.md 1.5), is skipped: the next
// episode is dealt in its place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "dominocore/players.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

/// The most environments one VectorEnv may hold.
inline constexpr int kMaxVectorEnvs = 1 << 24;
/// The most threads one VectorEnv may use.
inline constexpr int kMaxVectorEnvThreads = 256;
/// Rounds that end at their set-up are skipped (their episode numbers used
/// up); more than this many in a row in one environment: StateError.
inline constexpr int kMaxSkippedDeals = 1 << 16;

namespace detail {
/// Memory for VectorEnv's arrays, which hold something for every environment
/// and so reach tens of megabytes: blocks of 2 MB and more start on a 2 MB
/// boundary and, on Linux, are marked for transparent huge pages. A step
/// visits every environment's round and rows once, so with 4 KB pages
/// thousands of environments miss the TLB at every step (measured:
/// docs/performance.md 2). Smaller blocks come from operator new.
void* allocate_env_memory(size_t bytes);
void free_env_memory(void* p, size_t bytes) noexcept;
/// Asks Linux to back the whole 2 MB pages within [begin, end), memory already
/// in use, with huge pages at once (madvise MADV_COLLAPSE, Linux 6.1 and
/// later); a hint that does nothing where it is not available.
void collapse_to_huge_pages(const void* begin, const void* end) noexcept;

template <class T>
struct EnvAllocator {
  using value_type = T;
  EnvAllocator() noexcept = default;
  template <class U>
  EnvAllocator(const EnvAllocator<U>&) noexcept {}
  T* allocate(size_t n) { return static_cast<T*>(allocate_env_memory(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { free_env_memory(p, n * sizeof(T)); }
  friend bool operator==(const EnvAllocator&, const EnvAllocator&) noexcept { return true; }
  friend bool operator!=(const EnvAllocator&, const EnvAllocator&) noexcept { return false; }
};
template <class T>
using EnvVector = std::vector<T, EnvAllocator<T>>;
}  // namespace detail

/// The seed of environment `env`'s round `episode` in a vector environment
/// seeded `seed`: seed + env + episode * 2^32 (mod 2^64). Round 0 of
/// environment i is thus the round simulate() plays as its game i.
constexpr uint64_t vector_env_round_seed(uint64_t seed, uint64_t env, uint64_t episode) noexcept {
  return seed + env + (episode << 32);
}

class VectorEnv {
 public:
  /// num_envs 1..kMaxVectorEnvs, threads 1..kMaxVectorEnvThreads (at most
  /// num_envs are used); throws RulesError otherwise, StateError for a bad
  /// round index. Deals every environment's round 0 (as reset(seed)).
  VectorEnv(const Rules& rules, int num_envs, uint64_t seed, int threads, int round_index = 0);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  const Rules& rules() const noexcept { return rules_; }
  int num_envs() const noexcept { return n_; }
  int players() const noexcept { return rules_.players; }
  int num_actions() const noexcept { return a_; }
  int observation_size() const noexcept { return k_; }
  int threads() const noexcept { return threads_; }
  int round_index() const noexcept { return round_index_; }
  uint64_t seed() const noexcept { return seed_; }

  const float* observations() const noexcept { return obs_.data(); }
  const uint8_t* masks() const noexcept { return mask_.data(); }
  const int32_t* seats() const noexcept { return seat_.data(); }
  const float* rewards() const noexcept { return reward_.data(); }
  const uint8_t* terminations() const noexcept { return term_.data(); }
  const int32_t* actions() const noexcept { return action_.data(); }
  const int64_t* episodes() const noexcept { return episode_.data(); }
  /// Environment i's round (0 <= i < num_envs, unchecked).
  const State& state(int i) const noexcept { return states_[static_cast<size_t>(i)]; }

  /// Seeds with `seed` and deals every environment's round 0; rewards,
  /// terminations and actions are cleared (actions to -1).
  void reset(uint64_t seed);
  /// Deals every environment's next round (episode + 1), same seed.
  void reset_next();
  /// The lowest environment index whose action is not legal there now, -1
  /// when every one is. `actions` holds num_envs entries.
  int first_illegal(const int64_t* actions) const noexcept;
  /// Plays actions[i] in environment i. Checks them all first: if one is not
  /// legal (first_illegal), throws RulesError and nothing moves. `actions`
  /// holds num_envs entries that nothing else writes during the call (the
  /// binding passes its own copy).
  void step(const int64_t* actions);
  /// Plays, in every environment, the legal action ids[below(count)] (ids
  /// ascending) drawn from the environment's policy generator.
  void step_random();
  /// Plays, in every environment, the learned policy's action for the seat
  /// to move (docs/learning.md 3), read from its observation and mask rows.
  /// `net` must fit the rules (network_for() gives one that does).
  void step_learned(const Network& net);

  /// The bytes this object holds for each environment (its state, its undo
  /// history's capacity now, its rows of the arrays, its generator).
  size_t bytes_per_env() const noexcept;

 private:
  class Pool;
  // Runs f(begin, end) on the thread pool over [0, n_) in `threads_`
  // contiguous blocks (the calling thread takes the first).
  template <class F>
  void parallel(const F& f);
  void reserve_histories_();  // every round's room for undo records, side by side
  // The game's module G is chosen once per call; everything below is
  // instantiated for it.
  void deal_all_();  // clears rewards, terminations, actions; deals every round
  template <class G>
  void deal_(int i);  // round episode_[i] of environment i, then its whole observation
  template <class G>
  void observe_(int i);  // observation (after a move), mask, seat of environment i
  template <class G>
  void legal_mask_(int i);  // mask and legal count of environment i, from the move generator
  template <class G>
  void finish_(int i, const double* before);  // rewards and auto-reset
  template <class G>
  void apply_(int i, int a);             // plays action a (legal) in environment i
  void prefetch_(int i) const noexcept;  // the memory the next step of environment i touches
  void prefetch_pointed_(int i) const noexcept;  // and what it points to (prefetch_ first)

  Rules rules_;
  int n_ = 0, a_ = 0, k_ = 0, threads_ = 1, round_index_ = 0;
  uint64_t seed_ = 0;
  detail::EnvVector<State> states_;
  detail::EnvVector<Rng> policy_;
  detail::EnvVector<int32_t> count_;  // legal actions per environment
  detail::EnvVector<float> obs_;
  detail::EnvVector<uint8_t> mask_;
  detail::EnvVector<int32_t> seat_;
  detail::EnvVector<float> reward_;
  detail::EnvVector<uint8_t> term_;
  detail::EnvVector<int32_t> action_;
  detail::EnvVector<int64_t> episode_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace dominocore
