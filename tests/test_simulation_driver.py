"""The simulation drivers of the neutral layer (``dominocore.common.simulation``),
tested directly: they serve both engines, so the differential run cannot see
a fault in them. A fake engine records what the drivers ask of it.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from dominocore.common.checks import PLAYER_SEED_XOR
from dominocore.common.errors import RulesError
from dominocore.common.results import RoundResult, SimulationResult
from dominocore.common.simulate_args import check_simulate_args
from dominocore.common.simulation import check_chunk_seconds, play_games, simulate_iter
from dominocore.games import Doubles

RULES = Doubles(players=2)


class FakeRound:
    """A round that ends at once: its points say which seed dealt it."""

    made: list = []

    def __init__(self, rules, seed, round_index):
        self.args = (seed, round_index)
        FakeRound.made.append(self.args)
        self.is_over = False
        self.current_player = 0
        self.result = None

    def push(self, move):
        self.is_over = True
        self.result = RoundResult("out", 0, (self.args[0] % 100, move), 1, 3)


class FakeMatch:
    def __init__(self, rules, seed):
        self.seed = seed

    def play(self, entries):
        self.results = [RoundResult("blocked", -1, (self.seed, 1), 0, 9)] * 2
        self.totals = (2 * self.seed, 2)
        self.winners = (0,)
        return self


class Shared:
    """The random seats' player: its state is the seed it was given."""

    def __init__(self, state):
        self.seen = state

    def choose(self, round_):
        return 7

    def state(self):
        return self.seen


def drive(matches, n, threads=None, progress=None, entries=("random", "random")):
    FakeRound.made = []
    args = check_simulate_args(RULES, n if matches else None, None if matches else n, 5, 0, "random", threads, progress)
    return play_games(
        RULES,
        args,
        list(entries),
        round_type=FakeRound,
        match_type=FakeMatch,
        greedy=None,
        learned=None,
        shared_random=Shared,
    )


def test_rounds_are_seeded_in_order_and_recorded_as_the_engine_played_them():
    result = drive(False, 4)
    assert [seed for seed, _ in FakeRound.made] == [5, 6, 7, 8]
    assert result.points.tolist() == [[5, 7], [6, 7], [7, 7], [8, 7]]
    assert list(result.reason) == ["out"] * 4 and result.out_seat.tolist() == [0] * 4
    assert result.starter.tolist() == [1] * 4 and result.moves.tolist() == [3] * 4
    assert result.match_index.tolist() == [0, 1, 2, 3] and result.totals.shape == (0, 2)


def test_matches_give_every_round_and_the_totals():
    result = drive(True, 3)
    assert result.match_index.tolist() == [0, 0, 1, 1, 2, 2]
    assert result.totals.tolist() == [[10, 2], [12, 2], [14, 2]]
    assert result.winners.tolist() == [[True, False]] * 3
    assert set(result.reason) == {"blocked"}


def test_threads_change_nothing_and_progress_ends_at_the_total():
    calls = []
    one = drive(False, 40)
    many = drive(False, 40, threads=3, progress=lambda done, total: calls.append((done, total)))
    assert all(np.array_equal(getattr(one, k), getattr(many, k)) for k in SimulationResult._DTYPES)
    assert calls[-1] == (40, 40)


def test_the_shared_random_player_starts_from_the_game_seed():
    states = []

    class Seen(Shared):
        def __init__(self, state):
            states.append(state)
            super().__init__(state)

    FakeRound.made = []
    args = check_simulate_args(RULES, None, 2, 9, 0, "random", None, None)
    play_games(RULES, args, ["random", "random"], round_type=FakeRound, match_type=FakeMatch, greedy=None, learned=None,
               shared_random=Seen)  # fmt: skip
    assert states == [9 ^ PLAYER_SEED_XOR, 10 ^ PLAYER_SEED_XOR]


def fake_simulate(calls):
    def simulate(rules, seed, policy, threads, progress, rounds=None, matches=None, round_index=0):
        n = rounds if rounds is not None else matches
        calls.append((seed, n, policy, threads))
        if progress is not None:
            progress(n, n)
        return SimulationResult.from_arrays(
            2,
            points=[[seed + i, 0] for i in range(n)],
            reason=[0] * n, out_seat=[0] * n, starter=[0] * n, moves=[1] * n,
            match_index=list(range(n)), totals=[], winners=[],
        )  # fmt: skip

    return simulate


def test_simulate_iter_chunks_the_run_and_counts_match_index_over_it():
    calls, seen = [], []
    chunks = list(
        simulate_iter(RULES, rounds=7, seed=100, chunk_size=3, progress=lambda d, t: seen.append((d, t)),
                      _simulate=fake_simulate(calls))
    )  # fmt: skip
    assert [c.num_rounds for c in chunks] == [3, 3, 1]
    assert [seed for seed, *_ in calls] == [100, 103, 106]
    joined = SimulationResult.concatenate(chunks)
    assert joined.match_index.tolist() == list(range(7))
    assert joined.points[:, 0].tolist() == list(range(100, 107))
    assert seen[-1] == (7, 7)


def test_simulate_iter_checks_its_arguments_before_any_work():
    calls = []
    with pytest.raises(RulesError):
        simulate_iter(RULES, rounds=5, chunk_size=0, _simulate=fake_simulate(calls))
    with pytest.raises(RulesError):
        simulate_iter(RULES, rounds=5, policy="nobody", _simulate=fake_simulate(calls))
    assert calls == []


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), True, "1"])
def test_chunk_seconds_must_be_a_finite_positive_number(bad):
    with pytest.raises(RulesError):
        check_chunk_seconds(bad)


def test_chunk_seconds_sizes_chunks_from_the_measured_rate():
    calls = []
    chunks = list(simulate_iter(RULES, rounds=50, chunk_seconds=0.5, _simulate=fake_simulate(calls)))
    assert calls[0][1] == 8  # a small first chunk measures the rate
    assert sum(c.num_rounds for c in chunks) == 50 and len(chunks) < 50


def test_a_threaded_run_stops_its_games_when_progress_raises():
    started = threading.Event()

    class Slow:
        def choose(self, round_):
            started.set()
            return 1

    with pytest.raises(KeyboardInterrupt):
        drive(False, 200, threads=2, progress=lambda d, t: (_ for _ in ()).throw(KeyboardInterrupt),
              entries=(Slow(), Slow()))  # fmt: skip
    assert started.is_set()
