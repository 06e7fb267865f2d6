// The engine: one round's rules that no game changes, written once as a
// template over the game's module of hooks (dominocore/games/). Internal:
// included by the State sources and by bots.cpp, whose simulation loop
// (play_out) inlines the move generator and apply() for each game.
//
// What lives here and nowhere else: the order of the checks of a move
// (docs/engine.md), the obligation slice (engine reading 2), the drawn-tile
// rule (reading 4), the end-of-round tests (docs/rules.md 1.5, readings 1 and
// 11), undo, and the mapping of the listing to action ids.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "dominocore/games/registry.hpp"
#include "dominocore/players.hpp"
#include "dominocore/round_data.hpp"

// The hot path is forced inline into the simulation loop: without LTO, GCC
// otherwise keeps some of it as calls.
#if defined(__GNUC__) || defined(__clang__)
#define DOMINOCORE_HOT_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define DOMINOCORE_HOT_INLINE __forceinline
#else
#define DOMINOCORE_HOT_INLINE inline
#endif

namespace dominocore {

/// The check that fails for an end outside a pending obligation.
inline Reason pending_reason(uint8_t kind) noexcept {
  switch (static_cast<Pending>(kind)) {
    case Pending::Start: return Reason::StartUnfinished;
    case Pending::Foot: return Reason::FootUnfinished;
    default: return Reason::DoubleUnsatisfied;
  }
}

template <class G>
struct Engine {
  // ---- what may be placed ---------------------------------------------------

  /// Every tile that attaches to a legal end for some seat: under an
  /// obligation, the tiles of its number (its ends share the number).
  static DOMINOCORE_HOT_INLINE TileSet legal_mask(const RoundData& r) noexcept {
    return r.f.obl_left ? number_mask(r.end_num[r.f.obl_pos]) : G::legal_mask(r);
  }
  static DOMINOCORE_HOT_INLINE void refresh(RoundData& r) noexcept { r.legal_mask = legal_mask(r); }
  /// The tiles `seat` may attach somewhere now.
  static DOMINOCORE_HOT_INLINE TileSet seat_mask(const RoundData& r, int seat) noexcept {
    return r.f.obl_left ? r.legal_mask : G::seat_mask(r, seat);
  }
  static bool has_legal_placement(const RoundData& r, int seat) noexcept {
    return intersects(r.hands[seat], seat_mask(r, seat));
  }
  /// The tiles in question (the drawn one, else the hand) that can go somewhere.
  static TileSet placeable(const RoundData& r) noexcept {
    if (r.over) return TileSet{};
    return pool_of(r) & seat_mask(r, r.f.cur);
  }
  /// End index of the first legal placement of `tile` in canonical order, -1 if none.
  static int first_place(const RoundData& r, int tile) noexcept {
    TileSet pool;
    pool.set(tile);
    int first = -1;
    auto emit = [&](int, int i) {
      if (first < 0) first = i;
    };
    G::for_each_place(r, pool, true, emit);
    return first;
  }

  // ---- listings ----------------------------------------------------------------

