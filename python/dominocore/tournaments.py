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
import math
import operator
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._implementations import implementation
from .common.checks import MAX_SEED, as_int, shown
from .common.errors import IllegalMoveError, RulesError
from .common.moves import Move
from .common.policies import POLICY_NAMES, is_bot
from .common.rules import Rules
from .common.simulate_args import check_simulate_args

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
BUILTIN_BOTS = POLICY_NAMES[:2]
#: The search bots of the compiled core, by name (``(name, options)`` passes their options).
SEARCH_BOTS = POLICY_NAMES[2:]
#: The Elo scale of the ratings: 400 points for a factor 10 in the Bradley-Terry strength, mean 1500.
ELO_SCALE, ELO_MEAN = 400.0, 1500.0
#: Pseudo-wins added each way for every pair before the Bradley-Terry fit (keeps a clean sweep finite).
BT_PRIOR = 0.5

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
    """``"random"``/``"greedy"`` for the implementations' own bot objects (rebuilt per game), else None."""
    kind = type(obj).__name__
    module = type(obj).__module__
    if kind in ("RandomPlayer", "GreedyPlayer") and module.startswith("dominocore."):
        return "random" if kind == "RandomPlayer" else "greedy"
    return None


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
        elif bot.obj is not None:  # a registered factory, carried to the workers with the spec
            engine = bot.obj(seed=seed, **options)
        elif bot.policy in SEARCH_BOTS:  # the core's searches (docs/search.md), seeded per game
            from .search import SEARCH_POLICIES

            try:
                engine = SEARCH_POLICIES[bot.policy](seed=seed, **options)
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


def _bot_index(item: Any, names: Sequence[str], policies: Sequence[Optional[str]], what: str = "a bot") -> int:
    """The index of the bot ``item`` names, however the bot was given: its
    index, its name in the results (``"ismcts(iterations=300)"``, a dict's
    label, ``"greedy#2"``), or its policy name (``"ismcts"``) when that names
    one bot only. ``RulesError`` for an unknown or ambiguous name, saying
    what would do."""
    listed = ", ".join(f"{i} {name}" for i, name in enumerate(names))
    if isinstance(item, str):
        if item in names:
            return list(names).index(item)
        matches = [i for i, policy in enumerate(policies) if policy == item]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise RulesError(
                f"{what} {item!r} is ambiguous: it names bots {', '.join(map(str, matches))}; "
                f"use an index or a full name (bots: {listed}), or name the bots with a dict of label: spec"
            )
        raise RulesError(f"{what} names an unknown bot {item!r} (bots: {listed})")
    if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
        raise RulesError(f"{what} is a bot's name or index, got {shown(item)} (bots: {listed})")
    return as_int(item, what, 0, len(names) - 1)


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
            wins[i, t, list(winners)] = 1.0 / len(winners)
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


def margins(rules: Rules, points: Any) -> np.ndarray:
    """Each seat's margin in each game (the last axis is the seats):
    ``Rules.round_margins`` over arrays. The others' mean points minus its
    own where points are costs (Chicken Foot, Mexican Train), its own minus
    the others' mean where they are scores (Doubles, Block). A game's
    margins sum to 0.

    >>> import dominocore as dc
    >>> margins(dc.ChickenFoot(players=3), [0, 10, 20]).tolist()
    [15.0, 0.0, -15.0]
    >>> margins(dc.Doubles(players=2), [[30, 0]]).tolist()
    [[30.0, -30.0]]
    """
    x = np.asarray(points, dtype=np.int64)
    return _scaled_margins(rules, x) / (x.shape[-1] - 1)


def _scaled_margins(rules: Rules, x: np.ndarray) -> np.ndarray:
    """The margins times (p - 1), in integers: ``S - p * x`` for costs, ``p * x - S`` for scores
    (S the game's total), so that sums and differences of margins are exact."""
    scaled = x.sum(axis=-1, keepdims=True) - x.shape[-1] * x
    return scaled if rules.points_are_costs else -scaled


def _ranks(rules: Rules, points: np.ndarray) -> np.ndarray:
    """Each seat's rank in its game, 1 the best; tied seats share the mean of their ranks."""
    x = points if rules.points_are_costs else -points
    better = (x[..., None, :] < x[..., :, None]).sum(axis=-1)
    tied = (x[..., None, :] == x[..., :, None]).sum(axis=-1) - 1
    return 1.0 + better + tied / 2.0


