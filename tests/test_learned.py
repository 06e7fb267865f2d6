"""The learned policy (docs/learning.md): the weights file, the network's
integers and the ``"learned"`` policy, in both engines.

The engines read the file with their own code (C++ and numpy) and must give
the same integers for every observation, so the same move at every step.
Test networks are written here with random integer weights (no training
needed) for rules that ship no network, so they never replace a shipped one.
"""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path
from typing import Any, Dict

import dominocore
import dominocore.reference as reference
import numpy as np
import pytest
from dominocore.common.errors import RulesError, StateError
from dominocore.common.learned import MAGIC, fnv1a64, network_key, shipped_keys, shipped_weights, write_network
from helpers import needs_core, network_bytes, scaled, view_with

native = pytest.importorskip("dominocore.native") if importlib.util.find_spec("dominocore._core") else None

#: Rules with no shipped network, one per game and a partnership game.
TEST_RULES = {
    "trains": dict(game="ChickenFoot", players=3, set=6, rule_set="trains"),
    "cross": dict(game="ChickenFoot", players=3, set=9, rule_set="cross"),
    "doubles": dict(game="Doubles", players=3, set=6),
    "block": dict(game="Block", players=3, set=6),
    "mexican": dict(game="MexicanTrain", players=3, set=6),
    "partnership": dict(game="Block", players=4, set=6, hand_size=7, teams=2),
    "all_fives": dict(game="AllFives", players=3, set=6),
    "fives_threes": dict(game="FivesAndThrees", players=3, set=6),
}


def make_rules(engine: Any, spec: Dict[str, Any]) -> Any:
    spec = dict(spec)
    return getattr(engine, spec.pop("game"))(**spec)


def load_both(data: bytes) -> None:
    reference.load_network(data)
    if native is not None:
        native.load_network(data)


@pytest.fixture(scope="module")
def test_networks() -> Dict[str, bytes]:
    """Every test rules' network, loaded in both engines."""
    nets = {}
    for name, spec in TEST_RULES.items():
        nets[name] = network_bytes(make_rules(reference, spec), seed=len(nets) + 1)
        load_both(nets[name])
    return nets


# ---- the two engines compute the same integers --------------------------------


@needs_core
@pytest.mark.parametrize("name", sorted(TEST_RULES))
def test_the_engines_compute_the_same_outputs_at_every_step(name: str, test_networks: Dict[str, bytes]) -> None:
    spec = TEST_RULES[name]
    ref_rules, core_rules = make_rules(reference, spec), make_rules(dominocore, spec)
    ref_net, core_net = reference.network_for(ref_rules), native.network_for(core_rules)
    steps = 0
    for seed in range(scaled(3, 30)):
        a, b = reference.Round(ref_rules, seed=seed), dominocore.Round(core_rules, seed=seed)
        while not a.is_over:
            for seat in range(ref_rules.players):
                assert ref_net.outputs(a, seat) == core_net.outputs(b, seat)
            move = reference.LearnedPlayer().choose(a)
            assert dominocore.LearnedPlayer().choose(b) == move
            a.push(move)
            b.push(move)
            steps += 1
    assert steps > 20


@needs_core
@pytest.mark.parametrize("name", sorted(TEST_RULES))
def test_simulate_with_learned_seats_agrees_move_for_move(name: str, test_networks: Dict[str, bytes]) -> None:
    spec = TEST_RULES[name]
    players = spec["players"]
    lineup = ["learned", "random", "greedy", "learned"][:players]
    rounds = scaled(40, 400)
    ref = reference.simulate(make_rules(reference, spec), rounds=rounds, policy=lineup, seed=11)
    core = dominocore.simulate(make_rules(dominocore, spec), rounds=rounds, policy=lineup, seed=11)
    threaded = dominocore.simulate(make_rules(dominocore, spec), rounds=rounds, policy=lineup, seed=11, threads=2)
    for field in ("points", "moves", "reason", "out_seat"):
        assert np.array_equal(getattr(ref, field), getattr(core, field)), field
        assert np.array_equal(getattr(core, field), getattr(threaded, field)), field


@needs_core
def test_matches_with_learned_seats_agree(test_networks: Dict[str, bytes]) -> None:
    spec = TEST_RULES["block"]
    for seed in range(scaled(3, 20)):
        ref = reference.Match(make_rules(reference, spec), seed=seed).play(["learned", "random", "learned"])
        core = dominocore.Match(make_rules(dominocore, spec), seed=seed).play(["learned", "random", "learned"])
        assert ref.totals == core.totals
        assert [r.points for r in ref.results] == [r.points for r in core.results]


