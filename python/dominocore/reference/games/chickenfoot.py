"""Chicken Foot, both rule sets (docs/rules.md 2): ``trains`` (2.6) and ``cross`` (2.7).

The round's double lies in the centre with S slots that must all be filled
first (2.2); any other double is a chicken foot whose three toes must be
filled before anything else (2.3). Every seat scores the pips left in its
hand, lowest total wins after N+1 rounds (2.4, 2.5). The two rule sets
differ only in their set-up and their rules data (slots, reserve, drawn tile).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple

from ...common.errors import StateError
from ...common.moves import Placement
from ...common.tiles import Tile, tiles_of_set
from ..rng import SplitMix64
from .shared import (
    Deal,
    action_move,
    action_of,
    after_all_rounds,
    deal,
    lowest_total_with_tie_breaks,
    next_seat,
    no_extra_planes,
    no_leader,
    no_match,
    no_move_points,
    no_play_points,
    pips_left,
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
    """Deal round k: the starter search of 2.6 (``trains``) or the deal and
    search of 2.7 (``cross``). ``leader`` is not used: the deal finds the starter."""
    n, p = rules.set, rules.players
    double = Tile(n - round_index, n - round_index)
    deck = list(tiles_of_set(n))
    rng.shuffle(deck)
    if rules.rule_set == "trains":
        # 2.6: seats from (k mod p) take tiles from the top until the double shows;
        # the other T-1 tiles, in index order, are shuffled again and dealt.
        starter = (round_index + deck.index(double)) % p
        rest = [t for t in tiles_of_set(n) if t != double]
        rng.shuffle(rest)
        hands, yard = deal(rest, p, rules.hand_size)
        return Deal(double, starter, hands, yard)
    # 2.7: deal first; the holder of the double starts, else the seats from
    # (k mod p) draw one tile each in turn until one draws it.
    hands, yard = deal(deck, p, rules.hand_size)
    # The search is public (docs/information.md 2): the deal records it.
    holders = [s for s in range(p) if double in hands[s]]
    search: List[Tile] = []
    if holders:
        starter = holders[0]
    else:
        seat = round_index % p
        while True:
            tile = yard.pop(0)
            hands[seat].append(tile)
            search.append(tile)
            if tile == double:
                starter = seat
                break
            seat = (seat + 1) % p
    hands[starter].remove(double)
    return Deal(double, starter, hands, yard, tuple(search))


def check_deal(rules: "Rules", centre: Optional[Tile], round_index: int) -> None:
    """A hand-built deal's centre must be the round's double (N-k)-(N-k) (2.1)."""
    if centre is None or not centre.is_double:
        raise StateError(f"the centre must be a double, got {centre}")
    d = rules.round_double(round_index)
    if centre.low != d:
        raise StateError(f"round {round_index} starts from the {d}-{d}, not {centre}")


def place_centre(round: "Round", centre: Optional[Tile], starter: int) -> None:
    """2.2: the centre double offers its S slots, ends 0..S-1, all pending.
    In ``trains`` the starter moves first (2.6); in ``cross`` placing the
    double was the starter's turn, so the next seat moves (2.7)."""
    assert centre is not None
    slots = round._open((centre.low,) * round.rules.slots)
    round._lay_setup_tile(Placement(centre, None, centre.low, slots))
    round._oblige("start", slots)
    round._turn_to(starter if round.rules.rule_set == "trains" else (starter + 1) % round.rules.players)


#: 2.5 and 2.1: one round per start double; the match chooses no leader.
next_leader = no_leader


def double_opens(round: "Round", tile: Tile, number: int, train: Optional[int]) -> Tuple[int, ...]:
    """2.3: a chicken foot: three toes of its number, to be filled before anything else."""
    toes = round._open((number, number, number), train)
    round._oblige("foot", toes)
    return toes


def may_attach(round: "Round", seat: Optional[int], tile: Tile, end: int) -> Optional[str]:
    """Any tile showing the end's number (the pending slots and toes are the engine's)."""
    return no_match(round, tile, end)


after_place = next_seat
after_pass = next_seat
#: 2.4: every seat scores the pips left in its hand.
score_round = pips_left
#: 2.1: N+1 rounds.
match_over = after_all_rounds
#: 2.5: lowest total, then the tie-breaks.
match_winners = lowest_total_with_tie_breaks

#: No observation planes of its own.
write_extra_planes = no_extra_planes


#: Nothing scores during play.
score_placement = no_play_points
move_points = no_move_points
