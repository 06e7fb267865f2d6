// State: playing a move and taking it back.
#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

void State::push(const Move& m, int player) {
  const Reason r = check(m, player);
  if (r != Reason::Ok) throw IllegalMove(r, m, explain(m, r, player));
  push_unchecked(m);
}

void State::push_unchecked(const Move& m) noexcept {
  games::with_game(r_.rules.game, [&](auto tag) { Engine<DOMINOCORE_GAME(tag)>::apply(r_, m); });
}

Move State::pop() {
  if (r_.hist.empty())
    throw IllegalMove(Reason::NoMove, Move::pass(),
                      "no move to take back: the round is at its deal");
  const Move m = r_.hist.back().move;
  games::with_game(r_.rules.game, [&](auto tag) { Engine<DOMINOCORE_GAME(tag)>::undo(r_); });
  return m;
}

}  // namespace dominocore
