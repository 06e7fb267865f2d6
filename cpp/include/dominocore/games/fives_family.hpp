// The games that score during play (docs/games/all_fives.md; Fives and
// Threes, docs/games/fives_and_threes.md, is the same game with another
// count): a line of play out of a lead that takes any tile, the first double
// a spinner with four arms, drawing until a tile fits, the count of the open
// ends scored after every placement, points for going out, and a match to a
// target that may stop in the middle of a round.
//
// FivesFamily<Count> holds everything; a game derives from it with its own
// rules hooks (kRules, hand sizes, defaults) and its count -> points function
// (Count::points_of_count).
//
// The layout. Each placement remembers the arm it went on in Placement::train
// (the lead: arm 0). The ends a placement opened are consecutive ids: for the
// lead, offset o is arm o (0, 1, then the sides 2, 3 of a spinner led under
// sides_open = "at_once"); for a later placement, offset 0 is its own end (on
// its arm) and offsets 1 and 2 are the spinner's sides (arms 2 and 3). So the
// arm of any end is found from the placement that opened it, and so is what
// it counts (F4): its number, twice that when a double opened it as a line
// end, nothing for a side (a side is open only while nothing is on it).
#pragma once

#include <algorithm>
#include <string>

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

/// What the family shares that needs no game: the layout's arms and count.
struct FivesLayout {
  /// The index in r.placed of the placement that opened end `id` (id >= 1:
  /// end 0 is the lead end, opened by the set-up).
  static int opener(const RoundData& r, int id) noexcept { return opener(r, id, r.n_placed - 1); }
  /// opener() when it is placement `from` or an earlier one.
  static int opener(const RoundData& r, int id, int from) noexcept {
    // Backwards: an open end is on the tip of its arm, opened by one of the
    // last few placements (a binary search costs more here: measured 7%
    // slower in random rounds, its steps a chain of loads).
    while (from > 0 && r.placed[from].first > id) --from;
    return from;
  }
  /// The arm of end `id` (F3).
  static int arm_of(const RoundData& r, int id) noexcept {
    if (id == 0) return 0;  // the lead end: the lead goes on arm 0
    const Placement& pl = r.placed[opener(r, id)];
    const int o = id - pl.first;
    if (pl.by == kNoNumber) return o;
    return o == 0 ? pl.train : o + 1;
  }
  /// What the open end at index i, opened by placement `by`, counts (F4),
  /// before a double led is counted once.
  static int end_count(const RoundData& r, int i, int by) noexcept {
    const int id = r.end_id[i], v = r.end_num[i];
    if (v == kNoNumber) return 0;
    const Placement& pl = r.placed[by];
    const int o = id - pl.first;
    const int line_ends = pl.by == kNoNumber ? 2 : 1;  // the lead opens two
    if (o >= line_ends) return 0;                      // an empty side of the spinner
    return is_double(pl.tile) ? 2 * v : v;
  }
  /// The count of the layout (F4) taken apart by open end: one walk of the
  /// ends, after which the count once a tile is placed on any of them costs
  /// a few operations (greedy compares every placement, F13).
  class Counts {
   public:
    explicit Counts(const RoundData& r) noexcept : r_(r) {
      // One walk back over the placements for every end: the ends are in id
      // order, and a later id is opened by the same placement or a later one.
      int by = r.n_placed - 1;
      for (int i = r.n_ends - 1; i >= 0; --i) {
        by = opener(r, r.end_id[i], by);
        sum_ += each_[i] = end_count(r, i, by);
      }
      // A double counts once however many of its line ends are open (F4):
      // a double led while both are open adds its number twice too much.
      if (r.n_placed > 0 && is_double(r.placed[0].tile)) {
        const Placement& lead = r.placed[0];
        led_a_ = r.find_end(lead.first);
        led_b_ = r.find_end(lead.first + 1);
        led_twice_ = 2 * tile_low(lead.tile);
      }
    }
    /// The count now.
    int now() const noexcept { return sum_ - led_extra(-1); }
    /// The count once `tile` is placed on the open end at index i (not the
    /// lead end), the layout left as it is.
    int after(int tile, int i) const noexcept {
      const int v = r_.end_num[i];
      // Its own end (a double: both halves) replaces end i; the sides it may open count 0.
      const int lo = tile_low(tile), hi = tile_high(tile);
      return sum_ - each_[i] - led_extra(i) + (lo == hi ? 2 * lo : other_half(tile, v));
    }

