"""Rule-by-rule scenario tests of Block (docs/games/block.md, sections B1..B8).

Written from the rules page alone, black box, against the public API of both
implementations: every test builds an exact position (``Round.from_deal``) or a
seeded one and asserts exact outcomes (set-up, legal listings in canonical
order, end ids, action ids, rejection reasons with the state unchanged,
results, match leaders). Deals are recomputed independently with
``SplitMix64`` (docs/rules.md 1.6). "B3" means docs/games/block.md B3.
"""

from __future__ import annotations

import pytest
from scenario_helpers import by_index, deal, ends, hand, legal, observe, reject, result, set_tiles

# --------------------------------------------------------------------------- helpers


def block(dc, hands, yard=(), centre=None, starter=0, players=None, rest=None, **options):
    """A hand-built Block round: the tiles not named are out of play (the yard),
    or go to the hand of seat ``rest``."""
    rules = dc.Block(players=players or len(hands), **options)
    return deal(dc, rules, centre, hands, yard, starter=starter, rest=rest)


def tile_str(dc, i):
    return str(dc.Tile.from_index(i))


def pips(text):
    a, b = text.split("-")
    return int(a) + int(b)


def hand_pips(r, seat):
    return sum(t.low + t.high for t in r.hand(seat))


def shuffled_deck(dc, gen, n_tiles):
    deck = list(range(n_tiles))
    gen.shuffle(deck)
    return deck


def expected_deal(dc, rules, gen, leader):
    """B1 + B2, independently: one shuffle of the set in index order; seat s takes
    positions s*h .. s*h+h-1; the rest stays out of play in deck order. Under
    ``highest_double`` the holder of the highest double leads it as the centre,
    and the record says the set-up looked for it (docs/information.md 2), whether
    or not a double was dealt. Block never draws at the set-up."""
    p, h, t = rules.players, rules.hand_size, rules.tile_count
    deck = shuffled_deck(dc, gen, t)
    hands = [sorted(deck[s * h : (s + 1) * h]) for s in range(p)]
    centre, starter = None, leader
    if rules.lead == "highest_double":
        held = [(i, s) for s in range(p) for i in hands[s] if dc.Tile.from_index(i).is_double]
        if held:
            centre, starter = max(held)
            hands[starter].remove(centre)
    return {
        "centre": None if centre is None else tile_str(dc, centre),
        "starter": starter,
        "hands": [[tile_str(dc, i) for i in hd] for hd in hands],
        "yard": [tile_str(dc, i) for i in deck[p * h :]],
        "setup_draws": [],
        "highest_double": rules.lead == "highest_double",
    }


def round_winner(r):
    """B5, independently, from the final hands: the seat that went out, or the
    unique lowest pip count of a blocked round; None on a shared lowest count."""
    res = r.result
    if res.reason == "out":
        return res.out_seat
    counts = [hand_pips(r, s) for s in range(r.rules.players)]
    low = min(counts)
    return counts.index(low) if counts.count(low) == 1 else None


def expected_points(r):
    """B5 scoring, from the final hands."""
    p = r.rules.players
    winner = round_winner(r)
    counts = [hand_pips(r, s) for s in range(p)]
    if winner is None:
        return tuple([0] * p)
    return tuple(sum(counts) - counts[winner] if s == winner else 0 for s in range(p))


def model_legal(r):
    """B3 + B4 from the page, on the public state: every tile of the mover's hand
    on every open end it fits (the lead end fits anything), canonical order
    (tile index, end id); Pass when there is none."""
    seat = r.current_player
    moves = []
    for t in sorted(r.hand(seat), key=lambda t: t.index):
        for e in sorted(r.open_ends, key=lambda e: e.id):
            if e.number is None or e.number in (t.low, t.high):
                moves.append(f"{t}@{e.id}")
    return moves or ["pass"]


def anyone_can_place(r):
    return any(
        e.number is None or e.number in (t.low, t.high)
        for s in range(r.rules.players)
        for t in r.hand(s)
        for e in r.open_ends
    )


# --------------------------------------------------------------------------- rules objects (table, B1)


def test_block_defaults(dc):
    r = dc.Block()
    assert (r.game, r.set, r.players, r.hand_size, r.target, r.max_rounds, r.lead) == (
        "block",
        6,
        2,
        7,
        100,
        1000,
        "winner",
    )
    assert r.reserve == 28 - 14  # B1: every undealt tile is out of play
    assert r.slots == 1  # the lead end
    assert r.double_blank_50 is False  # B5: the double-blank counts 0
    assert r.num_actions == 58  # B4: 2T + 2
    assert r.rounds is None  # a match plays to the target (B6)
    assert r.to_dict() == {
        "game": "block",
        "set": 6,
        "players": 2,
        "hand_size": 7,
        "target": 100,
        "max_rounds": 1000,
        "lead": "winner",
    }


