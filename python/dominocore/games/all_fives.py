"""All Fives, or Muggins (docs/games/all_fives.md): its rules class."""

from __future__ import annotations

from .fives_family import OUT_POINTS, SPINNERS, FivesFamily, openspiel_parameters

__all__ = ["AllFives"]


class AllFives(FivesFamily):
    """All Fives, or Muggins (docs/games/all_fives.md): a placement scores
    the count of the open ends when it is a multiple of 5; the first double
    is a spinner with four arms; seats draw until they can play; going out
    scores the others' pips rounded to the nearest 5; a match to ``target``
    (150) ends the moment a side reaches it (``end_in_play``). ``teams=2``
    with 4 players plays partners {0, 2} against {1, 3}.

    >>> r = AllFives()
    >>> r.set, r.players, r.hand_size, r.reserve, r.spinner, r.target, r.num_actions
    (6, 2, 7, 2, 'first', 150, 114)
    >>> AllFives(players=4).hand_size
    5
    """

    game = "all_fives"
    title = "All Fives"
    hands_d6 = {2: 7, 3: 5, 4: 5}
    default_spinner = SPINNERS[0]
    default_out_points = OUT_POINTS[0]
    default_target = 150
    openspiel_parameters = openspiel_parameters(SPINNERS[0], OUT_POINTS[0], 150)
    option_choices = {**FivesFamily.option_choices, "spinner": SPINNERS, "out_points": OUT_POINTS}

    __slots__ = ()

    @staticmethod
    def points_for_count(count: int) -> int:
        """The count itself when it is a positive multiple of 5 (F5)."""
        return count if count > 0 and count % 5 == 0 else 0
