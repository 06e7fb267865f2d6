// The count by seat (see seat_count.hpp and docs/information.md 4).
#include "seat_count.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace dominocore::detail {

namespace {

constexpr uint8_t kNone = 0xFF;  ///< no slot of the seat allows the tile

/// C(n, k) for 0 <= k <= n <= kMaxTiles, exact below 2^53.
double choose(int n, int k) {
  static const std::vector<double> table = [] {
    const int N = kMaxTiles + 1;
    std::vector<double> t(static_cast<size_t>(N * N), 0.0);
    for (int a = 0; a < N; ++a) {
      t[static_cast<size_t>(a * N)] = 1;
      for (int b = 1; b <= a; ++b)
        t[static_cast<size_t>(a * N + b)] =
            t[static_cast<size_t>((a - 1) * N + b - 1)] + t[static_cast<size_t>((a - 1) * N + b)];
    }
    return t;
  }();
  return table[static_cast<size_t>(n * (kMaxTiles + 1) + k)];
}

/// a (a - 1) ... (a - k + 1): the ways to put k distinct tiles into a free slots.
double falling(int a, int k) noexcept {
  if (k > a) return 0;
  double r = 1;
  for (int i = 0; i < k; ++i) r *= a - i;
  return r;
}

/// Scales `values` so that the largest is in [0.5, 1); returns the exponent taken out.
int normalise(std::vector<double>& values) {
  double most = 0;
  for (double v : values) most = std::max(most, v);
  if (most <= 0) return 0;
  int exponent = 0;
  std::frexp(most, &exponent);
  for (double& v : values) v = std::ldexp(v, -exponent);
  return exponent;
}

/// A uniform pick among `n` choices of weight weight(i); -1 when all are 0.
template <class Weight>
int pick(Rng& rng, int n, Weight&& weight) {
  double total = 0;
  for (int i = 0; i < n; ++i) total += weight(i);
  if (total <= 0) return -1;
  double u = rng.unit() * total;
  int chosen = -1;
  for (int i = 0; i < n; ++i) {
    const double w = weight(i);
    if (w <= 0) continue;
    chosen = i;  // the last choice of positive weight absorbs any rounding
    if (u < w) break;
    u -= w;
  }
  return chosen;
}

/// The hash of a byte string as a sum of per-position keys, so that a caller
/// changing one byte updates it in O(1): hash += delta * position_key(i).
uint64_t position_key(size_t i) noexcept { return Rng(i).next() | 1; }
uint64_t hash_of(const uint8_t* key, size_t n) noexcept {
  uint64_t h = 0;
  for (size_t i = 0; i < n; ++i) h += key[i] * position_key(i);
  return h;
}

/// Byte strings of one width, numbered in the order added, found by the hash
/// the caller keeps (open addressing; the bytes are compared on a match).
class Table {
 public:
  explicit Table(size_t width = 0) : width_(width) {}
  size_t size() const noexcept { return hashes_.size(); }
  const uint8_t* key(size_t i) const noexcept { return keys_.data() + i * width_; }

  /// The number of `key`, or -1.
  int64_t find(uint64_t hash, const uint8_t* key) const noexcept {
    if (slots_.empty()) return -1;
    const size_t mask = slots_.size() - 1;
    for (size_t at = spread(hash) & mask;; at = (at + 1) & mask) {
      const int32_t i = slots_[at];
      if (i < 0) return -1;
      if (hashes_[static_cast<size_t>(i)] == hash &&
          std::equal(key, key + width_, this->key(static_cast<size_t>(i))))
        return i;
    }
  }
  /// Adds `key` (not present) and returns its number.
  uint32_t add(uint64_t hash, const uint8_t* key) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    size_t at = spread(hash) & mask;
    while (slots_[at] >= 0) at = (at + 1) & mask;
    slots_[at] = static_cast<int32_t>(size());
    hashes_.push_back(hash);
    keys_.insert(keys_.end(), key, key + width_);
    return static_cast<uint32_t>(size() - 1);
  }

 private:
  static size_t spread(uint64_t h) noexcept {
    return static_cast<size_t>(((h ^ (h >> 29)) * 0xD6E8FEB86659FD93ull) >> 7);
  }
  void grow() {
    std::vector<int32_t> bigger(std::max<size_t>(64, 2 * slots_.size()), -1);
    const size_t mask = bigger.size() - 1;
    for (size_t i = 0; i < hashes_.size(); ++i) {
      size_t at = spread(hashes_[i]) & mask;
      while (bigger[at] >= 0) at = (at + 1) & mask;
      bigger[at] = static_cast<int32_t>(i);
    }
    slots_.swap(bigger);
  }
  size_t width_;
  std::vector<uint8_t> keys_;
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> slots_;
};

}  // namespace

// ---- one seat: its placed tiles, then the tiles of U it receives ---------------

struct SeatCount::Chain {
  int first_slot = 0, n = 0;
  std::vector<int> items;           ///< its placed tiles, in the order counted
  std::vector<TileSet> item_slots;  ///< per item: the positions (slots of the chain) allowing it
  std::vector<int> starts;          ///< the suffix starts of U's tiles, ascending

