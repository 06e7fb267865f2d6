"""The input-validation contract of docs/validation.md as executable oracles.

Shared by the fuzzers of this folder (the hypothesis state machine, the
mutation tests and the atheris target). Nothing here uses dominocore's own
checks: every expectation is derived from the documentation, so that a
fuzzer compares the engine with the contract and not with itself.

- ``outcome(fn, ...)`` runs a call and captures what it did (a value or an
  exception) as data that compares across the two implementations;
- ``parse_move_text`` / ``parse_tile_text`` implement the notation's grammar;
- ``as_index`` decides what the contract calls an integer;
- ``Violation`` is raised (an ``AssertionError``) with a one-line reproducer.
"""

from __future__ import annotations

import importlib
import operator
import re
from typing import Any, Callable, NamedTuple, Optional, Tuple

REFERENCE = "dominocore.reference"
NATIVE = "dominocore.native"

#: docs/engine.md: every reason code an IllegalMoveError may carry.
REASONS = frozenset(
    """round_over not_your_turn not_drawn_tile not_in_hand end_not_open start_unfinished
    foot_unfinished double_unsatisfied not_your_train no_match locked already_drew must_place
    yard_exhausted must_place_drawn
    must_draw illegal_action no_move match_over round_in_play""".split()
)

MAX_SEED = 2**64 - 1
MAX_END_ID = 4095
MAX_HALF = 18


def implementations() -> Tuple[Any, Any]:
    """(reference, core) modules. Raises ImportError when the core is missing."""
    return importlib.import_module(REFERENCE), importlib.import_module(NATIVE)


class Violation(AssertionError):
    """A breach of docs/validation.md (or a disagreement between the two implementations)."""


class Outcome(NamedTuple):
    """What a call did: ``ok`` and its value, or the exception's class and reason."""

    ok: bool
    value: Any = None  # the return value when ok
    error: Optional[type] = None  # the exception class otherwise
    reason: Optional[str] = None  # IllegalMoveError.reason
    message: str = ""

    def key(self) -> tuple:
        """What must be equal across implementations (values are compared separately)."""
        return (self.ok, self.error, self.reason)

    def __repr__(self) -> str:
        if self.ok:
            return f"ok({short(self.value)})"
        name = self.error.__name__ if self.error else "?"
        reason = f"[{self.reason}]" if self.reason else ""
        return f"{name}{reason}({short(self.message, 90)})"


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """Run ``fn`` and capture its result; every ``Exception`` is data here
    (``KeyboardInterrupt`` and ``SystemExit`` still propagate)."""
    try:
        value = fn(*args, **kwargs)
    except RecursionError as exc:  # a RecursionError is a finding too, but keep the message short
        return Outcome(False, None, type(exc), None, "maximum recursion depth exceeded")
    except Exception as exc:  # noqa: BLE001 - capturing is the point
        try:
            message = str(exc)
        except Exception:  # noqa: BLE001 - a message that cannot even print
            message = "<unprintable message>"
        return Outcome(False, None, type(exc), getattr(exc, "reason", None), message)
    return Outcome(True, value)


