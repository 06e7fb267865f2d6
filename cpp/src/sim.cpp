#include "dominocore/sim.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

#include "batch_play.hpp"
#include "dominocore/match.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

// The rounds of a batch are read only through their results: they are played
// without the undo records (batch_play.hpp).

namespace {

// Chunks balance the threads; a match is a dozen rounds or more, so its
// chunks are smaller.
constexpr uint64_t kRoundsPerChunk = 512;
constexpr uint64_t kMatchesPerChunk = 16;
constexpr auto kMonitorPeriod = std::chrono::milliseconds(50);

// What the workers share with the calling thread.
struct Progress {
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> done{0};  // rounds or matches finished

  bool stopping() const noexcept { return stop.load(std::memory_order_relaxed); }
  void add(uint64_t units) noexcept { done.fetch_add(units, std::memory_order_relaxed); }
};

// A worker's players: each seat's policy and the random seats' generator.
struct Seats {
  Bots bots;
  Policy policy[kMaxPlayers];

  Seats(const std::vector<Policy>& policies, int players, std::shared_ptr<const Network> network)
      : bots(policies, players, 0) {
    for (int s = 0; s < kMaxPlayers; ++s) policy[s] = bots.policy(s);
    bots.use_network(std::move(network));
  }
  void play_out(State& st) {
    if (bots.learned())
      bots.play_out(st);
    else
      detail::BatchPlay::play_out(st, policy, bots.rng());
  }
};

uint64_t chunk_count(uint64_t n, uint64_t chunk) noexcept { return n / chunk + (n % chunk != 0); }

// Runs work(begin, end, progress) over [0, n) in chunks of `chunk` items on
// worker threads (at most `threads`, at most one per chunk) while this thread
// waits and calls the monitor (see sim.hpp). `work` must return soon once
// progress.stopping(). Every thread is joined before this returns or throws.
template <class Work>
void run_chunks(uint64_t n, uint64_t chunk, int threads, const SimMonitor& monitor,
                const Work& work) {
  const uint64_t chunks = chunk_count(n, chunk);
  const int workers = static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(threads), chunks));
  Progress progress;
  std::atomic<uint64_t> next_chunk{0};
  std::mutex mutex;
  std::condition_variable finished;
  int running = workers;            // guarded by mutex
  std::exception_ptr worker_error;  // guarded by mutex
  auto worker = [&] {
    try {
      while (!progress.stopping()) {
        const uint64_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (c >= chunks) break;
        work(c * chunk, std::min(n, c * chunk + chunk), progress);
      }
    } catch (...) {
      progress.stop.store(true);
      std::lock_guard<std::mutex> lock(mutex);
      if (!worker_error) worker_error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    finished.notify_all();
  };

  std::vector<std::thread> pool;
  auto stop_and_join = [&] {
    progress.stop.store(true);
    for (std::thread& t : pool) t.join();
  };
  try {
    pool.reserve(static_cast<size_t>(workers));
    for (int t = 0; t < workers; ++t) pool.emplace_back(worker);
  } catch (const std::exception& e) {  // std::system_error, std::bad_alloc
    const size_t failed = pool.size() + 1;
    stop_and_join();
    throw std::runtime_error("simulate could not start thread " + std::to_string(failed) + " of " +
                             std::to_string(workers) + ": " + e.what());
  }
  try {
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, kMonitorPeriod, [&] { return running == 0; })) {
      if (!monitor) continue;
      lock.unlock();
      if (!monitor(progress.done.load(std::memory_order_relaxed), n))
        throw Cancelled("the simulation was stopped by its monitor");
      lock.lock();
    }
  } catch (...) {
    stop_and_join();
    throw;
  }
  stop_and_join();  // every worker has finished: this only joins
  if (worker_error) std::rethrow_exception(worker_error);
  if (monitor && !monitor(progress.done.load(), n))
    throw Cancelled("the simulation was stopped by its monitor");
}

double physical_memory_bytes() noexcept {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page);
#endif
  return std::numeric_limits<double>::infinity();
}

// Refuses (std::bad_alloc) result arrays larger than the machine's memory up
// front: on a system that overcommits, each array alone could be allocated and
// filling them all would get the process killed instead.
void check_fits(uint64_t rounds, uint64_t matches, int players) {
  // points, reason, out_seat, starter, moves, match_index; totals, winners
  const double per_round = 4.0 * players + 1 + 1 + 1 + 4 + 8;
  const double per_match = 4.0 * players + 1.0 * players;
  const double bytes =
      static_cast<double>(rounds) * per_round + static_cast<double>(matches) * per_match;
  if (bytes > static_cast<double>(std::numeric_limits<size_t>::max()) ||
      bytes > physical_memory_bytes())
    throw std::bad_alloc();
}

SimResult empty_result(int players) {
  SimResult r;
  r.players = players;
  return r;
}

// Sizes the per-round arrays for `rounds` rounds.
void resize_rounds(SimResult& r, size_t rounds) {
  r.points.resize(rounds * static_cast<size_t>(r.players));
  r.reason.resize(rounds);
  r.out_seat.resize(rounds);
  r.starter.resize(rounds);
  r.moves.resize(rounds);
  r.match_index.resize(rounds);
}

void put_round(SimResult& r, size_t i, const RoundResult& rr, uint64_t match) noexcept {
  std::copy_n(rr.points.begin(), r.players, r.points.data() + i * static_cast<size_t>(r.players));
  // 0 out, 1 blocked, 2 target (all_fives.md F8)
  r.reason[i] = static_cast<uint8_t>(static_cast<int>(rr.reason) - 1);
  r.out_seat[i] = static_cast<int8_t>(rr.out_seat);
  r.starter[i] = static_cast<int8_t>(rr.starter);
  r.moves[i] = rr.moves;
  r.match_index[i] = static_cast<int64_t>(match);
}

