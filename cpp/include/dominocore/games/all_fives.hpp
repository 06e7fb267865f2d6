// All Fives, or Muggins (docs/games/all_fives.md): a placement scores the
// count of the open ends when it is a multiple of 5; the first double is a
// spinner. Everything but its rules' defaults and its count is the family's
// (games/fives_family.hpp).
#pragma once

#include <optional>

#include "dominocore/games/fives_family.hpp"

namespace dominocore {
namespace games {

/// F5: a count that is a positive multiple of 5 scores itself.
struct FivesCount {
  static int points_of_count(int c) noexcept { return c > 0 && c % 5 == 0 ? c : 0; }
};

struct AllFives : FivesFamily<FivesCount> {
  static constexpr RulesInfo kRules{
      /*default_set=*/6, /*max_players=*/4,    /*to_target=*/true,
      /*lead=*/false,    /*drawn_tile=*/false, /*teams=*/true,
      /*in_play=*/true};
  /// The spinner, out points to the nearest five, a target of 150.
  static void resolve(const RulesSpec& spec, Rules& r) {
    resolve_fives(spec, r, Spinner::First, OutPoints::NearestFive, 150);
  }
  /// F1: 7 tiles (2 players) or 5 on double-6, scaled to the set.
  static int default_hand_size(RuleSet, int set, int players) noexcept {
    return (players == 2 ? 7 : 5) * tile_count(set) / 28;
  }
};

}  // namespace games

/// make_rules for All Fives (docs/games/all_fives.md), every option at its default.
Rules all_fives(int players = 2, int set = 6, std::optional<int> hand_size = std::nullopt);

}  // namespace dominocore
