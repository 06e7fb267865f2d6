// Building the exact determinizer's count (determinize_impl.hpp): by tile
// (determinize_count.hpp) when it fits its bound, else by seat
// (seat_count.hpp), of the exact slot model or of a coarser one.
//
// The count by tile's states multiply across seats when many placed tiles
// and Draw slots with different constraints are in play (long rounds of the
// cross on large sets). Past a bound the sampler counts by seat instead
// (seat_count.hpp): seats interact only through the unseen tiles, so each
// seat's placed tiles are counted on their own and only the unseen tiles left
// per group are carried from seat to seat. Its cost grows with the groups in
// turn; past a bound the sampler counts a coarser model (Coarsening: fewer
// groups, each slot allowing at least what it allowed) and rejects the draws
// the exact model does not allow, which keeps the sample uniform. Each count
// has a bound (kTileStates, kSeatWork).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "determinize_impl.hpp"

namespace dominocore {

namespace {

/// Coarser slot models for the count by seat, when no exact count fits.
///
/// In the slot model each tile of U has, at every other seat, a *start*: the
/// first slot of the seat's chain that allows it (the chain's length when none
/// does). Tiles with the same starts at every seat form a group, and the count
/// by seat carries how many tiles of each group are left, so its size grows
/// with the groups. A coarser model merges groups: a merged group's start at
/// each seat is its members' earliest, so every slot allows all it allowed and
/// maybe more, and the chains stay nested. Every world of the exact model is a
/// world of the coarser one, so a uniform world of the coarser model in which
/// every slot allows its tile under the exact model is a uniform world of the
/// exact model (the sampler rejects the others and draws again).
///
/// Merges are chosen greedily, cheapest first: a merge costs the tiles it may
/// misplace (for each tile, at each seat, the slots it newly allows, each
/// weighted by the chance that it holds a tile of U, spread over the tiles it
/// allows), per state of the count it saves (log of (a+1)(b+1)/(a+b+1) for
/// groups of a and b tiles). The sum of the costs estimates the expected
/// misplaced tiles of a draw, so exp(-misses) estimates the acceptance.
class Coarsening {
 public:
  explicit Coarsening(const detail::SeatModel& exact) : exact_(exact) {
    const size_t m = exact.seats.size();
    pool_ = TileSet::of(exact.pool.begin(), exact.pool.end());
    std::vector<std::vector<int>> start(exact.pool.size(), std::vector<int>(m));
    prefix_.resize(m);
    for (size_t k = 0; k < m; ++k) {
      const auto& seat = exact.seats[k];
      const int n = static_cast<int>(seat.allowed.size());
      const double unseen_share =
          static_cast<double>(n - static_cast<int>(seat.placed.size())) / std::max(n, 1);
      prefix_[k].assign(static_cast<size_t>(n) + 1, 0);
      for (int i = 0; i < n; ++i) {
        const int allowing = (seat.allowed[static_cast<size_t>(i)] & pool_).count();
        prefix_[k][static_cast<size_t>(i) + 1] =
            prefix_[k][static_cast<size_t>(i)] + unseen_share / std::max(allowing, 1);
      }
      for (size_t u = 0; u < exact.pool.size(); ++u) {
        int i = 0;
        while (i < n && !seat.allowed[static_cast<size_t>(i)].test(exact.pool[u])) ++i;
        start[u][k] = i;
      }
    }
    for (size_t u = 0; u < exact.pool.size(); ++u) {
      auto same = std::find_if(groups_.begin(), groups_.end(),
                               [&](const Group& g) { return g.start == start[u]; });
      if (same == groups_.end()) {
        groups_.push_back(Group{start[u], {}});
        same = groups_.end() - 1;
      }
      same->tiles.push_back(exact.pool[u]);
    }
    exact_groups_ = groups();
  }

  int groups() const noexcept { return static_cast<int>(groups_.size()); }
  int exact_groups() const noexcept { return exact_groups_; }
  int merges() const noexcept { return exact_groups_ - groups(); }
  /// The estimated misplaced tiles of a draw of the coarser model (0: exact).
  double misses() const noexcept { return misses_; }

