"""The legal moves of the reference ``Round`` and the reasons a move is
refused (docs/rules.md 1.4, 1.7; docs/engine.md): which placements the
obligation and the game's ``may_attach`` allow, the canonical listing and
its distinct form, and the turn's draws and passes (one draw a turn, or
under ``draw = "until_playable"`` draws until a tile can be placed,
docs/games/all_fives.md F6).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from ..common.checks import check_player
from ..common.errors import DominoError
from ..common.moves import DRAW, PLACE, Move, MoveLike, as_move, trusted_move
from ..common.results import RoundResult
from ..common.rules import Rules
from ..common.tiles import Tile
from .round_api import DRAW_MOVE, PASS_MOVE, tile_index

__all__ = ["RoundLegality", "OBLIGATIONS"]

#: The reason code of each kind of pending obligation.
OBLIGATIONS = {"start": "start_unfinished", "foot": "foot_unfinished", "double": "double_unsatisfied"}


class RoundLegality:
    """The legal-move methods of the reference ``Round``."""

    __slots__ = ()

    # The state of ``Round`` these methods read (set in ``Round._begin``).
    _rules: Rules
    _game: ModuleType
    _hands: List[Set[Tile]]
    _yard: List[Tile]
    _reserve: int
    _ends: Dict[int, Optional[int]]
    _trains: Dict[int, int]
    _arms: Dict[int, int]
    _pending: Tuple[int, ...]
    _pending_kind: Optional[str]
    _drawn: Optional[Tile]
    _current: int
    _result: Optional[RoundResult]

    # ------------------------------------------------------------ legal moves

    def _ends_in_play(self) -> List[int]:
        """The ends the obligation allows now (its pending ends, else every
        open end; docs/engine.md 2), in canonical order (see ``_end_order``)."""
        return sorted(self._pending or self._ends, key=self._end_order())

    def _end_order(self) -> Any:
        """The sort key of end ids in canonical order: by train where ends
        belong to trains (Mexican Train M7: each train has one open end),
        else by end id (docs/rules.md 1.7)."""
        return self._trains.__getitem__ if self._trains else None

    def _placements(self, tiles: Iterable[Tile], seat: Optional[int], first_only: bool = False) -> List[Move]:
        """Every placement of ``tiles`` by ``seat`` (``None``: any seat) on an
        end in play that the game's ``may_attach`` allows, in canonical order
        (tile index, then end order). ``first_only`` stops at the first one."""
        ends = self._ends_in_play()
        by_number: Dict[Optional[int], List[int]] = {}
        for e in ends:
            by_number.setdefault(self._ends[e], []).append(e)
        any_tile = by_number.pop(None, [])  # a lead end takes every tile
        if not any_tile:
            tiles = [t for t in tiles if t.low in by_number or t.high in by_number]
        order = self._end_order()
        may_attach = self._game.may_attach
        moves = []
        for tile in sorted(tiles, key=tile_index):
            ids = by_number.get(tile.low, [])
            if not tile.is_double and tile.high in by_number:
                ids = sorted(ids + by_number[tile.high], key=order)
            if any_tile:
                ids = sorted(ids + any_tile, key=order)
            for e in ids:
                if may_attach(self, seat, tile, e) is None:
                    moves.append(trusted_move(PLACE, tile, e))
                    if first_only:
                        return moves
        return moves

    def _can_place(self, tiles: Iterable[Tile], seat: Optional[int]) -> bool:
        """Whether some tile of ``tiles`` has a legal placement for ``seat`` (docs/engine.md 3)."""
        return bool(self._placements(tiles, seat, first_only=True))

    def legal_moves(self, distinct: bool = False) -> List[Move]:
        """The legal moves in canonical order (docs/rules.md 1.7; Mexican
        Train: by tile, then train, M7).

        With ``distinct=True`` only the first placement is kept for each
        (tile, number it attaches by): the lowest end id (1.7). In Mexican
        Train, where each train has one open end, every placement is kept
        (M7: the distinct listing is the full one). Each action id stands
        for exactly one move of the distinct listing.
        """
        if self._result is not None:
            return []
        mover = self._current
        in_question = [self._drawn] if self._drawn is not None else self._hands[mover]
        places = self._placements(in_question, mover)
        if distinct:
            # Placements of a tile by the same number on the same train (or
            # on no train) are equivalent: keep the first in canonical order.
            seen = set()
            kept = []
            for m in places:
                end: int = m.end  # type: ignore[assignment]  # a placement has an end
                key = (m.tile, self._ends[end], self._trains.get(end), self._arms.get(end))
                if key not in seen:
                    seen.add(key)
                    kept.append(m)
            places = kept
        if self._drawn is not None:
            if not places and self._draws_again():
                return [DRAW_MOVE]
            may_pass = self._rules.drawn_tile == "may" or not places
            return places + ([PASS_MOVE] if may_pass else [])
        if places:
            return places
        return [DRAW_MOVE] if len(self._yard) > self._reserve else [PASS_MOVE]

    def is_legal(self, move: MoveLike, player: Optional[int] = None) -> bool:
        """Whether ``move`` (a Move or its string) is legal now, for ``player``
        if named. Never raises: anything ``push`` would reject is ``False``."""
        try:
            return self._illegal(as_move(move), check_player(self._rules.players, player)) is None
        except DominoError:
            return False

    def _illegal(self, move: Move, player: Optional[int]) -> Optional[str]:
        """The reason code if ``move`` is illegal, in the order of docs/engine.md."""
        if self._result is not None:
            return "round_over"
        if player is not None and player != self._current:
            return "not_your_turn"
        seat = self._current
        reserve = self._reserve
        if move.kind == PLACE:
            tile, end = move.tile, move.end
            assert tile is not None and end is not None  # Move.place guarantees both
            if self._drawn is not None and tile != self._drawn:
                return "not_drawn_tile"
            if tile not in self._hands[seat]:
                return "not_in_hand"
            if end not in self._ends:
                return "end_not_open"
            if self._pending and end not in self._pending:
                return OBLIGATIONS[self._pending_kind or ""]
            return self._game.may_attach(self, seat, tile, end)
        if move.kind == DRAW:
            if self._drawn is not None and self._rules.draw != "until_playable":
                return "already_drew"
            if self._drawn is not None and self._can_place([self._drawn], seat):
                return "must_place_drawn"
            if self._can_place(self._hands[seat], seat):
                return "must_place"
            if len(self._yard) <= reserve:
                return "yard_exhausted"
            return None
        # PASS
        if self._drawn is not None:
            if self._rules.drawn_tile == "must" and self._can_place([self._drawn], seat):
                return "must_place_drawn"
            if self._draws_again():
                return "must_draw"
            return None
        if self._can_place(self._hands[seat], seat):
            return "must_place"
        if len(self._yard) > reserve:
            return "must_draw"
        return None

    def _draws_again(self) -> bool:
        """all_fives.md F6, ``draw = "until_playable"``: after a draw whose
        tile cannot be placed, the seat draws again while the yard holds more
        than the reserve (asked only then)."""
        return self._rules.draw == "until_playable" and len(self._yard) > self._reserve
