// Rules: the games' names, make_rules, Rules::validate and describe. What is
// the same for every game is done here; what a game decides (its defaults,
// ranges, fixed fields and options) is asked of its module through
// games::with_game (the rules hooks of games/common.hpp). The games' names
// come from the one list, games/list.hpp.
#include "dominocore/rules.hpp"

#include <string>
#include <vector>

#include "dominocore/games/registry.hpp"

namespace dominocore {
// The shared code is written against a game's module G, in namespace games
// where the hooks' vocabulary (RulesInfo, DealRoom, kGames) lives.
namespace games {

namespace {
std::string str(int v) { return std::to_string(v); }

void check_game(Game g) {
  for (const GameName& known : kGames)
    if (known.game == g) return;
  throw RulesError("unknown game number " + str(static_cast<int>(g)));
}

void check_set(int set) {
  if (set < kMinSet || set > kMaxSet)
    throw RulesError("set=" + str(set) + " is out of range: a double-N set needs 6 <= N <= 18");
}

void check_players(Game g, int max_players, int players) {
  if (players < 2 || players > max_players)
    throw RulesError("players=" + str(players) + " is out of range: " + game_name(g) +
                     " is for 2 to " + str(max_players) + " players");
}

void check_match_options(int target, int max_rounds) {
  if (target < 1 || target > kMaxTarget)
    throw RulesError("target=" + str(target) + " is out of range: it must be 1.." +
                     str(kMaxTarget));
  if (max_rounds < 1 || max_rounds > kMaxMaxRounds)
    throw RulesError("max_rounds=" + str(max_rounds) + " is out of range: it must be 1.." +
                     str(kMaxMaxRounds));
}

/// docs/games/partnership.md P1: no teams (0), or k teams of two seats or
/// more, k dividing the players; a team scoring other than the default
/// only with teams.
void check_teams(int teams, TeamScoring scoring, int players) {
  if (teams == 0) {
    if (scoring != TeamScoring::AllPips) throw RulesError("team_scoring needs teams");
    return;
  }
  if (teams < 2 || teams > players || players % teams != 0 || players / teams < 2)
    throw RulesError(str(players) + " players cannot sit as " + str(teams) +
                     " teams of two or more partners (the number of teams must divide the "
                     "players, with at least two seats each)");
  if (scoring != TeamScoring::AllPips && scoring != TeamScoring::FewerPips)
    throw RulesError("unknown team_scoring number " + str(static_cast<int>(scoring)));
}

void reject(bool given, const char* option, Game g) {
  if (given)
    throw RulesError(std::string("option ") + option + " does not apply to " + game_name(g));
}

/// "a", "a and b", "a, b and c" (`last`: " and " or " or ").
std::string listed(const std::vector<std::string>& items, const char* last) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? last : ", ";
    s += items[i];
  }
  return s;
}

/// The names of the games whose RulesInfo has `option` set, as a message
/// lists them.
std::string games_taking(bool RulesInfo::* option) {
  std::vector<std::string> names;
  for (const GameName& g : kGames) {
    const bool takes = with_game(g.game, [&](auto tag) {
      using G = DOMINOCORE_GAME(tag);
      return G::kRules.*option;
    });
    if (takes) names.push_back(g.name);
  }
  return listed(names, " and ");
}

template <class G>
void validate_as(const Rules& r) {
  constexpr RulesInfo o = G::kRules;
  check_set(r.set);
  check_players(r.game, o.max_players, r.players);
  const int T = r.tiles();
  G::check_rule_set(r);
  if (!o.lead && r.lead != Lead::Winner)
    throw RulesError("the lead option applies to " + games_taking(&RulesInfo::lead) + " only");
  if (r.lead != Lead::Winner && r.lead != Lead::HighestDouble && r.lead != Lead::PuertoRico)
    throw RulesError("unknown lead number " + str(static_cast<int>(r.lead)));
  if (!o.teams && (r.teams != 0 || r.team_scoring != TeamScoring::AllPips))
    throw RulesError("teams and team_scoring apply to " + games_taking(&RulesInfo::teams) +
                     " only");
  check_teams(r.teams, r.team_scoring, r.players);
  if (r.lead == Lead::PuertoRico && r.teams == 0)
    throw RulesError("lead='puerto_rico' is a partnership rule: it needs teams");
  if (o.to_target) {
    check_match_options(r.target, r.max_rounds);
  } else if (r.target != 0 || r.max_rounds != 0) {
    throw RulesError("target and max_rounds apply to " + games_taking(&RulesInfo::to_target) +
                     " only");
  }
  if (!o.in_play &&
      (r.draw != Draw::One || r.spinner != Spinner::None || r.sides_open != SidesOpen::AfterEnds ||
       r.out_points != OutPoints::NearestFive || r.end_in_play))
    throw RulesError("draw, spinner, sides_open, out_points and end_in_play apply to " +
                     games_taking(&RulesInfo::in_play) + " only");
  const DealRoom room = G::check_fixed(r);
  const int reserve = room.reserve_in_yard ? r.reserve : 0;
  const int deal_room = T - reserve - room.aside;  // leaving the reserve in the yard
  if (r.hand_size < 1)
    throw RulesError("hand_size=" + str(r.hand_size) + " is out of range: it must be >= 1");
  if (r.players * r.hand_size > deal_room)
    throw RulesError("hand_size=" + str(r.hand_size) + " does not fit: " + str(r.players) +
                     " players x " + str(r.hand_size) + " = " + str(r.players * r.hand_size) +
                     " tiles, but a double-" + str(r.set) + " set deals at most " + str(deal_room) +
                     " (" + str(T) + " tiles" + room.aside_name + ", less a yard reserve of " +
                     str(reserve) + ")");
}

template <class G>
Rules make_rules_as(const RulesSpec& spec) {
  constexpr RulesInfo o = G::kRules;
  Rules r;
  const Game g = spec.game;
  r.game = g;
  if (!spec.players) throw RulesError("players is required");
  r.set = spec.set.value_or(o.default_set);
  check_set(r.set);
  r.players = *spec.players;
  check_players(g, o.max_players, r.players);
  r.rule_set = G::spec_rule_set(spec, g);
  reject(!o.to_target && spec.target.has_value(), "target", g);
  reject(!o.to_target && spec.max_rounds.has_value(), "max_rounds", g);
  reject(!o.lead && spec.lead.has_value(), "lead", g);
  reject(!o.drawn_tile && spec.drawn_tile.has_value(), "drawn_tile", g);
  reject(!o.teams && spec.teams.has_value(), "teams", g);
  reject(!o.teams && spec.team_scoring.has_value(), "team_scoring", g);
  reject(!o.in_play && spec.reserve.has_value(), "reserve", g);
  reject(!o.in_play && spec.draw.has_value(), "draw", g);
  reject(!o.in_play && spec.spinner.has_value(), "spinner", g);
  reject(!o.in_play && spec.sides_open.has_value(), "sides_open", g);
  reject(!o.in_play && spec.out_points.has_value(), "out_points", g);
  reject(!o.in_play && spec.end_in_play.has_value(), "end_in_play", g);
  if (o.in_play && spec.team_scoring.has_value())
    throw RulesError(std::string("option team_scoring does not apply to ") + game_name(g) +
                     ": a team scores its seats' points");
  r.teams = spec.teams.value_or(0);
  if (r.teams == 0 && spec.team_scoring.has_value())
    throw RulesError("team_scoring needs teams (the number of teams)");
  r.team_scoring = spec.team_scoring.value_or(TeamScoring::AllPips);
  G::resolve(spec, r);
  r.hand_size =
      spec.hand_size ? *spec.hand_size : G::default_hand_size(r.rule_set, r.set, r.players);
  G::after_hand_size(r);
  r.validate();
  return r;
}
}  // namespace

}  // namespace games

