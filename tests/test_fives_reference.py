"""All Fives and Fives and Threes in the pure-Python reference
(docs/games/all_fives.md, docs/games/fives_and_threes.md): the count and its
points, the spinner's arms, drawing until playable, scoring during play and
its undo, carried totals and the target, action ids, the greedy policy, the
per-step rewards and the match."""

from __future__ import annotations

import dominocore.reference as ref
import numpy as np
import pytest
from dominocore.reference.games import all_fives, fives_and_threes, fives_family

T6 = [ref.Tile(a, b) for b in range(7) for a in range(b + 1)]


def deal(rules, hands, yard_top=(), starter=0, carried=()):
    """A hand-built deal: ``hands`` as given, the yard ``yard_top`` first,
    then every other tile in index order."""
    hands = [[ref.Tile.parse(t) for t in h] for h in hands]
    top = [ref.Tile.parse(t) for t in yard_top]
    used = {t for h in hands for t in h} | set(top)
    yard = top + [t for t in T6 if t not in used]
    return ref.Round.from_deal(rules, hands, yard, None, starter, carried=carried)


def ids(r):
    return {e.id: (e.number, r._arms[e.id]) for e in r.open_ends}


# ------------------------------------------------------------------ F4, F5, T3: the count and its points


def test_points_of_the_count():
    assert [all_fives.points_of_count(c) for c in (0, 3, 5, 10, 15, 21, 30)] == [0, 0, 5, 10, 15, 0, 30]
    counts = (5, 6, 9, 10, 12, 15, 18, 20, 30, 7, 0)
    assert [fives_and_threes.points_of_count(c) for c in counts] == [1, 2, 3, 2, 4, 8, 6, 4, 16, 0, 0]


def test_the_example_of_f4_spinner_led_sides_after_the_ends():
    r = deal(ref.AllFives(), [["5-5", "3-5", "6-6", "1-1"], ["0-5", "2-5", "4-4", "1-6"]])
    r.push("5-5@0")
    assert ids(r) == {1: (5, 0), 2: (5, 1)}
    assert fives_family.count(r.layout, r._ends) == 10 and r.play_points == (10, 0)
    r.push("0-5@1")  # arm 0: 0, and the spinner still ends arm 1
    assert fives_family.count(r.layout, r._ends) == 10 and r.play_points == (10, 10)
    r.push("3-5@2")  # both line ends covered: 0 + 3, and the sides open after end 4
    assert ids(r) == {3: (0, 0), 4: (3, 1), 5: (5, 2), 6: (5, 3)}
    assert fives_family.count(r.layout, r._ends) == 3 and r.points_stack == [10, 10, 0]
    assert r.layout[-1].created == (4, 5, 6)
    r.push("2-5@5")  # on arm 2: 0 + 3 + 2
    assert fives_family.count(r.layout, r._ends) == 5
    assert r.play_points == (10, 15) and r.points_stack == [10, 10, 0, 5]
    assert ids(r) == {3: (0, 0), 4: (3, 1), 6: (5, 3), 7: (2, 2)}


def test_a_lead_counts_its_pips_once_and_fives_and_threes_scores_threes():
    r = deal(ref.FivesAndThrees(), [["1-2", "6-6", "1-1"], ["2-2", "4-4", "0-0"]])
    r.push("1-2@0")  # 3: one point for the three
    assert r.play_points == (1, 0)
    r.push("2-2@2")  # 1 + 4 (a double at an end counts both halves): 5, one point
    assert r.play_points == (1, 1) and fives_family.count(r.layout, r._ends) == 5
    assert ref.FivesAndThrees().arms == 2 and set(r._arms.values()) <= {0, 1}


