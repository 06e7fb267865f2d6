"""No bridge tells a seat anything it may not see (docs/information.md 1,
docs/ecosystem.md "What a seat may learn through a bridge").

For each bridge (OpenSpiel, PettingZoo, Gymnasium) the test lists the
public methods and attributes of every object the bridge hands out,
programmatically, and asks each of them for a seat's answer in two worlds
that the seat cannot tell apart: a real round and
``round.determinize(seat, seed=...)``, a Round with the same public history
and the same private history of ``seat`` and everything else resampled. The
answers must be equal, for every player argument and every action id.

Every public name must be in one of the lists below, each with the reason
it is there; a name added later (by the bridge or by a new version of
OpenSpiel, PettingZoo or Gymnasium) fails ``test_*_methods_are_all_classified``
until it is placed, and so gets compared or a reason to be left out.

- *per seat*: takes a player (or agent); called with every seat, and
  compared in that seat's worlds;
- *mover*: answers for the seat to move (the no-player overloads of
  OpenSpiel, PettingZoo's ``last`` and ``render``, the Gymnasium
  observations and masks); compared in the mover's worlds;
- *public*: no player argument, the same answer for every seat; compared in
  every seat's worlds;
- left out, with the reason: the true state (OpenSpiel's history, string
  and serialization, a clone; the ``Round`` itself), moves that change the
  state and return nothing of it (every position compared is reached through
  them; PettingZoo's ``step`` and Gymnasium's ``step`` return observations,
  and are compared), and the constructors.

The positions: random rounds of every game (Chicken Foot ``trains`` and
``cross``, Doubles, Block, Mexican Train), at their first move, mid-round,
mid-draw (a seat to move with its drawn tile in question, and the seat after
it), near the end. Issue 19 item 8 (``action_to_string(player, a)`` told any
player the mover's placements) fails with ``action_to_string(seat, a)`` (and
``string_to_action(seat, text)``) named for the seats not to move.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, Iterator, List

import numpy as np
import pytest
from dominocore.games import GAMES

#: One configuration of each game (small sets: the default run takes seconds).
CONFIGS = [
    ("chickenfoot", {"rule_set": "trains", "players": 3, "set": 6}),
    ("chickenfoot", {"rule_set": "cross", "players": 3, "set": 6}),
    ("doubles", {"players": 3, "set": 6}),
    ("block", {"players": 3, "set": 6, "lead": "highest_double"}),
    ("mexican_train", {"players": 3, "set": 6}),
    ("block", {"players": 4, "set": 6, "hand_size": 7, "teams": 2, "lead": "puerto_rico"}),
    ("all_fives", {"players": 4, "set": 6, "teams": 2}),
    ("fives_and_threes", {"players": 3, "set": 6, "spinner": "first"}),
]
IDS = ["trains", "cross", "doubles", "block", "mexican_train", "block-teams", "all_fives-teams", "fives_and_threes"]
#: Random rounds per configuration whose positions are compared.
SEEDS = (1, 2)


# -- positions and the worlds a seat cannot tell apart


def positions(dc: Any, rules: Any, seed: int) -> List[Any]:
    """Positions of one random round (copies), none over: the first move,
    the first seat to move with a drawn tile in question and the position
    after its move, one a third and two thirds in, and the last before the
    end."""
    rng = random.Random(seed)
    round_ = dc.Round(rules, seed=seed)
    seen = []
    while not round_.is_over:
        seen.append(round_.clone())
        round_.apply_action(rng.choice(round_.legal_actions()))
    n = len(seen)
    picks = {0, n // 3, 2 * n // 3, n - 1}
    drawing = [i for i, r in enumerate(seen) if r.drawn_tile is not None]
    if drawing:
        picks |= {drawing[0], min(drawing[0] + 1, n - 1), drawing[-1]}
    return [seen[i] for i in sorted(picks)]


def all_positions(dc: Any, game: str, options: Dict[str, Any]) -> List[Any]:
    rules = GAMES[game](**options)
    found = [p for seed in SEEDS for p in positions(dc, rules, seed)]
    if game != "block":  # every game but Block draws: positions mid-draw must be among them
        assert any(p.drawn_tile is not None for p in found)
    return found


def worlds(round_: Any, seat: int) -> Iterator[Any]:
    """A determinization of ``round_`` for ``seat`` that differs from it
    (else there would be nothing to compare); none when a few seeds give
    only the round itself (the seat may know everything)."""
    real = round_.to_dict()
    for seed in range(8):
        world = round_.determinize(seat, seed=seed)
        assert world.information_state(seat) == round_.information_state(seat)
        if world.to_dict() != real:
            yield world
            return


def outcome(call: Callable[[], Any]) -> Any:
    """What a call answers, as plain comparable data: its value, or the
    error it raises (class and message, both shown to the caller)."""
    try:
        value = call()
    except Exception as err:  # noqa: BLE001 - an error is an answer too
        return ("raises", type(err).__name__, str(err))
    return plain(value)


def plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ("array", str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, list) and value and all(type(v) is float for v in value):  # a tensor as a list
        return ("floats", np.asarray(value, np.float64).tobytes())
    if isinstance(value, np.generic):
        return ("scalar", str(value.dtype), value.item())
    if isinstance(value, dict):
        return {key: plain(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def differences(real: Dict[str, Any], world: Dict[str, Any]) -> List[str]:
    assert set(real) == set(world)
    return sorted(name for name in real if real[name] != world[name])


def public_names(obj: Any) -> set:
    return {name for name in dir(obj) if not name.startswith("_")}


def asked(answers: Dict[str, Any]) -> set:
    """The method names an answers dict holds (``name``, ``name(seat)``, ``prefix.name``...)."""
    return {key.split(": ")[-1].split(".")[-1].split("(")[0] for key in answers}


def compare_in_worlds(
    dc: Any, game: str, options: Dict[str, Any], answers: Callable[[Any, int, bool], Dict[str, Any]]
) -> int:
    """For every position and seat: ``answers(round, seat, is_mover)`` in the
    round and in a world of the seat must be equal. Returns the comparisons made."""
    compared = 0
    failures = []
    for position in all_positions(dc, game, options):
        for seat in range(position.rules.players):
            for world in worlds(position, seat):
                mover = seat == position.current_player
                diff = differences(answers(position, seat, mover), answers(world, seat, mover))
                if diff:
                    failures.append(f"seat {seat}, move {len(position.move_stack)}: {', '.join(diff)}")
                compared += 1
    assert not failures, "answers that differ between worlds the seat cannot tell apart:\n" + "\n".join(failures)
    return compared


# -- OpenSpiel

#: State methods that take a player: called for the seat (and their
#: no-player overloads, which answer for the seat to move, for the mover).
OS_STATE_PER_SEAT = {
    "action_to_string",
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
    "legal_actions",
    "legal_actions_mask",
    "string_to_action",
    "player_return",
    "player_reward",
    "resample_from_infostate",
    "to_observation_struct",
    "get_action_struct_sampler",
    "actions_to_struct",
}
#: Their no-player overloads answer for the seat to move: legitimately the
#: mover's own (its legal actions, its strings), compared in the mover's worlds.
OS_STATE_MOVER = {
    "action_to_string",
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
    "legal_actions",
    "legal_actions_mask",
    "string_to_action",
    "to_observation_struct",
}
#: State methods without a player: the same answer for every seat.
OS_STATE_PUBLIC = {
    "current_player",
    "is_chance_node",
    "is_initial_state",
    "is_initial_non_chance_state",
    "is_mean_field_node",
    "is_player_node",
    "is_simultaneous_node",
    "is_terminal",
    "move_number",
    "num_distinct_actions",
    "num_players",
    "returns",
    "rewards",
    "chance_outcomes",
    "get_type",
    "get_game",
    "starting_state",
    "starting_state_str",
    "distribution_support",
    "mean_field_population",
    "action_to_struct",
    # the state as a struct: not provided by Python games (SpielError); were
    # it provided, it would be the true state and fail here, to be moved below
    "to_dict",
    "to_json",
    "to_struct",
}
#: Left out, and why.
OS_STATE_LEFT_OUT = {
    # the true state, by OpenSpiel's contract (every hand, the deal's chance outcomes)
    "history": "the OpenSpiel history: the deal's chance outcomes, then the moves (the true state)",
    "history_str": "the same history as text",
    "full_history": "the same history with the players",
    "to_string": "the state's string (str(state)): every hand, as in OpenSpiel's own games",
    "serialize": "the whole state, for deserialize_state",
    "clone": "a copy of the true state",
    "child": "a copy of the true state one action on",
    "undone": "the true state one move back",
    "round": "the dominocore Round itself (every hand; docs/ecosystem.md 1.1: read it, do not show it)",
    # they change the state and return nothing of it; every position compared is reached through apply_action
    "apply_action": "moves the state (returns None)",
    "apply_actions": "simultaneous moves (returns None)",
    "apply_action_with_legality_check": "moves the state (returns None)",
    "apply_actions_with_legality_checks": "simultaneous moves (returns None)",
    "undo_action": "not open to Python games (raises SpielError)",
    "update_distribution": "mean-field games only",
    # they take an ActionStruct, which these games do not define (action_to_struct raises)
    "apply_action_struct": "takes an ActionStruct",
    "struct_to_actions": "takes an ActionStruct",
    "validate_action_struct": "takes an ActionStruct",
}
#: Game methods and attributes: none reads a state.
OS_GAME_LEFT_OUT = {
    name: "a function of the game's parameters: no state, nothing hidden"
    for name in (
        "action_struct_spec",
        "action_to_string",
        "game_id",
        "get_parameters",
        "get_type",
        "implementation",
        "information_state_tensor_layout",
        "information_state_tensor_shape",
        "information_state_tensor_size",
        "max_chance_nodes_in_history",
        "max_chance_outcomes",
        "max_game_length",
        "max_history_length",
        "max_move_number",
        "max_utility",
        "min_utility",
        "module",
        "num_distinct_actions",
        "num_players",
        "observation_tensor_layout",
        "observation_tensor_shape",
        "observation_tensor_size",
        "policy_tensor_shape",
        "round_index",
        "rules",
        "serialize",
        "to_string",
        "utility_sum",
    )
}
OS_GAME_LEFT_OUT.update(
    {
        "new_initial_state": "the root (the deal's first chance node): no world yet",
        "new_initial_states": "the roots",
        "new_initial_state_for_population": "mean-field games only",
        "new_initial_state_from_round": "wraps a whole Round (every hand): how the test builds its states",
        "deserialize_state": "reads a whole state from serialize",
        "make_observer": "gives an observer: compared below (OS_OBSERVER)",
        "make_py_observer": "gives an observer: compared below (OS_OBSERVER)",
    }
)
#: Observer methods and attributes (DominoObserver, and pyspiel's _Observation over game.make_observer).
OS_OBSERVER = {"set_from", "string_from", "tensor", "dict", "perfect_recall"}
OS_CPP_OBSERVATION = {
    "set_from",
    "string_from",
    "tensors",
    "tensors_info",
    "compress",
    "decompress",
    "has_string",
    "has_tensor",
}


class _Sampler:
    """A fixed sequence of uniform [0, 1) numbers for resample_from_infostate."""

    def __init__(self) -> None:
        self.values = iter([0.125, 0.625, 0.375, 0.875, 0.25, 0.75])

    def __call__(self) -> float:
        return next(self.values)


def openspiel_answers(pyspiel: Any, game: Any, state: Any, seat: int, mover: bool) -> Dict[str, Any]:
    """Every classified state method's answer for ``seat`` (and the mover's
    no-player overloads when ``seat`` is to move), and the observers'."""
    actions = range(game.num_distinct_actions())
    texts = [state.action_to_string(seat, a) for a in actions]
    out: Dict[str, Any] = {}

    def both(name: str, *args: Any) -> None:
        method = getattr(state, name)
        out[f"{name}(seat)"] = outcome(lambda: method(seat, *args))
        if mover:
            out[f"mover: {name}()"] = outcome(lambda: method(*args))

    out["action_to_string(seat, a)"] = [outcome(lambda a=a: state.action_to_string(seat, a)) for a in actions]
    if mover:
        out["mover: action_to_string(a)"] = [outcome(lambda a=a: state.action_to_string(a)) for a in actions]
    inputs = sorted(set(texts))  # every text of an action id, for this seat
    out["string_to_action(seat, text)"] = [outcome(lambda t=t: state.string_to_action(seat, t)) for t in inputs]
    if mover:
        out["mover: string_to_action(text)"] = [outcome(lambda t=t: state.string_to_action(t)) for t in inputs]
    for name in (
        "information_state_string",
        "information_state_tensor",
        "observation_string",
        "observation_tensor",
        "legal_actions",
        "legal_actions_mask",
        "to_observation_struct",
    ):
        both(name)
    # the other player arguments (chance, the terminal id, a seat out of range): public answers only
    for other in (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL), game.num_players()):
        for name in ("information_state_string", "observation_string", "observation_tensor", "legal_actions"):
            out[f"{name}({other})"] = outcome(lambda n=name, o=other: getattr(state, n)(o))
        out[f"action_to_string({other}, a)"] = [
            outcome(lambda a=a, o=other: state.action_to_string(o, a)) for a in actions
        ]
    out["player_return"] = outcome(lambda: state.player_return(seat))
    out["player_reward"] = outcome(lambda: state.player_reward(seat))
    out["get_action_struct_sampler"] = outcome(lambda: state.get_action_struct_sampler(seat))
    out["actions_to_struct"] = outcome(lambda: state.actions_to_struct(seat, [0]))

    def resampled() -> Any:
        world = state.resample_from_infostate(seat, _Sampler())
        return (world.history(), world.round.to_dict())

    out["resample_from_infostate"] = outcome(resampled)
    for name in sorted(OS_STATE_PUBLIC - {"action_to_struct"}):
        out[name] = outcome(getattr(state, name))
    out["action_to_struct"] = [outcome(lambda a=a: state.action_to_struct(a)) for a in list(actions)[:3]]
    for recall in (False, True):
        kind = pyspiel.IIGObservationType(perfect_recall=recall)
        observer = game.make_py_observer(kind)
        observer.set_from(state, seat)
        out[f"py_observer({recall}).tensor"] = plain(observer.tensor)
        out[f"py_observer({recall}).dict"] = plain(observer.dict)
        out[f"py_observer({recall}).string_from"] = outcome(lambda o=observer: o.string_from(state, seat))
        out[f"py_observer({recall}).perfect_recall"] = observer.perfect_recall
        observation = pyspiel._Observation(game, game.make_observer(kind, {}))
        observation.set_from(state, seat)
        out[f"observation({recall}).tensors"] = [
            (t.name, list(t.shape), plain(np.asarray(t.data))) for t in observation.tensors()
        ]
        out[f"observation({recall}).tensors_info"] = [(t.name, list(t.shape)) for t in observation.tensors_info()]
        out[f"observation({recall}).string_from"] = outcome(lambda o=observation: o.string_from(state, seat))
        out[f"observation({recall}).compress"] = outcome(lambda o=observation: bytes(o.compress()))
        out[f"observation({recall}).has"] = (observation.has_string(), observation.has_tensor())
    return out


