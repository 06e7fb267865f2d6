"""Rules objects: every option of docs/rules.md, validated on construction."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from .checks import Guarded, as_int, shown
from .errors import RulesError
from .tiles import MAX_SET, MIN_SET, tile_count

__all__ = ["Rules", "ChickenFoot", "Doubles", "Block", "MexicanTrain", "GAMES", "check_rules", "rules_from_dict"]

# docs/rules.md 2.6: hand sizes for double-9 by player count.
_TRAINS_HANDS_D9 = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}
# docs/games/block.md B1: hand sizes for double-6 by player count.
_BLOCK_HANDS_D6 = {2: 7, 3: 5, 4: 5}
# docs/games/mexican_train.md M1: hand sizes for double-12 by player count.
_MEXICAN_HANDS_D12 = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}
#: Block: who leads a round (docs/games/block.md B2).
BLOCK_LEADS = ("winner", "highest_double")


#: Doubles: the largest match target, and the bounds of ``max_rounds``.
MAX_TARGET = 1_000_000
DEFAULT_TARGET = 100
MAX_MAX_ROUNDS = 100_000
DEFAULT_MAX_ROUNDS = 1000


def _reject_unknown(game: str, unknown: Dict[str, Any]) -> None:
    if unknown:
        raise RulesError(f"unknown option(s) for {game}: {', '.join(sorted(unknown))}")


def _hand_size(hand_size: Any, default: int, room: int, players: int, why: str) -> int:
    """``hand_size`` (``default`` when not given), such that ``players`` hands
    fit in the ``room`` tiles a deal may use; ``why`` says what limits it."""
    most = room // players
    h = default if hand_size is None else as_int(hand_size, "hand_size", 1, max(1, most))
    if h > most:
        raise RulesError(f"hand_size {h} does not fit: {why}")
    return h


def _choice(value: Any, name: str, allowed: Tuple[str, ...]) -> str:
    """``value`` if it is one of the names ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be {' or '.join(map(repr, allowed))}, got {shown(value)}")
    return value


def _flag(value: Any, name: str) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {shown(value)}")
    return value


def _match_options(target: Any, max_rounds: Any) -> Dict[str, int]:
    """A match played to a target (Doubles, Block): ``target`` and ``max_rounds``, checked."""
    return {
        "target": as_int(target, "target", 1, MAX_TARGET),
        "max_rounds": as_int(max_rounds, "max_rounds", 1, MAX_MAX_ROUNDS),
    }


class Rules(Guarded):
    """Common base of the rules objects: immutable, hashable, comparable.

    Attributes shared by every game: ``game``, ``rule_set`` (``None``
    outside Chicken Foot), ``set`` (N of double-N), ``players``,
    ``tile_count``, ``hand_size``, ``slots`` (the ends the set-up opens: the
    centre double's, Block's one lead end, Mexican Train's p+1 hub ends),
    ``drawn_tile`` (``"must"``/``"may"``), ``reserve`` (yard tiles never
    drawn: in Block every undealt tile),
    ``double_blank_50``, ``target`` and ``max_rounds`` (``None`` for
    Chicken Foot and Mexican Train, whose matches have N+1 rounds), and
    ``lead`` (Block's lead rule, ``None`` elsewhere).
    """

    game: str
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
    _cache: Dict[str, Any]

    _init_marker = "_cache"  # set last, once every field is
    __slots__ = (
        "game", "rule_set", "set", "players", "hand_size", "slots",
        "drawn_tile", "reserve", "double_blank_50", "target", "max_rounds", "lead", "_cache",
    )  # fmt: skip

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rules objects are immutable")

    def _freeze(self, **fields: Any) -> None:
        fields.setdefault("lead", None)
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        # derived data an implementation may keep (the compiled core's own copy)
        object.__setattr__(self, "_cache", {})

    @property
    def rounds(self) -> Optional[int]:
        """Rounds in a match: N+1 when every round has its own start double
        (Chicken Foot, Mexican Train: double-N down to double-blank); ``None``
        when the match plays to a target (Doubles, Block)."""
        return None if self.target is not None else self.set + 1

    def round_double(self, round_index: int) -> int:
        """The number of round ``round_index``'s start double (Chicken Foot) or
        engine (Mexican Train): N - round_index."""
        return self.set - round_index

    @property
    def tile_count(self) -> int:
        """T, the number of tiles in the set."""
        return tile_count(self.set)

    @property
    def num_actions(self) -> int:
        """Size of the game's fixed action space: ``2*T + 2`` (docs/rules.md
        1.8), or ``T*(p+1) + 2`` in Mexican Train (docs/games/mexican_train.md M7)."""
        return 2 * self.tile_count + 2

    def tile_score(self, tile) -> int:
        """What ``tile`` counts when left in a hand."""
        if self.double_blank_50 and tile.low == 0 and tile.high == 0:
            return 50
        return tile.low + tile.high

    #: Whether a round's points count against the seat that holds them
    #: (Chicken Foot, Mexican Train: the lowest total wins) rather than for
    #: the seat that scores them (Doubles, Block: the highest total wins).
    points_are_costs: bool = False
    #: Whether a seat ever draws from the yard (Block: never; its undealt tiles stay out of play).
    has_drawing: bool = True

    def round_margins(self, points: Sequence[int]) -> List[float]:
        """Each seat's margin in a round that ended with ``points`` per seat:
        the others' mean points minus its own where points are costs, its own
        points minus the others' mean where they are scores. What the search
        bots, the tournaments and the OpenSpiel and PettingZoo bridges reward;
        the margins add up to zero.

        >>> ChickenFoot(players=3).round_margins([0, 10, 20])
        [15.0, 0.0, -15.0]
        >>> Block(players=2).round_margins([12, 0])
        [12.0, -12.0]
        """
        p, total = len(points), sum(points)
        sign = 1.0 if self.points_are_costs else -1.0
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


