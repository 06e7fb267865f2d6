// What each seat may know (docs/information.md 3): information states, their
// FNV-1a hash, and the information-state and observation tensors.
//
// The reference (python/dominocore/reference) produces the same strings and
// tensors bit for bit. Where docs/information.md leaves a choice, both read it
// as follows:
//
//  1. `h` and the tensor's "own dealt hand": the seat's hand right after the
//     set-up, as the record's `hands` hold it, WITHOUT the seat's own search
//     draws (those are `x`), so `h` and `x` are disjoint; the set-up's double
//     is never in it (it is the centre).
//  2. `x` and the tensor's "own search draws": every tile the seat drew in the
//     cross's search, the round's double included when the seat is the
//     starter who drew it; so `x` has d[seat] tiles.
//  3. The history bound L = T + 2Y + 2p(T + 1) takes Y = T - p: a round with
//     any move has no empty hand after the set-up (an empty hand ends it at
//     once), so its yard holds at most T - p tiles, whatever the deal (also a
//     hand-built one, where T - p*hand_size would not bound it). L is then a
//     constant of the rules.
//  4. The observation's "to move" one-hot, "own drawn tile", "drawing" and
//     "legal ends" planes are all zeros once the round is over (nobody is to
//     move, nothing is in question).
//  5. "legal ends": the ends the seat to move may place on now: the pending
//     ends while an obligation waits; else every open end, but in Mexican
//     Train only those of the trains open to the seat to move (its own, the
//     Mexican, any with a marker). Doubles' locked numbers count (their double
//     may go there); the unlocked plane tells them apart.
//  6. The obligation one-hot is "none" whenever no end is pending.
//  7. Mexican Train's train ends: train t = 0..p-1 (the seats'), p (the
//     Mexican), in that order, each n + 1 entries.
//  8. Counts (search draws, open ends, hand sizes, yard) are plain numbers.
#include "dominocore/information.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "dominocore/games/registry.hpp"