  /// Calls place(tile, end index) for each distinct legal placement in
  /// canonical order, then other(move) for the Draw or Pass that follows them.
  template <class Place, class Other>
  static DOMINOCORE_HOT_INLINE void for_each_distinct(const RoundData& r, Place&& place,
                                                      Other&& other) {
    list(r, true, place, other);
  }
  template <class Place, class Other>
  static DOMINOCORE_HOT_INLINE void list(const RoundData& r, bool distinct, Place& place,
                                         Other& other) {
    if (r.over) return;
    int n = 0;
    auto counted = [&](int t, int i) {
      ++n;
      place(t, i);
    };
    G::for_each_place(r, pool_of(r), distinct, counted);
    Move m;
    if (move_after_places(r, n, m)) other(m);
  }
  /// The tiles the mover may place from: the drawn one (reading 4), else the hand.
  static DOMINOCORE_HOT_INLINE TileSet pool_of(const RoundData& r) noexcept {
    if (r.f.drawn < 0) return r.hands[r.f.cur];
    TileSet pool;
    pool.set(r.f.drawn);
    return pool;
  }
  /// The Draw or Pass that the listing has after its `n` placements, if any.
  static DOMINOCORE_HOT_INLINE bool move_after_places(const RoundData& r, int n, Move& m) noexcept {
    if (r.f.drawn >= 0) {                                 // reading 4: the drawn tile, or Pass
      if (n == 0 && G::draws_again(r) && G::can_draw(r))  // all_fives.md F6
        m = Move::draw();
      else if (n == 0 || r.rules.drawn_tile == DrawnTile::May)
        m = Move::pass();
      else
        return false;
      return true;
    }
    if (n) return false;
    m = G::can_draw(r) ? Move::draw() : Move::pass();
    return true;
  }
  static DOMINOCORE_HOT_INLINE int distinct(const RoundData& r, Move* buf) noexcept {
    int n = 0;
    for_each_distinct(
        r, [&](int t, int i) { buf[n++] = Move::place(t, r.end_id[i]); },
        [&](const Move& m) { buf[n++] = m; });
    return n;
  }
  static void legal_moves(const RoundData& r, std::vector<Move>& out, bool distinct) {
    out.clear();
    auto place = [&](int t, int i) { out.push_back(Move::place(t, r.end_id[i])); };
    auto other = [&](const Move& m) { out.push_back(m); };
    list(r, distinct, place, other);
  }
  /// Greedy (docs/rules.md 1.6): the placeable tile that scores most in
  /// hand, first in index order among equals, on its first placement in
  /// canonical order; else Draw if legal; else Pass.
  static DOMINOCORE_HOT_INLINE Move greedy(const RoundData& r) noexcept {
    Move other;
    const games::PickedPlace at = greedy_choice(r, other);
    return at.tile >= 0 ? Move::place(at.tile, r.end_id[at.end]) : other;
  }
  /// greedy() with its placement by end index, as the batch loop plays it
  /// (a Move names the end by id, which place() would look up again); when
  /// greedy draws or passes, tile -1 and that move in `other`.
  static DOMINOCORE_HOT_INLINE games::PickedPlace greedy_choice(const RoundData& r,
                                                                Move& other) noexcept {
    const TileSet cand = placeable(r);
    if (cand.any()) {
      if constexpr (G::kScoresInPlay) return G::greedy_place(r, cand);  // all_fives.md F13
      // The highest score, then the lowest index, is the highest key: no
      // branch on each comparison, which mispredicted about once a move.
      const bool db50 = r.rules.double_blank_50;
      int best_key = -1;
      cand.for_each([&](int t) {
        best_key = std::max(best_key, tile_score(t, db50) * kScoreKey + (kScoreKey - 1 - t));
      });
      const int best = kScoreKey - 1 - best_key % kScoreKey;
      return games::PickedPlace{best, first_place(r, best)};
    }
    other = (r.f.drawn < 0 || G::draws_again(r)) && G::can_draw(r) ? Move::draw() : Move::pass();
    return games::PickedPlace{};
  }
  /// Greedy's keys: score * kScoreKey + (kScoreKey - 1 - tile), every tile index below it.
  static constexpr int kScoreKey = 256;
  static_assert(kMaxTiles <= kScoreKey, "a key holds a tile index");

  // ---- checking a move (docs/engine.md "Reasons a move is rejected") ------

  /// Whether the tile drawn this turn (there is one) has a legal end now.
  static bool drawn_placeable(const RoundData& r) noexcept {
    TileSet drawn;
    drawn.set(r.f.drawn);
    return intersects(drawn, seat_mask(r, r.f.cur));
  }

