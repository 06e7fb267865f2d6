// What the games share: the default hooks (GameBase), the fixed action space
// of docs/rules.md 1.8 (FixedActionSpace), the placement generator for games
// whose equal-numbered ends are equivalent, and the two ways of scoring a
// round and of ending a match.
//
// A game is a struct of static hooks (see games/registry.hpp for the list).
// It derives from GameBase and redeclares only the hooks it changes; the
// engine (src/engine.hpp) calls G::hook, so name hiding picks the game's own.
// The engine handles what no game changes: the order of the checks, the
// obligation slice (docs/engine.md 2), draws, undo, the end-of-round tests.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "dominocore/match.hpp"
#include "dominocore/move.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/round_data.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore {
namespace games {

using Winners = std::array<bool, kMaxPlayers>;

/// Whether a half of `tile` shows `number`.
inline bool shows(int tile, int number) noexcept {
  return tile_low(tile) == number || tile_high(tile) == number;
}

/// The tiles that attach to some open end by its number (every end legal).
inline TileSet numbers_mask(const RoundData& r) noexcept { return numbers_union(r.num_present); }

/// Whether the lead end, which takes any tile, is open (Block's, All Fives': before the lead).
inline bool lead_end_open(const RoundData& r) noexcept { return (r.num_present >> kNoNumber) & 1u; }
/// The legal_mask of a line led on a lead end: every tile while it is open.
inline TileSet lead_line_legal_mask(const RoundData& r) noexcept {
  return lead_end_open(r) ? TileSet::full(r.tiles) : numbers_mask(r);
}
/// may_attach of a line led on a lead end: any tile on the lead end, else by number.
inline Reason lead_line_may_attach(const RoundData& r, int tile, int i) noexcept {
  const int v = r.end_num[i];
  return v == kNoNumber || shows(tile, v) ? Reason::Ok : Reason::NoMatch;
}

/// Calls emit(tile, end index) for the placements of `pool` tiles on the
/// legal ends, in canonical order (tile index, then end id = array order),
/// for games where ends of one number are equivalent. `distinct` keeps the
/// lowest end of each (tile, number attached by). With kLocks, a non-double
/// attaches only by an unlocked number (Doubles).
template <bool kLocks, class Emit>
inline void places_by_number(const RoundData& r, const TileSet& pool, bool distinct, Emit& emit) {
  const TileSet cand = pool & r.legal_mask;
  if (cand.empty()) return;
  int b, e;
  r.legal_slice(b, e);
  const uint32_t unlocked = r.f.unlocked;
  if (distinct) {
    int8_t first[kMaxNumbers];  // lowest legal end index per number, -1 none
    std::memset(first, -1, sizeof first);
    for (int i = e - 1; i >= b; --i) first[r.end_num[i]] = static_cast<int8_t>(i);
    cand.for_each([&](int t) {
      const int lo = tile_low(t), hi = tile_high(t);
      int i1 = first[lo], i2 = -1;
      if (hi != lo) {
        i2 = first[hi];
        if (kLocks) {  // a non-double attaches only by an unlocked number
          if (!((unlocked >> lo) & 1u)) i1 = -1;
          if (!((unlocked >> hi) & 1u)) i2 = -1;
        }
      }
      if (i1 >= 0 && i2 >= 0) {
        emit(t, std::min(i1, i2));
        emit(t, std::max(i1, i2));
      } else {
        emit(t, i1 >= 0 ? i1 : i2);  // cand guarantees one of them
      }
    });
  } else {
    cand.for_each([&](int t) {
      const bool dbl = is_double(t);
      for (int i = b; i < e; ++i) {
        const int v = r.end_num[i];
        if (shows(t, v) && (!kLocks || dbl || ((unlocked >> v) & 1u))) emit(t, i);
      }
    });
  }
}

/// A placement a pick by rank found: the tile and the end index.
struct PickedPlace {
  int tile = -1, end = -1;
};

/// The walk of every pick by rank: the tile of `cand` where rank k falls when
/// each tile, in index order, holds width(word, bit) ranks (the tile is
/// 64 * word + bit); k becomes the rank within that tile. -1 past the last.
template <class Width>
inline int tile_at_rank(const TileSet& cand, int& k, const Width& width) noexcept {
  for (int w = 0; w < 3; ++w)
    for (uint64_t x = cand.w[w]; x; x &= x - 1) {  // a hand's few tiles: no count first
      const int bit = detail::ctz64(x);
      const int n = width(w, bit);
      if (k < n) return w * 64 + bit;
      k -= n;
    }
  return -1;
}

/// The distinct placements that places_by_number<kLocks> lists for `pool`,
/// counted and picked by rank without listing them (a game's DistinctPick).
/// A tile lists one placement, or two when it is not a double and both its
/// numbers have a legal end (by the lower end index first); so the count is
/// the tiles plus the tiles with two, which whole-set operations give
/// (measured faster than a look at each tile), and the k-th is found by
/// walking the tiles.
template <bool kLocks>
class DistinctByNumber {
 public:
  DistinctByNumber(const RoundData& r, const TileSet& pool) noexcept
      : cand_(pool & r.legal_mask), unlocked_(r.f.unlocked) {
    int b, e;
    r.legal_slice(b, e);
    std::memset(first_, -1, sizeof first_);
    for (int i = e - 1; i >= b; --i) first_[r.end_num[i]] = static_cast<int8_t>(i);
    // The numbers with a legal end: an obligation's ends share one number;
    // without one, every open end is legal.
    uint32_t open = r.f.obl_left ? 1u << r.end_num[b] : r.num_present;
    if (kLocks) open &= unlocked_;  // a non-double attaches only by an unlocked number
    two_ = minus(cand_ & low_union(open) & high_union(open), doubles_mask());
  }

