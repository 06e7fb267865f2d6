"""What rounds, matches and batch simulations produce, and the versions of
the records that save them: value types both implementations return.

``RoundResult`` is how one round ended; ``SimulationResult`` holds a batch's
numpy arrays (``ReasonArray`` its round-end reasons). The record versions are
the formats of docs/records.md and docs/information.md 2.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Dict, List, NamedTuple, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .checks import MAX_SEED, as_int, check_keys, shown
from .errors import RulesError, StateError
from .rules import Rules, rules_from_dict

__all__ = [
    "MATCH_RECORD_KEYS",
    "MatchRecordParts",
    "read_match_record",
    "MATCH_RECORD_VERSION",
    "REASONS",
    "RECORD_VERSION",
    "ReasonArray",
    "RoundResult",
    "SimulationResult",
    "last_step_rewards",
    "points_so_far",
]


class RoundResult(NamedTuple):
    """How a round ended: ``reason`` is ``"out"``, ``"blocked"`` or, in a
    match that ends the moment a side reaches its target, ``"target"``
    (docs/games/all_fives.md F8); ``out_seat`` is -1 unless a seat went out;
    ``points`` one number per seat; ``starter`` the starting seat; ``moves``
    the moves played after set-up. ``play_points`` and ``end_points`` split
    ``points`` into what was scored during play (all zeros in games that
    score only at the end) and at the end of the round; the engines always
    give them, a result built by hand may leave them empty."""

    reason: str
    out_seat: int
    points: Tuple[int, ...]
    starter: int
    moves: int
    play_points: Tuple[int, ...] = ()
    end_points: Tuple[int, ...] = ()


def points_so_far(round_: Any) -> Tuple[int, ...]:
    """Each seat's points in ``round_`` (either implementation's ``Round``)
    so far: its result's points once it is over, else the points scored in
    play (docs/games/all_fives.md F5; zeros in the games that score only at
    the end)."""
    result = round_.result
    return tuple(result.points) if result is not None else tuple(round_.play_points)


def last_step_rewards(round_: Any) -> List[float]:
    """Each seat's change in round margin (``Rules.round_margins``) through
    the last move played, zeros before the first: the per-step rewards of
    the OpenSpiel and PettingZoo bridges and of ``VectorEnv``. A round's
    steps add up to its margins, and in the games that score only at the
    end every step but the last brings zeros. Before any move the margins
    so far are the change: zeros, or the margins of a round that ended at
    its set-up."""
    rules = round_.rules
    now = points_so_far(round_)
    if not round_.move_stack:
        return list(rules.round_margins(now))
    scored = round_.points_stack[-1]
    mover = round_._history()[-1][0]
    before = [x - (scored if rules.team_of(s) == rules.team_of(mover) else 0) for s, x in enumerate(round_.play_points)]
    return [a - b for a, b in zip(rules.round_margins(now), rules.round_margins(before))]


#: The format version ``Round.to_dict`` writes (docs/information.md 2).
RECORD_VERSION = 2

#: The format version ``Match.to_dict`` writes (docs/records.md), and its keys.
MATCH_RECORD_VERSION = 1
MATCH_RECORD_KEYS = ("version", "rules", "seed", "generator", "bot_generator", "rounds")


class MatchRecordParts(NamedTuple):
    """A match record's parts, their shape checked (``read_match_record``);
    its rounds are still raw round records."""

    rules: Rules
    seed: int
    generator: int
    bot_generator: int
    rounds: List[Any]


def read_match_record(data: Any) -> MatchRecordParts:
    """The parts of a match record (docs/records.md), once its shape is
    checked: a dict of ``MATCH_RECORD_KEYS`` of this version, valid rules,
    seeds and generator states in 0..2**64-1, and a list of rounds. Each
    engine's ``Match.from_dict`` then replays the rounds with its own rules;
    this decides none. ``StateError`` for anything else."""
    if not isinstance(data, dict):
        raise StateError(f"a match record is a dict, got {type(data).__name__}")
    version = data.get("version")
    if type(version) is not int or version != MATCH_RECORD_VERSION:
        raise StateError(
            f"unsupported match record version {shown(version)} (this version reads {MATCH_RECORD_VERSION})"
        )
    check_keys("match record", data, set(MATCH_RECORD_KEYS))
    try:
        rules = rules_from_dict(data["rules"])
    except (RulesError, TypeError) as exc:
        raise StateError(f"bad rules in match record: {exc}") from None
    seed = as_int(data["seed"], "the match record's seed", 0, MAX_SEED, StateError)
    generator = as_int(data["generator"], "the match record's generator state", 0, MAX_SEED, StateError)
    bot_state = as_int(data["bot_generator"], "the match record's bot_generator state", 0, MAX_SEED, StateError)
    if not isinstance(data["rounds"], list):
        raise StateError("the match record's 'rounds' must be a list of round records")
    return MatchRecordParts(rules, seed, generator, bot_state, data["rounds"])


#: Round-end reasons by code: ``reason[i] == 0`` means "out", 1 means "blocked",
#: 2 "target" (a match that ends the moment a side reaches its target,
#: docs/games/all_fives.md F8).
REASONS = ("out", "blocked", "target")


class ReasonArray(np.ndarray):
    """Round-end reasons stored as ``uint8`` codes (``REASONS``: 0 = "out",
    1 = "blocked", 2 = "target"), one byte a round, that also compare with the names:
    ``(sim.reason == "out").mean()`` is the share of rounds that ended with a
    seat going out. An unknown name raises ``ValueError`` rather than
    comparing unequal everywhere (as numpy does for an integer array).

    A single element reads as its name, so ``sim.reason[i] == "out"`` and
    ``list(sim.reason)`` work too.

    >>> r = np.array([0, 1, 0], dtype=np.uint8).view(ReasonArray)
    >>> (r == "out").tolist(), r[1], list(r), r.names().tolist()
    ([True, False, True], 'blocked', ['out', 'blocked', 'out'], ['out', 'blocked', 'out'])
    """

    def __getitem__(self, key: Any) -> Any:
        item = super().__getitem__(key)
        return REASONS[item] if isinstance(item, np.integer) else item

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return np.equal(self.view(np.ndarray), _reason_codes(other))

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return np.not_equal(self.view(np.ndarray), _reason_codes(other))

    def names(self) -> np.ndarray:
        """The reasons as a string array (``"out"``/``"blocked"``)."""
        return np.asarray(REASONS)[self.view(np.ndarray)]

    # numpy prints an integer array by formatting each element read through
    # __getitem__ with an integer format, which a name is not (numpy 2.4:
    # "Unknown format code 'd'"): print the names instead.
    def _printable(self) -> np.ndarray:
        codes = self.view(np.ndarray)
        if codes.dtype.kind not in "ui" or ((codes < 0) | (codes >= len(REASONS))).any():
            return codes  # not reason codes (arithmetic on the array, say): the numbers
        return self.names()

    def __repr__(self) -> str:
        text = np.array2string(self._printable(), separator=", ", prefix="ReasonArray(")
        return f"ReasonArray({text})"

    def __str__(self) -> str:
        return str(self._printable())


def _reason_codes(other: Any) -> Any:
    if isinstance(other, str):
        if other not in REASONS:
            raise ValueError(f"a round-end reason is one of {REASONS}, got {other!r}")
        return REASONS.index(other)
    if isinstance(other, np.ndarray) and other.dtype.kind in "US":
        return np.vectorize(_reason_codes, otypes=[np.uint8])(other)
    return other


@dataclass
class SimulationResult:
    """numpy arrays. Per round (all rounds of all matches, in order):
    ``points`` (rounds x players, int32), ``reason`` (a ``ReasonArray`` of
    uint8 codes, comparable with ``"out"``/``"blocked"``), ``out_seat`` (int8,
    -1 when blocked), ``starter`` (int8), ``moves`` (int32), ``match_index``
    (int64: the match of the round, or the round itself in ``rounds=`` mode).
    Per match: ``totals`` (matches x players, int32) and ``winners``
    (matches x players, bool; several seats share a tied win)."""

    points: NDArray[np.int32]
    reason: ReasonArray
    out_seat: NDArray[np.int8]
    starter: NDArray[np.int8]
    moves: NDArray[np.int32]
    match_index: NDArray[np.int64]
    totals: NDArray[np.int32]
    winners: NDArray[np.bool_]

    _DTYPES = dict(
        points=np.int32,
        reason=np.uint8,
        out_seat=np.int8,
        starter=np.int8,
        moves=np.int32,
        match_index=np.int64,
        totals=np.int32,
        winners=np.bool_,
    )

    @classmethod
    def from_arrays(cls, players: int, **arrays: Any) -> "SimulationResult":
        """Build from array-likes, in the documented dtypes and shapes (no copy
        where they already are)."""
        out: Dict[str, Any] = {}
        for name, dtype in cls._DTYPES.items():
            a: np.ndarray = np.asarray(arrays[name], dtype=dtype)
            if name in ("points", "totals", "winners"):
                a = a.reshape(-1, players)
            out[name] = a.view(ReasonArray) if name == "reason" else a
        return cls(**out)

    @classmethod
    def concatenate(cls, parts: Sequence["SimulationResult"]) -> "SimulationResult":
        """One result from consecutive pieces (such as ``simulate_iter``'s)."""
        if not parts:
            raise RulesError("concatenate needs at least one result")
        players = parts[0].points.shape[1]
        return cls.from_arrays(
            players, **{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)}
        )

    @property
    def num_rounds(self) -> int:
        """How many rounds the result holds."""
        return len(self.reason)

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return sum(getattr(self, f.name).nbytes for f in fields(self))
