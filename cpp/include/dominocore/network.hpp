// The learned policy's network (docs/learning.md 3): a small fixed-point MLP
// over the observation tensor, read from a ".dcnet" weights file.
//
// Every sum is an exact integer sum, so the order of the additions does not
// matter and the numpy reference computes the very same numbers: the two
// engines agree on every move, not only up to rounding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dominocore/move.hpp"
#include "dominocore/rules.hpp"

namespace dominocore {

class State;

/// "DCNET" then the format version (docs/learning.md 3.1).
inline constexpr char kNetworkMagic[8] = {'D', 'C', 'N', 'E', 'T', 0, 0, 1};
/// Every hidden unit's activation is clamped to [0, this].
inline constexpr int kNetworkActivationMax = 127;
inline constexpr int kNetworkMaxLayers = 8;    ///< at least 2: one hidden layer
inline constexpr int kNetworkMaxHidden = 256;  ///< rows of a hidden layer
inline constexpr int kNetworkMaxShift = 30;

/// The name a network's weights carry for the rules they were trained on:
/// "<game>[-<rule set>]-d<set>-p<players>[-t<teams>]", e.g. "chickenfoot-trains-d9-p4".
std::string network_key(const Rules& rules);

/// An immutable network; shared between threads without locks.
class Network {
 public:
  /// Parses a weights file's bytes; throws RulesError naming what is wrong
  /// (magic, version, sizes, limits, checksum, trailing bytes).
  static std::shared_ptr<const Network> parse(const uint8_t* data, size_t size);

  const std::string& key() const noexcept { return key_; }
  int inputs() const noexcept { return inputs_; }
  int actions() const noexcept { return actions_; }
  int layers() const noexcept { return static_cast<int>(layers_.size()); }
  int hidden(int layer) const noexcept { return layers_[static_cast<size_t>(layer)].rows; }
  /// A logit output divided by this is the policy's logit.
  double logit_scale() const noexcept { return logit_scale_; }
  /// The value output divided by this is the expected round margin.
  double value_scale() const noexcept { return value_scale_; }
  /// Throws RulesError unless these weights are for `rules` (its key, its
  /// observation size and its action count).
  void check_rules(const Rules& rules) const;

  /// The last layer's integer outputs for observation `obs` (inputs() whole
  /// numbers as floats): actions() policy logits, then the value.
  std::vector<int64_t> outputs(const float* obs) const;
  /// The legal action id with the largest logit, the lowest id on ties.
  /// `legal`: the legal ids, at least one.
  int choose(const float* obs, const int* legal, int count) const;
  /// The value output divided by the file's value scale: the expected round
  /// margin of the seat whose observation it is.
  double value(const float* obs) const;
  /// The policy's probabilities of the actions `ids` (legal, distinct): the
  /// softmax of their logits (outputs / logit_scale) / temperature into `probs`.
  void policy(const float* obs, const int* ids, int count, double* probs,
              double temperature = 1.0) const;

 private:
  struct Layer {
    int rows = 0, cols = 0, shift = 0;
    std::vector<int16_t> weights;  // rows x cols, row-major (layer 0: cols x rows)
    std::vector<int32_t> bias;
  };
  Network() = default;
  // Runs every layer but the last: the last hidden activations into `a`.
  void hidden_(const float* obs, std::vector<int16_t>& a, std::vector<int16_t>& b) const;
  // Row `row` of a layer after layer 0 applied to activations h, bias added.
  static int32_t dot_(const Layer& layer, int row, const int16_t* h) noexcept;

  std::string key_;
  int inputs_ = 0, actions_ = 0;
  std::vector<Layer> layers_;
  double logit_scale_ = 1.0, value_scale_ = 1.0;
};

/// Makes `net` the network of the rules its key names, for every later
/// "learned" seat (replacing one given before). Thread-safe.
void register_network(std::shared_ptr<const Network> net);
/// The network registered under `key`, or null.
std::shared_ptr<const Network> registered_network(const std::string& key);
/// The registered network for `rules`; throws RulesError when there is none
/// or it does not fit the rules.
std::shared_ptr<const Network> network_for(const Rules& rules);

/// The learned policy's move for the seat to move (throws StateError when the
/// round is over).
Move learned_move(const State& s, const Network& net);

}  // namespace dominocore