  struct In {
    uint32_t from;  ///< the state of the previous level
    uint8_t cls;    ///< the class the item went to there
    uint8_t mult;   ///< that class's free room then
  };
  struct Level {
    int classes = 0;
    std::vector<uint8_t> cls;        ///< per position: its class
    std::vector<uint8_t> parent;     ///< per class: its class at the next level
    std::vector<uint8_t> allows;     ///< per class: this level's item may go there
    std::vector<uint8_t> keys;       ///< per state: the free room of each class
    std::vector<double> ways;        ///< per state: the ways to reach it (scaled)
    std::vector<uint32_t> in_begin;  ///< per state: its edges from the previous level
    std::vector<In> in;
  };
  std::vector<Level> levels;  ///< items.size() + 1
  std::vector<int>
      profile_free;  ///< per last-level state, per start: free positions at or after it
  std::vector<uint8_t> profile_ok;  ///< no free position that no tile of U may fill
  std::vector<int> most_free;       ///< per start: the most free positions at or after it
  double log2_scale = 0;            ///< the last level's ways are the true ways times 2^-log2_scale
  Table fills;                      ///< the h for which A(h) was computed
  std::vector<double> fill_values;  ///< A(h), scaled like the last level's ways

  /// A(h): the ways to fill the chain when it receives h[c] tiles of U starting at starts[c].
  double fill(const uint8_t* h) const {
    const Level& last = levels.back();
    double total = 0;
    for (size_t f = 0; f < last.ways.size(); ++f) total += last.ways[f] * fill_profile(f, h);
    return total;
  }
  /// The ways to place the tiles of h into profile f's free positions: the
  /// latest starts first, each tile into a free position at or after its start
  /// not taken by a later-starting tile.
  double fill_profile(size_t f, const uint8_t* h) const {
    if (!profile_ok[f]) return 0;
    const int C = static_cast<int>(starts.size());
    double r = 1;
    int taken = 0;
    for (int c = C - 1; c >= 0 && r > 0; --c) {
      r *= falling(profile_free[f * static_cast<size_t>(C) + static_cast<size_t>(c)] - taken, h[c]);
      taken += h[c];
    }
    return r;
  }
  /// A(h) through the memo (`hash`: hash_of(h)); a new A(h) adds its
  /// profiles to `work`.
  double fill_memoised(const uint8_t* h, uint64_t hash, uint64_t& work) {
    const int64_t i = fills.find(hash, h);
    if (i >= 0) return fill_values[static_cast<size_t>(i)];
    work += levels.back().ways.size();
    fills.add(hash, h);
    fill_values.push_back(fill(h));
    return fill_values.back();
  }
  double fill_cached(const uint8_t* h, uint64_t hash) const {
    const int64_t i = fills.find(hash, h);
    return i >= 0 ? fill_values[static_cast<size_t>(i)] : fill(h);
  }

  // The last stage sums A(h) over every h, weighted by prod_c C(r_c, h_c),
  // without listing the h: a count over the starts, latest first, whose state
  // is the free positions at or after the current start not yet taken and the
  // free positions of each earlier segment (profiles that differ only in
  // segments already merged become one state).
  struct Step {
    uint32_t from, to;
    uint8_t h;    ///< tiles of this start taken
    double fall;  ///< the ways to place them
  };
  std::vector<std::vector<Step>> steps;  ///< per start, latest first, by the state they lead to
  std::vector<std::vector<uint32_t>> step_begin;  ///< per level and state: its first step in
  std::vector<size_t> step_states;      ///< states before each start's steps, and after the last
  std::vector<int64_t> profile_state;   ///< per profile: its first state (-1: not ok)
  std::vector<uint32_t> state_profile;  ///< per first state: its profile
  int64_t filled = -1;                  ///< the state after the last start with nothing free
  bool sums = false;                    ///< the last stage uses these sums (else it lists the h)
  uint64_t sum_steps = 0;               ///< the steps of one sum (past the limit: limit + 1)

  /// Builds the sums' steps; false (and nothing built) past `limit` steps.
  bool build_sums(uint64_t limit);
  /// sum over h of prod_c C(r[c], h_c) A(h) (r: the tiles of U left with each
  /// start); `forward` receives the sums of every state when not null.
  double sum_fills(const int* r, std::vector<std::vector<double>>* forward) const;
  /// Draws h in proportion to prod_c C(r[c], h_c) A(h), and the profile the
  /// placed tiles leave with it (returned); `forward`: sum_fills's sums for r.
  int sample_fills(Rng& rng, const int* r, uint8_t* h,
                   const std::vector<std::vector<double>>& forward) const;

  /// Puts the placed tiles and `received` (tiles of U with their start class)
  /// into the chain's slots, uniformly among the ways of A(h).
  /// `profile`: the profile the placed tiles leave, or -1 to draw it given h.
  void sample(Rng& rng, const uint8_t* h, int profile, std::vector<std::pair<int, int>>& received,
              std::vector<int>& tile_of_slot) const;
};

