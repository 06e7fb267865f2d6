// Rules: names, defaults, make_rules and Rules::validate for every game. The
// one place besides games/registry.hpp that names the games one by one.
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

int max_players(Game g) { return g == Game::ChickenFoot || g == Game::MexicanTrain ? 8 : 4; }

void check_players(Game g, int players) {
  const int hi = max_players(g);
  if (players < 2 || players > hi)
    throw RulesError("players=" + str(players) + " is out of range: " + game_name(g) +
                     " is for 2 to " + str(hi) + " players");
}

int trains_max(int set) { return std::min(8, set); }

void check_match_options(int target, int max_rounds) {
  if (target < 1 || target > kMaxTarget)
    throw RulesError("target=" + str(target) + " is out of range: it must be 1.." +
                     str(kMaxTarget));
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
                     " players on a double-" + str(set) + " set it must be " + str(players) + ".." +
                     str(hi) + " (one train per player, at most min(8, N))");
}

void reject(bool given, const char* option, Game g) {
  if (given)
    throw RulesError(std::string("option ") + option + " does not apply to " + game_name(g));
}
}  // namespace

const char* game_name(Game g) noexcept {
  switch (g) {
    case Game::ChickenFoot: return "chickenfoot";
    case Game::Doubles: return "doubles";
    case Game::Block: return "block";
    case Game::MexicanTrain: return "mexican_train";
  }
  return "unknown";
}

const char* rule_set_name(RuleSet r) noexcept {
  switch (r) {
    case RuleSet::Trains: return "trains";
    case RuleSet::Cross: return "cross";
    default: return "none";
  }
}

const char* drawn_tile_name(DrawnTile d) noexcept { return d == DrawnTile::Must ? "must" : "may"; }

const char* lead_name(Lead l) noexcept { return l == Lead::Winner ? "winner" : "highest_double"; }

Game parse_game(std::string_view s) {
  for (Game g : {Game::ChickenFoot, Game::Doubles, Game::Block, Game::MexicanTrain})
    if (s == game_name(g)) return g;
  throw RulesError("unknown game '" + std::string(s) +
                   "': expected 'chickenfoot', 'doubles', 'block' or 'mexican_train'");
}

RuleSet parse_rule_set(std::string_view s) {
  if (s == "trains") return RuleSet::Trains;
  if (s == "cross") return RuleSet::Cross;
  throw RulesError("unknown rule set '" + std::string(s) + "': expected 'trains' or 'cross'");
}

DrawnTile parse_drawn_tile(std::string_view s) {
  if (s == "must") return DrawnTile::Must;
  if (s == "may") return DrawnTile::May;
  throw RulesError("unknown drawn_tile '" + std::string(s) + "': expected 'must' or 'may'");
}

Lead parse_lead(std::string_view s) {
  if (s == "winner") return Lead::Winner;
  if (s == "highest_double") return Lead::HighestDouble;
  throw RulesError("unknown lead '" + std::string(s) + "': expected 'winner' or 'highest_double'");
}

