"""Write the golden match records under tests/data/ from the reference.

Run from the repository root: ``python tests/make_golden.py``. The files are
checked in; tests/test_golden.py replays them against every implementation.
"""

from __future__ import annotations

import json
import pathlib

import dominocore.reference as ref

DATA = pathlib.Path(__file__).parent / "data"

CASES = [
    ("trains", ref.ChickenFoot(players=4, set=6), 11),
    ("trains", ref.ChickenFoot(players=3, set=9), 12),
    ("trains", ref.ChickenFoot(players=5, set=12, double_blank_50=True), 13),
    ("cross", ref.ChickenFoot(players=2, set=6, rule_set="cross"), 21),
    ("cross", ref.ChickenFoot(players=4, set=9, rule_set="cross"), 22),
    ("cross", ref.ChickenFoot(players=3, set=12, rule_set="cross"), 23),
    ("doubles", ref.Doubles(players=2, set=6), 31),
    ("doubles", ref.Doubles(players=4, set=9), 32),
    ("doubles", ref.Doubles(players=3, set=12, target=150), 33),
    ("block", ref.Block(players=2, set=6), 41),
    ("block", ref.Block(players=3, set=9, target=60), 42),
    ("block", ref.Block(players=4, set=12, lead="highest_double", target=80), 43),
    ("mexican_train", ref.MexicanTrain(players=4, set=6), 51),
    ("mexican_train", ref.MexicanTrain(players=6, set=9, drawn_tile="may"), 52),
    ("mexican_train", ref.MexicanTrain(players=3, set=12, double_blank_50=True), 53),
    ("all_fives", ref.AllFives(players=2, set=6, target=100), 61),
    ("all_fives", ref.AllFives(players=4, set=9, teams=2, target=150), 62),
    ("all_fives", ref.AllFives(players=3, set=12, sides_open="at_once", end_in_play=False, target=200), 63),
    ("fives_and_threes", ref.FivesAndThrees(players=2, set=6), 71),
    ("fives_and_threes", ref.FivesAndThrees(players=4, set=9, teams=2, spinner="first"), 72),
    ("fives_and_threes", ref.FivesAndThrees(players=3, set=12, draw="one", out_points="exact", target=100), 73),
]


def record(rules: ref.Rules, seed: int) -> dict:
    match = ref.Match(rules, seed).play("random")
    return {
        "rules": rules.to_dict(),
        "seed": seed,
        "policy": "random",
        "rounds": [
            {"record": r.to_dict(), "result": r.result._asdict()}  # type: ignore[union-attr]
            for r in match.rounds
        ],
        "totals": list(match.totals),
        "winners": list(match.winners),
    }


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, rules, seed in CASES:
        path = DATA / f"golden_{name}_d{rules.set}_p{rules.players}_s{seed}.json"
        path.write_text(json.dumps(record(rules, seed), indent=1) + "\n")
        print(path)


if __name__ == "__main__":
    main()
