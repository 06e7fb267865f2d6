// Inference (docs/information.md 5): worlds weighted by the likelihood of
// the other seats' moves under a model of how they play.
//
// A candidate world is drawn by the uniform sampler (determinize.cpp) and
// written into a scratch State; the scratch is then popped back to its deal,
// and each move of another seat is weighed in the position before it, where
// the mover's hand is the world's. The exact method keeps a candidate with
// probability L / B (rejection); resampling draws K candidates and keeps one
// in proportion to L.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "determinize_impl.hpp"
#include "dominocore/information.hpp"

namespace dominocore {

void Inference::validate() const {
  if (model != Model::None && model != Model::Random && model != Model::Softmax &&
      model != Model::Learned)
    throw RulesError("the opponent model must be none, random, softmax or learned");
  if (!(temperature > 0 && temperature <= kMaxTemperature))  // NaN fails too
    throw RulesError("temperature must be a number in (0, 1e6], got " +
                     std::to_string(temperature));
  if (candidates < 0 || candidates > kMaxCandidates)
    throw RulesError("candidates must be 0 (exact) or between 1 and " +
                     std::to_string(kMaxCandidates) + ", got " + std::to_string(candidates));
}

namespace {

/// The model's score of a move: the placed tile's hand score, 0 for a Draw or a Pass.
int score_of(const Move& m, bool double_blank_50) {
  return m.is_place() ? tile_score(m.tile, double_blank_50) : 0;
}

/// log L of a world, and log(L / B) (<= 0), the exact method's acceptance.
struct LogWeight {
  double log_l = 0, log_excess = 0;
};

/// log P of `m`, made by the seat to move in `w`, under the learned model:
/// the softmax of the network's logits / t over the distinct legal moves
/// `buf[0..n)` (whose action ids are distinct).
double learned_log_p(const State& w, const Move& m, const Network& net, double t, const Move* buf,
                     int n) {
  int ids[kMaxDistinctMoves];
  double probs[kMaxDistinctMoves];
  for (int k = 0; k < n; ++k) ids[k] = w.move_to_action(buf[k]);
  thread_local std::vector<float> obs;
  obs.resize(static_cast<size_t>(net.inputs()));
  observation_tensor(w, w.current_player(), obs.data());
  net.policy(obs.data(), ids, n, probs, t);
  const int made = w.move_to_action(m);  // a placement's distinct twin
  for (int k = 0; k < n; ++k)
    if (ids[k] == made) return std::log(probs[k]);
  throw std::logic_error("the move made is not among the distinct legal moves");
}

/// Weighs `w`, a world of `seat`'s information, under `inference`'s model,
/// popping it back to its deal. `exp_gap[d]` is exp(-d / t) (softmax);
/// `net` the learned model's network; `buf` holds kMaxDistinctMoves moves;
/// `terms` is scratch.
LogWeight weigh(State& w, int seat, const Inference& inference, const double* exp_gap,
                const Network* net, Move* buf, std::vector<std::pair<double, double>>& terms) {
  // Each other seat's move with a choice leaves (log P_i, log n_i), newest
  // first; they are summed in history order below.
  terms.clear();
  const bool blank50 = w.rules().double_blank_50;
  const double t = inference.temperature;
  while (w.num_moves() > 0) {
    const Move m = w.pop();
    if (w.current_player() == seat) continue;
    const int n = w.distinct_moves(buf);
    if (n <= 1) continue;  // forced: P = 1
    double log_p;
    if (inference.model == Inference::Model::Random) {
      log_p = -std::log(static_cast<double>(n));
    } else if (inference.model == Inference::Model::Learned) {
      log_p = learned_log_p(w, m, *net, t, buf, n);
    } else {  // scores are whole numbers: each exp((s - top) / t) is a table entry
      int top = 0;
      for (int k = 0; k < n; ++k) top = std::max(top, score_of(buf[k], blank50));
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += exp_gap[top - score_of(buf[k], blank50)];
      log_p = -static_cast<double>(top - score_of(m, blank50)) / t - std::log(sum);
    }
    // The placements of m's tile: every one was open to the mover, and the
    // score models give each the same probability, so P <= 1 / same (the
    // exact method's bound). The learned model's differ: its bound is P <= 1.
    int same = 0;
    if (m.is_place() && inference.model != Inference::Model::Learned)
      for (int k = 0; k < n; ++k) same += buf[k].is_place() && buf[k].tile == m.tile;
    terms.emplace_back(log_p, same > 1 ? std::log(static_cast<double>(same)) : 0.0);
  }
  LogWeight out;
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
    out.log_l += it->first;
    out.log_excess += it->first + it->second;
  }
  return out;
}

}  // namespace

