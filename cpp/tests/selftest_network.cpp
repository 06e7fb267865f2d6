// Self-test of the learned policy's network (docs/learning.md 3): a
// hand-made weights file parsed and evaluated to known integers, damaged
// files refused, and a network refused for rules its key does not name.
// Called from selftest.cpp's main.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dominocore/dominocore.hpp"
#include "selftest_check.hpp"

using namespace dominocore;

namespace {

template <class T>
void put(std::vector<uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

uint64_t fnv(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

/// A file of `key`: 3 inputs, 2 actions, one hidden layer of 2 (shift 1),
/// the output layer of 3 rows; `layers` overrides the layer count field.
std::vector<uint8_t> file(const std::string& key, uint32_t layers = 2) {
  std::vector<uint8_t> b(kNetworkMagic, kNetworkMagic + 8);
  put<uint32_t>(b, static_cast<uint32_t>(key.size()));
  b.insert(b.end(), key.begin(), key.end());
  for (uint32_t v : {3u, 2u, layers, 2u, 3u, 1u, 3u, 2u, 0u}) put(b, v);
  for (int16_t w : {1, 2, 3, -1, 0, 4}) put(b, w);  // hidden weights, 2 x 3
  for (int32_t x : {1, 0}) put(b, x);               // hidden biases
  for (int16_t w : {1, 0, 0, 1, 2, -1}) put(b, w);  // output weights, 3 x 2
  for (int32_t x : {0, 5, 7}) put(b, x);            // output biases
  put(b, 10.0);                                     // logit scale
  put(b, 2.0);                                      // value scale
  put(b, fnv(b));
  return b;
}

bool refused(const std::vector<uint8_t>& b) {
  try {
    Network::parse(b.data(), b.size());
  } catch (const RulesError&) {
    return true;
  }
  return false;
}

}  // namespace

void test_network() {
  const std::vector<uint8_t> good = file("test");
  const auto net = Network::parse(good.data(), good.size());
  CHECK(net->key() == "test" && net->inputs() == 3 && net->actions() == 2 && net->layers() == 2);
  // x = (2, 1, 0): hidden a = (1 + 2 + 2, 0 - 2 + 0) = (5, -2) -> (5 >> 1, 0) = (2, 0);
  // outputs = (2, 5, 7 + 4) = (2, 5, 11).
  const float obs[3] = {2, 1, 0};
  CHECK((net->outputs(obs) == std::vector<int64_t>{2, 5, 11}));
  const int both[2] = {0, 1};
  CHECK(net->choose(obs, both, 2) == 1);
  CHECK(net->value(obs) == 5.5);
  // A damaged byte, a wrong magic, one layer, a truncated file: refused.
  std::vector<uint8_t> flipped = good;
  flipped[20] ^= 1;
  CHECK(refused(flipped));
  std::vector<uint8_t> magic = good;
  magic[0] = 'X';
  CHECK(refused(magic));
  CHECK(refused(file("test", 1)));
  CHECK(refused(std::vector<uint8_t>(good.begin(), good.begin() + 12)));
  // A network for other rules is refused by network_for's check.
  const Rules trains{};  // Chicken Foot trains, double-9, 4 players
  CHECK(network_key(trains) == "chickenfoot-trains-d9-p4");
  try {
    net->check_rules(trains);
    CHECK(false);
  } catch (const RulesError& e) {
    CHECK(std::strstr(e.what(), "not for chickenfoot-trains-d9-p4") != nullptr);
  }
}
