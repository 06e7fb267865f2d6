"""Rule-by-rule scenario tests of Mexican Train (docs/games/mexican_train.md, M1..M8).

Written from the rules page alone, black box, against the public API of both
implementations: exact positions (``Round.from_deal``) or seeded ones, with
exact outcomes (hub ends and trains, legal listings in canonical (tile, train)
order, action ids ``i*(p+1)+t``, unsatisfied doubles, markers, drawing,
rejection reasons with the state unchanged, results, matches). Deals are
recomputed independently with ``SplitMix64`` (docs/rules.md 1.6). "M3" means
docs/games/mexican_train.md M3. Most positions use a double-6 set (T = 28) so
that every tile can be placed by hand.
"""

from __future__ import annotations

import pytest
from scenario_helpers import by_index, deal, ends, hand, legal, observe, reject, result, set_tiles, shuffled

# --------------------------------------------------------------------------- helpers


def mt(dc, hands, yard=(), starter=0, round_index=0, rest=None, n=6, **options):
    """A hand-built round on a double-n set: the engine is (n-k)-(n-k); the tiles
    not named go to the bottom of the yard in index order (or to seat ``rest``)."""
    rules = dc.MexicanTrain(players=len(hands), set=n, **options)
    engine = f"{n - round_index}-{n - round_index}"
    return deal(dc, rules, engine, hands, yard, starter=starter, round_index=round_index, rest=rest)


def expected_deal(dc, rules, gen, k):
    """M1, independently: round k's engine is (N-k)-(N-k); the other T-1 tiles in
    index order are shuffled once and dealt, the rest is the yard; seat k mod p
    starts. No search draws, no highest double (docs/information.md 2)."""
    n, p, h = rules.set, rules.players, rules.hand_size
    engine = dc.Tile.parse(f"{n - k}-{n - k}")
    deck = shuffled(dc, gen, rules.tile_count, exclude={engine.index})
    return {
        "centre": str(engine),
        "starter": k % p,
        "hands": [by_index(dc, deck[s * h : (s + 1) * h]) for s in range(p)],
        "yard": deck[p * h :],
        "setup_draws": [],
        "highest_double": False,
    }


def markers(r):
    return tuple(bool(m) for m in r.markers)


def trains(r):
    """The open ends as (id, number, train)."""
    return [(e.id, e.number, r.train_of(e.id)) for e in r.open_ends]


def state(r):
    return observe(r), markers(r), trains(r)


def mt_reject(dc, r, move, reason, player=None):
    """``move`` is rejected with ``reason``; nothing changes, markers and trains included."""
    before = state(r)
    reject(dc, r, move, reason, player=player)
    assert state(r) == before


def tile_pips(t, double_blank_50=False):
    return 50 if double_blank_50 and t.low == 0 and t.high == 0 else t.low + t.high


def model_legal(r):
    """M2-M4 and M7 from the page, on the public state: allowed ends (only the
    unsatisfied double's end; else own train, the Mexican train and marked
    trains); the drawn tile alone after a Draw; canonical (tile, train) order."""
    rules = r.rules
    p, seat = rules.players, r.current_player
    if r.obligation == "double":
        allowed = [e for e in r.open_ends if e.id in list(r.pending_ends)]
    else:
        marks = markers(r)
        allowed = [e for e in r.open_ends if r.train_of(e.id) in (seat, p) or marks[r.train_of(e.id)]]
    drawn = r.drawn_tile
    tiles = [drawn] if drawn is not None else r.hand(seat)
    places = sorted(
        (t.index, r.train_of(e.id), f"{t}@{e.id}") for t in tiles for e in allowed if e.number in (t.low, t.high)
    )
    moves = [m for _, _, m in places]
    if drawn is not None:
        return moves + (["pass"] if not moves or rules.drawn_tile == "may" else [])
    if moves:
        return moves
    return ["draw"] if r.yard_size > 0 else ["pass"]


def model_blocked(r):
    """M5: the yard is empty and no hand fits an end, every train counted as
    marked (only the unsatisfied double's end while there is one)."""
    if r.yard_size > 0:
        return False
    counted = [e for e in r.open_ends if r.obligation != "double" or e.id in list(r.pending_ends)]
    return not any(e.number in (t.low, t.high) for s in range(r.rules.players) for t in r.hand(s) for e in counted)


# --------------------------------------------------------------------------- rules objects (table, M1)


def test_mexican_train_defaults(dc):
    r = dc.MexicanTrain()
    assert (r.game, r.set, r.players, r.hand_size) == ("mexican_train", 12, 4, 15)
    assert (r.drawn_tile, r.double_blank_50, r.reserve) == ("must", False, 0)
    assert r.slots == 5  # one hub end per train: 4 seats + the Mexican train
    assert r.num_actions == 457  # M7: 91 * 5 + 2
    assert r.rounds == 13  # M1: N + 1 rounds
    assert r.round_double(0) == 12 and r.round_double(12) == 0
    assert r.target is None and r.max_rounds is None
    assert r.to_dict() == {
        "game": "mexican_train",
        "set": 12,
        "players": 4,
        "hand_size": 15,
        "drawn_tile": "must",
        "double_blank_50": False,
    }


