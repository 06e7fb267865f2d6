"""Moves and their string forms (docs/rules.md 1.4)."""

from __future__ import annotations

import re
from collections import namedtuple
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from .checks import as_int, shown
from .errors import ParseError
from .tiles import Tile, TileLike, as_tile

__all__ = ["Move", "MoveLike", "End", "Placement", "MAX_END_ID", "as_move", "trusted_move"]

PLACE, DRAW, PASS = "place", "draw", "pass"


#: The largest end id a move may name: no set creates that many ends (the
#: most a double-18 round can create is 8 + 3 * 190), so ids above it are malformed.
MAX_END_ID = 4095

_MOVE_TEXT = re.compile(
    r"[ \t]*(?:([0-9]{1,2})[ \t]*-[ \t]*([0-9]{1,2})[ \t]*@[ \t]*([0-9]{1,4})|(draw|pass))[ \t]*",
    re.ASCII | re.IGNORECASE,
)


if TYPE_CHECKING:  # type checkers see typed fields: a move unpacks to (str, Tile | None, int | None)

    class _MoveFields(NamedTuple):
        kind: str
        tile: Optional[Tile] = None
        end: Optional[int] = None

else:
    _MoveFields = namedtuple("Move", "kind tile end", defaults=(None, None))


class Move(_MoveFields):
    """``Place(tile, end)``, ``Draw`` or ``Pass``; checked when built, so a
    ``Move`` is always well formed (docs/validation.md).

    Its ``repr`` is its notation, as everywhere else (``print(round.legal_moves())``
    shows ``[2-9@0, 2-9@1, draw]``); ``Move.parse(repr(m)) == m``.

    >>> Move.parse("9-5@2")
    5-9@2
    >>> str(Move.place("3-4", 0)), str(Move.draw()), Move.pass_(), Move.parse("9-5@2").tile
    ('3-4@0', 'draw', pass, 5-9)
    """

    __slots__ = ()
    if not TYPE_CHECKING:  # the fields' types, at runtime (type checkers read them from _MoveFields)
        kind: str
        tile: Optional[Tile]
        end: Optional[int]

    def __new__(cls, kind: str, tile: Optional[TileLike] = None, end: Optional[int] = None) -> "Move":
        if not isinstance(kind, str):
            raise ParseError(f"a move kind is 'place', 'draw' or 'pass', got {shown(kind)}")
        if kind == PLACE:
            if tile is None or end is None:
                raise ParseError("a place move needs a tile and an end id")
            return tuple.__new__(cls, (PLACE, as_tile(tile), as_int(end, "an end id", 0, MAX_END_ID, ParseError)))
        if kind in (DRAW, PASS):
            if tile is not None or end is not None:
                raise ParseError(f"a {kind} move has no tile and no end id")
            return tuple.__new__(cls, (str(kind), None, None))
        raise ParseError(f"a move kind is 'place', 'draw' or 'pass', got {shown(kind)}")

    @classmethod
    def _make(cls, iterable) -> "Move":  # type: ignore[override]  # namedtuple's _make and _replace would skip the checks
        return cls(*iterable)

    @classmethod
    def place(cls, tile: TileLike, end: int) -> "Move":
        """Place ``tile`` on the open end with id ``end``."""
        return cls(PLACE, tile, end)

    @classmethod
    def draw(cls) -> "Move":
        """Draw the top tile of the yard."""
        return cls(DRAW)

    @classmethod
    def pass_(cls) -> "Move":
        """Pass the turn."""
        return cls(PASS)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse ``"a-b@end"``, ``"draw"`` or ``"pass"`` (the grammar of docs/validation.md)."""
        if isinstance(text, Move):
            return text
        match = _MOVE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ParseError(f"a move is written 'a-b@end' (like '5-9@2'), 'draw' or 'pass', got {shown(text)}")
        low, high, end, word = match.groups()
        if word:
            return cls(word.lower())
        return cls(PLACE, Tile(int(low), int(high)), int(end))

    @property
    def is_place(self) -> bool:
        """Whether this is a ``Place`` move."""
        return self.kind == PLACE

    def __str__(self) -> str:
        return f"{self.tile}@{self.end}" if self.kind == PLACE else self.kind

    __repr__ = __str__


def trusted_move(kind: str, tile: Optional[Tile] = None, end: Optional[int] = None) -> Move:
    """A ``Move`` from fields the engine produced itself (no checks: the move generators' fast path)."""
    return tuple.__new__(Move, (kind, tile, end))


#: What every method that takes a move accepts: a ``Move`` or its text (``"5-9@2"``, ``"draw"``, ``"pass"``).
MoveLike = Union[Move, str]


def as_move(value: Any) -> Move:
    """Coerce a ``Move`` or its string form to a ``Move``."""
    if isinstance(value, Move):
        return value
    return Move.parse(value)


class End(NamedTuple):
    """An open end of the layout: its stable id and the number a tile must
    show to attach there; ``None`` for Block's lead end, which takes any tile
    (docs/games/block.md B3)."""

    id: int
    number: Optional[int]


class Placement(NamedTuple):
    """A tile in the layout: the end it attached to (``None`` for a tile the
    set-up placed: a centre double, Mexican Train's engine), the number it
    attached by (``None`` for Block's lead, placed on the lead end) and the
    ids of the ends it created."""

    tile: Tile
    end: Optional[int]
    number: Optional[int]
    created: tuple
