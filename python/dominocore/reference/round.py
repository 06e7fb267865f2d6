"""One round of any dominocore game, in plain Python (the reference engine).

The rules of ``docs/rules.md`` sections 1-3 live here in the order the rule book
gives them: the set-up of each rule set, the layout and its open ends, the
legal moves, the three kinds of move, the end of the round and its score.
Clarity wins over speed: this is the code a reader checks a rule against.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..common.checks import Guarded, action_key, as_int, check_player, check_round_index, check_seat, check_seed, shown
from ..common.errors import DominoError, IllegalMoveError, ParseError, RulesError, StateError
from ..common.moves import DRAW, PASS, PLACE, End, Move, Placement, as_move, trusted_move
from .rng import SplitMix64
from ..common.rules import Rules, check_rules, rules_from_dict
from ..common.tiles import Tile, TileLike, as_tile, tile_count, tiles_of_set

__all__ = ["Round", "RoundResult"]


class RoundResult(NamedTuple):
    """How a round ended: ``reason`` is ``"out"`` or ``"blocked"``;
    ``out_seat`` is -1 when blocked; ``points`` one number per seat;
    ``starter`` the starting seat; ``moves`` the moves played after set-up."""

    reason: str
    out_seat: int
    points: Tuple[int, ...]
    starter: int
    moves: int


# --------------------------------------------------------------------------
# Set-up procedures (docs/rules.md 2.6, 2.7, 3). Each returns the position right
# after the centre double is down: (centre, starter, hands, yard top-first).
# --------------------------------------------------------------------------


def _deal(tiles: List[Tile], players: int, hand_size: int) -> Tuple[List[List[Tile]], List[Tile]]:
    """Seat s takes positions s*h .. s*h+h-1; the yard is the rest, top first."""
    hands = [tiles[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, tiles[players * hand_size :]


def _setup_trains(rules: Rules, rng: SplitMix64, round_index: int):
    n, p = rules.set, rules.players
    double = Tile(n - round_index, n - round_index)
    # Find the starter: seats from (k mod p) draw in turn until the double shows.
    deck = list(tiles_of_set(n))
    rng.shuffle(deck)
    starter = (round_index + deck.index(double)) % p
    # The other T-1 tiles, in index order, are shuffled again and dealt.
    rest = [t for t in tiles_of_set(n) if t != double]
    rng.shuffle(rest)
    hands, yard = _deal(rest, p, rules.hand_size)
    return double, starter, hands, yard


def _setup_cross(rules: Rules, rng: SplitMix64, round_index: int):
    n, p = rules.set, rules.players
    double = Tile(n - round_index, n - round_index)
    deck = list(tiles_of_set(n))
    rng.shuffle(deck)
    hands, yard = _deal(deck, p, rules.hand_size)
    holders = [s for s in range(p) if double in hands[s]]
    if holders:
        starter = holders[0]
    else:
        # Seats from (k mod p) draw into their own hands until one draws it.
        seat = round_index % p
        while True:
            tile = yard.pop(0)
            hands[seat].append(tile)
            if tile == double:
                starter = seat
                break
            seat = (seat + 1) % p
    hands[starter].remove(double)
    return double, starter, hands, yard


def _setup_doubles(rules: Rules, rng: SplitMix64, round_index: int):
    n, p = rules.set, rules.players
    while True:  # redeal (a fresh shuffle of index order) until a hand holds a double
        deck = list(tiles_of_set(n))
        rng.shuffle(deck)
        hands, yard = _deal(deck, p, rules.hand_size)
        held = [(t.index, s, t) for s in range(p) for t in hands[s] if t.is_double]
        if held:
            _, starter, double = max(held)
            hands[starter].remove(double)
            return double, starter, hands, yard


_SETUPS = {"trains": _setup_trains, "cross": _setup_cross, None: _setup_doubles}


class RoundAPI(Guarded):
    """What every implementation's ``Round`` derives from its core queries:
    records, pickling, copies, equality and printing. Subclasses provide
    ``rules``, ``round_index``, ``hand``, ``move_stack``, ``result``,
    ``clone``, ``_from_valid_deal`` (a checked deal, as Tiles) and
    ``_deal_dict`` (the deal as record data)."""

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[TileLike]],
        yard: Iterable[TileLike],
        centre: TileLike,
        starter: int,
        round_index: int = 0,
    ):
        """A round from an explicit position right after the set-up.

        ``hands`` and ``yard`` (top first) hold every tile of the set but the
        ``centre`` double exactly once. In ``trains`` the starter moves first;
        otherwise the starter's turn was placing the centre, so the next seat moves.
        """
        index, centre_tile, seat, hand_tiles, yard_tiles = _validated_deal(
            rules, hands, yard, centre, starter, round_index
        )
        return cls._from_valid_deal(rules, index, centre_tile, seat, hand_tiles, yard_tiles)  # type: ignore[attr-defined]

    @property
    def hands(self) -> List[List[Tile]]:
        """Every hand, in index order."""
        return [self.hand(s) for s in range(self.rules.players)]  # type: ignore[attr-defined]

    def pips(self, seat: int) -> int:
        """What ``seat``'s hand counts now (0-0 as 50 where ``double_blank_50``)."""
        return sum(self.rules.tile_score(t) for t in self.hand(seat))  # type: ignore[attr-defined]

    def to_dict(self) -> Dict[str, Any]:
        """The deal and the moves since, as plain JSON-able data (docs/engine.md)."""
        return {
            "rules": self.rules.to_dict(),  # type: ignore[attr-defined]
            "round_index": self.round_index,  # type: ignore[attr-defined]
            "deal": self._deal_dict(),  # type: ignore[attr-defined]
            "moves": [str(m) for m in self.move_stack],  # type: ignore[attr-defined]
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]):
        """Rebuild a round from ``to_dict()`` output, validating every part
        (``StateError`` for anything malformed, docs/validation.md)."""
        rules, deal = _parse_record(data)
        self = cls.from_deal(  # type: ignore[attr-defined]
            rules, deal["hands"], deal["yard"], deal["centre"], deal["starter"], data["round_index"]
        )
        for i, text in enumerate(data["moves"]):
            try:
                self.push(text)
            except (IllegalMoveError, ParseError) as exc:
                raise StateError(f"move {i} ({shown(text)}) of the record cannot be played: {exc}") from None
        return self

    def __reduce__(self):
        return (type(self).from_dict, (self.to_dict(),))

    def __reduce_ex__(self, protocol: Any):
        return self.__reduce__()

    def __copy__(self):
        return self.clone()  # type: ignore[attr-defined]

    def __deepcopy__(self, memo: dict):
        return self.clone()  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        result = self.result  # type: ignore[attr-defined]
        status = f"over: {result.reason}" if result else f"seat {self.current_player} to move"  # type: ignore[attr-defined]
        moves = len(self.move_stack)  # type: ignore[attr-defined]
        return f"<Round {self.rules!r} round {self.round_index}, {moves} moves, {status}>"  # type: ignore[attr-defined]

    def __str__(self) -> str:
        lines = [repr(self)]
        for s in range(self.rules.players):  # type: ignore[attr-defined]
            mark = ">" if s == self.current_player else " "  # type: ignore[attr-defined]
            lines.append(f"{mark} seat {s}: " + " ".join(str(t) for t in self.hand(s)))  # type: ignore[attr-defined]
        lines.append("  ends: " + " ".join(f"{e.id}:{e.number}" for e in self.open_ends))  # type: ignore[attr-defined]
        if self.pending_ends:  # type: ignore[attr-defined]
            pending = " ".join(str(e) for e in self.pending_ends)  # type: ignore[attr-defined]
            lines.append(f"  pending ({self.obligation}): {pending}")  # type: ignore[attr-defined]
        lines.append(f"  yard: {self.yard_size}")  # type: ignore[attr-defined]
        return "\n".join(lines)


