"""Tiles and sets (docs/rules.md 1.1)."""

from __future__ import annotations

import re
from collections import namedtuple
from typing import TYPE_CHECKING, Iterator, NamedTuple, Union

from .checks import as_int, shown
from .errors import ParseError

__all__ = ["Tile", "TileLike", "MIN_SET", "MAX_SET", "tile_count", "tiles_of_set"]

MIN_SET = 6
MAX_SET = 18


def tile_count(set_size: int) -> int:
    """Number of tiles in a double-``set_size`` set.

    >>> tile_count(6), tile_count(9), tile_count(18)
    (28, 55, 190)
    """
    return (set_size + 1) * (set_size + 2) // 2


_TILE_TEXT = re.compile(r"[ \t]*([0-9]{1,2})[ \t]*-[ \t]*([0-9]{1,2})[ \t]*")


def _half(value: object) -> int:
    return as_int(value, "a tile half", 0, MAX_SET, ParseError)


if TYPE_CHECKING:  # type checkers see typed fields: a tile unpacks to (int, int)

    class _TileFields(NamedTuple):
        low: int
        high: int

else:
    _TileFields = namedtuple("Tile", "low high")


class Tile(_TileFields):
    """A domino ``low-high`` (``low <= high``), identified by its index.

    The halves may be given in either order; each is an integer 0..18.

    Its ``repr`` is its notation, as everywhere else (``print(round.hand(0))``
    shows ``[1-1, 0-5, ...]``); ``Tile.parse(repr(t)) == t``.

    >>> Tile.parse("9-5")
    5-9
    >>> Tile(8, 7), str(Tile(3, 3)), Tile(0, 2).index, Tile.from_index(2), Tile(1, 2).low
    (7-8, '3-3', 3, 1-1, 1)
    """

    __slots__ = ()
    if not TYPE_CHECKING:  # the fields' types, at runtime (type checkers read them from _TileFields)
        low: int
        high: int

    def __new__(cls, low: int, high: int) -> "Tile":
        a, b = _half(low), _half(high)
        return tuple.__new__(cls, (a, b) if a <= b else (b, a))

    @classmethod
    def _make(cls, iterable) -> "Tile":  # type: ignore[override]  # namedtuple's _make and _replace would skip the checks
        return cls(*iterable)

    @classmethod
    def of(cls, a: int, b: int) -> "Tile":
        """The tile with halves ``a`` and ``b`` in either order (the same as ``Tile(a, b)``)."""
        return cls(a, b)

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """Parse ``"a-b"`` (halves in either order; ASCII digits, docs/validation.md)."""
        match = _TILE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ParseError(f"a tile is written 'a-b' (like '5-9'), got {shown(text)}")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def from_index(cls, index: int) -> "Tile":
        """The tile with the given index (``b*(b+1)/2 + a``)."""
        i = as_int(index, "a tile index", 0, tile_count(MAX_SET) - 1, ParseError)
        return _BY_INDEX[i]

    @property
    def index(self) -> int:  # type: ignore[override]  # the tile index, not tuple.index
        """The tile's index: ``high*(high+1)/2 + low``."""
        return self.high * (self.high + 1) // 2 + self.low

    @property
    def pips(self) -> int:
        """``low + high``."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Whether both halves are equal."""
        return self.low == self.high

    def other(self, number: int) -> int:
        """The half left open when the tile attaches by ``number``."""
        if number == self.low:
            return self.high
        if number == self.high:
            return self.low
        raise ParseError(f"tile {self} has no half {shown(number)}")

    def __repr__(self) -> str:
        return f"{self.low}-{self.high}"

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


_BY_INDEX = tuple(Tile(low, high) for high in range(MAX_SET + 1) for low in range(high + 1))

TileLike = Union[Tile, str, int]


def as_tile(value: TileLike) -> Tile:
    """Coerce a ``Tile``, ``"a-b"`` string or index to a ``Tile``."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    if isinstance(value, tuple) and len(value) == 2:
        return Tile(*value)
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        return Tile.from_index(value)
    raise ParseError(f"expected a tile ('5-9', Tile or index), got {shown(value)}")


def tiles_of_set(set_size: int) -> Iterator[Tile]:
    """Every tile of a double-``set_size`` set in index order."""
    return iter(_BY_INDEX[: tile_count(set_size)])
