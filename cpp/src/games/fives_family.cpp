// What the games that score during play share (games/fives_family.hpp):
// their rules hooks, the set-up (docs/games/all_fives.md F1, F2) and the
// points at the end of a round (F7).
#include "dominocore/games/fives_family.hpp"

#include <algorithm>
#include <string>

namespace dominocore {
namespace games {

void resolve_fives(const RulesSpec& spec, Rules& r, Spinner spinner, OutPoints out_points,
                   int target) {
  if (spec.double_blank_50)
    throw RulesError(std::string("option double_blank_50 does not apply to ") + game_name(r.game) +
                     " (0-0 counts 0)");
  r.slots = 1;  // the lead end
  r.drawn_tile = DrawnTile::Must;
  r.double_blank_50 = false;
  r.target = spec.target.value_or(target);
  r.max_rounds = spec.max_rounds.value_or(kDefaultMaxRounds);
  r.reserve = spec.reserve.value_or(-1);  // -1: the default, once the hand size is known
  r.draw = spec.draw.value_or(Draw::UntilPlayable);
  r.spinner = spec.spinner.value_or(spinner);
  r.sides_open = spec.sides_open.value_or(SidesOpen::AfterEnds);
  r.out_points = spec.out_points.value_or(out_points);
  r.end_in_play = spec.end_in_play.value_or(true);
}

DealRoom check_fixed_fives(const Rules& r) {
  if (r.slots != 1 || r.drawn_tile != DrawnTile::Must || r.double_blank_50)
    throw RulesError(std::string(game_name(r.game)) +
                     ": one lead end, a drawn tile that fits must be placed and 0-0 counting 0 "
                     "are fixed");
  if (r.draw != Draw::One && r.draw != Draw::UntilPlayable)
    throw RulesError("unknown draw number " + std::to_string(static_cast<int>(r.draw)));
  if (r.spinner != Spinner::None && r.spinner != Spinner::First)
    throw RulesError("unknown spinner number " + std::to_string(static_cast<int>(r.spinner)));
  if (r.sides_open != SidesOpen::AfterEnds && r.sides_open != SidesOpen::AtOnce)
    throw RulesError("unknown sides_open number " + std::to_string(static_cast<int>(r.sides_open)));
  if (r.out_points != OutPoints::NearestFive && r.out_points != OutPoints::Exact &&
      r.out_points != OutPoints::One)
    throw RulesError("unknown out_points number " + std::to_string(static_cast<int>(r.out_points)));
  if (r.reserve < 0)
    throw RulesError("reserve=" + std::to_string(r.reserve) + " is out of range: it must be >= 0");
  const int undealt = r.tiles() - r.players * r.hand_size;
  if (undealt >= 0 && r.reserve > undealt)
    throw RulesError("reserve=" + std::to_string(r.reserve) + " exceeds the " +
                     std::to_string(undealt) + " tiles left after the deal");
  return DealRoom{};
}

std::string describe_fives(const Rules& r) {
  std::string s = ", reserve " + std::to_string(r.reserve) + ", draw " + draw_name(r.draw) +
                  ", spinner " + spinner_name(r.spinner);
  if (r.spinner == Spinner::First)
    s += std::string(" (sides ") + sides_open_name(r.sides_open) + ")";
  s += std::string(", out points ") + out_points_name(r.out_points);
  if (!r.end_in_play) s += ", rounds played out";
  return s;
}

void set_up_fives(RoundData& r, Rng& rng, int round_index, int leader) {
  const int T = r.tiles, p = r.players();
  uint8_t deck[kMaxTiles];
  for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
  rng.shuffle(deck, static_cast<size_t>(T));
  r.deal_out(deck, T);
  const int starter = leader >= 0 ? leader : round_index % p;
  r.open_root(-1, starter, 1);  // F3: the lead end, id 0, takes any tile
  r.f.cur = static_cast<int8_t>(starter);
}

void check_deal_fives(const Rules& rules, const Deal& deal) {
  if (deal.centre >= 0)
    throw StateError(std::string(game_name(rules.game)) +
                     " has no centre: the leader leads any tile (the centre must be None)");
}

void score_fives(const RoundData& r, RoundResult& res) noexcept {
  const Rules& rules = r.rules;
  const int p = r.players(), k = rules.sides();
  int pips[kMaxPlayers] = {};  // per side
  int all = 0;
  for (int s = 0; s < p; ++s) {
    int h = 0;
    r.hands[s].for_each([&](int t) { h += tile_low(t) + tile_high(t); });
    pips[rules.team_of(s)] += h;
    all += h;
  }
  const int winner = res.out_seat >= 0 ? rules.team_of(res.out_seat) : unique_lowest(pips, k);
  if (winner < 0) return;
  const int score = FivesLayout::out_score(rules, all - pips[winner]);
  for (int s = 0; s < p; ++s)
    if (rules.team_of(s) == winner) res.points[s] = score;
}

}  // namespace games
}  // namespace dominocore
