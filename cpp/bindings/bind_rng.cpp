// The binding of the generator, SplitMix64 (docs/rules.md 1.6): public as
// dominocore.SplitMix64.
#include "support.hpp"

#include <cstdio>
#include <string>

namespace dominocore::bindings {

void bind_rng(py::module_& m) {
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
}

}  // namespace dominocore::bindings
