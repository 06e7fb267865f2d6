"""SplitMix64, the generator every shuffle and random player uses (docs/rules.md 1.6)."""

from __future__ import annotations

from typing import List, TypeVar

from ..common.checks import PLAYER_SEED_XOR, Guarded, as_int, check_seed
from ..common.errors import StateError

__all__ = ["SplitMix64", "PLAYER_SEED_XOR"]

MASK64 = (1 << 64) - 1

T = TypeVar("T")


class SplitMix64(Guarded):
    """The 64-bit SplitMix generator.

    >>> g = SplitMix64(0)
    >>> hex(g.next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)
    _init_marker = "state"

    def __init__(self, seed: int = 0) -> None:
        self.state = check_seed(seed)

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection (no modulo bias)."""
        n = as_int(n, "below(n): n", 1, MASK64)
        threshold = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n

    def shuffle(self, items: List[T]) -> None:
        """Fisher-Yates from the back, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.state == self.state  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"SplitMix64(state={self.state:#018x})"

    def __getstate__(self) -> int:
        return self.state

    def __setstate__(self, state: int) -> None:
        self.state = as_int(state, "a generator state", 0, MASK64, StateError)
