// Tiles, sets and tile bitsets (docs/rules.md 1.1).
//
// A tile (a, b) with a <= b has the index b*(b+1)/2 + a, so the tiles of a
// smaller set are a prefix of a larger one. Everything in the engine handles
// tiles as indices; sets of tiles (hands, the yard, per-number masks) are
// TileSet bitsets of 3 x 64 bits, enough for double-18 (190 tiles).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace dominocore {

inline constexpr int kMinSet = 6;                                    // double-6
inline constexpr int kMaxSet = 18;                                   // double-18
inline constexpr int kMaxNumbers = kMaxSet + 1;                      // 0..18
inline constexpr int kMaxTiles = (kMaxSet + 1) * (kMaxSet + 2) / 2;  // 190
inline constexpr int kMaxPlayers = 8;

/// T = (N+1)(N+2)/2, the number of tiles of a double-N set.
constexpr int tile_count(int set) noexcept { return (set + 1) * (set + 2) / 2; }
/// Index of the tile with halves a and b, in either order.
constexpr int tile_index(int a, int b) noexcept {
  return a <= b ? b * (b + 1) / 2 + a : a * (a + 1) / 2 + b;
}
/// Index of the double v-v.
constexpr int double_tile(int v) noexcept { return v * (v + 3) / 2; }

namespace detail {
inline int ctz64(uint64_t x) noexcept {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long i;
  _BitScanForward64(&i, x);
  return static_cast<int>(i);
#else
  return __builtin_ctzll(x);
#endif
}
// The x86 POPCNT instruction, where the build uses it (CMake's
// DOMINOCORE_POPCNT, on by default: -mpopcnt; MSVC's __popcnt64 is the
// instruction). The CPU must then have it: the module checks at import.
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64) && !defined(DOMINOCORE_NO_POPCNT)
#define DOMINOCORE_POPCNT_INSTRUCTION(x) __popcnt64(x)
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__POPCNT__)
#define DOMINOCORE_POPCNT_INSTRUCTION(x) __builtin_popcountll(x)
#endif
#ifdef DOMINOCORE_POPCNT_INSTRUCTION
inline constexpr bool kUsesPopcnt = true;
#else
inline constexpr bool kUsesPopcnt = false;
#endif
inline int popcount64(uint64_t x) noexcept {
#ifdef DOMINOCORE_POPCNT_INSTRUCTION
  return static_cast<int>(DOMINOCORE_POPCNT_INSTRUCTION(x));
#elif defined(__x86_64__) || defined(__i386__) || defined(_MSC_VER)
  // x86 without POPCNT (DOMINOCORE_POPCNT=OFF, or an extension compiled
  // without -mpopcnt): __builtin_popcountll would be a library call
  // (libgcc's __popcountdi2) per word; the bit-parallel count inlines.
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
#else
  return __builtin_popcountll(x);
#endif
}
}  // namespace detail

/// A set of tile indices 0..189 (3 x 64 bits). Trivially copyable.
struct TileSet {
  uint64_t w[3] = {0, 0, 0};

  constexpr bool test(int t) const noexcept { return (w[t >> 6] >> (t & 63)) & 1u; }
  constexpr void set(int t) noexcept { w[t >> 6] |= uint64_t{1} << (t & 63); }
  constexpr void reset(int t) noexcept { w[t >> 6] &= ~(uint64_t{1} << (t & 63)); }
  /// The set of the tiles in [first, last). Its words stay in registers: set()
  /// one tile at a time is a read-modify-write of a word in memory, each
  /// waiting on the last.
  template <class It>
  static constexpr TileSet of(It first, It last) noexcept {
    uint64_t w0 = 0, w1 = 0, w2 = 0;
    for (; first != last; ++first) {
      const int t = *first;
      const uint64_t bit = uint64_t{1} << (t & 63);
      w0 |= t < 64 ? bit : 0;
      w1 |= t >> 6 == 1 ? bit : 0;
      w2 |= t >= 128 ? bit : 0;
    }
    return TileSet{{w0, w1, w2}};
  }
  constexpr bool any() const noexcept { return (w[0] | w[1] | w[2]) != 0; }
  constexpr bool empty() const noexcept { return !any(); }
  int count() const noexcept {
    // Sets up to double-9 (55 tiles) use the first word alone, and the
    // portable wheels' count (no POPCNT instruction) is a dozen operations a
    // word.
    const int first = detail::popcount64(w[0]);
    if (!(w[1] | w[2])) return first;
    return first + detail::popcount64(w[1]) + detail::popcount64(w[2]);
  }
  /// Lowest index in the set, or -1 when empty.
  int first() const noexcept {
    for (int i = 0; i < 3; ++i)
      if (w[i]) return i * 64 + detail::ctz64(w[i]);
    return -1;
  }
  /// Calls f(index) for every member, in ascending index order.
  template <class F>
  void for_each(F&& f) const {
    for (int i = 0; i < 3; ++i) {
      uint64_t x = w[i];
      while (x) {
        f(i * 64 + detail::ctz64(x));
        x &= x - 1;
      }
    }
  }