namespace {

/// Builds the count of one seat; `start_of[t]` receives the start class of
/// each tile of U (kNone when no slot of the seat allows it).
void build_chain(SeatCount::Chain& ch, const SeatModel::Seat& seat, const std::vector<int>& pool,
                 std::vector<uint8_t>& start_of, uint64_t& work, uint64_t max_work) {
  ch.first_slot = seat.first_slot;
  ch.n = static_cast<int>(seat.allowed.size());
  const int n = ch.n;

  // Where each tile of U may start; its allowed positions must be a suffix.
  std::vector<int> first(pool.size(), -1);
  for (size_t u = 0; u < pool.size(); ++u) {
    const int t = pool[u];
    int p = 0;
    while (p < n && !seat.allowed[static_cast<size_t>(p)].test(t)) ++p;
    for (int q = p; q < n; ++q)
      if (!seat.allowed[static_cast<size_t>(q)].test(t))
        throw std::domain_error("a tile's slots are not a suffix of the seat's chain");
    if (p < n) {
      first[u] = p;
      ch.starts.push_back(p);
    }
  }
  std::sort(ch.starts.begin(), ch.starts.end());
  ch.starts.erase(std::unique(ch.starts.begin(), ch.starts.end()), ch.starts.end());
  ch.fills = Table(ch.starts.size());
  start_of.assign(pool.size(), kNone);
  for (size_t u = 0; u < pool.size(); ++u)
    if (first[u] >= 0)
      start_of[u] = static_cast<uint8_t>(
          std::lower_bound(ch.starts.begin(), ch.starts.end(), first[u]) - ch.starts.begin());

  // The placed tiles in the order that keeps the classes few: by their last
  // allowed position, then their first.
  std::vector<std::array<int, 3>> order;  // (last, first, tile)
  for (int t : seat.placed) {
    int lo = -1, hi = -1;
    for (int p = 0; p < n; ++p)
      if (seat.allowed[static_cast<size_t>(p)].test(t)) {
        if (lo < 0) lo = p;
        hi = p;
      }
    if (lo < 0) throw std::logic_error("determinize: a placed tile fits no slot of its seat");
    order.push_back({hi, lo, t});
  }
  std::sort(order.begin(), order.end());
  for (const auto& [hi, lo, t] : order) {
    TileSet at;
    for (int p = lo; p <= hi; ++p)
      if (seat.allowed[static_cast<size_t>(p)].test(t)) at.set(p);
    ch.items.push_back(t);
    ch.item_slots.push_back(at);
  }
  const int P = static_cast<int>(ch.items.size());
  if (P > n) throw std::logic_error("determinize: more placed tiles than slots");

  // Classes, from the last level (segments between starts) back.
  ch.levels.resize(static_cast<size_t>(P) + 1);
  {
    auto& last = ch.levels.back();
    last.cls.resize(static_cast<size_t>(n));
    int classes = 0, prev = -1;
    for (int p = 0; p < n; ++p) {
      const int seg = static_cast<int>(std::upper_bound(ch.starts.begin(), ch.starts.end(), p) -
                                       ch.starts.begin());
      if (seg != prev) ++classes, prev = seg;
      last.cls[static_cast<size_t>(p)] = static_cast<uint8_t>(classes - 1);
    }
    last.classes = classes;
  }
  for (int i = P - 1; i >= 0; --i) {
    auto& L = ch.levels[static_cast<size_t>(i)];
    const auto& N = ch.levels[static_cast<size_t>(i) + 1];
    std::vector<int> id(static_cast<size_t>(2 * N.classes), -1);
    L.cls.resize(static_cast<size_t>(n));
    for (int p = 0; p < n; ++p) {
      const bool in = ch.item_slots[static_cast<size_t>(i)].test(p);
      int& k = id[static_cast<size_t>(2 * N.cls[static_cast<size_t>(p)] + (in ? 1 : 0))];
      if (k < 0) {
        k = L.classes++;
        L.parent.push_back(N.cls[static_cast<size_t>(p)]);
        L.allows.push_back(in ? 1 : 0);
      }
      L.cls[static_cast<size_t>(p)] = static_cast<uint8_t>(k);
    }
  }

  // The ways to reach each state, level by level.
  std::vector<Table> index;
  for (const auto& L : ch.levels) index.emplace_back(static_cast<size_t>(L.classes));
  auto intern = [&](int level, const uint8_t* f) -> uint32_t {
    auto& L = ch.levels[static_cast<size_t>(level)];
    Table& known = index[static_cast<size_t>(level)];
    const uint64_t hash = hash_of(f, static_cast<size_t>(L.classes));
    const int64_t i = known.find(hash, f);
    if (i >= 0) return static_cast<uint32_t>(i);
    if (++work > max_work) throw std::length_error("the count outgrew its bound");
    L.keys.insert(L.keys.end(), f, f + L.classes);
    L.ways.push_back(0);
    return known.add(hash, f);
  };
  {
    auto& L0 = ch.levels[0];
    std::vector<uint8_t> f(static_cast<size_t>(L0.classes), 0);
    for (int p = 0; p < n; ++p) ++f[L0.cls[static_cast<size_t>(p)]];
    intern(0, f.data());
    ch.levels[0].ways[0] = 1;
  }
  std::vector<uint8_t> g;
  struct Edge {
    uint32_t child;
    SeatCount::Chain::In in;
  };
  std::vector<Edge> edges;
  for (int i = 0; i < P; ++i) {
    auto& L = ch.levels[static_cast<size_t>(i)];
    auto& N = ch.levels[static_cast<size_t>(i) + 1];
    edges.clear();
    g.assign(static_cast<size_t>(N.classes), 0);
    for (uint32_t s = 0; s < L.ways.size(); ++s) {
      work += static_cast<uint64_t>(L.classes);  // a sum over the classes for each class it fills
      for (int q = 0; q < L.classes; ++q) {
        const uint8_t room = ch.levels[static_cast<size_t>(i)]
                                 .keys[s * static_cast<size_t>(L.classes) + static_cast<size_t>(q)];
        if (!L.allows[static_cast<size_t>(q)] || room == 0) continue;
        std::fill(g.begin(), g.end(), 0);
        for (int r = 0; r < L.classes; ++r)
          g[L.parent[static_cast<size_t>(r)]] = static_cast<uint8_t>(
              g[L.parent[static_cast<size_t>(r)]] +
              L.keys[s * static_cast<size_t>(L.classes) + static_cast<size_t>(r)]);
        --g[L.parent[static_cast<size_t>(q)]];
        const uint32_t child = intern(i + 1, g.data());
        N.ways[child] += L.ways[s] * room;
        edges.push_back(Edge{child, SeatCount::Chain::In{s, static_cast<uint8_t>(q), room}});
      }
    }
    if (N.ways.empty()) throw std::logic_error("determinize: a seat's placed tiles fit no slots");
    std::stable_sort(edges.begin(), edges.end(),
                     [](const Edge& a, const Edge& b) { return a.child < b.child; });
    N.in_begin.assign(N.ways.size() + 1, 0);
    for (const Edge& e : edges) ++N.in_begin[e.child + 1];
    for (size_t s = 0; s < N.ways.size(); ++s) N.in_begin[s + 1] += N.in_begin[s];
    for (const Edge& e : edges) N.in.push_back(e.in);
    ch.log2_scale += normalise(N.ways);
  }

  // The profiles: free positions at or after each start, and none before the first.
  const auto& last = ch.levels.back();
  const size_t C = ch.starts.size();
  std::vector<int> seg_of_class(static_cast<size_t>(last.classes), 0);
  for (int p = 0; p < n; ++p)
    seg_of_class[last.cls[static_cast<size_t>(p)]] = static_cast<int>(
        std::upper_bound(ch.starts.begin(), ch.starts.end(), p) - ch.starts.begin());
  ch.profile_free.assign(last.ways.size() * C, 0);
  ch.profile_ok.assign(last.ways.size(), 1);
  for (size_t f = 0; f < last.ways.size(); ++f) {
    std::vector<int> seg_free(C + 1, 0);
    for (int q = 0; q < last.classes; ++q)
      seg_free[static_cast<size_t>(seg_of_class[static_cast<size_t>(q)])] +=
          last.keys[f * static_cast<size_t>(last.classes) + static_cast<size_t>(q)];
    if (seg_free[0] > 0) ch.profile_ok[f] = 0;
    int at_or_after = 0;
    for (size_t c = C; c-- > 0;) {
      at_or_after += seg_free[c + 1];
      ch.profile_free[f * C + c] = at_or_after;
    }
  }
  ch.most_free.assign(C, 0);
  for (size_t f = 0; f < last.ways.size(); ++f)
    for (size_t c = 0; c < C && ch.profile_ok[f]; ++c)
      ch.most_free[c] = std::max(ch.most_free[c], ch.profile_free[f * C + c]);
}

}  // namespace

