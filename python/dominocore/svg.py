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
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

from .common.checks import as_int
from .common.moves import End, Placement
from .common.tiles import Tile
from .common.view import PlayerView, view_for
from .text import game_title

__all__ = ["render", "PIP_PATTERNS", "PALETTE"]

#: Pixels per tile half (a tile is 2 x 1 halves) at the natural size.
UNIT = 32.0

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
_FONT_SIZE = 14.0
_LINE = 20.0
_MARGIN = 12.0

_OBLIGATIONS = {
    "start": "the start double's slots come first",
    "foot": "the chicken foot's toes come first",
    "double": "the double must be satisfied first",
}

#: Tiles a train row holds before it turns (Block, Mexican Train), and the
#: tiles of a hand row.
_ROW_TILES = 12
_HAND_ROW = 14


# ---------------------------------------------------------------- geometry (in tile halves)


def _dir(angle: float) -> Tuple[float, float]:
    """The unit vector of ``angle`` degrees (0 east, 90 down: SVG's y axis)."""
    rad = math.radians(angle)
    return math.cos(rad), math.sin(rad)


class _Spot(NamedTuple):
    """An end of the layout in the picture: the middle ``(x, y)`` of the edge a
    tile placed there touches, and the heading it would grow along."""

    x: float
    y: float
    heading: float


class _Rect(NamedTuple):
    """A rectangle: its centre, the unit vector of its long axis, half its
    length and half its width."""

    cx: float
    cy: float
    ux: float
    uy: float
    a: float
    b: float


def _overlap(r: _Rect, s: _Rect, slack: float = 0.06) -> bool:
    """Whether two rectangles overlap by more than ``slack`` (the separating axis test)."""
    dx, dy = s.cx - r.cx, s.cy - r.cy
    for ax, ay in ((r.ux, r.uy), (-r.uy, r.ux), (s.ux, s.uy), (-s.uy, s.ux)):
        reach = r.a * abs(r.ux * ax + r.uy * ay) + r.b * abs(r.ux * ay - r.uy * ax)
        reach += s.a * abs(s.ux * ax + s.uy * ay) + s.b * abs(s.ux * ay - s.uy * ax)
        if abs(dx * ax + dy * ay) >= reach - slack:
            return False
    return True


class _Board:
    """The rectangles laid so far, in a grid of cells for quick collision tests."""

    CELL = 2.5

    def __init__(self) -> None:
        self.rects: List[_Rect] = []
        self.grid: Dict[Tuple[int, int], List[int]] = {}

    def _cells(self, r: _Rect) -> Iterable[Tuple[int, int]]:
        reach = math.hypot(r.a, r.b)
        c = self.CELL
        for i in range(math.floor((r.cx - reach) / c), math.floor((r.cx + reach) / c) + 1):
            for j in range(math.floor((r.cy - reach) / c), math.floor((r.cy + reach) / c) + 1):
                yield i, j

    def free(self, r: _Rect) -> bool:
        """Whether ``r`` overlaps nothing laid so far."""
        seen = set()
        for cell in self._cells(r):
            for k in self.grid.get(cell, ()):
                if k not in seen:
                    seen.add(k)
                    if _overlap(r, self.rects[k]):
                        return False
        return True

    def add(self, r: _Rect) -> None:
        """Lay ``r``."""
        k = len(self.rects)
        self.rects.append(r)
        for cell in self._cells(r):
            self.grid.setdefault(cell, []).append(k)


class _Laid(NamedTuple):
    """A tile in the picture: the centres of its near and far halves (those
    of a double lie side by side across its heading), its heading and its rectangle."""

    near: Tuple[float, float]
    far: Tuple[float, float]
    heading: float
    rect: _Rect
    jump: Optional[Tuple[float, float, float, float]] = None


