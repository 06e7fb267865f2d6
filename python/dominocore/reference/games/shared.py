"""What several games share: the deal, the default hooks and the 2T+2 action space.

A game module names the pieces it uses (``from .shared import ...``), so
that each module lists every hook it provides, shared or its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ...common.moves import PLACE, Move
from ...common.tiles import Tile

if TYPE_CHECKING:
    from ...common.rules import Rules
    from ..round import Round, RoundResult


class Deal(NamedTuple):
    """A round right after its set-up: the tile the set-up placed (``None``
    when it placed none), the starting seat, every hand and the yard (top
    first), and the facts the set-up made public (docs/information.md 2):
    ``setup_draws``, the cross's search for its double in order (the i-th
    drawn by seat ``(round_index + i) mod p``, the double last; empty when the
    starter was dealt it, and in every other game), and ``highest_double``,
    whether the set-up led the highest double dealt (every Doubles round,
    Block under ``lead="highest_double"``); and ``carried``, each seat's
    match total before the round in the games that score during play
    (docs/games/all_fives.md F8; empty: zeros). It is exactly what a
    record's ``deal`` holds."""

    centre: Optional[Tile]
    starter: int
    hands: List[List[Tile]]
    yard: List[Tile]
    setup_draws: Tuple[Tile, ...] = ()
    highest_double: bool = False
    carried: Tuple[int, ...] = ()


def deal(tiles: List[Tile], players: int, hand_size: int) -> Tuple[List[List[Tile]], List[Tile]]:
    """docs/rules.md 1.6: seat s takes positions s*h .. s*h+h-1; the yard is the rest, top first."""
    hands = [tiles[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, tiles[players * hand_size :]


# ------------------------------------------------------------------ moves


def no_match(round: "Round", tile: Tile, end: int) -> Optional[str]:
    """``"no_match"`` unless ``tile`` shows the number of ``end`` (an end
    without a number, Block's lead end, takes any tile)."""
    number = round._ends[end]
    if number is None or number == tile.low or number == tile.high:
        return None
    return "no_match"


def next_seat(round: "Round", mover: int, tile: Optional[Tile] = None, train: Optional[int] = None) -> None:
    """The default ``after_place`` and ``after_pass``: the turn goes clockwise
    (docs/rules.md 1.2, 1.4)."""
    round._turn_to((mover + 1) % round.rules.players)


# ------------------------------------------------------------------ scores


def pips_left(round: "Round", reason: str, out_seat: int) -> Tuple[int, ...]:
    """Every seat scores what is left in its hand (0-0 as 50 under
    ``double_blank_50``); the seat that went out has nothing left. Lower is better."""
    score = round.rules.tile_score
    return tuple(sum(score(t) for t in hand) for hand in round._hands)


def winner_takes_all(round: "Round", reason: str, out_seat: int) -> Tuple[int, ...]:
    """The round's winner scores the pips of every other hand, the others 0.
    The winner is the seat that went out, or after a block the seat with the
    unique lowest pip count; a shared lowest count scores nobody."""
    pips = [sum(t.pips for t in hand) for hand in round._hands]
    winner = out_seat if reason == "out" else unique_lowest(pips)
    points = [0] * len(pips)
    if winner >= 0:
        points[winner] = sum(pips) - pips[winner]
    return tuple(points)


def unique_lowest(values: Sequence[int]) -> int:
    """The index of the unique lowest value, or -1 when it is shared."""
    lowest = min(values)
    holders = [i for i, v in enumerate(values) if v == lowest]
    return holders[0] if len(holders) == 1 else -1


def no_play_points(round: "Round", mover: int, tile: Tile) -> int:
    """``score_placement`` of the games that score nothing during play."""
    return 0


def no_move_points(rules: "Rules", layout: Sequence[Any], ends: Dict[int, Optional[int]], move: Move) -> int:
    """``move_points`` of the games that score nothing during play."""
    return 0


# ------------------------------------------------------------------ matches


def no_extra_planes(round: "Round", seat: int, take: Callable[[int], Any]) -> None:
    """``write_extra_planes`` of the games with no observation planes of their own."""


def no_leader(rules: "Rules", previous: "RoundResult", last_mover: int) -> None:
    """``next_leader`` of the games whose set-up finds its own starter."""
    return None


def after_all_rounds(rules: "Rules", totals: Sequence[int], rounds_played: int) -> bool:
    """``match_over`` when each round has its own start double: N+1 rounds."""
    assert rules.rounds is not None
    return rounds_played >= rules.rounds


def at_target(rules: "Rules", totals: Sequence[int], rounds_played: int) -> bool:
    """``match_over`` of a match played to a target: a total reached
    ``target``, or ``max_rounds`` rounds were played."""
    assert rules.target is not None and rules.max_rounds is not None
    return rounds_played >= rules.max_rounds or max(totals) >= rules.target


def totals_of(rules: "Rules", results: Sequence["RoundResult"]) -> List[int]:
    """Each seat's total over ``results``."""
    return [sum(r.points[s] for r in results) for s in range(rules.players)]


def highest_total(rules: "Rules", results: Sequence["RoundResult"]) -> Tuple[int, ...]:
    """The seats with the highest total (several share a tied win)."""
    totals = totals_of(rules, results)
    best = max(totals)
    return tuple(s for s in range(rules.players) if totals[s] == best)


def lowest_total_with_tie_breaks(rules: "Rules", results: Sequence["RoundResult"]) -> Tuple[int, ...]:
    """docs/rules.md 2.5: the lowest total; on equal totals more rounds scored
    0, then the lowest single non-zero round score (a seat without one comes
    after those with one, engine reading 13); seats still level share the win."""
    totals = totals_of(rules, results)

    def rank(s: int) -> Tuple[float, ...]:
        scores = [r.points[s] for r in results]
        nonzero = [x for x in scores if x != 0]
        return (totals[s], -scores.count(0), min(nonzero) if nonzero else float("inf"))

    best = min(rank(s) for s in range(rules.players))
    return tuple(s for s in range(rules.players) if rank(s) == best)


# ------------------------------------------------------------------ the 2T+2 action space


def action_of(round: "Round", move: Move) -> int:
    """docs/rules.md 1.8: tile i placed by its lower half is ``2*i``, by its
    higher half ``2*i + 1`` (a double, and a lead on an end without a number,
    always ``2*i``); the engine gives ``Draw`` and ``Pass`` the last two ids,
    ``2*T`` and ``2*T + 1``. Every placement of a tile by the same number has
    the same id."""
    assert move.tile is not None and move.end is not None
    number = round._ends[move.end]
    by_high = number is not None and number != move.tile.low
    return 2 * move.tile.index + int(by_high)


def action_move(round: "Round", action: int) -> Optional[Move]:
    """The placement a legal Place id stands for: the first legal placement
    in canonical order with that id (the distinct listing keeps exactly that
    one), or ``None`` when no legal placement has it."""
    game_action_of = round._game.action_of
    for move in round.legal_moves(distinct=True):
        if move.kind == PLACE and game_action_of(round, move) == action:
            return move
    return None
