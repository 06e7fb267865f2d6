"""IS-MCTS speed (docs/search.md): iterations a second on `trains` double-9,
4 players, mid-game positions, on one thread and on two (the same 2 trees).

    python bench/search_rates.py           # the rows alone
    python bench/compare.py                # ... also part of the side-by-side table

With open_spiel installed, the same search through OpenSpiel's Python
``ISMCTSBot`` (random rollouts, most visits), driving the same positions
through ``dominocore.openspiel``, gives a row and the ratio (goal >= 100).

Never timed in tests: the machine is shared, so each figure is the best of a
few repeats.
"""

from __future__ import annotations

import random
import time
from typing import List, Tuple

import dominocore._native as core
from dominocore.search import ISMCTSPlayer


def search_positions(count: int, seed: int = 11) -> list:
    """``count`` mid-game positions (10 to 40 random moves in) with two or more distinct legal moves."""
    rng = random.Random(seed)
    rules = core.ChickenFoot(players=4)
    out = []
    k = 0
    while len(out) < count:
        k += 1
        r = core.Round(rules, seed=seed * 1000 + k)
        for _ in range(rng.randrange(10, 40)):
            if r.is_over:
                break
            r.push(rng.choice(r.legal_moves(distinct=True)))  # in the action space, as OpenSpiel plays
        if not r.is_over and len(r.legal_moves(distinct=True)) >= 2:
            out.append(r)
    return out


def ismcts_rate(positions: list, iterations: int, threads: int, repeats: int) -> float:
    """Best iterations/second of IS-MCTS (2 trees, random rollouts) over ``positions``."""
    bot = ISMCTSPlayer(iterations=iterations, trees=2, threads=threads, seed=1)
    best = 0.0
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        for r in positions:
            done += bot.search(r)["iterations"]
        best = max(best, done / (time.perf_counter() - start))
    return best


def openspiel_ismcts_rate(positions: list, iterations: int, repeats: int) -> float:
    """Best iterations/second of OpenSpiel's ``ISMCTSBot`` on the same
    positions, through the OpenSpiel bridge (its resampling is the exact
    determinizer); 0 without open_spiel."""
    try:
        import dominocore.openspiel  # noqa: F401  (registers the games)
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return 0.0
    game = pyspiel.load_game("dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
    states = [game.new_initial_state_from_round(r) for r in positions]
    best = 0.0
    for _ in range(repeats):
        rng = np.random.RandomState(1)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 0.7, iterations, random_state=rng)
        start = time.perf_counter()
        for state in states:
            bot.step(state)
        best = max(best, iterations * len(states) / (time.perf_counter() - start))
    return best


def ismcts_rows(quick: bool, repeats: int) -> Tuple[List[Tuple[str, float, str]], List[Tuple[str, float]]]:
    """The rows and ratios for bench/compare.py."""
    positions = search_positions(4 if quick else 20)
    iterations = 2_000 if quick else 20_000
    one = ismcts_rate(positions, iterations, 1, repeats)
    two = ismcts_rate(positions, iterations, 2, repeats)
    rows = [
        ("IS-MCTS trains d9 4p, 2 trees, 1 thread", one, "iterations/s"),
        ("IS-MCTS trains d9 4p, 2 trees, 2 threads", two, "iterations/s"),
    ]
    ratios = [("IS-MCTS 2 threads / 1 thread (goal >= 1.7)", two / one)]
    theirs = openspiel_ismcts_rate(positions[:2] if quick else positions[:5], 100 if quick else 300, 1)
    if theirs:
        rows.append(("OpenSpiel ISMCTSBot (Python) via dominocore.openspiel", theirs, "iterations/s"))
        ratios.append(("IS-MCTS core 1 thread / OpenSpiel ISMCTSBot (goal >= 100)", one / theirs))
    return rows, ratios


if __name__ == "__main__":
    rows, ratios = ismcts_rows(False, 3)
    for name, rate, unit in rows:
        print(f"| {name:52} | {rate:>14,.0f} | {unit} |")
    for name, value in ratios:
        print(f"| {name:52} | {value:>14.2f} |")
