// The binding of a round: RoundCore, the compiled round state that
// dominocore.Round (python/dominocore/native/) subclasses. Moves cross the
// boundary as move codes (module.cpp); the step interface (legal_actions,
// apply_action, legal_action_mask) builds no Python object per move beyond
// the ints themselves.
#include "support.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>
#include <vector>

namespace dominocore::bindings {

namespace {

// An action id from Python, strictly: an integer (anything with __index__,
// not bool) that fits a C int. Anything else is never a legal id.
bool action_id(py::handle h, int& out) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o) || !PyIndex_Check(o)) return false;
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(o));
  if (index) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (!overflow && v >= INT_MIN && v <= INT_MAX) {
      out = static_cast<int>(v);
      return true;
    }
  }
  PyErr_Clear();
  return false;
}

[[noreturn]] void throw_illegal_action(const State& s, py::handle action) {
  raise_illegal("illegal_action", illegal_action_text(s, action));
}

// Throws IllegalMove, with its reason code as its only text, for a move the
// state refuses: the Python wrapper words every refusal itself
// (dominocore.common.messages), so the core's English would be thrown away.
void refuse_unworded(const State& s, const Move& m, int player) {
  const Reason r = s.check(m, player);
  if (r != Reason::Ok) throw IllegalMove(r, m, reason_code(r));
}

// IllegalMoveError("not_your_turn") for an action named for `player` (checked
// as push checks it: a seat, else RulesError) when the round is on and it is
// another seat's turn. Worded by dominocore.common.messages: nothing about the
// seat to move but its number.
void refuse_other_player(const State& s, py::handle action, py::handle player) {
  const int seat = py::module_::import("dominocore.common.checks")
                       .attr("check_player")(s.rules().players, player)
                       .cast<int>();
  if (s.is_over() || seat == s.current_player()) return;
  raise_illegal("not_your_turn",
                py::module_::import("dominocore.common.messages")
                    .attr("action_not_your_turn")(action, s.current_player(), seat));
}

// The move a Python action id stands for (only legal ids have one).
Move action_move(const State& s, py::handle action) {
  int a = 0;
  if (!action_id(action, a)) throw_illegal_action(s, action);
  try {
    return s.action_to_move(a);
  } catch (const IllegalMove&) {
    throw_illegal_action(s, action);
  }
}

// The step interface builds its list by hand: no std::vector round trip.
py::list legal_action_list(const State& s) {
  thread_local std::vector<int> ids;
  s.legal_actions(ids);
  PyObject* list = PyList_New(static_cast<py::ssize_t>(ids.size()));
  if (!list) throw py::error_already_set();
  for (size_t i = 0; i < ids.size(); ++i)
    PyList_SET_ITEM(list, static_cast<py::ssize_t>(i), PyLong_FromLong(ids[i]));
  return py::reinterpret_steal<py::list>(list);
}

}  // namespace

