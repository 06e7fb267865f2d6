// The count by seat's parts (seat_count.hpp): the helpers both halves use
// and one seat's count, SeatCount::Chain. Private to seat_count.cpp (the
// count across seats) and seat_count_chain.cpp (one seat's count).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "seat_count.hpp"

namespace dominocore::detail {

inline constexpr uint8_t kNone = 0xFF;  ///< no slot of the seat allows the tile

/// C(n, k) for 0 <= k <= n <= kMaxTiles, exact below 2^53.
inline double choose(int n, int k) {
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
inline double falling(int a, int k) noexcept {
  if (k > a) return 0;
  double r = 1;
  for (int i = 0; i < k; ++i) r *= a - i;
  return r;
}

/// Scales `values` so that the largest is in [0.5, 1); returns the exponent taken out.
inline int normalise(std::vector<double>& values) {
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
inline int pick(Rng& rng, int n, Weight&& weight) {
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
inline uint64_t position_key(size_t i) noexcept { return Rng(i).next() | 1; }
inline uint64_t hash_of(const uint8_t* key, size_t n) noexcept {
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

/// Builds the count of one seat; `start_of[t]` receives the start class of
/// each tile of U (kNone when no slot of the seat allows it).
void build_chain(SeatCount::Chain& ch, const SeatModel::Seat& seat, const std::vector<int>& pool,
                 std::vector<uint8_t>& start_of, uint64_t& work, uint64_t max_work);

}  // namespace dominocore::detail
