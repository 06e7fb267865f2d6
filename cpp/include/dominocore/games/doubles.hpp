// Doubles (docs/rules.md 3): every double a spinner, numbers locked until
// their double is down, the round's winner scores the other hands, matches
// to a target.
#pragma once

#include <optional>

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

struct Doubles : GameBase, FixedActionSpace {
  // ---- the rules (docs/rules.md 3, 4) -------------------------------------
  static constexpr RulesInfo kRules{
      /*default_set=*/6, /*max_players=*/4,    /*to_target=*/true,
      /*lead=*/false,    /*drawn_tile=*/false, /*teams=*/false};
  static constexpr bool kPointsAreCosts = false;
  /// A 4-sided spinner centre, reserve 2, a match to a target.
  static void resolve(const RulesSpec& spec, Rules& r);
  /// 8 tiles (2 players) or 6 on double-6, scaled to the set.
  static int default_hand_size(RuleSet, int set, int players) noexcept {
    return (players == 2 ? 8 : 6) * tile_count(set) / 28;
  }
  static DealRoom check_fixed(const Rules& r);
  /// The holder of the highest double dealt places it.
  static bool setup_highest_double(const Rules&) noexcept { return true; }

  /// Deal; the holder of the highest double puts it in the centre; redeal
  /// from a fresh shuffle while no hand holds a double. Sets highest_double.
  static void set_up(RoundData& r, Rng& rng, int round_index, int leader);
  /// A hand-built deal: the centre must be a double.
  static void check_deal(const Rules& rules, const Deal& deal);
  /// The centre opens 4 ends and unlocks its number; placing it was the
  /// starter's turn.
  static void place_centre(RoundData& r, int centre, int starter) noexcept;

  /// Unlocked numbers take any tile of theirs; a locked number only its double.
  static TileSet legal_mask(const RoundData& r) noexcept {
    // A double shows a locked number exactly when it is that number's double.
    return numbers_union(r.num_present & r.f.unlocked) |
           (numbers_union(r.num_present & ~r.f.unlocked) & doubles_mask());
  }
  static Reason may_attach(const RoundData& r, int tile, int i, int /*seat*/) noexcept {
    const int v = r.end_num[i];
    if (!shows(tile, v)) return Reason::NoMatch;
    if (!is_double(tile) && !((r.f.unlocked >> v) & 1u)) return Reason::Locked;
    return Reason::Ok;
  }
  using DistinctPick = DistinctByNumber<true>;
  template <class Emit>
  static void for_each_place(const RoundData& r, const TileSet& pool, bool distinct, Emit& emit) {
    places_by_number<true>(r, pool, distinct, emit);
  }
  /// A spinner: three new ends of its number, which it unlocks everywhere.
  static void double_opens(RoundData& r, Placement& pl) noexcept {
    r.f.unlocked |= 1u << pl.by;
    for (int k = 0; k < 3; ++k) r.open_new_end(pl.by);
  }

  static void score_round(const RoundData& r, RoundResult& res) noexcept {
    score_winner_takes_all(r, res);
  }
  static bool match_over(const Rules& rules, const MatchTally& t) noexcept {
    return over_at_target(rules, t);
  }
  static Winners match_winners(const Rules& rules, const MatchTally& t) noexcept {
    return highest_total_wins(rules, t);
  }
};

}  // namespace games

/// make_rules for Doubles (docs/rules.md 3, 4).
Rules doubles(int players, int set = 6, std::optional<int> hand_size = std::nullopt,
              std::optional<int> target = std::nullopt,
              std::optional<int> max_rounds = std::nullopt);

}  // namespace dominocore
