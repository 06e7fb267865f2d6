"""Search bots: IS-MCTS, PIMC and a cheating MCTS (docs/search.md).

The searches run in the C++ core with the GIL released; these classes hold
the options and turn what they are given (a ``PlayerView``, or a ``Round`` of
either implementation) into a core state. A view needs no round: the core
builds a state with the view's information alone and searches from the
determinizer of the seat, which reads nothing else.

>>> import dominocore as dc
>>> r = dc.Round(dc.Doubles(players=2), seed=3)
>>> bot = dc.ISMCTSPlayer(iterations=200, seed=1)
>>> bot.choose(r.view(r.current_player)) == bot.choose(r)
True
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Optional, Tuple, Union

from .common.checks import MAX_THREADS, as_int, check_seed, shown
from .common.errors import RulesError, StateError
from .common.extensions import register_search_policies
from .common.inference import check_candidates, check_model, core_arguments
from .common.moves import Move
from .common.policies import PLAIN_POLICIES, ROUND_OVER_MESSAGE
from .common.view import PlayerView, register_view_check, view_fields, view_record
from .native.codec import _core, decode
from .native.learned import network_for
from .native.round import Round, state_of_view

__all__ = ["ISMCTSPlayer", "PIMCPlayer", "CheatingMCTSPlayer", "SEARCH_POLICIES"]

_ROLLOUTS = PLAIN_POLICIES
#: What a leaf of the tree is worth (docs/learning.md 5).
_LEAVES = ("rollout", "learned")
#: Where PUCT over the learned prior replaces UCB: nowhere, the searching seat's nodes, every node.
_PRIORS = (False, "seat", True)
_REWARDS = ("margin", "own")
#: The candidate worlds a searched world is resampled from, with a model:
#: resampling costs exactly this many uniform worlds, where exact rejection
#: has no bound (docs/information.md 5).
DEFAULT_CANDIDATES = 8
#: The most worlds a pool of weighted worlds may hold (docs/search.md 2).
MAX_POOL = 1 << 16


#: The fields of a view's record that a rebuilt position must reproduce
#: exactly: everything but the round object's token (and, once the round is
#: over, what the rebuilt position's made-up hands decide: see ``_OVER_FIELDS``).
_PUBLIC_FIELDS: Tuple[str, ...] = (
    "seat", "move_number", "rules", "round_index", "centre", "starter", "current_player", "hand", "hand_sizes",
    "yard_size", "open_ends", "pending_ends", "obligation", "unlocked", "markers", "layout", "drawn_tile",
    "drawing", "history", "setup_draws", "own_setup_draws", "highest_double", "play_points", "carried", "legal_moves",
    "legal_actions",
)  # fmt: skip
#: Once over, a round's points, and whether it ended blocked, depend on the
#: other seats' tiles: the rebuilt position's hands are made up.
_OVER_FIELDS: Tuple[str, ...] = ("current_player", "drawn_tile", "drawing", "legal_moves", "legal_actions")


def _checked_state(view: PlayerView) -> Any:
    """The core state rebuilt from ``view``'s knowledge, with ``StateError``
    unless ``view`` is the view of some real round (docs/validation.md,
    "Views"). The view's fields are first read back through the structural
    checks of ``view_fields`` (a view built by hand may hold anything);
    the core then checks the knowledge and replays the history with every
    move checked (``_core._state_from_knowledge``); last, the view of the
    rebuilt position must equal ``view`` in every public field. Whether a
    deal of the hidden tiles honours every Draw and Pass of the other seats
    is the search's determinizer's question (``StateError`` there)."""
    record = view_record(view)
    checked = PlayerView(**view_fields(record))  # every field in range: the core takes C ints
    rules = checked.rules
    state = state_of_view(checked)
    rebuilt = Round._wrap(rules, state).view(checked.seat).to_dict()
    over = checked.result is not None
    fields = _PUBLIC_FIELDS
    if over:
        real = rebuilt["result"]
        if real is not None:  # an "out" always ends the rebuilt position too, at the same move
            for key in ("reason", "out_seat", "starter", "moves"):
                if real[key] != record["result"][key]:
                    raise StateError(f"inconsistent view: the round's result {key} is not {record['result'][key]!r}")
        else:  # blocked, and the made-up hands hold a placement: what is public of it
            if record["result"]["reason"] != "blocked":
                raise StateError("inconsistent view: the history does not end the round as its result says")
            if rules.has_drawing and checked.yard_size > rules.reserve:
                raise StateError("inconsistent view: a round is blocked only when the yard is down to its reserve")
            fields = tuple(f for f in _PUBLIC_FIELDS if f not in _OVER_FIELDS)
            if checked.legal_moves() or checked.legal_actions():
                raise StateError("inconsistent view: a finished round has no legal moves")
    for key in fields:
        if record[key] != rebuilt[key]:
            raise StateError(
                f"inconsistent view: {key} is not what its history gives ({shown(record[key])}, "
                f"the round's is {shown(rebuilt[key])})"
            )
    return state


def _check_view(view: PlayerView) -> None:
    """``PlayerView.from_dict``'s deep check (registered below)."""
    _checked_state(view)


