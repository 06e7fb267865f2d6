"""The compiled engine's built-in bots (docs/rules.md 1.6): the random
player, the greedy player, and the random seats' shared generator of a
Python play loop. Each plays in C++ on a compiled ``Round``, and from a
``PlayerView`` in Python (the same move).
"""

from __future__ import annotations

from typing import Optional, Union

from ..common import policies
from ..common.checks import Guarded, check_seed
from ..common.moves import DRAW, PASS, Move
from ..common.view import PlayerView
from .codec import _core, decode
from .round import Round, checked_round, state_of_view

__all__ = ["GreedyPlayer", "RandomPlayer", "SharedRandom"]


class RandomPlayer(Guarded):
    """Picks ``moves[below(len(moves))]`` among the distinct legal moves with
    its own SplitMix64 seeded ``seed ^ 0xD1B54A32D192ED03`` (docs/rules.md 1.6)."""

    _init_marker = "_core"

    def __init__(self, seed: int = 0) -> None:
        self._core = _core.RandomPlayerCore(check_seed(seed))

    def choose(self, round: Union[Round, PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move: the distinct listing either way); ``StateError`` once
        the round is over."""
        if isinstance(round, PlayerView):
            moves = policies.view_moves(round)
            return moves[self._core._below(len(moves))]
        return decode(self._core._choose(checked_round(round)))

    def __repr__(self) -> str:
        (state,) = self._core.__getstate__()
        return f"<RandomPlayer SplitMix64(state={state:#018x})>"  # as the reference's


def _greedy_of_view(view: PlayerView) -> Move:
    """The greedy move (docs/rules.md 1.6) among a view's legal moves: the
    first placement of a tile in the distinct listing is the full listing's
    first, so this is the move the core picks in the round itself. Where
    placements score during play (docs/games/all_fives.md F13) the core
    picks it on a position with the view's knowledge: what a move scores
    depends on the public layout only."""
    moves = policies.view_moves(view)
    if view.rules.scores_in_play and view.current_player == view.seat:
        return decode(_core._greedy_move(state_of_view(view)))
    best: Optional[Move] = None
    for move in moves:
        if move.is_place and (best is None or view.rules.tile_score(move.tile) > view.rules.tile_score(best.tile)):
            best = move
    if best is not None:
        return best
    return Move(DRAW) if Move(DRAW) in moves else Move(PASS)


class GreedyPlayer:
    """Places the tile that would score most in hand (first in canonical order
    on ties); draws if it cannot place, else passes."""

    def choose(self, round: Union[Round, PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move); ``StateError`` once the round is over."""
        if isinstance(round, PlayerView):
            return _greedy_of_view(round)
        return decode(_core._greedy_move(checked_round(round)))

    def __repr__(self) -> str:
        return "<GreedyPlayer>"


class SharedRandom:
    """The random seats' shared generator in a Python play loop: the core's
    random player at a raw generator state (docs/rules.md 1.6)."""

    def __init__(self, state: int) -> None:
        self._bots = _core.Bots(["random"], 1, 0)
        self._bots._state = state

    def choose(self, round: Round) -> Move:
        """The random seats' move in ``round``."""
        return decode(self._bots._choose(checked_round(round)))

    def state(self) -> int:
        """The generator's raw state."""
        return int(self._bots._state)
