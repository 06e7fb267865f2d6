// The binding of the exact determinizer (docs/information.md 4) and its inference (5).
// bind_determinizer() runs once RoundCore is bound (module.cpp).
#include "support.hpp"

#include <memory>
#include <mutex>
#include <string>

#include "dominocore/determinize.hpp"

namespace dominocore::bindings {
namespace {

// A Determinizer shared with Python. Sampling runs with the GIL released, so
// the object's own lock serialises the calls on one determinizer (its count
// is built lazily and its statistics change on every sample). A thread that
// holds the lock never waits for the GIL (it took the lock after releasing
// the GIL, or holds the GIL throughout): no deadlock between the two.
struct DeterminizerCore {
  DeterminizerCore(const State& state, int seat, int proposals, Determinizer::Method method,
                   const Inference& inference)
      : det(state, seat, proposals, method, inference) {}
  Determinizer det;
  std::mutex lock;
};

}  // namespace
}  // namespace dominocore::bindings

PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)
PYBIND11_NAMESPACE_BEGIN(detail)
template <>
class type_caster<dominocore::bindings::DeterminizerCore>
    : public initialised_caster<dominocore::bindings::DeterminizerCore> {};
PYBIND11_NAMESPACE_END(detail)
PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)

namespace dominocore::bindings {

// Binds DeterminizerCore and RoundCore._determinizer (RoundCore must be bound).
void bind_determinizer(py::module_& m) {
  py::class_<DeterminizerCore> cls(
      m, "DeterminizerCore",
      "The compiled exact determinizer of one seat (see dominocore.Round.determinizer).");
  def_unpicklable(cls);
  cls.def_property_readonly("seat", [](DeterminizerCore& d) { return d.det.seat(); })
      .def(
          "_sample",
          [](DeterminizerCore& d, py::handle seed) {
            // Samples without the GIL, under the determinizer's own lock,
            // from `rng`, a generator of this call's own.
            const auto sample = [&d](Rng& rng) {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> hold(d.lock);
              return d.det.sample(rng);
            };
            if (!py::isinstance<Rng>(seed)) {
              Rng rng(to_uint64(seed, "seed"));
              return sample(rng);
            }
            // A SplitMix64 (perhaps shared with other threads) advances by
            // the sample's draws as one step: its state is copied, sampled
            // from without the GIL, and written back only if nothing drew
            // from it meanwhile. Otherwise the sample is drawn again from its
            // state now, the GIL held throughout, so nothing can draw in
            // between (a world is a function of the generator's state alone).
            const Rng start = seed.cast<Rng&>();
            Rng rng = start;
            State world = sample(rng);
            Rng& shared = seed.cast<Rng&>();  // the GIL is held again
            if (shared != start) {
              rng = shared;
              const std::lock_guard<std::mutex> hold(d.lock);
              world = d.det.sample(rng);
            }
            shared = rng;
            return world;
          },
          py::arg("seed"),
          "A world (a RoundCore) drawn with `seed`, an integer 0..2**64-1 or a SplitMix64 "
          "(which advances).")
      .def(
          "_sample_deal",
          [](DeterminizerCore& d, py::handle seed) {
            Rng rng(to_uint64(seed, "seed"));
            Deal deal;
            {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> hold(d.lock);
              deal = d.det.sample_deal(rng);
            }
            return py::make_tuple(deal.centre, deal.starter, deal.hands, deal.yard,
                                  deal.setup_draws, deal.highest_double, deal.carried);
          },
          py::arg("seed"),
          "The deal of the world `_sample(seed)` gives (an integer seed), as RoundCore._deal, "
          "before its history is replayed (tests of the worlds).")
      .def_property_readonly(
          "_stats",
          [](DeterminizerCore& d) {
            DeterminizerStats s;
            {
              const std::lock_guard<std::mutex> hold(d.lock);
              s = d.det.stats();
            }
            py::dict out;
            out["tiles"] = s.tiles;
            out["slots"] = s.slots;
            out["cells"] = s.cells;
            out["count_built"] = s.count_built;
            out["count_by_seat"] = s.count_by_seat;
            out["count_too_large"] = s.count_too_large;
            out["count_states"] = s.count_states;
            out["count_edges"] = s.count_edges;
            out["log2_worlds"] = s.count_built && !s.count_relaxed
                                     ? py::object(py::float_(s.log2_worlds))
                                     : py::none();
            out["samples"] = s.samples;
            out["proposals"] = s.proposals;
            out["accepted"] = s.accepted;
            out["count_samples"] = s.count_samples;
            out["count_rejected"] = s.count_rejected;
            out["count_relaxed"] = s.count_relaxed;
            out["exact_groups"] = s.exact_groups;
            out["count_groups"] = s.count_groups;
            out["relaxed_misses"] = s.relaxed_misses;
            out["relaxed_rejected"] = s.relaxed_rejected;
            out["model_draws"] = s.model_draws;
            out["model_rejected"] = s.model_rejected;
            return out;
          },
          "What the determinizer built and did so far (see dominocore.Round.determinizer).")
      .def(
          "_log_likelihood",
          [](DeterminizerCore& d, const State& world) {
            py::gil_scoped_release release;
            const std::lock_guard<std::mutex> hold(d.lock);
            return d.det.log_likelihood(world);
          },
          py::arg("world"),
          "log L(world) under the determinizer's opponent model (docs/information.md 5); "
          "StateError for a world with other rules or moves.");

  auto round_core = py::reinterpret_borrow<py::class_<State>>(m.attr("RoundCore"));
  round_core.def(
      "_determinizer",
      [](const State& s, int seat, int proposals, const std::string& method, int model,
         double temperature, int candidates) {
        using Method = Determinizer::Method;
        const Method m = method == "auto"   ? Method::Auto
                         : method == "tile" ? Method::ByTile
                         : method == "seat" ? Method::BySeat
                         : method == "coarse"
                             ? Method::Coarse
                             : throw RulesError("method must be auto, tile, seat or coarse");
        Inference inference;
        if (model < 0 || model > 3) throw RulesError("model must be 0, 1, 2 or 3");
        inference.model = static_cast<Inference::Model>(model);
        inference.temperature = temperature;
        inference.candidates = candidates;
        return std::make_unique<DeterminizerCore>(s, seat, proposals, m, inference);
      },
      py::arg("seat"), py::arg("proposals") = Determinizer::kProposals, py::arg("method") = "auto",
      py::arg("model") = 0, py::arg("temperature") = 3.0, py::arg("candidates") = 0,
      "The determinizer of `seat` (StateError once the round is over); `proposals`: baseline "
      "proposals per sample before the exact count (0: the count only, for tests); `method`: "
      "the count to build (auto; or tile, seat or coarse, for tests); `model` (0 none, 1 "
      "random, 2 softmax, 3 learned), `temperature` and `candidates` (0 exact): the inference of "
      "docs/information.md 5.");
}

}  // namespace dominocore::bindings
