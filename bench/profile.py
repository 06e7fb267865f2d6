"""Where a workload of ``bench/compare.py --baseline`` spends its time: ``perf``'s top entries.

    python bench/profile.py                                  # every workload
    python bench/profile.py "VectorEnv.step_random, 1 thread" --size 600

Runs each workload (``compare.WORKLOADS``) in a fresh interpreter under
``perf record`` (Debian's ``linux-perf``) and prints the functions with the
most samples, self time only. Symbols need an unstripped extension: install
with ``-C cmake.build-type=RelWithDebInfo -C
"cmake.define.CMAKE_CXX_FLAGS_RELWITHDEBINFO=-O3 -g -DNDEBUG
-fno-omit-frame-pointer"`` (the Release flags plus debug information;
docs/performance.md 4). Without them the extension's entries show as
addresses.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from compare import WORKLOADS  # bench/, beside this file

HERE = Path(__file__).resolve().parent


def top_entries(name: str, size: int, limit: float) -> str:
    """The perf report of one run of workload ``name`` at ``size``: entries over ``limit`` percent."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")  # as compare.py runs them
    with tempfile.TemporaryDirectory(prefix="dominocore-perf-") as tmp:
        data = str(Path(tmp, "perf.data"))
        record = ["perf", "record", "-F", "1999", "-o", data, "--", sys.executable]
        run = [*record, str(HERE / "compare.py"), "--worker", name, str(size)]
        subprocess.run(run, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = ["perf", "report", "-i", data, "--no-children", "--percent-limit", str(limit), "--stdio"]
        out = subprocess.run(report, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    lines = [" ".join(line.split()) for line in out.splitlines() if line.strip() and not line.startswith("#")]
    return "\n".join(line[:160] for line in lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="*", help="names from compare.WORKLOADS (default: all)")
    parser.add_argument("--size", type=int, help="the workload's size (default: its --baseline size)")
    parser.add_argument("--limit", type=float, default=1.5, help="the smallest share shown, in percent")
    args = parser.parse_args()
    for name in args.workloads or list(WORKLOADS):
        if name not in WORKLOADS:
            parser.error(f"unknown workload {name!r}: choose from {', '.join(WORKLOADS)}")
        size = args.size or WORKLOADS[name][1]
        print(f"== {name} (size {size:,})")
        print(top_entries(name, size, args.limit))
        print()


if __name__ == "__main__":
    main()
