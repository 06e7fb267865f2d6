"""The reference ``Round``'s action ids (docs/rules.md 1.8): the fixed action
space of each game, the mask of the legal ids, and the moves they stand for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency (typing.Self is 3.11+)
    pass

import numpy as np
from numpy.typing import NDArray

from ..common import messages
from ..common.checks import (
    action_key,
    check_mask_buffer,
    check_player,
)
from ..common.errors import IllegalMoveError
from ..common.moves import DRAW, PASS, Move, MoveLike, as_move
from .round_api import DRAW_MOVE, PASS_MOVE

__all__ = ["RoundActions"]


class RoundActions:
    """The action-id methods of the reference ``Round``."""

    __slots__ = ()

    @property
    def num_actions(self) -> int:
        """Size of the game's fixed action space (``rules.num_actions``): ``2*T
        + 2`` (docs/rules.md 1.8), ``T*(p+1) + 2`` in Mexican Train (M7)."""
        return self._rules.num_actions

    def _action_of(self, move: Move) -> int:
        """The id of a legal move: the game numbers the placements; ``Draw``
        and ``Pass`` are the last two ids of every game's space."""
        if move.kind == DRAW:
            return self.num_actions - 2
        if move.kind == PASS:
            return self.num_actions - 1
        return self._game.action_of(self, move)

    def move_to_action(self, move: MoveLike) -> int:
        """The action id of a legal move (a non-distinct placement maps to its distinct twin)."""
        move = as_move(move)
        reason = self._illegal(move, None)
        if reason is not None:
            raise IllegalMoveError(reason, messages.illegal_move(self, reason, move))
        return self._action_of(move)

    def legal_actions(self) -> List[int]:
        """The legal action ids, ascending."""
        return sorted(map(self._action_of, self.legal_moves(distinct=True)))

    def legal_action_mask(self, out: Optional[NDArray[np.bool_]] = None) -> NDArray[np.bool_]:
        """A numpy bool array of ``num_actions`` entries, True at the legal
        action ids; fills ``out`` (a writable, contiguous 1-d bool array of that
        length) in place when given."""
        mask = check_mask_buffer(out, self.num_actions)
        mask[:] = False
        mask[self.legal_actions()] = True
        return mask

    def action_to_move(self, action: int) -> Move:
        """The (distinct) move a legal action id stands for (``IllegalMoveError``
        ``illegal_action`` for anything else, of any type)."""
        key, places = action_key(action), self.num_actions - 2
        move: Optional[Move] = None
        if key is not None and 0 <= key < places:
            move = self._game.action_move(self, key)
        elif key in (places, places + 1):  # Draw, Pass: the last two ids, when legal
            other = DRAW_MOVE if key == places else PASS_MOVE
            move = other if self._illegal(other, None) is None else None
        if move is None:
            legal = self.legal_actions()
            message = messages.illegal_action(action, self.num_actions, self.is_over, legal)
            raise IllegalMoveError("illegal_action", message)
        return move

    def apply_action(self, action: int, player: Optional[int] = None) -> None:
        """Play the move a legal action id stands for, for ``player`` if named
        (refused unless it is that seat's turn, as ``push``)."""
        seat = check_player(self._rules.players, player)
        if seat is not None and self._result is None and seat != self._current:
            raise IllegalMoveError("not_your_turn", messages.action_not_your_turn(action, self._current, seat))
        self.push(self.action_to_move(action))
