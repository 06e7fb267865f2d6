// dominocore._core: the pybind11 binding of the C++ engine, and nothing else.
//
// The Python layer (python/dominocore/native/) subclasses RoundCore and
// turns the integers used here into Tile and Move objects. Moves cross the
// boundary as one int: Place = tile * END_BITS + end id, Draw = DRAW_CODE,
// Pass = PASS_CODE; the constants are exported here only (support.cpp
// encodes and decodes), and a code outside the encoding is refused, never
// wrapped or clamped.
//
// This file defines the module: its own attributes, the translation of the
// engine's exceptions, and the areas of bindings.hpp, each bound by its own
// translation unit (bind_<area>.cpp), in order.
//
// Nothing a caller passes may crash the interpreter: objects whose __init__
// never ran are refused (TypeError), seeds are checked integers, and
// simulate() stops its threads on Ctrl-C or when its progress callback raises.
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#include "bindings.hpp"
#include "support.hpp"

using namespace dominocore;
using bindings::error_class;

namespace {

// ---- the CPU the build needs (CMake's DOMINOCORE_POPCNT) --------------------

constexpr const char* kCpuRequirement =
    "dominocore's compiled core was built for CPUs with POPCNT, which this CPU lacks (x86-64 "
    "CPUs have had it since 2008-2009). Build it for this one from source: pip install "
    "dominocore --no-binary dominocore -C cmake.define.DOMINOCORE_POPCNT=OFF";

#ifdef DOMINOCORE_POPCNT_INSTRUCTION  // tiles.hpp: the build counts with POPCNT
/// Whether DOMINOCORE_DISABLE_CPU_FEATURES (names separated by commas or
/// spaces) names POPCNT: the check then fails as it would on a CPU without it
/// (tests/test_cpu_features.py), like NumPy's NPY_DISABLE_CPU_FEATURES for a
/// feature of its baseline.
bool popcnt_disabled_by_environment() {
  const char* list = std::getenv("DOMINOCORE_DISABLE_CPU_FEATURES");
  if (list == nullptr) return false;
  std::string names(list);
  std::replace(names.begin(), names.end(), ',', ' ');
  std::istringstream in(names);
  for (std::string name; in >> name;)
    if (name == "POPCNT") return true;
  return false;
}
#endif

/// Whether this CPU runs the build's code: it has POPCNT where the build counts with it.
bool cpu_runs_this_build() {
#ifdef DOMINOCORE_POPCNT_INSTRUCTION
  if (popcnt_disabled_by_environment()) return false;
#if defined(_MSC_VER) && !defined(__clang__)
  int info[4];
  __cpuid(info, 1);
  return (info[2] >> 23) & 1;  // CPUID leaf 1, ECX bit 23
#else
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
#endif
#else
  return true;
#endif
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  // First, before any code that counts: a CPU without an instruction the
  // build uses would otherwise stop the interpreter with SIGILL.
  if (!cpu_runs_this_build()) throw py::import_error(kCpuRequirement);
  m.doc() = "dominocore's C++ engine (private: use the dominocore package)";
  // The build's CPU requirements, and the message a CPU without them gets.
  m.attr("CPU_FEATURES") =
      detail::kUsesPopcnt ? std::vector<std::string>{"POPCNT"} : std::vector<std::string>{};
  m.attr("_CPU_REQUIREMENT") = kCpuRequirement;
  m.attr("__version__") = DOMINOCORE_VERSION;  // python/dominocore/_version.py, via CMakeLists.txt
  // The move encoding (see the top of this file), for python/dominocore/native/.
  m.attr("END_BITS") = kMoveCodeEnds;
  m.attr("DRAW_CODE") = kDrawCode;
  m.attr("PASS_CODE") = kPassCode;

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMove& e) {
      py::object exc = error_class("IllegalMoveError")(e.code(), e.what());
      PyErr_SetObject(py::type::of(exc).ptr(), exc.ptr());
    } catch (const RulesError& e) {
      PyErr_SetString(error_class("RulesError").ptr(), e.what());
    } catch (const StateError& e) {
      PyErr_SetString(error_class("StateError").ptr(), e.what());
    }
  });

  bindings::bind_rng(m);
  bindings::bind_rules(m);
  bindings::bind_round(m);
  bindings::bind_players(m);
  bindings::bind_simulate(m);
  bindings::bind_information(m);
  // Sizes and limits, and two functions of no area.
  m.attr("STATE_BYTES") = sizeof(State);
  m.attr("MAX_THREADS") = kMaxThreads;
  m.attr("MAX_SIM_COUNT") = kMaxSimCount;
  // For the test that holds the core's hand-size tables equal to the Python
  // rules objects' (tests/test_parity.py): the two sides each need their own.
  m.def("_default_hand_size",
        [](const std::string& game, const std::string& rule_set, int set, int players) {
          return default_hand_size(parse_game(game), parse_rule_set(rule_set), set, players);
        });
  m.def("hardware_threads", [] {
    return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
  });
  bindings::bind_determinizer(m);  // after RoundCore, which gains _determinizer
  bindings::bind_search(m);
  bindings::bind_vector_env(m);  // after RoundCore, which its _state returns
  bindings::bind_match(m);
}
