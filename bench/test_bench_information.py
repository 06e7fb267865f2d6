"""Information-model micro-benchmarks for both implementations (pytest-benchmark).

    python -m pytest bench/test_bench_information.py --benchmark-enable

A mid-game position of Chicken Foot ``trains``, double-9, 4 players, seen by
the seat to move (docs/information.md).
"""

from __future__ import annotations

import numpy as np
from test_bench_engine import middle_position


def test_view(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.view, r.current_player)


def test_information_state(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.information_state, r.current_player)


def test_information_state_hash(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.information_state_hash, r.current_player)


def test_observation_tensor_into_a_buffer(benchmark, dc):
    r = middle_position(dc)
    out = np.zeros(r.observation_tensor_shape, dtype=np.float32)
    benchmark(r.observation_tensor, r.current_player, out=out)


def test_observation_tensors_batch_of_256(benchmark, dc):
    rounds = [middle_position(dc, seed=s) for s in range(256)]
    seats = [r.current_player for r in rounds]
    out = np.zeros((len(rounds), *rounds[0].observation_tensor_shape), dtype=np.float32)
    benchmark(dc.Round.observation_tensors, rounds, seats, out=out)


def test_information_state_tensor(benchmark, dc):
    r = middle_position(dc)
    benchmark(r.information_state_tensor, r.current_player)


def test_determinize_one_shot(benchmark, dc):
    r = middle_position(dc)
    seeds = iter(range(10**9))
    benchmark(lambda: r.determinize(r.current_player, next(seeds)))


def test_determinizer_sample(benchmark, dc):
    r = middle_position(dc)
    sample = r.determinizer(r.current_player).sample
    seeds = iter(range(10**9))
    benchmark(lambda: sample(next(seeds)))