register_view_check(_check_view)


def _state_from_view(view: PlayerView) -> Any:
    """A core state with ``view``'s information (hidden tiles made up, docs/search.md 4),
    after every check of ``_checked_state``: a search never runs on unchecked data."""
    if view.result is not None:
        raise StateError(ROUND_OVER_MESSAGE)
    if view.current_player != view.seat:
        raise StateError(
            f"it is seat {view.current_player}'s turn, not the viewer's (seat {view.seat}): "
            "a view can only search for its own seat"
        )
    return _checked_state(view)


def _core_state(position: Any, cheat: bool) -> Any:
    """The core state to search from: a compiled ``Round``'s own, else one built from a view."""
    if isinstance(position, Round):
        if position.is_over:
            raise StateError(ROUND_OVER_MESSAGE)
        return position._s
    if isinstance(position, PlayerView):
        if cheat:
            raise RulesError("the cheating search reads the true state: give it a Round, not a PlayerView")
        return _state_from_view(position)
    if hasattr(position, "view") and hasattr(position, "current_player") and hasattr(position, "is_over"):
        if position.is_over:
            raise StateError(ROUND_OVER_MESSAGE)
        if cheat:  # a reference round: its record, loaded by the core
            return Round.from_dict(position.to_dict())._s
        return _state_from_view(position.view(position.current_player))
    raise TypeError(f"expected a Round or a PlayerView, got {shown(position)}")


def _number(value: Any, name: str, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < low:
        raise RulesError(f"{name} must be a finite number >= {low}, got {shown(value)}")
    return float(value)


class _SearchPlayer:
    """The options and the calls shared by the three searches."""

    _algorithm = "ismcts"
    _cheat = False

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        trees: int = 1,
        threads: int = 1,
        seed: int = 0,
        reward: str = "margin",
        max_depth: int = 0,
        model: Any = None,
        candidates: Optional[int] = DEFAULT_CANDIDATES,
        pool: int = 0,
        prior: Union[bool, str] = False,
        leaf: str = "rollout",
    ) -> None:
        self._setup(
            iterations, seconds, c, rollout, trees, threads, seed, reward, max_depth, "trees", model, candidates, pool
        )
        self._learned_options(prior, leaf)

    def _setup(
        self,
        iterations: int,
        seconds: float,
        c: float,
        rollout: str,
        trees: int,
        threads: int,
        seed: int,
        reward: str,
        max_depth: int,
        trees_name: str,
        model: Any,
        candidates: Optional[int],
        pool: int = 0,
    ) -> None:
        self.iterations = as_int(iterations, "iterations", 0, 2**32)
        self.seconds = _number(seconds, "seconds", 0)
        if self.iterations == 0 and self.seconds == 0:
            raise RulesError("give an iteration budget (iterations >= 1) or a time budget (seconds > 0)")
        self.c = _number(c, "c", 0)
        if rollout not in _ROLLOUTS:
            raise RulesError(f"rollout must be one of {_ROLLOUTS}, got {shown(rollout)}")
        self.rollout = rollout
        self.trees = as_int(trees, trees_name, 1, 4096)
        self.threads = as_int(threads, "threads", 1, MAX_THREADS)
        self.seed = check_seed(seed)
        if reward not in _REWARDS:
            raise RulesError(f"reward must be one of {_REWARDS}, got {shown(reward)}")
        self.reward = reward
        self.max_depth = as_int(max_depth, "max_depth", 0, 2**31 - 1)
        self.model = check_model(model)
        if self._cheat and self.model is not None:
            raise RulesError("the cheating search reads every hand: it takes no model of the other seats")
        self.candidates = check_candidates(candidates)
        self.pool = as_int(pool, "pool", 0, MAX_POOL)
        if self.pool and (self.model is None or self._algorithm != "ismcts"):
            raise RulesError("a pool of weighted worlds needs IS-MCTS and a model")
        self._cache = _core.SearchCache()

    def _learned_options(self, prior: Union[bool, str], leaf: str) -> None:
        """The learned network's parts (docs/learning.md 5): PUCT over its
        prior, and what a leaf is worth."""
        if prior not in _PRIORS or not isinstance(prior, (bool, str)):
            raise RulesError(f"prior must be False, True or 'seat', got {shown(prior)}")
        if leaf not in _LEAVES:
            raise RulesError(f"leaf must be one of {_LEAVES}, got {shown(leaf)}")
        if leaf == "learned" and self.reward != "margin":
            raise RulesError("leaf='learned' values a leaf by the learned round margin: it needs reward='margin'")
        self.prior, self.leaf = prior, leaf

    @property
    def _uses_network(self) -> bool:
        learned_model = self.model is not None and self.model.policy == "learned"
        return self.prior is not False or self.leaf == "learned" or self.rollout == "learned" or learned_model

    # The cache of determinizers (docs/search.md 2) is the bot's own: a copy
    # or an unpickled bot starts with an empty one.
    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_cache", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._cache = _core.SearchCache()

    def search(self, position: Any) -> Dict[str, Any]:
        """Search from ``position`` (a ``PlayerView`` of the seat to move, or
        a ``Round``) and return ``move`` with the root statistics: ``moves``
        (the distinct legal moves), ``visits`` and ``mean_reward`` (points,
        for the seat) per move, summed over the trees, ``iterations`` (and
        ``tree_iterations``, each tree's or PIMC world's), ``nodes``,
        ``seconds`` and ``reused`` (the determinizer was the one the bot built
        for this information state before). ``StateError`` once the round is
        over."""
        state = _core_state(position, self._cheat)
        if self._uses_network:  # registers the shipped network; RulesError where there is none
            network_for(position.rules)
        raw = _core._search(
            state,
            self._algorithm,
            self.iterations,
            self.seconds,
            self.c,
            self.rollout,
            self.trees,
            self.threads,
            self.seed,
            self.reward,
            self.max_depth,
            None if self._cheat else self._cache,
            *core_arguments(self.model, self.candidates),
            self.pool,
            _PRIORS.index(self.prior),
            self.leaf,
        )
        raw["move"] = decode(raw["move"])
        raw["moves"] = [decode(code) for code in raw["moves"]]
        return raw

    def choose(self, position: Any) -> Move:
        """The move to play: the root move with the most visits (docs/search.md)."""
        move: Move = self.search(position)["move"]
        return move

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} iterations={self.iterations} seconds={self.seconds} c={self.c} "
            f"rollout={self.rollout!r} trees={self.trees} threads={self.threads} seed={self.seed} "
            f"reward={self.reward!r}"
            + ("" if self.model is None else f" model={self.model!r} candidates={self.candidates!r}")
            + (f" pool={self.pool}" if self.pool else "")
            + (f" prior={self.prior!r}" if self.prior is not False else "")
            + (f" leaf={self.leaf!r}" if self.leaf != "rollout" else "")
            + ">"
        )


