// The areas of dominocore._core. Each is bound by its own translation unit,
// bind_<area>.cpp (listed in cpp/CMakeLists.txt); module.cpp calls them in
// the order below. The order matters: a signature names a class by its
// Python name only once the class is bound (RoundCore's _playout names Bots
// before Bots is bound, and always has), and the determinizer, the search and
// the vectorized environment extend or return RoundCore.
#pragma once

#include <pybind11/pybind11.h>

namespace dominocore::bindings {

void bind_rng(pybind11::module_& m);           ///< SplitMix64
void bind_rules(pybind11::module_& m);         ///< CoreRules
void bind_round(pybind11::module_& m);         ///< RoundCore
void bind_players(pybind11::module_& m);       ///< Bots, RandomPlayerCore, _greedy_move
void bind_simulate(pybind11::module_& m);      ///< _simulate
void bind_information(pybind11::module_& m);   ///< the tensors' sizes, _observation_tensors
void bind_determinizer(pybind11::module_& m);  ///< DeterminizerCore, RoundCore._determinizer
void bind_search(pybind11::module_& m);        ///< SearchCache, _search, _state_from_knowledge
void bind_vector_env(pybind11::module_& m);    ///< VectorEnvCore
void bind_match(pybind11::module_& m);         ///< _match_over, _match_winners, _next_leader

}  // namespace dominocore::bindings