  static Reason check(const RoundData& r, const Move& m, int player) noexcept {
    if (r.over) return Reason::RoundOver;
    if (player >= 0 && player != r.f.cur) return Reason::NotYourTurn;
    const int cur = r.f.cur;
    switch (m.kind) {
      case MoveKind::Place: {
        if (r.f.drawn >= 0 && m.tile != r.f.drawn) return Reason::NotDrawnTile;
        if (m.tile < 0 || m.tile >= r.tiles || !r.hands[cur].test(m.tile)) return Reason::NotInHand;
        const int i = r.find_end(m.end);
        if (i < 0) return Reason::EndNotOpen;
        if (r.f.obl_left && (i < r.f.obl_pos || i >= r.f.obl_pos + r.f.obl_left))
          return pending_reason(r.f.obl_kind);
        return G::may_attach(r, m.tile, i, cur);
      }
      case MoveKind::Draw:
        // all_fives.md F6: a drawn tile that cannot be placed may be followed by
        // another draw; one that can must be placed.
        if (r.f.drawn >= 0) {
          if (!G::draws_again(r)) return Reason::AlreadyDrew;
          if (drawn_placeable(r)) return Reason::MustPlaceDrawn;
        }
        if (has_legal_placement(r, cur)) return Reason::MustPlace;
        if (!G::can_draw(r)) return Reason::YardExhausted;
        return Reason::Ok;
      case MoveKind::Pass:
        if (r.f.drawn >= 0) {
          const bool fits = drawn_placeable(r);
          if (r.rules.drawn_tile == DrawnTile::Must && fits) return Reason::MustPlaceDrawn;
          if (!fits && G::draws_again(r) && G::can_draw(r)) return Reason::MustDraw;
          return Reason::Ok;
        }
        if (has_legal_placement(r, cur)) return Reason::MustPlace;
        if (G::can_draw(r)) return Reason::MustDraw;
        return Reason::Ok;
    }
    return Reason::NoMatch;  // unreachable for a valid MoveKind
  }

  // ---- playing and taking back a move ----------------------------------------

  /// Plays a legal move. kRecord: leave the undo record that pop() and the
  /// move history read; only the batch loop (play_out<false>), whose rounds
  /// are never taken back nor read move by move, goes without.
  template <bool kRecord = true>
  static DOMINOCORE_HOT_INLINE void apply(RoundData& r, const Move& m) noexcept {
    switch (m.kind) {
      case MoveKind::Place: place<kRecord>(r, m.tile, r.find_end(m.end)); break;
      case MoveKind::Draw: draw<kRecord>(r); break;
      case MoveKind::Pass: pass<kRecord>(r); break;
    }
  }
  /// Places `t` on the open end at index i (a legal placement).
  template <bool kRecord>
  static DOMINOCORE_HOT_INLINE void place(RoundData& r, int t, int i) noexcept {
    const int mover = r.f.cur, v = r.end_num[i];
    const int16_t end = r.end_id[i];
    if constexpr (kRecord) record(r, Move::place(t, end));
    ++r.n_moves;
    r.remove_end_at(i);
    r.hands[mover].reset(t);
    r.f.drawn = -1;
    // A legal place under an obligation fills one of its ends.
    if (r.f.obl_left && --r.f.obl_left == 0) r.clear_obligation();
    Placement& pl = r.placed[r.n_placed++];
    pl.tile = static_cast<int16_t>(t);
    pl.end = end;
    pl.first = r.next_end;
    pl.by = static_cast<uint8_t>(v);
    pl.seat = static_cast<int8_t>(mover);
    pl.train = -1;
    if (is_double(t))
      G::double_opens(r, pl);
    else
      G::single_opens(r, pl);
    pl.created = static_cast<uint8_t>(r.next_end - pl.first);
    G::after_place(r, mover, pl);
    refresh(r);
    if constexpr (G::kScoresInPlay) {
      scored<kRecord>(r, mover);
    } else {
      check_end(r, mover, true);
    }
  }
  template <bool kRecord>
  static DOMINOCORE_HOT_INLINE void draw(RoundData& r) noexcept {
    const int mover = r.f.cur;
    if constexpr (kRecord) record(r, Move::draw());
    ++r.n_moves;
    const int t = r.yard[r.yard_top++];
    r.hands[mover].set(t);
    r.f.drawn = static_cast<int16_t>(t);
    check_end(r, mover, false);
  }
  template <bool kRecord>
  static DOMINOCORE_HOT_INLINE void pass(RoundData& r) noexcept {
    const int mover = r.f.cur;
    if constexpr (kRecord) record(r, Move::pass());
    ++r.n_moves;
    r.f.drawn = -1;
    G::after_pass(r, mover);
    check_end(r, mover, false);
  }
  /// The undo record of `m`, before it changes the flow. Written in place:
  /// a Record built aside and copied in is read back as wide words before
  /// its narrow stores have landed, a stall on every move.
  static DOMINOCORE_HOT_INLINE void record(RoundData& r, const Move& m) noexcept {
    Record& rec = r.hist.emplace_back();
    rec.move = m;
    rec.mover = r.f.cur;
    rec.before = r.f;
  }

