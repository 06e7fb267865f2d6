"""Rule-by-rule scenario tests of All Fives (docs/games/all_fives.md, F1..F13).

Written from the rules page alone, black box, against the public API of both
implementations (the ``dc`` fixture): every test builds an exact position
(``Round.from_deal``) or a seeded one and asserts exact outcomes: the
points of each placement, the ends and arms the spinner opens, the listing
and action ids, the draws, the points at the end, the stop at the target.
"F4" means docs/games/all_fives.md F4.
"""

from __future__ import annotations

import pytest
from scenario_helpers import deal, ends, hand, legal, reject, set_tiles


def fives(dc, hands, yard=(), starter=0, rest=None, game="AllFives", **options):
    """A hand-built round, led by ``starter`` on the lead end; the tiles not
    named go to the bottom of the boneyard (or to seat ``rest``)."""
    setup = {"carried": options.pop("carried")} if "carried" in options else {}
    rules = getattr(dc, game)(players=len(hands), **options)
    return deal(dc, rules, None, hands, yard, starter=starter, rest=rest, **setup)


def play(r, *moves):
    for move in moves:
        r.push(move)


def index(text):
    a, b = sorted(int(x) for x in text.split("-"))
    return b * (b + 1) // 2 + a


# ---------------------------------------------------------------- F1 the deal, F2 the lead


def test_f1_the_deal_is_one_shuffle_and_the_reserve_two_tiles(dc):
    rules = dc.AllFives(players=3)
    assert (rules.hand_size, rules.reserve, rules.target, rules.spinner) == (5, 2, 150, "first")
    assert dc.AllFives(players=2, set=9).hand_size == 7 * 55 // 28
    r = dc.Round(rules, seed=11)
    gen = dc.SplitMix64(11)
    deck = list(range(rules.tile_count))
    gen.shuffle(deck)
    assert [[t.index for t in r.hand(s)] for s in range(3)] == [sorted(deck[5 * s : 5 * s + 5]) for s in range(3)]
    assert [t.index for t in r.yard] == deck[15:]
    assert r.centre is None and r.starter == 0 and r.current_player == 0
    assert ends(r) == [(0, None)]  # the lead end takes any tile


def test_f1_bad_options_are_refused_with_a_clear_error(dc):
    for options, words in [
        ({"reserve": 20}, "reserve"),
        ({"spinner": "every"}, "spinner"),
        ({"sides_open": "never"}, "sides_open"),
        ({"out_points": "half"}, "out_points"),
        ({"draw": "all"}, "draw"),
        ({"end_in_play": "yes"}, "end_in_play"),
        ({"target": 0}, "target"),
        ({"teams": 2}, "teams"),  # 2 players cannot sit as two teams
        ({"team_scoring": "fewer_pips"}, "team_scoring"),
        ({"lead": "winner"}, "lead"),
    ]:
        with pytest.raises(dc.RulesError, match=words):
            dc.AllFives(**options)


def test_f2_a_round_on_its_own_is_led_by_its_index_and_any_tile_may_lead(dc):
    rules = dc.AllFives(players=3)
    r = dc.Round(rules, seed=5, round_index=4)
    assert r.starter == 1 and r.current_player == 1
    held = [str(t) for t in r.hand(1)]
    assert legal(r) == [f"{t}@0" for t in held]
    assert r.legal_actions() == [4 * index(t) for t in held]  # the lead goes on arm 0


# ---------------------------------------------------------------- F3, F4, F5: the count and its points


def test_f4_f5_the_rules_page_example_scores_move_by_move(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]])
    r.push("5-5@0")  # 5-5 alone counts 10
    assert r.play_points == (10, 0) and r.points_stack == [10]
    assert ends(r) == [(1, 5), (2, 5)]
    assert legal(r) == ["0-5@1", "0-5@2", "2-5@1", "2-5@2"]  # every end listed: they count differently
    assert r.legal_actions() == [4 * 15 + 0, 4 * 15 + 1, 4 * 17 + 0, 4 * 17 + 1]
    r.push("0-5@1")  # the spinner at the end of arm 1 (10) + 0
    assert r.play_points == (10, 10)
    r.push("3-5@2")  # 0 + 3: the spinner's ends are covered, and its sides open
    assert r.points_stack == [10, 10, 0]
    assert ends(r) == [(3, 0), (4, 3), (5, 5), (6, 5)]
    assert r.legal_actions() == [4 * 17 + 2, 4 * 17 + 3]  # 2-5 on the sides, arms 2 and 3
    r.push("2-5@5")  # 0 + 3 + 2, the empty side counting nothing
    assert r.play_points == (10, 15) and r.points_stack == [10, 10, 0, 5]
    assert [h.points for h in r.view(0).history] == [10, 10, 0, 5]


