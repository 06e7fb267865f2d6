"""All Fives, or Muggins (docs/games/all_fives.md): the family's game
(``fives_family``) with its count: a count that is a positive multiple of
5 scores itself (F5)."""

from __future__ import annotations

from .fives_family import (
    action_move,
    action_of,
    after_pass,
    after_place,
    check_deal,
    double_opens,
    match_over,
    match_winners,
    may_attach,
    next_leader,
    place_centre,
    score_round,
    scoring_hooks,
    set_up,
    write_extra_planes,
)

__all__ = [
    "set_up", "check_deal", "place_centre", "next_leader", "double_opens", "may_attach", "after_place",
    "after_pass", "score_round", "match_over", "match_winners", "action_of", "action_move",
    "write_extra_planes", "score_placement", "move_points", "points_of_count",
]  # fmt: skip


def points_of_count(count: int) -> int:
    """F5: a count that is a positive multiple of 5 scores itself, in pips.

    >>> [points_of_count(c) for c in (0, 3, 5, 10, 15, 21)]
    [0, 0, 5, 10, 15, 0]
    """
    return count if count > 0 and count % 5 == 0 else 0


score_placement, move_points = scoring_hooks(points_of_count)
