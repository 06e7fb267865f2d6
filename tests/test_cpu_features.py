"""The compiled core refuses to load on a CPU without an instruction its build
uses (POPCNT on x86-64, cpp/CMakeLists.txt's DOMINOCORE_POPCNT), with a message
that says how to build for that CPU; ``import dominocore`` then serves the
reference with a warning. A CPU without POPCNT is played by
DOMINOCORE_DISABLE_CPU_FEATURES, which the core's check reads."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import import_core

core = import_core("dominocore._core")

needs_a_feature = pytest.mark.skipif(
    not core.CPU_FEATURES, reason="this build uses no optional CPU feature (not x86-64, or DOMINOCORE_POPCNT=OFF)"
)


def run(code: str, disabled: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DOMINOCORE_DISABLE_CPU_FEATURES": disabled}
    env.pop("DOMINOCORE_IMPLEMENTATION", None)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_the_features_are_named_as_the_message_names_them():
    assert core.CPU_FEATURES in ([], ["POPCNT"])
    message = core._CPU_REQUIREMENT
    assert "POPCNT" in message and "cmake.define.DOMINOCORE_POPCNT=OFF" in message


@needs_a_feature
@pytest.mark.parametrize("disabled", ["POPCNT", "SSE4,POPCNT", "AVX POPCNT"])
def test_a_cpu_without_the_feature_gets_an_import_error_that_says_why(disabled):
    done = run("import dominocore._core", disabled)
    assert done.returncode == 1
    assert "ImportError: dominocore's compiled core was built for CPUs with POPCNT" in done.stderr
    assert "DOMINOCORE_POPCNT=OFF" in done.stderr


@needs_a_feature
def test_other_names_leave_the_core_loading():
    # Only the whole name counts: a prefix or a longer name is another feature.
    done = run("import dominocore._core as c; print(c.CPU_FEATURES)", "POPCN,POPCNTX")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(core.CPU_FEATURES)


@needs_a_feature
def test_the_package_then_serves_the_reference_with_a_warning():
    code = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import dominocore as dc\n"
        "print(dc.Round.__module__)\n"
        "print([str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)])\n"
    )
    done = run(code, "POPCNT")
    assert done.returncode == 0, done.stderr
    module, warnings = done.stdout.strip().splitlines()
    assert module.startswith("dominocore.reference")
    assert "its compiled core could not be loaded" in warnings and "POPCNT" in warnings
