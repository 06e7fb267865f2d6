"""dominocore.openspiel: every game and rule set as an OpenSpiel game
(docs/ecosystem.md 1), checked by OpenSpiel's own random simulation test
(with serialization), played whole by OpenSpiel's MCTS and IS-MCTS bots,
and against dominocore's information model: tensors and strings are
dominocore's own, resampled states share the player's information state,
returns are the round margins."""

from __future__ import annotations

import os
import pathlib
import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from dominocore import IllegalMoveError, RulesError  # noqa: E402
from dominocore import openspiel as dos  # noqa: E402
from dominocore.common.information import history_bound  # noqa: E402
from dominocore.games import GAMES  # noqa: E402
from helpers import scaled  # noqa: E402
from open_spiel.python import observation as os_observation  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

#: Game strings of every game and rule set, at a few sizes and player counts.
CONFIGS = [
    "dominocore_chickenfoot(rule_set=trains,players=4,set=9)",
    "dominocore_chickenfoot(rule_set=trains,players=2,set=6,round_index=3,trains=3,double_blank_50=true)",
    "dominocore_chickenfoot(rule_set=cross,players=4,set=9,round_index=4)",
    "dominocore_chickenfoot(rule_set=cross,players=2,set=6,hand_size=5)",
    "dominocore_doubles(players=2)",
    "dominocore_doubles(players=4,set=9)",
    "dominocore_block(players=2)",
    "dominocore_block(players=3,lead=highest_double)",
    "dominocore_block(players=4,set=9,round_index=2)",
    # partnerships (docs/games/partnership.md): OpenSpiel's team game, and the Puerto Rico lead
    "dominocore_block(players=4,hand_size=7,teams=2,team_scoring=fewer_pips)",
    "dominocore_block(players=4,set=9,hand_size=10,teams=2,lead=puerto_rico)",
    "dominocore_mexican_train(players=4,set=9)",
    "dominocore_mexican_train(players=2,set=6,drawn_tile=may,double_blank_50=true)",
    # scoring during play (docs/games/all_fives.md): rewards move by move
    "dominocore_all_fives(players=2)",
    "dominocore_all_fives(players=4,teams=2,target=60)",
    "dominocore_all_fives(players=3,spinner=none,draw=one,reserve=0,out_points=exact)",
    "dominocore_fives_and_threes(players=2)",
    "dominocore_fives_and_threes(players=4,teams=2,spinner=first,sides_open=at_once)",
]
if os.environ.get("DOMINOCORE_LARGE") == "1":  # set by --large (tests/conftest.py)
    CONFIGS += [
        "dominocore_chickenfoot(rule_set=trains,players=5,set=12,trains=6,double_blank_50=true)",
        "dominocore_chickenfoot(rule_set=cross,players=8,set=15)",
        "dominocore_mexican_train(players=7,set=12)",
        "dominocore_doubles(players=3,set=18)",
    ]
#: Small games the search bots play whole.
BOT_CONFIGS = [
    "dominocore_chickenfoot(players=2,set=6)",
    "dominocore_chickenfoot(rule_set=cross,players=3,set=6)",
    "dominocore_doubles(players=2)",
    "dominocore_block(players=2)",
    "dominocore_mexican_train(players=2,set=6)",
]  # not All Fives: OpenSpiel's MCTS bots take only games with terminal rewards (a REWARDS game is refused)


def load(dc, name):
    """The game ``name`` played by the implementation ``dc``."""
    params = pyspiel.game_parameters_from_string(name)
    short = params.pop("name")
    params["implementation"] = dc.IMPLEMENTATION
    return pyspiel.load_game(short, params)


