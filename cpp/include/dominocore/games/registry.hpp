// The registry: the one place that maps a Game to its module of hooks. The
// games themselves are listed once, in games/list.hpp; with_game() and
// kGames are generated from that list.
//
// A game's module is a struct of static hooks (games/common.hpp has the
// defaults; those marked * have none, every game gives its own). The hooks,
// by what they decide:
//
//   the rules    kRules* (RulesInfo: default set, most players, the options
//                it takes), resolve(spec, rules)*, default_hand_size(rule
//                set, set, players)*, check_fixed(rules)* (returns the deal's
//                DealRoom), spec_rule_set(spec, game), check_rule_set(rules),
//                after_hand_size(rules), describe_variant(rules),
//                describe_options(rules)
//   set-up       set_up(round, rng, round_index, leader)*, place_centre(round,
//                centre, starter)*, check_deal(rules, deal)*, next_leader(rules,
//                previous result: its last_placer too), setup_searches(rules),
//                setup_highest_double(rules)
//   the layout   double_opens(round, placement)*, single_opens(round,
//                placement), legal_mask(round), seat_mask(round, seat),
//                may_attach(round, tile, end index, seat),
//                for_each_place(round, pool, distinct, emit), DistinctPick
//                (the random pick by rank), train_of(round, id)
//   the turn     after_place(round, mover, placement), after_pass(round,
//                mover), can_draw(round)
//   the result   score_round(round, result)*, kPointsAreCosts*,
//                match_over(rules, tally)*, match_winners(rules, tally)*
//   actions      num_actions(rules)*, action_of(round, tile, end index)*,
//                action_move(round, action, move)* (FixedActionSpace has the
//                2T+2 space of docs/rules.md 1.8)
//   observation  end_open_to(round, end index, seat), observation_planes(rules),
//                write_observation_planes(round, viewer, out)
//
// with_game() switches once on the game and calls f(GameTag<G>{}); callers
// write `with_game(g, [&](auto tag) { using G = DOMINOCORE_GAME(tag); ... })`
// so that everything inside is instantiated per game and inlines.
#pragma once

#include <tuple>

// Every module of games/list.hpp.
#include "dominocore/games/all_fives.hpp"
#include "dominocore/games/block.hpp"
#include "dominocore/games/chickenfoot.hpp"
#include "dominocore/games/doubles.hpp"
#include "dominocore/games/fives_and_threes.hpp"
#include "dominocore/games/mexican_train.hpp"
#include "dominocore/rules.hpp"

namespace dominocore {
namespace games {

template <class G>
struct GameTag {
  using type = G;
};

/// The games of the list, in its order, with their names.
struct GameName {
  Game game;
  const char* name;
};
inline constexpr GameName kGames[] = {
#define DOMINOCORE_GAME_ENTRY(Module, number, name) {Game::Module, name},
    DOMINOCORE_GAMES(DOMINOCORE_GAME_ENTRY)
#undef DOMINOCORE_GAME_ENTRY
};

/// The module of the list's first game: with_game's answer for a value that
/// names no game (Rules::validate refuses one).
#define DOMINOCORE_GAME_MODULE(Module, number, name) Module,
using FirstGame =
    std::tuple_element_t<0, std::tuple<DOMINOCORE_GAMES(DOMINOCORE_GAME_MODULE) void>>;
#undef DOMINOCORE_GAME_MODULE

template <class F>
constexpr decltype(auto) with_game(Game game, F&& f) {
  switch (game) {
#define DOMINOCORE_GAME_CASE(Module, number, name) \
  case Game::Module: return f(GameTag<Module>{});
    DOMINOCORE_GAMES(DOMINOCORE_GAME_CASE)
#undef DOMINOCORE_GAME_CASE
  }
  return f(GameTag<FirstGame>{});  // unreachable: Rules::validate() knows every game
}

}  // namespace games
}  // namespace dominocore

/// Inside a with_game() lambda taking `auto tag`: the game's module.
#define DOMINOCORE_GAME(tag) typename decltype(tag)::type

namespace dominocore {

/// Whether a round's points count against the seat holding them (Chicken
/// Foot, Mexican Train: the lowest total wins) rather than for the seat that
/// scores them (Doubles, Block): the game's kPointsAreCosts.
constexpr bool points_are_costs(Game game) noexcept {
  return games::with_game(game, [](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    return G::kPointsAreCosts;
  });
}

/// Whether placements score during play (All Fives, Fives and Threes:
/// docs/games/all_fives.md F5): the game's kScoresInPlay.
constexpr bool scores_in_play(Game game) noexcept {
  return games::with_game(game, [](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    return G::kScoresInPlay;
  });
}

/// Each seat's round margin (Rules.round_margins in Python): the others'
/// mean points minus its own where points are costs, its own minus the
/// others' mean where they are scores. With teams (docs/games/partnership.md
/// P2) the sides are the teams, seat t holding team t's points: each seat
/// gets its team's margin against the other teams' mean. Writes r.players
/// values to `out`.
inline void round_margins(const Rules& rules, const RoundResult& r, double* out) noexcept {
  const double sign = points_are_costs(rules.game) ? 1 : -1;
  if (rules.teams) {
    const int k = rules.teams;
    double margins[kMaxPlayers];
    double total = 0;
    for (int t = 0; t < k; ++t) total += r.points[static_cast<size_t>(t)];
    for (int t = 0; t < k; ++t) {
      const double own = r.points[static_cast<size_t>(t)];
      margins[t] = sign * ((total - own) / (k - 1) - own);
    }
    for (int s = 0; s < r.players; ++s) out[s] = margins[rules.team_of(s)];
    return;
  }
  double total = 0;
  for (int s = 0; s < r.players; ++s) total += r.points[static_cast<size_t>(s)];
  for (int s = 0; s < r.players; ++s) {
    const double own = r.points[static_cast<size_t>(s)];
    out[s] = sign * ((total - own) / (r.players - 1) - own);
  }
}

}  // namespace dominocore
