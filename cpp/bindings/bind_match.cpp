// The binding of the match rules, for the compiled Match
// (python/dominocore/native/match.py): when a match is over, who wins it and
// who leads the next round are asked of the C++ tally and the game's hooks,
// the very code the batch's matches run, rather than of anything the
// reference shares.
//
// Results cross as the Python RoundResult tuples (reason, out_seat, points,
// starter, moves), in the order the match played them.
#include "support.hpp"

#include <array>
#include <string>
#include <vector>

#include "dominocore/games/registry.hpp"
#include "dominocore/match.hpp"

namespace dominocore::bindings {

namespace {

RoundResult round_result_of(const Rules& rules, const py::handle& item, int round_index) {
  const auto t = py::reinterpret_borrow<py::sequence>(item);
  if (t.size() != 5 && t.size() != 7) throw StateError("a round result has 5 or 7 fields");
  RoundResult r;
  const std::string reason = t[0].cast<std::string>();
  if (reason == "out")
    r.reason = EndReason::Out;
  else if (reason == "blocked")
    r.reason = EndReason::Blocked;
  else if (reason == "target")
    r.reason = EndReason::Target;
  else
    throw StateError("a round result's reason is 'out', 'blocked' or 'target', got '" + reason +
                     "'");
  r.out_seat = t[1].cast<int>();
  const auto points = py::reinterpret_borrow<py::sequence>(t[2]);
  if (static_cast<int>(points.size()) != rules.players)
    throw StateError("a round result has one score per seat");
  r.players = rules.players;
  for (int s = 0; s < rules.players; ++s) r.points[s] = points[s].cast<int>();
  r.starter = t[3].cast<int>();
  r.moves = t[4].cast<int>();
  // play_points and end_points (empty in a result built by hand: the end
  // points are then the points).
  for (int k = 5; k < static_cast<int>(t.size()); ++k) {
    const auto part = py::reinterpret_borrow<py::sequence>(t[static_cast<size_t>(k)]);
    if (part.size() == 0) continue;
    if (static_cast<int>(part.size()) != rules.players)
      throw StateError("a round result's play_points and end_points hold one score per seat");
    auto& into = k == 5 ? r.play_points : r.end_points;
    for (int s = 0; s < rules.players; ++s) into[s] = part[s].cast<int>();
  }
  if (t.size() < 7 || py::len(t[6]) == 0) r.end_points = r.points;
  r.round_index = round_index;
  return r;
}

std::vector<RoundResult> round_results_of(const Rules& rules, const py::sequence& results) {
  std::vector<RoundResult> out;
  out.reserve(results.size());
  for (size_t i = 0; i < results.size(); ++i)
    out.push_back(round_result_of(rules, results[i], static_cast<int>(i)));
  return out;
}

}  // namespace

void bind_match(py::module_& m) {
  m.def(
      "_match_over",
      [](const Rules& rules, const py::sequence& results) {
        return match_over(rules, round_results_of(rules, results));
      },
      py::arg("rules"), py::arg("results"),
      "Whether a match with these round results is over (the game's match_over hook).");
  m.def(
      "_match_winners",
      [](const Rules& rules, const py::sequence& results) {
        // The game's hook on the tally, whether or not the match is over
        // (dominocore.match_winners: the winners "if it ended now").
        MatchTally tally;
        for (const RoundResult& r : round_results_of(rules, results)) tally.add(r);
        const std::array<bool, kMaxPlayers> won = games::with_game(
            rules.game, [&](auto tag) { return decltype(tag)::type::match_winners(rules, tally); });
        py::list seats;
        for (int s = 0; s < rules.players; ++s)
          if (won[s]) seats.append(s);
        return py::tuple(seats);
      },
      py::arg("rules"), py::arg("results"),
      "The seats that win a match with these round results (the game's match_winners hook).");
  m.def(
      "_next_leader",
      [](const Rules& rules, const py::handle& previous, int round_index, int last_placer) {
        if (last_placer < -1 || last_placer >= rules.players)
          throw StateError("last_placer must be a seat or -1, got " + std::to_string(last_placer));
        RoundResult r = round_result_of(rules, previous, round_index);
        r.last_placer = last_placer;
        return next_leader(rules, r);
      },
      py::arg("rules"), py::arg("previous"), py::arg("round_index"), py::arg("last_placer"),
      "The seat the match asks to lead the round after `previous` (Block), -1 when the game "
      "decides; `last_placer` is the seat of that round's last placement (its blocker), -1 if "
      "none.");
}

}  // namespace dominocore::bindings
