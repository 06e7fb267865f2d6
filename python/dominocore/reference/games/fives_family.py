"""What All Fives and Fives and Threes share (docs/games/all_fives.md; the
differences, docs/games/fives_and_threes.md): the deal and the lead, the
line of play with its spinner and four arms, the count of the open ends,
drawing, the points at the end of a round and the match to a target.

A game module of the family takes every hook from here but
``score_placement`` and ``move_points``, which it makes with
``scoring_hooks`` from its own count-to-points function.

The layout (F3) lives in the round's engine state: the open ends and their
numbers, the arm of each open end (``round._arms``) and the placements, each
with the ends it opened in id order (``Placement.created``). A placement's
*own* ends are the first one it opened (two for the lead); the ends after
them are the spinner's *sides*. The count (F4) is read from those alone, so
it is the same function of a round and of a ``PlayerView``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...common.errors import StateError
from ...common.moves import PLACE, Move, Placement
from ...common.tiles import Tile, tiles_of_set
from ..rng import SplitMix64
from .shared import Deal, at_target, deal, highest_total, next_seat, no_match, unique_lowest

if TYPE_CHECKING:
    from ...common.rules import Rules
    from ..round import Round, RoundResult

__all__ = [
    "set_up", "check_deal", "place_centre", "next_leader", "double_opens", "may_attach", "after_place",
    "after_pass", "score_round", "match_over", "match_winners", "action_of", "action_move",
    "write_extra_planes", "scoring_hooks", "count", "spinner_of",
]  # fmt: skip

#: The arms of the spinner's sides (F3).
SIDE_ARMS = (2, 3)


# ------------------------------------------------------------------ F1, F2: the deal and the lead


def set_up(rules: "Rules", rng: SplitMix64, round_index: int, leader: Optional[int]) -> Deal:
    """F1: one shuffle, p hands of ``hand_size``, the rest the boneyard (top
    first). F2: no centre; the leader is the seat a match chose, else seat
    ``round_index mod p``."""
    p = rules.players
    deck = list(tiles_of_set(rules.set))
    rng.shuffle(deck)
    hands, yard = deal(deck, p, rules.hand_size)
    starter = leader if leader is not None and leader >= 0 else round_index % p
    return Deal(None, starter, hands, yard)


def check_deal(rules: "Rules", centre: Optional[Tile], round_index: int) -> None:
    """F2: the leader leads by a move: a hand-built deal has no centre."""
    if centre is not None:
        raise StateError(f"the layout is empty until the lead: the centre must be None, got {centre}")


def place_centre(round: "Round", centre: Optional[Tile], starter: int) -> None:
    """F3: one lead end, id 0, that takes any tile, on arm 0 (F9: the lead
    goes on arm 0); the leader moves first."""
    round._open((None,), arms=(0,))
    round._turn_to(starter)


def next_leader(rules: "Rules", previous: "RoundResult", last_mover: int) -> int:
    """F2: the seat that went out; after a block, the seat that scored at the
    end (with teams the first seat of its team); after a round nobody won,
    the seat after the previous leader."""
    if previous.reason == "out":
        return previous.out_seat
    scorers = [s for s, x in enumerate(previous.end_points) if x > 0]
    return scorers[0] if scorers else (previous.starter + 1) % rules.players


# ------------------------------------------------------------------ F3: the layout


def spinner_of(rules: "Rules", layout: Sequence[Placement]) -> Optional[Placement]:
    """The spinner's placement (F3: the first double placed, the lead
    included, under ``spinner = "first"``), or ``None``."""
    if rules.spinner != "first":
        return None
    return next((p for p in layout if p.tile.is_double), None)


def _own(placement: Placement) -> Tuple[int, ...]:
    """The ends a placement opened on its own arm(s): two for the lead (its
    end had no number), one otherwise; the ends after them are sides."""
    return placement.created[: 2 if placement.number is None else 1]


def _sides_open(layout: Sequence[Placement]) -> bool:
    """Whether the spinner's sides were opened (by any placement)."""
    return any(len(p.created) > len(_own(p)) for p in layout)


def double_opens(round: "Round", tile: Tile, number: int, train: Optional[int]) -> Tuple[int, ...]:
    """F3: a double on an arm opens one end of its number on that arm; the
    spinner under ``sides_open = "at_once"`` opens its two sides after it
    (arms 2 and 3)."""
    ends = round._open((number,), train)
    rules = round.rules
    if rules.sides_open == "at_once" and rules.spinner == "first" and spinner_of(rules, round._layout) is None:
        ends += round._open((number, number), arms=SIDE_ARMS)
    return ends


def may_attach(round: "Round", seat: Optional[int], tile: Tile, end: int) -> Optional[str]:
    """F3: any tile on the lead end; after it, a tile showing the end's number."""
    return no_match(round, tile, end)


def after_place(round: "Round", mover: int, tile: Tile, train: Optional[int]) -> None:
    """F3: the lead's two ends go on arms 0 and 1 (a spinner led under
    ``"at_once"`` opens its sides after them); under ``"after_ends"`` the
    placement that covers the last line end next to the spinner opens its
    sides, after its own end. Then the turn goes clockwise."""
    rules, layout = round.rules, round._layout
    placed = layout[-1]
    spinner = spinner_of(rules, layout)
    if placed.number is None:
        round._set_arms(placed.created, (0, 1))
        if spinner is placed and rules.sides_open == "at_once":
            round._open_more((tile.low, tile.low), SIDE_ARMS)
    elif spinner is not None and rules.sides_open == "after_ends" and not _sides_open(layout):
        if not any(e in round._ends for e in _own(spinner)):
            round._open_more((spinner.tile.low, spinner.tile.low), SIDE_ARMS)
    next_seat(round, mover)