   private:
    /// What the sum counts too much for a double led, end `covered` about to be covered.
    int led_extra(int covered) const noexcept {
      return led_a_ >= 0 && led_b_ >= 0 && led_a_ != covered && led_b_ != covered ? led_twice_ : 0;
    }
    const RoundData& r_;
    int each_[kMaxEnds];  // end_count by open end index
    int sum_ = 0;
    int led_a_ = -1, led_b_ = -1, led_twice_ = 0;
  };
  /// The count of the layout (F4).
  static int count(const RoundData& r) noexcept { return Counts(r).now(); }
  /// The index in r.placed of the spinner, -1 while none is down (F3).
  static int spinner(const RoundData& r) noexcept { return r.f.spinner; }
  /// Whether the spinner (placement sp) has its sides open: both of its line
  /// ends are covered (after_ends), or it is down (at_once).
  static bool sides_open(const RoundData& r, int sp) noexcept {
    if (r.rules.sides_open == SidesOpen::AtOnce) return true;
    const Placement& s = r.placed[sp];
    if (r.find_end(s.first) >= 0) return false;
    return s.by != kNoNumber || r.find_end(s.first + 1) < 0;
  }
  /// After the placement pl (the last of r.placed) opened its own end, under
  /// sides_open = "after_ends": if it covered the last line end next to the
  /// spinner, the spinner's two sides open (F3).
  static void open_sides_after(RoundData& r, const Placement& pl) noexcept {
    if (r.rules.sides_open != SidesOpen::AfterEnds) return;
    const int sp = spinner(r);
    if (sp < 0) return;
    const Placement& s = r.placed[sp];
    const bool led = s.by == kNoNumber;
    if (pl.end != s.first && !(led && pl.end == s.first + 1)) return;
    if (r.find_end(s.first) >= 0 || (led && r.find_end(s.first + 1) >= 0)) return;
    r.open_new_end(tile_low(s.tile));
    r.open_new_end(tile_low(s.tile));
  }
  /// The pips of the other sides' hands, as `out_points` scores them (F7).
  static int out_score(const Rules& rules, int pips) noexcept {
    switch (rules.out_points) {
      case OutPoints::Exact: return pips;
      case OutPoints::One: return 1;
      case OutPoints::NearestFive: break;
    }
    return (pips + 2) / 5 * 5;
  }
};

void resolve_fives(const RulesSpec& spec, Rules& r, Spinner spinner, OutPoints out_points,
                   int target);
DealRoom check_fixed_fives(const Rules& r);
std::string describe_fives(const Rules& r);
void set_up_fives(RoundData& r, Rng& rng, int round_index, int leader);
void check_deal_fives(const Rules& rules, const Deal& deal);
/// F7: the out seat's side, or the unique fewest pips' side of a blocked
/// round, scores the other sides' pips by out_points (end points only).
void score_fives(const RoundData& r, RoundResult& res) noexcept;

template <class Count>
struct FivesFamily : GameBase, FivesLayout {
  static constexpr bool kPointsAreCosts = false;
  static constexpr bool kScoresInPlay = true;