def test_the_policy_is_the_largest_legal_logit_lowest_id_on_ties(dc: Any, test_networks: Dict[str, bytes]) -> None:
    rules = make_rules(dc, TEST_RULES["trains"])
    net = dc.network_for(rules)
    r = dc.Round(rules, seed=5)
    checked = 0
    while not r.is_over:
        out = net.outputs(r, r.current_player)
        legal = r.legal_actions()
        best = max(out[a] for a in legal)
        expected = min(a for a in legal if out[a] == best)
        move = dc.LearnedPlayer().choose(r)
        assert r.move_to_action(move) == expected
        assert net.value(r, r.current_player) == out[-1] / 1000.0
        r.push(move)
        checked += 1
    assert checked > 5


def test_a_tie_goes_to_the_lowest_action_id(dc: Any, tmp_path: Path) -> None:
    # All-zero weights: every logit is the bias, and equal biases tie everywhere.
    rules = dc.Block(players=3, set=7)
    probe = reference.Round(make_rules(reference, dict(game="Block", players=3, set=7)), seed=0)
    inputs, actions = probe.observation_tensor_shape[0], probe.num_actions
    path = tmp_path / "tie.dcnet"
    layers = [(np.zeros((4, inputs), np.int16), np.zeros(4, np.int32), 0),
              (np.zeros((actions + 1, 4), np.int16), np.full(actions + 1, 7, np.int32), 0)]  # fmt: skip
    write_network(path, network_key(rules), inputs, actions, layers, 1.0, 1.0)
    dc.load_network(path)
    path.unlink()
    r = dc.Round(rules, seed=3)
    for _ in range(10):
        if r.is_over:
            break
        move = dc.LearnedPlayer().choose(r)
        assert r.move_to_action(move) == min(r.legal_actions())
        r.push(move)


# ---- the shipped networks -----------------------------------------------------------


SHIPPED = shipped_keys()


def rules_of_key(engine: Any, key: str) -> Any:
    parts = key.split("-")
    game = parts[0]
    numbers = {p[0]: int(p[1:]) for p in parts[1:] if p[0] in "dpt" and p[1:].isdigit()}
    if game == "chickenfoot":
        return engine.ChickenFoot(players=numbers["p"], set=numbers["d"], rule_set=parts[1])
    maker = {"doubles": engine.Doubles, "block": engine.Block, "mexican_train": engine.MexicanTrain}[game]
    return maker(players=numbers["p"], set=numbers["d"])


def test_the_package_ships_the_four_search_table_networks() -> None:
    assert set(SHIPPED) >= {"chickenfoot-trains-d9-p4", "chickenfoot-cross-d9-p4", "doubles-d6-p4", "block-d6-p2"}
    for key in SHIPPED:
        size = shipped_weights(key).stat().st_size
        assert size < 400_000, (key, size)  # "a few hundred KB per game at most"


@needs_core
@pytest.mark.parametrize("key", SHIPPED)
def test_the_shipped_networks_play_the_same_moves_in_both_engines(key: str) -> None:
    rounds = scaled(30, 300)
    lineup = "learned"
    ref = reference.simulate(rules_of_key(reference, key), rounds=rounds, policy=lineup, seed=3)
    core = dominocore.simulate(rules_of_key(dominocore, key), rounds=rounds, policy=lineup, seed=3)
    assert np.array_equal(ref.points, core.points)
    assert np.array_equal(ref.moves, core.moves)
    assert reference.network_for(rules_of_key(reference, key)).key == key


# ---- bad weights files and mismatched rules -------------------------------------------


def good_file() -> bytes:
    return network_bytes(make_rules(reference, dict(game="Doubles", players=2, set=7)), seed=99)


def rechecksum(body: bytes) -> bytes:
    return body + struct.pack("<Q", fnv1a64(body))


