"""The vectorized environment (docs/ecosystem.md 4): a batch of N environments
steps exactly as N rounds stepped one by one, whatever the thread count, in
both implementations; bad input changes nothing; the Gymnasium wrapper."""

from __future__ import annotations

import doctest
import importlib
import pickle

import dominocore
import numpy as np
import pytest
from dominocore.common.checks import PLAYER_SEED_XOR
from dominocore.common.results import last_step_rewards
from dominocore.common.vector_env import round_seed
from helpers import needs_core, needs_served_core, scaled

RULES = {
    "trains": lambda dc: dc.ChickenFoot(players=4),
    "cross": lambda dc: dc.ChickenFoot(players=3, set=6, rule_set="cross"),
    "doubles": lambda dc: dc.Doubles(players=2),
    "block": lambda dc: dc.Block(players=3),
    "mexican_train": lambda dc: dc.MexicanTrain(players=3, set=6),
    "all_fives": lambda dc: dc.AllFives(players=2, target=60),
    "all_fives_teams": lambda dc: dc.AllFives(players=4, teams=2),
    "fives_and_threes": lambda dc: dc.FivesAndThrees(players=3, spinner="first"),
}


class OneByOne:
    """N rounds stepped one at a time: what VectorEnv must equal."""

    def __init__(self, dc, rules, n, seed, round_index=0):
        self.dc, self.rules, self.seed, self.round_index = dc, rules, seed, round_index
        self.episodes = [0] * n
        self.rounds = [self.deal(i) for i in range(n)]

    def deal(self, i):
        while True:
            s = round_seed(self.seed, i, self.episodes[i])
            r = self.dc.Round(self.rules, seed=s, round_index=self.round_index)
            if not r.is_over:
                return r
            self.episodes[i] += 1

    def observe(self):
        obs = np.stack([r.observation_tensor(r.current_player) for r in self.rounds])
        masks = np.stack([r.legal_action_mask() for r in self.rounds])
        seats = np.array([r.current_player for r in self.rounds], np.int32)
        return obs, masks, seats

    def step(self, actions):
        rewards = np.zeros((len(self.rounds), self.rules.players), np.float32)
        terms = np.zeros(len(self.rounds), bool)
        for i, a in enumerate(actions):
            self.rounds[i].apply_action(int(a))
            # every seat's change in margin: the points of play as they come, the margins at the end
            rewards[i] = last_step_rewards(self.rounds[i])
            if self.rounds[i].is_over:
                terms[i] = True
                self.episodes[i] += 1
                self.rounds[i] = self.deal(i)
        obs, masks, seats = self.observe()
        return obs, rewards, terms, masks, seats


def random_legal(rng, masks):
    """One uniformly random legal action per row of ``masks``, in numpy."""
    scores = rng.random(masks.shape) + masks  # legal ids in [1, 2), the others in [0, 1)
    return scores.argmax(axis=1)


def assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("game", sorted(RULES))
def test_batch_equals_rounds_one_by_one(dc, game):
    rules = RULES[game](dc)
    n, steps = (3, scaled(120, 600)) if dc.IMPLEMENTATION == "python" else (8, scaled(300, 3000))
    env = dc.VectorEnv(rules, n, seed=11, threads=2)
    oracle = OneByOne(dc, rules, n, seed=11)
    assert_same(env.reset(seed=11), oracle.observe())
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(steps):
        actions = random_legal(rng, env.masks)
        got = env.step(actions)
        assert_same(got, oracle.step(actions))
        np.testing.assert_array_equal(env.actions, actions)
        np.testing.assert_array_equal(env.episodes, oracle.episodes)
        ended += int(got[2].sum())
    assert ended >= n  # auto-resets were exercised
    for i in range(n):
        assert env.round(i).to_dict() == oracle.rounds[i].to_dict()


