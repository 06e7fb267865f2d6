// A speed-of-light kernel for bench/kernel_bench.py: Chicken Foot `trains`,
// double-9, 4 players, random play, the rounds that
// simulate(rules, rounds=N, seed=S, threads=1) plays (docs/games/chickenfoot.md
// C3-C10, docs/rules.md 1.6, 1.7), with none of the engine: no undo history,
// no records, no checks, no dispatch over the games.
//
//   speed_of_light ROUNDS SEED
//
// prints `rounds=N checksum=X cpu_seconds=Y wall_seconds=Z`; the checksum is
// the one bench/kernel_bench.py computes from simulate's arrays.
//
// The seeds mean what they mean in the engine (the project's SplitMix64 and
// tile indices); the play loop is its own:
// - the 55 tiles fit one 64-bit word, so hands and number masks are words;
// - end ids matter only through their order, and the distinct listing always
//   places on the lowest open id of a number (of the pending ones under an
//   obligation), so each number keeps the set of its open ids as 128 bits;
// - the first shuffle only finds the starter: the kernel follows the position
//   of the round's double through the swaps instead of shuffling an array.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "dominocore/rng.hpp"
#include "dominocore/tiles.hpp"

namespace {

using dominocore::Rng;
using dominocore::detail::u128;

constexpr int kSet = 9, kPlayers = 4, kHand = 11, kReserve = 1;
constexpr int kTiles = dominocore::tile_count(kSet);        // 55
constexpr int kCentre = dominocore::double_tile(kSet);      // 9-9, round 0
constexpr uint64_t kRandomPlayXor = 0xD1B54A32D192ED03ull;  // players.hpp
static_assert(kTiles <= 64, "a hand is one word");
static_assert(kCentre == kTiles - 1, "the other tiles are 0 .. kTiles - 2");

struct Tables {
  uint64_t number[kSet + 1] = {};  // tiles showing v
  uint64_t low[kSet + 1] = {};     // tiles whose low half is v
  uint64_t high[kSet + 1] = {};    // tiles whose high half is v
  uint64_t doubles = 0;
  uint8_t lo[kTiles] = {}, hi[kTiles] = {};
};
constexpr Tables make_tables() {
  Tables t{};
  for (int b = 0; b <= kSet; ++b)
    for (int a = 0; a <= b; ++a) {
      const int i = dominocore::tile_index(a, b);
      const uint64_t bit = uint64_t{1} << i;
      t.number[a] |= bit;
      t.number[b] |= bit;
      t.low[a] |= bit;
      t.high[b] |= bit;
      if (a == b) t.doubles |= bit;
      t.lo[i] = static_cast<uint8_t>(a);
      t.hi[i] = static_cast<uint8_t>(b);
    }
  return t;
}
constexpr Tables kT = make_tables();

inline int ctz(uint64_t x) { return __builtin_ctzll(x); }
inline int popcount(uint64_t x) { return dominocore::detail::popcount64(x); }  // the engine's count
inline int lowest(u128 x) {
  const auto w = static_cast<uint64_t>(x);
  return w ? ctz(w) : 64 + ctz(static_cast<uint64_t>(x >> 64));
}

struct RoundOut {
  int moves, reason, out_seat, starter;  // reason: 0 out, 1 blocked
  int points[kPlayers];
};

// C8: every seat scores the pips left in its hand.
RoundOut finish(const uint64_t* hand, int moves, int out_seat, int starter) {
  RoundOut r{moves, out_seat < 0 ? 1 : 0, out_seat, starter, {}};
  for (int p = 0; p < kPlayers; ++p)
    for (uint64_t h = hand[p]; h; h &= h - 1) r.points[p] += kT.lo[ctz(h)] + kT.hi[ctz(h)];
  return r;
}

// One round from seed s.
RoundOut play_round(uint64_t s) {
  Rng deal(s);
  // C3: where the shuffle of the whole set puts the double gives the starter.
  int pos = kCentre;
  for (int i = kTiles - 1; i >= 1; --i) {
    const int j = static_cast<int>(deal.below_unchecked(static_cast<uint64_t>(i) + 1));
    if (pos == i)
      pos = j;
    else if (pos == j)
      pos = i;
  }
  const int starter = pos % kPlayers;
  uint8_t deck[kTiles - 1];
  for (int t = 0; t < kTiles - 1; ++t) deck[t] = static_cast<uint8_t>(t);
  deal.shuffle(deck, kTiles - 1);
  uint64_t hand[kPlayers] = {};
  for (int p = 0; p < kPlayers; ++p)
    for (int j = 0; j < kHand; ++j) hand[p] |= uint64_t{1} << deck[p * kHand + j];
  const uint8_t* yard = deck + kPlayers * kHand;
  int yard_left = kTiles - 1 - kPlayers * kHand;

  // C5: slots 0..3 of number 9, pending.
  u128 ids[kSet + 1] = {};  // open end ids per number
  uint32_t present = 1u << kSet;
  ids[kSet] = (u128{1} << kPlayers) - 1;
  int next_id = kPlayers;
  u128 pending = ids[kSet];  // the obligation's unfilled ids
  int pending_num = kSet;

  Rng play(s ^ kRandomPlayXor);
  int cur = starter, drawn = -1, moves = 0;
  for (;;) {
    ++moves;
    uint64_t legal = 0, both = 0;
    if (pending) {
      legal = kT.number[pending_num];
    } else {
      uint64_t lows = 0, highs = 0;
      for (uint32_t x = present; x; x &= x - 1) {
        lows |= kT.low[ctz(x)];
        highs |= kT.high[ctz(x)];
      }
      legal = lows | highs;
      both = lows & highs & ~kT.doubles;  // two distinct placements
    }
    const uint64_t cand = (drawn >= 0 ? uint64_t{1} << drawn : hand[cur]) & legal;
    if (!cand) {
      play.below_unchecked(1);
      if (drawn < 0 && yard_left > kReserve) {  // C7: draw, same seat
        drawn = *yard++;
        --yard_left;
        hand[cur] |= uint64_t{1} << drawn;
      } else {  // pass
        drawn = -1;
        cur = cur + 1 == kPlayers ? 0 : cur + 1;
      }
    } else {
      // Canonical order: by tile, then end id; a tile that fits both of its
      // numbers lists the number whose lowest open end comes first.
      int k = static_cast<int>(
          play.below_unchecked(static_cast<uint64_t>(popcount(cand) + popcount(cand & both))));
      uint64_t x = cand;
      int t = ctz(x);
      for (;;) {
        const int w = 1 + static_cast<int>((both >> t) & 1);
        if (k < w) break;
        k -= w;
        x &= x - 1;
        t = ctz(x);
      }
      const int lo = kT.lo[t], hi = kT.hi[t];
      int v;
      if (pending)
        v = pending_num;
      else if ((both >> t) & 1)
        v = (lowest(ids[lo]) < lowest(ids[hi])) == (k == 0) ? lo : hi;
      else
        v = (present >> lo) & 1 ? lo : hi;
      const u128 from = pending ? pending : ids[v];
      const u128 end = from & (~from + 1);  // the lowest such id
      ids[v] &= ~end;
      if (pending) pending &= ~end;
      if (!ids[v]) present &= ~(1u << v);
      hand[cur] &= ~(uint64_t{1} << t);
      drawn = -1;
      if (lo == hi) {  // C6: a chicken foot, three pending toes
        pending = u128{7} << next_id;
        pending_num = v;
        ids[v] |= pending;
        next_id += 3;
      } else {
        ids[lo + hi - v] |= u128{1} << next_id++;
      }
      present |= 1u << (lo + hi - v);
      if (!hand[cur]) return finish(hand, moves, cur, starter);
      cur = cur + 1 == kPlayers ? 0 : cur + 1;
    }
    // C8: blocked once nobody may draw and no hand fits a legal end.
    if (yard_left <= kReserve) {
      uint64_t now = 0;
      if (pending) {
        now = kT.number[pending_num];
      } else {
        for (uint32_t y = present; y; y &= y - 1) now |= kT.number[ctz(y)];
      }
      if (!((hand[0] | hand[1] | hand[2] | hand[3]) & now)) return finish(hand, moves, -1, starter);
    }
  }
}

}  // namespace

