// Doubles' rules (docs/rules.md 3, 4), its set-up and its centre.
#include "dominocore/games/doubles.hpp"

namespace dominocore {

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

namespace games {

void Doubles::resolve(const RulesSpec& spec, Rules& r) {
  resolve_match_to_target(spec, r);
  r.slots = 4;
  r.reserve = 2;
}

DealRoom Doubles::check_fixed(const Rules& r) {
  if (r.slots != 4 || r.drawn_tile != DrawnTile::Must || r.reserve != 2 || r.double_blank_50)
    throw RulesError(
        "doubles: a 4-sided spinner centre, drawn_tile \"must\", reserve 2 and 0-0 counting 0 "
        "are fixed");
  return DealRoom{};
}

void Doubles::set_up(RoundData& r, Rng& rng, int /*round_index*/, int /*leader*/) {
  const int T = r.tiles, p = r.players();
  uint8_t deck[kMaxTiles];
  for (;;) {  // every shuffle starts from index order
    for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
    rng.shuffle(deck, static_cast<size_t>(T));
    r.deal_out(deck, T);
    for (int v = r.rules.set; v >= 0; --v) {
      const int d = double_tile(v);
      for (int s = 0; s < p; ++s)
        if (r.hands[s].test(d)) {
          r.hands[s].reset(d);
          place_centre(r, d, s);
          r.highest_double = true;  // a public fact of the set-up
          return;
        }
    }
  }
}

void Doubles::check_deal(const Rules&, const Deal& deal) {
  if (deal.centre < 0 || !is_double(deal.centre))
    throw StateError("the centre " + (deal.centre < 0
                                          ? std::string("is missing: Doubles needs a centre double")
                                          : tile_name(deal.centre) + " is not a double"));
}

void Doubles::place_centre(RoundData& r, int centre, int starter) noexcept {
  r.open_root(centre, starter, r.rules.slots);
  r.f.unlocked = 1u << tile_low(centre);  // only the centre's number is unlocked
  r.turn_to_next(starter);                // placing the centre was the starter's turn
}

}  // namespace games
}  // namespace dominocore
