"""Every public fact of a seat's view is in its information state, its hash
and its tensor (docs/information.md 3; issue 19 item 6).

Each case builds two real positions (dealt from a seed, or loaded with
``Round.from_deal`` / ``from_dict`` from an edited deal) and a seat, such that
the seat's two ``PlayerView``s differ in exactly the fields the case names,
the fact it isolates and the fields that follow from it (``view_difference``
checks the set exactly), and requires the string, the hash and the tensor of
that seat to differ too.

- the set-up's facts (seat, round index, centre, starter, ``highest_double``,
  own hand, search counts, own search draws) are isolated by editing one of
  them in a deal;
- the moves: two positions of the same round after two different legal
  moves (siblings; they isolate that move, and the layout, the open ends,
  obligations, locks, markers, the hand sizes and the result follow from
  it), a position and the one a move later (the move number, the yard, a
  drawn tile in question), and the viewer's own drawn tile;
- the rules and ``round_id`` are not in the forms (``NOT_IN_THE_FORMS``).

A hand-built deal's hand sizes and a finished round's points are in both
forms too (the dealt hand sizes ``n`` and the points ``e``).
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np
import pytest
from dominocore.common.tiles import tiles_of_set
from dominocore.common.view import PlayerView
from dominocore.games import AllFives, Block, ChickenFoot, Doubles, MexicanTrain  # shared by both implementations

#: The view's fields: its attributes but the private ones, and its legal moves.
VIEW_FIELDS: Tuple[str, ...] = tuple(n for n in PlayerView.__slots__ if not n.startswith("_")) + ("legal_moves",)

#: Fields of the view that neither form holds, and why.
NOT_IN_THE_FORMS = {
    "rules": "states of different rules are never compared (docs/information.md 3)",
    "round_id": "a token of the Round object, not a fact of the position: a clone has another",
}


def view_fields(view: PlayerView) -> Dict[str, Any]:
    return {n: view.legal_moves() if n == "legal_moves" else getattr(view, n) for n in VIEW_FIELDS}


def view_difference(a: PlayerView, b: PlayerView) -> FrozenSet[str]:
    """The fields in which two views differ (``round_id`` always does: two rounds)."""
    fa, fb = view_fields(a), view_fields(b)
    return frozenset(n for n in VIEW_FIELDS if n != "round_id" and fa[n] != fb[n])


# ------------------------------------------------------------------ building positions


def _rest(set_: int, taken: Sequence[str], first: Sequence[str] = ()) -> List[str]:
    """The yard: ``first`` on top, then every other tile of the set not in
    ``taken`` (nor in ``first``), in index order."""
    skip = set(taken) | set(first)
    return list(first) + [str(t) for t in tiles_of_set(set_) if str(t) not in skip]


def _deal(dc, rules, hands, centre, starter, yard_top=(), **facts):
    taken = [t for hand in hands for t in hand] + ([centre] if centre else [])
    return dc.Round.from_deal(rules, hands, _rest(rules.set, taken, yard_top), centre, starter, **facts)


def _edited(round_, edit: Callable[[Dict[str, Any]], None]):
    """``round_``'s record with ``edit`` applied, loaded again."""
    record = copy.deepcopy(round_.to_dict())
    edit(record)
    return type(round_).from_dict(record)


def _walk(dc, rules, seed: int, depth: int):
    """Round ``seed`` of ``rules`` after ``depth`` moves chosen by
    ``random.Random(seed)`` among the distinct legal moves (the same in both
    implementations: the listing is canonical)."""
    rng = random.Random(seed)
    round_ = dc.Round(rules, seed=seed)
    for _ in range(depth):
        moves = round_.legal_moves(distinct=True)
        round_.push(moves[rng.randrange(len(moves))])
    return round_


def _siblings(dc, rules, seed: int, depth: int, a: str, b: str):
    """The walk's position after move ``a``, and after move ``b`` instead."""
    return _siblings_of(_walk(dc, rules, seed, depth), a, b)


def _child(dc, rules, seed: int, depth: int, move: str):
    """The walk's position, and the one after ``move``."""
    base = _walk(dc, rules, seed, depth)
    later = base.clone()
    later.push(move)
    return base, later


# Block on double-6, 3 seats of 2 tiles, the 3-3 led by seat 0: seat 1 moves.
_BLOCK3 = [["0-1", "5-6"], ["2-3", "3-4"], ["1-2", "0-0"]]


