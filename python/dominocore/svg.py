"""Pictures of a round as SVG, built as plain text with no dependency
(python-chess's ``chess.svg`` is the model); docs/svg.md describes them.

``render(round, seat)`` draws the layout (every placed tile with its pips,
the open ends labelled with the ids of move notation ``a-b@id``), the hand of
``seat`` and every seat's tile count and the yard's size. The picture is built
from ``round.view(seat)`` alone (docs/information.md 3), so it can never show
a tile that ``seat`` may not see; with ``seat=None`` it shows public state only.

>>> import dominocore as dc
>>> from dominocore import svg
>>> r = dc.Round(dc.ChickenFoot(players=4), seed=7)
>>> r.push(r.legal_moves()[0])
>>> picture = svg.render(r, seat=2)
>>> picture.startswith("<svg") and picture.count('class="tile"') == len(r.layout)
True
>>> picture.count('class="end"') == len(r.open_ends)
True
"""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

from .common.checks import as_int
from .common.extensions import register_renderer
from .common.tiles import Tile
from .common.view import PlayerView, view_for
from .svg_layout import FONT_SIZE, UNIT, Scene, scene_of, text_width
from .text import game_title

__all__ = ["render", "PIP_PATTERNS", "PALETTE"]


#: Where the pips of 0..9 lie in a half, as (x, y) in units of the pip grid
#: step (the half is 3 steps wide): the usual patterns of a domino set; 7, 8
#: and 9 fill the 3 x 3 grid as double-9 sets do.
PIP_PATTERNS: Tuple[Tuple[Tuple[int, int], ...], ...] = (
    (),
    ((0, 0),),
    ((-1, -1), (1, 1)),
    ((-1, -1), (0, 0), (1, 1)),
    ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (0, 0), (-1, 1), (0, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
)

#: The colour of each number on sets above double-9 (pips and digits), as
#: coloured-pip sets have it; double-6 and double-9 sets use black pips.
PALETTE: Tuple[str, ...] = (
    "#222222", "#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#e65100", "#00838f", "#ad1457", "#4e342e",
    "#283593", "#558b2f", "#d84315", "#37474f", "#00695c", "#8d6e63", "#8e24aa", "#1e88e5", "#827717", "#e53935",
)  # fmt: skip

_INK = "#222222"
_FACE = "#fffdf6"
_CENTRE_FACE = "#fff1cc"
_EDGE = "#3a3a3a"
_LAST = "#d32f2f"
_END = "#1976d2"
_PENDING = "#f57c00"
_MARKER = "#d32f2f"
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_LINE = 20.0
_MARGIN = 12.0

_OBLIGATIONS = {
    "start": "the start double's slots come first",
    "foot": "the chicken foot's toes come first",
    "double": "the double must be satisfied first",
}

#: The tiles of a hand row.
_HAND_ROW = 14


# ---------------------------------------------------------------- SVG text


def _n(x: float) -> str:
    """A coordinate as short text (-0 is written 0)."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _colour(value: int, big_set: bool) -> str:
    return PALETTE[value] if big_set else _INK


def _half_svg(value: int, x: float, angle: float, big_set: bool) -> str:
    """One half of a tile, centred ``x`` pixels along the tile: its pips
    (0..9) or its number in digits (10..18, kept upright)."""
    colour = _colour(value, big_set)
    parts = [f'<g class="half" data-value="{value}" transform="translate({_n(x)} 0)">']
    if value < len(PIP_PATTERNS):
        step = 0.27 * UNIT
        radius = (0.085 if value >= 7 else 0.1) * UNIT
        for px, py in PIP_PATTERNS[value]:
            parts.append(f'<circle class="pip" cx="{_n(px * step)}" cy="{_n(py * step)}" r="{_n(radius)}"/>')
        if value:
            parts[1:] = [p.replace("<circle ", f'<circle fill="{colour}" ', 1) for p in parts[1:]]
    else:
        parts.append(
            f'<text class="digits" transform="rotate({_n(-angle)})" x="0" y="{_n(0.19 * UNIT)}" '
            f'text-anchor="middle" font-size="{_n(0.52 * UNIT)}" font-weight="bold" fill="{colour}">{value}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _tile_svg(
    cls: str,
    tile: Tile,
    near: int,
    far: int,
    at: Tuple[float, float, float],
    big_set: bool,
    data: str = "",
    face: str = _FACE,
    stroke: Tuple[str, float] = (_EDGE, 1.2),
) -> str:
    """A tile centred at ``(x, y)`` pixels, its long axis at ``angle``
    degrees (``at = (x, y, angle)``), the ``near`` half first along it;
    ``data`` holds its extra attributes."""
    u = UNIT
    cx, cy, angle = at
    colour, width = stroke
    return (
        f'<g class="{cls}" data-tile="{tile}"{data} transform="translate({_n(cx)} {_n(cy)}) rotate({_n(angle)})">'
        f'<rect x="{_n(-u + 1.5)}" y="{_n(-u / 2 + 1.5)}" width="{_n(2 * u - 3)}" height="{_n(u - 3)}" '
        f'rx="{_n(u * 0.14)}" fill="{face}" stroke="{colour}" stroke-width="{width}"/>'
        f'<line x1="0" y1="{_n(-u / 2 + 5)}" x2="0" y2="{_n(u / 2 - 5)}" stroke="{_EDGE}" stroke-width="1"/>'
        + _half_svg(near, -u / 2, angle, big_set)
        + _half_svg(far, u / 2, angle, big_set)
        + "</g>"
    )


def _text_svg(x: float, y: float, text: str, cls: str, size: float = FONT_SIZE, extra: str = "") -> str:
    return f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{extra}>{escape(text)}</text>'


def _board_svg(scene: Scene, last: Optional[int], big_set: bool, dx: float, dy: float) -> str:
    """The layout, shifted by ``(dx, dy)`` pixels."""
    u = UNIT
    out = [f'<g class="layout" transform="translate({_n(dx)} {_n(dy)})">']
    for x1, y1, x2, y2 in scene.rails:
        out.append(
            f'<line class="rail" x1="{_n(x1 * u)}" y1="{_n(y1 * u)}" x2="{_n(x2 * u)}" y2="{_n(y2 * u)}" '
            f'stroke="#9e9e9e" stroke-width="2"/>'
        )
    for x, y, name, train, marker in scene.names:
        out.append(_text_svg(x * u, y * u + 5, name, "train", extra=f' data-train="{train}" fill="{_INK}"'))
        if marker:
            mx = x * u + text_width(name, FONT_SIZE) + 0.45 * u
            out.append(
                f'<g class="marker" data-train="{train}"><circle cx="{_n(mx)}" cy="{_n(y * u)}" r="{_n(0.3 * u)}" '
                f'fill="{_MARKER}"/><text x="{_n(mx)}" y="{_n(y * u + 4)}" font-size="11" fill="#ffffff" '
                f'text-anchor="middle" font-weight="bold">M</text></g>'
            )
    for piece in scene.pieces:
        if piece.laid.jump is not None:
            x1, y1, x2, y2 = (v * u for v in piece.laid.jump)
            out.append(
                f'<line class="jump" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                f'stroke="#616161" stroke-width="2" stroke-dasharray="4 3"/>'
            )
    for piece in scene.pieces:
        laid = piece.laid
        (nx, ny), (fx, fy) = laid.near, laid.far
        angle = math.degrees(math.atan2(fy - ny, fx - nx))
        extra = f' data-index="{piece.placed}"'
        if piece.end is not None:
            extra += f' data-end="{piece.end}" data-number="{"" if piece.number is None else piece.number}"'
        if piece.end is None and piece.number is not None:
            extra += ' data-centre="1"'
        if piece.placed == last:
            extra += ' data-last="1"'
        at = ((nx + fx) / 2 * u, (ny + fy) / 2 * u, angle)
        face = _CENTRE_FACE if piece.end is None else _FACE
        stroke = (_LAST, 2.5) if piece.placed == last else (_EDGE, 1.2)
        out.append(_tile_svg("tile", piece.tile, piece.near_value, piece.far_value, at, big_set, extra, face, stroke))
    for label in scene.labels:
        colour = _PENDING if label.pending else _END
        number = "" if label.end.number is None else str(label.end.number)
        text = str(label.end.id)
        radius = 0.34 * u if len(text) < 3 else 0.42 * u
        out.append(
            f'<g class="end" data-end="{label.end.id}" data-number="{number}"'
            f"{' data-pending=' + quoteattr('1') if label.pending else ''}>"
            f'<circle cx="{_n(label.x * u)}" cy="{_n(label.y * u)}" r="{_n(radius)}" fill="{colour}" '
            f'fill-opacity="0.92" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{_n(label.x * u)}" y="{_n(label.y * u + 4)}" font-size="{_n(11 if len(text) < 3 else 10)}" '
            f'text-anchor="middle" fill="#ffffff" font-weight="bold">{text}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def _title(view: PlayerView) -> str:
    return f"{game_title(view.rules)}, round {view.round_index}"


def _status(view: PlayerView) -> str:
    if view.result is not None:
        reason, out_seat, points = view.result[:3]
        how = {"out": f"seat {out_seat} went out", "blocked": "blocked", "target": "the target was reached"}[reason]
        return f"Round over: {how}. Points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(points))
    text = f"Seat {view.current_player} to move"
    if view.drawing:
        text += " (with the tile just drawn)"
    if view.obligation:
        text += "; " + _OBLIGATIONS.get(view.obligation, view.obligation)
    if view.history:
        entry = view.history[-1]
        text += f". Last move: seat {entry.seat} {entry.move}" + (f", scoring {entry.points}" if entry.points else "")
    return text


def _seat_lines(view: PlayerView) -> List[str]:
    rules = view.rules
    parts = []
    for s, count in enumerate(view.hand_sizes):
        team = f" (team {rules.team_of(s)})" if rules.teams else ""
        text = f"seat {s}{team}: {count} tile{'' if count == 1 else 's'}"
        if view.markers[s]:
            text += " (marker)"
        if s == view.current_player:
            text = "> " + text
        parts.append(text)
    yard = "yard" if rules.has_drawing else "out of play"
    tail = [f"{yard}: {view.yard_size}"]
    if rules.locks_numbers:
        tail.append("unlocked: " + (" ".join(str(v) for v in view.unlocked) or "none"))
    lines = [" \u00b7 ".join(parts[i : i + 4]) for i in range(0, len(parts), 4)]
    lines.append(" \u00b7 ".join(tail))
    if rules.scores_in_play:  # the running totals: in play this round, and in the match (docs/games/all_fives.md)
        sides = range(rules.sides)  # with teams, seat t holds team t's points
        name = "team" if rules.teams else "seat"
        lines.append("In play: " + ", ".join(f"{name} {s} {view.play_points[s]}" for s in sides))
        if any(view.carried):
            totals = ", ".join(f"{name} {s} {view.carried[s] + view.play_points[s]}" for s in sides)
            lines.append(f"Match: {totals} (target {rules.target})")
    return lines


def render(round: Any, seat: Optional[int] = None, *, size: Optional[int] = None) -> str:
    """The picture of ``round`` (either implementation's ``Round``, or a
    ``PlayerView``) as SVG text.

    It shows the layout, every open end labelled with its id, each seat's
    tile count and the yard's size, and the hand of ``seat`` (no hand with
    ``seat=None``: public state only). It is drawn from the seat's view, so it
    holds nothing that ``seat`` may not see (docs/information.md 3). ``size``
    is the width in pixels (the height follows), ``None`` for the natural
    size (32 pixels a tile half). A bad ``seat`` or ``size`` raises
    ``RulesError``; something that is not a round, ``TypeError``.
    """
    if size is not None:
        size = as_int(size, "size", 16, 100_000)
    view, shown_seat = view_for(round, seat)
    rules = view.rules
    big_set = rules.set > 9
    scene = scene_of(view)
    x0, y0, x1, y1 = scene.bounds()
    u = UNIT
    board_w, board_h = (x1 - x0) * u, (y1 - y0) * u

    lines = [_title(view), _status(view)]
    seat_lines = _seat_lines(view)
    hand: Sequence[Tile] = view.hand if shown_seat is not None else ()
    hand_rows = [hand[i : i + _HAND_ROW] for i in range(0, len(hand), _HAND_ROW)]
    hand_title = f"Hand of seat {shown_seat}" + ("" if hand else ": empty")
    texts = lines + seat_lines + ([hand_title] if shown_seat is not None else [])
    width = max([board_w, max(len(r) for r in hand_rows) * 2.2 * u if hand_rows else 0.0, 10 * u])
    width = max([width] + [text_width(t, FONT_SIZE) for t in texts])
    width += 2 * _MARGIN

    out: List[str] = []
    y = _MARGIN
    out.append(_text_svg(_MARGIN, y + FONT_SIZE, lines[0], "title", extra=f' font-weight="bold" fill="{_INK}"'))
    y += _LINE
    out.append(_text_svg(_MARGIN, y + FONT_SIZE, lines[1], "status", extra=f' fill="{_INK}"'))
    y += _LINE + 0.4 * u
    last = _last_placement(view)
    out.append(_board_svg(scene, last, big_set, _MARGIN + (width - 2 * _MARGIN - board_w) / 2 - x0 * u, y - y0 * u))
    y += board_h + 0.4 * u
    for line in seat_lines:
        out.append(_text_svg(_MARGIN, y + FONT_SIZE, line, "seats", extra=f' fill="{_INK}"'))
        y += _LINE
    if shown_seat is not None:
        y += 0.2 * u
        out.append(_text_svg(_MARGIN, y + FONT_SIZE, hand_title, "hand-title", extra=f' fill="{_INK}"'))
        y += _LINE + 0.1 * u
        out.append(f'<g class="hand" data-seat="{shown_seat}">')
        drawn = view.drawn_tile
        for row in hand_rows:
            for i, tile in enumerate(row):
                cx = _MARGIN + u + i * 2.2 * u
                at = (cx, y + u / 2, 0.0)
                if tile == drawn:
                    out.append(
                        _tile_svg(
                            "hand-tile",
                            tile,
                            tile.low,
                            tile.high,
                            at,
                            big_set,
                            ' data-drawn="1"',
                            _FACE,
                            (_PENDING, 2.5),
                        )
                    )
                else:
                    out.append(_tile_svg("hand-tile", tile, tile.low, tile.high, at, big_set))
            y += 1.25 * u
        out.append("</g>")
    height = y + _MARGIN
    dims = (
        f'width="{_n(size)}" height="{_n(size * height / width)}"'
        if size is not None
        else f'width="{_n(width)}" height="{_n(height)}"'
    )
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="dominocore" '
        f'data-game="{rules.game}" {dims} viewBox="0 0 {_n(width)} {_n(height)}" '
        f"font-family={quoteattr(_FONT)}>"
        f'<rect class="background" x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#e7efe2"/>'
    )
    return head + "".join(out) + "</svg>\n"


def _last_placement(view: PlayerView) -> Optional[int]:
    """The layout index of the tile the last move placed, if the last move placed one."""
    if view.history and view.history[-1].move.is_place:
        return len(view.layout) - 1
    return None


register_renderer("svg", render)
