"""The compiled core's All Fives and Fives and Threes (docs/games/all_fives.md,
docs/games/fives_and_threes.md): the count and the points of play, the
spinner's arms, drawing until a tile fits, undo, the target, the action ids,
the per-step rewards of VectorEnv and the greedy policy. Written against the
core alone (``dominocore.native``)."""

from __future__ import annotations

import random
from typing import List, Sequence

import dominocore as dc
import numpy as np
import pytest
from dominocore.common.errors import IllegalMoveError, RulesError, StateError
from dominocore.common.tiles import Tile, as_tile, tile_count
from dominocore.common.vector_env import round_seed
from helpers import import_core

native = import_core()  # the whole module skips where the core is not installed
Match, Round, VectorEnv = native.Match, native.Round, native.VectorEnv
GreedyPlayer = import_core("dominocore.native.players").GreedyPlayer


def make(rules, hands: Sequence[Sequence[str]], yard_top: Sequence[str] = (), starter: int = 0, carried=()):
    """A deal: the hands, the yard's top tiles in order, the rest of the set after them."""
    used = {str(as_tile(t)) for h in hands for t in h} | {str(as_tile(t)) for t in yard_top}
    rest = [str(Tile.from_index(i)) for i in range(tile_count(rules.set)) if str(Tile.from_index(i)) not in used]
    return Round.from_deal(rules, hands, list(yard_top) + rest, None, starter, carried=carried)


def play(r: Round, *moves: str) -> List[int]:
    """Push the moves; the points each scored."""
    before = len(r.points_stack)
    for m in moves:
        r.push(m)
    return r.points_stack[before:]


def test_rules_defaults_and_options():
    assert dc.AllFives().num_actions == Round(dc.AllFives(), seed=0).num_actions == 4 * 28 + 2
    assert Round(dc.FivesAndThrees(), seed=0).num_actions == 2 * 28 + 2
    assert Round(dc.FivesAndThrees(spinner="first"), seed=0).num_actions == 4 * 28 + 2
    assert Round(dc.FivesAndThrees(players=4), seed=0).yard_size == 0
    for rules in (
        dc.AllFives(players=3, reserve=0, draw="one", out_points="exact"),
        dc.FivesAndThrees(teams=2, players=4),
    ):
        r = Round(rules, seed=5)
        assert r.rules == rules and len(r.hand(0)) == rules.hand_size


def test_f4_count_example_spinner_led_after_ends():
    rules = dc.AllFives()
    r = make(
        rules, [["5-5", "5-3", "0-0", "0-1", "1-1", "1-2", "2-2"], ["5-0", "5-2", "3-3", "3-4", "4-4", "4-6", "6-6"]]
    )
    assert play(r, "5-5@0") == [10]  # 5-5 alone counts 10
    assert [e.id for e in r.open_ends] == [1, 2]
    assert play(r, "5-0@1") == [10]  # 0 + 10: the spinner still at the end of arm 1
    assert play(r, "5-3@2") == [0]  # 0 + 3, and the sides open
    assert [(e.id, e.number) for e in r.open_ends] == [(3, 0), (4, 3), (5, 5), (6, 5)]
    assert play(r, "5-2@5") == [5]  # 0 + 3 + 2
    assert r.play_points == (10, 15)
    assert r.points_stack == [10, 10, 0, 5]
    # Arms: end 3 is arm 0, end 4 arm 1, end 6 arm 3, end 7 (on 5-2) arm 2.
    A = 4
    acts = r.legal_actions()
    assert acts == sorted(acts)
    for a in acts[:-1] if acts[-1] >= A * 28 else acts:
        m = r.action_to_move(a)
        arm = {3: 0, 4: 1, 6: 3, 7: 2}[m.end]
        assert a == A * m.tile.index + arm


def test_spinner_on_an_arm_opens_its_sides_after_its_end():
    rules = dc.AllFives()
    r = make(
        rules, [["3-5", "5-1", "0-0", "0-1", "1-1", "1-2", "2-2"], ["5-5", "3-3", "3-4", "4-4", "4-6", "6-6", "2-6"]]
    )
    assert play(r, "3-5@0") == [0]  # 8
    assert play(r, "5-5@2") == [0]  # 3 + 10 = 13, no sides yet
    assert [(e.id, e.number) for e in r.open_ends] == [(1, 3), (3, 5)]
    assert play(r, "5-1@3") == [0]  # 3 + 1 = 4: the spinner stops counting; sides 5, 6
    assert [(e.id, e.number) for e in r.open_ends] == [(1, 3), (4, 1), (5, 5), (6, 5)]
    obs = r.observation_tensor(0)
    extra = obs[-(2 * 2 + 2) :]
    assert list(extra[-2:]) == [1.0, 1.0]  # a spinner is down, its sides open