@pytest.mark.parametrize(
    "n, sizes",
    [
        (6, {2: 7, 3: 5, 4: 5}),  # B1: the double-6 figures
        (9, {2: 13, 3: 9, 4: 9}),  # floor(h * 55 / 28)
        (12, {2: 22, 3: 16, 4: 16}),  # floor(h * 91 / 28)
        (18, {2: 47, 3: 33, 4: 33}),  # floor(h * 190 / 28)
    ],
)
def test_block_hand_sizes(dc, n, sizes):
    """B1: 7 with 2 players, 5 with 3 or 4 on double-6; floor(h * T / 28) on double-N."""
    for p, h in sizes.items():
        assert h == (7 if p == 2 else 5) * dc.tile_count(n) // 28
        rules = dc.Block(players=p, set=n)
        assert rules.hand_size == h
        assert rules.reserve == dc.tile_count(n) - p * h
        assert rules.num_actions == 2 * dc.tile_count(n) + 2


def test_block_options_that_are_accepted(dc):
    assert dc.Block(players=4, hand_size=7).reserve == 0  # 4 * 7 = 28 <= T
    assert dc.Block(players=2, hand_size=14).hand_size == 14
    assert dc.Block(players=3, hand_size=9).hand_size == 9  # floor(28 / 3)
    assert dc.Block(hand_size=1).reserve == 26
    assert dc.Block(set=18, players=4).players == 4
    assert dc.Block(target=1).target == 1
    assert dc.Block(target=1_000_000).target == 1_000_000
    assert dc.Block(max_rounds=1).max_rounds == 1
    assert dc.Block(max_rounds=100_000).max_rounds == 100_000
    assert dc.Block(lead="highest_double").lead == "highest_double"
    rules = dc.Block(players=3, set=9, hand_size=4, target=50, max_rounds=7, lead="highest_double")
    assert dc.rules_from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["lead"] == "highest_double"


@pytest.mark.parametrize(
    "options",
    [
        {"set": 5},
        {"set": 19},
        {"players": 1},
        {"players": 5},
        {"hand_size": 0},
        {"hand_size": 15},  # 2 * 15 > 28
        {"players": 3, "hand_size": 10},  # 30 > 28
        {"players": 4, "hand_size": 8},  # 32 > 28
        {"target": 0},
        {"target": 1_000_001},
        {"max_rounds": 0},
        {"max_rounds": 100_001},
        {"lead": "loser"},
        {"lead": None},
        {"lead": 0},
        {"players": 2.0},
        {"players": True},
        {"hand_size": "7"},
        {"double_blank_50": True},  # not a Block option
        {"drawn_tile": "may"},  # nobody draws in Block
        {"trains": 2},
        {"colour": "red"},
    ],
)
def test_block_rules_rejected(dc, options):
    with pytest.raises(dc.RulesError):
        dc.Block(**options)


def test_block_rules_from_dict_rejects_unknown_options(dc):
    with pytest.raises(dc.RulesError):
        dc.rules_from_dict({"game": "block", "colour": "red"})
    with pytest.raises(dc.RulesError):
        dc.rules_from_dict({"game": "block", "double_blank_50": False})
    assert dc.rules_from_dict({"game": "block"}) == dc.Block()


# --------------------------------------------------------------------------- B1 the deal, B2 who leads


@pytest.mark.parametrize("players, seed", [(2, 0), (2, 7), (3, 1), (4, 12345)])
def test_deal_and_winner_lead_of_a_round_on_its_own(dc, players, seed):
    """B1: one shuffle, seat s takes positions s*h..; the rest out of play in deck
    order. B2: a round on its own, round index 0, is led by seat 0 by a move;
    no centre, empty layout, the lead end 0 without a number."""
    rules = dc.Block(players=players)
    expected = expected_deal(dc, rules, dc.SplitMix64(seed), leader=0)
    r = dc.Round(rules, seed=seed)
    assert r.to_dict()["deal"] == expected
    assert [hand(r, s) for s in range(players)] == expected["hands"]
    assert [str(t) for t in r.yard] == expected["yard"]
    assert r.yard_size == 28 - players * rules.hand_size
    assert r.centre is None
    assert list(r.layout) == []
    assert r.starter == 0
    assert r.current_player == 0
    assert ends(r) == [(0, None)]
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert tuple(r.markers) == (False,) * players
    assert r.train_of(0) is None
    assert r.drawn_tile is None
    assert not r.is_over
    assert legal(r) == [f"{t}@0" for t in expected["hands"][0]]


@pytest.mark.parametrize("players, round_index, leader", [(2, 1, 1), (2, 4, 0), (3, 5, 2), (4, 3, 3), (4, 9, 1)])
def test_winner_lead_rotates_with_the_round_index(dc, players, round_index, leader):
    """B2: a round built on its own is led by seat round_index mod p; the round
    index does not change the deal (the round's generator is its own seed)."""
    rules = dc.Block(players=players)
    r = dc.Round(rules, seed=99, round_index=round_index)
    assert r.starter == leader
    assert r.current_player == leader
    assert r.centre is None
    expected = expected_deal(dc, rules, dc.SplitMix64(99), leader=leader)
    assert r.to_dict()["deal"] == expected
    assert r.to_dict()["round_index"] == round_index


