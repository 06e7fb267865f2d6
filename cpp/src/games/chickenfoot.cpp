// Chicken Foot's rules and rule sets (docs/rules.md 2, 4), its set-up (2.6,
// 2.7) and its centre.
#include "dominocore/games/chickenfoot.hpp"

#include <algorithm>
#include <string>

namespace dominocore {

// ---- the rule sets' names ------------------------------------------------------

const char* rule_set_name(RuleSet r) noexcept {
  switch (r) {
    case RuleSet::Trains: return "trains";
    case RuleSet::Cross: return "cross";
    default: return "none";
  }
}

RuleSet parse_rule_set(std::string_view s) {
  if (s == "trains") return RuleSet::Trains;
  if (s == "cross") return RuleSet::Cross;
  throw RulesError("unknown rule set '" + std::string(s) + "': expected 'trains' or 'cross'");
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

namespace games {

// ---- the rules -------------------------------------------------------------------

namespace {
std::string str(int v) { return std::to_string(v); }

/// trains: one train per player at least, at most min(8, N).
void check_trains(int trains, int players, int set) {
  const int hi = std::min(8, set);
  if (players > hi)
    throw RulesError("a double-" + str(set) + " set is too small for one train per player with " +
                     str(players) + " players (at most " + str(hi) +
                     " trains: min(8, N)); use a larger set");
  if (trains < players || trains > hi)
    throw RulesError("trains=" + str(trains) + " is out of range: with " + str(players) +
                     " players on a double-" + str(set) + " set it must be " + str(players) + ".." +
                     str(hi) + " (one train per player, at most min(8, N))");
}

const char* const kNeedsRuleSet = "chickenfoot needs rule_set 'trains' or 'cross'";
}  // namespace

void ChickenFoot::resolve(const RulesSpec& spec, Rules& r) {
  if (r.rule_set == RuleSet::None) throw RulesError(kNeedsRuleSet);
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
}

int ChickenFoot::default_hand_size(RuleSet rule_set, int set, int players) noexcept {
  if (rule_set == RuleSet::Cross) return 7;
  static const int table9[9] = {0, 0, 21, 14, 11, 8, 7, 6, 5};  // double-9 table by players
  return table9[players] * (tile_count(set) - 1) / 54;
}

DealRoom ChickenFoot::check_fixed(const Rules& r) {
  if (r.rule_set == RuleSet::Trains) {
    check_trains(r.slots, r.players, r.set);
    if (r.drawn_tile != DrawnTile::Must || r.reserve != (r.players == 2 ? 2 : 1))
      throw RulesError("trains: drawn_tile must be \"must\" and the reserve " +
                       str(r.players == 2 ? 2 : 1) + " with " + str(r.players) + " players");
    return DealRoom{1, ", less the start double"};  // the start double is out of the deal
  }
  if (r.rule_set == RuleSet::Cross) {
    if (r.slots != 4 || r.drawn_tile != DrawnTile::May || r.reserve != 0 || !r.double_blank_50)
      throw RulesError(
          "cross: four arms, drawn_tile \"may\", reserve 0 and double_blank_50 on are fixed");
    return DealRoom{};
  }
  throw RulesError(kNeedsRuleSet);
}

std::string ChickenFoot::describe_variant(const Rules& r) {
  return std::string("/") + rule_set_name(r.rule_set);
}

std::string ChickenFoot::describe_options(const Rules& r) {
  return (r.rule_set == RuleSet::Trains ? ", " + str(r.slots) + " trains" : ", 4 arms") +
         GameBase::describe_options(r);
}

// ---- the set-up --------------------------------------------------------------------

namespace {
// Where Rng::shuffle of the tiles 0..T-1 in index order puts tile d, with the
// same draws: its position followed through the swaps, without the array.
int shuffled_position(Rng& rng, int T, int d) noexcept {
  int pos = d;
  for (int i = T - 1; i >= 1; --i) {
    const int j = static_cast<int>(rng.below_unchecked(static_cast<uint64_t>(i) + 1));
    if (pos == i)
      pos = j;
    else if (pos == j)
      pos = i;
  }
  return pos;
}
}  // namespace

void ChickenFoot::set_up(RoundData& r, Rng& rng, int round_index, int /*leader*/) {
  const int T = r.tiles, p = r.players();
  const int d = double_tile(r.rules.set - round_index);
  uint8_t deck[kMaxTiles];
  if (r.rules.rule_set == RuleSet::Trains) {
    // The whole set is shuffled; seats from (k mod p) draw in turn from the
    // top until the double shows: position pos falls to seat (k + pos) mod p.
    const int starter = (round_index + shuffled_position(rng, T, d)) % p;
    int n = 0;  // the other T-1 tiles, in index order, shuffled and dealt
    for (int t = 0; t < T; ++t)
      if (t != d) deck[n++] = static_cast<uint8_t>(t);
    rng.shuffle(deck, static_cast<size_t>(n));
    r.deal_out(deck, n);
    place_centre(r, d, starter);
    return;
  }
  for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(T));
  r.deal_out(deck, T);
  int holder = -1;
  for (int s = 0; s < p && holder < 0; ++s)
    if (r.hands[s].test(d)) holder = s;
  if (holder < 0) {
    // Nobody holds it: seats from (k mod p) draw one tile each into their
    // hands until someone draws it (set-up, ignores the reserve).
    for (int s = round_index % p;; s = r.next_seat(s)) {
      const int t = r.yard[r.yard_top++];
      r.hands[s].set(t);
      if (t == d) {
        holder = s;
        break;
      }
    }
    // The search is public (docs/information.md 1): its tiles, in order.
    r.n_setup_draws = r.yard_top;
    for (int i = 0; i < r.yard_top; ++i) r.setup_draws[i] = r.yard[i];
  }
  r.hands[holder].reset(d);
  place_centre(r, d, holder);
}

void ChickenFoot::check_deal(const Rules& rules, const Deal& deal) {
  const int N = rules.set, k = deal.round_index;
  if (deal.centre != double_tile(N - k))
    throw StateError("the centre of Chicken Foot round " + std::to_string(k) + " must be " +
                     tile_name(double_tile(N - k)) + ", not " +
                     (deal.centre < 0 ? std::string("none") : tile_name(deal.centre)));
}

void ChickenFoot::place_centre(RoundData& r, int centre, int starter) noexcept {
  const int S = r.rules.slots;
  r.open_root(centre, starter, S);
  r.set_obligation(Pending::Start, 0, S);
  // trains: the starter moves first; cross: placing the centre was their turn.
  if (r.rules.rule_set == RuleSet::Trains)
    r.f.cur = static_cast<int8_t>(starter);
  else
    r.turn_to_next(starter);
}

}  // namespace games
}  // namespace dominocore
