// dominocore._core: the pybind11 binding of the C++ engine, and nothing else.
//
// The Python layer (python/dominocore/_native.py) subclasses RoundCore and
// turns the integers used here into Tile and Move objects. Moves cross the
// boundary as one int: Place = tile * END_BITS + end id, Draw = DRAW_CODE,
// Pass = PASS_CODE; the constants are defined here only and exported, and a
// code outside the encoding is refused, never wrapped or clamped.
// The step interface (legal_actions, apply_action, legal_action_mask) builds
// no Python object per move beyond the ints themselves.
//
// Nothing a caller passes may crash the interpreter: objects whose __init__
// never ran are refused (TypeError), seeds are checked integers, and
// simulate() stops its threads on Ctrl-C or when its progress callback raises.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dominocore/dominocore.hpp"
#include "dominocore/information.hpp"

namespace py = pybind11;
using namespace dominocore;

PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)
PYBIND11_NAMESPACE_BEGIN(detail)

// pybind11 gives `Cls.__new__(Cls)` room for a C++ value but constructs it
// only in __init__, and would hand that raw memory to any method. Every
// argument of a bound class, self included, is loaded by this caster, which
// refuses an object whose __init__ never ran.
template <class T>
class initialised_caster : public type_caster_base<T> {
 public:
  bool load(handle src, bool convert) {
    if (!type_caster_base<T>::load(src, convert)) return false;
    if (this->value && this->typeinfo && PyObject_TypeCheck(src.ptr(), this->typeinfo->type)) {
      const value_and_holder v_h =
          reinterpret_cast<instance*>(src.ptr())->get_value_and_holder(this->typeinfo, false);
      if (!v_h.inst || !v_h.holder_constructed()) {
        const std::string cls = str(type::handle_of(src).attr("__name__"));
        throw type_error("this " + cls + " object is not initialised (" + cls +
                         ".__new__ without __init__): build it with " + cls + "(...)");
      }
    }
    return true;
  }
};

template <>
class type_caster<Rng> : public initialised_caster<Rng> {};
template <>
class type_caster<Rules> : public initialised_caster<Rules> {};
template <>
class type_caster<State> : public initialised_caster<State> {};
template <>
class type_caster<Bots> : public initialised_caster<Bots> {};
template <>
class type_caster<RandomPlayer> : public initialised_caster<RandomPlayer> {};

PYBIND11_NAMESPACE_END(detail)
PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)

namespace {

// Every end id a Move may name (0..kMaxEndId) fits; no round creates more
// than 8 + 3 * 190 ends.
static_assert(kMaxTiles * kMoveCodeEnds < (1 << 30), "move codes fit an int");

int encode(const Move& m) { return move_code(m); }

Move decode(int code) {
  if (code == kDrawCode) return Move::draw();
  if (code == kPassCode) return Move::pass();
  if (code < 0 || code >= kMaxTiles * kMoveCodeEnds)
    throw std::invalid_argument(
        "move code " + std::to_string(code) + " is out of range: a Place is tile * " +
        std::to_string(kMoveCodeEnds) + " + end (tile 0.." + std::to_string(kMaxTiles - 1) +
        ", end 0.." + std::to_string(kMoveCodeEnds - 1) + "), Draw -1, Pass -2");
  return Move::place(code / kMoveCodeEnds, code % kMoveCodeEnds);
}

py::list encode_all(const std::vector<Move>& moves) {
  py::list out(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) out[i] = encode(moves[i]);
  return out;
}

// The Python exception classes live in dominocore.common.errors (pure
// Python), so both implementations raise the very same classes.
py::object error_class(const char* name) {
  return py::module_::import("dominocore.common.errors").attr(name);
}

// repr(value) for an error message, kept short (Python 3.11+ cannot even
// print an integer of more than 4300 digits by default).
std::string shown(py::handle value) {
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    const auto bits = value.attr("bit_length")().cast<size_t>();
    if (bits > 64) return "an integer of " + std::to_string(bits) + " bits";
  }
  std::string text;
  try {
    text = py::repr(value);
  } catch (const py::error_already_set&) {  // a broken __repr__ must not replace the real error
    text = "a " + std::string(Py_TYPE(value.ptr())->tp_name) + " object";
  }
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

// An integer argument in low..2**64-1: any object with __index__ but bool
// (which is an int in Python) and floats; anything else, or a value out of
// range, raises Error (RulesError for arguments). Never reduced mod 2**64.
template <class Error = RulesError>
uint64_t to_uint64(py::handle value, const char* name, uint64_t low = 0) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    throw Error(std::string(name) + " must be an integer, got " + shown(value));
  const auto number = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!number) throw py::error_already_set();
  const unsigned long long v = PyLong_AsUnsignedLongLong(number.ptr());
  const bool overflow = v == static_cast<unsigned long long>(-1) && PyErr_Occurred();
  if (overflow) PyErr_Clear();
  if (overflow || v < low)
    throw Error(std::string(name) + " must be between " + std::to_string(low) + " and " +
                std::to_string(~uint64_t{0}) + ", got " + shown(number));
  return v;
}

