"""The core determinizer builds a world by writing the hidden tiles of its
draw over a copy of the first world it replayed (cpp/src/determinize.cpp):
that world must be, in every game, the very State that replaying the drawn
deal gives, before and after every move taken back and every move played on.
The draw itself is unchanged, so a seed gives the world it gave before the
copy existed (the search's random stream is the same)."""

from __future__ import annotations

import random

import pytest
from helpers import import_core
from information_helpers import CONFIGS, config_id, positions

dc = import_core()
from dominocore.native.codec import _core, core_rules  # noqa: E402  (after the skip where the core is absent)


def snapshot(core) -> tuple:
    """Everything a RoundCore shows, hidden data included."""
    seats = range(len(core._deal[2]))
    return (
        str(core),
        core.current_player,
        core.yard_size,
        core.pending_ends,
        core._centre,
        core._markers,
        core._drawn,
        core._unlocked,
        core._obligation,
        [core._hand(s) for s in seats],
        core._yard,
        core._open_ends,
        core._layout,
        core._moves,
        core._play_points,
        core._points_stack,
        core._deal,
        core._history,
        core._result,
        core._legal_moves(False),
    )


def replayed(rules, core_round, deal: tuple):
    """The world of `deal` (a ``_sample_deal``) with the round's moves replayed."""
    centre, starter, hands, yard, setup_draws, highest_double, carried = deal
    world = _core.RoundCore(
        core_rules(rules),
        centre,
        starter,
        hands,
        yard,
        core_round.round_index,
        setup_draws=setup_draws,
        highest_double=highest_double,
        carried=carried,
    )
    for code in core_round._moves:
        world._push(code, -1)
    return world


def same_states(a, b, rng: random.Random) -> None:
    """`a` and `b` agree now, at every move taken back, and along random play to the end."""
    assert snapshot(a) == snapshot(b)
    copies = (_core.RoundCore(a), _core.RoundCore(b))
    while a._moves:
        assert a._pop() == b._pop()
        assert snapshot(a) == snapshot(b)
    a, b = copies
    while not a.is_over:
        code = rng.choice(a._legal_moves(True))
        a._push(code, -1)
        b._push(code, -1)
        assert snapshot(a) == snapshot(b)


@pytest.mark.parametrize("proposals", [8, 0], ids=["proposals", "count"])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_world_is_its_deal_replayed(config, proposals):
    rng = random.Random(f"worlds {config_id(config)} {proposals}")
    for round_, seat in positions(dc, config, rng, 6):
        core = round_._s._determinizer(seat, proposals, "auto")
        deals = round_._s._determinizer(seat, proposals, "auto")
        for seed in range(4):  # the first world is replayed; the others are written over a copy
            world = core._sample(seed)
            same_states(world, replayed(round_.rules, round_._s, deals._sample_deal(seed)), rng)
