"""The pure-Python reference implementation of dominocore.

Independent of the compiled core (it needs only the standard library, and
numpy for batch results), so that the two can be checked against each other
move for move. It exposes the same API as ``dominocore`` itself.

The engine (``round``, ``match``, ``sim``, ``players``) is shared by every
game; each game is a small module of hooks in ``reference.games``
(``chickenfoot``, ``doubles``, ``block``, ``mexican_train``), registered by
game id in ``reference.games.GAMES``.
"""

import functools as _functools

from ..common.errors import DominoError, IllegalMoveError, ParseError, RulesError, StateError
from ..common.moves import End, Move, Placement
from ..common.rules import Block, ChickenFoot, Doubles, MexicanTrain, Rules, rules_from_dict
from ..common.tiles import Tile, tile_count
from ..common.view import HistoryEntry, PlayerView
from ..tournaments import tournament as _tournament
from .match import Match, match_winners
from .players import GreedyPlayer, RandomPlayer
from .rng import SplitMix64
from .round import Round, RoundResult
from .sim import SimulationResult, simulate, simulate_iter
from .vector_env import VectorEnv

#: ``dominocore.tournaments.tournament`` on the reference: bots on duplicate deals, rotated seats, statistics.
tournament = _functools.update_wrapper(_functools.partial(_tournament, _implementation="python"), _tournament)

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
    "Match",
    "MexicanTrain",
    "Move",
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
    "match_winners",
    "tile_count",
    "tournament",
]