  /// F1: the reserve's default, 2 or every undealt tile when fewer are left.
  static void after_hand_size(Rules& r) noexcept {
    if (r.reserve < 0) r.reserve = std::max(0, std::min(2, r.tiles() - r.players * r.hand_size));
  }
  static DealRoom check_fixed(const Rules& r) { return check_fixed_fives(r); }
  static std::string describe_options(const Rules& r) { return describe_fives(r); }
  /// F1, F2: one shuffle and deal, the rest the boneyard; the lead end.
  static void set_up(RoundData& r, Rng& rng, int round_index, int leader) {
    set_up_fives(r, rng, round_index, leader);
  }
  static void check_deal(const Rules& rules, const Deal& deal) { check_deal_fives(rules, deal); }
  /// No centre ever: the lead end, id 0, takes any tile and the starter leads.
  static void place_centre(RoundData& r, int /*centre*/, int starter) noexcept {
    r.open_root(-1, starter, 1);
    r.f.cur = static_cast<int8_t>(starter);
  }
  /// F2: the seat that went out, else the first seat that scored at the end
  /// of a blocked round; after a round nobody won, the seat after its leader.
  static int next_leader(const Rules& rules, const RoundResult& previous) noexcept {
    if (previous.out_seat >= 0) return previous.out_seat;
    for (int s = 0; s < previous.players; ++s)
      if (previous.end_points[s] > 0) return s;
    return (previous.starter + 1) % rules.players;
  }

  // ---- the layout (F3) -----------------------------------------------------
  static TileSet legal_mask(const RoundData& r) noexcept { return lead_line_legal_mask(r); }
  static Reason may_attach(const RoundData& r, int tile, int i, int /*seat*/) noexcept {
    return lead_line_may_attach(r, tile, i);
  }
  /// F9: by tile, then by end id; every placement (no end is equivalent to another).
  using DistinctPick = AfterTheLead<EveryPlaceByNumber>;
  template <class Emit>
  static void for_each_place(const RoundData& r, const TileSet& pool, bool /*distinct*/,
                             Emit& emit) {
    if (lead_end_open(r)) {  // the lead: the lead end is the only end
      (pool & r.legal_mask).for_each([&](int t) { emit(t, 0); });
      return;
    }
    places_by_number<false>(r, pool, false, emit);
  }
  static void single_opens(RoundData& r, Placement& pl) noexcept {
    const int lo = tile_low(pl.tile), hi = tile_high(pl.tile);
    if (pl.by == kNoNumber) {  // the lead: arms 0 and 1
      pl.train = 0;
      r.open_new_end(lo);
      r.open_new_end(hi);
      return;
    }
    pl.train = static_cast<int8_t>(arm_of(r, pl.end));
    r.open_new_end(other_half(pl.tile, pl.by));
    open_sides_after(r, pl);
  }
  static void double_opens(RoundData& r, Placement& pl) noexcept {
    const int v = tile_low(pl.tile);
    const bool led = pl.by == kNoNumber;
    pl.train = led ? 0 : static_cast<int8_t>(arm_of(r, pl.end));
    r.open_new_end(v);
    if (led) r.open_new_end(v);
    // F3: the first double placed is the spinner (saved with the flow: undo restores it)
    const bool is_spinner = r.rules.spinner == Spinner::First && r.f.spinner < 0;
    if (is_spinner) {
      r.f.spinner = static_cast<int8_t>(r.n_placed - 1);
      if (r.rules.sides_open == SidesOpen::AtOnce) {
        r.open_new_end(v);
        r.open_new_end(v);
      }
    } else if (!led) {
      open_sides_after(r, pl);
    }
  }
  /// F6: until_playable draws again.
  static bool draws_again(const RoundData& r) noexcept {
    return r.rules.draw == Draw::UntilPlayable;
  }