namespace dominocore {

namespace {

// ---- text -------------------------------------------------------------------

// "low-high" for every tile, built once: the writers below copy bytes.
struct TileText {
  char c[5];
  uint8_t n;
};
struct TileTexts {
  TileText t[kMaxTiles];
};
constexpr TileTexts make_tile_texts() noexcept {
  TileTexts out{};
  for (int i = 0; i < kMaxTiles; ++i) {
    TileText& x = out.t[i];
    int n = 0;
    const int lo = tile_low(i), hi = tile_high(i);
    if (lo >= 10) x.c[n++] = static_cast<char>('0' + lo / 10);
    x.c[n++] = static_cast<char>('0' + lo % 10);
    x.c[n++] = '-';
    if (hi >= 10) x.c[n++] = static_cast<char>('0' + hi / 10);
    x.c[n++] = static_cast<char>('0' + hi % 10);
    x.n = static_cast<uint8_t>(n);
  }
  return out;
}
constexpr TileTexts kTileTexts = make_tile_texts();

/// Appends to a string.
struct StringSink {
  std::string& s;
  void put(char c) { s.push_back(c); }
  void put(const char* p, size_t n) { s.append(p, n); }
};

/// FNV-1a 64 over the bytes written.
struct HashSink {
  uint64_t h = 0xcbf29ce484222325ull;
  void put(char c) noexcept { h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull; }
  void put(const char* p, size_t n) noexcept {
    for (size_t i = 0; i < n; ++i) put(p[i]);
  }
};

template <class Sink>
void put_uint(Sink& out, unsigned v) {
  char buf[12];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) out.put(buf[--n]);
}

template <class Sink>
void put_int(Sink& out, int v) {
  if (v < 0) out.put('-');
  put_uint(out, v < 0 ? 0u - static_cast<unsigned>(v) : static_cast<unsigned>(v));
}

template <class Sink>
void put_tile(Sink& out, int t) {
  out.put(kTileTexts.t[t].c, kTileTexts.t[t].n);
}

/// The seat that drew search tile i (docs/information.md 2).
inline int search_drawer(const RoundData& r, int i) noexcept {
  const int p = r.players();
  return (r.round_index % p + i) % p;
}

/// `seat`'s own search draws, as a set.
TileSet own_search(const RoundData& r, int seat) noexcept {
  TileSet s;
  for (int i = 0; i < r.n_setup_draws; ++i)
    if (search_drawer(r, i) == seat) s.set(r.setup_draws[i]);
  return s;
}

/// Each seat's count of search draws.
void search_counts(const RoundData& r, int (&counts)[kMaxPlayers]) noexcept {
  for (int& c : counts) c = 0;
  for (int i = 0; i < r.n_setup_draws; ++i) ++counts[search_drawer(r, i)];
}

/// `seat`'s dealt hand: its hand right after the set-up, less its search draws.
inline TileSet dealt_hand(const RoundData& r, int seat) noexcept {
  return minus(r.deal_hands[seat], own_search(r, seat));
}

// r<k>;s<seat>;c<centre|->;t<starter>;H<0|1>;d<counts>;n<sizes>;h<hand>;x<search>[;k<carried>];m<moves>[;e<points>]
template <class Sink>
void write_information_state(const RoundData& r, int seat, Sink& out) {
  const int p = r.players();
  out.put('r');
  put_uint(out, static_cast<unsigned>(r.round_index));
  out.put(";s", 2);
  put_uint(out, static_cast<unsigned>(seat));
  out.put(";c", 2);
  if (r.centre >= 0)
    put_tile(out, r.centre);
  else
    out.put('-');
  out.put(";t", 2);
  put_uint(out, static_cast<unsigned>(r.starter));
  out.put(";H", 2);
  out.put(r.highest_double ? '1' : '0');
  out.put(";d", 2);
  int counts[kMaxPlayers];
  search_counts(r, counts);
  for (int s = 0; s < p; ++s) {
    if (s) out.put(',');
    put_uint(out, static_cast<unsigned>(counts[s]));
  }
  out.put(";n", 2);
  for (int s = 0; s < p; ++s) {
    if (s) out.put(',');
    put_uint(out, static_cast<unsigned>(dealt_hand(r, s).count()));
  }
  out.put(";h", 2);
  bool first = true;
  dealt_hand(r, seat).for_each([&](int t) {
    if (!first) out.put(',');
    first = false;
    put_tile(out, t);
  });
  out.put(";x", 2);
  first = true;
  for (int i = 0; i < r.n_setup_draws; ++i)
    if (search_drawer(r, i) == seat) {
      if (!first) out.put(',');
      first = false;
      put_tile(out, r.setup_draws[i]);
    }
  // The match totals carried into the round (all_fives.md F8), when some is not 0.
  if (std::any_of(r.carried.begin(), r.carried.begin() + p, [](int c) { return c != 0; })) {
    out.put(";k", 2);
    for (int s = 0; s < p; ++s) {
      if (s) out.put(',');
      put_int(out, r.carried[static_cast<size_t>(s)]);
    }
  }
  out.put(";m", 2);
  int draws = 0;  // the k-th Draw took the yard's tile k after the set-up
  for (size_t i = 0; i < r.hist.size(); ++i) {
    const Record& rec = r.hist[i];
    if (i) out.put(' ');
    put_uint(out, static_cast<unsigned>(rec.mover));
    out.put(':');
    switch (rec.move.kind) {
      case MoveKind::Place:
        put_tile(out, rec.move.tile);
        out.put('@');
        put_uint(out, static_cast<unsigned>(rec.move.end));
        break;
      case MoveKind::Draw:
        out.put("draw", 4);
        if (rec.mover == seat) {
          out.put('=');
          put_tile(out, r.yard[r.yard_base + draws]);
        }
        ++draws;
        break;
      case MoveKind::Pass: out.put("pass", 4); break;
    }
  }
  if (r.over) {
    out.put(";e", 2);
    for (int s = 0; s < p; ++s) {
      if (s) out.put(',');
      put_int(out, r.result.points[static_cast<size_t>(s)]);
    }
  }
}

// ---- tensors ----------------------------------------------------------------

constexpr int kEndIdBits = 10;  // end ids stay below 2^10 (at most 8 + 3 * 190 ends)
// The round index in bits (least significant first): it is an int >= 0.
constexpr int kRoundIndexBits = 31;
/// Floats of the set-up's public facts after the centre: highest_double (1)
/// and the round index's bits.
constexpr int kSetupFacts = 1 + kRoundIndexBits;

/// Floats per move block: mover (p), kind (3), tile (T), end id bits.
inline int move_block(const Rules& rules) noexcept {
  return rules.players + 3 + rules.tiles() + kEndIdBits;
}

}  // namespace