def deal(state, rng):
    """Play the deal's chance nodes with ``rng``."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def random_states(game, seed, count):
    """The decision states of ``count`` random rounds (with their ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = deal(game.new_initial_state(), rng)
        while True:
            yield state
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_every_game_is_registered_with_its_game_type():
    names = set(pyspiel.registered_names())
    assert set(dos.SHORT_NAMES) == set(GAMES)
    for game_id, name in dos.SHORT_NAMES.items():
        assert name in names
        game = pyspiel.load_game(name)
        kind = game.get_type()
        assert kind.short_name == name
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        rewards = "REWARDS" if GAMES[game_id].scores_in_play else "TERMINAL"  # points during play, or at the end
        assert kind.reward_model == getattr(pyspiel.GameType.RewardModel, rewards)
        assert (kind.min_num_players, kind.max_num_players) == dos.PLAYER_RANGE[game_id]
        low, high = dos.PLAYER_RANGE[game_id]  # the rules' own limits
        assert GAMES[game_id](players=low).players == low and GAMES[game_id](players=high).players == high
        for outside in (low - 1, high + 1):
            with pytest.raises(RulesError):
                GAMES[game_id](players=outside)
        assert kind.provides_information_state_string and kind.provides_information_state_tensor
        assert kind.provides_observation_string and kind.provides_observation_tensor
        assert game.rules == GAMES[game_id]()
        assert game.utility_sum() == 0.0


@pytest.mark.parametrize("name", CONFIGS)
def test_parameters_are_the_rules_options(name):
    game = pyspiel.load_game(name)
    params = pyspiel.game_parameters_from_string(name)
    params.pop("name")
    options = {k: v for k, v in params.items() if k not in ("round_index", "implementation")}
    assert game.rules == GAMES[game.game_id](**options)
    assert game.round_index == params.get("round_index", 0)
    assert game.num_distinct_actions() == game.rules.num_actions
    assert game.num_players() == game.rules.players
    assert game.max_game_length() == history_bound(game.rules)
    assert game.max_chance_outcomes() == game.rules.tile_count
    # the game's string names the same rules, defaults resolved
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and str(again) == str(game)


def test_the_action_spaces_and_bounds_of_the_defaults():
    trains = pyspiel.load_game("dominocore_chickenfoot")
    assert trains.num_distinct_actions() == 112
    # T=55, Y=51, L = 55 + 102 + 8*56 (docs/information.md 3)
    assert trains.max_game_length() == 605
    # pips of a double-9 set: 10 * 9 * 11 / 2 = 495; others' mean over 3 seats
    assert (trains.min_utility(), trains.max_utility()) == (-495.0, 165.0)
    train = pyspiel.load_game("dominocore_mexican_train")
    assert train.num_distinct_actions() == 457
    block = pyspiel.load_game("dominocore_block")
    assert (block.min_utility(), block.max_utility()) == (-168.0, 168.0)
    cross = pyspiel.load_game("dominocore_chickenfoot(rule_set=cross)")
    assert cross.rules.double_blank_50 and cross.max_utility() == (495 + 50) / 3


@pytest.mark.parametrize("name", CONFIGS)
def test_openspiel_random_sim_test_with_serialization(dc, name):
    game = load(dc, name)
    pyspiel.random_sim_test(game, num_sims=scaled(2, 10), serialize=True, verbose=False)


@pytest.mark.parametrize("name", CONFIGS)
def test_tensors_and_strings_are_dominocores_own(dc, name):
    game = load(dc, name)
    observer = os_observation.make_observation(game)
    info_observer = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert list(observer.dict) == [n for n, _ in dos.observation_planes(game.rules)]
    for i, state in enumerate(random_states(game, seed=1, count=scaled(1, 10))):
        round_ = state.round
        for seat in range(game.num_players()):
            own = round_.observation_tensor(seat)
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), own)
            if i % 5 == 0:  # OpenSpiel's C++ path, through the observer
                assert np.array_equal(np.asarray(pyspiel.State.observation_tensor(state, seat), np.float32), own)
                observer.set_from(state, seat)
                assert np.array_equal(observer.tensor, own)
                info = round_.information_state_tensor(seat)
                info_observer.set_from(state, seat)
                assert np.array_equal(info_observer.tensor, info)
                assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32), info)
                assert pyspiel.State.information_state_string(state, seat) == round_.information_state(seat)
                assert pyspiel.State.observation_string(state, seat) == state.observation_string(seat)
            assert state.information_state_string(seat) == round_.information_state(seat)
            assert state.observation_string(seat) == dos.observation_text(round_.view(seat))
        if not state.is_terminal():
            assert state.legal_actions() == list(round_.legal_actions())
            mask = state.legal_actions_mask()
            assert mask == [int(x) for x in round_.legal_action_mask()]