def test_step_random_is_the_documented_policy(dc):
    rules = dc.ChickenFoot(players=3, set=6)
    env = dc.VectorEnv(rules, 3, seed=4, threads=1)
    oracle = OneByOne(dc, rules, 3, seed=4)
    policies = [dc.SplitMix64(round_seed(4, i, 0) ^ PLAYER_SEED_XOR) for i in range(3)]
    for _ in range(scaled(150, 1500)):
        actions = []
        for i, r in enumerate(oracle.rounds):
            ids = r.legal_actions()
            actions.append(ids[policies[i].below(len(ids))])
        want = oracle.step(actions)
        for i in np.flatnonzero(want[2]):
            policies[i] = dc.SplitMix64(round_seed(4, int(i), oracle.episodes[i]) ^ PLAYER_SEED_XOR)
        assert_same(env.step_random(), want)
        np.testing.assert_array_equal(env.actions, actions)


@needs_core
@pytest.mark.parametrize("game", sorted(RULES))
def test_compiled_equals_reference_and_threads_do_not_matter(game):
    rules = RULES[game](dominocore)
    steps = scaled(200, 2000)
    envs = [dominocore.reference.VectorEnv(rules, 5, seed=3)]
    envs += [dominocore.native.VectorEnv(rules, 5, seed=3, threads=t) for t in (1, 2, 3, 8)]
    assert [e.threads for e in envs] == [1, 1, 2, 3, 5]
    for k in range(steps):
        results = [e.step_random() if k % 2 else e.step(random_legal(np.random.default_rng(k), e.masks)) for e in envs]
        for got in results[1:]:
            assert_same(got, results[0])
    for e in envs[1:]:
        np.testing.assert_array_equal(e.episodes, envs[0].episodes)


def test_threads_do_not_matter_in_a_large_batch():
    rules = dominocore.ChickenFoot(players=4)
    one = dominocore.VectorEnv(rules, 257, seed=9, threads=1)
    two = dominocore.VectorEnv(rules, 257, seed=9, threads=2)
    for _ in range(scaled(100, 1000)):
        assert_same(two.step_random(), one.step_random())
    assert one.episodes.sum() > 0


def test_python_threads_may_step_environments_at_once():
    """Two environments stepped on two Python threads at the same time give
    what they give alone (nothing is shared between them)."""
    import threading

    rules = dominocore.ChickenFoot(players=4)
    envs = [dominocore.VectorEnv(rules, 64, seed=s, threads=2) for s in (1, 2, 1)]

    def run(env):
        for _ in range(200):
            env.step_random()

    workers = [threading.Thread(target=run, args=(env,)) for env in envs[:2]]
    for w in workers:
        w.start()
    run(envs[2])
    for w in workers:
        w.join()
    assert_same(envs[0]._step_result(), envs[2]._step_result())
    assert not np.array_equal(envs[0]._obs, envs[1]._obs)


def test_reset_seeds_and_next_rounds(dc):
    rules = dc.Doubles(players=2)
    env = dc.VectorEnv(rules, 2, seed=5, threads=1)
    first = [np.copy(a) for a in env.reset(seed=5)]
    for _ in range(40):
        env.step_random()
    assert_same(env.reset(seed=5), first)
    assert env.seed == 5 and env.episodes.tolist() == [0, 0]
    env.reset()  # every environment's next round
    assert env.episodes.tolist() == [1, 1]
    assert env.round(1).to_dict() == dc.Round(rules, seed=round_seed(5, 1, 1)).to_dict()
    assert env.actions.tolist() == [-1, -1]
    env.reset(seed=2**64 - 1)
    assert env.round(1).to_dict() == dc.Round(rules, seed=0).to_dict()  # mod 2**64


def test_arrays_are_read_only_and_rewritten_in_place(dc):
    env = dc.VectorEnv(dc.Block(players=2), 2, seed=1, threads=1)
    obs, masks, seats = env.reset()
    step = env.step_random()
    assert step[0] is obs and step[3] is masks and step[4] is seats
    for arr in step:
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = 1
    assert (env.observation_shape, env.num_actions, env.players) == (
        env.round(0).observation_tensor_shape,
        env.rules.num_actions,
        2,
    )