std::string information_state(const State& state, int seat) {
  std::string s;
  s.reserve(64 + 10 * static_cast<size_t>(state.num_moves()));
  StringSink sink{s};
  write_information_state(state.data(), seat, sink);
  return s;
}

uint64_t information_state_hash(const State& state, int seat) {
  HashSink sink;
  write_information_state(state.data(), seat, sink);
  return sink.h;
}

int information_state_history_bound(const Rules& rules) {
  const int T = rules.tiles(), p = rules.players, Y = T - p;
  return T + 2 * Y + 2 * p * (T + 1);
}

/// The carried block of the information-state tensor: p floats in the games
/// that score during play (the match totals before the round), else none.
inline int carried_block(const Rules& rules) noexcept {
  return scores_in_play(rules.game) ? rules.players : 0;
}

int information_state_tensor_size(const Rules& rules) {
  const int T = rules.tiles(), p = rules.players;
  return 5 * p + carried_block(rules) + (T + 1) + 2 * T + kSetupFacts +
         information_state_history_bound(rules) * move_block(rules);
}

void information_state_tensor(const State& state, int seat, float* out) {
  const RoundData& r = state.data();
  const Rules& rules = r.rules;
  const int T = r.tiles, p = rules.players, L = information_state_history_bound(rules);
  if (static_cast<int>(r.hist.size()) > L)
    throw StateError("the round holds " + std::to_string(r.hist.size()) +
                     " moves, more than the information-state tensor's bound of " +
                     std::to_string(L));
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(information_state_tensor_size(rules)));
  float* o = out;
  o[seat] = 1.0f;  // viewer
  o += p;
  o[r.starter] = 1.0f;
  o += p;
  o[r.centre >= 0 ? r.centre : T] = 1.0f;
  o += T + 1;
  o[0] = r.highest_double ? 1.0f : 0.0f;
  for (int b = 0; b < kRoundIndexBits; ++b)
    if ((static_cast<unsigned>(r.round_index) >> b) & 1u) o[1 + b] = 1.0f;
  o += kSetupFacts;
  int counts[kMaxPlayers];
  search_counts(r, counts);
  for (int s = 0; s < p; ++s) o[s] = static_cast<float>(counts[s]);
  o += p;
  for (int s = 0; s < p; ++s) o[s] = static_cast<float>(dealt_hand(r, s).count());
  o += p;
  if (r.over)
    for (int s = 0; s < p; ++s) o[s] = static_cast<float>(r.result.points[static_cast<size_t>(s)]);
  o += p;
  if (carried_block(rules)) {
    for (int s = 0; s < p; ++s) o[s] = static_cast<float>(r.carried[static_cast<size_t>(s)]);
    o += p;
  }
  dealt_hand(r, seat).for_each([&](int t) { o[t] = 1.0f; });
  o += T;
  int order = 0;  // 1-based order among the viewer's own search draws
  for (int i = 0; i < r.n_setup_draws; ++i)
    if (search_drawer(r, i) == seat) o[r.setup_draws[i]] = static_cast<float>(++order);
  o += T;
  const int block = move_block(rules);
  int draws = 0;
  for (size_t i = 0; i < r.hist.size(); ++i, o += block) {
    const Record& rec = r.hist[i];
    o[rec.mover] = 1.0f;
    o[p + static_cast<int>(rec.move.kind)] = 1.0f;  // place, draw, pass
    float* tile = o + p + 3;
    if (rec.move.kind == MoveKind::Place) {
      tile[rec.move.tile] = 1.0f;
      for (int b = 0; b < kEndIdBits; ++b)
        if ((rec.move.end >> b) & 1) tile[T + b] = 1.0f;
    } else if (rec.move.kind == MoveKind::Draw) {
      if (rec.mover == seat) tile[r.yard[r.yard_base + draws]] = 1.0f;
      ++draws;
    }
  }
}

