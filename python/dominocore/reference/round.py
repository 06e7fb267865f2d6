"""One round of any dominocore game, in plain Python (the reference engine).

This module is the engine every game shares: the hands and the yard, the
open ends of the layout (docs/rules.md 1.3), the turn of 1.4 (place, draw or
pass, with its reason codes), push and pop, the end of a round (1.5), action
ids, records and copies. It never asks which game is running: what differs
between games is asked of the game's module of hooks in ``reference/games``
(the set-up, what a double opens, what may attach where, what follows a move,
the score, the action space). Clarity wins over speed: this is the code a
reader checks a rule against.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    from typing_extensions import Self

import numpy as np
from numpy.typing import NDArray

from ..common import information, messages
from ..common.checks import (
    Guarded,
    action_key,
    as_int,
    check_keys,
    check_mask_buffer,
    check_player,
    check_round_index,
    check_seat,
    check_seed,
    check_tensor_buffer,
    shown,
)
from ..common.errors import DominoError, IllegalMoveError, ParseError, RulesError, StateError
from ..common.moves import DRAW, PASS, PLACE, End, Move, MoveLike, Placement, as_move, trusted_move
from ..common.rules import Rules, check_rules, rules_from_dict
from ..common.tiles import Tile, TileLike, as_tile, tiles_of_set
from ..common.view import PlayerView
from .determinize import Determinizer
from .games import game_of
from .games.shared import Deal
from .rng import SplitMix64

__all__ = ["Round", "RoundResult", "RoundAPI"]


class RoundResult(NamedTuple):
    """How a round ended: ``reason`` is ``"out"`` or ``"blocked"``;
    ``out_seat`` is -1 when blocked; ``points`` one number per seat;
    ``starter`` the starting seat; ``moves`` the moves played after set-up."""

    reason: str
    out_seat: int
    points: Tuple[int, ...]
    starter: int
    moves: int


#: What each obligation refuses a placement elsewhere with: (reason code, message).
#: The reason code of each kind of pending obligation.
_OBLIGATIONS = {"start": "start_unfinished", "foot": "foot_unfinished", "double": "double_unsatisfied"}

#: The format version ``to_dict`` writes (docs/information.md 2).
RECORD_VERSION = 2


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
        """
        index, centre_tile, seat, hand_tiles, yard_tiles, draws, highest = _validated_deal(
            rules, hands, yard, centre, starter, round_index, setup_draws, highest_double
        )
        made: Self = cls._from_valid_deal(  # type: ignore[attr-defined]
            rules, index, centre_tile, seat, hand_tiles, yard_tiles, draws, highest
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
        records and version 1 ones (no ``version`` key, no set-up facts: no
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
        from ..text import render

        return render(self, seat)

    def _repr_svg_(self) -> str:
        """The layout as SVG for notebooks (``dominocore.svg.render(self)``):
        public state only, no hand."""
        from ..svg import render

        return render(self)

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


class Round(RoundAPI):
    """The state of one round: hands, yard, layout, whose turn, the result.

    >>> from dominocore.reference import Block, ChickenFoot, MexicanTrain, Round
    >>> r = Round(ChickenFoot(players=4), seed=7)
    >>> r.centre, r.pending_ends
    (9-9, [0, 1, 2, 3])
    >>> move = r.legal_moves()[0]
    >>> r.push(move); r.pop() == move
    True
    >>> Round(Block(), seed=1).open_ends
    [End(id=0, number=None)]
    >>> m = Round(MexicanTrain(players=2), seed=1)
    >>> m.centre, [m.train_of(e.id) for e in m.open_ends], m.markers
    (12-12, [0, 1, 2], (False, False))
    """

    # ------------------------------------------------------------------ set-up

    def __init__(self, rules: Rules, seed: int = 0, round_index: int = 0) -> None:
        """Deal round ``round_index`` of ``rules`` from a generator seeded with ``seed``."""
        self._init_from_generator(rules, SplitMix64(check_seed(seed)), round_index, None)

    @classmethod
    def _from_generator(cls, rules: Rules, rng: SplitMix64, round_index: int, leader: Optional[int] = None) -> "Round":
        """Deal a round from a generator that a match owns; ``leader`` is the
        seat the match chose to lead it (Block), or ``None``."""
        self = cls.__new__(cls)
        self._init_from_generator(rules, rng, round_index, leader)
        return self

    def _init_from_generator(self, rules: Rules, rng: SplitMix64, round_index: int, leader: Optional[int]) -> None:
        check_rules(rules)
        round_index = check_round_index(rules, round_index)
        self._begin(rules, round_index, game_of(rules).set_up(rules, rng, round_index, leader))

    @classmethod
    def _from_valid_deal(
        cls,
        rules: Rules,
        round_index: int,
        centre: Optional[Tile],
        starter: int,
        hands,
        yard,
        setup_draws: Sequence[Tile] = (),
        highest_double: bool = False,
    ) -> "Round":
        self = cls.__new__(cls)
        self._begin(rules, round_index, Deal(centre, starter, hands, yard, tuple(setup_draws), highest_double))
        return self

    def _begin(self, rules: Rules, round_index: int, deal: Deal) -> None:
        """Record the deal, then let the game lay it out (its ``start`` hook)."""
        self._rules = rules
        self._game = game_of(rules)
        self._round_index = round_index
        centre, starter, hands, yard, setup_draws, highest_double = deal
        # The deal as the set-up left it, never changed: records, information
        # states and determinization read it.
        self._deal = Deal(
            centre,
            starter,
            [sorted(h, key=_index) for h in hands],
            list(yard),
            tuple(setup_draws),
            highest_double,
        )
        self._centre = centre
        self._starter = starter
        self._hands: List[set] = [set(h) for h in hands]
        self._yard: List[Tile] = list(yard)
        self._reserve = rules.reserve  # yard tiles never drawn
        # The layout: open end id -> the number it needs (None: any tile, a
        # lead end), and for games of trains, open end id -> its train.
        self._ends: Dict[int, Optional[int]] = {}
        self._trains: Dict[int, int] = {}
        self._next_end = 0
        self._layout: List[Placement] = []
        # An obligation: the ends that must be filled before any other.
        self._pending: Tuple[int, ...] = ()
        self._pending_kind: Optional[str] = None
        self._unlocked = frozenset(range(rules.set + 1))  # no locks unless the game sets some
        self._markers: Tuple[bool, ...] = (False,) * rules.players
        self._drawn: Optional[Tile] = None
        self._current = starter
        self._moves: List[Move] = []
        # Per move played: the seat that made it and, for a Draw, the tile drawn.
        self._log: List[Tuple[int, Optional[Tile]]] = []
        self._undo: List[tuple] = []
        self._result: Optional[RoundResult] = None
        self._game.place_centre(self, centre, starter)
        self._check_end()

    # ----------------------------------------------- the engine API for the games' hooks

    def _open(self, numbers: Sequence[Optional[int]], train: Optional[int] = None) -> Tuple[int, ...]:
        """Open one end per number, with the next end ids (docs/rules.md 1.3),
        on ``train`` if the game has trains; return their ids."""
        created = tuple(range(self._next_end, self._next_end + len(numbers)))
        for end, number in zip(created, numbers):
            self._ends[end] = number
            if train is not None:
                self._trains[end] = train
        self._next_end += len(numbers)
        return created

    def _oblige(self, kind: str, ends: Tuple[int, ...]) -> None:
        """Make ``ends`` the only legal ends until each has a tile (``kind``:
        ``"start"``, ``"foot"`` or ``"double"``)."""
        self._pending, self._pending_kind = ends, kind

    def _mark(self, seat: int, on: bool) -> None:
        """Put a marker on ``seat``'s train, or lift it."""
        markers = list(self._markers)
        markers[seat] = on
        self._markers = tuple(markers)

    # ------------------------------------------------------------ observation

    @property
    def rules(self) -> Rules:
        """The rules this round is played by."""
        return self._rules

    @property
    def round_index(self) -> int:
        """The round's index in its match (Chicken Foot, Mexican Train: starts from double N-k)."""
        return self._round_index

    @property
    def centre(self) -> Optional[Tile]:
        """The tile the set-up placed: the centre double, Mexican Train's engine,
        Block's set-up lead; ``None`` in Block when the leader leads by a move."""
        return self._centre

    @property
    def starter(self) -> int:
        """The seat that started (Block: led) the round."""
        return self._starter

    @property
    def current_player(self) -> int:
        """The seat to move, or -1 once the round is over."""
        return -1 if self._result is not None else self._current

    def hand(self, seat: int) -> List[Tile]:
        """The tiles in ``seat``'s hand, in index order."""
        return sorted(self._hands[check_seat(self._rules.players, seat)], key=_index)

    @property
    def yard(self) -> List[Tile]:
        """The yard, top (next drawn) first (Block: the tiles out of play)."""
        return list(self._yard)

    @property
    def yard_size(self) -> int:
        """How many tiles the yard holds."""
        return len(self._yard)

    @property
    def open_ends(self) -> List[End]:
        """Every open end, by id (Block's lead end has the number ``None``)."""
        return [End(e, n) for e, n in sorted(self._ends.items())]

    def train_of(self, end_id: Any) -> Optional[int]:
        """The train of an open end in Mexican Train (0..p-1 the seats'
        trains, p the Mexican train); ``None`` in other games and for
        anything that is not the id of an open end. Never raises."""
        key = action_key(end_id)
        return None if key is None else self._trains.get(key)

    @property
    def markers(self) -> Tuple[bool, ...]:
        """Per seat, whether its train carries a marker (always False outside Mexican Train)."""
        return self._markers

    @property
    def pending_ends(self) -> List[int]:
        """Ids of the ends that must be filled before any other (start slots,
        toes, or an unsatisfied double's end)."""
        return list(self._pending)

    @property
    def obligation(self) -> Optional[str]:
        """``"start"`` or ``"foot"`` (Chicken Foot), ``"double"`` (Mexican
        Train's unsatisfied double) while such ends are pending, else ``None``."""
        return self._pending_kind if self._pending else None

    @property
    def unlocked(self) -> Tuple[int, ...]:
        """The numbers that non-doubles may attach to (all of them outside Doubles)."""
        return tuple(sorted(self._unlocked))

    @property
    def drawn_tile(self) -> Optional[Tile]:
        """The tile drawn this turn that is still in question, if any."""
        return self._drawn

    @property
    def layout(self) -> List[Placement]:
        """Every placed tile, in the order placed (the tile the set-up placed first, if any)."""
        return list(self._layout)

    @property
    def move_stack(self) -> List[Move]:
        """The moves played since the deal."""
        return list(self._moves)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self._result is not None

    @property
    def result(self) -> Optional[RoundResult]:
        """The result once the round is over, else ``None``."""
        return self._result

    # ------------------------------------------------------------ legal moves

    def _ends_in_play(self) -> List[int]:
        """The ends the obligation allows now (its pending ends, else every
        open end; docs/engine.md 2), in canonical order (see ``_end_order``)."""
        return sorted(self._pending or self._ends, key=self._end_order())

    def _end_order(self) -> Any:
        """The sort key of end ids in canonical order: by train where ends
        belong to trains (Mexican Train M7: each train has one open end),
        else by end id (docs/rules.md 1.7)."""
        return self._trains.__getitem__ if self._trains else None

    def _placements(self, tiles: Iterable[Tile], seat: Optional[int], first_only: bool = False) -> List[Move]:
        """Every placement of ``tiles`` by ``seat`` (``None``: any seat) on an
        end in play that the game's ``may_attach`` allows, in canonical order
        (tile index, then end order). ``first_only`` stops at the first one."""
        ends = self._ends_in_play()
        by_number: Dict[Optional[int], List[int]] = {}
        for e in ends:
            by_number.setdefault(self._ends[e], []).append(e)
        any_tile = by_number.pop(None, [])  # a lead end takes every tile
        if not any_tile:
            tiles = [t for t in tiles if t.low in by_number or t.high in by_number]
        order = self._end_order()
        may_attach = self._game.may_attach
        moves = []
        for tile in sorted(tiles, key=_index):
            ids = by_number.get(tile.low, [])
            if not tile.is_double and tile.high in by_number:
                ids = sorted(ids + by_number[tile.high], key=order)
            if any_tile:
                ids = sorted(ids + any_tile, key=order)
            for e in ids:
                if may_attach(self, seat, tile, e) is None:
                    moves.append(trusted_move(PLACE, tile, e))
                    if first_only:
                        return moves
        return moves

    def _can_place(self, tiles: Iterable[Tile], seat: Optional[int]) -> bool:
        """Whether some tile of ``tiles`` has a legal placement for ``seat`` (docs/engine.md 3)."""
        return bool(self._placements(tiles, seat, first_only=True))

    def legal_moves(self, distinct: bool = False) -> List[Move]:
        """The legal moves in canonical order (docs/rules.md 1.7; Mexican
        Train: by tile, then train, M7).

        With ``distinct=True`` only the first placement is kept for each
        (tile, number it attaches by): the lowest end id (1.7). In Mexican
        Train, where each train has one open end, every placement is kept
        (M7: the distinct listing is the full one). Each action id stands
        for exactly one move of the distinct listing.
        """
        if self._result is not None:
            return []
        mover = self._current
        in_question = [self._drawn] if self._drawn is not None else self._hands[mover]
        places = self._placements(in_question, mover)
        if distinct:
            # Placements of a tile by the same number on the same train (or
            # on no train) are equivalent: keep the first in canonical order.
            seen = set()
            kept = []
            for m in places:
                end: int = m.end  # type: ignore[assignment]  # a placement has an end
                key = (m.tile, self._ends[end], self._trains.get(end))
                if key not in seen:
                    seen.add(key)
                    kept.append(m)
            places = kept
        if self._drawn is not None:
            may_pass = self._rules.drawn_tile == "may" or not places
            return places + ([_PASS] if may_pass else [])
        if places:
            return places
        return [_DRAW] if len(self._yard) > self._reserve else [_PASS]

    def is_legal(self, move: MoveLike, player: Optional[int] = None) -> bool:
        """Whether ``move`` (a Move or its string) is legal now, for ``player``
        if named. Never raises: anything ``push`` would reject is ``False``."""
        try:
            return self._illegal(as_move(move), check_player(self._rules.players, player)) is None
        except DominoError:
            return False

    def _illegal(self, move: Move, player: Optional[int]) -> Optional[str]:
        """The reason code if ``move`` is illegal, in the order of docs/engine.md."""
        if self._result is not None:
            return "round_over"
        if player is not None and player != self._current:
            return "not_your_turn"
        seat = self._current
        reserve = self._reserve
        if move.kind == PLACE:
            tile, end = move.tile, move.end
            assert tile is not None and end is not None  # Move.place guarantees both
            if self._drawn is not None and tile != self._drawn:
                return "not_drawn_tile"
            if tile not in self._hands[seat]:
                return "not_in_hand"
            if end not in self._ends:
                return "end_not_open"
            if self._pending and end not in self._pending:
                return _OBLIGATIONS[self._pending_kind or ""]
            return self._game.may_attach(self, seat, tile, end)
        if move.kind == DRAW:
            if self._drawn is not None:
                return "already_drew"
            if self._can_place(self._hands[seat], seat):
                return "must_place"
            if len(self._yard) <= reserve:
                return "yard_exhausted"
            return None
        # PASS
        if self._drawn is not None:
            if self._rules.drawn_tile == "must" and self._can_place([self._drawn], seat):
                return "must_place_drawn"
            return None
        if self._can_place(self._hands[seat], seat):
            return "must_place"
        if len(self._yard) > reserve:
            return "must_draw"
        return None

    # ------------------------------------------------------------ making moves

    def push(self, move: MoveLike, player: Optional[int] = None) -> None:
        """Play ``move`` (a Move or ``"5-9@2"``/``"draw"``/``"pass"``).

        If ``player`` is given, the move is rejected unless it is that seat's
        turn. An illegal move raises ``IllegalMoveError`` and changes nothing.
        """
        move = as_move(move)
        seat = check_player(self._rules.players, player)
        reason = self._illegal(move, seat)
        if reason is not None:
            raise IllegalMoveError(reason, messages.illegal_move(self, reason, move, seat))
        self._undo.append(self._snapshot())
        mover = self._current
        drawn = None
        if move.kind == PLACE:
            assert move.tile is not None and move.end is not None
            self._place(mover, move.tile, move.end)
        elif move.kind == DRAW:
            drawn = self._drawn = self._yard.pop(0)
            self._hands[mover].add(drawn)  # the same seat moves again
        else:
            self._drawn = None
            self._game.after_pass(self, mover)
        self._moves.append(move)
        self._log.append((mover, drawn))
        self._check_end()

    def _place(self, mover: int, tile: Tile, end: int) -> None:
        """docs/rules.md 1.3: the tile uses up the end and opens new ones."""
        number = self._ends.pop(end)
        train = self._trains.pop(end, None)  # new ends grow on the same train
        self._hands[mover].discard(tile)
        self._drawn = None
        if end in self._pending:
            self._pending = tuple(e for e in self._pending if e != end)
        if number is None:  # a lead end (Block B3): one new end per half
            created = self._open((tile.low, tile.high), train)
        elif tile.is_double:
            created = self._game.double_opens(self, tile, number, train)
        else:
            created = self._open((tile.other(number),), train)
        self._layout.append(Placement(tile, end, number, created))
        self._game.after_place(self, mover, tile, train)

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._moves:
            raise IllegalMoveError("no_move", messages.NO_MOVE)
        self._restore(self._undo.pop())
        self._log.pop()
        return self._moves.pop()

    def _snapshot(self) -> tuple:
        return (
            tuple(frozenset(h) for h in self._hands),
            tuple(self._yard),
            tuple(self._ends.items()),
            tuple(self._trains.items()),
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
            self._markers,
            self._drawn,
            self._current,
            len(self._layout),
            self._result,
        )

    def _restore(self, snap: tuple) -> None:
        (
            hands,
            yard,
            ends,
            trains,
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
            self._markers,
            self._drawn,
            self._current,
            layout_len,
            self._result,
        ) = snap
        self._hands = [set(h) for h in hands]
        self._yard = list(yard)
        self._ends = dict(ends)
        self._trains = dict(trains)
        del self._layout[layout_len:]

    # ------------------------------------------------------------ end of round

    def _check_end(self) -> None:
        """docs/rules.md 1.5, checked after the set-up and after every move.
        Blocked: no seat could place even if every end in play were open to
        it (Mexican Train M5: every train counted as if it carried a marker)."""
        p = self._rules.players
        empty = [s for s in range(p) if not self._hands[s]]
        if empty:
            self._finish("out", empty[0])
        elif len(self._yard) <= self._reserve and not self._can_place(chain.from_iterable(self._hands), None):
            self._finish("blocked", -1)

    def _finish(self, reason: str, out_seat: int) -> None:
        points = self._game.score_round(self, reason, out_seat)
        self._result = RoundResult(reason, out_seat, tuple(points), self._starter, len(self._moves))

    # ------------------------------------------------------------ action ids

    @property
    def num_actions(self) -> int:
        """Size of the game's fixed action space (``rules.num_actions``): ``2*T
        + 2`` (docs/rules.md 1.8), ``T*(p+1) + 2`` in Mexican Train (M7)."""
        return self._rules.num_actions

    def _action_of(self, move: Move) -> int:
        """The id of a legal move: the game numbers the placements; ``Draw``
        and ``Pass`` are the last two ids of every game's space."""
        if move.kind == DRAW:
            return self.num_actions - 2
        if move.kind == PASS:
            return self.num_actions - 1
        return self._game.action_of(self, move)

    def move_to_action(self, move: MoveLike) -> int:
        """The action id of a legal move (a non-distinct placement maps to its distinct twin)."""
        move = as_move(move)
        reason = self._illegal(move, None)
        if reason is not None:
            raise IllegalMoveError(reason, messages.illegal_move(self, reason, move))
        return self._action_of(move)

    def legal_actions(self) -> List[int]:
        """The legal action ids, ascending."""
        return sorted(map(self._action_of, self.legal_moves(distinct=True)))

    def legal_action_mask(self, out: Optional[NDArray[np.bool_]] = None) -> NDArray[np.bool_]:
        """A numpy bool array of ``num_actions`` entries, True at the legal
        action ids; fills ``out`` (a writable, contiguous 1-d bool array of that
        length) in place when given."""
        mask = check_mask_buffer(out, self.num_actions)
        mask[:] = False
        mask[self.legal_actions()] = True
        return mask

    def action_to_move(self, action: int) -> Move:
        """The (distinct) move a legal action id stands for (``IllegalMoveError``
        ``illegal_action`` for anything else, of any type)."""
        key, places = action_key(action), self.num_actions - 2
        move: Optional[Move] = None
        if key is not None and 0 <= key < places:
            move = self._game.action_move(self, key)
        elif key in (places, places + 1):  # Draw, Pass: the last two ids, when legal
            other = _DRAW if key == places else _PASS
            move = other if self._illegal(other, None) is None else None
        if move is None:
            legal = self.legal_actions()
            message = messages.illegal_action(action, self.num_actions, self.is_over, legal)
            raise IllegalMoveError("illegal_action", message)
        return move

    def apply_action(self, action: int, player: Optional[int] = None) -> None:
        """Play the move a legal action id stands for, for ``player`` if named
        (refused unless it is that seat's turn, as ``push``)."""
        seat = check_player(self._rules.players, player)
        if seat is not None and self._result is None and seat != self._current:
            raise IllegalMoveError("not_your_turn", messages.action_not_your_turn(action, self._current, seat))
        self.push(self.action_to_move(action))

    # ------------------------------------------------------------ information (docs/information.md)

    def _history(self) -> List[Tuple[int, Move, Optional[Tile]]]:
        """Every move played, as ``(mover, move, drawn)``: ``drawn`` is the
        tile a Draw took, ``None`` for other moves. Hidden data: internal use
        only (views, information states, determinization)."""
        return [(mover, move, drawn) for move, (mover, drawn) in zip(self._moves, self._log)]

    def _known_to(self, seat: int) -> Tuple[List[int], List[Tile], List[Tile], List[Tuple[int, Move, Optional[Tile]]]]:
        """What ``seat`` knows besides the public state: every seat's count of
        search draws, its own dealt hand (by index), its own search draws (in
        draw order) and the history with only its own Draws' tiles.

        The dealt hand is the seat's hand in the deal record (after the
        set-up) without its search draws; so the starter of Doubles or of
        Block's ``highest_double`` lead, whose centre left its hand at the
        set-up, has the centre in neither (it is public). The starter's
        search draws end with the round's double, the centre."""
        p = self._rules.players
        search = self._deal.setup_draws
        counts = [0] * p
        own_search = []
        for tile, drawer in zip(search, information.search_drawers(self._round_index, p, len(search))):
            counts[drawer] += 1
            if drawer == seat:
                own_search.append(tile)
        dealt = [t for t in self._deal.hands[seat] if t not in own_search]
        history = [(mover, move, drawn if mover == seat else None) for mover, move, drawn in self._history()]
        return counts, dealt, own_search, history

    def _public_facts(self) -> Tuple[List[int], Optional[Tuple[int, ...]]]:
        """The public facts every seat knows besides the search counts: each
        seat's dealt hand size (its hand right after the set-up, less its
        search draws: for a viewer, the length of its dealt hand in
        ``_known_to``) and, once the round is over, each seat's points
        (``None`` while it goes on)."""
        p = self._rules.players
        search = self._deal.setup_draws
        drawers = information.search_drawers(self._round_index, p, len(search))
        sizes = []
        for s in range(p):
            own = [tile for tile, drawer in zip(search, drawers) if drawer == s]
            sizes.append(sum(1 for t in self._deal.hands[s] if t not in own))
        result = self.result
        return sizes, (None if result is None else tuple(result.points))

    def information_state(self, seat: int) -> str:
        """What ``seat`` knows, with perfect recall, as a string equal for two
        states exactly when the seat cannot tell them apart (docs/information.md 3):
        ``r<round>;s<seat>;c<centre|->;t<starter>;H<highest double: 0|1>;d<search
        draws per seat>;n<dealt hand sizes>;h<own dealt hand>;x<own search
        draws>;m<moves>``, then ``;e<points per seat>`` once the round is over."""
        seat = check_seat(self._rules.players, seat)
        counts, dealt, own_search, history = self._known_to(seat)
        sizes, points = self._public_facts()
        return information.information_state_text(
            self._round_index,
            seat,
            self._centre,
            self._starter,
            self._deal.highest_double,
            counts,
            sizes,
            dealt,
            own_search,
            history,
            points,
        )

    def information_state_hash(self, seat: int) -> int:
        """The 64-bit FNV-1a hash of ``information_state(seat)``'s UTF-8 bytes."""
        return information.fnv1a_64(self.information_state(seat))

    @property
    def information_state_tensor_shape(self) -> Tuple[int]:
        """``(size,)``: the length of ``information_state_tensor``, fixed for the rules."""
        return (information.information_state_tensor_size(self._rules),)

    def information_state_tensor(self, seat: int) -> NDArray[np.float32]:
        """``information_state(seat)`` as a flat float32 vector of fixed length
        (docs/information.md 3): seat, starter, centre (index T: none),
        highest double (1 when the set-up showed the centre to be the highest
        double dealt), the round index in 31 bits (least significant first),
        search draws per seat, dealt hand sizes per seat, points per seat
        once the round is over (else zeros), own dealt hand, own search draws
        (1-based draw order), then one block per move (mover, kind, tile, end id in 10
        bits), zeros for the moves not played. A history longer than the
        bound L (docs/information.md 3; it holds for every round) would be a
        ``StateError``."""
        seat = check_seat(self._rules.players, seat)
        rules = self._rules
        t_count, p = rules.tile_count, rules.players
        counts, dealt, own_search, history = self._known_to(seat)
        bound = information.history_bound(rules)
        if len(history) > bound:
            raise StateError(f"{len(history)} moves exceed the tensor's history bound of {bound} moves")
        tensor = np.zeros(self.information_state_tensor_shape, dtype=np.float32)
        planes = _Planes(tensor)
        planes.take(p)[seat] = 1
        planes.take(p)[self._starter] = 1
        planes.take(t_count + 1)[t_count if self._centre is None else self._centre.index] = 1
        planes.take(1)[0] = 1 if self._deal.highest_double else 0
        round_bits = planes.take(information.ROUND_INDEX_BITS)
        for bit in range(information.ROUND_INDEX_BITS):
            round_bits[bit] = (self._round_index >> bit) & 1
        planes.take(p)[:] = counts
        sizes, points = self._public_facts()
        planes.take(p)[:] = sizes
        if points is not None:
            planes.take(p)[:] = points
        else:
            planes.take(p)
        own_hand = planes.take(t_count)
        for tile in dealt:
            own_hand[tile.index] = 1
        search_order = planes.take(t_count)
        for order, tile in enumerate(own_search, 1):
            search_order[tile.index] = order
        for mover, move, drawn in history:
            block = planes.take(information.move_block_size(rules))
            block[mover] = 1
            block[p + information.KIND_INDEX[move.kind]] = 1
            shown_tile = move.tile if move.kind == PLACE else drawn
            if shown_tile is not None:
                block[p + 3 + shown_tile.index] = 1
            if move.kind == PLACE:
                end: int = move.end  # type: ignore[assignment]  # a placement has an end
                for bit in range(information.END_BITS):
                    block[p + 3 + t_count + bit] = (end >> bit) & 1
        return tensor

    @property
    def observation_tensor_shape(self) -> Tuple[int]:
        """``(size,)``: the length of ``observation_tensor``, fixed for the rules."""
        return (information.observation_tensor_size(self._rules),)

    def observation_tensor(self, seat: int, out: Optional[NDArray[np.float32]] = None) -> NDArray[np.float32]:
        """What ``seat`` observes now as a flat float32 vector (docs/information.md 3),
        written into ``out`` (a writable, C-contiguous 1-d float32 array of
        ``observation_tensor_shape``) when given."""
        seat = check_seat(self._rules.players, seat)
        tensor = check_tensor_buffer(out, self.observation_tensor_shape)
        self._fill_observation(seat, tensor)
        return tensor

    @staticmethod
    def observation_tensors(
        rounds: Sequence["Round"], seats: Union[int, Sequence[int]], out: Optional[NDArray[np.float32]] = None
    ) -> NDArray[np.float32]:
        """The observation tensors of many rounds of the same rules as the rows
        of one ``(len(rounds), size)`` float32 array (``out`` if given: a
        writable, C-contiguous array of that shape). ``seats`` is one seat
        for every round or a list, tuple or array of one seat per round.
        Rounds of different rules raise ``StateError``; with no rounds the
        result has shape ``(0, 0)``."""
        rounds = list(rounds)
        for r in rounds:
            if not isinstance(r, Round):
                raise TypeError(f"observation_tensors takes reference Rounds, got {shown(r)}")
        if isinstance(seats, (list, tuple, np.ndarray)):
            seat_list = list(seats)
            if len(seat_list) != len(rounds):
                raise RulesError(f"seats must hold one seat per round ({len(rounds)}), got {len(seat_list)}")
        else:
            seat_list = [seats] * len(rounds)
        if not rounds:
            return check_tensor_buffer(out, (0, 0))
        rules = rounds[0].rules
        if any(r.rules != rules for r in rounds):
            raise StateError("observation_tensors needs rounds of the same rules")
        checked = [check_seat(rules.players, s) for s in seat_list]
        tensor = check_tensor_buffer(out, (len(rounds), information.observation_tensor_size(rules)))
        for row, r, seat in zip(tensor, rounds, checked):
            r._fill_observation(seat, row)
        return tensor

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation into ``out`` (every entry).

        Readings of docs/information.md 3 (the core reads it the same way):
        the legal ends are the ends the seat to move may place on now: the
        obligation's pending ends, else every open end (docs/engine.md
        reading 2), but only those the game lets that seat use (Mexican
        Train: its own train, the Mexican train, a train with a marker);
        Doubles' locked ends count, since their double may go there (the
        unlocked plane tells them apart). Once the round is over nobody is
        to move and nothing is in question: the planes to move, own drawn
        tile, drawing and legal ends are zeros."""
        rules = self._rules
        t_count, p, n = rules.tile_count, rules.players, rules.set + 1
        out[:] = 0
        planes = _Planes(out)
        own_hand = planes.take(t_count)
        for tile in self._hands[seat]:
            own_hand[tile.index] = 1
        layout = planes.take(t_count)
        for placement in self._layout:
            layout[placement.tile.index] = 1
        own_drawn = planes.take(t_count)
        drawing = self._drawn is not None and self._result is None
        if drawing and self._current == seat:
            own_drawn[self._drawn.index] = 1  # type: ignore[union-attr]  # drawing: a drawn tile
        for ends in (self._ends, self._legal_ends()):
            counts = planes.take(n + 1)
            for end in ends:
                number = self._ends[end]
                counts[n if number is None else number] += 1
        unlocked = planes.take(n)
        for number in self._unlocked:
            unlocked[number] = 1
        planes.take(len(information.OBLIGATIONS))[information.OBLIGATIONS.index(self.obligation)] = 1
        planes.take(p)[seat] = 1
        to_move = planes.take(p)
        if self.current_player >= 0:
            to_move[self.current_player] = 1
        planes.take(p)[:] = [len(h) for h in self._hands]
        planes.take(1)[0] = len(self._yard)
        planes.take(1)[0] = drawing
        planes.take(p)[:] = self._markers
        if rules.game == "mexican_train":
            train_ends = planes.take((p + 1) * (n + 1)).reshape(p + 1, n + 1)
            train_ends[:, n] = 1  # no open end, until one is found below
            for end, train in self._trains.items():
                number = self._ends[end]
                train_ends[train, n] = 0
                train_ends[train, n if number is None else number] = 1
        assert planes.done()

    def _legal_ends(self) -> List[int]:
        """The ends the seat to move may place on now, whatever its tiles
        (none once the round is over): those the obligation allows on which
        the game lets it put the double of the end's number (any tile on an
        end without a number). A double goes wherever its number may go, and
        on Doubles' locked ends too."""
        if self._result is not None:
            return []
        may_attach, seat = self._game.may_attach, self._current
        return [end for end in self._ends_in_play() if may_attach(self, seat, _probe(self._ends[end]), end) is None]

    def determinizer(self, seat: int) -> Determinizer:
        """The exact sampler of the worlds ``seat`` cannot tell from this one
        (docs/information.md 4), prepared once: its ``sample(seed=0)`` returns
        a world as often as wanted. ``StateError`` once the round is over."""
        seat = check_seat(self._rules.players, seat)
        if self._result is not None:
            raise StateError("the round is over: there is nothing hidden to sample")
        return Determinizer(self, seat)

    # ------------------------------------------------------------ copies and records

    def clone(self) -> "Round":
        """An independent copy, history included."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._hands = [set(h) for h in self._hands]
        other._yard = list(self._yard)
        other._ends = dict(self._ends)
        other._trains = dict(self._trains)
        other._layout = list(self._layout)
        other._moves = list(self._moves)
        other._log = list(self._log)
        other._undo = list(self._undo)  # snapshots are immutable
        return other  # the deal is never changed: shared

    def _deal_dict(self) -> Dict[str, Any]:
        centre, starter, hands, yard, setup_draws, highest_double = self._deal
        return {
            "centre": None if centre is None else str(centre),
            "starter": starter,
            "hands": [[str(t) for t in h] for h in hands],
            "yard": [str(t) for t in yard],
            "setup_draws": [str(t) for t in setup_draws],
            "highest_double": highest_double,
        }


_INDEX = {t: t.index for t in tiles_of_set(18)}


def _index(tile: Tile) -> int:
    return _INDEX[tile]


_DRAW, _PASS = Move(DRAW), Move(PASS)


def _probe(number: Optional[int]) -> Tile:
    """The tile that asks whether an end of ``number`` is open to a seat:
    the double of its number (0-0 for an end without one)."""
    return Tile(number or 0, number or 0)


class _Planes:
    """Hands out consecutive slices (numpy views) of a flat tensor, plane by plane."""

    def __init__(self, tensor: np.ndarray) -> None:
        self._tensor = tensor
        self._used = 0

    def take(self, size: int) -> np.ndarray:
        """The next ``size`` entries."""
        start = self._used
        self._used += size
        return self._tensor[start : self._used]

    def done(self) -> bool:
        """Whether every entry was handed out."""
        return self._used == len(self._tensor)


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
    if rules.game != "chickenfoot" or rules.rule_set != "cross":
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
    """``highest_double`` (docs/information.md 2): only in Doubles and Block,
    and true of the deal: no hand holds a double higher than the centre (no
    double at all when there is no centre)."""
    if rules.game not in ("doubles", "block"):
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
    check_keys("deal", deal, deal_keys)
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
    missing = sorted(expected - seen, key=_index)
    if missing:
        raise StateError("tiles missing from the deal: " + ", ".join(str(t) for t in missing))