def test_f5_taking_a_move_back_takes_its_points_back(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]])
    play(r, "5-5@0", "0-5@1", "3-5@2", "2-5@5")
    assert str(r.pop()) == "2-5@5"
    assert r.play_points == (10, 10) and r.points_stack == [10, 10, 0]
    assert ends(r) == [(3, 0), (4, 3), (5, 5), (6, 5)]
    r.pop()
    assert ends(r) == [(2, 5), (3, 0)]  # the sides close again
    play(r, "3-5@2", "2-5@6")
    assert r.play_points == (10, 15)


def test_f3_sides_open_at_once_and_the_spinner_counts_once(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]], sides_open="at_once")
    r.push("5-5@0")
    assert ends(r) == [(1, 5), (2, 5), (3, 5), (4, 5)]
    assert r.play_points == (10, 0)
    r.push("0-5@3")  # on a side (arm 2): the spinner once (10) + 0
    assert r.points_stack[-1] == 10
    assert r.legal_actions() == [4 * 18 + 0, 4 * 18 + 1, 4 * 18 + 3]  # 3-5 on arms 0, 1 and 3


def test_f3_a_spinner_placed_on_an_arm_opens_its_sides_after_its_own_end(dc):
    # 0-5 led (5: scores 5); 5-5 on its 5 (0 + 10 = 10); 1-5 covers the spinner's one line end (0 + 1)
    r = fives(dc, [["0-5", "1-5", "4-4"], ["5-5", "0-1", "6-6"]])
    r.push("0-5@0")
    assert r.play_points == (5, 0) and ends(r) == [(1, 0), (2, 5)]
    r.push("5-5@2")
    assert r.play_points == (5, 10) and ends(r) == [(1, 0), (3, 5)]
    r.push("1-5@3")
    assert r.points_stack[-1] == 0  # 0 + 1
    assert ends(r) == [(1, 0), (4, 1), (5, 5), (6, 5)]  # its own end, then the spinner's two sides
    assert r.legal_actions()[:2] == [4 * 1 + 0, 4 * 1 + 1]  # 0-1 on arm 0 (by 0) and arm 1 (by 1)


def test_f3_only_the_first_double_is_a_spinner(dc):
    r = fives(dc, [["5-5", "3-5", "3-3"], ["0-5", "0-0", "6-6"]])
    play(r, "5-5@0", "0-5@1", "3-5@2")  # the sides of 5-5 open
    r.push("0-0@3")  # the second double: 0-0 at the end of arm 0 counts 0; no sides
    assert ends(r) == [(4, 3), (5, 5), (6, 5), (7, 0)]
    r.push("3-3@4")  # 3-3 at an end counts both halves: 6 + 0 = 6
    assert r.points_stack[-1] == 0 and ends(r) == [(5, 5), (6, 5), (7, 0), (8, 3)]


def test_f3_without_a_spinner_the_layout_is_a_line_of_two_arms(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]], spinner="none")
    assert r.rules.num_actions == 2 * 28 + 2
    play(r, "5-5@0", "0-5@1", "3-5@2")
    assert ends(r) == [(3, 0), (4, 3)]  # no sides
    assert r.legal_actions() == [2 * 28]  # seat 1's 2-5 fits nowhere: Draw


def test_f5_every_scoring_count_scores_itself(dc):
    # 4-6 led counts 10; 1-4 on the 4: 1 + 6 = 7 scores nothing; 3-6 on the 6: 1 + 3 = 4;
    # 1-1 on the 1 counts both halves: 2 + 3 = 5
    r = fives(dc, [["4-6", "3-6", "0-2"], ["1-4", "1-1", "5-5"]])
    play(r, "4-6@0", "1-4@1", "3-6@2", "1-1@3")
    assert r.points_stack == [10, 0, 0, 5]


# ---------------------------------------------------------------- F6 drawing