def seeds_where(dc, rules, want_double, count=3):
    """The first seeds whose deal does (or does not) put a double in some hand."""
    found = []
    seed = 0
    while len(found) < count:
        deck = shuffled_deck(dc, dc.SplitMix64(seed), rules.tile_count)
        dealt = deck[: rules.players * rules.hand_size]
        if any(dc.Tile.from_index(i).is_double for i in dealt) == want_double:
            found.append(seed)
        seed += 1
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_highest_double_leads_it_as_the_centre(dc, players):
    """B2 highest_double: the holder of the highest double of all the hands leads
    it; the set-up places it (that is their turn), the next seat moves, and the
    double opens ends 0 and 1, both of its number."""
    rules = dc.Block(players=players, lead="highest_double")
    for seed in seeds_where(dc, rules, want_double=True):
        expected = expected_deal(dc, rules, dc.SplitMix64(seed), leader=0)
        r = dc.Round(rules, seed=seed)
        assert r.to_dict()["deal"] == expected
        d = int(expected["centre"].split("-")[0])
        assert str(r.centre) == expected["centre"]
        assert r.starter == expected["starter"]
        assert r.current_player == (expected["starter"] + 1) % players
        assert ends(r) == [(0, d), (1, d)]
        assert [str(p.tile) for p in r.layout] == [expected["centre"]]
        assert r.layout[0].end is None
        assert list(r.move_stack) == []
        assert sum(len(h) for h in expected["hands"]) == players * rules.hand_size - 1


def test_highest_double_without_any_double_falls_back_to_the_winner_lead(dc):
    """B2: if no hand holds a double, the leader is chosen as under "winner" and
    leads any tile."""
    rules = dc.Block(players=2, hand_size=2, lead="highest_double")
    for seed in seeds_where(dc, rules, want_double=False):
        for round_index in (0, 1):
            r = dc.Round(rules, seed=seed, round_index=round_index)
            expected = expected_deal(dc, rules, dc.SplitMix64(seed), leader=round_index % 2)
            assert expected["centre"] is None
            assert r.to_dict()["deal"] == expected
            assert r.centre is None
            assert r.starter == r.current_player == round_index % 2
            assert ends(r) == [(0, None)]
            assert list(r.layout) == []


def test_from_deal_with_a_double_centre(dc):
    """B2: a hand-built position may give any double as centre: already led by the
    starter; the next seat moves; ends 0 and 1 of its number."""
    r = block(dc, [["1-2", "2-5"], ["3-4", "4-6", "6-6"], ["0-0"]], centre="4-4", starter=2)
    assert str(r.centre) == "4-4"
    assert r.starter == 2
    assert r.current_player == 0
    assert ends(r) == [(0, 4), (1, 4)]
    assert legal(r) == ["pass"]  # seat 0 holds no 4
    r.push("pass")
    assert legal(r) == ["3-4@0", "3-4@1", "4-6@0", "4-6@1"]
    assert legal(r, distinct=True) == ["3-4@0", "4-6@0"]
    assert list(r.legal_actions()) == [27, 50]  # 3-4 (13) by its 4; 4-6 (25) by its 4
    r.push("4-6@1")  # the next end id is 2
    assert ends(r) == [(0, 4), (2, 6)]
    assert r.to_dict()["deal"]["centre"] == "4-4"


def test_from_deal_without_a_centre_whatever_the_lead_option(dc):
    """B2: centre None: the starter moves first and leads, even under highest_double."""
    r = block(dc, [["1-2"], ["6-6", "3-3"]], starter=1, lead="highest_double")
    assert r.centre is None
    assert r.current_player == 1
    assert ends(r) == [(0, None)]
    assert legal(r) == ["3-3@0", "6-6@0"]
    assert r.to_dict()["deal"]["centre"] is None


# --------------------------------------------------------------------------- B3 the lead and the line of play


def test_the_lead_end_takes_any_tile(dc):
    """B3: before the lead one end, id 0, without a number: any tile may be led,
    written a-b@0, action id 2*i (never 2*i + 1)."""
    r = block(dc, [["6-6", "0-1", "3-5"], ["2-3", "1-4"]])
    assert ends(r) == [(0, None)]
    assert legal(r) == ["0-1@0", "3-5@0", "6-6@0"]
    assert legal(r, distinct=True) == ["0-1@0", "3-5@0", "6-6@0"]
    assert list(r.legal_actions()) == [2, 36, 54]
    assert r.move_to_action("3-5@0") == 36
    assert str(r.action_to_move(36)) == "3-5@0"
    assert r.legal_action_mask()[36] and not r.legal_action_mask()[37]
    for action in (3, 37, 55, 56, 57):  # 2i + 1 never leads; Draw and Pass are not legal
        before = observe(r)
        with pytest.raises(dc.IllegalMoveError) as info:
            r.apply_action(action)
        assert info.value.reason == "illegal_action"
        assert observe(r) == before
    assert r.is_legal("3-5@0")
    assert r.is_legal("5-3@0")
    assert not r.is_legal("3-5@1")


