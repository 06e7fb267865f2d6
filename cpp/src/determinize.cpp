// Exact determinization (docs/information.md 4).
//
// The slot model. Seen from seat s, every other seat j holds slots in the
// order it got them: its initial slots (its hand right after the set-up, the
// cross's search draws included) and one per Draw. A Draw whose tile was
// placed right after is fixed (its tile is public) and left out; every other
// slot, and each place of the yard (in Block: of the tiles out of play),
// takes one tile of the world. The tiles to place are the pool U (tiles s
// never saw) and the tiles the other seats placed from a slot that is not
// fixed. A slot allows a tile when conditions 1-4 of docs/information.md 4
// hold for it there; slots of one seat allowing the same tiles form a cell,
// the yard is one more cell allowing all of U. A world is a bijection from
// those tiles to the slots in which every tile sits in a slot that allows it.
//
// Proposals. A baseline proposal puts each seat's placed tiles, in placement
// order, into a uniform free slot among those it had got before placing them,
// and then U uniformly over the rest; it is uniform over the bijections that
// satisfy condition 1, so an accepted one (every slot allows its tile) is
// uniform over the worlds.
//
// Liveness. Once nobody may draw, the round not being over says that some
// hand holds a tile with a legal end now (docs/information.md 4 does not list
// it; see the note in Impl::Impl). Worlds that break it are rejected, by
// either path below, which keeps them exact.
//
// The count. When the proposals keep failing, the sampler counts the worlds
// exactly and samples from the count. It is a count of bijections between
// items and bins of given room, each item allowing some bins, done one item
// at a time in a fixed order: at level i (items i.. still to place) two bins
// are equivalent when every item still to place allows both or neither, and
// the state is the free room of each equivalence class. The number of
// completions S_i(f) = sum over the classes q item i may go to of
// f_q * S_{i+1}(f - e_q, merged into the classes of level i+1) depends on the
// state alone (the room of a class is interchangeable for the items left),
// and S_n = 1. Sampling puts item i into class q with probability
// f_q S_{i+1}(...) / S_i(f), then into a bin of q chosen in proportion to its
// free room: every bijection comes out with probability 1 / S_0.
//
// The items are the tiles and the bins the cells (a tile put in a cell goes to
// a uniform free slot of it: the cell's tiles are shuffled over its slots at
// the end). This count by tile is the W(i, c) of docs/information.md 4
// counted per slot rather than per cell (S = W times the orders inside the
// cells, the same for every assignment), with the tiles placed most
// constrained first rather than by index and with equivalent cells merged as
// the tiles that tell them apart are used up, which keeps the memo small:
// once only tiles allowed everywhere are left, one class remains. The states
// are found level by level from the start; each level's counts are scaled by
// a power of two (only ratios within a level are ever used), so no count
// overflows a double.
//
// Its states multiply across seats when many placed tiles and Draw slots with
// different constraints are in play (long rounds of the cross on large sets).
// Past a bound the sampler counts by seat instead (seat_count.hpp): seats
// interact only through the unseen tiles, so each seat's placed tiles are
// counted on their own and only the unseen tiles left per group are carried
// from seat to seat. Its cost grows with the groups in turn; past a bound the
// sampler counts a coarser model (Coarsening: fewer groups, each slot
// allowing at least what it allowed) and rejects the draws the exact model
// does not allow, which keeps the sample uniform. Each count has a bound
// (kTileStates, kSeatWork).

#include "dominocore/determinize.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "seat_count.hpp"

namespace dominocore {

namespace {

/// The tiles that have a legal placement for `seat` in `state`'s position
/// (obligations, Doubles' locks and Mexican Train's trains open to the seat
/// included), whoever holds them.
TileSet placeable_for(const State& state, int seat) {
  return games::with_game(state.rules().game, [&](auto tag) {
    return Engine<DOMINOCORE_GAME(tag)>::seat_mask(state.data(), seat);
  });
}

/// The counts, each within a bound (each is cheap on some positions where the
/// other is not): the count by tile up to kTileStates memo entries (about 35
/// bytes and 0.5 us an entry: some 0.5 s and 40 MB), then the count by seat up
/// to kSeatWork units of work (a unit is some 30-60 ns: up to 2 s), first of
/// the exact model, then of coarser ones (Coarsening: a quarter fewer groups
/// of unseen tiles each time, the draws checked against the exact model). So
/// the build costs at most kTileStates entries and kSeatWork units per model
/// tried: the groups are at most the unseen tiles, so at most 19 models on
/// double-18. The coarsest model, one group, leaves only each seat's own
/// count of its placed tiles; were even that past its bound, or were a coarser
/// model's draws rejected kMaxProposals times in a row, the sampler would give
/// up with StateError rather than run without bound (neither has been seen:
/// docs/information.md 4).
constexpr uint64_t kTileStates = uint64_t{1} << 20;
constexpr uint64_t kSeatWork = uint64_t{1} << 25;
constexpr uint64_t kMaxProposals = uint64_t{1} << 22;
constexpr uint64_t kNoBound = ~uint64_t{0};

// ---- the count ----------------------------------------------------------------

class Count {
 public:
  /// `order`: the items, in the order the count places them; `bins_of[x]`:
  /// the bins item x may go to (bit b: bin b); `room[b]`: the room of bin b.
  /// Throws std::length_error past `max_states` memo entries.
  Count(const std::vector<int>& order, const std::vector<TileSet>& bins_of,
        const std::vector<int>& room, uint64_t max_states);

