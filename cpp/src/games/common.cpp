// The shared ways of ending a match (games/common.hpp).
#include "dominocore/games/common.hpp"

#include <climits>

namespace dominocore {
namespace games {

namespace {
// Keeps, among the seats still in, those with the smallest key(seat).
template <class Key>
void keep_best(Winners& in, int players, Key key) {
  long best = LONG_MAX;
  for (int s = 0; s < players; ++s)
    if (in[s] && key(s) < best) best = key(s);
  for (int s = 0; s < players; ++s)
    if (in[s] && key(s) != best) in[s] = false;
}

Winners everyone(int players) {
  Winners in{};
  for (int s = 0; s < players; ++s) in[s] = true;
  return in;
}
}  // namespace

Winners lowest_total_wins(const Rules& rules, const MatchTally& t) noexcept {
  const int p = rules.players;
  Winners in = everyone(p);
  keep_best(in, p, [&](int s) { return long{t.totals[s]}; });
  keep_best(in, p, [&](int s) { return -long{t.zero_rounds[s]}; });
  keep_best(in, p, [&](int s) { return long{t.lowest_nonzero[s]}; });  // INT_MAX: every round 0
  return in;
}

Winners highest_total_wins(const Rules& rules, const MatchTally& t) noexcept {
  const int p = rules.players;
  Winners in = everyone(p);
  keep_best(in, p, [&](int s) { return -long{t.totals[s]}; });
  return in;
}

}  // namespace games
}  // namespace dominocore
