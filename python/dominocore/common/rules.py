"""Rules objects: the base every game's rules class builds on.

A game's rules class lives in its own module of ``dominocore.games`` (the
one list of games) and says there everything that is particular to the
game: its options with their defaults, ranges and validation, and the facts
the shared code asks instead of asking which game is running (the class
attributes below). This module names no game: ``rules_from_dict`` finds a
game's class by the id it registers when it is defined.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Type

from .checks import Guarded, as_int, shown
from .errors import RulesError
from .tiles import MAX_SET, MIN_SET, Tile, tile_count

__all__ = ["Rules", "check_rules", "rules_from_dict", "rules_classes"]

#: A match played to a target: the largest target, and the bounds of ``max_rounds``.
MAX_TARGET = 1_000_000
DEFAULT_TARGET = 100
MAX_MAX_ROUNDS = 100_000
DEFAULT_MAX_ROUNDS = 1000

# Every game's rules class by game id, filled as each class is defined.
_CLASSES: Dict[str, "Type[Rules]"] = {}


def rules_classes() -> Dict[str, "Type[Rules]"]:
    """Every rules class defined so far, by game id (``dominocore.games``
    defines them all)."""
    return dict(_CLASSES)


def is_zero(value: Any) -> bool:
    """Whether an OpenSpiel option is the integer 0 ("the rules' default");
    anything else, of any type, goes to the rules' own checks."""
    return type(value) is int and value == 0


def reject_unknown(game: str, unknown: Dict[str, Any]) -> None:
    """Refuse options a game does not have."""
    if unknown:
        raise RulesError(f"unknown option(s) for {game}: {', '.join(sorted(unknown))}")


def hand_size_option(hand_size: Any, default: int, room: int, players: int, why: str) -> int:
    """``hand_size`` (``default`` when not given), such that ``players`` hands
    fit in the ``room`` tiles a deal may use; ``why`` says what limits it."""
    most = room // players
    h = default if hand_size is None else as_int(hand_size, "hand_size", 1, max(1, most))
    if h > most:
        raise RulesError(f"hand_size {h} does not fit: {why}")
    return h


