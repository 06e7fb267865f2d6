"""Where every tile of a picture goes (docs/svg.md): the geometry of laid
tiles in units of a tile half, and each game's scene, the placed tiles,
their turns and the labels of the open ends, computed from a player's view
alone. ``dominocore.svg`` draws the scene as SVG text.
"""

from __future__ import annotations

import math
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from .common.moves import End, Placement
from .common.tiles import Tile
from .common.view import PlayerView

#: Pixels per tile half (a tile is 2 x 1 halves) at the natural size.
UNIT = 32.0
#: Text size, in SVG units.
FONT_SIZE = 14.0
#: Tiles a train row holds before it turns (Block, Mexican Train).
ROW_TILES = 12


def text_width(text: str, size: float) -> float:
    """An estimate of the width of ``text`` in the sans-serif font."""
    return 0.6 * size * len(text)


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


class Scene:
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
            xs += [x, x + text_width(text, FONT_SIZE) / UNIT + (0.9 if marker else 0.0)]
            ys += [y - 0.5, y + 0.5]
        return min(xs), min(ys), max(xs), max(ys)


def _piece(tile: Tile, number: Optional[int], laid: _Laid, index: int, end: Optional[int]) -> _Piece:
    near = tile.low if number is None else number
    return _Piece(tile, near, tile.other(near), laid, index, end, number)


def _tree_scene(view: PlayerView) -> Scene:
    """Chicken Foot and Doubles: the centre double with its slots all round
    it (clockwise from the top, in end id order), then every tile in the
    order placed, straight on from its end where there is room, turned
    where there is not; a double lies across its train, and opens its toes
    (Chicken Foot, 45 degrees apart) or spinner sides (Doubles, 90)."""
    scene = Scene()
    board = _Board()
    spots: Dict[int, _Spot] = {}
    spread = view.rules.branch_angle
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


def _label_ends(view: PlayerView, scene: Scene, spots: Dict[int, _Spot], board: Optional[_Board]) -> None:
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
    scene: Scene, layout: Sequence[Placement], on: Dict[int, int], end: int, spot: _Spot, snake: _Snake
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


def _line_scene(view: PlayerView) -> Scene:
    """Block: the lead in the middle (a double across the line), the line
    of its first end running left and turning up at the edge, that of its
    second running right and turning down."""
    scene = Scene()
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
        width = ROW_TILES * 2.0
        for end, start, down in zip(lead.created, starts, (False, True)):
            snake = _Snake(-width / 2 - 1.0, width / 2 + 1.0, down)
            found, _ = _run(scene, layout, on, end, start, snake)
            spots.update(found)
    _label_ends(view, scene, spots, None)
    return scene


def _hub_scene(view: PlayerView) -> Scene:
    """Mexican Train: the engine in the hub on the left, a rail from it to
    each train, one train per row (the seats' trains, then the Mexican
    train), each named (with its marker) and turning back at the row's end."""
    scene = Scene()
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
        snake = _Snake(left, left + ROW_TILES * 2.0, True)
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


def _arms_scene(view: PlayerView) -> Scene:
    """All Fives: the lead in the middle (a double across the line), arm 0
    running left and arm 1 right; the spinner lies across its arm, and its
    sides, arms 2 and 3, grow up and down from it once they open. Every
    tile goes straight on where there is room and turns where there is not."""
    scene = Scene()
    layout = view.layout
    spots: Dict[int, _Spot] = {}
    if not layout:
        spots[view.open_ends[0].id if view.open_ends else 0] = _Spot(0.0, 0.0, 0.0)
        _label_ends(view, scene, spots, None)
        return scene
    board = _Board()
    spinner: Optional[_Laid] = None
    for index, placement in enumerate(layout):
        double = placement.tile.is_double
        if index == 0:
            if double:  # across the line: its long side upright
                laid = _Laid((0.0, -0.5), (0.0, 0.5), 0.0, _Rect(0.0, 0.0, 0.0, 1.0, 1.0, 0.5))
                exits = [_Spot(-0.5, 0.0, 180.0), _Spot(0.5, 0.0, 0.0)]
            else:
                laid = _Laid((-0.5, 0.0), (0.5, 0.0), 0.0, _Rect(0.0, 0.0, 1.0, 0.0, 1.0, 0.5))
                exits = [_Spot(-1.0, 0.0, 180.0), _Spot(1.0, 0.0, 0.0)]
            near = placement.tile.low  # toward arm 0, on the left
            scene.pieces.append(
                _Piece(placement.tile, near, placement.tile.other(near), laid, 0, placement.end, placement.number)
            )
        else:
            laid = _fit(board, spots.pop(placement.end), double)  # type: ignore[arg-type]
            exits = _exits(laid, 1, 0)
            scene.pieces.append(_piece(placement.tile, placement.number, laid, index, placement.end))
        board.add(laid.rect)
        if spinner is None and view.rules.arms == 4 and double:
            spinner = laid
        if len(placement.created) > len(exits):  # the spinner's sides: across it, up and down
            assert spinner is not None
            sides = _exits(spinner, 3, 90.0)
            exits = exits + [sides[0], sides[2]]
        for end, spot in zip(placement.created, exits):
            spots[end] = spot
    _label_ends(view, scene, spots, board)
    return scene


#: How each kind of layout (``Rules.layout``) is drawn.
_SCENES = {"tree": _tree_scene, "line": _line_scene, "hub": _hub_scene, "arms": _arms_scene}


def scene_of(view: PlayerView) -> Scene:
    """The scene of ``view``'s layout, drawn as its game's kind of layout."""
    return _SCENES[view.rules.layout](view)
