// Search bots (search.hpp, docs/search.md).
//
// One tree code serves the three searches. A tree is a trie over the
// searching seat's information states: the root is the seat's information
// state now, and a child is keyed by the move that leads to it as the seat
// sees it (every move is public; the seat's own Draws also by the tile drawn,
// which it sees, through a chance node). Each iteration takes a world (a
// full state), walks the tree applying the moves chosen to that world,
// expands one move, plays the rest out with the rollout policy and backs the
// reward of each mover up the path.
//
// - IS-MCTS: a new world every iteration, sampled by the seat's determinizer;
//   the moves legal in that world are the available arms of each node
//   (availability counts, the subset-armed bandit of Cowling et al.).
// - PIMC: D worlds sampled once each, each searched by its own tree with the
//   world fixed (plain UCT: every arm is available at every visit); the root
//   visits and rewards are summed over the worlds.
// - Cheat: plain UCT on the true state.
//
// The files: this one holds the options, the cache of determinizers, the
// search (its trees run on worker threads) and state_from_knowledge; one
// tree, its walk and its backup are in search_tree.hpp / .cpp, the checks of
// seat knowledge in search_knowledge.hpp / .cpp.
#include "dominocore/search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dominocore/determinize.hpp"
#include "dominocore/information.hpp"
#include "dominocore/sim.hpp"
#include "search_knowledge.hpp"
#include "search_tree.hpp"

namespace dominocore {

SearchAlgorithm parse_search_algorithm(std::string_view s) {
  if (s == "ismcts") return SearchAlgorithm::ISMCTS;
  if (s == "pimc") return SearchAlgorithm::PIMC;
  if (s == "cheat") return SearchAlgorithm::Cheat;
  throw RulesError("unknown search '" + std::string(s) + "': expected 'ismcts', 'pimc' or 'cheat'");
}

SearchReward parse_search_reward(std::string_view s) {
  if (s == "margin") return SearchReward::Margin;
  if (s == "own") return SearchReward::Own;
  throw RulesError("unknown reward '" + std::string(s) + "': expected 'margin' or 'own'");
}

SearchLeaf parse_search_leaf(std::string_view s) {
  if (s == "rollout") return SearchLeaf::Rollout;
  if (s == "learned") return SearchLeaf::Learned;
  throw RulesError("unknown leaf '" + std::string(s) + "': expected 'rollout' or 'learned'");
}

void SearchOptions::validate() const {
  if (iterations > kMaxSearchIterations)
    throw RulesError("iterations must be at most " + std::to_string(kMaxSearchIterations) +
                     ", got " + std::to_string(iterations));
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw RulesError("seconds must be a finite number >= 0, got " + std::to_string(seconds));
  if (iterations == 0 && seconds == 0)
    throw RulesError("give an iteration budget (iterations >= 1) or a time budget (seconds > 0)");
  if (!(c >= 0) || !std::isfinite(c))
    throw RulesError("the exploration constant c must be a finite number >= 0, got " +
                     std::to_string(c));
  if (trees < 1 || trees > kMaxSearchTrees)
    throw RulesError("trees must be 1.." + std::to_string(kMaxSearchTrees) + ", got " +
                     std::to_string(trees));
  if (threads < 1 || threads > kMaxThreads)
    throw RulesError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " +
                     std::to_string(threads));
  if (max_depth < 0) throw RulesError("max_depth must be >= 0, got " + std::to_string(max_depth));
  if (leaf == SearchLeaf::Learned && reward != SearchReward::Margin)
    throw RulesError(
        "leaf='learned' values a leaf by the learned round margin: it needs reward='margin'");
  inference.validate();
  if (pool < 0 || pool > kMaxPool)
    throw RulesError("pool must be 0.." + std::to_string(kMaxPool) + ", got " +
                     std::to_string(pool));
  if (pool > 0 &&
      (inference.model == Inference::Model::None || algorithm != SearchAlgorithm::ISMCTS))
    throw RulesError("a pool of weighted worlds needs IS-MCTS and an opponent model");
}

