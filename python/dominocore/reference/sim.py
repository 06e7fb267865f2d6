"""Batch simulation with the seeding of docs/rules.md 1.6, and its result type.

``SimulationResult``, the argument checks and ``simulate_iter`` are shared
by both implementations; only ``simulate`` itself differs (the compiled one
runs in C++ threads).
"""

from __future__ import annotations

import collections
import math
import numbers
import threading
import time
from dataclasses import dataclass, fields
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from ..common.checks import (
    MAX_SEED,
    MAX_SIM_COUNT,
    PLAYER_SEED_XOR,
    as_int,
    shown,
)
from ..common.errors import RulesError
from ..common.policies import MixedBots, is_plain_policy, resolve_players
from ..common.rules import Rules
from ..common.simulate_args import MAX_ITER_COUNT, Progress, SimulationArgs, check_simulate_args
from .players import SharedRandom

__all__ = ["simulate", "simulate_iter", "SimulationResult", "ReasonArray", "REASONS"]

#: Round-end reasons by code: ``reason[i] == 0`` means "out", 1 means "blocked".
REASONS = ("out", "blocked")
#: ``progress`` is called at most this often (seconds) by the reference.
PROGRESS_INTERVAL = 0.05


class ReasonArray(np.ndarray):
    """Round-end reasons stored as ``uint8`` codes (``REASONS``: 0 = "out",
    1 = "blocked"), one byte a round, that also compare with the names:
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


def simulate(
    rules: Rules,
    matches: Optional[int] = None,
    rounds: Optional[int] = None,
    seed: int = 0,
    round_index: int = 0,
    policy: Any = "random",
    threads: Optional[int] = None,
    progress: Union[bool, None, Progress] = None,
    policy_options: Optional[Dict[str, Any]] = None,
    backend: str = "local",
    chunks: Optional[int] = None,
    address: Optional[str] = None,
) -> SimulationResult:
    """Play ``matches`` whole matches (match i seeded ``seed + i``) or ``rounds``
    standalone rounds of index ``round_index`` (round i seeded ``seed + i``).

    ``threads`` is checked for parity with the compiled engine; the
    reference plays "random" and "greedy" on the calling thread, and a policy
    beyond them (search bots with ``policy_options``, bot objects, callables
    of a ``PlayerView``; docs/search.md 5) on ``threads`` Python threads, as
    the compiled engine does. ``progress(done, total)``, if given, is called
    now and then and at the end; an exception it raises stops the run.
    ``progress=True`` shows a bar on stderr instead (quiet when stderr is not
    a terminal).

    ``backend="ray"`` plays the games in ``chunks`` Ray tasks (``address``:
    a Ray cluster) and joins them (``dominocore.distributed``); ``chunks``
    with ``backend="local"`` plays them chunk by chunk here. The arrays are
    the same whatever the backend and the chunks. Those take the built-in
    policies only (``dc.tournament`` spreads search bots over Ray).
    """
    plain = is_plain_policy(policy, policy_options)
    if not plain and (backend, chunks, address) != ("local", None, None):
        raise RulesError("backend and chunks take the built-in policies only: random, greedy")
    checked_policy = policy if plain else "random"  # resolve_players checks the others
    args = check_simulate_args(rules, matches, rounds, seed, round_index, checked_policy, threads, progress)
    if (backend, chunks, address) != ("local", None, None):
        from ..distributed import simulate_chunks

        return simulate_chunks("python", rules, args, backend, chunks, address)
    entries = resolve_players(policy, rules.players, policy_options)
    if plain:  # nothing would release the GIL: the calling thread only
        args = args._replace(threads=1)
    from .. import reference

    return play_games(reference, rules, args, entries, SharedRandom)


def play_games(
    impl: Any, rules: Rules, args: SimulationArgs, entries: List[Any], shared_random: Any
) -> SimulationResult:
    """The games of ``simulate`` in a Python loop (game i seeded ``seed + i``;
    ``args`` from ``check_simulate_args``), with one player per seat
    (``entries``: "random", "greedy" or a player with ``choose``), on
    ``args.threads`` Python threads (default 1; the searches release the
    GIL). The reference plays every policy here; the compiled core only the
    policies its batch cannot (search bots, bot objects, callables).

    ``impl`` is the implementation's package (``Round``, ``Match``,
    ``GreedyPlayer``, ``SimulationResult``), ``shared_random(state)`` its
    random seats' shared player at a raw generator state."""
    greedy = impl.GreedyPlayer()

    def game(i: int, entries: List[Any] = entries) -> Any:
        game_seed = (args.seed + i) & MAX_SEED
        if args.matches:
            match = impl.Match(rules, game_seed).play(entries)
            return match.results, match.totals, [s in match.winners for s in range(rules.players)]
        round_ = impl.Round(rules, game_seed, args.round_index)
        MixedBots(entries, shared_random(game_seed ^ PLAYER_SEED_XOR), greedy).play_out(round_)
        return [round_.result], None, None

    threads = args.threads or 1
    if threads > 1:
        games = _threaded_games(game, entries, args, threads)
    else:
        games = []
        last_report = time.monotonic()
        for i in range(args.n):
            games.append(game(i))
            if args.progress is not None and time.monotonic() - last_report >= PROGRESS_INTERVAL:
                args.progress(i + 1, args.n)
                last_report = time.monotonic()
    cols: Dict[str, List[Any]] = {f.name: [] for f in fields(impl.SimulationResult)}
    for i, (results, totals, winners) in enumerate(games):
        if totals is not None:
            cols["totals"].append(totals)
            cols["winners"].append(winners)
        for result in results:
            cols["points"].append(result.points)
            cols["reason"].append(REASONS.index(result.reason))
            cols["out_seat"].append(result.out_seat)
            cols["starter"].append(result.starter)
            cols["moves"].append(result.moves)
            cols["match_index"].append(i)
    if args.progress is not None:
        args.progress(args.n, args.n)
    return impl.SimulationResult.from_arrays(rules.players, **cols)


