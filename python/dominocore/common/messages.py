"""The messages of ``IllegalMoveError``, written once for both implementations.

The engines decide *whether* a move is legal and return a stable reason code
(docs/engine.md); the sentence a person reads is made here, from that code,
the move and what the round shows through its public API. Both the compiled
core's wrapper and the reference raise with these functions, so the same
mistake gets the same words from either.

A message never shows more than the seat that made the move may know: the
checks run in the order of docs/engine.md, so a move named for a seat whose
turn it is not stops at ``not_your_turn``, which tells nothing about the
seat to move; every later reason concerns the mover's own hand, its drawn
tile or the public layout.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Tuple

from .checks import shown

__all__ = ["illegal_move", "illegal_action", "action_not_your_turn", "NO_MOVE"]

#: ``pop`` at the deal (reason ``no_move``).
NO_MOVE = "no move to undo: the round is at its deal"

#: The rule each reason code applies, cited at the end of its message.
_RULE = {
    "round_over": "docs/rules.md 1.5",
    "not_your_turn": "docs/rules.md 1.2",
    "not_drawn_tile": "docs/rules.md 1.4",
    "end_not_open": "docs/rules.md 1.3",
    "start_unfinished": "docs/rules.md 2.2",
    "foot_unfinished": "docs/rules.md 2.3",
    "double_unsatisfied": "docs/games/mexican_train.md M3",
    "not_your_train": "docs/games/mexican_train.md M2",
    "no_match": "docs/rules.md 1.3",
    "locked": "docs/rules.md 3",
    "already_drew": "docs/rules.md 1.4",
    "must_place": "docs/rules.md 1.4",
    "yard_exhausted": "docs/rules.md 1.4",
    "must_place_drawn": "docs/rules.md 1.4",
    "must_draw": "docs/rules.md 1.4",
    "illegal_action": "docs/rules.md 1.8",
}


def _ids(ids: Iterable[int]) -> str:
    return ", ".join(str(i) for i in ids) or "none"


def _detail(round: Any, reason: str, move: Any, player: Optional[int]) -> str:
    seat = round.current_player
    drawn = round.drawn_tile
    numbers = {e.id: e.number for e in round.open_ends}
    yard, reserve = round.yard_size, round.rules.reserve
    if reason == "round_over":
        return "the round is over: no move can be made"
    if reason == "not_your_turn":
        return f"it is seat {seat}'s turn, not seat {player}'s"
    if reason == "not_drawn_tile":
        return f"after a draw only the drawn tile {drawn} may be placed"
    if reason == "not_in_hand":
        return f"tile {move.tile} is not in seat {seat}'s hand"
    if reason == "end_not_open":
        return f"end {move.end} is not open (open ends: {_ids(sorted(numbers))})"
    if reason == "start_unfinished":
        return f"every slot of the start double must hold a tile first (open slots: {_ids(round.pending_ends)})"
    if reason == "foot_unfinished":
        return f"the three toes of the chicken foot must hold a tile first (open toes: {_ids(round.pending_ends)})"
    if reason == "double_unsatisfied":
        return f"the double on end {_ids(round.pending_ends)} must be satisfied first"
    if reason == "not_your_train":
        return (
            f"end {move.end} is on seat {round.train_of(move.end)}'s train, which carries no marker: seat {seat} "
            "may play on its own train, the Mexican train and marked trains"
        )
    if reason == "no_match":
        return f"tile {move.tile} does not match end {move.end}, which needs a {numbers.get(move.end)}"
    if reason == "locked":
        number = numbers.get(move.end)
        return f"{number}s are locked until the double {number} is in the layout"
    if reason == "already_drew":
        return f"seat {seat} already drew this turn: place {drawn} or pass"
    if reason == "must_place":
        return f"seat {seat} holds a legal placement (e.g. {round.legal_moves()[0]}) and must place"
    if reason == "yard_exhausted":
        return f"nobody may draw: the yard holds {yard} tile(s) and {reserve} of them are never drawn"
    if reason == "must_place_drawn":
        return f"the drawn tile {drawn} can be placed and must be"
    if reason == "must_draw":
        return f"seat {seat} cannot place and must draw ({yard} in the yard)"
    return f"the move is not legal now ({reason})"


def _first_words(round: Any, reason: str, move: Any) -> Optional[Tuple[str, str]]:
    """What a newcomer needs to hear first, where the reason code alone would
    mislead (the code stays: it says which check refused the move): a draw in
    a game without drawing, a tile that is not in the set at all. ``(words,
    rule)``, or ``None``."""
    rules = round.rules
    if move.kind == "draw" and not rules.has_drawing and reason in ("must_place", "yard_exhausted"):
        then = "a seat that cannot place passes" if reason == "yard_exhausted" else _detail(round, reason, move, None)
        return f"{type(rules).__name__} has no drawing: {then}", "docs/rules.md 1.4"
    if reason == "not_in_hand" and move.tile.high > rules.set:
        return (
            f"{move.tile} is not a tile of this set (double-{rules.set}: halves 0 to {rules.set})",
            "docs/rules.md 1.1",
        )
    return None


def illegal_move(round: Any, reason: str, move: Any, player: Optional[int] = None) -> str:
    """The message for ``move`` refused with ``reason`` in ``round`` (as it
    stands, unchanged), the move having been made for ``player`` if named."""
    first = _first_words(round, reason, move)
    if first is not None:
        return f"illegal move {move}: {first[0]} ({first[1]})"
    rule = _RULE.get(reason)
    return f"illegal move {move}: {_detail(round, reason, move, player)}" + (f" ({rule})" if rule else "")


def illegal_action(action: Any, num_actions: int, is_over: bool, legal: Iterable[int]) -> str:
    """The message for an action id that is not legal now: out of the space,
    after the round, or not among ``legal`` (the mover's legal ids, listed)."""
    if isinstance(action, int) and not isinstance(action, bool) and not 0 <= action < num_actions:
        why = f"is outside the action space 0..{num_actions - 1}"
    elif is_over:
        why = "cannot be played: the round is over"
    else:
        why = f"is not legal now (legal: {_ids(legal)})"
    return f"illegal action {shown(action)}: it {why} ({_RULE['illegal_action']})"


def action_not_your_turn(action: Any, current: int, player: int) -> str:
    """The message for an action id named for ``player`` while it is seat
    ``current``'s turn: the seat to move's number and nothing else."""
    return (
        f"illegal action {shown(action)}: it is seat {current}'s turn, not seat {player}'s ({_RULE['not_your_turn']})"
    )
