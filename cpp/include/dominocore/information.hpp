// What each seat may know (docs/information.md 3): information states, their
// hash, and the information-state and observation tensors.
//
// Every function takes a seat 0..p-1 (the caller checks it) and reads the
// state only. None allocates but information_state(), which builds its string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

/// The perfect-recall information state of `seat`, in the format of
/// docs/information.md 3: equal for two states of the same rules exactly when
/// the seat cannot tell them apart.
std::string information_state(const State& state, int seat);
/// The 64-bit FNV-1a hash of information_state(state, seat)'s bytes, computed
/// without building the string.
uint64_t information_state_hash(const State& state, int seat);

/// L, the most moves a round of `rules` can hold (docs/information.md 3):
/// T + 2Y + 2p(T + 1), with Y = T - p bounding the yard after any set-up.
int information_state_history_bound(const Rules& rules);
/// Length of the information-state tensor: 3p + (T + 1) + 2T + 32 + L (p + T + 13)
/// (the 32: highest_double and the round index's 31 bits).
int information_state_tensor_size(const Rules& rules);
/// Writes every entry (zeros included) of `seat`'s information-state tensor
/// to out[0 .. information_state_tensor_size(rules)). Throws StateError if
/// the history is longer than the bound L (never for a round of the engine).
void information_state_tensor(const State& state, int seat, float* out);

/// Length of the observation tensor (docs/information.md 3, its planes in order).
int observation_tensor_size(const Rules& rules);
/// Writes every entry of `seat`'s observation tensor to out[0 .. observation_tensor_size(rules)).
void observation_tensor(const State& state, int seat, float* out) noexcept;
/// observation_tensor(*states[i], seats[i], out + i * size) for i < count,
/// where every state has the rules of states[0] (the caller checks it).
void observation_tensors(const State* const* states, const int* seats, size_t count,
                         float* out) noexcept;
/// Brings `out`, an observation tensor of `state` before its last move (of
/// any seat), to `seat`'s tensor now, for a round that only moves forward
/// (there is a last move): it writes only what a move may change, from the
/// move's undo record. The layout gains the tile placed, the mover's hand
/// size changes by one; the small planes and the hand are written whole.
void observation_tensor_after_move(const State& state, int seat, float* out) noexcept;

}  // namespace dominocore