def choice_option(value: Any, name: str, allowed: Tuple[str, ...]) -> str:
    """``value`` if it is one of the names ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be {' or '.join(map(repr, allowed))}, got {shown(value)}")
    return value


def flag_option(value: Any, name: str) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {shown(value)}")
    return value


#: How a team round is scored (docs/games/partnership.md P3), the default first.
TEAM_SCORINGS = ("all_pips", "fewer_pips")


def team_options(teams: Any, team_scoring: Any, players: int) -> Dict[str, Any]:
    """``teams`` and ``team_scoring`` of a game played in partnerships
    (docs/games/partnership.md P1): ``teams`` is ``None`` (every seat for
    itself) or a number k of teams with at least two seats each, p a
    multiple of k; ``team_scoring`` is given only with teams."""
    if teams is None:
        if team_scoring is not None:
            raise RulesError("team_scoring needs teams (the number of teams)")
        return {"teams": None, "team_scoring": None}
    k = as_int(teams, "teams", 2, max(2, players))
    if players % k or players // k < 2:
        raise RulesError(
            f"{players} players cannot sit as {k} teams of two or more partners "
            f"(the number of teams must divide the players, with at least two seats each)"
        )
    scoring = TEAM_SCORINGS[0] if team_scoring is None else choice_option(team_scoring, "team_scoring", TEAM_SCORINGS)
    return {"teams": k, "team_scoring": scoring}


def match_options(target: Any, max_rounds: Any) -> Dict[str, int]:
    """A match played to a target: ``target`` and ``max_rounds``, checked."""
    return {
        "target": as_int(target, "target", 1, MAX_TARGET),
        "max_rounds": as_int(max_rounds, "max_rounds", 1, MAX_MAX_ROUNDS),
    }


class Rules(Guarded):
    """Common base of the rules objects: immutable, hashable, comparable.

    Options every game has: ``rule_set`` (``None`` outside games with rule
    sets), ``set`` (N of double-N), ``players``, ``tile_count``,
    ``hand_size``, ``slots`` (the ends the set-up opens: the centre double's,
    a line's one lead end, a hub's p+1 ends), ``drawn_tile``
    (``"must"``/``"may"``), ``reserve`` (yard tiles never drawn: every
    undealt tile in a game without drawing), ``double_blank_50``,
    ``target`` and ``max_rounds`` (``None`` in games whose matches have N+1
    rounds), ``lead`` (the lead rule, ``None`` where there is none),
    ``teams`` (the number of teams, ``None`` when every seat plays for
    itself) and ``team_scoring`` (how a team round is scored, ``None``
    without teams; docs/games/partnership.md). The games that score during
    play add ``draw``, ``spinner``, ``sides_open``, ``out_points`` and
    ``end_in_play`` (docs/games/all_fives.md); they are ``None`` elsewhere.

    The class attributes from ``game`` on describe the game itself: a
    game's rules class sets those that differ from the defaults here, and
    the shared code (engines, renderers, bridges) reads them.
    """

    #: The game id (``rules.to_dict()["game"]``).
    game: ClassVar[str]
    #: The game's name in titles: ``"Chicken Foot"``.
    title: ClassVar[str]
    #: The fewest and the most seats the game allows.
    player_range: ClassVar[Tuple[int, int]]
    #: The options that take one of a few names, with the names (the default
    #: first): what a command line offers as choices.
    option_choices: ClassVar[Dict[str, Tuple[str, ...]]] = {}

    @classmethod
    def rule_sets(cls) -> Tuple[str, ...]:
        """The game's rule sets (``rule_set``), the default first; none in most games."""
        return cls.option_choices.get("rule_set", ())

    #: Every option OpenSpiel knows the game by, with its default (0 for
    #: "the rules' default"), ``round_index`` and ``implementation`` included.
    openspiel_parameters: ClassVar[Dict[str, Any]]

    #: Whether a round's points count against the seat that holds them
    #: (the lowest total wins) rather than for the seat that scores them
    #: (the highest total wins).
    points_are_costs: ClassVar[bool] = False
    #: Whether a seat ever draws from the yard (no: its undealt tiles stay out of play).
    has_drawing: ClassVar[bool] = True
    #: Whether a number is locked until its double is down (``unlocked`` in the views).
    locks_numbers: ClassVar[bool] = False
    #: Whether placements score during play (docs/games/all_fives.md F5):
    #: the round then keeps ``play_points`` and ``points_stack``, its result
    #: splits ``play_points`` from ``end_points``, and rewards arrive move by move.
    scores_in_play: ClassVar[bool] = False
    #: Whether the set-up's ends are trains, one per seat and one public,
    #: with ``markers`` and an action per tile and train.
    has_seat_trains: ClassVar[bool] = False

    #: How text and SVG draw the layout: ``"tree"`` (lines out of a centre
    #: double, which branch at doubles), ``"line"`` (one line of play, both
    #: ways from the lead), ``"hub"`` (a train per seat and a public
    #: one, out of a hub) or ``"arms"`` (a line both ways from the lead,
    #: and four arms from a spinner).
    layout: ClassVar[str] = "tree"
    #: What the text calls the set-up's tile (``"centre"``, ``"engine"``).
    centre_word: ClassVar[str] = "centre"
    #: What it calls a line out of the set-up's tile, and a line out of a double.
    line_word: ClassVar[str] = "side"
    branch_word: ClassVar[str] = "branch"
    #: How it marks a double that branched: ``"(a spinner)"``, or nothing.
    branch_mark: ClassVar[str] = ""
    #: The angle between the lines out of a double in the SVG, in degrees.
    branch_angle: ClassVar[float] = 45.0

    # How the set-up finds the first tile (docs/rules.md 1.6): read by the
    # OpenSpiel chance model and by the checks of hand-built deals.
    #: The round's double is out of the deal: the set-up places it.
    centre_out_of_deal: ClassVar[bool] = False
    #: A separate shuffle finds who starts (the double's holder in a deal of every tile).
    searches_starter: ClassVar[bool] = False
    #: Seats draw in turn from the yard until the round's double, when no hand holds it.
    searches_yard: ClassVar[bool] = False
    #: A deal may say the set-up led the highest double dealt (``highest_double``),
    #: under some option of the game's (``leads_highest_double`` says when).
    may_lead_highest_double: ClassVar[bool] = False
    #: A deal without any double is dealt again.
    redeals_without_double: ClassVar[bool] = False

    rule_set: Optional[str]
    set: int
    players: int
    hand_size: int
    slots: int
    drawn_tile: str
    reserve: int
    double_blank_50: bool
    target: Optional[int]
    max_rounds: Optional[int]
    lead: Optional[str]
    teams: Optional[int]
    team_scoring: Optional[str]
    draw: Optional[str]
    spinner: Optional[str]
    sides_open: Optional[str]
    out_points: Optional[str]
    end_in_play: Optional[bool]
    _cache: Dict[str, Any]

    _init_marker = "_cache"  # set last, once every field is
    __slots__ = (
        "rule_set", "set", "players", "hand_size", "slots", "drawn_tile", "reserve",
        "double_blank_50", "target", "max_rounds", "lead", "teams", "team_scoring", "draw", "spinner",
        "sides_open", "out_points", "end_in_play", "_cache",
    )  # fmt: skip

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game" in cls.__dict__:  # a game's class, not a family's base
            _CLASSES[cls.game] = cls

    def _set_and_players(self, set: Any, players: Any, unknown: Dict[str, Any]) -> Tuple[int, int, int]:
        """What every game's constructor checks first: no option the game lacks,
        ``set`` in 6..18 and ``players`` in the game's range. Returns N, p and T."""
        reject_unknown(type(self).__name__, unknown)
        n = as_int(set, "set", MIN_SET, MAX_SET)
        p = as_int(players, "players", *self.player_range)
        return n, p, tile_count(n)

    @property
    def leads_highest_double(self) -> bool:
        """Whether the holder of the highest double dealt leads it (the
        record's ``highest_double``)."""
        return False

    @classmethod
    def from_openspiel(cls, options: Dict[str, Any]) -> "Rules":
        """The rules that OpenSpiel options (those of
        ``openspiel_parameters`` but ``round_index`` and ``implementation``)
        stand for: ``hand_size=0`` means the rules' default."""
        if not isinstance(options, dict):
            raise TypeError(f"OpenSpiel options must be a dict, got {shown(options)}")
        if is_zero(options.get("hand_size")):
            options = {**options, "hand_size": None}
        return cls(**options)

    def observation_extra_planes(self) -> List[Tuple[str, Tuple[int, ...]]]:
        """The game's own planes at the end of ``observation_tensor``, named, with their shapes."""
        return []

    def describe_action(self, action: int) -> str:
        """What an action id stands for, whatever the state (docs/rules.md
        1.8): the tile by the half it attaches with, ``draw`` or ``pass``."""
        action = as_int(action, "action", 0, self.num_actions - 1)
        t = self.tile_count
        if action == 2 * t:
            return "draw"
        if action == 2 * t + 1:
            return "pass"
        index, half = divmod(action, 2)
        piece = Tile.from_index(index)
        return f"{piece} by {piece.high if half else piece.low}"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rules objects are immutable")

    def _freeze(self, **fields: Any) -> None:
        fields.setdefault("lead", None)
        fields.setdefault("rule_set", None)
        fields.setdefault("teams", None)
        fields.setdefault("team_scoring", None)
        for name in ("draw", "spinner", "sides_open", "out_points", "end_in_play"):
            fields.setdefault(name, None)
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        # derived data an implementation may keep (the compiled core's own copy)
        object.__setattr__(self, "_cache", {})

    @property
    def rounds(self) -> Optional[int]:
        """Rounds in a match: N+1 when every round has its own start double
        (double-N down to double-blank); ``None`` when the match plays to a
        target."""
        return None if self.target is not None else self.set + 1

    def round_double(self, round_index: int) -> int:
        """The number of round ``round_index``'s start double (or engine), in
        games where each round has its own: N - round_index."""
        return self.set - round_index

    @property
    def tile_count(self) -> int:
        """T, the number of tiles in the set."""
        return tile_count(self.set)

    @property
    def num_actions(self) -> int:
        """Size of the game's fixed action space: ``2*T + 2`` (docs/rules.md
        1.8) unless the game says otherwise."""
        return 2 * self.tile_count + 2

    def tile_score(self, tile) -> int:
        """What ``tile`` counts when left in a hand."""
        if self.double_blank_50 and tile.low == 0 and tile.high == 0:
            return 50
        return tile.low + tile.high

    @property
    def arms(self) -> int:
        """The arms of a layout drawn as arms (``layout == "arms"``: a line
        both ways from the lead and a spinner's two sides); 0 in the others."""
        return 0

    @property
    def most_round_points(self) -> int:
        """A bound on the points of one round, every seat's together: what
        the tiles can count in the hands (0-0 as 50 where it counts so),
        unless the game scores during play and says more."""
        return sum(self.tile_score(Tile.from_index(i)) for i in range(self.tile_count))

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: ``seat mod teams`` (partners sit apart, and
        seats alternate between teams around the table), or ``seat`` itself
        when every seat plays for itself."""
        return seat % self.teams if self.teams else seat

    @property
    def sides(self) -> int:
        """The number of sides that score apart: ``teams``, or ``players``."""
        return self.teams or self.players

    def round_margins(self, points: Sequence[int]) -> List[float]:
        """Each seat's margin in a round that ended with ``points`` per seat:
        the others' mean points minus its own where points are costs, its own
        points minus the others' mean where they are scores. With teams
        (where partners' points are equal: their team's score) a seat's
        margin is its team's, against the other teams' mean, so a seat never
        gains at its partner's cost. What the search bots, the tournaments
        and the OpenSpiel and PettingZoo bridges reward; the margins add up
        to zero over the seats.

        >>> rules_from_dict({"game": "chickenfoot", "players": 3}).round_margins([0, 10, 20])
        [15.0, 0.0, -15.0]
        >>> rules_from_dict({"game": "block", "players": 2}).round_margins([12, 0])
        [12.0, -12.0]
        """
        sign = 1.0 if self.points_are_costs else -1.0
        if self.teams:
            team_points = [points[team] for team in range(self.teams)]  # seat t is on team t
            k, total = self.teams, sum(team_points)
            margins = [sign * ((total - own) / (k - 1) - own) for own in team_points]
            return [margins[self.team_of(seat)] for seat in range(len(points))]
        p, total = len(points), sum(points)
        return [sign * ((total - own) / (p - 1) - own) for own in points]

    def to_dict(self) -> Dict[str, Any]:
        """The options as plain JSON-able data (see ``rules_from_dict``)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.to_dict().items())))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "game")
        return f"{type(self).__name__}({args})"

    def __reduce__(self):
        return (rules_from_dict, (self.to_dict(),))


def check_rules(rules: Any) -> None:
    """Raise ``RulesError`` unless ``rules`` is a rules object."""
    if not isinstance(rules, Rules):
        names = ", ".join(cls.__name__ for cls in _CLASSES.values())
        raise RulesError(f"expected a rules object (one of {names}), got {shown(rules)}")


def rules_from_dict(data: Dict[str, Any]) -> Rules:
    """Rebuild a rules object from ``Rules.to_dict()`` output (validated)."""
    if not isinstance(data, dict):
        raise RulesError(f"rules must be a dict, got {type(data).__name__}")
    if not all(isinstance(key, str) for key in data):
        raise RulesError(f"rules keys must be strings, got {shown(list(data))}")
    fields = dict(data)
    game = fields.pop("game", None)
    cls = _CLASSES.get(game) if isinstance(game, str) else None
    if cls is None:
        raise RulesError(f"game must be one of {sorted(_CLASSES)}, got {shown(game)}")
    return cls(**fields)
