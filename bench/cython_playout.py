"""Random playouts in Cython (``cimport dominocore``) against the same loop in
Python over the pybind11 API (docs/cython.md).

    python bench/cython_playout.py            # about 20 seconds (plus a first build)
    python bench/cython_playout.py --quick    # a few seconds

The Cython loop is tests/cython/dominocore_playout.pyx (built against the
installed package as tests/test_cython.py builds it, cached in
.pytest_cache/d/dominocore-cython). Each round: deal from SplitMix64(seed + i),
then until the round is over list the distinct legal moves and play
moves[below(n)] from SplitMix64((seed + i) ^ kRandomPlayXor) — simulate's
random policy. The Python rows run that loop over dominocore.Round: through
the action API (legal_actions(), apply_action(): the step loop an agent
writes) and through the move API (legal_moves(distinct=True), push(): the
same rounds as the Cython loop, checked here). ``simulate`` (C++, one thread)
is the ceiling. Every figure is the best of a few repeats: the machine is
shared and noisy.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from types import ModuleType
from typing import Callable, Dict, List

import dominocore as dc
import numpy as np
from dominocore.common.checks import PLAYER_SEED_XOR

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "cython"))
import cython_build  # noqa: E402  (tests/cython/cython_build.py)

CYTHON = "Cython: distinct_moves, push_unchecked"


def python_actions(rules: dc.Rules, seed: int, rounds: int) -> List[int]:
    """The loop in Python through legal_actions() / apply_action(); the points of seat 0."""
    out = []
    for i in range(rounds):
        s = seed + i
        r = dc.Round(rules, seed=s)
        rng = dc.SplitMix64(s ^ PLAYER_SEED_XOR)
        while not r.is_over:
            actions = r.legal_actions()
            r.apply_action(actions[rng.below(len(actions))])
        out.append(r.result.points[0])
    return out


def python_moves(rules: dc.Rules, seed: int, rounds: int) -> List[int]:
    """The loop in Python through legal_moves(distinct=True) / push(): simulate's rounds."""
    out = []
    for i in range(rounds):
        s = seed + i
        r = dc.Round(rules, seed=s)
        rng = dc.SplitMix64(s ^ PLAYER_SEED_XOR)
        while not r.is_over:
            moves = r.legal_moves(distinct=True)
            r.push(moves[rng.below(len(moves))])
        out.append(r.result.points[0])
    return out


def best_of(repeats: int, f: Callable[[], object]) -> float:
    """The shortest of `repeats` timings of f(), in seconds."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(playout: ModuleType, rules: dc.Rules, quick: bool, repeats: int) -> Dict[str, float]:
    """Rounds per second of each loop on `rules`."""
    py_rounds = 20 if quick else 100
    cy_rounds = 2000 if quick else 20000
    seed = 1
    arrays = dict(
        points=np.zeros((cy_rounds, rules.players), np.int32),
        reason=np.zeros(cy_rounds, np.uint8),
        out_seat=np.zeros(cy_rounds, np.int8),
        starter=np.zeros(cy_rounds, np.int8),
        moves=np.zeros(cy_rounds, np.int32),
    )

    def cython_loop() -> None:
        playout.playout(rules, seed, cy_rounds, 0, **arrays)

    cython_loop()
    if python_moves(rules, seed, 10) != arrays["points"][:10, 0].tolist():
        raise AssertionError("the Cython and the Python loop play different rounds")
    return {
        CYTHON: cy_rounds / best_of(repeats, cython_loop),
        "Python: Round.legal_actions, apply_action": py_rounds
        / best_of(repeats, lambda: python_actions(rules, seed, py_rounds)),
        "Python: Round.legal_moves(distinct), push": py_rounds
        / best_of(repeats, lambda: python_moves(rules, seed, py_rounds)),
        "simulate (C++, threads=1)": cy_rounds
        / best_of(repeats, lambda: dc.simulate(rules, rounds=cy_rounds, seed=seed, threads=1)),
    }


def main(argv: "List[str] | None" = None) -> int:
    """Prints rounds per second of each loop and the Cython loop's speed-up."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and repeats")
    args = parser.parse_args(argv)
    try:
        playout = cython_build.build(ROOT / ".pytest_cache" / "d" / "dominocore-cython")
    except cython_build.BuildUnavailable as why:
        print(f"cannot build the Cython extension here: {why}")
        return 1
    repeats = 2 if args.quick else 5
    configs = [
        ("chickenfoot 4p d9", dc.ChickenFoot(players=4)),
        ("doubles 2p d6", dc.Doubles(players=2)),
        ("block 2p d6", dc.Block(players=2)),
        ("mexican_train 4p d12", dc.MexicanTrain(players=4)),
    ]
    print(f"dominocore {dc.__version__}, best of {repeats}; rounds per second (one thread)")
    print(f"{'configuration':<22}{'loop':<44}{'rounds/s':>12}{'Cython is':>11}")
    for name, rules in configs:
        rates = measure(playout, rules, args.quick, repeats)
        for loop, rate in rates.items():
            print(f"{name:<22}{loop:<44}{rate:>12,.0f}{rates[CYTHON] / rate:>10.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