@pytest.mark.parametrize(
    "n, sizes",
    [
        (12, {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}),  # M1's figures
        (6, {2: 4, 4: 4, 5: 3, 6: 3, 8: 3}),  # floor(h * 27 / 90)
        (9, {2: 9, 4: 9, 5: 7, 6: 7, 7: 6, 8: 6}),  # floor(h * 54 / 90)
        (15, {2: 22, 5: 18, 8: 15}),  # floor(h * 135 / 90)
        (18, {2: 31, 5: 25, 8: 21}),  # floor(h * 189 / 90)
    ],
)
def test_mexican_train_hand_sizes(dc, n, sizes):
    """M1: 15 / 12 / 10 on double-12; floor(h * (T - 1) / 90) on double-N."""
    t = dc.tile_count(n)
    for p, h in sizes.items():
        base = 15 if p <= 4 else 12 if p <= 6 else 10
        assert h == max(1, base * (t - 1) // 90)
        rules = dc.MexicanTrain(players=p, set=n)
        assert rules.hand_size == h
        assert rules.slots == p + 1
        assert rules.num_actions == t * (p + 1) + 2


def test_mexican_train_options_that_are_accepted(dc):
    assert dc.MexicanTrain(players=8, hand_size=11).hand_size == 11  # 88 <= 90
    assert dc.MexicanTrain(players=2, hand_size=45).hand_size == 45  # 90 <= 90
    assert dc.MexicanTrain(players=2, set=6, hand_size=13).hand_size == 13  # 26 <= 27
    assert dc.MexicanTrain(players=2, hand_size=1).hand_size == 1
    assert dc.MexicanTrain(drawn_tile="may").drawn_tile == "may"
    assert dc.MexicanTrain(double_blank_50=True).double_blank_50 is True
    assert dc.MexicanTrain(players=8, set=6).num_actions == 28 * 9 + 2
    rules = dc.MexicanTrain(players=3, set=9, hand_size=5, drawn_tile="may", double_blank_50=True)
    assert dc.rules_from_dict(rules.to_dict()) == rules
    assert rules.to_dict() == {
        "game": "mexican_train",
        "set": 9,
        "players": 3,
        "hand_size": 5,
        "drawn_tile": "may",
        "double_blank_50": True,
    }


@pytest.mark.parametrize(
    "options",
    [
        {"set": 5},
        {"set": 19},
        {"players": 1},
        {"players": 9},
        {"hand_size": 0},
        {"players": 8, "hand_size": 12},  # 96 > 90
        {"players": 2, "hand_size": 46},  # 92 > 90
        {"players": 2, "set": 6, "hand_size": 14},  # 28 > 27: the engine is not dealt
        {"drawn_tile": "maybe"},
        {"drawn_tile": None},
        {"double_blank_50": "yes"},
        {"double_blank_50": 1},
        {"players": 4.0},
        {"players": True},
        {"target": 100},  # not a Mexican Train option
        {"max_rounds": 3},
        {"lead": "winner"},
        {"trains": 5},
        {"colour": "red"},
    ],
)
def test_mexican_train_rules_rejected(dc, options):
    with pytest.raises(dc.RulesError):
        dc.MexicanTrain(**options)


def test_mexican_train_rules_from_dict(dc):
    assert dc.rules_from_dict({"game": "mexican_train"}) == dc.MexicanTrain()
    with pytest.raises(dc.RulesError):
        dc.rules_from_dict({"game": "mexican_train", "colour": "red"})
    with pytest.raises(dc.RulesError):
        dc.rules_from_dict({"game": "mexican_train", "target": 100})


# --------------------------------------------------------------------------- M1 engines, deal, first turn; M2 the hub


@pytest.mark.parametrize(
    "players, round_index, seed", [(2, 0, 0), (2, 3, 5), (3, 4, 11), (4, 6, 2), (5, 1, 8), (8, 5, 3)]
)
def test_engine_deal_and_first_turn(dc, players, round_index, seed):
    """M1: round k's engine is (N-k)-(N-k); the other T-1 tiles in index order
    are shuffled once and dealt, the rest is the yard; seat k mod p moves first.
    M2: p+1 hub ends of the engine's number, train t's hub end has id t."""
    rules = dc.MexicanTrain(players=players, set=6)
    d = 6 - round_index
    engine = dc.Tile.parse(f"{d}-{d}")
    h = rules.hand_size
    expected = expected_deal(dc, rules, dc.SplitMix64(seed), round_index)
    r = dc.Round(rules, seed=seed, round_index=round_index)
    starter = round_index % players
    assert r.to_dict()["deal"] == expected
    assert expected["centre"] == str(engine)
    assert r.centre == engine
    assert r.starter == expected["starter"] == starter
    assert r.current_player == starter
    assert [str(t) for t in r.yard] == expected["yard"]
    assert r.yard_size == 27 - players * h
    assert ends(r) == [(t, d) for t in range(players + 1)]
    assert [r.train_of(t) for t in range(players + 1)] == list(range(players + 1))
    assert r.train_of(players + 1) is None
    assert markers(r) == (False,) * players
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert r.drawn_tile is None
    assert len(r.layout) == 1
    assert r.layout[0].tile == engine
    assert r.layout[0].end is None
    assert list(r.move_stack) == []


def test_default_round_on_double_twelve(dc):
    rules = dc.MexicanTrain()
    r = dc.Round(rules, seed=42)
    assert str(r.centre) == "12-12"
    assert [len(r.hand(s)) for s in range(4)] == [15] * 4
    assert r.yard_size == 90 - 60
    assert ends(r) == [(t, 12) for t in range(5)]
    assert r.num_actions == 457
    last = dc.Round(rules, seed=42, round_index=12)
    assert str(last.centre) == "0-0"
    assert last.starter == 0  # 12 mod 4


@pytest.mark.parametrize("round_index", [7, -1, 100])
def test_round_index_range(dc, round_index):
    """M1: a round_index must lie in 0..N."""
    with pytest.raises(dc.RulesError):
        dc.Round(dc.MexicanTrain(players=2, set=6), seed=0, round_index=round_index)


# --------------------------------------------------------------------------- M2 trains, M7 action ids

HUB_HANDS = [["3-12", "5-12", "0-1"], ["4-12", "1-3"], ["1-2"], ["2-3"]]


def test_hub_and_whose_trains(dc):
    """M2: seat s may place on its own train and the Mexican train (train p);
    another seat's unmarked train is refused with not_your_train (before
    no_match). M7: ids i*(p+1)+t, 457 ids for 4 players on double-12."""
    r = mt(dc, HUB_HANDS, n=12)
    assert str(r.centre) == "12-12"
    assert ends(r) == [(t, 12) for t in range(5)]
    assert legal(r) == ["3-12@0", "3-12@4", "5-12@0", "5-12@4"]
    assert legal(r, distinct=True) == legal(r)
    assert r.num_actions == 457
    assert list(r.legal_actions()) == [405, 409, 415, 419]  # 3-12 is tile 81, 5-12 tile 83
    assert str(r.action_to_move(409)) == "3-12@4"
    assert r.move_to_action("5-12@4") == 419
    mask = r.legal_action_mask()
    assert len(mask) == 457 and [i for i, m in enumerate(mask) if m] == [405, 409, 415, 419]
    mt_reject(dc, r, "3-12@1", "not_your_train")
    mt_reject(dc, r, "5-12@3", "not_your_train")
    mt_reject(dc, r, "0-1@1", "not_your_train")  # before no_match
    mt_reject(dc, r, "0-1@0", "no_match")
    mt_reject(dc, r, "0-1@4", "no_match")
    mt_reject(dc, r, "4-12@0", "not_in_hand")
    mt_reject(dc, r, "3-12@9", "end_not_open")
    mt_reject(dc, r, "draw", "must_place")
    mt_reject(dc, r, "pass", "must_place")
    mt_reject(dc, r, "3-12@0", "not_your_turn", player=1)
    for action in (406, 407, 408, 455, 456):
        before = state(r)
        with pytest.raises(dc.IllegalMoveError) as info:
            r.apply_action(action)
        assert info.value.reason == "illegal_action"
        assert state(r) == before
    r.push("3-12@0")
    # The hub end 0 is gone; train 0 continues from end 5, of the tile's other half.
    assert trains(r) == [(1, 12, 1), (2, 12, 2), (3, 12, 3), (4, 12, 4), (5, 3, 0)]
    assert r.train_of(0) is None
    assert r.current_player == 1
    assert legal(r) == ["4-12@1", "4-12@4"]  # not train 0 (unmarked; 1-3 would fit its 3)
    assert list(r.legal_actions()) == [411, 414]
    mt_reject(dc, r, "1-3@5", "not_your_train")


def test_canonical_order_is_by_train_not_end_id(dc):
    """M7: placements sorted by tile index, then by train (0..p-1, then the
    Mexican train p), whatever their end ids; the distinct listing is the same."""
    r = mt(dc, [["3-6", "2-6", "2-3", "0-5"], ["1-6", "1-4", "5-5"]])
    assert legal(r) == ["2-6@0", "2-6@2", "3-6@0", "3-6@2"]
    assert list(r.legal_actions()) == [69, 71, 72, 74]  # 2-6 is tile 23, 3-6 tile 24; p + 1 = 3
    r.push("3-6@2")  # anyone may start the Mexican train: end 3 (a 3)
    assert trains(r) == [(0, 6, 0), (1, 6, 1), (3, 3, 2)]
    r.push("1-6@1")  # end 4 (a 1) on train 1
    r.push("2-6@0")  # end 5 (a 2) on train 0
    assert trains(r) == [(3, 3, 2), (4, 1, 1), (5, 2, 0)]
    assert legal(r) == ["1-4@4"]
    r.push("1-4@4")  # end 6 (a 4)
    # 2-3 fits train 0 (end 5, by its 2) and the Mexican train (end 3, by its 3).
    assert legal(r) == ["2-3@5", "2-3@3"]
    assert legal(r, distinct=True) == ["2-3@5", "2-3@3"]
    assert list(r.legal_actions()) == [24, 26]
    assert str(r.action_to_move(26)) == "2-3@3"
    assert str(r.action_to_move(24)) == "2-3@5"
    r.apply_action(26)
    assert trains(r) == [(5, 2, 0), (6, 4, 1), (7, 2, 2)]


def test_same_number_on_two_trains_is_not_merged(dc):
    """M7: the distinct listing is the full listing: ends of one number on
    different trains are different moves."""
    r = mt(dc, [["4-6", "5-6"], ["0-1"]])
    assert legal(r) == ["4-6@0", "4-6@2", "5-6@0", "5-6@2"]
    assert legal(r, distinct=True) == legal(r)
    assert list(r.legal_actions()) == [75, 77, 78, 80]


def test_draw_and_pass_ids(dc):
    """M7: Draw is T*(p+1), Pass T*(p+1)+1."""
    r = mt(dc, [["0-1"], ["1-6"]], yard=["0-2"])
    assert r.num_actions == 86
    assert legal(r) == ["draw"]
    assert list(r.legal_actions()) == [84]
    assert r.move_to_action("draw") == 84
    r.apply_action(84)
    assert str(r.drawn_tile) == "0-2"
    assert legal(r) == ["pass"]
    assert list(r.legal_actions()) == [85]
    assert str(r.action_to_move(85)) == "pass"
    r.apply_action(85)
    assert markers(r) == (True, False)
    rules = dc.MexicanTrain(players=3, set=6)
    assert rules.num_actions == 114
    r3 = mt(dc, [["0-1"], ["1-6"], ["2-2"]], yard=["0-2"])
    assert list(r3.legal_actions()) == [112]


# --------------------------------------------------------------------------- M3 doubles must be satisfied


def test_double_gives_an_extra_turn_and_must_be_satisfied(dc):
    """M3: a double on an end of its number is unsatisfied: the same seat moves
    again; its end is the only legal end (obligation "double"); a satisfying
    tile is compulsory; after it the turn passes on."""
    r = mt(dc, [["4-6", "4-4", "1-4", "3-6"], ["1-6", "0-5"], ["2-6", "0-3"]])
    assert legal(r) == ["3-6@0", "3-6@3", "4-6@0", "4-6@3"]  # 3-6 is tile 24, 4-6 tile 25
    r.push("4-6@0")  # end 4 (a 4) on train 0
    r.push("1-6@1")  # end 5 (a 1) on train 1
    r.push("2-6@2")  # end 6 (a 2) on train 2
    assert legal(r) == ["1-4@4", "4-4@4", "3-6@3"]
    r.push("4-4@4")
    assert r.current_player == 0  # the extra turn
    assert r.obligation == "double"
    assert list(r.pending_ends) == [7]
    assert trains(r) == [(3, 6, 3), (5, 1, 1), (6, 2, 2), (7, 4, 0)]
    assert legal(r) == ["1-4@7"]
    assert list(r.legal_actions()) == [44]  # 1-4 is tile 11; 11 * 4 + 0
    mt_reject(dc, r, "3-6@3", "double_unsatisfied")  # the Mexican train is closed meanwhile
    mt_reject(dc, r, "3-6@5", "double_unsatisfied")  # before not_your_train and no_match
    mt_reject(dc, r, "3-6@7", "no_match")
    mt_reject(dc, r, "3-6@4", "end_not_open")
    mt_reject(dc, r, "draw", "must_place")
    mt_reject(dc, r, "pass", "must_place")
    mt_reject(dc, r, "1-4@7", "not_your_turn", player=1)
    r.push("1-4@7")
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert trains(r) == [(3, 6, 3), (5, 1, 1), (6, 2, 2), (8, 1, 0)]
    assert r.current_player == 1
    assert legal(r) == ["draw"]  # 0-5: no 1 on train 1, no 6 on the Mexican train
    r.pop()
    assert r.obligation == "double"
    assert list(r.pending_ends) == [7]
    assert r.current_player == 0
    r.pop()
    assert r.obligation is None
    assert legal(r) == ["1-4@4", "4-4@4", "3-6@3"]


DOUBLE_HANDS = [["4-6", "4-4", "0-0"], ["1-6", "0-5"], ["2-6", "3-5"]]
DOUBLE_YARD = ["2-3", "4-5"]
DOUBLE_OPENING = ["4-6@0", "1-6@1", "2-6@2", "4-4@4"]


def test_unsatisfied_double_passes_round_the_table(dc):
    """M3 + M4: a seat that cannot satisfy the double draws; a drawn tile that
    does not satisfy it is passed (marker on its own train) even if it fits
    elsewhere; the obligation moves on; the next seat's drawn tile that fits
    the double must be placed there; a marked train is then open to everyone."""
    r = mt(dc, DOUBLE_HANDS, DOUBLE_YARD)
    for move in DOUBLE_OPENING:
        r.push(move)
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (0, "double", [7])
    assert legal(r) == ["draw"]
    mt_reject(dc, r, "pass", "must_draw")
    mt_reject(dc, r, "0-0@3", "double_unsatisfied")
    r.push("draw")
    assert str(r.drawn_tile) == "2-3"
    assert legal(r) == ["pass"]  # 2-3 would fit train 2's end 6, which is not legal
    mt_reject(dc, r, "2-3@6", "double_unsatisfied")
    mt_reject(dc, r, "0-0@7", "not_drawn_tile")
    mt_reject(dc, r, "draw", "already_drew")
    r.push("pass")
    assert markers(r) == (True, False, False)
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (1, "double", [7])
    assert hand(r, 0) == ["0-0", "2-3"]
    assert legal(r) == ["draw"]
    r.push("draw")
    assert str(r.drawn_tile) == "4-5"
    assert legal(r) == ["4-5@7"]
    assert list(r.legal_actions()) == [19 * 4]  # 4-5 is tile 19, on train 0
    mt_reject(dc, r, "pass", "must_place_drawn")
    mt_reject(dc, r, "0-5@7", "not_drawn_tile")
    r.push("4-5@7")  # seat 1 satisfies the double on seat 0's train
    assert r.obligation is None
    assert markers(r) == (True, False, False)  # only seat 0 can lift its marker
    assert trains(r) == [(3, 6, 3), (5, 1, 1), (6, 2, 2), (8, 5, 0)]
    assert r.current_player == 2
    assert legal(r) == ["3-5@8"]  # train 0 carries a marker
    assert list(r.legal_actions()) == [18 * 4]


def test_unsatisfied_double_under_drawn_tile_may(dc):
    """M4 drawn_tile = "may": a drawn tile that satisfies the double may be
    kept; the seat passes, marks its train and the obligation moves on."""
    r = mt(dc, DOUBLE_HANDS, DOUBLE_YARD, drawn_tile="may")
    for move in DOUBLE_OPENING + ["draw", "pass", "draw"]:
        r.push(move)
    assert legal(r) == ["4-5@7", "pass"]
    assert list(r.legal_actions()) == [76, 113]
    r.push("pass")
    assert markers(r) == (True, True, False)
    assert hand(r, 1) == ["0-5", "4-5"]
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (2, "double", [7])
    assert legal(r) == ["draw"]  # seat 2 holds 3-5: no 4
    r.push("draw")
    assert str(r.drawn_tile) == "0-1"  # the first tile not named, in index order
    assert legal(r) == ["pass"]
    r.push("pass")
    assert markers(r) == (True, True, True)
    assert (r.current_player, r.obligation) == (0, "double")
    for expected in ("pass", "draw", "pass", "draw"):
        assert str(r.pop()) == expected
    assert markers(r) == (True, False, False)
    assert r.current_player == 1


def test_going_out_on_a_double_ends_the_round(dc):
    """M3: going out on a double ends the round at once; the double stays
    unsatisfied (no extra turn)."""
    r = mt(dc, [["4-6", "4-4"], ["0-0", "1-6", "2-5"]])
    r.push("4-6@0")
    r.push("1-6@1")
    assert legal(r) == ["4-4@3"]
    r.push("4-4@3")
    assert r.is_over
    assert r.current_player == -1
    assert list(r.legal_moves()) == []
    assert (5, 4, 0) in trains(r)
    assert r.obligation == "double"
    assert list(r.pending_ends) == [5]
    assert result(r) == ("out", 0, (0, 7), 0, 3)  # seat 1: 0-0 (0) + 2-5 (7)
    mt_reject(dc, r, "2-5@5", "round_over", player=1)


def test_double_on_the_mexican_train(dc):
    """M3 on the Mexican train: the extra turn; the placer cannot satisfy it,
    draws, passes and marks its train; the next seat must satisfy it there."""
    r = mt(dc, [["3-6", "3-3", "0-0"], ["1-6", "3-4", "5-5"]], ["0-1"])
    r.push("3-6@2")  # end 3 (a 3) on the Mexican train
    assert legal(r) == ["3-4@3", "1-6@1"]  # 3-4 (13) before 1-6 (22)
    r.push("1-6@1")
    assert legal(r) == ["3-3@3"]
    r.push("3-3@3")
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (0, "double", [5])
    assert r.train_of(5) == 2
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["pass"]
    r.push("pass")
    assert markers(r) == (True, False)
    assert legal(r) == ["3-4@5"]
    assert list(r.legal_actions()) == [13 * 3 + 2]
    mt_reject(dc, r, "pass", "must_place")
    mt_reject(dc, r, "draw", "must_place")
    r.push("3-4@5")
    assert r.obligation is None
    assert trains(r) == [(0, 6, 0), (4, 1, 1), (6, 4, 2)]
    assert r.current_player == 0
    assert markers(r) == (True, False)


def test_owner_satisfies_a_double_on_its_marked_train(dc):
    """M3 + M4: a seat places a double on another seat's marked train, cannot
    satisfy it and passes; the owner satisfies it with a drawn tile on its own
    train, which lifts its marker."""
    yard = ["0-2", "3-5", "0-3", "1-2"]
    r = mt(dc, [["2-3", "2-4"], ["1-6", "1-1", "4-5"]], yard)
    for move in ("draw", "pass"):
        r.push(move)
    assert markers(r) == (True, False)
    assert legal(r) == ["1-6@0", "1-6@1", "1-6@2"]
    r.push("1-6@0")  # end 3 (a 1) on train 0
    assert legal(r) == ["draw"]
    r.push("draw")  # 3-5
    r.push("pass")
    assert markers(r) == (True, False)
    assert legal(r) == ["1-1@3"]
    r.push("1-1@3")  # on seat 0's train: end 4
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (1, "double", [4])
    assert legal(r) == ["draw"]
    r.push("draw")  # 0-3
    assert legal(r) == ["pass"]
    r.push("pass")
    assert markers(r) == (True, True)
    assert (r.current_player, r.obligation) == (0, "double")
    assert legal(r) == ["draw"]
    r.push("draw")  # 1-2: fits the double
    assert legal(r) == ["1-2@4"]
    r.push("1-2@4")
    assert markers(r) == (False, True)
    assert r.obligation is None
    assert trains(r) == [(1, 6, 1), (2, 6, 2), (5, 2, 0)]
    assert r.current_player == 1


def test_a_drawn_double_gives_an_extra_turn(dc):
    """M3 + M4: a drawn double that fits is placed; the seat moves again, as a new
    turn: it may draw again to satisfy it."""
    r = mt(dc, [["2-6", "0-1"], ["1-6", "4-5"]], ["2-2", "2-3"])
    r.push("2-6@0")  # end 3 (a 2)
    r.push("1-6@1")  # end 4 (a 1)
    assert legal(r) == ["draw"]  # 0-1: train 1 has no marker
    r.push("draw")
    assert str(r.drawn_tile) == "2-2"
    assert legal(r) == ["2-2@3"]
    r.push("2-2@3")
    assert (r.current_player, r.obligation, list(r.pending_ends)) == (0, "double", [5])
    assert r.drawn_tile is None
    assert legal(r) == ["draw"]
    r.push("draw")
    assert str(r.drawn_tile) == "2-3"
    assert legal(r) == ["2-3@5"]
    r.push("2-3@5")
    assert r.obligation is None
    assert r.current_player == 1
    assert trains(r) == [(2, 6, 2), (4, 1, 1), (6, 3, 0)]


# --------------------------------------------------------------------------- M4 markers and drawing


MARKER_HANDS = [["0-1", "1-2", "2-3"], ["1-6", "3-6", "4-5"]]


def test_markers_set_lifted_and_undone(dc):
    """M4: a pass puts a marker on the seat's own train (open to everyone); a
    placement on the Mexican train leaves it; a placement on its own train
    lifts it; pop undoes both."""
    r = mt(dc, MARKER_HANDS, ["0-2"])
    assert legal(r) == ["draw"]
    r.push("draw")
    assert legal(r) == ["pass"]
    r.push("pass")
    assert markers(r) == (True, False)
    assert r.current_player == 1
    # Train 0 is open to seat 1 now: its hub end 0 shows a 6.
    assert legal(r) == ["1-6@0", "1-6@1", "1-6@2", "3-6@0", "3-6@1", "3-6@2"]
    mt_reject(dc, r, "pass", "must_place")
    mt_reject(dc, r, "draw", "must_place")
    assert list(r.legal_actions()) == [66, 67, 68, 72, 73, 74]
    r.push("1-6@2")  # end 3 (a 1) on the Mexican train
    assert legal(r) == ["0-1@3", "1-2@3"]
    r.push("1-2@3")  # seat 0 on the Mexican train: the marker stays
    assert markers(r) == (True, False)
    assert legal(r) == ["3-6@0", "3-6@1"]
    r.push("3-6@0")  # seat 1 on seat 0's marked train: end 5 (a 3)
    assert markers(r) == (True, False)
    assert trains(r) == [(1, 6, 1), (4, 2, 2), (5, 3, 0)]
    assert legal(r) == ["0-2@4", "2-3@5", "2-3@4"]
    assert list(r.legal_actions()) == [11, 24, 26]
    r.push("2-3@5")  # on its own train: the marker comes off
    assert markers(r) == (False, False)
    assert trains(r) == [(1, 6, 1), (4, 2, 2), (6, 2, 0)]
    assert r.current_player == 1
    assert legal(r) == ["draw"]  # 4-5: train 0 is closed again
    r.pop()
    assert markers(r) == (True, False)
    assert trains(r) == [(1, 6, 1), (4, 2, 2), (5, 3, 0)]
    for _ in range(3):
        r.pop()
    assert markers(r) == (True, False)
    assert str(r.pop()) == "pass"
    assert markers(r) == (False, False)
    assert str(r.drawn_tile) == "0-2"


def test_a_marker_stays_through_further_passes(dc):
    """M4: "if it is not there already": a second pass leaves one marker; an
    empty yard and no placement means Pass (Draw: yard_exhausted)."""
    sixes = ["0-6", "1-6", "2-6", "3-6", "4-6", "5-6"]
    r = mt(dc, [[], sixes], rest=0)  # seat 0 holds every other tile, the yard is empty
    assert r.yard_size == 0
    assert len(hand(r, 0)) == 21
    assert legal(r) == ["pass"]
    assert list(r.legal_actions()) == [85]
    mt_reject(dc, r, "draw", "yard_exhausted")
    r.push("pass")
    assert markers(r) == (True, False)
    assert len(legal(r)) == 18  # six sixes on train 0 (marked), train 1 and the Mexican train
    r.push("0-6@1")  # end 3 (a 0) on train 1
    assert legal(r) == ["pass"]  # seat 0's zeros fit train 1, which has no marker
    assert not r.is_over
    mt_reject(dc, r, "0-1@3", "not_your_train")
    r.push("pass")
    assert markers(r) == (True, False)
    r.push("1-6@0")
    assert markers(r) == (True, False)


def test_draw_must_place_the_drawn_tile(dc):
    """M4 drawn_tile = "must": no placement -> Draw; a drawn tile that fits has
    to be placed (on any legal end)."""
    r = mt(dc, [["0-1"], ["1-6"]], ["3-6", "0-2"])
    assert legal(r) == ["draw"]
    mt_reject(dc, r, "pass", "must_draw")
    r.push("draw")
    assert str(r.drawn_tile) == "3-6"
    assert r.yard_size == 27 - 2 - 1
    assert r.current_player == 0
    assert legal(r) == ["3-6@0", "3-6@2"]
    assert list(r.legal_actions()) == [72, 74]
    mt_reject(dc, r, "pass", "must_place_drawn")
    mt_reject(dc, r, "draw", "already_drew")
    mt_reject(dc, r, "0-1@0", "not_drawn_tile")
    mt_reject(dc, r, "3-6@1", "not_your_train")
    r.push("3-6@2")
    assert r.drawn_tile is None
    assert r.current_player == 1
    assert markers(r) == (False, False)


def test_draw_may_keep_the_drawn_tile(dc):
    """M4 drawn_tile = "may": the seat may place the drawn tile or pass (and mark)."""
    r = mt(dc, [["0-1"], ["1-6"]], ["3-6", "0-2"], drawn_tile="may")
    r.push("draw")
    assert legal(r) == ["3-6@0", "3-6@2", "pass"]
    assert list(r.legal_actions()) == [72, 74, 85]
    r.push("pass")
    assert markers(r) == (True, False)
    assert hand(r, 0) == ["0-1", "3-6"]
    assert r.current_player == 1


# --------------------------------------------------------------------------- M5 end of a round and scoring


@pytest.mark.parametrize("double_blank_50, seat1", [(False, 10), (True, 60)])
def test_out_scores_each_hand(dc, double_blank_50, seat1):
    """M5: out ends the round at once; each seat scores its own pips, the seat
    that went out 0; under double_blank_50 the double-blank counts 50."""
    r = mt(dc, [["3-6"], ["0-0", "5-5"], ["1-2"]], double_blank_50=double_blank_50)
    r.push("3-6@0")
    assert r.is_over
    assert result(r) == ("out", 0, (0, seat1, 3), 0, 1)
    assert r.pips(1) == seat1


# All 27 tiles dealt (the yard is empty). Seat 0 holds the threes; seat 1 none.
BLOCK_HANDS = [
    ["2-6", "2-5", "1-5", "0-1", "5-6", "5-5", "0-3", "1-3", "2-3", "3-3", "3-4", "3-6"],
    ["4-6", "4-5", "3-5", "0-5", "0-0", "1-1", "0-2", "1-2", "2-2", "0-4", "1-4", "2-4", "4-4", "0-6", "1-6"],
]
BLOCK_MOVES = ["2-6@2", "4-6@1", "2-5@3", "4-5@4", "1-5@5", "3-5@6", "0-1@7", "0-5@9", "5-6@0", "pass"]


@pytest.mark.parametrize("double_blank_50, seat1", [(False, 47), (True, 97)])
def test_blocked_on_an_unsatisfied_double(dc, double_blank_50, seat1):
    """M5: blocked when the yard is empty and no hand fits; while a double is
    unsatisfied only its end counts (seat 0's threes fit train 1's end 8,
    marked, but not the double's end)."""
    r = mt(dc, BLOCK_HANDS, double_blank_50=double_blank_50)
    assert r.yard_size == 0
    for move in BLOCK_MOVES:
        assert not r.is_over
        r.push(move)
    assert markers(r) == (False, True)
    assert trains(r) == [(8, 3, 1), (10, 5, 2), (11, 5, 0)]
    assert r.current_player == 0
    assert legal(r) == ["0-3@8", "1-3@8", "2-3@8", "3-3@8", "3-4@8", "5-5@11", "5-5@10", "3-6@8"]
    r.push("5-5@11")
    assert r.is_over
    assert r.current_player == -1
    assert list(r.pending_ends) == [12]
    # seat 0: 3 + 4 + 5 + 6 + 7 + 9 = 34; seat 1: 47 (0-0 counting 0 or 50)
    assert result(r) == ("blocked", -1, (34, seat1), 0, 11)


@pytest.mark.parametrize("double_blank_50, points", [(False, (34, 47)), (True, (84, 47))])
def test_blocked_right_after_the_last_draw(dc, double_blank_50, points):
    """M5 + rules.md 1.5: the end is checked after a Draw too: the seat that
    cannot satisfy the double draws the last tile, which does not fit."""
    hands = [BLOCK_HANDS[0], [t for t in BLOCK_HANDS[1] if t not in ("1-1", "0-0")]]
    r = mt(dc, hands, ["1-1", "0-0"], double_blank_50=double_blank_50)
    for move in BLOCK_MOVES[:-1]:
        r.push(move)
    assert legal(r) == ["draw"]
    r.push("draw")  # seat 1 draws 1-1
    assert legal(r) == ["pass"]
    r.push("pass")
    r.push("5-5@11")
    assert not r.is_over  # the yard still holds 0-0
    assert legal(r) == ["draw"]
    r.push("draw")
    assert r.is_over
    assert r.yard_size == 0
    assert hand(r, 0) == ["0-0", "0-3", "1-3", "2-3", "3-3", "3-4", "3-6"]
    assert result(r) == ("blocked", -1, points, 0, 13)


# Seat 0 ends up holding only sixes that fit train 1's hub end, train 1 has no
# marker, and nobody holds a 0 (the ends of train 0 and the Mexican train).
ASIF_HANDS = [
    ["0-6", "0-2", "0-3", "4-5", "2-6", "3-6", "4-6", "5-6", "1-1", "1-2", "2-2", "1-3", "3-3", "1-4"],
    ["1-6", "0-1", "2-3", "0-0", "0-4", "0-5", "2-4", "3-4", "4-4", "1-5", "2-5", "3-5", "5-5"],
]
ASIF_MOVES = ["1-6@2", "0-6@0", "0-1@3", "0-2@5", "2-3@6", "0-3@7", "0-0@8", "0-4@9", "4-5@10", "0-5@11"]


def test_blocked_counts_every_train_as_marked(dc):
    """M5: the yard is empty and the seat to move cannot place, but its sixes
    fit another seat's unmarked train: not blocked. Both seats pass; the
    second pass marks train 1 and the sixes go there."""
    r = mt(dc, ASIF_HANDS, starter=1)
    assert r.yard_size == 0
    for move in ASIF_MOVES:
        r.push(move)
    assert trains(r) == [(1, 6, 1), (4, 0, 0), (12, 0, 2)]
    assert r.current_player == 0
    assert markers(r) == (False, False)
    assert not r.is_over
    assert legal(r) == ["pass"]
    mt_reject(dc, r, "2-6@1", "not_your_train")
    mt_reject(dc, r, "draw", "yard_exhausted")
    r.push("pass")
    assert not r.is_over
    assert markers(r) == (True, False)
    assert legal(r) == ["pass"]  # seat 1: no 0, no 6
    r.push("pass")
    assert not r.is_over
    assert markers(r) == (True, True)
    assert legal(r) == ["2-6@1", "3-6@1", "4-6@1", "5-6@1"]


# --------------------------------------------------------------------------- records


def test_to_dict_and_from_dict_keep_markers_and_the_double(dc):
    r = mt(dc, DOUBLE_HANDS, DOUBLE_YARD)
    for move in DOUBLE_OPENING + ["draw", "pass"]:
        r.push(move)
    named = {"6-6", *DOUBLE_YARD, *(t for h in DOUBLE_HANDS for t in h)}
    rest = [t for t in set_tiles(6) if t not in named]
    assert r.to_dict() == {
        "version": 2,
        "rules": {
            "game": "mexican_train",
            "set": 6,
            "players": 3,
            "hand_size": 4,
            "drawn_tile": "must",
            "double_blank_50": False,
        },
        "round_index": 0,
        "deal": {
            "centre": "6-6",
            "starter": 0,
            "hands": [["0-0", "4-4", "4-6"], ["0-5", "1-6"], ["3-5", "2-6"]],
            "yard": DOUBLE_YARD + rest,
            "setup_draws": [],
            "highest_double": False,
        },
        "moves": DOUBLE_OPENING + ["draw", "pass"],
    }
    copy = dc.Round.from_dict(r.to_dict())
    assert state(copy) == state(r)
    assert markers(copy) == (True, False, False)
    assert copy.obligation == "double"
    for _ in range(6):
        copy.pop()
    assert state(copy) == state(mt(dc, DOUBLE_HANDS, DOUBLE_YARD))


@pytest.mark.parametrize("drawn_tile", ["must", "may"])
def test_seeded_records_round_trip(dc, drawn_tile):
    rules = dc.MexicanTrain(players=3, set=6, drawn_tile=drawn_tile)
    for seed in range(4):
        r = dc.Round(rules, seed=seed, round_index=seed)
        player = dc.RandomPlayer(seed)
        while not r.is_over:
            r.push(player.choose(r))
            if len(r.move_stack) == 12:
                mid = dc.Round.from_dict(r.to_dict())
                assert state(mid) == state(r)
        copy = dc.Round.from_dict(r.to_dict())
        assert copy.to_dict() == r.to_dict()
        assert state(copy) == state(r)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["deal"].update(centre="5-5"),  # round 0's engine is 6-6
        lambda d: d["deal"].update(centre="5-6"),
        lambda d: d.update(round_index=7),
        lambda d: d.update(round_index=1),  # round 1's engine is 5-5
        lambda d: d["deal"].update(starter=3),
        lambda d: d["deal"]["yard"].pop(),
        lambda d: d["deal"]["hands"][1].append("6-6"),  # the engine twice
        lambda d: d["moves"].append("1-6@0"),  # seat 1's tile; train 0 unmarked anyway
        lambda d: d["rules"].update(target=100),
    ],
)
def test_from_dict_rejects_bad_records(dc, corrupt):
    r = mt(dc, [["0-1", "3-6"], ["1-6", "2-2"], ["2-6"]])
    r.push("3-6@0")
    d = r.to_dict()
    corrupt(d)
    with pytest.raises(dc.StateError):
        dc.Round.from_dict(d)