def _lay(spot: _Spot, turn: float, double: bool) -> _Laid:
    """A tile placed on ``spot``, turned by ``turn`` degrees from its heading:
    a double lies across its new heading. The tile touches the end's edge."""
    dx, dy = _dir(spot.heading)
    heading = spot.heading + turn
    hx, hy = _dir(heading)
    c, s = abs(math.cos(math.radians(turn))), abs(math.sin(math.radians(turn)))
    if not double:
        reach = 0.5 * (c + s)  # how far the turned near half reaches back along the old heading
        nx, ny = spot.x + reach * dx, spot.y + reach * dy
        fx, fy = nx + hx, ny + hy
        rect = _Rect((nx + fx) / 2, (ny + fy) / 2, hx, hy, 1.0, 0.5)
        return _Laid((nx, ny), (fx, fy), heading, rect)
    reach = 0.5 * c + 1.0 * s
    cx, cy = spot.x + reach * dx, spot.y + reach * dy
    px, py = -hy, hx  # across the heading
    rect = _Rect(cx, cy, px, py, 1.0, 0.5)
    return _Laid((cx - 0.5 * px, cy - 0.5 * py), (cx + 0.5 * px, cy + 0.5 * py), heading, rect)


def _exits(laid: _Laid, count: int, spread: float) -> List[_Spot]:
    """The ends a laid tile opens, in the order of their ids: one straight on;
    a double's three (chicken foot toes at 45 degrees, ``spread=45``, or
    spinner sides at 90, ``spread=90``) in clockwise order."""
    hx, hy = _dir(laid.heading)
    cx, cy = laid.rect.cx, laid.rect.cy
    if count != 3:
        if _is_across(laid):
            return [_Spot(cx + 0.5 * hx, cy + 0.5 * hy, laid.heading)] * count
        fx, fy = laid.far
        return [_Spot(fx + 0.5 * hx, fy + 0.5 * hy, laid.heading)] * count
    px, py = -hy, hx
    if spread == 90:
        return [
            _Spot(cx - px, cy - py, laid.heading - 90),
            _Spot(cx + 0.5 * hx, cy + 0.5 * hy, laid.heading),
            _Spot(cx + px, cy + py, laid.heading + 90),
        ]
    fx, fy = cx + 0.5 * hx, cy + 0.5 * hy
    return [
        _Spot(fx - 1.05 * px, fy - 1.05 * py, laid.heading - 45),
        _Spot(fx, fy, laid.heading),
        _Spot(fx + 1.05 * px, fy + 1.05 * py, laid.heading + 45),
    ]


def _is_across(laid: _Laid) -> bool:
    """Whether the tile lies across its heading (a double in a line)."""
    hx, hy = _dir(laid.heading)
    return abs(laid.rect.ux * hx + laid.rect.uy * hy) < 0.5


#: The turns tried, in order, when a tile does not fit straight on.
_TURNS = (0.0, 45.0, 90.0, 135.0)

#: The room ahead (tiles) that makes a way good enough to take at once.
_ENOUGH_ROOM = 2


def _fit(board: _Board, spot: _Spot, double: bool) -> _Laid:
    """The tile on ``spot`` that overlaps nothing: straight on if it fits
    with room ahead, else the smallest turn that does (of two sides, the one
    with more room ahead, then the one leading away from the centre), else
    the way with the most room. Where nothing fits, the tile jumps straight
    on to the first free place (a connector links it to its end)."""
    best: Optional[Tuple[int, int, _Laid]] = None
    for rank, angle in enumerate(_TURNS):
        options = []
        for turn in (-angle, angle) if angle else (0.0,):
            laid = _lay(spot, turn, double)
            if board.free(laid.rect):
                options.append((-_room(board, laid), -math.hypot(laid.rect.cx, laid.rect.cy), turn, laid))
        if options:
            room, _, _, laid = min(options, key=lambda o: o[:3])
            if -room >= _ENOUGH_ROOM:
                return laid
            if best is None or -room > best[0]:
                best = (-room, rank, laid)
    if best is not None:
        return best[2]
    for step in range(1, 400):  # the nearest free place, ahead first
        for angle in (0.0, 45.0, 90.0, 135.0, 180.0):
            for turn in (-angle, angle) if 0.0 < angle < 180.0 else (angle,):
                dx, dy = _dir(spot.heading + turn)
                moved = _Spot(spot.x + 0.5 * step * dx, spot.y + 0.5 * step * dy, spot.heading + turn)
                laid = _lay(moved, 0.0, double)
                if board.free(laid.rect):
                    return laid._replace(jump=(spot.x, spot.y, moved.x, moved.y))
    return _lay(spot, 0.0, double)


