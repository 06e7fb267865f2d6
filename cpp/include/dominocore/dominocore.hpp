// dominocore: the whole public C++ API.
#pragma once

#include "dominocore/games/registry.hpp"  // every game's module, with its make_rules shorthand
#include "dominocore/match.hpp"
#include "dominocore/move.hpp"
#include "dominocore/network.hpp"
#include "dominocore/players.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/sim.hpp"
#include "dominocore/state.hpp"
#include "dominocore/tiles.hpp"
