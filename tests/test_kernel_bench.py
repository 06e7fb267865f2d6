"""bench/kernel/speed_of_light.cpp plays the rounds simulate plays: its
checksum equals the one computed from simulate's arrays (no timing checked)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import dominocore as dc
import pytest
from helpers import import_core

import_core()  # the kernel is measured against the compiled core

BENCH = Path(__file__).resolve().parent.parent / "bench" / "kernel_bench.py"


@pytest.fixture(scope="module")
def kernel_bench():
    spec = importlib.util.spec_from_file_location("kernel_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    with pytest.MonkeyPatch.context() as patch:  # its neighbours in bench/ (rates.py), for the import only
        patch.syspath_prepend(str(BENCH.parent))
        patch.setitem(sys.modules, "kernel_bench", module)
        spec.loader.exec_module(module)
    if module.compiler() is None:
        pytest.skip("no C++ compiler")
    return module


@pytest.fixture(scope="module")
def kernel_exe(kernel_bench, tmp_path_factory):
    return kernel_bench.compile_kernel(tmp_path_factory.mktemp("kernel"))


@pytest.mark.parametrize("seed", [0, 12345, 2**64 - 150])
def test_kernel_plays_the_rounds_of_simulate(kernel_bench, kernel_exe, seed):
    kernel = kernel_bench.run_kernel(kernel_exe, 300, seed)
    engine = kernel_bench.run_engine(300, seed)
    assert kernel.checksum == engine.checksum


def test_the_checksum_sees_every_round(kernel_bench):
    result = dc.simulate(dc.ChickenFoot(players=4), rounds=50, seed=3, threads=1)
    base = kernel_bench.checksum(result)
    result.points[7, 2] += 1
    assert kernel_bench.checksum(result) != base
