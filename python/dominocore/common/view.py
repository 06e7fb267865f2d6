"""What one seat may see of a round: ``PlayerView`` (docs/information.md 3).

A view is built from a round's public queries and the seat's own private
history, then holds plain values only: no reference to the round, nothing of
another seat's tiles or the yard order. It is immutable, compares by value,
and travels as JSON (``to_dict``/``from_dict``), so an app can send it to a
client and run a whole game from views alone.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from .checks import MAX_ROUND_INDEX, Guarded, as_int, check_keys, check_seat, shown
from .errors import ParseError, RulesError, StateError
from .information import history_bound
from .moves import DRAW, MAX_END_ID, End, Move, Placement
from .rules import Rules, rules_from_dict
from .tiles import Tile, tiles_of_set

__all__ = ["HistoryEntry", "PlayerView", "round_id", "view_for", "view_fields", "register_view_check"]

#: The version of ``PlayerView.to_dict()``'s format.
VIEW_VERSION = 2  # 2: highest_double


class HistoryEntry(NamedTuple):
    """One move of the public history as a seat sees it: who moved, the
    move, and for the viewer's own Draws the tile drawn (``None`` otherwise)."""

    seat: int
    move: Move
    drawn: Optional[Tile]


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
      highest double dealt (Doubles, Block's highest-double lead).

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
        "highest_double", "_legal_moves", "_legal_actions",
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
    #: (reason, out_seat, points, starter, moves), as ``RoundResult``, once the round is over
    result: Optional[Tuple[str, int, Tuple[int, ...], int, int]]
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
            HistoryEntry(mover, move, drawn if mover == seat and move.kind == DRAW else None)
            for mover, move, drawn in round._history()
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
            "result": None if self.result is None else _result_dict(self.result),
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
            "history": [[h.seat, str(h.move), _text(h.drawn)] for h in self.history],
            "setup_draws": list(self.setup_draws),
            "own_setup_draws": [str(t) for t in self.own_setup_draws],
            "highest_double": self.highest_double,
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


def _result_dict(result: tuple) -> Dict[str, Any]:
    reason, out_seat, points, starter, moves = result
    return {"reason": reason, "out_seat": out_seat, "points": list(points), "starter": starter, "moves": moves}


#: The keys of ``PlayerView.to_dict()`` (and so of a view record).
VIEW_KEYS = frozenset(
    """view_version seat round_id move_number rules round_index centre starter current_player result hand
    hand_sizes yard_size open_ends pending_ends obligation unlocked markers layout drawn_tile drawing history
    setup_draws own_setup_draws highest_double legal_moves legal_actions""".split()
)
_RESULT_KEYS = frozenset(["reason", "out_seat", "points", "starter", "moves"])
_OBLIGATIONS = (None, "start", "foot", "double")
_REASONS = ("out", "blocked")
#: The longest ``round_id`` accepted (``round.view`` writes 16 hex digits).
MAX_ROUND_ID = 64

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


def _int(value: Any, name: str, low: int, high: int) -> int:
    return as_int(value, name, low, high, StateError)


def _bool(value: Any, name: str) -> bool:
    if type(value) is not bool:
        raise StateError(f"{name} must be true or false, got {shown(value)}")
    return value


def _list(value: Any, name: str, length: Optional[int] = None, most: Optional[int] = None) -> list:
    if type(value) is not list:
        raise StateError(f"{name} must be a list, got {shown(value)}")
    if length is not None and len(value) != length:
        raise StateError(f"{name} must have {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        raise StateError(f"{name} has {len(value)} entries, more than any round of these rules ({most})")
    return value


def _set_tile(value: Any, name: str, tiles: int) -> Tile:
    if type(value) is not str:
        raise StateError(f"{name} must be a tile text like '3-5', got {shown(value)}")
    try:
        tile = Tile.parse(value)
    except ParseError as exc:
        raise StateError(f"{name}: {exc}") from None
    if tile.index >= tiles:
        raise StateError(f"{name} {tile} is not a tile of this set")
    return tile


def _opt_tile(value: Any, name: str, tiles: int) -> Optional[Tile]:
    return None if value is None else _set_tile(value, name, tiles)


def _move(value: Any, name: str) -> Move:
    if type(value) is not str:
        raise StateError(f"{name} must be a move text, got {shown(value)}")
    try:
        return Move.parse(value)
    except ParseError as exc:
        raise StateError(f"{name}: {exc}") from None


def _number(value: Any, name: str, high: int) -> Optional[int]:
    return None if value is None else _int(value, name, 0, high)


def view_fields(data: Any) -> Dict[str, Any]:
    """The fields of a ``PlayerView`` read from a view record, every one
    checked for its type and range and against the others (docs/validation.md,
    "Views"), with ``StateError`` for the first that is not what
    ``to_dict()`` writes. Integers are strict (no bool, no float), lists
    are lists, the sizes are bounded by the set before anything is built
    from them, and the tiles add up to the set. What this cannot check
    (whether the history is legal, whether the layout, ends and the rest
    follow from it) is the deep check's (``PlayerView.from_dict``)."""
    try:
        return _view_fields(data)
    except StateError:
        raise
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:  # an odd object's own __index__ or __eq__
        raise StateError(f"malformed view record: {type(exc).__name__}: {exc}") from None


def _view_fields(data: Any) -> Dict[str, Any]:
    if not isinstance(data, dict):
        raise StateError(f"a view record must be a dict, got {shown(data)}")
    check_keys("a view record", data, set(VIEW_KEYS))
    version = data["view_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != VIEW_VERSION:
        raise StateError(f"unknown view format version {shown(version)} (this version reads {VIEW_VERSION})")
    try:
        rules = rules_from_dict(data["rules"])
    except (RulesError, TypeError) as exc:
        raise StateError(f"the view's rules are not a valid rules dict: {exc}") from None
    p, n_set, t = rules.players, rules.set, rules.tile_count
    seat = _int(data["seat"], "seat", 0, p - 1)
    round_id = data["round_id"]
    if type(round_id) is not str or not 0 < len(round_id) <= MAX_ROUND_ID:
        raise StateError(f"round_id must be a string of 1 to {MAX_ROUND_ID} characters, got {shown(round_id)}")
    high_index = rules.set if rules.rounds is not None else MAX_ROUND_INDEX
    round_index = _int(data["round_index"], "round_index", 0, high_index)
    centre = _opt_tile(data["centre"], "centre", t)
    starter = _int(data["starter"], "starter", 0, p - 1)
    current = _int(data["current_player"], "current_player", -1, p - 1)
    bound = history_bound(rules)
    raw_history = _list(data["history"], "history", most=bound)
    move_number = _int(data["move_number"], "move_number", 0, bound)
    if move_number != len(raw_history):
        raise StateError(f"move_number is {move_number} but the history holds {len(raw_history)} moves")
    history = []
    for i, entry in enumerate(raw_history):
        mover, text, drawn = _list(entry, f"history entry {i}", 3)
        move = _move(text, f"history entry {i}'s move")
        mover = _int(mover, f"history entry {i}'s seat", 0, p - 1)
        drawn = _opt_tile(drawn, f"history entry {i}'s drawn tile", t)
        if (drawn is not None) != (mover == seat and move.kind == DRAW):
            raise StateError(
                f"history entry {i}: the drawn tile is shown for the viewer's own Draws, and only for them"
            )
        history.append(HistoryEntry(mover, move, drawn))
    # the result
    result = data["result"]
    if result is not None:
        if not isinstance(result, dict):
            raise StateError(f"result must be null or a dict, got {shown(result)}")
        check_keys("the view's result", result, set(_RESULT_KEYS))
        reason = result["reason"]
        if type(reason) is not str or reason not in _REASONS:
            raise StateError(f"result reason must be one of {_REASONS}, got {shown(reason)}")
        out_seat = _int(result["out_seat"], "result out_seat", -1, p - 1)
        if (out_seat >= 0) != (reason == "out"):
            raise StateError(f"a result {reason!r} has out_seat {out_seat}")
        most = sum(tile.pips for tile in tiles_of_set(n_set)) + 50
        points = tuple(_int(x, "result points", 0, most) for x in _list(result["points"], "result points", p))
        if _int(result["starter"], "result starter", 0, p - 1) != starter:
            raise StateError("the result's starter is not the view's")
        if _int(result["moves"], "result moves", 0, bound) != move_number:
            raise StateError("the result's move count is not the view's")
        result = (reason, out_seat, points, starter, move_number)
        if current != -1:
            raise StateError(f"the round is over but current_player is {current}, not -1")
    elif current == -1:
        raise StateError("current_player is -1 (the round is over) but there is no result")
    # hands and yard
    hand = tuple(_set_tile(x, "a hand tile", t) for x in _list(data["hand"], "hand", most=t))
    if len(set(hand)) != len(hand):
        raise StateError("the hand holds a tile twice")
    hand_sizes = tuple(_int(x, "a hand size", 0, t) for x in _list(data["hand_sizes"], "hand_sizes", p))
    if hand_sizes[seat] != len(hand):
        raise StateError(f"hand_sizes says seat {seat} holds {hand_sizes[seat]} tiles, its hand holds {len(hand)}")
    yard_size = _int(data["yard_size"], "yard_size", 0, t)
    # the layout
    layout = []
    for i, entry in enumerate(_list(data["layout"], "layout", most=t)):
        tile, end, number, created = _list(entry, f"layout entry {i}", 4)
        made = tuple(
            _int(e, f"layout entry {i}'s new end", 0, MAX_END_ID)
            for e in _list(created, f"layout entry {i}'s new ends", most=4 * (p + 1))
        )
        layout.append(
            Placement(
                _set_tile(tile, f"layout entry {i}'s tile", t),
                _number(end, f"layout entry {i}'s end", MAX_END_ID),
                _number(number, f"layout entry {i}'s number", n_set),
                made,
            )
        )
    if len({pl.tile for pl in layout}) != len(layout):
        raise StateError("the layout holds a tile twice")
    if sum(hand_sizes) + yard_size + len(layout) != t:
        raise StateError(
            f"the hands ({sum(hand_sizes)}), the yard ({yard_size}) and the layout ({len(layout)}) "
            f"do not add up to the {t} tiles of the set"
        )
    # the ends
    ends = []
    trains = []
    for i, entry in enumerate(_list(data["open_ends"], "open_ends", most=MAX_END_ID + 1)):
        end_id, number, train = _list(entry, f"open end {i}", 3)
        ends.append(
            End(_int(end_id, f"open end {i}'s id", 0, MAX_END_ID), _number(number, f"open end {i}'s number", n_set))
        )
        trains.append(_number(train, f"open end {i}'s train", p))
    ids = [e.id for e in ends]
    if ids != sorted(set(ids)):
        raise StateError("open_ends must be in ascending id order, each once")
    pending = tuple(
        _int(x, "a pending end", 0, MAX_END_ID) for x in _list(data["pending_ends"], "pending_ends", most=len(ids))
    )
    if not set(pending) <= set(ids):
        raise StateError("a pending end is not an open end")
    obligation = data["obligation"]
    if obligation is not None and (type(obligation) is not str or obligation not in _OBLIGATIONS):
        raise StateError(f"obligation must be one of {_OBLIGATIONS}, got {shown(obligation)}")
    unlocked = tuple(
        _int(x, "an unlocked number", 0, n_set) for x in _list(data["unlocked"], "unlocked", most=n_set + 1)
    )
    if list(unlocked) != sorted(set(unlocked)):
        raise StateError("unlocked must be ascending numbers, each once")
    markers = tuple(_bool(x, "a marker") for x in _list(data["markers"], "markers", p))
    drawn_tile = _opt_tile(data["drawn_tile"], "drawn_tile", t)
    drawing = _bool(data["drawing"], "drawing")
    if drawn_tile is not None and not (drawing and current == seat and drawn_tile in hand):
        raise StateError("drawn_tile is only the viewer's own drawn tile in question, in its hand")
    # the set-up
    setup_draws = tuple(_int(x, "a search count", 0, t) for x in _list(data["setup_draws"], "setup_draws", p))
    own = tuple(
        _set_tile(x, "an own search draw", t) for x in _list(data["own_setup_draws"], "own_setup_draws", most=t)
    )
    if len(own) != setup_draws[seat]:
        raise StateError(
            f"own_setup_draws holds {len(own)} tiles but setup_draws says seat {seat} drew {setup_draws[seat]}"
        )
    if sum(setup_draws) > t:
        raise StateError("more search draws than tiles in the set")
    highest_double = _bool(data["highest_double"], "highest_double")
    # the viewer's choices
    legal_moves = tuple(
        _move(x, "a legal move") for x in _list(data["legal_moves"], "legal_moves", most=rules.num_actions)
    )
    legal_actions = tuple(
        _int(x, "a legal action", 0, rules.num_actions - 1)
        for x in _list(data["legal_actions"], "legal_actions", most=rules.num_actions)
    )
    if current != seat and (legal_moves or legal_actions):
        raise StateError("legal moves and actions are listed only on the viewer's turn")
    return dict(
        seat=seat,
        round_id=round_id,
        move_number=move_number,
        rules=rules,
        round_index=round_index,
        centre=centre,
        starter=starter,
        current_player=current,
        result=result,
        hand=hand,
        hand_sizes=hand_sizes,
        yard_size=yard_size,
        open_ends=tuple(ends),
        trains=tuple(trains),
        pending_ends=pending,
        obligation=obligation,
        unlocked=unlocked,
        markers=markers,
        layout=tuple(layout),
        drawn_tile=drawn_tile,
        drawing=drawing,
        history=tuple(history),
        setup_draws=setup_draws,
        own_setup_draws=own,
        highest_double=highest_double,
        _legal_moves=legal_moves,
        _legal_actions=legal_actions,
    )


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
