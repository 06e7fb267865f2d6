// The vectorized environment (vector_env.hpp) and its pool of threads.
//
// The pool keeps threads - 1 helpers asleep between calls; a call wakes them
// with a new generation number, runs the first block on the calling thread and
// waits until every helper has finished its block. Blocks are fixed by the
// thread count alone (environment i always lands in the same block), and no
// environment reads another's data, so the block boundaries cannot change a
// result.
#include "dominocore/vector_env.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "dominocore/information.hpp"
#include "engine.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dominocore {

namespace detail {

// Huge pages where Linux offers them through madvise; operator new elsewhere,
// and for blocks too small to fill one.
#if defined(__linux__) && defined(MADV_HUGEPAGE)
namespace {
constexpr size_t kHugePage = size_t{2} << 20;  // x86-64's and most arm64 kernels' huge page
}  // namespace

void* allocate_env_memory(size_t bytes) {
  if (bytes < kHugePage) return ::operator new(bytes);
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, rounded) != 0) throw std::bad_alloc();
  madvise(p, rounded, MADV_HUGEPAGE);  // a hint: where huge pages are off, it fails harmlessly
  return p;
}

void free_env_memory(void* p, size_t bytes) noexcept {
  if (bytes < kHugePage)
    ::operator delete(p);
  else
    std::free(p);
}

void collapse_to_huge_pages(const void* begin, const void* end) noexcept {
#if !defined(MADV_COLLAPSE)
  // Linux's value (uapi asm-generic/mman-common.h), absent from older libc headers.
  constexpr int MADV_COLLAPSE = 25;
#endif
  const auto first = (reinterpret_cast<uintptr_t>(begin) + kHugePage - 1) & ~(kHugePage - 1);
  const auto last = reinterpret_cast<uintptr_t>(end) & ~(kHugePage - 1);
  if (first >= last) return;
  void* p = reinterpret_cast<void*>(first);
  madvise(p, last - first, MADV_HUGEPAGE);  // and keep them huge
  madvise(p, last - first, MADV_COLLAPSE);  // EINVAL before Linux 6.1: nothing happens
}
#else
void* allocate_env_memory(size_t bytes) { return ::operator new(bytes); }
void free_env_memory(void* p, size_t) noexcept { ::operator delete(p); }
void collapse_to_huge_pages(const void*, const void*) noexcept {}
#endif

}  // namespace detail

class VectorEnv::Pool {
 public:
  explicit Pool(int threads) {
    try {
      for (int t = 1; t < threads; ++t) helpers_.emplace_back([this, t] { serve_(t); });
    } catch (...) {
      stop_();
      throw;
    }
  }
  ~Pool() { stop_(); }

  // Runs job(t) for t = 0..threads-1, t = 0 on this thread; rethrows the
  // first exception a block threw, once every block has finished.
  void run(const std::function<void(int)>& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      error_ = nullptr;
      pending_ = static_cast<int>(helpers_.size());
      ++generation_;
    }
    wake_.notify_all();
    std::exception_ptr mine;
    try {
      job(0);
    } catch (...) {
      mine = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void serve_(int t) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        job = job_;
      }
      std::exception_ptr error;
      try {
        (*job)(t);
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !error_) error_ = error;
      if (--pending_ == 0) done_.notify_one();
    }
  }

  void stop_() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& h : helpers_) h.join();
    helpers_.clear();
  }

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  std::exception_ptr error_;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
};

VectorEnv::VectorEnv(const Rules& rules, int num_envs, uint64_t seed, int threads, int round_index)
    : rules_(rules), n_(num_envs), round_index_(round_index), seed_(seed) {
  rules_.validate();
  if (num_envs < 1 || num_envs > kMaxVectorEnvs)
    throw RulesError("num_envs must be between 1 and " + std::to_string(kMaxVectorEnvs) + ", got " +
                     std::to_string(num_envs));
  if (threads < 1 || threads > kMaxVectorEnvThreads)
    throw RulesError("threads must be between 1 and " + std::to_string(kMaxVectorEnvThreads) +
                     ", got " + std::to_string(threads));
  threads_ = std::min(threads, num_envs);
  const auto n = static_cast<size_t>(n_);
  states_.reserve(n);
  // The first state checks the round index (StateError); the others copy its rules.
  states_.emplace_back(rules_, vector_env_round_seed(seed, 0, 0), round_index);
  for (size_t i = 1; i < n; ++i) states_.push_back(states_[0]);
  reserve_histories_();
  a_ = states_[0].num_actions();
  k_ = observation_tensor_size(rules_);
  const int p = rules_.players;
  policy_.assign(n, Rng(0));
  count_.assign(n, 0);
  obs_.assign(n * static_cast<size_t>(k_), 0.0f);
  mask_.assign(n * static_cast<size_t>(a_), 0);
  seat_.assign(n, 0);
  reward_.assign(n * static_cast<size_t>(p), 0.0f);
  term_.assign(n, 0);
  action_.assign(n, -1);
  episode_.assign(n, 0);
  pool_ = std::make_unique<Pool>(threads_);
  reset(seed);
}