// Pickle state of a generator-like object: a 1-tuple of its 64-bit state.
py::tuple state_tuple(const Rng& rng) { return py::make_tuple(rng.state()); }

Rng rng_from_state(const py::object& state) {
  if (!py::isinstance<py::tuple>(state) || py::len(state) != 1)
    throw StateError("a generator state is a 1-tuple (state,), got " + shown(state));
  return Rng(to_uint64<StateError>(py::tuple(state)[0], "a generator state"));
}

// copy.copy / copy.deepcopy (memo given) through the pickle state, so that a
// Python subclass keeps its class and its attributes.
py::object copy_through_state(const py::object& self, const py::object& memo) {
  const py::object cls = py::type::of(self);
  py::object copy = cls.attr("__new__")(cls);
  copy.attr("__setstate__")(self.attr("__getstate__")());
  if (py::hasattr(self, "__dict__")) {
    py::object attributes = self.attr("__dict__");
    if (!memo.is_none())
      attributes = py::module_::import("copy").attr("deepcopy")(attributes, memo);
    copy.attr("__dict__").attr("update")(attributes);
  }
  return copy;
}

// Every class defines __reduce__ and __reduce_ex__: object's own, for pickle
// protocols 0 and 1, would call the pybind11 base type on the object, which
// aborts the interpreter (pybind11 3.1).
template <class T>
void def_unpicklable(py::class_<T>& cls) {
  const auto refuse = [](const py::object& self, const py::args&) -> py::object {
    self.cast<const T&>();  // an uninitialised object: "not initialised" first
    throw py::type_error("cannot pickle '" +
                         std::string(py::str(py::type::of(self).attr("__name__"))) + "' object");
  };
  cls.def("__reduce__", refuse).def("__reduce_ex__", refuse);
}

// pickle (any protocol), copy.copy and copy.deepcopy for a class whose whole
// state is one generator (SplitMix64, RandomPlayerCore).
template <class T, class GetRng, class FromRng>
void def_generator_state(py::class_<T>& cls, GetRng get_rng, FromRng from_rng) {
  const auto reduce = [](const py::object& self, const py::args&) {
    return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"),
                          py::make_tuple(py::type::of(self)), self.attr("__getstate__")());
  };
  cls.def(py::pickle(
              [get_rng](const T& obj) { return state_tuple(get_rng(obj)); },
              [from_rng](const py::object& state) { return from_rng(rng_from_state(state)); }))
      .def("__reduce__", reduce)
      .def("__reduce_ex__", reduce)
      .def("__copy__", [](const py::object& self) { return copy_through_state(self, py::none()); })
      .def("__deepcopy__", &copy_through_state, py::arg("memo"));
}

// A Python rules object (dominocore.common.rules) to the core's Rules: every
// option its to_dict() holds goes to make_rules, which applies the game's
// defaults and refuses an option the game does not have.
Rules to_rules(const py::object& obj) {
  py::dict d = obj.attr("to_dict")();
  RulesSpec spec;
  spec.game = parse_game(d["game"].cast<std::string>());
  spec.set = d["set"].cast<int>();
  spec.players = d["players"].cast<int>();
  spec.hand_size = d["hand_size"].cast<int>();
  if (d.contains("rule_set")) spec.rule_set = parse_rule_set(d["rule_set"].cast<std::string>());
  if (d.contains("trains")) spec.trains = d["trains"].cast<int>();
  if (d.contains("double_blank_50")) spec.double_blank_50 = d["double_blank_50"].cast<bool>();
  if (d.contains("target")) spec.target = d["target"].cast<int>();
  if (d.contains("max_rounds")) spec.max_rounds = d["max_rounds"].cast<int>();
  if (d.contains("drawn_tile"))
    spec.drawn_tile = parse_drawn_tile(d["drawn_tile"].cast<std::string>());
  if (d.contains("lead")) spec.lead = parse_lead(d["lead"].cast<std::string>());
  return make_rules(spec);
}

