"""Block (docs/games/block.md): its rules class and everything else
particular to it."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..common.errors import RulesError
from ..common.rules import (
    DEFAULT_MAX_ROUNDS,
    DEFAULT_TARGET,
    TEAM_SCORINGS,
    Rules,
    choice_option,
    hand_size_option,
    is_zero,
    match_options,
    team_options,
)

__all__ = ["Block", "BLOCK_LEADS"]

# docs/games/block.md B1: hand sizes for double-6 by player count.
_BLOCK_HANDS_D6 = {2: 7, 3: 5, 4: 5}
#: Who leads a round (docs/games/block.md B2), the default first; the last is
#: a partnership rule (docs/games/partnership.md P4).
BLOCK_LEADS = ("winner", "highest_double", "puerto_rico")


class Block(Rules):
    """Block (docs/games/block.md): one line of play, no drawing; the tiles
    not dealt stay out of play. Rounds until a total reaches ``target``, at
    most ``max_rounds``; the highest total wins. ``lead`` is ``"winner"``
    (seat 0, then the last round's winner), ``"highest_double"`` or, in
    partnerships, ``"puerto_rico"``. ``teams=2`` with 4 players plays
    partners {0, 2} against {1, 3}; ``team_scoring`` is ``"all_pips"`` or
    ``"fewer_pips"`` (docs/games/partnership.md).

    >>> r = Block()
    >>> r.set, r.players, r.hand_size, r.reserve, r.target, r.lead
    (6, 2, 7, 14, 100, 'winner')
    >>> Block(players=4).hand_size
    5
    """

    game = "block"
    title = "Block"
    player_range = (2, 4)
    openspiel_parameters = {
        "players": 2,
        "set": 6,
        "hand_size": 0,
        "lead": "winner",
        "teams": 0,
        "team_scoring": "all_pips",
        "round_index": 0,
        "implementation": "default",
    }
    option_choices = {"lead": BLOCK_LEADS, "team_scoring": TEAM_SCORINGS}
    has_drawing = False
    may_lead_highest_double = True
    layout = "line"
    centre_word = "lead"

    __slots__ = ()

    def __init__(
        self,
        players: int = 2,
        set: int = 6,
        hand_size: Optional[int] = None,
        target: int = DEFAULT_TARGET,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        lead: str = "winner",
        teams: Optional[int] = None,
        team_scoring: Optional[str] = None,
        **unknown: Any,
    ) -> None:
        n, p, t = self._set_and_players(set, players, unknown)
        h = hand_size_option(hand_size, _BLOCK_HANDS_D6[p] * t // 28, t, p, f"{p} hands of it exceed the {t} tiles")
        partnership = team_options(teams, team_scoring, p)
        lead = choice_option(lead, "lead", BLOCK_LEADS)  # first: a lead of another type is not compared
        if lead == "puerto_rico" and partnership["teams"] is None:
            raise RulesError("lead='puerto_rico' is a partnership rule: it needs teams")
        self._freeze(
            set=n,
            players=p,
            hand_size=h,
            slots=1,  # the lead end
            drawn_tile="must",  # never used: nobody draws
            reserve=t - p * h,  # every undealt tile stays out of play
            double_blank_50=False,
            **match_options(target, max_rounds),
            lead=lead,
            **partnership,
        )

    @classmethod
    def from_openspiel(cls, options: Dict[str, Any]) -> Rules:
        """As ``Rules.from_openspiel``; ``teams=0`` means every seat for
        itself, and ``team_scoring`` is read only with teams."""
        if not isinstance(options, dict):
            raise TypeError(f"OpenSpiel options must be a dict, got {type(options).__name__}")
        options = dict(options)
        if is_zero(options.get("teams")):
            options["teams"] = None
            options.pop("team_scoring", None)
        return super().from_openspiel(options)

    @property
    def leads_highest_double(self) -> bool:
        """Under ``"highest_double"`` in every round; under ``"puerto_rico"``
        the set-up of a round built on its own (round 0 of a match) leads it
        too (docs/games/partnership.md P4)."""
        return self.lead in ("highest_double", "puerto_rico")

    def observation_extra_planes(self) -> List[Tuple[str, Tuple[int, ...]]]:
        """With teams, ``teammates``: a one for every seat on the viewer's
        team, the viewer included (docs/games/partnership.md P5)."""
        return [("teammates", (self.players,))] if self.teams else []

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": self.game,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "lead": self.lead,
            **({"teams": self.teams, "team_scoring": self.team_scoring} if self.teams else {}),
        }