def test_from_deal_needs_the_rounds_engine(dc):
    """M1: the centre is round k's engine, (N-k)-(N-k)."""
    rules = dc.MexicanTrain(players=2, set=6)
    tiles = [t for t in set_tiles(6) if t != "5-5"]
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, hands=[tiles[:4], tiles[4:8]], yard=tiles[8:], centre="5-5", starter=0)
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, hands=[tiles[:4], tiles[4:8]], yard=tiles[8:] + ["5-5"], centre=None, starter=0)
    r = dc.Round.from_deal(rules, hands=[tiles[:4], tiles[4:8]], yard=tiles[8:], centre="5-5", starter=1, round_index=1)
    assert str(r.centre) == "5-5"
    assert ends(r) == [(0, 5), (1, 5), (2, 5)]
    assert r.current_player == 1


def test_pop_at_the_deal_and_is_legal(dc):
    r = mt(dc, MARKER_HANDS, ["0-2"])
    before = state(r)
    with pytest.raises(dc.IllegalMoveError) as info:
        r.pop()
    assert info.value.reason == "no_move"
    assert state(r) == before
    assert r.is_legal("draw")
    assert not r.is_legal("pass")
    assert not r.is_legal("1-6@1")
    assert r.is_legal("1-6@1", player=1) is False  # not seat 1's turn