def damaged_files() -> Dict[str, bytes]:
    good = good_file()
    body = good[:-8]
    key_length = struct.unpack_from("<I", body, 8)[0]
    sizes_at = 12 + key_length  # inputs, actions, layers
    layer0_at = sizes_at + 12
    weights_at = layer0_at + 3 * 12
    return {
        "not a dominocore network": b"PK\x03\x04" + good[4:],
        "format version 2": MAGIC[:7] + b"\x02" + good[8:],
        "checksum mismatch": good[:-9] + bytes([good[-9] ^ 1]) + good[-8:],
        "truncated": rechecksum(body[: len(body) - 100]),
        "bytes after the scales": rechecksum(body + b"\x00\x00"),
        "layers is 0": rechecksum(body[: sizes_at + 8] + struct.pack("<I", 0) + body[sizes_at + 12 :]),
        "hidden rows is 300": rechecksum(body[:layer0_at] + struct.pack("<I", 300) + body[layer0_at + 4 :]),
        "columns is": rechecksum(body[: layer0_at + 4] + struct.pack("<I", 5) + body[layer0_at + 8 :]),
        "shift is 31": rechecksum(body[: layer0_at + 8] + struct.pack("<I", 31) + body[layer0_at + 12 :]),
        "-32768": rechecksum(body[:weights_at] + struct.pack("<h", -32768) + body[weights_at + 2 :]),
        "value scales must be positive": rechecksum(body[:-8] + struct.pack("<d", -1.0)),
        "logit and value scales": rechecksum(body[:-16] + struct.pack("<d", float("nan")) + body[-8:]),
        "too short": b"DCNET",
    }


@pytest.mark.parametrize("problem", sorted(damaged_files()))
def test_a_bad_weights_file_is_a_clear_error_and_loads_nothing(dc: Any, problem: str) -> None:
    data = damaged_files()[problem]
    rules = dc.Doubles(players=2, set=7)
    with pytest.raises(RulesError, match="weights file"):
        dc.load_network(data)
    with pytest.raises(RulesError, match="no learned network"):
        dc.network_for(rules)
    if problem != "too short":
        assert problem.split(" is")[0] in str(pytest.raises(RulesError, dc.load_network, data).value)


def test_weights_for_other_rules_are_refused_before_anything_changes(dc: Any, test_networks: Dict[str, bytes]) -> None:
    # A file whose key says Block double-8 for 3 but whose sizes are double-6's. The
    # double-6 network is the one both engines hold already: loading another in one
    # engine only would make them disagree in every later test of "block".
    data = test_networks["block"]
    body = data[:-8].replace(b"block-d6-p3", b"block-d8-p3")
    dc.load_network(rechecksum(body))
    rules8 = dc.Block(players=3, set=8)
    match = dc.Match(rules8, seed=1)
    before = match.to_dict()
    with pytest.raises(RulesError, match="inputs and .* actions"):
        match.play("learned")
    assert match.to_dict() == before
    with pytest.raises(RulesError, match="inputs"):
        dc.simulate(rules8, rounds=3, policy=["learned", "greedy", "random"])
    net = dc.load_network(data)
    with pytest.raises(RulesError, match="for block-d6-p3, not for block-d8-p3"):
        net.check_rules(rules8)


def test_rules_with_no_network_name_the_shipped_ones(dc: Any) -> None:
    rules = dc.Doubles(players=2, set=12)
    with pytest.raises(RulesError, match="no learned network is loaded for doubles-d12-p2 .*shipped: "):
        dc.simulate(rules, rounds=2, policy="learned")
    match = dc.Match(rules, seed=1)
    before = match.to_dict()
    with pytest.raises(RulesError, match="no learned network"):
        match.play(["learned", "ismcts"] if dc.IMPLEMENTATION == "cpp" else ["learned", "random"])
    assert match.to_dict() == before
    with pytest.raises(RulesError, match="no learned network"):
        dc.LearnedPlayer().choose(dc.Round(rules, seed=1))


def test_the_learned_player_refuses_what_is_not_a_round_in_play(dc: Any, test_networks: Dict[str, bytes]) -> None:
    player = dc.LearnedPlayer()
    assert repr(player) == "<LearnedPlayer>"
    with pytest.raises(TypeError, match="Round"):
        player.choose("a round")
    r = dc.Round(make_rules(dc, TEST_RULES["block"]), seed=1)
    while not r.is_over:
        r.push(player.choose(r))
    with pytest.raises(StateError, match="over"):
        player.choose(r)


def test_learned_plays_in_tournaments_and_as_a_bot_name(dc: Any, test_networks: Dict[str, bytes]) -> None:
    rules = make_rules(dc, TEST_RULES["block"])
    result = dominocore.tournament(rules, ["learned", "greedy", "random"], rounds=6, seed=2, progress=False,
                                   _implementation=dc.IMPLEMENTATION)  # fmt: skip
    assert result.bots == ["learned", "greedy", "random"]
    assert result.deals == 6


