"""Block (docs/games/block.md): one line of play, no drawing; the undealt
tiles stay out of play. The winner of a round scores the other hands; a
match runs to ``target`` (at most ``max_rounds`` rounds), highest total wins."""

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
    no_match,
    winner_takes_all,
)

if TYPE_CHECKING:
    from ...common.rules import Rules
    from ..round import Round, RoundResult

__all__ = [
    "set_up", "check_deal", "place_centre", "next_leader", "double_opens", "may_attach", "after_place",
    "after_pass", "score_round", "match_over", "match_winners", "action_of", "action_move",
    "write_extra_planes",
]  # fmt: skip


def set_up(rules: "Rules", rng: SplitMix64, round_index: int, leader: Optional[int]) -> Deal:
    """B1: one shuffle, p hands; the rest stays out of play (the record's yard).

    B2: the leader is ``leader`` when a match chose one, else seat
    ``round_index mod p``. Under ``lead="highest_double"`` the holder of the
    highest double of all the hands leads it instead, placed by the set-up
    as the ``centre``; with no double dealt, the leader leads by a move.
    Either way the choice is public (``highest_double``).
    """
    p = rules.players
    deck = list(tiles_of_set(rules.set))
    rng.shuffle(deck)
    hands, yard = deal(deck, p, rules.hand_size)
    if leader is None or leader < 0:
        leader = round_index % p
    by_double = rules.lead == "highest_double"
    if by_double:
        held = [(t.index, s, t) for s in range(p) for t in hands[s] if t.is_double]
        if held:
            _, starter, double = max(held)
            hands[starter].remove(double)
            return Deal(double, starter, hands, yard, highest_double=True)
    return Deal(None, leader, hands, yard, highest_double=by_double)


def check_deal(rules: "Rules", centre: Optional[Tile], round_index: int) -> None:
    """B2: a hand-built deal has no centre (the starter leads) or any double
    as its centre (already led by the starter), whatever the ``lead`` option."""
    if centre is not None and not centre.is_double:
        raise StateError(f"the centre must be a double (or None: the starter leads), got {centre}")


def place_centre(round: "Round", centre: Optional[Tile], starter: int) -> None:
    """B3: without a centre the layout has one lead end, id 0, without a
    number, and the starter moves first. A centre double was the starter's
    lead: it opens ends 0 and 1 of its number and the next seat moves.
    B1: every tile of the yard is out of play, so none can ever be drawn."""
    if centre is None:
        round._open((None,))
        round._turn_to(starter)
    else:
        ends = round._open((centre.low, centre.low))
        round._lay_setup_tile(Placement(centre, None, centre.low, ends))
        round._turn_to((starter + 1) % round.rules.players)
    round._keep_out_of_play()


def next_leader(rules: "Rules", previous: "RoundResult") -> int:
    """B2: the winner of the round before (B5); after a round nobody won,
    the seat after that round's leader."""
    if previous.reason == "out":
        return previous.out_seat
    # Blocked: only a winner scores, and always more than 0 (every other hand
    # counts more than the winner's).
    scorers = [s for s, x in enumerate(previous.points) if x > 0]
    return scorers[0] if scorers else (previous.starter + 1) % rules.players


def double_opens(round: "Round", tile: Tile, number: int, train: Optional[int]) -> Tuple[int, ...]:
    """B3: doubles are not spinners: a double opens one end of its number."""
    return round._open((number,), train)


def may_attach(round: "Round", seat: Optional[int], tile: Tile, end: int) -> Optional[str]:
    """B3: any tile on the lead end; after it, a tile showing the end's number."""
    return no_match(round, tile, end)


after_place = next_seat
#: B4: a seat that cannot place passes; nothing else follows.
after_pass = next_seat
#: B5: the winner (out, or the unique lowest count) scores the other hands.
score_round = winner_takes_all
#: B6: to ``target``, at most ``max_rounds`` rounds.
match_over = at_target
#: B6: the highest total; ties share.
match_winners = highest_total

#: No observation planes of its own.
write_extra_planes = no_extra_planes