static_assert(static_cast<int>(MoveKind::Place) == 0 && static_cast<int>(MoveKind::Draw) == 1 &&
                  static_cast<int>(MoveKind::Pass) == 2,
              "the tensor's kind one-hot is place, draw, pass");

int observation_tensor_size(const Rules& rules) {
  const int T = rules.tiles(), p = rules.players, n = rules.set + 1;
  const int planes = 3 * T + 2 * (n + 1) + n + 4 + 4 * p + 2;
  return planes + games::with_game(rules.game, [&](auto tag) {
           using G = DOMINOCORE_GAME(tag);
           return G::observation_planes(rules);
         });
}

namespace {

// Zeroes n floats with fixed-size stores, inlined: the planes are a few
// hundred bytes, where a call to the library's memset costs as much as the stores.
inline void zero_floats(float* p, int n) noexcept {
  for (; n >= 16; n -= 16, p += 16) std::memset(p, 0, 16 * sizeof(float));
  for (; n >= 4; n -= 4, p += 4) std::memset(p, 0, 4 * sizeof(float));
  for (; n > 0; --n) *p++ = 0.0f;
}

// Writes tiles [0, T) of `set` as 0/1 floats, four at a time from a table
// (a group of four never straddles a word): the plane is written once,
// rather than zeroed and then set tile by tile.
inline void write_tile_plane(const TileSet& set, int T, float* out) noexcept {
  struct Four {
    float f[4];
  };
  static constexpr Four kFours[16] = {
      {{0, 0, 0, 0}}, {{1, 0, 0, 0}}, {{0, 1, 0, 0}}, {{1, 1, 0, 0}},
      {{0, 0, 1, 0}}, {{1, 0, 1, 0}}, {{0, 1, 1, 0}}, {{1, 1, 1, 0}},
      {{0, 0, 0, 1}}, {{1, 0, 0, 1}}, {{0, 1, 0, 1}}, {{1, 1, 0, 1}},
      {{0, 0, 1, 1}}, {{1, 0, 1, 1}}, {{0, 1, 1, 1}}, {{1, 1, 1, 1}}};
  int t = 0;
  for (; t + 4 <= T; t += 4)
    std::memcpy(out + t, kFours[(set.w[t >> 6] >> (t & 63)) & 15].f, sizeof(Four));
  for (; t < T; ++t) out[t] = set.test(t) ? 1.0f : 0.0f;
}

// Whether every open end counts among the legal ends when no obligation
// waits (the default hook: every game but Mexican Train). Not constexpr:
// under -fsanitize=undefined GCC 12 does not compare two functions' addresses
// at compile time (the sanitized self-test's build); the comparison costs nothing.
template <class G>
bool every_end_open() noexcept {
  return &G::end_open_to == &games::GameBase::end_open_to;
}

// The planes of game G's observation from the open ends on (after the own
// drawn tile), but the hand sizes, into `o` (zeroed before).
template <class G>
void write_table_planes(const RoundData& r, int seat, float* o) noexcept {
  const int p = r.rules.players, n = r.rules.set + 1;
  const bool live = !r.over;
  // Open ends: the engine keeps the count per number (kNoNumber at index n).
  for (int v = 0; v < n; ++v) o[v] = static_cast<float>(r.num_count[v]);
  o[n] = static_cast<float>(r.num_count[kNoNumber]);
  float* legal = o + n + 1;
  if (live) {  // legal ends
    auto slot = [n](int number) { return number == kNoNumber ? n : number; };
    if (every_end_open<G>() && !r.f.obl_left) {
      for (int v = 0; v <= n; ++v) legal[v] = o[v];
    } else {
      int b, e;
      r.legal_slice(b, e);
      for (int i = b; i < e; ++i)
        if (G::end_open_to(r, i, r.f.cur)) legal[slot(r.end_num[i])] += 1.0f;
    }
  }
  o += 2 * (n + 1);
  for (int v = 0; v < n; ++v) o[v] = static_cast<float>((r.f.unlocked >> v) & 1u);  // unlocked
  o += n;
  o[r.f.obl_left ? r.f.obl_kind : 0] = 1.0f;  // obligation: none, start, foot, double
  o += 4;
  o[seat] = 1.0f;  // viewer
  o += p;
  if (live) o[r.f.cur] = 1.0f;  // to move
  o += 2 * p;                   // and the hand sizes
  o[0] = static_cast<float>(r.yard_size());
  o[1] = live && r.f.drawn >= 0 ? 1.0f : 0.0f;  // drawing
  o += 2;
  for (int s = 0; s < p; ++s) o[s] = static_cast<float>((r.f.markers >> s) & 1u);  // markers
  o += p;
  G::write_observation_planes(r, seat, o);  // Mexican Train: its train ends; Block: teammates
}

// Where the hand sizes start, from the open ends on.
inline int hand_sizes_offset(const Rules& rules) noexcept {
  const int n = rules.set + 1;
  return 2 * (n + 1) + n + 4 + 2 * rules.players;
}

// Writes every plane of `seat`'s observation of game G, `size` floats.
template <class G>
void observe(const RoundData& r, int seat, float* out, int size) noexcept {
  const int T = r.tiles;
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(size));
  r.hands[seat].for_each([&](int t) { out[t] = 1.0f; });                  // own hand
  for (int k = 0; k < r.n_placed; ++k) out[T + r.placed[k].tile] = 1.0f;  // layout
  if (!r.over && r.f.drawn >= 0 && r.f.cur == seat)
    out[2 * T + r.f.drawn] = 1.0f;  // own drawn tile
  float* table = out + 3 * T;
  write_table_planes<G>(r, seat, table);
  float* sizes = table + hand_sizes_offset(r.rules);
  for (int s = 0; s < r.rules.players; ++s) sizes[s] = static_cast<float>(r.hands[s].count());
}