void SeatCount::Chain::sample(Rng& rng, const uint8_t* h, int profile,
                              std::vector<std::pair<int, int>>& received,
                              std::vector<int>& tile_of_slot) const {
  const int P = static_cast<int>(items.size());
  // The profile left by the placed tiles, then their path back to the start.
  const Level& last = levels.back();
  int state = profile >= 0 ? profile : pick(rng, static_cast<int>(last.ways.size()), [&](int f) {
    return last.ways[static_cast<size_t>(f)] * fill_profile(static_cast<size_t>(f), h);
  });
  if (state < 0) throw std::logic_error("determinize: a seat cannot be filled");
  std::vector<uint8_t> path(static_cast<size_t>(P));
  for (int i = P; i > 0; --i) {
    const Level& L = levels[static_cast<size_t>(i)];
    const Level& prev = levels[static_cast<size_t>(i) - 1];
    const uint32_t b = L.in_begin[static_cast<size_t>(state)];
    const int k =
        pick(rng, static_cast<int>(L.in_begin[static_cast<size_t>(state) + 1] - b), [&](int e) {
          const In& in = L.in[b + static_cast<uint32_t>(e)];
          return prev.ways[in.from] * in.mult;
        });
    const In& in = L.in[b + static_cast<uint32_t>(k)];
    path[static_cast<size_t>(i) - 1] = in.cls;
    state = static_cast<int>(in.from);
  }
  // Each placed tile into a uniform free position of its class, then the tiles
  // of U, latest start first, each into a uniform free position at or after it.
  std::vector<uint8_t> used(static_cast<size_t>(n), 0);
  std::vector<int> free;
  auto put = [&](int tile, auto&& fits) {
    free.clear();
    for (int p = 0; p < n; ++p)
      if (!used[static_cast<size_t>(p)] && fits(p)) free.push_back(p);
    const int p = free[static_cast<size_t>(rng.below_unchecked(free.size()))];
    used[static_cast<size_t>(p)] = 1;
    tile_of_slot[static_cast<size_t>(first_slot + p)] = tile;
  };
  for (int i = 0; i < P; ++i) {
    const Level& L = levels[static_cast<size_t>(i)];
    put(items[static_cast<size_t>(i)],
        [&](int p) { return L.cls[static_cast<size_t>(p)] == path[static_cast<size_t>(i)]; });
  }
  std::sort(received.begin(), received.end(),
            [](const std::pair<int, int>& a, const std::pair<int, int>& b) {
              return a.second > b.second;
            });
  for (const auto& [tile, c] : received) {
    const int from = starts[static_cast<size_t>(c)];
    put(tile, [&](int p) { return p >= from; });
  }
}

