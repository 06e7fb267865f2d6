"""Speed of the vectorized environment (docs/ecosystem.md 4): environment steps a second, with observations.

    python bench/vector_env_bench.py            # about 15 seconds
    python bench/vector_env_bench.py --quick    # a smoke test

Chicken Foot trains, double-9, 4 players, 4096 environments. Rows: (a)
``step_random()``, the actions chosen in C++ by the built-in random policy,
on 1 and 2 threads; (b) end to end, a uniformly random legal action chosen
in numpy from the masks (``argmax(uniform + mask)``) and passed to
``step()``, on 2 threads. Each row gives the wall-clock rate (best of a few
repeats) and the rate per CPU-second of the process (every thread's time),
which a shared, loaded machine lowers less. ``bench/compare.py`` prints the
same rows in its table. ``main`` also times ``Round.observation_tensors``
on a batch of 1000 mid-game positions into ``out``, as ``bench/compare.py``
does (its ``information_rows``).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable, List, Tuple

import dominocore as dc
import numpy as np
from dominocore._native import STATE_BYTES

NUM_ENVS = 4096


def best_rates(work: Callable[[], int], repeats: int) -> Tuple[float, float]:
    """Best units per wall-clock second and per process CPU-second of ``work``."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        units = work()
        wall.append(units / (time.perf_counter() - start))
        cpu.append(units / max(time.process_time() - start_cpu, 1e-9))
    return max(wall), max(cpu)


def random_steps(env: dc.VectorEnv, steps: int) -> int:
    """``steps`` calls of ``step_random()``; returns the environment steps."""
    for _ in range(steps):
        env.step_random()
    return steps * env.num_envs


def numpy_steps(env: dc.VectorEnv, steps: int, seed: int = 1) -> int:
    """``steps`` calls of ``step()`` with random legal actions drawn in numpy."""
    rng = np.random.default_rng(seed)
    scores = np.empty((env.num_envs, env.num_actions), np.float32)
    masks = env.masks
    for _ in range(steps):
        rng.random(dtype=np.float32, out=scores)
        np.add(scores, masks, out=scores)  # legal ids in [1, 2), the others in [0, 1)
        env.step(scores.argmax(axis=1))
    return steps * env.num_envs


def vector_env_rows(
    scale: float, repeats: int, num_envs: int = NUM_ENVS
) -> Tuple[List[Tuple[str, float, str]], List[str]]:
    """The table rows ``(name, rate, unit)`` and notes (memory per environment)."""
    rules = dc.ChickenFoot(players=4)
    steps = max(2, int(300 * scale * NUM_ENVS / num_envs))
    rows: List[Tuple[str, float, str]] = []
    cpu_notes = []
    envs = {t: dc.VectorEnv(rules, num_envs, seed=1, threads=t) for t in (1, 2)}
    for t, env in envs.items():
        wall, cpu = best_rates(lambda env=env: random_steps(env, steps), repeats)
        rows.append((f"VectorEnv.step_random, {t} thread{'s' if t > 1 else ''}", wall, "env steps/s"))
        cpu_notes.append(f"step_random {t} thread(s) {cpu:,.0f}")
    wall, cpu = best_rates(lambda: numpy_steps(envs[2], steps), repeats)
    rows.append(("VectorEnv.step, numpy random legal, 2 threads", wall, "env steps/s"))
    cpu_notes.append(f"numpy end to end 2 threads {cpu:,.0f}")
    env = envs[2]
    rows_bytes = env.num_actions + 4 * (env.observation_shape[0] + env.players) + 4 + 1 + 4 + 8
    notes = [
        f"VectorEnv: {num_envs} environments, steps with observations; per CPU-second (env steps): "
        + "; ".join(cpu_notes),
        f"VectorEnv memory: {env.bytes_per_env:,} bytes per environment ({STATE_BYTES:,} round state, "
        f"{rows_bytes:,} of array rows, the rest undo history)",
    ]
    return rows, notes


def mid_game_positions(rules: dc.Rules, count: int, seed: int = 7) -> List[Tuple[dc.Round, int]]:
    """``count`` mid-game positions of random play with the seat to move
    (``bench/compare.py``'s ``random_positions``)."""
    rng = random.Random(seed)
    positions: List[Tuple[dc.Round, int]] = []
    while len(positions) < count:
        state = dc.Round(rules, seed=seed + len(positions) + 1000 * rng.randrange(1000))
        for _ in range(rng.randrange(1, 80)):
            if state.is_over:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_over:
            positions.append((state, state.current_player))
    return positions


def observation_batch_rates(scale: float, repeats: int, count: int = 1000) -> Tuple[float, float]:
    """``Round.observation_tensors(rounds, seats, out=batch)`` on ``count``
    positions: tensors per wall-clock second and per CPU-second."""
    positions = mid_game_positions(dc.ChickenFoot(players=4), count)
    rounds = [s for s, _ in positions]
    seats = [seat for _, seat in positions]
    batch = np.zeros((len(rounds), *rounds[0].observation_tensor_shape), dtype=np.float32)
    calls = max(2, int(200 * scale))

    def fill() -> int:
        for _ in range(calls):
            dc.Round.observation_tensors(rounds, seats, out=batch)
        return calls * len(rounds)

    return best_rates(fill, repeats)


def main() -> None:
    """Print the rows and notes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument("--envs", type=int, default=NUM_ENVS, help=f"environments (default {NUM_ENVS})")
    args = parser.parse_args()
    rows, notes = vector_env_rows(0.05 if args.quick else 1.0, 1 if args.quick else 3, args.envs)
    print(f"| {'measurement':52} | {'rate':>14} | unit |")
    print(f"|{'-' * 54}|{'-' * 16}|------|")
    for name, rate, unit in rows:
        print(f"| {name:52} | {rate:>14,.0f} | {unit} |")
    for note in notes:
        print(f"- {note}")
    wall, cpu = observation_batch_rates(0.05 if args.quick else 1.0, 1 if args.quick else 3)
    print(f"- Round.observation_tensors, 1000 mid-game positions: {wall:,.0f} tensors/s, {cpu:,.0f} per CPU-second")


if __name__ == "__main__":
    main()