using games::check_game;
using games::check_players;
using games::listed;
using games::str;

const char* game_name(Game g) noexcept {
  for (const auto& known : games::kGames)
    if (known.game == g) return known.name;
  return "unknown";
}

const char* drawn_tile_name(DrawnTile d) noexcept { return d == DrawnTile::Must ? "must" : "may"; }

const char* lead_name(Lead l) noexcept {
  switch (l) {
    case Lead::Winner: return "winner";
    case Lead::HighestDouble: return "highest_double";
    case Lead::PuertoRico: return "puerto_rico";
  }
  return "unknown";
}

const char* team_scoring_name(TeamScoring t) noexcept {
  return t == TeamScoring::AllPips ? "all_pips" : "fewer_pips";
}

const char* draw_name(Draw d) noexcept { return d == Draw::One ? "one" : "until_playable"; }
const char* spinner_name(Spinner s) noexcept { return s == Spinner::First ? "first" : "none"; }
const char* sides_open_name(SidesOpen s) noexcept {
  return s == SidesOpen::AtOnce ? "at_once" : "after_ends";
}
const char* out_points_name(OutPoints o) noexcept {
  switch (o) {
    case OutPoints::NearestFive: return "nearest_five";
    case OutPoints::Exact: return "exact";
    case OutPoints::One: return "one";
  }
  return "unknown";
}

