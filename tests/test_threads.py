"""Threads (docs/validation.md, "Threads"; issue 19): objects shared between
Python threads do what the contract says, whatever the interleaving.

Every test here runs several threads on one object at once and checks the
result against the same work done serially: a shared generator gives each
output once, a shared determinizer and generator give the serial worlds, a
vector environment plays exactly the actions it checked (or none), two
threads stepping one environment give what one thread gives stepping twice
as often, a round read while another thread mutates it is always read in
one of the states it went through. Counts finish in seconds; ``--large``
runs more. ``.ci/run`` also runs this file under ThreadSanitizer (the
extension built with ``DOMINOCORE_SANITIZE=thread``), which reports any
data race the C++ code takes part in.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter

import dominocore
import dominocore.reference as ref
import numpy as np
import pytest
from helpers import import_core, scaled

native = import_core()

# Threads per test: more than the cores, so that they interleave.
THREADS = 4
VECTOR_ENVS = {"cpp": native.VectorEnv, "python": ref.VectorEnv}


@pytest.fixture(autouse=True)
def _switch_often():
    """Python threads switch every 10 us (not 5 ms), so that the pure-Python
    parts interleave too."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


def run_together(*targets):
    """Runs every callable on its own thread, all released at once; re-raises
    the first exception a thread raised."""
    barrier = threading.Barrier(len(targets))
    errors = []

    def wrap(fn):
        def run():
            try:
                barrier.wait()
                fn()
            except BaseException as exc:  # noqa: BLE001  (re-raised below)
                errors.append(exc)

        return run

    workers = [threading.Thread(target=wrap(fn)) for fn in targets]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise errors[0]


def env_arrays(env):
    arrays = (env._obs, env._masks, env._seats, env._rewards, env._terms, env._actions, env._episodes)
    return [np.copy(a) for a in arrays]


def assert_same_arrays(got, want):
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# ---------------------------------------------------------------- the vector environment


