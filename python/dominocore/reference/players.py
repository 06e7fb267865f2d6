"""The random and greedy players of docs/rules.md 1.6, and the learned one (docs/learning.md 3)."""

from __future__ import annotations

from typing import List, Tuple, Union, cast

from ..common.checks import POLICIES, Guarded, check_policies, check_seed, shown
from ..common.errors import StateError
from ..common.moves import DRAW, PASS, Move
from ..common.policies import ROUND_OVER_MESSAGE, view_moves
from ..common.view import PlayerView, view_fields, view_record
from .games import game_of
from .learned import learned_action
from .rng import PLAYER_SEED_XOR, SplitMix64
from .round import Round, RoundAPI

__all__ = [
    "RandomPlayer", "GreedyPlayer", "LearnedPlayer", "SharedRandom", "check_policies", "POLICIES", "ROUND_OVER_MESSAGE",
]  # fmt: skip


def _round_in_play(round: object) -> Round:
    """``round``, a reference ``Round`` that is not over (``TypeError``, ``StateError``)."""
    if not isinstance(round, RoundAPI):
        raise TypeError(f"expected a dominocore Round or PlayerView, got {shown(round)}")
    r = cast(Round, round)  # RoundAPI is Round's base
    if r.is_over:
        raise StateError(ROUND_OVER_MESSAGE)
    return r


def _moves_of(round: Union["Round", PlayerView], distinct: bool) -> List[Move]:
    """The moves to choose from: a round's (the distinct listing or all), or
    the seat to move's view's (the distinct listing)."""
    if isinstance(round, PlayerView):
        return view_moves(round)
    return _round_in_play(round).legal_moves(distinct=distinct)


class RandomPlayer(Guarded):
    """Picks uniformly among the distinct legal moves with its own SplitMix64,
    seeded with ``seed ^ 0xD1B54A32D192ED03``."""

    _init_marker = "rng"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(check_seed(seed) ^ PLAYER_SEED_XOR)

    def choose(self, round: Union["Round", PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move: the distinct listing either way); ``StateError`` once
        the round is over."""
        moves = _moves_of(round, distinct=True)
        return moves[self.rng.below(len(moves))]

    def __repr__(self) -> str:
        return f"<RandomPlayer {self.rng!r}>"


class GreedyPlayer:
    """Places the tile that would score most in hand (first in canonical order
    on ties); draws if it cannot place, else passes. In the games that score
    during play (docs/games/all_fives.md F13) the placement that scores the
    most points now comes first, then the tile that counts most."""

    def choose(self, round: Union["Round", PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move); ``StateError`` once the round is over."""
        moves = _moves_of(round, distinct=False)
        places = [m for m in moves if m.is_place]
        if places:
            rules = round.rules
            score = rules.tile_score
            move_points = game_of(rules).move_points
            ends = {e.id: e.number for e in round.open_ends}
            layout = round.layout

            def key(m: Move) -> Tuple[int, int]:
                return move_points(rules, layout, ends, m), score(m.tile)

            best, best_key = places[0], key(places[0])
            for m in places[1:]:
                k = key(m)
                if k > best_key:
                    best, best_key = m, k
            return best
        return Move(DRAW) if Move(DRAW) in moves else Move(PASS)

    def __repr__(self) -> str:
        return "<GreedyPlayer>"


class LearnedPlayer:
    """The learned policy (docs/learning.md 3): the legal action with the
    largest logit of the rules' network, the lowest id on ties."""

    def choose(self, round: Union["Round", PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move: the network reads only that seat's observation);
        ``StateError`` once the round is over, or for a view whose fields
        are not those of a round (``RulesError`` without a network)."""
        if isinstance(round, PlayerView):
            return _learned_move_of_view(round)
        r = _round_in_play(round)
        move: Move = r.action_to_move(learned_action(r, r.legal_actions()))
        return move

    def __repr__(self) -> str:
        return "<LearnedPlayer>"


def _learned_move_of_view(view: PlayerView) -> Move:
    """The learned player's move from the view of the seat to move: the
    network reads the observation of the position the view shows
    (``Round._of_view``), and the view's legal moves are numbered by the
    game's action ids there."""
    checked = PlayerView(**view_fields(view_record(view)))  # StateError: a field out of range
    moves = view_moves(checked)  # StateError: over, or not the viewer's turn
    position = Round._of_view(checked)
    try:
        by_action = {position._action_of(m): m for m in moves}
    except KeyError:  # a move on an end that is not open
        by_action = {}
    legal = sorted(by_action)
    if legal != list(checked.legal_actions()):
        raise StateError("inconsistent view: its legal actions are not those of its legal moves")
    return by_action[learned_action(position, legal)]


class SharedRandom:
    """The random seats' shared player in a play loop (docs/rules.md 1.6: the
    random seats of a game share one generator), at a raw generator state;
    ``state()`` reads it back."""

    def __init__(self, state: int) -> None:
        self._player = RandomPlayer()
        self._player.rng.state = state

    def choose(self, round: "Round") -> Move:
        """The random seats' move in ``round``."""
        return self._player.choose(round)

    def state(self) -> int:
        """The generator's raw state."""
        return self._player.rng.state