@pytest.mark.parametrize("name", CONFIGS)
def test_returns_are_the_round_margins_and_sum_to_zero(dc, name):
    game = load(dc, name)
    cost = game.game_id in ("chickenfoot", "mexican_train")
    ends = [s for s in random_states(game, seed=2, count=scaled(4, 40)) if s.is_terminal()]
    assert ends
    for state in ends:
        points = state.round.result.points
        p = len(points)
        returns = state.returns()
        for seat in range(p):
            others = (sum(points) - points[seat]) / (p - 1)
            if game.rules.teams == 2:  # partners hold their team's points: the team's margin
                others = points[1 - seat % 2]
            assert returns[seat] == pytest.approx(others - points[seat] if cost else points[seat] - others)
            assert game.min_utility() <= returns[seat] <= game.max_utility()
        assert sum(returns) == pytest.approx(0.0, abs=1e-9)
        if not game.rules.scores_in_play:  # everything arrives at the end
            assert state.rewards() == returns


@pytest.mark.parametrize("name", [c for c in CONFIGS if "fives" in c])
def test_rewards_arrive_move_by_move_and_add_up_to_the_returns(dc, name):
    """docs/games/all_fives.md F5: after every action the rewards are each
    seat's change in margin, their running sum is ``returns()``, and at the
    end the returns are the round margins of its points, play and end together."""
    game = load(dc, name)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    rng = np.random.RandomState(5)
    scored = 0
    for _ in range(scaled(3, 20)):
        state = game.new_initial_state()
        total = np.zeros(game.num_players())
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            rewards = np.array(state.rewards())
            scored += bool(rewards.any()) and not state.is_terminal()
            total += rewards
            assert total == pytest.approx(np.array(state.returns()))
            assert sum(state.rewards()) == pytest.approx(0.0, abs=1e-9)
        result = state.round.result
        assert state.returns() == pytest.approx(game.rules.round_margins(result.points))
    assert scored > 0  # some rewards came before the end


@pytest.mark.parametrize("name", CONFIGS)
def test_resampled_states_share_the_players_information_state(dc, name):
    game = load(dc, name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    for i, state in enumerate(random_states(game, seed=3, count=scaled(1, 5))):
        if i > scaled(60, 10**6):  # the reference's determinizer is slow late in long rounds
            break
        if state.is_terminal() or i % scaled(6, 1):
            continue
        for player in range(game.num_players()):
            if (i // 6 + player) % scaled(2, 1):
                continue
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.current_player() == state.current_player()
            assert world.legal_actions() == state.legal_actions() or player != state.current_player()
            # the OpenSpiel history: the world's deal as chance outcomes, then the same moves
            moves = len(state.round.move_stack)
            if moves:
                assert world.history()[-moves:] == state.history()[-moves:]
            assert world.round.move_stack == state.round.move_stack
            differs += world.round.hands != state.round.hands
    assert differs > 0


@pytest.mark.parametrize("name", BOT_CONFIGS)
def test_mcts_and_ismcts_bots_play_whole_rounds(dc, name):
    game = load(dc, name)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=scaled(6, 100), evaluator=evaluator, random_state=rng),
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=scaled(6, 100), random_state=rng),
    ]
    for _ in range(scaled(1, 4)):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            action = bots[state.current_player() % 2].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.round.is_over
        assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)
        assert len([a for a in state.full_history() if a.player >= 0]) <= game.max_game_length()


@pytest.mark.parametrize("name", CONFIGS)
def test_the_deal_is_the_set_up_on_a_shuffle(dc, name):
    game = load(dc, name)
    rules = game.rules
    state = game.new_initial_state()
    assert state.is_chance_node() and state.round is None
    assert state.information_state_string(0) == f"r{game.round_index};s0;dealing"
    assert not any(state.observation_tensor(0))
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    if rules.game == "chickenfoot" and rules.rule_set == "trains":
        t, p, k = rules.tile_count, rules.players, game.round_index
        assert outcomes == [(s, len([i for i in range(t) if (k + i) % p == s]) / t) for s in range(p)]
    # every deal the engine makes is a deal of the shuffle, and comes back whole
    for seed in range(scaled(6, 200)):
        round_ = dc.Round(rules, seed=seed, round_index=game.round_index)
        if seed % 2 and not round_.is_over:
            round_.apply_action(round_.legal_actions()[-1])
        rebuilt = game.new_initial_state_from_round(round_)
        assert rebuilt.round.to_dict() == round_.to_dict()
        chance = [a for a in rebuilt.full_history() if a.player == pyspiel.PlayerId.CHANCE]
        assert len(chance) == dos.chance_nodes_per_deal(rules, game.round_index)
        assert [a.action for a in chance] == dos.shuffle_of_deal(round_)[: len(chance)]


