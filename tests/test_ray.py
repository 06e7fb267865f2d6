"""The Ray backend (dominocore.distributed, docs/tournaments.md 5): the same
arrays as the local run whatever the chunks, retried tasks, no gaps and no
duplicates. One local Ray instance for the whole module (Ray starts slowly);
skipped where Ray cannot be imported."""

from __future__ import annotations

import pathlib
import sys
import threading
import types
import warnings

import dominocore as dc
import dominocore.reference as reference
import numpy as np
import pytest
from dominocore.distributed import _simulate_chunk, fit_cpus, largest_node_cpus, run_chunks
from helpers import needs_core, network_bytes

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


def test_ray_tasks_play_the_networks_loaded_here(dc):
    """Ray's workers know only the shipped networks: the tasks load the ones
    ``load_network`` loaded in this process first, so ``"learned"`` plays the
    same moves on Ray as here (the rules have no shipped network, so a
    worker without it would refuse)."""
    rules = dc.Doubles(players=3, set=9)  # no shipped network, and no other test loads one
    dc.load_network(network_bytes(reference.Doubles(players=3, set=9), seed=71))
    policy = ["learned", "greedy", "random"]
    local = dc.simulate(rules, rounds=30, seed=5, policy=policy)
    assert same(local, dc.simulate(rules, rounds=30, seed=5, policy=policy, backend="ray", chunks=3))
    bots = ["learned", "greedy", "random"]
    played = dc.tournament(rules, bots, rounds=6, seed=2, progress=False)
    assert dc.tournament(rules, bots, rounds=6, seed=2, progress=False, backend="ray", chunks=2) == played


@needs_core
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


def within(seconds, call):
    """``call()`` on a thread, failing (instead of hanging) if it has not
    returned after ``seconds``."""
    box = {}

    def run():
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_threads_beyond_the_largest_node_are_cut_down_with_a_warning(dc):
    # Reproducer (issue 19, item 9): on this 2-CPU cluster every task asked
    # for threads=4 CPUs, and simulate waited for ever.
    rules = dc.Doubles(players=2)
    n = 600 if dc.IMPLEMENTATION == "cpp" else 40
    local = dc.simulate(rules, rounds=n, seed=5)
    message = r"threads=4: the largest node of the Ray cluster has 2 CPUs, so each task runs 2 instead"
    with pytest.warns(RuntimeWarning, match=message):
        remote = within(120, lambda: dc.simulate(rules, rounds=n, seed=5, backend="ray", chunks=3, threads=4))
    assert same(local, remote)
    matches = dc.simulate(rules, matches=4, seed=2)
    with pytest.warns(RuntimeWarning, match=message):
        assert same(matches, within(120, lambda: dc.simulate(rules, matches=4, seed=2, backend="ray", threads=4)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # what fits runs as asked, without a word
        assert same(local, within(120, lambda: dc.simulate(rules, rounds=n, seed=5, backend="ray", threads=2)))


def test_a_task_larger_than_every_node_is_refused_before_any_work():
    payload = ("cpp", dc.Doubles(players=2), False, 1, 0, ["random", "random"], 3)
    with pytest.raises(dc.RulesError, match="each task asks for 3 CPUs, but the largest node of the Ray cluster has 2"):
        within(120, lambda: run_chunks(_simulate_chunk, payload, 10, backend="ray", num_cpus=3))


def test_the_largest_node_is_the_one_that_counts():
    def fake(*nodes):
        return types.SimpleNamespace(
            nodes=lambda: [dict(Alive=alive, Resources={"CPU": cpus}) for alive, cpus in nodes]
        )

    assert largest_node_cpus(fake((True, 2.0), (True, 2.0))) == 2  # 4 in all, but a task runs on one node
    assert largest_node_cpus(fake((False, 64.0), (True, 1.5))) == 1  # a dead node does not count
    with pytest.warns(RuntimeWarning, match="threads=8: the largest node of the Ray cluster has 3 CPUs"):
        assert fit_cpus(fake((True, 3.0)), 8, "threads") == 3
    with pytest.raises(dc.RulesError, match="no node with a CPU"):
        fit_cpus(fake((True, 0.0), (False, 8.0)), 1, "threads")
    with pytest.raises(dc.RulesError, match="no node with a CPU"):
        fit_cpus(fake(), 1, "threads")
