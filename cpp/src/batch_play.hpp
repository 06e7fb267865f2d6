// Playing a round to its end without undo records, for the loops that read
// only the result: simulate's rounds (sim.cpp) and the search's rollouts
// (search_tree.cpp). Such a State holds its result and final position but not
// the history of its moves, so it never leaves those loops: nothing takes its
// moves back or reads them, and the next round or world overwrites it whole.
#pragma once

#include "dominocore/players.hpp"
#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

struct detail::BatchPlay {
  /// Plays `s` to its end: seat j by seats[j], the random seats from `rng`.
  static void play_out(State& s, const Policy* seats, Rng& rng) noexcept {
    games::with_game(s.r_.rules.game, [&](auto tag) {
      Engine<DOMINOCORE_GAME(tag)>::template play_out<false>(s.r_, seats, rng);
    });
  }
};

}  // namespace dominocore
