"""Exact determinization in plain Python (docs/information.md 4).

A *world* is a full round with the public history of a round and one seat's
private history; everything else (the other hands as dealt, their search
draws, the tiles they drew, the yard order) is sampled uniformly over the
worlds consistent with what the seat knows. This module builds the slot model
of section 4, counts the assignments of tiles to cells exactly with Python
integers (``W``, memoised), samples one assignment, orders each cell
uniformly, and replays the history on the world it built.

It favours clarity over speed (the compiled core has the fast path), but it
is exact and usable on any reachable position: the count takes tiles that
are interchangeable (allowed in the same cells) a group at a time, and keeps
one memo entry for cells the rest of the count treats alike, which keeps the
memo to thousands of entries where the tile-by-tile count of section 4 needs
millions (about a second at worst on the double-9 positions tried, against
two minutes for the tile-by-tile count).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Tuple

from ..common.checks import check_seed
from ..common.errors import IllegalMoveError
from ..common.information import search_drawers
from ..common.moves import DRAW, PASS, PLACE, Move
from ..common.tiles import Tile, tiles_of_set
from .rng import MASK64, SplitMix64

if TYPE_CHECKING:
    from .round import Round

__all__ = ["Determinizer"]


class _Slot(NamedTuple):
    """A place that holds one tile of another seat: its seat, the move at
    which the seat got it (-1: an initial slot, held before the first move)
    and the tiles it may not hold whatever else holds (a Draw followed by a
    pass under ``"must"``: the tiles that had a legal end; an initial slot
    under ``highest_double``: the doubles above the centre)."""

    seat: int
    got: int
    excluded: FrozenSet[Tile]


class _Cell(NamedTuple):
    """Slots of one seat that allow the same tiles, in slot order."""

    seat: int
    slots: Tuple[int, ...]
    allowed: FrozenSet[Tile]


#: A state of the count: (group g, its cell j, the room left in each cell,
#: the group's tiles not yet placed, whether the round is unblocked).
_State = Tuple[int, int, Tuple[int, ...], int, bool]


class _Group(NamedTuple):
    """Free tiles that are interchangeable for the count: allowed in the same
    cells, in the yard or not (a tile another seat placed never is), and
    keeping the round from being blocked or not (condition 5)."""

    tiles: Tuple[Tile, ...]
    cells: Tuple[int, ...]
    to_yard: bool
    unblocking: bool


class Determinizer:
    """The exact sampler of the worlds one seat cannot tell from a round
    (docs/information.md 4). Build it with ``round.determinizer(seat)``;
    ``sample(seed=0)`` returns a world as often as wanted.

    The preparation replays the public history once, to find for each Draw
    and each pass with nothing in question of another seat j the tiles
    F(j, i) that had a legal placement for j then; it builds every other
    seat's slots (its initial slots, one slot per Draw), the tiles each slot
    allows, and merges slots of one seat that allow the same tiles into
    cells. The count ``W`` is built on the first sample and reused.

    The count is that of docs/information.md 4 with the free tiles taken in
    groups of interchangeable ones (the same cells, the same yard) rather
    than one by one in index order: a group's tiles are spread cell by cell
    (``C(left, x)`` ways to choose the x a cell takes), which counts the same
    assignments. Any fixed order of the tiles gives the same distribution;
    the groups are taken from the most constrained to the widest.

    Reading of docs/information.md (a fifth condition the section leaves
    out): a round that is not over is not blocked, which is public. When
    nobody can draw now and the seat's own hand holds no tile with a legal
    end for any seat (the blocked test of docs/rules.md 1.5), some other
    seat's hand must hold one. ``W`` carries that as one more bit of state
    ("such a tile was put in another seat's hand"), so the sample stays
    exact. Earlier positions need nothing more: from one where nobody could
    draw, either only passes followed (the same position as now) or a seat
    placed a tile it held then.
    """

    def __init__(self, round: "Round", seat: int) -> None:
        """Prepare the sampler of ``round`` (not over) as ``seat`` (checked) knows it."""
        self._round_class = type(round)
        self._rules = rules = round.rules
        self._seat = seat
        self._round_index = round.round_index
        self._deal = deal = round._deal
        self._history = history = round._history()
        others = [j for j in range(rules.players) if j != seat]
        legal, blocked_unless = _legal_tiles(round, seat)

        # What the seat knows: its own tiles, the centre, every placed tile.
        own = set(deal.hands[seat]) | {drawn for mover, _, drawn in history if mover == seat and drawn is not None}
        placed = {p.tile for p in round.layout}
        unseen = set(tiles_of_set(rules.set)) - own - placed - {deal.centre}

        # The slots of every other seat, in the order it got them, and the
        # tiles it placed: a placement right after its own Draw fixes that
        # Draw's slot (self._fixed), any other has a deadline (placed_at).
        self._slots: List[_Slot] = []
        self._fixed: Dict[int, Tile] = {}  # the move of a Draw -> the tile placed right after it
        self._draw_slot: Dict[int, int] = {}  # the move of a Draw -> its slot
        placed_at: Dict[Tile, int] = {}
        high_doubles = frozenset(_higher_doubles(rules.set, deal.centre)) if deal.highest_double else frozenset()
        for j in others:
            self._slots += [_Slot(j, -1, high_doubles)] * len(deal.hands[j])
        for i, (mover, move, _) in enumerate(history):
            if mover == seat:
                continue
            follows_own_draw = i > 0 and history[i - 1][0] == mover and history[i - 1][1].kind == DRAW
            if move.kind == DRAW:
                nxt = history[i + 1][1] if i + 1 < len(history) else None
                must_pass = nxt is not None and nxt.kind == PASS and rules.drawn_tile == "must"
                if nxt is not None and nxt.kind == PLACE:
                    self._fixed[i] = nxt.tile  # type: ignore[assignment]  # a placement has a tile
                else:
                    self._draw_slot[i] = len(self._slots)
                    self._slots.append(_Slot(mover, i, legal[i] if must_pass else frozenset()))
            elif move.kind == PLACE and not follows_own_draw:
                placed_at[move.tile] = i  # type: ignore[index]  # a placement has a tile

        # Condition 2: per seat, the moves that say it held no tile of F.
        self._events = {j: [(i, f) for i, f in legal.items() if history[i][0] == j] for j in others}
        self._placed_by = {tile: history[i][0] for tile, i in placed_at.items()}
        self._placed_at = placed_at

        # The free tiles: the unseen ones, and those another seat placed from
        # a slot not known; the cells; the groups of interchangeable tiles.
        self._free = sorted(unseen | set(placed_at), key=lambda t: t.index)
        self._unseen = unseen
        self._cells = self._make_cells(others)
        assert len(self._free) - len(self._slots) == len(deal.yard) - sum(1 for _, m, _ in history if m.kind == DRAW)
        # Condition 5 (see the class docstring): the unseen tiles that keep the
        # round from being blocked, if some must be in another seat's hand.
        needed = blocked_unless is not None and not (blocked_unless & set(round.hand(seat)))
        self._unblocking = blocked_unless & unseen if blocked_unless is not None and needed else frozenset()
        self._groups = self._make_groups()
        self._later = self._later_room()
        first = len(self._groups[0].tiles) if self._groups else 0
        self._start: _State = (0, 0, tuple(len(c.slots) for c in self._cells), first, not needed)
        self._memo: Dict[_State, int] = {}
        self._alike: Dict[Tuple[int, int], List[Tuple[int, ...]]] = {}

    # ------------------------------------------------------------ the slot model

    def _allows(self, slot: _Slot, tile: Tile) -> bool:
        """Whether ``slot`` may hold ``tile`` (conditions 1-4 of section 4):
        the tile is unseen or placed by the slot's seat after it got the
        slot; not excluded by the slot itself; and in none of the F of the
        seat's constraining moves while the slot held it (after the slot was
        got, before the tile was placed)."""
        placer = self._placed_by.get(tile)
        if placer is None and tile not in self._unseen:
            return False
        if placer is not None and placer != slot.seat:
            return False
        until = self._placed_at.get(tile, len(self._history))
        if slot.got >= until or tile in slot.excluded:
            return False
        return not any(tile in f for i, f in self._events[slot.seat] if slot.got < i < until)

    def _make_cells(self, others: List[int]) -> List[_Cell]:
        """Merge the slots of each seat that allow the same tiles (the initial
        slots always do) into cells, in slot order."""
        cells: Dict[Tuple[int, FrozenSet[Tile]], List[int]] = {}
        for index, slot in enumerate(self._slots):
            allowed = frozenset(t for t in self._free if self._allows(slot, t))
            cells.setdefault((slot.seat, allowed), []).append(index)
        return [_Cell(seat, tuple(slots), allowed) for (seat, allowed), slots in cells.items()]

    def _make_groups(self) -> List[_Group]:
        """The free tiles in groups of interchangeable ones (the same cells,
        the same yard, the same part in condition 5), the most constrained
        groups first: the count then meets the widest groups last, when the
        room left is all but fixed, and the memo stays small."""
        groups: Dict[Tuple[Tuple[int, ...], bool, bool], List[Tile]] = {}
        for tile in self._free:
            cells = tuple(k for k, cell in enumerate(self._cells) if tile in cell.allowed)
            groups.setdefault((cells, tile in self._unseen, tile in self._unblocking), []).append(tile)
        order = sorted(groups, key=lambda key: (len(key[0]) + key[1], key))
        return [_Group(tuple(groups[key]), *key) for key in order]

    def _later_room(self) -> List[Tuple[Tuple[int, ...], int, bool]]:
        """For each group index g (and the end): how many tiles of the groups
        g.. each cell allows, how many the yard allows, and whether one of
        them keeps the round from being blocked. A cell with more room than
        its later tiles can never be filled: the bound prunes the count."""
        cells = [0] * len(self._cells)
        yard = 0
        unblocking = False
        result = [(tuple(cells), yard, unblocking)]
        for group in reversed(self._groups):
            for k in group.cells:
                cells[k] += len(group.tiles)
            yard += len(group.tiles) if group.to_yard else 0
            unblocking = unblocking or group.unblocking
            result.append((tuple(cells), yard, unblocking))
        result.reverse()
        return result

    # ------------------------------------------------------------ counting

    def _steps(self, state: _State) -> Iterator[Tuple[int, _State, int]]:
        """The next step of the count from ``state``: the number ``x`` of the
        tiles left in the current group that its next cell takes, the state
        after, and the ways to choose which (``C(left, x)``, the tiles being
        interchangeable). After a group's last cell the tiles left go to the
        yard and the next group begins. A step is left out when it leaves a
        cell more room than the later groups can fill."""
        g, j, rooms, left, done = state
        group = self._groups[g]
        later_cells, _, _ = self._later[g + 1]
        if j == len(group.cells):  # the rest goes to the yard (only unseen tiles may)
            if left == 0 or group.to_yard:
                following = len(self._groups[g + 1].tiles) if g + 1 < len(self._groups) else 0
                yield left, (g + 1, 0, rooms, following, done), 1
            return
        k = group.cells[j]
        for x in range(max(0, rooms[k] - later_cells[k]), min(rooms[k], left) + 1):
            after = rooms[:k] + (rooms[k] - x,) + rooms[k + 1 :]
            yield x, (g, j + 1, after, left - x, done or (group.unblocking and x > 0)), comb(left, x)

    def _count(self, state: _State) -> int:
        """W: the number of ways to assign the free tiles still to place from
        ``state`` (group g, its cell j, the room left in every cell, the
        group's tiles left, and whether a tile that unblocks the round is
        already in a hand; the yard's room is implied).

        Cells that every later step treats alike (the same later groups
        allow them) are interchangeable: W does not change when their rooms
        are permuted, so the memo keeps one state per multiset of their
        rooms (their rooms sorted)."""
        state = self._canonical(state)
        known = self._memo.get(state)
        if known is not None:
            return known
        g, j, rooms, left, done = state
        if j == 0 and not self._feasible(g, rooms, done):
            result = 0
        elif g == len(self._groups):
            result = 1  # every room filled (checked by _feasible), the round unblocked
        else:
            result = sum(ways * self._count(after) for _, after, ways in self._steps(state))
        self._memo[state] = result
        return result

    def _canonical(self, state: _State) -> _State:
        """``state`` with the rooms of each class of interchangeable cells sorted."""
        g, j, rooms, left, done = state
        classes = self._alike.get((g, j))
        if classes is None:
            classes = self._alike[(g, j)] = self._interchangeable(g, j)
        if not classes:
            return state
        sorted_rooms = list(rooms)
        for cells in classes:
            for k, room in zip(cells, sorted(rooms[k] for k in cells)):
                sorted_rooms[k] = room
        return g, j, tuple(sorted_rooms), left, done

    def _interchangeable(self, g: int, j: int) -> List[Tuple[int, ...]]:
        """The classes (two cells or more) of cells that the steps from group
        g's cell j on treat alike: in the rest of group g's cells or not, and
        in the same later groups."""
        later = self._groups[g + 1 :] if g < len(self._groups) else []
        rest = self._groups[g].cells[j:] if g < len(self._groups) else ()
        classes: Dict[Tuple[bool, ...], List[int]] = {}
        for k in range(len(self._cells)):
            classes.setdefault((k in rest,) + tuple(k in group.cells for group in later), []).append(k)
        return [tuple(cells) for cells in classes.values() if len(cells) > 1]

    def _feasible(self, g: int, rooms: Tuple[int, ...], done: bool) -> bool:
        """Whether the groups g.. could fill ``rooms`` and the yard's implied
        room, and unblock the round if it is not yet (necessary conditions
        only: they prune the count, which stays exact without them)."""
        later_cells, later_yard, later_unblocking = self._later[g]
        yard_room = sum(len(group.tiles) for group in self._groups[g:]) - sum(rooms)
        return (
            0 <= yard_room <= later_yard
            and all(r <= c for r, c in zip(rooms, later_cells))
            and (done or later_unblocking)
        )

    # ------------------------------------------------------------ sampling

    def sample(self, seed: Any = 0) -> "Round":
        """A world, uniform over those consistent with what the seat knows.

        ``seed`` is an int (a fresh ``SplitMix64``) or a ``SplitMix64``,
        which then advances. Group by group and cell by cell, the number of
        the group's tiles the cell takes is drawn with probability
        ``ways * W(after) / W(now)``, and a uniformly random choice of the
        group's (interchangeable) tiles takes those places: the tile-by-tile
        draw of docs/information.md 4, taken a group at a time. Each cell's
        tiles then take its slots in a uniformly random order (the yard's:
        top first)."""
        rng = seed if isinstance(seed, SplitMix64) else SplitMix64(check_seed(seed))
        state = self._start
        assert self._count(state) > 0, "no world is consistent with the round itself"
        held: List[List[Tile]] = [[] for _ in self._cells]
        yard: List[Tile] = []
        tiles = list(self._groups[0].tiles) if self._groups else []
        rng.shuffle(tiles)  # the order in which the group's tiles take its places
        while state[0] < len(self._groups):
            g, j = state[0], state[1]
            steps = [(x, after, ways * self._count(after)) for x, after, ways in self._steps(state)]
            pick = _below(rng, sum(w for *_, w in steps))
            x, after = _pick(steps, pick)
            taken, tiles = tiles[:x], tiles[x:]
            if j < len(self._groups[g].cells):
                held[self._groups[g].cells[j]] += taken
            else:
                yard += taken
                if after[0] < len(self._groups):
                    tiles = list(self._groups[after[0]].tiles)
                    rng.shuffle(tiles)
            state = after
        slot_tiles: Dict[int, Tile] = {}
        for cell, cell_tiles in zip(self._cells, held):
            rng.shuffle(cell_tiles)
            slot_tiles.update(zip(cell.slots, cell_tiles))
        rng.shuffle(yard)
        return self._world(slot_tiles, yard)

    def _world(self, slot_tiles: Dict[int, Tile], rest: List[Tile]) -> "Round":
        """The round of an assignment of tiles to slots (and the rest of the
        yard, top first), with the history replayed on it."""
        deal, p, seat = self._deal, self._rules.players, self._seat
        hands = [list(deal.hands[j]) if j == seat else [] for j in range(p)]
        for index, slot in enumerate(self._slots):
            if slot.got < 0:
                hands[slot.seat].append(slot_tiles[index])
        # The initial slots are the dealt hand, then the search draws in order.
        drawers = search_drawers(self._round_index, p, len(deal.setup_draws))[:-1]
        searched = {j: iter(hands[j][len(hands[j]) - drawers.count(j) :]) for j in range(p) if j != seat}
        search = [deal.setup_draws[i] if j == seat else next(searched[j]) for i, j in enumerate(drawers)]
        if deal.setup_draws:
            search.append(deal.setup_draws[-1])
        # The yard: what each Draw took, in history order, then the rest.
        yard: List[Tile] = []
        for i, (mover, move, drawn) in enumerate(self._history):
            if move.kind == DRAW:
                if mover == seat:
                    assert drawn is not None  # a Draw's tile
                    yard.append(drawn)
                else:
                    yard.append(self._fixed[i] if i in self._fixed else slot_tiles[self._draw_slot[i]])
        world = self._round_class.from_deal(
            self._rules, hands, yard + rest, deal.centre, deal.starter, self._round_index, search, deal.highest_double
        )
        for i, (mover, move, _) in enumerate(self._history):
            try:
                world.push(move, player=mover)
            except IllegalMoveError as exc:  # a bug in the sampler, never a user's error
                raise AssertionError(f"a sampled world does not replay move {i} ({move}): {exc}") from None
        assert not world.is_over, "a sampled world ended where the round goes on"
        return world

    # ------------------------------------------------------------ diagnostics

    @property
    def stats(self) -> Dict[str, int]:
        """Sizes of the model, for benchmarks: ``free_tiles`` (tiles assigned
        by the sampler), ``slots`` (of the other seats, fixed ones left
        out), ``cells``, ``groups`` (of interchangeable free tiles), ``memo``
        (entries of W computed so far; 0 before the first sample) and
        ``worlds`` (the number of assignments, W(0, c0), computed on first
        use)."""
        return {
            "free_tiles": len(self._free),
            "slots": len(self._slots),
            "cells": len(self._cells),
            "groups": len(self._groups),
            "memo": len(self._memo),
            "worlds": self._count(self._start),
        }


def _legal_tiles(round: "Round", seat: int) -> Tuple[Dict[int, FrozenSet[Tile]], Optional[FrozenSet[Tile]]]:
    """Replay the public history on a copy of ``round``, from the deal.

    Returns F: for each move i of another seat than ``seat`` that is a Draw
    or a pass with nothing in question, the tiles that had a legal placement
    for its mover in the position before it (whoever held them; a pass
    right after a Draw has the Draw's F, the layout being the same); and,
    when nobody can draw now, the tiles with a legal end for any seat now
    (the blocked test), else ``None``."""
    tiles = list(tiles_of_set(round.rules.set))
    replay = round.clone()
    history = round._history()
    for _ in history:
        replay.pop()
    legal: Dict[int, FrozenSet[Tile]] = {}
    for i, (mover, move, _) in enumerate(history):
        if mover != seat and (move.kind == DRAW or (move.kind == PASS and replay.drawn_tile is None)):
            # The engine's own legality test, for any tile, as seat ``mover``:
            # it reads the layout, the obligation, locks and trains, never the hands.
            legal[i] = _placed_tiles(replay._placements(tiles, mover))
        replay.push(move)
    blocked_unless = None
    if replay.yard_size <= round.rules.reserve:
        blocked_unless = _placed_tiles(replay._placements(tiles, None))
    return legal, blocked_unless


def _placed_tiles(placements: List[Move]) -> FrozenSet[Tile]:
    """The tiles of a list of placements."""
    return frozenset(m.tile for m in placements if m.tile is not None)


def _pick(steps: List[Tuple[int, _State, int]], pick: int) -> Tuple[int, _State]:
    """The step of ``steps`` (``(x, state after, weight)``) that the number
    ``pick`` (below the weights' sum) falls in."""
    for x, after, weight in steps:
        if pick < weight:
            return x, after
        pick -= weight
    raise AssertionError("pick exceeds the weights' sum")


def _higher_doubles(set_size: int, centre: Optional[Tile]) -> List[Tile]:
    """The doubles above ``centre`` (every double when there is none)."""
    low = -1 if centre is None else centre.high
    return [Tile(v, v) for v in range(low + 1, set_size + 1)]


def _below(rng: SplitMix64, n: int) -> int:
    """A uniform integer in ``[0, n)`` for any ``n >= 1`` (the counts exceed
    64 bits): ``rng.below`` when it fits, else enough 64-bit words, by
    rejection (no bias)."""
    if n <= MASK64:
        return rng.below(n)
    words = (n.bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next()
        if x < limit:
            return x % n