VectorEnv::~VectorEnv() = default;

void VectorEnv::reserve_histories_() {
  // A copied State has no room for undo records, and would get it bit by bit
  // during its first round, scattered over the heap. Made here in
  // environment order, the histories lie side by side, in as few pages as
  // their size allows; on Linux those become huge pages too (a step touches
  // every environment's history, so with 4 KB pages each costs a TLB miss).
  // A round of more moves grows its own history, elsewhere.
  constexpr int kReserved = State::kReservedMoves;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (State& s : states_) {
    s.reserve_history(kReserved);
    const auto* h = s.data().hist.data();
    lo = std::min(lo, reinterpret_cast<uintptr_t>(h));
    hi = std::max(hi, reinterpret_cast<uintptr_t>(h + kReserved));
  }
  // Only where the heap kept them together (at most as much other memory between them).
  if (hi - lo <= 2 * states_.size() * kReserved * sizeof(Record))
    detail::collapse_to_huge_pages(reinterpret_cast<const void*>(lo),
                                   reinterpret_cast<const void*>(hi));
}

template <class F>
void VectorEnv::parallel(const F& f) {
  const int blocks = threads_;
  const std::function<void(int)> job = [&](int t) {
    const int begin = static_cast<int>(static_cast<int64_t>(n_) * t / blocks);
    const int end = static_cast<int>(static_cast<int64_t>(n_) * (t + 1) / blocks);
    f(begin, end);
  };
  if (blocks == 1)
    job(0);
  else
    pool_->run(job);
}

namespace {

// Prefetches every cache line that [p, p + bytes) touches (hints only: no
// effect on a result).
inline void prefetch_bytes(const void* p, size_t bytes, bool write) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  const auto first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{63};
  const auto last = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t line = first; line < last; line += 64) {
    const auto* c = reinterpret_cast<const char*>(line);
    if (write)
      __builtin_prefetch(c, 1);
    else
      __builtin_prefetch(c, 0);
  }
#else
  (void)p, (void)bytes, (void)write;
#endif
}

// How many environments ahead step() and step_random() prefetch: the rounds
// of thousands of environments do not fit in the caches, and one step of an
// environment is too short for the hardware to guess the next one's lines.
// The lines at fixed places first, then (half as far ahead, once those have
// arrived) the ones they point to. Of 4, 8 and 16, 8 measured fastest with
// 4096 environments (docs/performance.md 2).
constexpr int kPrefetchAhead = 8;

}  // namespace

void VectorEnv::prefetch_(int i) const noexcept {
  const RoundData& r = states_[static_cast<size_t>(i)].data();
  // The round's head: everything a move reads or writes in place, up to the
  // hands of the seats that play (round_data.hpp orders the fields so); then
  // the rows the step rewrites (without them, measured no faster within the noise).
  const auto* base = reinterpret_cast<const char*>(&r);
  const auto* head_end = reinterpret_cast<const char*>(&r.hands[rules_.players]);
  prefetch_bytes(base, static_cast<size_t>(head_end - base), false);
  prefetch_bytes(obs_.data() + static_cast<size_t>(i) * static_cast<size_t>(k_),
                 sizeof(float) * static_cast<size_t>(k_), true);
  prefetch_bytes(mask_.data() + static_cast<size_t>(i) * static_cast<size_t>(a_),
                 static_cast<size_t>(a_), true);
}

void VectorEnv::prefetch_pointed_(int i) const noexcept {
  const RoundData& r = states_[static_cast<size_t>(i)].data();
  prefetch_bytes(&r.placed[r.n_placed], sizeof(Placement), true);       // the next placement
  prefetch_bytes(r.hist.data() + r.hist.size(), sizeof(Record), true);  // the next undo record
}