def _room(board: _Board, laid: _Laid, depth: int = 4) -> int:
    """How many tiles fit straight on after ``laid`` (at most ``depth``)."""
    spot = _exits(laid, 1, 0)[0]
    count = 0
    for _ in range(depth):
        nxt = _lay(spot, 0.0, False)
        if not board.free(nxt.rect):
            break
        count += 1
        spot = _exits(nxt, 1, 0)[0]
    return count


def _label_spot(board: _Board, spot: _Spot) -> Tuple[float, float]:
    """Where an end's label goes: in the first free place a label's size
    ahead of the end (straight on, then turning), else just ahead of it."""
    for angle in (0.0, 45.0, 90.0, 135.0):
        for turn in (-angle, angle) if angle else (0.0,):
            hx, hy = _dir(spot.heading + turn)
            x, y = spot.x + 0.45 * hx, spot.y + 0.45 * hy
            if board.free(_Rect(x, y, 1.0, 0.0, 0.36, 0.36)):
                return x, y
    hx, hy = _dir(spot.heading)
    return spot.x + 0.45 * hx, spot.y + 0.45 * hy


# ---------------------------------------------------------------- what a picture holds


class _Piece(NamedTuple):
    """A placed tile ready to draw: the tile, the values of its near and far
    halves, where it lies, and its placement's facts for the data attributes."""

    tile: Tile
    near_value: int
    far_value: int
    laid: _Laid
    placed: int
    end: Optional[int]
    number: Optional[int]


class _Label(NamedTuple):
    """An open end's label: its id, number, where it stands, and whether it is pending."""

    end: End
    x: float
    y: float
    pending: bool
    train: Optional[int]


class _Scene:
    """The layout in the picture's coordinates (tile halves): pieces, end
    labels, extra marks (Mexican Train's rails, train names and markers)."""

    def __init__(self) -> None:
        self.pieces: List[_Piece] = []
        self.labels: List[_Label] = []
        self.rails: List[Tuple[float, float, float, float]] = []
        self.names: List[Tuple[float, float, str, int, bool]] = []  # x, y, text, train, marker

    def bounds(self) -> Tuple[float, float, float, float]:
        """The smallest box around everything, in tile halves."""
        xs: List[float] = [0.0]
        ys: List[float] = [0.0]
        for piece in self.pieces:
            r = piece.laid.rect
            reach_x = r.a * abs(r.ux) + r.b * abs(r.uy)
            reach_y = r.a * abs(r.uy) + r.b * abs(r.ux)
            xs += [r.cx - reach_x, r.cx + reach_x]
            ys += [r.cy - reach_y, r.cy + reach_y]
        for label in self.labels:
            xs += [label.x - 0.4, label.x + 0.4]
            ys += [label.y - 0.4, label.y + 0.4]
        for x1, y1, x2, y2 in self.rails:
            xs += [x1, x2]
            ys += [y1, y2]
        for x, y, text, _, marker in self.names:
            xs += [x, x + _text_width(text, _FONT_SIZE) / UNIT + (0.9 if marker else 0.0)]
            ys += [y - 0.5, y + 0.5]
        return min(xs), min(ys), max(xs), max(ys)


def _piece(tile: Tile, number: Optional[int], laid: _Laid, index: int, end: Optional[int]) -> _Piece:
    near = tile.low if number is None else number
    return _Piece(tile, near, tile.other(near), laid, index, end, number)