  // ---- scoring (F4, F5, F7) -------------------------------------------------
  static int place_points(const RoundData& r) noexcept { return Count::points_of_count(count(r)); }
  static void score_round(const RoundData& r, RoundResult& res) noexcept { score_fives(r, res); }
  static bool match_over(const Rules& rules, const MatchTally& t) noexcept {
    return over_at_target(rules, t);
  }
  static Winners match_winners(const Rules& rules, const MatchTally& t) noexcept {
    return highest_total_wins(rules, t);
  }
  /// F13: the most points now, then the tile counting most, then the lowest
  /// tile index, then the lowest end id (the generator's order).
  static PickedPlace greedy_place(const RoundData& r, const TileSet& cand) noexcept {
    if (lead_end_open(r)) {  // the lead: every tile on the lead end, counting its pips
      uint64_t best = 0;
      cand.for_each(
          [&](int t) { best = std::max(best, greedy_key(t, 0, tile_low(t) + tile_high(t))); });
      return from_greedy_key(best);
    }
    // F13's order as one key, so that every placement is compared without a
    // branch and in any order: by end, the tiles that show its number.
    const Counts counts(r);
    uint64_t best = 0;
    int b, e;
    r.legal_slice(b, e);
    for (int i = b; i < e; ++i)
      (cand & number_mask(r.end_num[i])).for_each([&](int t) {
        best = std::max(best, greedy_key(t, i, counts.after(t, i)));
      });
    return from_greedy_key(best);
  }
  /// F13's order of the placement of `tile` on end index i, the count then
  /// `count`: a higher key comes first. Points take the upper half; the
  /// score (at most 36), the tile and the end index a byte each.
  static uint64_t greedy_key(int tile, int i, int count) noexcept {
    static_assert(kMaxTiles <= 256 && kMaxEnds <= 256, "a tile and an end index fit a byte");
    const auto points = static_cast<uint64_t>(Count::points_of_count(count));
    const auto score = static_cast<uint64_t>(tile_low(tile) + tile_high(tile));
    return points << 32 | score << 24 | static_cast<uint64_t>(255 - tile) << 8 |
           static_cast<uint64_t>(255 - i);
  }
  static PickedPlace from_greedy_key(uint64_t key) noexcept {
    return PickedPlace{255 - static_cast<int>((key >> 8) & 255), 255 - static_cast<int>(key & 255)};
  }

  // ---- the observation (F12) ------------------------------------------------
  static int observation_planes(const Rules& rules) noexcept {
    return 2 * rules.players + 2 + (rules.teams ? rules.players : 0);
  }
  static void write_observation_planes(const RoundData& r, int viewer, float* o) noexcept {
    const Rules& rules = r.rules;
    const int p = rules.players;
    // points / target, divided in double and then rounded to float once, as
    // the reference (and numpy) compute it
    const double target = rules.target;
    for (int s = 0; s < p; ++s) {
      o[s] = static_cast<float>(r.play_points[s] / target);
      o[p + s] = static_cast<float>(r.carried[s] / target);
    }
    const int sp = spinner(r);
    if (sp >= 0) {
      o[2 * p] = 1.0f;
      if (sides_open(r, sp)) o[2 * p + 1] = 1.0f;
    }
    if (rules.teams)
      for (int s = 0; s < p; ++s)
        if (rules.team_of(s) == rules.team_of(viewer)) o[2 * p + 2 + s] = 1.0f;
  }

  // ---- F9: tile i on arm k is A*i + k; Draw A*T, Pass A*T + 1 ---------------
  static int arms(const Rules& rules) noexcept { return rules.spinner == Spinner::First ? 4 : 2; }
  static int num_actions(const Rules& rules) noexcept { return arms(rules) * rules.tiles() + 2; }
  static int action_of(const RoundData& r, int tile, int i) noexcept {
    return arms(r.rules) * tile + arm_of(r, r.end_id[i]);
  }
  static bool action_move(const RoundData& r, int a, Move& out) noexcept {
    const int A = arms(r.rules);
    if (a < 0 || a >= A * r.tiles) return false;
    const int t = a / A, arm = a % A;
    if (!(r.f.drawn >= 0 ? r.f.drawn == t : r.hands[r.f.cur].test(t))) return false;
    for (int i = 0; i < r.n_ends; ++i)
      if (arm_of(r, r.end_id[i]) == arm) {
        if (may_attach(r, t, i, r.f.cur) != Reason::Ok) return false;
        out = Move::place(t, r.end_id[i]);
        return true;
      }
    return false;
  }
};

}  // namespace games
}  // namespace dominocore
