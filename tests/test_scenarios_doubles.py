"""Rule-by-rule scenario tests of Doubles (docs/rules.md section 3, seed 002).

Every test builds an exact position (``Round.from_deal``) or a seeded one and
asserts exact outcomes: legal-move lists, end ids, unlocked numbers, reasons,
scores, starters and deals (recomputed independently with ``SplitMix64``).
"""

from __future__ import annotations

import pytest
from scenario_helpers import deal, ends, hand, legal, reject, result

# --------------------------------------------------------------------------- helpers


def expected_doubles_deal(dc, rules, gen):
    """docs/rules.md 3 set-up, independently: deal; redeal from index order while no
    hand holds a double; the holder of the highest double starts with it. The
    record says so (docs/information.md 2): no search draws, ``highest_double``."""
    p, h, t = rules.players, rules.hand_size, rules.tile_count
    deals = 0
    while True:
        deals += 1
        deck = list(range(t))
        gen.shuffle(deck)
        hands = [deck[s * h : (s + 1) * h] for s in range(p)]
        held = [(i, s) for s in range(p) for i in hands[s] if dc.Tile.from_index(i).is_double]
        if held:
            centre, starter = max(held)
            hands[starter].remove(centre)
            return {
                "centre": str(dc.Tile.from_index(centre)),
                "starter": starter,
                "hands": [[str(dc.Tile.from_index(i)) for i in sorted(hd)] for hd in hands],
                "yard": [str(dc.Tile.from_index(i)) for i in deck[p * h :]],
                "setup_draws": [],
                "highest_double": True,
            }, deals


# --------------------------------------------------------------------------- spinners and locks


def test_start_double_has_four_open_ends_and_unlocks_its_number(dc):
    rules = dc.Doubles(players=2)
    r = deal(dc, rules, "6-6", [["0-1"], ["1-6", "2-6"]], starter=0)
    assert r.current_player == 1  # seat 0's turn was the centre double
    assert ends(r) == [(0, 6), (1, 6), (2, 6), (3, 6)]
    assert list(r.unlocked) == [6]
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert legal(r) == ["1-6@0", "1-6@1", "1-6@2", "1-6@3", "2-6@0", "2-6@1", "2-6@2", "2-6@3"]
    assert legal(r, distinct=True) == ["1-6@0", "2-6@0"]


def test_seed002_six_three_and_the_double_three(dc):
    """Seed 002: a 6/3 on the double six leaves a locked 3; the double-3 placed
    on it unlocks threes everywhere (and is itself a spinner)."""
    rules = dc.Doubles(players=2)
    hands = [["2-3", "3-3", "3-4", "4-6"], ["0-3", "1-2", "2-6", "3-6"]]
    r = deal(dc, rules, "6-6", hands, starter=0)
    r.push("3-6@0")  # seat 1: creates end 4, a locked 3
    assert ends(r) == [(1, 6), (2, 6), (3, 6), (4, 3)]
    assert list(r.unlocked) == [6]
    # Threes are locked: 3-4 and 2-3 may not go on the 3; the 3-3 may.
    assert legal(r) == ["3-3@4", "4-6@1", "4-6@2", "4-6@3"]
    reject(dc, r, "3-4@4", "locked")
    reject(dc, r, "2-3@4", "locked")
    assert list(r.legal_actions()) == [18, 51]  # 3-3 is tile 9: 2*9; 4-6 (tile 25) by its 6: 2*25+1
    r.push("3-3@4")  # a spinner: three sides, ends 5, 6, 7
    assert ends(r) == [(1, 6), (2, 6), (3, 6), (5, 3), (6, 3), (7, 3)]
    assert list(r.unlocked) == [3, 6]
    assert r.obligation is None  # no chicken foot: every end stays legal
    assert legal(r) == ["0-3@5", "0-3@6", "0-3@7", "2-6@1", "2-6@2", "2-6@3"]
    r.push("2-6@1")  # end 8, a locked 2
    # Threes are now playable on every 3 end; the 2 end stays locked.
    assert ends(r) == [(2, 6), (3, 6), (5, 3), (6, 3), (7, 3), (8, 2)]
    assert legal(r) == ["2-3@5", "2-3@6", "2-3@7", "3-4@5", "3-4@6", "3-4@7", "4-6@2", "4-6@3"]
    assert legal(r, distinct=True) == ["2-3@5", "3-4@5", "4-6@2"]
    assert list(r.legal_actions()) == [17, 26, 51]
    reject(dc, r, "2-3@8", "locked")
    reject(dc, r, "1-2@8", "not_in_hand")
    r.push("3-4@6")
    assert ends(r) == [(2, 6), (3, 6), (5, 3), (7, 3), (8, 2), (9, 4)]
    assert legal(r) == ["0-3@5", "0-3@7"]  # 1-2: the 2 of end 8 is locked


