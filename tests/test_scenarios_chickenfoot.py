"""Rule-by-rule scenario tests of Chicken Foot, rule sets ``trains`` and ``cross``.

Every test builds an exact position (``Round.from_deal``) or a seeded one and
asserts exact outcomes: legal-move lists, end ids, reasons, scores, starters.
Section numbers refer to ``docs/rules.md``; "engine.md" is ``docs/engine.md``.
Seed 000 is the trains rule text, seed 003 the cross.
"""

from __future__ import annotations

import pytest
from scenario_helpers import by_index, deal, ends, hand, legal, reject, result, shuffled

# --------------------------------------------------------------------------- helpers


# --------------------------------------------------------------------------- 2.2 the start double (trains)

OPENING_HANDS = [
    ["0-1", "2-2", "3-9", "7-9"],  # seat 0, the starter
    ["1-2", "5-6", "7-8"],  # seat 1: no 9
    ["0-3", "4-4", "5-9"],  # seat 2
    ["1-3", "6-6"],  # seat 3: no 9
]
OPENING_YARD = ["3-4", "8-9"]  # seat 1 draws 3-4 (no 9), seat 3 draws 8-9


def test_seed000_four_player_opening(dc):
    """Seed 000's example: four trains on the double-9 before anything else."""
    r = deal(dc, dc.ChickenFoot(players=4), "9-9", OPENING_HANDS, OPENING_YARD, starter=0)
    assert r.current_player == 0
    assert list(r.pending_ends) == [0, 1, 2, 3]
    assert r.obligation == "start"
    assert ends(r) == [(0, 9), (1, 9), (2, 9), (3, 9)]
    # The starter matches the start double on any slot.
    assert legal(r) == ["3-9@0", "3-9@1", "3-9@2", "3-9@3", "7-9@0", "7-9@1", "7-9@2", "7-9@3"]
    assert legal(r, distinct=True) == ["3-9@0", "7-9@0"]
    r.push("3-9@0")  # the first train; creates end 4 (a 3)
    assert ends(r) == [(1, 9), (2, 9), (3, 9), (4, 3)]
    assert list(r.pending_ends) == [1, 2, 3]
    # Seat 1 cannot match the 9: it draws 3-4, which fits the 3 of train one
    # but that end is not legal before the slots are filled: it passes.
    assert r.current_player == 1
    assert legal(r) == ["draw"]
    r.push("draw")
    assert str(r.drawn_tile) == "3-4"
    assert legal(r) == ["pass"]
    reject(dc, r, "3-4@4", "start_unfinished")
    r.push("pass")
    # Seat 2 starts the second train; its 0-3 may not go on the 3.
    assert r.current_player == 2
    assert legal(r) == ["5-9@1", "5-9@2", "5-9@3"]
    reject(dc, r, "0-3@4", "start_unfinished")
    r.push("5-9@1")
    # Seat 3 draws a matching tile and must play it: the third train.
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["8-9@2", "8-9@3"]
    reject(dc, r, "pass", "must_place_drawn")
    r.push("8-9@2")
    # Seat 0 starts the fourth train: its only legal move.
    assert r.current_player == 0
    assert legal(r) == ["7-9@3"]
    r.push("7-9@3")
    # Now every player may play on any train.
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert ends(r) == [(4, 3), (5, 5), (6, 8), (7, 7)]
    assert r.current_player == 1
    assert hand(r, 1) == ["1-2", "3-4", "5-6", "7-8"]
    assert legal(r) == ["3-4@4", "5-6@5", "7-8@6", "7-8@7"]
    assert list(r.legal_actions()) == [26, 52, 86, 87]
    assert [str(m) for m in r.move_stack] == ["3-9@0", "draw", "pass", "5-9@1", "draw", "8-9@2", "7-9@3"]


def test_trains_starter_without_a_match_must_draw(dc):
    """2.6: the starter, like everybody, must match the start double or draw."""
    r = deal(dc, dc.ChickenFoot(players=4), "9-9", [["1-2"], ["0-9"], ["1-9"], ["2-9"]], ["3-4"], starter=0)
    assert r.current_player == 0
    assert legal(r) == ["draw"]
    reject(dc, r, "pass", "must_draw")
    r.push("draw")
    assert legal(r) == ["pass"]  # 3-4 does not match a 9
    r.push("pass")
    assert r.current_player == 1
    assert legal(r) == ["0-9@0", "0-9@1", "0-9@2", "0-9@3"]


