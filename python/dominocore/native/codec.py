"""How the compiled engine's Python talks to its core (``dominocore._core``):
moves as one int each, rules as the core's copy, read-only attributes
served by the core state, refusals worded by the shared messages.
"""

from __future__ import annotations

import operator
from typing import Any, Optional, Tuple

from .. import _core  # the compiled extension: the one import of it (docs/architecture.md)
from ..common import messages
from ..common.errors import IllegalMoveError, ParseError
from ..common.moves import DRAW, MAX_END_ID, PASS, PLACE, Move, trusted_move
from ..common.rules import Rules
from ..common.tiles import Tile, tile_count

#: The core's generator (docs/rules.md 1.6).
SplitMix64 = _core.SplitMix64

#: sizeof the C++ round state (its undo history, a small record a move, lives beside it).
STATE_BYTES: int = _core.STATE_BYTES

# Moves cross the boundary as one int, in the encoding the core defines (and
# exports): Place = tile * END_BITS + end, Draw = DRAW_CODE, Pass = PASS_CODE.
TILES = tuple(Tile.from_index(i) for i in range(tile_count(18)))
END_BITS: int = _core.END_BITS
DRAW_CODE: int = _core.DRAW_CODE
PASS_CODE: int = _core.PASS_CODE
if MAX_END_ID >= END_BITS:  # every end id a Move may hold must have its own code
    raise ImportError(f"dominocore._core encodes end ids below {END_BITS}, but a Move may name {MAX_END_ID}")
# The core's Pending kinds, by number.
OBLIGATIONS = (None, "start", "foot", "double")


class _MoveTable(dict):
    """Move objects by code, made once each: moves are immutable, so the
    listings share them instead of building a namedtuple per move."""

    def __missing__(self, code: int) -> Move:
        move = self[code] = trusted_move(PLACE, TILES[code // END_BITS], code % END_BITS)
        return move


decode = _MoveTable({DRAW_CODE: Move(DRAW), PASS_CODE: Move(PASS)}).__getitem__


def encode(move: Move) -> int:
    """A well-formed Move (``Move`` checks its fields when built) as its code."""
    if move.kind == PLACE:
        assert move.tile is not None and move.end is not None
        end = move.end
        if not 0 <= end < END_BITS:  # unreachable for a checked Move (see the import-time check)
            raise ParseError(f"end id {end} is outside the move encoding (0..{END_BITS - 1})")
        return move.tile.index * END_BITS + end
    return DRAW_CODE if move.kind == DRAW else PASS_CODE


def end_number(number: int) -> Optional[int]:
    """An end's number from the core: -1 (an end that takes any tile, Block's lead) is None."""
    return None if number < 0 else number


def core_rules(rules: Rules) -> Any:
    """The core's copy of ``rules``, made once per rules object."""
    core = rules._cache.get("core")
    if core is None:
        core = rules._cache["core"] = _core.CoreRules(rules)
    return core


def tensor_shapes(rules: Rules) -> Tuple[Tuple[int], Tuple[int]]:
    """The shapes of the information-state and observation tensors of ``rules``, computed once."""
    shapes = rules._cache.get("tensor_shapes")
    if shapes is None:
        core = core_rules(rules)
        shapes = rules._cache["tensor_shapes"] = (
            (_core._information_state_tensor_size(core),),
            (_core._observation_tensor_size(core),),
        )
    return shapes


def core_attribute(name: str, doc: str) -> property:
    """A read-only attribute served straight by the core state ``self._s``.

    ``operator.attrgetter`` runs in C, so reading it adds no Python frame. On
    an object whose ``__init__`` never ran, ``_s`` is missing and ``Guarded``
    turns that into ``TypeError``.
    """
    return property(operator.attrgetter(f"_s.{name}"), doc=doc)


#: The step interface: the core's own methods, bound into ``Round``'s slots.
STEP_METHODS = frozenset(["legal_actions", "apply_action", "legal_action_mask"])


def illegal_move(round: Any, exc: IllegalMoveError, move: Any, player: Optional[int]) -> IllegalMoveError:
    """The core's refusal, worded by the shared messages (as the reference words it)."""
    return IllegalMoveError(exc.reason, messages.illegal_move(round, exc.reason, move, player))