# ---------------------------------------------------------------- statistics


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for aa in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom.

    >>> round(t_sf(2.0, 10), 6), t_sf(0.0, 3)
    (0.036694, 0.5)
    """
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t with ``df`` degrees of freedom, by bisection."""
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > 1.0 - q:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_sf(mid, df) > 1.0 - q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2.0


def t_interval(values: Any, level: float = 0.95) -> Tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` and its Student-t
    confidence interval at ``level``, ``mean -/+ t * sd / sqrt(n)`` with
    the sample sd (n - 1). NaN bounds for fewer than 2 values.

    >>> [round(v, 4) for v in t_interval([1, 2, 3, 4])]
    [2.5, 0.4457, 4.5543]
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n < 2:
        return (mean, math.nan, math.nan)
    half = t_quantile(0.5 + level / 2.0, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def paired_t_test(differences: Any) -> float:
    """The one-sided paired t-test's p-value for "the mean of
    ``differences`` is above 0": ``P(T > mean / (sd / sqrt(n)))`` with n - 1
    degrees of freedom. With no spread at all: 0 if the mean is positive,
    1 if negative, 0.5 if 0; NaN for fewer than 2 values.

    >>> round(paired_t_test([1, 2, 3, 4]), 6), paired_t_test([2, 2, 2])
    (0.015233, 0.0)
    """
    x = np.asarray(differences, dtype=np.float64).ravel()
    n = len(x)
    if n < 2:
        return math.nan
    mean, sd = float(x.mean()), float(x.std(ddof=1))
    if sd == 0.0:
        return 0.0 if mean > 0 else 1.0 if mean < 0 else 0.5
    return t_sf(mean / (sd / math.sqrt(n)), n - 1)


def bradley_terry(wins: Any, prior: float = BT_PRIOR, iterations: int = 10_000) -> np.ndarray:
    """Elo-scale ratings (mean 1500, 400 per factor of 10 in strength) of a
    Bradley-Terry fit to ``wins[i][j]``, the times i beat j (ties counted a
    half each way), with ``prior`` pseudo-wins added each way for every pair;
    fitted by Hunter's MM iterations. For two bots the difference is exactly
    ``400 * log10((w + prior) / (l + prior))``.

    >>> bradley_terry([[0, 4.5], [0, 0]]).round(6).tolist()  # 5 to 0.5 with the prior: a factor 10
    [1700.0, 1300.0]
    """
    w = np.asarray(wins, dtype=np.float64) + prior
    k = len(w)
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    total = w.sum(axis=1)
    pi = np.ones(k)
    for _ in range(iterations):
        denominator = (n / (pi[:, None] + pi[None, :])).sum(axis=1)
        new = total / denominator
        new /= math.exp(float(np.log(new).mean()))
        done = float(np.abs(new - pi).max()) < 1e-13
        pi = new
        if done:
            break
    return ELO_MEAN + ELO_SCALE * np.log10(pi)


# ---------------------------------------------------------------- the result


class TournamentResult:
    """The games of a tournament and their statistics (docs/tournaments.md).

    Raw data (numpy arrays): ``seating`` (tables x seats: the bot index at
    each seat of each table), ``points`` (deals x tables x seats: round
    points, or match totals with ``matches=``), ``wins`` (the same shape:
    each winner's share, 1/k for k tied winners), ``rounds`` (deals x
    tables: rounds played). ``bots`` names the bots; ``unit`` is
    ``"rounds"`` or ``"matches"``.

    ``table()``: per bot, mean points, win rate, mean rank and mean margin
    with 95% Student-t intervals over the deals, and the Elo-scale rating;
    ``pairwise()``: for each ordered pair, the paired mean margin of one
    over the other with its interval, the one-sided paired t-test p-value
    and the per-deal wins, losses and ties. ``str()`` prints both.
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[str],
        seating: Any,
        points: Any,
        wins: Any,
        rounds: Any = None,
        unit: str = "rounds",
        seed: int = 0,
        level: float = 0.95,
        policies: Optional[Sequence[Optional[str]]] = None,
    ) -> None:
        """Build from the raw arrays (the tournament does; tests build small ones by hand).
        ``policies`` (one per bot, ``None`` for an object or a function) lets a
        bot be named by its policy name where that names one bot only."""
        self.rules = rules
        self.bots = list(bots)
        self.policies: List[Optional[str]] = list(policies) if policies is not None else [None] * len(self.bots)
        self.seating = np.asarray(seating, dtype=np.int64)
        self.points = np.asarray(points, dtype=np.int64)
        self.wins = np.asarray(wins, dtype=np.float64)
        self.rounds = np.ones(self.points.shape[:2], np.int64) if rounds is None else np.asarray(rounds, np.int64)
        self.unit = unit
        self.seed = seed
        self.level = level
        k, (tables, p) = len(self.bots), self.seating.shape
        if self.points.shape[1:] != (tables, p) or self.wins.shape != self.points.shape:
            raise RulesError(f"points and wins must be deals x {tables} tables x {p} seats")
        if sorted(set(self.seating.ravel().tolist())) != list(range(k)):
            raise RulesError(f"the seating must seat each of the {k} bots")
        x = self.points
        # the margins exactly: per deal and bot, an integer sum over the bot's seats, and its seat count
        scaled = _scaled_margins(rules, x)
        self._seats = np.array([int((self.seating == b).sum()) for b in range(k)], np.int64)
        self._margin_sums = np.stack([(scaled * (self.seating == b)).sum(axis=(1, 2)) for b in range(k)], axis=1)
        self._per_deal = {
            "points": self._by_bot(x.astype(np.float64)),
            "wins": self._by_bot(self.wins),
            "rank": self._by_bot(_ranks(rules, x)),
            "margin": self._margin_sums / (self._seats * (p - 1)),
        }

    def _by_bot(self, values: np.ndarray) -> np.ndarray:
        """deals x bots: each bot's mean of ``values`` over its seats at the deal's tables."""
        out = np.empty((len(values), len(self.bots)))
        for b in range(len(self.bots)):
            mask = self.seating == b
            out[:, b] = (values * mask).sum(axis=(1, 2)) / mask.sum()
        return out

    @property
    def deals(self) -> int:
        """How many deals were played (each at every table)."""
        return len(self.points)

    @property
    def games(self) -> int:
        """How many games (rounds or matches) were played: deals x tables."""
        return self.points.shape[0] * self.points.shape[1]

    def per_deal(self, metric: str) -> np.ndarray:
        """deals x bots: each bot's per-deal mean of ``metric`` (``"points"``,
        ``"wins"``, ``"rank"`` or ``"margin"``), the values the intervals and
        tests are computed from."""
        if metric not in self._per_deal:
            raise RulesError(f"metric must be one of {sorted(self._per_deal)}, got {shown(metric)}")
        return self._per_deal[metric].copy()

    def index(self, bot: Union[str, int]) -> int:
        """The index of a bot named however it was given (``_bot_index``): its
        index, its name in the results, or its policy name if that is unique."""
        return _bot_index(bot, self.bots, self.policies)

    def margin_differences(self, bot: Union[str, int], opponent: Union[str, int]) -> np.ndarray:
        """Per deal, bot ``bot``'s mean margin minus bot ``opponent``'s (each
        named as ``index`` takes it), computed exactly from integers: equal
        margins differ by 0.0."""
        bot, opponent = self.index(bot), self.index(opponent)
        sums, seats = self._margin_sums, self._seats
        numerator = sums[:, bot] * seats[opponent] - sums[:, opponent] * seats[bot]
        return numerator / (seats[bot] * seats[opponent] * (self.rules.players - 1))

    def pairwise_wins(self) -> np.ndarray:
        """bots x bots: how many deals bot i's mean margin beat bot j's (ties a half each)."""
        k = len(self.bots)
        out = np.zeros((k, k))
        for a, b in itertools.permutations(range(k), 2):
            diff = self.margin_differences(a, b)
            out[a, b] = (diff > 0).sum() + 0.5 * (diff == 0).sum()
        return out

    def ratings(self) -> np.ndarray:
        """The bots' Elo-scale ratings: ``bradley_terry(pairwise_wins())``."""
        return bradley_terry(self.pairwise_wins())

    def table(self) -> List[Dict[str, Any]]:
        """One dict per bot (``pandas.DataFrame(result.table())`` works):
        ``bot``, ``games``, ``deals``, then for ``mean_points``, ``win_rate``,
        ``mean_rank`` and ``mean_margin`` the mean and its ``_low``/``_high``
        interval bounds, and ``elo``."""
        rows = []
        elo = self.ratings()
        for b, name in enumerate(self.bots):
            row: Dict[str, Any] = {
                "bot": name,
                "games": int((self.seating == b).sum()) * self.deals,
                "deals": self.deals,
            }
            for label, key in (("mean_points", "points"), ("win_rate", "wins"), ("mean_rank", "rank")):
                mean, low, high = t_interval(self._per_deal[key][:, b], self.level)
                row.update({label: mean, f"{label}_low": low, f"{label}_high": high})
            mean, low, high = t_interval(self._per_deal["margin"][:, b], self.level)
            row.update({"mean_margin": mean, "mean_margin_low": low, "mean_margin_high": high})
            row["elo"] = float(elo[b])
            rows.append(row)
        return rows

    def pairwise(self) -> List[Dict[str, Any]]:
        """One dict per ordered pair (bot, opponent): ``margin`` (the mean over
        deals of the difference of their per-deal mean margins) with
        ``margin_low``/``margin_high``, ``p_value`` (one-sided paired t-test
        of "bot's margin is above opponent's"), ``wins``/``losses``/``ties``
        (deals), ``deals``."""
        rows = []
        for a, b in itertools.permutations(range(len(self.bots)), 2):
            diff = self.margin_differences(a, b)
            mean, low, high = t_interval(diff, self.level)
            rows.append(
                {
                    "bot": self.bots[a],
                    "opponent": self.bots[b],
                    "deals": self.deals,
                    "margin": mean,
                    "margin_low": low,
                    "margin_high": high,
                    "p_value": paired_t_test(diff),
                    "wins": int((diff > 0).sum()),
                    "losses": int((diff < 0).sum()),
                    "ties": int((diff == 0).sum()),
                }
            )
        return rows

    def pair(self, bot: Union[str, int], opponent: Union[str, int]) -> Dict[str, Any]:
        """The ``pairwise()`` row of ``bot`` over ``opponent``, each named as
        ``index`` takes it (an index, a name in the results, a unique policy name)."""
        a, b = self.index(bot), self.index(opponent)
        if a == b:
            raise RulesError(f"a pair is two different bots, got {self.bots[a]!r} twice")
        for row in self.pairwise():
            if row["bot"] == self.bots[a] and row["opponent"] == self.bots[b]:
                return row
        raise AssertionError("unreachable: pairwise() has every ordered pair")

    def __str__(self) -> str:
        pct = f"{self.level:.0%}"
        lines = [
            f"{self.rules!r}: {self.deals} deals x {len(self.seating)} tables = {self.games} {self.unit} "
            f"({pct} t-intervals over the deals)",
            "",
            "| bot | mean points | win rate | mean rank | mean margin | Elo |",
            "|---|---|---|---|---|---|",
        ]
        for r in self.table():
            cells = [
                f"{r[k]:.3f} [{r[k + '_low']:.3f}, {r[k + '_high']:.3f}]"
                for k in ("mean_points", "win_rate", "mean_rank", "mean_margin")
            ]
            lines.append(f"| {r['bot']} | {' | '.join(cells)} | {r['elo']:.0f} |")
        lines += ["", "| bot | over | margin | one-sided p | deals won/lost/tied |", "|---|---|---|---|---|"]
        for r in self.pairwise():
            lines.append(
                f"| {r['bot']} | {r['opponent']} | {r['margin']:.3f} [{r['margin_low']:.3f}, {r['margin_high']:.3f}] "
                f"| {r['p_value']:.3g} | {r['wins']}/{r['losses']}/{r['ties']} |"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<TournamentResult {', '.join(self.bots)}: {self.deals} deals x {len(self.seating)} tables>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TournamentResult):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.bots == other.bots
            and self.unit == other.unit
            and all(
                np.array_equal(getattr(self, a), getattr(other, a)) for a in ("seating", "points", "wins", "rounds")
            )
        )

    __hash__ = None  # type: ignore[assignment]


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

    A bot is a policy name (``"random"``, ``"greedy"``, the searches
    ``"ismcts"``, ``"pimc"``, ``"cheat"`` of docs/search.md, or one made known
    by ``register_bot``), a pair ``(name, options)``, an object with ``choose(view)`` (copied for each
    game; ``reseed(seed)`` is called on the copy if it has one) or a
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
    from .distributed import run_chunks  # here: the module imports this one

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