def test_a_spinner_placed_on_an_arm():
    r = deal(ref.AllFives(), [["3-5", "0-3", "6-6"], ["5-5", "2-5", "4-4"]])
    r.push("3-5@0")  # ends 1 (3, arm 0), 2 (5, arm 1)
    r.push("5-5@2")  # the spinner on arm 1: its line end, no sides yet
    assert ids(r) == {1: (3, 0), 3: (5, 1)}
    assert fives_family.count(r.layout, r._ends) == 13 and r.play_points == (0, 0)
    r.push("0-3@1")  # 0 + 10
    assert r.play_points == (10, 0)
    r.push("2-5@3")  # covers the spinner's one line end: the sides open after end 5
    assert ids(r) == {4: (0, 0), 5: (2, 1), 6: (5, 2), 7: (5, 3)}
    assert fives_family.count(r.layout, r._ends) == 2 and r.layout[-1].created == (5, 6, 7)


def test_sides_at_once():
    rules = ref.AllFives(sides_open="at_once")
    r = deal(rules, [["5-5", "6-6", "1-1"], ["2-5", "4-4", "0-1"]])
    r.push("5-5@0")
    assert ids(r) == {1: (5, 0), 2: (5, 1), 3: (5, 2), 4: (5, 3)}
    assert r.layout[0].created == (1, 2, 3, 4) and r.play_points == (10, 0)
    r.push("2-5@3")  # a side first: the spinner still at both line ends counts once (10), and 2
    assert fives_family.count(r.layout, r._ends) == 12 and r.play_points == (10, 0)
    # a spinner placed on an arm opens its line end, then its sides
    r = deal(rules, [["3-5", "6-6", "1-1"], ["5-5", "4-4", "0-1"]])
    r.push("3-5@0")
    r.push("5-5@2")
    assert ids(r) == {1: (3, 0), 3: (5, 1), 4: (5, 2), 5: (5, 3)}
    assert r.layout[-1].created == (3, 4, 5) and fives_family.count(r.layout, r._ends) == 13


def test_no_spinner_plays_a_line():
    r = deal(ref.AllFives(spinner="none"), [["5-5", "3-5", "6-6"], ["0-5", "2-5", "4-4"]])
    r.push("5-5@0")
    r.push("0-5@1")
    r.push("3-5@2")
    assert ids(r) == {3: (0, 0), 4: (3, 1)} and r.num_actions == 2 * 28 + 2


# ------------------------------------------------------------------ F6: drawing


def test_draw_until_playable():
    # seat 1 holds nothing for a 6-6 lead: it draws 0-1, 1-2 (no six), then 3-6
    r = deal(ref.AllFives(), [["6-6", "0-0", "1-1"], ["2-2", "3-3", "4-4"]], yard_top=["0-1", "1-2", "3-6"])
    r.push("6-6@0")
    assert r.legal_moves() == [ref.Move.draw()]
    r.push("draw")
    assert r.drawn_tile == ref.Tile(0, 1) and r.legal_moves() == [ref.Move.draw()]
    assert not r.is_legal("pass")
    with pytest.raises(ref.IllegalMoveError) as info:
        r.push("pass")
    assert info.value.reason == "must_draw"
    r.push("draw")
    r.push("draw")
    assert r.legal_moves() == [ref.Move.parse("3-6@1"), ref.Move.parse("3-6@2")]
    with pytest.raises(ref.IllegalMoveError) as info:
        r.push("draw")
    assert info.value.reason == "must_place_drawn"
    r.push("3-6@1")
    assert r.points_stack == [0, 0, 0, 0, 15] and r.play_points == (0, 15)


def test_draw_until_the_reserve_then_pass():
    rules = ref.AllFives(hand_size=3)  # 22 in the yard, 2 of them never drawn
    hands = [["6-6", "0-0", "1-6"], ["2-2", "3-3", "4-4"]]
    held = {ref.Tile.parse(t) for h in hands for t in h}
    top = [str(t) for t in T6 if 6 not in (t.low, t.high) and t not in held]  # 17 tiles without a six
    r = deal(rules, hands, yard_top=top)
    r.push("6-6@0")
    while r.legal_moves() == [ref.Move.draw()]:
        r.push("draw")
    assert r.yard_size == 4 and r.drawn_tile.high == 6 and r.legal_moves()[0].tile == r.drawn_tile
    r = deal(ref.AllFives(hand_size=3, reserve=5), hands, yard_top=top)  # the five sixes out of play
    r.push("6-6@0")
    for _ in range(17):
        r.push("draw")
    assert r.yard_size == 5 and r.legal_moves() == [ref.Move.pass_()]
    assert not r.is_legal("draw")
    r.push("pass")
    assert r.current_player == 0