template <class G>
void VectorEnv::legal_mask_(int i) {
  const auto u = static_cast<size_t>(i);
  const RoundData& r = states_[u].data();
  uint8_t* mask = mask_.data() + u * static_cast<size_t>(a_);
  // Cleared by words, inlined (a call to the library's memset costs as much).
  int w = 0;
  for (; w + 8 <= a_; w += 8) std::memset(mask + w, 0, 8);
  for (; w < a_; ++w) mask[w] = 0;
  // Straight from the generator (no listing): a distinct placement has one id.
  int count = 0;
  const int na = a_;
  Engine<G>::for_each_distinct(
      r,
      [&](int t, int e) {
        uint8_t& flag = mask[G::action_of(r, t, e)];
        count += !flag;
        flag = 1;
      },
      [&](const Move& m) {
        mask[m.kind == MoveKind::Draw ? na - 2 : na - 1] = 1;
        ++count;
      });
  count_[u] = count;
}

template <class G>
void VectorEnv::observe_(int i) {
  const auto u = static_cast<size_t>(i);
  const State& s = states_[u];
  const int seat = s.current_player();  // a live round: a round that ends is replaced
  seat_[u] = seat;
  observation_tensor_after_move(s, seat, obs_.data() + u * static_cast<size_t>(k_));
  legal_mask_<G>(i);
}

template <class G>
void VectorEnv::deal_(int i) {
  const auto u = static_cast<size_t>(i);
  // A round that ends at its set-up (docs/rules.md 1.5) has no move to play:
  // it is skipped, its episode number used up.
  for (int tries = 0;; ++tries) {
    const uint64_t seed = vector_env_round_seed(seed_, u, static_cast<uint64_t>(episode_[u]));
    Rng rng(seed);
    states_[u].set_up(rng, round_index_);
    policy_[u] = Rng(seed ^ kRandomPlayXor);
    if (!states_[u].is_over()) break;
    if (tries == kMaxSkippedDeals)
      throw StateError("environment " + std::to_string(i) + ": " +
                       std::to_string(kMaxSkippedDeals + 1) +
                       " rounds in a row ended at their set-up");
    ++episode_[u];
  }
  const State& s = states_[u];
  seat_[u] = s.current_player();
  observation_tensor(s, seat_[u], obs_.data() + u * static_cast<size_t>(k_));
  legal_mask_<G>(i);
}

namespace {
// The round margins of the points scored so far: play points, plus the
// points at the end once the round is over (all of them: the result's).
void margins_so_far(const Rules& rules, const State& s, double* out) noexcept {
  if (s.is_over()) {
    round_margins(rules, s.result(), out);
    return;
  }
  RoundResult so_far;
  so_far.players = rules.players;
  for (int p = 0; p < rules.players; ++p) so_far.points[p] = s.play_points(p);
  round_margins(rules, so_far, out);
}
}  // namespace

template <class G>
void VectorEnv::finish_(int i, const double* before) {
  const auto u = static_cast<size_t>(i);
  float* reward = reward_.data() + u * static_cast<size_t>(rules_.players);
  State& s = states_[u];
  // The change in every seat's round margin: per step where points come
  // during play (all_fives.md F5), the whole margin at the end elsewhere.
  double margins[kMaxPlayers];
  if (!s.is_over()) {
    if constexpr (G::kScoresInPlay) {
      margins_so_far(rules_, s, margins);
      for (int p = 0; p < rules_.players; ++p)
        reward[p] = static_cast<float>(margins[p] - before[p]);
    } else {
      std::fill(reward, reward + rules_.players, 0.0f);
    }
    term_[u] = 0;
    observe_<G>(i);
    return;
  }
  round_margins(rules_, s.result(), margins);
  for (int p = 0; p < rules_.players; ++p)
    reward[p] = static_cast<float>(margins[p] - (G::kScoresInPlay ? before[p] : 0.0));
  term_[u] = 1;
  ++episode_[u];
  deal_<G>(i);
}

template <class G>
void VectorEnv::apply_(int i, int a) {
  State& s = states_[static_cast<size_t>(i)];
  Move m;
  if (!Engine<G>::action_move(s.data(), a, m)) return;  // step() checked every action first
  double before[kMaxPlayers] = {};
  if constexpr (G::kScoresInPlay) margins_so_far(rules_, s, before);
  s.push_unchecked(m);
  action_[static_cast<size_t>(i)] = a;
  finish_<G>(i, before);
}

void VectorEnv::reset(uint64_t seed) {
  seed_ = seed;
  std::fill(episode_.begin(), episode_.end(), 0);
  deal_all_();
}