SEARCH_OPTIONS = [
    dict(prior=True), dict(prior="seat"), dict(leaf="learned"),
    dict(prior=True, leaf="learned"), dict(rollout="learned"),
]  # fmt: skip


@needs_core
@pytest.mark.parametrize("options", SEARCH_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_searches_with_the_network_see_only_the_view(
    options: Dict[str, Any], test_networks: Dict[str, bytes]
) -> None:
    rules = make_rules(dominocore, TEST_RULES["trains"])
    searched = 0
    for seed in range(4):
        r = dominocore.Round(rules, seed=seed)
        while not r.is_over and searched < 12 * (seed + 1):
            if len(r.legal_actions()) > 1:
                from_view = dominocore.ISMCTSPlayer(iterations=60, seed=seed, **options).search(
                    r.view(r.current_player)
                )
                from_round = dominocore.ISMCTSPlayer(iterations=60, seed=seed, **options).search(r)
                # the true hands make no difference: the round gives the search its view gives
                for key in ("move", "moves", "visits", "mean_reward", "iterations", "nodes"):
                    assert from_view[key] == from_round[key], key
                assert from_view["move"] in r.legal_moves()
                assert sum(from_view["visits"]) == 60
                searched += 1
            r.push(dominocore.GreedyPlayer().choose(r))
    assert searched >= 12


@needs_core
def test_the_search_options_for_the_network_are_checked() -> None:
    with pytest.raises(RulesError, match="leaf must be one of"):
        dominocore.ISMCTSPlayer(leaf="value")
    with pytest.raises(RulesError, match="prior must be False, True or .seat."):
        dominocore.ISMCTSPlayer(prior=1)
    with pytest.raises(RulesError, match="needs reward='margin'"):
        dominocore.ISMCTSPlayer(leaf="learned", reward="own")
    with pytest.raises(RulesError, match="rollout must be one of"):
        dominocore.PIMCPlayer(rollout="clever")
    assert "prior=True leaf='learned'" in repr(dominocore.PIMCPlayer(prior=True, leaf="learned"))
    no_network = dominocore.Round(dominocore.Doubles(players=2, set=12), seed=1)
    for options in SEARCH_OPTIONS:
        with pytest.raises(RulesError, match="no learned network"):
            dominocore.ISMCTSPlayer(iterations=10, **options).choose(no_network.view(no_network.current_player))


@needs_core
def test_puct_follows_the_prior_where_the_rewards_tie() -> None:
    # With c large, PUCT's visits follow the prior; the prior's favourite is the learned move.
    rules = dominocore.ChickenFoot(players=4, set=9)
    net = dominocore.network_for(rules)
    r = dominocore.Round(rules, seed=8)
    while len(r.legal_actions()) < 3:
        r.push(dominocore.GreedyPlayer().choose(r))
    result = dominocore.ISMCTSPlayer(iterations=3000, c=1000.0, prior=True, seed=1).search(r)
    out = net.outputs(r, r.current_player)
    logits = [out[r.move_to_action(m)] for m in result["moves"]]
    assert result["visits"].index(max(result["visits"])) == logits.index(max(logits))
    assert result["move"] == dominocore.LearnedPlayer().choose(r)


# ---- training, a smoke run ---------------------------------------------------------------


@needs_core
def test_a_smoke_training_run_writes_a_network_both_engines_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from dominocore.learning import selfplay, train

    data = tmp_path / "block.npz"
    selfplay.main(["--config", "block-d6-p2", "--rounds", "30", "--iterations", "20", "--out", str(data)])
    train.main(["--config", "block-d6-p2", "--data", str(data), "--out-dir", str(tmp_path), "--log-dir", str(tmp_path),
                "--epochs", "2", "--hidden", "16"])  # fmt: skip
    weights = tmp_path / "block-d6-p2.dcnet"
    assert (tmp_path / "block-d6-p2-curve.csv").read_text().count("\n") == 3
    ref_net = reference.Network(weights.read_bytes())
    core_net = native.Network(dominocore._core.Network.parse(weights.read_bytes()))
    r = dominocore.Round(dominocore.Block(players=2), seed=4)
    rr = reference.Round(reference.Block(players=2), seed=4)
    assert ref_net.outputs(rr, 0) == core_net.outputs(r, 0)
    assert ref_net.hidden == core_net.hidden == [16]


# ---- VectorEnv ----------------------------------------------------------------------------


@needs_core
@pytest.mark.parametrize("name", ["trains", "mexican", "all_fives"])
def test_vector_env_steps_the_learned_policy_as_the_reference_does(name: str, test_networks: Dict[str, bytes]) -> None:
    spec = TEST_RULES[name]
    core = dominocore.VectorEnv(make_rules(dominocore, spec), num_envs=6, seed=4, threads=2)
    ref = reference.VectorEnv(make_rules(reference, spec), num_envs=6, seed=4)
    core.reset(seed=4)
    ref.reset(seed=4)
    ended = 0
    for _ in range(scaled(60, 400)):
        a, b = core.step_learned(), ref.step_learned()
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
        ended += int(a[2].sum())
    assert ended > 0  # whole rounds were played, and the next ones dealt


def test_vector_env_without_a_network_refuses_and_moves_nothing(dc: Any) -> None:
    env = dc.VectorEnv(dc.Doubles(players=2, set=12), num_envs=3, seed=1)
    observations, masks, seats = (np.array(x) for x in env.reset(seed=1))
    with pytest.raises(RulesError, match="no learned network"):
        env.step_learned()
    assert np.array_equal(env.masks, masks) and np.array_equal(env.seats, seats)
    assert (env.actions == -1).all()


# ---- the command line ---------------------------------------------------------------------


def test_the_command_line_plays_learned_and_refuses_rules_without_a_network(capsys: Any) -> None:
    from dominocore import cli

    argv = ["simulate", "--game", "block", "--players", "2", "--policy", "learned,greedy", "--rounds", "50"]
    assert cli.main(argv + ["--seed", "3"]) == 0
    out = capsys.readouterr().out
    sim = dominocore.simulate(dominocore.Block(players=2), rounds=50, seed=3, policy=["learned", "greedy"])
    assert "policy learned,greedy" in out.splitlines()[0] or "learned" in out.splitlines()[0]
    assert f"mean moves {sim.moves.mean():.1f}" in out
    for command in (["simulate"], ["--seed", "1"], ["play", "--bots"]):
        with pytest.raises(SystemExit) as exc:
            if command[0] == "play":
                cli.main(["play", "--game", "doubles", "--players", "2", "--bots", "learned"])
            else:
                cli.main([*command, "--game", "doubles", "--players", "2", "--policy", "learned"])
        assert exc.value.code == 2
        last = capsys.readouterr().err.splitlines()[-1]
        assert ": error: " in last and "no learned network is loaded for doubles-d6-p2" in last


@pytest.mark.parametrize("name", sorted(TEST_RULES))
def test_the_learned_player_chooses_from_a_view_what_it_chooses_in_the_round(
    dc: Any, name: str, test_networks: Dict[str, bytes]
) -> None:
    rules = make_rules(dc, TEST_RULES[name])
    player = dc.LearnedPlayer()
    checked = 0
    for seed in range(3):
        r = dc.Round(rules, seed=seed)
        while not r.is_over:
            assert player.choose(r.view(r.current_player)) == player.choose(r)
            checked += 1
            r.push(player.choose(r))
    assert checked > 20
    other = (r.current_player + 1) % rules.players if not r.is_over else 0
    with pytest.raises(StateError):
        player.choose(r.view(other))  # over, or not the viewer's turn


@pytest.mark.parametrize("name", sorted(TEST_RULES))
def test_the_position_of_a_view_observes_what_the_round_does(name: str) -> None:
    """Every seat's view at every position of random rounds: the position
    rebuilt from the view alone has the round's observation for that seat,
    and the round's open ends, trains and arms (the action ids read them)."""
    rules = make_rules(reference, TEST_RULES[name])
    positions = 0
    for seed in range(scaled(3, 20)):
        r = reference.Round(rules, seed=seed)
        player = reference.RandomPlayer(seed=seed)
        while not r.is_over:
            for seat in range(rules.players):
                position = reference.Round._of_view(r.view(seat))
                np.testing.assert_array_equal(position.observation_tensor(seat), r.observation_tensor(seat))
                assert (position._ends, position._trains, position._arms) == (r._ends, r._trains, r._arms)
                positions += 1
            r.push(player.choose(r))
    assert positions > 100
    with pytest.raises(StateError, match="over"):
        reference.Round._of_view(r.view(0))


@needs_core
@pytest.mark.parametrize("name", sorted(TEST_RULES))
def test_the_reference_plays_from_a_view_of_the_core_what_the_core_plays(
    name: str, test_networks: Dict[str, bytes]
) -> None:
    r = dominocore.Round(make_rules(dominocore, TEST_RULES[name]), seed=5)
    moves = 0
    while not r.is_over:
        move = dominocore.LearnedPlayer().choose(r)
        assert reference.LearnedPlayer().choose(r.view(r.current_player)) == move
        r.push(move)
        moves += 1
    assert moves > 5


def test_the_reference_learned_player_refuses_a_view_no_round_gives(test_networks: Dict[str, bytes]) -> None:
    r = reference.Round(make_rules(reference, TEST_RULES["trains"]), seed=2)
    player = reference.LearnedPlayer()
    while len(r.layout) < 4:
        r.push(player.choose(r))
    v = r.view(r.current_player)
    first, *rest = v.open_ends
    placed = next(i for i, h in enumerate(v.history) if h.move.is_place)
    entry = v.history[placed]
    unknown_end = entry._replace(move=entry.move._replace(end=99))
    out_of_turn = entry._replace(seat=(entry.seat + 1) % 3)
    history = v.history[:placed], v.history[placed + 1 :]
    fields = "inconsistent view: its public fields are not what its history gives"
    bad = {  # each view, and the check that must refuse it
        "no centre": (view_with(v, centre=None), "the centre must be a double"),
        "a move out of turn": (
            view_with(v, history=history[0] + (out_of_turn,) + history[1]),
            f"move {placed} is seat {out_of_turn.seat}'s",
        ),
        "a lock no double gives": (view_with(v, unlocked=()), fields),
        "a marker no pass gives": (view_with(v, markers=(True,) * 3), fields),
        "an open end's number": (
            view_with(v, open_ends=(first._replace(number=(first.number + 1) % 7), *rest)),
            fields,
        ),
        "an open end too few": (view_with(v, open_ends=tuple(rest), trains=v.trains[1:]), fields),
        "a placement on an end never open": (
            view_with(v, history=history[0] + (unknown_end,) + history[1]),
            f"move {placed} ({unknown_end.move}) does not replay",
        ),
        "a legal move on an end not open": (
            view_with(v, _legal_moves=(v.legal_moves()[0]._replace(end=first.id + 50),) + v.legal_moves()[1:]),
            "its legal actions are not those of its legal moves",
        ),
    }
    for problem, (view, message) in bad.items():
        with pytest.raises(StateError) as exc:
            player.choose(view)
        assert message in str(exc.value), problem
    with pytest.raises(StateError, match="malformed view"):
        player.choose(view_with(v, hand=object()))
    assert player.choose(v) == player.choose(r)  # the real view still plays


# ---- the learned opponent model (docs/information.md 5) ------------------------------------


def test_the_learned_opponent_model_needs_a_network_and_says_so(dc: Any) -> None:
    model = dc.OpponentModel("learned", temperature=2.0)
    assert repr(model) == "OpponentModel('learned', temperature=2.0)"
    r = dc.Round(dc.Doubles(players=2, set=12), seed=1)
    for _ in range(4):
        r.push(r.legal_moves()[0])
    with pytest.raises(RulesError, match="no learned network is loaded for doubles-d12-p2"):
        r.determinizer(r.current_player, model=model, candidates=4)
    shipped = dc.Round(dc.Block(players=2), seed=1)
    det = shipped.determinizer(shipped.current_player, model="learned", candidates=4)
    assert "model=OpponentModel('learned', temperature=3.0)" in repr(det)
    assert det.log_likelihood(det.sample(1)) <= 0.0


@needs_core
def test_the_search_takes_the_learned_opponent_model() -> None:
    r = dominocore.Round(dominocore.Block(players=2), seed=6)
    for _ in range(3):
        r.push(dominocore.GreedyPlayer().choose(r))
    while len(r.legal_actions()) < 2:
        r.push(dominocore.GreedyPlayer().choose(r))
    bot = dominocore.ISMCTSPlayer(iterations=200, seed=3, model="learned", candidates=4)
    from_view = bot.search(r.view(r.current_player))
    again = dominocore.ISMCTSPlayer(iterations=200, seed=3, model="learned", candidates=4).search(r)
    assert from_view["visits"] == again["visits"] and sum(from_view["visits"]) == 200
    with pytest.raises(RulesError, match="no learned network"):
        no_net = dominocore.Round(dominocore.Doubles(players=2, set=12), seed=1)
        dominocore.ISMCTSPlayer(iterations=10, model="learned").choose(no_net.view(no_net.current_player))