def test_openspiel_methods_are_all_classified():
    pyspiel = pytest.importorskip("pyspiel")
    from dominocore import openspiel as dos

    game = dos.load("mexican_train", players=3, set=6)
    state = game.new_initial_state_from_round(game.module.Round(game.rules, seed=1))
    classified = OS_STATE_PER_SEAT | OS_STATE_PUBLIC | set(OS_STATE_LEFT_OUT)
    assert public_names(state) - classified == set(), "OpenSpiel state methods the leak test does not classify"
    assert classified - public_names(state) == set(), "classified names the state does not have"
    assert public_names(game) ^ set(OS_GAME_LEFT_OUT) == set(), "OpenSpiel game methods not classified"
    # and every method compared is asked, for the seat to move
    answers = openspiel_answers(pyspiel, game, state, state.current_player(), True)
    assert OS_STATE_PER_SEAT | OS_STATE_PUBLIC <= asked(answers)
    assert {asked({key: None}).pop() for key in answers if key.startswith("mover: ")} == OS_STATE_MOVER
    assert OS_OBSERVER - {"set_from"} <= asked(answers)  # set_from writes tensor and dict, read here
    assert OS_CPP_OBSERVATION - {"set_from", "decompress", "has_string", "has_tensor"} <= asked(answers)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert public_names(observer) == OS_OBSERVER
    cpp = pyspiel._Observation(game, game.make_observer(pyspiel.IIGObservationType(perfect_recall=False), {}))
    assert public_names(cpp) == OS_CPP_OBSERVATION


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_openspiel_answers_depend_only_on_the_seats_information(dc, game, options):
    pyspiel = pytest.importorskip("pyspiel")
    from dominocore import openspiel as dos

    spiel_game = dos.load(game, implementation=dc.IMPLEMENTATION, **options)

    def answers(round_: Any, seat: int, mover: bool) -> Dict[str, Any]:
        state = spiel_game.new_initial_state_from_round(round_)
        return openspiel_answers(pyspiel, spiel_game, state, seat, mover)

    assert compare_in_worlds(dc, game, options, answers) >= 20