bool SeatCount::Chain::build_sums(uint64_t limit) {
  const size_t C = starts.size();
  const Level& last = levels.back();
  std::vector<std::map<std::vector<uint8_t>, uint32_t>> index(C + 1);
  auto state = [&](size_t level, std::vector<uint8_t> key) {
    auto [it, added] =
        index[level].emplace(std::move(key), static_cast<uint32_t>(index[level].size()));
    (void)added;
    return it->second;
  };
  // A profile's key: the free positions at or after the latest start, then
  // those of each segment between starts (seg[s]: [starts[s-1], starts[s])).
  profile_state.assign(last.ways.size(), -1);
  for (size_t f = 0; f < last.ways.size(); ++f) {
    if (!profile_ok[f] || C == 0) continue;
    const int* a = &profile_free[f * C];
    std::vector<uint8_t> key{static_cast<uint8_t>(a[C - 1])};
    for (size_t seg = 1; seg < C; ++seg) key.push_back(static_cast<uint8_t>(a[seg - 1] - a[seg]));
    profile_state[f] = state(0, key);
  }
  steps.assign(C, {});
  for (size_t level = 0; level < C; ++level) {
    const size_t c = C - 1 - level;  // the start whose tiles this level places
    std::vector<std::pair<std::vector<uint8_t>, uint32_t>> here(index[level].begin(),
                                                                index[level].end());
    for (const auto& [key, from] : here) {
      const int spare = key[0];
      for (int h = 0; h <= spare; ++h) {
        // After start c, the segment before it opens to the earlier starts.
        std::vector<uint8_t> next{static_cast<uint8_t>(spare - h + (c >= 1 ? key[c] : 0))};
        next.insert(next.end(), key.begin() + 1,
                    key.begin() + static_cast<std::ptrdiff_t>(c >= 1 ? c : 1));
        steps[level].push_back(
            Step{from, state(level + 1, next), static_cast<uint8_t>(h), falling(spare, h)});
        if (++sum_steps > limit) {
          steps.clear();
          return false;
        }
      }
    }
  }
  step_states.resize(C + 1);
  for (size_t level = 0; level <= C; ++level) step_states[level] = index[level].size();
  step_begin.assign(C, {});
  for (size_t level = 0; level < C; ++level) {
    std::vector<Step>& all = steps[level];
    std::stable_sort(all.begin(), all.end(),
                     [](const Step& a, const Step& b) { return a.to < b.to; });
    std::vector<uint32_t>& begin = step_begin[level];
    begin.assign(step_states[level + 1] + 1, 0);
    for (const Step& st : all) ++begin[st.to + 1];
    for (size_t i = 0; i + 1 < begin.size(); ++i) begin[i + 1] += begin[i];
  }
  state_profile.assign(step_states[0], 0);
  for (size_t f = 0; f < profile_state.size(); ++f)
    if (profile_state[f] >= 0)
      state_profile[static_cast<size_t>(profile_state[f])] = static_cast<uint32_t>(f);
  if (C > 0) {
    auto it = index[C].find(std::vector<uint8_t>{0});
    filled = it == index[C].end() ? -1 : it->second;
  }
  return true;
}

double SeatCount::Chain::sum_fills(const int* r, std::vector<std::vector<double>>* forward) const {
  const size_t C = starts.size();
  const Level& last = levels.back();
  if (C == 0) {  // no tile of U fits: every position is the placed tiles'
    double v = 0;
    for (size_t f = 0; f < last.ways.size(); ++f) v += profile_ok[f] ? last.ways[f] : 0;
    return v;
  }
  std::vector<double> cur(step_states[0], 0.0), next;
  for (size_t f = 0; f < last.ways.size(); ++f)
    if (profile_state[f] >= 0) cur[static_cast<size_t>(profile_state[f])] += last.ways[f];
  for (size_t level = 0; level < C; ++level) {
    const int rc = r[C - 1 - level];
    next.assign(step_states[level + 1], 0.0);
    for (const Step& st : steps[level])
      if (st.h <= rc && cur[st.from] != 0) next[st.to] += cur[st.from] * st.fall * choose(rc, st.h);
    if (forward) forward->push_back(std::move(cur));
    cur.swap(next);
  }
  const double v = filled >= 0 ? cur[static_cast<size_t>(filled)] : 0;
  if (forward) forward->push_back(std::move(cur));
  return v;
}

