"""A random agent and dominocore's greedy bot play rounds through PettingZoo.

Run ``python examples/pettingzoo_play.py`` (needs ``pettingzoo`` and
``gymnasium``). Even seats play uniformly random legal actions from the
observation's action mask; odd seats play dominocore's greedy bot
(docs/rules.md 1.6). The greedy bot chooses from a dominocore ``Round``; to
keep it to what its seat may know, it is given a world sampled from that
seat's information (``round.determinize``), whose legal moves are the real
ones (docs/information.md 3), and its move goes back to the environment as
an action id. Each round's rewards are the seats' round margins.
"""

from __future__ import annotations

import argparse
from typing import Dict

import dominocore as dc
import numpy as np
from dominocore.pettingzoo import env as make_env


def play(game: str = "chickenfoot", seed: int = 0, rounds: int = 3, verbose: bool = False) -> Dict[str, float]:
    """Play ``rounds`` rounds of ``game`` (seeds ``seed``, ``seed + 1``, ...)
    and return each bot's total reward."""
    env = make_env(game=game, players=2, render_mode="ansi")
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    greedy = dc.GreedyPlayer()
    totals = {"random": 0.0, "greedy": 0.0}
    for k in range(rounds):
        env.reset(seed=seed + k)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            bot = "random" if raw.seat(agent) % 2 == 0 else "greedy"
            if terminated or truncated:
                totals[bot] += reward
                env.step(None)
                continue
            if bot == "random":
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            else:
                world = raw.round.determinize(raw.seat(agent), seed=int(rng.integers(2**63)))
                action = world.move_to_action(greedy.choose(world))
            if verbose:
                print(env.render(), f"\n{agent} ({bot}) plays action {action}\n")
            env.step(action)
        if verbose:
            print(f"round {k}: {raw.round.result}")
    return totals


def main() -> None:
    """Command line: the game, the seed, the number of rounds, ``--verbose``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chickenfoot", choices=["chickenfoot", "doubles", "block", "mexican_train"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    totals = play(args.game, args.seed, args.rounds, args.verbose)
    margins = f"random {totals['random']:+.1f}, greedy {totals['greedy']:+.1f}"
    print(f"{args.rounds} rounds of {args.game}: total margin {margins}")


if __name__ == "__main__":
    main()
