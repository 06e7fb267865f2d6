// What the areas of the binding share (bindings.hpp lists the areas, each
// its own translation unit): the caster that refuses objects whose __init__
// never ran, the move codes, checked integer arguments, pickling, the
// errors, and the buffers tensors are written to. Every area includes this
// header first, so every one of them loads the bound classes through the
// same casters.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dominocore/dominocore.hpp"
#include "dominocore/information.hpp"
#include "dominocore/network.hpp"

namespace py = pybind11;

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
class type_caster<dominocore::Rng> : public initialised_caster<dominocore::Rng> {};
template <>
class type_caster<dominocore::Rules> : public initialised_caster<dominocore::Rules> {};
template <>
class type_caster<dominocore::State> : public initialised_caster<dominocore::State> {};
template <>
class type_caster<dominocore::Bots> : public initialised_caster<dominocore::Bots> {};
template <>
class type_caster<dominocore::Network> : public initialised_caster<dominocore::Network> {};
template <>
class type_caster<dominocore::RandomPlayer> : public initialised_caster<dominocore::RandomPlayer> {
};

PYBIND11_NAMESPACE_END(detail)
PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)

namespace dominocore::bindings {

/// A Move as one int: Place = tile * END_BITS + end id, Draw = DRAW_CODE,
/// Pass = PASS_CODE (module.cpp says why).
int encode(const Move& m);

Move decode(int code);

py::list encode_all(const std::vector<Move>& moves);

// The Python exception classes live in dominocore.common.errors (pure
// Python), so both implementations raise the very same classes.
py::object error_class(const char* name);

// repr(value) for an error message, kept short (Python 3.11+ cannot even
// print an integer of more than 4300 digits by default).
std::string shown(py::handle value);

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
py::tuple state_tuple(const Rng& rng);

Rng rng_from_state(const py::object& state);

// copy.copy / copy.deepcopy (memo given) through the pickle state, so that a
// Python subclass keeps its class and its attributes.
py::object copy_through_state(const py::object& self, const py::object& memo);

// Every class defines __reduce__ and __reduce_ex__: object's own, for pickle
// protocols 0 and 1, would call the pybind11 base type on the object, which
// aborts the interpreter (pybind11 3.1).
template <class T, class... Extra>
void def_unpicklable(py::class_<T, Extra...>& cls) {
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

std::vector<Policy> to_policies(const std::vector<std::string>& names);

// Raises dominocore's IllegalMoveError(reason, text) through pybind11.
[[noreturn]] void raise_illegal(const char* reason, const py::object& text);

// The words of IllegalMoveError("illegal_action") for `action` in `s`, from
// dominocore.common.messages as the reference words it.
py::object illegal_action_text(const State& s, py::handle action);

// The seat check of every information query, worded as
// dominocore.common.checks.check_seat words it.
void check_seat(const State& s, int seat);

// The float32 buffer a tensor is written to: `out` when it is a writable,
// C-contiguous float32 numpy array of exactly `shape` (RulesError otherwise,
// as for legal_action_mask's `out`: a cast would write to a copy), else, for
// None, a new array.
py::array float_buffer(const py::object& out, const std::vector<py::ssize_t>& shape,
                       const char* what);

}  // namespace dominocore::bindings
