"""What All Fives and Fives and Threes share (docs/games/all_fives.md): the
options and facts of a line game that scores during play, with a spinner.
Each game's own module sets its id, its defaults and its count."""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional, Tuple

from ..common.checks import as_int
from ..common.errors import RulesError
from ..common.rules import (
    DEFAULT_MAX_ROUNDS,
    Rules,
    choice_option,
    flag_option,
    hand_size_option,
    is_zero,
    match_options,
    team_options,
)
from ..common.tiles import Tile

__all__ = ["FivesFamily", "DRAWS", "SPINNERS", "SIDES_OPEN", "OUT_POINTS"]

#: How a seat without a placement draws (all_fives.md F6), the default first.
DRAWS = ("until_playable", "one")
#: Which double is a spinner (F3): the first placed, or none.
SPINNERS = ("first", "none")
#: When the spinner's sides open (F3).
SIDES_OPEN = ("after_ends", "at_once")
#: What going out, or winning a block, scores (F7).
OUT_POINTS = ("nearest_five", "exact", "one")
#: The reserve's default: two tiles, or every undealt tile when fewer are left (F1).
DEFAULT_RESERVE = 2


class FivesFamily(Rules):
    """The base of the games that score during play: one line of play out
    of the lead, a spinner with four arms, drawing from the boneyard, points
    for going out, a match to a target that may end in the middle of a round
    (docs/games/all_fives.md). Not a game itself."""

    #: The double-6 hand sizes by player count (F1, T1).
    hands_d6: ClassVar[Dict[int, int]]
    #: The defaults of the options whose default differs between the games.
    default_spinner: ClassVar[str]
    default_out_points: ClassVar[str]
    default_target: ClassVar[int]

    player_range = (2, 4)
    scores_in_play = True
    option_choices = {"draw": DRAWS, "sides_open": SIDES_OPEN}  # each game adds spinner and out_points
    layout = "arms"
    centre_word = "lead"
    line_word = "arm"
    branch_word = "arm"
    branch_mark = "(the spinner)"
    branch_angle = 90.0

    __slots__ = ()

    def __init__(
        self,
        players: int = 2,
        set: int = 6,
        hand_size: Optional[int] = None,
        reserve: Optional[int] = None,
        draw: str = DRAWS[0],
        spinner: Optional[str] = None,
        sides_open: str = SIDES_OPEN[0],
        out_points: Optional[str] = None,
        target: Optional[int] = None,
        end_in_play: bool = True,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        teams: Optional[int] = None,
        **unknown: Any,
    ) -> None:
        n, p, t = self._set_and_players(set, players, unknown)
        h = hand_size_option(hand_size, self.hands_d6[p] * t // 28, t, p, f"{p} hands of it exceed the {t} tiles")
        undealt = t - p * h
        r = min(DEFAULT_RESERVE, undealt) if reserve is None else as_int(reserve, "reserve", 0, max(0, undealt))
        if r > undealt:
            raise RulesError(f"reserve {r} exceeds the {undealt} tiles left after the deal")
        partnership = team_options(teams, None, p)
        self._freeze(
            set=n,
            players=p,
            hand_size=h,
            slots=1,  # the lead end
            drawn_tile="must",
            reserve=r,
            double_blank_50=False,
            **match_options(self.default_target if target is None else target, max_rounds),
            teams=partnership["teams"],
            draw=choice_option(draw, "draw", DRAWS),
            spinner=choice_option(self.default_spinner if spinner is None else spinner, "spinner", SPINNERS),
            sides_open=choice_option(sides_open, "sides_open", SIDES_OPEN),
            out_points=choice_option(
                self.default_out_points if out_points is None else out_points, "out_points", OUT_POINTS
            ),
            end_in_play=flag_option(end_in_play, "end_in_play"),
        )

    @classmethod
    def from_openspiel(cls, options: Dict[str, Any]) -> Rules:
        """As ``Rules.from_openspiel``; ``teams=0`` means every seat for
        itself, and ``reserve=-1`` the rules' default reserve."""
        if not isinstance(options, dict):
            raise TypeError(f"OpenSpiel options must be a dict, got {type(options).__name__}")
        options = dict(options)
        if is_zero(options.get("teams")):
            options["teams"] = None
        if type(options.get("reserve")) is int and options["reserve"] == -1:
            options["reserve"] = None
        return super().from_openspiel(options)

    @staticmethod
    def points_for_count(count: int) -> int:
        """What a placement scores when the ends count ``count`` (F5, T3)."""
        raise NotImplementedError

    @property
    def most_round_points(self) -> int:
        """A bound on a round's points: every tile placed scoring the most any
        count can (at most four ends, each showing a double of the highest
        number), plus the most going out can score (F7)."""
        best_move = max(self.points_for_count(c) for c in range(8 * self.set + 1))
        pips = super().most_round_points
        end = {"nearest_five": (pips + 4) // 5 * 5, "exact": pips, "one": 1}[str(self.out_points)]
        return self.tile_count * best_move + end

    @property
    def arms(self) -> int:
        """The arms of the layout (F3): 4 with a spinner, 2 without."""
        return 4 if self.spinner == "first" else 2

    @property
    def num_actions(self) -> int:
        """``A*T + 2`` (F9): tile i on arm k is ``A*i + k``; then Draw and Pass."""
        return self.arms * self.tile_count + 2

    def describe_action(self, action: int) -> str:
        """The tile and the arm an id stands for (F9), ``draw`` or ``pass``."""
        action = as_int(action, "action", 0, self.num_actions - 1)
        a, t = self.arms, self.tile_count
        if action == a * t:
            return "draw"
        if action == a * t + 1:
            return "pass"
        index, arm = divmod(action, a)
        return f"{Tile.from_index(index)} on arm {arm}"

    def observation_extra_planes(self) -> List[Tuple[str, Tuple[int, ...]]]:
        """``play_points`` and ``carried`` (each seat's points scored in play
        this round, and its match total before the round, over ``target``),
        ``spinner`` (a spinner is down; its sides are open), and with teams
        ``teammates`` (docs/games/all_fives.md F12)."""
        planes: List[Tuple[str, Tuple[int, ...]]] = [
            ("play_points", (self.players,)),
            ("carried", (self.players,)),
            ("spinner", (2,)),
        ]
        return planes + ([("teammates", (self.players,))] if self.teams else [])

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": self.game,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "reserve": self.reserve,
            "draw": self.draw,
            "spinner": self.spinner,
            "sides_open": self.sides_open,
            "out_points": self.out_points,
            "target": self.target,
            "end_in_play": self.end_in_play,
            "max_rounds": self.max_rounds,
            **({"teams": self.teams} if self.teams else {}),
        }


def openspiel_parameters(default_spinner: str, default_out_points: str, default_target: int) -> Dict[str, Any]:
    """A family game's OpenSpiel options, with their defaults."""
    return {
        "players": 2,
        "set": 6,
        "hand_size": 0,
        "reserve": -1,
        "draw": DRAWS[0],
        "spinner": default_spinner,
        "sides_open": SIDES_OPEN[0],
        "out_points": default_out_points,
        "target": default_target,
        "end_in_play": True,
        "teams": 0,
        "round_index": 0,
        "implementation": "default",
    }