def test_k_trains_six_slots_with_four_players(dc):
    """2.6 option trains=6 with 4 players: 6 slots, ids 0..5, all filled first."""
    rules = dc.ChickenFoot(players=4, trains=6)
    assert rules.slots == 6
    assert rules.to_dict()["trains"] == 6
    hands = [["0-0", "0-9", "1-9"], ["2-9", "3-3"], ["2-3", "3-9"], ["4-9", "5-5"]]
    r = deal(dc, rules, "9-9", hands, ["6-9"], starter=0)
    assert list(r.pending_ends) == [0, 1, 2, 3, 4, 5]
    assert ends(r) == [(e, 9) for e in range(6)]
    assert legal(r) == [f"0-9@{e}" for e in range(6)] + [f"1-9@{e}" for e in range(6)]
    for move in ["0-9@0", "2-9@1", "3-9@2", "4-9@3"]:
        r.push(move)
    # One train per player is not enough: slots 4 and 5 still come first.
    assert r.obligation == "start"
    assert list(r.pending_ends) == [4, 5]
    assert ends(r) == [(4, 9), (5, 9), (6, 0), (7, 2), (8, 3), (9, 4)]
    assert legal(r) == ["1-9@4", "1-9@5"]
    reject(dc, r, "0-0@6", "start_unfinished")
    r.push("1-9@4")
    # Seat 1 holds only 3-3 (which fits end 8, not legal yet): it draws 6-9.
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["6-9@5"]
    r.push("6-9@5")
    assert r.obligation is None
    assert ends(r) == [(6, 0), (7, 2), (8, 3), (9, 4), (10, 1), (11, 6)]
    assert legal(r) == ["2-3@7", "2-3@8"]
    assert list(r.legal_actions()) == [16, 17]  # 2-3 is tile 8: by its 2 (low), by its 3 (high)


# --------------------------------------------------------------------------- 2.3 chicken feet

FOOT_HANDS = [["0-1", "0-5", "2-3", "5-5", "5-9"], ["1-5", "2-4", "3-5", "4-4", "4-9"]]


def test_chicken_foot_blocks_play_until_three_toes(dc):
    r = deal(dc, dc.ChickenFoot(players=2), "9-9", FOOT_HANDS, starter=0)
    assert legal(r) == ["5-9@0", "5-9@1"]
    r.push("5-9@0")
    assert legal(r) == ["4-9@1"]
    r.push("4-9@1")
    assert r.obligation is None
    assert legal(r) == ["0-5@2", "5-5@2"]
    r.push("5-5@2")  # a chicken foot: three toes of 5, ids 4, 5, 6
    assert r.obligation == "foot"
    assert list(r.pending_ends) == [4, 5, 6]
    assert ends(r) == [(3, 4), (4, 5), (5, 5), (6, 5)]
    # Only the toes are legal: 2-4 and 4-4 would fit end 3.
    assert legal(r) == ["1-5@4", "1-5@5", "1-5@6", "3-5@4", "3-5@5", "3-5@6"]
    assert legal(r, distinct=True) == ["1-5@4", "3-5@4"]
    reject(dc, r, "2-4@3", "foot_unfinished")
    reject(dc, r, "4-4@3", "foot_unfinished")
    r.push("1-5@4")  # creates end 7 (a 1), not legal before the foot is done
    assert list(r.pending_ends) == [5, 6]
    assert legal(r) == ["0-5@5", "0-5@6"]
    reject(dc, r, "0-1@7", "foot_unfinished")
    r.push("0-5@5")
    assert legal(r) == ["3-5@6"]
    r.push("3-5@6")  # the third toe: everything opens
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert ends(r) == [(3, 4), (7, 1), (8, 0), (9, 3)]
    assert legal(r) == ["0-1@7", "0-1@8", "2-3@9"]
    r.push("0-1@8")
    # A second foot, on an ordinary end.
    assert legal(r) == ["2-4@3", "4-4@3"]
    r.push("4-4@3")
    assert r.obligation == "foot"
    assert list(r.pending_ends) == [11, 12, 13]
    assert hand(r, 0) == ["2-3"]
    assert legal(r) == ["draw"]  # seat 0 holds no 4; the 3 of end 9 is not legal


# 2-player double-6 trains; the yard is at its reserve (2), so nobody draws.
# After 5-5 goes down the only 5 left is in the yard: the foot cannot be finished.
BLOCK_HANDS = [
    ["0-1", "0-2", "0-3", "0-5", "1-1", "1-2", "1-3", "2-2", "2-3", "3-3", "4-5", "5-5", "5-6"],
    ["0-0", "0-4", "1-4", "1-5", "1-6", "2-4", "2-6", "3-4", "3-5", "3-6", "4-4", "4-6"],
]
BLOCK_MOVES = ["5-6@0", "4-6@1", "4-5@3", "3-5@4", "5-5@2", "1-5@6", "0-5@7"]


