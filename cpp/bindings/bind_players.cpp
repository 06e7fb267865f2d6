// The binding of the built-in players: Bots (one policy per seat),
// RandomPlayerCore (simulate's random policy), the greedy move, and the
// learned policy's network (docs/learning.md 3).
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

  py::class_<Network, std::shared_ptr<Network>> network(
      m, "Network", "A learned policy's fixed-point network, read from a weights file.");
  def_unpicklable(network);
  network
      .def_static(
          "parse",
          [](const py::bytes& data) {
            const std::string_view bytes = data;
            // Network is immutable: the const is dropped only for pybind11's holder.
            return std::const_pointer_cast<Network>(
                Network::parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
          },
          py::arg("data"))
      .def_property_readonly("key", &Network::key)
      .def_property_readonly("inputs", &Network::inputs)
      .def_property_readonly("actions", &Network::actions)
      .def_property_readonly("value_scale", &Network::value_scale)
      .def_property_readonly("hidden",
                             [](const Network& n) {
                               std::vector<int> sizes;
                               for (int l = 0; l + 1 < n.layers(); ++l)
                                 sizes.push_back(n.hidden(l));
                               return sizes;
                             })
      .def("check_rules", &Network::check_rules, py::arg("rules"))
      .def(
          "outputs",
          [](const Network& n, const State& s, int seat) {
            std::vector<float> obs(static_cast<size_t>(n.inputs()));
            n.check_rules(s.rules());
            observation_tensor(s, seat, obs.data());
            return n.outputs(obs.data());
          },
          py::arg("state"), py::arg("seat"));
  m.def(
      "register_network", [](const std::shared_ptr<Network>& n) { register_network(n); },
      py::arg("network"));
  m.def(
      "network_for",
      [](const Rules& rules) { return std::const_pointer_cast<Network>(network_for(rules)); },
      py::arg("rules"));
  m.def("network_key", &network_key, py::arg("rules"));
  m.def(
      "_is_registered", [](const std::string& key) { return registered_network(key) != nullptr; },
      py::arg("key"));
  m.def("_learned_move", [](const State& s) {
    if (s.is_over()) throw StateError("the round is over: there is no move to choose");
    return encode(learned_move(s, *network_for(s.rules())));
  });
}

}  // namespace dominocore::bindings