int SeatCount::Chain::sample_fills(Rng& rng, const int* r, uint8_t* h,
                                   const std::vector<std::vector<double>>& forward) const {
  const size_t C = starts.size();
  if (C == 0) {
    const Level& last = levels.back();
    return pick(rng, static_cast<int>(last.ways.size()), [&](int f) {
      return profile_ok[static_cast<size_t>(f)] ? last.ways[static_cast<size_t>(f)] : 0.0;
    });
  }
  uint32_t state = static_cast<uint32_t>(filled);
  for (size_t level = C; level-- > 0;) {
    const int rc = r[C - 1 - level];
    const std::vector<Step>& all = steps[level];
    const std::vector<double>& before = forward[level];
    const uint32_t b = step_begin[level][state];
    const int i = pick(rng, static_cast<int>(step_begin[level][state + 1] - b), [&](int e) {
      const Step& st = all[b + static_cast<uint32_t>(e)];
      return st.h <= rc ? before[st.from] * st.fall * choose(rc, st.h) : 0.0;
    });
    if (i < 0) throw std::logic_error("determinize: no fill has weight");
    const Step& st = all[b + static_cast<uint32_t>(i)];
    h[C - 1 - level] = st.h;
    state = st.from;
  }
  return static_cast<int>(state_profile[state]);
}

// ---- across seats: the tiles of U left in each group ------------------------

struct SeatCount::Stage {
  int groups = 0;
  int need = 0;                         ///< tiles of U this stage's seat receives
  std::vector<uint8_t> start;           ///< per group: its start class at this stage's seat
  std::vector<uint16_t> parent;         ///< per group: its group at the next stage
  Table states;                         ///< the tiles left in each group, state by state
  std::vector<double> value;            ///< per state: the ways to complete it (scaled)
  std::vector<std::vector<int>> tiles;  ///< the first stage: the tiles of each group
};

namespace {

/// Enumerates the ways a stage's seat takes `need` tiles from state r: x[g]
/// tiles of each group it allows. visit(weight) sees the weight
/// prod C(r_g, x_g) and the resulting h (per start class) and next (tiles left
/// per group of the next stage), with their hashes, and x; it returns false to
/// stop.
struct Takes {
  const SeatCount::Stage& S;
  const uint8_t* r;
  const std::vector<int>& most_free;
  std::vector<int> order, cap_after;
  std::vector<uint8_t> x, h, next;
  uint64_t h_hash = 0, next_hash = 0;

  Takes(const SeatCount::Stage& stage, const SeatCount::Stage& following,
        const SeatCount::Chain& chain, const uint8_t* left)
      : S(stage),
        r(left),
        most_free(chain.most_free),
        x(static_cast<size_t>(stage.groups), 0),
        h(chain.starts.size(), 0),
        next(static_cast<size_t>(following.groups), 0) {
    for (int g = 0; g < S.groups; ++g) {
      const size_t gs = static_cast<size_t>(g);
      next[S.parent[gs]] = static_cast<uint8_t>(next[S.parent[gs]] + r[g]);
      if (S.start[gs] != kNone && r[g] > 0) order.push_back(g);
    }
    // Latest start first: the tiles taken so far then all start at or after
    // the current group's, and more than the most free positions there fill
    // no profile (A(h) = 0), which prunes the walk.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return S.start[static_cast<size_t>(a)] > S.start[static_cast<size_t>(b)];
    });
    next_hash = hash_of(next.data(), next.size());
    cap_after.assign(order.size(), 0);
    for (size_t i = order.size(); i-- > 1;) cap_after[i - 1] = cap_after[i] + r[order[i]];
  }

  template <class Visit>
  bool run(Visit&& visit) {
    return walk(0, S.need, 1.0, visit);
  }

  template <class Visit>
  bool walk(size_t i, int budget, double w, Visit& visit) {
    if (i == order.size()) return budget == 0 ? visit(w) : true;
    const int g = order[i];
    const size_t gs = static_cast<size_t>(g);
    const size_t c = S.start[gs], up = S.parent[gs];
    const int lo = std::max(0, budget - cap_after[i]);
    const int hi = std::min({static_cast<int>(r[g]), budget, most_free[c] - (S.need - budget)});
    for (int v = lo; v <= hi; ++v) {
      const uint64_t dv = static_cast<uint64_t>(v);
      x[gs] = static_cast<uint8_t>(v);
      h[c] = static_cast<uint8_t>(h[c] + v);
      next[up] = static_cast<uint8_t>(next[up] - v);
      h_hash += dv * position_key(c);
      next_hash -= dv * position_key(up);
      const bool go = walk(i + 1, budget - v, w * choose(r[g], v), visit);
      h[c] = static_cast<uint8_t>(h[c] - v);
      next[up] = static_cast<uint8_t>(next[up] + v);
      h_hash -= dv * position_key(c);
      next_hash += dv * position_key(up);
      x[gs] = 0;
      if (!go) return false;
    }
    return true;
  }
};

