// The learned policy's fixed-point network (network.hpp, docs/learning.md 3).
#include "dominocore/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "dominocore/information.hpp"
#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

namespace {

// Reads the file front to back; every read checks that the bytes are there.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  template <class T>
  T get(const char* what) {
    if (static_cast<size_t>(end_ - p_) < sizeof(T))
      throw RulesError(std::string("weights file: truncated in ") + what);
    T v;
    std::memcpy(&v, p_, sizeof(T));  // the format is little-endian, as every supported target
    p_ += sizeof(T);
    return v;
  }
  uint32_t count(const char* what, uint32_t lo, uint32_t hi) {
    const uint32_t v = get<uint32_t>(what);
    if (v < lo || v > hi)
      throw RulesError(std::string("weights file: ") + what + " is " + std::to_string(v) +
                       ", expected " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  }
  const uint8_t* at() const noexcept { return p_; }
  size_t left() const noexcept { return static_cast<size_t>(end_ - p_); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

int actions_of(const Rules& rules) {
  return games::with_game(rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    return G::num_actions(rules);
  });
}

uint64_t fnv1a(const uint8_t* p, size_t n) noexcept {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::mutex registry_mutex;
std::map<std::string, std::shared_ptr<const Network>>& registry() {
  static std::map<std::string, std::shared_ptr<const Network>> networks;
  return networks;
}

}  // namespace

std::string network_key(const Rules& rules) {
  std::string key = game_name(rules.game);
  // The rule set, for a game that has them: its describe() variant, "/trains".
  const std::string variant = games::with_game(rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    return G::describe_variant(rules);
  });
  if (!variant.empty()) key += "-" + variant.substr(1);
  key += "-d" + std::to_string(rules.set) + "-p" + std::to_string(rules.players);
  if (rules.teams) key += "-t" + std::to_string(rules.teams);
  return key;
}

std::shared_ptr<const Network> Network::parse(const uint8_t* data, size_t size) {
  if (size < 16 || std::memcmp(data, kNetworkMagic, 5) != 0)
    throw RulesError("weights file: not a dominocore network (no DCNET header)");
  if (std::memcmp(data, kNetworkMagic, sizeof kNetworkMagic) != 0)
    throw RulesError("weights file: format version " + std::to_string(data[7]) +
                     " is not the supported version " + std::to_string(kNetworkMagic[7]));
  const uint64_t expected = fnv1a(data, size - 8);
  uint64_t stored;
  std::memcpy(&stored, data + size - 8, 8);
  if (stored != expected) throw RulesError("weights file: checksum mismatch (the file is damaged)");

  Reader in(data + sizeof kNetworkMagic, size - sizeof kNetworkMagic - 8);
  std::shared_ptr<Network> net(new Network());
  const uint32_t key_length = in.count("key length", 1, 64);
  if (in.left() < key_length) throw RulesError("weights file: truncated in key");
  net->key_.assign(reinterpret_cast<const char*>(in.at()), key_length);
  for (size_t i = 0; i < key_length; ++i) in.get<uint8_t>("key");
  net->inputs_ = static_cast<int>(in.count("inputs", 1, 1u << 16));
  net->actions_ = static_cast<int>(in.count("actions", 1, 1u << 16));
  const int layers = static_cast<int>(in.count("layers", 2, kNetworkMaxLayers));
  net->layers_.resize(static_cast<size_t>(layers));
  int cols = net->inputs_;
  for (int l = 0; l < layers; ++l) {
    Layer& layer = net->layers_[static_cast<size_t>(l)];
    const bool last = l == layers - 1;
    layer.rows =
        static_cast<int>(last ? in.count("output rows", static_cast<uint32_t>(net->actions_ + 1),
                                         static_cast<uint32_t>(net->actions_ + 1))
                              : in.count("hidden rows", 1, kNetworkMaxHidden));
    layer.cols = static_cast<int>(
        in.count("columns", static_cast<uint32_t>(cols), static_cast<uint32_t>(cols)));
    layer.shift = static_cast<int>(in.count("shift", 0, last ? 0 : kNetworkMaxShift));
    cols = layer.rows;
  }
  // Nothing is allocated for sizes the file does not hold (an untrusted file).
  size_t needed = 2 * sizeof(double);
  for (const Layer& layer : net->layers_)
    needed += static_cast<size_t>(layer.rows) * (static_cast<size_t>(layer.cols) * 2 + 4);
  if (in.left() < needed) throw RulesError("weights file: truncated in weights");
  for (int l = 0; l < layers; ++l) {
    Layer& layer = net->layers_[static_cast<size_t>(l)];
    const size_t n = static_cast<size_t>(layer.rows) * static_cast<size_t>(layer.cols);
    layer.weights.resize(n);
    for (int r = 0; r < layer.rows; ++r)
      for (int c = 0; c < layer.cols; ++c) {
        const int16_t w = in.get<int16_t>("weights");
        if (w == INT16_MIN)
          throw RulesError("weights file: a weight is -32768 (the limit is +-32767)");
        // Layer 0 is kept by column: the sparse pass adds one column per nonzero input.
        const size_t at =
            l == 0
                ? static_cast<size_t>(c) * static_cast<size_t>(layer.rows) + static_cast<size_t>(r)
                : static_cast<size_t>(r) * static_cast<size_t>(layer.cols) + static_cast<size_t>(c);
        layer.weights[at] = w;
      }
    layer.bias.resize(static_cast<size_t>(layer.rows));
    for (auto& b : layer.bias) {
      b = in.get<int32_t>("biases");
      // Keeps every sum after layer 0 inside 32 bits (docs/learning.md 3.2).
      if (l > 0 && (b > (1 << 30) || b < -(1 << 30)))
        throw RulesError("weights file: a bias past layer 0 is outside +-2^30");
    }
  }
  net->logit_scale_ = in.get<double>("scales");
  net->value_scale_ = in.get<double>("scales");
  for (const double scale : {net->logit_scale_, net->value_scale_})
    if (!(scale > 0) || !std::isfinite(scale))
      throw RulesError("weights file: the logit and value scales must be positive finite numbers");
  if (in.left() != 0)
    throw RulesError("weights file: " + std::to_string(in.left()) + " bytes after the scales");
  return net;
}

void Network::check_rules(const Rules& rules) const {
  const std::string want = network_key(rules);
  if (key_ != want) throw RulesError("these weights are for " + key_ + ", not for " + want);
  if (inputs_ != observation_tensor_size(rules) || actions_ != actions_of(rules))
    throw RulesError("the weights for " + key_ + " have " + std::to_string(inputs_) +
                     " inputs and " + std::to_string(actions_) + " actions; these rules have " +
                     std::to_string(observation_tensor_size(rules)) + " and " +
                     std::to_string(actions_of(rules)));
}

void Network::hidden_(const float* obs, std::vector<int16_t>& a, std::vector<int16_t>& b) const {
  // Layer 0, sparse: the observation is mostly zeros, and whole numbers.
  const Layer& first = layers_[0];
  thread_local std::vector<int64_t> acc;
  acc.assign(first.bias.begin(), first.bias.end());
  for (int i = 0; i < inputs_; ++i) {
    const int64_t x = static_cast<int64_t>(obs[i]);
    if (x == 0) continue;
    const int16_t* col = &first.weights[static_cast<size_t>(i) * static_cast<size_t>(first.rows)];
    for (int r = 0; r < first.rows; ++r) acc[static_cast<size_t>(r)] += x * col[r];
  }
  const auto activate = [](int64_t v, int shift) {
    return static_cast<int16_t>(v <= 0 ? 0 : std::min<int64_t>(v >> shift, kNetworkActivationMax));
  };
  a.resize(static_cast<size_t>(first.rows));
  for (int r = 0; r < first.rows; ++r)
    a[static_cast<size_t>(r)] = activate(acc[static_cast<size_t>(r)], first.shift);
  for (size_t l = 1; l + 1 < layers_.size(); ++l) {
    const Layer& layer = layers_[l];
    b.resize(static_cast<size_t>(layer.rows));
    for (int r = 0; r < layer.rows; ++r)
      b[static_cast<size_t>(r)] = activate(dot_(layer, r, a.data()), layer.shift);
    a.swap(b);
  }
}

int32_t Network::dot_(const Layer& layer, int row, const int16_t* h) noexcept {
  // Exact in 32 bits: |bias| <= 2^30 and |W h| <= 256 * 127 * 32767 < 2^30 (parse()).
  const int16_t* w = &layer.weights[static_cast<size_t>(row) * static_cast<size_t>(layer.cols)];
  int32_t sum = 0;
  for (int c = 0; c < layer.cols; ++c) sum += static_cast<int32_t>(w[c]) * h[c];  // vectorizes
  return sum + layer.bias[static_cast<size_t>(row)];
}

namespace {
thread_local std::vector<int16_t> scratch_a, scratch_b;  // the activations of one evaluation
}  // namespace

std::vector<int64_t> Network::outputs(const float* obs) const {
  hidden_(obs, scratch_a, scratch_b);
  std::vector<int64_t> out(static_cast<size_t>(actions_ + 1));
  for (int row = 0; row <= actions_; ++row)
    out[static_cast<size_t>(row)] = dot_(layers_.back(), row, scratch_a.data());
  return out;
}

int Network::choose(const float* obs, const int* legal, int count) const {
  if (count < 1) throw StateError("the learned policy needs a legal action to choose from");
  hidden_(obs, scratch_a, scratch_b);
  int best = legal[0];
  int32_t best_logit = dot_(layers_.back(), best, scratch_a.data());
  for (int i = 1; i < count; ++i) {  // legal ids ascend, so ">" keeps the lowest on ties
    const int32_t logit = dot_(layers_.back(), legal[i], scratch_a.data());
    if (logit > best_logit) best = legal[i], best_logit = logit;
  }
  return best;
}

double Network::value(const float* obs) const {
  hidden_(obs, scratch_a, scratch_b);
  return static_cast<double>(dot_(layers_.back(), actions_, scratch_a.data())) / value_scale_;
}

void Network::policy(const float* obs, const int* ids, int count, double* probs,
                     double temperature) const {
  hidden_(obs, scratch_a, scratch_b);
  double top = -std::numeric_limits<double>::infinity(), sum = 0;
  for (int i = 0; i < count; ++i) {
    probs[i] = static_cast<double>(dot_(layers_.back(), ids[i], scratch_a.data())) /
               (logit_scale_ * temperature);
    top = std::max(top, probs[i]);
  }
  for (int i = 0; i < count; ++i) sum += probs[i] = std::exp(probs[i] - top);
  for (int i = 0; i < count; ++i) probs[i] /= sum;
}

void register_network(std::shared_ptr<const Network> net) {
  if (!net) throw RulesError("register_network: no network");
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry()[net->key()] = std::move(net);
}

std::shared_ptr<const Network> registered_network(const std::string& key) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  const auto it = registry().find(key);
  return it == registry().end() ? nullptr : it->second;
}

std::shared_ptr<const Network> network_for(const Rules& rules) {
  const std::shared_ptr<const Network> net = registered_network(network_key(rules));
  if (!net)
    throw RulesError("no learned network is loaded for " + network_key(rules) +
                     " (docs/learning.md lists the shipped ones; load_network() loads another)");
  net->check_rules(rules);
  return net;
}

Move learned_move(const State& s, const Network& net) {
  if (s.is_over()) throw StateError("the round is over: there is no move to choose");
  thread_local std::vector<float> obs;
  thread_local std::vector<int> legal;
  s.legal_actions(legal);
  if (legal.size() == 1) return s.action_to_move(legal[0]);  // forced: no evaluation
  obs.resize(static_cast<size_t>(net.inputs()));
  observation_tensor(s, s.current_player(), obs.data());
  return s.action_to_move(net.choose(obs.data(), legal.data(), static_cast<int>(legal.size())));
}

}  // namespace dominocore
