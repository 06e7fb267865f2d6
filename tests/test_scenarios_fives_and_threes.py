"""Rule-by-rule scenario tests of Fives and Threes
(docs/games/fives_and_threes.md, T1..T6; what it shares with All Fives is
tested in test_scenarios_all_fives.py).

Black box, against the public API of both implementations (the ``dc``
fixture), with exact positions (``Round.from_deal``) and exact outcomes.
"T3" means docs/games/fives_and_threes.md T3.
"""

from __future__ import annotations

import pytest
from scenario_helpers import deal, ends, legal


def f3(dc, hands, yard=(), starter=0, rest=None, **options):
    """A hand-built Fives and Threes round; the tiles not named go to the
    bottom of the boneyard (or to seat ``rest``)."""
    rules = dc.FivesAndThrees(players=len(hands), **options)
    return deal(dc, rules, None, hands, yard, starter=starter, rest=rest)


def test_t1_the_pub_games_hands_and_reserve(dc):
    assert [dc.FivesAndThrees(players=p).hand_size for p in (2, 3, 4)] == [9, 7, 7]
    assert [dc.FivesAndThrees(players=p).reserve for p in (2, 3, 4)] == [2, 2, 0]  # 4 x 7 takes the whole set
    rules = dc.FivesAndThrees()
    assert (rules.spinner, rules.out_points, rules.target, rules.num_actions) == ("none", "one", 61, 2 * 28 + 2)
    r = dc.Round(rules, seed=3)
    assert [len(r.hand(s)) for s in (0, 1)] == [9, 9] and r.yard_size == 10


@pytest.mark.parametrize(
    "lead,points",
    [("0-1", 0), ("0-3", 1), ("0-5", 1), ("1-5", 2), ("3-3", 2), ("4-5", 3), ("4-6", 2), ("6-6", 4), ("2-2", 0)],
)
def test_t3_the_lead_scores_its_fives_and_its_threes(dc, lead, points):
    # the lead alone counts its pips: 1, 3, 5, 6, 6, 9, 10, 12, 4
    r = f3(dc, [[lead], ["0-0"]], rest=1)
    r.push(f"{lead}@0")
    assert r.points_stack == [points] and r.play_points == (points, 0)


def test_t3_fifteen_scores_five_and_three(dc):
    r = f3(dc, [["6-6", "1-1"], ["3-6", "0-0"]])
    r.push("6-6@0")  # 12: four threes
    r.push("3-6@1")  # the 6-6 at the end of arm 1 (12) + 3 = 15: three fives and five threes
    assert r.points_stack == [4, 8] and r.play_points == (4, 8)
    assert ends(r) == [(2, 6), (3, 3)]  # no spinner: 6-6 has no sides


def test_t3_a_count_of_neither_scores_nothing(dc):
    r = f3(dc, [["5-5", "5-6", "0-0"], ["4-5", "6-6", "1-1"]], spinner="first", sides_open="at_once")
    r.push("5-5@0")  # 10: two fives; the sides open at once (ends 3 and 4)
    r.push("4-5@1")  # the spinner once (10) + 4 = 14: nothing
    r.push("5-6@3")  # 10 + 4 + 6 = 20: four fives
    r.push("6-6@6")  # 6-6 at the end of arm 2 counts 12: 10 + 4 + 12 = 26, nothing
    assert r.points_stack == [2, 0, 4, 0] and r.play_points == (6, 0)
    r.pop()
    r.pop()
    assert r.play_points == (2, 0)


def test_t3_thirty_scores_sixteen(dc):
    r = f3(dc, [["5-5", "6-6", "4-4"], ["5-6", "4-5", "0-0"]], spinner="first", sides_open="at_once")
    # 5-5 (10), 5-6 on a side (10 + 6), 6-6 on it (10 + 12), 4-5 on the other side (+ 4), 4-4 on it (+ 8)
    for move in ("5-5@0", "5-6@3", "6-6@5", "4-5@4", "4-4@7"):
        r.push(move)
    assert r.points_stack == [2, 0, 0, 0, 16]  # 30: six fives and ten threes
    assert r.play_points == (18, 0)


@pytest.mark.parametrize("out_points,expected", [("one", 1), ("exact", 8), ("nearest_five", 10)])
def test_t4_going_out_scores_one_point_by_default(dc, out_points, expected):
    r = f3(dc, [["0-3"], ["4-4"]], out_points=out_points)
    r.push("0-3@0")  # 3: one three; seat 0 is out
    res = r.result
    assert (res.reason, res.out_seat, res.play_points, res.end_points) == ("out", 0, (1, 0), (expected, 0))


def test_t5_a_match_to_61_ends_in_the_middle_of_a_round(dc):
    rules = dc.FivesAndThrees()
    stopped = 0
    for seed in range(6):
        m = dc.Match(rules, seed=seed)
        m.play("greedy")
        assert max(m.totals) >= 61
        assert all(r.reason != "target" for r in m.results[:-1])
        stopped += m.results[-1].reason == "target"
    assert stopped >= 4  # a going-out point rarely finishes a match to 61


def test_t2_the_spinner_option_gives_four_arms(dc):
    rules = dc.FivesAndThrees(spinner="first")
    assert rules.num_actions == 4 * 28 + 2
    r = f3(dc, [["6-6", "1-1"], ["3-6", "0-0"]], spinner="first")
    r.push("6-6@0")
    r.push("3-6@1")
    assert legal(r) == ["draw"]  # seat 0's 1-1 fits nowhere
