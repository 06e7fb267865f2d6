"""The compiled engine: the public API over the C++ core (``dominocore._core``).

The round state, the bots, matches' rules and batch simulation run in C++;
the modules here convert between the core's integers and the value types of
``dominocore.common``, which both engines share (docs/architecture.md).
Nothing here imports the reference: the two are written apart so that each
checks the other.

- ``codec``: moves as ints, the core's rules, attributes served by the core;
- ``round_base``, ``round``: ``Round`` (deals, records, copies, printing;
  the core state) and its ``Determinizer``;
- ``players``, ``match``, ``sim``, ``vector_env``: the bots, ``Match``,
  ``simulate``/``simulate_iter`` and ``VectorEnv``.
"""

from typing import List

from ..common.errors import DominoError, IllegalMoveError, ParseError, RulesError, StateError
from ..common.inference import OpponentModel
from ..common.moves import End, Move, Placement
from ..common.results import RoundResult, SimulationResult
from ..common.rules import Rules, rules_from_dict
from ..common.tiles import Tile, tile_count
from ..common.view import HistoryEntry, PlayerView
from ..games import AllFives, Block, ChickenFoot, Doubles, FivesAndThrees, MexicanTrain
from .codec import SplitMix64
from .learned import LearnedPlayer, Network, load_network, network_for
from .match import Match, match_winners
from .players import GreedyPlayer, RandomPlayer
from .round import Round
from .sim import simulate, simulate_iter
from .vector_env import VectorEnv

IMPLEMENTATION = "cpp"

__all__: List[str] = [  # the same names as dominocore.reference.__all__ (checked by a test)
    "AllFives", "Block", "ChickenFoot", "Doubles", "FivesAndThrees", "MexicanTrain", "DominoError", "End",
    "GreedyPlayer", "HistoryEntry", "IllegalMoveError", "IMPLEMENTATION", "LearnedPlayer", "Match", "Network",
    "Move", "OpponentModel", "ParseError", "Placement", "PlayerView", "RandomPlayer", "Round", "RoundResult",
    "Rules", "RulesError", "SimulationResult", "SplitMix64", "StateError", "Tile", "VectorEnv", "load_network",
    "match_winners", "network_for", "rules_from_dict", "simulate", "simulate_iter", "tile_count",
]  # fmt: skip