  constexpr TileSet& operator|=(const TileSet& o) noexcept {
    w[0] |= o.w[0];
    w[1] |= o.w[1];
    w[2] |= o.w[2];
    return *this;
  }
  constexpr TileSet& operator&=(const TileSet& o) noexcept {
    w[0] &= o.w[0];
    w[1] &= o.w[1];
    w[2] &= o.w[2];
    return *this;
  }
  friend constexpr TileSet operator|(TileSet a, const TileSet& b) noexcept { return a |= b; }
  friend constexpr TileSet operator&(TileSet a, const TileSet& b) noexcept { return a &= b; }
  /// Members of a that are not in b.
  friend constexpr TileSet minus(const TileSet& a, const TileSet& b) noexcept {
    TileSet r;
    r.w[0] = a.w[0] & ~b.w[0];
    r.w[1] = a.w[1] & ~b.w[1];
    r.w[2] = a.w[2] & ~b.w[2];
    return r;
  }
  /// True when a and b share a member (without building a & b).
  friend constexpr bool intersects(const TileSet& a, const TileSet& b) noexcept {
    return ((a.w[0] & b.w[0]) | (a.w[1] & b.w[1]) | (a.w[2] & b.w[2])) != 0;
  }
  friend constexpr bool operator==(const TileSet& a, const TileSet& b) noexcept {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2];
  }
  friend constexpr bool operator!=(const TileSet& a, const TileSet& b) noexcept {
    return !(a == b);
  }

  /// The tiles 0..n-1 (a whole set when n = T).
  static constexpr TileSet full(int n) noexcept {
    TileSet s;
    for (int t = 0; t < n; ++t) s.set(t);
    return s;
  }
};

/// Per-tile tables and per-number masks for the largest set; smaller sets use
/// the prefix (their hands never hold the other bits).
struct TileTables {
  uint8_t low[kMaxTiles] = {};
  uint8_t high[kMaxTiles] = {};
  uint8_t pips[kMaxTiles] = {};
  TileSet mask[kMaxNumbers] = {};       // mask[v]: every tile with a half equal to v
  TileSet low_mask[kMaxNumbers] = {};   // low_mask[v]: the tiles a-b (a <= b) with a == v
  TileSet high_mask[kMaxNumbers] = {};  // high_mask[v]: those with b == v
  TileSet doubles = {};
};

constexpr TileTables make_tile_tables() noexcept {
  TileTables t{};
  for (int b = 0; b <= kMaxSet; ++b)
    for (int a = 0; a <= b; ++a) {
      const int i = tile_index(a, b);
      t.low[i] = static_cast<uint8_t>(a);
      t.high[i] = static_cast<uint8_t>(b);
      t.pips[i] = static_cast<uint8_t>(a + b);
      t.mask[a].set(i);
      t.mask[b].set(i);
      t.low_mask[a].set(i);
      t.high_mask[b].set(i);
      if (a == b) t.doubles.set(i);
    }
  return t;
}

inline constexpr TileTables kTiles = make_tile_tables();

