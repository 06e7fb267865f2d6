"""Batch simulation with the seeding of RULES.md 1.6 (reference: plain lists)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Union

from .errors import RulesError
from .match import Match, match_winners
from .players import players_for
from .round import Round, RoundResult, _check_seed
from .rules import Rules, check_rules

__all__ = ["simulate", "SimulationResult"]

MASK64 = (1 << 64) - 1


@dataclass
class SimulationResult:
    """Per round (all rounds of all matches, in order): ``points[i][seat]``,
    ``reason[i]``, ``out_seat[i]``, ``starter[i]``, ``moves[i]``,
    ``match_index[i]``; per match: ``totals[m][seat]``, ``winners[m][seat]``."""

    points: List[List[int]] = field(default_factory=list)
    reason: List[str] = field(default_factory=list)
    out_seat: List[int] = field(default_factory=list)
    starter: List[int] = field(default_factory=list)
    moves: List[int] = field(default_factory=list)
    match_index: List[int] = field(default_factory=list)
    totals: List[List[int]] = field(default_factory=list)
    winners: List[List[bool]] = field(default_factory=list)

    def _add_round(self, result: RoundResult, match: int) -> None:
        self.points.append(list(result.points))
        self.reason.append(result.reason)
        self.out_seat.append(result.out_seat)
        self.starter.append(result.starter)
        self.moves.append(result.moves)
        self.match_index.append(match)


def _check_count(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def simulate(
    rules: Rules,
    matches: Optional[int] = None,
    rounds: Optional[int] = None,
    seed: int = 0,
    round_index: int = 0,
    policy: Union[str, Sequence[str]] = "random",
    threads: Optional[int] = None,
) -> SimulationResult:
    """Play ``matches`` whole matches (match i seeded ``seed + i``) or ``rounds``
    standalone rounds of index ``round_index`` (round i seeded ``seed + i``).

    ``threads`` is accepted for parity with the compiled engine; the
    reference always runs on the calling thread.
    """
    check_rules(rules)
    if (matches is None) == (rounds is None):
        raise RulesError("give exactly one of matches= or rounds=")
    seed = _check_seed(seed)
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
        raise RulesError(f"threads must be a positive integer, got {threads!r}")
    players_for(policy, rules.players, 0)  # validate the policy before any work
    out = SimulationResult()
    if matches is not None:
        for i in range(_check_count("matches", matches)):
            match = Match(rules, (seed + i) & MASK64).play(policy)
            for result in match.results:
                out._add_round(result, i)
            out.totals.append(list(match.totals))
            winners = match_winners(rules, match.results)
            out.winners.append([s in winners for s in range(rules.players)])
    else:
        for i in range(_check_count("rounds", rounds)):
            round_seed = (seed + i) & MASK64
            round_ = Round(rules, round_seed, round_index)
            players = players_for(policy, rules.players, round_seed)
            while not round_.is_over:
                round_.push(players[round_.current_player].choose(round_))  # type: ignore[attr-defined]
            assert round_.result is not None
            out._add_round(round_.result, i)
    return out
