// The binding of the vectorized environment (docs/ecosystem.md 4).
// bind_vector_env() runs once RoundCore is bound (module.cpp): its _state
// returns one.
//
// The environment's arrays are numpy views of the C++ buffers (read-only,
// kept alive by the VectorEnvCore object they are based on); every call that
// steps runs with the GIL released, serialised by the object's own lock, and
// reads nothing of the caller's but what it copied with the GIL held (the
// actions: docs/validation.md, "Threads").
#include "support.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dominocore/vector_env.hpp"

namespace dominocore::bindings {
namespace {

struct VectorEnvCore {
  VectorEnvCore(const Rules& rules, int num_envs, uint64_t seed, int threads, int round_index)
      : env(rules, num_envs, seed, threads, round_index) {}
  VectorEnv env;
  std::mutex lock;
};

}  // namespace
}  // namespace dominocore::bindings

PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)
PYBIND11_NAMESPACE_BEGIN(detail)
template <>
class type_caster<dominocore::bindings::VectorEnvCore>
    : public initialised_caster<dominocore::bindings::VectorEnvCore> {};
PYBIND11_NAMESPACE_END(detail)
PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)

namespace dominocore::bindings {
namespace {

// A read-only numpy view of `n0` x `n1` (n1 = 0: 1-d) items at `data`, based
// on `owner`.
template <class T>
py::array vector_env_view(const py::object& owner, const T* data, py::ssize_t n0, py::ssize_t n1,
                          const py::dtype& dtype = py::dtype::of<T>()) {
  std::vector<py::ssize_t> shape{n0};
  if (n1 > 0) shape.push_back(n1);
  py::array view(dtype, shape, data, owner);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

// The actions of a step, copied (with the GIL held) from a C-contiguous 1-d
// int64 numpy array of num_envs entries (dominocore.VectorEnv converts what it
// is given to one). The step checks and plays this copy: another thread may
// write to the caller's array at any time, even with the GIL held (numpy
// releases it to copy large arrays), so the array is read exactly once.
std::vector<int64_t> vector_env_actions(const VectorEnv& env, const py::handle& actions) {
  if (!py::array_t<int64_t, py::array::c_style>::check_(actions))
    throw RulesError("actions must be a C-contiguous numpy int64 array of shape (" +
                     std::to_string(env.num_envs()) + ",), got " + shown(actions));
  const auto arr = py::reinterpret_borrow<py::array>(actions);
  if (arr.ndim() != 1 || arr.shape(0) != env.num_envs())
    throw RulesError("actions must hold one action per environment: shape (" +
                     std::to_string(env.num_envs()) + ",), got an array of " +
                     std::to_string(arr.size()) + " entries in " + std::to_string(arr.ndim()) +
                     " dimensions");
  const auto* data = static_cast<const int64_t*>(arr.data());
  return std::vector<int64_t>(data, data + env.num_envs());
}

// IllegalMoveError("illegal_action") for environment i's action, worded by
// dominocore.common.messages as Round.apply_action words it, after the index.
[[noreturn]] void throw_illegal_in_env(const VectorEnv& env, int i, int64_t action) {
  const std::string text = py::str(illegal_action_text(env.state(i), py::int_(action)));
  raise_illegal("illegal_action", py::str("environment " + std::to_string(i) + ": " + text));
}

// Takes the environment's lock with the GIL released (a thread that holds the
// lock may be waiting for the GIL), and returns with both held.
std::unique_lock<std::mutex> hold_env(VectorEnvCore& c) {
  py::gil_scoped_release release;
  return std::unique_lock<std::mutex>(c.lock);
}

}  // namespace

// Binds VectorEnvCore (RoundCore must be bound: _state returns one).
void bind_vector_env(py::module_& m) {
  py::class_<VectorEnvCore> cls(m, "VectorEnvCore",
                                "The compiled vectorized environment (see dominocore.VectorEnv).");
  def_unpicklable(cls);
  cls.def(py::init(
              [](const Rules& rules, int num_envs, py::handle seed, int threads, int round_index) {
                return std::make_unique<VectorEnvCore>(rules, num_envs, to_uint64(seed, "seed"),
                                                       threads, round_index);
              }),
          py::arg("rules"), py::arg("num_envs"), py::arg("seed"), py::arg("threads"),
          py::arg("round_index"))
      .def_property_readonly("num_envs", [](VectorEnvCore& c) { return c.env.num_envs(); })
      .def_property_readonly("num_actions", [](VectorEnvCore& c) { return c.env.num_actions(); })
      .def_property_readonly("observation_size",
                             [](VectorEnvCore& c) { return c.env.observation_size(); })
      .def_property_readonly("threads", [](VectorEnvCore& c) { return c.env.threads(); })
      .def_property_readonly("seed",
                             [](VectorEnvCore& c) {
                               const auto hold = hold_env(c);
                               return c.env.seed();
                             })
      .def_property_readonly("bytes_per_env",
                             [](VectorEnvCore& c) {
                               const auto hold = hold_env(c);
                               return c.env.bytes_per_env();
                             })
      // (observations, masks, seats, rewards, terminations, actions, episodes):
      // views of the buffers every call rewrites.
      .def("_arrays",
           [](const py::object& self) {
             const VectorEnv& e = self.cast<VectorEnvCore&>().env;
             const auto n = static_cast<py::ssize_t>(e.num_envs());
             const py::dtype flag = py::dtype::of<bool>();
             return py::make_tuple(vector_env_view(self, e.observations(), n, e.observation_size()),
                                   vector_env_view(self, e.masks(), n, e.num_actions(), flag),
                                   vector_env_view(self, e.seats(), n, 0),
                                   vector_env_view(self, e.rewards(), n, e.players()),
                                   vector_env_view(self, e.terminations(), n, 0, flag),
                                   vector_env_view(self, e.actions(), n, 0),
                                   vector_env_view(self, e.episodes(), n, 0));
           })
      .def(
          "_reset",
          [](VectorEnvCore& c, py::handle seed) {
            const bool next = seed.is_none();
            const uint64_t s = next ? 0 : to_uint64(seed, "seed");
            py::gil_scoped_release release;
            const std::lock_guard<std::mutex> hold(c.lock);
            if (next)
              c.env.reset_next();
            else
              c.env.reset(s);
          },
          py::arg("seed"))
      .def(
          "_step",
          [](VectorEnvCore& c, const py::object& actions) {
            const std::vector<int64_t> a = vector_env_actions(c.env, actions);
            const auto hold = hold_env(c);
            const int bad = c.env.first_illegal(a.data());
            if (bad >= 0) throw_illegal_in_env(c.env, bad, a[static_cast<size_t>(bad)]);
            py::gil_scoped_release release;
            c.env.step(a.data());
          },
          py::arg("actions"))
      .def("_step_random",
           [](VectorEnvCore& c) {
             py::gil_scoped_release release;
             const std::lock_guard<std::mutex> hold(c.lock);
             c.env.step_random();
           })
      .def("_step_learned",
           [](VectorEnvCore& c) {
             const std::shared_ptr<const Network> net = network_for(c.env.rules());
             py::gil_scoped_release release;
             const std::lock_guard<std::mutex> hold(c.lock);
             c.env.step_learned(*net);
           })
      .def(
          "_state",
          [](VectorEnvCore& c, int i) {
            if (i < 0 || i >= c.env.num_envs())
              throw RulesError("env must be between 0 and " + std::to_string(c.env.num_envs() - 1) +
                               ", got " + std::to_string(i));
            const auto hold = hold_env(c);
            return State(c.env.state(i));
          },
          py::arg("env"));
}

}  // namespace dominocore::bindings
