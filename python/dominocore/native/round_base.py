"""What the compiled ``Round`` is besides its core state: a round built from
an explicit deal, its record (``to_dict``/``from_dict``), pickling, copies,
equality and printing. The compiled engine's own, written apart from the
reference's (docs/architecture.md): the differential run compares the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    from typing_extensions import Self

from ..common.checks import Guarded, as_int, check_keys, check_round_index, shown
from ..common.errors import IllegalMoveError, ParseError, RulesError, StateError
from ..common.extensions import renderer
from ..common.results import RECORD_VERSION
from ..common.rules import Rules, check_rules, rules_from_dict
from ..common.tiles import Tile, TileLike, as_tile
from ..common.view import PlayerView
from .codec import _core, core_rules

__all__ = ["RoundBase"]


class RoundBase(Guarded):
    """The compiled ``Round``'s deal, record, copy and printing methods, over
    what ``Round`` serves from its core: ``_wrap``, ``_rules``, ``hand``,
    ``move_stack``, ``result``, ``clone``, ``_deal_dict`` and ``determinizer``."""

    __slots__ = ()

    # ------------------------------------------------------------ built from a deal, saved, copied, printed

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[TileLike]],
        yard: Iterable[TileLike],
        centre: Optional[TileLike],
        starter: int,
        round_index: int = 0,
        setup_draws: Iterable[TileLike] = (),
        highest_double: bool = False,
        carried: Sequence[int] = (),
    ) -> Self:
        """A round from an explicit position right after the set-up
        (``dominocore.reference.Round.from_deal`` documents the arguments):
        the tiles are read here, and the core checks the deal and its
        set-up facts (``StateError`` for any fault)."""
        check_rules(rules)
        try:
            index = check_round_index(rules, round_index)
            hand_ids = [[as_tile(t).index for t in hand] for hand in hands]
            yard_ids = [as_tile(t).index for t in yard]
            if isinstance(setup_draws, str):
                raise TypeError("setup_draws must be a list of tiles, not a string")
            draw_ids = [as_tile(t).index for t in setup_draws]
            centre_id = -1 if centre is None else as_tile(centre).index
        except (ParseError, RulesError, TypeError) as exc:
            raise StateError(f"malformed deal: {exc}") from None
        if not isinstance(highest_double, bool):
            raise StateError(f"highest_double must be True or False, got {shown(highest_double)}")
        carried_list = _carried(carried)
        if len(hand_ids) != rules.players:
            raise StateError(f"the deal has {len(hand_ids)} hands for {rules.players} players")
        seat = as_int(starter, "starter", 0, rules.players - 1, StateError)
        state = _core.RoundCore(
            core_rules(rules),
            centre_id,
            seat,
            hand_ids,
            yard_ids,
            index,
            setup_draws=draw_ids,
            highest_double=highest_double,
            carried=carried_list,
        )
        made: Self = cls._wrap(rules, state)  # type: ignore[attr-defined]
        return made

    def to_dict(self) -> Dict[str, Any]:
        """The deal (with the set-up's public facts) and the moves since, as
        plain JSON-able data: record format version 2 (docs/information.md 2)."""
        return {
            "version": RECORD_VERSION,
            "rules": self._rules.to_dict(),
            "round_index": self.round_index,
            "deal": self._deal_dict(),
            "moves": [str(m) for m in self.move_stack],
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Self:
        """Rebuild a round from ``to_dict()`` output of either implementation,
        checking every part (``StateError``, docs/validation.md): version 2
        records, and version 1 ones (no set-up facts)."""
        rules, deal = _read_record(data)
        made = cls.from_deal(
            rules,
            deal["hands"],
            deal["yard"],
            deal["centre"],
            deal["starter"],
            data["round_index"],
            deal.get("setup_draws", ()),
            deal.get("highest_double", False),
            deal.get("carried", ()),
        )
        for i, text in enumerate(data["moves"]):
            try:
                made.push(text)
            except (IllegalMoveError, ParseError) as exc:
                raise StateError(f"move {i} ({shown(text)}) of the record cannot be played: {exc}") from None
        return made

    def __reduce__(self) -> Tuple[Any, Tuple[Dict[str, Any]]]:
        return (type(self).from_dict, (self.to_dict(),))

    def __reduce_ex__(self, protocol: Any) -> Tuple[Any, Tuple[Dict[str, Any]]]:
        return self.__reduce__()

    def __copy__(self) -> Self:
        copied: Self = self.clone()  # type: ignore[assignment]
        return copied

    def __deepcopy__(self, memo: Dict[int, Any]) -> Self:
        return self.__copy__()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        return self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        result = self.result
        status = f"over: {result.reason}" if result else f"seat {self.current_player} to move"
        return f"<Round {self._rules!r} round {self.round_index}, {len(self.move_stack)} moves, {status}>"

    def __str__(self) -> str:
        """``str(round)``: a full debugging dump that shows hidden information
        (every hand). Apps must show a seat ``round.render(seat=...)`` instead."""
        lines = [repr(self)]
        for s in range(self._rules.players):
            mark = ">" if s == self.current_player else " "
            lines.append(f"{mark} seat {s}: " + " ".join(map(str, self.hand(s))))
        ends = " ".join(f"{e.id}:{'*' if e.number is None else e.number}" for e in self.open_ends)
        lines.append("  ends: " + ends)
        if self.pending_ends:
            lines.append(f"  pending ({self.obligation}): " + " ".join(map(str, self.pending_ends)))
        lines.append(f"  yard: {self.yard_size}")
        return "\n".join(lines)

    def render(self, seat: Optional[int] = None) -> str:
        """The position as text for seat ``seat`` (``dominocore.text.render``),
        or for a spectator (``None``): only what that seat may see."""
        return renderer("text")(self, seat)

    def _repr_svg_(self) -> str:
        """The layout as SVG for notebooks (``dominocore.svg.render(self)``): public state only."""
        return renderer("svg")(self)

    # ------------------------------------------------------------ a seat's share

    @property
    def hands(self) -> List[List[Tile]]:
        """Every hand, in seat order."""
        return [self.hand(s) for s in range(self._rules.players)]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now: an immutable snapshot holding only the
        public state and the seat's own tiles (docs/information.md 3)."""
        return PlayerView.of(self, seat)

    def pips(self, seat: int) -> int:
        """What ``seat``'s hand counts now (0-0 as 50 where ``double_blank_50``)."""
        score = self._rules.tile_score
        return sum(score(t) for t in self.hand(seat))

    def determinize(self, seat: int, seed: Any = 0) -> Self:
        """A world sampled for ``seat``: ``determinizer(seat).sample(seed)``
        (docs/information.md 4); ``StateError`` once the round is over."""
        world: Self = self.determinizer(seat).sample(seed)  # type: ignore[attr-defined]
        return world


#: The keys of a round record and of its deal, by version (docs/information.md 2).
_RECORD_KEYS = {
    1: ({"rules", "round_index", "deal", "moves"}, {"centre", "starter", "hands", "yard"}),
    2: (
        {"version", "rules", "round_index", "deal", "moves"},
        {"centre", "starter", "hands", "yard", "setup_draws", "highest_double"},
    ),
}


def _carried(carried: Any) -> List[int]:
    """``from_deal``'s ``carried``: a list of ints (the core checks the values:
    one per seat, nonnegative, partners equal, zeros outside the games that
    score during play), ``StateError`` for anything else."""
    if isinstance(carried, (str, bytes, dict)) or not hasattr(carried, "__iter__"):
        raise StateError(f"carried must be a list of ints, one per seat, got {shown(carried)}")
    values = list(carried)
    for v in values:
        if type(v) is not int:
            raise StateError(f"carried must be a list of ints, one per seat, got {shown(carried)}")
        if not 0 <= v <= MAX_CARRIED:
            raise StateError(f"carried value {v} is out of range 0..{MAX_CARRIED}")
    return values


#: The largest match total a round may carry (the core's kMaxCarried).
MAX_CARRIED = 10**9


def _read_record(data: Any) -> Tuple[Rules, Dict[str, Any]]:
    """A round record's rules and deal, once its shape is checked
    (``StateError``): version 2, or version 1 (no ``version`` key, or 1)."""
    if not isinstance(data, dict):
        raise StateError(f"a round record is a dict, got {type(data).__name__}")
    version = data.get("version", 1)
    if type(version) is not int or version not in _RECORD_KEYS:
        raise StateError(f"unsupported round record version {shown(version)} (this version reads 1 and 2)")
    keys, deal_keys = _RECORD_KEYS[version]
    check_keys("round record", data, keys | ({"version"} & data.keys()))
    deal = data["deal"]
    if not isinstance(deal, dict):
        raise StateError("the record's 'deal' must be a dict")
    check_keys("deal", deal, deal_keys | ({"carried"} & deal.keys() if version == 2 else set()))
    try:
        rules = rules_from_dict(data["rules"])
    except RulesError as exc:
        raise StateError(f"bad rules in record: {exc}") from None
    hands = deal["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise StateError("the deal's hands must be a list of lists of tiles")
    if not isinstance(deal["yard"], list) or not isinstance(deal.get("setup_draws", []), list):
        raise StateError("the deal's yard and setup_draws must be lists of tiles")
    if not isinstance(data["moves"], list):
        raise StateError("the record's 'moves' must be a list")
    return rules, deal
