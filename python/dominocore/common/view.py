"""What one seat may see of a round: ``PlayerView`` (docs/information.md 3).

A view is built from a round's public queries and the seat's own private
history, then holds plain values only: no reference to the round, nothing of
another seat's tiles or the yard order. It is immutable, compares by value,
and travels as JSON (``to_dict``/``from_dict``, whose format and checks are
``dominocore.common.view_record``'s), so an app can send it to a client and
run a whole game from views alone.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable, Dict, List, Optional, Tuple

from .checks import Guarded, check_seat, shown
from .errors import RulesError, StateError
from .moves import DRAW, End, Move, Placement
from .rules import Rules
from .tiles import Tile
from .view_record import VIEW_VERSION, HistoryEntry, result_dict, view_fields

__all__ = ["HistoryEntry", "PlayerView", "round_id", "view_for", "view_fields", "view_record", "register_view_check"]


def round_id(round: Any) -> str:
    """The random token that identifies ``round`` (a ``Round`` object) in its
    views: fixed for the object's lifetime; a clone or a loaded record gets its
    own. It is random, so it says nothing about the deal."""
    stamp = getattr(round, "_round_id", None)
    # A clone may copy its original's attributes; the object's identity tells them apart.
    if stamp is None or stamp[0] != id(round):
        stamp = (id(round), secrets.token_hex(8))
        object.__setattr__(round, "_round_id", stamp)
    return stamp[1]


def _tile(text: Optional[str]) -> Optional[Tile]:
    return None if text is None else Tile.parse(text)


def _text(tile: Optional[Tile]) -> Optional[str]:
    return None if tile is None else str(tile)


class PlayerView(Guarded):
    """What seat ``seat`` knows of a round at move ``move_number``.

    Build one with ``round.view(seat)``. Attributes (all read-only):

    - ``seat``, ``round_id`` (the round object's token), ``move_number``
      (moves played), ``rules``, ``round_index``, ``centre``, ``starter``,
      ``current_player`` (-1 once over), ``result`` (a ``RoundResult``-like
      tuple once over, else ``None``);
    - ``hand``: the viewer's own tiles, by index; ``hand_sizes``: every
      seat's count; ``yard_size``;
    - ``open_ends`` (``End``s by id), ``trains`` (the train of each open end
      in Mexican Train, else ``None``s), ``pending_ends``, ``obligation``,
      ``unlocked``, ``markers``, ``layout`` (``Placement``s);
    - ``drawn_tile``: the viewer's own drawn tile in question, else ``None``;
      ``drawing``: whether the seat to move has a drawn tile in question;
    - ``history``: ``HistoryEntry``s; ``setup_draws``: each seat's count of
      search draws in the cross's set-up; ``own_setup_draws``: the viewer's;
      ``highest_double``: whether the set-up showed that the centre is the
      highest double dealt (Doubles, Block's highest-double lead);
    - ``play_points``: each seat's points scored in play this round, and
      ``carried``: each seat's match total before the round (zeros in the
      games that score only at the end, docs/games/all_fives.md F5, F8).

    ``legal_moves()`` and ``legal_actions()`` are the viewer's, and empty
    unless it is the viewer's turn.

    >>> import dominocore as dc
    >>> r = dc.Round(dc.Doubles(players=2), seed=3)
    >>> v = r.view(0)
    >>> v.seat, v.hand_sizes, v.legal_moves() == tuple(r.legal_moves(distinct=True))
    (0, (8, 7), True)
    >>> r.view(1).legal_moves()
    ()
    >>> dc.PlayerView.from_dict(v.to_dict()) == v
    True
    """

    __slots__ = (
        "seat", "round_id", "move_number", "rules", "round_index", "centre", "starter", "current_player",
        "result", "hand", "hand_sizes", "yard_size", "open_ends", "trains", "pending_ends", "obligation",
        "unlocked", "markers", "layout", "drawn_tile", "drawing", "history", "setup_draws", "own_setup_draws",
        "highest_double", "play_points", "carried", "_legal_moves", "_legal_actions",
    )  # fmt: skip
    _init_marker = "seat"
    seat: int
    round_id: str
    move_number: int
    rules: Rules
    round_index: int
    centre: Optional[Tile]
    starter: int
    current_player: int
    #: (reason, out_seat, points, starter, moves, play_points, end_points), as ``RoundResult``, once over
    result: Optional[Tuple[str, int, Tuple[int, ...], int, int, Tuple[int, ...], Tuple[int, ...]]]
    hand: Tuple[Tile, ...]
    hand_sizes: Tuple[int, ...]
    yard_size: int
    open_ends: Tuple[End, ...]
    trains: Tuple[Optional[int], ...]
    pending_ends: Tuple[int, ...]
    obligation: Optional[str]
    unlocked: Tuple[int, ...]
    markers: Tuple[bool, ...]
    layout: Tuple[Placement, ...]
    drawn_tile: Optional[Tile]
    drawing: bool
    history: Tuple[HistoryEntry, ...]
    setup_draws: Tuple[int, ...]
    own_setup_draws: Tuple[Tile, ...]
    highest_double: bool
    play_points: Tuple[int, ...]
    carried: Tuple[int, ...]
    _legal_moves: Tuple[Move, ...]
    _legal_actions: Tuple[int, ...]

    def __init__(self, **fields: Any) -> None:
        """Use ``round.view(seat)`` or ``PlayerView.from_dict``."""
        for name in self.__slots__:
            object.__setattr__(self, name, fields[name])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a PlayerView is immutable")

    __delattr__ = __setattr__  # type: ignore[assignment]

    # ------------------------------------------------------------ building

    @classmethod
    def of(cls, round: Any, seat: Any) -> "PlayerView":
        """The view of ``seat`` (``RulesError`` if out of range) of ``round``
        (either implementation's ``Round``). Only public queries and the
        seat's own private history are read."""
        rules: Rules = round.rules
        p = rules.players
        seat = check_seat(p, seat)
        deal = round._deal_dict()
        searched = deal.get("setup_draws", [])
        k = round.round_index
        counts = [0] * p
        own_search: List[Tile] = []
        for i, text in enumerate(searched):
            drawer = (k + i) % p
            counts[drawer] += 1
            if drawer == seat:
                own_search.append(Tile.parse(text))
        history = tuple(
            HistoryEntry(mover, move, drawn if mover == seat and move.kind == DRAW else None, points)
            for (mover, move, drawn), points in zip(round._history(), round.points_stack)
        )
        mover = round.current_player
        own_turn = mover == seat
        drawn = round.drawn_tile
        legal = tuple(round.legal_moves(distinct=True)) if own_turn else ()
        ends = tuple(round.open_ends)
        result = round.result
        return cls(
            seat=seat,
            round_id=round_id(round),
            move_number=len(history),
            rules=rules,
            round_index=k,
            centre=round.centre,
            starter=round.starter,
            current_player=mover,
            result=None if result is None else tuple(result),
            hand=tuple(round.hand(seat)),
            hand_sizes=tuple(len(round.hand(j)) for j in range(p)),
            yard_size=round.yard_size,
            open_ends=ends,
            trains=tuple(round.train_of(e.id) for e in ends),
            pending_ends=tuple(round.pending_ends),
            obligation=round.obligation,
            unlocked=tuple(round.unlocked),
            markers=tuple(round.markers),
            layout=tuple(round.layout),
            drawn_tile=drawn if own_turn else None,
            drawing=drawn is not None,
            history=history,
            setup_draws=tuple(counts),
            own_setup_draws=tuple(own_search),
            highest_double=bool(deal.get("highest_double", False)),
            play_points=tuple(round.play_points),
            carried=tuple(round.carried),
            _legal_moves=legal,
            _legal_actions=tuple(round.legal_actions()) if own_turn else (),
        )

    # ------------------------------------------------------------ queries

    def legal_moves(self) -> Tuple[Move, ...]:
        """The viewer's legal moves (the distinct listing, docs/rules.md 1.7)
        when it is its turn, else ``()``."""
        return self._legal_moves

    def legal_actions(self) -> Tuple[int, ...]:
        """The viewer's legal action ids, ascending, when it is its turn, else ``()``."""
        return self._legal_actions

    @property
    def is_over(self) -> bool:
        """Whether the round had ended when the view was taken."""
        return self.result is not None

    def is_current(self, round: Any) -> bool:
        """Whether this view is of ``round`` (the same object, by its token)
        as it stands now: ``False`` once a move was played or taken back."""
        return round_id(round) == self.round_id and len(round.move_stack) == self.move_number

    # ------------------------------------------------------------ JSON

    def to_dict(self) -> Dict[str, Any]:
        """The view as JSON-able data, for a client (docs/information.md 3)."""
        return {
            "view_version": VIEW_VERSION,
            "seat": self.seat,
            "round_id": self.round_id,
            "move_number": self.move_number,
            "rules": self.rules.to_dict(),
            "round_index": self.round_index,
            "centre": _text(self.centre),
            "starter": self.starter,
            "current_player": self.current_player,
            "result": None if self.result is None else result_dict(self.result),
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "yard_size": self.yard_size,
            "open_ends": [[e.id, e.number, t] for e, t in zip(self.open_ends, self.trains)],
            "pending_ends": list(self.pending_ends),
            "obligation": self.obligation,
            "unlocked": list(self.unlocked),
            "markers": list(self.markers),
            "layout": [[str(pl.tile), pl.end, pl.number, list(pl.created)] for pl in self.layout],
            "drawn_tile": _text(self.drawn_tile),
            "drawing": self.drawing,
            "history": [[h.seat, str(h.move), _text(h.drawn), h.points] for h in self.history],
            "setup_draws": list(self.setup_draws),
            "own_setup_draws": [str(t) for t in self.own_setup_draws],
            "highest_double": self.highest_double,
            "play_points": list(self.play_points),
            "carried": list(self.carried),
            "legal_moves": [str(m) for m in self._legal_moves],
            "legal_actions": list(self._legal_actions),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "PlayerView":
        """A view from ``to_dict()`` output: ``StateError``, and no view, for
        anything that is not the view of some real round (docs/validation.md,
        "Views"). Every field is checked for its type and range and against
        the others (:func:`view_fields`); then, when ``dominocore`` is
        imported with its compiled core, the view is rebuilt from its own
        knowledge, the history replayed with every move checked, and each
        public field compared (``dominocore.search`` registers that check)."""
        view = cls(**view_fields(data))
        if _deep_check is not None:
            _deep_check(view)
        return view

    # ------------------------------------------------------------ value semantics

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.round_id, self.seat, self.move_number))

    def __reduce__(self):
        return (type(self).from_dict, (self.to_dict(),))

    def __repr__(self) -> str:
        status = "over" if self.result is not None else f"seat {self.current_player} to move"
        hand = " ".join(str(t) for t in self.hand)
        return f"<PlayerView seat {self.seat}, move {self.move_number}, {status}, hand {hand}>"


#: The check of a view against the rules' engine, registered by a higher layer
#: (``dominocore.search``, which owns the compiled core's rebuilding of a
#: position from a view): called with every view ``from_dict`` builds, it
#: raises ``StateError`` when no real round has this view.
_deep_check: Optional[Callable[["PlayerView"], Any]] = None


def register_view_check(check: Optional[Callable[["PlayerView"], Any]]) -> None:
    """Install ``check`` (or none) as the deep check of ``PlayerView.from_dict``.
    ``common`` is the neutral lower layer: it imports no implementation, so
    the package registers the engine's check when it is imported."""
    global _deep_check
    _deep_check = check


def view_record(view: PlayerView) -> Dict[str, Any]:
    """``view.to_dict()``, with ``StateError`` where a view built by hand
    cannot write one; ``PlayerView(**view_fields(record))`` then reads it
    back through every structural check."""
    try:
        return view.to_dict()
    except Exception as exc:  # noqa: BLE001 - a view built by hand with fields of any type
        raise StateError(f"malformed view: {type(exc).__name__}: {exc}") from None


def view_for(position: Any, seat: Any) -> Tuple[PlayerView, Optional[int]]:
    """What a picture or a text of ``position`` (either implementation's
    ``Round``, or a ``PlayerView``) for ``seat`` is drawn from: a view, and
    the seat whose own tiles it may show (``None``: the view's public fields
    only, as a spectator sees them). ``RulesError`` for a seat out of range
    or another seat than a view's own; ``TypeError`` for anything else."""
    if isinstance(position, PlayerView):
        if seat is not None and check_seat(position.rules.players, seat) != position.seat:
            raise RulesError(f"this view is seat {position.seat}'s, not seat {seat}'s")
        return position, None if seat is None else position.seat
    if not callable(getattr(type(position), "view", None)) or not hasattr(position, "layout"):
        raise TypeError(f"expected a Round or a PlayerView, got {shown(position)}")
    if seat is None:
        return position.view(0), None  # only its public fields are read
    view = position.view(seat)
    return view, view.seat
