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
#include "dominocore/search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "dominocore/determinize.hpp"
#include "dominocore/games/registry.hpp"
#include "dominocore/information.hpp"
#include "dominocore/sim.hpp"

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
}

namespace {

constexpr int kChanceCode = -3;  // beside move_code()'s Draw (-1) and Pass (-2)
/// Edges one tree may hold (32 bytes each): past it, a tree stops growing and
/// its iterations only walk and roll out.
constexpr size_t kMaxEdges = size_t{1} << 24;

/// SplitMix64's first output from state z: the seeds of trees and worlds.
uint64_t mix64(uint64_t z) noexcept { return Rng(z).next(); }

struct Edge {
  int32_t code;    ///< the move's code (a chance edge: kChanceCode)
  int16_t drawn;   ///< a chance edge's tile
  int32_t next;    ///< the next edge of the same node, -1 at the end
  int32_t child;   ///< the node it leads to, -1 until needed
  uint32_t n;      ///< visits
  uint32_t avail;  ///< visits of its node in which it was legal
  double w;        ///< summed reward of the mover (raw points)
};

struct Tree {
  std::vector<Edge> edges;
  std::vector<int32_t> first;  ///< first edge of each node
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();

  Tree() { first.push_back(-1); }
  int new_node() {
    first.push_back(-1);
    return static_cast<int>(first.size()) - 1;
  }
  int find(int node, int code, int drawn) const noexcept {
    for (int e = first[static_cast<size_t>(node)]; e >= 0; e = edges[static_cast<size_t>(e)].next)
      if (edges[static_cast<size_t>(e)].code == code &&
          edges[static_cast<size_t>(e)].drawn == drawn)
        return e;
    return -1;
  }
  int add(int node, int code, int drawn) {
    edges.push_back(
        Edge{code, static_cast<int16_t>(drawn), first[static_cast<size_t>(node)], -1, 0, 0, 0.0});
    first[static_cast<size_t>(node)] = static_cast<int32_t>(edges.size()) - 1;
    return static_cast<int>(edges.size()) - 1;
  }
  int child_of(int e) {
    if (edges[static_cast<size_t>(e)].child < 0) {
      const int c = new_node();
      edges[static_cast<size_t>(e)].child = c;
    }
    return edges[static_cast<size_t>(e)].child;
  }
};

/// Per seat, the reward of a finished world (docs/search.md "The reward"):
/// the round margin, or the seat's own points (negated where they are costs).
void rewards_of(const State& world, SearchReward kind, double* out) {
  const RoundResult& res = world.result();
  const Game game = world.rules().game;
  if (kind == SearchReward::Margin) return round_margins(game, res, out);
  for (int s = 0; s < res.players; ++s) {
    const double own = res.points[static_cast<size_t>(s)];
    out[s] = points_are_costs(game) ? -own : own;
  }
}

using Clock = std::chrono::steady_clock;

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

/// What one tree (IS-MCTS: one of the trees; PIMC: one world's) reports.
struct TreeStats {
  std::vector<uint64_t> visits;  ///< per root move
  std::vector<double> reward;    ///< summed raw reward of the searching seat
  uint64_t iterations = 0, edges = 0;
};

class TreeSearch {
 public:
  TreeSearch(const SearchOptions& o, int seat, int players)
      : opt_(o), seat_(seat), players_(players), bots_({o.rollout}, players, 0) {}

  /// Runs up to `budget` iterations, each on the world `world_of(rng)`
  /// gives: a new determinization (IS-MCTS) or a copy of a fixed world
  /// (PIMC's worlds, cheat). When `timed`, it stops once `stop` has passed
  /// since `begin`, but never before its first iteration.
  template <class WorldOf>
  void run(WorldOf world_of, Rng& rng, uint64_t budget, bool timed, Clock::time_point begin,
           Clock::duration stop) {
    start(rng);
    for (uint64_t it = 0; it < budget; ++it) {
      if (timed && it > 0 && Clock::now() - begin >= stop) break;
      State world = world_of(rng);
      iterate(world, rng);
      ++iterations_;
    }
  }