const Inference& Determinizer::inference() const noexcept { return impl_->inference; }

void Determinizer::Impl::set_inference(const Inference& value) {
  inference = value;
  exp_gap.resize(kMaxScore + 1);
  for (int d = 0; d <= kMaxScore; ++d)
    exp_gap[static_cast<size_t>(d)] = std::exp(-d / value.temperature);
  network = value.model == Inference::Model::Learned ? network_for(rules) : nullptr;
}

double Determinizer::log_likelihood(const State& world) const {
  const Impl& im = *impl_;
  if (!(world.rules() == im.rules) || world.moves() != im.moves)
    throw StateError(
        "the world has other rules or another history than the determinizer's round: its "
        "likelihood is not defined");
  if (im.inference.model == Inference::Model::None) return 0.0;
  State w(world);
  std::vector<Move> buf(kMaxDistinctMoves);
  std::vector<std::pair<double, double>> terms;
  return weigh(w, im.seat, im.inference, im.exp_gap.data(), im.network.get(), buf.data(), terms)
      .log_l;
}

void Determinizer::draw(Rng& rng) {
  if (impl_->inference.model == Inference::Model::None)
    impl_->draw(rng);
  else
    draw_weighted(rng);
}

void Determinizer::draw_candidate(Rng& rng, std::optional<State>& world) {
  Impl& im = *impl_;
  im.draw(rng);
  ++im.stats.model_draws;
  if (!im.templ) make_template();
  if (world)
    *world = im.templ->world;
  else
    world.emplace(im.templ->world);
  write_hidden(*world);
}

State Determinizer::sample_weighed(Rng& rng, double& log_l) {
  Impl& im = *impl_;
  std::optional<State> world;
  draw_candidate(rng, world);
  State popped(*world);  // weigh() pops its world back to the deal
  log_l = im.inference.model == Inference::Model::None
              ? 0.0
              : weigh(popped, im.seat, im.inference, im.exp_gap.data(), im.network.get(),
                      im.move_buf.data(), im.terms)
                    .log_l;
  return std::move(*world);
}

void Determinizer::draw_weighted(Rng& rng) {
  Impl& im = *impl_;
  const auto weigh_candidate = [&]() {
    draw_candidate(rng, im.scratch_world);
    return weigh(*im.scratch_world, im.seat, im.inference, im.exp_gap.data(), im.network.get(),
                 im.move_buf.data(), im.terms);
  };
  const int K = im.inference.candidates;
  if (K == 0) {  // exact: keep with probability L / B
    for (uint64_t k = 0; k < Inference::kMaxRejections; ++k) {
      const double excess = weigh_candidate().log_excess;  // log(L / B) <= 0
      if (std::log(rng.unit()) < excess) return;
      ++im.stats.model_rejected;
    }
    throw StateError("cannot sample this position exactly under the opponent model: " +
                     std::to_string(Inference::kMaxRejections) +
                     " worlds in a row were rejected (the history is too unlikely under the "
                     "model; use candidates: docs/information.md 5)");
  }
  // Resampling: K candidates, one kept in proportion to L.
  im.candidate_tiles.resize(static_cast<size_t>(K));
  im.candidate_log.resize(static_cast<size_t>(K));
  double top = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < K; ++k) {
    const double log_l = weigh_candidate().log_l;
    im.candidate_log[static_cast<size_t>(k)] = log_l;
    im.candidate_tiles[static_cast<size_t>(k)] = im.tile_of_slot;
    top = std::max(top, log_l);
  }
  double total = 0;
  for (double& x : im.candidate_log) total += (x = std::exp(x - top));
  double u = rng.unit() * total;
  int chosen = K - 1;
  for (int k = 0; k < K; ++k) {
    u -= im.candidate_log[static_cast<size_t>(k)];
    if (u < 0) {
      chosen = k;
      break;
    }
  }
  std::swap(im.tile_of_slot, im.candidate_tiles[static_cast<size_t>(chosen)]);
}

}  // namespace dominocore
