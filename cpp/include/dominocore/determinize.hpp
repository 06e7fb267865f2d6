// Exact determinization (docs/information.md 4): worlds sampled uniformly
// among those consistent with what one seat knows.
//
// A Determinizer reads a round once (its public history and the seat's
// private history), builds the slot model of docs/information.md 4 and then
// samples as many worlds as wanted: a world is a full State with the same
// rules, deal facts and moves, whose hidden tiles (the other hands as dealt,
// their search draws, the tiles they drew, the yard order) are drawn
// uniformly over every consistent assignment.
//
// Sampling first tries up to kProposals baseline proposals (the placed tiles
// in placement order into a uniform free slot got before the placement, the
// rest shuffled; rejected when a constraint fails), and only when all fail
// builds the exact count of consistent worlds (once; later samples and clones reuse it:
// the count by tile, or past its bound the count by seat) and samples from
// it. Both paths are exact, and a world depends on the seed
// alone (not on earlier samples); see determinize.cpp and the files it names.
//
// With an Inference model (docs/information.md 5), worlds are instead drawn
// in proportion to the likelihood of the other seats' moves under the model:
// exactly, by rejection of uniform worlds, or by resampling among K of them
// (determinize_infer.cpp).
//
// Besides conditions 1-4 of docs/information.md 4, a world must keep the
// round going: once nobody may draw, some hand holds a tile with a legal end
// (else the round would be blocked, over). Both paths reject worlds that
// break it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "dominocore/rng.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

/// What a Determinizer has built and done so far (for benchmarks and tests).
struct DeterminizerStats {
  int tiles = 0;  ///< tiles it places: the unseen pool and the other seats' placed tiles
                  ///< (those placed right after their Draw excluded: their slot is fixed)
  int slots = 0;  ///< slots it fills: the other seats' (fixed ones excluded) and the yard's
  int cells = 0;  ///< cells of the slot model (slots of one seat allowing the same tiles;
                  ///< the yard is one)
  bool count_built = false;       ///< whether a count was built (exact, or of a coarser model)
  bool count_by_seat = false;     ///< the count built is the count by seat (else by tile)
  bool count_too_large = false;   ///< no count fitted its bound: proposals only
  uint64_t count_states = 0;      ///< memo entries of the count by tile, or the work of the
                                  ///< count by seat (0 until built)
  uint64_t count_edges = 0;       ///< transitions between them
  double log2_worlds = 0;         ///< log2 of the number of worlds satisfying conditions 1-4
                                  ///< (before the liveness check), once counted; of the
                                  ///< coarser model's worlds when count_relaxed
  uint64_t samples = 0;           ///< worlds sampled
  uint64_t proposals = 0;         ///< baseline proposals tried
  uint64_t accepted = 0;          ///< baseline proposals accepted
  uint64_t count_samples = 0;     ///< worlds drawn from the count
  uint64_t count_rejected = 0;    ///< draws of the count rejected: the round would be blocked now
  bool count_relaxed = false;     ///< the count by seat is of a coarser model, whose draws the
                                  ///< exact model accepts or rejects (docs/information.md 4)
  uint64_t model_draws = 0;       ///< uniform worlds drawn to be weighted by the model
  uint64_t model_rejected = 0;    ///< of those, rejected by the exact method
  int exact_groups = 0;           ///< groups of unseen tiles of the exact model (count by seat)
  int count_groups = 0;           ///< groups of the model counted by seat
  double relaxed_misses = 0;      ///< estimated misplaced tiles a draw of that model (0: exact;
                                  ///< the acceptance is about e^-misses)
  uint64_t relaxed_rejected = 0;  ///< draws of the coarser model that the exact model rejected
};

/// Inference (docs/information.md 5): a model of how the other seats play,
/// and how worlds are drawn weighted by the likelihood of their moves under
/// it. The default (no model) is the uniform sampler.
struct Inference {
  enum class Model : uint8_t { None = 0, Random = 1, Softmax = 2, Learned = 3 };
  /// Random: uniform over the distinct legal moves; Softmax: exp(score/t)
  /// over them, score the placed tile's hand score (0 for Draw and Pass);
  /// Learned: exp(logit/t) over them, logit the learned network's for the
  /// move's action id (docs/learning.md 3; the rules' network_for()).
  Model model = Model::None;
  double temperature = 3;  ///< Softmax's and Learned's t, in (0, kMaxTemperature]
  /// 0: exact, by rejection; K >= 1: one of K uniform worlds, drawn with
  /// probability proportional to its likelihood (sampling-importance-resampling).
  int candidates = 0;

