"""The information model's shared definitions (docs/information.md 3).

The sizes of the information-state and observation tensors, the history
bound they rest on, the 64-bit FNV-1a hash of an information state, and the
text of an information state. Both implementations produce the same strings
and tensors bit for bit; these are the formulas and the format the reference
builds them with.
"""

from __future__ import annotations

import math
from typing import Iterable, List, Optional, Sequence, Tuple

from .moves import DRAW, PASS, PLACE, Move
from .tiles import Tile

__all__ = [
    "END_BITS",
    "ROUND_INDEX_BITS",
    "MOVE_KINDS",
    "KIND_INDEX",
    "OBLIGATIONS",
    "yard_bound",
    "history_bound",
    "move_block_size",
    "information_state_tensor_size",
    "observation_planes",
    "observation_tensor_size",
    "observation_high",
    "fnv1a_64",
    "search_drawers",
    "tiles_text",
    "information_state_text",
]

#: The end id of a placement is written in this many bits (least significant
#: first): no round creates more than 8 + 3*190 ends, fewer than 2**10.
END_BITS = 10
#: The round index is written in this many bits (least significant first):
#: a round index is at most 2**31 - 1 (``checks.MAX_ROUND_INDEX``).
ROUND_INDEX_BITS = 31
#: The move kinds of a move block's one-hot, in order.
MOVE_KINDS = (PLACE, DRAW, PASS)
#: The position of each kind in that one-hot.
KIND_INDEX = {kind: i for i, kind in enumerate(MOVE_KINDS)}
#: The obligation plane's one-hot, in order (``None``: nothing pending).
OBLIGATIONS = (None, "start", "foot", "double")

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


def yard_bound(rules) -> int:
    """Y = T - p: the most tiles the yard can hold right after the set-up of
    a round of ``rules`` that has any move, whatever its deal.

    It is an upper bound, not the exact yard, so that it is one constant per
    rules object and holds for hand-built deals too (whose hands may be
    shorter than ``hand_size``): a hand empty after the set-up ends the
    round at once, so a round with a move has at least one tile in each of
    its p hands. (A dealt round's yard is smaller still: T - p*hand_size at
    most.)"""
    return rules.tile_count - rules.players


def history_bound(rules) -> int:
    """L = T + 2*Y + 2*p*(T + 1), the most moves a round of ``rules`` can
    have (docs/information.md 3): at most T placements, at most Y draws each
    followed by at most one pass, and at most 2p passes with nothing in
    question between two placements (and before the first, after the last)."""
    t, p = rules.tile_count, rules.players
    return t + 2 * yard_bound(rules) + 2 * p * (t + 1)


def move_block_size(rules) -> int:
    """The entries of one move in the information-state tensor: the mover
    (p), the kind (3), the tile (T) and the end id (10 bits)."""
    return rules.players + len(MOVE_KINDS) + rules.tile_count + END_BITS


def information_state_tensor_size(rules) -> int:
    """The length of ``information_state_tensor``: seat (p), starter (p),
    centre (T + 1), highest double (1), round index (31 bits), search draws
    (p), dealt hand sizes (p), points (p), in the games that score during
    play the match totals carried in (p), own dealt hand (T), own search
    draws (T), then L move blocks: 5p (6p) + (T + 1) + 2T + 32 + L*(p + T + 13)."""
    t, p = rules.tile_count, rules.players
    carried = p if rules.scores_in_play else 0
    return 5 * p + carried + (t + 1) + 1 + ROUND_INDEX_BITS + 2 * t + history_bound(rules) * move_block_size(rules)


def observation_high(rules) -> float:
    """An upper bound of every entry of ``observation_tensor`` (its lower
    bound is 0): the counts it holds are of hand tiles, yard tiles (at most
    T each) and open ends, at most ``slots + 2T`` (a placement removes one
    end and opens at most three)."""
    return float(rules.slots + 2 * rules.tile_count)


def observation_planes(rules) -> List[Tuple[str, Tuple[int, ...]]]:
    """The named planes of ``observation_tensor`` (docs/information.md 3), in
    order, with their shapes, n = N + 1 numbers: own hand, layout, own drawn
    tile (T each), open ends and legal ends (n + 1 each), unlocked (n),
    obligation (4), viewer, to move, hand sizes (p each), yard and drawing
    (1 each), markers (p), then the game's own planes
    (``rules.observation_extra_planes()``: Mexican Train's train ends)."""
    t, p, n = rules.tile_count, rules.players, rules.set + 1
    planes: List[Tuple[str, Tuple[int, ...]]] = [
        ("own_hand", (t,)),
        ("layout", (t,)),
        ("own_drawn_tile", (t,)),
        ("open_ends", (n + 1,)),
        ("legal_ends", (n + 1,)),
        ("unlocked", (n,)),
        ("obligation", (len(OBLIGATIONS),)),
        ("viewer", (p,)),
        ("to_move", (p,)),
        ("hand_sizes", (p,)),
        ("yard", (1,)),
        ("drawing", (1,)),
        ("markers", (p,)),
    ]
    return planes + rules.observation_extra_planes()