def _tree_scene(view: PlayerView) -> _Scene:
    """Chicken Foot and Doubles: the centre double with its slots all round
    it (clockwise from the top, in end id order), then every tile in the
    order placed, straight on from its end where there is room, turned
    where there is not; a double lies across its train, and opens its toes
    (Chicken Foot, 45 degrees apart) or spinner sides (Doubles, 90)."""
    scene = _Scene()
    board = _Board()
    spots: Dict[int, _Spot] = {}
    spread = 90.0 if view.rules.game == "doubles" else 45.0
    for index, placement in enumerate(view.layout):
        if placement.end is None:
            laid = _Laid((-0.5, 0.0), (0.5, 0.0), 0.0, _Rect(0.0, 0.0, 1.0, 0.0, 1.0, 0.5))
            _radial(spots, placement.created)
        else:
            laid = _fit(board, spots.pop(placement.end), placement.tile.is_double)
            spread_here = spread if len(placement.created) == 3 else 0.0
            for end, spot in zip(placement.created, _exits(laid, len(placement.created), spread_here)):
                spots[end] = spot
        board.add(laid.rect)
        scene.pieces.append(_piece(placement.tile, placement.number, laid, index, placement.end))
    _label_ends(view, scene, spots, board)
    return scene


def _radial(spots: Dict[int, _Spot], slots: Sequence[int]) -> None:
    """The centre double's slots, clockwise from the top, far enough out
    that neighbouring trains do not touch."""
    count = len(slots)
    for i, end in enumerate(slots):
        angle = -90.0 + 360.0 * i / count
        dx, dy = _dir(angle)
        # Leave the centre double (2 x 1 halves, lying flat) ...
        exit_x = 1.0 / abs(dx) if abs(dx) > 1e-9 else math.inf
        exit_y = 0.5 / abs(dy) if abs(dy) > 1e-9 else math.inf
        reach = min(exit_x, exit_y) + 0.05
        # ... and leave room between neighbouring trains.
        reach = max(reach, 0.55 / math.tan(math.pi / count)) if count > 2 else reach
        spots[end] = _Spot(reach * dx, reach * dy, angle)


def _label_ends(view: PlayerView, scene: _Scene, spots: Dict[int, _Spot], board: Optional[_Board]) -> None:
    """A label on every open end, just ahead of it (where a tile placed
    there would go); a label that would cover another moves aside."""
    pending = set(view.pending_ends)
    placed: List[Tuple[float, float]] = []
    for end, train in zip(view.open_ends, view.trains):
        spot = spots.get(end.id, _Spot(0.0, 0.0, 0.0))
        if board is None:
            dx, dy = _dir(spot.heading)
            x, y = spot.x + 0.45 * dx, spot.y + 0.45 * dy
        else:
            x, y = _label_spot(board, spot)
        if any(math.hypot(x - a, y - b) < 0.7 for a, b in placed):
            px, py = _dir(spot.heading + 90.0)
            moves = [(x + 0.72 * px, y + 0.72 * py), (x - 0.72 * px, y - 0.72 * py)]
            x, y = max(moves, key=lambda m: min(math.hypot(m[0] - a, m[1] - b) for a, b in placed))
        placed.append((x, y))
        scene.labels.append(_Label(end, x, y, end.id in pending, train))


class _Snake:
    """Lays a line of tiles in rows between ``left`` and ``right``: at a row's
    edge the line turns (``down`` or up) onto the next row and runs back."""

    def __init__(self, left: float, right: float, down: bool) -> None:
        self.left, self.right = left, right
        self.turn_to = 90.0 if down else 270.0
        self.row_heading: Optional[float] = None

    def lay(self, spot: _Spot, double: bool) -> _Laid:
        """The next tile of the line from ``spot``."""
        heading = spot.heading % 360.0
        if heading in (90.0, 270.0):  # on the turn: back along the next row
            back = 180.0 if self.row_heading == 0.0 else 0.0
            return _lay(spot, _signed(back - heading), double)
        self.row_heading = heading
        laid = _lay(spot, 0.0, double)
        r = laid.rect
        reach = r.a * abs(r.ux) + r.b * abs(r.uy)
        beyond = r.cx + reach > self.right if heading == 0.0 else r.cx - reach < self.left
        if beyond and not double:
            return _lay(spot, _signed(self.turn_to - heading), double)
        return laid