def test_openspiel_action_strings_tell_another_seat_nothing_of_the_movers_hand(dc):
    """Issue 19 item 8, on one position: a seat not to move reads the
    meaning of an action id only; the mover reads the move it plays too."""
    pytest.importorskip("pyspiel")
    from dominocore import openspiel as dos

    game = dos.load("block", players=2, implementation=dc.IMPLEMENTATION)
    state = game.new_initial_state_from_round(dc.Round(game.rules, seed=3))
    assert state.current_player() == 0 and state.legal_actions() == [6, 10, 28, 32, 34, 36, 48]
    assert state.action_to_string(0, 6) == state.action_to_string(6) == "0-2 by 0 (0-2@0)"
    assert state.action_to_string(1, 6) == "0-2 by 0"
    assert state.action_to_string(1, 7) == state.action_to_string(0, 7) == "0-2 by 2"
    assert state.string_to_action(0, "0-2 by 0 (0-2@0)") == 6


# -- PettingZoo

#: Methods and attributes of the AEC environment (the wrapped env() and raw_env):
#: per agent (called for the seat's agent), for the agent selected (the mover), public.
PZ_PER_SEAT = {"observe", "action_space", "observation_space", "seat"}
PZ_MOVER = {"last", "render"}
PZ_PUBLIC = {
    "agent_iter",
    "agent_selection",
    "agents",
    "possible_agents",
    "num_agents",
    "max_num_agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "action_spaces",
    "observation_spaces",
    "metadata",
    "render_mode",
    "rules",
    "round_index",
    "state",
    "np_random",
}
PZ_LEFT_OUT = {
    "round": "the dominocore Round itself (every hand; for tests and the end's result)",
    "module": "the dominocore implementation (a module)",
    "env": "the wrapped environment: its own methods are these",
    "unwrapped": "the raw environment: its own methods are these",
    "step": "compared: the answers after stepping into the two worlds (test_pettingzoo_step_...)",
    "reset": "deals a new round from a seed: both worlds are replaced",
    "close": "releases nothing, returns None",
}


