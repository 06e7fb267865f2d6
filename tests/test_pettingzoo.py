"""dominocore.pettingzoo: every game as a PettingZoo AEC environment
(docs/ecosystem.md 2), checked by PettingZoo's own api_test and seed_test,
and against dominocore's information model: an agent's observation is
exactly ``observation_tensor(seat)``, equal across the seat's
determinizations, and the rewards are the round margins."""

from __future__ import annotations

import importlib
import pathlib
import re

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from dominocore import pettingzoo as dpz  # noqa: E402
from helpers import scaled  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

#: (game, options) of every game and rule set, at a few sizes.
CONFIGS = [
    ("chickenfoot", {"rule_set": "trains", "players": 4, "set": 9}),
    ("chickenfoot", {"rule_set": "trains", "players": 2, "set": 6}),
    ("chickenfoot", {"rule_set": "cross", "players": 3, "set": 9}),
    ("doubles", {"players": 2}),
    ("doubles", {"players": 4, "set": 9}),
    ("block", {"players": 2}),
    ("block", {"players": 3, "lead": "highest_double"}),
    ("block", {"players": 4, "hand_size": 7, "teams": 2, "team_scoring": "fewer_pips"}),
    ("mexican_train", {"players": 4, "set": 9}),
    ("mexican_train", {"players": 3, "set": 6, "drawn_tile": "may"}),
    ("all_fives", {"players": 2}),
    ("all_fives", {"players": 4, "teams": 2}),
    ("fives_and_threes", {"players": 3, "spinner": "first"}),
]
IDS = [f"{game}-" + "-".join(f"{k}={v}" for k, v in options.items()) for game, options in CONFIGS]


def make(dc, game, options, **kwargs):
    return dpz.env(game=game, implementation=dc.IMPLEMENTATION, **options, **kwargs)


