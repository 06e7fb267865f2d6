"""The pieces of the reference's exact determinizer (docs/information.md 4)
that are not the sampler itself: the slot model's types (a slot holds one
hidden tile; chains and steps order them for counting) and the questions it
asks of a round (which tiles a seat could have played, whether it could
draw, the placed tiles, the doubles above the centre), with the uniform
draw of a generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, NamedTuple, Optional, Tuple

from ..common.moves import DRAW, PASS, Move
from ..common.tiles import Tile, tiles_of_set
from .rng import MASK64, SplitMix64

if TYPE_CHECKING:
    from .round import Round


class Slot(NamedTuple):
    """A place that holds one tile of another seat: its seat, the move at
    which the seat got it (-1: an initial slot, held before the first move)
    and the tiles it may not hold whatever else holds (a Draw followed by the
    drawer's next Draw, docs/games/all_fives.md F6, or by a
    pass under ``"must"``: the tiles that had a legal end; an initial slot
    under ``highest_double``: the doubles above the centre)."""

    seat: int
    got: int
    excluded: FrozenSet[Tile]


class Chain(NamedTuple):
    """Another seat's slots as the count sees them: positions 0, 1, ... are
    its slots in the order it got them (docs/information.md 4: the slots that
    allow an unseen tile form a suffix of the chain, and those that allow a
    tile the seat placed an interval).

    ``thresholds``: the first positions of those suffixes, highest first.
    ``starts``: the first positions of the intervals (its *windows*); the
    placed tiles whose windows start alike form a class, ``start_class``.
    ``ends``: for each position, the placed tiles whose windows end there.
    ``closing``: for each position, the class whose windows start there
    (-1: none)."""

    seat: int
    slots: Tuple[int, ...]
    thresholds: Tuple[int, ...]
    starts: Tuple[int, ...]
    start_class: Dict[Tile, int]
    ends: Tuple[Tuple[Tile, ...], ...]
    closing: Tuple[int, ...]


#: A kind of unseen tile, as the count sees it from a step on: for each seat
#: still to count, the first position of its chain that allows the tile (-1:
#: none, or the seat is done with the tile), then whether the tile keeps the
#: round from being blocked (condition 5). Tiles of one kind are
#: interchangeable for the rest of the count.
Kind = Tuple[Any, ...]

#: A state of the count, between two steps: how many tiles of each kind are
#: left (in the order of the step's kinds); the current seat's placed tiles
#: that are pending (their window ends above the positions reached, they
#: are not in a slot yet), by class; and the free positions reached (those
#: that hold an unseen tile) not yet filled, the *room*.
CountState = Tuple[Tuple[int, ...], Tuple[int, ...], int]

SEGMENT = "segment"
GROUP = "group"


class Step(NamedTuple):
    """A step of the count at chain ``chain``.

    A *segment* goes down the positions ``high - 1`` to ``low`` of the
    chain: each is free (an unseen tile will hold it) or holds a pending
    placed tile (``last``: the chain's lowest segment, after which the seat
    is done). A *group* comes when the positions reached are those at or
    above a threshold: the tiles of kind ``at`` whose suffix starts
    there take some of the room. What is left of them goes on as a kind the
    seat is done with: at ``target`` (an index in the kinds after the step,
    which then has one kind fewer), or, when that kind is new (``target``
    -1), at ``at`` itself.

    ``supply``: the kinds the seat may still take (after a group step),
    whose tiles bound the room (a pruning only)."""

    kind: str
    chain: int
    low: int
    high: int
    at: int
    target: int
    supply: Tuple[int, ...]
    last: bool


def legal_tiles(round: "Round", seat: int) -> Tuple[Dict[int, FrozenSet[Tile]], Optional[FrozenSet[Tile]]]:
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
            legal[i] = placed_tiles(replay._placements(tiles, mover))
        replay.push(move)
    blocked_unless = None
    if not may_draw(replay):
        blocked_unless = placed_tiles(replay._placements(tiles, None))
    return legal, blocked_unless


def may_draw(round: "Round") -> bool:
    """Whether a seat without a placement could draw now, the other half of
    the blocked test (docs/rules.md 1.4, 1.5): the yard holds more tiles than
    are never drawn. In Block nobody ever draws (docs/games/block.md B1, B4:
    every tile left of the deal is out of play), whatever ``rules.reserve``
    says: that counts the tiles out of play after a dealt round's deal, and a
    hand-built deal (``Round.from_deal``) with shorter hands leaves more."""
    if not round.rules.has_drawing:
        return False
    return round.yard_size > round.rules.reserve


def placed_tiles(placements: List[Move]) -> FrozenSet[Tile]:
    """The tiles of a list of placements."""
    return frozenset(m.tile for m in placements if m.tile is not None)


def pick(options: List[Tuple[Any, int, Any]], pick: int) -> Tuple[Any, Any]:
    """The option of ``options`` (``(a, weight, b)``) that the number
    ``pick`` (below the weights' sum) falls in: its ``(a, b)``."""
    for a, weight, b in options:
        if pick < weight:
            return a, b
        pick -= weight
    raise AssertionError("pick exceeds the weights' sum")


def higher_doubles(set_size: int, centre: Optional[Tile]) -> List[Tile]:
    """The doubles above ``centre`` (every double when there is none)."""
    low = -1 if centre is None else centre.high
    return [Tile(v, v) for v in range(low + 1, set_size + 1)]


def below(rng: SplitMix64, n: int) -> int:
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