def test_illegal_action_names_the_environment_and_changes_nothing(dc):
    rules = dc.ChickenFoot(players=4)
    env = dc.VectorEnv(rules, 4, seed=2, threads=2)
    for _ in range(5):
        env.step_random()
    before = [np.copy(a) for a in (*env.step_random(), env.actions, env.episodes)]
    rounds = [env.round(i).to_dict() for i in range(4)]
    actions = random_legal(np.random.default_rng(0), env.masks)
    bad = int(np.flatnonzero(~env.masks[2])[0])
    actions[2] = bad
    actions[3] = rules.num_actions  # outside the space, but environment 2 comes first
    with pytest.raises(dc.IllegalMoveError) as info:
        env.step(actions)
    assert info.value.reason == "illegal_action"
    assert str(info.value).startswith(f"environment 2: illegal action {bad}: it is not legal now (legal: ")
    after = [env._obs, env._rewards, env._terms, env._masks, env._seats, env.actions, env.episodes]
    assert_same(after, before)
    assert [env.round(i).to_dict() for i in range(4)] == rounds
    actions[2] = -1
    with pytest.raises(dc.IllegalMoveError, match="^environment 2: illegal action -1: it is outside"):
        env.step(actions)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_envs": 0}, "num_envs must be between 1 and 16777216, got 0"),
        ({"num_envs": 2**24 + 1}, "num_envs must be between 1"),
        ({"num_envs": True}, "num_envs must be an integer"),
        ({"num_envs": 2.0}, "num_envs must be an integer"),
        ({"threads": 0}, "threads must be between 1 and 256, got 0"),
        ({"threads": 257}, "threads must be between 1 and 256"),
        ({"seed": -1}, "a seed must be between 0"),
        ({"seed": 2**64}, "a seed must be between 0"),
        ({"round_index": 10}, "round_index must be between 0 and 9"),
    ],
)
def test_bad_arguments(dc, kwargs, message):
    args = {"num_envs": 2, "seed": 0, "threads": 1, **kwargs}
    with pytest.raises(dc.RulesError, match=message):
        dc.VectorEnv(dc.ChickenFoot(players=4), **args)


def test_not_rules(dc):
    with pytest.raises(dc.RulesError, match="expected a rules object"):
        dc.VectorEnv("trains", 2)


@pytest.mark.parametrize(
    "actions, message",
    [
        (np.zeros(3, np.int64), r"actions must have shape \(2,\), one action per environment, got \(3,\)"),
        (np.zeros((2, 1), np.int64), r"must have shape \(2,\).*got \(2, 1\)"),
        (np.zeros(2, np.float64), "actions must be an integer array, got dtype float64"),
        (np.zeros(2, np.bool_), "actions must be an integer array, got dtype bool"),
        (["a", "b"], "actions must be an integer array"),
        ([True, 1], "actions must be integers, not bools"),  # numpy would make True the action 1
        ((0, np.bool_(True)), "actions must be integers, not bools"),
        (7, r"must have shape \(2,\).*got \(\)"),
    ],
)
def test_bad_actions(dc, actions, message):
    env = dc.VectorEnv(dc.ChickenFoot(players=4), 2, seed=0, threads=1)
    before = [np.copy(a) for a in env.reset(seed=0)]
    with pytest.raises(dc.RulesError, match=message):
        env.step(actions)
    assert_same(env._reset_result(), before)