@pytest.mark.parametrize(
    "lead, opened",
    [("3-5", [(1, 3), (2, 5)]), ("0-6", [(1, 0), (2, 6)]), ("4-4", [(1, 4), (2, 4)]), ("0-0", [(1, 0), (2, 0)])],
)
def test_the_lead_opens_ends_1_and_2(dc, lead, opened):
    """B3: the lead a-b (a <= b) removes the lead end and opens end 1 of number a
    and end 2 of number b; a double opens ends 1 and 2 of its number."""
    r = block(dc, [[lead, "1-2"], []], rest=1)  # seat 1 holds every other tile
    r.apply_action(2 * dc.Tile.parse(lead).index)
    assert [str(m) for m in r.move_stack] == [f"{lead}@0"]
    assert ends(r) == opened
    assert r.current_player == 1
    assert str(r.layout[0].tile) == lead
    assert r.layout[0].end == 0
    assert tuple(r.layout[0].created) == (1, 2)
    r.pop()
    assert ends(r) == [(0, None)]
    assert r.current_player == 0
    assert list(r.layout) == []
    assert hand(r, 0) == by_index(dc, [lead, "1-2"])


def test_line_of_play_ends_and_ids(dc):
    """B3 + rules.md 1.3: a tile removes the end it matches and opens one end of
    its other half, with the next end id; there are always two open ends."""
    hands = [["3-5", "2-3", "5-6", "0-0"], ["1-2", "6-6", "4-4", "0-4"]]
    r = block(dc, hands)
    r.push("3-5@0")
    assert ends(r) == [(1, 3), (2, 5)]
    assert legal(r) == ["pass"]  # seat 1: no 3, no 5
    r.push("pass")
    assert legal(r) == ["2-3@1", "5-6@2"]
    assert list(r.legal_actions()) == [17, 52]  # 2-3 (8) by its 3 (high); 5-6 (26) by its 5 (low)
    r.push("2-3@1")
    assert ends(r) == [(2, 5), (3, 2)]
    assert legal(r) == ["1-2@3"]
    assert list(r.legal_actions()) == [9]  # 1-2 (4) by its 2
    r.push("1-2@3")
    assert ends(r) == [(2, 5), (4, 1)]
    r.push("5-6@2")
    assert ends(r) == [(4, 1), (5, 6)]
    assert legal(r) == ["6-6@5"]
    assert list(r.legal_actions()) == [54]  # a double: 2i


def test_doubles_are_not_spinners(dc):
    """B3: a double v-v on an end of number v removes it and opens ONE end of
    number v; no extra turn, nothing pending, no number locked."""
    r = block(dc, [["3-5", "1-3", "0-2"], ["5-5", "1-1", "4-5"]])
    r.push("3-5@0")
    assert legal(r) == ["4-5@2", "5-5@2"]
    r.push("5-5@2")
    assert ends(r) == [(1, 3), (3, 5)]
    assert r.current_player == 0
    assert r.obligation is None
    assert list(r.pending_ends) == []
    assert legal(r) == ["1-3@1"]
    r.push("1-3@1")
    assert ends(r) == [(3, 5), (4, 1)]
    assert legal(r) == ["1-1@4", "4-5@3"]
    r.push("1-1@4")
    assert ends(r) == [(3, 5), (5, 1)]
    assert len(r.open_ends) == 2


def test_both_ends_of_one_number_distinct_keeps_the_lower_end(dc):
    """B4: when both open ends show the same number, the distinct listing keeps
    the placement on the lower end id, and the action id stands for it."""
    r = block(dc, [["6-6", "0-1"], ["4-6", "2-6", "3-3"]])
    r.push("6-6@0")
    assert ends(r) == [(1, 6), (2, 6)]
    assert legal(r) == ["2-6@1", "2-6@2", "4-6@1", "4-6@2"]
    assert legal(r, distinct=True) == ["2-6@1", "4-6@1"]
    assert list(r.legal_actions()) == [47, 51]
    assert r.move_to_action("4-6@2") == 51
    assert str(r.action_to_move(51)) == "4-6@1"
    r.push("4-6@2")
    assert ends(r) == [(1, 6), (3, 4)]


def test_a_tile_fitting_both_ends_by_different_halves(dc):
    """rules.md 1.3 + 1.8: attaching by either half are two moves, 2i and 2i+1."""
    r = block(dc, [["3-5", "0-1"], ["3-6", "5-6"]])
    r.push("3-5@0")
    r.push("3-6@1")  # ends: 2 (5), 3 (6)
    assert ends(r) == [(2, 5), (3, 6)]
    r.push("pass")  # seat 0: 0-1 fits nothing
    assert legal(r) == ["5-6@2", "5-6@3"]
    assert list(r.legal_actions()) == [52, 53]  # 5-6 (26): by its 5 on end 2, by its 6 on end 3
    assert str(r.action_to_move(52)) == "5-6@2"
    assert str(r.action_to_move(53)) == "5-6@3"
    r.apply_action(53)
    assert ends(r) == [(2, 5), (4, 5)]
    assert result(r) == ("out", 1, (0, 1), 0, 4)  # seat 0 still holds 0-1


# --------------------------------------------------------------------------- B4 a turn


def test_must_place_when_possible(dc):
    """B4: a seat holding a legal placement must place; it may not pass or draw."""
    r = block(dc, [["3-5", "0-1"], ["5-6", "1-1"]])
    reject(dc, r, "pass", "must_place")
    reject(dc, r, "draw", "must_place")
    r.push("3-5@0")
    reject(dc, r, "pass", "must_place")
    reject(dc, r, "draw", "must_place")