Draw parse_draw(std::string_view s) {
  if (s == "until_playable") return Draw::UntilPlayable;
  if (s == "one") return Draw::One;
  throw RulesError("unknown draw '" + std::string(s) + "': expected 'until_playable' or 'one'");
}

Spinner parse_spinner(std::string_view s) {
  if (s == "first") return Spinner::First;
  if (s == "none") return Spinner::None;
  throw RulesError("unknown spinner '" + std::string(s) + "': expected 'first' or 'none'");
}

SidesOpen parse_sides_open(std::string_view s) {
  if (s == "after_ends") return SidesOpen::AfterEnds;
  if (s == "at_once") return SidesOpen::AtOnce;
  throw RulesError("unknown sides_open '" + std::string(s) +
                   "': expected 'after_ends' or 'at_once'");
}

OutPoints parse_out_points(std::string_view s) {
  if (s == "nearest_five") return OutPoints::NearestFive;
  if (s == "exact") return OutPoints::Exact;
  if (s == "one") return OutPoints::One;
  throw RulesError("unknown out_points '" + std::string(s) +
                   "': expected 'nearest_five', 'exact' or 'one'");
}

Game parse_game(std::string_view s) {
  std::vector<std::string> expected;
  for (const auto& g : games::kGames) {
    if (s == g.name) return g.game;
    expected.push_back(std::string("'") + g.name + "'");
  }
  throw RulesError("unknown game '" + std::string(s) + "': expected " + listed(expected, " or "));
}

DrawnTile parse_drawn_tile(std::string_view s) {
  if (s == "must") return DrawnTile::Must;
  if (s == "may") return DrawnTile::May;
  throw RulesError("unknown drawn_tile '" + std::string(s) + "': expected 'must' or 'may'");
}

Lead parse_lead(std::string_view s) {
  if (s == "winner") return Lead::Winner;
  if (s == "highest_double") return Lead::HighestDouble;
  if (s == "puerto_rico") return Lead::PuertoRico;
  throw RulesError("unknown lead '" + std::string(s) +
                   "': expected 'winner', 'highest_double' or 'puerto_rico'");
}

TeamScoring parse_team_scoring(std::string_view s) {
  if (s == "all_pips") return TeamScoring::AllPips;
  if (s == "fewer_pips") return TeamScoring::FewerPips;
  throw RulesError("unknown team_scoring '" + std::string(s) +
                   "': expected 'all_pips' or 'fewer_pips'");
}

int default_hand_size(Game game, RuleSet rule_set, int set, int players) {
  check_game(game);
  return games::with_game(game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    check_players(game, G::kRules.max_players, players);
    return G::default_hand_size(rule_set, set, players);
  });
}

void Rules::validate() const {
  check_game(game);
  games::with_game(game, [&](auto tag) { games::validate_as<DOMINOCORE_GAME(tag)>(*this); });
}

Rules make_rules(const RulesSpec& spec) {
  check_game(spec.game);
  return games::with_game(
      spec.game, [&](auto tag) { return games::make_rules_as<DOMINOCORE_GAME(tag)>(spec); });
}

std::string describe(const Rules& r) {
  return games::with_game(r.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    std::string s = game_name(r.game) + G::describe_variant(r);
    s += " double-" + str(r.set) + ", " + str(r.players) + " players, hand " + str(r.hand_size);
    s += G::describe_options(r);
    if (r.double_blank_50) s += ", 0-0 scores 50";
    if (r.target) s += ", target " + str(r.target) + ", at most " + str(r.max_rounds) + " rounds";
    if (r.teams)
      s += ", " + str(r.teams) + " teams" +
           (G::kRules.in_play ? std::string()
                              : std::string(" (") + team_scoring_name(r.team_scoring) + ")");
    return s;
  });
}

}  // namespace dominocore
