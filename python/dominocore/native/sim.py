"""Batch simulation on the compiled engine: ``simulate`` plays the built-in
policies in C++ threads, the GIL released, and any other policy in the
shared Python game loop with the compiled rounds and bots.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Union

from ..common import policies
from ..common.errors import RulesError
from ..common.extensions import chunk_runner
from ..common.results import SimulationResult
from ..common.rules import Rules
from ..common.simulate_args import Progress, check_simulate_args
from ..common.simulation import play_games
from ..common.simulation import simulate_iter as _simulate_iter
from .codec import _core, core_rules
from .learned import LearnedPlayer, network_for, uses_learned
from .match import Match
from .players import GreedyPlayer, SharedRandom
from .round import Round

__all__ = ["simulate", "simulate_iter"]


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
    """Play ``matches`` whole matches (match i seeded ``seed + i``) or
    ``rounds`` standalone rounds of index ``round_index`` (round i seeded
    ``seed + i``) in C++ on ``threads`` native threads (default: every core),
    with the GIL released. The results do not depend on the thread count.

    ``progress(done, total)``, if given, is called from this thread about
    every 50 ms and at the end; an exception it raises stops the workers and
    propagates. ``progress=True`` shows a bar on stderr instead (quiet when
    stderr is not a terminal). Ctrl-C stops the run within about 100 ms
    (``KeyboardInterrupt``).

    A policy that is not made of "random" and "greedy" (search bots by name
    with ``policy_options``, bot objects, callables of a ``PlayerView``) runs
    in a Python loop over the games on ``threads`` Python threads (default 1),
    the searches releasing the GIL (docs/search.md 5).

    ``backend="ray"`` plays the games in ``chunks`` Ray tasks, each a
    threaded batch of ``threads`` threads (default 1 a task), on the cluster
    at ``address`` (``dominocore.distributed``), and joins them; ``chunks``
    with ``backend="local"`` plays them chunk by chunk here. The arrays are
    the same whatever the backend, the chunks and the threads. Those take
    the built-in policies only (``dc.tournament`` spreads search bots over Ray).
    """
    if not policies.is_plain_policy(policy, policy_options):
        if (backend, chunks, address) != ("local", None, None):
            raise RulesError("backend and chunks take the built-in policies only: random, greedy")
        args = check_simulate_args(rules, matches, rounds, seed, round_index, "random", threads, progress)
        entries = policies.resolve_players(policy, rules.players, policy_options)
        if "learned" in entries:
            network_for(rules)
        return play_games(
            rules,
            args,
            entries,
            round_type=Round,
            match_type=Match,
            greedy=GreedyPlayer(),
            learned=LearnedPlayer(),
            shared_random=SharedRandom,
        )
    args = check_simulate_args(rules, matches, rounds, seed, round_index, policy, threads, progress)
    if uses_learned(policy):  # the core plays it once the network is registered
        network_for(rules)
    if (backend, chunks, address) != ("local", None, None):
        return chunk_runner()("cpp", rules, args, backend, chunks, address)
    raw = _core._simulate(
        core_rules(rules),
        args.matches,
        args.n,
        args.seed,
        args.round_index,
        args.policies,
        _core.hardware_threads() if args.threads is None else args.threads,
        args.progress,
    )
    return SimulationResult.from_arrays(rules.players, **raw)


#: ``simulate``, yielded chunk by chunk in bounded memory (``common.simulation.simulate_iter``).
simulate_iter = functools.update_wrapper(functools.partial(_simulate_iter, _simulate=simulate), _simulate_iter)