def _signed(angle: float) -> float:
    """``angle`` in -180 .. 180 degrees."""
    return (angle + 180.0) % 360.0 - 180.0


def _chains(layout: Sequence[Placement]) -> Dict[int, int]:
    """The placement on each end id that has one."""
    return {p.end: i for i, p in enumerate(layout) if p.end is not None}


def _run(
    scene: _Scene, layout: Sequence[Placement], on: Dict[int, int], end: int, spot: _Spot, snake: _Snake
) -> Tuple[Dict[int, _Spot], float]:
    """Lay the line that grows from ``end`` (at ``spot``); return the open
    end's spot and the lowest point reached."""
    bottom = spot.y
    while end in on:
        index = on[end]
        placement = layout[index]
        laid = snake.lay(spot, placement.tile.is_double)
        scene.pieces.append(_piece(placement.tile, placement.number, laid, index, placement.end))
        r = laid.rect
        bottom = max(bottom, r.cy + r.a * abs(r.uy) + r.b * abs(r.ux))
        if len(placement.created) != 1:
            break
        end = placement.created[0]
        spot = _exits(laid, 1, 0)[0]
    return {end: spot}, bottom


def _block_scene(view: PlayerView) -> _Scene:
    """Block: the lead in the middle (a double across the line), the line
    of its first end running left and turning up at the edge, that of its
    second running right and turning down."""
    scene = _Scene()
    layout = view.layout
    spots: Dict[int, _Spot] = {}
    if not layout:
        spots[view.open_ends[0].id if view.open_ends else 0] = _Spot(0.0, 0.0, 0.0)
    else:
        lead = layout[0]
        on = _chains(layout)
        if lead.tile.is_double:
            laid = _Laid((0.0, -0.5), (0.0, 0.5), 0.0, _Rect(0.0, 0.0, 0.0, 1.0, 1.0, 0.5))
            starts = [_Spot(-0.5, 0.0, 180.0), _Spot(0.5, 0.0, 0.0)]
        else:
            laid = _Laid((-0.5, 0.0), (0.5, 0.0), 0.0, _Rect(0.0, 0.0, 1.0, 0.0, 1.0, 0.5))
            starts = [_Spot(-1.0, 0.0, 180.0), _Spot(1.0, 0.0, 0.0)]
        # The lead shows its low half on the left, toward its first end.
        scene.pieces.append(_Piece(lead.tile, lead.tile.low, lead.tile.high, laid, 0, lead.end, lead.number))
        width = _ROW_TILES * 2.0
        for end, start, down in zip(lead.created, starts, (False, True)):
            snake = _Snake(-width / 2 - 1.0, width / 2 + 1.0, down)
            found, _ = _run(scene, layout, on, end, start, snake)
            spots.update(found)
    _label_ends(view, scene, spots, None)
    return scene


def _mexican_scene(view: PlayerView) -> _Scene:
    """Mexican Train: the engine in the hub on the left, a rail from it to
    each train, one train per row (the seats' trains, then the Mexican
    train), each named (with its marker) and turning back at the row's end."""
    scene = _Scene()
    layout = view.layout
    on = _chains(layout)
    players = view.rules.players
    engine = layout[0]
    spots: Dict[int, _Spot] = {}
    left = 6.5
    top = 0.0
    starts = []
    for train, end in enumerate(engine.created):
        start = _Spot(left, top + 1.0, 0.0)
        starts.append(start.y)
        snake = _Snake(left, left + _ROW_TILES * 2.0, True)
        found, bottom = _run(scene, layout, on, end, start, snake)
        spots.update(found)
        name = "Mexican" if train == players else f"seat {train}"
        marker = train < players and view.markers[train]
        scene.names.append((1.6, start.y, name, train, marker))
        label = max(s.y + 0.45 * _dir(s.heading)[1] for s in found.values()) + 0.4
        top = max(bottom, label, start.y + 1.0) + 0.35
    hub = (starts[0] + starts[-1]) / 2
    laid = _Laid((0.5, hub - 0.5), (0.5, hub + 0.5), 0.0, _Rect(0.5, hub, 0.0, 1.0, 1.0, 0.5))
    scene.pieces.insert(0, _piece(engine.tile, engine.number, laid, 0, None))
    for row in starts:
        scene.rails.append((1.0, hub, 1.5, row))
    _label_ends(view, scene, spots, None)
    return scene