  int count() const noexcept {
    // More than a quarter of a random round's moves are a Draw or a Pass:
    // two counts of an empty set cost them more than this branch (3% of a
    // simulation).
    if (!cand_.any()) return 0;
    return cand_.count() + two_.count();
  }

  /// The k-th placement in canonical order (0 <= k < count()).
  PickedPlace nth(int k) const noexcept {
    const int tile = tile_at_rank(
        cand_, k, [&](int w, int bit) { return 1 + static_cast<int>((two_.w[w] >> bit) & 1u); });
    return tile < 0 ? PickedPlace{} : PickedPlace{tile, end_of(tile, k)};
  }

 private:
  // The end index of `tile`'s placement `which` (0, or 1 for the second of
  // two), as places_by_number finds it. Its loop keeps its own copy: sharing
  // this (a LowestEnds helper for both) measured 2-3% slower in VectorEnv,
  // whose mask is written through that listing.
  int end_of(int tile, int which) const noexcept {
    const int lo = tile_low(tile), hi = tile_high(tile);
    int i1 = first_[lo], i2 = hi != lo ? first_[hi] : -1;
    if (kLocks && hi != lo) {
      i1 = (unlocked_ >> lo) & 1u ? i1 : -1;
      i2 = (unlocked_ >> hi) & 1u ? i2 : -1;
    }
    // Without branches (they mispredicted about 26 times a round of `trains`):
    // -1, no end, is the largest unsigned, so the lower of the two is the
    // first placement; a second exists only when both ends do.
    const unsigned a = static_cast<unsigned>(i1), b = static_cast<unsigned>(i2);
    return static_cast<int>(which == 0 ? std::min(a, b) : std::max(a, b));
  }

  TileSet cand_, two_;
  uint32_t unlocked_;
  int8_t first_[kMaxNumbers + 1];  // lowest legal end index per number (a lead end's too), -1 none
};

/// The placements that places_by_number lists with `distinct` off (each tile
/// on every legal end of its numbers: the fives family's arms are not
/// equivalent), counted and picked by rank without listing them.
class EveryPlaceByNumber {
 public:
  EveryPlaceByNumber(const RoundData& r, const TileSet& pool) noexcept
      : r_(r), cand_(pool & r.legal_mask) {
    r.legal_slice(b_, e_);
    std::memset(ends_, 0, sizeof ends_);
    for (int i = b_; i < e_; ++i) ++ends_[r.end_num[i]];
  }
  int count() const noexcept {
    if (!cand_.any()) return 0;
    int n = 0;
    for (int i = b_; i < e_; ++i) n += (cand_ & number_mask(r_.end_num[i])).count();
    return n;
  }
  /// The k-th placement in canonical order (0 <= k < count()).
  PickedPlace nth(int k) const noexcept {
    const int tile = tile_at_rank(cand_, k, [&](int w, int bit) {
      const int lo = tile_low(w * 64 + bit), hi = tile_high(w * 64 + bit);
      return ends_[lo] + (hi != lo ? ends_[hi] : 0);
    });
    if (tile >= 0)
      for (int i = b_; i < e_; ++i)
        if (shows(tile, r_.end_num[i]) && k-- == 0) return PickedPlace{tile, i};
    return PickedPlace{};  // k out of range
  }

