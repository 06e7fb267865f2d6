// Mexican Train's rules (docs/games/mexican_train.md M1, M8), its set-up and its hub.
#include "dominocore/games/mexican_train.hpp"

#include <algorithm>
#include <string>

namespace dominocore {

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

namespace games {

void MexicanTrain::resolve(const RulesSpec& spec, Rules& r) {
  r.slots = r.players + 1;
  r.drawn_tile = spec.drawn_tile.value_or(DrawnTile::Must);
  r.reserve = 0;
  r.double_blank_50 = spec.double_blank_50.value_or(false);
}

int MexicanTrain::default_hand_size(RuleSet, int set, int players) noexcept {
  const int h12 = players <= 4 ? 15 : players <= 6 ? 12 : 10;
  return std::max(1, h12 * (tile_count(set) - 1) / 90);
}

DealRoom MexicanTrain::check_fixed(const Rules& r) {
  if (r.slots != r.players + 1 || r.reserve != 0)
    throw RulesError("mexican_train: one hub end per train (players + 1) and reserve 0 are fixed");
  return DealRoom{1, ", less the engine"};  // the engine is out of the deal
}

std::string MexicanTrain::describe_options(const Rules& r) {
  return ", " + std::to_string(r.slots) + " trains (one Mexican)" + GameBase::describe_options(r);
}

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
