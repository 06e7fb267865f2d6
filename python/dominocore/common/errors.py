"""The exception family shared by every dominocore implementation."""

from __future__ import annotations

__all__ = ["DominoError", "RulesError", "IllegalMoveError", "StateError", "ParseError"]


class DominoError(Exception):
    """Base class of every error dominocore raises on bad input."""


class RulesError(DominoError, ValueError):
    """A rules object, option or batch argument is invalid (docs/rules.md section 4)."""


class ParseError(DominoError, ValueError):
    """A tile or move string (or value) could not be understood."""


class StateError(DominoError, ValueError):
    """A state or record is malformed or does not conserve the set."""


class IllegalMoveError(DominoError, ValueError):
    """A move is not legal in the current position; the state is unchanged.

    ``reason`` is a stable code (see ``docs/engine.md``), for example
    ``"not_in_hand"`` or ``"must_place"``; the message explains it to a player.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):  # keep the reason through pickling
        return (type(self), (self.reason, str(self)))