# --------------------------------------------------------------------------- bots, random play, simulate


def test_greedy_takes_the_heaviest_tile_on_its_first_placement(dc):
    """rules.md 1.6 greedy: the tile that counts most, on its first placement in
    canonical order (its own train before the Mexican train)."""
    r = mt(dc, [["3-6", "5-6", "2-2"], ["0-1"]])
    assert str(dc.GreedyPlayer().choose(r)) == "5-6@0"
    r = mt(dc, [["0-1"], ["1-6"]], ["0-2"])
    assert str(dc.GreedyPlayer().choose(r)) == "draw"


@pytest.mark.parametrize(
    "players, drawn_tile, double_blank_50", [(2, "must", False), (3, "may", True), (4, "must", True), (6, "may", False)]
)
def test_random_play_follows_the_rules_page(dc, players, drawn_tile, double_blank_50):
    """M2-M5 and M7 over seeded random rounds: after every move the legal listing
    is the page's (model_legal), a pass marks the passer's train, a placement
    on one's own train lifts the marker, a double not going out gives an
    extra turn; the round ends exactly when someone is out or M5 blocks, with
    M5's points."""
    rules = dc.MexicanTrain(players=players, set=6, drawn_tile=drawn_tile, double_blank_50=double_blank_50)
    for seed in range(12):
        r = dc.Round(rules, seed=seed, round_index=seed % 7)
        player = dc.RandomPlayer(seed)
        while not r.is_over:
            assert legal(r) == model_legal(r)
            assert legal(r, distinct=True) == legal(r)
            assert not model_blocked(r)
            mover = r.current_player
            before = markers(r)
            move = player.choose(r)
            train = r.train_of(move.end) if move.is_place else None
            r.push(move)
            after = markers(r)
            if str(move) == "pass":
                assert after[mover]
            elif move.is_place and train == mover:
                assert not after[mover]
            else:
                assert after == before
            if r.is_over:
                break
            if move.is_place and move.tile.is_double:
                assert r.current_player == mover
                assert r.obligation == "double"
            elif str(move) == "draw":
                assert r.current_player == mover
            else:
                assert r.current_player == (mover + 1) % players
        emptied = [s for s in range(players) if not r.hand(s)]
        assert r.result.reason == ("out" if emptied else "blocked")
        if not emptied:
            assert model_blocked(r)
        expected = tuple(sum(tile_pips(t, double_blank_50) for t in r.hand(s)) for s in range(players))
        assert tuple(r.result.points) == expected