  static constexpr int kMaxCandidates = 4096;
  static constexpr double kMaxTemperature = 1e6;
  /// Rejected draws in a row after which the exact method gives up.
  static constexpr uint64_t kMaxRejections = uint64_t{1} << 20;
  /// Throws RulesError for a value out of range.
  void validate() const;
  friend bool operator==(const Inference& a, const Inference& b) noexcept {
    return a.model == b.model && a.temperature == b.temperature && a.candidates == b.candidates;
  }
};

class Determinizer {
 public:
  /// Baseline proposals tried per sample before the count is used.
  static constexpr int kProposals = 8;
  /// The counts (determinize_build.cpp): Auto tries the count by tile, then the
  /// count by seat of the exact model and of coarser ones, each within a
  /// bound; ByTile and BySeat force one exact count without a bound, Coarse
  /// the coarser models alone (tests of each).
  enum class Method { Auto, ByTile, BySeat, Coarse };

  /// Prepares sampling for `seat` in `state` (which may change or go away
  /// afterwards: the determinizer keeps what it needs). `proposals`: the
  /// baseline proposals a sample tries before the count (0 forces the count
  /// from the first sample: for tests of either path); `method`: the count
  /// to build (tests of each; Auto in play). Throws StateError when the round
  /// is over, RulesError for a seat outside 0..p-1.
  Determinizer(const State& state, int seat, int proposals = kProposals,
               Method method = Method::Auto, const Inference& inference = {});
  ~Determinizer();
  Determinizer(Determinizer&&) noexcept;
  Determinizer& operator=(Determinizer&&) noexcept;
  Determinizer(const Determinizer&) = delete;
  Determinizer& operator=(const Determinizer&) = delete;

  /// A determinizer of the same seat and information that shares this one's
  /// count: the count is built at most once, by whichever of them first needs
  /// it (under a lock), and then only read. Each copy has its own scratch and
  /// statistics, so copies may sample on different threads at once (one
  /// determinizer on two threads at once may not). A copy's worlds are those
  /// of the original for the same generator state.
  Determinizer clone() const;

  int seat() const noexcept;
  const Rules& rules() const noexcept;

  /// A world's deal (with its set-up facts), drawn from `rng`; its history is
  /// the round's moves. Throws StateError when 2^22 proposals or draws of the
  /// count in a row were rejected (never seen: docs/information.md 4).
  Deal sample_deal(Rng& rng);
  /// A world: the sampled deal with the round's moves replayed.
  State sample(Rng& rng);
  /// The same world, written over `world` (any State: it is overwritten
  /// whole, its buffers reused): the search's path, one world per iteration.
  void sample(Rng& rng, State& world);

  const DeterminizerStats& stats() const noexcept;
  const Inference& inference() const noexcept;

  /// log L(world) of docs/information.md 5: the sum, over the other seats'
  /// moves, of the log-probability of each under the model (0 without one).
  /// `world` must have this determinizer's rules and moves (StateError
  /// otherwise); it is not changed.
  double log_likelihood(const State& world) const;
  /// A uniform world (section 4, whatever the model), drawn from `rng`, and
  /// its log L under the model in `log_l`: a search's pool of weighted
  /// worlds (search.hpp, SearchOptions::pool) is made of these.
  State sample_weighed(Rng& rng, double& log_l);

 private:
  struct Impl;
  explicit Determinizer(std::unique_ptr<Impl> impl) noexcept;
  // A world is the first one this determinizer replayed with the hidden
  // tiles of a new draw written over it (determinize.cpp; State's friend).
  void make_template();
  void write_hidden(State& world) const;
  /// One world's hidden tiles into the Impl's tile_of_slot: uniform, or
  /// weighted by the model (determinize_infer.cpp).
  void draw(Rng& rng);
  void draw_weighted(Rng& rng);
  /// A uniform world written over `world` (made when empty), counted as a model draw.
  void draw_candidate(Rng& rng, std::optional<State>& world);
  std::unique_ptr<Impl> impl_;
};

/// One world for `seat`: Determinizer(state, seat).sample(Rng(seed)).
State determinize(const State& state, int seat, uint64_t seed);

}  // namespace dominocore