def test_any_integer_dtype_and_lists_are_actions(dc):
    rules = dc.Doubles(players=2)
    envs = [dc.VectorEnv(rules, 2, seed=8, threads=1) for _ in range(4)]
    actions = random_legal(np.random.default_rng(1), envs[0].masks)
    results = [
        envs[0].step(actions.astype(np.int64)),
        envs[1].step(actions.astype(np.uint8)),
        envs[2].step(actions.astype(np.int16)[::1]),
        envs[3].step([int(a) for a in actions]),
    ]
    for got in results[1:]:
        assert_same(got, results[0])
    with pytest.raises(dc.RulesError, match="^actions must fit in int64, got 18446744073709551615$"):
        envs[0].step(np.array([2**64 - 1, 0], np.uint64))
    with pytest.raises(dc.IllegalMoveError, match="^environment 1: illegal action 4294967296: it is outside"):
        envs[0].step(np.array([np.flatnonzero(envs[0].masks[0])[0], 2**32], np.int64))


def test_uninitialised_object_is_refused(dc):
    env = dc.VectorEnv.__new__(dc.VectorEnv)
    with pytest.raises(TypeError, match="not initialised"):
        env.step_random()


@needs_served_core
def test_compiled_core_refuses_raw_input():
    from dominocore import _core

    core = _core.VectorEnvCore(_core.CoreRules(dominocore.Doubles(players=2)), 2, 0, 1, 0)
    with pytest.raises(dominocore.RulesError, match="C-contiguous numpy int64 array"):
        core._step(np.zeros(2, np.int32))
    with pytest.raises(dominocore.RulesError, match="one action per environment"):
        core._step(np.zeros(4, np.int64)[::2][:1])
    with pytest.raises(dominocore.RulesError, match="env must be between 0 and 1"):
        core._state(2)
    assert dominocore.VectorEnv(dominocore.ChickenFoot(players=4), 1, threads=1).bytes_per_env > 0
    raw = _core.VectorEnvCore.__new__(_core.VectorEnvCore)
    with pytest.raises(TypeError, match="not initialised"):
        raw._step_random()
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(core)


@needs_core
def test_docstring_examples_of_the_private_module():
    module = importlib.import_module("dominocore.native.vector_env")
    failures, tried = doctest.testmod(module)
    assert failures == 0 and tried > 0


# ---- the Gymnasium wrapper


@pytest.fixture
def gym():
    pytest.importorskip("gymnasium")
    return importlib.import_module("dominocore.gymnasium_vector")


@needs_core
@pytest.mark.parametrize("implementation", ["cpp", "python"])
def test_gymnasium_wrapper_follows_the_vector_conventions(gym, implementation):
    import gymnasium
    from gymnasium.utils.env_checker import data_equivalence

    rules = dominocore.MexicanTrain(players=3, set=6)
    env = gym.GymVectorEnv(rules, 3, threads=2, implementation=implementation)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert env.action_space == gymnasium.spaces.MultiDiscrete([rules.num_actions] * 3)
    obs, infos = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    again, infos_again = env.reset(seed=3)
    assert data_equivalence(obs, again) and data_equivalence(infos, infos_again)
    oracle = OneByOne(dominocore, rules, 3, seed=3)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(300):
        actions = random_legal(rng, obs["action_mask"])
        movers = infos["seat"]
        obs, rewards, terms, truncs, infos = env.step(actions)
        want = oracle.step(actions)
        assert env.observation_space.contains(obs)
        assert rewards.shape == terms.shape == truncs.shape == (3,) and not truncs.any()
        assert rewards.dtype == np.float64 and terms.dtype == truncs.dtype == np.bool_
        np.testing.assert_array_equal(obs["observation"], want[0])
        np.testing.assert_array_equal(obs["action_mask"], want[3].astype(np.int8))
        np.testing.assert_array_equal(infos["seat"], want[4])
        np.testing.assert_array_equal(infos["margins"], want[1])
        np.testing.assert_array_equal(rewards, want[1][np.arange(3), movers])
        np.testing.assert_array_equal(terms, want[2])
        np.testing.assert_array_equal(env.action_masks(), want[3])
        ended += int(terms.sum())
    assert ended > 0
    env.close()


