// The registry: the one place that maps a Game to its module of hooks.
//
// A game's module is a struct of static hooks (games/common.hpp has the
// defaults). The hooks, by what they decide:
//
//   set-up       set_up(round, rng, round_index, leader), place_centre(round,
//                centre, starter), check_deal(rules, deal), next_leader(rules,
//                previous result)
//   the layout   double_opens(round, placement), single_opens(round,
//                placement), legal_mask(round), seat_mask(round, seat),
//                may_attach(round, tile, end index, seat),
//                for_each_place(round, pool, distinct, emit), train_of(round, id)
//   the turn     after_place(round, mover, placement), after_pass(round,
//                mover), can_draw(round)
//   the result   score_round(round, result), match_over(rules, tally),
//                match_winners(rules, tally)
//   actions      num_actions(rules), action_of(round, tile, end index),
//                action_move(round, action, move)
//
// with_game() switches once on the game and calls f(GameTag<G>{}); callers
// write `with_game(g, [&](auto tag) { using G = typename decltype(tag)::type; ... })`
// so that everything inside is instantiated per game and inlines.
#pragma once

#include "dominocore/games/block.hpp"
#include "dominocore/games/chickenfoot.hpp"
#include "dominocore/games/doubles.hpp"
#include "dominocore/games/mexican_train.hpp"
#include "dominocore/rules.hpp"

namespace dominocore {
namespace games {

template <class G>
struct GameTag {
  using type = G;
};

template <class F>
decltype(auto) with_game(Game game, F&& f) {
  switch (game) {
    case Game::ChickenFoot: return f(GameTag<ChickenFoot>{});
    case Game::Doubles: return f(GameTag<Doubles>{});
    case Game::Block: return f(GameTag<Block>{});
    case Game::MexicanTrain: return f(GameTag<MexicanTrain>{});
  }
  return f(GameTag<ChickenFoot>{});  // unreachable: Rules::validate() knows every game
}

}  // namespace games
}  // namespace dominocore

/// Inside a with_game() lambda taking `auto tag`: the game's module.
#define DOMINOCORE_GAME(tag) typename decltype(tag)::type