def test_f6_a_seat_draws_until_it_can_play(dc):
    r = fives(dc, [["5-5", "0-1"], ["6-6", "1-2"]], yard=["2-3", "2-4", "5-6"])
    r.push("5-5@0")
    reject(dc, r, "pass", "must_draw")
    r.push("draw")  # 2-3: no 5 on it
    assert str(r.drawn_tile) == "2-3"
    reject(dc, r, "pass", "must_draw")  # it cannot be placed: draw again
    assert legal(r) == ["draw"]
    r.push("draw")  # 2-4: still no 5
    r.push("draw")  # 5-6: fits, and must be placed
    assert legal(r) == ["5-6@1", "5-6@2"]
    reject(dc, r, "draw", "must_place_drawn")  # no more draws once the drawn tile fits
    reject(dc, r, "pass", "must_place_drawn")
    r.push("5-6@1")  # the spinner at the end of arm 1 (10) + 6: 16 scores nothing
    assert r.points_stack == [10, 0, 0, 0, 0]
    assert hand(r, 1) == ["1-2", "2-3", "2-4", "6-6"]


def test_f6_the_reserve_is_never_drawn(dc):
    r = fives(dc, [["5-5", "0-1"], ["6-6", "1-2"]], yard=["2-3", "2-4", "3-4"], rest=0, reserve=3)  # 3 in the yard
    r.push("5-5@0")
    assert legal(r) == ["pass"]
    reject(dc, r, "draw", "yard_exhausted")


def test_f6_draw_one_passes_after_one_draw(dc):
    r = fives(dc, [["5-5", "0-1"], ["6-6", "1-2"]], yard=["2-3", "2-4", "5-6"], draw="one")
    play(r, "5-5@0", "draw")
    assert legal(r) == ["pass"]
    reject(dc, r, "draw", "already_drew")


# ---------------------------------------------------------------- F7 the end of a round


@pytest.mark.parametrize("out_points,expected", [("nearest_five", 155), ("exact", 154), ("one", 1)])
def test_f7_going_out_scores_the_others_pips(dc, out_points, expected):
    # seat 1 holds the rest of the set: 168 pips less 0-5, 0-0 and 4-5, so 154 when seat 0 goes out
    r = fives(dc, [["0-5", "0-0"], ["4-5"]], out_points=out_points, rest=1)
    r.push("0-5@0")  # 5: scores 5
    r.push("4-5@2")  # 0 + 4
    r.push("0-0@1")  # 0-0 at the end of arm 0 counts 0, + 4; seat 0 is out
    res = r.result
    assert (res.reason, res.out_seat) == ("out", 0)
    assert sum(t.low + t.high for t in r.hand(1)) == 154
    assert res.play_points == (5, 0) and res.end_points == (expected, 0) and res.points == (5 + expected, 0)


@pytest.mark.parametrize("kept,expected", [((), 10), (("0-1",), 10), (("1-2",), 10), (("2-2",), 10), (("1-4",), 15)])
def test_f7_rounding_to_the_nearest_five(dc, kept, expected):
    # seat 1 keeps 4-4 and ``kept``: 8, 9, 11, 12, 13 pips; a remainder of 3 or 4 rounds up, 1 or 2 down
    r = fives(dc, [["0-5"], ["4-4", *kept]])
    r.push("0-5@0")  # seat 0 is out at once
    assert r.result.reason == "out" and r.result.end_points == (expected, 0) and r.result.play_points == (5, 0)


def test_f7_a_blocked_round_scores_the_fewest_pips(dc):
    named = ["1-1", "0-2", "6-6", "3-4"]
    others = [t for t in set_tiles(6) if t not in named]  # all in the boneyard's reserve: nobody draws
    r = fives(dc, [["1-1", "0-2"], ["6-6", "3-4"]], yard=others, hand_size=2, reserve=len(others))
    r.push("1-1@0")  # 1-1 alone counts 2; nobody holds a 1
    res = r.result
    assert (res.reason, res.out_seat) == ("blocked", -1)
    assert res.end_points == (20, 0)  # seat 0 holds 2 pips, seat 1 19: the nearest five of 19 is 20
    r.pop()
    assert r.result is None


def test_f7_a_shared_fewest_scores_nobody(dc):
    named = ["1-1", "0-4", "2-2"]
    others = [t for t in set_tiles(6) if t not in named]
    r = fives(dc, [["1-1", "0-4"], ["2-2"]], yard=others, hand_size=1, reserve=len(others))
    r.push("1-1@0")  # blocked: 4 pips each
    assert r.result.reason == "blocked" and r.result.points == (0, 0)