def pz_load(env: Any, round_: Any) -> Any:
    """``env`` playing ``round_`` (a copy), as ``reset`` leaves it."""
    env.reset(seed=0)
    raw = env.unwrapped
    raw.round = round_.clone()
    raw.agent_selection = raw.possible_agents[round_.current_player]
    return env


def pettingzoo_answers(env: Any, seat: int, mover: bool) -> Dict[str, Any]:
    raw = env.unwrapped
    agent = raw.possible_agents[seat]
    out: Dict[str, Any] = {
        "observe": outcome(lambda: env.observe(agent)),
        "action_space": outcome(lambda: env.action_space(agent)),
        "observation_space": outcome(lambda: env.observation_space(agent)),
        "seat": outcome(lambda: raw.seat(agent)),
        "agent_iter": outcome(lambda: list(env.agent_iter(max_iter=1))),
        "state": outcome(env.state),
        "str": str(env),
        "np_random": outcome(lambda: raw.np_random.bit_generator.state),
        "_cumulative_rewards": plain(raw._cumulative_rewards),
    }
    for name in sorted(PZ_PUBLIC - {"agent_iter", "state", "np_random"}):
        out[name] = outcome(lambda n=name: getattr(env, n))
    if mover:
        out["last"] = outcome(env.last)
        out["render"] = outcome(env.render)
    return out


