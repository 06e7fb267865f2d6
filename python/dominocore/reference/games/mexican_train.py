"""Mexican Train (docs/games/mexican_train.md).

A train per seat and the public Mexican train (train p) run from the
engine double in the hub; each train has one open end. A seat plays on its
own train, the Mexican train and any train that carries a marker (M2, M4);
a double must be satisfied before anything else, and its player moves again
(M3). Every seat scores its pips left; lowest total wins after N+1 rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

from ...common.errors import StateError
from ...common.moves import PLACE, Move, Placement
from ...common.tiles import Tile, tiles_of_set
from ..rng import SplitMix64
from .shared import (
    Deal,
    after_all_rounds,
    deal,
    lowest_total_with_tie_breaks,
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
    """M1: the engine (N-k)-(N-k) goes to the hub; the other T-1 tiles, in
    index order, are shuffled once and dealt; seat ``k mod p`` moves first."""
    n, p = rules.set, rules.players
    engine = Tile(n - round_index, n - round_index)
    rest = [t for t in tiles_of_set(n) if t != engine]
    rng.shuffle(rest)
    hands, yard = deal(rest, p, rules.hand_size)
    return Deal(engine, round_index % p, hands, yard)


def check_deal(rules: "Rules", centre: Optional[Tile], round_index: int) -> None:
    """A hand-built deal's centre must be round k's engine, (N-k)-(N-k) (M1)."""
    if centre is None or not centre.is_double:
        raise StateError(f"the centre must be a double, got {centre}")
    d = rules.round_double(round_index)
    if centre.low != d:
        raise StateError(f"round {round_index}'s engine is the {d}-{d}, not {centre}")


def place_centre(round: "Round", centre: Optional[Tile], starter: int) -> None:
    """M2: train t starts at the hub with end id t of the engine's number
    (t = p is the Mexican train); no markers, nothing pending. M1: the
    starter moves first (the engine is not a move)."""
    assert centre is not None
    hub = tuple(round._open((centre.low,), train)[0] for train in range(round.rules.players + 1))
    round._lay_setup_tile(Placement(centre, None, centre.low, hub))
    round._turn_to(starter)


#: M1: round k's engine and first seat come from k: the match chooses no leader.
next_leader = no_leader


def double_opens(round: "Round", tile: Tile, number: int, train: Optional[int]) -> Tuple[int, ...]:
    """M2, M3: one end of its number on the same train, unsatisfied: until a
    tile is placed there, it is the only legal end for every seat."""
    ends = round._open((number,), train)
    round._oblige("double", ends)
    return ends


def may_attach(round: "Round", seat: Optional[int], tile: Tile, end: int) -> Optional[str]:
    """M2: seat ``seat`` may use its own train, the Mexican train and a
    train with a marker (``not_your_train`` otherwise), but any train while
    a double is unsatisfied on it (M3; the engine keeps that end the only
    legal one). ``seat=None`` asks for any seat: the blocked test of M5
    counts every train as if it carried a marker."""
    if seat is not None and not round._pending:
        train = round._trains[end]
        if train != seat and train != round.rules.players and not round._markers[train]:
            return "not_your_train"
    return no_match(round, tile, end)


def after_place(round: "Round", mover: int, tile: Tile, train: Optional[int]) -> None:
    """M4: a tile on the mover's own train lifts its marker; the turn goes
    to the next seat, except after a double: its player moves again (M3)."""
    if train == mover:
        round._mark(mover, False)
    round._turn_to(mover if tile.is_double else (mover + 1) % round.rules.players)


def after_pass(round: "Round", mover: int) -> None:
    """M4: a seat that passes puts a marker on its own train; the next seat moves."""
    round._mark(mover, True)
    round._turn_to((mover + 1) % round.rules.players)


#: M5: every seat scores the pips left in its hand (0-0 as 50 under ``double_blank_50``).
score_round = pips_left
#: M6: N+1 rounds.
match_over = after_all_rounds
#: M6: lowest total, with the tie-breaks of docs/rules.md 2.5.
match_winners = lowest_total_with_tie_breaks


# ------------------------------------------------------------------ M7: action ids


def action_of(round: "Round", move: Move) -> int:
    """M7: tile i on train t is ``i*(p+1) + t`` (the engine gives ``Draw`` and
    ``Pass`` the last two ids, ``T*(p+1)`` and ``T*(p+1) + 1``)."""
    assert move.tile is not None and move.end is not None
    return move.tile.index * (round.rules.players + 1) + round._trains[move.end]


def action_move(round: "Round", action: int) -> Optional[Move]:
    """The placement a Place id stands for if it is legal now, else ``None``:
    tile ``action // (p+1)`` on the open end of train ``action % (p+1)``."""
    trains = round.rules.players + 1
    if not 0 <= action < round.rules.tile_count * trains:
        return None
    end = next((e for e, t in round._trains.items() if t == action % trains), None)
    if end is None:
        return None
    move = Move(PLACE, Tile.from_index(action // trains), end)
    return move if round.is_legal(move) else None


def write_extra_planes(round: "Round", seat: int, take: Callable[[int], Any]) -> None:
    """The observation plane ``train_ends`` (docs/information.md 3): per
    train, a one at its open end's number, or in the last column when it
    has no open end, the same for every viewer ``seat``. ``take(size)``
    hands out the plane's entries."""
    p, n = round.rules.players, round.rules.set + 1
    train_ends = take((p + 1) * (n + 1)).reshape(p + 1, n + 1)
    train_ends[:, n] = 1  # no open end, until one is found below
    for end, train in round._trains.items():
        number = round._ends[end]
        train_ends[train, n] = 0
        train_ends[train, n if number is None else number] = 1


#: Nothing scores during play.
score_placement = no_play_points
move_points = no_move_points
