"""What the reference ``Round`` is besides its rules engine: a round built
from an explicit deal (checked here, docs/engine.md and docs/information.md
2), its record (``to_dict``/``from_dict``), pickling, copies, equality and
printing. The reference's own, written apart from the compiled engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    from typing_extensions import Self


from ..common import information
from ..common.checks import (
    Guarded,
    as_int,
    check_keys,
    check_round_index,
    shown,
)
from ..common.errors import IllegalMoveError, ParseError, RulesError, StateError
from ..common.extensions import renderer
from ..common.moves import DRAW, PASS, Move
from ..common.results import RECORD_VERSION
from ..common.rules import Rules, check_rules, rules_from_dict
from ..common.tiles import Tile, TileLike, as_tile, tiles_of_set
from ..common.view import PlayerView
from .games import game_of
from .scoring import check_carried

__all__ = ["DRAW_MOVE", "PASS_MOVE", "RoundAPI", "probe_tile", "tile_index"]

_INDEX = {t: t.index for t in tiles_of_set(18)}


def tile_index(tile: Tile) -> int:
    return _INDEX[tile]


#: The two moves that are not placements, made once.
DRAW_MOVE, PASS_MOVE = Move(DRAW), Move(PASS)


def probe_tile(number: Optional[int]) -> Tile:
    """The tile that asks whether an end of ``number`` is open to a seat:
    the double of its number (0-0 for an end without one)."""
    return Tile(number or 0, number or 0)


class RoundAPI(Guarded):
    """What every implementation's ``Round`` derives from its core queries:
    hand-built deals, records, pickling, copies, equality and printing.
    Subclasses provide ``rules``, ``round_index``, ``hand``, ``move_stack``,
    ``result``, ``clone``, ``_from_valid_deal`` (a checked deal, as Tiles; its
    centre may be ``None`` in Block), ``_deal_dict`` (the deal as record data)
    and ``determinizer``."""

    __slots__ = ()

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
        """A round from an explicit position right after the set-up.

        ``hands`` and ``yard`` (top first; Block: the tiles out of play) hold
        every tile of the set but the ``centre`` exactly once. ``centre`` is
        the tile the set-up placed for the ``starter``: Chicken Foot's start
        double (the round's), Doubles' centre double (any), Mexican Train's
        engine (the round's); in Block ``None`` (the starter leads by a move)
        or any double (already led). Who moves first: the starter in
        ``trains``, Mexican Train and a Block round without a centre; the
        next seat otherwise (the starter's turn was placing the centre).

        The set-up's public facts (docs/information.md 2): ``setup_draws``,
        the cross's search for its double in order (the i-th tile drawn by
        seat ``(round_index + i) mod p`` and held in that seat's hand, the
        last the centre, drawn by the starter; empty when the starter was
        dealt the double, and in every other game); ``highest_double``, that
        the set-up led the highest double dealt (Doubles and Block only: no
        hand holds a higher double, or no double at all when there is no
        centre). ``StateError`` when they are not true of the deal.

        ``carried``: in the games that score during play, each seat's match
        total before the round (docs/games/all_fives.md F8: ints >= 0, one
        per seat, partners equal; empty: zeros). ``StateError`` otherwise,
        and for any nonzero total in the other games.
        """
        index, centre_tile, seat, hand_tiles, yard_tiles, draws, highest = _validated_deal(
            rules, hands, yard, centre, starter, round_index, setup_draws, highest_double
        )
        totals = check_carried(rules, carried)
        made: Self = cls._from_valid_deal(  # type: ignore[attr-defined]
            rules, index, centre_tile, seat, hand_tiles, yard_tiles, draws, highest, totals
        )
        return made

    @property
    def hands(self) -> List[List[Tile]]:
        """Every hand, in index order."""
        return [self.hand(s) for s in range(self.rules.players)]  # type: ignore[attr-defined]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now: an immutable snapshot holding only the
        public state and the seat's own tiles (docs/information.md 3)."""
        return PlayerView.of(self, seat)

    def pips(self, seat: int) -> int:
        """What ``seat``'s hand counts now (0-0 as 50 where ``double_blank_50``)."""
        return sum(self.rules.tile_score(t) for t in self.hand(seat))  # type: ignore[attr-defined]

    def determinize(self, seat: int, seed: Any = 0) -> Self:
        """A world: a full round with this one's public history and ``seat``'s
        private history, the rest sampled uniformly over the worlds consistent
        with what ``seat`` knows (docs/information.md 3, 4). ``seed`` is an
        int or the implementation's ``SplitMix64`` (which then advances). The
        same as ``determinizer(seat).sample(seed)``; a finished round raises
        ``StateError``."""
        world: Self = self.determinizer(seat).sample(seed)  # type: ignore[attr-defined]
        return world

    def to_dict(self) -> Dict[str, Any]:
        """The deal (with the set-up's public facts) and the moves since, as
        plain JSON-able data: record format version 2 (docs/engine.md,
        docs/information.md 2)."""
        return {
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),  # type: ignore[attr-defined]
            "round_index": self.round_index,  # type: ignore[attr-defined]
            "deal": self._deal_dict(),  # type: ignore[attr-defined]
            "moves": [str(m) for m in self.move_stack],  # type: ignore[attr-defined]
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Self:
        """Rebuild a round from ``to_dict()`` output, validating every part
        (``StateError`` for anything malformed, docs/validation.md). Version 2
        records (with the deal's ``carried`` match totals where some is not
        0) and version 1 ones (no ``version`` key, no set-up facts: no
        search draws, ``highest_double`` false) load; any other version is a
        ``StateError``."""
        rules, deal = _parse_record(data)
        self = cls.from_deal(  # type: ignore[attr-defined]
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
                self.push(text)  # type: ignore[attr-defined]
            except (IllegalMoveError, ParseError) as exc:
                raise StateError(f"move {i} ({shown(text)}) of the record cannot be played: {exc}") from None
        return self

    def __reduce__(self):
        return (type(self).from_dict, (self.to_dict(),))

    def __reduce_ex__(self, protocol: Any):
        return self.__reduce__()

    def __copy__(self) -> Self:
        copied: Self = self.clone()  # type: ignore[attr-defined]
        return copied

    def __deepcopy__(self, memo: Dict[int, Any]) -> Self:
        return self.__copy__()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        result = self.result  # type: ignore[attr-defined]
        status = f"over: {result.reason}" if result else f"seat {self.current_player} to move"  # type: ignore[attr-defined]
        moves = len(self.move_stack)  # type: ignore[attr-defined]
        return f"<Round {self.rules!r} round {self.round_index}, {moves} moves, {status}>"  # type: ignore[attr-defined]

    def render(self, seat: Optional[int] = None) -> str:
        """The position as text for seat ``seat`` (``dominocore.text.render``):
        what that seat may see, its own hand, the public layout with its open
        ends, the hand counts, the yard size and whose turn it is; ``None``:
        the public state only, as a spectator sees it."""
        return renderer("text")(self, seat)

    def _repr_svg_(self) -> str:
        """The layout as SVG for notebooks (``dominocore.svg.render(self)``):
        public state only, no hand."""
        return renderer("svg")(self)

    def __str__(self) -> str:
        """``str(round)``: a full debugging dump that shows hidden information
        (every hand). Apps must show a seat ``round.render(seat=...)`` instead."""
        lines = [repr(self)]
        for s in range(self.rules.players):  # type: ignore[attr-defined]
            mark = ">" if s == self.current_player else " "  # type: ignore[attr-defined]
            lines.append(f"{mark} seat {s}: " + " ".join(str(t) for t in self.hand(s)))  # type: ignore[attr-defined]
        ends = self.open_ends  # type: ignore[attr-defined]
        lines.append("  ends: " + " ".join(f"{e.id}:{'*' if e.number is None else e.number}" for e in ends))
        if self.pending_ends:  # type: ignore[attr-defined]
            pending = " ".join(str(e) for e in self.pending_ends)  # type: ignore[attr-defined]
            lines.append(f"  pending ({self.obligation}): {pending}")  # type: ignore[attr-defined]
        lines.append(f"  yard: {self.yard_size}")  # type: ignore[attr-defined]
        return "\n".join(lines)


def _validated_deal(
    rules: Rules, hands, yard, centre, starter, round_index, setup_draws, highest_double
) -> Tuple[int, Optional[Tile], int, list, list, list, bool]:
    """Check an explicit deal (docs/engine.md) and its set-up facts
    (docs/information.md 2); return (round index, centre, starter, hands,
    yard, setup_draws, highest_double) as plain ints, Tiles and a bool (the
    centre may be ``None`` where the game allows it: Block)."""
    check_rules(rules)
    try:
        round_index = check_round_index(rules, round_index)
        centre_tile = None if centre is None else as_tile(centre)
        hand_tiles = [[as_tile(t) for t in hand] for hand in hands]
        yard_tiles = [as_tile(t) for t in yard]
        if isinstance(setup_draws, str):
            raise TypeError("setup_draws must be a list of tiles, not a string")
        draw_tiles = [as_tile(t) for t in setup_draws]
    except (ParseError, RulesError, TypeError) as exc:
        raise StateError(f"malformed deal: {exc}") from None
    if not isinstance(highest_double, bool):
        raise StateError(f"highest_double must be True or False, got {shown(highest_double)}")
    p = rules.players
    if len(hand_tiles) != p:
        raise StateError(f"the deal has {len(hand_tiles)} hands for {p} players")
    starter = as_int(starter, "starter", 0, p - 1, StateError)
    game_of(rules).check_deal(rules, centre_tile, round_index)
    placed = [] if centre_tile is None else [centre_tile]
    _check_conserved(rules, placed + [t for h in hand_tiles for t in h] + yard_tiles)
    _check_search(rules, round_index, centre_tile, starter, hand_tiles, draw_tiles)
    if highest_double:
        _check_highest_double(rules, centre_tile, hand_tiles)
    return round_index, centre_tile, starter, hand_tiles, yard_tiles, draw_tiles, highest_double


def _check_search(
    rules: Rules, round_index: int, centre: Optional[Tile], starter: int, hands: List[List[Tile]], search: List[Tile]
) -> None:
    """The cross's search (docs/information.md 2): only in the cross; the
    i-th tile drawn by seat ``(round_index + i) mod p`` and in that seat's
    hand, no tile twice, the last the centre and drawn by the starter."""
    if not search:
        return
    if not rules.searches_yard:
        raise StateError("setup_draws (the search for the round's double) exist only in Chicken Foot's cross")
    if len(set(search)) != len(search):
        raise StateError("setup_draws holds a tile more than once")
    *searched, last = search
    if last != centre:
        raise StateError(f"the search ends with the round's double (the centre {centre}), not {last}")
    drawers = information.search_drawers(round_index, rules.players, len(search))
    for tile, seat in zip(searched, drawers):
        if tile not in hands[seat]:
            raise StateError(f"search tile {tile} was drawn by seat {seat}, but seat {seat}'s hand lacks it")
    if drawers[-1] != starter:
        raise StateError(
            f"a search of {len(search)} tiles ends with seat {drawers[-1]} drawing the double, "
            f"but the starter is seat {starter}"
        )


def _check_highest_double(rules: Rules, centre: Optional[Tile], hands: List[List[Tile]]) -> None:
    """``highest_double`` (docs/information.md 2): only in the games whose
    set-up may lead the highest double dealt (Doubles and Block), and true of
    the deal: no hand holds a double higher than the centre (no double at all
    when there is no centre)."""
    if not rules.may_lead_highest_double:
        raise StateError("highest_double (the set-up led the highest double dealt) exists only in Doubles and Block")
    doubles = [t for h in hands for t in h if t.is_double]
    if centre is None and doubles:
        raise StateError(f"highest_double without a centre means no hand holds a double, but one holds {doubles[0]}")
    higher = [t for t in doubles if centre is not None and t.high > centre.high]
    if higher:
        raise StateError(f"highest_double: a hand holds {higher[0]}, a double higher than the centre {centre}")


def _parse_record(data: Any) -> Tuple[Rules, Dict[str, Any]]:
    """Check the shape of a round record; return its rules and deal.

    Version 2 has a ``"version": 2`` key and the deal's ``setup_draws`` and
    ``highest_double``; version 1 has none of the three. A ``"version": 1``
    key is read as version 1 (the version it names); any other version is a
    ``StateError``."""
    if not isinstance(data, dict):
        raise StateError(f"a round record is a dict, got {type(data).__name__}")
    version = data.get("version", 1)
    if type(version) is not int or version not in (1, RECORD_VERSION):
        raise StateError(f"unsupported round record version {shown(version)} (this version reads 1 and 2)")
    keys = {"rules", "round_index", "deal", "moves"}
    deal_keys = {"centre", "starter", "hands", "yard"}
    if version == RECORD_VERSION:
        keys.add("version")
        deal_keys |= {"setup_draws", "highest_double"}
    elif "version" in data:
        keys.add("version")
    check_keys("round record", data, keys)
    deal = data["deal"]
    if not isinstance(deal, dict):
        raise StateError("the record's 'deal' must be a dict")
    check_keys("deal", deal, deal_keys | ({"carried"} & set(deal) if version == RECORD_VERSION else set()))
    try:
        rules = rules_from_dict(data["rules"])
    except RulesError as exc:
        raise StateError(f"bad rules in record: {exc}") from None
    if not isinstance(deal["hands"], list) or not isinstance(deal["yard"], list):
        raise StateError("the deal's hands and yard must be lists")
    if not all(isinstance(h, list) for h in deal["hands"]):
        raise StateError("each hand must be a list of tiles")
    if not isinstance(deal.get("setup_draws", []), list):
        raise StateError("the deal's setup_draws must be a list of tiles")
    if not isinstance(data["moves"], list):
        raise StateError("the record's 'moves' must be a list")
    return rules, deal


def _check_conserved(rules: Rules, tiles: List[Tile]) -> None:
    expected = set(tiles_of_set(rules.set))
    seen = set()
    for t in tiles:
        if t not in expected:
            raise StateError(f"tile {t} is not in a double-{rules.set} set")
        if t in seen:
            raise StateError(f"tile {t} appears more than once")
        seen.add(t)
    missing = sorted(expected - seen, key=tile_index)
    if missing:
        raise StateError("tiles missing from the deal: " + ", ".join(str(t) for t in missing))