def test_sides_at_once():
    rules = dc.AllFives(sides_open="at_once")
    r = make(
        rules, [["5-5", "0-0", "0-1", "1-1", "1-2", "2-2", "2-3"], ["5-0", "5-2", "3-3", "3-4", "4-4", "4-6", "6-6"]]
    )
    assert play(r, "5-5@0") == [10]
    assert [(e.id, e.number) for e in r.open_ends] == [(1, 5), (2, 5), (3, 5), (4, 5)]
    assert play(r, "5-0@1") == [10]  # 0 + 10 + empty sides
    r.push("0-0@5")  # 0-0 on the new end 5 of arm 0: 0 + 10 = 10
    assert r.points_stack[-1] == 10
    assert play(r, "5-2@3") == [0]  # 0 (0-0 counts both halves: 0) + 10 + 2 = 12
    # the listing is by tile, then end id; the ids ascending
    acts = r.legal_actions()
    assert acts == sorted(acts)


def test_spinner_none_double_counts_both_halves():
    rules = dc.AllFives(spinner="none")
    r = make(
        rules, [["5-5", "0-0", "0-1", "1-1", "1-2", "2-2", "2-3"], ["5-0", "5-2", "3-3", "3-4", "4-4", "4-6", "6-6"]]
    )
    assert play(r, "5-5@0", "5-0@1") == [10, 10]
    assert [e.id for e in r.open_ends] == [2, 3]
    assert r.num_actions == 2 * 28 + 2


@pytest.mark.parametrize(
    "set_,tile,points",
    [
        (6, "2-3", 1),
        (6, "3-3", 2),
        (6, "4-5", 3),
        (6, "5-5", 2),
        (6, "6-6", 4),
        (9, "6-9", 8),
        (9, "9-9", 6),
        (12, "10-10", 4),
        (18, "15-15", 16),
        (6, "1-3", 0),
    ],
)
def test_t3_fives_and_threes_points(set_, tile, points):
    rules = dc.FivesAndThrees(set=set_, hand_size=1)
    r = make(rules, [[tile], ["0-0" if tile != "0-0" else "0-1"]])
    r.push(f"{tile}@0")
    assert r.points_stack == [points]


def test_draw_until_playable():
    rules = dc.AllFives()
    hands = [["6-6", "0-0", "0-1", "1-1", "1-2", "2-2", "0-2"], ["3-3", "3-4", "4-4", "3-5", "4-5", "5-5", "0-3"]]
    r = make(rules, hands, yard_top=["1-3", "2-3", "1-4", "1-6", "2-6"])
    r.push("6-6@0")
    assert [str(m) for m in r.legal_moves()] == ["draw"]
    r.push("draw")  # 1-3 does not fit
    assert [str(m) for m in r.legal_moves()] == ["draw"]
    assert not r.is_legal("pass")
    with pytest.raises(IllegalMoveError) as info:
        r.push("pass")
    assert info.value.reason == "must_draw"
    r.push("draw")
    r.push("draw")
    assert [str(m) for m in r.legal_moves()] == ["draw"]
    r.push("draw")  # 1-6 fits
    assert [str(m) for m in r.legal_moves()] == ["1-6@1", "1-6@2"]
    assert not r.is_legal("draw")
    r.push("1-6@1")
    assert r.drawn_tile is None
    # taking the moves back restores the yard and the points
    while r.move_stack:
        r.pop()
    assert r.yard_size == 28 - 14 and r.play_points == (0, 0)


def test_draw_one_passes_after_one_draw():
    rules = dc.AllFives(draw="one")
    hands = [["6-6", "0-0", "0-1", "1-1", "1-2", "2-2", "0-2"], ["3-3", "3-4", "4-4", "3-5", "4-5", "5-5", "0-3"]]
    r = make(rules, hands, yard_top=["1-3", "2-3"])
    r.push("6-6@0")
    r.push("draw")
    assert [str(m) for m in r.legal_moves()] == ["pass"]


