// The checks of what a seat knows (search.cpp's state_from_knowledge,
// docs/search.md 4) that need no world. Private to search.cpp and
// search_knowledge.cpp.
#pragma once

#include <string>

#include "dominocore/rules.hpp"
#include "dominocore/search.hpp"

namespace dominocore::detail {

/// Throws StateError("inconsistent seat knowledge: " + why).
[[noreturn]] void bad_knowledge(const std::string& why);

/// The checks of state_from_knowledge that need no world: every field alone
/// and against the others. `k.moves` and the sizes are bounded first, so no
/// loop below runs longer than the set and the history bound allow.
void check_knowledge(const Rules& rules, const SeatKnowledge& k);

}  // namespace dominocore::detail
