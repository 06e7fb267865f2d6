"""Argument checks shared by both implementations (docs/validation.md).

Every public entry point checks its arguments here, before any work, so that
the compiled core and the reference accept and reject exactly the same
inputs with the same error classes.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Type, Union

import numpy as np

from .errors import DominoError, RulesError, StateError

__all__ = [
    "check_keys",
    "PLAYER_SEED_XOR",
    "MAX_SEED",
    "MAX_SIM_COUNT",
    "MAX_THREADS",
    "MAX_ROUND_INDEX",
    "POLICIES",
    "shown",
    "as_int",
    "check_seed",
    "check_seat",
    "check_player",
    "check_round_index",
    "check_policies",
    "action_key",
    "Guarded",
    "check_mask_buffer",
    "check_tensor_buffer",
]

#: Seeds are 64-bit: 0 .. 2**64 - 1.
MAX_SEED = (1 << 64) - 1
#: A random player's generator is seeded with ``seed ^ PLAYER_SEED_XOR`` (docs/rules.md 1.6).
PLAYER_SEED_XOR = 0xD1B54A32D192ED03
#: The most rounds or matches one ``simulate`` call plays (``simulate_iter`` has no limit).
MAX_SIM_COUNT = 1 << 40
#: The most native threads one ``simulate`` call starts.
MAX_THREADS = 256
#: The largest round index of a Doubles or Block round (Chicken Foot, Mexican Train: the set's N).
MAX_ROUND_INDEX = (1 << 31) - 1
#: The built-in policies, by name.
POLICIES = ("random", "greedy", "learned")


def shown(value: Any) -> str:
    """``repr(value)`` for an error message, kept short (a 5,000-digit integer
    cannot even be printed by default since Python 3.11)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a container of huge integers, or a caller's __repr__ that raises
        return f"a {type(value).__name__} object"
    return text if len(text) <= 60 else text[:57] + "..."


def as_int(value: Any, name: str, low: int, high: int, error: Type[DominoError] = RulesError) -> int:
    """``value`` as a plain ``int`` in ``[low, high]``; anything with
    ``__index__`` (numpy integers included) but ``bool`` is an integer."""
    if isinstance(value, bool):
        raise error(f"{name} must be an integer, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise error(f"{name} must be an integer, got {shown(value)}") from None
    if not low <= number <= high:
        raise error(f"{name} must be between {low} and {high}, got {shown(number)}")
    return number


def action_key(action: Any) -> Optional[int]:
    """An action id as a plain int, or ``None`` for anything that is not an
    integer (and so never a legal action id)."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


def check_seed(seed: Any) -> int:
    """A 64-bit seed; out-of-range seeds are rejected, never reduced."""
    return as_int(seed, "a seed", 0, MAX_SEED)


def check_seat(players: int, seat: Any, name: str = "seat") -> int:
    """A seat number ``0 .. players - 1``."""
    return as_int(seat, name, 0, players - 1)


def check_player(players: int, player: Any) -> Optional[int]:
    """The ``player=`` argument of a move: ``None`` or a seat."""
    return None if player is None else check_seat(players, player, "player")


def check_round_index(rules: Any, round_index: Any) -> int:
    """A round index: ``0 .. N`` where each round has its own start double
    (Chicken Foot, Mexican Train on double-N), else ``0 .. 2**31 - 1``."""
    high = rules.set if rules.rounds is not None else MAX_ROUND_INDEX
    return as_int(round_index, "round_index", 0, high)


def check_policies(policy: Union[str, Sequence[str]], players: int) -> List[str]:
    """One policy name per seat, from a name or a list or tuple of names."""
    if isinstance(policy, str):
        policies = [policy] * players
    elif isinstance(policy, (list, tuple)):
        policies = list(policy)
    else:
        raise RulesError(f"policy must be a name or a list or tuple of names (one per seat), got {shown(policy)}")
    if len(policies) != players:
        raise RulesError(f"a policy list needs one policy per seat ({players}), got {len(policies)}")
    for p in policies:
        if not isinstance(p, str) or p not in POLICIES:
            raise RulesError(f"policy must be one of {POLICIES}, got {shown(p)}")
    return policies


class Guarded:
    """Base of the stateful public classes: an object made with
    ``cls.__new__(cls)`` whose ``__init__`` never ran raises ``TypeError``
    from every method instead of reading missing or garbage state.

    ``__getattr__`` only runs when normal lookup fails, so this costs
    nothing on the normal path. ``_init_marker`` names an attribute that
    every initialised object has.
    """

    __slots__ = ()
    _init_marker = "_rules"

    if not TYPE_CHECKING:  # a type checker must not take every unknown attribute for Any

        def __getattr__(self, name: str) -> Any:
            marker = type(self)._init_marker
            if not name.startswith("__"):
                try:
                    object.__getattribute__(self, marker)
                except AttributeError:
                    cls = type(self).__name__
                    raise TypeError(
                        f"this {cls} object is not initialised ({cls}.__new__ without __init__): "
                        f"build it with {cls}(...)"
                    ) from None
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def check_mask_buffer(out: Any, size: int) -> Any:
    """A new numpy bool array of ``size`` entries, or ``out`` itself when it is
    one that can be filled in place (``RulesError`` otherwise: a cast would
    write to a copy)."""
    if out is None:
        return np.zeros(size, dtype=bool)
    if not (
        isinstance(out, np.ndarray)
        and out.dtype == np.bool_
        and out.shape == (size,)
        and out.flags.writeable
        and out.flags.c_contiguous
    ):
        raise RulesError(f"out must be a writable, contiguous 1-d numpy bool array of num_actions ({size}) entries")
    return out


def check_tensor_buffer(out: Any, shape: tuple) -> Any:
    """A new numpy float32 array of ``shape``, zeros, or ``out`` itself when
    it is one that can be filled in place: a writable, C-contiguous float32
    array of exactly that shape (``RulesError`` otherwise: a cast would write
    to a copy)."""
    if out is None:
        return np.zeros(shape, dtype=np.float32)
    if not (
        isinstance(out, np.ndarray)
        and out.dtype == np.float32
        and out.shape == shape
        and out.flags.writeable
        and out.flags.c_contiguous
    ):
        wanted = "x".join(str(n) for n in shape)
        raise RulesError(f"out must be a writable, C-contiguous numpy float32 array of shape {wanted}")
    return out


def check_keys(what: str, data: Dict[str, Any], keys: Set[str]) -> None:
    """``StateError`` unless the record ``data`` has exactly the keys ``keys``."""
    unknown = set(data) - keys
    if unknown:
        raise StateError(f"unknown keys in {what}: {', '.join(sorted(shown(k) for k in unknown))}")
    missing = keys - set(data)
    if missing:
        raise StateError(f"missing keys in {what}: {sorted(missing)}")
