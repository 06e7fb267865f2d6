#include "dominocore/match.hpp"

#include <climits>
#include <string>

namespace dominocore {

bool match_over(const Rules& rules, const std::vector<RoundResult>& results) {
  if (rules.is_chicken_foot()) return static_cast<int>(results.size()) >= rules.set + 1;
  int totals[kMaxPlayers] = {};
  for (const RoundResult& r : results)
    for (int s = 0; s < rules.players; ++s) totals[s] += r.points[s];
  for (int s = 0; s < rules.players; ++s)
    if (totals[s] >= rules.target) return true;
  return false;
}

std::vector<bool> match_winners(const Rules& rules, const std::vector<RoundResult>& results) {
  const int p = rules.players;
  std::vector<bool> win(static_cast<size_t>(p), false);
  if (!match_over(rules, results)) return win;
  int total[kMaxPlayers] = {}, zeros[kMaxPlayers] = {}, low[kMaxPlayers];
  for (int s = 0; s < p; ++s) low[s] = INT_MAX;  // lowest non-zero round score
  for (const RoundResult& r : results)
    for (int s = 0; s < p; ++s) {
      const int v = r.points[s];
      total[s] += v;
      if (v == 0)
        ++zeros[s];
      else if (v < low[s])
        low[s] = v;
    }
  if (rules.is_doubles()) {
    // Only one seat scores per round, so only one can reach the target.
    for (int s = 0; s < p; ++s) win[s] = total[s] >= rules.target;
    return win;
  }
  bool in[kMaxPlayers];
  for (int s = 0; s < p; ++s) in[s] = true;
  // Filter the candidates by each criterion in turn ("better" = smaller key).
  auto keep_best = [&](auto key) {
    long best = LONG_MAX;
    for (int s = 0; s < p; ++s)
      if (in[s] && key(s) < best) best = key(s);
    for (int s = 0; s < p; ++s)
      if (in[s] && key(s) != best) in[s] = false;
  };
  keep_best([&](int s) { return long{total[s]}; });
  keep_best([&](int s) { return -long{zeros[s]}; });
  keep_best([&](int s) { return long{low[s]}; });  // INT_MAX when every round was 0
  for (int s = 0; s < p; ++s) win[s] = in[s];
  return win;
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

State Match::new_round() {
  before_deal_();
  State s(rules_, rng_, next_round_index());
  pending_ = true;
  return s;
}

void Match::new_round(State& into) {
  before_deal_();
  if (into.rules() != rules_) throw StateError("new_round: the state was built with other rules");
  into.set_up(rng_, next_round_index());
  pending_ = true;
}

void Match::add_result(const RoundResult& r) {
  if (!pending_) throw StateError("add_result: no round is waiting for its result");
  if (r.reason == EndReason::None) throw StateError("add_result: the round is not over");
  if (r.round_index != next_round_index() || r.players != rules_.players)
    throw StateError("add_result: the result is not the one of round " +
                     std::to_string(next_round_index()) + " of this match");
  results_.push_back(r);
  for (int s = 0; s < rules_.players; ++s) totals_[s] += r.points[s];
  pending_ = false;
  over_ = match_over(rules_, results_);
}

std::vector<int> Match::totals() const {
  return std::vector<int>(totals_.begin(), totals_.begin() + rules_.players);
}

void Match::play(const std::vector<Policy>& policies) {
  Bots bots(policies, rules_.players, seed_);
  while (!over_) {
    State s = new_round();
    bots.play_out(s);
    add_result(s.result());
  }
}

}  // namespace dominocore