def test_four_sixes_on_the_start_double_leave_only_doubles(dc):
    """Seed 002: with four tiles on the double six nothing but a double can be
    played until another double is down."""
    rules = dc.Doubles(players=2)
    hands = [["1-6", "3-4", "3-6", "4-5"], ["0-1", "0-6", "1-1", "1-2", "2-2", "2-3", "2-6", "4-4"]]
    r = deal(dc, rules, "6-6", hands, starter=0)
    for move in ["0-6@0", "1-6@1", "2-6@2", "3-6@3"]:
        r.push(move)
    assert ends(r) == [(4, 0), (5, 1), (6, 2), (7, 3)]
    assert list(r.unlocked) == [6]
    assert r.current_player == 1
    assert legal(r) == ["1-1@5", "2-2@6"]
    reject(dc, r, "0-1@4", "locked")
    reject(dc, r, "4-4@4", "no_match")
    r.push("1-1@5")
    assert ends(r) == [(4, 0), (6, 2), (7, 3), (8, 1), (9, 1), (10, 1)]
    assert list(r.unlocked) == [1, 6]
    assert legal(r) == ["draw"]  # seat 0 holds 3-4 and 4-5
    r.push("draw")
    assert str(r.drawn_tile) == "0-0"  # the top of the yard: the first tile not named
    assert legal(r) == ["0-0@4"]
    r.push("0-0@4")
    assert list(r.unlocked) == [0, 1, 6]
    assert legal(r) == ["0-1@8", "0-1@9", "0-1@10", "0-1@11", "0-1@12", "0-1@13", "1-2@8", "1-2@9", "1-2@10", "2-2@6"]
    assert legal(r, distinct=True) == ["0-1@8", "0-1@11", "1-2@8", "2-2@6"]
    assert list(r.legal_actions()) == [2, 3, 8, 10]


# --------------------------------------------------------------------------- drawing


def test_doubles_must_place_the_drawn_tile(dc):
    rules = dc.Doubles(players=2)
    r = deal(dc, rules, "6-6", [["2-6", "3-3"], ["0-1", "1-2"]], ["4-6", "1-3"], starter=0)
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["4-6@0", "4-6@1", "4-6@2", "4-6@3"]
    reject(dc, r, "pass", "must_place_drawn")
    reject(dc, r, "draw", "already_drew")
    r.push("4-6@3")
    assert ends(r) == [(0, 6), (1, 6), (2, 6), (4, 4)]


def test_doubles_drawn_tile_on_a_locked_number_does_not_fit(dc):
    rules = dc.Doubles(players=2)
    r = deal(dc, rules, "6-6", [["0-2", "1-2"], ["0-1", "3-6"]], ["3-4", "1-3"], starter=0)
    r.push("3-6@0")
    assert ends(r) == [(1, 6), (2, 6), (3, 6), (4, 3)]
    assert legal(r) == ["draw"]
    r.push("draw")
    assert str(r.drawn_tile) == "3-4"
    assert legal(r) == ["pass"]  # the 3 is locked
    reject(dc, r, "3-4@4", "locked")
    r.push("pass")
    assert r.current_player == 1


def test_doubles_yard_reserve_is_two(dc):
    rules = dc.Doubles(players=2)
    assert rules.reserve == 2
    r = deal(dc, rules, "6-6", [[], ["0-1"]], ["0-2", "0-3"], starter=0, rest=0)
    assert r.current_player == 1
    assert legal(r) == ["pass"]
    reject(dc, r, "draw", "yard_exhausted")
    r = deal(dc, rules, "6-6", [[], ["0-1"]], ["0-2", "0-3", "0-4"], starter=0, rest=0)
    assert legal(r) == ["draw"]
    reject(dc, r, "pass", "must_draw")
    r.push("draw")
    assert r.yard_size == 2
    assert legal(r) == ["pass"]


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("players, seed, centre, starter", [(2, 0, "5-5", 1), (4, 6, "5-5", 3), (3, 11, None, None)])
def test_highest_double_starts(dc, players, seed, centre, starter):
    rules = dc.Doubles(players=players)
    expected, _ = expected_doubles_deal(dc, rules, dc.SplitMix64(seed))
    if centre is not None:
        assert (expected["centre"], expected["starter"]) == (centre, starter)
    r = dc.Round(rules, seed=seed)
    assert r.to_dict()["deal"] == expected
    assert str(r.centre) == expected["centre"]
    assert r.starter == expected["starter"]
    assert r.current_player == (expected["starter"] + 1) % players
    assert list(r.unlocked) == [int(expected["centre"].split("-")[0])]


