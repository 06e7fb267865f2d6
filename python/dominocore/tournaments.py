"""Tournaments between bots: duplicate deals, rotated seats, statistics.

``dominocore.tournament(rules, bots, rounds=n)`` (served by both
implementations) plays every bot on every seat of the same deals and reports
per-bot means with 95% confidence intervals, paired comparisons with a
one-sided paired t-test and a Bradley-Terry (Elo-scale) rating. The design
and the statistics are in docs/tournaments.md.

The unit of analysis is the **deal**: deal ``d`` is the round
``Round(rules, seed=seed + d, round_index=round_index)`` (or, with
``matches=``, the match ``Match(rules, seed=seed + d)``), and every *table*
of the design (one seating of the bots) plays it. A bot's value on a deal is
its mean over its seats at the tables of that deal; intervals and tests are
Student-t ones over those per-deal values.

>>> import dominocore as dc
>>> result = dc.tournament(dc.Block(players=2), ["greedy", "random"], rounds=40, seed=1, progress=False)
>>> [row["bot"] for row in result.table()], result.deals, result.seating.tolist()
(['greedy', 'random'], 40, [[0, 1], [1, 0]])
"""

from __future__ import annotations

import copy
import itertools
import operator
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._implementations import implementation
from .common.checks import MAX_SEED, shown
from .common.errors import IllegalMoveError, RulesError
from .common.extensions import search_policies
from .common.moves import Move
from .common.policies import PLAIN_POLICIES, SEARCH_POLICY_NAMES, is_bot
from .common.rules import Rules
from .common.simulate_args import check_simulate_args
from .distributed import run_chunks
from .stats import bradley_terry, paired_t_test, t_interval
from .tournament_result import TournamentResult, _bot_index, margins

__all__ = [
    "tournament",
    "TournamentResult",
    "register_bot",
    "game_seed",
    "margins",
    "t_interval",
    "paired_t_test",
    "bradley_terry",
    "SEATINGS",
    "BUILTIN_BOTS",
]

#: The seating designs: ``"rotate"`` (the p rotations of the lineup) or ``"permute"`` (its distinct permutations).
SEATINGS = ("rotate", "permute")
#: The policies the tournament builds itself; other names go to ``register_bot``.
BUILTIN_BOTS = PLAIN_POLICIES
#: The search bots of the compiled core, by name (``(name, options)`` passes their options).
SEARCH_BOTS = SEARCH_POLICY_NAMES

BotFactory = Callable[..., Any]
_REGISTRY: Dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make the policy name ``name`` usable as a tournament bot: ``factory(seed=s,
    **options)`` returns an object whose ``choose(round)`` returns the move
    (a ``Move``, its text or an action id) for the seat to move. The bot is
    given the ``Round`` itself: a registered factory must only read what the
    seat to move may see (docs/information.md 1).

    >>> import dominocore as dc
    >>> register_bot("first", lambda seed=0: type("First", (), {"choose": lambda self, r: r.legal_moves()[0]})())
    >>> dc.tournament(dc.Block(players=2), ["first", "greedy"], rounds=2, progress=False).deals
    2
    """
    if not isinstance(name, str) or not name:
        raise RulesError(f"a bot name is a non-empty string, got {shown(name)}")
    if name in BUILTIN_BOTS:
        raise RulesError(f"{name!r} is a built-in bot and cannot be registered again")
    if not callable(factory):
        raise RulesError(f"a bot factory must be callable, got {shown(factory)}")
    _REGISTRY[name] = factory


# ---------------------------------------------------------------- seeds


def _mix(z: int) -> int:
    """SplitMix64's output function (docs/rules.md 1.6): a 64-bit bijection."""
    z &= MAX_SEED
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MAX_SEED
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MAX_SEED
    return z ^ (z >> 31)