@pytest.mark.parametrize("double_blank_50, seat1_points", [(False, 54), (True, 104)])
def test_unfinishable_foot_blocks_the_round(dc, double_blank_50, seat1_points):
    """2.3 + 1.5: a foot that cannot be finished blocks play; 2.4 scoring;
    2.6 double_blank_50 option (off: 0-0 counts 0; on: 50)."""
    rules = dc.ChickenFoot(players=2, set=6, double_blank_50=double_blank_50)
    r = deal(dc, rules, "6-6", BLOCK_HANDS, ["2-5", "0-6"], starter=0)
    for move in BLOCK_MOVES[:-1]:
        r.push(move)
        assert not r.is_over
    assert list(r.pending_ends) == [7, 8]
    r.push(BLOCK_MOVES[-1])
    assert r.is_over
    assert r.current_player == -1
    assert list(r.legal_moves()) == []
    assert list(r.pending_ends) == [8]
    assert ends(r) == [(5, 3), (8, 5), (9, 1), (10, 0)]
    # seat 0: 0-1 1-1 0-2 1-2 2-2 0-3 1-3 2-3 3-3 = 30 pips
    assert hand(r, 0) == ["0-1", "1-1", "0-2", "1-2", "2-2", "0-3", "1-3", "2-3", "3-3"]
    assert hand(r, 1) == ["0-0", "0-4", "1-4", "2-4", "3-4", "4-4", "1-6", "2-6", "3-6"]
    assert result(r) == ("blocked", -1, (30, seat1_points), 0, 7)
    reject(dc, r, "draw", "round_over")


def test_blocked_is_checked_after_a_draw(dc):
    """1.5: the end is checked after a Draw too (the yard reaches its reserve)."""
    rules = dc.ChickenFoot(players=2, set=6)
    hands = [BLOCK_HANDS[0], [t for t in BLOCK_HANDS[1] if t != "3-6"]]
    r = deal(dc, rules, "6-6", hands, ["3-6", "2-5", "0-6"], starter=0)
    for move in BLOCK_MOVES:
        r.push(move)
    assert not r.is_over  # the yard holds 3 > 2
    assert r.current_player == 1
    assert legal(r) == ["draw"]
    r.push("draw")  # 3-6 would fit end 5, but the foot is pending
    assert r.is_over
    assert hand(r, 1) == ["0-0", "0-4", "1-4", "2-4", "3-4", "4-4", "1-6", "2-6", "3-6"]
    assert [str(t) for t in r.yard] == ["2-5", "0-6"]
    assert result(r) == ("blocked", -1, (30, 54), 0, 8)


@pytest.mark.parametrize("double_blank_50, seat1_points", [(False, 7), (True, 57)])
def test_trains_out_ending(dc, double_blank_50, seat1_points):
    """1.5 out: a player places their last tile (even with a slot still open)."""
    rules = dc.ChickenFoot(players=2, set=6, double_blank_50=double_blank_50)
    r = deal(dc, rules, "6-6", [["1-2", "1-6"], ["0-0", "2-6", "3-4"]], ["0-1", "0-2"], starter=0)
    r.push("1-6@0")
    r.push("2-6@1")
    assert legal(r) == ["1-2@2", "1-2@3"]  # by its 1 on end 2, by its 2 on end 3
    r.push("1-2@3")
    assert r.is_over
    assert result(r) == ("out", 0, (0, seat1_points), 0, 3)


def test_out_before_the_start_double_is_finished(dc):
    """1.5: out ends the round at once, even with start slots still open."""
    rules = dc.ChickenFoot(players=3, set=6)
    r = deal(dc, rules, "6-6", [["0-1"], ["2-6"], ["3-6", "4-4"]], ["0-2", "0-3"], starter=1)
    assert r.current_player == 1
    assert legal(r) == ["2-6@0", "2-6@1", "2-6@2"]
    r.push("2-6@1")
    assert r.is_over
    assert list(r.pending_ends) == [0, 2]
    assert result(r) == ("out", 1, (1, 0, 17), 1, 1)


# --------------------------------------------------------------------------- 1.4 / 2.6 / 2.7 must vs may