  /// all_fives.md F5, F8: the placement just made scores for the mover's
  /// side; then the end tests, and the target once they have not ended the round.
  template <bool kRecord>
  static DOMINOCORE_HOT_INLINE void scored(RoundData& r, int mover) noexcept {
    const int points = G::place_points(r);
    if (points) {
      if constexpr (kRecord) r.hist.back().points = static_cast<int16_t>(points);
      r.add_play_points(mover, points);
    }
    check_end(r, mover, true);
    if (points && !r.over && r.rules.end_in_play &&
        r.carried[mover] + r.play_points[mover] >= r.rules.target)
      finish(r, EndReason::Target, -1);
  }

  /// Takes back the last move (there must be one).
  static void undo(RoundData& r) noexcept {
    const Record rec = r.hist.back();
    r.hist.pop_back();
    --r.n_moves;
    r.over = false;
    r.result = RoundResult{};
    switch (rec.move.kind) {
      case MoveKind::Place: {
        const Placement& pl = r.placed[--r.n_placed];
        // The ends it created are the newest, so the last ones of the array.
        for (int k = 0; k < pl.created; ++k) r.remove_end_at(r.n_ends - 1);
        r.next_end = pl.first;
        r.insert_end(pl.end, pl.by);
        r.hands[rec.mover].set(pl.tile);
        if constexpr (G::kScoresInPlay)
          if (rec.points) r.add_play_points(rec.mover, -rec.points);
        break;
      }
      case MoveKind::Draw:
        --r.yard_top;
        r.hands[rec.mover].reset(r.yard[r.yard_top]);
        break;
      case MoveKind::Pass: break;
    }
    r.f = rec.before;
    if (rec.move.kind == MoveKind::Place) refresh(r);
  }

  // ---- the end of a round ----------------------------------------------------

  /// docs/rules.md 1.5: out (the mover placed their last tile), or blocked
  /// (nobody may draw and no hand fits a legal end, every train counted as
  /// open in Mexican Train, M5).
  static DOMINOCORE_HOT_INLINE void check_end(RoundData& r, int mover, bool placed) noexcept {
    if (placed && r.hands[mover].empty()) {
      finish(r, EndReason::Out, mover);
      return;
    }
    if (G::can_draw(r)) return;
    const TileSet m = r.legal_mask;
    for (int s = 0; s < r.players(); ++s)
      if (intersects(r.hands[s], m)) return;
    finish(r, EndReason::Blocked, -1);
  }
  static void finish(RoundData& r, EndReason reason, int out_seat) noexcept {
    r.over = true;
    r.result = RoundResult{};
    r.result.reason = reason;
    r.result.out_seat = out_seat;
    r.result.players = r.players();
    r.result.starter = r.starter;
    r.result.moves = r.n_moves;
    r.result.round_index = r.round_index;
    r.result.last_placer = r.n_placed ? r.placed[r.n_placed - 1].seat : -1;
    if constexpr (G::kScoresInPlay) {
      // all_fives.md F7, F8: the points at the end (none for a round stopped
      // at the target) come on top of the points scored in play.
      if (reason != EndReason::Target) G::score_round(r, r.result);
      r.result.end_points = r.result.points;
      r.result.play_points = r.play_points;
      for (int s = 0; s < r.players(); ++s) r.result.points[s] += r.play_points[s];
    } else {
      G::score_round(r, r.result);
      r.result.end_points = r.result.points;
    }
  }
  /// After the set-up (readings 1 and 11): an empty hand is out (the lowest
  /// such seat), else the blocked test.
  static void finish_set_up(RoundData& r) noexcept {
    for (int s = 0; s < kMaxPlayers; ++s) r.deal_hands[s] = r.hands[s];
    r.yard_base = r.yard_top;
    refresh(r);
    for (int s = 0; s < r.players(); ++s)
      if (r.hands[s].empty()) {
        finish(r, EndReason::Out, s);
        return;
      }
    check_end(r, -1, false);
  }