 private:
  const RoundData& r_;
  TileSet cand_;
  int b_ = 0, e_ = 0;              // the legal ends
  uint8_t ends_[kMaxNumbers + 1];  // legal ends per number (a lead end's too)
};

/// `Pick`, for the games that open with a lead end (Block, the fives
/// family): while it is open it is the only end and takes every tile, so the
/// k-th placement is the k-th tile, on end index 0.
template <class Pick>
class AfterTheLead : public Pick {
 public:
  AfterTheLead(const RoundData& r, const TileSet& pool) noexcept
      : Pick(r, pool), lead_(lead_end_open(r)), leads_(pool & r.legal_mask) {}
  int count() const noexcept { return lead_ ? leads_.count() : Pick::count(); }
  PickedPlace nth(int k) const noexcept {
    if (!lead_) return Pick::nth(k);
    const int tile = tile_at_rank(leads_, k, [](int, int) { return 1; });
    return tile < 0 ? PickedPlace{} : PickedPlace{tile, 0};
  }

 private:
  bool lead_;
  TileSet leads_;
};

/// What make_rules reads of a game before its own hooks: the default and the
/// range of the options every game has, and which other options it takes
/// (make_rules refuses the rest: "option X does not apply to <game>").
struct RulesInfo {
  int default_set;  ///< N of the double-N set when the spec gives none
  int max_players;  ///< the game is for 2..max_players seats
  bool to_target;   ///< a match plays to a target: takes target and max_rounds
  bool lead;        ///< takes lead
  bool drawn_tile;  ///< takes drawn_tile
  bool teams;       ///< takes teams and team_scoring (docs/games/partnership.md)
  /// takes reserve, draw, spinner, sides_open, out_points and end_in_play
  /// (the games that score during play, docs/games/all_fives.md)
  bool in_play = false;
};

/// What a deal may use, for Rules::validate's last check: the set's tiles,
/// less those set aside before the deal, less the yard's reserve where the
/// reserve stays in the yard.
struct DealRoom {
  int aside = 0;                ///< tiles out of the deal (a start double, an engine)
  const char* aside_name = "";  ///< how the message names them: ", less the engine"
  bool reserve_in_yard = true;  ///< false: the reserve is the undealt tiles, out of play
};

/// The hooks every game starts from.
struct GameBase {
  // ---- the rules (src/rules.cpp: make_rules, Rules::validate, describe) --
  // A game also gives, with no default: `static constexpr RulesInfo kRules`,
  // `static constexpr bool kPointsAreCosts` (whether a round's points count
  // against the seat holding them: the lowest total wins), and the hooks
  // resolve(spec, rules) (every field of its options and its fixed ones),
  // default_hand_size(rule set, set, players) and check_fixed(rules) (throws
  // RulesError unless its fixed fields are as resolve sets them; returns the
  // room of the deal).
  /// The spec's rule set: a game without rule sets refuses rule_set (but
  /// None) and trains, and holds None.
  static RuleSet spec_rule_set(const RulesSpec& spec, Game game);
  /// Rules::validate: a game without rule sets holds None.
  static void check_rule_set(const Rules& rules);
  /// The fields that follow from the hand size, once make_rules has it.
  static void after_hand_size(Rules&) noexcept {}
  /// describe(): what follows the game's name (a rule set).
  static std::string describe_variant(const Rules&) { return ""; }
  /// describe(): what follows the hand size: the drawn-tile rule, the reserve.
  static std::string describe_options(const Rules& rules);

  // ---- the set-up's public facts (docs/information.md 2) ------------------
  /// Whether the set-up may search for the round's double, drawing tiles into
  /// the hands (Deal::setup_draws).
  static bool setup_searches(const Rules&) noexcept { return false; }
  /// Whether the set-up may place the highest double dealt as the centre
  /// (Deal::highest_double).
  static bool setup_highest_double(const Rules&) noexcept { return false; }

  // ---- the observation tensor (src/information.cpp) -----------------------
  /// Whether the open end at index i counts among the observation's "legal
  /// ends" for `seat`, the seat to move (the engine has sliced the pending ends).
  static bool end_open_to(const RoundData&, int /*i*/, int /*seat*/) noexcept { return true; }
  /// The floats of the game's own planes, after the shared ones.
  static int observation_planes(const Rules&) noexcept { return 0; }
  /// Writes those planes of `viewer`'s observation to `out` (zeroed before).
  static void write_observation_planes(const RoundData&, int /*viewer*/, float* /*out*/) noexcept {}

