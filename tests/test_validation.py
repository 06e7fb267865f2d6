"""Regression tests for the fuzzing findings, with their reproducers, in both
implementations (docs/validation.md): no crash, no silent wrong move, the
documented error class, and nothing changed by a rejected call."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers import import_core
from scenario_helpers import deal

native = import_core()


@pytest.fixture
def round_(dc):
    return dc.Round(dc.ChickenFoot(players=4), seed=7)


# --------------------------------------------------------------------------- crashes


def test_simulate_caps_threads_instead_of_aborting(dc):
    # Reproducer: threads=40_000 aborted the interpreter (joinable threads destroyed).
    with pytest.raises(dc.RulesError, match="threads"):
        dc.simulate(dc.Doubles(players=2, target=1), matches=640_000, threads=40_000)
    assert dc.simulate(dc.Doubles(players=2, target=1), matches=3, threads=256).totals.shape == (3, 2)


def test_simulate_survives_threads_the_system_refuses():
    # Reproducer: threads=500 under a memory limit aborted the interpreter.
    # Under an address-space limit the threads' stacks cannot all be mapped.
    code = textwrap.dedent(
        """
        import resource, dominocore.native as dc
        with open("/proc/self/statm") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (in_use + (256 << 20), resource.RLIM_INFINITY))
        try:
            dc.simulate(dc.Doubles(players=2, target=1), matches=20_000, threads=200)
        except RuntimeError as exc:
            print("RuntimeError:", exc)
        else:
            print("ran")
        """
    )
    if not sys.platform.startswith("linux"):
        pytest.skip("uses /proc and RLIMIT_AS")
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer maps terabytes of shadow memory: an address-space limit does not apply")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("RuntimeError: simulate could not start"), out.stdout


def test_every_method_of_an_uninitialised_round_raises_type_error(dc):
    # Reproducer: r = Round.__new__(Round); r.pop() segfaulted, str(r) too.
    r = dc.Round.__new__(dc.Round)
    calls = [
        lambda: r.pop(),
        lambda: str(r),
        lambda: repr(r),
        lambda: r.legal_action_mask(),
        lambda: r.legal_actions(),
        lambda: r.apply_action(0),
        lambda: r.push("draw"),
        lambda: r.legal_moves(),
        lambda: r.is_over,
        lambda: r.hand(0),
        lambda: r.clone(),
        lambda: r.to_dict(),
        lambda: pickle.dumps(r),
        lambda: copy.deepcopy(r),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="not initialised"):
            call()


@pytest.mark.parametrize("name", ["Match", "SplitMix64", "RandomPlayer"])
def test_other_uninitialised_objects_raise_type_error(dc, name):
    cls = getattr(dc, name)
    obj = cls.__new__(cls)
    method = {"Match": "play", "SplitMix64": "next", "RandomPlayer": "choose"}[name]
    with pytest.raises(TypeError, match="not initialised"):
        getattr(obj, method)() if name != "RandomPlayer" else obj.choose(dc.Round(dc.Doubles(), seed=1))


def test_uninitialised_core_objects_raise_type_error():
    core = import_core("dominocore._core")
    for cls, call in [
        (core.RoundCore, lambda o: o._pop()),
        (core.RoundCore, lambda o: o._moves),
        (core.RoundCore, lambda o: str(o)),
        (core.SplitMix64, lambda o: o.next()),
        (core.RandomPlayerCore, lambda o: o._choose(core.RoundCore.__new__(core.RoundCore))),
    ]:
        with pytest.raises(TypeError):
            call(cls.__new__(cls))


# --------------------------------------------------------------------------- silent wrong results


def test_tiles_take_their_halves_in_either_order(dc):
    assert dc.Tile(8, 7) == dc.Tile(7, 8) == dc.Tile.parse("8-7")
    assert (dc.Tile(8, 7).low, dc.Tile(8, 7).high) == (7, 8)
    assert dc.Tile(np.int64(3), 5) == dc.Tile(3, 5) and type(dc.Tile(np.int64(3), 5).low) is int


@pytest.mark.parametrize("halves", [(-1, -1), (19, 0), (3, 2**70), (True, 2), (1.0, 2), ("1", 2)])
def test_bad_tile_halves_raise_parse_error(dc, halves):
    with pytest.raises(dc.ParseError):
        dc.Tile(*halves)


@pytest.mark.parametrize(
    "fields",
    [("place", (3, 9), -4095), ("place", (2, 9), True), ("place", (2, 9), 4096), ("place", (2, 9), 1.0),
     ("place", (2, 9), None), ("place", None, 0), ("draw", (2, 9), None), ("pass", None, 3), ("jump", None, None),
     (None, None, None)],
)  # fmt: skip
def test_malformed_moves_cannot_be_built(dc, fields):
    kind, halves, end = fields
    tile = None if halves is None else dc.Tile(*halves)
    with pytest.raises(dc.ParseError):
        dc.Move(kind, tile, end)


def test_a_hand_built_move_plays_exactly_itself(dc):
    # Reproducer: Move("place", Tile(8, 7), 4) played 0-8@4 in the core.
    r = dc.Round(dc.ChickenFoot(players=4), seed=7)
    move = dc.Move("place", dc.Tile(9, 2), 0)
    assert move == dc.Move.parse("2-9@0")
    assert r.is_legal(move) and move in r.legal_moves()
    r.push(move)
    assert r.move_stack == [dc.Move.parse("2-9@0")]
    assert r.to_dict()["moves"] == ["2-9@0"]


def test_tiles_outside_the_set_are_not_in_hand(dc):
    r = dc.Round(dc.Doubles(players=2), seed=3)  # a double-6 set
    before = r.to_dict()
    assert not r.is_legal("9-9@0") and not r.is_legal(dc.Move("place", dc.Tile(18, 18), 0))
    with pytest.raises(dc.IllegalMoveError) as err:
        r.push("9-9@0")
    assert err.value.reason == "not_in_hand" and r.to_dict() == before


@pytest.mark.parametrize(
    "garbage",
    ["2-9@²", "2-9@" + "9" * 5000, "２-９@０", "2-9@-1", "2-9@4096", "-1--1@0", "19-2@0", "draw now", "", None, 42,
     b"draw", 2.5, object(), ("place", "2-9", 0)],
)  # fmt: skip
def test_is_legal_never_raises_and_push_rejects(dc, round_, garbage):
    before = round_.to_dict()
    assert round_.is_legal(garbage) is False
    with pytest.raises(dc.ParseError):
        round_.push(garbage)
    assert round_.to_dict() == before


def test_notation_grammar(dc):
    assert dc.Move.parse(" 2-9 @ 0 ") == dc.Move.parse("9-2@0") == dc.Move("place", dc.Tile(2, 9), 0)
    assert dc.Move.parse("DRAW") == dc.Move.parse("\tdraw ") == dc.Move("draw")
    assert dc.Move.parse("Pass") == dc.Move("pass")
    assert dc.Move.parse("02-09@0004") == dc.Move("place", dc.Tile(2, 9), 4)
    for text in ["2-9@4095", "18-18@0"]:
        assert str(dc.Move.parse(text)) == text


# --------------------------------------------------------------------------- players and seats


@pytest.mark.parametrize("player", [-1, 4, 2**40, True, 2.0, "2", np.float64(2)])
def test_push_rejects_a_player_that_is_not_a_seat(dc, round_, player):
    # Reproducer: push(move, player=-1) skipped the turn check in the core.
    before = round_.to_dict()
    with pytest.raises(dc.RulesError, match="player"):
        round_.push("2-9@0", player=player)
    assert round_.is_legal("2-9@0", player=player) is False
    assert round_.to_dict() == before


def test_numpy_players_are_seats(dc, round_):
    assert round_.current_player == 2
    with pytest.raises(dc.IllegalMoveError) as err:
        round_.push("2-9@0", player=np.int64(1))
    assert err.value.reason == "not_your_turn"
    round_.push("2-9@0", player=np.int64(2))
    assert round_.hand(np.int32(2)) == round_.hand(2)


# --------------------------------------------------------------------------- counts and batches


@pytest.mark.parametrize("count", [2**64 - 1, 2**40 + 1, 2**63])
def test_simulate_rejects_counts_beyond_the_limit(dc, count):
    # Reproducer: rounds=2**64-1 returned an empty result (a chunk count overflowed).
    for mode in ("rounds", "matches"):
        with pytest.raises(dc.RulesError, match=mode):
            dc.simulate(dc.Doubles(players=2), **{mode: count})


def test_doubles_matches_are_bounded(dc):
    with pytest.raises(dc.RulesError, match="target"):
        dc.Doubles(target=10**6 + 1)
    with pytest.raises(dc.RulesError, match="max_rounds"):
        dc.Doubles(max_rounds=0)
    with pytest.raises(dc.RulesError):
        dc.ChickenFoot(max_rounds=5)
    # A target nobody reaches: the match ends after max_rounds; the highest total wins.
    rules = dc.Doubles(players=3, target=10**6, max_rounds=40)
    match = dc.Match(rules, seed=4).play("random")
    assert len(match.rounds) == 40 and match.is_over
    best = max(match.totals)
    assert match.winners == tuple(s for s in range(3) if match.totals[s] == best)
    sim = dc.simulate(rules, matches=2, seed=4)
    assert sim.totals[0].tolist() == list(match.totals) and len(sim.reason) == 80


def test_a_long_doubles_match_finishes():
    # Reproducer: Doubles(target=10**6) took 43 s for 185,000 rounds (quadratic
    # accounting) and larger targets never finished. bench/compare.py times it.
    rules = native.Doubles(players=2, target=10**6, max_rounds=100_000)
    sim = native.simulate(rules, matches=1, seed=1, threads=1)
    assert len(sim.reason) == 100_000 or sim.totals.max() >= 10**6
    assert sim.totals[0].tolist() == sim.points.sum(axis=0).tolist()


def test_tied_blocked_doubles_round_scores_nothing_and_counts(dc):
    m = dc.Match(dc.Doubles(players=2, target=100, max_rounds=1), seed=0).play("greedy")
    assert m.is_over and len(m.rounds) == 1


# --------------------------------------------------------------------------- set-up outcomes


@pytest.mark.parametrize("starter", [0, 1, 2, 3])
def test_out_at_set_up_is_the_lowest_empty_seat(dc, starter):
    # Reproducer: with several empty hands the core chose from the starter on.
    rules = dc.Doubles(players=4)
    tiles = [str(dc.Tile.from_index(i)) for i in range(rules.tile_count) if i != 27]
    hands = [[], tiles[:10], [], tiles[10:20]]
    r = deal(dc, rules, "6-6", hands, tiles[20:], starter=starter)
    assert r.result.reason == "out" and r.result.out_seat == 0
    assert r.result.points[0] == sum(dc.Tile.parse(t).pips for t in tiles[:20])


# --------------------------------------------------------------------------- interrupts and progress


def test_progress_is_called_and_can_cancel(dc):
    calls = []
    sim = dc.simulate(dc.ChickenFoot(players=4), rounds=300, seed=1, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1] == (300, 300) and all(t == 300 and 0 <= d <= t for d, t in calls)
    assert len(sim.reason) == 300

    class Stop(Exception):
        pass

    def cancel(done, total):
        raise Stop

    with pytest.raises(Stop):
        dc.simulate(dc.ChickenFoot(players=4), rounds=50_000 if dc is native else 500, seed=1, progress=cancel)
    with pytest.raises(dc.RulesError, match="progress"):
        dc.simulate(dc.ChickenFoot(players=4), rounds=1, progress="bar")


# Ctrl-C: tests/test_simulate.py (test_ctrl_c_*), at many moments of a run.


# --------------------------------------------------------------------------- memory and results


def test_reasons_are_bytes_that_compare_with_names(dc):
    sim = dc.simulate(dc.ChickenFoot(players=4), rounds=200, seed=3)
    assert sim.reason.dtype == np.uint8 and sim.reason.itemsize == 1
    share = (sim.reason == "out").mean()
    assert 0 < share < 1 and share == (np.asarray(sim.reason) == 0).mean()
    assert ((sim.reason != "out") == (sim.reason == "blocked")).all()
    with pytest.raises(ValueError, match="reason"):
        sim.reason == "win"  # noqa: B015  # never a silent all-False
    assert set(sim.reason.names()) <= {"out", "blocked"}


def test_simulate_iter_equals_simulate(dc):
    rules = dc.Doubles(players=3, target=60)
    whole = dc.simulate(rules, matches=7, seed=11)
    parts = list(dc.simulate_iter(rules, matches=7, seed=11, chunk_size=3))
    assert [len(p.totals) for p in parts] == [3, 3, 1]
    joined = dc.SimulationResult.concatenate(parts)
    for field in ("points", "reason", "out_seat", "starter", "moves", "match_index", "totals", "winners"):
        assert np.array_equal(getattr(joined, field), getattr(whole, field)), field


def test_simulate_iter_runs_in_bounded_memory():
    rules = native.ChickenFoot(players=4)
    seen = 0
    for part in native.simulate_iter(rules, rounds=300_000, seed=2, chunk_size=50_000, threads=2):
        assert part.nbytes <= 50_000 * 40
        seen += len(part.reason)
    assert seen == 300_000


# --------------------------------------------------------------------------- consistent errors


@pytest.mark.parametrize(
    "call",
    [
        lambda dc, r: dc.Round(dc.ChickenFoot(players=4), round_index=2**31),
        lambda dc, r: dc.Round(dc.Doubles(), round_index=2**31),
        lambda dc, r: dc.simulate(dc.Doubles(), rounds=1, threads=2**31),
        lambda dc, r: dc.SplitMix64(0).below(-1),
        lambda dc, r: dc.SplitMix64(0).below(0),
        lambda dc, r: dc.SplitMix64(0).below(2**64),
        lambda dc, r: dc.SplitMix64(-1),
        lambda dc, r: dc.SplitMix64(2**64),
        lambda dc, r: dc.Round(dc.Doubles(), seed=-1),
        lambda dc, r: dc.Round(dc.Doubles(), seed=2**64),
        lambda dc, r: dc.Match(dc.Doubles(), seed=2**70),
        lambda dc, r: dc.RandomPlayer(seed=-5),
        lambda dc, r: dc.simulate(dc.Doubles(), rounds=1, seed=-1),
        lambda dc, r: dc.simulate(dc.Doubles(), matches=1, round_index=3),
        lambda dc, r: dc.simulate(dc.Doubles(), matches=1, round_index=2**40),
        lambda dc, r: dc.simulate(dc.Doubles(), matches=1, round_index="0"),
        lambda dc, r: dc.simulate(dc.Doubles(), rounds=True),
        lambda dc, r: dc.simulate(dc.Doubles(), rounds=2.0),
        lambda dc, r: dc.simulate(dc.Doubles(), rounds=1, threads=True),
        lambda dc, r: dc.ChickenFoot(players=np.float64(4)),
        lambda dc, r: r.hand(np.int64(9)),
        lambda dc, r: r.hand(True),
    ],
)
def test_out_of_range_integers_raise_rules_error(dc, round_, call):
    before = round_.to_dict()
    with pytest.raises(dc.RulesError):
        call(dc, round_)
    assert round_.to_dict() == before


@pytest.mark.parametrize("action", [2**31, 2**40, 10**30, -1, 112, True, False, 1.0, "95", None, np.float32(95)])
def test_bad_action_ids_are_illegal_actions(dc, round_, action):
    before = round_.to_dict()
    with pytest.raises(dc.IllegalMoveError) as err:
        round_.apply_action(action)
    assert err.value.reason == "illegal_action"
    with pytest.raises(dc.IllegalMoveError) as err:
        round_.action_to_move(action)
    assert err.value.reason == "illegal_action"
    assert round_.to_dict() == before


def test_numpy_action_ids_are_accepted(dc, round_):
    action = round_.legal_actions()[0]
    assert round_.action_to_move(np.int64(action)) == round_.action_to_move(action)
    round_.apply_action(np.int16(action))
    assert len(round_.move_stack) == 1


def test_numpy_integers_are_accepted_everywhere(dc):
    rules = dc.ChickenFoot(players=np.int64(4), set=np.int32(9), hand_size=np.uint8(10))
    assert rules == dc.ChickenFoot(players=4, set=9, hand_size=10) and type(rules.players) is int
    r = dc.Round(rules, seed=np.uint64(2**64 - 1), round_index=np.int8(3))
    assert r.round_index == 3
    sim = dc.simulate(rules, rounds=np.int64(3), seed=np.uint64(5), threads=np.int32(1))
    assert len(sim.reason) == 3
    assert dc.SplitMix64(np.uint64(42)).next() == dc.SplitMix64(42).next()
    assert dc.SplitMix64(1).below(np.int64(10)) == dc.SplitMix64(1).below(10)


@pytest.mark.parametrize(
    "rules",
    [{"game": []}, {"game": {}}, {1: "doubles"}, {"game": "doubles", 2: 3}, {"game": "doubles", "players": "2"},
     {"game": "doubles", "target": 2**80}, {"game": None}, [], "doubles"],
)  # fmt: skip
def test_from_dict_with_malformed_rules_raises_state_error(dc, round_, rules):
    # Reproducer: {"game": []} and non-string keys raised TypeError.
    record = round_.to_dict()
    record["rules"] = rules
    with pytest.raises(dc.StateError):
        dc.Round.from_dict(record)


@pytest.mark.parametrize(
    "policy",
    [None, 3, object(), {"random", "greedy"}, {"random": 1}, b"random", [b"random"] * 4, ["random"] * 3, "smart",
     frozenset(["random"]), iter(["random"] * 4)],
)  # fmt: skip
def test_bad_policies_raise_rules_error(dc, policy):
    with pytest.raises(dc.RulesError, match="polic"):
        dc.simulate(dc.ChickenFoot(players=4), rounds=1, policy=policy)
    with pytest.raises(dc.RulesError, match="polic"):
        dc.Match(dc.ChickenFoot(players=4), seed=1).play(policy)


def test_policy_lists_and_tuples_are_accepted(dc):
    a = dc.simulate(dc.Doubles(players=2), rounds=5, seed=1, policy=["greedy", "random"])
    b = dc.simulate(dc.Doubles(players=2), rounds=5, seed=1, policy=("greedy", "random"))
    assert np.array_equal(a.points, b.points)


# --------------------------------------------------------------------------- copies and pickles


def test_native_objects_pickle_and_deep_copy(dc):
    g = dc.SplitMix64(9)
    g.next()
    for clone in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g)):
        assert clone.next() == copy.copy(g).next()
    assert repr(g).startswith("SplitMix64(")
    assert repr(dc.RandomPlayer(seed=3)) == "<RandomPlayer SplitMix64(state=0xd1b54a32d192ed00)>"

    player = dc.RandomPlayer(seed=3)
    r = dc.Round(dc.ChickenFoot(players=4), seed=3)
    player.choose(r)
    for twin in (pickle.loads(pickle.dumps(player)), copy.deepcopy(player)):
        assert twin.choose(r) == copy.deepcopy(player).choose(r)

    match = dc.Match(dc.Doubles(players=2, target=50), seed=5)
    match.new_round()
    for twin in (pickle.loads(pickle.dumps(match)), copy.deepcopy(match)):
        assert twin.play("random").totals == copy.deepcopy(match).play("random").totals
    assert dc.Match(dc.Doubles(players=2, target=50), seed=5).play("random").totals == match.play("random").totals
    greedy = pickle.loads(pickle.dumps(dc.GreedyPlayer()))
    assert greedy.choose(r) == dc.GreedyPlayer().choose(r)


class ReferenceRound(__import__("dominocore.reference").reference.Round):
    """A user's subclass (module level, so that pickle can name it)."""


class NativeRound(native.Round):
    """A user's subclass of the compiled round."""


def test_copies_of_a_subclass_keep_the_subclass(dc):
    MyRound = NativeRound if dc is native else ReferenceRound
    r = MyRound(dc.ChickenFoot(players=4), seed=1)
    r.note = "kept"
    for twin in (r.clone(), copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert type(twin) is MyRound
    assert r.clone().note == "kept"


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("bot", ["RandomPlayer", "GreedyPlayer"])
def test_bots_refuse_a_finished_round(dc, bot):
    r = dc.Round(dc.Doubles(players=2), seed=1)
    while not r.is_over:
        r.push(r.legal_moves()[0])
    with pytest.raises(dc.StateError, match="round is over"):
        getattr(dc, bot)().choose(r)
