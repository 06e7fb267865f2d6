// Block (docs/games/block.md): one line of play with two open ends, no
// drawing (the undealt tiles are out of play), passing when stuck; the
// round's winner scores the other hands; matches to a target. Block may be
// played in partnerships (docs/games/partnership.md): the teams' scoring,
// the lead "puerto_rico" and the teammates plane are here too.
#pragma once

#include <optional>
#include <string>

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

struct Block : GameBase, FixedActionSpace {
  // ---- the rules (block.md B1, B6, B8) ------------------------------------
  static constexpr RulesInfo kRules{
      /*default_set=*/6, /*max_players=*/4,    /*to_target=*/true,
      /*lead=*/true,     /*drawn_tile=*/false, /*teams=*/true};
  static constexpr bool kPointsAreCosts = false;
  /// One lead end, no drawing, a match to a target; lead (and the teams,
  /// which make_rules reads) from the spec.
  static void resolve(const RulesSpec& spec, Rules& r);
  /// B1: 7 tiles (2 players) or 5 on double-6, scaled to the set.
  static int default_hand_size(RuleSet, int set, int players) noexcept {
    return (players == 2 ? 7 : 5) * tile_count(set) / 28;
  }
  /// Every undealt tile is out of play: the reserve is all of them.
  static void after_hand_size(Rules& r) noexcept {
    r.reserve = r.tiles() - r.players * r.hand_size;
  }
  static DealRoom check_fixed(const Rules& r);
  static std::string describe_options(const Rules& r);
  /// Under lead = highest_double (and puerto_rico, when no match chose the
  /// leader) the holder of the highest double leads it.
  static bool setup_highest_double(const Rules&) noexcept { return true; }
  /// With teams, the teammates plane: p entries, a one for every seat on
  /// the viewer's team (docs/games/partnership.md P5).
  static int observation_planes(const Rules& rules) noexcept {
    return rules.teams ? rules.players : 0;
  }
  static void write_observation_planes(const RoundData& r, int viewer, float* o) noexcept {
    const Rules& rules = r.rules;
    if (!rules.teams) return;
    for (int s = 0; s < rules.players; ++s)
      if (rules.team_of(s) == rules.team_of(viewer)) o[s] = 1.0f;
  }

  /// B1, B2: one shuffle and deal, the rest out of play. The leader is the
  /// match's `leader` (or round_index mod p for a round on its own) and
  /// leads on the lead end; under lead = highest_double, and under
  /// puerto_rico when no match chose the leader (partnership.md P4), the
  /// holder of the highest double has it placed for them (and
  /// highest_double is set, whether or not a double was dealt).
  static void set_up(RoundData& r, Rng& rng, int round_index, int leader);
  /// A hand-built deal: no centre, or a double.
  static void check_deal(const Rules& rules, const Deal& deal);
  /// No centre: the lead end, id 0, takes any tile and the starter moves.
  /// A double: it opens ends 0 and 1 of its number and the next seat moves.
  static void place_centre(RoundData& r, int centre, int starter) noexcept;
  /// B2: the winner of the previous round, or the seat after its leader
  /// when nobody won it (with teams: the seat that went out, else the first
  /// seat of the team that scored). Under puerto_rico (partnership.md P4):
  /// the seat that went out; after a block, the blocker (its last placer)
  /// if its team won, the previous leader if no team won, the seat after
  /// the blocker if its team lost.
  static int next_leader(const Rules& rules, const RoundResult& previous) noexcept {
    const int w = winner_of(previous);
    if (rules.lead != Lead::PuertoRico || previous.out_seat >= 0)
      return w >= 0 ? w : (previous.starter + 1) % rules.players;
    const int blocker = previous.last_placer;
    if (w < 0 || blocker < 0) return previous.starter;
    return rules.team_of(blocker) == rules.team_of(w) ? blocker : (blocker + 1) % rules.players;
  }

  /// While the lead end is open, every tile may be led.
  static TileSet legal_mask(const RoundData& r) noexcept { return lead_line_legal_mask(r); }
  static Reason may_attach(const RoundData& r, int tile, int i, int /*seat*/) noexcept {
    return lead_line_may_attach(r, tile, i);
  }
  using DistinctPick = AfterTheLead<DistinctByNumber<false>>;
  template <class Emit>
  static void for_each_place(const RoundData& r, const TileSet& pool, bool distinct, Emit& emit) {
    if (lead_end_open(r)) {  // the lead: the lead end is the only end
      (pool & r.legal_mask).for_each([&](int t) { emit(t, 0); });
      return;
    }
    places_by_number<false>(r, pool, distinct, emit);
  }
  /// B3: the lead opens one end per half (ends 1 and 2); later tiles one end
  /// of their other half.
  static void single_opens(RoundData& r, Placement& pl) noexcept {
    if (pl.by == kNoNumber) {
      r.open_new_end(tile_low(pl.tile));
      r.open_new_end(tile_high(pl.tile));
    } else {
      GameBase::single_opens(r, pl);
    }
  }
  /// Doubles are not spinners: one end of their number (two when led).
  static void double_opens(RoundData& r, Placement& pl) noexcept {
    const int v = tile_low(pl.tile);
    r.open_new_end(v);
    if (pl.by == kNoNumber) r.open_new_end(v);
  }
  /// B4: nobody ever draws.
  static bool can_draw(const RoundData&) noexcept { return false; }

  /// B5; with teams, partnership.md P3.
  static void score_round(const RoundData& r, RoundResult& res) noexcept {
    if (r.rules.teams)
      score_teams(r, res);
    else
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

/// make_rules for Block (docs/games/block.md).
Rules block(int players = 2, int set = 6, std::optional<int> hand_size = std::nullopt,
            Lead lead = Lead::Winner, std::optional<int> target = std::nullopt,
            std::optional<int> max_rounds = std::nullopt, std::optional<int> teams = std::nullopt,
            std::optional<TeamScoring> team_scoring = std::nullopt);

}  // namespace dominocore