  /// Merges the cheapest pairs of groups until `target` are left.
  void merge_to(int target) {
    while (groups() > std::max(target, 1)) {
      size_t best_a = 0, best_b = 1;
      double best = std::numeric_limits<double>::infinity(), best_cost = 0;
      for (size_t a = 0; a < groups_.size(); ++a)
        for (size_t b = a + 1; b < groups_.size(); ++b) {
          const double cost = merge_cost(groups_[a], groups_[b]);
          const double na = static_cast<double>(groups_[a].tiles.size());
          const double nb = static_cast<double>(groups_[b].tiles.size());
          const double saved = std::log((na + 1) * (nb + 1) / (na + nb + 1));
          if (cost / saved < best) best = cost / saved, best_cost = cost, best_a = a, best_b = b;
        }
      Group& a = groups_[best_a];
      Group& b = groups_[best_b];
      for (size_t k = 0; k < a.start.size(); ++k) a.start[k] = std::min(a.start[k], b.start[k]);
      a.tiles.insert(a.tiles.end(), b.tiles.begin(), b.tiles.end());
      groups_.erase(groups_.begin() + static_cast<std::ptrdiff_t>(best_b));
      misses_ += best_cost;
    }
  }

  /// The coarser model: each slot allows the exact model's placed tiles and
  /// the tiles of every group whose start at its seat is at or before it.
  detail::SeatModel model() const {
    detail::SeatModel coarse = exact_;
    for (size_t k = 0; k < coarse.seats.size(); ++k) {
      std::vector<TileSet>& allowed = coarse.seats[k].allowed;
      for (TileSet& a : allowed) a = minus(a, pool_);
      for (const Group& g : groups_)
        for (size_t i = static_cast<size_t>(g.start[k]); i < allowed.size(); ++i)
          for (int t : g.tiles) allowed[i].set(t);
    }
    return coarse;
  }

 private:
  struct Group {
    std::vector<int> start;  ///< per seat: the first slot of its chain allowing the group
    std::vector<int> tiles;
  };

  /// The expected misplaced tiles that merging a and b adds: each group's
  /// tiles newly allowed from the merged start to their own (their own is the
  /// group's, or later: what earlier merges opened is counted already).
  double merge_cost(const Group& a, const Group& b) const {
    double cost = 0;
    for (size_t k = 0; k < a.start.size(); ++k) {
      const std::vector<double>& p = prefix_[k];
      const size_t lo = static_cast<size_t>(std::min(a.start[k], b.start[k]));
      cost += static_cast<double>(a.tiles.size()) * (p[static_cast<size_t>(a.start[k])] - p[lo]);
      cost += static_cast<double>(b.tiles.size()) * (p[static_cast<size_t>(b.start[k])] - p[lo]);
    }
    return cost;
  }

  const detail::SeatModel& exact_;
  TileSet pool_;
  std::vector<std::vector<double>> prefix_;  ///< per seat: the slots' weights, summed from slot 0
  std::vector<Group> groups_;
  int exact_groups_ = 0;
  double misses_ = 0;
};

}  // namespace

// Counting by tile places the most constrained tiles first (fewest slots
// allowed), the tiles of one set of cells together: the cells they tell apart
// merge soon after, and the tiles allowed everywhere come last, in one class.
std::vector<int> Determinizer::Impl::tile_order() const {
  std::vector<int> room_of(tile_cells.size(), 0);
  for (int t : tiles)
    tile_cells[static_cast<size_t>(t)].for_each(
        [&](int k) { room_of[static_cast<size_t>(t)] += cell_room[static_cast<size_t>(k)]; });
  std::vector<int> order = tiles;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (room_of[a] != room_of[b]) return room_of[a] < room_of[b];
    const TileSet &x = tile_cells[a], &y = tile_cells[b];
    for (int w = 0; w < 3; ++w)
      if (x.w[w] != y.w[w]) return x.w[w] < y.w[w];
    return a < b;
  });
  return order;
}

