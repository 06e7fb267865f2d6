// What the Cython declarations (dominocore/__init__.pxd, docs/cython.md) need
// besides the engine's headers: the handler that turns the engine's exceptions
// into dominocore's Python exceptions (`except +raise_py_error`), and the
// functions that return a State by value as a new heap State (Cython cannot
// hold a class without a default constructor in a temporary).
//
// Only extensions built against dominocore include this header (it needs
// Python.h); the engine and the pybind11 module do not.
#pragma once

#include <Python.h>

#include <new>
#include <stdexcept>

#include "dominocore/determinize.hpp"
#include "dominocore/move.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/sim.hpp"
#include "dominocore/state.hpp"

namespace dominocore {
namespace cython {

/// dominocore.common.errors.<name> (a new reference), or `fallback` (borrowed,
/// increfed) when that cannot be imported.
inline PyObject* error_class(const char* name, PyObject* fallback) {
  PyObject* module = PyImport_ImportModule("dominocore.common.errors");
  PyObject* cls = module ? PyObject_GetAttrString(module, name) : nullptr;
  Py_XDECREF(module);
  if (!cls) {
    PyErr_Clear();
    Py_INCREF(fallback);
    cls = fallback;
  }
  return cls;
}

/// Sets the Python error for the C++ exception being handled: IllegalMove as
/// IllegalMoveError (with its reason code), RulesError and StateError as
/// theirs, Cancelled as KeyboardInterrupt, std::bad_alloc as MemoryError,
/// another std::invalid_argument as ValueError, anything else as
/// RuntimeError. Call it only inside a catch block (Cython's handlers are).
inline void raise_py_error() {
  try {
    throw;
  } catch (const IllegalMove& e) {
    PyObject* cls = error_class("IllegalMoveError", PyExc_ValueError);
    PyObject* exc = cls == PyExc_ValueError ? PyObject_CallFunction(cls, "s", e.what())
                                            : PyObject_CallFunction(cls, "ss", e.code(), e.what());
    if (exc) {
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc)), exc);
      Py_DECREF(exc);
    }
    Py_DECREF(cls);
  } catch (const RulesError& e) {
    PyObject* cls = error_class("RulesError", PyExc_ValueError);
    PyErr_SetString(cls, e.what());
    Py_DECREF(cls);
  } catch (const StateError& e) {
    PyObject* cls = error_class("StateError", PyExc_ValueError);
    PyErr_SetString(cls, e.what());
    Py_DECREF(cls);
  } catch (const Cancelled& e) {
    PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception in dominocore");
  }
}

/// determinize(state, seat, seed) as a new State (the caller deletes it).
inline State* determinize_new(const State& state, int seat, uint64_t seed) {
  return new State(determinize(state, seat, seed));
}

/// determinizer.sample(rng) as a new State (the caller deletes it).
inline State* sample_new(Determinizer& determinizer, Rng& rng) {
  return new State(determinizer.sample(rng));
}

}  // namespace cython
}  // namespace dominocore