def test_trains_must_place_the_drawn_tile(dc):
    r = deal(dc, dc.ChickenFoot(players=2, set=6), "6-6", [["0-1", "2-3"], ["4-6"]], ["1-6", "0-2"], starter=0)
    assert legal(r) == ["draw"]
    r.push("draw")
    assert str(r.drawn_tile) == "1-6"
    assert legal(r) == ["1-6@0", "1-6@1"]  # no Pass under "must"
    reject(dc, r, "pass", "must_place_drawn")
    reject(dc, r, "draw", "already_drew")
    reject(dc, r, "2-3@0", "not_drawn_tile")
    r.push("1-6@1")
    assert r.current_player == 1
    assert r.drawn_tile is None


def test_trains_drawn_tile_that_does_not_fit_passes(dc):
    r = deal(dc, dc.ChickenFoot(players=2, set=6), "6-6", [["0-1", "2-3"], ["4-6"]], ["1-2", "0-2"], starter=0)
    r.push("draw")
    assert str(r.drawn_tile) == "1-2"
    assert legal(r) == ["pass"]
    reject(dc, r, "1-2@0", "no_match")
    r.push("pass")
    assert r.current_player == 1
    assert hand(r, 0) == ["0-1", "1-2", "2-3"]


def test_cross_may_pass_after_a_draw(dc):
    rules = dc.ChickenFoot(players=2, set=6, rule_set="cross")
    assert rules.drawn_tile == "may"
    r = deal(dc, rules, "6-6", [["4-6"], ["0-1", "2-3"]], ["1-6", "0-2"], starter=0)
    assert r.current_player == 1  # the starter's turn was the centre
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["1-6@0", "1-6@1", "1-6@2", "1-6@3", "pass"]
    assert legal(r, distinct=True) == ["1-6@0", "pass"]
    assert list(r.legal_actions()) == [2 * 22 + 1, 2 * 28 + 1]  # 1-6 by its 6; Pass = 2T+1
    r.push("pass")
    assert r.current_player == 0
    assert hand(r, 1) == ["0-1", "2-3", "1-6"]


def test_cross_drawn_tile_that_does_not_fit_passes(dc):
    rules = dc.ChickenFoot(players=2, set=6, rule_set="cross")
    r = deal(dc, rules, "6-6", [["4-6"], ["0-1", "2-3"]], ["1-2", "0-2"], starter=0)
    r.push("draw")
    assert legal(r) == ["pass"]


# --------------------------------------------------------------------------- yard reserves


@pytest.mark.parametrize(
    "players, rule_set, reserve",
    [(2, "trains", 2), (3, "trains", 1), (5, "trains", 1), (8, "trains", 1), (2, "cross", 0), (4, "cross", 0)],
)
def test_yard_reserve_values(dc, players, rule_set, reserve):
    assert dc.ChickenFoot(players=players, rule_set=rule_set).reserve == reserve


@pytest.mark.parametrize(
    "players, rule_set, yard",
    [(2, "trains", ["0-2", "0-3"]), (3, "trains", ["0-2"]), (2, "cross", [])],
)
def test_yard_at_its_reserve_is_never_drawn(dc, players, rule_set, yard):
    """2.6: 2 tiles stay with 2 players, 1 with 3+; 2.7: the cross draws to the last."""
    rules = dc.ChickenFoot(players=players, set=6, rule_set=rule_set)
    # The seat to move holds 0-1 (no 6), the seat before it every tile not named.
    first = 0 if rule_set == "trains" else 1
    last = (first - 1) % players
    hands = [["1-1"] if s not in (first, last) else [] for s in range(players)]
    hands[first] = ["0-1"]
    r = deal(dc, rules, "6-6", hands, yard, starter=0, rest=last)
    assert r.current_player == first
    assert r.yard_size == rules.reserve
    assert legal(r) == ["pass"]
    reject(dc, r, "draw", "yard_exhausted")
    r.push("pass")
    assert r.current_player == (first + 1) % players


@pytest.mark.parametrize(
    "players, rule_set, yard",
    [(2, "trains", ["0-2", "0-3", "0-4"]), (3, "trains", ["0-2", "0-3"]), (2, "cross", ["0-2"])],
)
def test_yard_above_its_reserve_must_be_drawn(dc, players, rule_set, yard):
    rules = dc.ChickenFoot(players=players, set=6, rule_set=rule_set)
    first = 0 if rule_set == "trains" else 1
    last = (first - 1) % players
    hands = [["1-1"] if s not in (first, last) else [] for s in range(players)]
    hands[first] = ["0-1"]
    r = deal(dc, rules, "6-6", hands, yard, starter=0, rest=last)
    assert r.yard_size == rules.reserve + 1
    assert legal(r) == ["draw"]
    reject(dc, r, "pass", "must_draw")
    r.push("draw")
    assert r.yard_size == rules.reserve
    assert legal(r) == ["pass"]  # 0-2 does not fit
    r.push("pass")
    assert not r.is_over  # the seat before holds 6s