  /// A uniform bijection: bucket[b] receives the items put in bin b; `free`
  /// starts as the room of every bin (scratch).
  void sample(Rng& rng, std::vector<std::vector<int>>& bucket, std::vector<int>& free) const;

  uint64_t states() const noexcept { return states_; }
  uint64_t edges() const noexcept { return edges_; }
  /// log2 of the number of bijections.
  double log2_count() const noexcept { return log2_; }

 private:
  struct Edge {
    uint32_t child;  ///< the state it leads to at the next level
    uint16_t cls;    ///< the class the item goes to
    uint16_t mult;   ///< that class's free room (the number of ways)
  };
  struct Level {
    int item = -1;  ///< the item placed at this level
    int classes = 0;
    int words = 0;                    ///< key words: one byte per class
    std::vector<uint16_t> bin_begin;  ///< class q's bins: bins[bin_begin[q] .. bin_begin[q+1])
    std::vector<uint16_t> bins;
    std::vector<uint16_t> parent;  ///< the class of the next level containing class q
    std::vector<uint8_t> allows;   ///< this level's item may go to class q
    std::vector<uint16_t> cap;     ///< items from this level on that class q allows
    std::vector<uint64_t> keys;    ///< per state, `words` words (freed once expanded)
    std::vector<uint32_t> edge_begin;
    std::vector<Edge> edges;
    std::vector<double> value;  ///< S of each state, scaled by a power of two
  };

  /// The state's index at `level`, added if new; `index` is the level's hash index.
  uint32_t intern(Level& level, std::vector<int32_t>& index, const uint8_t* f);