/// The tiles of U left with each start of the last seat (a state of its stage:
/// one group per start, and one of the tiles it may not hold).
std::vector<int> left_by_start(const SeatCount::Stage& S, const SeatCount::Chain& ch,
                               const uint8_t* r) {
  std::vector<int> left(ch.starts.size(), 0);
  for (int g = 0; g < S.groups; ++g)
    if (S.start[static_cast<size_t>(g)] != kNone) left[S.start[static_cast<size_t>(g)]] = r[g];
  return left;
}

}  // namespace

double SeatCount::count(size_t k, const uint8_t* r, uint64_t hash, uint64_t max_work) {
  if (k == chains_.size()) return 1;  // the rest of U fills the yard
  Stage &S = *stages_[k], &N = *stages_[k + 1];
  const int64_t known = S.states.find(hash, r);
  if (known >= 0) return S.value[static_cast<size_t>(known)];
  if (++work_ > max_work) throw std::length_error("the count outgrew its bound");
  Chain& ch = *chains_[k];
  double v = 0;
  if (ch.sums) {  // the last seat, summed over its h
    const std::vector<int> left = left_by_start(S, ch, r);
    work_ += ch.sum_steps;
    v = ch.sum_fills(left.data(), nullptr);
    S.states.add(hash, r);
    S.value.push_back(v);
    return v;
  }
  Takes t(S, N, ch, r);
  t.run([&](double w) {
    const double fill = ch.fill_memoised(t.h.data(), t.h_hash, work_);
    if (++work_ > max_work) throw std::length_error("the count outgrew its bound");
    if (fill > 0) v += w * fill * count(k + 1, t.next.data(), t.next_hash, max_work);
    return true;
  });
  S.states.add(hash, r);  // after the takes: they only add states of later stages
  S.value.push_back(v);
  return v;
}

double SeatCount::counted(size_t k, const uint8_t* r, uint64_t hash) const {
  if (k == chains_.size()) return 1;
  const Stage& S = *stages_[k];
  const int64_t i = S.states.find(hash, r);
  return i >= 0 ? S.value[static_cast<size_t>(i)] : 0;
}

SeatCount::SeatCount(const SeatModel& model, uint64_t max_work) {
  const size_t m = model.seats.size(), U = model.pool.size();
  std::vector<std::vector<uint8_t>> start_of(m);
  int taken = 0;
  double log2_scale = 0;  // the count is the true one times 2^-log2_scale
  for (size_t k = 0; k < m; ++k) {
    chains_.push_back(std::make_unique<Chain>());
    build_chain(*chains_[k], model.seats[k], model.pool, start_of[k], work_, max_work);
    taken += chains_[k]->n - static_cast<int>(chains_[k]->items.size());
    log2_scale += chains_[k]->log2_scale;
  }
  if (taken > static_cast<int>(U)) throw std::logic_error("determinize: more slots than tiles");
  // The order of the stages: a stage enumerates its seat's takes from every
  // state reached, and the states are the ways the tiles left spread over the
  // groups of the seats after it. So each next seat is the one whose removal
  // leaves the fewest groups (patterns of starts over the seats still after).
  {
    std::vector<size_t> order, rest(m);
    for (size_t k = 0; k < m; ++k) rest[k] = k;
    while (!rest.empty()) {
      size_t best = 0, fewest = SIZE_MAX;
      for (size_t i = 0; i < rest.size(); ++i) {
        std::vector<std::vector<uint8_t>> patterns(U);
        for (size_t u = 0; u < U; ++u)
          for (size_t j : rest)
            if (j != rest[i]) patterns[u].push_back(start_of[j][u]);
        std::sort(patterns.begin(), patterns.end());
        const size_t groups =
            static_cast<size_t>(std::unique(patterns.begin(), patterns.end()) - patterns.begin());
        if (groups < fewest) fewest = groups, best = i;
      }
      order.push_back(rest[best]);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(best));
    }
    std::vector<std::unique_ptr<Chain>> chains;
    std::vector<std::vector<uint8_t>> starts;
    for (size_t k : order) {
      chains.push_back(std::move(chains_[k]));
      starts.push_back(std::move(start_of[k]));
    }
    chains_.swap(chains);
    start_of.swap(starts);
  }

  // The groups of each stage, from the yard's (one group) back.
  for (size_t k = 0; k <= m; ++k) stages_.push_back(std::make_unique<Stage>());
  std::vector<int> group(U, 0), above(U);
  stages_[m]->groups = 1;
  for (size_t k = m; k-- > 0;) {
    Stage& S = *stages_[k];
    S.need = chains_[k]->n - static_cast<int>(chains_[k]->items.size());
    std::unordered_map<int, int> id;
    for (size_t u = 0; u < U; ++u) {
      const int key = start_of[k][u] * 1024 + group[u];
      auto [it, added] = id.emplace(key, S.groups);
      if (added) {
        ++S.groups;
        S.start.push_back(start_of[k][u]);
        S.parent.push_back(static_cast<uint16_t>(group[u]));
      }
      above[u] = it->second;
    }
    group.swap(above);
    S.states = Table(static_cast<size_t>(S.groups));
  }
  // The last seat sums over its h (Chain::build_sums) when that costs fewer
  // steps than listing them can: the compositions of its need over its starts,
  // and with one other seat (one state to list from) an A(h) over every
  // profile for each.
  {
    Chain& last = *chains_.back();
    const Stage& S = *stages_[m - 1];
    int starts_left = 0;
    for (int g = 0; g < S.groups; ++g) starts_left += S.start[static_cast<size_t>(g)] != kNone;
    const double listed =
        (starts_left == 0
             ? 1
             : choose(std::min(S.need + starts_left - 1, kMaxTiles), starts_left - 1)) *
        (m == 1 ? 1.0 + static_cast<double>(last.levels.back().ways.size()) : 1.0);
    const double room = static_cast<double>(max_work - std::min(max_work, work_));
    const double cap = std::min(listed, room);
    const uint64_t limit = cap >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(cap);
    last.sums = last.build_sums(limit);
    work_ += last.sum_steps;
    if (work_ > max_work) throw std::length_error("the count outgrew its bound");
  }
  Stage& first = *stages_[0];
  first.tiles.resize(static_cast<size_t>(first.groups));
  start_.assign(static_cast<size_t>(first.groups), 0);
  for (size_t u = 0; u < U; ++u) {
    first.tiles[static_cast<size_t>(group[u])].push_back(model.pool[u]);
    ++start_[static_cast<size_t>(group[u])];
  }
  start_hash_ = hash_of(start_.data(), start_.size());

  // The number of worlds, memoised on the states of each stage reached. Only
  // ratios of counts at one stage are ever used, so the chains' scales cancel.
  // It stays inside a double: at most T!/(T-S)! ways to fill S seat slots
  // from T tiles, below 10^280 for any set.
  const double total = count(0, start_.data(), start_hash_, max_work);
  if (m == 1 && chains_[0]->sums)  // one other seat: every sample starts from the same sums
    chains_[0]->sum_fills(left_by_start(first, *chains_[0], start_.data()).data(),
                          &single_forward_);
  if (!(total > 0)) throw std::logic_error("determinize: the slot model has no world");
  const int yard = static_cast<int>(U) - taken;
  log2_ = std::log2(total) + log2_scale + log_factorial(yard) / std::log(2.0);
}