namespace {

using detail::Clock;

/// SplitMix64's first output from state z: the seeds of trees and worlds.
uint64_t mix64(uint64_t z) noexcept { return Rng(z).next(); }

/// The most iterations one tree runs: its visit counts are 32-bit.
constexpr uint64_t kMaxTreeIterations = 0xFFFFFFFFull;

/// The time budget as a duration of the clock, saturated: past half of what
/// the clock's duration holds (some 146 years), the budget is that half, which
/// no search reaches. No conversion overflows, whatever the (finite, >= 0)
/// double; every time in the search is a duration since its start, so no
/// sum overflows either.
Clock::duration budget_of(double seconds) noexcept {
  constexpr Clock::duration kMost = Clock::duration::max() / 2;
  if (!(seconds > 0)) return Clock::duration::zero();
  if (!(seconds < std::chrono::duration<double>(kMost).count())) return kMost;
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

// ---- the cache of determinizers --------------------------------------------------

struct SearchCache::Impl {
  struct Entry {
    Rules rules;
    uint64_t hash = 0;
    std::string info;                         ///< the seat's information state (its seat included)
    Inference inference;                      ///< how its worlds are weighted
    std::shared_ptr<const Determinizer> det;  ///< never sampled: only cloned
    bool same_key(const Entry& o) const {
      return hash == o.hash && info == o.info && rules == o.rules && inference == o.inference;
    }
  };
  mutable std::mutex lock;
  std::vector<Entry> entries;  ///< most recently used last
  uint64_t hits = 0, misses = 0;

  std::shared_ptr<const Determinizer> find(const Entry& key) {
    const std::lock_guard<std::mutex> hold(lock);
    for (size_t i = 0; i < entries.size(); ++i) {
      const Entry& e = entries[i];
      if (e.same_key(key)) {
        std::rotate(entries.begin() + static_cast<std::ptrdiff_t>(i),
                    entries.begin() + static_cast<std::ptrdiff_t>(i) + 1, entries.end());
        ++hits;
        return entries.back().det;
      }
    }
    ++misses;
    return nullptr;
  }
  void keep(Entry entry) {
    const std::lock_guard<std::mutex> hold(lock);
    for (const Entry& e : entries)  // another search of it got here first
      if (e.same_key(entry)) return;
    if (entries.size() >= kEntries) entries.erase(entries.begin());
    entries.push_back(std::move(entry));
  }
};

SearchCache::SearchCache() : impl_(std::make_unique<Impl>()) {}
SearchCache::~SearchCache() = default;
size_t SearchCache::size() const {
  const std::lock_guard<std::mutex> hold(impl_->lock);
  return impl_->entries.size();
}
uint64_t SearchCache::hits() const {
  const std::lock_guard<std::mutex> hold(impl_->lock);
  return impl_->hits;
}
uint64_t SearchCache::misses() const {
  const std::lock_guard<std::mutex> hold(impl_->lock);
  return impl_->misses;
}
void SearchCache::clear() {
  std::vector<Impl::Entry> gone;  // freed outside the lock
  const std::lock_guard<std::mutex> hold(impl_->lock);
  gone.swap(impl_->entries);
}

namespace {

/// A determinizer that cannot read the state (a logic_error of determinize.cpp:
/// tiles that fit no slot, slots and tiles that do not add up) was given an
/// inconsistent state: bad input, reported as StateError.
[[noreturn]] void inconsistent(const std::logic_error& e) {
  throw StateError(std::string("cannot search this position: its history is inconsistent (") +
                   e.what() + ")");
}

}  // namespace

SearchResult search(const State& state, const SearchOptions& opt, SearchCache* cache) {
  opt.validate();
  if (state.is_over()) throw StateError("the round is over: there is no move to choose");
  // Looked up before any work: RulesError when these rules have no network.
  const std::shared_ptr<const Network> network =
      opt.uses_network() ? network_for(state.rules()) : nullptr;
  const auto start = Clock::now();
  const int seat = state.current_player();
  SearchResult out;
  out.moves = state.legal_moves(true);
  const size_t k = out.moves.size();
  out.visits.assign(k, 0);
  out.mean_reward.assign(k, 0.0);
  if (k == 1) {
    out.move = out.moves[0];
    return out;
  }
  // Every random choice derives from the seed and the seat's information state.
  const uint64_t info_hash = information_state_hash(state, seat);
  const uint64_t base = mix64(opt.seed ^ mix64(info_hash));
  const int T = opt.trees;
  const int workers = std::min(opt.threads, T);
  const bool timed = opt.seconds > 0;
  const Clock::duration budget = budget_of(opt.seconds);

  // The seat's determinizer: the cache's for this information state, or a
  // new one (kept in the cache). Each worker samples from its own clone; the
  // count, when one is needed, is built once and shared by the clones.
  std::shared_ptr<const Determinizer> proto;
  if (opt.algorithm != SearchAlgorithm::Cheat) {
    SearchCache::Impl::Entry key;
    if (cache) {
      key.rules = state.rules();
      key.hash = info_hash;
      key.info = information_state(state, seat);
      key.inference = opt.inference;
      proto = cache->impl().find(key);
      out.reused = proto != nullptr;
    }
    if (!proto) {
      try {
        proto = std::make_shared<const Determinizer>(state, seat, Determinizer::kProposals,
                                                     Determinizer::Method::Auto, opt.inference);
      } catch (const std::invalid_argument&) {
        throw;
      } catch (const std::logic_error& e) {
        inconsistent(e);
      }
      if (cache) {
        key.det = proto;
        cache->impl().keep(std::move(key));
      }
    }
  }

  std::vector<detail::TreeStats> stats(static_cast<size_t>(T));
  std::atomic<int> next_tree{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_lock;

  auto worker = [&] {
    try {
      std::unique_ptr<Determinizer> det;  // one per worker, reused by its trees
      if (proto) det = std::make_unique<Determinizer>(proto->clone());
      for (;;) {
        const int t = next_tree.fetch_add(1);
        if (t >= T || failed.load()) break;
        Rng rng(mix64(base + 0x632BE59BD9B4E019ull * (static_cast<uint64_t>(t) + 1)));
        uint64_t iterations = kMaxTreeIterations;
        if (opt.iterations != 0) {
          const uint64_t share =
              opt.iterations / static_cast<uint64_t>(T) +
              (static_cast<uint64_t>(t) < opt.iterations % static_cast<uint64_t>(T) ? 1 : 0);
          if (share == 0) continue;
          iterations = std::min(share, kMaxTreeIterations);
        }
        // The time budget: one deadline for the whole search. A tree gets the
        // time left now, shared by the trees still to start (this one
        // included) as spread over the workers: ceil(left / workers) of them
        // on this worker, one after the other.
        Clock::duration stop = budget;
        if (timed) {
          const Clock::duration now = Clock::now() - start;
          const int here = (T - t + workers - 1) / workers;
          stop = now < budget ? now + (budget - now) / here : now;
        }
        detail::TreeSearch ts(opt, seat, state.players(), network.get());
        if (opt.pool > 0) {
          // The tree's pool: P uniform worlds weighed once; each iteration
          // takes one in proportion to its likelihood (an empirical posterior).
          std::vector<State> pool;
          std::vector<double> cumulative;
          pool.reserve(static_cast<size_t>(opt.pool));
          std::vector<double> logs(static_cast<size_t>(opt.pool));
          double top = -std::numeric_limits<double>::infinity();
          for (double& log_l : logs) {
            pool.push_back(det->sample_weighed(rng, log_l));
            top = std::max(top, log_l);
          }
          double total = 0;
          for (double log_l : logs) cumulative.push_back(total += std::exp(log_l - top));
          ts.run(
              [&](Rng& r, std::optional<State>& world) {
                const double u = r.unit() * total;
                const auto k = static_cast<size_t>(
                    std::upper_bound(cumulative.begin(), cumulative.end() - 1, u) -
                    cumulative.begin());
                world = pool[k];
              },
              rng, iterations, timed, start, stop);
        } else if (opt.algorithm == SearchAlgorithm::ISMCTS) {
          ts.run(
              [&](Rng& r, std::optional<State>& world) {
                if (world)
                  det->sample(r, *world);
                else
                  world = det->sample(r);
              },
              rng, iterations, timed, start, stop);
        } else {
          const State fixed = opt.algorithm == SearchAlgorithm::PIMC ? det->sample(rng) : state;
          ts.run([&](Rng&, std::optional<State>& world) { world = fixed; }, rng, iterations, timed,
                 start, stop);
        }
        stats[static_cast<size_t>(t)] = ts.stats(out.moves);
      }
    } catch (...) {
      failed.store(true);
      std::exception_ptr e = std::current_exception();
      try {
        std::rethrow_exception(e);
      } catch (const std::invalid_argument&) {
      } catch (const std::logic_error& bad) {  // the determinizer could not read the state
        try {
          inconsistent(bad);
        } catch (...) {
          e = std::current_exception();
        }
      } catch (...) {
      }
      const std::lock_guard<std::mutex> hold(error_lock);
      if (!error) error = e;
    }
  };
  if (workers <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(workers));
    try {
      for (int w = 0; w < workers; ++w) pool.emplace_back(worker);
    } catch (...) {
      failed.store(true);
      for (std::thread& th : pool) th.join();
      throw;
    }
    for (std::thread& th : pool) th.join();
  }
  if (error) std::rethrow_exception(error);

  std::vector<double> total(k, 0.0);
  for (const detail::TreeStats& s : stats) {
    out.iterations += s.iterations;
    out.tree_iterations.push_back(s.iterations);
    out.nodes += s.edges;
    for (size_t i = 0; i < s.visits.size(); ++i) {
      out.visits[i] += s.visits[i];
      total[i] += s.reward[i];
    }
  }
  size_t best = 0;
  for (size_t i = 0; i < k; ++i) {
    out.mean_reward[i] = out.visits[i] ? total[i] / static_cast<double>(out.visits[i]) : 0.0;
    if (out.visits[i] > out.visits[best] ||
        (out.visits[i] == out.visits[best] && out.mean_reward[i] > out.mean_reward[best]))
      best = i;
  }
  out.move = out.moves[best];
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

// ---- a state from what a seat knows ---------------------------------------------

namespace {
std::string str(long long v) { return std::to_string(v); }
}  // namespace

using detail::bad_knowledge;

State state_from_knowledge(const Rules& rules, const SeatKnowledge& k) {
  rules.validate();
  detail::check_knowledge(rules, k);
  const int p = rules.players, T = rules.tiles(), s = k.seat;
  const size_t n = k.moves.size();
  // The seat's own dealt hand: its hand now, plus what it placed, minus what it drew.
  TileSet seen, own_deal = TileSet::of(k.hand.begin(), k.hand.end());
  if (k.centre >= 0) seen.set(k.centre);
  std::vector<int> draws(static_cast<size_t>(p), 0), places(static_cast<size_t>(p), 0);
  for (size_t i = 0; i < n; ++i) {
    const int m = k.movers[i];
    const Move& mv = k.moves[i];
    if (mv.kind == MoveKind::Place) {
      ++places[static_cast<size_t>(m)];
      seen.set(mv.tile);
      if (m == s) own_deal.set(mv.tile);
    } else if (mv.kind == MoveKind::Draw) {
      ++draws[static_cast<size_t>(m)];
      if (m == s) seen.set(k.drawn[i]);
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (k.moves[i].kind == MoveKind::Draw && k.movers[i] == s) own_deal.reset(k.drawn[i]);
  own_deal.for_each([&](int t) { seen.set(t); });
  // Every hand as dealt (search draws included): its size now, plus what it
  // placed, minus what it drew.
  const int dealt_own = own_deal.count();
  int total_search = 0;
  for (int c : k.search_counts) total_search += c;
  std::vector<int> initial(static_cast<size_t>(p));
  for (int j = 0; j < p; ++j)
    initial[static_cast<size_t>(j)] = k.hand_sizes[static_cast<size_t>(j)] +
                                      places[static_cast<size_t>(j)] -
                                      draws[static_cast<size_t>(j)];
  if (initial[static_cast<size_t>(s)] != dealt_own)
    bad_knowledge("the seat's hand does not add up");

  TileSet higher;  // under highest_double, no dealt hand holds a double above the centre
  if (k.highest_double)
    for (int v = rules.set; v >= 0 && double_tile(v) != k.centre; --v) higher.set(double_tile(v));

  for (int attempt = 0; attempt < 2000; ++attempt) {
    Rng rng(mix64(static_cast<uint64_t>(attempt)));
    std::vector<int> pool;
    for (int t = 0; t < T; ++t)
      if (!seen.test(t)) pool.push_back(t);
    rng.shuffle(pool.data(), pool.size());
    // Slots of the other seats: initial ones, then one per Draw; -1 = free.
    std::vector<std::vector<int>> slot_tile(static_cast<size_t>(p));
    std::vector<std::vector<int>> free_slots(static_cast<size_t>(p));
    for (int j = 0; j < p; ++j) {
      if (j == s) continue;
      slot_tile[static_cast<size_t>(j)].assign(static_cast<size_t>(initial[static_cast<size_t>(j)]),
                                               -1);
      for (int x = 0; x < initial[static_cast<size_t>(j)]; ++x)
        free_slots[static_cast<size_t>(j)].push_back(x);
    }
    std::vector<std::pair<int, int>> draw_slot;  // per Draw: (seat, slot), or (-1, tile)
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      const int m = k.movers[i];
      const Move& mv = k.moves[i];
      if (mv.kind == MoveKind::Draw) {
        if (m == s) {
          draw_slot.emplace_back(-1, k.drawn[i]);
          continue;
        }
        const bool fixed =
            i + 1 < n && k.moves[i + 1].kind == MoveKind::Place && k.movers[i + 1] == m;
        if (fixed) {
          draw_slot.emplace_back(-1, k.moves[i + 1].tile);
          ++i;  // the placement of the drawn tile
          continue;
        }
        auto& st = slot_tile[static_cast<size_t>(m)];
        st.push_back(-1);
        free_slots[static_cast<size_t>(m)].push_back(static_cast<int>(st.size()) - 1);
        draw_slot.emplace_back(m, static_cast<int>(st.size()) - 1);
      } else if (mv.kind == MoveKind::Place && m != s) {
        auto& fs = free_slots[static_cast<size_t>(m)];
        // Prefer a slot a higher double may sit in (a Draw's) for a higher double.
        std::vector<int> fit;
        for (size_t x = 0; x < fs.size(); ++x)
          if (!higher.test(mv.tile) || fs[x] >= initial[static_cast<size_t>(m)])
            fit.push_back(static_cast<int>(x));
        if (fit.empty()) {
          ok = false;
          break;
        }
        const size_t x = static_cast<size_t>(fit[rng.below_unchecked(fit.size())]);
        slot_tile[static_cast<size_t>(m)][static_cast<size_t>(fs[x])] = mv.tile;
        fs[x] = fs.back();
        fs.pop_back();
      }
    }
    if (!ok) continue;
    // The free slots take unseen tiles (initial ones: no higher double).
    size_t next = 0;
    std::vector<int> rest;
    for (int j = 0; j < p && ok; ++j) {
      if (j == s) continue;
      auto& st = slot_tile[static_cast<size_t>(j)];
      for (size_t x = 0; x < st.size() && ok; ++x) {
        if (st[x] >= 0) continue;
        const bool init = static_cast<int>(x) < initial[static_cast<size_t>(j)];
        size_t y = next;
        while (y < pool.size() && init && higher.test(pool[y])) ++y;
        if (y >= pool.size()) {
          ok = false;
          break;
        }
        std::swap(pool[next], pool[y]);
        st[x] = pool[next++];
      }
    }
    if (!ok) continue;
    Deal deal;
    deal.round_index = k.round_index;
    deal.centre = k.centre;
    deal.starter = k.starter;
    deal.highest_double = k.highest_double;
    deal.carried = k.carried;
    deal.hands.resize(static_cast<size_t>(p));
    own_deal.for_each([&](int t) { deal.hands[static_cast<size_t>(s)].push_back(t); });
    for (int j = 0; j < p; ++j)
      if (j != s)
        deal.hands[static_cast<size_t>(j)].assign(
            slot_tile[static_cast<size_t>(j)].begin(),
            slot_tile[static_cast<size_t>(j)].begin() + initial[static_cast<size_t>(j)]);
    if (total_search > 0) {
      // The search in rotation order: each seat's search draws are its last
      // initial tiles (the seat's own: as it saw them); the centre closes it.
      std::vector<int> cursor(static_cast<size_t>(p));
      for (int j = 0; j < p; ++j)
        cursor[static_cast<size_t>(j)] = initial[static_cast<size_t>(j)] -
                                         k.search_counts[static_cast<size_t>(j)] +
                                         (j == k.starter ? 1 : 0);
      int own_at = 0;
      for (int i = 0; i + 1 < total_search; ++i) {
        const int j = (k.round_index + i) % p;
        if (j == s) {
          if (own_at >= static_cast<int>(k.own_search.size()))
            throw StateError("malformed seat knowledge: search draws do not add up");
          deal.setup_draws.push_back(k.own_search[static_cast<size_t>(own_at++)]);
        } else {
          deal.setup_draws.push_back(slot_tile[static_cast<size_t>(j)][static_cast<size_t>(
              cursor[static_cast<size_t>(j)]++)]);
        }
      }
      deal.setup_draws.push_back(k.centre);
    }
    for (const auto& d : draw_slot)
      deal.yard.push_back(
          d.first < 0 ? d.second
                      : slot_tile[static_cast<size_t>(d.first)][static_cast<size_t>(d.second)]);
    for (size_t y = next; y < pool.size(); ++y) deal.yard.push_back(pool[y]);
    std::unique_ptr<State> made;
    try {
      made = std::make_unique<State>(rules, deal);
    } catch (const StateError&) {
      continue;
    }
    State& w = *made;
    bool good = true;
    for (size_t i = 0; i < n && good; ++i) {
      if (w.is_over()) {  // blocked: the made-up hands hold no placement
        good = false;
        break;
      }
      const int m = k.movers[i];
      const Move& mv = k.moves[i];
      if (w.current_player() != m)
        bad_knowledge("move " + str(static_cast<long long>(i)) + " (" + move_name(mv) +
                      ") is seat " + str(m) + "'s, but seat " + str(w.current_player()) +
                      " was to move");
      const Reason why = w.check(mv);
      // Whether another seat could Draw or Pass depends on its hidden tiles
      // (made up here); everything else about a move is public or the seat's own.
      const bool hidden = m != s && mv.kind != MoveKind::Place &&
                          (why == Reason::MustPlace || why == Reason::MustPlaceDrawn);
      if (why != Reason::Ok && !hidden)
        bad_knowledge("move " + str(static_cast<long long>(i)) + " (" + move_name(mv) +
                      " by seat " + str(m) + ") is illegal: " + reason_code(why));
      w.push_unchecked(mv);
    }
    if (!good || (!k.over && w.is_over())) continue;
    return std::move(*made);
  }
  throw StateError("no state has this seat's information (is the view from this round's rules?)");
}

}  // namespace dominocore
