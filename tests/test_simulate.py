"""Batch simulation: the compiled core against the reference's simulate,
independent of the thread count, releasing the GIL, rejecting bad arguments."""

from __future__ import annotations

import threading
import time

import dominocore.reference as ref
import numpy as np
import pytest
from helpers import scaled

native = pytest.importorskip("dominocore._native")

RULES = [
    dict(game="chickenfoot", rule_set="trains", set=9, players=4),
    dict(game="chickenfoot", rule_set="trains", set=6, players=2, trains=3, double_blank_50=True),
    dict(game="chickenfoot", rule_set="cross", set=9, players=3),
    dict(game="doubles", set=6, players=2),
    dict(game="doubles", set=9, players=4, target=60),
    dict(game="block", set=6, players=2, target=50),
    dict(game="block", set=9, players=4, lead="highest_double", target=40),
    dict(game="mexican_train", set=6, players=3),
    dict(game="mexican_train", set=9, players=5, drawn_tile="may"),
]
POLICIES = ["random", "greedy", "per-seat"]
# Rounds a (rules, policy) pair simulated by both implementations (the reference's cost).
ROUNDS = scaled(60, 1000, "DOMINOCORE_SIM_ROUNDS")


def rules_pair(options):
    return ref.rules_from_dict(dict(options)), native.rules_from_dict(dict(options))


def policy_for(name, players):
    return ["greedy"] + ["random"] * (players - 1) if name == "per-seat" else name


def as_lists(result):
    return {
        "points": [list(map(int, p)) for p in result.points],
        "reason": [str(x) for x in result.reason],
        "out_seat": [int(x) for x in result.out_seat],
        "starter": [int(x) for x in result.starter],
        "moves": [int(x) for x in result.moves],
        "match_index": [int(x) for x in result.match_index],
        "totals": [list(map(int, t)) for t in result.totals],
        "winners": [list(map(bool, w)) for w in result.winners],
    }


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("options", RULES, ids=lambda o: f"{o.get('rule_set', o['game'])}-d{o['set']}-p{o['players']}")
def test_rounds_equal_the_reference(options, policy):
    a, b = rules_pair(options)
    pol = policy_for(policy, a.players)
    k = 2 if a.rounds is not None else 0
    seed = 2**64 - max(1, ROUNDS // 2)  # the seed wraps around 2^64 half way
    expected = ref.simulate(a, rounds=ROUNDS, seed=seed, round_index=k, policy=pol)
    got = native.simulate(b, rounds=ROUNDS, seed=seed, round_index=k, policy=pol, threads=2)
    assert as_lists(got) == as_lists(expected)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("options", RULES, ids=lambda o: f"{o.get('rule_set', o['game'])}-d{o['set']}-p{o['players']}")
def test_matches_equal_the_reference(options, policy):
    a, b = rules_pair(options)
    pol = policy_for(policy, a.players)
    expected = ref.simulate(a, matches=4, seed=99, policy=pol)
    got = native.simulate(b, matches=4, seed=99, policy=pol)
    assert as_lists(got) == as_lists(expected)


@pytest.mark.parametrize("dc", [ref, native], ids=["python", "cpp"])
def test_batch_seeds_wrap_around_2_64(dc):
    """1.6: game i of a batch is seeded seed + i (mod 2^64): after 2^64 - 1 comes 0."""
    rules = dc.Doubles(players=2, target=30)
    sim = dc.simulate(rules, matches=2, seed=2**64 - 1, policy="greedy")
    assert sim.totals.tolist() == [[39, 0], [0, 35]]
    expected = [dc.Match(rules, seed=s).play("greedy").totals for s in (2**64 - 1, 0)]
    assert [tuple(t) for t in sim.totals.tolist()] == [tuple(t) for t in expected]
    rounds = dc.simulate(rules, rounds=2, seed=2**64 - 1, round_index=3, policy="greedy")
    last = dc.Round(rules, seed=0, round_index=3)
    while not last.is_over:
        last.push(dc.GreedyPlayer().choose(last))
    assert rounds.points[1].tolist() == list(last.result.points) and rounds.moves[1] == last.result.moves


def test_result_arrays_have_the_documented_shapes_and_types():
    rules = native.ChickenFoot(players=4)
    r = native.simulate(rules, matches=3, seed=1)
    rounds = 3 * rules.rounds
    assert r.points.shape == (rounds, 4) and r.totals.shape == (3, 4) and r.winners.shape == (3, 4)
    assert r.winners.dtype == np.bool_ and set(np.unique(r.reason)) <= {"out", "blocked"}
    assert (r.totals == np.add.reduceat(r.points, np.arange(0, rounds, rules.rounds))).all()
    assert (r.match_index == np.repeat(np.arange(3), rules.rounds)).all()
    empty = native.simulate(rules, rounds=0, seed=1)
    assert empty.points.shape == (0, 4) and empty.totals.shape == (0, 4)


@pytest.mark.parametrize("mode", ["rounds", "matches"])
def test_thread_count_does_not_change_results(mode):
    rules = native.ChickenFoot(players=4, rule_set="cross")
    n = 3000 if mode == "rounds" else 40
    one = native.simulate(rules, seed=5, threads=1, **{mode: n})
    two = native.simulate(rules, seed=5, threads=2, **{mode: n})
    seven = native.simulate(rules, seed=5, threads=7, **{mode: n})
    for field in ("points", "reason", "out_seat", "starter", "moves", "match_index", "totals", "winners"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
        assert np.array_equal(getattr(one, field), getattr(seven, field)), field


@pytest.mark.parametrize("progress", [None, lambda done, total: None], ids=["plain", "with-progress"])
def test_simulate_releases_the_gil(progress):
    rules = native.ChickenFoot(players=4, set=12)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.01)
    before = len(ticks)
    try:
        native.simulate(rules, rounds=60_000, seed=1, threads=1, progress=progress)
        during = len(ticks) - before
    finally:
        done.set()
        counter.join()
    # The other thread ran while simulate worked (it would be frozen if simulate held the GIL).
    assert during >= 5


@pytest.mark.parametrize("dc_name", ["ref", "native"])
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(rounds=-1),
        dict(matches=-3),
        dict(rounds=1.5),
        dict(),
        dict(rounds=1, matches=1),
        dict(rounds=1, policy="smart"),
        dict(rounds=1, policy=["random", "greedy"]),
        dict(rounds=1, threads=0),
        dict(rounds=1, threads=-2),
        dict(rounds=1, round_index=10),
        dict(rounds=1, seed="x"),
    ],
)
def test_bad_arguments_raise(dc_name, kwargs):
    dc = ref if dc_name == "ref" else native
    with pytest.raises(dc.RulesError):
        dc.simulate(dc.ChickenFoot(players=4), **kwargs)
    with pytest.raises(dc.RulesError):
        dc.simulate("not rules", rounds=1)
