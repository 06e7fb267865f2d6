"""``cimport dominocore``: a Cython extension built against the installed
package at test time (docs/cython.md) plays the same rounds as ``simulate``.

tests/cython/dominocore_playout.pyx is built by tests/cython/setup.py (the
setuptools example of docs/cython.md) with Cython and the system's C++
compiler, linking the engine's static library the package ships
(tests/cython/cython_build.py). The build is cached under pytest's cache directory,
keyed by the package's version, the sources, the declarations, the headers and
the library, so only the first run compiles (10-30 seconds). Without Cython,
setuptools or a compiler the tests skip, saying which is missing."""

from __future__ import annotations

import os
import pathlib
import sys
from types import ModuleType

import dominocore
import numpy as np
import pytest
from helpers import CORE_INSTALLED, NO_CORE, import_core, needs_core, scaled

sys.path.insert(0, str(pathlib.Path(__file__).parent / "cython"))
import cython_build  # noqa: E402  (tests/cython/cython_build.py)

RULES = [
    pytest.param(lambda dc: dc.ChickenFoot(players=4), 0, id="chickenfoot-trains"),
    pytest.param(lambda dc: dc.ChickenFoot(players=3, rule_set="cross"), 2, id="chickenfoot-cross"),
    pytest.param(lambda dc: dc.ChickenFoot(players=6, set=12), 5, id="chickenfoot-d12"),
    pytest.param(lambda dc: dc.Doubles(players=3), 0, id="doubles"),
    pytest.param(lambda dc: dc.Block(players=2), 0, id="block"),
    pytest.param(lambda dc: dc.Block(players=4, set=9, lead="highest_double"), 0, id="block-highest"),
    pytest.param(lambda dc: dc.MexicanTrain(players=4), 3, id="mexican-train"),
    pytest.param(lambda dc: dc.MexicanTrain(players=8, set=15, drawn_tile="may"), 0, id="mexican-train-d15"),
    pytest.param(lambda dc: dc.AllFives(players=2), 0, id="all-fives"),
    pytest.param(lambda dc: dc.FivesAndThrees(players=4, teams=2), 1, id="fives-and-threes-teams"),
]


@pytest.fixture(scope="module")
def playout(pytestconfig, tmp_path_factory) -> ModuleType:
    """The built extension (the tests skip, saying why, where it cannot be built)."""
    if not CORE_INSTALLED:
        pytest.skip(NO_CORE)
    cache = getattr(pytestconfig, "cache", None)  # None under -p no:cacheprovider: build afresh
    where = cache.mkdir("dominocore-cython") if cache is not None else tmp_path_factory.mktemp("dominocore-cython")
    try:
        return cython_build.build(where)
    except cython_build.BuildUnavailable as why:
        pytest.skip(f"cannot build a Cython extension here: {why}")


def run_playout(playout: ModuleType, rules, seed: int, rounds: int, round_index: int) -> dict:
    """The extension's rounds, in simulate's arrays."""
    p = rules.players
    out = dict(
        points=np.zeros((rounds, p), np.int32),
        reason=np.zeros(rounds, np.uint8),
        out_seat=np.zeros(rounds, np.int8),
        starter=np.zeros(rounds, np.int8),
        moves=np.zeros(rounds, np.int32),
    )
    playout.playout(rules, seed, rounds, round_index, **out)
    return out


@pytest.mark.parametrize("make, round_index", RULES)
@pytest.mark.parametrize("seed", [0, 987_654_321, 2**64 - 40])
def test_cython_playouts_are_simulates_rounds(playout, dc, make, round_index, seed):
    # bit-identical to simulate(policy="random"), round by round (the reference's
    # simulate is slow: fewer rounds against it)
    rules = make(dc)
    rounds = scaled(200, 5000) if dc.__name__ == "dominocore.native" else scaled(6, 60)
    got = run_playout(playout, rules, seed, rounds, round_index)
    expected = dc.simulate(rules, rounds=rounds, seed=seed, round_index=round_index, policy="random")
    for name, array in got.items():
        assert array.tolist() == getattr(expected, name).tolist(), name


@pytest.mark.parametrize("make, round_index", RULES[:2] + RULES[3:5] + RULES[6:7])
def test_checked_path_and_undo(playout, make, round_index):
    # legal_moves + push (checked) plays the same round as simulate, pop()
    # returns to the deal, and the moves are those a Round replays
    rules = make(dominocore)
    for seed in (3, 44):
        points, moves = playout.playout_checked(rules, seed, round_index)
        expected = dominocore.simulate(rules, rounds=1, seed=seed, round_index=round_index)
        assert points == expected.points[0].tolist()
        assert len(moves) == expected.moves[0]
        r = dominocore.Round(rules, seed=seed, round_index=round_index)
        for m in moves:
            r.push(m)
        assert r.is_over
        assert list(r.result.points) == points


@pytest.mark.parametrize("make", [pytest.param(p.values[0], id=p.id) for p in (RULES[0], RULES[3], RULES[6])])
def test_determinize_gives_the_worlds_of_round_determinize(playout, make):
    # same round, same seat, same seed: the same world as the core's
    # Round.determinize (the reference's sampler is exact too, but draws otherwise)
    native = import_core()
    rules = make(native)
    seed, moves, seat, world_seed = 7, 9, 1, 11
    hands = playout.world_hands(rules, seed, moves, seat, world_seed)
    r = native.Round(rules, seed=seed)
    bot = native.SplitMix64(seed ^ 0xD1B54A32D192ED03)
    for _ in range(moves):
        legal = r.legal_moves(distinct=True)
        r.push(legal[bot.below(len(legal))])
    world = r.determinize(seat, seed=world_seed)
    assert hands == [sorted(t.index for t in h) for h in world.hands]
    assert hands[seat] == sorted(t.index for t in r.hand(seat))


def test_engine_errors_become_dominocores_exceptions(playout):
    assert playout.errors(dominocore.ChickenFoot(players=4)) == [
        ("IllegalMoveError", "must_place"),
        ("IllegalMoveError", "no_move"),
        ("IllegalMoveError", "illegal_action"),
        ("ValueError", "Rng::below(0): the range is empty"),
        ("RulesError", None),
        ("ValueError", None),
    ]


def test_bad_rules_raise_rules_error(playout):
    class NotRules:
        def to_dict(self) -> dict:
            return {"game": "chickenfoot", "set": 9, "players": 40, "hand_size": 7}

    with pytest.raises(dominocore.RulesError, match="players"):
        playout.playout_checked(NotRules(), 1)


@needs_core
def test_the_package_ships_headers_declarations_and_library():
    include = pathlib.Path(dominocore.get_include())
    for name in ("state.hpp", "move.hpp", "rng.hpp", "rules.hpp", "determinize.hpp", "__init__.pxd"):
        assert (include / "dominocore" / name).is_file(), name
    (lib_dir,) = dominocore.get_library_dirs()
    names = os.listdir(lib_dir)
    assert any(n in names for n in ("libdominocore_engine.a", "dominocore_engine.lib")), names
    assert dominocore.get_libraries()[0] == "dominocore_engine"