def test_pettingzoo_methods_are_all_classified():
    pytest.importorskip("pettingzoo")
    from dominocore import pettingzoo as dpz

    env = dpz.env(game="block", players=2, render_mode="ansi")
    env.reset(seed=1)
    classified = PZ_PER_SEAT | PZ_MOVER | PZ_PUBLIC | set(PZ_LEFT_OUT)
    names = public_names(env) | public_names(env.unwrapped)
    assert names - classified == set(), "PettingZoo methods the leak test does not classify"
    assert classified - names == set(), "classified names the environment does not have"
    # and every method compared is asked, for the agent to move
    assert PZ_PER_SEAT | PZ_MOVER | PZ_PUBLIC <= asked(
        pettingzoo_answers(env, env.unwrapped.round.current_player, True)
    )


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_answers_depend_only_on_the_seats_information(dc, game, options):
    pytest.importorskip("pettingzoo")
    from dominocore import pettingzoo as dpz

    env = dpz.env(game=game, implementation=dc.IMPLEMENTATION, render_mode="ansi", **options)

    def answers(round_: Any, seat: int, mover: bool) -> Dict[str, Any]:
        return pettingzoo_answers(pz_load(env, round_), seat, mover)

    assert compare_in_worlds(dc, game, options, answers) >= 20


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_step_answers_depend_only_on_the_seats_information(dc, game, options):
    """``step`` into the two worlds (each one move back, then the same last
    move), then every answer of the environment."""
    pytest.importorskip("pettingzoo")
    from dominocore import pettingzoo as dpz

    env = dpz.env(game=game, implementation=dc.IMPLEMENTATION, render_mode="ansi", **options)

    def answers(round_: Any, seat: int, mover: bool) -> Dict[str, Any]:
        if not round_.move_stack:
            return {}
        before = round_.clone()
        last = before.move_to_action(before.pop())
        pz_load(env, before)
        env.step(last)
        assert env.unwrapped.round.to_dict() == round_.to_dict()
        return pettingzoo_answers(env, seat, mover)

    assert compare_in_worlds(dc, game, options, answers) >= 20