def play(env, seed, check=None):
    """Play a round with uniformly random legal actions (numpy seeded by
    ``seed``), calling ``check(env)`` before each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter():
        if check is not None:
            check(env)
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_api_test_passes(dc, game, options):
    api_test(make(dc, game, options), num_cycles=scaled(60, 1000))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_seed_test_passes(dc, game, options):
    seed_test(lambda: make(dc, game, options), num_cycles=scaled(60, 500))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_observations_are_the_seats_own_and_hide_everything_else(dc, game, options):
    env = make(dc, game, options)
    raw = env.unwrapped
    seen = {"moves": 0}

    def check(env):
        round_ = raw.round
        agent = env.agent_selection
        if agent not in env.agents or round_.is_over:
            return
        seat = raw.seat(agent)
        assert agent == f"player_{seat}" and seat == round_.current_player
        for other in env.agents:
            s = raw.seat(other)
            got = env.observe(other)
            assert got["observation"].dtype == np.float32
            assert np.array_equal(got["observation"], round_.observation_tensor(s))
            mask = round_.legal_action_mask().astype(np.int8) if s == seat else np.zeros(raw.rules.num_actions)
            assert np.array_equal(got["action_mask"], mask)
            if seen["moves"] % scaled(9, 1) == s:
                # nothing hidden from s: a world sampled from what s knows gives the same observation
                world = round_.determinize(s, seed=seen["moves"])
                assert np.array_equal(world.observation_tensor(s), got["observation"])
        seen["moves"] += 1

    for seed in range(scaled(1, 20)):
        play(env, seed, check)
    assert seen["moves"] > 0


@pytest.mark.parametrize(("game", "options"), [c for c in CONFIGS if "fives" not in c[0]], ids=lambda c: str(c))
def test_rewards_are_the_round_margins_at_the_end(dc, game, options):
    env = make(dc, game, options)
    raw = env.unwrapped
    rewards = {}

    def check(env):
        if env.agent_selection in env.agents:
            *_, terminated, _, _ = env.last()
            if terminated:
                rewards[env.agent_selection] = env.last()[1]

    for seed in range(scaled(3, 30)):
        rewards.clear()
        play(env, seed, check)
        points = raw.round.result.points
        margins = raw.rules.round_margins(points)
        assert rewards == {f"player_{s}": margins[s] for s in range(raw.rules.players)}
        assert sum(margins) == pytest.approx(0.0, abs=1e-9)
        p = raw.rules.players
        for s in range(p):
            others = (sum(points) - points[s]) / (p - 1)
            expected = others - points[s] if game in ("chickenfoot", "mexican_train") else points[s] - others
            if options.get("teams") == 2:  # partners hold their team's points; a seat's margin is its team's
                expected = points[s] - points[1 - s % 2]
            assert margins[s] == pytest.approx(expected)
        assert env.agents == []


def test_reset_seed_deals_that_round_and_reset_without_seed_follows_the_generator(dc):
    env = make(dc, "chickenfoot", {"players": 4}, round_index=2)
    raw = env.unwrapped
    env.reset(seed=7)
    assert raw.round.to_dict() == dc.Round(raw.rules, seed=7, round_index=2).to_dict()
    env.reset()
    first = raw.round.to_dict()
    twin = make(dc, "chickenfoot", {"players": 4}, round_index=2)
    twin.reset(seed=7)
    twin.reset()
    assert twin.unwrapped.round.to_dict() == first
    assert env.agent_selection == f"player_{raw.round.current_player}"


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_render_shows_the_selected_agents_view_only(dc, game, options):
    env = make(dc, game, options, render_mode="ansi")
    raw = env.unwrapped
    env.reset(seed=5)
    for _ in range(12):
        if raw.round.is_over:
            break
        seat = raw.seat(env.agent_selection)
        text = env.render()
        assert text == raw.round.render(seat)
        # the same text in every world the seat cannot tell apart: nothing hidden shows
        assert raw.round.determinize(seat, seed=1).render(seat) == text
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    plain = make(dc, game, options)
    plain.reset(seed=5)
    assert plain.render() is None


def test_spaces_hold_the_observations(dc):
    env = make(dc, "mexican_train", {"players": 3, "set": 6})
    env.reset(seed=1)
    agent = env.agent_selection
    space = env.observation_space(agent)
    assert space["observation"].shape == env.unwrapped.round.observation_tensor_shape
    assert env.action_space(agent).n == env.unwrapped.rules.num_actions == 28 * 4 + 2
    assert space.contains(env.observe(agent))


def test_bad_input_raises_the_projects_errors_and_changes_nothing(dc):
    with pytest.raises(dc.RulesError):
        dpz.env(game="poker")
    with pytest.raises(dc.RulesError):
        dpz.env(game="doubles", players=9)
    with pytest.raises(dc.RulesError):
        dpz.env(game="doubles", colour="red")
    with pytest.raises(dc.RulesError):
        dpz.env(game="doubles", render_mode="human")
    with pytest.raises(dc.RulesError):
        dpz.env(game="chickenfoot", round_index=10)
    env = make(dc, "chickenfoot", {"players": 4})
    env.reset(seed=2)
    raw = env.unwrapped
    before = raw.round.to_dict()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(dc.IllegalMoveError):
        env.step(illegal)
    assert raw.round.to_dict() == before
    with pytest.raises(dc.RulesError):
        raw.step(None)
    assert raw.round.to_dict() == before


def test_the_example_plays_a_round():
    path = pathlib.Path(__file__).parent.parent / "examples" / "pettingzoo_play.py"
    spec = importlib.util.spec_from_file_location("pettingzoo_play", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    totals = module.play(game="chickenfoot", seed=3, rounds=2)
    assert set(totals) == {"random", "greedy"}
    assert totals["random"] + totals["greedy"] == pytest.approx(0.0, abs=1e-9)


def test_the_guides_pettingzoo_example_runs(capsys):
    text = (pathlib.Path(__file__).parent.parent / "docs" / "ecosystem.md").read_text()
    blocks = [code for code in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "dominocore.pettingzoo" in code]
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/ecosystem.md", "exec"), {})
    assert capsys.readouterr().out.startswith("RoundResult(")


@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_step_takes_integer_action_ids_only_as_round_apply_action(dc, wrapped):
    """Issue 19 item 12: ``step(4.7)``, ``step('4')`` and ``step(4.0)``
    played action 4 (``raw_env``; ``env()``'s PettingZoo wrapper raised
    ``AssertionError``). They are refused as ``Round.apply_action`` refuses
    them (docs/validation.md, "Integers"), with nothing changed; numpy
    integers, what ``action_space.sample()`` gives, are action ids."""
    make_env = dpz.env if wrapped else dpz.raw_env
    env = make_env(game="block", players=2, implementation=dc.IMPLEMENTATION)
    env.reset(seed=3)
    raw = env.unwrapped
    assert list(raw.round.legal_actions()) == [6, 10, 28, 32, 34, 36, 48]
    before = (raw.round.to_dict(), env.agent_selection, dict(raw.rewards), dict(raw._cumulative_rewards))
    for bad in (6.7, "6", 6.0, np.float64(6), True, np.bool_(True), [6], np.array([6])):
        expected = dc.Round.from_dict(before[0])
        with pytest.raises(dc.IllegalMoveError) as want:
            expected.apply_action(bad)
        with pytest.raises(dc.IllegalMoveError) as info:
            env.step(bad)
        assert info.value.reason == want.value.reason == "illegal_action"
        assert str(info.value) == str(want.value)
        assert (raw.round.to_dict(), env.agent_selection, dict(raw.rewards), dict(raw._cumulative_rewards)) == before
    env.step(np.int64(6))
    env.step(np.array(env.action_space(env.agent_selection).sample(env.observe(env.agent_selection)["action_mask"])))
    assert len(raw.round.move_stack) == 2 and raw.round.move_stack[0] == dc.Round.from_dict(before[0]).action_to_move(6)


@pytest.mark.parametrize(("game", "options"), [c for c in CONFIGS if "fives" in c[0]], ids=lambda c: str(c))
def test_rewards_arrive_move_by_move_and_add_up_to_the_margins(dc, game, options):
    """docs/games/all_fives.md F5: after every step each agent's reward is its
    change in round margin, and a round's rewards add up to its margins."""
    env = make(dc, game, options)
    raw = env.unwrapped
    early = 0
    for seed in range(scaled(3, 30)):
        totals = {agent: 0.0 for agent in raw.possible_agents}
        env.reset(seed=seed)
        for _ in env.agent_iter():
            *_, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)  # retiring an agent brings no reward
                continue
            env.step(int(raw.round.legal_actions()[0]))
            for name, reward in raw.rewards.items():
                totals[name] += reward
                early += bool(reward) and not raw.round.is_over
        margins = raw.rules.round_margins(raw.round.result.points)
        assert [totals[f"player_{s}"] for s in range(raw.rules.players)] == pytest.approx(margins)
    assert early > 0  # points of play came before the end