def test_draw_stops_at_the_reserve():
    rules = dc.AllFives(reserve=12)  # 14 undealt: two draws at most
    hands = [["6-6", "0-0", "0-1", "1-1", "1-2", "2-2", "0-6"], ["3-3", "3-4", "4-4", "3-5", "4-5", "5-5", "0-3"]]
    r = make(rules, hands, yard_top=["1-3", "2-3", "1-6"])
    play(r, "6-6@0", "draw", "draw")
    assert [str(m) for m in r.legal_moves()] == ["pass"]


def test_undo_restores_play_points():
    r = Round(dc.AllFives(), seed=11)
    rng = random.Random(1)
    seen = []
    while not r.is_over:
        seen.append((r.play_points, r.legal_actions()))
        r.apply_action(rng.choice(r.legal_actions()))
    assert sum(r.points_stack) == r.play_points[0] + r.play_points[1]
    assert r.result.play_points == r.play_points
    assert r.result.points == tuple(a + b for a, b in zip(r.result.play_points, r.result.end_points))
    for points, acts in reversed(seen):
        r.pop()
        assert r.play_points == points and r.legal_actions() == acts
    assert r.points_stack == []


def test_partners_hold_the_team_points():
    rules = dc.AllFives(players=4, teams=2)
    r = Round(rules, seed=2)
    rng = random.Random(3)
    while not r.is_over:
        r.apply_action(rng.choice(r.legal_actions()))
        p = r.play_points
        assert p[0] == p[2] and p[1] == p[3]
    res = r.result
    assert res.points[0] == res.points[2] and res.points[1] == res.points[3]


def test_carried_and_target_stop():
    rules = dc.AllFives()
    hands = [["5-5", "5-3", "0-0", "0-1", "1-1", "1-2", "2-2"], ["5-0", "5-2", "3-3", "3-4", "4-4", "4-6", "6-6"]]
    r = make(rules, hands, carried=(145, 100))
    assert r.carried == (145, 100)
    assert r.to_dict()["deal"]["carried"] == [145, 100]
    r.push("5-5@0")
    assert r.is_over
    res = r.result
    assert res.reason == "target" and res.out_seat == -1
    assert res.play_points == (10, 0) and res.end_points == (0, 0) and res.points == (10, 0)
    assert Round.from_dict(r.to_dict()).result == res
    r.pop()
    assert not r.is_over and r.play_points == (0, 0)
    # a round played out keeps going
    r2 = make(dc.AllFives(end_in_play=False), hands, carried=(145, 100))
    r2.push("5-5@0")
    assert not r2.is_over


def test_out_beats_target():
    rules = dc.AllFives(hand_size=1)
    r = make(rules, [["5-5"], ["6-6"]], carried=(145, 0))
    r.push("5-5@0")
    assert r.result.reason == "out"
    assert r.result.play_points == (10, 0) and r.result.end_points == (10, 0)  # 12 rounds to 10


def test_carried_checks():
    rules = dc.AllFives(players=4, teams=2)
    hands = [
        ["5-5", "5-3", "0-0", "0-1", "1-1"],
        ["1-2", "2-2", "5-0", "5-2", "3-3"],
        ["3-4", "4-4", "4-6", "6-6", "0-2"],
        ["0-3", "0-4", "1-3", "1-4", "1-5"],
    ]
    with pytest.raises(StateError):
        make(rules, hands, carried=(10, 0, 5, 0))  # partners unequal
    with pytest.raises(StateError):
        make(rules, hands, carried=(-1, 0, -1, 0))
    with pytest.raises(StateError):
        make(rules, hands, carried=(1, 2))
    with pytest.raises(StateError):
        Round.from_deal(
            dc.Block(),
            [[str(Tile.from_index(i)) for i in range(7)], [str(Tile.from_index(i)) for i in range(7, 14)]],
            [str(Tile.from_index(i)) for i in range(14, 28)],
            None,
            0,
            carried=(3, 0),
        )
    r = make(rules, hands, carried=(10, 0, 10, 0))
    assert r.carried == (10, 0, 10, 0)
    assert "carried" not in make(rules, hands).to_dict()["deal"]


def test_match_carries_totals_and_target_ends_it():
    for rules in (dc.AllFives(target=60), dc.FivesAndThrees(players=4, teams=2, target=30)):
        m = Match(rules, seed=4).play("greedy")
        totals = [0] * rules.players
        for rd in m.rounds:
            assert list(rd.carried) == totals
            totals = [t + p for t, p in zip(totals, rd.result.points)]
        assert tuple(totals) == m.totals and max(totals) >= rules.target
        assert all(r.reason != "target" for r in m.results[:-1])
        assert Match.from_dict(m.to_dict()).totals == m.totals