def _block3(dc, hands=_BLOCK3, centre="3-3", starter=0, **facts):
    return _deal(dc, Block(players=3, set=6, hand_size=2), hands, centre, starter, **facts)


def _cross(dc, hands, setup_draws):
    """Chicken Foot ``cross`` on double-6, 2 seats of 7, round 0 (its double
    the 6-6): the search in ``setup_draws`` (seats 0, 1, 0, ... in turn, the
    6-6 last, by seat 0); ``hands`` after the set-up (search draws included)."""
    rules = ChickenFoot(rule_set="cross", set=6, players=2, hand_size=7)
    return _deal(dc, rules, hands, "6-6", 0, setup_draws=setup_draws)


# The cross's hands after a search of the 0-1 (seat 0), the 2-3 (seat 1), the
# 0-2 (seat 0), the 2-4 (seat 1) and the 6-6 (seat 0); no hand holds a 6.
_CROSS_HANDS = [
    ["0-0", "1-1", "1-2", "2-2", "0-4", "1-4", "0-3", "0-1", "0-2"],
    ["1-3", "3-3", "3-4", "4-4", "0-5", "1-5", "2-5", "2-3", "2-4"],
]

_TRAINS = ChickenFoot(players=3, set=6, rule_set="trains")
_DOUBLES = Doubles(players=2)
_MEXICAN = MexicanTrain(players=2, set=6, drawn_tile="may")
_BLOCK = Block(players=2)
_FIVES = AllFives(players=2)
# All Fives on double-6, 2 seats of 3: seat 0 leads the spinner 5-5 (docs/games/all_fives.md F4).
_FIVES_HANDS = [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]]


def _fives(dc, **facts):
    round_ = _deal(dc, _FIVES, _FIVES_HANDS, None, 0, **facts)
    round_.push("5-5@0")
    return round_


def _siblings_of(round_, a: str, b: str):
    """``round_`` after move ``a``, and after move ``b`` instead."""
    first, second = round_.clone(), round_.clone()
    first.push(a)
    second.push(b)
    return first, second


def _doubles_draw(dc, top: str):
    """Doubles on double-6 (2 seats of 2): seat 0 led the 6-6, seat 1 holds
    no 6 and draws ``top``."""
    round_ = _deal(dc, _DOUBLES, [["0-0", "1-2"], ["1-1", "2-3"]], "6-6", 0, yard_top=[top], highest_double=True)
    round_.push("draw")
    return round_


def _out_first(dc, other: str):
    """Block on double-6: seat 1 led the 3-3; seat 0 places its one tile, the
    0-3, and goes out; seat 1 holds ``other`` (its pips are the points)."""
    round_ = _deal(dc, _BLOCK, [["0-3"], [other]], "3-3", 1)
    round_.push("0-3@0")
    return round_


class Case(NamedTuple):
    """Two positions and a seat; ``differs``: the view fields that differ."""

    build: Callable[[Any], Tuple[Any, Any]]
    seat: int
    differs: FrozenSet[str]
    seat_b: Optional[int] = None  # another viewer in the second position (the "seat" case)


def _case(build, seat, *differs, seat_b=None) -> Case:
    return Case(build, seat, frozenset(differs), seat_b)


