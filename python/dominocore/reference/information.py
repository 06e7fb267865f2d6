"""What a seat of a reference round may know (docs/information.md 3): its
information state (text, hash, tensor) and its observation planes, read from
the round's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    pass

import numpy as np
from numpy.typing import NDArray

from ..common import information
from ..common.checks import (
    check_seat,
    check_tensor_buffer,
    shown,
)
from ..common.errors import RulesError, StateError
from ..common.moves import PLACE, Move
from ..common.tiles import Tile
from .round_api import probe_tile

__all__ = ["RoundInformation"]


class RoundInformation:
    """The information-state and observation methods of the reference ``Round``."""

    __slots__ = ()

    def _known_to(self, seat: int) -> Tuple[List[int], List[Tile], List[Tile], List[Tuple[int, Move, Optional[Tile]]]]:
        """What ``seat`` knows besides the public state: every seat's count of
        search draws, its own dealt hand (by index), its own search draws (in
        draw order) and the history with only its own Draws' tiles.

        The dealt hand is the seat's hand in the deal record (after the
        set-up) without its search draws; so the starter of Doubles or of
        Block's ``highest_double`` lead, whose centre left its hand at the
        set-up, has the centre in neither (it is public). The starter's
        search draws end with the round's double, the centre."""
        p = self._rules.players
        search = self._deal.setup_draws
        counts = [0] * p
        own_search = []
        for tile, drawer in zip(search, information.search_drawers(self._round_index, p, len(search))):
            counts[drawer] += 1
            if drawer == seat:
                own_search.append(tile)
        dealt = [t for t in self._deal.hands[seat] if t not in own_search]
        history = [(mover, move, drawn if mover == seat else None) for mover, move, drawn in self._history()]
        return counts, dealt, own_search, history

    def _public_facts(self) -> Tuple[List[int], Optional[Tuple[int, ...]]]:
        """The public facts every seat knows besides the search counts: each
        seat's dealt hand size (its hand right after the set-up, less its
        search draws: for a viewer, the length of its dealt hand in
        ``_known_to``) and, once the round is over, each seat's points
        (``None`` while it goes on)."""
        p = self._rules.players
        search = self._deal.setup_draws
        drawers = information.search_drawers(self._round_index, p, len(search))
        sizes: List[int] = []
        for s in range(p):
            own = [tile for tile, drawer in zip(search, drawers) if drawer == s]
            sizes.append(len([t for t in self._deal.hands[s] if t not in own]))
        result = self.result
        return sizes, (None if result is None else tuple(result.points))

    def information_state(self, seat: int) -> str:
        """What ``seat`` knows, with perfect recall, as a string equal for two
        states exactly when the seat cannot tell them apart (docs/information.md 3):
        ``r<round>;s<seat>;c<centre|->;t<starter>;H<highest double: 0|1>;d<search
        draws per seat>;n<dealt hand sizes>;h<own dealt hand>;x<own search
        draws>;m<moves>``, then ``;e<points per seat>`` once the round is over."""
        seat = check_seat(self._rules.players, seat)
        counts, dealt, own_search, history = self._known_to(seat)
        sizes, points = self._public_facts()
        return information.information_state_text(
            self._round_index,
            seat,
            self._centre,
            self._starter,
            self._deal.highest_double,
            counts,
            sizes,
            dealt,
            own_search,
            history,
            points,
            self.carried,
        )

    def information_state_hash(self, seat: int) -> int:
        """The 64-bit FNV-1a hash of ``information_state(seat)``'s UTF-8 bytes."""
        return information.fnv1a_64(self.information_state(seat))

    @property
    def information_state_tensor_shape(self) -> Tuple[int]:
        """``(size,)``: the length of ``information_state_tensor``, fixed for the rules."""
        return (information.information_state_tensor_size(self._rules),)

    def information_state_tensor(self, seat: int) -> NDArray[np.float32]:
        """``information_state(seat)`` as a flat float32 vector of fixed length
        (docs/information.md 3): seat, starter, centre (index T: none),
        highest double (1 when the set-up showed the centre to be the highest
        double dealt), the round index in 31 bits (least significant first),
        search draws per seat, dealt hand sizes per seat, points per seat
        once the round is over (else zeros), own dealt hand, own search draws
        (1-based draw order), then one block per move (mover, kind, tile, end id in 10
        bits), zeros for the moves not played. A history longer than the
        bound L (docs/information.md 3; it holds for every round) would be a
        ``StateError``."""
        seat = check_seat(self._rules.players, seat)
        rules = self._rules
        t_count, p = rules.tile_count, rules.players
        counts, dealt, own_search, history = self._known_to(seat)
        bound = information.history_bound(rules)
        if len(history) > bound:
            raise StateError(f"{len(history)} moves exceed the tensor's history bound of {bound} moves")
        tensor = np.zeros(self.information_state_tensor_shape, dtype=np.float32)
        planes = _Planes(tensor)
        planes.take(p)[seat] = 1
        planes.take(p)[self._starter] = 1
        planes.take(t_count + 1)[t_count if self._centre is None else self._centre.index] = 1
        planes.take(1)[0] = 1 if self._deal.highest_double else 0
        round_bits = planes.take(information.ROUND_INDEX_BITS)
        for bit in range(information.ROUND_INDEX_BITS):
            round_bits[bit] = (self._round_index >> bit) & 1
        planes.take(p)[:] = counts
        sizes, points = self._public_facts()
        planes.take(p)[:] = sizes
        if points is not None:
            planes.take(p)[:] = points
        else:
            planes.take(p)
        if rules.scores_in_play:  # the match totals carried in (docs/games/all_fives.md F8)
            planes.take(p)[:] = self.carried
        own_hand = planes.take(t_count)
        for tile in dealt:
            own_hand[tile.index] = 1
        search_order = planes.take(t_count)
        for order, tile in enumerate(own_search, 1):
            search_order[tile.index] = order
        for mover, move, drawn in history:
            block = planes.take(information.move_block_size(rules))
            block[mover] = 1
            block[p + information.KIND_INDEX[move.kind]] = 1
            shown_tile = move.tile if move.kind == PLACE else drawn
            if shown_tile is not None:
                block[p + 3 + shown_tile.index] = 1
            if move.kind == PLACE:
                end: int = move.end  # type: ignore[assignment]  # a placement has an end
                for bit in range(information.END_BITS):
                    block[p + 3 + t_count + bit] = (end >> bit) & 1
        return tensor

    @property
    def observation_tensor_shape(self) -> Tuple[int]:
        """``(size,)``: the length of ``observation_tensor``, fixed for the rules."""
        return (information.observation_tensor_size(self._rules),)

    def observation_tensor(self, seat: int, out: Optional[NDArray[np.float32]] = None) -> NDArray[np.float32]:
        """What ``seat`` observes now as a flat float32 vector (docs/information.md 3),
        written into ``out`` (a writable, C-contiguous 1-d float32 array of
        ``observation_tensor_shape``) when given."""
        seat = check_seat(self._rules.players, seat)
        tensor = check_tensor_buffer(out, self.observation_tensor_shape)
        self._fill_observation(seat, tensor)
        return tensor

    @staticmethod
    def observation_tensors(
        rounds: Sequence["RoundInformation"],
        seats: Union[int, Sequence[int]],
        out: Optional[NDArray[np.float32]] = None,
    ) -> NDArray[np.float32]:
        """The observation tensors of many rounds of the same rules as the rows
        of one ``(len(rounds), size)`` float32 array (``out`` if given: a
        writable, C-contiguous array of that shape). ``seats`` is one seat
        for every round or a list, tuple or array of one seat per round.
        Rounds of different rules raise ``StateError``; with no rounds the
        result has shape ``(0, 0)``."""
        rounds = list(rounds)
        for r in rounds:
            if not isinstance(r, RoundInformation):
                raise TypeError(f"observation_tensors takes reference Rounds, got {shown(r)}")
        if isinstance(seats, (list, tuple, np.ndarray)):
            seat_list = list(seats)
            if len(seat_list) != len(rounds):
                raise RulesError(f"seats must hold one seat per round ({len(rounds)}), got {len(seat_list)}")
        else:
            seat_list = [seats] * len(rounds)
        if not rounds:
            return check_tensor_buffer(out, (0, 0))
        rules = rounds[0].rules
        if any(r.rules != rules for r in rounds):
            raise StateError("observation_tensors needs rounds of the same rules")
        checked = [check_seat(rules.players, s) for s in seat_list]
        tensor = check_tensor_buffer(out, (len(rounds), information.observation_tensor_size(rules)))
        for row, r, seat in zip(tensor, rounds, checked):
            r._fill_observation(seat, row)
        return tensor

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation into ``out`` (every entry).

        Readings of docs/information.md 3 (the core reads it the same way):
        the legal ends are the ends the seat to move may place on now: the
        obligation's pending ends, else every open end (docs/engine.md
        reading 2), but only those the game lets that seat use (Mexican
        Train: its own train, the Mexican train, a train with a marker);
        Doubles' locked ends count, since their double may go there (the
        unlocked plane tells them apart). Once the round is over nobody is
        to move and nothing is in question: the planes to move, own drawn
        tile, drawing and legal ends are zeros."""
        rules = self._rules
        t_count, p, n = rules.tile_count, rules.players, rules.set + 1
        out[:] = 0
        planes = _Planes(out)
        own_hand = planes.take(t_count)
        for tile in self._hands[seat]:
            own_hand[tile.index] = 1
        layout = planes.take(t_count)
        for placement in self._layout:
            layout[placement.tile.index] = 1
        own_drawn = planes.take(t_count)
        drawing = self._drawn is not None and self._result is None
        if drawing and self._current == seat:
            own_drawn[self._drawn.index] = 1  # type: ignore[union-attr]  # drawing: a drawn tile
        for ends in (self._ends, self._legal_ends()):
            counts = planes.take(n + 1)
            for end in ends:
                number = self._ends[end]
                counts[n if number is None else number] += 1
        unlocked = planes.take(n)
        for number in self._unlocked:
            unlocked[number] = 1
        planes.take(len(information.OBLIGATIONS))[information.OBLIGATIONS.index(self.obligation)] = 1
        planes.take(p)[seat] = 1
        to_move = planes.take(p)
        if self.current_player >= 0:
            to_move[self.current_player] = 1
        planes.take(p)[:] = [len(h) for h in self._hands]
        planes.take(1)[0] = len(self._yard)
        planes.take(1)[0] = drawing
        planes.take(p)[:] = self._markers
        self._game.write_extra_planes(self, seat, planes.take)
        assert planes.done()

    def _legal_ends(self) -> List[int]:
        """The ends the seat to move may place on now, whatever its tiles
        (none once the round is over): those the obligation allows on which
        the game lets it put the double of the end's number (any tile on an
        end without a number). A double goes wherever its number may go, and
        on Doubles' locked ends too."""
        if self._result is not None:
            return []
        may_attach, seat = self._game.may_attach, self._current
        return [end for end in self._ends_in_play() if may_attach(self, seat, probe_tile(self._ends[end]), end) is None]


class _Planes:
    """Hands out consecutive slices (numpy views) of a flat tensor, plane by plane."""

    def __init__(self, tensor: np.ndarray) -> None:
        self._tensor = tensor
        self._used = 0

    def take(self, size: int) -> np.ndarray:
        """The next ``size`` entries."""
        start = self._used
        self._used += size
        return self._tensor[start : self._used]

    def done(self) -> bool:
        """Whether every entry was handed out."""
        return self._used == len(self._tensor)
