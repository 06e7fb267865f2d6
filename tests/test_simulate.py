"""Batch simulation: the compiled core against the reference's simulate,
independent of the thread count, releasing the GIL, rejecting bad arguments."""

from __future__ import annotations

import io
import sys
import threading
import time

import dominocore.reference as ref
import numpy as np
import pytest
from helpers import import_core, scaled

native = import_core()

RULES = [
    dict(game="chickenfoot", rule_set="trains", set=9, players=4),
    dict(game="chickenfoot", rule_set="trains", set=6, players=2, trains=3, double_blank_50=True),
    dict(game="chickenfoot", rule_set="cross", set=9, players=3),
    dict(game="doubles", set=6, players=2),
    dict(game="doubles", set=9, players=4, target=60),
    dict(game="block", set=6, players=2, target=50),
    dict(game="block", set=9, players=4, lead="highest_double", target=40),
    dict(game="block", set=9, players=4, hand_size=10, teams=2, lead="puerto_rico", target=100),
    dict(game="mexican_train", set=6, players=3),
    dict(game="mexican_train", set=9, players=5, drawn_tile="may"),
    dict(game="all_fives", set=6, players=2, target=60),
    dict(game="all_fives", set=9, players=4, teams=2, target=100, sides_open="at_once"),
    dict(game="fives_and_threes", set=6, players=3, target=30, draw="one", end_in_play=False),
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


@pytest.mark.parametrize(
    "options, message",
    [
        ([1], "policy_options must be a dict of options by search name"),
        ([], "policy_options must be a dict of options by search name"),
        ("ismcts", "policy_options must be a dict of options by search name"),
        (7, "policy_options must be a dict of options by search name"),
        ({"bogus": {}}, r"policy_options: options are for \('ismcts', 'pimc', 'cheat'\), got 'bogus'"),
        ({1: {}}, r"policy_options: options are for \('ismcts', 'pimc', 'cheat'\), got 1"),
        ({"ismcts": [1]}, r"policy_options\['ismcts'\] must be a dict of options, got \[1\]"),
    ],
)
def test_bad_policy_options_raise_rules_error(dc, options, message):
    # Reproducer (issue 19, item 12): policy_options=[1] raised a bare TypeError.
    rules = dc.Doubles(players=2)
    for backend in ("local", "ray"):  # refused before any Ray work
        with pytest.raises(dc.RulesError, match=message):
            dc.simulate(rules, rounds=2, policy_options=options, backend=backend)
    match = dc.Match(rules, seed=1)
    with pytest.raises(dc.RulesError, match=message):
        match.play("random", policy_options=options)
    assert match.rounds == [] and match.totals == (0, 0)  # nothing changed
    # a dict of options for a search no seat plays is accepted (and unused)
    assert dc.simulate(rules, rounds=2, policy_options={}).num_rounds == 2


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -float("inf"), 0, 0.0, -1, True, "0.2", [0.2]])
def test_bad_chunk_seconds_raise_rules_error_at_the_call(dc, seconds):
    # Reproducer (issue 19, item 12): chunk_seconds=nan raised "cannot convert
    # float NaN to integer" after the first chunk had been played.
    calls = []
    with pytest.raises(dc.RulesError, match="chunk_seconds must be a"):
        dc.simulate_iter(
            dc.Doubles(players=2), rounds=100, chunk_seconds=seconds, progress=lambda d, t: calls.append(d)
        )
    assert calls == []  # refused before any work


def test_chunk_seconds_sizes_the_chunks(dc):
    rules = dc.Doubles(players=2)
    whole = dc.simulate(rules, rounds=40, seed=3)
    for seconds in (1e-9, 0.05, np.float64(0.05), 1):
        parts = list(dc.simulate_iter(rules, rounds=40, seed=3, chunk_seconds=seconds))
        assert parts[0].num_rounds == 8  # the first chunk measures the rate
        joined = dc.SimulationResult.concatenate(parts)
        assert joined.match_index.tolist() == list(range(40)) and np.array_equal(joined.points, whole.points)
    # a chunk size given wins over chunk_seconds
    assert [p.num_rounds for p in dc.simulate_iter(rules, rounds=40, chunk_size=15, chunk_seconds=1e-9)] == [15, 15, 10]


def test_simulate_iter_checks_its_arguments_at_the_call(dc):
    with pytest.raises(dc.RulesError, match="chunk_size"):
        dc.simulate_iter(dc.Doubles(players=2), rounds=10, chunk_size=0)
    with pytest.raises(dc.RulesError, match="rounds"):
        dc.simulate_iter(dc.Doubles(players=2), rounds=-1)


# --------------------------------------------------------------------------- Ctrl-C