constexpr int tile_low(int t) noexcept { return kTiles.low[t]; }
constexpr int tile_high(int t) noexcept { return kTiles.high[t]; }
constexpr int tile_pips(int t) noexcept { return kTiles.pips[t]; }
constexpr bool is_double(int t) noexcept { return kTiles.low[t] == kTiles.high[t]; }
/// The half of t that is not `shown` (one of its halves): a double's is the
/// same number. An expression, not a branch, which mispredicted at placements.
constexpr int other_half(int t, int shown) noexcept {
  return kTiles.low[t] + kTiles.high[t] - shown;
}
constexpr const TileSet& number_mask(int v) noexcept { return kTiles.mask[v]; }
/// The tiles whose low half (the lower number) is v; whose high half is v.
constexpr const TileSet& low_mask(int v) noexcept { return kTiles.low_mask[v]; }
constexpr const TileSet& high_mask(int v) noexcept { return kTiles.high_mask[v]; }
/// Every double of the largest set.
constexpr const TileSet& doubles_mask() noexcept { return kTiles.doubles; }
/// The value of a tile left in a hand: its pips, but 0-0 counts 50 when
/// `double_blank_50` is on (docs/rules.md 1.1).
constexpr int tile_score(int t, bool double_blank_50) noexcept {
  return (t == 0 && double_blank_50) ? 50 : kTiles.pips[t];
}

/// Unions of the per-number masks over a set of numbers (bit v: number v),
/// by table: the set's bits in four groups of five, one lookup a group. A loop
/// over the set bits mispredicted its exit at nearly every move of a round.
/// (A layout of three separate tables measured 2.5% slower in `simulate`.)
struct NumberUnions {
  // Bits 0..19: the numbers, and bit 19 (kMaxNumbers), which adds no tile.
  static constexpr int kGroupBits = 5, kGroups = 4;
  TileSet any[kGroups][1 << kGroupBits] = {};   // mask
  TileSet low[kGroups][1 << kGroupBits] = {};   // low_mask
  TileSet high[kGroups][1 << kGroupBits] = {};  // high_mask
};
static_assert(NumberUnions::kGroupBits * NumberUnions::kGroups > kMaxNumbers);

constexpr NumberUnions make_number_unions() noexcept {
  NumberUnions u{};
  for (int g = 0; g < NumberUnions::kGroups; ++g)
    for (int bits = 0; bits < (1 << NumberUnions::kGroupBits); ++bits)
      for (int j = 0; j < NumberUnions::kGroupBits; ++j) {
        const int v = g * NumberUnions::kGroupBits + j;
        if (!((bits >> j) & 1) || v >= kMaxNumbers) continue;
        u.any[g][bits] |= kTiles.mask[v];
        u.low[g][bits] |= kTiles.low_mask[v];
        u.high[g][bits] |= kTiles.high_mask[v];
      }
  return u;
}

inline constexpr NumberUnions kNumberUnions = make_number_unions();

namespace detail {
inline TileSet union_of(
    const TileSet (&table)[NumberUnions::kGroups][1 << NumberUnions::kGroupBits],
    uint32_t numbers) noexcept {
  constexpr uint32_t kGroup = (1u << NumberUnions::kGroupBits) - 1;
  constexpr int kBits = NumberUnions::kGroupBits;
  TileSet u = table[0][numbers & kGroup] | table[1][(numbers >> kBits) & kGroup];
  // Numbers 10 and up exist from double-10 on: up to double-9 the branch is
  // never taken, and skipping two lookups of three words each measured 1.5%
  // of a `simulate` of double-9.
  if (numbers >> 2 * kBits)
    u |= table[2][(numbers >> 2 * kBits) & kGroup] | table[3][(numbers >> 3 * kBits) & kGroup];
  return u;
}
}  // namespace detail

/// Every tile with a half among `numbers` (bit v: number v).
inline TileSet numbers_union(uint32_t numbers) noexcept {
  return detail::union_of(kNumberUnions.any, numbers);
}
/// The tiles whose low half is among `numbers`; those whose high half is.
inline TileSet low_union(uint32_t numbers) noexcept {
  return detail::union_of(kNumberUnions.low, numbers);
}
inline TileSet high_union(uint32_t numbers) noexcept {
  return detail::union_of(kNumberUnions.high, numbers);
}

/// "a-b" with a <= b, e.g. "3-5". t must be in 0..189.
std::string tile_name(int t);
/// Parses "a-b" (halves in either order, surrounding blanks allowed) into an
/// index; throws std::invalid_argument on bad syntax or a half above max_number.
int parse_tile(std::string_view text, int max_number = kMaxSet);

}  // namespace dominocore
