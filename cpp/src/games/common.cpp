// The games' shared rules hooks and the shared ways of ending a match
// (games/common.hpp).
#include "dominocore/games/common.hpp"

#include <climits>
#include <string>

namespace dominocore {
namespace games {

// ---- the rules ---------------------------------------------------------------

RuleSet GameBase::spec_rule_set(const RulesSpec& spec, Game game) {
  if (spec.rule_set && *spec.rule_set != RuleSet::None)
    throw RulesError(std::string("option rule_set does not apply to ") + game_name(game));
  if (spec.trains)
    throw RulesError(std::string("option trains does not apply to ") + game_name(game));
  return RuleSet::None;
}

void GameBase::check_rule_set(const Rules& rules) {
  if (rules.rule_set != RuleSet::None)
    throw RulesError(std::string(game_name(rules.game)) + " has no rule_set option");
}

std::string GameBase::describe_options(const Rules& rules) {
  return std::string(", drawn tile ") + drawn_tile_name(rules.drawn_tile) + ", reserve " +
         std::to_string(rules.reserve);
}

void resolve_match_to_target(const RulesSpec& spec, Rules& r) {
  if (spec.double_blank_50)
    throw RulesError(std::string("option double_blank_50 does not apply to ") + game_name(r.game) +
                     " (0-0 counts 0)");
  r.drawn_tile = DrawnTile::Must;
  r.double_blank_50 = false;
  r.target = spec.target.value_or(kDefaultTarget);
  r.max_rounds = spec.max_rounds.value_or(kDefaultMaxRounds);
  r.lead = spec.lead.value_or(Lead::Winner);
}

// ---- ending a match ------------------------------------------------------------

namespace {
// Keeps, among the seats still in, those with the smallest key(seat).
template <class Key>
void keep_best(Winners& in, int players, Key key) {
  long best = LONG_MAX;
  for (int s = 0; s < players; ++s)
    if (in[s] && key(s) < best) best = key(s);
  for (int s = 0; s < players; ++s)
    if (in[s] && key(s) != best) in[s] = false;
}

Winners everyone(int players) {
  Winners in{};
  for (int s = 0; s < players; ++s) in[s] = true;
  return in;
}
}  // namespace

Winners lowest_total_wins(const Rules& rules, const MatchTally& t) noexcept {
  const int p = rules.players;
  Winners in = everyone(p);
  keep_best(in, p, [&](int s) { return long{t.totals[s]}; });
  keep_best(in, p, [&](int s) { return -long{t.zero_rounds[s]}; });
  keep_best(in, p, [&](int s) { return long{t.lowest_nonzero[s]}; });  // INT_MAX: every round 0
  return in;
}

Winners highest_total_wins(const Rules& rules, const MatchTally& t) noexcept {
  const int p = rules.players;
  Winners in = everyone(p);
  keep_best(in, p, [&](int s) { return -long{t.totals[s]}; });
  return in;
}

}  // namespace games
}  // namespace dominocore