SeatCount::~SeatCount() = default;

void SeatCount::sample(Rng& rng, std::vector<int>& tile_of_slot, std::vector<int>& yard) const {
  const size_t m = chains_.size();
  std::vector<std::vector<int>> tiles = stages_[0]->tiles;
  std::vector<uint8_t> r = start_;
  uint64_t hash = start_hash_;
  std::vector<std::pair<int, int>> received;
  std::vector<uint8_t> x, h;
  for (size_t k = 0; k < m; ++k) {
    const Stage &S = *stages_[k], &N = *stages_[k + 1];
    const Chain& ch = *chains_[k];
    x.clear();
    std::vector<uint8_t> next;
    uint64_t next_hash = 0;
    int profile = -1;
    if (ch.sums) {  // the last seat: its h, then the tiles of each start
      const std::vector<int> left = left_by_start(S, ch, r.data());
      std::vector<std::vector<double>> forward;
      if (m > 1) ch.sum_fills(left.data(), &forward);
      h.assign(ch.starts.size(), 0);
      profile = ch.sample_fills(rng, left.data(), h.data(), m > 1 ? forward : single_forward_);
      x.assign(static_cast<size_t>(S.groups), 0);
      for (int g = 0; g < S.groups; ++g)
        if (S.start[static_cast<size_t>(g)] != kNone)
          x[static_cast<size_t>(g)] = h[S.start[static_cast<size_t>(g)]];
    } else {
      // A take in proportion to its ways times the completions after it
      // (their sum is this state's count).
      double u = rng.unit() * counted(k, r.data(), hash);
      Takes t(S, N, ch, r.data());
      t.run([&](double w) {
        const double weight =
            w * ch.fill_cached(t.h.data(), t.h_hash) * counted(k + 1, t.next.data(), t.next_hash);
        if (weight <= 0) return true;
        x = t.x, h = t.h, next = t.next, next_hash = t.next_hash;  // the last absorbs rounding
        if (u < weight) return false;
        u -= weight;
        return true;
      });
    }
    if (x.empty()) throw std::logic_error("determinize: no take has weight");
    // Which tiles of each group: a uniform choice; the rest go on.
    received.clear();
    std::vector<std::vector<int>> following(static_cast<size_t>(N.groups));
    for (int g = 0; g < S.groups; ++g) {
      std::vector<int>& pool = tiles[static_cast<size_t>(g)];
      const size_t take = x[static_cast<size_t>(g)];
      for (size_t i = 0; i < take; ++i) {
        std::swap(pool[i], pool[i + static_cast<size_t>(rng.below_unchecked(pool.size() - i))]);
        received.push_back({pool[i], S.start[static_cast<size_t>(g)]});
      }
      std::vector<int>& dest = following[S.parent[static_cast<size_t>(g)]];
      dest.insert(dest.end(), pool.begin() + static_cast<std::ptrdiff_t>(take), pool.end());
    }
    ch.sample(rng, h.data(), profile, received, tile_of_slot);
    tiles.swap(following);
    r.swap(next);
    hash = next_hash;
  }
  yard = tiles[0];
  rng.shuffle(yard.data(), yard.size());
}

}  // namespace dominocore::detail
