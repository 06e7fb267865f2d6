"""Batch simulation with the seeding of RULES.md 1.6 (reference: plain lists)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional, Sequence, Union

from .errors import RulesError
from .match import Match
from .players import check_policies, players_for
from .round import Round, RoundResult, _check_round_index, _check_seed
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


class SimulationArgs(NamedTuple):
    """``simulate``'s arguments, checked (both implementations share the checks)."""

    matches: bool  # whole matches, else standalone rounds
    n: int  # how many matches or rounds
    seed: int
    round_index: int
    policies: List[str]
    threads: Optional[int]


def check_simulate_args(
    rules: Rules,
    matches: Optional[int],
    rounds: Optional[int],
    seed: int,
    round_index: int,
    policy: Union[str, Sequence[str]],
    threads: Optional[int],
) -> SimulationArgs:
    """Validate ``simulate``'s arguments before any work; raise ``RulesError``."""
    check_rules(rules)
    if (matches is None) == (rounds is None):
        raise RulesError("give exactly one of matches= or rounds=")
    name, count = ("matches", matches) if matches is not None else ("rounds", rounds)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise RulesError(f"{name} must be a non-negative integer, got {count!r}")
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
        raise RulesError(f"threads must be a positive integer, got {threads!r}")
    if matches is None:
        _check_round_index(rules, round_index)
    policies = check_policies(policy, rules.players)
    return SimulationArgs(matches is not None, count, _check_seed(seed), round_index, policies, threads)


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
    args = check_simulate_args(rules, matches, rounds, seed, round_index, policy, threads)
    out = SimulationResult()
    for i in range(args.n):
        game_seed = (args.seed + i) & MASK64
        if args.matches:
            match = Match(rules, game_seed).play(args.policies)
            for result in match.results:
                out._add_round(result, i)
            out.totals.append(list(match.totals))
            out.winners.append([s in match.winners for s in range(rules.players)])
        else:
            round_ = Round(rules, game_seed, round_index)
            players = players_for(args.policies, rules.players, game_seed)
            while not round_.is_over:
                round_.push(players[round_.current_player].choose(round_))  # type: ignore[attr-defined]
            assert round_.result is not None
            out._add_round(round_.result, i)
    return out
