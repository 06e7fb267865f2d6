"""Engine micro-benchmarks for both implementations (pytest-benchmark).

    python -m pytest bench --benchmark-enable --benchmark-group-by=func

Chicken Foot ``trains``, double-9, 4 players unless named otherwise.
"""

from __future__ import annotations

import random

import pytest


def middle_position(dc, seed=3, plies=20):
    """A seeded round after ``plies`` greedy moves: a typical search node."""
    r = dc.Round(dc.ChickenFoot(players=4), seed=seed)
    greedy = dc.GreedyPlayer()
    for _ in range(plies):
        r.push(greedy.choose(r))
    return r


def test_legal_moves(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.legal_moves)


def test_legal_actions(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.legal_actions)


def test_push_pop(benchmark, dc):
    r = middle_position(dc)
    move = r.legal_moves()[0]

    def push_pop():
        r.push(move)
        r.pop()

    benchmark(push_pop)


def test_clone(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.clone)


def random_round_step_loop(dc, rules, seed):
    """A whole random round through the step interface (action ids)."""
    rng = random.Random(seed)
    r = dc.Round(rules, seed=seed)
    n = 0
    while not r.is_over:
        r.apply_action(rng.choice(r.legal_actions()))
        n += 1
    return n


def test_random_round_step_loop(benchmark, dc):
    rules = dc.ChickenFoot(players=4)
    seeds = iter(range(10**9))
    benchmark(lambda: random_round_step_loop(dc, rules, next(seeds)))


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_batch(benchmark, dc, threads):
    rules = dc.ChickenFoot(players=4)
    rounds = 20_000 if dc.IMPLEMENTATION == "cpp" else 100
    benchmark.extra_info["rounds"] = rounds
    benchmark(dc.simulate, rules, rounds=rounds, seed=1, threads=threads)


def test_learned_move(benchmark, dc):
    """The learned policy's move in a mid-game position (docs/learning.md)."""
    r = middle_position(dc)
    player = dc.LearnedPlayer()
    player.choose(r)  # loads the shipped network before timing
    benchmark(player.choose, r)