std::vector<Policy> to_policies(const std::vector<std::string>& names) {
  std::vector<Policy> out;
  for (const auto& n : names) out.push_back(parse_policy(n));
  return out;
}

// A numpy array over the data of `v` without a copy: the vector moves to the
// heap, owned by a capsule that is the array's base.
template <class T>
py::array take_array(SimArray<T>&& v, std::vector<py::ssize_t> shape,
                     const py::dtype& dtype = py::dtype::of<T>()) {
  auto owner = std::make_unique<SimArray<T>>(std::move(v));
  const T* data = owner->data();
  const py::capsule base(owner.get(), [](void* p) { delete static_cast<SimArray<T>*>(p); });
  owner.release();
  return py::array(dtype, std::move(shape), data, base);
}

py::dict sim_to_dict(SimResult&& r) {
  const auto rounds = static_cast<py::ssize_t>(r.num_rounds());
  const auto matches = static_cast<py::ssize_t>(r.num_matches());
  const auto p = static_cast<py::ssize_t>(r.players);
  py::dict d;
  d["points"] = take_array(std::move(r.points), {rounds, p});
  d["reason"] = take_array(std::move(r.reason), {rounds});
  d["out_seat"] = take_array(std::move(r.out_seat), {rounds});
  d["starter"] = take_array(std::move(r.starter), {rounds});
  d["moves"] = take_array(std::move(r.moves), {rounds});
  d["match_index"] = take_array(std::move(r.match_index), {rounds});
  d["totals"] = take_array(std::move(r.totals), {matches, p});
  d["winners"] =
      take_array(std::move(r.winners), {matches, p}, py::dtype::of<bool>());  // 0/1 bytes
  return d;
}

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

// Raises dominocore's IllegalMoveError(reason, text) through pybind11.
[[noreturn]] void raise_illegal(const char* reason, const py::object& text) {
  py::object exc = error_class("IllegalMoveError")(reason, text);
  PyErr_SetObject(py::type::of(exc).ptr(), exc.ptr());
  throw py::error_already_set();
}

// The words of IllegalMoveError("illegal_action") for `action` in `s`, from
// dominocore.common.messages as the reference words it.
py::object illegal_action_text(const State& s, py::handle action) {
  std::vector<int> legal;
  s.legal_actions(legal);
  return py::module_::import("dominocore.common.messages")
      .attr("illegal_action")(action, s.num_actions(), s.is_over(), legal);
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

// The seat check of every information query, worded as
// dominocore.common.checks.check_seat words it.
void check_seat(const State& s, int seat) {
  if (seat < 0 || seat >= s.players())
    throw RulesError("seat must be between 0 and " + std::to_string(s.players() - 1) + ", got " +
                     std::to_string(seat));
}

// The float32 buffer a tensor is written to: `out` when it is a writable,
// C-contiguous float32 numpy array of exactly `shape` (RulesError otherwise,
// as for legal_action_mask's `out`: a cast would write to a copy), else, for
// None, a new array.
py::array float_buffer(const py::object& out, const std::vector<py::ssize_t>& shape,
                       const char* what) {
  if (out.is_none()) return py::array_t<float>(shape);
  const auto dims = [](const py::ssize_t* d, size_t n) {
    std::string text = "(";
    for (size_t k = 0; k < n; ++k) text += (k ? ", " : "") + std::to_string(d[k]);
    return text + (n == 1 ? ",)" : ")");
  };
  std::string got;
  if (!py::isinstance<py::array>(out)) {
    got = shown(out);
  } else {
    const auto arr = py::reinterpret_borrow<py::array>(out);
    // check_: a numpy array of an equivalent dtype (native float32), C-contiguous.
    bool fits = py::array_t<float, py::array::c_style>::check_(out) && arr.writeable() &&
                arr.ndim() == static_cast<py::ssize_t>(shape.size());
    for (size_t k = 0; fits && k < shape.size(); ++k)
      fits = arr.shape(static_cast<py::ssize_t>(k)) == shape[k];
    if (fits) return arr;
    got = std::string(arr.writeable() ? "" : "a read-only ") +
          (arr.flags() & py::array::c_style ? "" : "a non-contiguous ") +
          std::string(py::str(arr.dtype())) + " array of shape " +
          dims(arr.shape(), static_cast<size_t>(arr.ndim()));
    if (got.rfind("a ", 0) != 0) got = "a " + got;
  }
  throw RulesError("out must be a writable, C-contiguous numpy float32 array of shape " +
                   dims(shape.data(), shape.size()) + " for the " + what + ", got " + got);
}

}  // namespace