class _Stopped(Exception):
    """A threaded run was stopped (Ctrl-C, or progress raised): its games end."""


class _StoppableBot:
    """A bot of a threaded run that stops its game, at its next move, once
    the run is stopped (so that Ctrl-C does not wait for whole games)."""

    def __init__(self, bot: Any, stop: threading.Event) -> None:
        self.bot, self.stop = bot, stop

    def choose(self, round: Any) -> Any:
        if self.stop.is_set():
            raise _Stopped
        return self.bot.choose(round)


def _threaded_games(game: Callable[..., Any], entries: List[Any], args: SimulationArgs, threads: int) -> List[Any]:
    """``[game(i) for i in range(args.n)]`` on ``threads`` threads, in order,
    with at most a few games queued ahead; ``progress`` now and then. Ctrl-C
    (or an exception from ``progress``) cancels the games queued and stops
    those being played at their next move of a seat that is not a built-in
    bot, and propagates once the threads are idle."""
    import concurrent.futures

    stop = threading.Event()
    # The built-in bots' seats stay names: their random seats share the game's generator.
    stoppable = [e if isinstance(e, str) else _StoppableBot(e, stop) for e in entries]
    games: List[Any] = []
    pending: Deque[Any] = collections.deque()
    last_report = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        try:
            queued = 0
            while len(games) < args.n:
                while queued < args.n and len(pending) < 4 * threads:
                    pending.append(pool.submit(game, queued, stoppable))
                    queued += 1
                games.append(pending.popleft().result())
                if args.progress is not None and time.monotonic() - last_report >= PROGRESS_INTERVAL:
                    args.progress(len(games), args.n)
                    last_report = time.monotonic()
        except BaseException:
            stop.set()
            for future in pending:
                future.cancel()
            raise
    return games