# -- Gymnasium

GYM_PUBLIC = {
    "action_space",
    "observation_space",
    "single_action_space",
    "single_observation_space",
    "metadata",
    "num_envs",
    "render_mode",
    "spec",
    "closed",
    "copy",
    "rules",
    "np_random_seed",
}
GYM_MOVER = {"action_masks", "step"}
GYM_LEFT_OUT = {
    "env": "the dominocore VectorEnv beneath (its round(i) is the full state, docs/ecosystem.md 4.3)",
    "unwrapped": "the environment itself",
    "reset": "deals new rounds from a seed: both worlds are replaced",
    "render": "no render modes (returns None)",
    "close": "releases nothing",
    "close_extras": "releases nothing",
    "np_random": "a generator drawn from reset's seed, used by nothing here",
}


def gym_with_round(rules: Any, round_: Any) -> Any:
    """A one-environment GymVectorEnv over the pure-Python VectorEnv,
    playing ``round_`` (a copy): the compiled VectorEnv cannot be given a
    round, and the wrapper's code is the same over both."""
    from dominocore.gymnasium_vector import GymVectorEnv

    env = GymVectorEnv(rules, num_envs=1, implementation="python")
    env.reset(seed=0)
    env.env._rounds[0] = round_.clone()
    env.env._observe(0)
    return env


def gymnasium_answers(rules: Any, round_: Any, mover: bool) -> Dict[str, Any]:
    """``step`` into ``round_`` (one move back, then its last move) and what
    the environment answers then; the observations and masks for the mover only."""
    if not round_.move_stack:
        return {}
    before = round_.clone()
    last = before.move_to_action(before.pop())
    env = gym_with_round(rules, before)
    observations, rewards, terminations, truncations, infos = env.step(np.array([last]))
    out = {name: outcome(lambda n=name: getattr(env, n)) for name in sorted(GYM_PUBLIC)}
    out.update(rewards=plain(rewards), terminations=plain(terminations), truncations=plain(truncations))
    out["infos"] = plain(infos)
    out["str"], out["repr"] = str(env), repr(env)
    if mover:
        out["observations"] = plain(observations)
        out["action_masks"] = plain(env.action_masks())
    return out