  TreeStats stats(const std::vector<Move>& root_moves) const {
    TreeStats s;
    s.iterations = iterations_;
    s.edges = tree_.edges.size();
    for (const Move& m : root_moves) {
      const int e = tree_.find(0, move_code(m), -1);
      s.visits.push_back(e < 0 ? 0 : tree_.edges[static_cast<size_t>(e)].n);
      s.reward.push_back(e < 0 ? 0.0 : tree_.edges[static_cast<size_t>(e)].w);
    }
    return s;
  }

 private:
  struct Step {
    int edge, mover;
  };

  void start(Rng& rng) {
    bots_.rng().set_state(rng.next());
    reward_.assign(static_cast<size_t>(players_), 0.0);
  }

  void iterate(State& world, Rng& rng) {
    path_.clear();
    int node = 0, depth = 0;
    Move buf[kMaxDistinctMoves];
    int untried[kMaxDistinctMoves];
    int edge_of[kMaxDistinctMoves];
    while (!world.is_over()) {
      if (opt_.max_depth > 0 && depth >= opt_.max_depth) break;
      const int mover = world.current_player();
      const int n = world.distinct_moves(buf);
      int n_untried = 0;
      for (int i = 0; i < n; ++i) {
        const int e = tree_.find(node, move_code(buf[i]), -1);
        edge_of[i] = e;
        if (e < 0)
          untried[n_untried++] = i;
        else
          ++tree_.edges[static_cast<size_t>(e)].avail;
      }
      if (n_untried > 0) {
        const int i = untried[rng.below_unchecked(static_cast<uint64_t>(n_untried))];
        if (tree_.edges.size() < kMaxEdges) {
          const int e = tree_.add(node, move_code(buf[i]), -1);
          tree_.edges[static_cast<size_t>(e)].avail = 1;
          path_.push_back(Step{e, mover});
        }
        world.push_unchecked(buf[i]);
        break;  // expanded: roll out
      }
      // UCB over the available arms, rewards scaled to [0, 1] by the range seen.
      const double range = tree_.hi > tree_.lo ? tree_.hi - tree_.lo : 1.0;
      int best = -1;
      double best_u = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < n; ++i) {
        const Edge& E = tree_.edges[static_cast<size_t>(edge_of[i])];
        const double q = (E.w / E.n - tree_.lo) / range;
        const double u = q + opt_.c * std::sqrt(std::log(static_cast<double>(E.avail)) / E.n);
        if (u > best_u) {
          best_u = u;
          best = i;
        }
      }
      const int e = edge_of[best];
      path_.push_back(Step{e, mover});
      world.push_unchecked(buf[best]);
      int next = tree_.child_of(e);
      if (buf[best].kind == MoveKind::Draw && mover == seat_) {
        // The seat sees its own draw: one child per tile, through a chance node.
        const int tile = world.drawn_tile();
        int ce = tree_.find(next, kChanceCode, tile);
        if (ce < 0) ce = tree_.add(next, kChanceCode, tile);
        next = tree_.child_of(ce);
      }
      node = next;
      ++depth;
    }
    if (!world.is_over()) bots_.play_out(world);
    rewards_of(world, opt_.reward, reward_.data());
    for (int s = 0; s < players_; ++s) {
      tree_.lo = std::min(tree_.lo, reward_[static_cast<size_t>(s)]);
      tree_.hi = std::max(tree_.hi, reward_[static_cast<size_t>(s)]);
    }
    for (const Step& st : path_) {
      Edge& E = tree_.edges[static_cast<size_t>(st.edge)];
      ++E.n;
      E.w += reward_[static_cast<size_t>(st.mover)];
    }
  }

  SearchOptions opt_;
  int seat_;
  int players_;
  Bots bots_;
  Tree tree_;
  std::vector<Step> path_;
  std::vector<double> reward_;
  uint64_t iterations_ = 0;
};

}  // namespace

// ---- the cache of determinizers --------------------------------------------------