def test_a_seat_without_placement_passes_and_never_draws(dc):
    """B4: no legal placement -> Pass (id 2T + 1); there is no drawing, the
    reason is yard_exhausted (the whole rest is out of play)."""
    r = block(dc, [["3-5", "0-1", "1-3"], ["1-1", "0-6"]])
    r.push("3-5@0")
    assert not r.is_over  # seat 0's 1-3 still fits
    assert legal(r) == ["pass"]
    assert list(r.legal_actions()) == [57]
    assert r.yard_size == 23
    reject(dc, r, "draw", "yard_exhausted")
    before = observe(r)
    with pytest.raises(dc.IllegalMoveError) as info:
        r.apply_action(56)  # the Draw id 2T is never legal
    assert info.value.reason == "illegal_action"
    assert observe(r) == before
    r.apply_action(57)
    assert [str(m) for m in r.move_stack] == ["3-5@0", "pass"]
    assert r.current_player == 0
    assert r.yard_size == 23
    assert r.drawn_tile is None
    assert legal(r) == ["1-3@1"]


def test_draw_is_never_legal_even_at_the_lead(dc):
    r = block(dc, [["3-5"], ["1-1"]])
    assert "draw" not in legal(r)
    reject(dc, r, "draw", "must_place")


def test_rejection_reasons_in_order(dc):
    """validation.md / engine.md: round_over, not_your_turn, not_in_hand,
    end_not_open, no_match, in this order; each leaves the state unchanged."""
    r = block(dc, [["3-5", "0-1", "2-2"], ["5-6", "1-1", "4-4"]], yard=["6-6"])
    reject(dc, r, "3-5@0", "not_your_turn", player=1)
    reject(dc, r, "5-6@0", "not_your_turn", player=1)  # seat 1's tile, not its turn
    reject(dc, r, "5-6@0", "not_in_hand")  # seat 1's tile
    reject(dc, r, "6-6@0", "not_in_hand")  # a tile out of play
    reject(dc, r, "5-6@7", "not_in_hand")  # before end_not_open
    reject(dc, r, "3-5@1", "end_not_open")  # not created yet
    r.push("3-5@0")
    reject(dc, r, "5-6@0", "end_not_open")  # the lead end is gone
    reject(dc, r, "4-4@0", "end_not_open")  # before no_match
    reject(dc, r, "4-4@1", "no_match")
    reject(dc, r, "5-6@1", "no_match")
    reject(dc, r, "1-1@2", "no_match")
    reject(dc, r, "pass", "not_your_turn", player=0)
    r.push("5-6@2", player=1)
    assert ends(r) == [(1, 3), (3, 6)]


def test_round_over_rejects_everything(dc):
    r = block(dc, [["3-5"], ["1-1", "0-6"]])
    r.push("3-5@0")
    assert r.is_over
    assert r.current_player == -1
    assert list(r.legal_moves()) == []
    assert list(r.legal_actions()) == []
    for move in ("1-1@1", "pass", "draw", "0-6@0"):
        reject(dc, r, move, "round_over")
    reject(dc, r, "0-6@1", "round_over", player=1)


def test_pass_hands_the_turn_on_round_the_table(dc):
    """B4 + B5 with 4 seats: seats that cannot place pass in turn while another
    seat still can; the round blocks once nobody can."""
    hands = [["3-5", "5-5", "0-2"], ["1-1", "0-0"], ["2-2", "4-6"], ["3-6", "0-1"]]
    r = block(dc, hands)
    r.push("3-5@0")
    assert (r.current_player, legal(r)) == (1, ["pass"])
    r.push("pass")
    assert (r.current_player, legal(r)) == (2, ["pass"])
    r.push("pass")
    assert (r.current_player, legal(r)) == (3, ["3-6@1"])
    r.push("3-6@1")
    assert ends(r) == [(2, 5), (3, 6)]
    assert (r.current_player, legal(r)) == (0, ["5-5@2"])
    r.push("5-5@2")
    assert ends(r) == [(3, 6), (4, 5)]
    assert (r.current_player, legal(r)) == (1, ["pass"])
    r.push("pass")
    assert (r.current_player, legal(r)) == (2, ["4-6@3"])
    r.push("4-6@3")  # ends 4 (5) and 5 (4): 0-2, 1-1, 0-0, 2-2 and 0-1 fit neither
    assert ends(r) == [(4, 5), (5, 4)]
    assert r.is_over
    # pips 2, 2, 4, 1: seat 3 wins 2 + 2 + 4
    assert result(r) == ("blocked", -1, (0, 0, 0, 8), 0, 7)


# --------------------------------------------------------------------------- B5 end of a round and scoring


def test_out_on_the_lead(dc):
    """B5: the seat that places its last tile wins and scores every other hand's
    pips; the double-blank counts 0; the others score 0."""
    r = block(dc, [["3-4"], ["0-0", "1-2"]])
    r.push("3-4@0")
    assert r.is_over
    assert r.current_player == -1
    assert result(r) == ("out", 0, (3, 0), 0, 1)


def test_out_scores_all_the_other_hands(dc):
    hands = [["3-5", "1-6"], ["5-6", "6-6"], ["3-3", "0-4", "2-2"]]
    r = block(dc, hands, starter=1)
    assert r.current_player == 1
    r.push("5-6@0")  # ends 1 (5), 2 (6)
    r.push("pass")  # seat 2: no 5, no 6
    r.push("3-5@1")  # seat 0: ends 2 (6), 3 (3)
    r.push("6-6@2")  # seat 1 goes out
    assert r.is_over
    # seat 0: 1-6 = 7; seat 2: 3-3 + 0-4 + 2-2 = 14
    assert result(r) == ("out", 1, (0, 21, 0), 1, 4)


