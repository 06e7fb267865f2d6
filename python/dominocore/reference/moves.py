"""Moves and their string forms (RULES.md 1.4)."""

from __future__ import annotations

from typing import NamedTuple, Optional

from .errors import ParseError
from .tiles import Tile, TileLike, as_tile

__all__ = ["Move", "End", "Placement"]

PLACE, DRAW, PASS = "place", "draw", "pass"


class Move(NamedTuple):
    """``Place(tile, end)``, ``Draw`` or ``Pass``.

    >>> Move.parse("9-5@2")
    Move(kind='place', tile=Tile(low=5, high=9), end=2)
    >>> str(Move.place("3-4", 0)), str(Move.draw()), str(Move.pass_())
    ('3-4@0', 'draw', 'pass')
    """

    kind: str
    tile: Optional[Tile] = None
    end: Optional[int] = None

    @classmethod
    def place(cls, tile: TileLike, end: int) -> "Move":
        """Place ``tile`` on the open end with id ``end``."""
        if not isinstance(end, int) or isinstance(end, bool) or end < 0:
            raise ParseError(f"an end id is a non-negative integer, got {end!r}")
        return cls(PLACE, as_tile(tile), end)

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
        """Parse ``"a-b@end"``, ``"draw"`` or ``"pass"``."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise ParseError(f"a move is written 'a-b@end', 'draw' or 'pass', got {text!r}")
        word = text.strip().lower()
        if word == DRAW:
            return cls.draw()
        if word == PASS:
            return cls.pass_()
        tile, sep, end = word.partition("@")
        if not sep or not end.strip().isdigit():
            raise ParseError(f"a move is written 'a-b@end' (like '5-9@2'), 'draw' or 'pass', got {text!r}")
        return cls.place(Tile.parse(tile), int(end))

    @property
    def is_place(self) -> bool:
        """Whether this is a ``Place`` move."""
        return self.kind == PLACE

    def __str__(self) -> str:
        return f"{self.tile}@{self.end}" if self.kind == PLACE else self.kind


def as_move(value) -> Move:
    """Coerce a ``Move`` or its string form to a ``Move``."""
    if isinstance(value, Move):
        if value.kind not in (PLACE, DRAW, PASS):
            raise ParseError(f"unknown move kind {value.kind!r}")
        return value
    return Move.parse(value)


class End(NamedTuple):
    """An open end of the layout: its stable id and the number it needs."""

    id: int
    number: int


class Placement(NamedTuple):
    """A tile in the layout: the end it attached to (``None`` for the centre),
    the number it attached by and the ids of the ends it created."""

    tile: Tile
    end: Optional[int]
    number: int
    created: tuple