CASES: Dict[str, Case] = {
    # ---- the set-up's facts, edited one at a time
    "seat: another viewer of the same position (its own tiles come with it)": _case(
        lambda dc: (_block3(dc),) * 2, 0, "seat", "hand", seat_b=2
    ),
    "round_index: Doubles round 0 against round 5, the same deal": _case(
        lambda dc: (
            dc.Round(_DOUBLES, seed=3),
            _edited(dc.Round(_DOUBLES, seed=3), lambda r: r.update(round_index=5)),
        ),
        0,
        "round_index",
    ),
    "round_index: Block round 1 against round 2**30 + 1 (the highest bit)": _case(
        lambda dc: (_block3(dc, round_index=1), _block3(dc, round_index=2**30 + 1)), 0, "round_index"
    ),
    "centre: the 3-3 led, or the 4-4 (the layout and the open ends start from it)": _case(
        lambda dc: (
            _block3(dc),
            _block3(dc, hands=[["0-1", "5-6"], ["2-4", "3-4"], ["1-2", "0-0"]], centre="4-4"),
        ),
        0,
        "centre",
        "layout",
        "open_ends",
    ),
    "starter: seat 0 or seat 1 led (the seat after it moves first)": _case(
        lambda dc: (_block3(dc), _block3(dc, starter=1)), 0, "starter", "current_player"
    ),
    "highest_double: a Doubles deal with and without the set-up's fact": _case(
        lambda dc: (
            dc.Round(_DOUBLES, seed=3),
            _edited(dc.Round(_DOUBLES, seed=3), lambda r: r["deal"].update(highest_double=False)),
        ),
        0,
        "highest_double",
    ),
    "highest_double: Block, the 6-6 led as the highest double dealt or not": _case(
        lambda dc: (
            _block3(dc, centre="6-6"),
            _block3(dc, centre="6-6", highest_double=True),
        ),
        1,
        "highest_double",
    ),
    "hand: the viewer holds the 0-1 or the 0-2": _case(
        lambda dc: (_block3(dc), _block3(dc, hands=[["0-2", "5-6"], ["2-3", "3-4"], ["1-2", "0-0"]])),
        0,
        "hand",
    ),
    "setup_draws: seat 0 was dealt the 6-6, or drew it in a search (the hand sizes and yard follow)": _case(
        lambda dc: (
            _cross(dc, [["0-0", "1-1", "1-2", "2-2", "0-4", "1-4"], _CROSS_HANDS[1][:7]], []),
            _cross(dc, [["0-0", "1-1", "1-2", "2-2", "0-4", "1-4", "0-3"], _CROSS_HANDS[1][:7]], ["6-6"]),
        ),
        1,
        "setup_draws",
        "hand_sizes",
        "yard_size",
    ),
    "own_setup_draws: which of the viewer's tiles it drew in the search": _case(
        lambda dc: (
            _cross(dc, _CROSS_HANDS, ["0-1", "2-3", "0-2", "2-4", "6-6"]),
            _cross(dc, _CROSS_HANDS, ["0-1", "2-3", "0-2", "2-5", "6-6"]),
        ),
        1,
        "own_setup_draws",
    ),
    "own_setup_draws: only the order of the viewer's search draws": _case(
        lambda dc: (
            _cross(dc, _CROSS_HANDS, ["0-1", "2-3", "0-2", "2-4", "6-6"]),
            _cross(dc, _CROSS_HANDS, ["0-1", "2-4", "0-2", "2-3", "6-6"]),
        ),
        1,
        "own_setup_draws",
    ),
    # ---- the moves: siblings (the last move), a move later, the own drawn tile
    "history: another seat placed its 2-3 on end 0 or on end 1": _case(
        lambda dc: _siblings_of(_block3(dc), "2-3@0", "2-3@1"), 0, "history", "layout", "open_ends"
    ),
    "history: another seat placed the 2-3 or the 3-4": _case(
        lambda dc: _siblings_of(_block3(dc), "2-3@0", "3-4@0"), 0, "history", "layout", "open_ends"
    ),
    "history: the tile the viewer drew, the 0-1 or the 0-2 (its hand follows)": _case(
        lambda dc: (_doubles_draw(dc, "0-1"), _doubles_draw(dc, "0-2")),
        1,
        "history",
        "hand",
        "drawn_tile",
    ),
    "unlocked: a Doubles seat places the 1-1 or the 2-2 (locks follow the moves)": _case(
        lambda dc: _siblings(dc, _DOUBLES, 6, 6, "1-1@10", "2-2@11"),
        0,
        "history",
        "hand",
        "layout",
        "open_ends",
        "unlocked",
    ),
    "obligation, pending_ends, trains: a Chicken Foot seat places the 3-3 or the 0-1": _case(
        lambda dc: _siblings(dc, _TRAINS, 0, 3, "0-1@5", "3-3@3"),
        0,
        "history",
        "layout",
        "obligation",
        "open_ends",
        "pending_ends",
        "trains",
    ),
    "markers: a Mexican Train seat places the 5-6 on its own train or the Mexican": _case(
        lambda dc: _siblings(dc, _MEXICAN, 0, 13, "5-6@0", "5-6@1"),
        1,
        "history",
        "layout",
        "markers",
        "open_ends",
        "trains",
    ),
    "hand_sizes: a Mexican Train seat places the tile it drew, or passes": _case(
        lambda dc: _siblings(dc, _MEXICAN, 0, 16, "0-6@8", "pass"),
        0,
        "hand_sizes",
        "history",
        "layout",
        "open_ends",
        "trains",
    ),
    "play_points: an All Fives seat places the 0-5 (ends 10 + 0: it scores 10) or the 2-5 (12: nothing)": _case(
        lambda dc: _siblings_of(_fives(dc), "0-5@1", "2-5@1"), 0, "history", "layout", "open_ends", "play_points"
    ),
    "carried: the same All Fives deal and moves, with other match totals carried into the round": _case(
        lambda dc: (_fives(dc), _fives(dc, carried=(20, 30))), 0, "carried"
    ),
    "result: a Block seat places its last tile, or another (the round ends or not)": _case(
        lambda dc: _siblings(dc, _BLOCK, 15, 11, "1-5@12", "5-6@12"), 0, "history", "layout", "open_ends", "result"
    ),
    "current_player: a Chicken Foot seat goes out, or not (nobody moves then)": _case(
        lambda dc: _siblings(dc, _TRAINS, 18, 23, "0-0@12", "5-5@20"),
        2,
        "current_player",
        "history",
        "layout",
        "open_ends",
        "result",
    ),
    "legal_moves: the seat before the viewer places the 0-2 or the 1-2": _case(
        lambda dc: _siblings(dc, _BLOCK, 0, 0, "0-2@0", "1-2@0"), 1, "history", "layout", "legal_moves", "open_ends"
    ),
    "move_number, drawing, yard_size: another seat draws (a move later)": _case(
        lambda dc: _child(dc, _TRAINS, 0, 8, "draw"),
        1,
        "drawing",
        "hand_sizes",
        "history",
        "move_number",
        "yard_size",
    ),
    "drawn_tile: the viewer draws (a move later)": _case(
        lambda dc: _child(dc, _TRAINS, 0, 8, "draw"),
        0,
        "drawing",
        "drawn_tile",
        "hand",
        "hand_sizes",
        "history",
        "legal_moves",
        "move_number",
        "yard_size",
    ),
    # the dealt hand sizes (``n``) and a finished round's points (``e``)
    "hand_sizes: a hand-built deal gives another seat one tile more": _case(
        lambda dc: (
            _deal(dc, _BLOCK, [["0-1", "5-5"], ["2-3"]], "3-3", 0),
            _deal(dc, _BLOCK, [["0-1", "5-5"], ["2-3", "4-4"]], "3-3", 0),
        ),
        0,
        "hand_sizes",
        "yard_size",
    ),
    "result: the points of a finished round show the pips left in another hand": _case(
        lambda dc: (_out_first(dc, "2-4"), _out_first(dc, "2-5")),
        0,
        "result",
    ),
}

