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
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    pass


from ..common import messages
from ..common.checks import (
    action_key,
    check_player,
    check_round_index,
    check_seat,
    check_seed,
)
from ..common.errors import IllegalMoveError, StateError
from ..common.moves import DRAW, PLACE, End, Move, MoveLike, Placement, as_move
from ..common.policies import ROUND_OVER_MESSAGE
from ..common.results import RoundResult
from ..common.rules import Rules, check_rules
from ..common.tiles import Tile
from ..common.view import PlayerView
from .actions import RoundActions
from .determinize import Determinizer
from .games import game_of
from .games.shared import Deal
from .information import RoundInformation
from .legality import RoundLegality
from .rng import SplitMix64
from .round_api import RoundAPI, tile_index
from .scoring import RoundScoring, check_carried

__all__ = ["Round", "RoundResult", "RoundAPI"]


#: The tile each Draw took, as ``Round._of_view`` replays a view's history:
#: there is one, but which it is may be hidden from the viewer.
_HIDDEN_TILE: Any = object()

#: What each obligation refuses a placement elsewhere with: (reason code, message).
#: The reason code of each kind of pending obligation.
_OBLIGATIONS = {"start": "start_unfinished", "foot": "foot_unfinished", "double": "double_unsatisfied"}


class Round(RoundLegality, RoundActions, RoundInformation, RoundScoring, RoundAPI):
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
        self._init_from_generator(rules, SplitMix64(check_seed(seed)), round_index, None, None)

    @classmethod
    def _from_generator(
        cls,
        rules: Rules,
        rng: SplitMix64,
        round_index: int,
        leader: Optional[int] = None,
        carried: Optional[Sequence[int]] = None,
    ) -> "Round":
        """Deal a round from a generator that a match owns; ``leader`` is the
        seat the match chose to lead it (Block, the games that score in
        play), or ``None``; ``carried`` the match totals before it (the
        games that score in play; ``None``: zeros)."""
        self = cls.__new__(cls)
        self._init_from_generator(rules, rng, round_index, leader, carried)
        return self

    def _init_from_generator(
        self, rules: Rules, rng: SplitMix64, round_index: int, leader: Optional[int], carried: Any
    ) -> None:
        check_rules(rules)
        round_index = check_round_index(rules, round_index)
        totals = check_carried(rules, carried)
        deal = game_of(rules).set_up(rules, rng, round_index, leader)
        self._begin(rules, round_index, deal._replace(carried=totals))

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
        carried: Sequence[int] = (),
    ) -> "Round":
        self = cls.__new__(cls)
        totals = check_carried(rules, carried)
        self._begin(rules, round_index, Deal(centre, starter, hands, yard, tuple(setup_draws), highest_double, totals))
        return self

    @classmethod
    def _of_view(cls, view: PlayerView) -> "Round":
        """The position ``view`` shows, for what a bot computes from the view
        alone (the learned player's observation and action ids): the
        viewer's hand, the other hands and the yard as placeholders of their
        sizes (their tiles are unknown, and nothing the view's seat may
        compute reads them), and the public state of the view's history
        replayed through the game's hooks: the layout, the open ends with
        their trains and arms, who moves, the obligation, locks, markers and
        points. ``StateError`` when the round is over, the centre is not one
        a deal may have, a move is out of turn or does not replay, or the
        replay does not give the view's public fields. Not a round to play
        on: moves, undo and records need the hidden tiles."""
        if view.result is not None:
            raise StateError(ROUND_OVER_MESSAGE)
        rules, seat, p = view.rules, view.seat, view.rules.players
        self = cls.__new__(cls)
        hidden_yard: List[Any] = [None] * view.yard_size  # Block keeps them out of play (B1)
        deal = Deal(view.centre, view.starter, [[]] * p, hidden_yard, (), view.highest_double, view.carried)
        self._init_fields(rules, view.round_index, deal)
        self._game.check_deal(rules, view.centre, view.round_index)
        self._game.place_centre(self, view.centre, view.starter)
        for i, entry in enumerate(view.history):
            if entry.seat != self._current:
                raise StateError(
                    f"inconsistent view: move {i} is seat {entry.seat}'s, but seat {self._current} was to move"
                )
            try:
                self._apply(entry.seat, entry.move, _HIDDEN_TILE)  # which tile is hidden
            except (KeyError, ValueError):  # an end not open then, a tile without its number
                raise StateError(f"inconsistent view: move {i} ({entry.move}) does not replay on its layout") from None
        replayed = (
            self._layout, self._ends, self._trains, self._current, self.obligation,
            self.pending_ends, self._unlocked, self._markers, self._play_points, self._drawn is not None,
        )  # fmt: skip
        viewed = (
            list(view.layout), {e.id: e.number for e in view.open_ends},
            {e.id: t for e, t in zip(view.open_ends, view.trains) if t is not None}, view.current_player,
            view.obligation, list(view.pending_ends), frozenset(view.unlocked), tuple(view.markers),
            tuple(view.play_points), view.drawing,
        )  # fmt: skip
        if replayed != viewed:
            raise StateError("inconsistent view: its public fields are not what its history gives")
        hands: List[Any] = [set(view.hand) if j == seat else [None] * view.hand_sizes[j] for j in range(p)]
        self._hands = hands
        if view.current_player == seat:
            self._drawn = view.drawn_tile
        return self

    def _apply(self, mover: int, move: Move, drawn: Optional[Tile]) -> None:
        """What ``move`` by ``mover`` does to the layout, the turn and the
        points (``drawn``: the tile a Draw took): ``push`` without the checks,
        the yard and the records. ``_of_view`` replays a view's history with it."""
        if move.kind == PLACE:
            assert move.tile is not None and move.end is not None  # a placement's
            self._place(mover, move.tile, move.end)
        elif move.kind == DRAW:
            self._drawn = drawn  # the same seat moves again
        else:
            self._drawn = None
            self._game.after_pass(self, mover)
        self._score(mover, move.tile if move.kind == PLACE else None)

    def _begin(self, rules: Rules, round_index: int, deal: Deal) -> None:
        """Record the deal, then let the game lay it out (its ``start`` hook)."""
        self._init_fields(rules, round_index, deal)
        self._game.place_centre(self, deal.centre, deal.starter)
        self._check_end()

    def _init_fields(self, rules: Rules, round_index: int, deal: Deal) -> None:
        """Every field of a round dealt ``deal``, before its layout."""
        self._rules = rules
        self._game = game_of(rules)
        self._round_index = round_index
        centre, starter, hands, yard, setup_draws, highest_double, carried = deal
        # The deal as the set-up left it, never changed: records, information
        # states and determinization read it.
        self._deal = Deal(
            centre,
            starter,
            [sorted(h, key=tile_index) for h in hands],
            list(yard),
            tuple(setup_draws),
            highest_double,
            tuple(carried),
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
        # Where the layout has arms (docs/games/all_fives.md F3): open end id
        # -> its arm; a tile's new end grows on the arm of the end it covers.
        self._arms: Dict[int, int] = {}
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
        # Scoring during play (all_fives.md F5, F8; ``scoring.RoundScoring``):
        # the match totals before the round, each seat's points scored in play
        # and what each move scored.
        self._carried: Tuple[int, ...] = tuple(carried) or (0,) * rules.players
        self._play_points: Tuple[int, ...] = (0,) * rules.players
        self._points: List[int] = []

    # ----------------------------------------------- the engine API for the games' hooks

    def _open(
        self, numbers: Sequence[Optional[int]], train: Optional[int] = None, arms: Optional[Sequence[int]] = None
    ) -> Tuple[int, ...]:
        """Open one end per number, with the next end ids (docs/rules.md 1.3),
        on ``train`` if the game has trains, on ``arms`` (one per end) if its
        layout has arms; return their ids."""
        created = tuple(range(self._next_end, self._next_end + len(numbers)))
        for end, number in zip(created, numbers):
            self._ends[end] = number
            if train is not None:
                self._trains[end] = train
        if arms is not None:
            self._set_arms(created, arms)
        self._next_end += len(numbers)
        return created

    def _open_more(self, numbers: Sequence[Optional[int]], arms: Sequence[int]) -> None:
        """Open more ends for the placement just made (all_fives.md F3: the
        spinner's sides), on ``arms``, after the ends it opened: they join its
        ``created``."""
        created = self._open(numbers, arms=arms)
        last = self._layout[-1]
        self._layout[-1] = last._replace(created=last.created + created)

    def _set_arms(self, ends: Sequence[int], arms: Sequence[int]) -> None:
        """Put the open ends ``ends`` on ``arms`` (one arm per end)."""
        for end, arm in zip(ends, arms):
            self._arms[end] = arm

    def _oblige(self, kind: str, ends: Tuple[int, ...]) -> None:
        """Make ``ends`` the only legal ends until each has a tile (``kind``:
        ``"start"``, ``"foot"`` or ``"double"``)."""
        self._pending, self._pending_kind = ends, kind

    def _mark(self, seat: int, on: bool) -> None:
        """Put a marker on ``seat``'s train, or lift it."""
        markers = list(self._markers)
        markers[seat] = on
        self._markers = tuple(markers)

    def _lay_setup_tile(self, placement: Placement) -> None:
        """Put the set-up's tile (the centre, the engine, a led double) in the layout."""
        self._layout.append(placement)

    def _turn_to(self, seat: int) -> None:
        """Make ``seat`` the seat to move."""
        self._current = seat

    def _unlock(self, numbers: Iterable[int], only: bool = False) -> None:
        """Unlock ``numbers``; with ``only``, lock every other number."""
        self._unlocked = frozenset(numbers) if only else self._unlocked | frozenset(numbers)

    def _keep_out_of_play(self) -> None:
        """Count every tile now in the yard as never drawn (``reserve``)."""
        self._reserve = len(self._yard)

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
        return sorted(self._hands[check_seat(self._rules.players, seat)], key=tile_index)

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
        drawn = self._yard.pop(0) if move.kind == DRAW else None
        if drawn is not None:
            self._hands[mover].add(drawn)
        self._apply(mover, move, drawn)
        self._moves.append(move)
        self._log.append((mover, drawn))
        self._check_end()

    def _place(self, mover: int, tile: Tile, end: int) -> None:
        """docs/rules.md 1.3: the tile uses up the end and opens new ones."""
        number = self._ends.pop(end)
        train = self._trains.pop(end, None)  # new ends grow on the same train
        arm = self._arms.pop(end, None)  # and on the same arm (a lead's: the game's)
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
        if arm is not None and number is not None:
            self._set_arms([e for e in created if e not in self._arms], (arm,) * len(created))
        self._layout.append(Placement(tile, end, number, created))
        self._game.after_place(self, mover, tile, train)

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._moves:
            raise IllegalMoveError("no_move", messages.NO_MOVE)
        self._restore(self._undo.pop())
        self._log.pop()
        self._points.pop()
        return self._moves.pop()

    def _snapshot(self) -> tuple:
        return (
            tuple(frozenset(h) for h in self._hands),
            tuple(self._yard),
            tuple(self._ends.items()),
            tuple(self._trains.items()),
            tuple(self._arms.items()),
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
            self._markers,
            self._drawn,
            self._current,
            len(self._layout),
            self._result,
            self._play_points,
        )

    def _restore(self, snap: tuple) -> None:
        (
            hands,
            yard,
            ends,
            trains,
            arms,
            self._next_end,
            self._pending,
            self._pending_kind,
            self._unlocked,
            self._markers,
            self._drawn,
            self._current,
            layout_len,
            self._result,
            self._play_points,
        ) = snap
        self._hands = [set(h) for h in hands]
        self._yard = list(yard)
        self._ends = dict(ends)
        self._trains = dict(trains)
        self._arms = dict(arms)
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
        elif self._target_reached():  # all_fives.md F8: out and blocked come first
            self._finish("target", -1)

    # ------------------------------------------------------------ information (docs/information.md)

    def _history(self) -> List[Tuple[int, Move, Optional[Tile]]]:
        """Every move played, as ``(mover, move, drawn)``: ``drawn`` is the
        tile a Draw took, ``None`` for other moves. Hidden data: internal use
        only (views, information states, determinization)."""
        return [(mover, move, drawn) for move, (mover, drawn) in zip(self._moves, self._log)]

    def determinizer(self, seat: int, model: Any = None, candidates: Optional[int] = None) -> Determinizer:
        """The exact sampler of the worlds ``seat`` cannot tell from this one
        (docs/information.md 4), prepared once: its ``sample(seed=0)`` returns
        a world as often as wanted. ``model`` (an ``OpponentModel`` or a
        policy name) weights the worlds by the likelihood of the other seats'
        moves, drawn exactly (``candidates=None``) or by resampling among
        ``candidates`` uniform worlds (docs/information.md 5). ``StateError``
        once the round is over; ``RulesError`` for a bad seat, model or count."""
        seat = check_seat(self._rules.players, seat)
        if self._result is not None:
            raise StateError("the round is over: there is nothing hidden to sample")
        return Determinizer(self, seat, model, candidates)

    # ------------------------------------------------------------ copies and records

    def clone(self) -> "Round":
        """An independent copy, history included."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._hands = [set(h) for h in self._hands]
        other._yard = list(self._yard)
        other._ends = dict(self._ends)
        other._trains = dict(self._trains)
        other._arms = dict(self._arms)
        other._points = list(self._points)
        other._layout = list(self._layout)
        other._moves = list(self._moves)
        other._log = list(self._log)
        other._undo = list(self._undo)  # snapshots are immutable
        return other  # the deal is never changed: shared

    def _deal_dict(self) -> Dict[str, Any]:
        centre, starter, hands, yard, setup_draws, highest_double, carried = self._deal
        data: Dict[str, Any] = {
            "centre": None if centre is None else str(centre),
            "starter": starter,
            "hands": [[str(t) for t in h] for h in hands],
            "yard": [str(t) for t in yard],
            "setup_draws": [str(t) for t in setup_draws],
            "highest_double": highest_double,
        }
        if any(carried):  # all_fives.md F8: only a round that carries match totals says so
            data["carried"] = list(carried)
        return data