# --------------------------------------------------------------------------- 2.7 the cross


def test_cross_four_arms_and_next_seat_moves(dc):
    rules = dc.ChickenFoot(players=3, rule_set="cross")
    assert (rules.slots, rules.hand_size, rules.reserve, rules.double_blank_50) == (4, 7, 0, True)
    r = deal(dc, rules, "9-9", [["1-1", "1-9"], ["2-9", "3-9"], ["0-0", "4-9"]], starter=1)
    assert r.starter == 1
    assert r.current_player == 2  # seat 1's turn was placing the 9-9
    assert r.obligation == "start"
    assert list(r.pending_ends) == [0, 1, 2, 3]
    assert ends(r) == [(0, 9), (1, 9), (2, 9), (3, 9)]
    assert legal(r) == ["4-9@0", "4-9@1", "4-9@2", "4-9@3"]
    r.push("4-9@2")
    assert r.current_player == 0
    r.push("1-9@0")
    r.push("2-9@3")
    assert list(r.pending_ends) == [1]
    assert legal(r) == ["draw"]  # seat 2 holds 0-0 only
    r.push("draw")  # 0-1, the top of the yard (the tiles not named, in index order)
    assert legal(r) == ["pass"]
    r.push("pass")
    r.push("draw")  # seat 0 draws 0-2
    r.push("pass")
    assert [hand(r, s) for s in range(3)] == [["1-1", "0-2"], ["3-9"], ["0-0", "0-1"]]
    assert legal(r) == ["3-9@1"]
    r.push("3-9@1")
    assert r.obligation is None
    assert ends(r) == [(4, 4), (5, 1), (6, 2), (7, 3)]


def test_cross_double_blank_always_50_and_unfinishable_foot(dc):
    """2.7 (reserve 0, double-blank 50) + 2.3: a cross round blocked by a foot."""
    rules = dc.ChickenFoot(players=2, set=6, rule_set="cross")
    hands = [
        ["1-5", "2-3", "2-5", "2-6", "3-3", "0-4", "1-4", "2-4", "3-4", "4-4", "4-6", "5-5", "0-6", "1-6"],
        ["0-0", "0-1", "1-1", "0-2", "1-2", "2-2", "0-3", "1-3", "0-5", "3-5", "3-6", "4-5", "5-6"],
    ]
    r = deal(dc, rules, "6-6", hands, [], starter=0)
    assert r.yard_size == 0
    moves = ["5-6@0", "4-6@1", "3-6@2", "2-6@3", "3-5@6", "2-5@7", "4-5@5", "5-5@4", "0-5@11"]
    for move in moves:
        r.push(move)
        assert not r.is_over
    assert r.obligation == "foot"
    assert list(r.pending_ends) == [12, 13]
    r.push("1-5@12")
    assert r.is_over
    assert list(r.pending_ends) == [13]
    # seat 0: 2-3 3-3 0-4 1-4 2-4 3-4 4-4 0-6 1-6 = 54; seat 1: 0-0 (50) + 19
    assert result(r) == ("blocked", -1, (54, 69), 0, 10)


def test_cross_rejects_double_blank_50_false(dc):
    with pytest.raises(dc.RulesError):
        dc.ChickenFoot(rule_set="cross", double_blank_50=False)
    assert dc.ChickenFoot(rule_set="cross", double_blank_50=True).double_blank_50 is True


def _cross_expected(dc, rules, seed, k):
    """The cross set-up of 2.7 computed independently with SplitMix64
    (``seed`` may also be a generator a match shares): the round's deal record
    (the search's tiles, the double last, as ``setup_draws``) and the seats
    dealt the double."""
    n, p, h = rules.set, rules.players, rules.hand_size
    double = f"{n - k}-{n - k}"
    gen = dc.SplitMix64(seed) if isinstance(seed, int) else seed
    deck = shuffled(dc, gen, rules.tile_count)
    hands = [deck[s * h : (s + 1) * h] for s in range(p)]
    yard = deck[p * h :]
    holders = [s for s in range(p) if double in hands[s]]
    draws = []
    if holders:
        starter = holders[0]
    else:
        seat = k % p
        while True:
            tile = yard.pop(0)
            draws.append(tile)
            hands[seat].append(tile)
            if tile == double:
                starter = seat
                break
            seat = (seat + 1) % p
    hands[starter].remove(double)
    record = {
        "centre": double,
        "starter": starter,
        "hands": [by_index(dc, hd) for hd in hands],
        "yard": yard,
        "setup_draws": draws,
        "highest_double": False,
    }
    return record, holders


