"""Wrong-typed and out-of-range arguments: a clear exception, nothing changed, never a crash."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def round_(dc):
    return dc.Round(dc.ChickenFoot(players=4), seed=7)


@pytest.mark.parametrize(
    "call",
    [
        lambda dc, r: dc.Round(dc.ChickenFoot(players=4), seed="7"),
        lambda dc, r: dc.Round(dc.ChickenFoot(players=4), seed=1.5),
        lambda dc, r: dc.Round("trains", seed=1),
        lambda dc, r: dc.Round(dc.ChickenFoot(players=4), round_index=10),
        lambda dc, r: dc.Round(dc.ChickenFoot(players=4), round_index=-1),
        lambda dc, r: dc.Round(dc.Doubles(), round_index="0"),
        lambda dc, r: dc.Match("doubles"),
        lambda dc, r: dc.ChickenFoot(players="4"),
        lambda dc, r: dc.ChickenFoot(players=4.0),
        lambda dc, r: dc.ChickenFoot(players=True),
        lambda dc, r: dc.ChickenFoot(rule_set="mexican"),
        lambda dc, r: dc.Doubles(target=0),
        lambda dc, r: r.hand(4),
        lambda dc, r: r.hand("0"),
        lambda dc, r: r.push(42),
        lambda dc, r: r.push("9-10@0"),
        lambda dc, r: r.push("9-9@x"),
        lambda dc, r: r.push("jump"),
        lambda dc, r: r.push(None),
        lambda dc, r: r.push("2-9@0", player="2"),
        lambda dc, r: r.apply_action(-1),
        lambda dc, r: r.apply_action(112),
        lambda dc, r: r.apply_action(10**30),
        lambda dc, r: r.apply_action("95"),
        lambda dc, r: r.action_to_move(3),
        lambda dc, r: r.move_to_action("draw"),
        lambda dc, r: dc.Round.from_dict({"rules": {}}),
        lambda dc, r: dc.Round.from_dict([]),
        lambda dc, r: dc.Round.from_deal(dc.Doubles(), hands=[[]], yard=[], centre="6-6", starter=0),
        lambda dc, r: dc.Tile.parse("a-b"),
        lambda dc, r: dc.Tile.from_index(190),
        lambda dc, r: dc.Move.place("1-2", -1),
    ],
)
def test_bad_arguments_raise_and_change_nothing(dc, round_, call):
    before = round_.to_dict()
    with pytest.raises((dc.DominoError, TypeError, OverflowError)):
        call(dc, round_)
    assert round_.to_dict() == before


def test_legal_action_mask_fills_a_caller_buffer(dc):
    r = dc.Round(dc.ChickenFoot(players=4), seed=7)
    buf = np.ones(r.num_actions, dtype=bool)
    out = r.legal_action_mask(buf)
    assert out is buf or np.shares_memory(out, buf)
    assert list(np.flatnonzero(buf)) == r.legal_actions()
    bad_buffers = (
        np.zeros(r.num_actions - 1, dtype=bool),
        np.zeros(r.num_actions, dtype=np.int32),
        np.zeros(2 * r.num_actions, dtype=bool)[::2],  # not contiguous
        [False] * r.num_actions,
    )
    for bad in bad_buffers:
        with pytest.raises(dc.RulesError, match="out must be"):
            r.legal_action_mask(bad)
    fresh = r.legal_action_mask()
    assert fresh.dtype == np.bool_ and list(np.flatnonzero(fresh)) == r.legal_actions()
