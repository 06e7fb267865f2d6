"""Rates as bench/ reports them: per wall-clock second and per CPU-second.

The CPU-second is the process's time on every thread (``time.process_time``).
These machines are shared: load from other processes lowers the wall-clock
rate a lot and the per-CPU-second rate little, so the speed goals
(docs/performance.md) are stated per CPU-second. A run on n threads spends
about n CPU-seconds a wall second, so its per-CPU-second rate is a rate per
thread.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, Iterable, List, NamedTuple, Tuple


def without_blas_threads() -> None:
    """Run this script again with ``OPENBLAS_NUM_THREADS=1`` unless it is set. numpy's
    OpenBLAS threads spin after start-up and would count as CPU time of every workload
    (up to 7% of a profile); the environment carries over to worker processes."""
    if "OPENBLAS_NUM_THREADS" not in os.environ:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        # with the interpreter's own options (3.10+): a compare.py worker run as `python -S`
        # would otherwise import the editable install, not the build on its PYTHONPATH
        again = getattr(sys, "orig_argv", [sys.executable, *sys.argv])[1:]
        os.execv(sys.executable, [sys.executable, *again])


class Rate(NamedTuple):
    """Units per wall-clock second and per CPU-second of the process."""

    wall: float
    cpu: float


def timed(work: Callable[[], int]) -> Rate:
    """One run of ``work`` (which returns its unit count) as a ``Rate``."""
    start, start_cpu = time.perf_counter(), time.process_time()
    units = work()
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return Rate(units / wall, units / max(cpu, 1e-9))


def best(rates: Iterable[Rate]) -> Rate:
    """The best wall-clock rate and the best per-CPU-second rate of several runs
    (each taken on its own: the least disturbed run of each kind)."""
    rates = list(rates)
    return Rate(max(r.wall for r in rates), max(r.cpu for r in rates))


def best_rate(work: Callable[[], int], repeats: int) -> Rate:
    """The best of ``repeats`` runs of ``work``."""
    return best(timed(work) for _ in range(repeats))


Row = Tuple[str, Rate, str]


def rate_table(rows: List[Row], width: int = 56) -> List[str]:
    """Markdown lines: one row per measurement, its two rates and unit."""
    lines = [
        f"| {'measurement':{width}} | {'per second':>14} | {'per CPU-second':>14} | unit |",
        f"|{'-' * (width + 2)}|{'-' * 16}|{'-' * 16}|------|",
    ]
    for name, rate, unit in rows:
        lines.append(f"| {name:{width}} | {rate.wall:>14,.0f} | {rate.cpu:>14,.0f} | {unit} |")
    return lines
