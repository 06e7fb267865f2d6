// Block's rules (docs/games/block.md B1, B6, B8), its set-up (B1, B2) and its lead.
#include "dominocore/games/block.hpp"

#include <string>

namespace dominocore {

Rules block(int players, int set, std::optional<int> hand_size, Lead lead,
            std::optional<int> target, std::optional<int> max_rounds, std::optional<int> teams,
            std::optional<TeamScoring> team_scoring) {
  RulesSpec s;
  s.game = Game::Block;
  s.set = set;
  s.players = players;
  s.hand_size = hand_size;
  s.lead = lead;
  s.target = target;
  s.max_rounds = max_rounds;
  s.teams = teams;
  s.team_scoring = team_scoring;
  return make_rules(s);
}

namespace games {

void Block::resolve(const RulesSpec& spec, Rules& r) {
  resolve_match_to_target(spec, r);
  r.slots = 1;  // the reserve follows from the hand size (after_hand_size)
}

DealRoom Block::check_fixed(const Rules& r) {
  if (r.slots != 1 || r.drawn_tile != DrawnTile::Must || r.double_blank_50 ||
      r.reserve != r.tiles() - r.players * r.hand_size)
    throw RulesError(
        "block: one lead end, no drawing (the reserve is every undealt tile: T - players * "
        "hand_size) and 0-0 counting 0 are fixed");
  return DealRoom{0, "", /*reserve_in_yard=*/false};
}

std::string Block::describe_options(const Rules& r) {
  return ", " + std::to_string(r.reserve) + " tiles out of play, lead " + lead_name(r.lead);
}

void Block::set_up(RoundData& r, Rng& rng, int round_index, int leader) {
  const int T = r.tiles, p = r.players();
  uint8_t deck[kMaxTiles];
  for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(T));
  r.deal_out(deck, T);  // the rest is out of play
  // Under puerto_rico, only a round whose leader no match chose (P4).
  if (r.rules.lead == Lead::HighestDouble || (r.rules.lead == Lead::PuertoRico && leader < 0)) {
    // A public fact of the set-up, also when nobody was dealt a double.
    r.highest_double = true;
    for (int v = r.rules.set; v >= 0; --v) {
      const int d = double_tile(v);
      for (int s = 0; s < p; ++s)
        if (r.hands[s].test(d)) {
          r.hands[s].reset(d);
          place_centre(r, d, s);
          return;
        }
    }
  }
  place_centre(r, -1, leader >= 0 ? leader : round_index % p);
}

void Block::check_deal(const Rules&, const Deal& deal) {
  if (deal.centre >= 0 && !is_double(deal.centre))
    throw StateError("the centre " + tile_name(deal.centre) +
                     " is not a double: Block's set-up only ever places a double (or nothing)");
}

void Block::place_centre(RoundData& r, int centre, int starter) noexcept {
  if (centre < 0) {
    r.open_root(-1, starter, 1);  // the lead end, id 0: any tile
    r.f.cur = static_cast<int8_t>(starter);
  } else {
    r.open_root(centre, starter, 2);  // a led double: ends 0 and 1 of its number
    r.turn_to_next(starter);
  }
}

}  // namespace games
}  // namespace dominocore