@pytest.mark.parametrize(
    "players, seed, k, starter, drawn",
    [(4, 10, 0, 3, 4), (3, 5, 0, 1, 20), (2, 13, 0, 1, 6)],
)
def test_cross_hand_draw_search(dc, players, seed, k, starter, drawn):
    """2.7: nobody holds the round's double; seats from (k mod p) draw into their hands."""
    rules = dc.ChickenFoot(players=players, rule_set="cross")
    expected, holders = _cross_expected(dc, rules, seed, k)
    assert holders == []  # the search really ran
    assert (expected["starter"], len(expected["setup_draws"])) == (starter, drawn)
    r = dc.Round(rules, seed=seed, round_index=k)
    assert str(r.centre) == f"{9 - k}-{9 - k}"
    assert r.starter == starter
    assert r.current_player == (starter + 1) % players
    assert [hand(r, s) for s in range(players)] == expected["hands"]
    assert [str(t) for t in r.yard] == expected["yard"]
    assert list(r.pending_ends) == [0, 1, 2, 3]
    assert r.to_dict()["deal"] == expected


def test_cross_hand_draw_search_later_round(dc):
    """Round k starts the search at seat k mod p: round 2 of 3 players, seed 0,
    the 7-7 is the 7th tile drawn: seats 2, 0, 1, 2, 0, 1, 2 -> seat 2."""
    rules = dc.ChickenFoot(players=3, rule_set="cross")
    expected, holders = _cross_expected(dc, rules, 0, 2)
    assert (holders, len(expected["setup_draws"]), expected["starter"]) == ([], 7, 2)
    r = dc.Round(rules, seed=0, round_index=2)
    assert str(r.centre) == "7-7"
    assert r.starter == 2
    assert r.current_player == 0
    assert [hand(r, s) for s in range(3)] == expected["hands"]
    # 7 dealt + 2, 2 and 3 drawn, minus the 7-7 for seat 2
    assert [len(h) for h in expected["hands"]] == [9, 9, 9]
    assert [str(t) for t in r.yard] == expected["yard"]
    assert r.to_dict()["deal"] == expected


def test_cross_holder_at_deal_starts(dc):
    rules = dc.ChickenFoot(players=4, rule_set="cross")
    expected, holders = _cross_expected(dc, rules, 1, 0)
    starter = expected["starter"]
    assert holders == [starter] and expected["setup_draws"] == []
    r = dc.Round(rules, seed=1)
    assert r.starter == starter
    assert r.current_player == (starter + 1) % 4
    assert [hand(r, s) for s in range(4)] == expected["hands"]
    assert [len(h) for h in expected["hands"]] == [6 if s == starter else 7 for s in range(4)]
    assert [str(t) for t in r.yard] == expected["yard"]
    assert r.to_dict()["deal"] == expected


def test_cross_record_keeps_the_search_in_drawer_order(dc):
    """docs/information.md 2: the record's ``setup_draws`` are the search's tiles in
    order, the i-th drawn by seat (k + i) mod p, the double last (by the starter);
    every other drawn tile is in its drawer's hand. Round 2 of 3 players, seed 0
    (the search of test_cross_hand_draw_search_later_round)."""
    rules = dc.ChickenFoot(players=3, rule_set="cross")
    expected, holders = _cross_expected(dc, rules, 0, 2)
    assert holders == []
    r = dc.Round(rules, seed=0, round_index=2)
    d = r.to_dict()
    assert d["version"] == 2
    draws = d["deal"]["setup_draws"]
    assert draws == expected["setup_draws"]
    assert len(draws) == 7
    assert draws[-1] == "7-7" == str(r.centre)
    drawers = [(2 + i) % 3 for i in range(len(draws))]
    assert drawers == [2, 0, 1, 2, 0, 1, 2]
    assert drawers[-1] == r.starter
    for tile, seat in zip(draws[:-1], drawers[:-1]):
        assert tile in hand(r, seat)
    assert "7-7" not in [t for s in range(3) for t in hand(r, s)]
    assert d["deal"]["highest_double"] is False
    # The search survives a record round trip.
    assert dc.Round.from_dict(d).to_dict() == d


