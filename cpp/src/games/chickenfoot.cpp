// Chicken Foot's set-up (docs/rules.md 2.6, 2.7) and its centre.
#include "dominocore/games/chickenfoot.hpp"

#include <string>

namespace dominocore {
namespace games {

void ChickenFoot::set_up(RoundData& r, Rng& rng, int round_index, int /*leader*/) {
  const int T = r.tiles, p = r.players();
  const int d = double_tile(r.rules.set - round_index);
  uint8_t deck[kMaxTiles];
  for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(T));
  if (r.rules.rule_set == RuleSet::Trains) {
    // Seats from (k mod p) draw in turn from the top until the double shows:
    // position pos falls to seat (k + pos) mod p.
    int pos = 0;
    while (deck[pos] != d) ++pos;
    const int starter = (round_index + pos) % p;
    int n = 0;  // the other T-1 tiles, in index order, shuffled and dealt
    for (int t = 0; t < T; ++t)
      if (t != d) deck[n++] = static_cast<uint8_t>(t);
    rng.shuffle(deck, static_cast<size_t>(n));
    r.deal_out(deck, n);
    place_centre(r, d, starter);
    return;
  }
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
