"""A view's record: the format ``PlayerView.to_dict()`` writes, and its
reading back, every field checked (docs/information.md 3, docs/validation.md
"Views"). ``dominocore.common.view`` builds views from rounds and holds them."""

from __future__ import annotations

from typing import Any, Dict, NamedTuple, Optional

from .checks import MAX_ROUND_INDEX, as_int, check_keys, shown
from .errors import ParseError, RulesError, StateError
from .information import history_bound
from .moves import DRAW, MAX_END_ID, End, Move, Placement
from .rules import rules_from_dict
from .tiles import Tile

__all__ = ["HistoryEntry", "VIEW_KEYS", "VIEW_VERSION", "result_dict", "view_fields"]

#: The version of ``PlayerView.to_dict()``'s format.
VIEW_VERSION = 3  # 2: highest_double; 3: points scored in play, carried, results split


class HistoryEntry(NamedTuple):
    """One move of the public history as a seat sees it: who moved, the
    move, for the viewer's own Draws the tile drawn (``None`` otherwise),
    and the points the move scored (docs/games/all_fives.md F5; 0 in the
    games that score only at the end)."""

    seat: int
    move: Move
    drawn: Optional[Tile]
    points: int = 0


def result_dict(result: tuple) -> Dict[str, Any]:
    reason, out_seat, points, starter, moves, play, end = result
    return {
        "reason": reason,
        "out_seat": out_seat,
        "points": list(points),
        "starter": starter,
        "moves": moves,
        "play_points": list(play),
        "end_points": list(end),
    }


#: The keys of ``PlayerView.to_dict()`` (and so of a view record).
VIEW_KEYS = frozenset(
    """view_version seat round_id move_number rules round_index centre starter current_player result hand
    hand_sizes yard_size open_ends pending_ends obligation unlocked markers layout drawn_tile drawing history
    setup_draws own_setup_draws highest_double play_points carried legal_moves legal_actions""".split()
)
_RESULT_KEYS = frozenset(["reason", "out_seat", "points", "starter", "moves", "play_points", "end_points"])
_OBLIGATIONS = (None, "start", "foot", "double")
_REASONS = ("out", "blocked", "target")
#: The largest match total a view may carry into its round.
MAX_CARRIED = 2**31 - 1
#: The longest ``round_id`` accepted (``round.view`` writes 16 hex digits).
MAX_ROUND_ID = 64


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
    most = rules.most_round_points
    for i, entry in enumerate(raw_history):
        mover, text, drawn, scored = _list(entry, f"history entry {i}", 4)
        move = _move(text, f"history entry {i}'s move")
        mover = _int(mover, f"history entry {i}'s seat", 0, p - 1)
        drawn = _opt_tile(drawn, f"history entry {i}'s drawn tile", t)
        if (drawn is not None) != (mover == seat and move.kind == DRAW):
            raise StateError(
                f"history entry {i}: the drawn tile is shown for the viewer's own Draws, and only for them"
            )
        scored = _int(scored, f"history entry {i}'s points", 0, most if rules.scores_in_play and move.is_place else 0)
        history.append(HistoryEntry(mover, move, drawn, scored))
    # the points of play, and the match totals carried in (docs/games/all_fives.md F5, F8)
    play_points = tuple(_int(x, "play_points", 0, most) for x in _list(data["play_points"], "play_points", p))
    for s in range(p):
        side = sum(h.points for h in history if rules.team_of(h.seat) == rules.team_of(s))
        if play_points[s] != side:
            raise StateError(f"play_points says seat {s} scored {play_points[s]} in play, its moves {side}")
    high = MAX_CARRIED if rules.scores_in_play else 0
    carried = tuple(_int(x, "carried", 0, high) for x in _list(data["carried"], "carried", p))
    if any(carried[s] != carried[rules.team_of(s)] for s in range(p)):
        raise StateError("partners carry their team's total: carried must be equal within a team")
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
        points = tuple(_int(x, "result points", 0, most) for x in _list(result["points"], "result points", p))
        play = tuple(_int(x, "result play_points", 0, most) for x in _list(result["play_points"], "play_points", p))
        end = tuple(_int(x, "result end_points", 0, most) for x in _list(result["end_points"], "end_points", p))
        if play != play_points or any(a + b != c for a, b, c in zip(play, end, points)):
            raise StateError("the result's points are not its play_points (the view's) plus its end_points")
        if reason == "target" and (not rules.scores_in_play or any(end)):
            raise StateError("only a round of a game that scores in play stops at the target, with no end points")
        if _int(result["starter"], "result starter", 0, p - 1) != starter:
            raise StateError("the result's starter is not the view's")
        if _int(result["moves"], "result moves", 0, bound) != move_number:
            raise StateError("the result's move count is not the view's")
        result = (reason, out_seat, points, starter, move_number, play, end)
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
        play_points=play_points,
        carried=carried,
        _legal_moves=legal_moves,
        _legal_actions=legal_actions,
    )
