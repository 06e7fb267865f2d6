"""Policies beyond the built-in bots, for ``Match.play`` and ``simulate`` of
both implementations (docs/search.md 5): the search bots by name (with
``policy_options``), bot objects with ``choose(round)``, and Python callables
of a ``PlayerView`` returning a move or an action id.

A policy made of "random", "greedy" and "learned" only runs on each engine's
own fast path; any other policy runs in a Python play loop, where the random seats
still share the game's one random-play generator (docs/rules.md 1.6), so a
plain policy gives the same games either way.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

import numpy as np

from .checks import shown
from .errors import RulesError, StateError
from .extensions import search_policies
from .moves import Move, as_move

__all__ = [
    "CallablePlayer",
    "view_moves",
    "MixedBots",
    "POLICY_NAMES",
    "PLAIN_POLICIES",
    "SEARCH_POLICY_NAMES",
    "check_policy_options",
    "is_bot",
    "is_plain_policy",
    "resolve_players",
    "ROUND_OVER_MESSAGE",
]

#: What a bot says when asked to move in a finished round (StateError), in
#: both engines' players and the searches.
ROUND_OVER_MESSAGE = "the round is over: there is no move to choose"

#: The built-in bots, which each engine plays on its own ("learned": docs/learning.md).
PLAIN_POLICIES = ("random", "greedy", "learned")
#: The searches of ``dominocore.search`` (docs/search.md), by policy name.
SEARCH_POLICY_NAMES = ("ismcts", "pimc", "cheat")
#: Every policy name.
POLICY_NAMES = PLAIN_POLICIES + SEARCH_POLICY_NAMES
_PLAIN = PLAIN_POLICIES


def view_moves(view: Any) -> List[Move]:
    """The moves a bot may choose from in a ``PlayerView``: the viewer's legal
    moves (the distinct listing, docs/rules.md 1.7). ``StateError`` when the
    round was over or it was not the viewer's turn when the view was taken."""
    if view.is_over:
        raise StateError(ROUND_OVER_MESSAGE)
    if view.current_player != view.seat:
        raise StateError(
            f"this is seat {view.seat}'s view, and seat {view.current_player} is to move: "
            "a bot chooses from the view of the seat to move"
        )
    return list(view.legal_moves())


class CallablePlayer:
    """A Python function of a ``PlayerView`` (the seat to move's) returning a
    ``Move`` (or its text) or an action id, as a player."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def choose(self, round: Any) -> Move:
        """The function's move for the seat to move in ``round``."""
        if round.is_over:
            raise StateError(ROUND_OVER_MESSAGE)
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
    """Whether ``policy`` names only the built-in bots ("random", "greedy",
    "learned") and no options: the engines' own fast path."""
    if check_policy_options(policy_options):
        return False
    if isinstance(policy, str):
        return policy in _PLAIN
    if isinstance(policy, (list, tuple)):
        return all(isinstance(p, str) and p in _PLAIN for p in policy)
    return False


def check_policy_options(policy_options: Any) -> Dict[str, Any]:
    """``policy_options`` as a dict: ``None`` (no options) or a mapping of
    search names to dicts of their options; ``RulesError`` for anything else."""
    if policy_options is None:
        return {}
    if not isinstance(policy_options, Mapping):
        raise RulesError(
            f"policy_options must be a dict of options by search name, like {{'ismcts': {{'iterations': 200}}}}, "
            f"got {shown(policy_options)}"
        )
    options = dict(policy_options)
    for name, opts in options.items():
        if not isinstance(name, str) or name not in SEARCH_POLICY_NAMES:
            raise RulesError(f"policy_options: options are for {SEARCH_POLICY_NAMES}, got {shown(name)}")
        if not isinstance(opts, Mapping):
            raise RulesError(f"policy_options[{name!r}] must be a dict of options, got {shown(opts)}")
    return options


def resolve_players(policy: Any, players: int, policy_options: Optional[Dict[str, Any]] = None) -> List[Any]:
    """One entry per seat: "random", "greedy", "learned", or a player object with
    ``choose`` (a search bot made from its name and ``policy_options[name]``,
    one bot per name; a bot object as given; a callable wrapped in
    ``CallablePlayer``). ``RulesError`` for anything else."""
    options = check_policy_options(policy_options)
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
                    made[p] = search_policies()[p](**options.get(p, {}))
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
    ``shared`` (the game's one random-play generator, with ``state()``), the
    greedy seats use ``greedy``, the learned ones ``learned``, the others
    their own ``choose``."""

    def __init__(self, entries: Sequence[Any], shared: Any, greedy: Any, learned: Any) -> None:
        named = {"random": shared, "greedy": greedy, "learned": learned}
        self.seats = [named[e] if isinstance(e, str) else e for e in entries]
        self.shared = shared

    def state(self) -> int:
        """The shared generator's raw state."""
        return int(self.shared.state())

    def play_out(self, round: Any) -> None:
        """Play ``round`` to its end."""
        while not round.is_over:
            round.push(self.seats[round.current_player].choose(round))
