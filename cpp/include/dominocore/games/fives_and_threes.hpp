// Fives and Threes (docs/games/fives_and_threes.md): All Fives with another
// count (its fives and its threes), no spinner by default, 1 point for going
// out and a match to 61 (games/fives_family.hpp holds the rest).
#pragma once

#include <optional>

#include "dominocore/games/fives_family.hpp"

namespace dominocore {
namespace games {

/// T3: a positive count scores c / 5 if 5 divides it, plus c / 3 if 3 does.
struct FivesAndThreesCount {
  static int points_of_count(int c) noexcept {
    if (c <= 0) return 0;
    return (c % 5 == 0 ? c / 5 : 0) + (c % 3 == 0 ? c / 3 : 0);
  }
};

struct FivesAndThrees : FivesFamily<FivesAndThreesCount> {
  static constexpr RulesInfo kRules{
      /*default_set=*/6, /*max_players=*/4,    /*to_target=*/true,
      /*lead=*/false,    /*drawn_tile=*/false, /*teams=*/true,
      /*in_play=*/true};
  /// No spinner, 1 point for going out, a target of 61.
  static void resolve(const RulesSpec& spec, Rules& r) {
    resolve_fives(spec, r, Spinner::None, OutPoints::One, 61);
  }
  /// T1: 9 tiles (2 players) or 7 on double-6, scaled to the set.
  static int default_hand_size(RuleSet, int set, int players) noexcept {
    return (players == 2 ? 9 : 7) * tile_count(set) / 28;
  }
};

}  // namespace games

/// make_rules for Fives and Threes (docs/games/fives_and_threes.md), every
/// option at its default.
Rules fives_and_threes(int players = 2, int set = 6, std::optional<int> hand_size = std::nullopt);

}  // namespace dominocore