  // ---- action ids ----------------------------------------------------------------

  static int num_actions(const RoundData& r) noexcept { return G::num_actions(r.rules); }
  /// The id of a legal move.
  static int action_of(const RoundData& r, const Move& m) noexcept {
    const int na = num_actions(r);
    if (m.kind == MoveKind::Draw) return na - 2;
    if (m.kind == MoveKind::Pass) return na - 1;
    return G::action_of(r, m.tile, r.find_end(m.end));
  }
  /// Ascending (the generator's order is canonical: by tile, then end id).
  static void legal_actions(const RoundData& r, std::vector<int>& out) {
    out.clear();
    const int na = num_actions(r);
    for_each_distinct(
        r,
        [&](int t, int i) {
          // Ascending: a tile's ids may come out of order (a tile by both
          // halves in the fixed space; its arms in All Fives' space).
          out.push_back(G::action_of(r, t, i));
          for (size_t j = out.size() - 1; j > 0 && out[j - 1] > out[j]; --j)
            std::swap(out[j - 1], out[j]);
        },
        [&](const Move& m) { out.push_back(m.kind == MoveKind::Draw ? na - 2 : na - 1); });
  }
  /// The distinct legal move an id stands for, if it is legal now.
  static bool action_move(const RoundData& r, int a, Move& out) noexcept {
    if (r.over) return false;
    const int na = num_actions(r);
    if (a == na - 2 || a == na - 1) {
      out = a == na - 2 ? Move::draw() : Move::pass();
      return check(r, out, -1) == Reason::Ok;
    }
    return G::action_move(r, a, out);
  }

  // ---- the simulation loop ---------------------------------------------------

  /// Plays the round to its end: random seats take moves[below(n)] of the
  /// distinct listing from `rng`, greedy seats the greedy move. kRecord as
  /// in apply(): simulate plays without the undo records.
  template <bool kRecord = true>
  static void play_out(RoundData& r, const Policy* policies, Rng& caller_rng) noexcept {
    // The generator in a local, as in Rng::shuffle: through the reference,
    // the round's byte stores might alias its state.
    Rng rng = caller_rng;
    while (!r.over) {
      if (policies[r.f.cur] != Policy::Random) {
        Move other;
        const games::PickedPlace at = greedy_choice(r, other);
        if (at.tile >= 0)
          place<kRecord>(r, at.tile, at.end);
        else
          apply<kRecord>(r, other);
      } else {
        // The k-th move of the distinct listing, found by rank (the game's
        // DistinctPick): one draw of the generator over the listing's count,
        // and no list.
        const typename G::DistinctPick places(r, pool_of(r));
        const int n = places.count();
        Move m;
        const bool other = move_after_places(r, n, m);
        const int k = static_cast<int>(rng.below_unchecked(static_cast<uint64_t>(n + other)));
        if (k < n) {
          const auto at = places.nth(k);
          place<kRecord>(r, at.tile, at.end);
        } else {
          apply<kRecord>(r, m);
        }
      }
    }
    caller_rng = rng;
  }
};

}  // namespace dominocore