def simulate_iter(
    rules: Rules,
    matches: Optional[int] = None,
    rounds: Optional[int] = None,
    seed: int = 0,
    round_index: int = 0,
    policy: Any = "random",
    threads: Optional[int] = None,
    chunk_size: Optional[int] = None,
    progress: Union[bool, None, Progress] = None,
    *,
    chunk_seconds: Optional[float] = None,
    _simulate: Callable[..., SimulationResult] = simulate,
) -> Iterator[SimulationResult]:
    """``simulate``, yielded chunk by chunk in bounded memory: the same games
    (game i seeded ``seed + i``), ``chunk_size`` rounds or matches a chunk
    (default 100,000 rounds or 1,000 matches), ``match_index`` counted over
    the whole run. Up to 2**63 - 1 games; stop iterating to stop the run.
    With ``chunk_seconds`` (a finite number of seconds > 0, and no
    ``chunk_size``), each chunk is sized to take about that long at the rate
    measured so far (at most the default): a stop then loses little work, in
    either implementation. Every argument is checked when it is called
    (``RulesError``), before any work.

    >>> from dominocore.reference import Doubles
    >>> chunks = list(simulate_iter(Doubles(players=2), rounds=5, chunk_size=2))
    >>> [len(c.reason) for c in chunks], chunks[-1].match_index.tolist()
    ([2, 2, 1], [4])
    """
    plain = is_plain_policy(policy)
    checked_policy = policy if plain else "random"  # resolve_players checks the others
    args = check_simulate_args(
        rules, matches, rounds, seed, round_index, checked_policy, threads, progress, MAX_ITER_COUNT
    )
    if not plain:
        resolve_players(policy, rules.players)
    default = 1_000 if args.matches else 100_000
    size = default if chunk_size is None else as_int(chunk_size, "chunk_size", 1, MAX_SIM_COUNT)
    seconds = check_chunk_seconds(chunk_seconds)
    if chunk_size is not None:
        seconds = None  # a chunk size given wins
    size = size if seconds is None else 8  # adaptive: a small first chunk measures the rate
    return _chunks(rules, args, args.policies if plain else policy, size, default, seconds, _simulate)


def check_chunk_seconds(chunk_seconds: Any) -> Optional[float]:
    """``simulate_iter``'s ``chunk_seconds``: ``None``, or a real number of
    seconds, finite and > 0 (``RulesError`` otherwise: NaN, infinities,
    bools, strings)."""
    if chunk_seconds is None:
        return None
    if isinstance(chunk_seconds, bool) or not isinstance(chunk_seconds, numbers.Real):
        raise RulesError(f"chunk_seconds must be a number of seconds, got {shown(chunk_seconds)}")
    value = float(chunk_seconds)
    if not math.isfinite(value) or value <= 0:
        raise RulesError(f"chunk_seconds must be a finite number of seconds > 0, got {shown(chunk_seconds)}")
    return value


def _chunks(
    rules: Rules,
    args: SimulationArgs,
    policy: Any,
    size: int,
    default: int,
    chunk_seconds: Optional[float],
    _simulate: Callable[..., SimulationResult],
) -> Iterator[SimulationResult]:
    """The chunks of ``simulate_iter`` (its arguments checked): ``size`` games
    a chunk, or, with ``chunk_seconds``, as many as take about that long (at
    most ``default``)."""
    mode = "matches" if args.matches else "rounds"
    extra = {} if args.matches else {"round_index": args.round_index}
    start = 0
    while start < args.n:
        count = min(size, args.n - start)
        began = time.perf_counter()

        def chunk_progress(done: int, total: int, start: int = start) -> None:
            args.progress(start + done, args.n)  # type: ignore[misc]

        part = _simulate(
            rules,
            seed=(args.seed + start) & MAX_SEED,
            policy=policy,
            threads=args.threads,
            progress=None if args.progress is None else chunk_progress,
            **{mode: count},
            **extra,
        )
        part.match_index += start
        start += count
        if chunk_seconds is not None:
            rate = count / max(time.perf_counter() - began, 1e-6)
            size = max(1, min(int(rate * chunk_seconds), 4 * size, default))  # type: ignore[operator]
        yield part