class ISMCTSPlayer(_SearchPlayer):
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse
    2012): one tree over the seat's information states, a new world from the
    seat's determinizer every iteration, availability-aware UCB, the move
    with the most visits. ``trees`` independent trees (root parallelism) are
    spread over ``threads``; for a fixed seed and iteration budget the move
    does not depend on ``threads``. ``model`` (an ``OpponentModel`` or a
    policy name) weights the worlds by how likely the other seats' moves were
    under it, each resampled from ``candidates`` uniform worlds (``None``:
    exact, by rejection; docs/information.md 5); with ``pool`` > 0, each
    tree instead weighs ``pool`` uniform worlds once and gives every
    iteration one of them, in proportion to its likelihood. See
    docs/search.md for every option."""

    _algorithm = "ismcts"


class PIMCPlayer(_SearchPlayer):
    """Perfect-information Monte Carlo (Long et al. 2010): ``determinizations``
    worlds from the seat's determinizer, each searched by plain UCT
    (``flat=True``: UCB over the root moves and rollouts only) with
    ``iterations / determinizations`` iterations; the root visits are summed
    over the worlds and the most visited move is played. ``model`` and
    ``candidates`` weight the worlds as ``ISMCTSPlayer``'s do."""

    _algorithm = "pimc"

    def __init__(
        self,
        iterations: int = 1000,
        determinizations: int = 10,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        threads: int = 1,
        seed: int = 0,
        reward: str = "margin",
        flat: bool = False,
        model: Any = None,
        candidates: Optional[int] = DEFAULT_CANDIDATES,
        prior: Union[bool, str] = False,
        leaf: str = "rollout",
    ) -> None:
        self._setup(
            iterations,
            seconds,
            c,
            rollout,
            determinizations,
            threads,
            seed,
            reward,
            1 if flat else 0,
            "determinizations",
            model,
            candidates,
        )
        self._learned_options(prior, leaf)

    @property
    def determinizations(self) -> int:
        """The number of worlds searched."""
        return self.trees


class CheatingMCTSPlayer(_SearchPlayer):
    """CHEATING: plain UCT on the true state (it reads every hand and the
    yard order). An upper bound for evaluations only, never a fair player;
    it takes a ``Round``, not a ``PlayerView``."""

    _algorithm = "cheat"
    _cheat = True


#: The search bots by policy name.
SEARCH_POLICIES: Dict[str, Callable[..., _SearchPlayer]] = {
    cls._algorithm: cls for cls in (ISMCTSPlayer, PIMCPlayer, CheatingMCTSPlayer)
}

register_search_policies(SEARCH_POLICIES)
