"""Block (docs/games/block.md): one line of play, no drawing; the undealt
tiles stay out of play. The winner of a round scores the other hands; a
match runs to ``target`` (at most ``max_rounds`` rounds), highest total wins.

With ``teams`` (docs/games/partnership.md) partners score together (P3),
``lead="puerto_rico"`` chooses the leaders (P4) and the observation ends with
the ``teammates`` plane (P5); play itself is unchanged (P1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple

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
    no_match,
    no_move_points,
    no_play_points,
    unique_lowest,
    winner_takes_all,
)

if TYPE_CHECKING:
    from ...common.rules import Rules
    from ..round import Round, RoundResult

__all__ = [
    "set_up", "check_deal", "place_centre", "next_leader", "double_opens", "may_attach", "after_place",
    "after_pass", "score_round", "match_over", "match_winners", "action_of", "action_move",
    "write_extra_planes", "score_placement", "move_points",
]  # fmt: skip


def set_up(rules: "Rules", rng: SplitMix64, round_index: int, leader: Optional[int]) -> Deal:
    """B1: one shuffle, p hands; the rest stays out of play (the record's yard).

    B2: the leader is ``leader`` when a match chose one, else seat
    ``round_index mod p``. Under ``lead="highest_double"`` the holder of the
    highest double of all the hands leads it instead, placed by the set-up
    as the ``centre``; with no double dealt, the leader leads by a move.
    Either way the choice is public (``highest_double``).

    Partnership P4, ``lead="puerto_rico"``: a round whose leader no match
    chose is set up as under ``"highest_double"``; a round whose leader a
    match chose is led by that seat, with any tile (``highest_double`` false).
    """
    p = rules.players
    deck = list(tiles_of_set(rules.set))
    rng.shuffle(deck)
    hands, yard = deal(deck, p, rules.hand_size)
    chosen = leader is not None and leader >= 0
    if not chosen:
        leader = round_index % p
    assert leader is not None
    by_double = rules.lead == "highest_double" or (rules.lead == "puerto_rico" and not chosen)
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


def next_leader(rules: "Rules", previous: "RoundResult", last_mover: int) -> int:
    """Who leads the round after ``previous``, whose last move ``last_mover`` made.

    B2: the winner of the round before (B5); after a round nobody won, the
    seat after that round's leader. Partnership P4, ``lead="puerto_rico"``:
    the seat that went out; after a block, the blocker (``last_mover``, the
    seat of the last placement) when its team won, the previous round's
    leader when no team won, and the seat after the blocker when its team lost.
    """
    if previous.reason == "out":
        return previous.out_seat
    # Blocked: only a winner scores (every partner of a winning team), and
    # always more than 0: every other hand (team) counts more than the
    # winner's, and with teams every seat still holds a tile.
    scorers = [s for s, x in enumerate(previous.points) if x > 0]
    if rules.lead == "puerto_rico":
        if not scorers:
            return previous.starter
        return last_mover if last_mover in scorers else (last_mover + 1) % rules.players
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


def score_round(round: "Round", reason: str, out_seat: int) -> Tuple[int, ...]:
    """B5: the winner (out, or the unique lowest count) scores the other
    hands. With teams, partnership P3: each seat holds its team's score."""
    if not round.rules.teams:
        return winner_takes_all(round, reason, out_seat)
    return _team_points(round.rules, [sum(t.pips for t in hand) for hand in round._hands], reason, out_seat)


def _team_points(rules: "Rules", pips: Sequence[int], reason: str, out_seat: int) -> Tuple[int, ...]:
    """Partnership P3, from each seat's pips left (the double-blank counts 0).

    ``"all_pips"``: the team of the seat that went out wins, or after a
    block the team with the fewest pips; it scores every pip left in every
    hand. ``"fewer_pips"``: the team with the fewest pips wins whether or not
    a seat went out, and scores the other teams' pips. Teams tied for the
    fewest leave the round without a winner. Every seat holds its team's
    score (0 for every team but the winner)."""
    k = rules.sides
    team_pips: List[int] = [0] * k
    for seat, count in enumerate(pips):
        team_pips[rules.team_of(seat)] += count
    if rules.team_scoring == "all_pips":
        winner = rules.team_of(out_seat) if reason == "out" else unique_lowest(team_pips)
        score = sum(team_pips)
    else:
        winner = unique_lowest(team_pips)
        score = sum(team_pips) - team_pips[winner] if winner >= 0 else 0
    return tuple(score if winner >= 0 and rules.team_of(s) == winner else 0 for s in range(len(pips)))


#: B6: to ``target``, at most ``max_rounds`` rounds.
match_over = at_target
#: B6: the highest total; ties share.
match_winners = highest_total


def write_extra_planes(round: "Round", seat: int, take: Callable[[int], Any]) -> None:
    """No planes of its own without teams. With teams, partnership P5:
    ``teammates``, a one for every seat on ``seat``'s team, ``seat`` included
    (the teams are public: they follow from the rules)."""
    rules = round.rules
    if not rules.teams:
        return
    teammates = take(rules.players)
    team = rules.team_of(seat)
    for s in range(rules.players):
        teammates[s] = 1 if rules.team_of(s) == team else 0


#: Nothing scores during play.
score_placement = no_play_points
move_points = no_move_points