  std::vector<Level> levels_;
  uint64_t max_states_ = 0, states_ = 0, edges_ = 0;
  double log2_ = 0;
};

uint64_t key_hash(const uint64_t* key, int words) noexcept {
  uint64_t h = 0x243F6A8885A308D3ull;
  for (int w = 0; w < words; ++w) h = (h ^ key[w]) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

void pack(const uint8_t* f, int classes, int words, uint64_t* key) noexcept {
  std::memset(key, 0, sizeof(uint64_t) * static_cast<size_t>(words));
  for (int q = 0; q < classes; ++q) key[q >> 3] |= uint64_t{f[q]} << (8 * (q & 7));
}

void unpack(const uint64_t* key, int classes, uint8_t* f) noexcept {
  for (int q = 0; q < classes; ++q) f[q] = static_cast<uint8_t>(key[q >> 3] >> (8 * (q & 7)));
}

uint32_t Count::intern(Level& level, std::vector<int32_t>& index, const uint8_t* f) {
  const int words = level.words;
  uint64_t key[(kMaxTiles + 8) / 8];
  pack(f, level.classes, words, key);
  const size_t n = level.keys.size() / static_cast<size_t>(words);
  if (2 * (n + 1) > index.size()) {  // grow the index, rehashing every key
    std::vector<int32_t> bigger(std::max<size_t>(64, 2 * index.size()), -1);
    const size_t mask = bigger.size() - 1;
    for (size_t s = 0; s < n; ++s) {
      size_t h = key_hash(&level.keys[s * static_cast<size_t>(words)], words) & mask;
      while (bigger[h] >= 0) h = (h + 1) & mask;
      bigger[h] = static_cast<int32_t>(s);
    }
    index.swap(bigger);
  }
  const size_t mask = index.size() - 1;
  size_t h = key_hash(key, words) & mask;
  while (index[h] >= 0) {
    const uint64_t* other = &level.keys[static_cast<size_t>(index[h]) * static_cast<size_t>(words)];
    if (std::memcmp(other, key, sizeof(uint64_t) * static_cast<size_t>(words)) == 0)
      return static_cast<uint32_t>(index[h]);
    h = (h + 1) & mask;
  }
  if (++states_ > max_states_) throw std::length_error("the count outgrew its bound");
  index[h] = static_cast<int32_t>(n);
  level.keys.insert(level.keys.end(), key, key + words);
  return static_cast<uint32_t>(n);
}

Count::Count(const std::vector<int>& order, const std::vector<TileSet>& bins_of,
             const std::vector<int>& room, uint64_t max_states)
    : max_states_(max_states) {
  const int n = static_cast<int>(order.size()), K = static_cast<int>(room.size());
  levels_.resize(static_cast<size_t>(n) + 1);

  // The classes of every level, from the last (no item left: one class) back.
  std::vector<int> cls(static_cast<size_t>(K), 0), next(static_cast<size_t>(K));
  std::vector<int> cap_bin(static_cast<size_t>(K), 0), id;
  auto finish_level = [&](Level& L, int classes) {
    L.classes = classes;
    L.words = (classes + 7) / 8;
    L.bin_begin.assign(static_cast<size_t>(classes) + 1, 0);
    for (int k = 0; k < K; ++k) ++L.bin_begin[static_cast<size_t>(cls[k]) + 1];
    for (int q = 0; q < classes; ++q) L.bin_begin[q + 1] += L.bin_begin[q];
    L.bins.resize(static_cast<size_t>(K));
    std::vector<uint16_t> at(L.bin_begin.begin(), L.bin_begin.end() - 1);
    L.cap.assign(static_cast<size_t>(classes), 0);
    for (int k = 0; k < K; ++k) {
      L.bins[at[static_cast<size_t>(cls[k])]++] = static_cast<uint16_t>(k);
      L.cap[static_cast<size_t>(cls[k])] = static_cast<uint16_t>(cap_bin[k]);
    }
  };
  finish_level(levels_[static_cast<size_t>(n)], 1);
  int classes = 1;
  for (int i = n - 1; i >= 0; --i) {
    Level& L = levels_[static_cast<size_t>(i)];
    const TileSet& allowed = bins_of[static_cast<size_t>(order[i])];
    L.item = order[i];
    id.assign(2 * static_cast<size_t>(classes), -1);
    int m = 0;
    for (int k = 0; k < K; ++k) {
      const int bit = allowed.test(k) ? 1 : 0;
      int& slot = id[2 * static_cast<size_t>(cls[k]) + static_cast<size_t>(bit)];
      if (slot < 0) {
        slot = m++;
        L.parent.push_back(static_cast<uint16_t>(cls[k]));
        L.allows.push_back(static_cast<uint8_t>(bit));
      }
      next[k] = slot;
      cap_bin[k] += bit;
    }
    cls.swap(next);
    classes = m;
    finish_level(L, classes);
  }

  // The states, level by level from the start.
  uint8_t f[kMaxTiles + 1], h[kMaxTiles + 1];
  std::vector<int32_t> index;
  {
    Level& L0 = levels_[0];
    std::memset(f, 0, sizeof f);
    for (int q = 0; q < L0.classes; ++q)
      for (int c = L0.bin_begin[q]; c < L0.bin_begin[q + 1]; ++c)
        f[q] = static_cast<uint8_t>(f[q] + room[L0.bins[static_cast<size_t>(c)]]);
    intern(L0, index, f);
  }
  for (int i = 0; i < n; ++i) {
    Level& L = levels_[static_cast<size_t>(i)];
    Level& N = levels_[static_cast<size_t>(i) + 1];
    index.clear();
    const size_t count = L.keys.size() / static_cast<size_t>(L.words);
    L.edge_begin.reserve(count + 1);
    for (size_t s = 0; s < count; ++s) {
      L.edge_begin.push_back(static_cast<uint32_t>(L.edges.size()));
      unpack(&L.keys[s * static_cast<size_t>(L.words)], L.classes, f);
      for (int q = 0; q < L.classes; ++q) {
        if (!L.allows[static_cast<size_t>(q)] || f[q] == 0) continue;
        std::memset(h, 0, static_cast<size_t>(N.classes));
        for (int r = 0; r < L.classes; ++r) h[L.parent[static_cast<size_t>(r)]] += f[r];
        --h[L.parent[static_cast<size_t>(q)]];
        bool feasible = true;  // no class keeps more free slots than tiles left for it
        for (int r = 0; r < N.classes && feasible; ++r)
          feasible = h[r] <= N.cap[static_cast<size_t>(r)];
        if (!feasible) continue;
        const uint32_t child = intern(N, index, h);
        L.edges.push_back(Edge{child, static_cast<uint16_t>(q), f[q]});
      }
    }
    L.edge_begin.push_back(static_cast<uint32_t>(L.edges.size()));
    edges_ += L.edges.size();
    std::vector<uint64_t>().swap(L.keys);
  }
  Level& last = levels_[static_cast<size_t>(n)];
  if (last.keys.size() != static_cast<size_t>(last.words))
    throw std::logic_error("determinize: the slot model has no world");
  std::vector<uint64_t>().swap(last.keys);
  last.value.assign(1, 1.0);

  // The counts, from the end; each level scaled so that its largest is in [0.5, 1).
  for (int i = n - 1; i >= 0; --i) {
    Level& L = levels_[static_cast<size_t>(i)];
    const std::vector<double>& below = levels_[static_cast<size_t>(i) + 1].value;
    const size_t count = L.edge_begin.size() - 1;
    L.value.resize(count);
    double most = 0;
    for (size_t s = 0; s < count; ++s) {
      double v = 0;
      for (uint32_t e = L.edge_begin[s]; e < L.edge_begin[s + 1]; ++e)
        v += L.edges[e].mult * below[L.edges[e].child];
      L.value[s] = v;
      most = std::max(most, v);
    }
    if (most <= 0) throw std::logic_error("determinize: the slot model has no world");
    int exponent = 0;
    std::frexp(most, &exponent);
    for (double& v : L.value) v = std::ldexp(v, -exponent);
    log2_ += exponent;
  }
  log2_ += std::log2(levels_[0].value[0]);
}

void Count::sample(Rng& rng, std::vector<std::vector<int>>& bucket, std::vector<int>& free) const {
  uint32_t s = 0;
  const int n = static_cast<int>(levels_.size()) - 1;
  for (int i = 0; i < n; ++i) {
    const Level& L = levels_[static_cast<size_t>(i)];
    const std::vector<double>& below = levels_[static_cast<size_t>(i) + 1].value;
    const uint32_t e0 = L.edge_begin[s], e1 = L.edge_begin[s + 1];
    double total = 0;
    for (uint32_t e = e0; e < e1; ++e) total += L.edges[e].mult * below[L.edges[e].child];
    double u = rng.unit() * total;
    uint32_t pick = e0;
    for (uint32_t e = e0; e < e1; ++e) {
      const double w = L.edges[e].mult * below[L.edges[e].child];
      if (w <= 0) continue;
      pick = e;  // the last edge of positive weight absorbs any rounding
      if (u < w) break;
      u -= w;
    }
    const Edge& edge = L.edges[pick];
    // A bin of the class, in proportion to its free room.
    int r = static_cast<int>(rng.below_unchecked(edge.mult));
    int bin = -1;
    for (int c = L.bin_begin[edge.cls]; c < L.bin_begin[edge.cls + 1]; ++c) {
      bin = L.bins[static_cast<size_t>(c)];
      if (r < free[static_cast<size_t>(bin)]) break;
      r -= free[static_cast<size_t>(bin)];
    }
    --free[static_cast<size_t>(bin)];
    bucket[static_cast<size_t>(bin)].push_back(L.item);
    s = edge.child;
  }
}

// ---- the coarser models -----------------------------------------------------------

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
    for (int t : exact.pool) pool_.set(t);
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

// ---- the determinizer -----------------------------------------------------------

struct Determinizer::Impl {
  Rules rules;
  int seat = 0, players = 0;
  Deal base;  ///< the round's deal: the seat's own hand, the centre, the set-up's facts
  std::vector<Move> moves;
  std::vector<int> own_search;  ///< the seat's own search draws (the centre excluded), in order

  // The slots: each other seat's initial slots, then its Draw slots (fixed
  // ones left out), seat by seat; then the yard's, top first.
  struct SeatSlots {
    int first = 0;    ///< its first slot
    int slots = 0;    ///< its slots: the initial ones, then one per Draw (not fixed)
    int initial = 0;  ///< initial slots (the hand after the set-up)
    int search = 0;   ///< of which the last `search` are its search draws, in order
  };
  SeatSlots seats[kMaxPlayers];
  int yard_first = 0, n_slots = 0;
  std::vector<int> slot_cell;
  std::vector<TileSet> cell_allowed;  ///< the tiles each cell allows
  std::vector<int> cell_room, cell_begin,
      cell_slots;                   ///< cell k's slots: cell_slots[cell_begin[k]..]
  std::vector<int> tiles;           ///< the tiles to place (U and the placed ones)
  std::vector<int> pool;            ///< U
  std::vector<TileSet> tile_cells;  ///< by tile index: the cells it may go to

  /// A baseline proposal's script, in history order: seat `seat` gets slot
  /// `slot` (a Draw), or places `tile` (from a slot it got before).
  struct Op {
    int seat, slot, tile;
  };
  std::vector<Op> script;
  /// Per Draw of the history: its tile when public to the seat (its own, or
  /// placed right after), else -1 and the slot that holds it.
  std::vector<int> draw_tile, draw_slot;

  /// The round goes on although nobody may draw: some hand holds a tile of
  /// `live_tiles` now (checked only when the seat's own hand holds none).
  bool live_check = false;
  TileSet live_tiles;

  /// The count, built at most once for this information and shared by the
  /// clones of a determinizer (Determinizer::clone): built under its lock by
  /// the first that needs it, then only read (both counts sample from const
  /// methods with the caller's scratch).
  struct CountStore {
    std::mutex lock;
    bool built = false;                             ///< build_count ran (whatever it found)
    std::unique_ptr<Count> count;                   ///< the count by tile, when it fitted its bound
    std::unique_ptr<detail::SeatCount> seat_count;  ///< else the count by seat
    DeterminizerStats stats;                        ///< the count's fields of the statistics
  };
  std::shared_ptr<CountStore> store = std::make_shared<CountStore>();
  const Count* count = nullptr;                   ///< store's, once this copy has fetched it
  const detail::SeatCount* seat_count = nullptr;  ///< store's, once this copy has fetched it
  DeterminizerStats stats;

  // Scratch of one sample.
  std::vector<int> fill_order;  ///< the seats' slots, fewest unseen tiles allowed first
  std::vector<int> tile_of_slot, scratch;
  std::vector<int> avail[kMaxPlayers];
  std::vector<std::vector<int>> bucket;
  std::vector<int> free_room;

  int proposals = Determinizer::kProposals;                  ///< per sample, before the count
  Determinizer::Method method = Determinizer::Method::Auto;  ///< the count to build

  Impl(const State& state, int seat);
  bool propose(Rng& rng);
  bool alive() const;
  std::vector<int> tile_order() const;
  detail::SeatModel seat_model() const;
  /// Builds the count into `store` (the bounds above), or sets its
  /// stats.count_too_large; the caller holds store->lock.
  void build_count();
  /// Records what build_count built in store->stats.
  void count_built();
  /// Fetches the store's count (building it first if no copy has): after
  /// it, count or seat_count is set, or stats.count_too_large.
  void fetch_count();
  /// Draws a world from the count into tile_of_slot; false when it is a world
  /// of a coarser model that the exact model does not allow (rejected).
  bool from_count(Rng& rng);
  Deal assemble() const;
};

Determinizer::Impl::Impl(const State& state, int s)
    : rules(state.rules()), seat(s), players(state.players()) {
  const int p = players, T = rules.tiles();
  if (s < 0 || s >= p)
    throw RulesError("seat must be between 0 and " + std::to_string(p - 1) + ", got " +
                     std::to_string(s));
  if (state.is_over()) throw StateError("the round is over: there is nothing hidden to sample");
  base = state.deal();
  moves = state.moves();
  const int n_moves = static_cast<int>(moves.size());

  const int L = static_cast<int>(base.setup_draws.size());
  for (int i = 0; i + 1 < L; ++i) {
    const int j = (base.round_index + i) % p;
    if (j == s)
      own_search.push_back(base.setup_draws[static_cast<size_t>(i)]);
    else
      ++seats[j].search;
  }

  // Replay the history from the deal, reading what each move tells.
  struct Slot {
    int got;       ///< the Draw's move, -1 for an initial slot
    TileSet must;  ///< condition 3: tiles it may not hold (a Pass right after its Draw)
  };
  std::vector<Slot> slots_of[kMaxPlayers];
  std::vector<std::array<int16_t, kMaxTiles>> last(static_cast<size_t>(p));  // condition 2
  for (auto& row : last) row.fill(-1);  // last[j][t]: j's last Draw/Pass whose F held t
  int placer[kMaxTiles], placed_at[kMaxTiles], last_before[kMaxTiles];
  std::fill(placer, placer + kMaxTiles, -1);
  TileSet seen;  // the tiles the seat saw: the centre, its own, every placed one
  if (base.centre >= 0) seen.set(base.centre);
  for (int t : base.hands[static_cast<size_t>(s)]) seen.set(t);
  for (int j = 0; j < p; ++j)
    if (j != s)
      for (size_t k = 0; k < base.hands[static_cast<size_t>(j)].size(); ++k)
        slots_of[j].push_back(Slot{-1, TileSet{}});

  std::vector<int> draw_owner;  // the seat of each Draw
  State w(state);
  while (w.num_moves() > 0) w.pop();
  for (int i = 0; i < n_moves; ++i) {
    const Move mv = moves[static_cast<size_t>(i)];
    const int m = w.current_player();
    const bool in_question = w.drawn_tile() >= 0;
    auto constrain = [&](const TileSet& F) {
      F.for_each([&](int t) {
        last[static_cast<size_t>(m)][static_cast<size_t>(t)] = static_cast<int16_t>(i);
      });
    };
    switch (mv.kind) {
      case MoveKind::Draw:
        if (m == s) {
          const int t = w.yard_tile(0);
          seen.set(t);
          draw_tile.push_back(t);
          draw_slot.push_back(-1);
          draw_owner.push_back(m);
        } else {
          const bool fixed = i + 1 < n_moves && moves[static_cast<size_t>(i) + 1].is_place();
          if (fixed) {  // the tile placed next is this Draw's
            draw_tile.push_back(moves[static_cast<size_t>(i) + 1].tile);
            draw_slot.push_back(-1);
            draw_owner.push_back(m);
          } else {
            const int k = static_cast<int>(slots_of[m].size());
            slots_of[m].push_back(Slot{i, TileSet{}});
            draw_tile.push_back(-1);
            draw_slot.push_back(k);  // numbered among the seat's slots for now
            draw_owner.push_back(m);
            script.push_back(Op{m, k, -1});
          }
          constrain(placeable_for(w, m));
        }
        break;
      case MoveKind::Pass:
        if (m != s) {
          if (!in_question)
            constrain(placeable_for(w, m));
          else if (rules.drawn_tile == DrawnTile::Must)  // its Draw's slot is its last
            slots_of[m].back().must = placeable_for(w, m);
        }
        break;
      case MoveKind::Place:
        if (m != s) {
          const int t = mv.tile;
          seen.set(t);
          if (!in_question) {
            placer[t] = m;
            placed_at[t] = i;
            last_before[t] = last[static_cast<size_t>(m)][static_cast<size_t>(t)];
            script.push_back(Op{m, -1, t});
          }
        }
        break;
    }
    w.push_unchecked(mv);
  }

  // Number the slots, then put them in cells by the tiles they allow.
  for (int t = 0; t < T; ++t)
    if (!seen.test(t)) pool.push_back(t);
  // The round is not over. Once nobody may draw, the blocked test runs after
  // every move: some hand held a tile with a legal end (every train counted
  // as open in Mexican Train). Between two placements of that phase neither
  // the hands nor the legal ends change, so a later placement shows it for
  // every earlier position; only the present one is left to check.
  {
    const RoundData& r = state.data();
    const bool can_draw = games::with_game(rules.game, [&](auto tag) {
      using G = DOMINOCORE_GAME(tag);
      return G::can_draw(r);
    });
    if (!can_draw && !intersects(state.hand(s), r.legal_mask)) {
      live_check = true;
      for (int t : pool)
        if (r.legal_mask.test(t)) live_tiles.set(t);
    }
  }
  TileSet high_doubles;  // condition 4: doubles no initial slot may hold
  if (base.highest_double)
    for (int v = rules.set; v >= 0 && double_tile(v) != base.centre; --v)
      high_doubles.set(double_tile(v));
  int next = 0;
  for (int j = 0; j < p; ++j) {
    if (j == s) continue;
    SeatSlots& info = seats[j];
    info.first = next;
    info.initial = static_cast<int>(base.hands[static_cast<size_t>(j)].size());
    info.slots = static_cast<int>(slots_of[j].size());
    const int first_cell = static_cast<int>(cell_allowed.size());
    for (const Slot& slot : slots_of[j]) {
      TileSet a;
      for (int t : pool)
        if (last[static_cast<size_t>(j)][static_cast<size_t>(t)] <= slot.got) a.set(t);
      for (int t = 0; t < T; ++t)
        if (placer[t] == j && last_before[t] <= slot.got && slot.got < placed_at[t]) a.set(t);
      a = minus(a, slot.must);
      if (slot.got < 0) a = minus(a, high_doubles);
      int cell = first_cell;
      while (cell < static_cast<int>(cell_allowed.size()) && cell_allowed[cell] != a) ++cell;
      if (cell == static_cast<int>(cell_allowed.size())) {
        cell_allowed.push_back(a);
        cell_room.push_back(0);
      }
      ++cell_room[cell];
      slot_cell.push_back(cell);
      ++next;
    }
  }
  yard_first = next;
  TileSet yard_allows;
  for (int t : pool) yard_allows.set(t);
  cell_allowed.push_back(yard_allows);
  cell_room.push_back(state.yard_size());
  for (int k = 0; k < state.yard_size(); ++k)
    slot_cell.push_back(static_cast<int>(cell_room.size()) - 1);
  n_slots = static_cast<int>(slot_cell.size());
  for (Op& op : script)
    if (op.slot >= 0) op.slot += seats[op.seat].first;
  for (size_t d = 0; d < draw_slot.size(); ++d)
    if (draw_slot[d] >= 0) draw_slot[d] += seats[draw_owner[d]].first;

  const int K = static_cast<int>(cell_allowed.size());
  cell_begin.assign(static_cast<size_t>(K) + 1, 0);
  for (int c : slot_cell) ++cell_begin[static_cast<size_t>(c) + 1];
  for (int k = 0; k < K; ++k) cell_begin[k + 1] += cell_begin[k];
  cell_slots.resize(static_cast<size_t>(n_slots));
  {
    std::vector<int> at(cell_begin.begin(), cell_begin.end() - 1);
    for (int sl = 0; sl < n_slots; ++sl) cell_slots[static_cast<size_t>(at[slot_cell[sl]]++)] = sl;
  }
  tile_cells.assign(static_cast<size_t>(T), TileSet{});
  for (int k = 0; k < K; ++k) cell_allowed[k].for_each([&](int t) { tile_cells[t].set(k); });
  tiles = pool;
  for (int t = 0; t < T; ++t)
    if (placer[t] >= 0) tiles.push_back(t);
  for (int t : tiles)
    if (tile_cells[t].empty())
      throw std::logic_error("determinize: tile " + tile_name(t) + " fits no slot");
  if (static_cast<int>(tiles.size()) != n_slots)
    throw std::logic_error("determinize: " + std::to_string(tiles.size()) + " tiles for " +
                           std::to_string(n_slots) + " slots");

  std::vector<int> allowing(static_cast<size_t>(K), 0);  // unseen tiles each cell allows
  for (int k = 0; k < K; ++k)
    allowing[static_cast<size_t>(k)] = (cell_allowed[static_cast<size_t>(k)] & yard_allows).count();
  for (int slot = 0; slot < yard_first; ++slot) fill_order.push_back(slot);
  std::stable_sort(fill_order.begin(), fill_order.end(), [&](int a, int b) {
    return allowing[static_cast<size_t>(slot_cell[a])] <
           allowing[static_cast<size_t>(slot_cell[b])];
  });

  stats.tiles = static_cast<int>(tiles.size());
  stats.slots = n_slots;
  stats.cells = K;
  tile_of_slot.assign(static_cast<size_t>(n_slots), -1);
}

bool Determinizer::Impl::alive() const {
  if (!live_check) return true;
  for (int slot = 0; slot < yard_first; ++slot)
    if (live_tiles.test(tile_of_slot[static_cast<size_t>(slot)])) return true;
  return false;
}

bool Determinizer::Impl::propose(Rng& rng) {
  std::fill(tile_of_slot.begin(), tile_of_slot.begin() + yard_first, -1);
  for (int j = 0; j < players; ++j) {
    if (j == seat) continue;
    std::vector<int>& a = avail[j];
    a.clear();
    for (int k = 0; k < seats[j].initial; ++k) a.push_back(seats[j].first + k);
  }
  for (const Op& op : script) {
    std::vector<int>& a = avail[op.seat];
    if (op.tile < 0) {
      a.push_back(op.slot);
      continue;
    }
    const size_t k = static_cast<size_t>(rng.below_unchecked(a.size()));
    const int slot = a[k];
    if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(op.tile)) return false;
    tile_of_slot[static_cast<size_t>(slot)] = op.tile;
    a[k] = a.back();
    a.pop_back();
  }
  // The rest of U: a uniform tile for each free slot of the seats, then the
  // yard in a uniform order. The slots allowing fewest tiles draw first, so
  // that a proposal bound to fail fails early; the order of the draws does
  // not change the distribution.
  scratch = pool;
  size_t left = scratch.size();
  for (int slot : fill_order) {
    if (tile_of_slot[static_cast<size_t>(slot)] >= 0) continue;  // a placed tile's
    const size_t k = static_cast<size_t>(rng.below_unchecked(left));
    const int t = scratch[k];
    if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(t)) return false;
    tile_of_slot[static_cast<size_t>(slot)] = t;
    scratch[k] = scratch[--left];
  }
  if (!alive()) return false;
  rng.shuffle(scratch.data(), left);
  for (size_t k = 0; k < left; ++k) tile_of_slot[static_cast<size_t>(yard_first) + k] = scratch[k];
  return true;
}

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
      st.count = std::make_unique<Count>(tile_order(), tile_cells, cell_room,
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
  const Count* count = st.count.get();
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

bool Determinizer::Impl::from_count(Rng& rng) {
  if (seat_count) {
    seat_count->sample(rng, tile_of_slot, scratch);
    std::copy(scratch.begin(), scratch.end(), tile_of_slot.begin() + yard_first);
    if (stats.count_relaxed)  // a world of a coarser model: is it one of the exact model?
      for (int slot = 0; slot < yard_first; ++slot)
        if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(
                tile_of_slot[static_cast<size_t>(slot)]))
          return false;
    return true;
  }
  const int K = static_cast<int>(cell_room.size());  // bucket[k]: the tiles of cell k
  bucket.resize(static_cast<size_t>(K));
  for (auto& b : bucket) b.clear();
  free_room = cell_room;
  count->sample(rng, bucket, free_room);
  for (int k = 0; k < K; ++k) {
    std::vector<int>& b = bucket[static_cast<size_t>(k)];
    rng.shuffle(b.data(), b.size());
    for (size_t x = 0; x < b.size(); ++x)
      tile_of_slot[static_cast<size_t>(cell_slots[static_cast<size_t>(cell_begin[k]) + x])] = b[x];
  }
  return true;
}

Deal Determinizer::Impl::assemble() const {
  const int p = players;
  Deal d;
  d.round_index = base.round_index;
  d.centre = base.centre;
  d.starter = base.starter;
  d.highest_double = base.highest_double;
  d.hands.resize(static_cast<size_t>(p));
  for (int j = 0; j < p; ++j) {
    if (j == seat) {
      d.hands[static_cast<size_t>(j)] = base.hands[static_cast<size_t>(j)];
      continue;
    }
    const SeatSlots& info = seats[j];
    d.hands[static_cast<size_t>(j)].assign(tile_of_slot.begin() + info.first,
                                           tile_of_slot.begin() + info.first + info.initial);
  }
  const size_t L = base.setup_draws.size();
  if (L > 0) {
    // The search in rotation order: each seat's search draws are the last of
    // its initial slots, in order; the round's double closes it.
    int cursor[kMaxPlayers];
    for (int j = 0; j < p; ++j)
      cursor[j] = j == seat ? 0 : seats[j].first + seats[j].initial - seats[j].search;
    d.setup_draws.resize(L);
    for (size_t i = 0; i + 1 < L; ++i) {
      const int j =
          static_cast<int>((static_cast<size_t>(base.round_index) + i) % static_cast<size_t>(p));
      d.setup_draws[i] = j == seat ? own_search[static_cast<size_t>(cursor[j]++)]
                                   : tile_of_slot[static_cast<size_t>(cursor[j]++)];
    }
    d.setup_draws[L - 1] = base.centre;
  }
  d.yard.reserve(draw_tile.size() + static_cast<size_t>(n_slots - yard_first));
  for (size_t k = 0; k < draw_tile.size(); ++k)
    d.yard.push_back(draw_tile[k] >= 0 ? draw_tile[k]
                                       : tile_of_slot[static_cast<size_t>(draw_slot[k])]);
  d.yard.insert(d.yard.end(), tile_of_slot.begin() + yard_first, tile_of_slot.end());
  return d;
}

Determinizer::Determinizer(const State& state, int seat, int proposals, Method method)
    : impl_(std::make_unique<Impl>(state, seat)) {
  if (proposals < 0)
    throw RulesError("proposals must be at least 0, got " + std::to_string(proposals));
  impl_->proposals = proposals;
  impl_->method = method;
}
Determinizer::Determinizer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Determinizer::~Determinizer() = default;
Determinizer::Determinizer(Determinizer&&) noexcept = default;
Determinizer& Determinizer::operator=(Determinizer&&) noexcept = default;

Determinizer Determinizer::clone() const {
  auto copy = std::make_unique<Impl>(*impl_);  // shares the store of the count
  copy->stats = DeterminizerStats{};
  copy->stats.tiles = impl_->stats.tiles;
  copy->stats.slots = impl_->stats.slots;
  copy->stats.cells = impl_->stats.cells;
  copy->count = nullptr;  // fetched from the store when a sample first needs it
  copy->seat_count = nullptr;
  return Determinizer(std::move(copy));
}

int Determinizer::seat() const noexcept { return impl_->seat; }
const Rules& Determinizer::rules() const noexcept { return impl_->rules; }
const DeterminizerStats& Determinizer::stats() const noexcept { return impl_->stats; }

Deal Determinizer::sample_deal(Rng& rng) {
  Impl& im = *impl_;
  DeterminizerStats& st = im.stats;
  ++st.samples;
  // Every sample tries the same number of proposals first, whatever came
  // before, so a world depends on the seed alone (the count, once built, only
  // saves building it again).
  for (int k = 0; k < im.proposals; ++k) {
    ++st.proposals;
    if (im.propose(rng)) {
      ++st.accepted;
      return im.assemble();
    }
  }
  if (!im.count && !im.seat_count && !st.count_too_large) im.fetch_count();
  if (st.count_too_large) {  // no count within its bound: keep proposing, within a bound
    for (uint64_t k = 0; k < kMaxProposals; ++k) {
      ++st.proposals;
      if (im.propose(rng)) {
        ++st.accepted;
        return im.assemble();
      }
    }
    throw StateError(
        "cannot determinize this position: no count of its worlds fits its bound and " +
        std::to_string(kMaxProposals) +
        " proposals all broke its constraints (docs/information.md 4: not seen)");
  }
  ++st.count_samples;
  for (uint64_t k = 0; k < kMaxProposals; ++k) {
    if (!im.from_count(rng))
      ++st.relaxed_rejected;
    else if (!im.alive())
      ++st.count_rejected;
    else
      return im.assemble();
  }
  throw StateError("cannot determinize this position: " + std::to_string(kMaxProposals) +
                   " draws of its count in a row were rejected (docs/information.md 4: not seen)");
}

State Determinizer::sample(Rng& rng) {
  const Deal deal = sample_deal(rng);
  State world(impl_->rules, deal);
  for (const Move& m : impl_->moves) {
#ifndef NDEBUG
    if (world.check(m) != Reason::Ok)
      throw std::logic_error("determinize: the world does not replay move " + move_name(m));
#endif
    world.push_unchecked(m);
  }
  return world;
}

State determinize(const State& state, int seat, uint64_t seed) {
  Rng rng(seed);
  return Determinizer(state, seat).sample(rng);
}

}  // namespace dominocore
