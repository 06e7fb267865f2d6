// The self-test's one check, shared by its files: CHECK(cond) counts the
// check and, when cond is false, the failure, printing where and what (the
// run stops after 30 failures, which are then noise).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace selftest {
inline int failures = 0;
inline long checks = 0;
}  // namespace selftest

#define CHECK(cond)                                               \
  do {                                                            \
    ++selftest::checks;                                           \
    if (!(cond)) {                                                \
      ++selftest::failures;                                       \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      if (selftest::failures > 30) std::exit(1);                  \
    }                                                             \
  } while (0)