struct SearchCache::Impl {
  struct Entry {
    Rules rules;
    uint64_t hash = 0;
    std::string info;                         ///< the seat's information state (its seat included)
    std::shared_ptr<const Determinizer> det;  ///< never sampled: only cloned
    bool same_key(const Entry& o) const {
      return hash == o.hash && info == o.info && rules == o.rules;
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
      proto = cache->impl().find(key);
      out.reused = proto != nullptr;
    }
    if (!proto) {
      try {
        proto = std::make_shared<const Determinizer>(state, seat);
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

  std::vector<TreeStats> stats(static_cast<size_t>(T));
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
        TreeSearch ts(opt, seat, state.players());
        if (opt.algorithm == SearchAlgorithm::ISMCTS) {
          ts.run([&](Rng& r) { return det->sample(r); }, rng, iterations, timed, start, stop);
        } else {
          const State fixed = opt.algorithm == SearchAlgorithm::PIMC ? det->sample(rng) : state;
          ts.run([&](Rng&) { return State(fixed); }, rng, iterations, timed, start, stop);
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
  for (const TreeStats& s : stats) {
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

[[noreturn]] void bad_knowledge(const std::string& why) {
  throw StateError("inconsistent seat knowledge: " + why);
}

std::string str(long long v) { return std::to_string(v); }

/// The checks of state_from_knowledge that need no world: every field alone
/// and against the others. `k.moves` and the sizes are bounded first, so no
/// loop below runs longer than the set and the history bound allow.
void check_knowledge(const Rules& rules, const SeatKnowledge& k) {
  const int p = rules.players, T = rules.tiles(), s = k.seat;
  if (s < 0 || s >= p) bad_knowledge("seat " + str(s) + " is not a seat 0.." + str(p - 1));
  const int rounds = rules.rounds_per_match();
  if (k.round_index < 0 || (rounds > 0 && k.round_index >= rounds))
    bad_knowledge("round index " + str(k.round_index) + " is out of range" +
                  (rounds > 0 ? " 0.." + str(rounds - 1) : std::string(" (must be >= 0)")));
  if (k.centre < -1 || k.centre >= T)
    bad_knowledge("centre " + str(k.centre) + " is not a tile of the set (0.." + str(T - 1) + ")");
  Deal probe;  // the games' centre checks read the round index and the centre only
  probe.round_index = k.round_index;
  probe.centre = k.centre;
  bool searches = false, highest_double = false;  // what the game's set-up may do
  games::with_game(rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    G::check_deal(rules, probe);
    searches = G::setup_searches(rules);
    highest_double = G::setup_highest_double(rules);
  });
  if (k.starter < 0 || k.starter >= p)
    bad_knowledge("starter " + str(k.starter) + " is not a seat 0.." + str(p - 1));
  if (k.highest_double && !highest_double)
    bad_knowledge("highest_double is only a fact of Doubles' and Block's set-ups");
  // Sizes, before anything is sized by them.
  if (static_cast<int>(k.hand_sizes.size()) != p || static_cast<int>(k.search_counts.size()) != p)
    bad_knowledge("hand sizes and search counts need one entry per seat (" + str(p) + ")");
  for (int j = 0; j < p; ++j) {
    const int h = k.hand_sizes[static_cast<size_t>(j)], c = k.search_counts[static_cast<size_t>(j)];
    if (h < 0 || h > T)
      bad_knowledge("hand size " + str(h) + " of seat " + str(j) + " is not 0.." + str(T));
    if (c < 0 || c > T)
      bad_knowledge("search count " + str(c) + " of seat " + str(j) + " is not 0.." + str(T));
  }
  if (static_cast<int>(k.hand.size()) != k.hand_sizes[static_cast<size_t>(s)])
    bad_knowledge("the seat holds " + str(static_cast<long long>(k.hand.size())) +
                  " tiles but its hand size is " + str(k.hand_sizes[static_cast<size_t>(s)]));
  const size_t n = k.moves.size();
  if (n > static_cast<size_t>(information_state_history_bound(rules)))
    bad_knowledge("a history of " + str(static_cast<long long>(n)) +
                  " moves is longer than any round of these rules (" +
                  str(information_state_history_bound(rules)) + ")");
  if (k.movers.size() != n || k.drawn.size() != n)
    bad_knowledge("the history's movers, moves and drawn tiles differ in length");
  if (k.own_search.size() > static_cast<size_t>(T))
    bad_knowledge("more own search draws than tiles in the set");

  // The cross's search: seats (round_index + i) mod p drew in turn, the last
  // (the starter) the round's double.
  int total_search = 0;
  for (int c : k.search_counts) total_search += c;
  if (total_search > 0) {
    if (!searches) bad_knowledge("only Chicken Foot's cross searches for the round's double");
    if (total_search > T) bad_knowledge("more search draws than tiles in the set");
    std::vector<int> expected(static_cast<size_t>(p), 0);
    for (int i = 0; i < total_search; ++i)
      ++expected[static_cast<size_t>((k.round_index % p + i) % p)];
    if (expected != k.search_counts)
      bad_knowledge("the search counts do not follow the rotation from seat round_index mod p");
    const int last = (k.round_index % p + total_search - 1) % p;
    if (last != k.starter)
      bad_knowledge("the search's last draw (the round's double) was seat " + str(last) +
                    "'s, so the starter must be " + str(last) + ", not " + str(k.starter));
  }
  if (static_cast<int>(k.own_search.size()) != k.search_counts[static_cast<size_t>(s)])
    bad_knowledge("the seat's own search draws do not match its search count");

  // Tiles: each where it can be, once. `where[t]`: 0 unseen, 1 centre, 2 own
  // hand, 3 placed.
  std::vector<int> where(static_cast<size_t>(T), 0);
  auto tile_ok = [&](int t, const char* what) {
    if (t < 0 || t >= T)
      bad_knowledge(std::string(what) + " " + str(t) + " is not a tile of the set (0.." +
                    str(T - 1) + ")");
  };
  if (k.centre >= 0) where[static_cast<size_t>(k.centre)] = 1;
  for (int t : k.hand) {
    tile_ok(t, "a tile of the hand");
    if (where[static_cast<size_t>(t)] != 0)
      bad_knowledge("the hand's tile " + tile_name(t) + " is the centre or held twice");
    where[static_cast<size_t>(t)] = 2;
  }
  std::vector<int> places(static_cast<size_t>(p), 0), draws(static_cast<size_t>(p), 0);
  std::vector<uint8_t> own_drawn(static_cast<size_t>(T), 0);  // 1 drawn, 2 drawn then placed
  std::vector<int> placer(static_cast<size_t>(T), -1);
  for (size_t i = 0; i < n; ++i) {
    const int m = k.movers[i];
    if (m < 0 || m >= p)
      bad_knowledge("move " + str(static_cast<long long>(i)) + "'s mover " + str(m) +
                    " is not a seat");
    const Move& mv = k.moves[i];
    const bool own_draw = mv.kind == MoveKind::Draw && m == s;
    if (!own_draw && k.drawn[i] != -1)
      bad_knowledge("move " + str(static_cast<long long>(i)) +
                    " shows a drawn tile but is not the seat's own Draw");
    if (mv.kind == MoveKind::Place) {
      tile_ok(mv.tile, "a placed tile");
      if (where[static_cast<size_t>(mv.tile)] != 0)
        bad_knowledge("move " + str(static_cast<long long>(i)) + " places " + tile_name(mv.tile) +
                      ", which is the centre, placed before or still in the seat's hand");
      where[static_cast<size_t>(mv.tile)] = 3;
      placer[static_cast<size_t>(mv.tile)] = m;
      if (own_drawn[static_cast<size_t>(mv.tile)] == 1) {
        if (m != s)
          bad_knowledge("move " + str(static_cast<long long>(i)) + " places " + tile_name(mv.tile) +
                        ", which the seat drew");
        own_drawn[static_cast<size_t>(mv.tile)] = 2;
      }
      ++places[static_cast<size_t>(m)];
    } else if (mv.kind == MoveKind::Draw) {
      ++draws[static_cast<size_t>(m)];
      if (own_draw) {
        const int t = k.drawn[i];
        tile_ok(t, "a drawn tile");
        if (own_drawn[static_cast<size_t>(t)] != 0 || where[static_cast<size_t>(t)] == 1 ||
            where[static_cast<size_t>(t)] == 3)
          bad_knowledge("move " + str(static_cast<long long>(i)) + " draws " + tile_name(t) +
                        ", which was drawn, placed or set up before");
        own_drawn[static_cast<size_t>(t)] = 1;
      }
    }
  }
  for (int t = 0; t < T; ++t)  // a drawn tile is still held, or was placed by the seat
    if (own_drawn[static_cast<size_t>(t)] == 1 && where[static_cast<size_t>(t)] != 2)
      bad_knowledge("the seat drew " + tile_name(t) + " but neither holds nor placed it");
  // Hands as dealt (search draws but the centre included), and the yard.
  long long dealt = 0;
  for (int j = 0; j < p; ++j) {
    const long long initial = static_cast<long long>(k.hand_sizes[static_cast<size_t>(j)]) +
                              places[static_cast<size_t>(j)] - draws[static_cast<size_t>(j)];
    const int searched =
        k.search_counts[static_cast<size_t>(j)] - (total_search > 0 && j == k.starter ? 1 : 0);
    if (initial < searched || initial > T)
      bad_knowledge("seat " + str(j) +
                    "'s hand does not add up: " + str(k.hand_sizes[static_cast<size_t>(j)]) +
                    " tiles now, " + str(places[static_cast<size_t>(j)]) + " placed, " +
                    str(draws[static_cast<size_t>(j)]) + " drawn, " + str(searched) + " searched");
    if (n > 0 && initial == 0)
      bad_knowledge("seat " + str(j) + " held no tile at the deal: the round was over at once");
    dealt += initial;
  }
  const long long yard = T - (k.centre >= 0 ? 1 : 0) - dealt;
  long long total_draws = 0;
  for (int d : draws) total_draws += d;
  if (yard < total_draws)
    bad_knowledge("the hands, the layout and the draws hold more tiles than the set");
  // The seat's own search draws: in its dealt hand (the round's double last, when it is the
  // starter).
  for (size_t i = 0; i < k.own_search.size(); ++i) {
    const int t = k.own_search[i];
    tile_ok(t, "an own search draw");
    const bool closes = total_search > 0 && s == k.starter && i + 1 == k.own_search.size();
    const bool dealt_to_seat =
        own_drawn[static_cast<size_t>(t)] == 0 &&
        (where[static_cast<size_t>(t)] == 2 ||
         (where[static_cast<size_t>(t)] == 3 && placer[static_cast<size_t>(t)] == s));
    if (closes ? t != k.centre : !dealt_to_seat)
      bad_knowledge("the seat's search draw " + tile_name(t) + " is not in its dealt hand");
    if (!closes)
      for (size_t j = 0; j < i; ++j)
        if (k.own_search[j] == t) bad_knowledge("a search draw repeats " + tile_name(t));
  }
  // Hand counts through the history: a seat that emptied its hand ended the round.
  std::vector<long long> held(static_cast<size_t>(p));
  for (int j = 0; j < p; ++j)
    held[static_cast<size_t>(j)] = static_cast<long long>(k.hand_sizes[static_cast<size_t>(j)]) +
                                   places[static_cast<size_t>(j)] - draws[static_cast<size_t>(j)];
  for (size_t i = 0; i < n; ++i) {
    long long& h = held[static_cast<size_t>(k.movers[i])];
    if (k.moves[i].kind == MoveKind::Draw) ++h;
    if (k.moves[i].kind != MoveKind::Place) continue;
    if (h <= 0)
      bad_knowledge("move " + str(static_cast<long long>(i)) + " places from an empty hand");
    if (--h == 0 && (i + 1 < n || !k.over))
      bad_knowledge("move " + str(static_cast<long long>(i)) +
                    " empties the mover's hand, which ends the round");
  }
  if (!k.over)
    for (int j = 0; j < p; ++j)
      if (held[static_cast<size_t>(j)] == 0)
        bad_knowledge("seat " + str(j) + " holds no tile: the round is over");
  // Under highest_double, the seat's own dealt hand holds no double above the centre.
  if (k.highest_double)
    for (int t = 0; t < T; ++t) {
      const bool own =
          own_drawn[static_cast<size_t>(t)] == 0 &&
          (where[static_cast<size_t>(t)] == 2 ||
           (where[static_cast<size_t>(t)] == 3 && placer[static_cast<size_t>(t)] == s));
      if (own && is_double(t) && (k.centre < 0 || tile_low(t) > tile_low(k.centre)))
        bad_knowledge("highest_double is true but the seat was dealt " + tile_name(t) +
                      ", a double above the centre");
    }
}

}  // namespace

State state_from_knowledge(const Rules& rules, const SeatKnowledge& k) {
  rules.validate();
  check_knowledge(rules, k);
  const int p = rules.players, T = rules.tiles(), s = k.seat;
  const size_t n = k.moves.size();
  // The seat's own dealt hand: its hand now, plus what it placed, minus what it drew.
  TileSet seen, own_deal;
  if (k.centre >= 0) seen.set(k.centre);
  for (int t : k.hand) own_deal.set(t);
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