def test_cross_dealt_double_records_no_search(dc):
    """docs/information.md 2: the starter was dealt the double: ``setup_draws`` is empty."""
    rules = dc.ChickenFoot(players=4, rule_set="cross")
    expected, holders = _cross_expected(dc, rules, 1, 0)
    assert holders == [expected["starter"]]
    d = dc.Round(rules, seed=1).to_dict()
    assert d["deal"]["setup_draws"] == []
    assert d["deal"]["highest_double"] is False
    assert d["deal"] == expected


# --------------------------------------------------------------------------- 2.6 the trains set-up


def _trains_expected(dc, rules, gen, k):
    """The trains set-up of 2.6 (starter search, then a reshuffle of T-1 tiles),
    as the round's deal record: no search draws into hands, no highest double."""
    n, p, h = rules.set, rules.players, rules.hand_size
    d = n - k
    double_index = d * (d + 1) // 2 + d
    deck = shuffled(dc, gen, rules.tile_count)
    position = deck.index(f"{d}-{d}")
    starter = (k + position) % p
    rest = shuffled(dc, gen, rules.tile_count, exclude={double_index})
    hands = [by_index(dc, rest[s * h : (s + 1) * h]) for s in range(p)]
    return {
        "centre": f"{d}-{d}",
        "starter": starter,
        "hands": hands,
        "yard": rest[p * h :],
        "setup_draws": [],
        "highest_double": False,
    }


@pytest.mark.parametrize("players, seed, k", [(4, 7, 0), (4, 7, 2), (3, 11, 5), (8, 3, 9), (2, 0, 4)])
def test_trains_starter_search_and_deal(dc, players, seed, k):
    rules = dc.ChickenFoot(players=players)
    expected = _trains_expected(dc, rules, dc.SplitMix64(seed), k)
    r = dc.Round(rules, seed=seed, round_index=k)
    assert expected["centre"] == f"{9 - k}-{9 - k}"
    assert str(r.centre) == expected["centre"]
    assert r.starter == expected["starter"]
    assert r.current_player == expected["starter"]  # the starter moves first in trains
    assert [hand(r, s) for s in range(players)] == expected["hands"]
    assert [str(t) for t in r.yard] == expected["yard"]
    assert list(r.pending_ends) == list(range(players))
    assert r.to_dict()["deal"] == expected


# --------------------------------------------------------------------------- 2.1 / 2.5 matches


def test_match_plays_n_plus_one_rounds_from_double_n_down(dc):
    rules = dc.ChickenFoot(players=2, set=6)
    match = dc.Match(rules, seed=3).play("greedy")
    assert match.is_over
    rounds = match.rounds
    assert len(rounds) == 7
    assert [str(r.centre) for r in rounds] == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    # Every deal comes from the one match generator, in order (greedy draws no randomness).
    gen = dc.SplitMix64(3)
    for k, r in enumerate(rounds):
        assert r.round_index == k
        assert r.to_dict()["deal"] == _trains_expected(dc, rules, gen, k)
    points = [tuple(res.points) for res in match.results]
    assert points == [(10, 8), (2, 7), (14, 14), (14, 10), (26, 5), (1, 3), (5, 20)]
    assert [res.starter for res in match.results] == [0, 0, 1, 0, 1, 1, 0]
    assert tuple(match.totals) == (72, 67)
    # Lowest total wins (seat 0's lowest round, 1, does not matter).
    assert tuple(match.winners) == (1,)


def test_cross_match_deals_every_round_from_one_generator(dc):
    rules = dc.ChickenFoot(players=3, set=6, rule_set="cross")
    match = dc.Match(rules, seed=21).play("random")
    assert len(match.results) == 7
    gen = dc.SplitMix64(21)
    searched = 0
    for k, r in enumerate(match.rounds):
        expected, _ = _cross_expected(dc, rules, gen, k)
        assert expected["centre"] == f"{6 - k}-{6 - k}"
        assert r.to_dict()["deal"] == expected
        searched += bool(expected["setup_draws"])
    assert searched > 0  # some round's starter had to search
    assert tuple(match.totals) == tuple(sum(res.points[s] for res in match.results) for s in range(3))


@pytest.mark.parametrize("double_blank_50, expected", [(False, "4-5@3"), (True, "0-0@2")])
def test_greedy_ranks_by_in_hand_score(dc, double_blank_50, expected):
    """1.6: greedy places the tile that scores most in hand (0-0 = 50 with the option)."""
    rules = dc.ChickenFoot(players=2, set=6, double_blank_50=double_blank_50)
    r = deal(dc, rules, "6-6", [["0-6", "0-0", "4-5", "1-2"], ["5-6", "3-3"]], starter=0)
    r.push("0-6@0")
    r.push("5-6@1")
    assert legal(r) == ["0-0@2", "4-5@3"]
    assert str(dc.GreedyPlayer().choose(r)) == expected


