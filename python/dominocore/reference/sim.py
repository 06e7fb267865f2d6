"""Batch simulation in the reference: every game in a Python loop
(``common.simulation.play_games``), with the reference's own rounds,
matches and bots, seeded as docs/rules.md 1.6 says.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Union

from ..common.errors import RulesError
from ..common.extensions import chunk_runner
from ..common.policies import is_plain_policy, resolve_players
from ..common.results import SimulationResult
from ..common.rules import Rules
from ..common.simulate_args import Progress, check_simulate_args
from ..common.simulation import play_games
from ..common.simulation import simulate_iter as _simulate_iter
from .learned import network_for
from .match import Match
from .players import GreedyPlayer, LearnedPlayer, SharedRandom
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
        return chunk_runner()("python", rules, args, backend, chunks, address)
    entries = resolve_players(policy, rules.players, policy_options)
    if "learned" in entries:  # before any game: a missing network is one clear error
        network_for(rules)
    if plain:  # nothing would release the GIL: the calling thread only
        args = args._replace(threads=1)
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


#: ``simulate``, yielded chunk by chunk in bounded memory (``common.simulation.simulate_iter``).
simulate_iter = functools.update_wrapper(functools.partial(_simulate_iter, _simulate=simulate), _simulate_iter)
