"""The points of play checked by brute force from the layout alone
(docs/games/all_fives.md F3-F5, fives_and_threes.md T3).

For 10,000 positions reached by seeded random play (the compiled core; 1,000
on the reference), after every placement the count of the layout is
recomputed here from nothing but the tiles placed: the layout is read as its
arms (the lead's two sides, the spinner's two sides), the tip of every arm
shows its outer half (both halves for a double), an arm with nothing on it
yet shows the lead's half on that side (the lead double once, for both), and
a side of the spinner with nothing on it shows nothing. The count's points
(the count itself when a multiple of 5 in All Fives; its fives and threes in
Fives and Threes) must be what the engine scored for the placement.
"""

from __future__ import annotations

import random

import dominocore.reference as ref
import pytest
from helpers import import_core

native = import_core()

CONFIGS = [
    ("AllFives", {}),
    ("AllFives", {"sides_open": "at_once"}),
    ("AllFives", {"spinner": "none"}),
    ("AllFives", {"players": 4, "teams": 2}),
    ("AllFives", {"set": 9, "players": 3}),
    ("FivesAndThrees", {}),
    ("FivesAndThrees", {"spinner": "first", "sides_open": "at_once", "players": 3}),
    ("FivesAndThrees", {"set": 12, "players": 4}),
]


def points_for(game: str, count: int) -> int:
    if count <= 0:
        return 0
    if game == "AllFives":
        return count if count % 5 == 0 else 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


def brute_count(layout, spinner_rule: str) -> int:
    """The count of ``layout`` (a list of ``Placement``s), from the tiles alone."""
    if not layout:
        return 0
    lead = layout[0]
    arm_of_end = {}
    tips = {}  # arm -> the outermost placement on it
    for k, placement in enumerate(layout):
        if k == 0:
            arms = [0, 1, 2, 3][: len(placement.created)]
        else:
            arm = arm_of_end[placement.end]
            tips[arm] = placement
            arms = [arm, 2, 3][: len(placement.created)]
        for end, arm in zip(placement.created, arms):
            arm_of_end[end] = arm
    count = 0
    empty_line_arms = [arm for arm in (0, 1) if arm not in tips]
    if lead.tile.is_double:
        count += 2 * lead.tile.low if empty_line_arms else 0
    else:
        count += sum(lead.tile.low if arm == 0 else lead.tile.high for arm in empty_line_arms)
    for placement in tips.values():
        outer = placement.tile.other(placement.number)
        count += 2 * outer if placement.tile.is_double else outer
    assert spinner_rule == "first" or not any(arm >= 2 for arm in arm_of_end.values())
    return count


def check_positions(module, target: int, seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    k = 0
    while checked < target:
        name, options = CONFIGS[k % len(CONFIGS)]
        k += 1
        rules = getattr(module, name)(**{"target": 1000, **options})
        r = module.Round(rules, seed=rng.getrandbits(64), round_index=k % 3)
        while not r.is_over and checked < target:
            move = rng.choice(r.legal_moves())
            before = r.play_points
            r.push(move)
            if not move.is_place:
                assert r.points_stack[-1] == 0
                continue
            want = points_for(name, brute_count(r.layout, rules.spinner))
            assert r.points_stack[-1] == want, (name, options, [str(m) for m in r.move_stack])
            mover = r._history()[-1][0]
            gained = [a - b for a, b in zip(r.play_points, before)]
            assert gained == [want if rules.team_of(s) == rules.team_of(mover) else 0 for s in range(rules.players)]
            checked += 1
    return checked


def test_the_cores_points_are_the_brute_force_count():
    assert check_positions(native, 10_000, seed=1) == 10_000


@pytest.mark.parametrize("seed", [2])
def test_the_references_points_are_the_brute_force_count(seed):
    assert check_positions(ref, 1_000, seed=seed) == 1_000
