// The two constants of bench/kernel_bench.py's --model, measured on this
// machine, this core, now:
//
//   machine
//
// prints `ghz=G mispredict_ns=P`:
// - G, the core's clock while it runs: a chain of dependent additions, each
//   of which takes one cycle on every current core;
// - P, what one mispredicted branch costs: a loop over random bits, whose
//   branch the predictor can only guess (half of them wrong), against the same
//   loop over the same bits sorted (none wrong), divided by the mispredicts.
//
// Each is the best of several runs, so that an interruption weighs on none.
// Build it without if-conversion (-fno-if-conversion -fno-if-conversion2):
// a conditional move instead of the branch would mispredict nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

constexpr int kRuns = 5;

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class Work>
double best_seconds(const Work& work) {
  double best = 1e300;
  for (int r = 0; r < kRuns; ++r) {
    const double t0 = cpu_seconds();
    work();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

// The empty asm keeps each addition apart: the compiler may neither fold the
// chain into one addition nor split it into independent ones.
double clock_ghz() {
  constexpr uint64_t kAdds = 400'000'000;
  uint64_t x = 0;
  const double seconds = best_seconds([&] {
    for (uint64_t i = 0; i < kAdds / 4; ++i) {
      x += 1;
      asm volatile("" : "+r"(x));
      x += 1;
      asm volatile("" : "+r"(x));
      x += 1;
      asm volatile("" : "+r"(x));
      x += 1;
      asm volatile("" : "+r"(x));
    }
  });
  if (x == 0) std::puts("");  // keeps x live
  return static_cast<double>(kAdds) / seconds / 1e9;
}

uint64_t walk(const std::vector<uint8_t>& bits, int passes) {
  uint64_t acc = 0;
  for (int p = 0; p < passes; ++p)
    for (size_t i = 0; i < bits.size(); ++i) {
      if (bits[i]) {
        acc += i;
        asm volatile("" : "+r"(acc));
      } else {
        acc ^= i;
        asm volatile("" : "+r"(acc));
      }
    }
  return acc;
}

double mispredict_ns() {
  constexpr int kBits = 1 << 16, kPasses = 600;
  std::vector<uint8_t> random_bits(kBits);
  uint64_t s = 0x9E3779B97F4A7C15ull;  // xorshift64: the bits need no more
  for (uint8_t& b : random_bits) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    b = static_cast<uint8_t>(s >> 63);
  }
  std::vector<uint8_t> sorted_bits = random_bits;
  std::sort(sorted_bits.begin(), sorted_bits.end());
  uint64_t sink = 0;
  const double guessed = best_seconds([&] { sink += walk(random_bits, kPasses); });
  const double known = best_seconds([&] { sink += walk(sorted_bits, kPasses); });
  if (sink == 0) std::puts("");
  const double mispredicts = 0.5 * kBits * kPasses;
  return (guessed - known) / mispredicts * 1e9;
}

}  // namespace

int main() {
  const double ghz = clock_ghz();
  const double penalty = mispredict_ns();
  std::printf("ghz=%.4f mispredict_ns=%.4f\n", ghz, penalty);
  return 0;
}
