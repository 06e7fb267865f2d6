"""Policies beyond the built-in bots, for ``Match.play`` and ``simulate`` of
both implementations (docs/search.md 5): the search bots by name (with
``policy_options``), bot objects with ``choose(round)``, and Python callables
of a ``PlayerView`` returning a move or an action id.

A policy made of "random" and "greedy" only runs on each engine's own fast
path; any other policy runs in a Python play loop, where the random seats
still share the game's one random-play generator (docs/rules.md 1.6), so a
plain policy gives the same games either way.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from .checks import shown
from .errors import RulesError, StateError
from .moves import Move, as_move

__all__ = [
    "CallablePlayer",
    "MixedBots",
    "POLICY_NAMES",
    "is_bot",
    "is_plain_policy",
    "resolve_players",
    "simulate_mixed",
]

#: The policy names: the built-in bots and the searches of ``dominocore.search``.
POLICY_NAMES = ("random", "greedy", "ismcts", "pimc", "cheat")
_PLAIN = ("random", "greedy")


class CallablePlayer:
    """A Python function of a ``PlayerView`` (the seat to move's) returning a
    ``Move`` (or its text) or an action id, as a player."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def choose(self, round: Any) -> Move:
        """The function's move for the seat to move in ``round``."""
        if round.is_over:
            raise StateError("the round is over: there is no move to choose")
        answer = self.function(round.view(round.current_player))
        if isinstance(answer, int) and not isinstance(answer, bool):
            move: Move = round.action_to_move(answer)
            return move
        return as_move(answer)

    def __repr__(self) -> str:
        return f"<CallablePlayer {self.function!r}>"


def is_bot(obj: Any) -> bool:
    """Whether ``obj`` is a bot object: it has a callable ``choose``. A numpy
    array has one too (``ndarray.choose``) and is not a bot."""
    return callable(getattr(obj, "choose", None)) and not isinstance(obj, (str, bytes, np.ndarray, np.generic))


def is_plain_policy(policy: Any, policy_options: Optional[Dict[str, Any]] = None) -> bool:
    """Whether ``policy`` names only the built-in bots ("random", "greedy")
    and no options: the engines' own fast path."""
    if policy_options:
        return False
    if isinstance(policy, str):
        return policy in _PLAIN
    if isinstance(policy, (list, tuple)):
        return all(isinstance(p, str) and p in _PLAIN for p in policy)
    return False


def resolve_players(policy: Any, players: int, policy_options: Optional[Dict[str, Any]] = None) -> List[Any]:
    """One entry per seat: "random", "greedy", or a player object with
    ``choose`` (a search bot made from its name and ``policy_options[name]``,
    one bot per name; a bot object as given; a callable wrapped in
    ``CallablePlayer``). ``RulesError`` for anything else."""
    options = dict(policy_options or {})
    for name, opts in options.items():
        if name not in POLICY_NAMES[2:]:
            raise RulesError(f"policy_options: options are for {POLICY_NAMES[2:]}, got {shown(name)}")
        if not isinstance(opts, dict):
            raise RulesError(f"policy_options[{name!r}] must be a dict of options, got {shown(opts)}")
    if isinstance(policy, (list, tuple)):
        entries = list(policy)
        if len(entries) != players:
            raise RulesError(f"a policy list needs one policy per seat ({players}), got {len(entries)}")
    else:
        entries = [policy] * players
    made: Dict[str, Any] = {}
    out: List[Any] = []
    for p in entries:
        if isinstance(p, str) and p in _PLAIN:
            out.append(p)
        elif isinstance(p, str) and p in POLICY_NAMES:
            if p not in made:
                try:
                    from ..search import SEARCH_POLICIES
                except ImportError as exc:  # pragma: no cover - only without a build
                    raise RulesError(f"the {p!r} policy needs dominocore's compiled core: {exc}") from None
                try:
                    made[p] = SEARCH_POLICIES[p](**options.get(p, {}))
                except TypeError as exc:
                    raise RulesError(f"policy_options[{p!r}]: {exc}") from None
            out.append(made[p])
        elif is_bot(p):
            out.append(p)
        elif not isinstance(p, str) and callable(p):
            out.append(CallablePlayer(p))
        else:
            raise RulesError(f"policy must be one of {POLICY_NAMES}, a bot or a callable, got {shown(p)}")
    return out


class MixedBots:
    """Players per seat for a Python play loop: the random seats share
    ``random_player`` (the game's one random-play generator), the greedy
    seats use ``greedy_player``, the others their own ``choose``.
    ``state()`` reads the shared generator's state."""

    def __init__(
        self, entries: Sequence[Any], random_player: Any, greedy_player: Any, state: Callable[[], int]
    ) -> None:
        self.seats = [random_player if e == "random" else greedy_player if e == "greedy" else e for e in entries]
        self.state = state

    def play_out(self, round: Any) -> None:
        """Play ``round`` to its end."""
        while not round.is_over:
            round.push(self.seats[round.current_player].choose(round))


def simulate_mixed(
    impl: Any,
    rules: Any,
    args: Any,
    policy: Any,
    policy_options: Optional[Dict[str, Any]],
    random_at: Callable[[int], Any],
) -> Any:
    """``simulate`` for a policy that is not plain, in a Python loop over the
    games (game i seeded ``seed + i``; ``args`` from ``check_simulate_args``),
    on ``args.threads`` Python threads (default 1; the searches release the
    GIL). ``impl``: the implementation's module (``Round``, ``Match``,
    ``GreedyPlayer``, ``SimulationResult``); ``random_at(seed)``: its random
    player for a standalone round of that seed, with a ``state()`` method."""
    from ..reference.sim import REASONS

    entries = resolve_players(policy, rules.players, policy_options)
    greedy = impl.GreedyPlayer()

    def game(i: int) -> Any:
        game_seed = (args.seed + i) & (2**64 - 1)
        if args.matches:
            match = impl.Match(rules, game_seed).play(entries)
            return match.results, match.totals, [s in match.winners for s in range(rules.players)]
        round_ = impl.Round(rules, game_seed, args.round_index)
        shared = random_at(game_seed)
        MixedBots(entries, shared, greedy, shared.state).play_out(round_)
        return [round_.result], None, None

    threads = args.threads or 1
    if threads > 1:
        with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
            games = list(pool.map(game, range(args.n)))
    else:
        games = []
        for i in range(args.n):
            games.append(game(i))
            if args.progress is not None:
                args.progress(i + 1, args.n)
    cols: Dict[str, List[Any]] = {f.name: [] for f in dataclasses.fields(impl.SimulationResult)}
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
    if args.progress is not None and threads > 1:
        args.progress(args.n, args.n)
    return impl.SimulationResult.from_arrays(rules.players, **cols)