class Round(RoundAPI):
    """The state of one round: hands, yard, layout, whose turn, the result.

    >>> from dominocore.reference import ChickenFoot, Round
    >>> r = Round(ChickenFoot(players=4), seed=7)
    >>> r.centre, r.pending_ends
    (Tile(low=9, high=9), [0, 1, 2, 3])
    >>> move = r.legal_moves()[0]
    >>> r.push(move); r.pop() == move
    True
    """

    # ------------------------------------------------------------------ set-up

    def __init__(self, rules: Rules, seed: int = 0, round_index: int = 0) -> None:
        """Deal round ``round_index`` of ``rules`` from a generator seeded with ``seed``."""
        self._init_from_generator(rules, SplitMix64(check_seed(seed)), round_index)

    @classmethod
    def _from_generator(cls, rules: Rules, rng: SplitMix64, round_index: int) -> "Round":
        """Deal a round from a generator that a match owns."""
        self = cls.__new__(cls)
        self._init_from_generator(rules, rng, round_index)
        return self

    def _init_from_generator(self, rules: Rules, rng: SplitMix64, round_index: int) -> None:
        check_rules(rules)
        round_index = check_round_index(rules, round_index)
        centre, starter, hands, yard = _SETUPS[rules.rule_set](rules, rng, round_index)
        self._start(rules, round_index, centre, starter, hands, yard)

    @classmethod
    def _from_valid_deal(cls, rules: Rules, round_index: int, centre: Tile, starter: int, hands, yard) -> "Round":
        self = cls.__new__(cls)
        self._start(rules, round_index, centre, starter, hands, yard)
        return self

    def _start(self, rules: Rules, round_index: int, centre: Tile, starter: int, hands, yard) -> None:
        """Put the centre double down and set up the first player's turn."""
        self._rules = rules
        self._round_index = round_index
        self._deal_record = {
            "centre": str(centre),
            "starter": starter,
            "hands": [[str(t) for t in sorted(h, key=_index)] for h in hands],
            "yard": [str(t) for t in yard],
        }
        self._centre = centre
        self._starter = starter
        self._hands: List[set] = [set(h) for h in hands]
        self._yard: List[Tile] = list(yard)
        slots = tuple(range(rules.slots))
        self._ends: Dict[int, int] = {end: centre.low for end in slots}  # open end id -> number
        self._next_end = rules.slots
        self._layout: List[Placement] = [Placement(centre, None, centre.low, slots)]
        if rules.game == "chickenfoot":
            # docs/rules.md 2.2: every slot of the start double first.
            self._pending: Tuple[int, ...] = slots
            self._pending_kind: Optional[str] = "start"
            self._unlocked = frozenset(range(rules.set + 1))  # no locks in Chicken Foot
        else:
            self._pending, self._pending_kind = (), None
            self._unlocked = frozenset([centre.low])  # docs/rules.md 3: the start double unlocks its number
        self._drawn: Optional[Tile] = None
        trains = rules.rule_set == "trains"
        self._current = starter if trains else (starter + 1) % rules.players
        self._moves: List[Move] = []
        self._undo: List[tuple] = []
        self._result: Optional[RoundResult] = None
        self._check_end()

    # ------------------------------------------------------------ observation

    @property
    def rules(self) -> Rules:
        """The rules this round is played by."""
        return self._rules

    @property
    def round_index(self) -> int:
        """The round's index in its match (Chicken Foot: starts from double N-k)."""
        return self._round_index

    @property
    def centre(self) -> Tile:
        """The double in the centre of the layout."""
        return self._centre

    @property
    def starter(self) -> int:
        """The seat that started the round."""
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
        """The yard, top (next drawn) first."""
        return list(self._yard)

    @property
    def yard_size(self) -> int:
        """How many tiles the yard holds."""
        return len(self._yard)

    @property
    def open_ends(self) -> List[End]:
        """Every open end, by id."""
        return [End(e, n) for e, n in sorted(self._ends.items())]

    @property
    def pending_ends(self) -> List[int]:
        """Ids of the ends that must be filled before any other (start slots or toes)."""
        return list(self._pending)

    @property
    def obligation(self) -> Optional[str]:
        """``"start"`` or ``"foot"`` while such ends are pending, else ``None``."""
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
        """Every placed tile, in the order placed (the centre first)."""
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

    def _legal_ends(self) -> List[Tuple[int, int]]:
        """(id, number) of the ends a tile may go on now (docs/engine.md 2)."""
        if self._pending:
            return [(e, self._ends[e]) for e in self._pending]
        return sorted(self._ends.items())

    def _attaches(self, tile: Tile, number: int) -> bool:
        """Whether ``tile`` may attach to an end of ``number`` (locks included)."""
        if number not in (tile.low, tile.high):
            return False
        return tile.is_double or number in self._unlocked

    def _placements(self, tiles: Iterable[Tile]) -> List[Move]:
        """Every placement of ``tiles`` on a legal end, by (tile index, end id)."""
        ends_of: Dict[int, List[int]] = {}
        for end, number in self._legal_ends():
            ends_of.setdefault(number, []).append(end)
        moves = []
        for tile in sorted(tiles, key=_index):
            if tile.low not in ends_of and tile.high not in ends_of:
                continue
            ids = [e for n in {tile.low, tile.high} if self._attaches(tile, n) for e in ends_of.get(n, ())]
            moves += [trusted_move(PLACE, tile, e) for e in sorted(ids)]
        return moves

    def _has_placement(self, seat: int) -> bool:
        numbers = {number for _, number in self._legal_ends()}
        return any(self._attaches(t, n) for t in self._hands[seat] for n in {t.low, t.high} & numbers)

    def legal_moves(self, distinct: bool = False) -> List[Move]:
        """The legal moves in canonical order (docs/rules.md 1.7).

        With ``distinct=True`` only the lowest end id is kept for each
        (tile, number it attaches by).
        """
        if self._result is not None:
            return []
        in_question = [self._drawn] if self._drawn is not None else self._hands[self._current]
        places = self._placements(in_question)
        if distinct:
            seen = set()
            kept = []
            for m in places:
                assert m.end is not None
                key = (m.tile, self._ends[m.end])
                if key not in seen:
                    seen.add(key)
                    kept.append(m)
            places = kept
        if self._drawn is not None:
            may_pass = self._rules.drawn_tile == "may" or not places
            return places + ([_PASS] if may_pass else [])
        if places:
            return places
        return [_DRAW] if len(self._yard) > self._rules.reserve else [_PASS]

    def is_legal(self, move: Any, player: Optional[int] = None) -> bool:
        """Whether ``move`` (a Move or its string) is legal now, for ``player``
        if named. Never raises: anything ``push`` would reject is ``False``."""
        try:
            return self._illegal(as_move(move), check_player(self._rules.players, player)) is None
        except DominoError:
            return False

    def _illegal(self, move: Move, player: Optional[int]) -> Optional[Tuple[str, str]]:
        """(reason code, message) if ``move`` is illegal, in the order of docs/engine.md."""
        if self._result is not None:
            return "round_over", "the round is over: no move can be made"
        if player is not None and player != self._current:
            return "not_your_turn", f"it is seat {self._current}'s turn, not seat {player}'s"
        reserve = self._rules.reserve
        if move.kind == PLACE:
            tile, end = move.tile, move.end
            assert tile is not None and end is not None  # Move.place guarantees both
            if self._drawn is not None and tile != self._drawn:
                return "not_drawn_tile", f"after a draw only the drawn tile {self._drawn} may be placed"
            if tile not in self._hands[self._current]:
                return "not_in_hand", f"tile {tile} is not in seat {self._current}'s hand"
            if end not in self._ends:
                ids = ", ".join(str(e) for e in sorted(self._ends))
                return "end_not_open", f"end {end} is not open (open ends: {ids})"
            if self._pending and end not in self._pending:
                ids = ", ".join(str(e) for e in self._pending)
                if self._pending_kind == "start":
                    return "start_unfinished", f"the start double must be finished first (open slots: {ids})"
                return "foot_unfinished", f"the chicken foot must be finished first (open toes: {ids})"
            number = self._ends[end]
            if number not in (tile.low, tile.high):
                return "no_match", f"tile {tile} does not match end {end}, which needs a {number}"
            if not self._attaches(tile, number):
                return "locked", f"{number}s are locked until the {number}-{number} is in the layout"
            return None
        if move.kind == DRAW:
            if self._drawn is not None:
                return "already_drew", f"seat {self._current} already drew this turn: place {self._drawn} or pass"
            if self._has_placement(self._current):
                return self._must_place()
            if len(self._yard) <= reserve:
                return "yard_exhausted", f"the yard is exhausted ({len(self._yard)} left, reserve {reserve})"
            return None
        # PASS
        if self._drawn is not None:
            if self._rules.drawn_tile == "must" and self._placements([self._drawn]):
                return "must_place_drawn", f"the drawn tile {self._drawn} can be placed and must be"
            return None
        if self._has_placement(self._current):
            return self._must_place()
        if len(self._yard) > reserve:
            return "must_draw", f"seat {self._current} cannot place and must draw ({len(self._yard)} in the yard)"
        return None

    def _must_place(self) -> Tuple[str, str]:
        example = self._placements(self._hands[self._current])[0]
        return "must_place", f"seat {self._current} holds a legal placement (e.g. {example}) and must place"

    # ------------------------------------------------------------ making moves

    def push(self, move: Any, player: Optional[int] = None) -> None:
        """Play ``move`` (a Move or ``"5-9@2"``/``"draw"``/``"pass"``).

        If ``player`` is given, the move is rejected unless it is that seat's
        turn. An illegal move raises ``IllegalMoveError`` and changes nothing.
        """
        move = as_move(move)
        problem = self._illegal(move, check_player(self._rules.players, player))
        if problem is not None:
            raise IllegalMoveError(*problem)
        self._undo.append(self._snapshot())
        mover = self._current
        if move.kind == PLACE:
            self._place(move.tile, move.end)
        elif move.kind == DRAW:
            self._drawn = self._yard.pop(0)
            self._hands[mover].add(self._drawn)
        else:
            self._drawn = None
            self._current = (mover + 1) % self._rules.players
        self._moves.append(move)
        self._check_end()

    def _place(self, tile: Tile, end: int) -> None:
        number = self._ends.pop(end)
        self._hands[self._current].discard(tile)
        if end in self._pending:
            self._pending = tuple(e for e in self._pending if e != end)
        if tile.is_double:
            # Chicken Foot: a chicken foot of three toes that must be filled
            # first (2.3). Doubles: a spinner with three sides that unlocks
            # its number everywhere (3).
            created: Tuple[int, ...] = (self._next_end, self._next_end + 1, self._next_end + 2)
            for e in created:
                self._ends[e] = number
            if self._rules.game == "chickenfoot":
                self._pending, self._pending_kind = created, "foot"
            else:
                self._unlocked = self._unlocked | {number}
        else:
            created = (self._next_end,)
            self._ends[self._next_end] = tile.other(number)
        self._next_end += len(created)
        self._layout.append(Placement(tile, end, number, created))
        self._drawn = None
        self._current = (self._current + 1) % self._rules.players

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._moves:
            raise IllegalMoveError("no_move", "no move to undo: the round is at its deal")
        self._restore(self._undo.pop())
        return self._moves.pop()

    def _snapshot(self) -> tuple:
        return (
            tuple(frozenset(h) for h in self._hands),
            tuple(self._yard),
            tuple(self._ends.items()),
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
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
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
            self._drawn,
            self._current,
            layout_len,
            self._result,
        ) = snap
        self._hands = [set(h) for h in hands]
        self._yard = list(yard)
        self._ends = dict(ends)
        del self._layout[layout_len:]

    # ------------------------------------------------------------ end of round

    def _check_end(self) -> None:
        """docs/rules.md 1.5, checked after the set-up and after every move."""
        p = self._rules.players
        empty = [s for s in range(p) if not self._hands[s]]
        if empty:
            self._finish("out", empty[0])
        elif len(self._yard) <= self._rules.reserve and not any(self._has_placement(s) for s in range(p)):
            self._finish("blocked", -1)

    def _finish(self, reason: str, out_seat: int) -> None:
        rules = self._rules
        p = rules.players
        if rules.game == "chickenfoot":
            # 2.4: every player scores what is left in their hand; lower is better.
            points = [sum(rules.tile_score(t) for t in self._hands[s]) for s in range(p)]
        else:
            # 3: the round's winner scores the pips of every other hand.
            pips = [sum(t.pips for t in self._hands[s]) for s in range(p)]
            if reason == "out":
                winner = out_seat
            else:
                lowest = min(pips)
                holders = [s for s in range(p) if pips[s] == lowest]
                winner = holders[0] if len(holders) == 1 else -1  # a shared lowest: nobody scores
            points = [0] * p
            if winner >= 0:
                points[winner] = sum(pips) - pips[winner]
        self._result = RoundResult(reason, out_seat, tuple(points), self._starter, len(self._moves))

    # ------------------------------------------------------------ action ids

    @property
    def num_actions(self) -> int:
        """Size of the action space, ``2*T + 2`` (docs/rules.md 1.8)."""
        return self._rules.num_actions

    def move_to_action(self, move: Any) -> int:
        """The action id of a legal move (a non-distinct placement maps to its distinct twin)."""
        move = as_move(move)
        problem = self._illegal(move, None)
        if problem is not None:
            raise IllegalMoveError(*problem)
        return self._action_of(move)

    def _action_of(self, move: Move) -> int:
        t = tile_count(self._rules.set)
        if move.kind == DRAW:
            return 2 * t
        if move.kind == PASS:
            return 2 * t + 1
        assert move.tile is not None and move.end is not None
        by_high = self._ends[move.end] != move.tile.low
        return 2 * move.tile.index + int(by_high)

    def _action_moves(self) -> Dict[int, Move]:
        return {self._action_of(m): m for m in self.legal_moves(distinct=True)}

    def legal_actions(self) -> List[int]:
        """The legal action ids, ascending."""
        return sorted(self._action_moves())

    def legal_action_mask(self) -> List[bool]:
        """A list of ``num_actions`` booleans, True for the legal action ids."""
        legal = set(self._action_moves())
        return [a in legal for a in range(self.num_actions)]

    def action_to_move(self, action: int) -> Move:
        """The (distinct) move a legal action id stands for (``IllegalMoveError``
        ``illegal_action`` for anything else, of any type)."""
        moves = self._action_moves()
        key = action_key(action)
        if key not in moves:
            raise IllegalMoveError(
                "illegal_action", f"action {shown(action)} is not legal now (legal: {sorted(moves)})"
            )
        return moves[key]

    def apply_action(self, action: int) -> None:
        """Play the move a legal action id stands for."""
        self.push(self.action_to_move(action))

    # ------------------------------------------------------------ copies and records

    def clone(self) -> "Round":
        """An independent copy, history included."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._hands = [set(h) for h in self._hands]
        other._yard = list(self._yard)
        other._ends = dict(self._ends)
        other._layout = list(self._layout)
        other._moves = list(self._moves)
        other._undo = list(self._undo)  # snapshots are immutable
        return other  # the deal record is never changed: shared

    def _deal_dict(self) -> Dict[str, Any]:
        return copy.deepcopy(self._deal_record)


def _index(tile: Tile) -> int:
    return tile.index


_DRAW, _PASS = Move(DRAW), Move(PASS)


def _validated_deal(rules: Rules, hands, yard, centre, starter, round_index) -> Tuple[int, Tile, int, list, list]:
    """Check an explicit deal (docs/engine.md); return (round index, centre,
    starter, hands, yard) as plain ints and Tiles."""
    check_rules(rules)
    try:
        round_index = check_round_index(rules, round_index)
        centre_tile = as_tile(centre)
        hand_tiles = [[as_tile(t) for t in hand] for hand in hands]
        yard_tiles = [as_tile(t) for t in yard]
    except (ParseError, RulesError, TypeError) as exc:
        raise StateError(f"malformed deal: {exc}") from None
    p = rules.players
    if len(hand_tiles) != p:
        raise StateError(f"the deal has {len(hand_tiles)} hands for {p} players")
    starter = as_int(starter, "starter", 0, p - 1, StateError)
    if not centre_tile.is_double:
        raise StateError(f"the centre must be a double, got {centre_tile}")
    if rules.game == "chickenfoot" and centre_tile.low != rules.round_double(round_index):
        d = rules.round_double(round_index)
        raise StateError(f"round {round_index} starts from the {d}-{d}, not {centre_tile}")
    _check_conserved(rules, [centre_tile] + [t for h in hand_tiles for t in h] + yard_tiles)
    return round_index, centre_tile, starter, hand_tiles, yard_tiles


def _parse_record(data: Any) -> Tuple[Rules, Dict[str, Any]]:
    """Check the shape of a round record; return its rules and deal."""
    if not isinstance(data, dict):
        raise StateError(f"a round record is a dict, got {type(data).__name__}")
    _check_keys("round record", data, {"rules", "round_index", "deal", "moves"})
    deal = data["deal"]
    if not isinstance(deal, dict):
        raise StateError("the record's 'deal' must be a dict")
    _check_keys("deal", deal, {"centre", "starter", "hands", "yard"})
    try:
        rules = rules_from_dict(data["rules"])
    except RulesError as exc:
        raise StateError(f"bad rules in record: {exc}") from None
    if not isinstance(deal["hands"], list) or not isinstance(deal["yard"], list):
        raise StateError("the deal's hands and yard must be lists")
    if not all(isinstance(h, list) for h in deal["hands"]):
        raise StateError("each hand must be a list of tiles")
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


def _check_keys(what: str, data: Dict[str, Any], keys: set) -> None:
    unknown = set(data) - keys
    if unknown:
        raise StateError(f"unknown keys in {what}: {', '.join(sorted(shown(k) for k in unknown))}")
    missing = keys - set(data)
    if missing:
        raise StateError(f"missing keys in {what}: {sorted(missing)}")
