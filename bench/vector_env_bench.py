"""Speed of the vectorized environment (docs/ecosystem.md 4): environment steps a second, with observations.

    python bench/vector_env_bench.py            # about 10 seconds
    python bench/vector_env_bench.py --quick    # a smoke test

Chicken Foot trains, double-9, 4 players, 4096 environments. Rows: (a)
``step_random()``, the actions chosen in C++ by the built-in random policy,
on 1 and 2 threads; (b) end to end, a uniformly random legal action chosen
in numpy from the masks (``argmax(uniform + mask)``) and passed to
``step()``, on 2 threads. Each row gives the wall-clock rate (best of a few
repeats) and the rate per CPU-second of the process (every thread's time),
which a shared, loaded machine lowers less. ``bench/compare.py`` prints the
same rows in its table.
"""

from __future__ import annotations

import argparse
from typing import List, Tuple

import dominocore as dc
import numpy as np
from dominocore._native import STATE_BYTES
from rates import Row, best_rate, rate_table, without_blas_threads  # bench/, beside this file

NUM_ENVS = 4096


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


def vector_env_rows(scale: float, repeats: int, num_envs: int = NUM_ENVS) -> Tuple[List[Row], List[str]]:
    """The table rows ``(name, rate, unit)`` and notes (memory per environment)."""
    rules = dc.ChickenFoot(players=4)
    steps = max(2, int(300 * scale * NUM_ENVS / num_envs))
    rows: List[Row] = []
    envs = {t: dc.VectorEnv(rules, num_envs, seed=1, threads=t) for t in (1, 2)}
    for t, env in envs.items():
        rate = best_rate(lambda env=env: random_steps(env, steps), repeats)
        rows.append((f"VectorEnv.step_random, {t} thread{'s' if t > 1 else ''}", rate, "env steps/s"))
    rate = best_rate(lambda: numpy_steps(envs[2], steps), repeats)
    rows.append(("VectorEnv.step, numpy random legal, 2 threads", rate, "env steps/s"))
    env = envs[2]
    rows_bytes = env.num_actions + 4 * (env.observation_shape[0] + env.players) + 4 + 1 + 4 + 8
    notes = [
        f"VectorEnv: {num_envs} environments, steps with observations",
        f"VectorEnv memory: {env.bytes_per_env:,} bytes per environment ({STATE_BYTES:,} round state, "
        f"{rows_bytes:,} of array rows, the rest undo history)",
    ]
    return rows, notes


def main() -> None:
    """Print the rows and notes."""
    without_blas_threads()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument("--envs", type=int, default=NUM_ENVS, help=f"environments (default {NUM_ENVS})")
    args = parser.parse_args()
    rows, notes = vector_env_rows(0.05 if args.quick else 1.0, 1 if args.quick else 3, args.envs)
    print("\n".join(rate_table(rows)))
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    main()
