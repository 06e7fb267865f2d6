// dominocore._core: the pybind11 binding of the C++ engine, and nothing else.
//
// The Python layer (python/dominocore/_native.py) subclasses RoundCore and
// turns the integers used here into Tile and Move objects. Moves cross the
// boundary as one int: Place = tile * 4096 + end id, Draw = -1, Pass = -2.
// The step interface (legal_actions, apply_action, legal_action_mask) builds
// no Python object per move beyond the ints themselves.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "dominocore/dominocore.hpp"

namespace py = pybind11;
using namespace dominocore;

namespace {

constexpr int kEndBits = 4096;  // end ids stay far below: 8 + 3 * 190 < 4096
constexpr int kDrawCode = -1;
constexpr int kPassCode = -2;

int encode(const Move& m) {
  switch (m.kind) {
    case MoveKind::Place: return m.tile * kEndBits + m.end;
    case MoveKind::Draw: return kDrawCode;
    default: return kPassCode;
  }
}

Move decode(int code) {
  if (code == kDrawCode) return Move::draw();
  if (code == kPassCode) return Move::pass();
  if (code < 0 || code / kEndBits >= kMaxTiles) throw std::invalid_argument("bad move code");
  return Move::place(code / kEndBits, code % kEndBits);
}

py::list encode_all(const std::vector<Move>& moves) {
  py::list out(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) out[i] = encode(moves[i]);
  return out;
}

// The Python exception classes live in dominocore.reference.errors (pure
// Python), so both implementations raise the very same classes.
py::object error_class(const char* name) {
  return py::module_::import("dominocore.reference.errors").attr(name);
}

// A Python rules object (dominocore.reference.rules) to the core's Rules.
Rules to_rules(const py::object& obj) {
  py::dict d = obj.attr("to_dict")();
  RulesSpec spec;
  spec.game = parse_game(d["game"].cast<std::string>());
  spec.set = d["set"].cast<int>();
  spec.players = d["players"].cast<int>();
  spec.hand_size = d["hand_size"].cast<int>();
  if (spec.game == Game::ChickenFoot) {
    spec.rule_set = parse_rule_set(d["rule_set"].cast<std::string>());
    if (d.contains("trains")) spec.trains = d["trains"].cast<int>();
    spec.double_blank_50 = d["double_blank_50"].cast<bool>();
  } else {
    spec.target = d["target"].cast<int>();
  }
  return make_rules(spec);
}

std::vector<Policy> to_policies(const std::vector<std::string>& names) {
  std::vector<Policy> out;
  for (const auto& n : names) out.push_back(parse_policy(n));
  return out;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

py::dict sim_to_dict(const SimResult& r) {
  const auto rounds = static_cast<py::ssize_t>(r.num_rounds());
  const auto matches = static_cast<py::ssize_t>(r.num_matches());
  const auto p = static_cast<py::ssize_t>(r.players);
  py::dict d;
  d["points"] = to_array(r.points, {rounds, p});
  d["reason"] = to_array(r.reason, {rounds});
  d["out_seat"] = to_array(r.out_seat, {rounds});
  d["starter"] = to_array(r.starter, {rounds});
  d["moves"] = to_array(r.moves, {rounds});
  d["match_index"] = to_array(r.match_index, {rounds});
  d["totals"] = to_array(r.totals, {matches, p});
  py::array_t<bool> winners({matches, p});
  std::transform(r.winners.begin(), r.winners.end(), winners.mutable_data(), [](uint8_t w) { return w != 0; });
  d["winners"] = winners;
  return d;
}

// The step interface builds its list by hand: no std::vector round trip.
py::list legal_action_list(const State& s) {
  thread_local std::vector<int> ids;
  s.legal_actions(ids);
  PyObject* list = PyList_New(static_cast<py::ssize_t>(ids.size()));
  if (!list) throw py::error_already_set();
  for (size_t i = 0; i < ids.size(); ++i) PyList_SET_ITEM(list, static_cast<py::ssize_t>(i), PyLong_FromLong(ids[i]));
  return py::reinterpret_steal<py::list>(list);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "dominocore's C++ engine (private: use the dominocore package)";
  m.attr("__version__") = "0.1.0";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMove& e) {
      py::object exc = error_class("IllegalMoveError")(e.code(), e.what());
      PyErr_SetObject(py::type::of(exc).ptr(), exc.ptr());
    } catch (const RulesError& e) {
      PyErr_SetString(error_class("RulesError").ptr(), e.what());
    } catch (const StateError& e) {
      PyErr_SetString(error_class("StateError").ptr(), e.what());
    }
  });

  py::class_<Rng>(m, "SplitMix64", "The SplitMix64 generator of RULES.md 1.6.")
      .def(py::init([](py::int_ seed) {
             return Rng(py::reinterpret_steal<py::int_>(PyNumber_And(seed.ptr(), py::int_(~0ull).ptr()))
                            .cast<uint64_t>());
           }),
           py::arg("seed") = 0)
      .def("next", &Rng::next, "The next 64-bit output.")
      .def("below", &Rng::below, py::arg("n"), "A uniform integer in [0, n).")
      .def(
          "shuffle",
          [](Rng& rng, py::list items) {
            for (size_t i = items.size(); i-- > 1;) {
              const auto j = static_cast<size_t>(rng.below(i + 1));
              py::object tmp = items[i];
              items[i] = items[j];
              items[j] = tmp;
            }
          },
          py::arg("items"), "Fisher-Yates from the back, in place.")
      .def_property("state", &Rng::state, &Rng::set_state, "The raw 64-bit state.");

  py::class_<Rules>(m, "CoreRules", "The core's resolved rules, built once from a Python rules object.")
      .def(py::init(&to_rules), py::arg("rules"))
      .def_property_readonly("describe", [](const Rules& r) { return describe(r); });

  py::class_<State>(m, "RoundCore", "The compiled round state (see dominocore.Round).")
      .def(py::init<const State&>(), py::arg("other"))  // first: a copy, not rules
      .def(py::init([](const Rules& rules, uint64_t seed, int round_index) { return State(rules, seed, round_index); }),
           py::arg("rules"), py::arg("seed") = 0, py::arg("round_index") = 0)
      .def(py::init([](const Rules& rules, Rng& rng, int round_index) { return State(rules, rng, round_index); }),
           py::arg("rules"), py::arg("rng"), py::arg("round_index"))
      .def(py::init([](const Rules& rules, int centre, int starter, std::vector<std::vector<int>> hands,
                       std::vector<int> yard, int round_index) {
             Deal deal;
             deal.centre = centre;
             deal.starter = starter;
             deal.hands = std::move(hands);
             deal.yard = std::move(yard);
             deal.round_index = round_index;
             return State(rules, deal);
           }),
           py::arg("rules"), py::arg("centre"), py::arg("starter"), py::arg("hands"), py::arg("yard"),
           py::arg("round_index"))
      // ---- observation
      .def_property_readonly("current_player", &State::current_player, "The seat to move, -1 once over.")
      .def_property_readonly("starter", &State::starter, "The seat that started the round.")
      .def_property_readonly("round_index", &State::round_index, "The round's index in its match.")
      .def_property_readonly("yard_size", &State::yard_size, "How many tiles the yard holds.")
      .def_property_readonly("is_over", &State::is_over, "Whether the round has ended.")
      .def_property_readonly("num_actions", &State::num_actions, "Size of the action space, 2T+2.")
      .def_property_readonly("pending_ends", &State::pending_ends, "Ends to fill before any other.")
      .def_property_readonly("_centre", &State::centre)
      .def_property_readonly("_drawn", &State::drawn_tile)
      .def_property_readonly("_unlocked", &State::unlocked)
      .def_property_readonly("_obligation", [](const State& s) { return static_cast<int>(s.pending_kind()); })
      .def("_hand",
           [](const State& s, int seat) {
             if (seat < 0 || seat >= s.players()) throw RulesError("seat out of range");
             std::vector<int> out;
             s.hand(seat).for_each([&](int t) { out.push_back(t); });
             return out;
           })
      .def_property_readonly("_yard", &State::yard)
      .def_property_readonly("_open_ends",
                             [](const State& s) {
                               std::vector<std::pair<int, int>> out;
                               for (const auto& e : s.open_ends()) out.emplace_back(e.id, e.number);
                               return out;
                             })
      .def_property_readonly("_layout",
                             [](const State& s) {
                               py::list out;
                               for (int i = 0; i < s.num_placements(); ++i) {
                                 const Placement& p = s.placement(i);
                                 out.append(py::make_tuple(p.tile, p.end, p.by, p.first, p.created));
                               }
                               return out;
                             })
      .def_property_readonly("_moves", [](const State& s) { return encode_all(s.moves()); })
      .def_property_readonly("_deal",
                             [](const State& s) {
                               Deal d = s.deal();
                               return py::make_tuple(d.centre, d.starter, d.hands, d.yard);
                             })
      .def_property_readonly("_result",
                             [](const State& s) -> py::object {
                               if (!s.is_over()) return py::none();
                               const RoundResult& r = s.result();
                               py::tuple points(r.players);
                               for (int i = 0; i < r.players; ++i) points[i] = r.points[i];
                               return py::make_tuple(end_reason_name(r.reason), r.out_seat, points, r.starter,
                                                     r.moves);
                             })
      // ---- moves
      .def("_legal_moves", [](const State& s, bool distinct) { return encode_all(s.legal_moves(distinct)); })
      .def("_check",
           [](const State& s, int code, int player) { return reason_code(s.check(decode(code), player)); })
      .def("_push", [](State& s, int code, int player) { s.push(decode(code), player); })
      .def("_pop", [](State& s) { return encode(s.pop()); })
      // ---- the step interface: ints in, ints out
      .def("legal_actions", &legal_action_list, "The legal action ids, ascending (RULES.md 1.8).")
      .def(
          "apply_action", [](State& s, int action) { s.apply_action(action); },
          py::arg("action"), "Play the move a legal action id stands for (IllegalMoveError if it is not legal).")
      .def(
          "legal_action_mask",
          [](const State& s, py::object out) {
            thread_local std::vector<int> ids;
            s.legal_actions(ids);
            const auto n = static_cast<py::ssize_t>(s.num_actions());
            py::array_t<bool> mask;
            if (out.is_none()) {
              mask = py::array_t<bool>(n);
            } else {
              // Only a buffer we can fill in place: a cast would write to a copy.
              const bool fits = py::isinstance<py::array>(out) &&
                                py::array(out.cast<py::array>()).dtype().is(py::dtype::of<bool>());
              mask = fits ? out.cast<py::array_t<bool>>() : py::array_t<bool>();
              if (!fits || mask.ndim() != 1 || mask.shape(0) != n || !mask.writeable() ||
                  mask.strides(0) != static_cast<py::ssize_t>(sizeof(bool)))
                throw std::invalid_argument("out must be a writable, contiguous 1-d numpy bool array of num_actions (" +
                                            std::to_string(n) + ") entries");
            }
            bool* data = mask.mutable_data();
            std::fill(data, data + n, false);
            for (int a : ids) data[a] = true;
            return mask;
          },
          py::arg("out") = py::none(),
          "A numpy bool array, True at the legal action ids; fills `out` in place when given.")
      .def("_action_to_move", [](const State& s, int action) { return encode(s.action_to_move(action)); })
      .def("_move_to_action", [](const State& s, int code) { return s.move_to_action(decode(code)); })
      .def("_playout", [](State& s, Bots& bots) { bots.play_out(s); })
      .def("__str__", &State::to_string);

  py::class_<Bots>(m, "Bots", "Built-in players, one policy per seat, sharing one random generator.")
      .def(py::init([](const std::vector<std::string>& policies, int players, py::int_ seed) {
             const uint64_t s =
                 py::reinterpret_steal<py::int_>(PyNumber_And(seed.ptr(), py::int_(~0ull).ptr())).cast<uint64_t>();
             return Bots(to_policies(policies), players, s);
           }),
           py::arg("policies"), py::arg("players"), py::arg("seed"))
      .def("_choose", [](Bots& b, const State& s) { return encode(b.choose(s)); });

  py::class_<RandomPlayer>(m, "RandomPlayerCore")
      .def(py::init<uint64_t>(), py::arg("seed"))
      .def("_choose", [](RandomPlayer& p, const State& s) { return encode(p.choose(s)); });
  m.def("_greedy_move", [](const State& s) { return encode(greedy_move(s)); });

  m.def(
      "_simulate",
      [](const Rules& r, bool matches, uint64_t n, uint64_t seed, int round_index,
         const std::vector<std::string>& policies, int threads) {
        const std::vector<Policy> pol = to_policies(policies);
        SimResult result;
        {
          py::gil_scoped_release release;
          result = matches ? simulate_matches(r, n, seed, pol, threads)
                           : simulate_rounds(r, n, seed, round_index, pol, threads);
        }
        return sim_to_dict(result);
      },
      py::arg("rules"), py::arg("matches"), py::arg("n"), py::arg("seed"), py::arg("round_index"),
      py::arg("policies"), py::arg("threads"));
  m.attr("STATE_BYTES") = sizeof(State);
  m.def("hardware_threads", [] { return std::max(1u, std::thread::hardware_concurrency()); });
}
