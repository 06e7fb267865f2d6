// SplitMix64, the one random generator of dominocore (docs/rules.md 1.6).
//
// Normative: the C++ core and the pure-Python reference must draw the same
// numbers in the same order, so nothing here may change without the rule book.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace dominocore {

namespace detail {
#if defined(__SIZEOF_INT128__)
// below(n) for small n without hardware division: the threshold (2^64 - n)
// mod n comes from a table, and x mod n from Lemire's exact "fastmod"
// (M = ceil(2^128 / n); x mod n = high 64 bits of ((M * x) mod 2^128) * n).
// Results are identical to the plain % (it is exact for every 64-bit x).
__extension__ typedef unsigned __int128 u128;  // __extension__: quiet under -Wpedantic
inline constexpr int kBelowTableSize = 512;
struct BelowTable {
  u128 m[kBelowTableSize] = {};
  uint64_t t[kBelowTableSize] = {};
};
constexpr BelowTable make_below_table() {
  BelowTable b{};
  for (int n = 1; n < kBelowTableSize; ++n) {
    const uint64_t un = static_cast<uint64_t>(n);
    b.m[n] = ~static_cast<u128>(0) / un + 1;  // wraps to 0 for n = 1: gives 0
    b.t[n] = (uint64_t{0} - un) % un;
  }
  return b;
}
inline constexpr BelowTable kBelowTable = make_below_table();
inline uint64_t fastmod(uint64_t x, u128 m, uint64_t n) noexcept {
  const u128 low = m * x;
  const u128 bottom = (static_cast<u128>(static_cast<uint64_t>(low)) * n) >> 64;
  const u128 top = (low >> 64) * n;
  return static_cast<uint64_t>((bottom + top) >> 64);
}
#endif
}  // namespace detail

class Rng {
 public:
  /// A generator whose 64-bit state starts at `seed`.
  explicit constexpr Rng(uint64_t seed = 0) noexcept : s_(seed) {}

  /// The next 64-bit output (docs/rules.md 1.6, all arithmetic mod 2^64).
  constexpr uint64_t next() noexcept {
    s_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = s_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, n) by rejection: t = (2^64 - n) mod n; draw until x >= t;
  /// return x mod n. Always draws at least once (also for n == 1).
  /// Throws std::invalid_argument for n == 0.
  uint64_t below(uint64_t n) {
    if (n == 0) throw std::invalid_argument("Rng::below(0): the range is empty");
    return below_unchecked(n);
  }

  /// below() for n >= 1, without the argument check.
  uint64_t below_unchecked(uint64_t n) noexcept {
#if defined(__SIZEOF_INT128__)
    if (n < static_cast<uint64_t>(detail::kBelowTableSize)) {
      const uint64_t t = detail::kBelowTable.t[n];
      const detail::u128 m = detail::kBelowTable.m[n];
      for (;;) {
        const uint64_t x = next();
        if (x >= t) return detail::fastmod(x, m, n);
      }
    }
#endif
    const uint64_t t = (uint64_t{0} - n) % n;
    for (;;) {
      const uint64_t x = next();
      if (x >= t) return x % n;
    }
  }

  /// A uniform double in [0, 1): the top 53 bits of next() (weighted picks).
  double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Fisher-Yates from the back: for i = n-1 down to 1, j = below(i+1),
  /// swap a[i], a[j].
  template <class T>
  void shuffle(T* a, std::size_t n) noexcept {
    // The state in a local: a store to a[] of a byte type may alias *this,
    // so the compiler kept the state in memory, a store and a reload on the
    // chain of every draw (docs/performance.md 3, "The generator's state").
    Rng g = *this;
    for (std::size_t i = n; i-- > 1;) {
      const std::size_t j = static_cast<std::size_t>(g.below_unchecked(i + 1));
      T tmp = a[i];
      a[i] = a[j];
      a[j] = tmp;
    }
    *this = g;
  }

  /// The raw state (for saving and restoring a generator).
  constexpr uint64_t state() const noexcept { return s_; }
  constexpr void set_state(uint64_t s) noexcept { s_ = s; }

  friend constexpr bool operator==(const Rng& a, const Rng& b) noexcept { return a.s_ == b.s_; }
  friend constexpr bool operator!=(const Rng& a, const Rng& b) noexcept { return a.s_ != b.s_; }

 private:
  uint64_t s_;
};

}  // namespace dominocore
