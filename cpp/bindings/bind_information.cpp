// The binding of what a seat may know as tensors (docs/information.md 3):
// their sizes, and many rounds' observation tensors at once.
#include "support.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace dominocore::bindings {

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
}

}  // namespace dominocore::bindings