void append_round(SimResult& r, const RoundResult& rr, uint64_t match) {
  const size_t i = r.num_rounds();
  resize_rounds(r, i + 1);
  put_round(r, i, rr, match);
}

void put_match(SimResult& r, size_t j, const Match& m) noexcept {
  for (int s = 0; s < r.players; ++s) {
    const size_t k = j * static_cast<size_t>(r.players) + static_cast<size_t>(s);
    r.totals[k] = m.total(s);
    r.winners[k] = m.is_winner(s) ? 1 : 0;
  }
}

template <class V>
void move_to_end(V& to, V& from) {
  to.insert(to.end(), from.begin(), from.end());
  V().swap(from);
}

// Appends the rounds of each piece, in order, freeing each piece once copied.
void concatenate_rounds(SimResult& out, std::vector<SimResult>& pieces) {
  size_t rounds = 0;
  for (const SimResult& p : pieces) rounds += p.num_rounds();
  out.points.reserve(rounds * static_cast<size_t>(out.players));
  out.reason.reserve(rounds);
  out.out_seat.reserve(rounds);
  out.starter.reserve(rounds);
  out.moves.reserve(rounds);
  out.match_index.reserve(rounds);
  for (SimResult& p : pieces) {
    move_to_end(out.points, p.points);
    move_to_end(out.reason, p.reason);
    move_to_end(out.out_seat, p.out_seat);
    move_to_end(out.starter, p.starter);
    move_to_end(out.moves, p.moves);
    move_to_end(out.match_index, p.match_index);
  }
}

// The checks of every simulation, before any work; returns the thread count,
// and the network of the learned seats in `network` (the workers cannot throw).
int check_request(const Rules& rules, uint64_t count, const char* what,
                  const std::vector<Policy>& policies, int threads,
                  std::shared_ptr<const Network>& network) {
  rules.validate();
  const Bots check(policies, rules.players, 0);  // throws RulesError for a bad policy list
  if (check.learned()) network = network_for(rules);
  if (count > kMaxSimCount)
    throw RulesError(std::string(what) + "=" + std::to_string(count) +
                     " is out of range: at most 2**40 (" + std::to_string(kMaxSimCount) +
                     ") in one simulation");
  if (threads > kMaxThreads)
    throw RulesError("threads=" + std::to_string(threads) + " is out of range: at most " +
                     std::to_string(kMaxThreads));
  if (threads > 0) return threads;
  return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
}

}  // namespace

SimResult simulate_matches(const Rules& rules, uint64_t matches, uint64_t seed,
                           const std::vector<Policy>& policies, int threads,
                           const SimMonitor& monitor) {
  std::shared_ptr<const Network> network;
  const int workers = check_request(rules, matches, "matches", policies, threads, network);
  const uint64_t fewest_rounds =
      matches * static_cast<uint64_t>(std::max(1, rules.rounds_per_match()));
  check_fits(fewest_rounds, matches, rules.players);
  SimResult out = empty_result(rules.players);
  out.totals.resize(static_cast<size_t>(matches) * static_cast<size_t>(rules.players));
  out.winners.resize(out.totals.size());
  // A match's rounds are only known once played: each chunk collects its own.
  std::vector<SimResult> pieces(static_cast<size_t>(chunk_count(matches, kMatchesPerChunk)),
                                empty_result(rules.players));
  run_chunks(matches, kMatchesPerChunk, workers, monitor,
             [&](uint64_t begin, uint64_t end, Progress& progress) {
               SimResult& piece = pieces[static_cast<size_t>(begin / kMatchesPerChunk)];
               Seats seats(policies, rules.players, network);
               std::optional<State> st;
               for (uint64_t i = begin; i < end; ++i) {
                 const uint64_t s = seed + i;
                 Match m(rules, s);
                 seats.bots.reseed(s);
                 while (!m.is_over()) {
                   if (progress.stopping()) return;
                   if (st)
                     m.new_round(*st);
                   else
                     st.emplace(m.new_round());
                   seats.play_out(*st);
                   m.add_result(st->result());
                   append_round(piece, st->result(), i);
                 }
                 put_match(out, static_cast<size_t>(i), m);
                 progress.add(1);
               }
             });
  concatenate_rounds(out, pieces);
  return out;
}

SimResult simulate_rounds(const Rules& rules, uint64_t rounds, uint64_t seed, int round_index,
                          const std::vector<Policy>& policies, int threads,
                          const SimMonitor& monitor) {
  std::shared_ptr<const Network> network;
  const int workers = check_request(rules, rounds, "rounds", policies, threads, network);
  {
    Rng probe(seed);  // validates the round index up front (throws StateError)
    State s(rules, probe, round_index);
  }
  check_fits(rounds, 0, rules.players);
  SimResult out = empty_result(rules.players);
  resize_rounds(out, static_cast<size_t>(rounds));  // round i writes its own slot
  run_chunks(rounds, kRoundsPerChunk, workers, monitor,
             [&](uint64_t begin, uint64_t end, Progress& progress) {
               Seats seats(policies, rules.players, network);
               std::optional<State> st;
               for (uint64_t i = begin; i < end && !progress.stopping(); ++i) {
                 const uint64_t s = seed + i;
                 Rng rng(s);
                 if (st)
                   st->set_up(rng, round_index);
                 else
                   st.emplace(rules, rng, round_index);
                 seats.bots.reseed(s);
                 seats.play_out(*st);
                 put_round(out, static_cast<size_t>(i), st->result(), i);
               }
               progress.add(end - begin);
             });
  return out;
}

}  // namespace dominocore
