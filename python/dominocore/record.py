"""Game records: a round or a whole match as versioned JSON, in the spirit of
PGN (docs/records.md).

A record holds a header (the format and its version, the game and its rules,
the seed, the round index, the seats' names, an event, a date and the
result) and the moves in the move notation (``str(move)``, read back by
``Move.parse``), with what rebuilds the game exactly: a match's seed, a
round's seed or, for a round dealt otherwise, its deal. One module serves
both implementations: it writes the rounds and matches of either, and
rebuilds them with ``dominocore``'s (the implementation served) or the one
named.

>>> import dominocore as dc
>>> from dominocore import record
>>> r = dc.Round(dc.Block(players=2), seed=3)
>>> for _ in range(4):
...     r.push(r.legal_moves()[0])
>>> text = record.dumps(r, seats=["Ann", "Bo"], event="club night", date="2024-05-01")
>>> again = record.loads(text)
>>> again.to_dict() == r.to_dict()
True
>>> record.read_header(text)["seats"]
['Ann', 'Bo']

The reader checks everything and raises ``RecordError`` (a ``ParseError``)
naming what is wrong: a bad type or key, an unknown version, a header that
disagrees with its rules or with the replayed result, or an illegal move (its
1-based ply and the engine's reason code).
"""

from __future__ import annotations

import datetime
import json
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

from ._implementations import IMPLEMENTATIONS
from ._implementations import implementation as implementation_named
from .common.checks import MAX_SEED, check_round_index, shown
from .common.errors import DominoError, IllegalMoveError, ParseError, RulesError
from .common.moves import Move
from .common.results import RECORD_VERSION, RoundResult
from .common.rules import Rules, rules_from_dict

__all__ = [
    "FORMAT",
    "VERSION",
    "READABLE_VERSIONS",
    "RecordError",
    "dumps",
    "loads",
    "save",
    "load",
    "to_record",
    "from_record",
    "read_header",
]

#: The value of every record's ``"format"`` key.
FORMAT = "dominocore-record"
#: The record format version this module writes (it reads every version up to it).
VERSION = 1
#: The versions this module reads.
READABLE_VERSIONS = (1,)

#: The keys of each part of a record, in the order they are written.
_TOP_KEYS = {
    "round": ("format", "version", "kind", "header", "deal", "moves"),
    "match": ("format", "version", "kind", "header", "rounds"),
}
_HEADER_KEYS = {
    "round": ("game", "rules", "seed", "round_index", "seats", "event", "date", "result"),
    "match": ("game", "rules", "seed", "rounds", "seats", "event", "date", "result"),
}
_ROUND_RESULT_KEYS = ("reason", "out_seat", "points", "winners")
#: What a round result adds in a game that scores during play (docs/games/all_fives.md F7).
_PLAY_RESULT_KEYS = ("play_points", "end_points")
_MATCH_RESULT_KEYS = ("totals", "winners")
_MATCH_ROUND_KEYS = ("round_index", "result", "moves")

#: Lines of ``dumps`` output are kept to this width where the data allows.
_WIDTH = 100

# A Round or a Match of either implementation. This service sits above both
# engines and names neither: it asks the object it is given (or the engine a
# caller names) for everything, so no engine's code reads another's records.
Obj = Any
AnyRound = Any
AnyMatch = Any
Implementation = Union[None, str, ModuleType]


class RecordError(ParseError):
    """A game record that cannot be read: malformed, of an unknown version,
    inconsistent with itself, or holding an illegal move (docs/records.md)."""


# ---------------------------------------------------------------------- writing


