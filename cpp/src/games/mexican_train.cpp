// Mexican Train's set-up (docs/games/mexican_train.md M1) and its hub.
#include "dominocore/games/mexican_train.hpp"

#include <string>

namespace dominocore {
namespace games {

void MexicanTrain::set_up(RoundData& r, Rng& rng, int round_index, int /*leader*/) {
  const int T = r.tiles, p = r.players();
  const int engine = double_tile(r.rules.set - round_index);
  uint8_t deck[kMaxTiles];
  int n = 0;  // the other T-1 tiles, in index order
  for (int t = 0; t < T; ++t)
    if (t != engine) deck[n++] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(n));
  r.deal_out(deck, n);
  place_centre(r, engine, round_index % p);
}

void MexicanTrain::check_deal(const Rules& rules, const Deal& deal) {
  const int N = rules.set, k = deal.round_index;
  if (deal.centre != double_tile(N - k))
    throw StateError("the engine of Mexican Train round " + std::to_string(k) + " must be " +
                     tile_name(double_tile(N - k)) + ", not " +
                     (deal.centre < 0 ? std::string("none") : tile_name(deal.centre)));
}

void MexicanTrain::place_centre(RoundData& r, int centre, int starter) noexcept {
  r.open_root(centre, starter, r.players() + 1);  // hub end t: train t
  r.f.cur = static_cast<int8_t>(starter);
}

}  // namespace games
}  // namespace dominocore
