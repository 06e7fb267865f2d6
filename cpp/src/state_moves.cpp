// State: the legal moves, the checks of a move and the action ids.
#include <string>

#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

// Every entry point switches once on the game and runs the engine's code
// instantiated for it.
#define DOMINOCORE_WITH_ENGINE(...)               \
  games::with_game(r_.rules.game, [&](auto tag) { \
    using E = Engine<DOMINOCORE_GAME(tag)>;       \
    __VA_ARGS__;                                  \
  })

TileSet State::placeable() const noexcept {
  return DOMINOCORE_WITH_ENGINE(return E::placeable(r_));
}

bool State::has_legal_placement(int seat) const noexcept {
  return DOMINOCORE_WITH_ENGINE(return E::has_legal_placement(r_, seat));
}

void State::legal_moves(std::vector<Move>& out, bool distinct) const {
  DOMINOCORE_WITH_ENGINE(E::legal_moves(r_, out, distinct));
}

std::vector<Move> State::legal_moves(bool distinct) const {
  std::vector<Move> v;
  legal_moves(v, distinct);
  return v;
}

int State::distinct_moves(Move* buf) const noexcept {
  return DOMINOCORE_WITH_ENGINE(return E::distinct(r_, buf));
}

Reason State::check(const Move& m, int player) const noexcept {
  return DOMINOCORE_WITH_ENGINE(return E::check(r_, m, player));
}

// ---- action ids

int State::num_actions() const noexcept {
  return DOMINOCORE_WITH_ENGINE(return E::num_actions(r_));
}

void State::legal_actions(std::vector<int>& out) const {
  DOMINOCORE_WITH_ENGINE(E::legal_actions(r_, out));
}

std::vector<int> State::legal_actions() const {
  std::vector<int> v;
  legal_actions(v);
  return v;
}

std::vector<uint8_t> State::legal_action_mask() const {
  std::vector<uint8_t> mask(static_cast<size_t>(num_actions()), 0);
  std::vector<int> ids;
  legal_actions(ids);
  for (int a : ids) mask[static_cast<size_t>(a)] = 1;
  return mask;
}

Move State::action_to_move(int a) const {
  Move m;
  if (DOMINOCORE_WITH_ENGINE(return E::action_move(r_, a, m))) return m;
  const int na = num_actions();
  std::string what = "action " + std::to_string(a);
  if (a < 0 || a >= na) {
    what += " is outside the action space 0.." + std::to_string(na - 1);
  } else {
    if (a == na - 2)
      what += " (draw)";
    else if (a == na - 1)
      what += " (pass)";
    what += r_.over ? " is not legal: the round is over" : " is not legal now";
  }
  std::vector<int> legal;
  legal_actions(legal);
  std::string list;
  for (size_t k = 0; k < legal.size(); ++k) list += (k ? ", " : "") + std::to_string(legal[k]);
  throw IllegalMove(Reason::IllegalAction, Move::pass(),
                    what + " (docs/rules.md 1.8, mexican_train.md M7). Legal actions: " +
                        (list.empty() ? "none" : list) + ".");
}

int State::move_to_action(const Move& m) const {
  const Reason r = check(m);
  if (r != Reason::Ok) throw IllegalMove(r, m, explain(m, r));
  return DOMINOCORE_WITH_ENGINE(return E::action_of(r_, m));
}

// action_to_move() yields only legal moves (else it throws), so the move needs
// no second check: this is the step interface's fast path.
void State::apply_action(int action, int player) {
  const Move m = action_to_move(action);
  if (player >= 0 && player != r_.f.cur)
    throw IllegalMove(Reason::NotYourTurn, m, explain(m, Reason::NotYourTurn, player));
  push_unchecked(m);
}

}  // namespace dominocore