@pytest.mark.parametrize(
    "yard, after_draw, expected",
    [(["1-6", "0-2"], ["1-6@0", "1-6@1", "1-6@2", "1-6@3", "pass"], "1-6@0"), (["1-2", "0-2"], ["pass"], "pass")],
)
def test_greedy_places_a_drawn_tile_that_may_be_passed(dc, yard, after_draw, expected):
    """1.6: greedy draws when it cannot place, and never passes when it may
    place: in the cross (drawn_tile = "may") a drawn tile that fits is
    placed, not passed; one that does not fit is passed."""
    rules = dc.ChickenFoot(players=2, set=6, rule_set="cross")
    r = deal(dc, rules, "6-6", [["4-6"], ["0-1", "2-3"]], yard, starter=0)
    assert r.current_player == 1 and legal(r) == ["draw"]
    assert str(dc.GreedyPlayer().choose(r)) == "draw"
    r.push("draw")
    assert legal(r) == after_draw
    assert str(dc.GreedyPlayer().choose(r)) == expected


@pytest.mark.parametrize(
    "players, seed, policy, points, totals, winners",
    [
        # tied totals; seat 1 has two rounds at 0 (seat 0 none) -> seat 1,
        # although seat 0's lowest non-zero round (2) beats seat 1's (7)
        (2, 172, "greedy", [(19, 20), (17, 35), (2, 0), (11, 0), (13, 26), (4, 14), (36, 7)], (102, 102), (1,)),
        # tied totals, no zero rounds: lowest single non-zero round 6 < 8 -> seat 1
        (2, 95, "greedy", [(17, 6), (23, 21), (12, 9), (8, 10), (19, 19), (22, 15), (16, 37)], (117, 117), (1,)),
        # tied totals, no zeros, both lowest rounds 8: a shared win
        (2, 2237, "greedy", [(12, 24), (18, 11), (35, 28), (19, 12), (9, 8), (8, 22), (16, 12)], (117, 117), (0, 1)),
        # three players: seats 0 and 2 tie at 90 with one zero round each; 8 < 10 -> seat 0
        (
            3,
            51,
            "random",
            [(12, 26, 12), (11, 37, 10), (0, 18, 11), (19, 32, 13), (28, 13, 14), (8, 38, 0), (12, 20, 30)],
            (90, 184, 90),
            (0,),
        ),
        # seats 0 and 1 tie at 145; seat 0 has a zero round, seat 1 none -> seat 0
        (
            3,
            0,
            "random",
            [(21, 28, 15), (35, 23, 23), (0, 12, 19), (6, 17, 18), (18, 17, 40), (36, 35, 20), (29, 13, 41)],
            (145, 145, 176),
            (0,),
        ),
    ],
)
def test_match_tie_breaks(dc, players, seed, policy, points, totals, winners):
    """2.5: lowest total; then more rounds at 0; then lowest single non-zero round; else shared."""
    match = dc.Match(dc.ChickenFoot(players=players, set=6), seed=seed).play(policy)
    assert [tuple(res.points) for res in match.results] == points
    assert tuple(match.totals) == totals
    assert tuple(match.winners) == winners


def test_match_winners_tie_breaks_reference_only(ref):
    """2.5 on hand-made results, through the reference's ``match_winners``
    (reference only: the public API has no way to inject round results)."""
    from dominocore.reference.match import match_winners

    rules = ref.ChickenFoot(players=3, set=6)

    def results(*rows):
        return [ref.RoundResult("blocked", -1, tuple(row), 0, 0) for row in rows]

    assert match_winners(rules, results((4, 6, 9), (4, 6, 9))) == (0,)  # lowest total
    # totals 10 = 10: seat 0 has a zero round (seat 1's lowest round, 4, is lower)
    assert match_winners(rules, results((10, 4, 20), (0, 6, 20))) == (0,)
    # totals 10 = 10, no zeros: lowest single non-zero round 3 < 4
    assert match_winners(rules, results((7, 4, 20), (3, 6, 20))) == (0,)
    # totals, zeros and lowest rounds all equal: shared
    assert match_winners(rules, results((7, 3, 20), (3, 7, 20))) == (0, 1)
    assert match_winners(rules, results((0, 5, 5), (5, 0, 5), (5, 5, 0))) == (0, 1, 2)
    # all rounds at zero for two seats: nothing non-zero to compare, shared
    assert match_winners(rules, results((0, 0, 5), (0, 0, 5))) == (0, 1)