  // ---- scoring during play (docs/games/all_fives.md F5, F6, F8) -----------
  // Every engine use of these is behind `if constexpr (G::kScoresInPlay)`, so
  // a game that scores only at the end compiles none of it.
  /// Whether placements score during play. Such a game also gives greedy's
  /// placement (F13), as `static PickedPlace greedy_place(const RoundData&,
  /// const TileSet& cand)`: a tile of `cand` (the mover's placeable tiles)
  /// and an end index.
  static constexpr bool kScoresInPlay = false;
  /// What the placement just made (the last of r.placed) scores for the
  /// placer's side, read from the layout after it.
  static int place_points(const RoundData&) noexcept { return 0; }
  /// Whether a seat whose drawn tile cannot be placed may draw again (F6).
  static bool draws_again(const RoundData&) noexcept { return false; }

  // ---- the round's course ------------------------------------------------

  /// The `leader` a match passes to the round after `previous` (-1: none).
  static int next_leader(const Rules&, const RoundResult&) noexcept { return -1; }
  /// Every tile that attaches to some end for some seat, when no obligation
  /// is pending (the engine handles obligations).
  static TileSet legal_mask(const RoundData& r) noexcept { return numbers_mask(r); }
  /// The tiles `seat` may attach somewhere now (no obligation pending).
  static TileSet seat_mask(const RoundData& r, int /*seat*/) noexcept { return r.legal_mask; }
  /// Whether `tile` may go on the open end at index i for `seat`, once the
  /// engine has checked the obligation: Reason::Ok or why not.
  static Reason may_attach(const RoundData& r, int tile, int i, int /*seat*/) noexcept {
    return shows(tile, r.end_num[i]) ? Reason::Ok : Reason::NoMatch;
  }
  /// What a non-double placed by the number pl.by opens: one end of its other half.
  static void single_opens(RoundData& r, Placement& pl) noexcept {
    r.open_new_end(other_half(pl.tile, pl.by));
  }
  /// What follows a placement: the next seat moves.
  static void after_place(RoundData& r, int mover, const Placement&) noexcept {
    r.turn_to_next(mover);
  }
  /// What follows a Pass: the next seat moves.
  static void after_pass(RoundData& r, int mover) noexcept { r.turn_to_next(mover); }
  /// Whether the yard may be drawn from now (it holds more than the reserve).
  static bool can_draw(const RoundData& r) noexcept { return r.yard_size() > r.rules.reserve; }
  /// The train of an end ever created (Mexican Train); -1 elsewhere.
  static int train_of(const RoundData&, int /*end_id*/) noexcept { return -1; }