// The checksum of bench/kernel_bench.py: round i (from 0) weighs
// (i + 1) * 0x9E3779B97F4A7C15, everything mod 2^64.
uint64_t round_value(const RoundOut& r) {
  static constexpr uint64_t kSeatWeight[kPlayers] = {1000003, 10000019, 100000007, 1000000007};
  uint64_t v = static_cast<uint64_t>(r.moves) + 1009 * static_cast<uint64_t>(r.out_seat + 1) +
               10007 * static_cast<uint64_t>(r.starter) + 100003 * static_cast<uint64_t>(r.reason);
  for (int p = 0; p < kPlayers; ++p) v += kSeatWeight[p] * static_cast<uint64_t>(r.points[p]);
  return v;
}

double seconds(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ROUNDS SEED\n", argv[0]);
    return 2;
  }
  const uint64_t rounds = std::strtoull(argv[1], nullptr, 10);
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
  uint64_t checksum = 0;
  for (uint64_t i = 0; i < rounds; ++i)
    checksum += (i + 1) * 0x9E3779B97F4A7C15ull * round_value(play_round(seed + i));
  const double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0,
               wall = seconds(CLOCK_MONOTONIC) - wall0;
  std::printf("rounds=%" PRIu64 " checksum=%" PRIu64 " cpu_seconds=%.6f wall_seconds=%.6f\n",
              rounds, checksum, cpu, wall);
  return 0;
}