def observation_tensor_size(rules) -> int:
    """The length of ``observation_tensor``: the sizes of its planes
    (``observation_planes``) added up."""
    return sum(math.prod(shape) for _, shape in observation_planes(rules))


def fnv1a_64(text: str) -> int:
    """The 64-bit FNV-1a hash of ``text``'s UTF-8 bytes (offset basis
    0xcbf29ce484222325, prime 0x100000001b3).

    >>> hex(fnv1a_64(""))
    '0xcbf29ce484222325'
    >>> hex(fnv1a_64("a"))
    '0xaf63dc4c8601ec8c'
    """
    h = _FNV_OFFSET
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * _FNV_PRIME) & _MASK64
    return h


def search_drawers(round_index: int, players: int, count: int) -> List[int]:
    """The seat that drew each tile of the cross's search: the i-th tile was
    drawn by seat ``(round_index + i) mod p`` (the last, the round's double,
    by the starter)."""
    return [(round_index + i) % players for i in range(count)]


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles written ``low-high``, comma-separated (nothing for none)."""
    return ",".join(str(t) for t in tiles)


def information_state_text(
    round_index: int,
    seat: int,
    centre: Optional[Tile],
    starter: int,
    highest_double: bool,
    search_counts: Sequence[int],
    dealt_sizes: Sequence[int],
    dealt_hand: Sequence[Tile],
    own_search: Sequence[Tile],
    history: Sequence[Tuple[int, Move, Optional[Tile]]],
    points: Optional[Sequence[int]] = None,
    carried: Sequence[int] = (),
) -> str:
    """The information state of docs/information.md 3:
    ``r<round_index>;s<seat>;c<centre|->;t<starter>;H<0|1>;d<draws per
    seat>;n<dealt hand sizes>;h<own dealt hand>;x<own search
    draws>[;k<carried>];m<moves>[;e<points per seat>]``, where ``H`` is 1 when the set-up
    showed the centre to be the highest double dealt (``highest_double``),
    else 0, ``n`` holds each seat's hand right after the set-up less its
    search draws, and ``e`` (only when ``points`` is given: the round is
    over) each seat's ``result.points``; ``k`` (only when some is not 0)
    each seat's match total carried into the round (docs/games/all_fives.md F8).

    ``dealt_hand`` must already be sorted by tile index and ``own_search`` be
    in draw order. ``history`` holds ``(mover, move, drawn)`` with ``drawn``
    the tile of the viewer's own Draws only (``None`` for every other move):
    a move is written ``<seat>:<move>``, an own Draw ``<seat>:draw=low-high``.

    >>> from dominocore.common.moves import Move
    >>> information_state_text(0, 3, Tile(9, 9), 1, False, [0, 0, 0, 0], [1, 1, 1, 1], [Tile(0, 1)], [],
    ...     [(1, Move.parse("3-9@0"), None), (2, Move.draw(), None), (3, Move.draw(), Tile(4, 5))])
    'r0;s3;c9-9;t1;H0;d0,0,0,0;n1,1,1,1;h0-1;x;m1:3-9@0 2:draw 3:draw=4-5'
    >>> information_state_text(0, 1, None, 0, False, [0, 0], [1, 1], [Tile(0, 1)], [],
    ...     [(0, Move.parse("2-3@0"), None)], points=[0, 1])
    'r0;s1;c-;t0;H0;d0,0;n1,1;h0-1;x;m0:2-3@0;e0,1'
    """
    moves = []
    for mover, move, drawn in history:
        if move.kind == DRAW and drawn is not None:
            moves.append(f"{mover}:draw={drawn}")
        else:
            moves.append(f"{mover}:{move}")
    fields = [
        f"r{round_index}",
        f"s{seat}",
        "c" + ("-" if centre is None else str(centre)),
        f"t{starter}",
        "H" + ("1" if highest_double else "0"),
        "d" + ",".join(str(c) for c in search_counts),
        "n" + ",".join(str(n) for n in dealt_sizes),
        "h" + tiles_text(dealt_hand),
        "x" + tiles_text(own_search),
    ]
    if any(carried):
        fields.append("k" + ",".join(str(int(x)) for x in carried))
    fields += ["m" + " ".join(moves)]
    if points is not None:
        fields.append("e" + ",".join(str(int(x)) for x in points))
    return ";".join(fields)
