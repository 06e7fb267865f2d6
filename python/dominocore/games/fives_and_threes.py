"""Fives and Threes (docs/games/fives_and_threes.md): its rules class."""

from __future__ import annotations

from .fives_family import OUT_POINTS, SPINNERS, FivesFamily, openspiel_parameters

__all__ = ["FivesAndThrees"]


class FivesAndThrees(FivesFamily):
    """Fives and Threes, the English pub game
    (docs/games/fives_and_threes.md): All Fives' play, but a count scores
    its fives and its threes (15 scores 5 + 3 = 8); no spinner by default;
    going out scores 1; a match to 61.

    >>> r = FivesAndThrees()
    >>> r.hand_size, r.reserve, r.spinner, r.out_points, r.target, r.num_actions
    (9, 2, 'none', 'one', 61, 58)
    >>> FivesAndThrees(players=4).reserve
    0
    """

    game = "fives_and_threes"
    title = "Fives and Threes"
    hands_d6 = {2: 9, 3: 7, 4: 7}
    default_spinner = SPINNERS[1]
    default_out_points = OUT_POINTS[2]
    default_target = 61
    openspiel_parameters = openspiel_parameters(SPINNERS[1], OUT_POINTS[2], 61)
    option_choices = {
        **FivesFamily.option_choices,
        "spinner": (SPINNERS[1], SPINNERS[0]),  # the default first
        "out_points": (OUT_POINTS[2], OUT_POINTS[0], OUT_POINTS[1]),
    }

    __slots__ = ()

    @staticmethod
    def points_for_count(count: int) -> int:
        """One point per five and one per three in the count, when 5 or 3
        divides it (T3): 15 scores 3 + 5 = 8."""
        if count <= 0:
            return 0
        return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