@pytest.mark.parametrize("impl", sorted(VECTOR_ENVS))
def test_step_plays_the_actions_it_checked_while_another_thread_writes_them(impl):
    """Issue 19, 3: step read the caller's array once to check it and again,
    the GIL released, to play it; a thread writing the array in between made
    environments skip their move silently (and keep the last step's
    terminations and rewards). Now a step plays exactly what it checked, or
    refuses with nothing changed."""
    cls = VECTOR_ENVS[impl]
    rules = dominocore.ChickenFoot(players=4)
    n = 256 if impl == "cpp" else 48  # long enough steps for the writer to run in them
    env, twin = cls(rules, n, seed=1, threads=2), cls(rules, n, seed=1, threads=1)
    actions = np.zeros(n, np.int64)
    legal = [np.zeros(n, np.int64)]
    stop = threading.Event()

    def writer():
        while not stop.is_set():
            # Each pattern is left for the stepper to see (sleep(0) hands it the GIL):
            actions[:] = legal[0]  # every action legal
            time.sleep(0)
            actions[n // 2 :] = -1  # the second half illegal: a step that checked all legal must not see it
            time.sleep(0)

    played = refused = 0

    def stepper():
        nonlocal played, refused
        try:
            for _ in range(scaled(150 if impl == "cpp" else 100, 2000 if impl == "cpp" else 600)):
                legal[0] = np.array([np.flatnonzero(m)[-1] for m in env.masks], np.int64)
                before = env_arrays(env)
                try:
                    env.step(actions)
                except dominocore.IllegalMoveError:
                    refused += 1
                    assert_same_arrays(env_arrays(env), before)  # nothing changed
                    continue
                played += 1
                # Every environment moved, and played what step checked: the
                # twin, stepped with the actions env reports, is identical.
                assert (env.actions >= 0).all()
                try:
                    twin.step(env.actions.astype(np.int64))
                except dominocore.IllegalMoveError as exc:
                    pytest.fail(f"an environment did not play the action step checked: {exc}")
                assert_same_arrays(env_arrays(env), env_arrays(twin))
        finally:
            stop.set()

    run_together(writer, stepper)
    assert played > 0


@pytest.mark.parametrize("impl", sorted(VECTOR_ENVS))
def test_threads_stepping_one_vector_env_are_serialised(impl):
    """Two threads stepping one environment at once: each step is whole (the
    environment's lock), so k steps from each equal 2k steps from one thread;
    a third thread reading rounds meanwhile reads whole rounds."""
    cls = VECTOR_ENVS[impl]
    rules = dominocore.Doubles(players=3)
    n = 32 if impl == "cpp" else 6
    k = scaled(100 if impl == "cpp" else 30, 1000 if impl == "cpp" else 200)
    env, twin = cls(rules, n, seed=3, threads=2), cls(rules, n, seed=3, threads=1)
    done = threading.Event()

    def stepper():
        for _ in range(k):
            env.step_random()

    def reader():
        while not done.is_set():
            for i in range(n):
                r = env.round(i)
                assert not r.is_over and r.legal_actions()  # a live round, whole

    def steppers():
        try:
            run_together(stepper, stepper)
        finally:
            done.set()

    run_together(steppers, reader)
    for _ in range(2 * k):
        twin.step_random()
    assert_same_arrays(env_arrays(env), env_arrays(twin))


def test_one_thread_steps_while_another_resets():
    """reset and step from two threads: each call is whole; the environment
    ends as the serial order of the same calls leaves it (one of the
    interleavings; checked by replaying the episodes it reports)."""
    rules = dominocore.ChickenFoot(players=2, set=6)
    env = native.VectorEnv(rules, 16, seed=5, threads=2)

    def stepper():
        for _ in range(scaled(200, 2000)):
            env.step_random()

    def resetter():
        for _ in range(scaled(20, 200)):
            env.reset()

    run_together(stepper, resetter)
    for i in range(16):  # each environment holds a live round of its recorded episode
        r = env.round(i)
        assert not r.is_over
        deal = native.Round(rules, seed=dominocore.common.vector_env.round_seed(5, i, int(env.episodes[i])))
        assert r.to_dict()["deal"] == deal.to_dict()["deal"]


# ---------------------------------------------------------------- generators, determinizers, bots


@pytest.mark.parametrize("dc", [native, ref], ids=["cpp", "python"])
def test_a_shared_generator_gives_each_output_once(dc):
    """Issue 19, 4: every draw from a shared SplitMix64 is atomic: the
    threads' outputs together are the serial outputs, none twice."""
    k = scaled(3000, 30000)
    rng = dc.SplitMix64(7)
    outputs = []

    def draw():
        mine = [rng.next() for _ in range(k)]
        outputs.extend(mine)

    run_together(*[draw] * THREADS)
    serial = dc.SplitMix64(7)
    assert sorted(outputs) == sorted(serial.next() for _ in range(THREADS * k))
    assert rng == serial


def _mid_round(dc, seed=3, moves=6):
    r = dc.Round(dc.ChickenFoot(players=4), seed=seed)
    for _ in range(moves):
        r.apply_action(r.legal_actions()[0])
    return r


def test_a_shared_determinizer_and_generator_give_the_serial_worlds():
    """Issue 19, 4: 6,000 samples from one Determinizer and one SplitMix64
    over 2 threads gave 3,031 distinct worlds (each thread copied the
    generator, sampled with the GIL released and wrote it back). Now the
    worlds are the serial ones, each once, and the generator ends where the
    serial run leaves it."""
    k = scaled(150, 3000)
    det = _mid_round(native).determinizer(1)
    rng = native.SplitMix64(11)
    worlds = []

    def sample():
        mine = [str(det.sample(rng).to_dict()["deal"]) for _ in range(k)]
        worlds.extend(mine)

    run_together(*[sample] * THREADS)
    serial_rng = native.SplitMix64(11)
    serial_det = _mid_round(native).determinizer(1)
    serial = [str(serial_det.sample(serial_rng).to_dict()["deal"]) for _ in range(THREADS * k)]
    assert Counter(worlds) == Counter(serial)
    assert rng == serial_rng


def test_a_shared_determinizer_with_seeds_gives_each_seed_its_world():
    """A Determinizer sampled from several threads with integer seeds (the
    GIL released, the determinizer's own lock held): each world is the one
    its seed gives alone, and the statistics count every sample."""
    k = scaled(100, 2000)
    det = _mid_round(native, seed=8, moves=10).determinizer(2)
    got = {}

    def sample(t):
        def run():
            for s in range(t * k, (t + 1) * k):
                got[s] = det.sample(s).to_dict()

        return run

    run_together(*[sample(t) for t in range(THREADS)])
    alone = _mid_round(native, seed=8, moves=10).determinizer(2)
    assert all(got[s] == alone.sample(s).to_dict() for s in range(THREADS * k))
    assert det.stats["samples"] == THREADS * k


def test_a_shared_random_player_draws_each_choice_once():
    """RandomPlayer.choose is one call into the core, the GIL held: shared by
    threads, the choices are the serial ones and the generator ends as the
    serial run leaves it. GreedyPlayer holds nothing: always the same move."""
    k = scaled(2000, 20000)
    r = _mid_round(native, seed=5, moves=3)
    player, greedy = native.RandomPlayer(9), native.GreedyPlayer()
    choices, greedy_moves = [], []

    def choose():
        mine = [player.choose(r) for _ in range(k)]
        choices.extend(mine)
        greedy_moves.extend(greedy.choose(r) for _ in range(k // 10))

    run_together(*[choose] * THREADS)
    serial = native.RandomPlayer(9)
    assert Counter(choices) == Counter(serial.choose(r) for _ in range(THREADS * k))
    assert repr(player) == repr(serial)  # the generator's state
    assert set(greedy_moves) == {greedy.choose(r)}


def test_a_shared_search_bot_gives_what_it_gives_alone():
    """A search bot holds its options only: shared by threads, each search
    from its own round is the one it gives alone (the search runs with the
    GIL released, on its own copy of the position)."""
    bot = dominocore.ISMCTSPlayer(iterations=scaled(60, 400), seed=4)
    rounds = [_mid_round(native, seed=s, moves=4) for s in range(THREADS)]
    got = {}

    def search(i):
        def run():
            got[i] = bot.choose(rounds[i])

        return run

    run_together(*[search(i) for i in range(THREADS)])
    assert [got[i] for i in range(THREADS)] == [bot.choose(r) for r in rounds]


# ---------------------------------------------------------------- a round read while it is mutated


def _mutations(r, steps):
    """The mutator's walk: apply_action, push and pop in turn (every mutating
    method), never ending the round, then pop back to where it started (so
    that it can be walked again and again); yields after each mutation."""
    rng = np.random.default_rng(0)
    depth = 0
    for step in range(steps):
        kind = step % 4
        if kind == 3 or r.is_over:
            if depth:
                r.pop()
                depth -= 1
        elif kind == 1:
            moves = r.legal_moves()
            r.push(moves[int(rng.integers(len(moves)))])
            depth += 1
        else:
            actions = r.legal_actions()
            r.apply_action(actions[int(rng.integers(len(actions)))])
            depth += 1
        yield
    for _ in range(depth):
        r.pop()
        yield


def test_a_round_read_while_another_thread_mutates_it():
    """Readers of a compiled Round, one thread mutating it through push, pop
    and apply_action all along: every read sees one of the states the round
    goes through, never a mix. Round.observation_tensors once read the
    caller's rounds with the GIL released, racing with the mutator
    (ThreadSanitizer reported it); it now holds the GIL throughout, so the
    rows of one call, all of the same round, are equal and are that round's
    tensor in one of its states."""
    steps = 200
    start = _mid_round(native, seed=2, moves=2)
    players = start.rules.players
    # Every state the walk visits, as each seat's observation tensor.
    seen = [set() for _ in range(players)]
    walk = start.clone()

    def record(round_):
        for s in range(players):
            seen[s].add(round_.observation_tensor(s).tobytes())

    record(walk)
    for _ in _mutations(walk, steps):
        record(walk)
    assert walk.to_dict() == start.to_dict()

    shared = start.clone()
    readers_done = threading.Event()
    reads = scaled(100, 1000)

    def mutator():
        while not readers_done.is_set():
            for _ in _mutations(shared, steps):
                pass

    def reader(seat):
        def run():
            # Calls of 64 tensors each, between which the mutator runs.
            out = np.empty((64, start.observation_tensor_shape[0]), np.float32)
            for i in range(reads):
                rows = native.Round.observation_tensors([shared] * 64, seat, out=out)
                assert all(row.tobytes() == rows[0].tobytes() for row in rows)
                assert rows[0].tobytes() in seen[seat]
                assert shared.observation_tensor(seat).tobytes() in seen[seat]
                if i % 8 == 0:
                    whole = native.Round.from_dict(shared.to_dict())  # a whole record
                    assert whole.observation_tensor(seat).tobytes() in seen[seat]
                    assert shared.clone().observation_tensor(seat).tobytes() in seen[seat]

        return run

    def readers():
        try:
            run_together(*[reader(s) for s in range(players)])
        finally:
            readers_done.set()

    run_together(mutator, readers)


def test_a_round_searched_while_another_thread_mutates_it():
    """Issue 19, 1 and 2: the search read the caller's round with the GIL
    released (another thread's push and pop crashed the interpreter); it
    searches a copy taken with the GIL held (ThreadSanitizer checks that
    nothing reads the shared round without the GIL)."""
    start = _mid_round(native, seed=6, moves=2)
    shared = start.clone()
    done = threading.Event()
    bot = dominocore.CheatingMCTSPlayer(iterations=50, seed=1)

    def mutator():
        try:
            for _ in range(scaled(5, 50)):
                for _ in _mutations(shared, 200):
                    pass
        finally:
            done.set()

    def searcher():
        while not done.is_set():
            try:
                assert isinstance(bot.choose(shared), dominocore.Move)
            except dominocore.StateError:
                pass  # a round the walk just ended (it pops back at once)

    run_together(mutator, searcher, searcher)


@pytest.mark.parametrize("dc", [native, ref], ids=["cpp", "python"])
def test_a_round_only_read_by_threads_gives_what_it_gives_alone(dc):
    """Many readers, no writer: both implementations' rounds may be shared
    for reading."""
    r = _mid_round(dc, seed=4, moves=5)
    want = (r.to_dict(), r.legal_actions(), [r.information_state(s) for s in range(4)])
    tensors = [r.observation_tensor(s).tobytes() for s in range(4)]

    def read():
        for _ in range(scaled(50, 500)):
            assert (r.to_dict(), r.legal_actions(), [r.information_state(s) for s in range(4)]) == want
            assert [r.observation_tensor(s).tobytes() for s in range(4)] == tensors
            assert r.determinize(1, seed=3).to_dict() == dc.Round.from_dict(want[0]).determinize(1, seed=3).to_dict()

    run_together(*[read] * THREADS)


# ---------------------------------------------------------------- simulate from threads


def test_simulate_on_several_python_threads_at_once():
    """simulate and simulate_iter called from several Python threads at once
    (each on its own native threads, the GIL released): each gives what it
    gives alone."""
    rules = dominocore.Doubles(players=3, target=60)
    n = scaled(400, 20000)
    got = {}

    def sim(t):
        def run():
            got[t] = native.simulate(rules, rounds=n, seed=t, threads=2).points
            got[t, "iter"] = np.concatenate(
                [part.points for part in native.simulate_iter(rules, matches=n // 20, seed=t, chunk_size=n // 80)]
            )

        return run

    run_together(*[sim(t) for t in range(THREADS)])
    for t in range(THREADS):
        np.testing.assert_array_equal(got[t], native.simulate(rules, rounds=n, seed=t, threads=1).points)
        np.testing.assert_array_equal(got[t, "iter"], native.simulate(rules, matches=n // 20, seed=t).points)