def to_record(
    obj: Obj,
    *,
    seats: Optional[Sequence[str]] = None,
    event: Optional[str] = None,
    date: Union[None, str, datetime.date] = None,
    seed: Optional[int] = None,
) -> Dict[str, Any]:
    """The record of a ``Round`` or a ``Match`` (of either implementation) as
    plain JSON-able data (docs/records.md).

    Header fields the object does not hold: ``seats`` (one name per seat),
    ``event`` (any text), ``date`` (``"YYYY-MM-DD"`` or a ``datetime.date``)
    and, for a round, the ``seed`` it was dealt from (``Round(rules, seed,
    round_index)``; checked), which then replaces its deal in the record. A
    match's seed is its own (``seed``, if given, must equal it).
    ``RecordError`` for a bad header value, ``TypeError`` for anything but a
    round or a match.
    """
    for name in ("python", "cpp"):
        try:
            engine = implementation_named(name)
        except ImportError:  # pragma: no cover - an install without the compiled core
            continue
        if isinstance(obj, engine.Match):
            return _match_record(obj, engine, seats, event, date, seed)
        if isinstance(obj, engine.Round):
            return _round_record(obj, engine, seats, event, date, seed)
    raise TypeError(f"a record is written of a dominocore Round or Match, got {shown(obj)}")


def dumps(
    obj: Obj,
    *,
    seats: Optional[Sequence[str]] = None,
    event: Optional[str] = None,
    date: Union[None, str, datetime.date] = None,
    seed: Optional[int] = None,
) -> str:
    """The record of ``obj`` as JSON text, laid out for reading (one
    newline-terminated document; ``to_record`` describes the arguments).
    ``dumps(loads(text), **header_args) == text`` for every record written
    by this version, where ``header_args`` are ``read_header(text)``'s
    ``seats``, ``event``, ``date`` and ``seed``."""
    return _layout(to_record(obj, seats=seats, event=event, date=date, seed=seed), 0) + "\n"


def save(obj: Obj, path: Union[str, "os.PathLike[str]"], **header: Any) -> None:
    """Write ``dumps(obj, **header)`` to the file ``path`` (UTF-8)."""
    text = dumps(obj, **header)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def _round_record(round_: AnyRound, engine: ModuleType, seats: Any, event: Any, date: Any, seed: Any) -> Dict[str, Any]:
    rules: Rules = round_.rules  # type: ignore[attr-defined]
    data = round_.to_dict()
    deal: Optional[Dict[str, Any]] = data["deal"]
    if seed is not None:
        seed = _writer_seed(seed)
        dealt = type(round_)(rules, seed, data["round_index"])  # type: ignore[call-arg]
        if dealt.to_dict()["deal"] != deal:
            raise RecordError(
                f"seed {seed} does not deal this round (round index {data['round_index']}): "
                "give the seed it was dealt from, or none (the record then holds its deal)"
            )
        deal = None
    header = {
        "game": rules.game,
        "rules": rules.to_dict(),
        "seed": seed,
        "round_index": data["round_index"],
        "seats": _writer_seats(seats, rules.players),
        "event": _writer_event(event),
        "date": _writer_date(date),
        "result": _round_result(engine, rules, round_.result),  # type: ignore[attr-defined]
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "round",
        "header": header,
        "deal": deal,
        "moves": data["moves"],
    }


def _match_record(match: AnyMatch, engine: ModuleType, seats: Any, event: Any, date: Any, seed: Any) -> Dict[str, Any]:
    rules = match.rules
    if seed is not None and _writer_seed(seed) != match.seed:
        raise RecordError(f"a match record's seed is the match's own ({match.seed}), not {shown(seed)}")
    rounds = [
        {
            "round_index": r.round_index,
            "result": _round_result(engine, rules, r.result),
            "moves": [str(m) for m in r.move_stack],
        }
        for r in match.rounds
    ]
    result = {"totals": list(match.totals), "winners": list(match.winners)} if match.is_over else None
    header = {
        "game": rules.game,
        "rules": rules.to_dict(),
        "seed": match.seed,
        "rounds": len(rounds),
        "seats": _writer_seats(seats, rules.players),
        "event": _writer_event(event),
        "date": _writer_date(date),
        "result": result,
    }
    return {"format": FORMAT, "version": VERSION, "kind": "match", "header": header, "rounds": rounds}


