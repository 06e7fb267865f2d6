"""Tiles and sets (RULES.md 1.1)."""

from __future__ import annotations

from typing import Iterator, NamedTuple, Union

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


class Tile(NamedTuple):
    """A domino ``low-high`` (``low <= high``), identified by its index.

    >>> Tile.parse("9-5")
    Tile(low=5, high=9)
    >>> str(Tile(3, 3)), Tile(0, 2).index, Tile.from_index(2)
    ('3-3', 3, Tile(low=1, high=1))
    """

    low: int
    high: int

    @classmethod
    def of(cls, a: int, b: int) -> "Tile":
        """The tile with halves ``a`` and ``b`` in either order."""
        for v in (a, b):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_SET:
                raise ParseError(f"a tile half must be an integer 0..{MAX_SET}, got {v!r}")
        return cls(min(a, b), max(a, b))

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """Parse ``"a-b"`` (halves in either order)."""
        if not isinstance(text, str):
            raise ParseError(f"a tile is written 'a-b', got {text!r}")
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ParseError(f"a tile is written 'a-b' (like '5-9'), got {text!r}")
        return cls.of(int(parts[0]), int(parts[1]))

    @classmethod
    def from_index(cls, index: int) -> "Tile":
        """The tile with the given index (``b*(b+1)/2 + a``)."""
        if not isinstance(index, int) or not 0 <= index < tile_count(MAX_SET):
            raise ParseError(f"no tile has index {index!r}")
        high = 0
        while (high + 1) * (high + 2) // 2 <= index:
            high += 1
        return cls(index - high * (high + 1) // 2, high)

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
        raise ParseError(f"tile {self} has no half {number}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


TileLike = Union[Tile, str, int]


def as_tile(value: TileLike) -> Tile:
    """Coerce a ``Tile``, ``"a-b"`` string or index to a ``Tile``."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Tile.from_index(value)
    if isinstance(value, tuple) and len(value) == 2:
        return Tile.of(*value)
    raise ParseError(f"expected a tile ('5-9', Tile or index), got {value!r}")


def tiles_of_set(set_size: int) -> Iterator[Tile]:
    """Every tile of a double-``set_size`` set in index order."""
    for high in range(set_size + 1):
        for low in range(high + 1):
            yield Tile(low, high)
