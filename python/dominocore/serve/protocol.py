"""The websocket protocol of ``dominocore serve``, version 1 (docs/serve.md 3).

Pure functions, no I/O: reading a client's message (every refusal a
:class:`ProtocolError` with its code) and building what the server sends.
Every message to a seat is built from that seat's ``PlayerView``; every
message to a spectator from :func:`public_view`, which empties a view's
private fields.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .. import svg
from ..common.view import PlayerView

__all__ = [
    "PROTOCOL_VERSION",
    "MAX_MESSAGE_BYTES",
    "ERROR_CODES",
    "ProtocolError",
    "parse_client_message",
    "public_view",
    "picture",
    "state_message",
    "error_message",
]

PROTOCOL_VERSION = 1
#: The largest message a client may send, in bytes.
MAX_MESSAGE_BYTES = 8192
#: Every error code, with when it is sent (docs/serve.md 3).
ERROR_CODES = {
    "bad_json": "not a JSON object",
    "too_large": f"more than {MAX_MESSAGE_BYTES} bytes",
    "bad_version": f"the message's v is not {PROTOCOL_VERSION}",
    "bad_message": "an unknown type, or a missing or mistyped field",
    "bad_token": "the token grants nothing",
    "spectator": "a spectator cannot play",
    "stale": "the move was made on a view that is no longer current",
    "not_your_turn": "it is another seat's turn",
    "illegal_move": "the move is not legal",
    "round_over": "the round is over",
    "match_over": "the match is over",
    "not_over": "the round is still being played",
    "internal": "the server failed",
}

# The fields each client message must have, with their types.
_FIELDS: Dict[str, Dict[str, type]] = {
    "hello": {"token": str},
    "move": {"move": str, "stamp": dict},
    "next": {},
    "ping": {},
}


class ProtocolError(Exception):
    """A refused client message: ``code`` (one of :data:`ERROR_CODES`) and a
    message for the person. Nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code


def parse_client_message(text: Any) -> Dict[str, Any]:
    """The client message in ``text`` (a websocket text or bytes frame), checked
    for size, JSON, version, type and fields; :class:`ProtocolError` otherwise."""
    if isinstance(text, bytes):
        size = len(text)
    elif isinstance(text, str):
        size = len(text.encode("utf-8", "surrogatepass"))
    else:
        raise ProtocolError("bad_json", "a message must be a JSON text")
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may have at most {MAX_MESSAGE_BYTES} bytes, this one has {size}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if data.get("v") != PROTOCOL_VERSION or isinstance(data.get("v"), bool):
        raise ProtocolError("bad_version", f'this server speaks protocol version {PROTOCOL_VERSION}: send "v": 1')
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("bad_message", f"type must be one of {', '.join(_FIELDS)}")
    for field, type_ in _FIELDS[kind].items():
        if not isinstance(data.get(field), type_):
            raise ProtocolError("bad_message", f"a {kind} message needs {field} ({type_.__name__})")
    if kind == "move":
        stamp = data["stamp"]
        round_id, number = stamp.get("round_id"), stamp.get("move_number")
        if not isinstance(round_id, str) or not isinstance(number, int) or isinstance(number, bool):
            raise ProtocolError("bad_message", "stamp needs round_id (str) and move_number (int)")
    return data


def public_view(view: PlayerView) -> Dict[str, Any]:
    """``view.to_dict()`` with every field private to its seat emptied: what a
    spectator may see (docs/information.md 3)."""
    data = view.to_dict()
    data.update(seat=None, hand=[], drawn_tile=None, own_setup_draws=[], legal_moves=[], legal_actions=[])
    data["history"] = [[seat, move, None, points] for seat, move, _drawn, points in data["history"]]
    return data


def picture(view: PlayerView) -> str:
    """The layout as SVG (``dominocore.svg``), from ``view``'s public fields
    only: the same for every client of a table, so it is drawn once a change."""
    return svg.render(view, seat=None)


def state_message(
    table: str,
    view: PlayerView,
    seat: Optional[int],
    seats: List[Dict[str, Any]],
    match: Dict[str, Any],
    layout_svg: str,
) -> Dict[str, Any]:
    """The ``state`` message for ``seat`` (``None``: a spectator) at a table
    whose current round gives ``view`` (the seat's own, or any seat's for a
    spectator: only its public fields are sent then) and the picture
    ``layout_svg`` (:func:`picture`)."""
    if seat is not None:
        assert view.seat == seat
    return {
        "v": PROTOCOL_VERSION,
        "type": "state",
        "table": table,
        "role": "spectator" if seat is None else "seat",
        "seat": seat,
        "seats": seats,
        "view": public_view(view) if seat is None else view.to_dict(),
        "svg": layout_svg,
        "match": match,
    }


def error_message(code: str, message: str) -> Dict[str, Any]:
    """The ``error`` message for ``code``."""
    assert code in ERROR_CODES, code
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}