@pytest.mark.parametrize(
    "hand_size, seed, deals, centre, starter", [(8, 47, 2, "5-5", 0), (2, 4, 3, "5-5", 1), (2, 178, 3, None, None)]
)
def test_no_double_in_any_hand_redeals(dc, hand_size, seed, deals, centre, starter):
    """3: no hand holds a double -> gather, shuffle again (same generator,
    from index order) and deal again, as often as needed."""
    rules = dc.Doubles(players=2, hand_size=hand_size)
    gen = dc.SplitMix64(seed)
    first = list(range(28))
    gen.shuffle(first)
    assert not any(dc.Tile.from_index(i).is_double for i in first[: 2 * hand_size])
    expected, n_deals = expected_doubles_deal(dc, rules, dc.SplitMix64(seed))
    assert n_deals == deals
    if centre is not None:
        assert (expected["centre"], expected["starter"]) == (centre, starter)
    r = dc.Round(rules, seed=seed)
    assert r.to_dict()["deal"] == expected
    assert [hand(r, s) for s in range(2)] == expected["hands"]
    assert [str(t) for t in r.yard] == expected["yard"]


def test_round_index_does_not_change_a_doubles_deal(dc):
    rules = dc.Doubles(players=3)
    deals = [dc.Round(rules, seed=5, round_index=k).to_dict()["deal"] for k in (0, 1, 7)]
    assert deals[0] == deals[1] == deals[2]


def test_records_say_the_centre_is_the_highest_double(dc):
    """docs/information.md 2: every Doubles round records ``highest_double`` true
    (and no search draws); a hand-built deal may claim it only when no hand holds
    a higher double than the centre."""
    rules = dc.Doubles(players=3)
    d = dc.Round(rules, seed=4).to_dict()
    assert d["version"] == 2
    assert d["deal"]["highest_double"] is True
    assert d["deal"]["setup_draws"] == []
    assert dc.Round.from_dict(d).to_dict() == d
    # Hand-built: 5-5 is the highest double of the hands (6-6 is in the yard).
    hands = [["0-1", "4-4"], ["1-6", "2-6"], ["3-3"]]
    r = deal(dc, rules, "5-5", hands, starter=0, highest_double=True)
    assert r.to_dict()["deal"]["highest_double"] is True
    assert deal(dc, rules, "5-5", hands, starter=0).to_dict()["deal"]["highest_double"] is False
    # A hand holds the 6-6, higher than the centre: the claim is refused.
    higher = [["0-1", "4-4"], ["1-6", "2-6", "6-6"], ["3-3"]]
    with pytest.raises(dc.StateError):
        deal(dc, rules, "5-5", higher, starter=0, highest_double=True)
    assert deal(dc, rules, "5-5", higher, starter=0).to_dict()["deal"]["highest_double"] is False


# --------------------------------------------------------------------------- scoring


def test_out_scores_the_other_hands(dc):
    rules = dc.Doubles(players=3)
    hands = [["4-4", "4-6"], ["0-0", "1-2", "5-6"], ["1-6", "2-3", "3-3"]]
    r = deal(dc, rules, "6-6", hands, starter=2)
    assert r.current_player == 0
    r.push("4-6@0")
    r.push("5-6@1")
    r.push("1-6@2")
    assert legal(r) == ["4-4@4"]
    r.push("4-4@4")
    assert r.is_over
    assert r.current_player == -1
    # seat 1: 0-0 (0) + 1-2 (3); seat 2: 2-3 (5) + 3-3 (6)
    assert result(r) == ("out", 0, (14, 0, 0), 2, 4)


def test_double_blank_counts_zero_in_doubles(dc):
    rules = dc.Doubles(players=2)
    assert rules.double_blank_50 is False
    r = deal(dc, rules, "6-6", [["1-1", "0-0"], ["1-6"]], starter=0)
    r.push("1-6@0")
    assert result(r) == ("out", 1, (0, 2), 0, 1)


def test_out_at_set_up(dc):
    """engine.md 1: a hand emptied by placing the centre double is out at once."""
    rules = dc.Doubles(players=2)
    r = deal(dc, rules, "6-6", [[], ["1-2", "3-4"]], starter=0)
    assert r.is_over
    assert result(r) == ("out", 0, (10, 0), 0, 0)
    assert list(r.legal_moves()) == []


