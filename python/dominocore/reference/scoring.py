"""Scoring during play in the reference ``Round`` (docs/games/all_fives.md
F5, F7, F8), a general feature of the round: after each placement the
game's ``score_placement`` hook says what it scores, the points go to the
placer's side (with teams every seat of the team), each move's points are
kept so that ``pop`` takes them back, and a round of a match played to a
target with ``end_in_play`` stops once a side's total reaches it. In the
games that score only at the end every placement scores 0 and none of this
changes anything.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, List, Optional, Sequence, Tuple

from ..common.checks import as_int, shown
from ..common.errors import StateError
from ..common.moves import Move
from ..common.results import RoundResult
from ..common.rules import Rules
from ..common.tiles import Tile

__all__ = ["RoundScoring", "check_carried", "MAX_CARRIED"]

#: The largest match total a round may carry.
MAX_CARRIED = 2**31 - 1


def check_carried(rules: Rules, carried: Any) -> Tuple[int, ...]:
    """``carried`` (each seat's match total before the round) as a tuple of
    ints, zeros for an empty one; ``StateError`` unless it holds one int in
    0..2**31-1 per seat, partners' totals equal, and all zeros in the games
    that do not score during play."""
    p = rules.players
    if carried is None or (isinstance(carried, (list, tuple)) and len(carried) == 0):
        return (0,) * p
    if isinstance(carried, (str, bytes, dict)) or not isinstance(carried, Sequence):
        raise StateError(f"carried must be a list of {p} match totals, one per seat, got {shown(carried)}")
    if len(carried) != p:
        raise StateError(f"carried holds {len(carried)} totals for {p} players")
    values = tuple(as_int(x, f"carried[{s}]", 0, MAX_CARRIED, StateError) for s, x in enumerate(carried))
    if any(values) and not rules.scores_in_play:
        raise StateError(f"carried totals exist only in the games that score during play, got {list(values)}")
    for s, x in enumerate(values):
        partner = values[rules.team_of(s)]
        if x != partner:
            raise StateError(f"partners carry their team's total: seats {rules.team_of(s)} and {s} differ")
    return values


class RoundScoring:
    """The points scored during play of the reference ``Round``."""

    __slots__ = ()

    # The state of ``Round`` these methods use (set in ``Round._begin``; a
    # ``Round`` has no ``__slots__``, so it holds them, not this class).
    _rules: Rules
    _game: ModuleType
    _starter: int
    _moves: List[Move]
    _carried: Tuple[int, ...]
    _play_points: Tuple[int, ...]
    _points: List[int]
    _log: List[Tuple[int, Optional[Tile]]]
    _result: Optional[RoundResult]

    @property
    def play_points(self) -> Tuple[int, ...]:
        """Each seat's points scored during play this round (all_fives.md F5;
        partners hold their team's); zeros in the games that score only at the end."""
        return self._play_points

    @property
    def points_stack(self) -> list:
        """What each move of ``move_stack`` scored during play (0 for draws and passes)."""
        return list(self._points)

    @property
    def carried(self) -> Tuple[int, ...]:
        """Each seat's match total before this round (all_fives.md F8; zeros
        for a round on its own, and in the games that do not score in play)."""
        return self._carried

    def _score(self, mover: int, tile: Optional[Tile]) -> None:
        """Keep what the move just made scores (a placement: the game's
        ``score_placement``; a draw or a pass: 0) and give it to the mover's side."""
        points = 0 if tile is None else self._game.score_placement(self, mover, tile)
        self._points.append(points)
        if points:
            rules = self._rules
            side = rules.team_of(mover)
            self._play_points = tuple(  # type: ignore[misc]  # Round's attribute (see above)
                x + points if rules.team_of(s) == side else x for s, x in enumerate(self._play_points)
            )

    def _target_reached(self) -> bool:
        """F8 ``end_in_play``: the last move scored and brought its side's
        match total (carried plus play points) to ``target`` or more."""
        rules = self._rules
        if not rules.end_in_play or not self._points or not self._points[-1]:
            return False
        mover = self._log[-1][0]
        target = rules.target
        assert target is not None  # set in every game with end_in_play
        return self._carried[mover] + self._play_points[mover] >= target

    def _finish(self, reason: str, out_seat: int) -> None:
        """End the round: the game's points at the end (none when it stopped
        at the target, F8), added to the points scored during play."""
        p = self._rules.players
        end = (0,) * p if reason == "target" else tuple(self._game.score_round(self, reason, out_seat))
        play = self._play_points
        points = tuple(a + b for a, b in zip(play, end))
        self._result = RoundResult(  # type: ignore[misc]  # Round's attribute (see above)
            reason, out_seat, points, self._starter, len(self._moves), play, end
        )
