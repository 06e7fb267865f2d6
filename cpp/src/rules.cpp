#include "dominocore/rules.hpp"

#include <algorithm>
#include <string>

namespace dominocore {

namespace {
std::string str(int v) { return std::to_string(v); }

void check_set(int set) {
  if (set < kMinSet || set > kMaxSet)
    throw RulesError("set=" + str(set) + " is out of range: a double-N set needs 6 <= N <= 18");
}

void check_players(Game g, int players) {
  const int hi = g == Game::ChickenFoot ? 8 : 4;
  if (players < 2 || players > hi)
    throw RulesError("players=" + str(players) + " is out of range: " + game_name(g) +
                     " is for 2 to " + str(hi) + " players");
}

int trains_max(int set) { return std::min(8, set); }

void check_doubles_match(int target, int max_rounds) {
  if (target < 1 || target > kMaxTarget)
    throw RulesError("target=" + str(target) + " is out of range: it must be 1.." + str(kMaxTarget));
  if (max_rounds < 1 || max_rounds > kMaxMaxRounds)
    throw RulesError("max_rounds=" + str(max_rounds) + " is out of range: it must be 1.." +
                     str(kMaxMaxRounds));
}

void check_trains(int trains, int players, int set) {
  const int hi = trains_max(set);
  if (players > hi)
    throw RulesError("a double-" + str(set) + " set is too small for one train per player with " +
                     str(players) + " players (at most " + str(hi) +
                     " trains: min(8, N)); use a larger set");
  if (trains < players || trains > hi)
    throw RulesError("trains=" + str(trains) + " is out of range: with " + str(players) +
                     " players on a double-" + str(set) + " set it must be " + str(players) +
                     ".." + str(hi) + " (one train per player, at most min(8, N))");
}
}  // namespace

const char* game_name(Game g) noexcept { return g == Game::ChickenFoot ? "chickenfoot" : "doubles"; }

const char* rule_set_name(RuleSet r) noexcept {
  switch (r) {
    case RuleSet::Trains: return "trains";
    case RuleSet::Cross: return "cross";
    default: return "none";
  }
}

const char* drawn_tile_name(DrawnTile d) noexcept { return d == DrawnTile::Must ? "must" : "may"; }

Game parse_game(std::string_view s) {
  if (s == "chickenfoot") return Game::ChickenFoot;
  if (s == "doubles") return Game::Doubles;
  throw RulesError("unknown game '" + std::string(s) + "': expected 'chickenfoot' or 'doubles'");
}

RuleSet parse_rule_set(std::string_view s) {
  if (s == "trains") return RuleSet::Trains;
  if (s == "cross") return RuleSet::Cross;
  throw RulesError("unknown rule set '" + std::string(s) + "': expected 'trains' or 'cross'");
}

int default_hand_size(Game game, RuleSet rule_set, int set, int players) {
  check_players(game, players);
  const int T = tile_count(set);
  if (game == Game::Doubles) {
    const int h6 = players == 2 ? 8 : 6;  // double-6 table
    return h6 * T / 28;
  }
  if (rule_set == RuleSet::Cross) return 7;
  static const int table9[9] = {0, 0, 21, 14, 11, 8, 7, 6, 5};  // double-9 table by players
  return table9[players] * (T - 1) / 54;
}

void Rules::validate() const {
  check_set(set);
  check_players(game, players);
  const int T = tiles();
  int deal_room = T - reserve;  // tiles the deal may use, leaving the reserve in the yard
  if (game == Game::ChickenFoot) {
    if (rule_set == RuleSet::Trains) {
      check_trains(slots, players, set);
      if (drawn_tile != DrawnTile::Must || reserve != (players == 2 ? 2 : 1))
        throw RulesError("trains: drawn_tile must be \"must\" and the reserve " +
                         str(players == 2 ? 2 : 1) + " with " + str(players) + " players");
      deal_room -= 1;  // the start double is out of the deal
    } else if (rule_set == RuleSet::Cross) {
      if (slots != 4 || drawn_tile != DrawnTile::May || reserve != 0 || !double_blank_50)
        throw RulesError("cross: four arms, drawn_tile \"may\", reserve 0 and double_blank_50 on "
                         "are fixed");
    } else {
      throw RulesError("chickenfoot needs rule_set 'trains' or 'cross'");
    }
    if (target != 0 || max_rounds != 0)
      throw RulesError("target and max_rounds apply to doubles only");
  } else {
    if (rule_set != RuleSet::None) throw RulesError("doubles has no rule_set option");
    if (slots != 4 || drawn_tile != DrawnTile::Must || reserve != 2 || double_blank_50)
      throw RulesError("doubles: a 4-sided spinner centre, drawn_tile \"must\", reserve 2 and "
                       "0-0 counting 0 are fixed");
    check_doubles_match(target, max_rounds);
  }
  if (hand_size < 1)
    throw RulesError("hand_size=" + str(hand_size) + " is out of range: it must be >= 1");
  if (players * hand_size > deal_room)
    throw RulesError("hand_size=" + str(hand_size) + " does not fit: " + str(players) +
                     " players x " + str(hand_size) + " = " + str(players * hand_size) +
                     " tiles, but a double-" + str(set) + " set deals at most " + str(deal_room) +
                     " (" + str(T) + " tiles" +
                     (game == Game::ChickenFoot && rule_set == RuleSet::Trains
                          ? ", less the start double"
                          : "") +
                     ", less a yard reserve of " + str(reserve) + ")");
}

Rules make_rules(const RulesSpec& spec) {
  Rules r;
  r.game = spec.game;
  if (!spec.players) throw RulesError("players is required");
  const bool cf = spec.game == Game::ChickenFoot;
  r.set = spec.set.value_or(cf ? 9 : 6);
  check_set(r.set);
  r.players = *spec.players;
  check_players(r.game, r.players);
  if (cf) {
    r.rule_set = spec.rule_set.value_or(RuleSet::Trains);
    if (r.rule_set == RuleSet::None)
      throw RulesError("chickenfoot needs rule_set 'trains' or 'cross'");
    if (spec.target) throw RulesError("option target applies to doubles only");
    if (spec.max_rounds) throw RulesError("option max_rounds applies to doubles only");
    if (r.rule_set == RuleSet::Trains) {
      r.slots = spec.trains.value_or(r.players);
      check_trains(r.slots, r.players, r.set);
      r.drawn_tile = DrawnTile::Must;
      r.reserve = r.players == 2 ? 2 : 1;
      r.double_blank_50 = spec.double_blank_50.value_or(false);
    } else {
      if (spec.trains)
        throw RulesError("option trains does not apply to the cross: its four arms are fixed");
      if (spec.double_blank_50 && !*spec.double_blank_50)
        throw RulesError("double_blank_50 is always on in the cross; it cannot be turned off");
      r.slots = 4;
      r.drawn_tile = DrawnTile::May;
      r.reserve = 0;
      r.double_blank_50 = true;
    }
  } else {
    if (spec.rule_set && *spec.rule_set != RuleSet::None)
      throw RulesError("option rule_set does not apply to doubles");
    if (spec.trains) throw RulesError("option trains does not apply to doubles");
    if (spec.double_blank_50)
      throw RulesError("option double_blank_50 does not apply to doubles (0-0 counts 0)");
    r.rule_set = RuleSet::None;
    r.slots = 4;
    r.drawn_tile = DrawnTile::Must;
    r.reserve = 2;
    r.double_blank_50 = false;
    r.target = spec.target.value_or(kDefaultTarget);
    r.max_rounds = spec.max_rounds.value_or(kDefaultMaxRounds);
    check_doubles_match(r.target, r.max_rounds);
  }
  r.hand_size = spec.hand_size ? *spec.hand_size
                               : default_hand_size(r.game, r.rule_set, r.set, r.players);
  r.validate();
  return r;
}

Rules chicken_foot(int players, int set, RuleSet rule_set, std::optional<int> hand_size,
                   std::optional<int> trains, std::optional<bool> double_blank_50) {
  RulesSpec s;
  s.game = Game::ChickenFoot;
  s.rule_set = rule_set;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  s.trains = trains;
  s.double_blank_50 = double_blank_50;
  return make_rules(s);
}

Rules doubles(int players, int set, std::optional<int> hand_size, std::optional<int> target,
              std::optional<int> max_rounds) {
  RulesSpec s;
  s.game = Game::Doubles;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  s.target = target;
  s.max_rounds = max_rounds;
  return make_rules(s);
}

std::string describe(const Rules& r) {
  std::string s = game_name(r.game);
  if (r.game == Game::ChickenFoot) s += std::string("/") + rule_set_name(r.rule_set);
  s += " double-" + str(r.set) + ", " + str(r.players) + " players, hand " + str(r.hand_size);
  if (r.game == Game::ChickenFoot)
    s += r.rule_set == RuleSet::Trains ? ", " + str(r.slots) + " trains" : ", 4 arms";
  s += std::string(", drawn tile ") + drawn_tile_name(r.drawn_tile) + ", reserve " + str(r.reserve);
  if (r.double_blank_50) s += ", 0-0 scores 50";
  if (r.game == Game::Doubles)
    s += ", target " + str(r.target) + ", at most " + str(r.max_rounds) + " rounds";
  return s;
}

}  // namespace dominocore