def test_next_leader_is_the_winner():
    m = Match(dc.AllFives(target=400), seed=9).play("random", rounds=6)
    rounds = m.rounds
    for prev, nxt in zip(rounds, rounds[1:]):
        res = prev.result
        if res.out_seat >= 0:
            want = res.out_seat
        elif any(res.end_points):
            want = min(s for s in range(2) if res.end_points[s] > 0)
        else:
            want = (res.starter + 1) % 2
        assert nxt.starter == want


def test_vector_env_rewards_add_up_to_the_margin():
    rules = dc.FivesAndThrees()
    env = VectorEnv(rules, num_envs=3, seed=5, threads=1)
    env.reset(seed=5)
    replay = [Round(rules, seed=round_seed(5, i, 0)) for i in range(3)]
    sums = np.zeros((3, 2))
    episodes = [0, 0, 0]
    checked = 0
    nonzero_mid_round = False
    for _ in range(400):
        _, rewards, terms, _, _ = env.step_random()
        for i in range(3):
            replay[i].apply_action(int(env._actions[i]))
            sums[i] += rewards[i]
            if not terms[i] and rewards[i].any():
                nonzero_mid_round = True
            if terms[i]:
                res = replay[i].result
                assert res is not None
                assert np.allclose(sums[i], rules.round_margins(res.points), atol=1e-4)
                checked += 1
                sums[i] = 0
                episodes[i] += 1
                replay[i] = Round(rules, seed=round_seed(5, i, episodes[i]))
    assert checked >= 3 and nonzero_mid_round


def test_greedy_takes_the_most_points():
    rules = dc.AllFives()
    hands = [["6-6", "0-0", "0-1", "1-1", "1-2", "2-2", "0-2"], ["4-6", "5-6", "3-3", "3-4", "4-4", "0-3", "2-3"]]
    r = make(rules, hands)
    r.push("6-6@0")  # counts 12
    # 4-6 on an end: 6+... = 12 - 12 + 4 + 12 = 16 (0); 5-6: 5 + 12 = 17 (0): none scores, so the
    # tile counting most (5-6, 11 pips) on its first end.
    assert str(GreedyPlayer().choose(r)) == "5-6@1"
    r2 = make(
        rules, [["5-5", "0-0", "0-1", "1-1", "1-2", "2-2", "0-2"], ["5-0", "5-6", "3-3", "3-4", "4-4", "0-3", "2-3"]]
    )
    r2.push("5-5@0")
    # 5-0 scores 10 (0 + 10), 5-6 counts 6 + 10 = 16 and scores nothing
    assert str(GreedyPlayer().choose(r2)) == "0-5@1"


def test_random_rounds_stay_valid():
    for rules in (
        dc.AllFives(),
        dc.AllFives(players=3, sides_open="at_once"),
        dc.AllFives(players=4, teams=2, draw="one"),
        dc.FivesAndThrees(),
        dc.FivesAndThrees(spinner="first", sides_open="at_once", set=9, players=3),
    ):
        for seed in range(20):
            r = Round(rules, seed=seed)
            rng = random.Random(seed)
            while not r.is_over:
                acts = r.legal_actions()
                assert acts == sorted(acts) and acts
                moves = r.legal_moves()
                assert sorted(r.move_to_action(m) for m in moves) == acts
                r.apply_action(rng.choice(acts))
            assert len(r.points_stack) == len(r.move_stack)
            world = Round.from_dict(r.to_dict())
            assert world.result == r.result


def test_determinized_worlds_keep_carried_and_points():
    rules = dc.AllFives()
    r = Round(rules, seed=7)
    r = Round.from_deal(rules, r.hands, r.yard, None, 0, carried=(20, 40))
    rng = random.Random(2)
    for _ in range(12):
        if r.is_over:
            break
        r.apply_action(rng.choice(r.legal_actions()))
    if not r.is_over:
        w = r.determinize(r.current_player, seed=3)
        assert w.carried == (20, 40) and w.play_points == r.play_points
        assert w.points_stack == r.points_stack


def test_rules_refused_for_other_games():
    from dominocore._core import CoreRules  # noqa: F401

    with pytest.raises(RulesError):
        dc.AllFives(reserve=100)
