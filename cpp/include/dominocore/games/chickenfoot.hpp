// Chicken Foot, both rule sets (docs/rules.md 2): a start double with S
// slots to fill first, doubles that grow a foot of three toes to fill first,
// pips left in hand, N+1 rounds. The rule sets `trains` and `cross` differ by
// Rules data (slots, reserve, drawn-tile rule) and by the set-up.
#pragma once

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

struct ChickenFoot : GameBase, FixedActionSpace {
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
}  // namespace dominocore
