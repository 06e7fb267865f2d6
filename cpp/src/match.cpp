#include "dominocore/match.hpp"

#include "dominocore/games/registry.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace dominocore {

MatchTally::MatchTally() { lowest_nonzero.fill(INT_MAX); }

void MatchTally::add(const RoundResult& r) {
  ++rounds;
  for (int s = 0; s < r.players; ++s) {
    const int v = r.points[s];
    totals[s] += v;
    if (v == 0)
      ++zero_rounds[s];
    else if (v < lowest_nonzero[s])
      lowest_nonzero[s] = v;
  }
}

bool MatchTally::over(const Rules& rules) const noexcept {
  return games::with_game(rules.game,
                          [&](auto tag) { return decltype(tag)::type::match_over(rules, *this); });
}

std::array<bool, kMaxPlayers> MatchTally::winners(const Rules& rules) const noexcept {
  if (!over(rules)) return std::array<bool, kMaxPlayers>{};
  return games::with_game(
      rules.game, [&](auto tag) { return decltype(tag)::type::match_winners(rules, *this); });
}

int next_leader(const Rules& rules, const RoundResult& previous) noexcept {
  return games::with_game(
      rules.game, [&](auto tag) { return decltype(tag)::type::next_leader(rules, previous); });
}

namespace {
MatchTally tally_of(const std::vector<RoundResult>& results) {
  MatchTally t;
  for (const RoundResult& r : results) t.add(r);
  return t;
}
}  // namespace

bool match_over(const Rules& rules, const std::vector<RoundResult>& results) {
  return tally_of(results).over(rules);
}

std::vector<bool> match_winners(const Rules& rules, const std::vector<RoundResult>& results) {
  const std::array<bool, kMaxPlayers> w = tally_of(results).winners(rules);
  return std::vector<bool>(w.begin(), w.begin() + rules.players);
}

Match::Match(const Rules& rules, uint64_t seed) : rules_(rules), seed_(seed), rng_(seed) {
  rules_.validate();
}

void Match::before_deal_() const {
  if (over_) throw StateError("the match is over: no more rounds to deal");
  if (pending_)
    throw StateError("round " + std::to_string(rounds_played()) +
                     " was dealt but has no result yet: add_result() first");
}

std::vector<int> Match::carried_() const {
  // all_fives.md F8: a round knows the match totals before it.
  if (!scores_in_play(rules_.game)) return {};
  return totals();
}

State Match::new_round() {
  before_deal_();
  State s(rules_, rng_, next_round_index(), next_leader_(), carried_());
  pending_ = true;
  return s;
}

void Match::new_round(State& into) {
  before_deal_();
  if (into.rules() != rules_) throw StateError("new_round: the state was built with other rules");
  into.set_up(rng_, next_round_index(), next_leader_(), carried_());
  pending_ = true;
}

void Match::add_result(const RoundResult& r) {
  if (!pending_) throw StateError("add_result: no round is waiting for its result");
  if (r.reason == EndReason::None) throw StateError("add_result: the round is not over");
  if (r.round_index != next_round_index() || r.players != rules_.players)
    throw StateError("add_result: the result is not the one of round " +
                     std::to_string(next_round_index()) + " of this match");
  results_.push_back(r);
  tally_.add(r);
  pending_ = false;
  over_ = tally_.over(rules_);
  if (over_) winners_ = tally_.winners(rules_);
}

int Match::next_leader_() const noexcept {
  return results_.empty() ? -1 : next_leader(rules_, results_.back());
}

std::vector<int> Match::totals() const {
  return std::vector<int>(tally_.totals.begin(), tally_.totals.begin() + rules_.players);
}

std::vector<bool> Match::winners() const {
  return std::vector<bool>(winners_.begin(), winners_.begin() + rules_.players);
}

void Match::play(const std::vector<Policy>& policies) {
  Bots bots(policies, rules_.players, seed_);
  if (bots.learned())
    bots.use_network(network_for(rules_));  // before any round: nothing changes on error
  while (!over_) {
    State s = new_round();
    bots.play_out(s);
    add_result(s.result());
  }
}

}  // namespace dominocore