def safe_repr(value: Any, depth: int = 0) -> str:
    """``repr(value)``, but huge ints (which repr() refuses past 4,300 digits)
    shown by size, inside lists, tuples and dicts too; never raises."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
            sign = "-" if value < 0 else ""
            return f"{sign}<int of {abs(value).bit_length()} bits>"
        if depth < 50 and type(value) in (list, tuple, dict):
            if type(value) is dict:
                inner = ", ".join(f"{safe_repr(k, depth + 1)}: {safe_repr(v, depth + 1)}" for k, v in value.items())
                return "{" + inner + "}"
            inner = ", ".join(safe_repr(v, depth + 1) for v in value)
            return f"[{inner}]" if type(value) is list else f"({inner}{',' if len(value) == 1 else ''})"
        return repr(value)
    except RecursionError:
        return "<recursive>"
    except Exception as exc:  # noqa: BLE001
        return f"<repr failed: {type(exc).__name__}>"


def short(value: Any, limit: int = 120) -> str:
    """``safe_repr(value)`` cut to ``limit`` characters."""
    text = safe_repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def require(condition: bool, what: str) -> None:
    if not condition:
        raise Violation(what)


def expect_error(out: Outcome, allowed: tuple, call: str) -> None:
    """``out`` must be a raise of one of ``allowed`` (classes)."""
    if out.ok:
        raise Violation(f"{call} returned {short(out.value)}; the contract wants {names(allowed)}")
    if not (isinstance(out.error, type) and issubclass(out.error, allowed)):
        raise Violation(f"{call} raised {out!r}; the contract allows only {names(allowed)}")


def expect_documented(out: Outcome, allowed: tuple, call: str) -> None:
    """``out`` is a success or a raise of one of ``allowed``."""
    if not out.ok:
        expect_error(out, allowed, call)


def expect_same(a: Outcome, b: Outcome, call: str) -> None:
    """Both implementations did the same thing (same class, same reason)."""
    if a.key() != b.key():
        raise Violation(f"{call}: the implementations disagree: reference {a!r}, core {b!r}")


def names(classes: tuple) -> str:
    return " or ".join(c.__name__ for c in classes)


# --------------------------------------------------------------------------- integers


def as_index(value: Any) -> Optional[int]:
    """The integer the contract sees in ``value`` (anything with ``__index__``
    but ``bool`` and numpy's bool), or None when it is not an integer."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    try:
        return operator.index(value)
    except Exception:  # noqa: BLE001 - TypeError, or a broken __index__
        return None


def in_range(value: Any, low: int, high: int) -> Optional[int]:
    """``as_index(value)`` when it lies in ``[low, high]``, else None."""
    number = as_index(value)
    return number if number is not None and low <= number <= high else None


class Index:
    """A user type with ``__index__`` (the contract accepts it wherever an int goes)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:  # never raises (a 5,000-digit value cannot be printed)
        return f"Index({short(self.value)})"


# --------------------------------------------------------------------------- the notation

_BLANKS = "[ \t]*"
_HALF = "([0-9]{1,2})"
_MOVE = re.compile(
    rf"{_BLANKS}(?:{_HALF}{_BLANKS}-{_BLANKS}{_HALF}{_BLANKS}@{_BLANKS}([0-9]{{1,4}})|(draw|pass)){_BLANKS}",
    re.ASCII | re.IGNORECASE,
)
_TILE = re.compile(rf"{_BLANKS}{_HALF}{_BLANKS}-{_BLANKS}{_HALF}{_BLANKS}", re.ASCII)


def parse_move_text(text: Any) -> Optional[tuple]:
    """docs/validation.md's grammar: ``("place", (low, high), end)``,
    ``("draw",)``, ``("pass",)``, or None when the text must raise ParseError."""
    if not isinstance(text, str):
        return None
    m = _MOVE.fullmatch(text)
    if m is None:
        return None
    a, b, end, word = m.groups()
    if word is not None:
        return (word.lower(),)
    a, b, end = int(a), int(b), int(end)
    if a > MAX_HALF or b > MAX_HALF or end > MAX_END_ID:
        return None
    return ("place", (min(a, b), max(a, b)), end)


def parse_tile_text(text: Any) -> Optional[Tuple[int, int]]:
    """The ``tile`` rule of the grammar: ``(low, high)`` or None."""
    if not isinstance(text, str):
        return None
    m = _TILE.fullmatch(text)
    if m is None:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    if a > MAX_HALF or b > MAX_HALF:
        return None
    return (min(a, b), max(a, b))


def move_fields(move: Any) -> tuple:
    """A Move as the tuple ``parse_move_text`` returns."""
    if move.kind == "place":
        return ("place", (move.tile.low, move.tile.high), move.end)
    return (move.kind,)


def well_formed_move_fields(kind: Any, tile: Any, end: Any) -> bool:
    """Whether ``Move(kind, tile, end)`` describes a well-formed move
    (tile given as a Tile or a 2-tuple of ints; docs/validation.md)."""
    if not isinstance(kind, str) or kind not in ("place", "draw", "pass"):
        return False
    if kind != "place":
        return tile is None and end is None
    return tile_fields(tile) is not None and in_range(end, 0, MAX_END_ID) is not None


def tile_fields(tile: Any) -> Optional[Tuple[int, int]]:
    """(low, high) of a tile value built from two halves (a Tile or a pair), or None."""
    if not isinstance(tile, tuple) or len(tile) != 2:
        return None
    a, b = (in_range(h, 0, MAX_HALF) for h in tile)
    if a is None or b is None:
        return None
    return (min(a, b), max(a, b))


def malformed_move(move: Any) -> Optional[str]:
    """Why an existing ``Move`` object is not well formed, or None (a move
    that exists is always well formed: docs/validation.md)."""
    kind, tile, end = move.kind, move.tile, move.end
    if type(kind) is not str or kind not in ("place", "draw", "pass"):
        return f"kind {short(kind)}"
    if kind != "place":
        return None if tile is None and end is None else f"a {kind} with tile {short(tile)}, end {short(end)}"
    if type(end) is not int or not 0 <= end <= MAX_END_ID:
        return f"end {short(end)}"
    if not isinstance(tile, tuple) or len(tile) != 2 or not all(type(h) is int for h in tile):
        return f"tile {short(tile)}"
    if not 0 <= tile[0] <= tile[1] <= MAX_HALF:
        return f"tile {short(tile)}"
    return None
