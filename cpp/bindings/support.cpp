// The helpers the areas of the binding share (support.hpp).
#include "support.hpp"

#include <string>
#include <vector>

namespace dominocore::bindings {

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

std::vector<Policy> to_policies(const std::vector<std::string>& names) {
  std::vector<Policy> out;
  for (const auto& n : names) out.push_back(parse_policy(n));
  return out;
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

}  // namespace dominocore::bindings