after_pass = next_seat


# ------------------------------------------------------------------ F4, F5: the count and its points


def count(layout: Sequence[Placement], ends: Dict[int, Optional[int]]) -> int:
    """F4: the pips the open ends ``ends`` (id -> number) of ``layout`` show.

    An open end a placement opened on its own arm shows its number, or both
    halves when the tile is a double; a double counts its two halves once
    however many of its ends are open (the lead alone: a-b counts a + b, a
    double 2v). A side with nothing on it shows nothing."""
    total = 0
    for placement in layout:
        open_own = [e for e in _own(placement) if e in ends]
        if not open_own:
            continue
        if placement.tile.is_double:
            total += 2 * placement.tile.low
        else:
            total += sum(ends[e] or 0 for e in open_own)
    return total


def count_after(
    rules: "Rules", layout: Sequence[Placement], ends: Dict[int, Optional[int]], tile: Tile, end: int
) -> int:
    """The count once ``tile`` is put on the open end ``end`` (its sides,
    empty, would count nothing, so they are left out)."""
    number = ends[end]
    fresh = max(list(ends) + [e for p in layout for e in p.created] + [end]) + 1
    if number is None:
        new = {fresh: tile.low, fresh + 1: tile.high}
    else:
        new = {fresh: number if tile.is_double else tile.other(number)}
    after = {e: n for e, n in ends.items() if e != end}
    after.update(new)
    return count(list(layout) + [Placement(tile, end, number, tuple(new))], after)


def scoring_hooks(points_of: Callable[[int], int]) -> Tuple[Callable[..., int], Callable[..., int]]:
    """A game's ``score_placement`` and ``move_points`` from its function of
    the count (F5, fives_and_threes.md T3)."""

    def score_placement(round: "Round", mover: int, tile: Tile) -> int:
        """F5: what the placement just made scores: the points of the count
        of the layout after it."""
        return points_of(count(round._layout, round._ends))

    def move_points(rules: "Rules", layout: Sequence[Placement], ends: Dict[int, Optional[int]], move: Move) -> int:
        """What ``move`` would score (F13, the greedy policy): the points of
        the count after it; 0 for a draw or a pass."""
        if move.kind != PLACE:
            return 0
        assert move.tile is not None and move.end is not None
        return points_of(count_after(rules, layout, ends, move.tile, move.end))

    return score_placement, move_points


# ------------------------------------------------------------------ F7: points at the end


def _worth(rules: "Rules", pips: int) -> int:
    """F7 ``out_points``: the pips rounded to the nearest 5 (a remainder of
    1 or 2 down, 3 or 4 up), as they are, or 1."""
    if rules.out_points == "one":
        return 1
    if rules.out_points == "exact":
        return pips
    return (pips + 2) // 5 * 5


def score_round(round: "Round", reason: str, out_seat: int) -> Tuple[int, ...]:
    """F7: the side that went out, or the side with the unique fewest pips
    of a blocked round, scores the pips in the other sides' hands by
    ``out_points``; the other sides score nothing at the end. With teams
    (F10) a side is a team, and every seat of it holds its points."""
    rules = round.rules
    side_pips: List[int] = [0] * rules.sides
    for seat, hand in enumerate(round._hands):
        side_pips[rules.team_of(seat)] += sum(t.pips for t in hand)
    winner = rules.team_of(out_seat) if reason == "out" else unique_lowest(side_pips)
    points = 0 if winner < 0 else _worth(rules, sum(side_pips) - side_pips[winner])
    return tuple(points if winner >= 0 and rules.team_of(s) == winner else 0 for s in range(rules.players))


#: F8: a total at ``target``, or ``max_rounds`` rounds (a round stopped at
#: the target leaves its side's total at the target: over too).
match_over = at_target
#: F8: the highest total; ties share.
match_winners = highest_total


# ------------------------------------------------------------------ F9: action ids


def action_of(round: "Round", move: Move) -> int:
    """F9: tile i on arm k is ``A*i + k`` (the engine gives ``Draw`` and
    ``Pass`` the last two ids, ``A*T`` and ``A*T + 1``)."""
    assert move.tile is not None and move.end is not None
    return round.rules.arms * move.tile.index + round._arms[move.end]


def action_move(round: "Round", action: int) -> Optional[Move]:
    """The placement a Place id stands for if it is legal now, else
    ``None``: tile ``action // A`` on the open end of arm ``action % A``."""
    arms = round.rules.arms
    if not 0 <= action < round.rules.tile_count * arms:
        return None
    end = next((e for e, arm in round._arms.items() if arm == action % arms), None)
    if end is None:
        return None
    move = Move(PLACE, Tile.from_index(action // arms), end)
    return move if round.is_legal(move) else None


# ------------------------------------------------------------------ F12: observation planes


def write_extra_planes(round: "Round", seat: int, take: Callable[[int], Any]) -> None:
    """F12: ``play_points`` and ``carried`` over ``target`` (p each), the
    ``spinner`` (a spinner is down; its sides are open), and with teams
    ``teammates`` (a one for every seat on ``seat``'s team)."""
    rules = round.rules
    assert rules.target is not None  # every game of the family plays to a target
    p, target = rules.players, float(rules.target)
    take(p)[:] = [x / target for x in round.play_points]
    take(p)[:] = [x / target for x in round.carried]
    spinner = take(2)
    spinner[0] = 1 if spinner_of(rules, round._layout) is not None else 0
    spinner[1] = 1 if _sides_open(round._layout) else 0
    if rules.teams:
        teammates = take(p)
        team = rules.team_of(seat)
        for s in range(p):
            teammates[s] = 1 if rules.team_of(s) == team else 0
