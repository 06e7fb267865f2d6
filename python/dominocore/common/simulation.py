"""The parts of batch simulation that serve both engines: a Python loop over
games (the reference plays every policy in it; the compiled engine the
policies its C++ batch cannot: search bots, bot objects, callables), and
``simulate_iter``'s chunking of any ``simulate``.

Neither decides a rule: a game is played by the engine's own ``Round``,
``Match`` and bots, which the caller passes in. Tested directly in
tests/test_simulation_driver.py.
"""

from __future__ import annotations

import collections
import concurrent.futures
import math
import numbers
import threading
import time
from dataclasses import fields
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Union

from .checks import MAX_SEED, MAX_SIM_COUNT, PLAYER_SEED_XOR, as_int, shown
from .errors import RulesError
from .policies import MixedBots, is_plain_policy, resolve_players
from .results import REASONS, SimulationResult
from .rules import Rules
from .simulate_args import MAX_ITER_COUNT, Progress, SimulationArgs, check_simulate_args

__all__ = ["check_chunk_seconds", "play_games", "simulate_iter"]

#: ``progress`` is called at most this often (seconds) by a Python game loop.
PROGRESS_INTERVAL = 0.05


def play_games(
    rules: Rules,
    args: SimulationArgs,
    entries: List[Any],
    *,
    round_type: Any,
    match_type: Any,
    greedy: Any,
    learned: Any,
    shared_random: Callable[[int], Any],
) -> SimulationResult:
    """The games of ``simulate`` in a Python loop (game i seeded ``seed + i``;
    ``args`` from ``check_simulate_args``), with one player per seat
    (``entries``: "random", "greedy", "learned" or a player with ``choose``), on
    ``args.threads`` Python threads (default 1; the searches release the
    GIL).

    The engine plays: ``round_type(rules, seed, round_index)`` and
    ``match_type(rules, seed).play(entries)`` are its ``Round`` and ``Match``,
    ``greedy`` and ``learned`` its players of those names, ``shared_random(state)`` its random seats'
    shared player at a raw generator state."""

    def game(i: int, entries: List[Any] = entries) -> Any:
        game_seed = (args.seed + i) & MAX_SEED
        if args.matches:
            match = match_type(rules, game_seed).play(entries)
            return match.results, match.totals, [s in match.winners for s in range(rules.players)]
        round_ = round_type(rules, game_seed, args.round_index)
        MixedBots(entries, shared_random(game_seed ^ PLAYER_SEED_XOR), greedy, learned).play_out(round_)
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
    cols: Dict[str, List[Any]] = {f.name: [] for f in fields(SimulationResult)}
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
    return SimulationResult.from_arrays(rules.players, **cols)


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
    _simulate: Callable[..., SimulationResult],
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

    >>> from dominocore.reference import Doubles, simulate_iter
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
