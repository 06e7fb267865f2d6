"""simulate against a speed-of-light kernel: the same random rounds, in plain C++.

    python bench/kernel_bench.py            # 200,000 rounds a side, 5 repeats
    python bench/kernel_bench.py --quick    # a smoke test
    python bench/kernel_bench.py --count    # instructions and mispredicts a round (valgrind)
    python bench/kernel_bench.py --model    # where each side's time goes, by both

bench/kernel/speed_of_light.cpp plays the rounds of
``simulate(ChickenFoot(players=4), rounds=N, seed=S, threads=1)`` (Chicken Foot
``trains``, double-9, 4 players, random play) with none of the engine: no
undo history, no records, no checks. It is compiled once, with the flags of the
Release wheel (CMake's Release: ``-O3 -DNDEBUG``), into a cache directory.

Each repeat plays the same seeds on both sides, the side that goes first
alternating, so the machine's load weighs on both alike; both sides' checksums
(``checksum``, over every round's moves, reason, out seat, starter and points)
must be equal. Rates are the best over the repeats, wall clock and per
CPU-second (the process time: the kernel's own, simulate's with its waiting
thread); the ratio engine/kernel is 1.0 when simulate runs as fast as the kernel.

``--count`` measures no time. It runs both sides under valgrind's cachegrind
(Debian's ``valgrind``), which counts the instructions executed and simulates
the branch predictor, and prints both per round. The counts are the same on
every run, whatever the machine's load, so they show changes too small for the
clock. Each side runs twice, over 1,000 and 101,000 rounds, and the difference
is divided by 100,000, so that the start-up (the interpreter, numpy) cancels.
The interpreter's start-up varies by about 10 million instructions from run
to run, which leaves about 100 instructions of uncertainty a round; the
mispredicts agree to a tenth, and the kernel's counts exactly.

``--model`` puts the counts and the rates together. bench/kernel/machine.cpp
measures this core's clock and what a mispredicted branch costs it; each
side's nanoseconds a round (from its best rate per CPU-second) are then split
into its mispredicts times that cost and the rest, and the rest gives the
instructions the core ran a cycle outside the mispredicts. When both sides run
about as many a cycle, the gap between them is their instructions, not a stall
that one of them has (docs/performance.md 3).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

import dominocore as dc
import numpy as np
from rates import Rate, Row, best, rate_table, without_blas_threads  # bench/, beside this file

ROOT = Path(__file__).resolve().parent.parent
KERNEL_SOURCE = ROOT / "bench" / "kernel" / "speed_of_light.cpp"
MACHINE_SOURCE = ROOT / "bench" / "kernel" / "machine.cpp"
# CMake's Release flags for GCC and Clang (pyproject.toml: cmake.build-type = "Release"), and
# the POPCNT instruction that the engine's build uses on x86-64 (cpp/CMakeLists.txt).
FLAGS = ["-O3", "-DNDEBUG", "-std=c++17"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])
# The probe's branch must stay a branch (machine.cpp).
MACHINE_FLAGS = [*FLAGS, "-fno-if-conversion", "-fno-if-conversion2"]
ROUNDS = 200_000
SEED = 1

_SEAT_WEIGHTS = np.array([1000003, 10000019, 100000007, 1000000007], dtype=np.uint64)
_ROUND_WEIGHT = np.uint64(0x9E3779B97F4A7C15)


class Run(NamedTuple):
    """One side's run: its checksum and its cost."""

    checksum: int
    cpu_seconds: float
    wall_seconds: float

    def rate(self, rounds: int) -> Rate:
        """Rounds a wall-clock second and a CPU-second."""
        return Rate(rounds / self.wall_seconds, rounds / max(self.cpu_seconds, 1e-9))


