"""Perft counts (move sequences to depth 1..4) recorded from the reference,
checked in every implementation: any change in move generation shows here."""

from __future__ import annotations

import json

import pytest
from make_perft import PATH, perft, position

ENTRIES = json.loads(PATH.read_text())


def test_perft_file_covers_every_rule_set():
    kinds = {(e["rules"]["game"], e["rules"].get("rule_set")) for e in ENTRIES}
    assert kinds == {
        ("chickenfoot", "trains"),
        ("chickenfoot", "cross"),
        ("doubles", None),
        ("block", None),
        ("mexican_train", None),
        ("all_fives", None),
        ("fives_and_threes", None),
    }
    assert all(len(e["perft"]) == 4 for e in ENTRIES)


@pytest.mark.parametrize(
    "entry", ENTRIES, ids=lambda e: f"{e['rules'].get('rule_set') or e['rules']['game']}-s{e['seed']}-p{e['plies']}"
)
def test_perft(dc, entry):
    round_ = position(dc, entry["rules"], entry["seed"], entry["round_index"], entry["plies"])
    before = round_.to_dict()
    assert [perft(round_, d) for d in range(1, 5)] == entry["perft"]
    assert round_.to_dict() == before  # push/pop left it exactly as it was
