"""Doubles (docs/rules.md 3): every double a spinner, numbers locked until
their double is in the layout, the round's winner scores the other hands,
a match to ``target`` (at most ``max_rounds`` rounds), highest total wins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

from ...common.errors import StateError
from ...common.moves import Placement
from ...common.tiles import Tile, tiles_of_set
from ..rng import SplitMix64
from .shared import (
    Deal,
    action_move,
    action_of,
    at_target,
    deal,
    highest_total,
    next_seat,
    no_extra_planes,
    no_leader,
    no_match,
    no_move_points,
    no_play_points,
    winner_takes_all,
)

if TYPE_CHECKING:
    from ...common.rules import Rules
    from ..round import Round

__all__ = [
    "set_up", "check_deal", "place_centre", "next_leader", "double_opens", "may_attach", "after_place",
    "after_pass", "score_round", "match_over", "match_winners", "action_of", "action_move",
    "write_extra_planes", "score_placement", "move_points",
]  # fmt: skip


def set_up(rules: "Rules", rng: SplitMix64, round_index: int, leader: Optional[int]) -> Deal:
    """Shuffle and deal until a hand holds a double (each redeal a fresh
    shuffle of index order); the holder of the highest double starts with it.
    The round index does not change the deal (engine reading 6). That the
    centre is the highest double dealt is public (``highest_double``)."""
    n, p = rules.set, rules.players
    while True:
        deck = list(tiles_of_set(n))
        rng.shuffle(deck)
        hands, yard = deal(deck, p, rules.hand_size)
        held = [(t.index, s, t) for s in range(p) for t in hands[s] if t.is_double]
        if held:
            _, starter, double = max(held)
            hands[starter].remove(double)
            return Deal(double, starter, hands, yard, highest_double=True)


def check_deal(rules: "Rules", centre: Optional[Tile], round_index: int) -> None:
    """A hand-built deal's centre may be any double."""
    if centre is None or not centre.is_double:
        raise StateError(f"the centre must be a double, got {centre}")


def place_centre(round: "Round", centre: Optional[Tile], starter: int) -> None:
    """The centre double is a spinner with four open ends and unlocks its
    number; placing it was the starter's turn, so the next seat moves."""
    assert centre is not None
    sides = round._open((centre.low,) * round.rules.slots)
    round._lay_setup_tile(Placement(centre, None, centre.low, sides))
    round._unlock([centre.low], only=True)
    round._turn_to((starter + 1) % round.rules.players)


#: Each round is dealt from scratch: the match chooses no leader.
next_leader = no_leader


def double_opens(round: "Round", tile: Tile, number: int, train: Optional[int]) -> Tuple[int, ...]:
    """A spinner: three new sides of its number; the number is unlocked everywhere."""
    sides = round._open((number, number, number), train)
    round._unlock([number])
    return sides


def may_attach(round: "Round", seat: Optional[int], tile: Tile, end: int) -> Optional[str]:
    """The tile must show the end's number (``no_match``), and a non-double
    may only go on an unlocked number (``locked``); a double d-d may go on a
    (locked) end of d and unlocks it."""
    problem = no_match(round, tile, end)
    if problem is None and not tile.is_double and round._ends[end] not in round._unlocked:
        return "locked"
    return problem


after_place = next_seat
after_pass = next_seat
#: The winner (out, or the unique lowest count) scores every other hand.
score_round = winner_takes_all
#: To ``target``, at most ``max_rounds`` rounds (engine reading 14).
match_over = at_target
#: The highest total; ties share.
match_winners = highest_total

#: No observation planes of its own.
write_extra_planes = no_extra_planes


#: Nothing scores during play.
score_placement = no_play_points
move_points = no_move_points