void VectorEnv::reset_next() {
  for (auto& e : episode_) ++e;
  deal_all_();
}

void VectorEnv::deal_all_() {
  std::fill(reward_.begin(), reward_.end(), 0.0f);
  std::fill(term_.begin(), term_.end(), uint8_t{0});
  std::fill(action_.begin(), action_.end(), -1);
  games::with_game(rules_.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    parallel([this](int b, int e) {
      for (int i = b; i < e; ++i) deal_<G>(i);
    });
  });
}

int VectorEnv::first_illegal(const int64_t* actions) const noexcept {
  for (int i = 0; i < n_; ++i) {
    const int64_t a = actions[i];
    if (a < 0 || a >= a_ ||
        !mask_[static_cast<size_t>(i) * static_cast<size_t>(a_) + static_cast<size_t>(a)])
      return i;
  }
  return -1;
}

void VectorEnv::step(const int64_t* actions) {
  // The same actions are checked and played (never an environment skipped
  // silently, its last terminations and rewards left to be counted again).
  const int bad = first_illegal(actions);
  if (bad >= 0)
    throw RulesError("environment " + std::to_string(bad) + ": action " +
                     std::to_string(actions[bad]) + " is not legal now");
  games::with_game(rules_.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    parallel([this, actions](int b, int e) {
      for (int i = b; i < e; ++i) {
        if (i + kPrefetchAhead < e) prefetch_(i + kPrefetchAhead);
        if (i + kPrefetchAhead / 2 < e) prefetch_pointed_(i + kPrefetchAhead / 2);
        apply_<G>(i, static_cast<int>(actions[i]));
      }
    });
  });
}

namespace {
// The index of the (pick + 1)-th nonzero byte of a 0/1 mask of n bytes that
// has more than `pick` of them; reads whole 8-byte words, then the last bytes
// one by one: the bytes past the row are another environment's, perhaps
// being written by another thread.
inline int nth_set(const uint8_t* mask, int n, int pick) noexcept {
  int w = 0;
  for (; w + 8 <= n; w += 8) {
    uint64_t x;
    std::memcpy(&x, mask + w, sizeof x);
    const int ones = static_cast<int>((x * 0x0101010101010101ull) >> 56);  // bytes 0 or 1
    if (pick >= ones) {
      pick -= ones;
      continue;
    }
    for (int a = w;; ++a, x >>= 8)
      if ((x & 0xff) && pick-- == 0) return a;
  }
  for (int a = w;; ++a)
    if (mask[a] && pick-- == 0) return a;
}
}  // namespace

void VectorEnv::step_random() {
  games::with_game(rules_.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    parallel([this](int b, int e) {
      for (int i = b; i < e; ++i) {
        if (i + kPrefetchAhead < e) prefetch_(i + kPrefetchAhead);
        if (i + kPrefetchAhead / 2 < e) prefetch_pointed_(i + kPrefetchAhead / 2);
        const auto u = static_cast<size_t>(i);
        const auto count = static_cast<uint64_t>(count_[u]);
        const int pick = static_cast<int>(policy_[u].below_unchecked(count));
        apply_<G>(i, nth_set(mask_.data() + u * static_cast<size_t>(a_), a_, pick));
      }
    });
  });
}

void VectorEnv::step_learned(const Network& net) {
  games::with_game(rules_.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    parallel([this, &net](int b, int e) {
      std::vector<int> legal;
      for (int i = b; i < e; ++i) {
        const auto u = static_cast<size_t>(i);
        const uint8_t* mask = mask_.data() + u * static_cast<size_t>(a_);
        legal.clear();
        for (int a = 0; a < a_; ++a)
          if (mask[a]) legal.push_back(a);
        const float* obs = obs_.data() + u * static_cast<size_t>(k_);
        apply_<G>(i, legal.size() == 1
                         ? legal[0]  // forced: no evaluation
                         : net.choose(obs, legal.data(), static_cast<int>(legal.size())));
      }
    });
  });
}

size_t VectorEnv::bytes_per_env() const noexcept {
  const State& s = states_[0];
  return sizeof(State) + s.data().hist.capacity() * sizeof(Record) + sizeof(Rng) +
         sizeof(int32_t) * 3 + sizeof(int64_t) + sizeof(uint8_t) +
         sizeof(float) * static_cast<size_t>(k_ + rules_.players) + static_cast<size_t>(a_);
}

}  // namespace dominocore