def test_draw_one():
    r = deal(ref.AllFives(draw="one"), [["6-6", "0-0", "1-1"], ["2-2", "3-3", "4-4"]], yard_top=["0-1", "3-6"])
    r.push("6-6@0")
    r.push("draw")
    assert r.legal_moves() == [ref.Move.pass_()]
    with pytest.raises(ref.IllegalMoveError) as info:
        r.push("draw")
    assert info.value.reason == "already_drew"


# ------------------------------------------------------------------ F5: undo; F7, F8: the end and the target


def test_pop_takes_the_points_back():
    r = deal(ref.AllFives(), [["5-5", "3-5", "6-6", "1-1"], ["0-5", "2-5", "4-4", "1-6"]])
    for move in ("5-5@0", "0-5@1", "3-5@2", "2-5@5"):
        r.push(move)
    assert r.play_points == (10, 15)
    r.pop()
    assert r.play_points == (10, 10) and r.points_stack == [10, 10, 0]
    r.pop()
    r.pop()
    assert r.play_points == (10, 0) and r.points_stack == [10]
    r.pop()
    assert r.play_points == (0, 0) and r.points_stack == []


def test_carried_and_the_target_stop_the_round():
    hands = [["5-5", "3-5", "6-6"], ["0-5", "2-5", "4-4"]]
    r = deal(ref.AllFives(), hands, carried=(140, 0))
    assert r.carried == (140, 0)
    r.push("5-5@0")
    assert r.is_over and r.result.reason == "target" and r.result.out_seat == -1
    assert r.result.play_points == (10, 0) and r.result.end_points == (0, 0) and r.result.points == (10, 0)
    r.pop()
    assert not r.is_over
    # without end_in_play the round goes on
    r = deal(ref.AllFives(end_in_play=False), hands, carried=(140, 0))
    r.push("5-5@0")
    assert not r.is_over


def test_out_beats_the_target():
    r = deal(ref.AllFives(), [["5-5"], ["0-5", "4-4"]], carried=(145, 0))
    r.push("5-5@0")
    assert r.result.reason == "out" and r.result.out_seat == 0
    # seat 1 holds 0-5, 4-4: 13 pips, 15 to the nearest five
    assert r.result.play_points == (10, 0) and r.result.end_points == (15, 0) and r.result.points == (25, 0)


@pytest.mark.parametrize(
    "out_points, expected", [("nearest_five", 10), ("exact", 12), ("one", 1)]
)  # fmt: skip
def test_points_at_the_end(out_points, expected):
    # seat 0 goes out with 0-1 on a 0-... lead? It leads its only tile: 0-1 counts 1
    r = deal(ref.AllFives(out_points=out_points), [["0-1"], ["6-6"]])
    r.push("0-1@0")
    assert r.result.end_points == (expected, 0)


