"""How many of a pool's weighted worlds count: the effective sample size.

    python bench/pool_ess.py

IS-MCTS with ``pool=P`` (docs/search.md 2) weighs P uniform worlds once and
gives every iteration one of them in proportion to its likelihood. When a few
worlds carry nearly all the weight, every iteration searches those few. The
effective sample size ``(sum w)^2 / sum w^2`` says how many equally weighted
worlds the pool is worth. This prints its median and minimum over 12 seeded
positions of ``trains`` double-9, 4 players (greedy play for ``depth``
moves, the seat to move's determinizer, the softmax model at temperature 1),
for pools of 256 and 4,096 worlds.
"""

from __future__ import annotations

import dominocore as dc
import numpy as np

POOLS = (256, 4096)


def effective_size(log_weights: np.ndarray) -> float:
    """``(sum w)^2 / sum w^2`` for weights given by their logarithms."""
    w = np.exp(log_weights - log_weights.max())
    return float(w.sum() ** 2 / (w * w).sum())


def main() -> None:
    rules = dc.ChickenFoot(players=4, set=9, rule_set="trains")
    greedy = dc.GreedyPlayer()
    model = dc.OpponentModel("softmax", temperature=1.0)
    print("| moves played | " + " | ".join(f"pool of {p}: median [min]" for p in POOLS) + " |")
    print("|---|" + "---|" * len(POOLS))
    for depth in (8, 16, 24, 32):
        sizes = {p: [] for p in POOLS}
        for seed in range(12):
            world = dc.Round(rules, seed=seed)
            for _ in range(depth):
                if world.is_over:
                    break
                world.push(greedy.choose(world))
            if world.is_over:
                continue
            seat = world.current_player
            uniform, weighted = world.determinizer(seat), world.determinizer(seat, model=model)
            logs = np.array([weighted.log_likelihood(uniform.sample(seed=i)) for i in range(max(POOLS))])
            for p in POOLS:
                sizes[p].append(effective_size(logs[:p]))
        cells = [f"{np.median(v):.0f} [{min(v):.0f}]" for v in sizes.values()]
        print(f"| {depth} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
