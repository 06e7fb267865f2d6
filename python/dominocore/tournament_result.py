"""What ``dominocore.tournament`` returns (docs/tournaments.md 4): the games'
raw arrays and the statistics over them, per bot and per pair of bots, with
the margins and ranks they are computed from.
"""

from __future__ import annotations

import itertools
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .common.checks import as_int, shown
from .common.errors import RulesError
from .common.rules import Rules
from .stats import bradley_terry, paired_t_test, t_interval

__all__ = ["TournamentResult", "margins"]


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


def margins(rules: Rules, points: Any) -> np.ndarray:
    """Each seat's margin in each game (the last axis is the seats):
    ``Rules.round_margins`` over arrays. The others' mean points minus its
    own where points are costs (Chicken Foot, Mexican Train), its own minus
    the others' mean where they are scores (Doubles, Block); with teams, its
    team's margin (docs/games/partnership.md P2). A game's margins sum to 0.

    >>> import dominocore as dc
    >>> margins(dc.ChickenFoot(players=3), [0, 10, 20]).tolist()
    [15.0, 0.0, -15.0]
    >>> margins(dc.Doubles(players=2), [[30, 0]]).tolist()
    [[30.0, -30.0]]
    """
    x = np.asarray(points, dtype=np.int64)
    return _scaled_margins(rules, x) / (rules.sides - 1)


def _scaled_margins(rules: Rules, x: np.ndarray) -> np.ndarray:
    """The margins times (k - 1), k = ``rules.sides``, in integers: ``S - k * x`` for
    costs, ``k * x - S`` for scores (S the sides' total), so that sums and
    differences of margins are exact. With teams, x is taken per team (seat t
    holds team t's points) and each seat gets its team's margin."""
    if rules.teams:
        sides = x[..., : rules.teams]
        scaled = sides.sum(axis=-1, keepdims=True) - rules.teams * sides
        scaled = scaled[..., [rules.team_of(seat) for seat in range(x.shape[-1])]]
    else:
        scaled = x.sum(axis=-1, keepdims=True) - x.shape[-1] * x
    return scaled if rules.points_are_costs else -scaled


def _ranks(rules: Rules, points: np.ndarray) -> np.ndarray:
    """Each seat's rank in its game, 1 the best; tied seats share the mean of their ranks."""
    x = points if rules.points_are_costs else -points
    better = (x[..., None, :] < x[..., :, None]).sum(axis=-1)
    tied = (x[..., None, :] == x[..., :, None]).sum(axis=-1) - 1
    return 1.0 + better + tied / 2.0


class TournamentResult:
    """The games of a tournament and their statistics (docs/tournaments.md).

    Raw data (numpy arrays): ``seating`` (tables x seats: the bot index at
    each seat of each table), ``points`` (deals x tables x seats: round
    points, or match totals with ``matches=``), ``wins`` (the same shape:
    each winner's share, 1/k for k tied winners or winning teams), ``rounds`` (deals x
    tables: rounds played). ``bots`` names the bots; ``unit`` is
    ``"rounds"`` or ``"matches"``.

    ``table()``: per bot, mean points, win rate, mean rank and mean margin
    with 95% Student-t intervals over the deals, and the Elo-scale rating;
    ``pairwise()``: for each ordered pair, the paired mean margin of one
    over the other with its interval, the one-sided paired t-test p-value
    and the per-deal wins, losses and ties; ``teams()``: with teams, per
    kind of team (its bots), the mean team margin and win rate. ``str()``
    prints them all.
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
            "margin": self._margin_sums / (self._seats * (rules.sides - 1)),
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
        return numerator / (seats[bot] * seats[opponent] * (self.rules.sides - 1))

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

    def teams(self) -> List[Dict[str, Any]]:
        """With teams (docs/games/partnership.md), one dict per kind of team
        that sat at some table, named by its bots (``"greedy+ismcts"``):
        ``team``, ``games`` (the team's games: tables it sat at x deals),
        ``deals``, and the mean and ``_low``/``_high`` interval bounds of
        ``mean_margin`` (the team's margin, its seats' common margin) and
        ``win_rate``, over the deals. Empty without teams."""
        rules = self.rules
        if not rules.teams:
            return []
        margin = _scaled_margins(rules, self.points) / (rules.sides - 1)  # deals x tables x seats
        places: Dict[str, List[Tuple[int, int]]] = {}  # a kind of team -> (table, one of its seats)
        for t, seated in enumerate(self.seating.tolist()):
            for team in range(rules.teams):
                seats = [s for s in range(rules.players) if rules.team_of(s) == team]
                places.setdefault("+".join(sorted(self.bots[seated[s]] for s in seats)), []).append((t, seats[0]))
        rows = []
        for name, where in places.items():
            row: Dict[str, Any] = {"team": name, "games": len(where) * self.deals, "deals": self.deals}
            for label, values in (("mean_margin", margin), ("win_rate", self.wins)):
                mean, low, high = t_interval(np.mean([values[:, t, s] for t, s in where], axis=0), self.level)
                row.update({label: mean, f"{label}_low": low, f"{label}_high": high})
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
        if self.rules.teams:
            lines += ["", "| team | mean margin | win rate |", "|---|---|---|"]
            for r in self.teams():
                cells = [f"{r[k]:.3f} [{r[k + '_low']:.3f}, {r[k + '_high']:.3f}]" for k in ("mean_margin", "win_rate")]
                lines.append(f"| {r['team']} | {' | '.join(cells)} |")
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
