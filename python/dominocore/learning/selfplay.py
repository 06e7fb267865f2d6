"""Training data for the learned policy (docs/learning.md 2): rounds played by
IS-MCTS in every seat, recorded as the mover's observation tensor, its legal
action mask, the action the search chose and the round margin the mover got.

Only decisions with two or more legal actions are kept (a forced move teaches
nothing). Round g is ``Round(rules, seed=seed + g)`` and the searches are
seeded from ``seed`` too, so the same command writes the same file::

    python -m dominocore.learning.selfplay --config chickenfoot-trains-d9-p4 --out data/trains.npz

``--rounds`` defaults to the configuration's count in ``ROUNDS`` (the
shipped networks' data).
"""

from __future__ import annotations

import argparse
from typing import Dict, List

import numpy as np
from tqdm import tqdm

from ..common.errors import StateError
from ..common.learned import network_key
from ..common.rules import Rules
from ..games import Block, ChickenFoot, Doubles
from ..native import Round
from ..search import ISMCTSPlayer

__all__ = ["CONFIGS", "ROUNDS", "play_rounds", "main"]

#: The four configurations of README's search table, by their networks' keys.
CONFIGS: Dict[str, Rules] = {
    network_key(rules): rules
    for rules in (
        ChickenFoot(players=4, set=9, rule_set="trains"),
        ChickenFoot(players=4, set=9, rule_set="cross"),
        Doubles(players=4, set=6),
        Block(players=2, set=6),
    )
}
#: The rounds of the shipped networks' data, by key (each some 150,000 to 250,000 decisions).
ROUNDS = {
    "chickenfoot-trains-d9-p4": 6000,
    "chickenfoot-cross-d9-p4": 6000,
    "doubles-d6-p4": 20000,
    "block-d6-p2": 40000,
}


def play_rounds(rules: Rules, rounds: int, seed: int, iterations: int, progress: bool = True) -> Dict[str, np.ndarray]:
    """``rounds`` rounds of IS-MCTS (``iterations`` a move) in every seat, as arrays."""
    expert = ISMCTSPlayer(iterations=iterations, seed=seed)
    obs: List[np.ndarray] = []
    masks: List[np.ndarray] = []
    actions: List[int] = []
    values: List[float] = []
    for g in tqdm(range(rounds), unit="round", disable=not progress):
        r = Round(rules, seed=seed + g)
        movers: List[int] = []
        while not r.is_over:
            legal = r.legal_actions()
            move = expert.choose(r)
            if len(legal) > 1:
                seat = r.current_player
                obs.append(np.asarray(r.observation_tensor(seat), dtype=np.int16))
                masks.append(np.asarray(r.legal_action_mask(), dtype=bool))
                actions.append(r.move_to_action(move))
                movers.append(seat)
            r.push(move)
        result = r.result
        if result is None:  # the loop above plays the round to its end
            raise StateError("a round ended without a result")
        m = rules.round_margins(list(result.points))  # docs/tournaments.md 3: positive is good
        values.extend(m[s] for s in movers)
    return {
        "obs": np.stack(obs),
        "mask": np.stack(masks),
        "action": np.asarray(actions, dtype=np.int16),
        "value": np.asarray(values, dtype=np.float32),
    }


def main(argv: "List[str] | None" = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", choices=sorted(CONFIGS), required=True)
    parser.add_argument("--rounds", type=int, default=None, help="default: the configuration's count in ROUNDS")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    rounds = ROUNDS[args.config] if args.rounds is None else args.rounds
    data = play_rounds(CONFIGS[args.config], rounds, args.seed, args.iterations)
    np.savez_compressed(args.out, obs=data["obs"], mask=data["mask"], action=data["action"], value=data["value"])
    print(f"wrote {args.out}: {len(data['action'])} decisions")


if __name__ == "__main__":
    main()
