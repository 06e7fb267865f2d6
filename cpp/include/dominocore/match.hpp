// A match: its rounds, totals and winners (docs/rules.md 2.1, 2.5, 3;
// block.md B6; mexican_train.md M6). What ends a match and who wins it are
// the game's hooks (match_over, match_winners, next_leader).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "dominocore/players.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

/// Per-seat statistics of a match's finished rounds, kept up to date in O(1)
/// per round: everything the end of a match and its winners depend on.
struct MatchTally {
  int rounds = 0;
  std::array<int, kMaxPlayers> totals{};
  std::array<int, kMaxPlayers> zero_rounds{};     ///< rounds scored at 0
  std::array<int, kMaxPlayers> lowest_nonzero{};  ///< lowest non-zero round score, INT_MAX if none

  MatchTally();
  void add(const RoundResult& result);
  /// Chicken Foot, Mexican Train: N+1 rounds played. Doubles, Block: some
  /// total reached the target, or max_rounds rounds were played.
  bool over(const Rules& rules) const noexcept;
  /// Winners of a finished match. Chicken Foot, Mexican Train (docs/rules.md
  /// 2.5): lowest total; ties broken by more rounds scored at 0, then by the
  /// lowest single non-zero round score; seats still tied share the win.
  /// Doubles, Block: the highest total (equal highest totals share the win).
  /// All false while the match is not over.
  std::array<bool, kMaxPlayers> winners(const Rules& rules) const noexcept;
};

/// The seat a match asks to lead the round after `previous` (Block, B2;
/// partnership.md P4, which reads previous.last_placer, the blocker), -1
/// when the game decides alone.
int next_leader(const Rules& rules, const RoundResult& previous) noexcept;

/// match_winners() and match_over() of a whole list of results (each call
/// tallies the list afresh; Match keeps its tally instead).
std::vector<bool> match_winners(const Rules& rules, const std::vector<RoundResult>& results);
bool match_over(const Rules& rules, const std::vector<RoundResult>& results);

/// One generator, seeded with the match seed, deals every round in turn.
/// Use: while (!m.is_over()) { State s = m.new_round(); ...play...;
/// m.add_result(s.result()); }
class Match {
 public:
  Match(const Rules& rules, uint64_t seed);

  const Rules& rules() const noexcept { return rules_; }
  uint64_t seed() const noexcept { return seed_; }
  bool is_over() const noexcept { return over_; }
  int rounds_played() const noexcept { return static_cast<int>(results_.size()); }
  /// Index of the round new_round() deals next (Chicken Foot, Mexican Train:
  /// it starts from the double (N - index); Doubles, Block: it counts rounds).
  int next_round_index() const noexcept { return rounds_played(); }
  /// True between new_round() and add_result().
  bool round_pending() const noexcept { return pending_; }

  /// Deals the next round from the match generator. Throws StateError when
  /// the match is over or the last dealt round has no result yet.
  State new_round();
  /// The same, into an existing State built with these rules (no allocation).
  void new_round(State& into);
  /// Records the result of the round last dealt (checked: round index,
  /// players, finished). Throws StateError.
  void add_result(const RoundResult& result);

  const std::vector<RoundResult>& results() const noexcept { return results_; }
  const MatchTally& tally() const noexcept { return tally_; }
  std::vector<int> totals() const;
  int total(int seat) const { return tally_.totals[seat]; }
  /// See MatchTally::winners(); all false until the match is over.
  std::vector<bool> winners() const;
  bool is_winner(int seat) const { return winners_[seat]; }

  /// Plays every remaining round with built-in players; the random seats share
  /// one generator seeded seed() ^ kRandomPlayXor for the whole match.
  void play(const std::vector<Policy>& policies);

 private:
  void before_deal_() const;
  int next_leader_() const noexcept;
  std::vector<int> carried_() const;
  Rules rules_;
  uint64_t seed_;
  Rng rng_;
  std::vector<RoundResult> results_;
  MatchTally tally_;
  std::array<bool, kMaxPlayers> winners_{};  // set once, when the match ends
  bool pending_ = false;
  bool over_ = false;
};

}  // namespace dominocore