def checksum(result: dc.SimulationResult) -> int:
    """The kernel's checksum of simulate's arrays (4 players): round i weighs
    (i + 1) * 0x9E3779B97F4A7C15 times its value, moves + 1009 * (out_seat + 1)
    + 10007 * starter + 100003 * reason + the points weighted per seat, all mod 2**64."""
    u = np.uint64
    value = (
        result.moves.astype(u)
        + u(1009) * (result.out_seat.astype(np.int64) + 1).astype(u)
        + u(10007) * result.starter.astype(u)
        + u(100003) * np.asarray(result.reason).astype(u)
        + (result.points.astype(u) * _SEAT_WEIGHTS).sum(axis=1, dtype=u)
    )
    weights = np.arange(1, len(value) + 1, dtype=u) * _ROUND_WEIGHT
    return int((weights * value).sum(dtype=u))


def compiler() -> Optional[str]:
    """The C++ compiler ($CXX, else c++), or None when there is none."""
    return shutil.which(os.environ.get("CXX", "c++"))


def compile_program(source: Path, flags: List[str], cache: Optional[Path] = None) -> Path:
    """source's executable, compiled unless the cache already holds this source
    built by this compiler with these flags (and the engine headers it may read)."""
    cxx = compiler()
    if cxx is None:
        raise RuntimeError("no C++ compiler: set CXX or install c++")
    key = hashlib.sha256()
    for part in (source.read_bytes(), cxx.encode(), " ".join(flags).encode()):
        key.update(part)
    for header in ("rng.hpp", "tiles.hpp"):
        key.update((ROOT / "cpp" / "include" / "dominocore" / header).read_bytes())
    directory = (cache or Path(tempfile.gettempdir()) / "dominocore-kernel") / key.hexdigest()[:16]
    exe = directory / source.stem
    if not exe.exists():
        directory.mkdir(parents=True, exist_ok=True)
        partial = directory / f"{source.stem}.{os.getpid()}"  # rename: atomic for a racing build
        subprocess.run([cxx, *flags, "-I", str(ROOT / "cpp" / "include"), str(source), "-o", str(partial)], check=True)
        partial.replace(exe)
    return exe


def compile_kernel(cache: Optional[Path] = None) -> Path:
    """The kernel's executable (compile_program)."""
    return compile_program(KERNEL_SOURCE, FLAGS, cache)


def run_kernel(exe: Path, rounds: int, seed: int) -> Run:
    """The kernel over rounds seed .. seed + rounds - 1, timed by itself."""
    out = subprocess.run([str(exe), str(rounds), str(seed)], check=True, capture_output=True, text=True).stdout
    fields = dict(item.split("=") for item in out.split())
    if int(fields["rounds"]) != rounds:
        raise RuntimeError(f"the kernel played {fields['rounds']} rounds, not {rounds}")
    return Run(int(fields["checksum"]), float(fields["cpu_seconds"]), float(fields["wall_seconds"]))


def play(rounds: int, seed: int) -> dc.SimulationResult:
    """simulate over the kernel's rounds: trains d9 4p, random play, 1 thread."""
    return dc.simulate(dc.ChickenFoot(players=4), rounds=rounds, seed=seed, threads=1)