int default_hand_size(Game game, RuleSet rule_set, int set, int players) {
  check_players(game, players);
  const int T = tile_count(set);
  switch (game) {
    case Game::Doubles: return (players == 2 ? 8 : 6) * T / 28;  // docs/rules.md 3
    case Game::Block: return (players == 2 ? 7 : 5) * T / 28;    // block.md B1
    case Game::MexicanTrain: {                                   // mexican_train.md M1
      const int h12 = players <= 4 ? 15 : players <= 6 ? 12 : 10;
      return std::max(1, h12 * (T - 1) / 90);
    }
    case Game::ChickenFoot: break;
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
  const char* less = "";
  const bool match_to_target = game == Game::Doubles || game == Game::Block;
  if (game != Game::ChickenFoot && rule_set != RuleSet::None)
    throw RulesError(std::string(game_name(game)) + " has no rule_set option");
  if (game != Game::Block && lead != Lead::Winner)
    throw RulesError("the lead option applies to block only");
  if (match_to_target) {
    check_match_options(target, max_rounds);
  } else if (target != 0 || max_rounds != 0) {
    throw RulesError("target and max_rounds apply to doubles and block only");
  }
  switch (game) {
    case Game::ChickenFoot:
      if (rule_set == RuleSet::Trains) {
        check_trains(slots, players, set);
        if (drawn_tile != DrawnTile::Must || reserve != (players == 2 ? 2 : 1))
          throw RulesError("trains: drawn_tile must be \"must\" and the reserve " +
                           str(players == 2 ? 2 : 1) + " with " + str(players) + " players");
        deal_room -= 1;  // the start double is out of the deal
        less = ", less the start double";
      } else if (rule_set == RuleSet::Cross) {
        if (slots != 4 || drawn_tile != DrawnTile::May || reserve != 0 || !double_blank_50)
          throw RulesError(
              "cross: four arms, drawn_tile \"may\", reserve 0 and double_blank_50 on are fixed");
      } else {
        throw RulesError("chickenfoot needs rule_set 'trains' or 'cross'");
      }
      break;
    case Game::Doubles:
      if (slots != 4 || drawn_tile != DrawnTile::Must || reserve != 2 || double_blank_50)
        throw RulesError(
            "doubles: a 4-sided spinner centre, drawn_tile \"must\", reserve 2 and 0-0 counting 0 "
            "are fixed");
      break;
    case Game::Block:
      // Every undealt tile is out of play: the reserve is all of them.
      if (slots != 1 || drawn_tile != DrawnTile::Must || double_blank_50 ||
          reserve != T - players * hand_size)
        throw RulesError(
            "block: one lead end, no drawing (the reserve is every undealt tile: T - players * "
            "hand_size) and 0-0 counting 0 are fixed");
      deal_room = T;
      break;
    case Game::MexicanTrain:
      if (slots != players + 1 || reserve != 0)
        throw RulesError(
            "mexican_train: one hub end per train (players + 1) and reserve 0 are fixed");
      deal_room -= 1;  // the engine is out of the deal
      less = ", less the engine";
      break;
  }
  if (hand_size < 1)
    throw RulesError("hand_size=" + str(hand_size) + " is out of range: it must be >= 1");
  if (players * hand_size > deal_room)
    throw RulesError("hand_size=" + str(hand_size) + " does not fit: " + str(players) +
                     " players x " + str(hand_size) + " = " + str(players * hand_size) +
                     " tiles, but a double-" + str(set) + " set deals at most " + str(deal_room) +
                     " (" + str(T) + " tiles" + less + ", less a yard reserve of " +
                     str(game == Game::Block ? 0 : reserve) + ")");
}

Rules make_rules(const RulesSpec& spec) {
  Rules r;
  const Game g = spec.game;
  r.game = g;
  if (!spec.players) throw RulesError("players is required");
  r.set = spec.set.value_or(g == Game::ChickenFoot ? 9 : g == Game::MexicanTrain ? 12 : 6);
  check_set(r.set);
  r.players = *spec.players;
  check_players(g, r.players);
  const bool match_to_target = g == Game::Doubles || g == Game::Block;
  if (g != Game::ChickenFoot) {
    if (spec.rule_set && *spec.rule_set != RuleSet::None) reject(true, "rule_set", g);
    reject(spec.trains.has_value(), "trains", g);
  }
  reject(!match_to_target && spec.target.has_value(), "target", g);
  reject(!match_to_target && spec.max_rounds.has_value(), "max_rounds", g);
  reject(g != Game::Block && spec.lead.has_value(), "lead", g);
  reject(g != Game::MexicanTrain && spec.drawn_tile.has_value(), "drawn_tile", g);
  r.rule_set = RuleSet::None;
  switch (g) {
    case Game::ChickenFoot:
      r.rule_set = spec.rule_set.value_or(RuleSet::Trains);
      if (r.rule_set == RuleSet::None)
        throw RulesError("chickenfoot needs rule_set 'trains' or 'cross'");
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
      break;
    case Game::Doubles:
    case Game::Block:
      if (spec.double_blank_50)
        throw RulesError(std::string("option double_blank_50 does not apply to ") + game_name(g) +
                         " (0-0 counts 0)");
      r.slots = g == Game::Doubles ? 4 : 1;
      r.drawn_tile = DrawnTile::Must;
      r.double_blank_50 = false;
      r.target = spec.target.value_or(kDefaultTarget);
      r.max_rounds = spec.max_rounds.value_or(kDefaultMaxRounds);
      r.lead = spec.lead.value_or(Lead::Winner);
      r.reserve = 2;  // Doubles; Block's is set below, once the hand size is known
      break;
    case Game::MexicanTrain:
      r.slots = r.players + 1;
      r.drawn_tile = spec.drawn_tile.value_or(DrawnTile::Must);
      r.reserve = 0;
      r.double_blank_50 = spec.double_blank_50.value_or(false);
      break;
  }
  r.hand_size =
      spec.hand_size ? *spec.hand_size : default_hand_size(r.game, r.rule_set, r.set, r.players);
  // Block: every undealt tile is out of play (validate() checks the hand fits).
  if (g == Game::Block) r.reserve = r.tiles() - r.players * r.hand_size;
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

Rules block(int players, int set, std::optional<int> hand_size, Lead lead,
            std::optional<int> target, std::optional<int> max_rounds) {
  RulesSpec s;
  s.game = Game::Block;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  s.lead = lead;
  s.target = target;
  s.max_rounds = max_rounds;
  return make_rules(s);
}

Rules mexican_train(int players, int set, std::optional<int> hand_size, DrawnTile drawn_tile,
                    bool double_blank_50) {
  RulesSpec s;
  s.game = Game::MexicanTrain;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  s.drawn_tile = drawn_tile;
  s.double_blank_50 = double_blank_50;
  return make_rules(s);
}

std::string describe(const Rules& r) {
  std::string s = game_name(r.game);
  if (r.game == Game::ChickenFoot) s += std::string("/") + rule_set_name(r.rule_set);
  s += " double-" + str(r.set) + ", " + str(r.players) + " players, hand " + str(r.hand_size);
  switch (r.game) {
    case Game::ChickenFoot:
      s += r.rule_set == RuleSet::Trains ? ", " + str(r.slots) + " trains" : ", 4 arms";
      break;
    case Game::MexicanTrain: s += ", " + str(r.slots) + " trains (one Mexican)"; break;
    default: break;
  }
  if (r.game == Game::Block) {
    s += ", " + str(r.reserve) + " tiles out of play, lead " + lead_name(r.lead);
  } else {
    s += std::string(", drawn tile ") + drawn_tile_name(r.drawn_tile) + ", reserve " +
         str(r.reserve);
  }
  if (r.double_blank_50) s += ", 0-0 scores 50";
  if (r.target) s += ", target " + str(r.target) + ", at most " + str(r.max_rounds) + " rounds";
  return s;
}

}  // namespace dominocore
