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
from typing import List, Optional, Tuple

import dominocore._native as core
from dominocore.search import ISMCTSPlayer
from rates import Rate, Row, best_rate, rate_table, without_blas_threads  # bench/, beside this file


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


def ismcts_rate(positions: list, iterations: int, threads: int, repeats: int) -> Rate:
    """Best iterations/second of IS-MCTS (2 trees, random rollouts) over ``positions``."""
    bot = ISMCTSPlayer(iterations=iterations, trees=2, threads=threads, seed=1)
    return best_rate(lambda: sum(bot.search(r)["iterations"] for r in positions), repeats)


def openspiel_ismcts_rate(positions: list, iterations: int, repeats: int) -> Optional[Rate]:
    """Best iterations/second of OpenSpiel's ``ISMCTSBot`` on the same
    positions, through the OpenSpiel bridge (its resampling is the exact
    determinizer); None without open_spiel."""
    try:
        import dominocore.openspiel  # noqa: F401  (registers the games)
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
    states = [game.new_initial_state_from_round(r) for r in positions]

    def run() -> int:
        rng = np.random.RandomState(1)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 0.7, iterations, random_state=rng)
        for state in states:
            bot.step(state)
        return iterations * len(states)

    return best_rate(run, repeats)


def ismcts_rows(quick: bool, repeats: int) -> Tuple[List[Row], List[Tuple[str, float]]]:
    """The rows and ratios for bench/compare.py."""
    positions = search_positions(4 if quick else 20)
    iterations = 2_000 if quick else 20_000
    one = ismcts_rate(positions, iterations, 1, repeats)
    two = ismcts_rate(positions, iterations, 2, repeats)
    rows = [
        ("IS-MCTS trains d9 4p, 2 trees, 1 thread", one, "iterations/s"),
        ("IS-MCTS trains d9 4p, 2 trees, 2 threads", two, "iterations/s"),
    ]
    ratios = [("IS-MCTS 2 threads / 1 thread (wall clock; goal >= 1.7)", two.wall / one.wall)]
    theirs = openspiel_ismcts_rate(positions[:2] if quick else positions[:5], 100 if quick else 300, 1)
    if theirs:
        rows.append(("OpenSpiel ISMCTSBot (Python) via dominocore.openspiel", theirs, "iterations/s"))
        ratios.append(("IS-MCTS core 1 thread / OpenSpiel ISMCTSBot (goal >= 100)", one.cpu / theirs.cpu))
    return rows, ratios


if __name__ == "__main__":
    without_blas_threads()
    rows, ratios = ismcts_rows(False, 3)
    print("\n".join(rate_table(rows)))
    for name, value in ratios:
        print(f"| {name:56} | {value:>14.2f} |")