def test_out_on_a_double(dc):
    r = block(dc, [["0-3", "3-3"], ["0-5", "4-4"]])
    r.push("0-3@0")
    r.push("0-5@1")
    r.push("3-3@2")
    assert result(r) == ("out", 0, (8, 0), 0, 3)  # seat 1 holds 4-4


def test_out_at_set_up(dc):
    """rules.md 1.5 (the common ground): the end is checked right after the
    set-up: a starter whose only tile was the centre double is out at once."""
    r = block(dc, [[], ["1-2", "3-4"]], centre="6-6", starter=0)
    assert r.is_over
    assert r.current_player == -1
    assert result(r) == ("out", 0, (10, 0), 0, 0)
    assert list(r.legal_moves()) == []


@pytest.mark.parametrize(
    "hands, moves, points",
    [
        # seat 0 holds 5-5 (10), seat 1 6-6 (12): seat 0 wins 12
        ([["0-1", "5-5"], ["1-2", "6-6"]], ["0-1@0", "1-2@2"], (12, 0)),
        # 10 and 10: a shared lowest count scores nobody
        ([["0-1", "5-5"], ["1-2", "4-6"]], ["0-1@0", "1-2@2"], (0, 0)),
        # seat 1 holds 0-0 (0) against 3-4 (7): the double-blank counts 0
        ([["1-2", "3-4"], ["1-5", "0-0"]], ["1-2@0", "1-5@1"], (0, 7)),
        # three seats: 8, 7, 23 -> seat 1 wins 8 + 23
        ([["0-1", "4-4"], ["1-2", "3-4"], ["6-6", "5-6"]], ["0-1@0", "1-2@2"], (0, 31, 0)),
        # 8, 8, 23: the two lowest share: nobody scores, even against 23
        ([["0-1", "4-4"], ["1-2", "3-5"], ["6-6", "5-6"]], ["0-1@0", "1-2@2"], (0, 0, 0)),
    ],
)
def test_blocked_round_scoring(dc, hands, moves, points):
    """B5: blocked when no seat holds a legal placement (checked after every
    move); the unique lowest pip count wins the others' pips; a shared lowest
    count scores nobody."""
    r = block(dc, hands)
    for move in moves[:-1]:
        r.push(move)
        assert not r.is_over
    r.push(moves[-1])
    assert r.is_over
    assert r.current_player == -1
    assert list(r.legal_moves()) == []
    assert result(r) == ("blocked", -1, points, 0, len(moves))
    reject(dc, r, "pass", "round_over")


def test_blocked_after_a_pass_and_a_placement(dc):
    """B5 with passes before the block: the moves count includes the Pass."""
    r = block(dc, [["0-1", "2-3", "5-5"], ["1-2", "4-4"], ["6-6", "4-6"]])
    r.push("0-1@0")  # ends 1 (0), 2 (1)
    r.push("1-2@2")  # ends 1 (0), 3 (2)
    assert r.current_player == 2
    assert legal(r) == ["pass"]
    reject(dc, r, "draw", "yard_exhausted")
    r.push("pass")
    assert not r.is_over
    r.push("2-3@3")  # ends 1 (0), 4 (3): 5-5, 4-4, 6-6 and 4-6 fit neither
    assert r.is_over
    # 10, 8, 22: seat 1 wins 32
    assert result(r) == ("blocked", -1, (0, 32, 0), 0, 4)


def test_blocked_as_soon_as_nobody_can_place(dc):
    """B5: the round goes on while any seat holds a legal placement and blocks
    right after the move that leaves none."""
    r = block(dc, [["0-1", "2-2"], ["3-4", "1-5"]])
    r.push("0-1@0")  # ends 1 (0), 2 (1): seat 1's 1-5 fits
    assert not r.is_over
    r.push("1-5@2")  # ends 1 (0), 3 (5): seat 0's 2-2 does not fit, seat 1's 3-4 neither
    assert r.is_over
    assert result(r) == ("blocked", -1, (7, 0), 0, 2)  # 4 against 7


def test_pop_undoes_the_end_of_a_round(dc):
    r = block(dc, [["0-1", "5-5"], ["1-2", "6-6"]])
    r.push("0-1@0")
    fresh = observe(r)
    r.push("1-2@2")
    assert r.is_over
    assert str(r.pop()) == "1-2@2"
    assert observe(r) == fresh
    assert not r.is_over
    assert r.result is None


# --------------------------------------------------------------------------- records