def _round_result(engine: ModuleType, rules: Rules, result: Optional[RoundResult]) -> Optional[Dict[str, Any]]:
    """A round's result as the record writes it: the winners are the seats
    that would win a match of this round alone (as ``engine`` rules it)."""
    if result is None:
        return None
    written = {
        "reason": result.reason,
        "out_seat": None if result.out_seat < 0 else result.out_seat,
        "points": list(result.points),
        "winners": list(engine.match_winners(rules, [result])),
    }
    if rules.scores_in_play:  # the points of play and of the end, apart (docs/games/all_fives.md F7)
        written["play_points"] = list(result.play_points)
        written["end_points"] = list(result.end_points)
    return written


def _writer_seed(seed: Any) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"seed must be an integer 0..2**64-1, got {shown(seed)}")
    return seed


def _writer_seats(seats: Any, players: int) -> Optional[List[str]]:
    if seats is None:
        return None
    if not isinstance(seats, (list, tuple)) or len(seats) != players:
        raise RecordError(f"seats must be a list of {players} names, one per seat, got {shown(seats)}")
    for name in seats:
        if not isinstance(name, str) or not name:
            raise RecordError(f"each seat's name must be a non-empty string, got {shown(name)}")
    return list(seats)


def _writer_event(event: Any) -> Optional[str]:
    if event is not None and not isinstance(event, str):
        raise RecordError(f"event must be a string, got {shown(event)}")
    return event


def _writer_date(date: Any) -> Optional[str]:
    if date is None:
        return None
    if isinstance(date, datetime.datetime):
        return date.date().isoformat()
    if isinstance(date, datetime.date):
        return date.isoformat()
    _check_date(date, "date")
    return str(date)


def _check_date(date: Any, where: str) -> None:
    """A date written ``YYYY-MM-DD`` (``RecordError`` otherwise)."""
    ok = isinstance(date, str) and len(date) == 10
    if ok:
        try:
            ok = datetime.date.fromisoformat(date).isoformat() == date
        except ValueError:
            ok = False
    if not ok:
        raise RecordError(f"{where} must be a date written YYYY-MM-DD, got {shown(date)}")