def _scene(view: PlayerView) -> _Scene:
    game = view.rules.game
    if game == "block":
        return _block_scene(view)
    if game == "mexican_train":
        return _mexican_scene(view)
    return _tree_scene(view)


# ---------------------------------------------------------------- SVG text


def _n(x: float) -> str:
    """A coordinate as short text (-0 is written 0)."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text_width(text: str, size: float) -> float:
    """An estimate of the width of ``text`` in the sans-serif font."""
    return 0.6 * size * len(text)


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


def _text_svg(x: float, y: float, text: str, cls: str, size: float = _FONT_SIZE, extra: str = "") -> str:
    return f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{extra}>{escape(text)}</text>'


def _board_svg(scene: _Scene, last: Optional[int], big_set: bool, dx: float, dy: float) -> str:
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
            mx = x * u + _text_width(name, _FONT_SIZE) + 0.45 * u
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
        reason, out_seat, points, _, _ = view.result
        how = f"seat {out_seat} went out" if reason == "out" else "blocked"
        return f"Round over: {how}. Points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(points))
    text = f"Seat {view.current_player} to move"
    if view.drawing:
        text += " (with the tile just drawn)"
    if view.obligation:
        text += "; " + _OBLIGATIONS.get(view.obligation, view.obligation)
    if view.history:
        entry = view.history[-1]
        text += f". Last move: seat {entry.seat} {entry.move}"
    return text


def _seat_lines(view: PlayerView) -> List[str]:
    rules = view.rules
    parts = []
    for s, count in enumerate(view.hand_sizes):
        text = f"seat {s}: {count} tile{'' if count == 1 else 's'}"
        if view.markers[s]:
            text += " (marker)"
        if s == view.current_player:
            text = "> " + text
        parts.append(text)
    yard = "out of play" if rules.game == "block" else "yard"
    tail = [f"{yard}: {view.yard_size}"]
    if rules.game == "doubles":
        tail.append("unlocked: " + (" ".join(str(v) for v in view.unlocked) or "none"))
    lines = [" \u00b7 ".join(parts[i : i + 4]) for i in range(0, len(parts), 4)]
    lines.append(" \u00b7 ".join(tail))
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
    scene = _scene(view)
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
    width = max([width] + [_text_width(t, _FONT_SIZE) for t in texts])
    width += 2 * _MARGIN

    out: List[str] = []
    y = _MARGIN
    out.append(_text_svg(_MARGIN, y + _FONT_SIZE, lines[0], "title", extra=f' font-weight="bold" fill="{_INK}"'))
    y += _LINE
    out.append(_text_svg(_MARGIN, y + _FONT_SIZE, lines[1], "status", extra=f' fill="{_INK}"'))
    y += _LINE + 0.4 * u
    last = _last_placement(view)
    out.append(_board_svg(scene, last, big_set, _MARGIN + (width - 2 * _MARGIN - board_w) / 2 - x0 * u, y - y0 * u))
    y += board_h + 0.4 * u
    for line in seat_lines:
        out.append(_text_svg(_MARGIN, y + _FONT_SIZE, line, "seats", extra=f' fill="{_INK}"'))
        y += _LINE
    if shown_seat is not None:
        y += 0.2 * u
        out.append(_text_svg(_MARGIN, y + _FONT_SIZE, hand_title, "hand-title", extra=f' fill="{_INK}"'))
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