def test_a_deal_no_shuffle_gives_is_refused(dc):
    game = load(dc, "dominocore_block(players=2)")
    rules = game.rules
    tiles = [str(dc.Tile.from_index(i)) for i in range(rules.tile_count)]
    short = dc.Round.from_deal(rules, [tiles[:6], tiles[6:13]], tiles[13:], None, 0)
    with pytest.raises(dc.StateError):
        game.new_initial_state_from_round(short)
    with pytest.raises(dc.StateError):
        game.new_initial_state_from_round(dc.Round(dc.Block(players=3), seed=1))


def test_a_round_played_off_the_action_space_is_refused(dc):
    game = load(dc, "dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
    round_ = dc.Round(game.rules, seed=24)  # seat 1 leads 4-9@0; 5-9 then fits ends 1, 2, 3 alike
    round_.push("4-9@0")
    round_.push("5-9@2")  # an action id stands for the lowest equivalent end, 1
    with pytest.raises(dc.StateError, match=r"move 2 \(5-9@2\) is not its action's placement \(5-9@1\)"):
        game.new_initial_state_from_round(round_)
    round_.pop()
    round_.push("5-9@1")
    assert game.new_initial_state_from_round(round_).round.to_dict() == round_.to_dict()


def test_undone_is_the_state_one_move_back(dc):
    game = load(dc, "dominocore_doubles(players=3)")
    rng = np.random.default_rng(5)
    state = deal(game.new_initial_state(), rng)
    with pytest.raises(dc.StateError):
        state.undone()
    before = state.clone()
    state.apply_action(int(rng.choice(state.legal_actions())))
    back = state.undone()
    assert str(back) == str(before)
    assert back.history() == before.history()
    assert back.round.to_dict() == before.round.to_dict()
    with pytest.raises(pyspiel.SpielError):
        state.undo_action(before.current_player(), state.history()[-1])


def test_clone_and_serialization_keep_the_whole_state(dc):
    game = load(dc, "dominocore_chickenfoot(rule_set=cross,players=3)")
    for i, state in enumerate(random_states(game, seed=6, count=1)):
        if i % 7:
            continue
        twin = state.clone()
        assert str(twin) == str(state) and twin.history() == state.history()
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        if state.round is not None:
            assert again.round.to_dict() == state.round.to_dict()
            if not state.is_terminal():
                twin.apply_action(twin.legal_actions()[0])
                assert str(twin) != str(state)


def test_action_strings_name_the_move():
    game = pyspiel.load_game("dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
    state = game.new_initial_state_from_round(game.module.Round(game.rules, seed=7))
    first = state.legal_actions()[0]
    move = state.round.action_to_move(first)
    assert (
        state.action_to_string(first)
        == f"{move.tile} by {move.tile.low if first % 2 == 0 else move.tile.high} ({move})"
    )
    assert state.action_to_string(2 * 55) == "draw"
    assert state.action_to_string(2 * 55 + 1) == "pass"
    root = game.new_initial_state()
    assert root.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "starter 2"
    train = pyspiel.load_game("dominocore_mexican_train(players=2,set=6)")
    assert train.new_initial_state().action_to_string(0, 3 * 3 + 2) == "0-2 on the Mexican train"


def test_bad_parameters_raise():
    with pytest.raises(RulesError):
        pyspiel.load_game("dominocore_doubles(players=9)")
    with pytest.raises(RulesError):
        pyspiel.load_game("dominocore_chickenfoot(round_index=10)")
    with pytest.raises(RulesError):
        pyspiel.load_game("dominocore_chickenfoot(rule_set=cross,trains=5)")
    with pytest.raises(RulesError):
        pyspiel.load_game("dominocore_block(implementation=java)")
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel checks names and types itself
        pyspiel.load_game("dominocore_doubles(colour=red)")
    game = pyspiel.load_game("dominocore_block")
    state = deal(game.new_initial_state(), np.random.default_rng(0))
    with pytest.raises(RulesError):
        state.observation_tensor(5)
    before, moves = str(state), len(state.history())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalMoveError):
        state.apply_action(illegal)
    assert str(state) == before
    assert len(state.history()) == moves


def test_the_guides_openspiel_examples_run(capsys):
    text = (pathlib.Path(__file__).parent.parent / "docs" / "ecosystem.md").read_text()
    blocks = [code for code in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "pyspiel" in code]
    assert len(blocks) == 2
    for code in blocks:
        exec(compile(code, "docs/ecosystem.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert sum(eval(line)) == pytest.approx(0.0, abs=1e-9)


def test_action_ids_are_integers_as_in_round_apply_action(dc):
    """Issue 19 item 12: a float, a string or a bool is not an action id
    (docs/validation.md, "Integers"). OpenSpiel's binding took ``True`` for
    1 and refused floats with a ``TypeError``; the bridge refuses them as
    ``Round.apply_action`` does, with nothing changed, and takes numpy
    integers."""
    game = load(dc, "dominocore_block(players=2)")
    root = game.new_initial_state()
    for bad in (True, 1.0, "1"):
        with pytest.raises(IllegalMoveError) as info:
            root.apply_action(bad)
        assert info.value.reason == "illegal_action"
        assert str(info.value).startswith(f"illegal action {bad!r}: it is not legal now (legal: 0, 1, 2, ")
    assert root.history() == [] and root.is_chance_node()
    state = game.new_initial_state_from_round(dc.Round(game.rules, seed=3))
    legal = state.legal_actions()
    assert legal == [6, 10, 28, 32, 34, 36, 48]
    history, record = state.history(), state.round.to_dict()
    for bad in (6.0, 6.7, "6", np.float64(6), True, np.bool_(True), None, [6]):
        expected = dc.Round.from_dict(record)
        with pytest.raises(IllegalMoveError) as want:
            expected.apply_action(bad)
        for call in (state.apply_action, state.apply_action_with_legality_check, state.child):
            with pytest.raises(IllegalMoveError) as info:
                call(bad)
            assert info.value.reason == want.value.reason == "illegal_action"
            assert str(info.value) == str(want.value)
            assert state.history() == history and state.round.to_dict() == record
    assert state.child(np.int64(6)).history() == history + [6]
    state.apply_action(np.int64(6))
    assert state.history() == history + [6]


def test_string_to_action_finds_nothing_for_a_seat_not_to_move(dc):
    """OpenSpiel's ``string_to_action(player, text)`` looks the text up
    among the mover's legal actions whatever the player: a seat not to move
    learnt which placements the mover holds. Only the mover finds one now."""
    game = load(dc, "dominocore_block(players=2)")
    state = game.new_initial_state_from_round(dc.Round(game.rules, seed=3))
    assert state.current_player() == 0 and 6 in state.legal_actions() and 8 not in state.legal_actions()
    assert state.string_to_action(0, "0-2 by 0 (0-2@0)") == state.string_to_action("0-2 by 0 (0-2@0)") == 6
    for text in ("0-2 by 0", "0-2 by 0 (0-2@0)", "0-3 by 0"):
        with pytest.raises(pyspiel.SpielError, match=f"^Couldn't find an action matching {re.escape(text)}$"):
            state.string_to_action(1, text)


# --------------------------------------------------------------------------- issue 20, item 3


def _ecosystem_example(section: str) -> str:
    """The Python example under a heading of docs/ecosystem.md."""
    page = (pathlib.Path(__file__).parent.parent / "docs" / "ecosystem.md").read_text(encoding="utf-8")
    return re.search(r"```python\n(.*?)```", page[page.index(section) :], flags=re.S).group(1)


def test_the_ismcts_example_gives_the_same_game_in_two_processes():
    """docs/ecosystem.md 1.8 with RandomState(0) gave [36, -36], [24, -24] and
    [28, -28] in three runs: ISMCTSBot's own sampler is seeded anew in every
    process. With the bridge's resampler the worlds come from the caller's rng."""
    import subprocess
    import sys

    code = _ecosystem_example("### 1.8 Search bots")
    assert "set_resampler(dominocore.openspiel.resampler(rng))" in code
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and runs[0].startswith("[")


def test_the_resampler_takes_every_world_from_the_callers_generator():
    game = pyspiel.load_game("dominocore_chickenfoot(players=3,set=6)")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()

    def worlds(seed):
        resample = dos.resampler(seed)
        return [resample(state, player) for _ in range(5)]

    def histories(seed):
        return [world.history() for world in worlds(seed)]

    assert histories(3) == histories(np.random.RandomState(3)) != histories(4)
    assert histories(np.random.default_rng(3)) == histories(np.random.default_rng(3))
    assert len({tuple(h) for h in histories(3)}) > 1  # each call a new world
    for world in worlds(3):  # what the player knows is unchanged
        assert world.information_state_string(player) == state.information_state_string(player)
    with pytest.raises(RulesError, match="random_state must be a numpy RandomState"):
        dos.resampler("seed")
