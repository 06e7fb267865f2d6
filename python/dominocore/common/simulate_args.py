"""``simulate``'s arguments, checked once for both implementations
(docs/validation.md): what the engines may share, in the neutral layer."""

from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional

from .checks import MAX_ROUND_INDEX, MAX_SIM_COUNT, MAX_THREADS, as_int, check_policies, check_round_index, check_seed
from .errors import RulesError
from .progress import progress_callback
from .rules import Rules, check_rules

__all__ = ["MAX_ITER_COUNT", "Progress", "SimulationArgs", "check_simulate_args"]

#: The most rounds or matches one ``simulate_iter`` run plays (``match_index`` is int64).
MAX_ITER_COUNT = (1 << 63) - 1

Progress = Callable[[int, int], Any]


class SimulationArgs(NamedTuple):
    """``simulate``'s arguments, checked (both implementations share the checks)."""

    matches: bool  # whole matches, else standalone rounds
    n: int  # how many matches or rounds
    seed: int
    round_index: int
    policies: List[str]
    threads: Optional[int]
    progress: Optional[Progress]


def check_simulate_args(
    rules: Rules,
    matches: Any,
    rounds: Any,
    seed: Any,
    round_index: Any,
    policy: Any,
    threads: Any,
    progress: Any = None,
    most: int = MAX_SIM_COUNT,
) -> SimulationArgs:
    """Validate ``simulate``'s arguments before any work (docs/validation.md); raise ``RulesError``."""
    check_rules(rules)
    if (matches is None) == (rounds is None):
        raise RulesError("give exactly one of matches= or rounds=")
    name, count = ("matches", matches) if matches is not None else ("rounds", rounds)
    n = as_int(count, name, 0, most)
    if threads is not None:
        threads = as_int(threads, "threads", 1, MAX_THREADS)
    if matches is None:
        index = check_round_index(rules, round_index)
    elif as_int(round_index, "round_index", 0, MAX_ROUND_INDEX) != 0:
        raise RulesError("round_index applies to rounds= only: a match deals its rounds 0, 1, ... itself")
    else:
        index = 0
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise RulesError(
            f"progress must be True, False, None or a callable progress(done, total), got {type(progress).__name__}"
        )
    policies = check_policies(policy, rules.players)
    if progress is True:  # checked: a bar now would be left behind by an error
        progress = progress_callback(n, "match" if matches is not None else "round")
    elif progress is False:
        progress = None
    return SimulationArgs(matches is not None, n, check_seed(seed), index, policies, threads, progress)
