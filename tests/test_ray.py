"""The Ray backend (dominocore.distributed, docs/tournaments.md 5): the same
arrays as the local run whatever the chunks, retried tasks, no gaps and no
duplicates. One local Ray instance for the whole module (Ray starts slowly);
skipped where Ray cannot be imported."""

from __future__ import annotations

import pathlib
import sys

import dominocore as dc
import numpy as np
import pytest
from dominocore.distributed import _simulate_chunk, run_chunks

ray = pytest.importorskip(
    "ray", reason="Ray is not installed (pip install 'dominocore[ray]'): the Ray backend is untested"
)

FIELDS = ("points", "reason", "out_seat", "starter", "moves", "match_index", "totals", "winners")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    """A local Ray instance of 2 CPUs, started once for the module."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    # the hooks below are defined in this test module, which Ray's workers cannot import
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    if started:
        ray.shutdown()


class FailOnce:
    """A task hook that makes chunk ``target`` raise on its first attempt only
    (the marker file tells the retry apart, in whatever worker it runs)."""

    def __init__(self, directory: pathlib.Path, target: int) -> None:
        self.directory, self.target = str(directory), target

    def __call__(self, index: int) -> None:
        (pathlib.Path(self.directory) / f"ran-{index}").touch()
        marker = pathlib.Path(self.directory) / "failed"
        if index == self.target and not marker.exists():
            marker.touch()
            raise RuntimeError(f"injected failure in chunk {index}")


def always_fail(index: int) -> None:
    raise ValueError(f"chunk {index} always fails")


def same(a, b):
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS)


def test_simulate_on_ray_is_the_local_run(dc):
    rules = dc.ChickenFoot(players=4, set=6)
    n = 2_000 if dc.IMPLEMENTATION == "cpp" else 60
    local = dc.simulate(rules, rounds=n, seed=12, policy=["greedy", "random", "random", "greedy"])
    for chunks in (1, 2, 5):
        remote = dc.simulate(
            rules, rounds=n, seed=12, policy=["greedy", "random", "random", "greedy"], backend="ray", chunks=chunks
        )
        assert same(local, remote), chunks
    matches = dc.simulate(dc.Doubles(players=2, target=40), matches=7, seed=3)
    assert same(matches, dc.simulate(dc.Doubles(players=2, target=40), matches=7, seed=3, backend="ray", chunks=5))
    assert same(local, dc.simulate(rules, rounds=n, seed=12, policy=["greedy", "random", "random", "greedy"],
                                   backend="ray"))  # fmt: skip


def test_tournament_on_ray_is_the_local_run(dc):
    rules = dc.ChickenFoot(players=3, set=6)
    bots = ["greedy", "random", lambda view: view.legal_actions()[-1]]
    local = dc.tournament(rules, bots, rounds=10, seed=4, progress=False)
    for chunks in (1, 2, 5):
        assert dc.tournament(rules, bots, rounds=10, seed=4, progress=False, backend="ray", chunks=chunks) == local
    shown = dc.tournament(rules, bots, rounds=10, seed=4, progress=True, backend="ray", chunks=3)
    assert shown == local and str(shown) == str(local)


def test_a_failed_task_is_retried_without_gaps_or_duplicates(tmp_path):
    rules = dc.Doubles(players=2)
    local = dc.simulate(rules, rounds=500, seed=1)
    hook_dir = tmp_path / "sim"
    hook_dir.mkdir()
    # simulate() takes no hook: its chunk function goes through run_chunks with one
    payload = ("cpp", rules, False, 1, 0, ["random", "random"], 1)  # matches, seed, round_index, policies, threads
    parts = run_chunks(_simulate_chunk, payload, 500, backend="ray", chunks=5, hook=FailOnce(hook_dir, 3))
    assert (hook_dir / "failed").exists() and sorted(p.name for p in hook_dir.glob("ran-*")) == [
        f"ran-{i}" for i in range(5)
    ]
    merged = dc.SimulationResult.concatenate(parts)
    assert merged.match_index.tolist() == list(range(500))  # no gap, no duplicate
    assert same(local, merged)

    tour_dir = tmp_path / "tour"
    tour_dir.mkdir()
    local_t = dc.tournament(rules, ["greedy", "random"], rounds=12, seed=2, progress=False)
    remote_t = dc.tournament(
        rules, ["greedy", "random"], rounds=12, seed=2, progress=False, backend="ray", chunks=4,
        _task_hook=FailOnce(tour_dir, 1),
    )  # fmt: skip
    assert (tour_dir / "failed").exists() and remote_t == local_t and remote_t.deals == 12


def test_a_task_that_keeps_failing_raises():
    with pytest.raises(ValueError, match="always fails"):
        dc.tournament(
            dc.Block(players=2), ["greedy", "random"], rounds=4, progress=False, backend="ray", chunks=2,
            _task_hook=always_fail,
        )  # fmt: skip


def test_an_initialised_ray_is_used_as_it_is():
    # Ray is up (the fixture): address is not looked at, no second instance starts
    r = dc.tournament(
        dc.Block(players=2), ["greedy", "random"], rounds=3, progress=False, backend="ray", address="ray://nowhere:1"
    )
    assert r == dc.tournament(dc.Block(players=2), ["greedy", "random"], rounds=3, progress=False)
