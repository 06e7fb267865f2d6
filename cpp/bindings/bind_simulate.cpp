// The binding of simulate: rounds or matches on worker threads with the GIL
// released, stopped by Ctrl-C or by a progress callback that raises; the
// results come back as numpy arrays without a copy.
#include "support.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dominocore::bindings {

namespace {

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

}  // namespace

void bind_simulate(py::module_& m) {
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
}

}  // namespace dominocore::bindings