class ChickenFoot(Rules):
    """Chicken Foot, rule set ``"trains"`` (seed 000) or ``"cross"`` (seed 003).

    >>> r = ChickenFoot(players=4)
    >>> r.set, r.hand_size, r.slots, r.reserve, r.drawn_tile
    (9, 11, 4, 1, 'must')
    >>> ChickenFoot(players=3, rule_set="cross").hand_size
    7
    """

    points_are_costs = True

    __slots__ = ()

    def __init__(
        self,
        players: int = 4,
        set: int = 9,
        rule_set: str = "trains",
        hand_size: Optional[int] = None,
        trains: Optional[int] = None,
        double_blank_50: Optional[bool] = None,
        **unknown: Any,
    ) -> None:
        _reject_unknown("ChickenFoot", unknown)
        _choice(rule_set, "rule_set", ("trains", "cross"))
        n = as_int(set, "set", MIN_SET, MAX_SET)
        p = as_int(players, "players", 2, 8)
        t = tile_count(n)
        if rule_set == "trains":
            most_trains = min(8, n)
            if p > most_trains:
                raise RulesError(
                    f"a double-{n} set is too small for one train per player with {p} players "
                    f"(at most {most_trains} trains)"
                )
            slots = p if trains is None else as_int(trains, "trains", p, most_trains)
            reserve = 2 if p == 2 else 1
            default_hand = _TRAINS_HANDS_D9[p] * (t - 1) // 54
            dealt = t - 1  # the start double is out of the deal
            double_blank_50 = False if double_blank_50 is None else _flag(double_blank_50, "double_blank_50")
            drawn = "must"
        else:
            if trains is not None:
                raise RulesError("the cross has four arms: the 'trains' option belongs to rule_set='trains'")
            if double_blank_50 is not None and double_blank_50 is not True:
                raise RulesError("the cross always counts the double-blank as 50 (double_blank_50 must be True)")
            double_blank_50 = True
            slots, reserve, default_hand, dealt, drawn = 4, 0, 7, t, "may"
        h = _hand_size(hand_size, default_hand, dealt - reserve, p, f"{p} hands must leave {reserve} tiles in the yard")
        self._freeze(
            game="chickenfoot",
            rule_set=rule_set,
            set=n,
            players=p,
            hand_size=h,
            slots=slots,
            drawn_tile=drawn,
            reserve=reserve,
            double_blank_50=double_blank_50,
            target=None,
            max_rounds=None,
        )

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {
            "game": "chickenfoot",
            "rule_set": self.rule_set,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
        }
        if self.rule_set == "trains":
            d["trains"] = self.slots
        d["double_blank_50"] = self.double_blank_50
        return d


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
        _reject_unknown("Doubles", unknown)
        n = as_int(set, "set", MIN_SET, MAX_SET)
        p = as_int(players, "players", 2, 4)
        t = tile_count(n)
        reserve = 2
        default_hand = (8 if p == 2 else 6) * t // 28
        h = _hand_size(hand_size, default_hand, t - reserve, p, f"{p} hands must leave {reserve} tiles in the yard")
        self._freeze(
            game="doubles",
            rule_set=None,
            set=n,
            players=p,
            hand_size=h,
            slots=4,
            drawn_tile="must",
            reserve=reserve,
            double_blank_50=False,
            **_match_options(target, max_rounds),
        )

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": "doubles",
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "target": self.target,
            "max_rounds": self.max_rounds,
        }