def _layout(value: Any, indent: int, prefix: int = 0) -> str:
    """JSON text of ``value``, starting ``indent + prefix`` characters into
    its line: a value that fits on the rest of the line is written compactly;
    else a list of scalars is wrapped, other containers take a line per item."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value or indent + prefix + len(flat) <= _WIDTH:
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(inner + key + _layout(v, indent + 2, len(key)))
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        lines, line = [], ""
        for v in value:
            item = json.dumps(v, ensure_ascii=False)
            if line and len(inner) + len(line) + len(item) + 3 > _WIDTH:  # ", " item ","
                lines.append(line + ",")
                line = ""
            line = f"{line}, {item}" if line else item
        lines.append(line)
        return "[\n" + "\n".join(inner + ln for ln in lines) + "\n" + pad + "]"
    return "[\n" + ",\n".join(inner + _layout(v, indent + 2) for v in value) + "\n" + pad + "]"


# ---------------------------------------------------------------------- reading


if TYPE_CHECKING:  # what the default implementation rebuilds, for type checkers
    from . import native as _native

    #: A record read with the compiled core (the default, as ``dominocore`` serves it to type checkers).
    Loaded = Union[_native.Round, _native.Match]


@overload
def loads(text: Union[str, bytes], *, implementation: Literal["python"]) -> Obj: ...
@overload
def loads(text: Union[str, bytes], *, implementation: Literal[None, "cpp", "default"] = None) -> Loaded: ...
@overload
def loads(text: Union[str, bytes], *, implementation: ModuleType) -> Obj: ...
def loads(text: Union[str, bytes], *, implementation: Implementation = None) -> Obj:
    """The ``Round`` or ``Match`` a record's JSON text describes, rebuilt and
    replayed move by move with ``implementation`` (a module such as
    ``dominocore`` or ``dominocore.reference``, or ``"cpp"``/``"python"``;
    default: ``dominocore``, the implementation served). ``RecordError`` for
    anything wrong (docs/records.md lists the checks)."""
    return _read(_parse_json(text), implementation)


@overload
def load(path: Union[str, "os.PathLike[str]"], *, implementation: Literal["python"]) -> Obj: ...
@overload
def load(path: Union[str, "os.PathLike[str]"], *, implementation: Literal[None, "cpp", "default"] = None) -> Loaded: ...
@overload
def load(path: Union[str, "os.PathLike[str]"], *, implementation: ModuleType) -> Obj: ...
def load(path: Union[str, "os.PathLike[str]"], *, implementation: Implementation = None) -> Obj:
    """``loads`` of the file ``path`` (UTF-8)."""
    with open(path, "rb") as f:
        return _read(_parse_json(f.read()), implementation)


def read_header(record: Union[str, bytes, Dict[str, Any]]) -> Dict[str, Any]:
    """The header of a record (its JSON text, or the data ``to_record``
    returns), once the whole record has been checked and replayed as
    ``loads`` does (``RecordError`` otherwise)."""
    data = _parse_json(record) if isinstance(record, (str, bytes, bytearray)) else record
    from_record(data)
    return json.loads(json.dumps(data["header"]))  # a deep copy


@overload
def from_record(data: Dict[str, Any], *, implementation: Literal["python"]) -> Obj: ...
@overload
def from_record(data: Dict[str, Any], *, implementation: Literal[None, "cpp", "default"] = None) -> Loaded: ...
@overload
def from_record(data: Dict[str, Any], *, implementation: ModuleType) -> Obj: ...
def from_record(data: Dict[str, Any], *, implementation: Implementation = None) -> Obj:
    """The ``Round`` or ``Match`` a record (the data ``to_record`` returns)
    describes; ``loads`` without the JSON."""
    return _read(data, implementation)


def _read(data: Any, implementation: Implementation) -> Obj:
    """``from_record``, for every implementation argument."""
    module = _implementation(implementation)
    kind = _check_envelope(data)
    header = _check_header(data["header"], kind)
    rules = header["rules"]
    if kind == "round":
        return _read_round(module, data, header, rules)
    return _read_match(module, data, header, rules)


def _parse_json(text: Any) -> Any:
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"a record is UTF-8 text: {exc}") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, got {shown(text)}")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecordError:
        raise
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"a record must be JSON: {exc}") from None


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold")


def _implementation(implementation: Implementation) -> Any:
    if implementation is None or (isinstance(implementation, str) and implementation in IMPLEMENTATIONS):
        return implementation_named(implementation or "default")
    if isinstance(implementation, ModuleType) and hasattr(implementation, "Round") and hasattr(implementation, "Match"):
        return implementation
    raise RulesError(
        f"implementation must be 'cpp', 'python' or a module with Round and Match, got {shown(implementation)}"
    )


def _check_keys(data: Any, keys: Tuple[str, ...], what: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"{what} must be a JSON object, got {shown(data)}")
    unknown = [k for k in data if k not in keys]
    if unknown:
        raise RecordError(f"unknown key {shown(unknown[0])} in {what}")
    missing = [k for k in keys if k not in data]
    if missing:
        raise RecordError(f"missing key {missing[0]!r} in {what}")


def _check_envelope(data: Any) -> str:
    """The format, version and kind; every top-level key. Returns the kind."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {shown(data)}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a dominocore record: its 'format' must be {FORMAT!r}, got {shown(data.get('format'))}")
    version = data.get("version")
    if type(version) is not int:
        raise RecordError(f"the record's version must be an integer, got {shown(version)}")
    if version not in READABLE_VERSIONS:
        newer = " (newer than this dominocore reads: upgrade it)" if version > VERSION else ""
        raise RecordError(f"unsupported record version {version}{newer}: this version reads {list(READABLE_VERSIONS)}")
    kind = data.get("kind")
    if kind not in ("round", "match"):
        raise RecordError(f"the record's kind must be 'round' or 'match', got {shown(kind)}")
    _check_keys(data, _TOP_KEYS[kind], "the record")
    return str(kind)


