"""Record perft counts from the reference into tests/data/perft.json.

perft(d) is the number of move sequences of length d from a position, over
the full legal-move listing (a Draw takes the yard's top, so the tree is
deterministic). Run from the repository root: ``python tests/make_perft.py``.
"""

from __future__ import annotations

import json
import pathlib

import dominocore.reference as ref

PATH = pathlib.Path(__file__).parent / "data" / "perft.json"
DEPTH = 4

# (rules, seed, round index, moves played first by the greedy bot): an
# opening and a middle position for each game and rule set.
POSITIONS = [
    (ref.ChickenFoot(players=4, set=9), 7, 0, 0),
    (ref.ChickenFoot(players=4, set=9), 7, 0, 14),
    (ref.ChickenFoot(players=3, set=12, trains=5), 3, 2, 8),
    (ref.ChickenFoot(players=4, set=9, rule_set="cross"), 8, 0, 0),
    (ref.ChickenFoot(players=4, set=9, rule_set="cross"), 8, 0, 25),
    (ref.Doubles(players=2, set=6), 11, 0, 0),
    (ref.Doubles(players=2, set=6), 11, 0, 25),
    (ref.Doubles(players=4, set=9), 2, 0, 16),
    (ref.Block(players=2, set=6), 5, 0, 0),
    (ref.Block(players=4, set=6, lead="highest_double"), 5, 0, 2),
    (ref.Block(players=3, set=9), 9, 1, 9),
    (ref.MexicanTrain(players=4, set=12), 4, 0, 0),
    (ref.MexicanTrain(players=4, set=12), 4, 0, 18),
    (ref.MexicanTrain(players=6, set=9, drawn_tile="may"), 6, 3, 24),
    (ref.AllFives(players=2, set=6), 12, 0, 0),
    (ref.AllFives(players=2, set=6), 12, 0, 6),
    (ref.AllFives(players=4, set=9, teams=2, sides_open="at_once"), 13, 1, 9),
    (ref.FivesAndThrees(players=2, set=6), 14, 0, 4),
    (ref.FivesAndThrees(players=3, set=6, spinner="first", draw="one"), 15, 2, 7),
]


def perft(round_, depth: int) -> int:
    """Number of move sequences of length ``depth`` (shorter where the round ends)."""
    if depth == 0 or round_.is_over:
        return 1
    total = 0
    for move in round_.legal_moves():
        round_.push(move)
        total += perft(round_, depth - 1)
        round_.pop()
    return total


def position(module, rules_dict: dict, seed: int, round_index: int, plies: int):
    """The position: a seeded deal, then ``plies`` greedy moves."""
    round_ = module.Round(module.rules_from_dict(rules_dict), seed=seed, round_index=round_index)
    greedy = module.GreedyPlayer()
    for _ in range(plies):
        round_.push(greedy.choose(round_))
    return round_


def main() -> None:
    entries = []
    for rules, seed, k, plies in POSITIONS:
        round_ = position(ref, rules.to_dict(), seed, k, plies)
        counts = [perft(round_, d) for d in range(1, DEPTH + 1)]
        entries.append({"rules": rules.to_dict(), "seed": seed, "round_index": k, "plies": plies, "perft": counts})
        print(rules, seed, k, plies, counts)
    PATH.write_text(json.dumps(entries, indent=1) + "\n")


if __name__ == "__main__":
    main()