def test_gymnasium_methods_are_all_classified():
    pytest.importorskip("gymnasium")
    from dominocore.gymnasium_vector import GymVectorEnv

    env = GymVectorEnv(GAMES["block"](players=2), num_envs=1, implementation="python")
    classified = GYM_PUBLIC | GYM_MOVER | set(GYM_LEFT_OUT)
    assert public_names(env) - classified == set(), "Gymnasium methods the leak test does not classify"
    assert classified - public_names(env) == set(), "classified names the environment does not have"
    # and every method compared is asked (step's answers are its returns)
    round_ = env.env.round(0)
    round_.apply_action(round_.legal_actions()[0])
    answers = gymnasium_answers(env.rules, round_, True)
    assert GYM_PUBLIC | {"action_masks"} <= asked(answers)
    assert {"observations", "rewards", "terminations", "truncations", "infos"} <= asked(answers)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_gymnasium_answers_depend_only_on_the_seats_information(dc, game, options):
    """``step`` into the two worlds (each one move back, then the same last
    move): the observations and masks are the mover's; the rewards, the
    terminations and the infos are public."""
    pytest.importorskip("gymnasium")
    rules = GAMES[game](**options)

    def answers(round_: Any, seat: int, mover: bool) -> Dict[str, Any]:
        return gymnasium_answers(rules, round_, mover)

    assert compare_in_worlds(dc, game, options, answers) >= 20


@pytest.mark.parametrize("implementation", ["default", "python"])
def test_gymnasium_step_takes_integer_action_ids_only(dc, implementation):
    """Issue 19 item 12 (the Gymnasium side; the action type is no leak, but
    the bridges share the rule, docs/ecosystem.md): a float, a bool or a
    string is refused as ``Round.apply_action`` refuses it, naming the first
    environment refused, and nothing moves. A list mixing bools and ints
    played ``True`` as 1; a float array was VectorEnv's ``RulesError``."""
    pytest.importorskip("gymnasium")
    from dominocore.gymnasium_vector import GymVectorEnv

    env = GymVectorEnv(dc.Block(players=2), num_envs=2, implementation=implementation)
    env.reset(seed=3)
    rounds = [env.env.round(i).to_dict() for i in range(2)]
    legal = [list(dc.Round.from_dict(r).legal_actions()) for r in rounds]
    assert legal[0][0] == 6 and 1 not in legal[1]
    for actions, i, bad in (
        ([6, True], 1, True),
        ([6, 4.7], 1, 4.7),
        ([6.0, legal[1][0]], 0, 6.0),
        (np.array([6.0, legal[1][0]]), 0, 6.0),
        (np.array([True, False]), 0, True),
        (["6", legal[1][0]], 0, "6"),
        ([99, 4.7], 0, 99),
    ):
        with pytest.raises(dc.IllegalMoveError) as want:
            dc.Round.from_dict(rounds[i]).apply_action(bad)
        with pytest.raises(dc.IllegalMoveError) as info:
            env.step(actions)
        assert info.value.reason == want.value.reason == "illegal_action"
        assert str(info.value) == f"environment {i}: {want.value}"
        assert [env.env.round(k).to_dict() for k in range(2)] == rounds
    with pytest.raises(dc.RulesError, match="one action per environment"):
        env.step([6])
    env.step([np.int64(6), np.int32(legal[1][0])])
    assert [len(env.env.round(k).move_stack) for k in range(2)] == [1, 1]


# -- a test that can fail: a leaking answer is caught


def test_the_comparison_catches_an_answer_that_shows_a_hidden_hand(dc):
    game, options = CONFIGS[0]
    with pytest.raises(AssertionError, match=r"seat 0, move \d+: hand 1"):
        compare_in_worlds(dc, game, options, lambda round_, seat, mover: {"hand 1": round_.hand(1)})