def _check_header(header: Any, kind: str) -> Dict[str, Any]:
    """Type-check the header; return its fields with ``rules`` as a Rules object."""
    _check_keys(header, _HEADER_KEYS[kind], "the header")
    out = dict(header)
    try:
        rules = rules_from_dict(header["rules"])
    except (RulesError, TypeError) as exc:
        raise RecordError(f"bad rules in the header: {exc}") from None
    out["rules"] = rules
    if header["game"] != rules.game:
        raise RecordError(f"the header's game {shown(header['game'])} is not its rules' game {rules.game!r}")
    seed = header["seed"]
    if (seed is not None or kind == "match") and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
        optional = " or null" if kind == "round" else ""
        raise RecordError(f"the header's seed must be an integer 0..2**64-1{optional}, got {shown(seed)}")
    if kind == "round":
        index = header["round_index"]
        try:
            if type(index) is not int:
                raise RulesError(f"round_index must be an integer, got {shown(index)}")
            check_round_index(rules, index)
        except RulesError as exc:
            raise RecordError(f"the header's {exc}") from None
    else:
        count = header["rounds"]
        if type(count) is not int or count < 0:
            raise RecordError(f"the header's rounds must be a count of rounds, got {shown(count)}")
    seats = header["seats"]
    if seats is not None:
        if not isinstance(seats, list) or len(seats) != rules.players:
            raise RecordError(f"the header's seats must be null or a list of {rules.players} names, got {shown(seats)}")
        for name in seats:
            if not isinstance(name, str) or not name:
                raise RecordError(f"each seat's name must be a non-empty string, got {shown(name)}")
    if header["event"] is not None and not isinstance(header["event"], str):
        raise RecordError(f"the header's event must be null or a string, got {shown(header['event'])}")
    if header["date"] is not None:
        _check_date(header["date"], "the header's date")
    result = header["result"]
    if result is not None:
        if kind == "round":
            _check_round_result(result, rules.players, "the header's result")
        else:
            _check_keys(result, _MATCH_RESULT_KEYS, "the header's result")
            _check_ints(result["totals"], rules.players, "the header's result totals")
            _check_ints(result["winners"], None, "the header's result winners")
    return out


def _check_round_result(result: Any, players: int, where: str) -> None:
    keys = _ROUND_RESULT_KEYS + _PLAY_RESULT_KEYS if isinstance(result, dict) and "play_points" in result else None
    _check_keys(result, keys or _ROUND_RESULT_KEYS, where)
    if not isinstance(result["reason"], str):
        raise RecordError(f"{where}'s reason must be a string, got {shown(result['reason'])}")
    out_seat = result["out_seat"]
    if out_seat is not None and type(out_seat) is not int:
        raise RecordError(f"{where}'s out_seat must be a seat or null, got {shown(out_seat)}")
    _check_ints(result["points"], players, f"{where}'s points")
    _check_ints(result["winners"], None, f"{where}'s winners")


def _check_ints(values: Any, length: Optional[int], what: str) -> None:
    if not isinstance(values, list) or any(type(v) is not int for v in values):
        raise RecordError(f"{what} must be a list of integers, got {shown(values)}")
    if length is not None and len(values) != length:
        raise RecordError(f"{what} must hold {length} numbers, one per seat, got {len(values)}")