// observation_tensor_after_move for game G: what the last move changed is
// read from its undo record (its mover, its kind, the flow before it).
template <class G>
void observe_after_move(const RoundData& r, int seat, float* out, int size) noexcept {
  const int T = r.tiles;
  const Record& last = r.hist.back();
  write_tile_plane(r.hands[seat], T, out);  // own hand
  // The layout only grows; a hand's size changes by the tile placed or drawn.
  float* table = out + 3 * T;
  float* sizes = table + hand_sizes_offset(r.rules);
  float mover_size = sizes[last.mover];
  if (last.move.kind == MoveKind::Place) {
    out[T + last.move.tile] = 1.0f;
    mover_size -= 1.0f;
  } else if (last.move.kind == MoveKind::Draw) {
    mover_size += 1.0f;
  }
  // The drawn plane held at most the tile in question before the move.
  if (last.before.drawn >= 0) out[2 * T + last.before.drawn] = 0.0f;
  if (!r.over && r.f.drawn >= 0 && r.f.cur == seat) out[2 * T + r.f.drawn] = 1.0f;
  float old_sizes[kMaxPlayers];
  const int p = r.rules.players;
  for (int s = 0; s < p; ++s) old_sizes[s] = sizes[s];
  old_sizes[last.mover] = mover_size;
  zero_floats(table, size - 3 * T);
  write_table_planes<G>(r, seat, table);
  for (int s = 0; s < p; ++s) sizes[s] = old_sizes[s];
}

}  // namespace

void observation_tensor(const State& state, int seat, float* out) noexcept {
  const RoundData& r = state.data();
  games::with_game(r.rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    observe<G>(r, seat, out, observation_tensor_size(r.rules));
  });
}

void observation_tensors(const State* const* states, const int* seats, size_t count,
                         float* out) noexcept {
  if (count == 0) return;
  const RoundData& first = states[0]->data();
  const int size = observation_tensor_size(first.rules);
  games::with_game(first.rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    for (size_t i = 0; i < count; ++i)
      observe<G>(states[i]->data(), seats[i], out + i * static_cast<size_t>(size), size);
  });
}

void observation_tensor_after_move(const State& state, int seat, float* out) noexcept {
  const RoundData& r = state.data();
  games::with_game(r.rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    observe_after_move<G>(r, seat, out, observation_tensor_size(r.rules));
  });
}

}  // namespace dominocore