ALL_CASES = [pytest.param(name, id=name) for name in CASES]


def _build(dc, name: str):
    case = CASES[name]
    a, b = case.build(dc)
    seat_b = case.seat if case.seat_b is None else case.seat_b
    return case, (a, case.seat), (b, seat_b)


@pytest.mark.parametrize("name", [*CASES])
def test_each_pair_differs_in_its_public_fact_alone(dc, name):
    """The two views differ in exactly the fields the case names (the fact it
    isolates, and what follows from that fact)."""
    case, (a, sa), (b, sb) = _build(dc, name)
    assert view_difference(a.view(sa), b.view(sb)) == case.differs


@pytest.mark.parametrize("name", ALL_CASES)
def test_the_string_hash_and_tensor_differ_with_every_public_fact(dc, name):
    """The seat's information state, its hash and its tensor all differ."""
    _, (a, sa), (b, sb) = _build(dc, name)
    assert a.information_state(sa) != b.information_state(sb)
    assert a.information_state_hash(sa) != b.information_state_hash(sb)
    ta, tb = a.information_state_tensor(sa), b.information_state_tensor(sb)
    assert ta.shape == tb.shape and not np.array_equal(ta, tb)


def test_every_field_of_the_view_has_a_pair():
    """A field added to ``PlayerView`` needs a case here (or a reason in
    ``NOT_IN_THE_FORMS``)."""
    covered = set().union(*(case.differs for case in CASES.values()))
    assert covered | set(NOT_IN_THE_FORMS) == set(VIEW_FIELDS)
    for name, case in CASES.items():  # the fields a case is named after are among those that differ
        assert set(name.split(":")[0].split(", ")) <= case.differs, name


def test_the_rules_are_in_neither_form(dc):
    """The one view field left out on purpose: the same deal and moves under
    rules that differ in one option give the same string, hash and tensor."""
    a = _walk(dc, _TRAINS, 0, 8)
    b = _edited(a, lambda r: r["rules"].update(double_blank_50=True))
    assert b.rules != a.rules and b.rules.double_blank_50
    assert view_difference(a.view(0), b.view(0)) == {"rules"}
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state_hash(0) == b.information_state_hash(0)
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
