#include "dominocore/sim.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "dominocore/match.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

namespace {

void append_round(SimResult& r, const RoundResult& rr, int64_t match) {
  for (int s = 0; s < r.players; ++s) r.points.push_back(rr.points[s]);
  r.reason.push_back(rr.reason == EndReason::Out ? 0 : 1);
  r.out_seat.push_back(static_cast<int8_t>(rr.out_seat));
  r.starter.push_back(static_cast<int8_t>(rr.starter));
  r.moves.push_back(rr.moves);
  r.round_index.push_back(rr.round_index);
  r.match_index.push_back(match);
}

template <class V>
void append(V& a, const V& b) {
  a.insert(a.end(), b.begin(), b.end());
}

// Runs work(chunk_begin, chunk_end, piece) over [0, n) in fixed chunks on a
// thread pool and concatenates the pieces in chunk order, so the result does
// not depend on the number of threads. Chunks are small enough to balance the
// threads (a match is a dozen rounds or more: its chunks are smaller).
template <class Work>
SimResult run_chunks(int players, uint64_t n, uint64_t chunk, int threads, Work work) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const uint64_t nchunks = (n + chunk - 1) / chunk;
  threads = static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(threads), std::max<uint64_t>(nchunks, 1)));
  std::vector<SimResult> pieces(static_cast<size_t>(nchunks));
  std::atomic<uint64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&]() {
    try {
      for (;;) {
        const uint64_t c = next.fetch_add(1);
        if (c >= nchunks) break;
        SimResult& piece = pieces[static_cast<size_t>(c)];
        piece.players = players;
        work(c * chunk, std::min(n, (c + 1) * chunk), piece);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(nchunks);
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }
  if (error) std::rethrow_exception(error);
  SimResult out;
  out.players = players;
  size_t rounds = 0, matches = 0;
  for (const auto& p : pieces) {
    rounds += p.reason.size();
    matches += p.num_matches();
  }
  out.points.reserve(rounds * static_cast<size_t>(players));
  out.totals.reserve(matches * static_cast<size_t>(players));
  for (const auto& p : pieces) {
    append(out.points, p.points);
    append(out.reason, p.reason);
    append(out.out_seat, p.out_seat);
    append(out.starter, p.starter);
    append(out.moves, p.moves);
    append(out.round_index, p.round_index);
    append(out.match_index, p.match_index);
    append(out.totals, p.totals);
    append(out.winners, p.winners);
  }
  return out;
}

}  // namespace

SimResult simulate_matches(const Rules& rules, uint64_t matches, uint64_t seed,
                           const std::vector<Policy>& policies, int threads) {
  rules.validate();
  Bots check(policies, rules.players, 0);  // validates the policy list up front
  (void)check;
  return run_chunks(rules.players, matches, 16, threads,
                    [&](uint64_t a, uint64_t b, SimResult& piece) {
                      Bots bots(policies, rules.players, 0);
                      std::optional<State> st;
                      for (uint64_t i = a; i < b; ++i) {
                        const uint64_t s = seed + i;
                        Match m(rules, s);
                        bots.reseed(s);
                        while (!m.is_over()) {
                          if (st)
                            m.new_round(*st);
                          else
                            st.emplace(m.new_round());
                          bots.play_out(*st);
                          m.add_result(st->result());
                          append_round(piece, st->result(), static_cast<int64_t>(i));
                        }
                        const std::vector<bool> w = m.winners();
                        for (int p = 0; p < rules.players; ++p) {
                          piece.totals.push_back(m.total(p));
                          piece.winners.push_back(w[static_cast<size_t>(p)] ? 1 : 0);
                        }
                      }
                    });
}

SimResult simulate_rounds(const Rules& rules, uint64_t rounds, uint64_t seed, int round_index,
                          const std::vector<Policy>& policies, int threads) {
  rules.validate();
  Bots check(policies, rules.players, 0);
  (void)check;
  {
    Rng probe(seed);  // validates the round index up front (throws StateError)
    State s(rules, probe, round_index);
  }
  return run_chunks(rules.players, rounds, 512, threads,
                    [&](uint64_t a, uint64_t b, SimResult& piece) {
                      Bots bots(policies, rules.players, 0);
                      std::optional<State> st;
                      for (uint64_t i = a; i < b; ++i) {
                        const uint64_t s = seed + i;
                        Rng rng(s);
                        if (st)
                          st->set_up(rng, round_index);
                        else
                          st.emplace(rules, rng, round_index);
                        bots.reseed(s);
                        bots.play_out(*st);
                        append_round(piece, st->result(), static_cast<int64_t>(i));
                      }
                    });
}

}  // namespace dominocore
