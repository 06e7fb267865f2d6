"""Helpers of the scenario tests: hand-built rounds and exact observations."""

from __future__ import annotations

import pytest


def set_tiles(n):
    """Every tile of a double-n set as 'a-b' strings, in index order."""
    return [f"{a}-{b}" for b in range(n + 1) for a in range(b + 1)]


def deal(dc, rules, centre, hands, yard=(), starter=0, round_index=0, rest=None, **setup):
    """A hand-built round. The tiles not named go to the bottom of the yard in
    index order (``rest=None``) or into the hand of seat ``rest``. ``setup`` holds
    the set-up's facts ``setup_draws`` and ``highest_double`` (docs/information.md 2)."""
    named = {centre, *yard, *(t for h in hands for t in h)}
    leftover = [t for t in set_tiles(rules.set) if t not in named]
    hands = [list(h) for h in hands]
    yard = list(yard)
    if rest is None:
        yard += leftover
    else:
        hands[rest] += leftover
    return dc.Round.from_deal(
        rules, hands=hands, yard=yard, centre=centre, starter=starter, round_index=round_index, **setup
    )


def legal(r, distinct=False):
    """The legal moves as strings, in canonical order."""
    return [str(m) for m in r.legal_moves(distinct=distinct)]


def ends(r):
    """The open ends as (id, number) pairs."""
    return [(e.id, e.number) for e in r.open_ends]


def hand(r, seat):
    """A hand as strings, in index order."""
    return [str(t) for t in r.hand(seat)]


def result(r):
    """The result as a plain tuple, or None while the round goes on."""
    res = r.result
    return None if res is None else (res.reason, res.out_seat, tuple(res.points), res.starter, res.moves)


def observe(r):
    """Everything observable through the public API."""
    return {
        "dict": r.to_dict(),
        "current": r.current_player,
        "hands": [hand(r, s) for s in range(r.rules.players)],
        "yard": [str(t) for t in r.yard],
        "ends": ends(r),
        "pending": list(r.pending_ends),
        "obligation": r.obligation,
        "unlocked": list(r.unlocked),
        "drawn": None if r.drawn_tile is None else str(r.drawn_tile),
        "legal": legal(r),
        "actions": list(r.legal_actions()),
        "result": result(r),
    }


def reject(dc, r, move, reason, player=None):
    """``move`` is rejected with ``reason`` and nothing observable changes."""
    before = observe(r)
    with pytest.raises(dc.IllegalMoveError) as info:
        if player is None:
            r.push(move)
        else:
            r.push(move, player=player)
    assert info.value.reason == reason
    assert observe(r) == before


def shuffled(dc, gen, n_tiles, exclude=()):
    """A fresh index-order deck (minus ``exclude``) shuffled by ``gen``, as strings."""
    deck = [i for i in range(n_tiles) if i not in exclude]
    gen.shuffle(deck)
    return [str(dc.Tile.from_index(i)) for i in deck]


def by_index(dc, tiles):
    """Tile strings sorted by tile index."""
    return sorted(tiles, key=lambda t: dc.Tile.parse(t).index)
