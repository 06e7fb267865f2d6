// The binding of the built-in players: Bots (one policy per seat),
// RandomPlayerCore (simulate's random policy) and the greedy move.
#include "support.hpp"

namespace dominocore::bindings {

void bind_players(py::module_& m) {
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
}

}  // namespace dominocore::bindings