def test_simulate_rounds_are_seeded_rounds(dc):
    rules = dc.MexicanTrain(players=4, set=9)
    sim = dc.simulate(rules, rounds=3, seed=77, round_index=5)
    for i in range(3):
        r = dc.Round(rules, seed=77 + i, round_index=5)
        player = dc.RandomPlayer(77 + i)
        while not r.is_over:
            r.push(player.choose(r))
        assert [int(x) for x in sim.points[i]] == list(r.result.points)
        assert int(sim.starter[i]) == r.result.starter == 1
        assert list(sim.reason)[i] == r.result.reason


# --------------------------------------------------------------------------- M6 the match


def expected_winners(results, players):
    """rules.md 2.5: lowest total; then more rounds at 0; then the lowest
    non-zero round score (a seat with none comes after); else shared."""

    def rank(s):
        scores = [res.points[s] for res in results]
        nonzero = [x for x in scores if x]
        return (sum(scores), -scores.count(0), min(nonzero) if nonzero else float("inf"))

    best = min(rank(s) for s in range(players))
    return tuple(s for s in range(players) if rank(s) == best)


@pytest.mark.parametrize("players, policy", [(2, "greedy"), (3, "random"), (5, "random")])
def test_match_has_n_plus_one_rounds(dc, players, policy):
    """M6: N+1 rounds in order (engines N-N down to 0-0, seat k mod p first),
    each dealt from the match's one generator; the lowest total wins with the
    Chicken Foot tie-breaks."""
    rules = dc.MexicanTrain(players=players, set=6)
    for seed in range(3):
        match = dc.Match(rules, seed=seed).play(policy)
        assert match.is_over
        assert len(match.rounds) == 7
        gen = dc.SplitMix64(seed)
        for k, r in enumerate(match.rounds):
            expected = expected_deal(dc, rules, gen, k)
            assert expected["centre"] == f"{6 - k}-{6 - k}"
            assert expected["starter"] == k % players
            assert r.to_dict()["deal"] == expected
            assert r.round_index == k
        totals = tuple(sum(res.points[s] for res in match.results) for s in range(players))
        assert tuple(match.totals) == totals
        assert tuple(match.winners) == expected_winners(match.results, players)
        with pytest.raises(dc.IllegalMoveError):
            match.new_round()
