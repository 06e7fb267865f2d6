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

// ---- the CPU features the build uses (CMake's DOMINOCORE_POPCNT) ----------

/// The features this build's code uses: POPCNT on x86-64 by default.
std::vector<std::string> cpu_features_used() {
  if (dominocore::detail::kUsesPopcnt) return {"POPCNT"};
  return {};
}

/// Whether DOMINOCORE_DISABLE_CPU_FEATURES (names separated by commas or
/// spaces) names `feature`: the check then fails as it would on a CPU without
/// it (tests/test_cpu_features.py), like NumPy's NPY_DISABLE_CPU_FEATURES for
/// a feature of its baseline.
bool disabled_by_environment(const std::string& feature) {
  const char* list = std::getenv("DOMINOCORE_DISABLE_CPU_FEATURES");
  if (list == nullptr) return false;
  std::string name;
  for (const char* c = list;; ++c) {
    if (*c != '\0' && *c != ',' && *c != ' ') {
      name += *c;
      continue;
    }
    if (name == feature) return true;
    if (*c == '\0') return false;
    name.clear();
  }
}

bool cpu_has(const std::string& feature) {
  if (disabled_by_environment(feature)) return false;
  if (feature != "POPCNT") return true;
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
  int info[4];
  __cpuid(info, 1);
  return (info[2] >> 23) & 1;  // CPUID leaf 1, ECX bit 23
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
#else
  return true;
#endif
}

/// The features the build uses that this CPU lacks, in order.
std::vector<std::string> missing_cpu_features() {
  std::vector<std::string> missing;
  for (const std::string& f : cpu_features_used())
    if (!cpu_has(f)) missing.push_back(f);
  return missing;
}

std::string cpu_requirement_message(const std::vector<std::string>& missing) {
  std::string names;
  for (const std::string& f : missing) names += (names.empty() ? "" : ", ") + f;
  return "dominocore's compiled core was built for CPUs with " + names +
         ", which this CPU lacks (x86-64 CPUs have had POPCNT since 2008-2009). Build it for this "
         "one from source: pip install dominocore --no-binary dominocore -C "
         "cmake.define.DOMINOCORE_POPCNT=OFF";
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  // First, before any code that counts: a CPU without an instruction the
  // build uses would otherwise stop the interpreter with SIGILL.
  if (const std::vector<std::string> missing = missing_cpu_features(); !missing.empty())
    throw py::import_error(cpu_requirement_message(missing));
  m.doc() = "dominocore's C++ engine (private: use the dominocore package)";
  // The build's CPU requirements, and the message a CPU without one of them gets.
  m.attr("CPU_FEATURES") = cpu_features_used();
  m.def("_cpu_requirement_message", &cpu_requirement_message);
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