detail::SeatModel Determinizer::Impl::seat_model() const {
  detail::SeatModel model;
  model.pool = pool;
  std::vector<int> seat_of_cell(cell_allowed.size(), -1);
  for (int j = 0; j < players; ++j) {
    if (j == seat) continue;
    detail::SeatModel::Seat s;
    s.first_slot = seats[j].first;
    for (int slot = seats[j].first; slot < seats[j].first + seats[j].slots; ++slot) {
      s.allowed.push_back(cell_allowed[static_cast<size_t>(slot_cell[slot])]);
      seat_of_cell[static_cast<size_t>(slot_cell[slot])] = static_cast<int>(model.seats.size());
    }
    model.seats.push_back(std::move(s));
  }
  // The placed tiles follow U in `tiles`; each fits the cells of its placer only.
  for (size_t b = pool.size(); b < tiles.size(); ++b) {
    const int t = tiles[b];
    const int owner = seat_of_cell[static_cast<size_t>(tile_cells[static_cast<size_t>(t)].first())];
    model.seats[static_cast<size_t>(owner)].placed.push_back(t);
  }
  return model;
}

void Determinizer::Impl::build_count() {
  using Method = Determinizer::Method;
  const bool forced = method == Method::ByTile || method == Method::BySeat;  // tests: no bound
  CountStore& st = *store;
  if (method == Method::Auto || method == Method::ByTile) {
    try {
      st.count = std::make_unique<detail::Count>(tile_order(), tile_cells, cell_room,
                                                 forced ? kNoBound : kTileStates);
    } catch (const std::length_error&) {
      st.count.reset();
    }
  }
  if (st.count || method == Method::ByTile) return count_built();
  // The count by seat, of the exact model and then of coarser ones; Coarse
  // (tests of the rejection) starts with a coarser one.
  const detail::SeatModel exact = seat_model();
  Coarsening coarse(exact);
  for (bool first = true; !st.seat_count && (first || coarse.groups() > 1); first = false) {
    if (!first || method == Method::Coarse)
      coarse.merge_to(coarse.groups() - std::max(1, coarse.groups() / 4));
    try {
      st.seat_count = std::make_unique<detail::SeatCount>(coarse.merges() ? coarse.model() : exact,
                                                          forced ? kNoBound : kSeatWork);
    } catch (const std::length_error&) {
      st.seat_count.reset();
    } catch (const std::domain_error& e) {  // the model's chains are nested: a bug if not
      throw std::logic_error(std::string("determinize: ") + e.what());
    }
  }
  st.stats.exact_groups = coarse.exact_groups();
  st.stats.count_groups = coarse.groups();
  st.stats.count_relaxed = st.seat_count && coarse.merges() > 0;
  st.stats.relaxed_misses = coarse.misses();
  count_built();
}

void Determinizer::Impl::count_built() {
  CountStore& st = *store;
  st.built = true;
  const detail::Count* count = st.count.get();
  const detail::SeatCount* seat_count = st.seat_count.get();
  DeterminizerStats& stats = st.stats;
  if (!count && !seat_count) {
    stats.count_too_large = true;
    return;
  }
  stats.count_built = true;
  stats.count_by_seat = seat_count != nullptr;
  stats.count_states = seat_count ? seat_count->work() : count->states();
  stats.count_edges = seat_count ? 0 : count->edges();
  // The count tells the orders of a dealt hand apart; a world does not.
  double orders = 0;
  for (int j = 0; j < players; ++j)
    if (j != seat) orders += detail::log_factorial(seats[j].initial - seats[j].search);
  const double log2_count = seat_count ? seat_count->log2_count() : count->log2_count();
  stats.log2_worlds = log2_count - orders / std::log(2.0);
}

void Determinizer::Impl::fetch_count() {
  CountStore& st = *store;
  const std::lock_guard<std::mutex> hold(st.lock);
  if (!st.built) build_count();
  count = st.count.get();
  seat_count = st.seat_count.get();
  const DeterminizerStats& b = st.stats;
  stats.count_built = b.count_built;
  stats.count_by_seat = b.count_by_seat;
  stats.count_too_large = b.count_too_large;
  stats.count_states = b.count_states;
  stats.count_edges = b.count_edges;
  stats.log2_worlds = b.log2_worlds;
  stats.count_relaxed = b.count_relaxed;
  stats.exact_groups = b.exact_groups;
  stats.count_groups = b.count_groups;
  stats.relaxed_misses = b.relaxed_misses;
}

}  // namespace dominocore