def run_engine(rounds: int, seed: int) -> Run:
    """simulate over the same rounds, timed."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = play(rounds, seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Run(checksum(result), cpu, wall)


def kernel_rows(scale: float, repeats: int) -> Tuple[List[Row], List[Tuple[str, float]]]:
    """The table rows (both sides' best rounds a second) and the ratios
    simulate / kernel. Raises RuntimeError when the checksums differ."""
    exe = compile_kernel()
    rounds = max(100, int(ROUNDS * scale))
    runs: Dict[str, List[Run]] = {"engine": [], "kernel": []}
    for r in range(repeats):
        order = ("engine", "kernel") if r % 2 == 0 else ("kernel", "engine")
        for side in order:
            runs[side].append(run_engine(rounds, SEED) if side == "engine" else run_kernel(exe, rounds, SEED))
        if runs["engine"][-1].checksum != runs["kernel"][-1].checksum:
            raise RuntimeError(
                f"checksums differ over {rounds} rounds from seed {SEED}: simulate "
                f"{runs['engine'][-1].checksum}, kernel {runs['kernel'][-1].checksum}"
            )
    engine, kernel = (best(run.rate(rounds) for run in runs[side]) for side in ("engine", "kernel"))
    paired = [k.cpu_seconds / e.cpu_seconds for e, k in zip(runs["engine"], runs["kernel"])]
    rows = [
        ("simulate, trains d9 4p, 1 thread (the kernel's rounds)", engine, "rounds/s"),
        ("speed-of-light kernel, the same rounds", kernel, "rounds/s"),
    ]
    ratios = [
        ("simulate / kernel, 1 thread", engine.cpu / kernel.cpu),
        ("simulate / kernel, 1 thread (wall clock)", engine.wall / kernel.wall),
        ("simulate / kernel, 1 thread (median of the pairs)", statistics.median(paired)),
    ]
    return rows, ratios


# cachegrind without the cache simulation (slow, and not what is asked), with
# the branch predictor's; no output file.
CACHEGRIND = ["--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes", "--cachegrind-out-file=/dev/null"]
COUNT_ROUNDS = (1_000, 101_000)
QUICK_COUNT_ROUNDS = (100, 2_100)
# play(N, SEED) (N: the argument), written out rather than imported from this
# file: importing it (numpy, rates.py) varied the start-up by 37 million
# instructions from run to run, dominocore alone by 4 million.
ENGINE_SCRIPT = (
    "import sys, dominocore as dc; "
    f"dc.simulate(dc.ChickenFoot(players=4), rounds=int(sys.argv[1]), seed={SEED}, threads=1)"
)


class Counts(NamedTuple):
    """What cachegrind counted: instructions executed, branches mispredicted."""

    instructions: float
    mispredicts: float


def parse_counts(report: str) -> Counts:
    """The totals of cachegrind's summary (its ``I refs`` and ``Mispredicts`` lines)."""

    def total(label: str) -> int:
        found = re.search(rf"{label}:\s+([\d,]+)", report)
        if found is None:
            raise RuntimeError(f"no '{label}' line in cachegrind's report:\n{report}")
        return int(found.group(1).replace(",", ""))

    return Counts(total(r"I\s+refs"), total("Mispredicts"))


def count(command: List[str]) -> Counts:
    """One run of command under cachegrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("--count needs valgrind (Debian: apt-get install -y valgrind)")
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the interpreter's start-up, the same each run
    done = subprocess.run([valgrind, *CACHEGRIND, *command], check=True, capture_output=True, text=True, env=env)
    return parse_counts(done.stderr)


def per_round(
    command: Callable[[int], List[str]],
    rounds: Tuple[int, int] = COUNT_ROUNDS,
    run: Callable[[List[str]], Counts] = count,
) -> Counts:
    """The counts of one round: the difference of two runs of command(n), over
    the two numbers of rounds, so that what a run does once cancels."""
    few, many = rounds
    small, large = run(command(few)), run(command(many))
    return Counts(*((b - a) / (many - few) for a, b in zip(small, large)))


def count_sides(rounds: Tuple[int, int] = COUNT_ROUNDS, exe: Optional[Path] = None) -> Tuple[Counts, Counts]:
    """simulate's counts a round and the kernel's (``exe``, else compile_kernel()'s)."""
    exe = exe or compile_kernel()
    engine = per_round(lambda n: [sys.executable, "-c", ENGINE_SCRIPT, str(n)], rounds)
    kernel = per_round(lambda n: [str(exe), str(n), str(SEED)], rounds)
    return engine, kernel


class Machine(NamedTuple):
    """What bench/kernel/machine.cpp measured: the clock, and a mispredicted branch's cost."""

    ghz: float
    mispredict_ns: float


def parse_machine(out: str) -> Machine:
    """machine.cpp's line ``ghz=G mispredict_ns=P``."""
    fields = dict(item.split("=", 1) for item in out.split())
    try:
        return Machine(float(fields["ghz"]), float(fields["mispredict_ns"]))
    except (KeyError, ValueError) as e:
        raise RuntimeError(f"machine.cpp printed {out!r}, not 'ghz=G mispredict_ns=P'") from e


def run_machine(exe: Optional[Path] = None) -> Machine:
    """One run of the probe (``exe``, else compiled with MACHINE_FLAGS)."""
    exe = exe or compile_program(MACHINE_SOURCE, MACHINE_FLAGS)
    return parse_machine(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout)


class Split(NamedTuple):
    """A side's round: its nanoseconds, those its mispredicts cost, the rest,
    and the instructions run a cycle in the rest."""

    ns: float
    mispredicts_ns: float
    rest_ns: float
    rest_ipc: float


def split(counts: Counts, rounds_per_cpu_second: float, machine: Machine) -> Split:
    """Where a round's time goes, by counts (a round's) and a rate (rounds a CPU-second)."""
    ns = 1e9 / rounds_per_cpu_second
    mispredicts = counts.mispredicts * machine.mispredict_ns
    rest = ns - mispredicts
    ipc = counts.instructions / (rest * machine.ghz) if rest > 0 else float("inf")
    return Split(ns, mispredicts, rest, ipc)


def model_table(counts: Tuple[Counts, Counts], splits: Tuple[Split, Split], machine: Machine) -> List[str]:
    """--model's report: simulate's counts and split, then the kernel's."""
    lines = [
        f"This core: {machine.ghz:.2f} GHz; a mispredicted branch costs {machine.mispredict_ns:.2f} ns "
        f"({machine.mispredict_ns * machine.ghz:.1f} cycles).",
        "",
        "| trains d9 4p, random play, a round | instructions | mispredicts | ns (best rate) "
        "| ns in mispredicts | ns in the rest | instructions a cycle in the rest |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, side, share in zip(("simulate", "speed-of-light kernel"), counts, splits):
        lines.append(
            f"| {name} | {side.instructions:,.0f} | {side.mispredicts:,.1f} | {share.ns:,.0f} "
            f"| {share.mispredicts_ns:,.0f} | {share.rest_ns:,.0f} | {share.rest_ipc:.2f} |"
        )
    (engine, kernel), (engine_time, kernel_time) = counts, splits
    lines.append(
        f"| simulate - kernel | {engine.instructions - kernel.instructions:+,.0f} "
        f"| {engine.mispredicts - kernel.mispredicts:+,.1f} | {engine_time.ns - kernel_time.ns:+,.0f} "
        f"| {engine_time.mispredicts_ns - kernel_time.mispredicts_ns:+,.0f} "
        f"| {engine_time.rest_ns - kernel_time.rest_ns:+,.0f} | |"
    )
    return lines


def main() -> None:
    """Print the rows and the ratios."""
    without_blas_threads()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument(
        "--count", action="store_true", help="instructions and mispredicted branches a round, by valgrind; no timing"
    )
    parser.add_argument(
        "--model", action="store_true", help="--count, the rates and this core's constants: where the time goes"
    )
    args = parser.parse_args()
    if args.model:
        counts = count_sides(QUICK_COUNT_ROUNDS if args.quick else COUNT_ROUNDS)
        machine = run_machine()
        rows, _ = kernel_rows(0.05 if args.quick else 1.0, 2 if args.quick else 5)
        engine, kernel = (split(side, row[1].cpu, machine) for side, row in zip(counts, rows))
        print("\n".join(model_table(counts, (engine, kernel), machine)))
        return
    if args.count:
        engine, kernel = count_sides(QUICK_COUNT_ROUNDS if args.quick else COUNT_ROUNDS)
        print("| trains d9 4p, random play, a round | instructions | mispredicted branches |")
        print("|---|---|---|")
        for name, side in (("simulate", engine), ("speed-of-light kernel", kernel)):
            print(f"| {name} | {side.instructions:,.0f} | {side.mispredicts:,.1f} |")
        ratio = [e / k for e, k in zip(engine, kernel)]
        print(f"| simulate / kernel | {ratio[0]:.2f}x | {ratio[1]:.2f}x |")
        return
    rows, ratios = kernel_rows(0.05 if args.quick else 1.0, 2 if args.quick else 5)
    print("\n".join(rate_table(rows)))
    print()
    for name, value in ratios:
        print(f"| {name:56} | {value:>8.3f} |")


if __name__ == "__main__":
    main()