def test_gymnasium_wrapper_copies_unless_told(gym):
    env = gym.GymVectorEnv(dominocore.Block(players=2), 2, threads=1)
    obs, _ = env.reset(seed=0)
    kept = obs["observation"].copy()
    env.step(random_legal(np.random.default_rng(0), obs["action_mask"]))
    np.testing.assert_array_equal(obs["observation"], kept)
    views = gym.GymVectorEnv(dominocore.Block(players=2), 2, threads=1, copy=False)
    obs, _ = views.reset(seed=0)
    assert not obs["observation"].flags.writeable
    with pytest.raises(dominocore.RulesError, match="implementation must be one of"):
        gym.GymVectorEnv(dominocore.Block(players=2), 2, implementation="java")


def test_the_guides_example_runs(capsys):
    import pathlib
    import re

    text = (pathlib.Path(__file__).parent.parent / "docs" / "ecosystem.md").read_text()
    blocks = [code for code in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "dc.VectorEnv" in code]
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/ecosystem.md", "exec"), {})
    assert capsys.readouterr().out == "(1024, 219) (1024, 4) True\n"


# The compiled environment updates each observation in place after a move (the
# layout plane only gains the tile placed) and builds each mask from the move
# generator: every row is checked, bit for bit, against the round's own
# tensor and mask, across auto-resets, resets in mid-round, every game, teams,
# the smallest and largest sets, and 1 and 2 threads.
INCREMENTAL_RULES = {
    **RULES,
    "trains_double_18": lambda dc: dc.ChickenFoot(players=8, set=18),
    "cross_double_12": lambda dc: dc.ChickenFoot(players=4, set=12, rule_set="cross"),
    "doubles_double_9": lambda dc: dc.Doubles(players=4, set=9),
    "block_teams": lambda dc: dc.Block(players=4, teams=2),
    "mexican_train_double_18": lambda dc: dc.MexicanTrain(players=8, set=18),
    "all_fives_double_6": lambda dc: dc.AllFives(players=4, set=6),
    "fives_and_threes_double_12": lambda dc: dc.FivesAndThrees(players=2, set=12),
}


def assert_rows_are_the_rounds(env, observations):
    masks, seats = env.masks, env.seats
    for i in range(env.num_envs):
        r = env.round(i)
        assert seats[i] == r.current_player
        assert observations[i].tobytes() == r.observation_tensor(r.current_player).tobytes()
        np.testing.assert_array_equal(masks[i], r.legal_action_mask())


@needs_core
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", sorted(INCREMENTAL_RULES))
def test_rows_equal_the_rounds_after_every_step_and_reset(game, threads):
    rules = INCREMENTAL_RULES[game](dominocore)
    env = dominocore.native.VectorEnv(rules, 6, seed=21, threads=threads)
    rng = np.random.default_rng(3)
    ended = 0
    for k in range(scaled(400, 3000)):
        if k in (37, 75):  # in mid-round: a new seed, then the next rounds
            observations = (env.reset(seed=k) if k == 37 else env.reset())[0]
        else:
            got = env.step_random() if k % 3 else env.step(random_legal(rng, env.masks))
            observations = got[0]
            ended += int(got[2].sum())
        assert_rows_are_the_rounds(env, observations)
    assert ended > 0  # auto-resets were exercised


@needs_core
def test_a_batch_on_huge_pages_equals_its_rounds():
    # 1024 environments: the rounds (3 MB) and the undo histories (4 MB) take
    # the core's other path, blocks of 2 MB and more on huge pages
    # (docs/performance.md 2). Their rows must still be the rounds' own.
    rules = dominocore.ChickenFoot(players=4)
    env = dominocore.native.VectorEnv(rules, 1024, seed=13, threads=2)
    one = dominocore.native.VectorEnv(rules, 1024, seed=13, threads=1)
    assert env.bytes_per_env * env.num_envs > 4 * 2**20
    for k in range(scaled(60, 300)):
        got = env.step_random()
        assert_same(one.step_random(), got)
        if k % 20 == 19:
            assert_rows_are_the_rounds(env, got[0])
    assert env.episodes.sum() > 0  # rounds ended and were dealt again in place