def game_seed(seed: int, deal: int, table: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of table ``table`` on deal ``deal`` of a
    tournament seeded ``seed``: a hash of the four numbers alone, so that
    no result depends on the order games are played in or on how they are
    split among workers.

    >>> game_seed(1, 0, 0, 0) == game_seed(1, 0, 0, 0) != game_seed(1, 0, 0, 1)
    True
    """
    golden = 0x9E3779B97F4A7C15
    z = _mix(seed + golden)
    for part in (deal, table, seat):
        z = _mix(z ^ ((part + 1) * golden))
    return z


# ---------------------------------------------------------------- bots


@dataclass(frozen=True)
class _Bot:
    """A checked bot spec: a named policy with options, an object with
    ``choose``, or a function of a ``PlayerView``."""

    name: str
    kind: str  # "policy", "object" or "callable"
    policy: Optional[str] = None
    options: Tuple[Tuple[str, Any], ...] = ()
    obj: Any = None


def _describe(policy: str, options: Mapping[str, Any]) -> str:
    if not options:
        return policy
    return f"{policy}({', '.join(f'{k}={v!r}' for k, v in sorted(options.items()))})"


def _builtin_player(obj: Any) -> Optional[str]:
    """The policy name (random, greedy, learned) of the implementations' own bot objects, else None."""
    kind = type(obj).__name__
    module = type(obj).__module__
    names = {"RandomPlayer": "random", "GreedyPlayer": "greedy", "LearnedPlayer": "learned"}
    return names.get(kind) if module.startswith("dominocore.") else None


def _check_bot(spec: Any, name: Optional[str]) -> _Bot:
    """One bot spec, checked (``RulesError``)."""
    if isinstance(spec, str):
        if not spec:
            raise RulesError("a bot's policy name must not be empty")
        return _Bot(name or spec, "policy", spec)
    if isinstance(spec, tuple):
        if len(spec) != 2 or not isinstance(spec[0], str) or not isinstance(spec[1], Mapping):
            raise RulesError(f"a bot with options is a pair (policy name, dict of options), got {shown(spec)}")
        options = dict(spec[1])
        bad = [k for k in options if not isinstance(k, str)]
        if bad:
            raise RulesError(f"bot options are named by strings, got {shown(bad[0])}")
        if spec[0] in BUILTIN_BOTS and options:
            raise RulesError(f"the {spec[0]!r} bot takes no options, got {sorted(options)}")
        return _Bot(name or _describe(spec[0], options), "policy", spec[0], tuple(sorted(options.items())))
    builtin = _builtin_player(spec)
    if builtin is not None:
        return _Bot(name or builtin, "policy", builtin)
    if is_bot(spec):
        label = getattr(spec, "name", None)
        return _Bot(name or (label if isinstance(label, str) and label else type(spec).__name__), "object", obj=spec)
    if callable(spec):
        return _Bot(name or getattr(spec, "__name__", None) or type(spec).__name__, "callable", obj=spec)
    raise RulesError(
        "a bot is a policy name, a (name, options) pair, an object with choose() or a function of a "
        f"PlayerView, got {shown(spec)}"
    )


def _check_bots(bots: Any) -> List[_Bot]:
    """The bots of a tournament, from a list or tuple of specs or a dict of name: spec."""
    if isinstance(bots, Mapping):
        named = [(str(k), v) for k, v in bots.items()]
        if any(not k for k, _ in named):
            raise RulesError("bot names must not be empty")
        checked = [_check_bot(v, k) for k, v in named]
    elif isinstance(bots, (list, tuple)):
        checked = [_check_bot(v, None) for v in bots]
    else:
        raise RulesError(f"bots must be a list or tuple of bot specs, or a dict name -> spec, got {shown(bots)}")
    if len(checked) < 2:
        raise RulesError(f"a tournament needs at least 2 bots, got {len(checked)}")
    seen: Dict[str, int] = {}
    unique = []
    for bot in checked:  # the same spec twice: "greedy", "greedy#2"
        seen[bot.name] = seen.get(bot.name, 0) + 1
        name = bot.name if seen[bot.name] == 1 else f"{bot.name}#{seen[bot.name]}"
        factory = _REGISTRY.get(bot.policy) if bot.kind == "policy" and bot.policy else bot.obj
        unique.append(_Bot(name, bot.kind, bot.policy, bot.options, factory))
    return unique


Play = Callable[[Any, int], None]


def _as_move(round_: Any, choice: Any, bot: _Bot, seat: int) -> None:
    """Play ``choice`` (a Move, its text or an action id) for ``seat``; a refused one names the bot."""
    try:
        if isinstance(choice, (Move, str)):
            round_.push(choice, player=seat)
        else:
            try:
                action = operator.index(choice)
            except TypeError:
                raise IllegalMoveError(
                    "illegal_action", f"a bot returns a Move, its text or an action id, got {shown(choice)}"
                ) from None
            if isinstance(choice, bool):
                raise IllegalMoveError("illegal_action", f"a bot returned {choice!r}, not an action id")
            round_.apply_action(action, player=seat)
    except IllegalMoveError as exc:
        raise IllegalMoveError(exc.reason, f"bot {bot.name!r} at seat {seat}: {exc}") from None


def _player(bot: _Bot, impl: Any, seed: int) -> Play:
    """A fresh player for one game: ``play(round, seat)`` plays the seat's move."""
    if bot.kind == "policy":
        options = dict(bot.options)
        if bot.policy == "random":
            engine: Any = impl.RandomPlayer(seed=seed)
        elif bot.policy == "greedy":
            engine = impl.GreedyPlayer()
        elif bot.policy == "learned":
            engine = impl.LearnedPlayer()
        elif bot.obj is not None:  # a registered factory, carried to the workers with the spec
            engine = bot.obj(seed=seed, **options)
        elif bot.policy in SEARCH_BOTS:  # the core's searches (docs/search.md), seeded per game
            try:
                engine = search_policies()[bot.policy](seed=seed, **options)
            except TypeError as exc:
                raise RulesError(f"bot {bot.policy!r}: {exc}") from None
        else:
            known = sorted(set(BUILTIN_BOTS) | set(SEARCH_BOTS) | set(_REGISTRY))
            raise RulesError(f"unknown bot policy {bot.policy!r} (known: {', '.join(known)})")
        choose = engine.choose

        def play(round_: Any, seat: int) -> None:
            _as_move(round_, choose(round_), bot, seat)

        return play
    if bot.kind == "object":
        obj = copy.deepcopy(bot.obj)  # every game starts from the object as given
        reseed = getattr(obj, "reseed", None)
        if callable(reseed):
            reseed(seed)
        choose = obj.choose
    else:
        choose = bot.obj

    def play_view(round_: Any, seat: int) -> None:
        _as_move(round_, choose(round_.view(seat)), bot, seat)

    return play_view


# ---------------------------------------------------------------- the design


def _seating(bots: int, players: int, seating: str, lineup: Optional[Sequence[int]]) -> np.ndarray:
    """The tables of a deal: one row per table, the bot index at each seat."""
    if lineup is not None:
        lineups = [tuple(lineup)]
    elif bots <= players:
        lineups = [tuple(i % bots for i in range(players))]
    else:  # more bots than seats: every set of p bots, each in its own tables
        lineups = list(itertools.combinations(range(bots), players))
    tables: List[Tuple[int, ...]] = []
    for line in lineups:
        if seating == "rotate":
            arrangements = [line[r:] + line[:r] for r in range(players)]
        else:
            arrangements = sorted(set(itertools.permutations(line)))
        for table in arrangements:
            if table not in tables:
                tables.append(table)
    return np.array(tables, dtype=np.int64).reshape(-1, players)


def _check_lineup(
    lineup: Any, names: List[str], policies: Sequence[Optional[str]], players: int
) -> Optional[List[int]]:
    if lineup is None:
        return None
    if not isinstance(lineup, (list, tuple)) or len(lineup) != players:
        raise RulesError(
            f"lineup must be a list of {players} bots (names or indices), one per seat, got {shown(lineup)}"
        )
    out = [_bot_index(item, names, policies, "lineup") for item in lineup]
    missing = [names[i] for i in range(len(names)) if i not in out]
    if missing:
        raise RulesError(f"the lineup leaves out bot(s) {', '.join(missing)}: every bot must have a seat")
    return out


@dataclass(frozen=True)
class _Job:
    """Everything a worker needs to play deals (picklable)."""

    implementation: str
    rules: Rules
    bots: Tuple[_Bot, ...]
    seating: np.ndarray
    seed: int
    matches: bool
    round_index: int


def play_chunk(job: _Job, start: int, count: int, tick: Optional[Callable[[int], Any]] = None) -> Dict[str, Any]:
    """Play deals ``start .. start + count - 1`` of ``job`` at every table:
    ``points`` (deals x tables x seats, int64: round points, or match
    totals), ``wins`` (the same shape, float64: 1/k for each of k winners,
    else 0), ``rounds`` (deals x tables: rounds played) and ``deal`` (the
    deal indices). ``tick(1)`` after each deal, if given."""
    impl = implementation(job.implementation)
    rules = job.rules
    p = rules.players
    tables = len(job.seating)
    points = np.zeros((count, tables, p), np.int64)
    wins = np.zeros((count, tables, p), np.float64)
    rounds = np.zeros((count, tables), np.int64)
    for i in range(count):
        deal = start + i
        deal_seed = (job.seed + deal) & MAX_SEED
        for t, table in enumerate(job.seating):
            players = [_player(job.bots[b], impl, game_seed(job.seed, deal, t, s)) for s, b in enumerate(table)]
            if job.matches:
                match = impl.Match(rules, seed=deal_seed)
                while not match.is_over:
                    _play_out(match.new_round(), players)
                points[i, t] = match.totals
                winners = match.winners
                rounds[i, t] = len(match.results)
            else:
                round_ = impl.Round(rules, seed=deal_seed, round_index=job.round_index)
                _play_out(round_, players)
                points[i, t] = round_.result.points
                winners = _round_winners(rules, points[i, t])
                rounds[i, t] = 1
            # k tied winners share a win; with teams, k winning teams (each partner of one has its team's share)
            wins[i, t, list(winners)] = 1.0 / len({rules.team_of(s) for s in winners})
        if tick is not None:
            tick(1)
    return {"deal": np.arange(start, start + count, dtype=np.int64), "points": points, "wins": wins, "rounds": rounds}


def _play_out(round_: Any, players: List[Play]) -> None:
    while not round_.is_over:
        seat = round_.current_player
        players[seat](round_, seat)


def _round_winners(rules: Rules, points: np.ndarray) -> Tuple[int, ...]:
    best = points.min() if rules.points_are_costs else points.max()
    return tuple(int(s) for s in np.flatnonzero(points == best))


# ---------------------------------------------------------------- the entry point


def tournament(
    rules: Rules,
    bots: Union[Sequence[Any], Mapping[str, Any]],
    matches: Optional[int] = None,
    seed: int = 0,
    rounds: Optional[int] = None,
    *,
    round_index: int = 0,
    seating: str = "rotate",
    lineup: Optional[Sequence[Union[str, int]]] = None,
    backend: str = "local",
    chunks: Optional[int] = None,
    address: Optional[str] = None,
    progress: Union[bool, Callable[[int, int], Any]] = True,
    level: float = 0.95,
    _implementation: str = "cpp",
    _task_hook: Optional[Callable[[int], Any]] = None,
) -> TournamentResult:
    """Play ``bots`` against each other on duplicate deals with rotated seats
    and return a ``TournamentResult`` (docs/tournaments.md).

    Give exactly one of ``rounds=`` (deal d is the round
    ``Round(rules, seed=seed + d, round_index=round_index)``) or
    ``matches=`` (deal d is the match ``Match(rules, seed=seed + d)``).
    Every table of the design plays every deal: with as many bots as seats,
    the p rotations of the bots in the order given (``seating="permute"``:
    all p! orders); with fewer bots, the rotations of ``lineup`` (p bot
    names or indices; default: the bots repeated in order); with more, the
    rotations of every set of p bots.

    A bot is a policy name (``"random"``, ``"greedy"``, ``"learned"`` of
    docs/learning.md, the searches ``"ismcts"``, ``"pimc"``, ``"cheat"`` of
    docs/search.md, or one made known by ``register_bot``), a pair ``(name,
    options)``, an object with ``choose(view)`` (copied for each game;
    ``reseed(seed)`` is called on the copy if it has one) or a
    function of a ``PlayerView``; both return a ``Move``, its text or an
    action id. ``bots`` is a list of them or a dict naming them. The bot at
    seat s of table t on deal d is seeded ``game_seed(seed, d, t, s)``.

    ``backend="ray"`` plays the deals in ``chunks`` Ray tasks (``address``:
    the cluster, as ``ray.init(address=...)``; dominocore.distributed); the
    result does not depend on the backend or the chunks. ``progress=True``
    shows a tqdm bar on stderr (a callable gets ``progress(done, total)``
    in deals instead); ``level`` is the intervals' confidence level.
    """
    args = check_simulate_args(rules, matches, rounds, seed, round_index, "random", None)  # as simulate checks them
    if args.n < 1:
        raise RulesError(f"{'matches' if args.matches else 'rounds'} must be at least 1, got {args.n}")
    n, seed, index = args.n, args.seed, args.round_index
    if seating not in SEATINGS:
        raise RulesError(f"seating must be one of {SEATINGS}, got {shown(seating)}")
    if not isinstance(level, float) or not 0.0 < level < 1.0:
        raise RulesError(f"level must be a float between 0 and 1, got {shown(level)}")
    implementation(_implementation)  # a name it knows
    checked = _check_bots(bots)
    names = [b.name for b in checked]
    policies = [b.policy for b in checked]
    line = _check_lineup(lineup, names, policies, rules.players)
    table = _seating(len(checked), rules.players, seating, line)
    job = _Job(_implementation, rules, tuple(checked), table, seed, matches is not None, index)
    parts = run_chunks(
        play_chunk,
        job,
        n,
        backend=backend,
        chunks=chunks,
        address=address,
        progress=progress,
        description=f"tournament ({n} deals x {len(table)} tables)",
        hook=_task_hook,
        implementation_name=_implementation,
    )
    return TournamentResult(
        rules,
        names,
        table,
        np.concatenate([part["points"] for part in parts]),
        np.concatenate([part["wins"] for part in parts]),
        np.concatenate([part["rounds"] for part in parts]),
        unit="matches" if matches is not None else "rounds",
        seed=seed,
        level=level,
        policies=policies,
    )
