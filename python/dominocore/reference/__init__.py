"""The pure-Python reference implementation of dominocore.

Written apart from the compiled engine, from the docs, so that the two can
be checked against each other move for move: it imports nothing of the
compiled side, and shares with it only the neutral layer ``dominocore.common``
(value types, errors, rules objects, views, messages, checks; see
docs/architecture.md). It needs numpy and the standard library, and exposes
the same API as ``dominocore`` itself.

The engine (``round``, ``match``, ``sim``, ``players``) is shared by every
game; each game is a small module of hooks in ``reference.games``
(``chickenfoot``, ``doubles``, ``block``, ``mexican_train``), registered by
game id in ``reference.games.GAMES``.
"""

from ..common.errors import DominoError, IllegalMoveError, ParseError, RulesError, StateError
from ..common.inference import OpponentModel
from ..common.moves import End, Move, Placement
from ..common.results import RoundResult, SimulationResult
from ..common.rules import Rules, rules_from_dict
from ..common.tiles import Tile, tile_count
from ..common.view import HistoryEntry, PlayerView
from ..games import AllFives, Block, ChickenFoot, Doubles, FivesAndThrees, MexicanTrain
from .learned import Network, load_network, network_for
from .match import Match, match_winners
from .players import GreedyPlayer, LearnedPlayer, RandomPlayer
from .rng import SplitMix64
from .round import Round
from .sim import simulate, simulate_iter
from .vector_env import VectorEnv

IMPLEMENTATION = "python"

__all__ = [
    "Block",
    "ChickenFoot",
    "Doubles",
    "DominoError",
    "End",
    "GreedyPlayer",
    "HistoryEntry",
    "IllegalMoveError",
    "IMPLEMENTATION",
    "LearnedPlayer",
    "Match",
    "Network",
    "MexicanTrain",
    "AllFives",
    "FivesAndThrees",
    "Move",
    "OpponentModel",
    "ParseError",
    "Placement",
    "PlayerView",
    "RandomPlayer",
    "Round",
    "RoundResult",
    "Rules",
    "RulesError",
    "SimulationResult",
    "SplitMix64",
    "StateError",
    "Tile",
    "VectorEnv",
    "rules_from_dict",
    "simulate",
    "simulate_iter",
    "load_network",
    "match_winners",
    "network_for",
    "tile_count",
]
