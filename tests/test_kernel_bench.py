"""bench/kernel/speed_of_light.cpp plays the rounds simulate plays: its
checksum equals the one computed from simulate's arrays (no timing checked)."""

from __future__ import annotations

import importlib.util
import os
import shutil
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


# cachegrind's summary, as valgrind 3.19 prints it on stderr.
CACHEGRIND_REPORT = """==4596== I   refs:      623,564,602
==4596==
==4596== Branches:       51,336,227  (51,251,500 cond +  84,727 ind)
==4596== Mispredicts:     4,766,598  ( 4,765,388 cond +   1,210 ind)
==4596== Mispred rate:          9.3% (       9.3%     +     1.4%   )
"""


def test_the_count_reads_cachegrinds_totals(kernel_bench):
    assert kernel_bench.parse_counts(CACHEGRIND_REPORT) == (623_564_602, 4_766_598)
    with pytest.raises(RuntimeError, match="Mispredicts"):
        kernel_bench.parse_counts("==1== I   refs:      5\n")


def test_the_count_a_round_cancels_the_start_up(kernel_bench):
    # A run costs 1,000,000 instructions and 500 mispredicts once, then 30,000 and 180 a round.
    def fake_run(command):
        rounds = int(command[-1])
        return kernel_bench.Counts(1_000_000 + 30_000 * rounds, 500 + 180 * rounds)

    counts = kernel_bench.per_round(lambda n: ["play", str(n)], (2_000, 22_000), fake_run)
    assert counts == (30_000, 180)


def test_the_counted_script_plays_the_kernels_rounds(kernel_bench, monkeypatch):
    calls = []
    monkeypatch.setattr(dc, "simulate", lambda rules, **options: calls.append((rules, options)))
    monkeypatch.setattr(sys, "argv", ["-c", "7"])
    exec(kernel_bench.ENGINE_SCRIPT, {})
    kernel_bench.play(7, kernel_bench.SEED)
    assert len(calls) == 2 and calls[0] == calls[1]
    assert calls[0][1] == {"rounds": 7, "seed": kernel_bench.SEED, "threads": 1}


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (Debian's valgrind)")
@pytest.mark.skipif(
    "san" in os.environ.get("LD_PRELOAD", ""),
    reason="valgrind cannot run a sanitized build (.ci/run's sanitizer steps)",
)
def test_the_count_runs_both_sides(kernel_bench, kernel_exe):
    engine, kernel = kernel_bench.count_sides(kernel_bench.QUICK_COUNT_ROUNDS, kernel_exe)
    # A round of random trains d9 4p is tens of moves: thousands of instructions on either side.
    for side in (engine, kernel):
        assert 1_000 < side.instructions < 1_000_000
        assert 0 < side.mispredicts < side.instructions


def test_the_model_splits_a_round_into_mispredicts_and_the_rest(kernel_bench):
    machine = kernel_bench.Machine(ghz=4.0, mispredict_ns=5.0)
    # 500,000 rounds a CPU-second: 2,000 ns a round; 100 mispredicts cost 500 ns;
    # the other 1,500 ns are 6,000 cycles, over 24,000 instructions: 4 a cycle.
    side = kernel_bench.split(kernel_bench.Counts(24_000, 100), 500_000, machine)
    assert side == (2_000, 500, 1_500, 4)
    # Mispredicts that cost more than the round took leave no rest to divide.
    assert kernel_bench.split(kernel_bench.Counts(24_000, 1_000), 500_000, machine).rest_ipc == float("inf")
    table = kernel_bench.model_table(
        (kernel_bench.Counts(24_000, 100), kernel_bench.Counts(16_000, 100)),
        (side, kernel_bench.split(kernel_bench.Counts(16_000, 100), 1e9 / 1_500, machine)),
        machine,
    )
    assert "| simulate | 24,000 | 100.0 | 2,000 | 500 | 1,500 | 4.00 |" in table
    assert "| simulate - kernel | +8,000 | +0.0 | +500 | +0 | +500 | |" in table


def test_the_machine_line_parses_and_refuses_other_output(kernel_bench):
    assert kernel_bench.parse_machine("ghz=4.5 mispredict_ns=4.25\n") == (4.5, 4.25)
    for bad in ("ghz=4.5\n", "ghz=fast mispredict_ns=1\n", ""):
        with pytest.raises(RuntimeError, match="ghz=G mispredict_ns=P"):
            kernel_bench.parse_machine(bad)


def test_the_machine_probe_builds_and_prints_its_line(kernel_bench, tmp_path):
    # Its numbers are times, which no test asserts; its line must parse.
    exe = kernel_bench.compile_program(kernel_bench.MACHINE_SOURCE, kernel_bench.MACHINE_FLAGS, tmp_path)
    assert isinstance(kernel_bench.run_machine(exe), kernel_bench.Machine)