#include "determinize_bindings.hpp"  // after the helpers above, which it uses
#include "search_bindings.hpp"
#include "vector_env_bindings.hpp"  // likewise
#include "match_bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "dominocore's C++ engine (private: use the dominocore package)";
  m.attr("__version__") = DOMINOCORE_VERSION;  // python/dominocore/_version.py, via CMakeLists.txt
  // The move encoding (see the top of this file), for python/dominocore/_native.py.
  m.attr("END_BITS") = kMoveCodeEnds;
  m.attr("DRAW_CODE") = kDrawCode;
  m.attr("PASS_CODE") = kPassCode;

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

  // SplitMix64 is public (dominocore.SplitMix64): its docstrings open with
  // CPython's text signature ("name(self, /, ...)\n--\n\n"), in place of
  // pybind11's own signature line, so that inspect.signature works on it.
  py::options text_signatures;
  text_signatures.disable_function_signatures();
  py::class_<Rng> split_mix(m, "SplitMix64", "The SplitMix64 generator of docs/rules.md 1.6.");
  split_mix
      .def(py::init([](py::handle seed) { return Rng(to_uint64(seed, "seed")); }),
           py::arg("seed") = 0,
           "__init__(self, /, seed=0)\n--\n\nA generator whose state starts at `seed`, an "
           "integer 0..2**64-1 (RulesError otherwise).")
      .def("next", &Rng::next, "next(self, /)\n--\n\nThe next 64-bit output.")
      .def(
          "below", [](Rng& rng, py::handle n) { return rng.below(to_uint64(n, "n", 1)); },
          py::arg("n"),
          "below(self, /, n)\n--\n\nA uniform integer in [0, n), n an integer 1..2**64-1 "
          "(RulesError otherwise).")
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
          py::arg("items"), "shuffle(self, /, items)\n--\n\nFisher-Yates from the back, in place.")
      .def_property(
          "state", &Rng::state,
          [](Rng& rng, py::handle v) { rng.set_state(to_uint64(v, "state")); },
          "The raw 64-bit state.")
      .def(
          "__eq__",
          [](const Rng& self, const py::object& other) -> py::object {
            if (!py::isinstance<Rng>(other))
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(self == other.cast<const Rng&>());
          },
          py::is_operator())
      .def("__repr__", [](const Rng& rng) {
        char text[40];
        std::snprintf(text, sizeof text, "SplitMix64(state=0x%016llx)",
                      static_cast<unsigned long long>(rng.state()));
        return std::string(text);
      });
  def_generator_state(
      split_mix, [](const Rng& rng) { return rng; }, [](const Rng& rng) { return rng; });
  text_signatures.enable_function_signatures();

  py::class_<Rules> core_rules(m, "CoreRules",
                               "The core's resolved rules, built once from a Python rules object.");
  core_rules.def(py::init(&to_rules), py::arg("rules"))
      .def_property_readonly("describe", [](const Rules& r) { return describe(r); });
  def_unpicklable(core_rules);

  py::class_<State> round_core(m, "RoundCore", "The compiled round state (see dominocore.Round).");
  def_unpicklable(round_core);
  round_core
      // The order matters: a copy before rules, a generator before a seed
      // (which takes any object and rejects what is not an integer).
      .def(py::init<const State&>(), py::arg("other"))
      .def(py::init([](const Rules& rules, Rng& rng, int round_index, int leader) {
             return State(rules, rng, round_index, leader);
           }),
           py::arg("rules"), py::arg("rng"), py::arg("round_index"), py::arg("leader") = -1)
      .def(py::init([](const Rules& rules, py::handle seed, int round_index) {
             return State(rules, to_uint64(seed, "seed"), round_index);
           }),
           py::arg("rules"), py::arg("seed") = 0, py::arg("round_index") = 0)
      .def(py::init([](const Rules& rules, int centre, int starter,
                       std::vector<std::vector<int>> hands, std::vector<int> yard, int round_index,
                       std::vector<int> setup_draws, bool highest_double) {
             Deal deal;
             deal.centre = centre;
             deal.starter = starter;
             deal.hands = std::move(hands);
             deal.yard = std::move(yard);
             deal.round_index = round_index;
             deal.setup_draws = std::move(setup_draws);
             deal.highest_double = highest_double;
             return State(rules, deal);
           }),
           py::arg("rules"), py::arg("centre"), py::arg("starter"), py::arg("hands"),
           py::arg("yard"), py::arg("round_index"), py::kw_only(),
           py::arg("setup_draws") = std::vector<int>{}, py::arg("highest_double") = false)
      // ---- observation
      .def_property_readonly("current_player", &State::current_player,
                             "The seat to move, -1 once over.")
      .def_property_readonly("starter", &State::starter, "The seat that started the round.")
      .def_property_readonly("round_index", &State::round_index, "The round's index in its match.")
      .def_property_readonly("yard_size", &State::yard_size, "How many tiles the yard holds.")
      .def_property_readonly("is_over", &State::is_over, "Whether the round has ended.")
      .def_property_readonly("num_actions", &State::num_actions,
                             "Size of the game's action space (2T+2; Mexican Train T*(p+1)+2).")
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
      .def_property_readonly("_moves", [](const State& s) { return encode_all(s.moves()); })
      .def_property_readonly("_deal",
                             [](const State& s) {
                               Deal d = s.deal();
                               return py::make_tuple(d.centre, d.starter, d.hands, d.yard,
                                                     d.setup_draws, d.highest_double);
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
                               py::tuple points(r.players);
                               for (int i = 0; i < r.players; ++i) points[i] = r.points[i];
                               return py::make_tuple(end_reason_name(r.reason), r.out_seat, points,
                                                     r.starter, r.moves);
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

  py::class_<Bots> bots(m, "Bots",
                        "Built-in players, one policy per seat, sharing one random generator.");
  def_unpicklable(bots);
  bots.def(py::init([](const std::vector<std::string>& policies, int players, py::handle seed) {
             return Bots(to_policies(policies), players, to_uint64(seed, "seed"));
           }),
           py::arg("policies"), py::arg("players"), py::arg("seed"))
      .def("_choose", [](Bots& b, const State& s) { return encode(b.choose(s)); })
      .def_property(
          "_state", [](Bots& b) { return b.rng().state(); },
          [](Bots& b, py::handle v) { b.rng().set_state(to_uint64(v, "state")); },
          "The raw state of the random seats' shared generator.");

  py::class_<RandomPlayer> random_player(m, "RandomPlayerCore");
  random_player
      .def(py::init([](py::handle seed) { return RandomPlayer(to_uint64(seed, "seed")); }),
           py::arg("seed"))
      .def("_choose", [](RandomPlayer& p, const State& s) { return encode(p.choose(s)); })
      // The pick among a view's n distinct legal moves: the draw _choose makes.
      .def("_below",
           [](RandomPlayer& p, py::handle n) { return p.rng().below(to_uint64(n, "n")); });
  def_generator_state(
      random_player, [](const RandomPlayer& p) { return p.rng(); },
      [](const Rng& rng) {
        RandomPlayer p;
        p.rng() = rng;
        return p;
      });
  m.def("_greedy_move", [](const State& s) { return encode(greedy_move(s)); });

  m.def(
      "_simulate",
      [](const Rules& rules, bool matches, uint64_t n, py::handle seed, int round_index,
         const std::vector<std::string>& policies, int threads, const py::object& progress) {
        const std::vector<Policy> pol = to_policies(policies);
        const uint64_t first_seed = to_uint64(seed, "seed");
        // Runs on this thread between waits, with the workers running: Ctrl-C
        // or an exception from progress() stops them (they are joined first).
        const SimMonitor monitor = [&progress](uint64_t done, uint64_t total) {
          py::gil_scoped_acquire gil;
          if (PyErr_CheckSignals() != 0) throw py::error_already_set();
          if (!progress.is_none()) progress(done, total);
          return true;
        };
        SimResult result;
        {
          py::gil_scoped_release release;
          result = matches
                       ? simulate_matches(rules, n, first_seed, pol, threads, monitor)
                       : simulate_rounds(rules, n, first_seed, round_index, pol, threads, monitor);
        }
        return sim_to_dict(std::move(result));
      },
      py::arg("rules"), py::arg("matches"), py::arg("n"), py::arg("seed"), py::arg("round_index"),
      py::arg("policies"), py::arg("threads"), py::arg("progress") = py::none());
  m.def(
      "_information_state_tensor_size",
      [](const Rules& rules) { return information_state_tensor_size(rules); }, py::arg("rules"));
  m.def(
      "_information_state_history_bound",
      [](const Rules& rules) { return information_state_history_bound(rules); }, py::arg("rules"));
  m.def(
      "_observation_tensor_size", [](const Rules& rules) { return observation_tensor_size(rules); },
      py::arg("rules"));
  m.def(
      "_observation_tensors",
      [](const std::vector<py::object>& rounds, const std::vector<int>& seats,
         const py::object& out) {
        // The GIL is released only to compute, on copies of the states taken
        // with the GIL held (another thread may push to a round meanwhile: it
        // holds the GIL to do so), into memory no one else can see; the rows
        // go to the caller's `out` afterwards, with the GIL held again.
        if (seats.size() != rounds.size())
          throw RulesError("seats must hold one seat per round: " + std::to_string(rounds.size()) +
                           " rounds, " + std::to_string(seats.size()) + " seats");
        std::vector<State> copies;
        std::vector<size_t> which(rounds.size());  // row i: the tensor of copies[which[i]]
        std::unordered_map<const State*, size_t> copied;
        int size = 0;
        for (size_t i = 0; i < rounds.size(); ++i) {
          const State& s = rounds[i].cast<const State&>();
          check_seat(s, seats[i]);
          const int k = observation_tensor_size(s.rules());
          if (i > 0 && k != size)
            throw StateError("every round must have the same rules (round " + std::to_string(i) +
                             "'s observation tensor has " + std::to_string(k) + " entries, not " +
                             std::to_string(size) + ")");
          size = k;
          const auto found = copied.find(&s);
          if (found != copied.end()) {
            which[i] = found->second;
          } else {
            which[i] = copies.size();
            copied.emplace(&s, copies.size());
            copies.push_back(s);
          }
        }
        const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rounds.size()),
                                             static_cast<py::ssize_t>(size)};
        float_buffer(out, shape, "observations");  // a bad `out` is refused before the work
        const size_t row = static_cast<size_t>(size);
        std::vector<float> rows(rounds.size() * row);
        {
          py::gil_scoped_release release;
          for (size_t i = 0; i < rounds.size(); ++i)
            observation_tensor(copies[which[i]], seats[i], rows.data() + i * row);
        }
        // Checked again: another thread may have changed `out` meanwhile.
        py::array buf = float_buffer(out, shape, "observations");
        std::copy(rows.begin(), rows.end(), static_cast<float*>(buf.mutable_data()));
        return buf;
      },
      py::arg("rounds"), py::arg("seats"), py::arg("out") = py::none());
  m.attr("STATE_BYTES") = sizeof(State);
  m.attr("MAX_THREADS") = kMaxThreads;
  m.attr("MAX_SIM_COUNT") = kMaxSimCount;
  // For the test that holds the core's hand-size tables equal to the Python
  // rules objects' (tests/test_parity.py): the two sides each need their own.
  m.def("_default_hand_size",
        [](const std::string& game, const std::string& rule_set, int set, int players) {
          return default_hand_size(parse_game(game), parse_rule_set(rule_set), set, players);
        });
  m.def("hardware_threads", [] {
    return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
  });
  bind_determinizer(m);  // after RoundCore, which gains _determinizer
  bind_search(m);
  bind_vector_env(m);  // after RoundCore, which its _state returns
  bind_match(m);
}