void bind_round(py::module_& m) {
  py::class_<State> round_core(m, "RoundCore", "The compiled round state (see dominocore.Round).");
  def_unpicklable(round_core);
  round_core
      // The order matters: a copy before rules, a generator before a seed
      // (which takes any object and rejects what is not an integer).
      .def(py::init<const State&>(), py::arg("other"))
      .def(py::init([](const Rules& rules, Rng& rng, int round_index, int leader,
                       std::vector<int> carried) {
             return State(rules, rng, round_index, leader, carried);
           }),
           py::arg("rules"), py::arg("rng"), py::arg("round_index"), py::arg("leader") = -1,
           py::arg("carried") = std::vector<int>{})
      .def(py::init([](const Rules& rules, py::handle seed, int round_index) {
             return State(rules, to_uint64(seed, "seed"), round_index);
           }),
           py::arg("rules"), py::arg("seed") = 0, py::arg("round_index") = 0)
      .def(
          py::init([](const Rules& rules, int centre, int starter,
                      std::vector<std::vector<int>> hands, std::vector<int> yard, int round_index,
                      std::vector<int> setup_draws, bool highest_double, std::vector<int> carried) {
            Deal deal;
            deal.centre = centre;
            deal.starter = starter;
            deal.hands = std::move(hands);
            deal.yard = std::move(yard);
            deal.round_index = round_index;
            deal.setup_draws = std::move(setup_draws);
            deal.highest_double = highest_double;
            deal.carried = std::move(carried);
            return State(rules, deal);
          }),
          py::arg("rules"), py::arg("centre"), py::arg("starter"), py::arg("hands"),
          py::arg("yard"), py::arg("round_index"), py::kw_only(),
          py::arg("setup_draws") = std::vector<int>{}, py::arg("highest_double") = false,
          py::arg("carried") = std::vector<int>{})
      // ---- observation
      .def_property_readonly("current_player", &State::current_player,
                             "The seat to move, -1 once over.")
      .def_property_readonly("starter", &State::starter, "The seat that started the round.")
      .def_property_readonly("round_index", &State::round_index, "The round's index in its match.")
      .def_property_readonly("yard_size", &State::yard_size, "How many tiles the yard holds.")
      .def_property_readonly("is_over", &State::is_over, "Whether the round has ended.")
      .def_property_readonly("num_actions", &State::num_actions,
                             "Size of the game's action space (2T+2; Mexican Train T*(p+1)+2; "
                             "All Fives, Fives and Threes A*T+2).")
      .def_property_readonly("pending_ends", &State::pending_ends, "Ends to fill before any other.")
      .def_property_readonly("_centre", &State::centre)  // -1: none (Block before the lead)
      .def_property_readonly("_markers", &State::markers)
      .def("_train_of", &State::train_of)
      .def_property_readonly("_drawn", &State::drawn_tile)
      .def_property_readonly("_unlocked", &State::unlocked)
      .def_property_readonly("_obligation",
                             [](const State& s) { return static_cast<int>(s.pending_kind()); })
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
                                 const int by = p.by == kNoNumber ? -1 : p.by;  // Block's lead
                                 out.append(py::make_tuple(p.tile, p.end, by, p.first, p.created));
                               }
                               return out;
                             })
      // The seat of the last placement (the set-up's double: the starter's),
      // -1 if none: a blocked round's blocker, for Match's next leader.
      .def_property_readonly("_last_placer",
                             [](const State& s) {
                               const int n = s.num_placements();
                               return n ? int{s.placement(n - 1).seat} : -1;
                             })
      .def_property_readonly("_moves", [](const State& s) { return encode_all(s.moves()); })
      // Scoring during play (docs/games/all_fives.md F5, F8): per seat, per move.
      .def_property_readonly("_play_points",
                             [](const State& s) {
                               py::tuple out(s.players());
                               for (int i = 0; i < s.players(); ++i) out[i] = s.play_points(i);
                               return out;
                             })
      .def_property_readonly("_carried",
                             [](const State& s) {
                               py::tuple out(s.players());
                               for (int i = 0; i < s.players(); ++i) out[i] = s.carried(i);
                               return out;
                             })
      .def_property_readonly("_points_stack",
                             [](const State& s) {
                               py::list out(static_cast<size_t>(s.num_moves()));
                               for (int i = 0; i < s.num_moves(); ++i)
                                 out[static_cast<size_t>(i)] = s.points_at(i);
                               return out;
                             })
      .def_property_readonly("_deal",
                             [](const State& s) {
                               Deal d = s.deal();
                               return py::make_tuple(d.centre, d.starter, d.hands, d.yard,
                                                     d.setup_draws, d.highest_double, d.carried);
                             })
      // Every move played: (mover, move code, the tile a Draw took or -1).
      // Hidden data, for the wrapper's internal _history() only.
      .def_property_readonly(
          "_history",
          [](const State& s) {
            py::list out(static_cast<size_t>(s.num_moves()));
            const RoundData& r = s.data();
            int draws = 0;  // the k-th Draw took the yard's tile k after the set-up
            for (int i = 0; i < s.num_moves(); ++i) {
              const Move m = s.move_at(i);
              const int drawn = m.kind == MoveKind::Draw ? r.yard[r.yard_base + draws++] : -1;
              out[static_cast<size_t>(i)] = py::make_tuple(s.mover_at(i), encode(m), drawn);
            }
            return out;
          })
      .def_property_readonly("_result",
                             [](const State& s) -> py::object {
                               if (!s.is_over()) return py::none();
                               const RoundResult& r = s.result();
                               py::tuple points(r.players), play(r.players), end(r.players);
                               for (int i = 0; i < r.players; ++i) {
                                 points[i] = r.points[i];
                                 play[i] = r.play_points[i];
                                 end[i] = r.end_points[i];
                               }
                               return py::make_tuple(end_reason_name(r.reason), r.out_seat, points,
                                                     r.starter, r.moves, play, end);
                             })
      // ---- moves
      .def("_legal_moves",
           [](const State& s, bool distinct) { return encode_all(s.legal_moves(distinct)); })
      .def("_check", [](const State& s, int code,
                        int player) { return reason_code(s.check(decode(code), player)); })
      .def("_push",
           [](State& s, int code, int player) {
             const Move m = decode(code);
             refuse_unworded(s, m, player);
             s.push_unchecked(m);
           })
      .def("_pop", [](State& s) { return encode(s.pop()); });
  {
    // ---- the step interface: ints in, ints out. dominocore.Round serves
    // these three bound methods as they are, so their docstrings open with
    // CPython's text signature (inspect.signature reads it).
    py::options text_signatures;
    text_signatures.disable_function_signatures();
    round_core
        .def("legal_actions", &legal_action_list,
             "legal_actions(self, /)\n--\n\nThe legal action ids, ascending (docs/rules.md 1.8).")
        .def(
            "apply_action",
            [](State& s, py::handle action, py::handle player) {
              if (!player.is_none()) refuse_other_player(s, action, player);
              // action_move() yields only legal moves: no second check.
              s.push_unchecked(action_move(s, action));
            },
            py::arg("action"), py::arg("player") = py::none(),
            "apply_action(self, /, action, player=None)\n--\n\nPlay the move a legal action id "
            "stands for (IllegalMoveError if it is not legal), for `player` if named (refused "
            "unless it is that seat's turn, as push).")
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
                const bool fits =
                    py::isinstance<py::array>(out) &&
                    py::array(out.cast<py::array>()).dtype().is(py::dtype::of<bool>());
                mask = fits ? out.cast<py::array_t<bool>>() : py::array_t<bool>();
                if (!fits || mask.ndim() != 1 || mask.shape(0) != n || !mask.writeable() ||
                    mask.strides(0) != static_cast<py::ssize_t>(sizeof(bool)))
                  throw RulesError(
                      "out must be a writable, contiguous 1-d numpy bool array of num_actions (" +
                      std::to_string(n) + ") entries");
              }
              bool* data = mask.mutable_data();
              std::fill(data, data + n, false);
              for (int a : ids) data[a] = true;
              return mask;
            },
            py::arg("out") = py::none(),
            "legal_action_mask(self, /, out=None)\n--\n\nA numpy bool array, True at the legal "
            "action ids; fills `out` in place when given.");
  }
  round_core
      .def("_action_to_move",
           [](const State& s, py::handle action) { return encode(action_move(s, action)); })
      .def("_move_to_action",
           [](const State& s, int code) {
             const Move m = decode(code);
             refuse_unworded(s, m, -1);
             return s.move_to_action(m);
           })
      // ---- what a seat may know (docs/information.md 3)
      .def(
          "information_state",
          [](const State& s, int seat) {
            check_seat(s, seat);
            return information_state(s, seat);
          },
          py::arg("seat"), "The seat's information state (docs/information.md 3).")
      .def(
          "information_state_hash",
          [](const State& s, int seat) {
            check_seat(s, seat);
            return information_state_hash(s, seat);
          },
          py::arg("seat"), "64-bit FNV-1a of information_state(seat).")
      .def(
          "_information_state_tensor",
          [](const State& s, int seat, const py::object& out) {
            check_seat(s, seat);
            py::array buf =
                float_buffer(out, {information_state_tensor_size(s.rules())}, "information state");
            information_state_tensor(s, seat, static_cast<float*>(buf.mutable_data()));
            return buf;
          },
          py::arg("seat"), py::arg("out") = py::none())
      .def(
          "_observation_tensor",
          [](const State& s, int seat, const py::object& out) {
            check_seat(s, seat);
            py::array buf = float_buffer(out, {observation_tensor_size(s.rules())}, "observation");
            observation_tensor(s, seat, static_cast<float*>(buf.mutable_data()));
            return buf;
          },
          py::arg("seat"), py::arg("out") = py::none())
      .def("_playout", [](State& s, Bots& bots) { bots.play_out(s); })
      .def("__str__", &State::to_string);
}

}  // namespace dominocore::bindings
