"""Fives and Threes (docs/games/fives_and_threes.md): the family's game
(``fives_family``) with its count: c/5 points when 5 divides a positive
count c, plus c/3 when 3 divides it (T3)."""

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
    """T3: ``c / 5`` if 5 divides the count c, plus ``c / 3`` if 3 does (c > 0).

    >>> [points_of_count(c) for c in (0, 5, 6, 9, 10, 12, 15, 18, 20, 30, 7)]
    [0, 1, 2, 3, 2, 4, 8, 6, 4, 16, 0]
    """
    if count <= 0:
        return 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


score_placement, move_points = scoring_hooks(points_of_count)