class Block(Rules):
    """Block (docs/games/block.md): one line of play, no drawing; the tiles
    not dealt stay out of play. Rounds until a total reaches ``target``, at
    most ``max_rounds``; the highest total wins. ``lead`` is ``"winner"``
    (seat 0, then the last round's winner) or ``"highest_double"``.

    >>> r = Block()
    >>> r.set, r.players, r.hand_size, r.reserve, r.target, r.lead
    (6, 2, 7, 14, 100, 'winner')
    >>> Block(players=4).hand_size
    5
    """

    __slots__ = ()
    has_drawing = False

    def __init__(
        self,
        players: int = 2,
        set: int = 6,
        hand_size: Optional[int] = None,
        target: int = DEFAULT_TARGET,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        lead: str = "winner",
        **unknown: Any,
    ) -> None:
        _reject_unknown("Block", unknown)
        n = as_int(set, "set", MIN_SET, MAX_SET)
        p = as_int(players, "players", 2, 4)
        t = tile_count(n)
        h = _hand_size(hand_size, _BLOCK_HANDS_D6[p] * t // 28, t, p, f"{p} hands of it exceed the {t} tiles")
        self._freeze(
            game="block",
            rule_set=None,
            set=n,
            players=p,
            hand_size=h,
            slots=1,  # the lead end
            drawn_tile="must",  # never used: nobody draws
            reserve=t - p * h,  # every undealt tile stays out of play
            double_blank_50=False,
            **_match_options(target, max_rounds),
            lead=_choice(lead, "lead", BLOCK_LEADS),
        )

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": "block",
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "lead": self.lead,
        }


class MexicanTrain(Rules):
    """Mexican Train (docs/games/mexican_train.md): a train per seat plus the
    public Mexican train, all from the round's engine double in the hub;
    markers, doubles that must be satisfied, N+1 rounds, lowest total wins.

    >>> r = MexicanTrain(players=4)
    >>> r.set, r.hand_size, r.slots, r.reserve, r.drawn_tile, r.num_actions
    (12, 15, 5, 0, 'must', 457)
    """

    points_are_costs = True

    __slots__ = ()

    def __init__(
        self,
        players: int = 4,
        set: int = 12,
        hand_size: Optional[int] = None,
        drawn_tile: str = "must",
        double_blank_50: bool = False,
        **unknown: Any,
    ) -> None:
        _reject_unknown("MexicanTrain", unknown)
        n = as_int(set, "set", MIN_SET, MAX_SET)
        p = as_int(players, "players", 2, 8)
        t = tile_count(n)
        default = max(1, _MEXICAN_HANDS_D12[p] * (t - 1) // 90)
        h = _hand_size(
            hand_size, default, t - 1, p, f"{p} hands of it exceed the {t - 1} tiles left once the engine is out"
        )
        self._freeze(
            game="mexican_train",
            rule_set=None,
            set=n,
            players=p,
            hand_size=h,
            slots=p + 1,  # one hub end per train: the seats' trains, then the Mexican train
            drawn_tile=_choice(drawn_tile, "drawn_tile", ("must", "may")),
            reserve=0,
            double_blank_50=_flag(double_blank_50, "double_blank_50"),
            target=None,
            max_rounds=None,
        )

    @property
    def num_actions(self) -> int:
        """``T*(p+1) + 2``: tile x train, then Draw and Pass (docs/games/mexican_train.md M7)."""
        return self.tile_count * (self.players + 1) + 2

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": "mexican_train",
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "drawn_tile": self.drawn_tile,
            "double_blank_50": self.double_blank_50,
        }


def check_rules(rules: Any) -> None:
    """Raise ``RulesError`` unless ``rules`` is a rules object."""
    if not isinstance(rules, Rules):
        raise RulesError(
            f"expected a rules object (one of {', '.join(c.__name__ for c in GAMES.values())}), got {shown(rules)}"
        )


def rules_from_dict(data: Dict[str, Any]) -> Rules:
    """Rebuild a rules object from ``Rules.to_dict()`` output (validated)."""
    if not isinstance(data, dict):
        raise RulesError(f"rules must be a dict, got {type(data).__name__}")
    if not all(isinstance(key, str) for key in data):
        raise RulesError(f"rules keys must be strings, got {shown(list(data))}")
    fields = dict(data)
    game = fields.pop("game", None)
    cls = GAMES.get(game) if isinstance(game, str) else None
    if cls is None:
        raise RulesError(f"game must be one of {sorted(GAMES)}, got {shown(game)}")
    return cls(**fields)


#: Every game's rules class by game id: the one list of games on the Python side
#: (the reference's hooks are registered under the same ids, reference/games).
GAMES = {"chickenfoot": ChickenFoot, "doubles": Doubles, "block": Block, "mexican_train": MexicanTrain}