#: The child of the Ctrl-C tests: one long run after another, each stopped by
#: a SIGINT; it says "start" from inside its try block, so that a signal sent
#: after reading it can only land in the run (never before the try or after
#: the except), and it takes Python's own SIGINT handler back first (a
#: background job inherits SIGINT ignored, and then no Ctrl-C would ever
#: arrive). The run would take hours: only a Ctrl-C ends it.
CTRL_C_CHILD = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import {module} as dc
rules = dc.Doubles(players=2, target=10**6, max_rounds=100_000)
policy = {policy}
for trial in range({trials}):
    try:
        print("start", flush=True)
        dc.simulate(rules, matches=50_000, threads=2, policy=policy)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter(), flush=True)
"""
#: Seconds a run may take to stop after SIGINT before the test calls the
#: signal lost: the runs stop within about 0.1 s, and a lost signal leaves a
#: run going for hours, so a wide margin costs nothing when all is well and
#: keeps a slow machine (a sanitized build under pytest -n auto) from failing.
CTRL_C_DEADLINE = 120.0


def interrupt_many_times(module: str, delays, policy="'random'"):
    """Send SIGINT to a child running ``simulate`` again and again, once
    ``delays[i]`` seconds after run i said "start"; return the seconds from
    each signal to the KeyboardInterrupt. Fails if a run does not stop."""
    import queue
    import signal
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(CTRL_C_CHILD.format(module=module, trials=len(delays), policy=policy))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    lines: "queue.Queue[str]" = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout] + [lines.put("")])
    reader.daemon = True
    reader.start()
    latencies = []
    try:
        for i, delay in enumerate(delays):
            assert lines.get(timeout=CTRL_C_DEADLINE).strip() == "start", f"run {i} did not start"
            time.sleep(delay)
            sent = time.perf_counter()
            proc.send_signal(signal.SIGINT)
            try:
                answer = lines.get(timeout=CTRL_C_DEADLINE).split()
            except queue.Empty:
                raise AssertionError(f"run {i} (SIGINT {delay:.4f} s after start) did not stop") from None
            assert answer and answer[0] == "interrupted", (i, delay, answer)
            latencies.append(float(answer[1]) - sent)  # perf_counter is the system's monotonic clock
        assert proc.wait(timeout=CTRL_C_DEADLINE) == 0
    finally:
        if proc.poll() is None:
            proc.kill()  # never leave a run that missed its signal going
            proc.wait()
    return latencies


def test_ctrl_c_stops_simulate_quickly():
    # Reproducer: a 50M-round run ignored SIGINT for 15 s. One signal, well
    # into the run: the workers are running, the calling thread waits for them.
    (latency,) = interrupt_many_times("dominocore.native", [0.5])
    assert latency < CTRL_C_DEADLINE


def test_ctrl_c_is_never_lost_whenever_it_comes():
    # Issue 19, item 15: a signal at any moment of a run stops it: while the
    # arguments are checked in Python, while the threads start, while they
    # run. Each run is a new call in the same process, the moments spread
    # from at once to well into the run.
    rng = np.random.default_rng(15)
    delays = [0.0] * 5 + list(rng.uniform(0, 0.003, 25)) + list(rng.uniform(0, 0.1, 10)) + [0.3]
    latencies = interrupt_many_times("dominocore.native", delays)
    assert len(latencies) == len(delays) and max(latencies) < CTRL_C_DEADLINE


@pytest.mark.parametrize("module", ["dominocore.native", "dominocore.reference"])
def test_ctrl_c_stops_a_python_loop_with_threads(module):
    # A policy beyond the built-in bots runs in a Python loop on `threads`
    # threads (both implementations): Ctrl-C stopped the wait, but leaving the
    # thread pool then played every game still queued (hours here).
    latencies = interrupt_many_times(module, [0.0, 0.05, 0.3], policy="[lambda v: v.legal_actions()[0], 'random']")
    assert max(latencies) < CTRL_C_DEADLINE


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal (tqdm draws its bar only on one)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_progress_true_draws_a_bar_on_a_terminal_only(dc, monkeypatch, terminal):
    """``progress=True`` shows a bar on stderr where a person is watching, and
    writes nothing into a pipe or a log (no ``\\r`` frames there)."""
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    rules = dc.Doubles(players=2)
    sim = dc.simulate(rules, rounds=40, seed=3, progress=True)
    chunks = list(dc.simulate_iter(rules, rounds=40, seed=3, chunk_size=15, progress=True))
    assert sim.points.tolist() == np.concatenate([c.points for c in chunks]).tolist()
    assert sim.points.tolist() == dc.simulate(rules, rounds=40, seed=3).points.tolist()  # a bar changes nothing
    if terminal:
        assert "\r" in err.getvalue() and "round/s" in err.getvalue()
    else:
        assert err.getvalue() == ""


@pytest.mark.parametrize("progress", ["yes", 1, 2.5])
def test_progress_must_be_a_bool_none_or_a_callable(dc, progress):
    with pytest.raises(dc.RulesError, match="progress must be True, False, None or a callable"):
        dc.simulate(dc.Doubles(players=2), rounds=4, progress=progress)
