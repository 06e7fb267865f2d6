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


# --------------------------------------------------------------------------- issue 20, item 11: first words


def test_a_draw_in_block_says_block_has_no_drawing(dc):
    r = dc.Round(dc.Block(players=2), seed=3)
    with pytest.raises(dc.IllegalMoveError, match=r"illegal move draw: Block has no drawing: seat 0 holds") as err:
        r.push("draw")
    assert err.value.reason == "must_place"  # the code still names the check that refused it
    while any(m.is_place for m in r.legal_moves()):
        r.push(r.legal_moves()[0])
    assert not r.is_over
    with pytest.raises(dc.IllegalMoveError, match="Block has no drawing: a seat that cannot place passes"):
        r.push("draw")


def test_a_tile_outside_the_set_is_not_a_tile_of_this_set(dc):
    r = dc.Round(dc.ChickenFoot(players=2, set=6), seed=1)
    before = r.to_dict()
    with pytest.raises(dc.IllegalMoveError, match=r"9-9 is not a tile of this set \(double-6: halves 0 to 6\)"):
        r.push("9-9@0")
    assert r.to_dict() == before
    held = {str(t) for t in r.hand(r.current_player)}
    absent = next(str(dc.Tile.from_index(i)) for i in range(28) if str(dc.Tile.from_index(i)) not in held)
    with pytest.raises(dc.IllegalMoveError, match=f"tile {absent} is not in seat {r.current_player}'s hand"):
        r.push(f"{absent}@0")