def _check_moves(moves: Any, where: str) -> List[Move]:
    """The moves of a round, each written as ``str(move)`` writes it."""
    if not isinstance(moves, list):
        raise RecordError(f"{where}'s moves must be a list of moves, got {shown(moves)}")
    out = []
    for ply, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RecordError(f"{where}, move {ply}: a move is a string, got {shown(text)}")
        try:
            move = Move.parse(text)
        except ParseError as exc:
            raise RecordError(f"{where}, move {ply}: {exc}") from None
        if str(move) != text:
            raise RecordError(f"{where}, move {ply}: {text!r} is not written as the notation writes it ({str(move)!r})")
        out.append(move)
    return out


def _replay(round_: Any, moves: List[Move], where: str) -> None:
    """Push ``moves``; an illegal one is named by its 1-based ply and the engine's reason."""
    for ply, move in enumerate(moves, 1):
        try:
            round_.push(move)
        except IllegalMoveError as exc:
            raise RecordError(f"{where}, move {ply} ({move}) is illegal: {exc.reason}: {exc}") from None


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``true`` is not ``1``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _check_result(given: Any, replayed: Any, where: str) -> None:
    if not _same(given, replayed):
        raise RecordError(f"{where} {json.dumps(given)} is not the result of its moves, {json.dumps(replayed)}")


def _read_round(module: Any, data: Dict[str, Any], header: Dict[str, Any], rules: Rules) -> AnyRound:
    moves = _check_moves(data["moves"], "the round")
    seed, index, deal = header["seed"], header["round_index"], data["deal"]
    if seed is not None:
        if deal is not None:
            raise RecordError("a round record holds a seed or a deal, not both: its seed deals the round")
        round_ = module.Round(rules, seed, index)
    else:
        if deal is None:
            raise RecordError("a round record without a seed must hold its deal")
        if not isinstance(deal, dict):
            raise RecordError(f"the record's deal must be a JSON object, got {shown(deal)}")
        try:
            round_ = module.Round.from_dict(
                {"version": RECORD_VERSION, "rules": rules.to_dict(), "round_index": index, "deal": deal, "moves": []}
            )
        except DominoError as exc:
            raise RecordError(f"bad deal: {exc}") from None
    _replay(round_, moves, "the round")
    _check_result(header["result"], _round_result(module, rules, round_.result), "the header's result")
    return round_


def _read_match(module: Any, data: Dict[str, Any], header: Dict[str, Any], rules: Rules) -> AnyMatch:
    entries = data["rounds"]
    if not isinstance(entries, list):
        raise RecordError(f"the record's rounds must be a list, got {shown(entries)}")
    if header["rounds"] != len(entries):
        raise RecordError(f"the header counts {header['rounds']} rounds, but the record holds {len(entries)}")
    plans: List[Tuple[Any, List[Move]]] = []
    for k, entry in enumerate(entries):
        where = f"round {k}"
        _check_keys(entry, _MATCH_ROUND_KEYS, where)
        if entry["round_index"] != k or type(entry["round_index"]) is not int:
            raise RecordError(f"{where} has round_index {shown(entry['round_index'])}, not {k}")
        if entry["result"] is not None:
            _check_round_result(entry["result"], rules.players, f"{where}'s result")
        plans.append((entry["result"], _check_moves(entry["moves"], where)))
    match = module.Match(rules, header["seed"])
    for k, (result, moves) in enumerate(plans):
        where = f"round {k}"
        if match.is_over:
            raise RecordError(f"{where} follows the end of the match (it was over after {k} rounds)")
        if len(match.results) < k:
            raise RecordError(f"round {k - 1} is not over, but {where} follows it")
        round_ = match.new_round()
        _replay(round_, moves, where)
        _check_result(result, _round_result(module, rules, round_.result), f"{where}'s result")
    replayed = {"totals": list(match.totals), "winners": list(match.winners)} if match.is_over else None
    _check_result(header["result"], replayed, "the header's result")
    return match
