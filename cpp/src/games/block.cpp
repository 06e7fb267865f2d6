// Block's set-up (docs/games/block.md B1, B2) and its lead.
#include "dominocore/games/block.hpp"

#include <string>

namespace dominocore {
namespace games {

void Block::set_up(RoundData& r, Rng& rng, int round_index, int leader) {
  const int T = r.tiles, p = r.players();
  uint8_t deck[kMaxTiles];
  for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(T));
  r.deal_out(deck, T);  // the rest is out of play
  if (r.rules.lead == Lead::HighestDouble) {
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
