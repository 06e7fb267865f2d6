// The binding of the search bots (docs/search.md). Searches run with the GIL
// released, on a copy of the state taken while it is held: another Python
// thread may push and pop on the round meanwhile (docs/validation.md
// "Objects").
#include "support.hpp"

#include <string>
#include <vector>

#include "dominocore/search.hpp"

PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)
PYBIND11_NAMESPACE_BEGIN(detail)
template <>
class type_caster<dominocore::SearchCache> : public initialised_caster<dominocore::SearchCache> {};
PYBIND11_NAMESPACE_END(detail)
PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)

namespace dominocore::bindings {

void bind_search(py::module_& m) {
  py::class_<SearchCache> cache(
      m, "SearchCache",
      "What a search bot keeps between searches: the determinizers of the last few information "
      "states it searched (docs/search.md 2).");
  def_unpicklable(cache);
  cache.def(py::init<>())
      .def_property_readonly("size", &SearchCache::size)
      .def_property_readonly("hits", &SearchCache::hits)
      .def_property_readonly("misses", &SearchCache::misses)
      .def("clear", &SearchCache::clear, py::call_guard<py::gil_scoped_release>());
  m.def(
      "_search",
      [](const State& shared, const std::string& algorithm, py::handle iterations, double seconds,
         double c, const std::string& rollout, int trees, int threads, py::handle seed,
         const std::string& reward, int max_depth, SearchCache* cache, int model,
         double temperature, int candidates, int pool, int prior, const std::string& leaf) {
        // The copy is taken before any Python code can run (the options'
        // conversions may call __index__): the search reads one position.
        const State state(shared);
        SearchOptions o;
        o.algorithm = parse_search_algorithm(algorithm);
        o.iterations = to_uint64(iterations, "iterations");
        o.seconds = seconds;
        o.c = c;
        o.rollout = parse_policy(rollout);
        o.trees = trees;
        o.threads = threads;
        o.seed = to_uint64(seed, "seed");
        o.reward = parse_search_reward(reward);
        o.max_depth = max_depth;
        if (model < 0 || model > 3) throw RulesError("model must be 0, 1, 2 or 3");
        o.inference.model = static_cast<Inference::Model>(model);
        o.inference.temperature = temperature;
        o.inference.candidates = candidates;
        o.pool = pool;
        if (prior < 0 || prior > 2) throw RulesError("prior must be 0, 1 or 2");
        o.prior = static_cast<SearchPrior>(prior);
        o.leaf = parse_search_leaf(leaf);
        SearchResult r;  // search() checks the options and the round (exceptions cross the release)
        {
          py::gil_scoped_release release;
          r = search(state, o, cache);
        }
        py::dict out;
        out["move"] = encode(r.move);
        out["moves"] = encode_all(r.moves);
        out["visits"] = r.visits;
        out["mean_reward"] = r.mean_reward;
        out["iterations"] = r.iterations;
        out["tree_iterations"] = r.tree_iterations;
        out["nodes"] = r.nodes;
        out["seconds"] = r.seconds;
        out["reused"] = r.reused;
        return out;
      },
      py::arg("state"), py::arg("algorithm"), py::arg("iterations"), py::arg("seconds"),
      py::arg("c"), py::arg("rollout"), py::arg("trees"), py::arg("threads"), py::arg("seed"),
      py::arg("reward"), py::arg("max_depth"), py::arg("cache") = nullptr, py::arg("model") = 0,
      py::arg("temperature") = 3.0, py::arg("candidates") = 0, py::arg("pool") = 0,
      py::arg("prior") = 0, py::arg("leaf") = "rollout",
      "Searches for the seat to move (docs/search.md); returns the move code and root "
      "statistics. `model` (0 none, 1 random, 2 softmax, 3 learned), `temperature` and "
      "`candidates` (0 "
      "exact): the determinizer's inference (docs/information.md 5); `pool`: IS-MCTS's "
      "weighted worlds drawn once per tree (0: none).");
  m.def(
      "_state_from_knowledge",
      [](const Rules& rules, int seat, int round_index, int centre, int starter,
         bool highest_double, const std::vector<int>& hand, const std::vector<int>& hand_sizes,
         const std::vector<int>& own_search, const std::vector<int>& search_counts,
         const std::vector<int>& movers, const std::vector<int>& codes,
         const std::vector<int>& drawn, bool over, const std::vector<int>& carried) {
        SeatKnowledge k;
        k.seat = seat;
        k.round_index = round_index;
        k.centre = centre;
        k.starter = starter;
        k.highest_double = highest_double;
        k.hand = hand;
        k.hand_sizes = hand_sizes;
        k.own_search = own_search;
        k.search_counts = search_counts;
        k.movers = movers;
        k.drawn = drawn;
        k.over = over;
        k.carried = carried;
        const int bound = information_state_history_bound(rules);
        if (codes.size() > static_cast<size_t>(bound))
          throw StateError("inconsistent seat knowledge: a history longer than any round (" +
                           std::to_string(bound) + " moves)");
        k.moves.reserve(codes.size());
        for (int code : codes) {
          if (code != kDrawCode && code != kPassCode &&
              (code < 0 || code >= kMaxTiles * kMoveCodeEnds))
            throw StateError("inconsistent seat knowledge: move code " + std::to_string(code) +
                             " is out of range");
          k.moves.push_back(decode(code));
        }
        py::gil_scoped_release release;
        return state_from_knowledge(rules, k);
      },
      py::arg("rules"), py::arg("seat"), py::arg("round_index"), py::arg("centre"),
      py::arg("starter"), py::arg("highest_double"), py::arg("hand"), py::arg("hand_sizes"),
      py::arg("own_search"), py::arg("search_counts"), py::arg("movers"), py::arg("codes"),
      py::arg("drawn"), py::arg("over") = false, py::arg("carried") = std::vector<int>{},
      "A state (RoundCore) with the given seat's information and made-up hidden tiles, the "
      "history replayed with every move checked: for searching from a PlayerView, and for "
      "checking one (StateError for information no round gives).");
}

}  // namespace dominocore::bindings
