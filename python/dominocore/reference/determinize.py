"""Exact determinization in plain Python (docs/information.md 4).

A *world* is a full round with the public history of a round and one seat's
private history; everything else (the other hands as dealt, their search
draws, the tiles they drew, the yard order) is sampled uniformly over the
worlds consistent with what the seat knows. This module builds the slot model
of section 4, counts the assignments of tiles to slots exactly with Python
integers, samples one uniformly, and replays the history on the world it
built.

It favours clarity over speed (the compiled core has the fast path), but it
is exact and has no bound: the count is taken seat by seat, along each
seat's chain of slots, rather than tile by tile over cells (see
``Determinizer``), so its size grows with the number of kinds of unseen
tiles and the seats' hands rather than with the product of the cells'
rooms. It is not polynomial in the worst case either: the longest rounds of
the cross on double-15 and double-18 take it from seconds to minutes
(docs/information.md 4).
"""

from __future__ import annotations

from math import comb, perm
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from ..common.checks import check_seat
from ..common.errors import IllegalMoveError, StateError
from ..common.information import search_drawers
from ..common.moves import DRAW, PASS, PLACE
from ..common.tiles import Tile, tiles_of_set
from .determinize_model import (
    GROUP,
    SEGMENT,
    Chain,
    CountState,
    Kind,
    Slot,
    Step,
    below,
    higher_doubles,
    legal_tiles,
    pick,
)
from .inference import WeightedSampling
from .rng import SplitMix64

if TYPE_CHECKING:
    from .round import Round

__all__ = ["Determinizer"]


