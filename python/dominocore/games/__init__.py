"""The games: the one list of them, each in a module of its own.

A game's module holds its rules class (``dominocore.common.rules.Rules``):
its options with their defaults, ranges and validation, its player range
and names, its action space and extra observation planes, how its set-up
finds the first tile (the OpenSpiel chance model reads this), and how text
and SVG draw it. Each engine then has its own hooks for the game: the
reference in ``dominocore.reference.games``, the compiled core in
``cpp/games`` (docs/adding-a-game.md). Nothing outside these places names a
game; shared code reads the rules object.
"""

from __future__ import annotations

from typing import Dict, Tuple, Type

from ..common.rules import Rules
from .all_fives import AllFives
from .block import Block
from .chickenfoot import ChickenFoot
from .doubles import Doubles
from .fives_and_threes import FivesAndThrees
from .mexican_train import MexicanTrain

__all__ = [
    "GAMES", "GAME_CLASSES", "DEFAULT_GAME", "ChickenFoot", "Doubles", "Block", "MexicanTrain", "AllFives",
    "FivesAndThrees",
]  # fmt: skip

#: Every game's rules class, in the order the docs list them.
GAME_CLASSES: Tuple[Type[Rules], ...] = (ChickenFoot, Doubles, Block, MexicanTrain, AllFives, FivesAndThrees)
#: The same, by game id.
GAMES: Dict[str, Type[Rules]] = {cls.game: cls for cls in GAME_CLASSES}
#: The game a tool plays when none is named.
DEFAULT_GAME: str = GAME_CLASSES[0].game
