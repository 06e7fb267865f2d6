"""Doubles (docs/games/doubles.md): its rules class and everything else
particular to it."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..common.rules import (
    DEFAULT_MAX_ROUNDS,
    DEFAULT_TARGET,
    Rules,
    hand_size_option,
    match_options,
)

__all__ = ["Doubles"]


class Doubles(Rules):
    """Doubles (seed 002): every double a spinner, numbers locked until their
    double is down; rounds until a total reaches ``target`` (1..1,000,000),
    or at most ``max_rounds`` rounds (1..100,000, default 1000: a blocked
    round with tied pips scores nothing, so a match need not end otherwise).
    The highest total wins; equal totals share the win.

    >>> r = Doubles(players=2)
    >>> r.set, r.hand_size, r.reserve, r.target, r.max_rounds
    (6, 8, 2, 100, 1000)
    """

    game = "doubles"
    title = "Doubles"
    player_range = (2, 4)
    openspiel_parameters = {"players": 2, "set": 6, "hand_size": 0, "implementation": "default"}
    locks_numbers = True
    redeals_without_double = True
    may_lead_highest_double = True
    line_word = "arm"
    branch_word = "side"
    branch_mark = "(a spinner)"
    branch_angle = 90.0

    __slots__ = ()

    def __init__(
        self,
        players: int = 2,
        set: int = 6,
        hand_size: Optional[int] = None,
        target: int = DEFAULT_TARGET,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        **unknown: Any,
    ) -> None:
        n, p, t = self._set_and_players(set, players, unknown)
        reserve = 2
        default_hand = (8 if p == 2 else 6) * t // 28
        h = hand_size_option(
            hand_size, default_hand, t - reserve, p, f"{p} hands must leave {reserve} tiles in the yard"
        )
        self._freeze(
            set=n,
            players=p,
            hand_size=h,
            slots=4,
            drawn_tile="must",
            reserve=reserve,
            double_blank_50=False,
            **match_options(target, max_rounds),
        )

    @property
    def leads_highest_double(self) -> bool:
        return True

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": self.game,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "target": self.target,
            "max_rounds": self.max_rounds,
        }
