"""The arms of a layout that grows both ways from a lead and four ways from
a spinner (docs/games/all_fives.md F3): which arm every end is on, the tiles
laid along each arm, and where the spinner is. Text and SVG draw the layout
from this; it reads the public layout only."""

from __future__ import annotations

from typing import Dict, NamedTuple, Optional, Sequence, Tuple

from .moves import Placement

__all__ = ["ArmLines", "arm_lines"]


class ArmLines(NamedTuple):
    """A layout read as arms: ``lines[k]`` holds the layout indices of the
    tiles laid along arm k, outward (the lead, index 0, is on none);
    ``end_arms`` the arm of every end id created; ``spinner`` the layout
    index of the spinner, ``None`` while none is down; ``sides_open``
    whether its sides (arms 2 and 3) have opened."""

    lines: Tuple[Tuple[int, ...], ...]
    end_arms: Dict[int, int]
    spinner: Optional[int]
    sides_open: bool


def arm_lines(layout: Sequence[Placement], arms: int) -> ArmLines:
    """``layout`` (a round's or a view's) read as ``arms`` arms (4 with a
    spinner, 2 without). The lead opens arms 0 and 1 (and with its sides, 2
    and 3); a later tile stays on the arm of the end it covered, and the
    ends it opens beyond its own are the spinner's sides, arms 2 and 3."""
    lines: Tuple[list, ...] = tuple([] for _ in range(arms))
    end_arms: Dict[int, int] = {}
    spinner: Optional[int] = None
    for index, placement in enumerate(layout):
        if index == 0:
            new_arms = list(range(len(placement.created)))
        else:
            arm = end_arms[placement.end]  # type: ignore[index]
            lines[arm].append(index)
            new_arms = [arm, 2, 3][: len(placement.created)]
        end_arms.update(zip(placement.created, new_arms))
        if spinner is None and arms == 4 and placement.tile.is_double:
            spinner = index
    sides_open = any(arm >= 2 for arm in end_arms.values())
    return ArmLines(tuple(tuple(line) for line in lines), end_arms, spinner, sides_open)
