// The binding of what a seat may know as tensors (docs/information.md 3):
// their sizes, and many rounds' observation tensors at once.
#include "support.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace dominocore::bindings {

namespace {

// The state a RoundCore object holds, or nullptr for anything else (another
// type, or a RoundCore whose __init__ never ran).
const State* core_state(PyObject* obj, PyTypeObject* core_type,
                        const py::detail::type_info* info) noexcept {
  if (Py_TYPE(obj) != core_type) return nullptr;
  const auto v_h = reinterpret_cast<py::detail::instance*>(obj)->get_value_and_holder(info, false);
  if (!v_h.inst || !v_h.holder_constructed()) return nullptr;
  return static_cast<const State*>(v_h.value_ptr());
}

// A seat in 0..players-1 from an exact Python int (-1 for anything else).
int plain_seat(PyObject* obj, int players) noexcept {
  if (!PyLong_CheckExact(obj)) return -1;
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(obj, &overflow);
  return overflow || v < 0 || v >= players ? -1 : static_cast<int>(v);
}

// Round.observation_tensors' common case in one C++ pass: `rounds` a list
// or tuple of dominocore Rounds (`round_class` or a subclass) holding one
// rules object, `seats` an int or a list, tuple or 1-d int64/int32 numpy
// array of valid seats, `out` None or a buffer that fits. Any other input
// gives nullopt, and the wrapper runs its full checks (and their errors).
// Every attribute is read as Python reads it (r._s, r._rules).
std::optional<py::array> fast_observation_tensors(const py::handle& round_class,
                                                  const py::handle& rounds, const py::handle& seats,
                                                  const py::handle& out) {
  PyObject* seq = rounds.ptr();
  if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) return std::nullopt;
  const auto n = static_cast<size_t>(PySequence_Fast_GET_SIZE(seq));
  if (n == 0 || !PyType_Check(round_class.ptr())) return std::nullopt;
  PyObject** items = PySequence_Fast_ITEMS(seq);
  const auto* cls = reinterpret_cast<PyTypeObject*>(round_class.ptr());
  static const py::detail::type_info* info = py::detail::get_type_info(typeid(State));
  PyTypeObject* core_type = info->type;
  const py::str s_name("_s"), rules_name("_rules");
  std::vector<const State*> states(n);
  py::object rules;
  for (size_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (!PyObject_TypeCheck(item, const_cast<PyTypeObject*>(cls))) return std::nullopt;
    const auto core = py::reinterpret_steal<py::object>(PyObject_GetAttr(item, s_name.ptr()));
    const auto r = py::reinterpret_steal<py::object>(PyObject_GetAttr(item, rules_name.ptr()));
    if (!core || !r) {
      PyErr_Clear();
      return std::nullopt;
    }
    if (i == 0)
      rules = r;
    else if (!r.is(rules))  // not the same object: the wrapper compares them
      return std::nullopt;
    // Every round holds the state the wrapper's own rounds hold (checked_round).
    states[i] = core_state(core.ptr(), core_type, info);
    if (!states[i] || (i > 0 && states[i]->rules() != states[0]->rules())) return std::nullopt;
  }
  const int players = states[0]->players();
  std::vector<int> seat(n);
  if (PyLong_CheckExact(seats.ptr())) {
    const int s = plain_seat(seats.ptr(), players);
    if (s < 0) return std::nullopt;
    std::fill(seat.begin(), seat.end(), s);
  } else if (PyList_CheckExact(seats.ptr()) || PyTuple_CheckExact(seats.ptr())) {
    if (static_cast<size_t>(PySequence_Fast_GET_SIZE(seats.ptr())) != n) return std::nullopt;
    PyObject** given = PySequence_Fast_ITEMS(seats.ptr());
    for (size_t i = 0; i < n; ++i)
      if ((seat[i] = plain_seat(given[i], players)) < 0) return std::nullopt;
  } else {
    const auto take = [&](auto tag) {
      using T = decltype(tag);
      if (!py::array_t<T, py::array::c_style>::check_(seats)) return false;
      const auto arr = py::reinterpret_borrow<py::array>(seats);
      if (arr.ndim() != 1 || static_cast<size_t>(arr.shape(0)) != n) return false;
      const T* data = static_cast<const T*>(arr.data());
      for (size_t i = 0; i < n; ++i) {
        if (data[i] < 0 || data[i] >= players) return false;
        seat[i] = static_cast<int>(data[i]);
      }
      return true;
    };
    if (!take(int64_t{}) && !take(int32_t{})) return std::nullopt;
  }
  const int size = observation_tensor_size(states[0]->rules());
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n), size};
  py::array buf;
  if (out.is_none()) {
    buf = py::array_t<float>(shape);
  } else {
    if (!py::array_t<float, py::array::c_style>::check_(out)) return std::nullopt;
    buf = py::reinterpret_borrow<py::array>(out);
    if (!buf.writeable() || buf.ndim() != 2 || buf.shape(0) != shape[0] || buf.shape(1) != size)
      return std::nullopt;
  }
  observation_tensors(states.data(), seat.data(), n, static_cast<float*>(buf.mutable_data()));
  return buf;
}

}  // namespace

void bind_information(py::module_& m) {
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
        // The GIL stays held: the rows are each round as it is at the call,
        // written in one pass, which costs less than copying the rounds.
        if (seats.size() != rounds.size())
          throw RulesError("seats must hold one seat per round: " + std::to_string(rounds.size()) +
                           " rounds, " + std::to_string(seats.size()) + " seats");
        std::vector<const State*> states(rounds.size());
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
          if (i > 0 && s.rules() != states[0]->rules())
            throw StateError("every round must have the same rules (round " + std::to_string(i) +
                             "'s differ from round 0's)");
          states[i] = &s;
        }
        py::array buf = float_buffer(
            out, {static_cast<py::ssize_t>(rounds.size()), static_cast<py::ssize_t>(size)},
            "observations");
        observation_tensors(states.data(), seats.data(), states.size(),
                            static_cast<float*>(buf.mutable_data()));
        return buf;
      },
      py::arg("rounds"), py::arg("seats"), py::arg("out") = py::none());
  m.def(
      "_observation_tensors_fast",
      [](const py::handle& round_class, const py::handle& rounds, const py::handle& seats,
         const py::handle& out) -> py::object {
        auto tensors = fast_observation_tensors(round_class, rounds, seats, out);
        if (!tensors) return py::none();
        return *tensors;
      },
      py::arg("round_class"), py::arg("rounds"), py::arg("seats"), py::arg("out"));
}

}  // namespace dominocore::bindings