BLOCKED_ROUNDS = {
    # seed: (players, centre, starter, moves, final hands, final yard, result)
    19409: (
        2,
        "5-5",
        1,
        (
            "3-5@0 5-6@1 1-5@2 4-5@3 4-4@7 1-1@6 4-6@8 draw 1-6@11 1-4@9 draw 3-4@10 draw 3-3@4 0-3@17 2-3@18 "
            "draw 6-6@5 2-6@14 0-6@15 draw 0-1@12 draw 1-2@13 draw 1-3@16 draw pass draw 3-6@19 draw"
        ),
        [["0-2"], ["0-4", "2-4", "0-5", "2-5"]],
        ["0-0", "2-2"],
        # seat 0 has 2 pips, seat 1 22: seat 0 wins and scores 22
        ("blocked", -1, (22, 0), 1, 31),
    ),
    9326: (
        2,
        "6-6",
        0,
        (
            "4-6@0 0-6@1 4-4@4 4-5@6 2-6@2 3-4@7 1-4@8 3-3@11 3-5@13 2-3@14 draw 1-3@15 0-0@5 0-5@19 draw 0-2@20 "
            "0-1@21 draw 5-5@9 draw 1-5@16 draw 2-5@22 draw 5-6@3 draw pass draw pass draw pass draw"
        ),
        [["0-3", "2-4", "1-6"], ["1-2", "0-4", "3-6"]],
        ["1-1", "2-2"],
        # 16 = 16: the lowest total is shared, nobody scores
        ("blocked", -1, (0, 0), 0, 32),
    ),
    9355: (
        3,
        "5-5",
        0,
        (
            "draw 0-5@0 4-5@1 3-5@2 draw 0-0@4 2-5@3 2-2@10 0-6@7 3-3@6 2-6@11 3-6@15 2-4@12 1-2@13 3-4@16 1-3@17 "
            "draw pass 0-4@8 draw 0-1@9 draw pass draw 4-4@5 draw pass 4-6@20 1-4@22 draw"
        ),
        [["0-3", "2-3"], ["0-2"], ["1-5", "1-6", "5-6"]],
        ["6-6", "1-1"],
        # 8, 2, 24: seat 1 wins and scores 8 + 24
        ("blocked", -1, (0, 32, 0), 0, 30),
    ),
    7822: (
        3,
        "6-6",
        0,
        (
            "5-6@0 draw pass 4-6@1 draw 0-6@2 draw 0-0@6 4-4@5 0-5@7 0-4@8 4-5@10 draw 3-6@3 3-3@16 3-4@11 2-3@17 "
            "3-5@18 draw pass 1-3@19 0-3@9 draw 1-4@12 draw 2-4@14 draw 5-5@4 pass 2-5@13 1-5@15"
        ),
        [["1-6", "2-6"], ["1-2"], ["0-1", "0-2"]],
        ["1-1", "2-2"],
        # 15, 3, 3: the lowest total (3) is shared by seats 1 and 2: nobody scores
        ("blocked", -1, (0, 0, 0), 0, 31),
    ),
}


@pytest.mark.parametrize("seed", sorted(BLOCKED_ROUNDS))
def test_blocked_scoring(dc, seed):
    """3: blocked -> the lowest pip total wins and scores the others' pips;
    a shared lowest total scores nothing. The end is checked after a Draw too."""
    players, centre, starter, moves, hands, yard, expected = BLOCKED_ROUNDS[seed]
    r = dc.Round(dc.Doubles(players=players), seed=seed)
    assert (str(r.centre), r.starter) == (centre, starter)
    moves = moves.split()
    for move in moves[:-1]:
        r.push(move)
        assert not r.is_over
    r.push(moves[-1])
    assert r.is_over
    assert [hand(r, s) for s in range(players)] == hands
    assert [str(t) for t in r.yard] == yard
    assert result(r) == expected


# --------------------------------------------------------------------------- matches


@pytest.mark.parametrize(
    "players, target, seed, policy, points, totals, winners",
    [
        (
            2,
            100,
            1,
            "greedy",
            [
                (0, 5),
                (6, 0),
                (0, 9),
                (35, 0),
                (1, 0),
                (0, 18),
                (0, 3),
                (24, 0),
                (9, 0),
                (0, 4),
                (0, 10),
                (0, 10),
                (0, 13),
                (0, 20),
                (10, 0),
                (14, 0),
                (0, 8),
            ],
            (99, 100),
            (1,),
        ),
        (
            3,
            60,
            2,
            "random",
            [(0, 12, 0), (0, 17, 0), (25, 0, 0), (0, 0, 25), (0, 0, 4), (38, 0, 0)],
            (63, 29, 29),
            (0,),
        ),
    ],
)
def test_match_plays_until_a_total_reaches_the_target(dc, players, target, seed, policy, points, totals, winners):
    rules = dc.Doubles(players=players, target=target)
    match = dc.Match(rules, seed=seed).play(policy)
    assert match.is_over
    assert [tuple(res.points) for res in match.results] == points
    assert tuple(match.totals) == totals
    assert tuple(match.winners) == winners
    # Every round before the last left every total below the target.
    running = [0] * players
    for row in points[:-1]:
        running = [a + b for a, b in zip(running, row)]
        assert max(running) < target
    # Each round is dealt afresh from the one match generator.
    gen = dc.SplitMix64(seed)
    for r in match.rounds:
        expected, _ = expected_doubles_deal(dc, rules, gen)
        assert r.to_dict()["deal"] == expected