def test_to_dict_of_a_block_round(dc):
    """Records: the deal has centre None, the starter, the hands in index order
    and the out-of-play tiles in deck order under yard."""
    hands = [["3-5", "0-1"], ["5-6", "1-1"]]
    r = block(dc, hands, yard=["6-6", "2-2"], starter=1)
    r.push("5-6@0")
    r.push("3-5@1")
    rest = [t for t in set_tiles(6) if t not in {"3-5", "0-1", "5-6", "1-1", "6-6", "2-2"}]
    assert r.to_dict() == {
        "version": 2,
        "rules": {
            "game": "block",
            "set": 6,
            "players": 2,
            "hand_size": 7,
            "target": 100,
            "max_rounds": 1000,
            "lead": "winner",
        },
        "round_index": 0,
        "deal": {
            "centre": None,
            "starter": 1,
            "hands": [["0-1", "3-5"], ["1-1", "5-6"]],
            "yard": ["6-6", "2-2"] + rest,
            "setup_draws": [],
            "highest_double": False,
        },
        "moves": ["5-6@0", "3-5@1"],
    }
    copy = dc.Round.from_dict(r.to_dict())
    assert observe(copy) == observe(r)
    assert str(copy.pop()) == "3-5@1"
    assert str(copy.pop()) == "5-6@0"
    assert ends(copy) == [(0, None)]
    assert copy.current_player == 1


@pytest.mark.parametrize("lead", ["winner", "highest_double"])
def test_seeded_records_round_trip(dc, lead):
    rules = dc.Block(players=3, lead=lead)
    for seed in range(5):
        r = dc.Round(rules, seed=seed, round_index=seed)
        player = dc.RandomPlayer(seed)
        while not r.is_over:
            r.push(player.choose(r))
        d = r.to_dict()
        copy = dc.Round.from_dict(d)
        assert copy.to_dict() == d
        assert observe(copy) == observe(r)
        assert result(copy) == result(r)
        assert d["deal"]["highest_double"] is (lead == "highest_double")
        again = dc.Round.from_deal(
            rules,
            d["deal"]["hands"],
            d["deal"]["yard"],
            d["deal"]["centre"],
            d["deal"]["starter"],
            seed,
            setup_draws=d["deal"]["setup_draws"],
            highest_double=d["deal"]["highest_double"],
        )
        assert observe(again) == observe(dc.Round(rules, seed=seed, round_index=seed))


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["deal"].update(centre="5-6"),  # a centre must be a double
        lambda d: d["deal"].update(starter=2),
        lambda d: d["deal"]["yard"].pop(),  # a tile missing
        lambda d: d["deal"]["yard"].append("0-1"),  # a tile twice
        lambda d: d["moves"].append("draw"),  # never legal in Block
        lambda d: d["moves"].append("1-1@0"),  # the lead end is gone
        lambda d: d["rules"].update(lead="loser"),
        lambda d: d["rules"].update(double_blank_50=True),
    ],
)
def test_from_dict_rejects_bad_block_records(dc, corrupt):
    r = block(dc, [["3-5", "0-1"], ["5-6", "1-1"]], starter=1)
    r.push("5-6@0")
    d = r.to_dict()
    corrupt(d)
    with pytest.raises(dc.StateError):
        dc.Round.from_dict(d)


def test_from_deal_rejects_a_centre_that_is_not_a_double(dc):
    """B2: a hand-built centre is None or a double; the deal holds every tile once."""
    rules = dc.Block(players=2)
    tiles = [t for t in set_tiles(6) if t != "5-6"]
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, hands=[tiles[:7], tiles[7:14]], yard=tiles[14:], centre="5-6", starter=0)
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, hands=[tiles[:7], tiles[7:14]], yard=tiles[14:], centre=None, starter=0)
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, hands=[tiles[:7], tiles[7:14]], yard=tiles[14:] + ["5-6"], centre=None, starter=2)


def test_pop_at_the_deal_and_is_legal(dc):
    r = block(dc, [["3-5", "0-1"], ["5-6", "1-1"]])
    before = observe(r)
    with pytest.raises(dc.IllegalMoveError) as info:
        r.pop()
    assert info.value.reason == "no_move"
    assert observe(r) == before
    assert r.is_legal("0-1@0")
    assert not r.is_legal("draw")
    assert not r.is_legal("pass")
    assert not r.is_legal("5-6@0")
    assert not r.is_legal("0-1@0", player=1)
    r.push("3-5@0")
    assert r.is_legal("5-6@2")
    assert not r.is_legal("5-6@1")


# --------------------------------------------------------------------------- bots and batches


def test_greedy_leads_the_heaviest_tile(dc):
    """rules.md 1.6 greedy: the tile that counts most, the earliest in canonical
    order on equal value."""
    r = block(dc, [["2-6", "3-5", "0-1"], ["1-1"]])
    assert str(dc.GreedyPlayer().choose(r)) == "3-5@0"  # 8 = 8: 3-5 (18) before 2-6 (23)
    r = block(dc, [["6-6", "5-6", "0-1"], ["1-1"]])
    assert str(dc.GreedyPlayer().choose(r)) == "6-6@0"
    r = block(dc, [["3-5", "0-1", "1-3"], ["1-1", "0-6"]])
    r.push("3-5@0")
    assert str(dc.GreedyPlayer().choose(r)) == "pass"