def test_a_blocked_round_scores_the_unique_fewest():
    rules = ref.AllFives(spinner="none", hand_size=2, reserve=6)
    hands = [["6-6", "0-0"], ["1-1", "2-2"]]
    held = {ref.Tile.parse(t) for h in hands for t in h}
    top = [str(t) for t in T6 if 6 not in (t.low, t.high) and t not in held]  # the six sixes stay out of play
    r = deal(rules, hands, yard_top=top)
    r.push("6-6@0")
    while not r.is_over:
        r.push("draw")
    # nobody can play a six: seat 0 holds 0-0 (0 pips), the unique fewest
    assert r.result.reason == "blocked" and r.result.out_seat == -1
    left = sum(t.pips for t in r.hand(1))
    assert r.result.end_points == ((left + 2) // 5 * 5, 0) and r.result.play_points == (0, 0)
    assert fives_family.next_leader(rules, r.result, 1) == 0


def test_carried_is_checked():
    rules = ref.AllFives()
    hands = [["5-5", "3-5", "6-6"], ["0-5", "2-5", "4-4"]]
    for bad in ((-1, 0), (1, 2, 3), (1.5, 0), "12"):
        with pytest.raises(ref.StateError):
            deal(rules, hands, carried=bad)
    with pytest.raises(ref.StateError):
        deal(ref.AllFives(players=4, teams=2), hands + [["1-1"], ["2-2"]], carried=(10, 0, 5, 0))
    block = ref.Block()
    tiles = list(T6)
    with pytest.raises(ref.StateError):
        ref.Round.from_deal(block, [tiles[:7], tiles[7:14]], tiles[14:], None, 0, carried=(1, 0))
    assert ref.Round.from_deal(block, [tiles[:7], tiles[7:14]], tiles[14:], None, 0, carried=(0, 0)).carried == (0, 0)


def test_carried_in_the_record():
    hands = [["5-5", "3-5", "6-6"], ["0-5", "2-5", "4-4"]]
    r = deal(ref.AllFives(), hands)
    assert "carried" not in r.to_dict()["deal"]
    r = deal(ref.AllFives(), hands, carried=(12, 30))
    r.push("5-5@0")
    data = r.to_dict()
    assert data["deal"]["carried"] == [12, 30]
    again = ref.Round.from_dict(data)
    assert again.carried == (12, 30) and again.play_points == (10, 0) and again == r


# ------------------------------------------------------------------ F9: action ids and the listing


def test_action_ids_and_the_listing():
    rules = ref.AllFives()
    r = deal(rules, [["3-5", "5-5", "6-6"], ["0-5", "2-5", "4-4"]])
    lead = r.legal_moves()
    assert lead == [ref.Move.parse(m) for m in ("3-5@0", "5-5@0", "6-6@0")]
    assert r.legal_actions() == [4 * t.tile.index for t in lead]
    r.push("3-5@0")  # ends 1 (3, arm 0) and 2 (5, arm 1)
    moves = r.legal_moves()
    assert moves == [ref.Move.parse(m) for m in ("0-5@2", "2-5@2")]
    assert r.legal_moves(distinct=True) == moves
    assert r.legal_actions() == [4 * ref.Tile(0, 5).index + 1, 4 * ref.Tile(2, 5).index + 1]
    assert r.action_to_move(4 * ref.Tile(2, 5).index + 1) == ref.Move.parse("2-5@2")
    with pytest.raises(ref.IllegalMoveError):
        r.action_to_move(4 * ref.Tile(2, 5).index)
    assert rules.num_actions == 114 and r.num_actions == 114
    assert r.legal_action_mask().sum() == 2


def test_every_placement_is_listed_on_ends_of_one_number():
    r = deal(ref.AllFives(spinner="none"), [["5-5", "1-5", "6-6"], ["4-4", "0-1", "3-3"]], yard_top=["2-5"])
    r.push("5-5@0")
    r.push("draw")
    moves = r.legal_moves()
    assert moves == [ref.Move.parse("2-5@1"), ref.Move.parse("2-5@2")]
    assert r.legal_moves(distinct=True) == moves
    assert r.legal_actions() == [2 * ref.Tile(2, 5).index, 2 * ref.Tile(2, 5).index + 1]


# ------------------------------------------------------------------ F13: greedy


def test_greedy_takes_the_most_points():
    r = deal(ref.AllFives(), [["1-4", "5-6", "0-0"], ["4-4", "3-3", "2-2"]])
    # 5-6 counts most in hand but 1-4 scores 5 now
    assert ref.GreedyPlayer().choose(r) == ref.Move.parse("1-4@0")
    assert ref.GreedyPlayer().choose(r.view(0)) == ref.Move.parse("1-4@0")
    r = deal(ref.AllFives(), [["1-2", "5-6", "0-0"], ["4-4", "3-3", "2-2"]])
    assert ref.GreedyPlayer().choose(r) == ref.Move.parse("5-6@0")  # nothing scores: the heaviest tile


# ------------------------------------------------------------------ F12: observation planes


def test_observation_planes():
    rules = ref.AllFives(players=4, teams=2)
    hands = [["5-5", "3-5"], ["0-5", "2-5"], ["6-6", "1-1"], ["4-4", "0-1"]]
    r = deal(rules, hands, carried=(30, 15, 30, 15))
    r.push("5-5@0")
    tensor = r.observation_tensor(1)
    tail = tensor[-(4 + 4 + 2 + 4) :]
    np.testing.assert_allclose(tail[:4], [10 / 150, 0, 10 / 150, 0])
    np.testing.assert_allclose(tail[4:8], [30 / 150, 15 / 150, 30 / 150, 15 / 150])
    assert tail[8:10].tolist() == [1, 0] and tail[10:].tolist() == [0, 1, 0, 1]


# ------------------------------------------------------------------ information


def test_worlds_keep_carried_and_repeated_draws():
    r = deal(ref.AllFives(), [["6-6", "0-0", "1-1"], ["2-2", "3-3", "4-4"]], ["0-1", "1-2", "3-6"], carried=(5, 5))
    r.push("6-6@0")
    r.push("draw")
    r.push("draw")
    for seed in range(20):
        world = r.determinize(0, seed)
        assert world.carried == (5, 5) and world.information_state(0) == r.information_state(0)
        drawn = [tile for mover, move, tile in world._history() if move.kind == "draw"]
        # the first tile could not be placed (seat 1 drew again); the second is unknown
        assert len(drawn) == 2 and 6 not in (drawn[0].low, drawn[0].high)


# ------------------------------------------------------------------ VectorEnv: per-step rewards


@pytest.mark.parametrize("rules", [ref.AllFives(), ref.FivesAndThrees(players=3), ref.Block()], ids=str)
def test_step_rewards_add_up_to_the_margin(rules):
    env = ref.VectorEnv(rules, num_envs=3, seed=5)
    sums = np.zeros((3, rules.players))
    ended = 0
    for _ in range(400):
        before = [env.round(i) for i in range(3)]
        _, rewards, terms, _, _ = env.step_random()
        sums += rewards
        for i in np.flatnonzero(terms):
            before[i].apply_action(int(env.actions[i]))
            margins = rules.round_margins(list(before[i].result.points))
            np.testing.assert_allclose(sums[i], margins, atol=1e-4)
            sums[i] = 0
            ended += 1
    assert ended > 5


# ------------------------------------------------------------------ F2, F8: the match


def test_a_match_carries_totals_and_stops_at_the_target():
    stopped = 0
    for seed in range(30):
        m = ref.Match(ref.AllFives(target=60), seed=seed).play("greedy")
        totals = [0, 0]
        for k, (rnd, result) in enumerate(zip(m.rounds, m.results)):
            assert rnd.carried == tuple(totals)
            if k:
                previous = m.results[k - 1]
                leader = fives_family.next_leader(m.rules, previous, -1)
                assert rnd.starter == leader
                if previous.reason == "out":
                    assert rnd.starter == previous.out_seat
            totals = [a + b for a, b in zip(totals, result.points)]
        assert m.is_over and tuple(totals) == m.totals and max(totals) >= 60
        assert m.winners == tuple(s for s in range(2) if totals[s] == max(totals))
        if m.results[-1].reason == "target":
            stopped += 1
            assert m.results[-1].end_points == (0, 0)
        assert all(r.reason != "target" for r in m.results[:-1])
        assert ref.Match.from_dict(m.to_dict()).totals == m.totals
    assert stopped > 0


def test_random_rounds_keep_their_invariants():
    for rules in (ref.AllFives(), ref.AllFives(sides_open="at_once"), ref.FivesAndThrees(players=4, teams=2)):
        for seed in range(15):
            r = ref.Round(rules, seed=seed)
            bot = ref.RandomPlayer(seed)
            while not r.is_over:
                arms = list(r._arms.values())
                assert len(arms) == len(set(arms)) == len(r.open_ends) <= rules.arms
                r.push(bot.choose(r))
            result = r.result
            assert sum(r.points_stack) * (2 if rules.teams else 1) == sum(result.play_points)
            assert result.points == tuple(a + b for a, b in zip(result.play_points, result.end_points))
            while r.move_stack:
                r.pop()
            assert r.play_points == (0,) * rules.players and r.points_stack == []
