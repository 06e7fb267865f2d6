"""Golden match records (written by tests/make_golden.py from the reference)
replayed against every implementation: same deals, same random-player
choices, every move legal, same results, totals and winners."""

from __future__ import annotations

import json
import pathlib

import pytest

FILES = sorted((pathlib.Path(__file__).parent / "data").glob("golden_*.json"))


def test_every_rule_set_has_three_golden_records():
    names = [f.name for f in FILES]
    for rule_set in ("trains", "cross", "doubles", "block", "mexican_train", "all_fives", "fives_and_threes"):
        prefix = f"golden_{rule_set}_"
        sizes = {n[len(prefix) :].split("_")[0] for n in names if n.startswith(prefix)}
        assert sizes == {"d6", "d9", "d12"}, rule_set


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_match_replays(dc, path):
    data = json.loads(path.read_text())
    rules = dc.rules_from_dict(data["rules"])
    match = dc.Match(rules, seed=data["seed"])
    player = dc.RandomPlayer(data["seed"])
    for expected in data["rounds"]:
        round_ = match.new_round()
        record = expected["record"]
        fresh = round_.to_dict()
        assert fresh["deal"] == record["deal"]
        assert fresh["round_index"] == record["round_index"]
        for text in record["moves"]:
            assert round_.is_legal(text)
            assert str(player.choose(round_)) == text
            round_.push(text)
        assert round_.is_over
        expected_result = {k: tuple(v) if isinstance(v, list) else v for k, v in expected["result"].items()}
        assert round_.result._asdict() == expected_result
        assert dc.Round.from_dict(record).to_dict() == record
    assert match.is_over
    assert list(match.totals) == data["totals"]
    assert list(match.winners) == data["winners"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_match_equals_simulate(dc, path):
    data = json.loads(path.read_text())
    rules = dc.rules_from_dict(data["rules"])
    sim = dc.simulate(rules, matches=1, seed=data["seed"], policy="random")
    assert [list(p) for p in sim.points] == [r["result"]["points"] for r in data["rounds"]]
    assert [int(m) for m in sim.moves] == [r["result"]["moves"] for r in data["rounds"]]
    assert list(sim.totals[0]) == data["totals"]
    assert [s for s, won in enumerate(sim.winners[0]) if won] == data["winners"]
