"""Side-by-side speed table: one run, one machine, every ratio measured here.

    python bench/compare.py            # about 15 seconds
    python bench/compare.py --quick    # a few seconds, for a smoke test

Rows: batch simulation (C++ on 1 and 2 threads, the reference), the Python
step loop (ask the legal action ids, pick one with random.Random.choice,
apply it) over the C++ core, the reference and, when open_spiel is
installed (``pip install open_spiel``), OpenSpiel's python_block_dominoes and
its C++ crazy_eights; the size of a round state and the cost of clone().
Every figure is the best of a few repeats (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable, List, Tuple

import dominocore._native as core
import dominocore.reference as ref


def best_rate(work: Callable[[], int], repeats: int) -> float:
    """Best units/second over ``repeats`` runs of ``work`` (which returns its unit count)."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()
        rates.append(units / (time.perf_counter() - start))
    return max(rates)


def step_loop(module, rules, rounds: int, seed: int = 1) -> int:
    """Play ``rounds`` random rounds through the step interface; return the action count."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for i in range(rounds):
        state = module.Round(rules, seed=seed + i)
        while not state.is_over:
            state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def openspiel_loop(game, games: int, seed: int = 1) -> int:
    """The same loop over an OpenSpiel game (chance outcomes sampled uniformly)."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    args = parser.parse_args()
    scale = 0.05 if args.quick else 1.0
    repeats = 1 if args.quick else 3
    n = lambda x: max(1, int(x * scale))  # noqa: E731

    rows: List[Tuple[str, float, str]] = []
    cf_core, cf_ref = core.ChickenFoot(players=4), ref.ChickenFoot(players=4)

    # -- batch simulation
    sim1 = best_rate(lambda: core.simulate(cf_core, rounds=n(400_000), seed=1, threads=1).moves.size, repeats)
    sim2 = best_rate(lambda: core.simulate(cf_core, rounds=n(400_000), seed=1, threads=2).moves.size, repeats)
    simr = best_rate(lambda: len(ref.simulate(cf_ref, rounds=n(300), seed=1).moves), repeats)
    rows += [
        ("simulate, C++, 1 thread", sim1, "rounds/s"),
        ("simulate, C++, 2 threads", sim2, "rounds/s"),
        ("simulate, reference", simr, "rounds/s"),
    ]
    ratios = [
        ("C++ 2 threads / 1 thread", sim2 / sim1),
        ("C++ simulate (1 thread) / reference simulate", sim1 / simr),
    ]

    # -- the Python step loop
    step_core = best_rate(lambda: step_loop(core, cf_core, n(6000)), repeats)
    step_ref = best_rate(lambda: step_loop(ref, cf_ref, n(150)), repeats)
    rows += [
        ("step loop, C++ core", step_core, "actions/s"),
        ("step loop, reference", step_ref, "actions/s"),
    ]
    ratios.append(("step loop: C++ core / reference", step_core / step_ref))

    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers python_* games)
    except ImportError:
        rows.append(("OpenSpiel", float("nan"), "not installed (pip install open_spiel)"))
    else:
        block = pyspiel.load_game("python_block_dominoes")
        eights = pyspiel.load_game("crazy_eights")
        os_block = best_rate(lambda: openspiel_loop(block, n(300)), repeats)
        os_eights = best_rate(lambda: openspiel_loop(eights, n(3000)), repeats)
        rows += [
            ("step loop, OpenSpiel python_block_dominoes", os_block, "actions/s"),
            ("step loop, OpenSpiel crazy_eights (C++)", os_eights, "actions/s"),
        ]
        ratios += [
            ("step loop: C++ core / OpenSpiel python_block_dominoes", step_core / os_block),
            ("step loop: C++ core / OpenSpiel crazy_eights", step_core / os_eights),
        ]

    # -- state size and clone cost
    state = core.Round(cf_core, seed=3)
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone

    def clone_many(count: int = n(200_000)) -> int:
        for _ in range(count):
            clone()
        return count

    clones = best_rate(clone_many, repeats)
    rows.append(("Round.clone(), C++ core (from Python)", clones, "clones/s"))

    print(
        f"dominocore bench: Chicken Foot trains, double-9, 4 players; random policy{' (quick)' if args.quick else ''}"
    )
    print()
    print(f"| {'measurement':52} | {'rate':>14} | unit |")
    print(f"|{'-' * 54}|{'-' * 16}|------|")
    for name, rate, unit in rows:
        print(f"| {name:52} | {rate:>14,.0f} | {unit} |")
    print()
    print(f"| {'ratio':52} | {'value':>14} |")
    print(f"|{'-' * 54}|{'-' * 16}|")
    for name, value in ratios:
        print(f"| {name:52} | {value:>14.2f} |")
    print()
    print(
        f"round state: {core.STATE_BYTES} bytes (sizeof(State); undo history beside it); "
        f"clone() {1e9 / clones:,.0f} ns from Python"
    )


if __name__ == "__main__":
    main()