# ---------------------------------------------------------------- F8 the target


def test_f8_reaching_the_target_in_play_stops_the_round(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]], carried=(130, 145))
    r.push("5-5@0")  # seat 0: 130 + 10 = 140, still short
    assert r.result is None and r.carried == (130, 145)
    r.push("0-5@1")  # seat 1: 145 + 10 >= 150
    res = r.result
    assert (res.reason, res.out_seat) == ("target", -1)
    assert res.play_points == (10, 10) and res.end_points == (0, 0) and res.points == (10, 10)
    assert r.legal_moves() == []
    r.pop()
    assert r.result is None


def test_f8_going_out_is_scored_even_when_it_reaches_the_target(dc):
    r = fives(dc, [["0-5"], ["4-4", "6-6"]], carried=(148, 0))
    r.push("0-5@0")
    assert r.result.reason == "out" and r.result.end_points == (20, 0)


def test_f8_without_end_in_play_the_round_goes_on(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]], carried=(130, 145), end_in_play=False)
    play(r, "5-5@0", "0-5@1")
    assert r.result is None


def test_f8_carried_totals_are_checked(dc):
    rules = dc.AllFives()
    hands = [["5-5"], ["0-5"]]
    for bad in [(1,), (-1, 0), (0.5, 0), ("1", 0)]:
        with pytest.raises(dc.StateError):
            deal(dc, rules, None, hands, carried=bad)
    with pytest.raises(dc.StateError):  # a game that scores only at the end carries nothing
        deal(dc, dc.Block(), None, hands, carried=(3, 0))


def test_f8_a_match_ends_the_moment_a_side_reaches_the_target(dc):
    rules = dc.AllFives(target=40)
    ended_in_play = 0
    for seed in range(12):
        m = dc.Match(rules, seed=seed)
        m.play("greedy")
        last = m.results[-1]
        assert max(m.totals) >= 40
        totals = [0, 0]
        for k, (res, round_) in enumerate(zip(m.results, m.rounds)):
            assert round_.carried == tuple(totals)
            totals = [a + b for a, b in zip(totals, res.points)]
            assert res.points == tuple(a + b for a, b in zip(res.play_points, res.end_points))
            if k < len(m.results) - 1:
                assert max(totals) < 40 and res.reason != "target"
        assert tuple(totals) == tuple(m.totals)
        if last.reason == "target":
            ended_in_play += 1
            assert last.end_points == (0, 0) and last.out_seat == -1
        assert m.winners == tuple(s for s in range(2) if m.totals[s] == max(m.totals))
    assert ended_in_play > 0


# ---------------------------------------------------------------- F10 partnerships


def test_f10_partners_share_the_points_of_play(dc):
    r = fives(dc, [["5-5", "1-1"], ["2-2", "1-2"], ["0-5", "3-3"], ["4-4", "1-3"]], teams=2)
    r.push("5-5@0")
    assert r.play_points == (10, 0, 10, 0)
    assert legal(r) == ["draw"]  # seat 1 holds no 5
    assert r.view(1).play_points == (10, 0, 10, 0)


# ---------------------------------------------------------------- F13 greedy


def test_f13_greedy_takes_the_most_points_now(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]])
    play(r, "5-5@0")
    # 0-5 on either end scores 10; the heavier 2-5 would count 12, which scores nothing
    assert str(dc.GreedyPlayer().choose(r)) == "0-5@1"  # the most points, on the lowest end id
    assert str(dc.GreedyPlayer().choose(r.view(1))) == "0-5@1"


def test_f13_greedy_counts_a_led_spinner_once_while_its_line_ends_are_open(dc):
    r = fives(dc, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]], sides_open="at_once")
    play(r, "5-5@0")
    # 0-5 scores 10 on every end: on a line end the other one counts the spinner (10); on a side
    # (ends 3, 4) both line ends stay open and still count it once, not twice (20). 2-5 counts 12.
    assert [str(m) for m in r.legal_moves()][:4] == ["0-5@1", "0-5@2", "0-5@3", "0-5@4"]
    assert str(dc.GreedyPlayer().choose(r)) == "0-5@1"
    assert str(dc.GreedyPlayer().choose(r.view(1))) == "0-5@1"
    r.push("0-5@3")
    assert r.points_stack[-1] == 10