  /// emit(tile, end index) for each legal placement of a `pool` tile by the
  /// player to move, in canonical order; `distinct` as in docs/rules.md 1.7.
  /// A game that lists otherwise gives its own DistinctPick too.
  ///
  /// DistinctPick: the random seats' pick (Engine::play_out), which counts
  /// the distinct placements and finds the k-th without listing them: a
  /// class built from (round, pool) with count() and nth(k) (a PickedPlace),
  /// in the listing's order. The C++ self-test compares every rank's pick
  /// with the listing in every position of its sweep.
  using DistinctPick = DistinctByNumber<false>;
  template <class Emit>
  static void for_each_place(const RoundData& r, const TileSet& pool, bool distinct, Emit& emit) {
    places_by_number<false>(r, pool, distinct, emit);
  }
};

/// The fixed action space of docs/rules.md 1.8: tile i by its low half 2i,
/// by its high half 2i+1 (a double: 2i), Draw 2T, Pass 2T+1. An id stands
/// for the distinct placement: the lowest legal end of that number. An end
/// that takes any tile (Block's lead) is reached by the low half, 2i.
struct FixedActionSpace {
  static int num_actions(const Rules& rules) noexcept { return 2 * rules.tiles() + 2; }
  /// The id of placing `tile` on the end at index i.
  static int action_of(const RoundData& r, int tile, int i) noexcept {
    const int v = r.end_num[i];
    return 2 * tile + (v != tile_low(tile) && v != kNoNumber ? 1 : 0);
  }
  /// The placement a Place id stands for, if legal now for the player to move.
  static bool action_move(const RoundData& r, int a, Move& out) noexcept {
    if (a < 0 || a >= 2 * r.tiles) return false;
    const int t = a >> 1, lo = tile_low(t), hi = tile_high(t);
    const bool by_high = (a & 1) != 0;
    if (by_high && lo == hi) return false;
    if (!(r.f.drawn >= 0 ? r.f.drawn == t : r.hands[r.f.cur].test(t))) return false;
    const int v = by_high ? hi : lo;
    if (lo != hi && !((r.f.unlocked >> v) & 1u)) return false;  // Doubles' locks
    int b, e;
    r.legal_slice(b, e);
    for (int i = b; i < e; ++i)
      if (r.end_num[i] == v || (!by_high && r.end_num[i] == kNoNumber)) {
        out = Move::place(t, r.end_id[i]);
        return true;
      }
    return false;
  }
};

/// make_rules for a match to a target (Doubles, Block): drawn tile "must",
/// 0-0 counting 0 (double_blank_50 refused), target, max_rounds and lead from
/// the spec or their defaults.
void resolve_match_to_target(const RulesSpec& spec, Rules& r);

// ---- scoring a round ------------------------------------------------------

/// What `seat`'s hand counts (0-0 as 50 under double_blank_50).
inline int hand_score(const RoundData& r, int seat) noexcept {
  int sum = 0;
  const bool db50 = r.rules.double_blank_50;
  r.hands[seat].for_each([&](int t) { sum += tile_score(t, db50); });
  return sum;
}

/// Every seat scores the pips left in its hand (docs/rules.md 2.4).
inline void score_pips_in_hand(const RoundData& r, RoundResult& res) noexcept {
  for (int s = 0; s < r.players(); ++s) res.points[s] = hand_score(r, s);
}

/// The index of the unique lowest of `n` values, -1 when the lowest is shared.
inline int unique_lowest(const int* values, int n) noexcept {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (values[i] < values[best]) best = i;
  int ties = 0;
  for (int i = 0; i < n; ++i) ties += values[i] == values[best];
  return ties == 1 ? best : -1;
}

/// The winner (out, or the unique lowest pip count when blocked) scores the
/// pips of every other hand; a shared lowest count scores nobody (docs/rules.md
/// 3, block.md B5).
inline void score_winner_takes_all(const RoundData& r, RoundResult& res) noexcept {
  const int p = r.players();
  int pips[kMaxPlayers] = {};
  for (int s = 0; s < p; ++s) pips[s] = hand_score(r, s);
  const int winner = res.reason == EndReason::Blocked ? unique_lowest(pips, p) : res.out_seat;
  if (winner >= 0)
    for (int s = 0; s < p; ++s)
      if (s != winner) res.points[winner] += pips[s];
}

/// A round played in partnerships (docs/games/partnership.md P3): a team's
/// pips are its seats' pips. AllPips: the team of the seat that went out
/// wins, or when blocked the unique fewest team pips, and it scores every pip
/// left; FewerPips: the unique fewest team pips wins, out or blocked, and
/// scores the other teams' pips. Every seat of the winning team holds its
/// score; teams tied for the fewest pips leave the round without a winner.
inline void score_teams(const RoundData& r, RoundResult& res) noexcept {
  const Rules& rules = r.rules;
  const int p = r.players(), k = rules.teams;
  int pips[kMaxPlayers] = {};  // per team
  int all = 0;
  for (int s = 0; s < p; ++s) {
    const int h = hand_score(r, s);
    pips[rules.team_of(s)] += h;
    all += h;
  }
  const bool out_wins = rules.team_scoring == TeamScoring::AllPips && res.out_seat >= 0;
  const int winner = out_wins ? rules.team_of(res.out_seat) : unique_lowest(pips, k);
  if (winner < 0) return;
  const int score = rules.team_scoring == TeamScoring::AllPips ? all : all - pips[winner];
  for (int s = 0; s < p; ++s)
    if (rules.team_of(s) == winner) res.points[s] = score;
}

/// The winner of a round scored by score_winner_takes_all, -1 if nobody won.
/// A blocked round's winner always scores (every other hand counts more
/// than its own, so more than 0).
inline int winner_of(const RoundResult& res) noexcept {
  if (res.out_seat >= 0) return res.out_seat;
  for (int s = 0; s < res.players; ++s)
    if (res.points[s] > 0) return s;
  return -1;
}

// ---- ending a match -------------------------------------------------------

/// N+1 rounds, one per start double (docs/rules.md 2.1).
inline bool over_after_every_double(const Rules& rules, const MatchTally& t) noexcept {
  return t.rounds >= rules.set + 1;
}
/// Lowest total; ties broken by more rounds scored 0, then by the lowest
/// non-zero round score; seats still level share the win (docs/rules.md 2.5).
Winners lowest_total_wins(const Rules& rules, const MatchTally& t) noexcept;

/// Some total reached the target, or max_rounds rounds were played.
inline bool over_at_target(const Rules& rules, const MatchTally& t) noexcept {
  if (t.rounds >= rules.max_rounds) return true;
  return *std::max_element(t.totals.begin(), t.totals.begin() + rules.players) >= rules.target;
}
/// The highest total wins; equal highest totals share the win.
Winners highest_total_wins(const Rules& rules, const MatchTally& t) noexcept;

}  // namespace games
}  // namespace dominocore
