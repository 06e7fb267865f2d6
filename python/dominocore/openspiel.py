"""dominocore's games as OpenSpiel games (docs/ecosystem.md 1).

Importing this module registers one OpenSpiel game per dominocore game, under
``dominocore_<game id>``, with the rules options as game parameters::

    import pyspiel
    import dominocore.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
    state = game.new_initial_state()          # the deal starts: chance nodes
    while state.is_chance_node():
        tiles, probs = zip(*state.chance_outcomes())
        state.apply_action(tiles[0])
    state.apply_action(state.legal_actions()[0])

An OpenSpiel game is one round. Chance is explicit (``EXPLICIT_STOCHASTIC``):
the deal is a shuffle drawn tile by tile, each chance node choosing the next
tile uniformly among those left, and the set-up of docs/rules.md (the
starter search, the Doubles redeal, ...) reads the round from it. After the
deal there are no chance nodes: the yard's order is part of the shuffle.
Everything a seat may know comes from dominocore's information model
(docs/information.md): information states, observations, and
``resample_from_infostate`` through exact determinization.

The returns are the seat's round margin: in Chicken Foot and Mexican Train
the other seats' mean points minus its own (points are costs there), in the
other games its own points minus the others' mean. They sum to zero in
every game. In the games that score during play (All Fives, Fives and
Threes) the rewards arrive move by move, each step bringing every seat's
change in margin, and the returns are their sum.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

from ._implementations import implementation as implementation_named
from .common.checks import action_key, check_round_index
from .common.errors import IllegalMoveError, RulesError, StateError
from .common.information import information_state_tensor_size, observation_planes, observation_tensor_size
from .common.messages import illegal_action
from .common.results import last_step_rewards, points_so_far
from .common.rules import Rules
from .common.tiles import Tile
from .games import GAMES
from .openspiel_model import (
    _LONG_NAMES,
    GAME_PARAMETERS,
    PLAYER_RANGE,
    SHORT_NAMES,
    _dealing_text,
    _deck,
    _starter_odds,
    chance_nodes_per_deal,
    deal_from_shuffle,
    information_state_planes,
    max_game_length,
    observation_text,
    rules_of,
    short_name,
    shuffle_of_deal,
    utility_range,
)

__all__ = [
    "GAME_PARAMETERS",
    "GAME_CLASSES",
    "PLAYER_RANGE",
    "SHORT_NAMES",
    "DominoGame",
    "DominoState",
    "DominoObserver",
    "short_name",
    "rules_of",
    "utility_range",
    "max_game_length",
    "chance_nodes_per_deal",
    "observation_planes",
    "information_state_planes",
    "observation_text",
    "deal_from_shuffle",
    "shuffle_of_deal",
    "load",
    "resampler",
]


#: The game parameters of each game id, with their defaults (the rules'
#: options, docs/rules.md). ``hand_size=0`` and ``trains=0`` stand for the
#: rules' own defaults; ``round_index`` is the round played (its start double
#: or engine, its leader); ``implementation`` is ``"default"`` (``import
#: dominocore``), ``"cpp"`` or ``"python"`` (``dominocore.reference``).
class DominoObserver:
    """An OpenSpiel observer (the ``PyObserver`` interface of
    ``open_spiel/python/observation.py``) over dominocore's information
    model: with ``perfect_recall`` the information state
    (``round.information_state`` / ``information_state_tensor``), else the
    observation (``observation_tensor`` and ``observation_text``). Both
    hold public information and the observer's own private information
    (``PrivateInfoType.SINGLE_PLAYER``); other observation types raise
    ``ValueError``. ``tensor`` is the flat float32 vector, ``dict`` its
    named planes (views of it). During the deal (chance nodes) the tensor
    is all zeros and the string says the deal is under way."""

    def __init__(self, rules: Rules, iig_obs_type: Any, params: Optional[Dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "dominocore observers give public information plus the observer's own private "
                f"information only (public_info=True, private_info=SINGLE_PLAYER); got {iig_obs_type}"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if self.perfect_recall:
            planes, size = information_state_planes(rules), information_state_tensor_size(rules)
        else:
            planes, size = observation_planes(rules), observation_tensor_size(rules)
        if sum(int(np.prod(shape)) for _, shape in planes) != size:  # pragma: no cover - the model changed
            raise RuntimeError("dominocore's tensor layout does not match the observer's planes")
        self.tensor = np.zeros(size, np.float32)
        self.dict: Dict[str, np.ndarray] = {}
        offset = 0
        for name, shape in planes:
            width = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + width].reshape(shape)
            offset += width

    def set_from(self, state: "DominoState", player: int) -> None:
        """Write ``player``'s information state or observation of ``state``
        into ``tensor`` (and so into ``dict``)."""
        round_ = state.round
        if round_ is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            self.tensor[:] = round_.information_state_tensor(player)
        else:
            round_.observation_tensor(player, out=self.tensor)

    def string_from(self, state: "DominoState", player: int) -> str:
        """``player``'s information state string (perfect recall) or the
        text of what it observes now."""
        return state._text(player, self.perfect_recall)


class DominoGame(pyspiel.Game):
    """One dominocore game (``game_id``, a key of ``GAME_PARAMETERS``) as an
    OpenSpiel game: one round of the rules the parameters name.

    ``rules`` is the rules object, ``round_index`` the round played,
    ``module`` the dominocore implementation that plays it."""

    def __init__(self, game_id: str, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.game_id = game_id
        self.rules = rules_of(game_id, params)
        implementation = params.get("implementation", "default")
        self.implementation = implementation
        self.module: ModuleType = implementation_named(implementation)
        self.round_index: int = check_round_index(self.rules, params.get("round_index", 0))
        low, high = utility_range(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_actions,
            max_chance_outcomes=self.rules.tile_count,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=max_game_length(self.rules),
        )
        super().__init__(_GAME_TYPES[game_id], info, self._normalized())

    def _normalized(self) -> Dict[str, Any]:
        # The parameters as the rules read them (defaults resolved), so that
        # the game's string names these exact rules.
        rules = self.rules.to_dict()
        out: Dict[str, Any] = {}
        for name, default in GAME_PARAMETERS[self.game_id].items():
            out[name] = rules.get(name, default)
        if "round_index" in out:
            out["round_index"] = self.round_index
        out["implementation"] = self.implementation
        return out

    def new_initial_state(self, *args: Any) -> "DominoState":
        """The root: the deal's first chance node."""
        return DominoState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The chance nodes of one deal (a Doubles deal without a double is
        dealt again: rare, and unbounded in principle)."""
        return chance_nodes_per_deal(self.rules, self.round_index)

    def new_initial_state_from_round(self, round_: Any) -> "DominoState":
        """A state holding ``round_`` (a dominocore ``Round`` of this game's
        rules and round index, as dealt by ``Round(rules, seed=...)`` or
        loaded by ``Round.from_dict``): its deal as chance outcomes
        (``shuffle_of_deal``), then its moves, in the OpenSpiel history.
        ``StateError`` for a deal no shuffle gives, or for a placement that
        is not the one its action id stands for (an action takes the lowest
        of equivalent ends: play such rounds with ``legal_moves(distinct=True)``
        or action ids)."""
        if not hasattr(round_, "move_stack") or getattr(round_, "rules", None) != self.rules:
            raise StateError(f"expected a Round of {self.rules!r}, got {round_!r}")
        if round_.round_index != self.round_index:
            raise StateError(f"expected round index {self.round_index}, got {round_.round_index}")
        state = DominoState(self)
        for outcome in shuffle_of_deal(round_):
            if state.is_chance_node():
                state.apply_action(outcome)
        for ply, move in enumerate(round_.move_stack, 1):
            action = state.round.move_to_action(move)
            if state.round.action_to_move(action) != move:
                # an action id stands for the lowest of equivalent ends (docs/rules.md 1.8)
                raise StateError(
                    f"move {ply} ({move}) is not its action's placement ({state.round.action_to_move(action)}): "
                    "a round played with a placement outside the distinct listing has no OpenSpiel history"
                )
            state.apply_action(action)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None) -> DominoObserver:
        """An observer of this game (``DominoObserver``); without a type, the
        observation (no perfect recall)."""
        return DominoObserver(self.rules, iig_obs_type, params)


class DominoState(pyspiel.State):
    """A round of a ``DominoGame``: first the deal's chance nodes, then the
    dominocore ``Round`` it deals (``state.round``, ``None`` during the deal;
    treat it as read-only, or the OpenSpiel history goes out of step).
    Player action ids are the game's own (``rules.num_actions``); chance
    outcomes are tile indices (and, first in ``trains``, the starter)."""

    def __init__(self, game: DominoGame) -> None:
        super().__init__(game)
        self._round: Any = None
        self._shuffle: List[int] = []  # the current deal's chance outcomes
        self._redeals = 0  # Doubles deals without a double, dealt again

    @property
    def round(self) -> Any:
        """The dominocore ``Round`` (``None`` while the deal is under way)."""
        return self._round

    def _game(self) -> DominoGame:
        return self.get_game()  # type: ignore[no-any-return]

    # -- chance: the deal
    def _left(self) -> List[int]:
        game = self._game()
        dealt = set(self._shuffle[1:] if game.rules.searches_starter else self._shuffle)
        return [t for t in _deck(game.rules, game.round_index) if t not in dealt]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """The next shuffled tile, uniform over the tiles left (first, in
        ``trains``, the starter, with its odds: docs/rules.md 2.6); none
        once the round is dealt."""
        if self._round is not None:
            return []
        game = self._game()
        if game.rules.searches_starter and not self._shuffle:
            return _starter_odds(game.rules, game.round_index)
        left = self._left()
        return [(t, 1.0 / len(left)) for t in left]

    def _deal(self, outcome: int) -> None:
        game = self._game()
        if outcome not in [o for o, _ in self.chance_outcomes()]:
            raise StateError(f"{outcome} is not a chance outcome here")
        self._shuffle.append(outcome)
        left = self._left()
        if game.rules.searches_starter and len(self._shuffle) == 1:
            return
        if len(left) > 1:
            return
        arguments = deal_from_shuffle(game.rules, game.round_index, self._shuffle + left)
        if arguments is None:  # Doubles: no double dealt, deal again
            self._shuffle = []
            self._redeals += 1
            return
        self._round = game.module.Round.from_deal(game.rules, **arguments)

    # -- the OpenSpiel state API
    def current_player(self) -> int:
        """The seat to move; ``CHANCE`` during the deal, ``TERMINAL`` once over."""
        if self._round is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._round.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._round.current_player)

    def _legal_actions(self, player: int) -> List[int]:
        """The legal action ids, ascending (the distinct moves of docs/rules.md 1.7)."""
        return list(self._round.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Deal the chance outcome, or play the move of ``action``
        (``IllegalMoveError`` when it is not legal)."""
        if self._round is None:
            self._deal(int(action))
        else:
            self._round.apply_action(int(action))

    def _refuse_non_integer(self, action: Any) -> int:
        # Action ids are integers (docs/validation.md, "Integers"): pybind11
        # would take True for 1 (and refuse a float with a TypeError).
        # Anything else is refused as Round.apply_action refuses it, with
        # nothing changed: at a decision node by the round itself (its own
        # IllegalMoveError), during the deal the same error over the outcomes.
        key = action_key(action)
        if self._round is not None and (key is None or not 0 <= key < self._game().rules.num_actions):
            self._round.apply_action(action)  # raises IllegalMoveError("illegal_action"); nothing moves
        if key is None:
            outcomes = [o for o, _ in self.chance_outcomes()]
            raise IllegalMoveError(
                "illegal_action", illegal_action(action, self._game().rules.tile_count, False, outcomes)
            )
        return key

    def apply_action(self, action: Any) -> None:
        """OpenSpiel's ``apply_action``, for integer action ids only (numpy
        integers too): anything else raises ``IllegalMoveError``
        (``illegal_action``) as ``Round.apply_action`` does, and nothing changes."""
        super().apply_action(self._refuse_non_integer(action))

    def apply_action_with_legality_check(self, action: Any) -> None:
        """As ``apply_action`` (integers only), then OpenSpiel's legality check."""
        super().apply_action_with_legality_check(self._refuse_non_integer(action))

    def child(self, action: Any) -> "DominoState":
        """A copy of the state with ``action`` applied (integers only, as ``apply_action``)."""
        key = self._refuse_non_integer(action)
        state: DominoState = self.clone()
        state.apply_action(key)
        return state

    def string_to_action(self, *args: Any) -> int:
        """OpenSpiel's ``string_to_action(player, text)`` (or ``(text)``, for
        the seat to move): the legal action whose ``action_to_string`` is
        ``text``. Only the seat to move has legal actions (as in
        ``legal_actions(player)``): for any other player no text matches
        (``SpielError``), whoever holds what. OpenSpiel's own version looks
        the text up among the mover's legal actions for any player, which
        would tell another seat which placements the mover holds."""
        if len(args) == 2:
            player = action_key(args[0])
            if player is not None and player != self.current_player():
                raise pyspiel.SpielError(f"Couldn't find an action matching {args[1]}")
        return super().string_to_action(*args)  # type: ignore[no-any-return]

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's meaning; for the seat to move, and only for it, also
        the placement it plays now when it is legal (``3-5 by 5 (3-5@7)``).
        Which actions are legal depends on the mover's hand: any other
        player gets the meaning alone, the same in every world it cannot
        tell from this one (docs/ecosystem.md 1.6)."""
        if player == pyspiel.PlayerId.CHANCE:
            game = self._game()
            if game.rules.searches_starter and not self._shuffle:
                return f"starter {action}"
            return f"deal {Tile.from_index(int(action))}"
        text = self._game().rules.describe_action(int(action))
        round_ = self._round
        if (
            round_ is not None
            and not round_.is_over
            and player == round_.current_player
            and int(action) in round_.legal_actions()
        ):
            move = str(round_.action_to_move(int(action)))
            if move not in ("draw", "pass"):
                text += f" ({move})"
        return text

    def is_terminal(self) -> bool:
        """Whether the round is over."""
        return self._round is not None and bool(self._round.is_over)

    def returns(self) -> List[float]:
        """The round margins (``Rules.round_margins``) of the points so far:
        the points scored in play, and the round's points once it is over;
        zeros during the deal and, in the games that score only at the end,
        until the end."""
        if self._round is None:
            return [0.0] * self._game().rules.players
        return self._round.rules.round_margins(points_so_far(self._round))  # type: ignore[no-any-return]

    def rewards(self) -> List[float]:
        """The change in ``returns()`` through the last action: per step in
        the games that score during play (their returns are the sum of the
        rewards), the returns at the end only in the others; zeros at
        chance nodes."""
        if self._round is None:
            return [0.0] * self._game().rules.players
        return last_step_rewards(self._round)

    def _seat(self, player: Optional[int]) -> int:
        if player is None:
            player = self.current_player()
        p = self._game().rules.players
        if isinstance(player, bool) or not 0 <= int(player) < p:
            raise RulesError(f"seat must be between 0 and {p - 1}, got {player}")
        return int(player)

    def _text(self, player: int, perfect_recall: bool) -> str:
        if self._round is None:
            game = self._game()
            return _dealing_text(game.rules, player, game.round_index)
        if perfect_recall:
            return str(self._round.information_state(player))
        return observation_text(self._round.view(player))

    def information_state_string(self, player: Optional[int] = None) -> str:
        """``round.information_state(player)`` (default: the seat to move)."""
        return self._text(self._seat(player), True)

    def observation_string(self, player: Optional[int] = None) -> str:
        """``observation_text(round.view(player))`` (default: the seat to move)."""
        return self._text(self._seat(player), False)

    def information_state_tensor(self, player: Optional[int] = None) -> List[float]:
        """``round.information_state_tensor(player)`` as a list (default: the seat to move)."""
        seat = self._seat(player)
        if self._round is None:
            return [0.0] * information_state_tensor_size(self._game().rules)
        return self._round.information_state_tensor(seat).tolist()  # type: ignore[no-any-return]

    def observation_tensor(self, player: Optional[int] = None) -> List[float]:
        """``round.observation_tensor(player)`` as a list (default: the seat to move)."""
        seat = self._seat(player)
        if self._round is None:
            return [0.0] * observation_tensor_size(self._game().rules)
        return self._round.observation_tensor(seat).tolist()  # type: ignore[no-any-return]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "DominoState":
        """A state with the same public history and ``player_id``'s private
        history, everything hidden from it sampled exactly from the deal's
        distribution given what it knows (``round.determinize``,
        docs/information.md 4); its OpenSpiel history is the world's deal as
        chance outcomes, then the same moves. ``probability_sampler`` (a
        uniform [0, 1) float per call, as ``pyspiel.UniformProbabilitySampler``
        gives) is called twice for the seed. During the deal: a fresh root.
        ``StateError`` once the round is over."""
        seat = self._seat(player_id)
        game = self._game()
        if self._round is None:
            return DominoState(game)
        high = int(probability_sampler() * 2**32) & 0xFFFFFFFF
        low = int(probability_sampler() * 2**32) & 0xFFFFFFFF
        world = self._round.determinize(seat, seed=(high << 32) | low)
        return game.new_initial_state_from_round(world)

    def undone(self) -> "DominoState":
        """A new state one move back (its OpenSpiel history without the last
        action, the same deal). OpenSpiel's ``undo_action`` is not open to
        Python games (it raises); this is the adapter's undo. At the deal or
        during it, ``StateError``."""
        if self._round is None or not self._round.move_stack:
            raise StateError("there is no move to undo: the round is at its deal")
        state = DominoState(self._game())
        for action in self.history()[:-1]:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        """Every hand, the ends, the yard's size and the moves; during the
        deal, the tiles shuffled so far."""
        if self._round is None:
            shuffled = " ".join(str(o) for o in self._shuffle)
            return f"dealing (deal {self._redeals + 1}): {shuffled}"
        moves = " ".join(str(m) for m in self._round.move_stack)
        return f"{self._round}\n  moves: {moves}"


def _game_type(game_id: str) -> Any:
    low, high = PLAYER_RANGE[game_id]
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=_LONG_NAMES[game_id],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS
        if GAMES[game_id].scores_in_play
        else pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(GAME_PARAMETERS[game_id]),
    )


_GAME_TYPES = {game_id: _game_type(game_id) for game_id in GAME_PARAMETERS}


def _game_class(game_id: str) -> type:
    # A class per game: OpenSpiel keeps the creator until the process ends,
    # and a class (unlike a closure) outlives the interpreter's shutdown.
    def __init__(self: DominoGame, params: Optional[Dict[str, Any]] = None) -> None:
        DominoGame.__init__(self, game_id, params)

    name = "".join(part.capitalize() for part in game_id.split("_")) + "Game"
    doc = f"{_LONG_NAMES[game_id]} as the OpenSpiel game ``{short_name(game_id)}`` (see ``DominoGame``)."
    return type(name, (DominoGame,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


#: The OpenSpiel game class of each game id (what ``pyspiel.load_game`` builds).
GAME_CLASSES: Dict[str, type] = {game_id: _game_class(game_id) for game_id in GAME_PARAMETERS}


def resampler(random_state: Any) -> Callable[[Any, int], "DominoState"]:
    """A resampling callback seeded by the caller, for ``ISMCTSBot.set_resampler``.

    OpenSpiel's ``ISMCTSBot`` resamples each world with a fresh
    ``pyspiel.UniformProbabilitySampler``, which is seeded anew in every
    process: a search with ``random_state=np.random.RandomState(0)`` still
    differs from run to run. ``bot.set_resampler(resampler(rng))`` takes each
    world's seed from ``random_state`` instead (a ``numpy.random.RandomState``
    or ``Generator``, or an int seed for a new ``RandomState``), so the same
    seed gives the same search (docs/ecosystem.md 1.8)."""
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        random_state = np.random.RandomState(int(random_state))
    if isinstance(random_state, np.random.RandomState):
        uniform: Callable[[], float] = random_state.random_sample
    elif isinstance(random_state, np.random.Generator):
        uniform = random_state.random
    else:
        raise RulesError(
            f"random_state must be a numpy RandomState or Generator, or an int seed, got {type(random_state).__name__}"
        )

    def resample(state: "DominoState", player: int) -> "DominoState":
        return state.resample_from_infostate(player, uniform)

    return resample


def load(game_id: str, **params: Any) -> DominoGame:
    """``pyspiel.load_game`` of ``dominocore_<game_id>`` with ``params``."""
    return pyspiel.load_game(short_name(game_id), params)  # type: ignore[no-any-return]


_registered = set(pyspiel.registered_names())
for _game_id in GAME_PARAMETERS:
    if short_name(_game_id) not in _registered:
        pyspiel.register_game(_GAME_TYPES[_game_id], GAME_CLASSES[_game_id])