class Determinizer(WeightedSampling):
    """The exact sampler of the worlds one seat cannot tell from a round
    (docs/information.md 4). Build it with ``round.determinizer(seat)``;
    ``sample(seed=0)`` returns a world as often as wanted.

    The preparation replays the public history once, to find for each Draw
    and each pass with nothing in question of another seat j the tiles
    F(j, i) that had a legal placement for j then; it builds every other
    seat's slots (its initial slots, one slot per Draw) and the tiles each
    slot allows. The count is built on the first sample and reused.

    **What is counted.** The assignments of the free tiles (the unseen ones,
    and those another seat placed from a slot not known) to the slots, the
    unseen tiles left over going to the yard, under conditions 1-4; each
    comes with the same number of yard orders (the yard is shuffled), so
    drawing an assignment uniformly draws a world uniformly. Conditions 1-4
    concern one seat at a time and have a shape (docs/information.md 4): at
    another seat j, an unseen tile is allowed in a suffix of j's chain (its
    slots in the order it got them), from the tile's *threshold* on, and a
    tile j placed in an interval, its *window*; the yard takes any unseen
    tile. So seats meet only through the unseen tiles they share, and the
    count goes seat by seat, keeping of the unseen tiles only how many of
    each *kind* are left: tiles with the same thresholds at the seats still
    to count are interchangeable.

    **Within seat j**, the count goes down j's chain, from its last position
    to its first. Each position is *free* (an unseen tile will hold it) or
    holds one of j's placed tiles whose window contains it. The placed tiles
    whose window ends at or above the positions reached and that are not in
    a slot yet are *pending*, counted by where their window starts (a
    class): the position may hold any of them (``n`` ways for a class of
    ``n``), and a class must be empty before the positions go below its
    start. When the positions reached are those at or above a threshold c,
    the unseen tiles of threshold c take some of the free positions reached
    and not yet filled, the *room* R: x tiles of a kind with s left are
    chosen in ``C(s, x)`` ways and put in ``perm(R, x)`` ways, and what is
    left of the kind is done with j. Taking the thresholds from the highest
    down makes this a product: every free position a tile of threshold c
    may take, any tile of a higher threshold could take too, so the room
    left does not depend on which of them took which. When the chain is
    done, every placed tile is in a slot and the room is 0.

    **The layers.** The count's steps are the runs of positions between two
    thresholds (*segments*) and the kinds at a threshold (*groups*), seat
    after seat. A state between two steps is how many tiles of each kind
    are left, the current seat's pending tiles by class and its room.
    ``W(t, state)``, the number of ways to finish from a state before step
    t, is computed once: the states each step reaches, going forward, then
    W layer by layer from the last, with Python integers (no recursion).

    **Sampling** goes forward: each step's outcome is drawn with probability
    ``ways * W(after) / W(now)``, then the particular tiles: the x tiles of
    a kind uniformly among those left, each into a uniformly chosen free
    position of the room; the tile of a pending class uniformly; which
    positions of a segment are free and which class each other one holds,
    in proportion to the ways. Each way the count counts is one assignment,
    drawn with probability 1/W: the sample is uniform.

    **Size.** A layer holds at most the ways the seats counted so far can
    have taken their unseen tiles out of the kinds (which merge as seats are
    done), times the current seat's pending classes and room. Seats are
    counted from the one with the fewest free slots. On the longest rounds
    scanned (see ``stats``) that is tens of thousands of states a layer.

    Reading of docs/information.md (a fifth condition the section leaves
    out): a round that is not over is not blocked, which is public. When
    nobody can draw now (in Block always: nobody ever draws there, however
    many tiles a hand-built deal leaves out of play) and the seat's own hand
    holds no tile with a legal end for any seat (the blocked test of
    docs/rules.md 1.5), some other seat's hand must hold one. Such unseen
    tiles are kinds of their own, so the count knows at the end how many of
    them went to the yard, and counts only the assignments where not all of
    them did: the sample stays exact, without rejection. Earlier positions
    need nothing more: from one where nobody could draw, either only passes
    followed (the same position as now) or a seat placed a tile it held
    then.
    """

    def __init__(self, round: "Round", seat: int, model: Any = None, candidates: Optional[int] = None) -> None:
        """Prepare the sampler of ``round`` as ``seat`` knows it: a seat out
        of range, a bad ``model`` or ``candidates`` is a ``RulesError``, a
        finished round a ``StateError`` (as ``round.determinizer``). With a
        ``model``, worlds are weighted by the likelihood of the other seats'
        moves (docs/information.md 5)."""
        seat = check_seat(round.rules.players, seat)
        self._set_inference(model, candidates, round.rules)
        if round.is_over:
            raise StateError("the round is over: there is nothing hidden to sample")
        self._round_class = type(round)
        self._rules = rules = round.rules
        self._seat = seat
        self._round_index = round.round_index
        self._deal = deal = round._deal
        self._history = history = round._history()
        others = [j for j in range(rules.players) if j != seat]
        legal, blocked_unless = legal_tiles(round, seat)

        # What the seat knows: its own tiles, the centre, every placed tile.
        own = set(deal.hands[seat]) | {drawn for mover, _, drawn in history if mover == seat and drawn is not None}
        placed = {p.tile for p in round.layout}
        unseen = set(tiles_of_set(rules.set)) - own - placed - {deal.centre}

        # The slots of every other seat, in the order it got them, and the
        # tiles it placed: a placement right after its own Draw fixes that
        # Draw's slot (self._fixed), any other has a deadline (placed_at).
        self._slots: List[Slot] = []
        self._fixed: Dict[int, Tile] = {}  # the move of a Draw -> the tile placed right after it
        self._draw_slot: Dict[int, int] = {}  # the move of a Draw -> its slot
        placed_at: Dict[Tile, int] = {}
        high_doubles = frozenset(higher_doubles(rules.set, deal.centre)) if deal.highest_double else frozenset()
        for j in others:
            self._slots += [Slot(j, -1, high_doubles)] * len(deal.hands[j])
        for i, (mover, move, _) in enumerate(history):
            if mover == seat:
                continue
            follows_own_draw = i > 0 and history[i - 1][0] == mover and history[i - 1][1].kind == DRAW
            if move.kind == DRAW:
                nxt = history[i + 1][1] if i + 1 < len(history) else None
                # A Draw followed by the drawer's pass under "must", or by its
                # next Draw (docs/games/all_fives.md F6: it draws again only
                # when the tile cannot be placed): the tile had no legal end.
                must_pass = nxt is not None and (
                    (nxt.kind == PASS and rules.drawn_tile == "must")
                    or (nxt.kind == DRAW and history[i + 1][0] == mover)
                )
                if nxt is not None and nxt.kind == PLACE:
                    self._fixed[i] = nxt.tile  # type: ignore[assignment]  # a placement has a tile
                else:
                    self._draw_slot[i] = len(self._slots)
                    self._slots.append(Slot(mover, i, legal[i] if must_pass else frozenset()))
            elif move.kind == PLACE and not follows_own_draw:
                placed_at[move.tile] = i  # type: ignore[index]  # a placement has a tile

        # Condition 2: per seat, the moves that say it held no tile of F.
        self._events = {j: [(i, f) for i, f in legal.items() if history[i][0] == j] for j in others}
        self._placed_by = {tile: history[i][0] for tile, i in placed_at.items()}
        self._placed_at = placed_at

        # The free tiles: the unseen ones, and those another seat placed from
        # a slot not known; the tiles each slot allows.
        self._free = sorted(unseen | set(placed_at), key=lambda t: t.index)
        self._unseen = unseen
        allows = [frozenset(t for t in self._free if self._allows(slot, t)) for slot in self._slots]
        self._cells = len({(slot.seat, tiles) for slot, tiles in zip(self._slots, allows)})
        assert len(self._free) - len(self._slots) == len(deal.yard) - sum(1 for _, m, _ in history if m.kind == DRAW)
        # Condition 5 (see the class docstring): the unseen tiles that keep the
        # round from being blocked, if some must be in another seat's hand.
        self._needed = blocked_unless is not None and not (blocked_unless & set(round.hand(seat)))
        self._unblocking = blocked_unless & unseen if blocked_unless is not None and self._needed else frozenset()

        # The count's model: the chains (the seat with the fewest free slots
        # first), the kinds of unseen tiles and the steps.
        chains = [self._make_chain(j, allows) for j in others if any(s.seat == j for s in self._slots)]
        chains.sort(key=lambda chain: len(chain[0].slots) - len(chain[0].start_class))
        self._chains = [chain for chain, _ in chains]
        self._make_steps([thresholds for _, thresholds in chains])
        self._start: CountState = (tuple(len(tiles) for tiles in self._start_tiles), self._no_pending(0), 0)
        self._w: Optional[List[Dict[CountState, int]]] = None  # W, per step (and the end)
        self._valids: Dict[int, Dict[int, Set[Tuple[int, ...]]]] = {}
        self._segments: Dict[Tuple[int, int, int, Tuple[int, ...]], Dict[Tuple[Tuple[int, ...], int], int]] = {}

    # ------------------------------------------------------------ the slot model

    def _allows(self, slot: Slot, tile: Tile) -> bool:
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

    def _make_chain(self, seat: int, allows: List[FrozenSet[Tile]]) -> Tuple[Chain, Dict[Tile, int]]:
        """``seat``'s chain (its slots in the order it got them), and the
        threshold there of each unseen tile (-1: no slot of the seat allows
        it), given the tiles each slot allows."""
        slots = tuple(i for i, slot in enumerate(self._slots) if slot.seat == seat)
        thresholds: Dict[Tile, int] = {}
        windows: Dict[Tile, Tuple[int, int]] = {}
        for tile in self._free:
            where = [p for p, i in enumerate(slots) if tile in allows[i]]
            if tile in self._unseen:
                assert where == list(range(where[0], len(slots))) if where else True, "not a suffix"
                thresholds[tile] = where[0] if where else -1
            elif self._placed_by[tile] == seat:
                assert where and where == list(range(where[0], where[-1] + 1)), "not an interval"
                windows[tile] = (where[0], where[-1])
        starts = tuple(sorted({first for first, _ in windows.values()}))
        chain = Chain(
            seat=seat,
            slots=slots,
            thresholds=tuple(sorted({c for c in thresholds.values() if c >= 0}, reverse=True)),
            starts=starts,
            start_class={tile: starts.index(first) for tile, (first, _) in windows.items()},
            ends=tuple(tuple(t for t, (_, last) in windows.items() if last == p) for p in range(len(slots))),
            closing=tuple(starts.index(p) if p in starts else -1 for p in range(len(slots))),
        )
        return chain, thresholds

    def _make_steps(self, thresholds: List[Dict[Tile, int]]) -> None:
        """The steps of the count (``_steps``), the kinds before each step and
        at the end (``_kinds``), and the tiles of each kind at the start
        (``_start_tiles``), given each chain's thresholds of the unseen tiles."""
        start: Dict[Kind, List[Tile]] = {}
        for tile in sorted(self._unseen, key=lambda t: t.index):
            kind = tuple(by_tile[tile] for by_tile in thresholds) + (tile in self._unblocking,)
            start.setdefault(kind, []).append(tile)
        kinds = sorted(start)
        self._start_tiles = [start[kind] for kind in kinds]
        self._steps: List[Step] = []
        self._kinds: List[Tuple[Kind, ...]] = []
        for c, chain in enumerate(self._chains):
            for k in range(len(chain.thresholds) + 1):
                last = k == len(chain.thresholds)
                high = len(chain.slots) if k == 0 else chain.thresholds[k - 1]
                low = 0 if last else chain.thresholds[k]
                supply = tuple(i for i, kind in enumerate(kinds) if kind[0] >= 0)
                self._steps.append(Step(SEGMENT, c, low, high, -1, -1, supply, last))
                self._kinds.append(tuple(kinds))
                for kind in [kind for kind in kinds if kind[0] == low and not last]:
                    index, done, after = kinds.index(kind), (-1,) + kind[1:], list(kinds)
                    if done in kinds:
                        del after[index]
                        target = after.index(done)
                    else:
                        after[index], target = done, -1
                    supply = tuple(i for i, kind in enumerate(kinds) if kind[0] >= 0 and i != index)
                    self._steps.append(Step(GROUP, c, low, low, index, target, supply, False))
                    self._kinds.append(tuple(kinds))
                    kinds = after
            kinds = [kind[1:] for kind in kinds]  # the seat is done with every tile
        self._kinds.append(tuple(kinds))

    def _no_pending(self, c: int) -> Tuple[int, ...]:
        """Chain ``c``'s pending tiles before its first position: none (an
        empty tuple after the last chain)."""
        return (0,) * len(self._chains[c].starts) if c < len(self._chains) else ()

    # ------------------------------------------------------------ counting

    def _positions(self, chain: Chain, p: int, pending: Tuple[int, ...]) -> List[Tuple[Tuple[int, ...], int, int, int]]:
        """The ways position ``p`` of ``chain`` can be filled, the positions
        above it done with ``pending`` (by class) left: the pending tiles
        after, 1 if the position is free (else 0), the class of the placed
        tile it holds (-1: free) and the number of ways. A position below
        every threshold cannot be free (no unseen tile may hold it), and the
        class whose windows start at ``p`` must be empty after it."""
        counts = list(pending)
        for tile in chain.ends[p]:
            counts[chain.start_class[tile]] += 1
        closing = chain.closing[p]
        options = []
        if chain.thresholds and p >= chain.thresholds[-1] and (closing < 0 or counts[closing] == 0):
            options.append((tuple(counts), 1, -1, 1))
        for c, n in enumerate(counts):
            if n and (closing < 0 or counts[closing] == (c == closing)):
                counts[c] -= 1
                options.append((tuple(counts), 0, c, n))
                counts[c] += 1
        return options

    def _segment(self, step: Step, pending: Tuple[int, ...]) -> Dict[Tuple[Tuple[int, ...], int], int]:
        """The outcomes of a segment step from ``pending``: (the pending tiles
        after, how many of its positions are free) -> the number of ways to
        fill its positions so (memoised)."""
        key = (step.chain, step.high, step.low, pending)
        known = self._segments.get(key)
        if known is None:
            chain = self._chains[step.chain]
            known = {(pending, 0): 1}
            for p in range(step.high - 1, step.low - 1, -1):
                reached: Dict[Tuple[Tuple[int, ...], int], int] = {}
                for (held, free), ways in known.items():
                    for after, f, _, n in self._positions(chain, p, held):
                        reached[(after, free + f)] = reached.get((after, free + f), 0) + ways * n
                known = reached
            valid = self._valid(step.chain).get(step.low, set())
            known = {key2: ways for key2, ways in known.items() if key2[0] in valid}
            self._segments[key] = known
        return known

    def _valid(self, c: int) -> Dict[int, Set[Tuple[int, ...]]]:
        """For chain ``c``: position -> the pending tiles, going down, that are
        reached from the top and from which the bottom can be reached."""
        known = self._valids.get(c)
        if known is None:
            chain = self._chains[c]
            n = len(chain.slots)
            down: List[Set[Tuple[int, ...]]] = [{(0,) * len(chain.starts)}]
            for p in range(n - 1, -1, -1):
                down.append({after for held in down[-1] for after, _, _, _ in self._positions(chain, p, held)})
            up = {held for held in down[n] if not any(held)}
            known = {0: up}
            for p in range(n):  # down[n - p] is before position p... after positions >= p
                i = n - p - 1
                up = {
                    held for held in down[i] if any(after in up for after, _, _, _ in self._positions(chain, p, held))
                }
                known[p + 1] = up
            self._valids[c] = known
        return known

    def _moves(self, t: int, state: CountState) -> Iterator[Tuple[CountState, int, Any]]:
        """The outcomes of step ``t`` from ``state``: the state after, the
        number of ways, and what was chosen (a segment: the pending tiles
        after and its free positions; a group: how many tiles it takes).

        A step is left out when the room would exceed the tiles the seat may
        still take (a pruning only: such a state has no way to finish)."""
        step = self._steps[t]
        counts, pending, room = state
        supply = sum(counts[i] for i in step.supply)
        if step.kind == SEGMENT:
            for (after, free), ways in self._segment(step, pending).items():
                if room + free > supply:
                    continue
                if not step.last:
                    yield (counts, after, room + free), ways, (after, free)
                elif room == 0:  # no free position below the lowest threshold
                    yield (counts, self._no_pending(step.chain + 1), 0), ways, (after, free)
            return
        left = counts[step.at]
        for x in range(max(0, room - supply), min(left, room) + 1):
            if step.target < 0:
                taken = counts[: step.at] + (left - x,) + counts[step.at + 1 :]
            else:
                rest = list(counts[: step.at] + counts[step.at + 1 :])
                rest[step.target] += left - x
                taken = tuple(rest)
            yield (taken, pending, room - x), comb(left, x) * perm(room, x), x

    def _finishes(self, state: CountState) -> bool:
        """Whether the count's last state is an assignment: when a tile that
        keeps the round from being blocked must be in another seat's hand,
        not all of them are left for the yard."""
        if not self._needed:
            return True
        kinds = self._kinds[-1]
        left = state[0][kinds.index((True,))] if (True,) in kinds else 0
        return left < len(self._unblocking)

    def _count(self) -> List[Dict[CountState, int]]:
        """W: for each step t (and the end), the states reached before it
        that can finish, with their number of ways to finish. Built once:
        the states each step reaches, going forward, then W from the last
        layer back."""
        if self._w is None:
            layers: List[Set[CountState]] = [{self._start}]
            for t in range(len(self._steps)):
                layers.append({after for state in layers[t] for after, _, _ in self._moves(t, state)})
            w = [{state: 1 for state in layers[-1] if self._finishes(state)}]
            for t in range(len(self._steps) - 1, -1, -1):
                later = w[-1]
                here = {}
                for state in layers[t]:
                    ways = sum(n * later.get(after, 0) for after, n, _ in self._moves(t, state))
                    if ways:
                        here[state] = ways
                w.append(here)
                layers.pop()
            w.reverse()
            self._w = w
        return self._w

    # ------------------------------------------------------------ sampling

    def _sample_uniform(self, rng: SplitMix64) -> "Round":
        """A world uniform over those consistent with what the seat knows.
        Step by step, the outcome is drawn with probability
        ``ways * W(after) / W(now)``, then the particular tiles and
        positions uniformly among the ways it counts (see the class
        docstring); the yard's tiles are shuffled (top first)."""
        w = self._count()
        state = self._start
        assert state in w[0], "no world is consistent with the round itself"
        left = [list(tiles) for tiles in self._start_tiles]  # the tiles of each kind left
        held: List[List[Tile]] = []  # the current seat's pending placed tiles, by class
        room: List[int] = []  # its free positions not yet filled
        slot_tiles: Dict[int, Tile] = {}
        for t, step in enumerate(self._steps):
            outcomes = [(after, n * w[t + 1].get(after, 0), chosen) for after, n, chosen in self._moves(t, state)]
            after, chosen = pick(outcomes, below(rng, sum(weight for _, weight, _ in outcomes)))
            chain = self._chains[step.chain]
            if step.kind == SEGMENT:
                if step.high == len(chain.slots):  # the chain's first segment
                    held, room = [[] for _ in chain.starts], []
                for p, c in self._segment_path(step, state[1], chosen, rng):
                    for tile in chain.ends[p]:
                        held[chain.start_class[tile]].append(tile)
                    if c < 0:
                        room.append(p)
                    else:
                        slot_tiles[chain.slots[p]] = held[c].pop(rng.below(len(held[c])))
            else:
                tiles = left[step.at]
                for _ in range(chosen):
                    tile = tiles.pop(rng.below(len(tiles)))
                    slot_tiles[chain.slots[room.pop(rng.below(len(room)))]] = tile
                if step.target >= 0:
                    del left[step.at]
                    left[step.target] += tiles
            state = after
        yard = [tile for tiles in left for tile in tiles]
        rng.shuffle(yard)
        return self._world(slot_tiles, yard)

    def _segment_path(
        self, step: Step, pending: Tuple[int, ...], outcome: Tuple[Tuple[int, ...], int], rng: SplitMix64
    ) -> List[Tuple[int, int]]:
        """The positions of a segment step, top down, each with the class of
        the placed tile it holds (-1: free), drawn in proportion to the ways
        among the fillings from ``pending`` with ``outcome`` (the pending
        tiles after, the number of free positions)."""
        chain = self._chains[step.chain]
        positions = range(step.high - 1, step.low - 1, -1)
        layers = [{(pending, 0): 1}]  # the ways to reach each (pending, free) going down
        for p in positions:
            reached: Dict[Tuple[Tuple[int, ...], int], int] = {}
            for (held, free), ways in layers[-1].items():
                for after, f, _, n in self._positions(chain, p, held):
                    reached[(after, free + f)] = reached.get((after, free + f), 0) + ways * n
            layers.append(reached)
        path = []
        current = outcome
        for p, layer in zip(reversed(positions), reversed(layers[:-1])):
            options = [
                ((held, free), ways * n, c)
                for (held, free), ways in layer.items()
                for after, f, c, n in self._positions(chain, p, held)
                if (after, free + f) == current
            ]
            current, c = pick(options, below(rng, sum(weight for _, weight, _ in options)))
            path.append((p, c))
        path.reverse()
        return path

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
            self._rules,
            hands,
            yard + rest,
            deal.centre,
            deal.starter,
            self._round_index,
            search,
            deal.highest_double,
            deal.carried,
        )
        for i, (mover, move, _) in enumerate(self._history):
            try:
                world.push(move, player=mover)
            except IllegalMoveError as exc:  # a bug in the sampler, never a user's error
                raise AssertionError(f"a sampled world does not replay move {i} ({move}): {exc}") from None
        if world.is_over:  # a bug in the sampler too (raised under -O as well)
            raise AssertionError("a sampled world ended where the round goes on")
        return world

    @property
    def seat(self) -> int:
        """The seat whose knowledge the worlds honour."""
        return self._seat

    def __repr__(self) -> str:
        return f"<Determinizer seat={self._seat}{self._weighting_repr()} {self._rules!r}>"  # names no tile

    # ------------------------------------------------------------ diagnostics

    @property
    def stats(self) -> Dict[str, int]:
        """Sizes of the model, for benchmarks: ``free_tiles`` (tiles assigned
        by the sampler), ``slots`` (of the other seats, fixed ones left
        out), ``cells`` (slots of one seat that allow the same tiles, merged),
        ``groups`` (kinds of unseen tiles at the start of the count),
        ``memo`` (states of the count with a way to finish; 0 before the
        first sample) and ``worlds`` (the number of assignments of tiles to
        slots, W at the start, computed on first use); with a model,
        ``model_draws`` (uniform worlds drawn to be weighted) and
        ``model_rejected`` (of those, rejected by the exact method)."""
        memo = sum(len(layer) for layer in self._w) if self._w is not None else 0
        return {
            "free_tiles": len(self._free),
            "slots": len(self._slots),
            "cells": self._cells,
            "groups": len(self._start_tiles),
            "memo": memo,
            "worlds": self._count()[0].get(self._start, 0),
            "model_draws": self._model_draws,
            "model_rejected": self._model_rejected,
        }