def test_random_play_follows_the_rules_page(dc):
    """B3-B5 over seeded random rounds of every player count: after every move the
    legal listing is the page's (model_legal), the distinct listing drops only
    same-number twins, and the round ends exactly when someone is out or nobody
    can place, with B5's points."""
    for players in (2, 3, 4):
        for lead in ("winner", "highest_double"):
            rules = dc.Block(players=players, lead=lead)
            for seed in range(15):
                r = dc.Round(rules, seed=seed)
                player = dc.RandomPlayer(seed)
                while True:
                    if r.is_over:
                        emptied = any(not r.hand(s) for s in range(players))
                        assert emptied or not anyone_can_place(r)
                        assert result(r)[0] == ("out" if emptied else "blocked")
                        assert tuple(r.result.points) == expected_points(r)
                        break
                    assert anyone_can_place(r)
                    assert legal(r) == model_legal(r)
                    full = legal(r)
                    kept = legal(r, distinct=True)
                    numbers = {e.id: e.number for e in r.open_ends}
                    seen = set()
                    expected_kept = []
                    for m in full:
                        if m == "pass":
                            expected_kept.append(m)
                            continue
                        t, e = m.split("@")
                        key = (t, numbers[int(e)])
                        if key not in seen:
                            seen.add(key)
                            expected_kept.append(m)
                    assert kept == expected_kept
                    assert len(r.open_ends) == (1 if numbers == {0: None} else 2)
                    r.push(player.choose(r))


def test_simulate_rounds_are_seeded_rounds(dc):
    """rules.md 1.6: simulate(rounds=n, seed=s) plays round i with seed s + i and a
    random player seeded s + i."""
    rules = dc.Block(players=3)
    sim = dc.simulate(rules, rounds=4, seed=30, round_index=2)
    for i in range(4):
        r = dc.Round(rules, seed=30 + i, round_index=2)
        player = dc.RandomPlayer(30 + i)
        while not r.is_over:
            r.push(player.choose(r))
        assert [int(x) for x in sim.points[i]] == list(r.result.points)
        assert int(sim.starter[i]) == r.result.starter == 2
        assert list(sim.reason)[i] == r.result.reason


# --------------------------------------------------------------------------- B6 the match, B2 leaders


def check_match(dc, match, seed):
    """B2 leaders, B6 deals, end and winners, recomputed from the rounds."""
    rules = match.rules
    p = rules.players
    gen = dc.SplitMix64(seed)
    leader = 0
    totals = [0] * p
    results = match.results
    assert len(results) == len(match.rounds)
    for k, r in enumerate(match.rounds):
        expected = expected_deal(dc, rules, gen, leader)
        assert r.to_dict()["deal"] == expected, f"round {k}"
        assert r.round_index == k
        assert r.starter == expected["starter"]
        assert tuple(r.result.points) == expected_points(r)
        totals = [a + b for a, b in zip(totals, r.result.points)]
        if k < len(match.rounds) - 1:
            assert max(totals) < rules.target
        winner = round_winner(r)
        leader = winner if winner is not None else (r.starter + 1) % p
    assert tuple(match.totals) == tuple(totals)
    assert match.is_over
    assert max(totals) >= rules.target or len(match.rounds) == rules.max_rounds
    best = max(totals)
    assert tuple(match.winners) == tuple(s for s in range(p) if totals[s] == best)


@pytest.mark.parametrize(
    "players, target, lead, policy",
    [(2, 100, "winner", "random"), (3, 60, "winner", "greedy"), (4, 50, "highest_double", "random")],
)
def test_match_leaders_deals_and_winners(dc, players, target, lead, policy):
    """B2: round 0 led by seat 0, each later round by the previous winner, or by
    the previous leader's left neighbour after a round nobody won. B6: each
    round continues the match generator; the match ends when a total reaches
    the target; the highest total wins."""
    rules = dc.Block(players=players, target=target, lead=lead)
    for seed in range(4):
        match = dc.Match(rules, seed=seed).play(policy)
        check_match(dc, match, seed)


def test_leader_after_a_round_nobody_won(dc):
    """B2: after a round with a shared lowest count, (leader + 1) mod p leads."""
    rules = dc.Block(players=3, target=1000)
    found = 0
    for seed in range(60):
        match = dc.Match(rules, seed=seed)
        leader = 0
        while not match.is_over and len(match.rounds) < 40:
            r = match.new_round()
            assert r.starter == leader
            player = dc.RandomPlayer(seed * 1000 + len(match.rounds))
            while not r.is_over:
                r.push(player.choose(r))
            winner = round_winner(r)
            if winner is None:
                found += 1
                assert tuple(r.result.points) == (0, 0, 0)
            leader = winner if winner is not None else (leader + 1) % 3
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize("seed", range(6))
def test_max_rounds_ends_the_match(dc, seed):
    """B6: after max_rounds rounds the match ends; equal highest totals share."""
    rules = dc.Block(players=2, max_rounds=1)
    match = dc.Match(rules, seed=seed).play("greedy")
    assert len(match.rounds) == 1
    points = tuple(match.results[0].points)
    best = max(points)
    assert tuple(match.winners) == tuple(s for s in range(2) if points[s] == best)
    with pytest.raises(dc.IllegalMoveError):
        match.new_round()


def test_target_one_ends_after_the_first_scoring_round(dc):
    rules = dc.Block(players=2, target=1)
    for seed in range(10):
        match = dc.Match(rules, seed=seed).play("random")
        scored = [i for i, res in enumerate(match.results) if sum(res.points) > 0]
        assert scored and scored[0] == len(match.results) - 1
        check_match(dc, match, seed)
