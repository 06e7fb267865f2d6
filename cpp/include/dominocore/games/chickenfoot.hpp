// Chicken Foot, both rule sets (docs/rules.md 2): a start double with S
// slots to fill first, doubles that grow a foot of three toes to fill first,
// pips left in hand, N+1 rounds. The rule sets `trains` and `cross` differ by
// Rules data (slots, reserve, drawn-tile rule) and by the set-up.
#pragma once

#include <optional>
#include <string>

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

struct ChickenFoot : GameBase, FixedActionSpace {
  // ---- the rules (docs/rules.md 2, 4): the rule sets trains and cross -----
  static constexpr RulesInfo kRules{
      /*default_set=*/9, /*max_players=*/8,    /*to_target=*/false,
      /*lead=*/false,    /*drawn_tile=*/false, /*teams=*/false};
  static constexpr bool kPointsAreCosts = true;
  /// rule_set (default trains) is Chicken Foot's own option; its None is
  /// refused by resolve, with the rest.
  static RuleSet spec_rule_set(const RulesSpec& spec, Game) noexcept {
    return spec.rule_set.value_or(RuleSet::Trains);
  }
  /// Checked by check_fixed, with the rule set's fixed fields.
  static void check_rule_set(const Rules&) noexcept {}
  /// trains: S slots (the trains option, default players), drawn tile
  /// "must", reserve 2 with 2 players, else 1. cross: four arms, drawn tile
  /// "may", reserve 0, 0-0 scoring 50.
  static void resolve(const RulesSpec& spec, Rules& r);
  /// The double-9 table scaled to the set (trains); 7 (cross).
  static int default_hand_size(RuleSet rule_set, int set, int players) noexcept;
  static DealRoom check_fixed(const Rules& r);
  static std::string describe_variant(const Rules& r);
  static std::string describe_options(const Rules& r);
  /// cross (2.7): seats draw for the round's double when nobody holds it.
  static bool setup_searches(const Rules& r) noexcept { return r.rule_set == RuleSet::Cross; }

  /// trains (2.6): find the starter by drawing for the round's double, then
  /// shuffle the rest again and deal. cross (2.7): deal, and the holder of
  /// the double starts (seats draw for it if nobody holds it; that search
  /// is recorded as the round's setup_draws).
  static void set_up(RoundData& r, Rng& rng, int round_index, int leader);
  /// A hand-built deal: the centre must be the round's double (N-k).
  static void check_deal(const Rules& rules, const Deal& deal);
  /// The centre double opens S slots, all pending; trains: the starter moves
  /// first; cross: placing the centre was the starter's turn.
  static void place_centre(RoundData& r, int centre, int starter) noexcept;

  /// A chicken foot (2.3): three toes of the double's number, all pending.
  static void double_opens(RoundData& r, Placement& pl) noexcept {
    const int pos = r.n_ends;
    for (int k = 0; k < 3; ++k) r.open_new_end(pl.by);
    r.set_obligation(Pending::Foot, pos, 3);
  }

  static void score_round(const RoundData& r, RoundResult& res) noexcept {
    score_pips_in_hand(r, res);
  }
  static bool match_over(const Rules& rules, const MatchTally& t) noexcept {
    return over_after_every_double(rules, t);
  }
  static Winners match_winners(const Rules& rules, const MatchTally& t) noexcept {
    return lowest_total_wins(rules, t);
  }
};

}  // namespace games

/// make_rules for Chicken Foot (docs/rules.md 2, 4).
Rules chicken_foot(int players, int set = 9, RuleSet rule_set = RuleSet::Trains,
                   std::optional<int> hand_size = std::nullopt,
                   std::optional<int> trains = std::nullopt,
                   std::optional<bool> double_blank_50 = std::nullopt);

}  // namespace dominocore
