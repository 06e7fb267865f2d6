"""The information model (docs/information.md): exact determinization, no leaks, records, tensors.

Against an oracle independent of the implementations' samplers
(tests/information_helpers.py): a world is consistent when the public moves
replay legally from it with the seat's own tiles and the set-up's facts; a
rejection sampler of the baseline kind, accepted by the oracle, is uniform
over consistent worlds; on small positions every consistent world is
enumerated by brute force.

Counts are short by default; ``--information-large`` runs the large ones
(``DOMINOCORE_INFORMATION_LARGE=1``). The p-values are printed (``-s``) and
named in every failure; a correct sampler fails a threshold of 1e-6 about
once in a million runs.
"""

from __future__ import annotations

import collections
import copy
import importlib
import json
import pathlib
import random
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import pytest
from dominocore.common.tiles import tiles_of_set
from dominocore.games import Block, ChickenFoot, Doubles, MexicanTrain  # shared by both implementations
from helpers import import_core, needs_core
from information_helpers import (
    CONFIGS,
    Knowledge,
    chi2_sf,
    config_id,
    enumerate_worlds,
    inconsistency,
    information_scaled,
    oracle_engine,
    parse_deal,
    positions,
    rejection_sample,
    two_proportion_p,
    uniform_chi2,
)

#: The significance threshold of every statistical test (Bonferroni-corrected
#: where one test makes several comparisons).
ALPHA = 1e-6


# ------------------------------------------------------------------ the statistics themselves


@pytest.mark.parametrize(
    "statistic, df, expected",
    [
        # scipy.stats.chi2.sf, to 1e-9 relative
        (3.841458820694124, 1, 0.05),
        (18.307038053275146, 10, 0.05),
        (1.0, 1, 0.31731050786291115),
        (0.5, 3, 0.9188914116546758),
        (150.0, 200, 0.996647558501813),
        (250.0, 200, 0.009379131668826098),
        (1000.0, 900, 0.010994608942135844),
        (40.0, 3, 1.065509033425585e-08),
        (100.0, 10, 5.4497019829205215e-17),
    ],
)
def test_the_chi_square_tail_matches_known_values(statistic, df, expected):
    assert chi2_sf(statistic, df) == pytest.approx(expected, rel=1e-9)


def test_the_two_proportion_test_matches_the_normal_tail():
    # |z| = 5: 2 * (1 - Phi(5)) = 5.733031437583866e-07
    n = 10_000
    # pooled p = 0.5, se = sqrt(0.25 * 2 / n) = 0.00707..., so a difference of 5 se:
    k = round(n * 0.5 * 5 * (0.5 / n) ** 0.5)
    assert two_proportion_p(5000 + k, n, 5000 - k, n) == pytest.approx(5.733031437583866e-07, rel=0.05)
    assert two_proportion_p(0, 10, 0, 30) == 1.0
    assert two_proportion_p(30, 100, 30, 100) == 1.0


# ------------------------------------------------------------------ small positions, every world


class Position(NamedTuple):
    """A hand-built position: a deal (``hands`` and ``yard`` as space-separated
    tiles), the moves since, the seat whose worlds are sampled, and the
    features of docs/information.md it exercises (checked, so the scripts
    stay meaningful)."""

    rules: Dict[str, Any]
    round_index: int
    centre: Optional[str]
    starter: int
    seat: int
    hands: List[str]
    yard: str
    setup_draws: str
    highest_double: bool
    moves: str
    features: Tuple[str, ...]


# Found by random play from random deals of the double-6 set with large
# hands, kept where at most ~8 tiles stay hidden from the seat, the set-up's
# facts or the moves rule out some worlds of condition 1, and the features hold.
POSITIONS = {
    "trains: draws then passes under 'must'": Position(
        rules={"game": "chickenfoot", "rule_set": "trains", "set": 6, "players": 2, "hand_size": 9},
        round_index=5, centre="1-1", starter=1, seat=1,
        hands=["0-2 1-2 2-3 3-3 0-5 1-5 4-5 5-5 4-6", "2-2 0-3 2-4 3-4 4-4 0-6 2-6 5-6 6-6"],
        yard="1-4 2-5 0-1 3-5 1-6 0-4 1-3 3-6 0-0",
        setup_draws="", highest_double=False,
        moves="draw 1-4@1 1-5@0 3-4@2 0-5@3 0-3@4 0-2@5 2-6@7 4-6@8 2-4@9 2-3@10 0-6@6 3-3@11 draw pass draw pass "
        "draw 3-5@14 draw pass draw",
        features=("draw_pass_must",),
    ),
    "trains: a draw then a placement": Position(
        rules={"game": "chickenfoot", "rule_set": "trains", "set": 6, "players": 3, "hand_size": 7},
        round_index=1, centre="5-5", starter=1, seat=1,
        hands=["0-3 1-3 3-3 0-4 1-4 2-4 2-6", "0-0 2-2 3-4 1-6 3-6 4-6 5-6", "0-1 0-2 2-3 0-5 2-5 3-5 0-6"],
        yard="6-6 1-2 4-4 4-5 1-1 1-5",
        setup_draws="", highest_double=False,
        moves="5-6@0 2-5@1 draw pass draw pass 3-5@2 6-6@3 3-6@6 0-6@7 2-6@8 0-0@10 0-5@12 0-4@14 draw pass "
        "0-2@13 1-3@9 4-4@16 draw 4-5@20 1-4@19 3-4@21 0-1@18",
        features=("draw_place", "draw_pass_must"),
    ),
    "doubles: the highest double, a draw then a placement": Position(
        rules={"game": "doubles", "set": 6, "players": 2, "hand_size": 10},
        round_index=0, centre="5-5", starter=0, seat=0,
        hands=["1-1 2-2 0-3 1-4 1-5 2-5 4-5 0-6 5-6", "0-0 0-1 0-2 1-2 1-3 3-3 3-4 4-4 1-6 2-6"],
        yard="3-6 3-5 2-4 0-4 6-6 4-6 2-3 0-5",
        setup_draws="", highest_double=True,
        moves="draw pass 2-5@3 draw 3-5@1 5-6@0 3-3@5 1-5@2 3-6@7 0-3@9 0-0@12 0-6@14 1-3@8 2-2@4 0-2@13 1-1@17 "
        "0-1@10 1-4@23 1-2@19 draw 2-4@20 1-6@27",
        features=("highest_double", "draw_place", "draw_pass_must"),
    ),
    "doubles: the highest double, a pass with nothing in question": Position(
        rules={"game": "doubles", "set": 6, "players": 3, "hand_size": 7},
        round_index=0, centre="3-3", starter=2, seat=1,
        hands=["0-2 1-2 0-3 0-5 0-6 1-6 5-6", "1-1 1-3 2-3 1-4 2-4 1-5 2-5", "0-1 3-4 4-5 2-6 3-6 4-6"],
        yard="2-2 6-6 0-0 3-5 0-4 4-4 5-5",
        setup_draws="", highest_double=True,
        moves="0-3@0 1-3@1 3-4@3 draw pass 1-1@5 3-6@2 1-2@8 1-5@9 0-1@7 2-2@11 2-4@16 2-6@15 0-2@14 draw 6-6@18 "
        "4-6@10 5-6@20 draw 0-0@13 draw pass 0-6@25 draw 0-4@26 pass",
        features=("highest_double", "pass_nothing"),
    ),
    "block: the highest double led": Position(
        rules={"game": "block", "set": 6, "players": 2, "hand_size": 10, "lead": "highest_double"},
        round_index=0, centre="5-5", starter=1, seat=1,
        hands=["0-0 0-1 1-1 0-2 2-2 3-3 3-4 1-6 2-6 5-6", "2-3 0-4 1-4 4-4 0-5 2-5 3-5 4-5 3-6"],
        yard="2-4 0-3 0-6 1-2 6-6 1-3 1-5 4-6",
        setup_draws="", highest_double=True,
        moves="5-6@1 4-5@0 2-6@2 0-4@3 2-2@4 2-3@6 0-1@5 1-4@8 3-3@7 4-4@9 3-4@11 3-5@12 pass 3-6@10 1-6@14 0-5@13 "
        "1-1@15",
        features=("highest_double", "pass_nothing", "not_blocked"),
    ),
    "block: the highest double, and no centre (nobody was dealt a double)": Position(
        rules={"game": "block", "set": 6, "players": 2, "hand_size": 7, "lead": "highest_double"},
        round_index=0, centre=None, starter=1, seat=0,
        hands=["0-1 2-3 3-4 1-5 2-6 4-6 5-6", "0-2 0-4 1-4 0-5 3-5 4-5 1-6"],
        yard="0-3 5-5 3-3 1-1 6-6 1-3 0-0 2-5 3-6 0-6 2-2 2-4 4-4 1-2",
        setup_draws="", highest_double=True,
        moves="4-5@0 3-4@1 3-5@3 1-5@4 0-5@2 0-1@6 1-4@7 4-6@8 1-6@5",
        features=("highest_double",),
    ),
    # Whether the round is over is public: seat 0 holds no tile with a legal
    # end, so seat 1 must hold one (else the round would be blocked).
    "block: the round goes on, 2 players": Position(
        rules={"game": "block", "set": 6, "players": 2, "hand_size": 12, "lead": "winner"},
        round_index=0, centre=None, starter=0, seat=0,
        hands=["0-2 1-2 0-3 0-4 1-4 3-4 4-4 1-5 4-5 5-5 1-6 3-6", "0-0 0-1 1-1 2-2 1-3 2-3 0-5 3-5 0-6 2-6 4-6 6-6"],
        yard="2-5 2-4 5-6 3-3",
        setup_draws="", highest_double=False,
        moves="4-5@0 3-5@2 1-4@1 1-3@4 3-6@5 2-3@3 1-2@7 0-1@8 0-4@9 6-6@6 1-6@11 4-6@10 1-5@12 0-5@14 0-2@15 "
        "2-2@16 pass 2-6@17",
        features=("not_blocked",),
    ),
    "block: the round goes on, 3 players": Position(
        rules={"game": "block", "set": 6, "players": 3, "hand_size": 8, "lead": "winner"},
        round_index=0, centre=None, starter=0, seat=2,
        hands=["0-0 0-1 0-2 1-2 3-3 4-4 5-6 6-6", "1-1 2-2 0-3 0-5 1-5 2-5 4-5 0-6", "1-3 2-3 1-4 2-4 3-4 3-5 5-5 4-6"],
        yard="0-4 3-6 2-6 1-6",
        setup_draws="", highest_double=False,
        moves="0-1@0 0-5@1 1-3@2 3-3@4 0-3@5 3-5@3 0-2@6 2-2@8 3-4@7 1-2@9 4-5@10 1-4@11 5-6@12 0-6@14 2-4@13 "
        "0-0@15 2-5@16 5-5@18 pass 1-5@19",
        features=("not_blocked", "pass_nothing"),
    ),
    "mexican train: markers": Position(
        rules={"game": "mexican_train", "set": 6, "players": 3, "hand_size": 7},
        round_index=1, centre="5-5", starter=1, seat=0,
        hands=["0-3 1-4 2-4 0-5 2-5 0-6 6-6", "0-1 0-2 2-3 3-3 4-5 1-6 4-6", "1-1 1-2 0-4 1-5 3-5 2-6 5-6"],
        yard="2-2 1-3 0-0 4-4 3-6 3-4",
        setup_draws="", highest_double=False,
        moves="4-5@1 3-5@2 0-5@0 4-6@4 5-6@3 6-6@8 0-6@9 0-1@10 1-1@11 1-5@12 0-3@6 1-6@7 draw pass 2-5@13 "
        "2-3@16 draw 1-3@5 draw pass 3-3@14 draw pass draw 3-6@19 1-4@15 4-4@21 draw 3-4@22 2-6@20 2-4@24 pass",
        features=("pass_nothing", "draw_place", "draw_pass_must"),
    ),
    "mexican train: draws then passes": Position(
        rules={"game": "mexican_train", "set": 6, "players": 2, "hand_size": 10},
        round_index=1, centre="5-5", starter=1, seat=0,
        hands=["0-2 0-3 1-4 2-4 0-5 2-5 0-6 1-6 4-6 6-6", "0-1 1-1 1-2 2-3 3-3 0-4 1-5 4-5 2-6 5-6"],
        yard="3-5 2-2 1-3 0-0 4-4 3-6 3-4",
        setup_draws="", highest_double=False,
        moves="1-5@1 2-5@0 0-1@3 2-4@4 4-5@2 4-6@7 5-6@8 0-5@9 0-4@5 0-2@10 2-3@12 0-3@13 draw pass 0-6@14 "
        "2-6@15 1-4@11 1-2@17 draw",
        features=("draw_pass_must",),
    ),
    # Under "may" a pass after a Draw says nothing of the drawn tile: 54 of the
    # 90 consistent worlds have a drawn tile that "must" would have placed.
    "mexican train: a draw then a pass under 'may'": Position(
        rules={"game": "mexican_train", "set": 6, "players": 3, "hand_size": 7, "drawn_tile": "may"},
        round_index=4, centre="2-2", starter=1, seat=2,
        hands=["0-0 0-3 3-3 3-5 0-6 1-6 4-6", "0-2 1-2 1-3 2-5 5-5 5-6 6-6", "1-4 2-4 3-4 4-4 0-5 1-5 3-6"],
        yard="2-6 0-4 4-5 0-1 1-1 2-3",
        setup_draws="", highest_double=False,
        moves="0-2@3 0-5@4 3-5@5 2-5@1 3-6@6 0-6@8 5-5@7 5-6@10 2-4@2 0-0@9 0-3@13 6-6@11 draw pass draw pass 1-6@15 "
        "1-3@14 1-5@16 4-6@12 1-2@17 draw 4-5@18 draw pass",
        features=("draw_pass_may",),
    ),
    "cross: the search": Position(
        rules={"game": "chickenfoot", "rule_set": "cross", "set": 6, "players": 3, "hand_size": 7},
        round_index=0, centre="6-6", starter=0, seat=1,
        hands=[
            "1-1 1-2 0-3 2-3 1-5 2-5 3-5 0-6 2-6",
            "0-0 0-2 1-3 3-4 4-4 0-5 1-6 4-6 5-6",
            "0-1 2-2 3-3 0-4 1-4 2-4 4-5 5-5 3-6",
        ],
        yard="",
        setup_draws="1-5 4-4 2-4 2-3 0-0 1-4 6-6", highest_double=False,
        moves="4-6@0 3-6@1 2-6@3 5-6@2 4-5@7 3-5@5 4-4@4 1-4@10 pass 3-4@12 0-4@11 2-3@14 0-5@15 0-1@13 2-5@16 "
        "0-2@6 5-5@9",
        features=("search_other", "search_own", "pass_nothing"),
    ),
}  # fmt: skip


def build(dc, position: Position):
    """The position's round and seat, through ``from_deal``."""
    rules = dc.rules_from_dict(position.rules)
    round_ = dc.Round.from_deal(
        rules,
        [h.split() for h in position.hands],
        position.yard.split(),
        position.centre,
        position.starter,
        position.round_index,
        setup_draws=position.setup_draws.split(),
        highest_double=position.highest_double,
    )
    for move in position.moves.split():
        round_.push(move)
    return round_, position.seat


def features(know: Knowledge) -> set:
    """What a position exercises, seen from ``know.seat`` (another seat's moves)."""
    found = set()
    moves = know.moves
    for i, (mover, move) in enumerate(moves):
        after_own_draw = i > 0 and moves[i - 1][0] == mover and moves[i - 1][1].kind == "draw"
        if mover == know.seat:
            continue
        if move.kind == "pass":
            found.add(f"draw_pass_{know.rules.drawn_tile}" if after_own_draw else "pass_nothing")
        elif move.kind == "place" and after_own_draw:
            found.add("draw_place")
    if know.highest_double:
        found.add("highest_double")
    if know.yard_size <= know.rules.reserve:
        found.add("not_blocked")  # asked of the enumeration too: some world would be blocked
    if any(d != know.seat for d in know.search_drawers[:-1]):
        found.add("search_other")
    if know.own_search:
        found.add("search_own")
    return found


def check_uniform(dc, name: str, sample: Callable[[Any, Any], Any], samples: int, label: str) -> None:
    """Chi-square of the worlds ``sample(round, generator)`` draws (which
    tiles each other seat holds now, which tile each of its Draws took)
    against the uniform distribution over every consistent world of position
    ``name``, enumerated by brute force."""
    round_, seat = build(dc, POSITIONS[name])
    know = Knowledge(round_, seat)
    assert set(POSITIONS[name].features) <= features(know), "the position lost what it was chosen for"
    worlds, rejected = enumerate_worlds(know)
    # The moves or the set-up's facts rule some worlds out: the test has teeth.
    assert len(worlds) > 1 and rejected
    if "highest_double" in POSITIONS[name].features:
        assert rejected["double"], "the set-up's fact rules out no world"
    if "not_blocked" in POSITIONS[name].features:
        assert rejected["over"], "no world is blocked"
    draw = sample(round_, seat)
    generator = dc.SplitMix64(20240601)  # advances with every sample
    counts: collections.Counter = collections.Counter()
    for i in range(samples):
        world = draw(generator)
        counts[know.key_of_world(world)] += 1
        if i < 20:
            why = inconsistency(know, parse_deal(world._deal_dict()))
            assert why is None, f"sample {i}: {why}"
    statistic, df, p = uniform_chi2(counts, worlds)
    summary = f"{len(worlds)} worlds, {samples} samples, chi2={statistic:.1f} df={df} p={p:.3g}"
    print(f"\n{name} [{label}]: {summary}")
    outside = [k for k in counts if k not in worlds]
    assert not outside, f"{len(outside)} sampled worlds are not consistent, e.g. {outside[0]}"
    assert p > ALPHA, f"{name}: {summary}"


@pytest.mark.parametrize("name", list(POSITIONS))
def test_worlds_are_uniform_over_every_consistent_world(dc, name):
    """The public determinizer (the core: proposals first, then a count)."""
    # The reference samples ~1 ms a world, the core ~20 times faster.
    samples = information_scaled(2000 if dc.IMPLEMENTATION == "cpp" else 600, 30_000)
    check_uniform(dc, name, lambda round_, seat: round_.determinizer(seat).sample, samples, dc.IMPLEMENTATION)


def _core_sampler(dc, rules, core) -> Callable[[Any], Any]:
    """Worlds (``Round``) drawn from a core determinizer made with
    ``RoundCore._determinizer`` (a forced count)."""
    return lambda seed: dc.Round._wrap(rules, core._sample(seed))


def _assert_coarser(stats) -> None:
    """A forced coarse determinizer counted a model with fewer groups than
    the exact one, and says that its count is not of the exact worlds."""
    assert stats["count_relaxed"] and stats["count_groups"] < stats["exact_groups"], stats
    assert stats["log2_worlds"] is None, stats


@pytest.mark.parametrize("method", ["tile", "seat", "coarse"])
@pytest.mark.parametrize("name", list(POSITIONS))
def test_each_count_of_the_core_is_uniform(name, method):
    """Each count of the core alone (no proposals), forced: the count by tile,
    by seat, and by seat of a coarser model whose draws the exact model
    accepts or rejects (docs/information.md 4). The coarser model must really
    be coarser, and rejected draws must occur, wherever the position has more
    than one group of unseen tiles."""
    dc = import_core()
    round_, seat = build(dc, POSITIONS[name])
    core = round_._s._determinizer(seat, 0, method)
    check_uniform(
        dc,
        name,
        lambda *_: _core_sampler(dc, round_.rules, core),
        information_scaled(2000, 30_000),
        f"cpp, count by {method}",
    )
    stats = core._stats
    if method == "coarse" and stats["exact_groups"] > 1:
        _assert_coarser(stats)
        assert stats["relaxed_rejected"] > 0, stats
    else:
        assert not stats["count_relaxed"] and stats["relaxed_rejected"] == 0, stats


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_counts_the_same_worlds_by_tile_and_by_seat(config):
    """The core's two exact counts are computed differently (tile by tile over
    cells; seat by seat over groups of unseen tiles): on random positions they
    find the same number of worlds, to double precision."""
    dc = import_core()
    rng = random.Random(f"two counts {config_id(config)}")
    for round_, seat in positions(dc, config, rng, information_scaled(12, 120)):
        found = {}
        for method in ("tile", "seat"):
            core = round_._s._determinizer(seat, 0, method)
            core._sample(1)
            found[method] = core._stats["log2_worlds"]
            assert core._stats["count_by_seat"] == (method == "seat")
        assert found["tile"] == pytest.approx(found["seat"], rel=1e-9, abs=1e-9), found


#: Positions of long rounds on large sets that a scan found hardest
#: (docs/information.md 4, "Cost and worst case"): the count by tile outgrows
#: its bound on all but the third, and on most of them the core counts a
#: coarser model (the last five no exact count reached at all). A record
#: each, with the seat to move;
#: ``"large": true`` marks seconds of counting in the core (run under
#: --information-large), ``"reference": false`` a position the reference
#: counts for minutes.
HARD_POSITIONS = json.loads((pathlib.Path(__file__).parent / "data" / "determinize_hard.json").read_text())


@pytest.mark.parametrize("case", HARD_POSITIONS, ids=lambda case: case["name"])
def test_the_hardest_positions_found_are_determinized(dc, case):
    """The sampler finishes on them, and its worlds are consistent and look
    the same to the seat. Positions marked large (seconds to count in the
    core) run under --information-large; those the reference counts for
    minutes run in the core only, and those it counts for half a minute
    ("reference_large") in the reference under --information-large only."""
    if not case.get("reference", True) and dc.IMPLEMENTATION == "python":
        pytest.skip("the reference counts this position for minutes (docs/information.md 4)")
    large = case.get("large", False) or (case.get("reference_large", False) and dc.IMPLEMENTATION == "python")
    if large and information_scaled(0, 1) == 0:
        pytest.skip("seconds of counting: run with --information-large")
    round_ = dc.Round.from_dict(case["record"])
    seat = case["seat"]
    know = Knowledge(round_, seat)
    sampler = round_.determinizer(seat)
    for seed in range(3):
        world = sampler.sample(seed)
        assert inconsistency(know, parse_deal(world._deal_dict())) is None
        assert world.information_state(seat) == round_.information_state(seat)
    if dc.IMPLEMENTATION == "cpp":
        stats = sampler.stats
        print(f"\n{case['name']}: {stats}")
        assert stats["count_built"] and not stats["count_too_large"], stats


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_rejection_sampler_is_uniform_over_every_consistent_world(name):
    """The test's own reference sampler (used on positions too big to
    enumerate) against the enumeration: uniform, and only consistent worlds."""
    round_, seat = build(oracle_engine(), POSITIONS[name])
    know = Knowledge(round_, seat)
    worlds, rejected = enumerate_worlds(know)
    # About 6,000 proposals (60,000 large) at the exact acceptance rate.
    proposals = information_scaled(6000, 60_000)
    samples = min(300 * proposals // 6000, proposals * len(worlds) // (len(worlds) + sum(rejected.values())))
    keys = rejection_sample(know, random.Random(name), samples, budget=proposals * 3)
    assert keys is not None, "the rejection sampler's acceptance is too low"
    statistic, df, p = uniform_chi2(collections.Counter(keys), worlds)
    summary = f"{len(worlds)} worlds, {samples} samples, chi2={statistic:.1f} df={df} p={p:.3g}"
    print(f"\n{name} [rejection]: {summary}")
    assert p > ALPHA, f"{name}: {summary}"


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_seed_gives_the_same_world_every_time(dc, name):
    """``determinize(seat, seed)`` is ``determinizer(seat).sample(seed)``, and a
    determinizer's world depends on the seed alone, not on what it sampled
    before; a ``SplitMix64`` passed as the seed advances."""
    round_, seat = build(dc, POSITIONS[name])
    sampler = round_.determinizer(seat)
    for seed in (0, 1, 7, 2**64 - 1):
        expected = round_.determinize(seat, seed).to_dict()
        assert sampler.sample(seed).to_dict() == expected, seed
        assert sampler.sample(seed).to_dict() == expected, seed
    first, second = dc.SplitMix64(5), dc.SplitMix64(5)
    run = [sampler.sample(first).to_dict() for _ in range(3)]
    assert run == [round_.determinize(seat, second).to_dict() for _ in range(3)]
    assert first == second and first != dc.SplitMix64(5)


# ------------------------------------------------------------------ marginals on real positions


def _implementations() -> list:
    """The implementations the ``dc`` fixture serves (``DOMINOCORE_TEST_IMPLEMENTATIONS``)."""
    from conftest import IMPLEMENTATIONS, _selected

    return [importlib.import_module(IMPLEMENTATIONS[name]) for name in _selected()]


def _samplers(original, seat) -> List[Tuple[str, Callable[[int], Any], Any]]:
    """Each implementation's determinizer of the position (a record) as
    ``seat`` knows it, and in the core also the count of a coarser model alone
    (forced: on real positions Auto uses it only when no exact count fits),
    with that forced core determinizer (else ``None``) to check."""
    found: List[Tuple[str, Callable[[int], Any], Any]] = []
    for dc in _implementations():
        round_ = dc.Round.from_dict(original.to_dict())
        found.append((dc.IMPLEMENTATION, round_.determinizer(seat).sample, None))
        if dc.IMPLEMENTATION == "cpp":
            core = round_._s._determinizer(seat, 0, "coarse")
            found.append(("cpp coarse", _core_sampler(dc, round_.rules, core), core))
    return found


@needs_core
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_marginals_match_the_rejection_sampler(config):
    """P(tile t in seat j's hand) from each implementation's determinizer
    (and the core's count of a coarser model) against the rejection sampler,
    a two-proportion z-test per (seat, tile), Bonferroni-corrected over the
    position's cells. Positions where the
    rejection sampler's acceptance is too low for the budget are skipped, but
    at most as many as are tested.

    Each position's rejection sample (the costly part) serves both
    implementations: the position is a record, loaded into each."""
    rng = random.Random(f"marginals {config_id(config)}")
    count = information_scaled(2, 20)
    samples = information_scaled(120, 1000)
    engine = oracle_engine()
    tested, report = 0, []
    for original, seat in positions(engine, config, rng, 2 * count):
        if tested == count:
            break
        know = Knowledge(original, seat)
        where = f"move {len(know.moves)} seat {seat}"
        reference = rejection_sample(know, rng, samples, budget=samples * 40)
        if reference is None:
            report.append(f"{where}: acceptance too low, skipped")
            continue
        tested += 1
        for label, sample, forced in _samplers(original, seat):
            sampled = [know.key_of_world(sample(rng.getrandbits(64))) for _ in range(samples)]
            if forced is not None and forced._stats["exact_groups"] > 1:
                _assert_coarser(forced._stats)
            cells = 0
            worst: Tuple[float, Any] = (1.0, None)
            for column, j in enumerate(know.others):
                ours = collections.Counter(t for hands, _ in sampled for t in hands[column])
                theirs = collections.Counter(t for hands, _ in reference for t in hands[column])
                for tile in know.unseen:
                    cells += 1
                    p = two_proportion_p(ours[tile.index], samples, theirs[tile.index], samples)
                    if p < worst[0]:
                        worst = (p, f"seat {j} tile {tile}: {ours[tile.index]} against {theirs[tile.index]}")
            report.append(f"{where} [{label}]: {cells} cells, min p={worst[0]:.3g} ({worst[1]})")
            assert worst[0] * max(cells, 1) > ALPHA, "\n".join(report)
    print(f"\n{config_id(config)}:\n  " + "\n  ".join(report))
    assert tested == count, "too few positions were tested:\n" + "\n".join(report)


# ------------------------------------------------------------------ every world is consistent


def _view_data(round_, seat) -> Optional[dict]:
    if not hasattr(round_, "view"):
        return None
    data = round_.view(seat).to_dict()
    data.pop("round_id", None)
    return data


def _seen_by(round_, seat) -> dict:
    """Everything ``seat`` may observe of ``round_``, through the information API."""
    seen = {
        "information_state": round_.information_state(seat),
        "hash": round_.information_state_hash(seat),
        "information_state_tensor": round_.information_state_tensor(seat).tobytes(),
        "observation_tensor": round_.observation_tensor(seat).tobytes(),
        "view": _view_data(round_, seat),
        "public": (
            round_.rules,
            round_.round_index,
            round_.centre,
            round_.starter,
            round_.move_stack,
            round_.current_player,
            round_.is_over,
            round_.yard_size,
            [len(h) for h in round_.hands],
            round_.hand(seat),
            round_.open_ends,
            round_.layout,
            round_.markers,
        ),
    }
    if round_.current_player == seat:
        seen["legal_actions"] = list(round_.legal_actions())
        seen["legal_moves"] = round_.legal_moves()
    return seen


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_world_is_consistent_and_looks_the_same_to_the_seat(dc, config):
    """Each determinized world passes the oracle, has the same movers, and
    shows the seat exactly what the round shows it."""
    rng = random.Random(f"consistency {config_id(config)} {dc.IMPLEMENTATION}")
    count = information_scaled(28, 280)  # 36 configurations: ~1,000 positions (10,000 large)
    for round_, seat in positions(dc, config, rng, count):
        know = Knowledge(round_, seat)
        world = round_.determinize(seat, rng.getrandbits(64))
        context = f"{config_id(config)} move {len(know.moves)} seat {seat}"
        why = inconsistency(know, parse_deal(world._deal_dict()))
        assert why is None, f"{context}: {why}"
        assert [m for m, _, _ in world._history()] == [m for m, _ in know.moves], context
        assert _seen_by(world, seat) == _seen_by(round_, seat), context


# ------------------------------------------------------------------ no leaks


def _rebuilt(dc, round_, hands, yard):
    """``round_`` dealt ``hands`` and ``yard`` instead, with the same set-up
    facts and moves; ``None`` when that deal is not valid or the moves do not
    replay on it to a round in the same state of play."""
    deal = round_._deal_dict()
    try:
        other = dc.Round.from_deal(
            round_.rules,
            hands,
            yard,
            deal["centre"],
            deal["starter"],
            round_.round_index,
            setup_draws=deal["setup_draws"],
            highest_double=deal["highest_double"],
        )
        for move in round_.move_stack:
            other.push(move)
    except (dc.StateError, dc.IllegalMoveError):
        return None
    return other if other.is_over == round_.is_over else None


def _untouched(round_, seat) -> Tuple[List[str], Dict[int, List[str]]]:
    """The yard tiles no Draw took yet, and per seat other than ``seat`` that
    never drew nor passed, its dealt tiles that are neither placed nor search
    draws: tiles whose place ``seat`` cannot know."""
    deal = round_._deal_dict()
    history = round_._history()
    draws = sum(1 for _, m, _ in history if m.kind == "draw")
    placed = {str(m.tile) for _, m, _ in history if m.kind == "place"}
    active = {mover for mover, m, _ in history if m.kind != "place"}
    free = {
        j: [t for t in deal["hands"][j] if t not in placed and t not in deal["setup_draws"]]
        for j in range(round_.rules.players)
        if j != seat and j not in active
    }
    return deal["yard"][draws:], free


def _swapped(deal, a, i, b, k):
    """The deal's hands and yard with tile ``i`` of ``a`` and tile ``k`` of ``b``
    swapped (``a``/``b``: a seat, or ``"yard"``)."""
    hands = copy.deepcopy(deal["hands"])
    yard = list(deal["yard"])
    place = {"yard": yard, **dict(enumerate(hands))}
    x, y = place[a], place[b]
    ix, iy = x.index(i), y.index(k)
    x[ix], y[iy] = y[iy], x[ix]
    return hands, yard


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_states_the_seat_cannot_tell_apart_look_the_same(dc, config):
    """A determinization, and the round with two hidden tiles swapped where the
    history allows (between two other seats that never drew nor passed, or one
    of them and the undrawn yard), give the seat the same information state,
    hash, tensors and legal actions, and the same worlds for the same seed."""
    rng = random.Random(f"no leaks {config_id(config)} {dc.IMPLEMENTATION}")
    count = information_scaled(4, 40)
    tested = collections.Counter()
    for round_, seat in positions(dc, config, rng, count):
        seen = _seen_by(round_, seat)
        seed = rng.getrandbits(64)
        twins = {"a determinization": round_.determinize(seat, seed)}
        yard, free = _untouched(round_, seat)
        deal = round_._deal_dict()
        holders = [j for j in free if free[j]]
        if len(holders) >= 2:
            a, b = rng.sample(holders, 2)
            swapped = _swapped(deal, a, rng.choice(free[a]), b, rng.choice(free[b]))
            twins["two other seats' tiles swapped"] = _rebuilt(dc, round_, *swapped)
        if holders and yard:
            a = rng.choice(holders)
            swapped = _swapped(deal, a, rng.choice(free[a]), "yard", rng.choice(yard))
            twins["another seat's tile and the yard's swapped"] = _rebuilt(dc, round_, *swapped)
        if len(yard) >= 2:
            i, k = rng.sample(yard, 2)
            twins["the yard reordered"] = _rebuilt(dc, round_, *_swapped(deal, "yard", i, "yard", k))
        expected = round_.determinize(seat, seed ^ 1).to_dict()
        for kind, twin in twins.items():
            if twin is None:
                continue
            tested[kind] += 1
            assert _seen_by(twin, seat) == seen, kind
            assert twin.determinize(seat, seed ^ 1).to_dict() == expected, kind
    print(f"\n{config_id(config)} [{dc.IMPLEMENTATION}]: {dict(tested)}")
    assert sum(tested.values()) - tested["a determinization"] >= count // 2, tested


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_states_the_seat_can_tell_apart_differ(dc, config):
    """A different own hand, or a different public move, gives a different
    information state and information-state tensor."""
    rng = random.Random(f"distinct {config_id(config)} {dc.IMPLEMENTATION}")
    count = information_scaled(6, 60)
    pairs = collections.Counter()
    for round_, seat in positions(dc, config, rng, count):
        state = round_.information_state(seat)
        tensor = round_.information_state_tensor(seat)
        # Another public move from the same position.
        moves = round_.legal_moves()
        if len(moves) >= 2:
            first, second = rng.sample(moves, 2)
            a, b = round_.clone(), round_.clone()
            a.push(first)
            b.push(second)
            for s in range(round_.rules.players):
                assert a.information_state(s) != b.information_state(s)
                assert not np.array_equal(a.information_state_tensor(s), b.information_state_tensor(s))
            pairs["another move"] += 1
        # Another own hand: one of the seat's unplaced dealt tiles swapped with a hidden one.
        deal = round_._deal_dict()
        placed = {str(m.tile) for m in round_.move_stack if m.kind == "place"}
        own = [t for t in deal["hands"][seat] if t not in placed and t not in deal["setup_draws"]]
        yard, free = _untouched(round_, seat)
        targets = [(j, t) for j, tiles in free.items() for t in tiles] + [("yard", t) for t in yard]
        if own and targets:
            j, t = rng.choice(targets)
            other = _rebuilt(dc, round_, *_swapped(deal, seat, rng.choice(own), j, t))
            if other is not None:
                pairs["another own hand"] += 1
                assert other.information_state(seat) != state
                assert not np.array_equal(other.information_state_tensor(seat), tensor)
    assert sum(pairs.values()) >= count // 2, pairs


def test_the_information_state_hash_is_fnv1a_of_the_string(dc):
    rng = random.Random(5)
    for config in CONFIGS[::5]:
        for round_, seat in positions(dc, config, rng, 2):
            h = 0xCBF29CE484222325
            for byte in round_.information_state(seat).encode("utf-8"):
                h = ((h ^ byte) * 0x100000001B3) & (2**64 - 1)
            assert round_.information_state_hash(seat) == h


def _cross_deal():
    """A cross deal (double-6, 2 players, round 0) with a search, as
    ``from_deal`` arguments: seat 0 drew the 0-1, seat 1 the 2-3, seat 0 the
    6-6; neither hand holds a 6 (each hand: the dealt tiles, then its search draw)."""
    hands = [
        ["0-0", "1-1", "0-2", "1-2", "2-2", "0-4", "1-4", "0-1"],
        ["0-3", "1-3", "3-3", "2-4", "3-4", "4-4", "0-5", "2-3"],
    ]
    yard = ["1-6", "0-6", "1-5", "2-5", "3-5", "4-5", "5-5", "2-6", "3-6", "4-6", "5-6"]
    return hands, yard, "6-6", 0, 0


def test_the_information_state_format(dc):
    """docs/information.md 3 on the hand-built cross round: seat 1 draws a
    1-6 and places it, seat 0 draws a 0-6 and places it. ``h`` is the dealt
    hand by tile index, ``x`` the own search draws in order (the starter's
    ending with the round's double), ``d`` each seat's count, ``n`` each
    seat's dealt hand size (8 after the set-up less the search draws in
    hand: 7 each), and ``e`` each seat's points once the round is over."""
    rules = dc.ChickenFoot(rule_set="cross", set=6, players=2, hand_size=7)
    round_ = dc.Round.from_deal(rules, *_cross_deal(), setup_draws=["0-1", "2-3", "6-6"])
    for move in ["draw", "1-6@0", "draw", "0-6@1"]:
        round_.push(move)
    assert round_.information_state(0) == "r0;s0;c6-6;t0;H0;d2,1;n7,7;h0-0,1-1,0-2,1-2,2-2,0-4,1-4;x0-1,6-6;m" + (
        "1:draw 1:1-6@0 0:draw=0-6 0:0-6@1"
    )
    assert round_.information_state(1) == "r0;s1;c6-6;t0;H0;d2,1;n7,7;h0-3,1-3,3-3,2-4,3-4,4-4,0-5;x2-3;m" + (
        "1:draw=1-6 1:1-6@0 0:draw 0:0-6@1"
    )
    # A round without a centre or a search, before any move.
    block = dc.Round.from_deal(
        dc.Block(set=6, players=2, hand_size=2),
        [["0-1", "5-6"], ["2-2", "0-0"]],
        _rest(["0-1", "5-6", "2-2", "0-0"]),
        None,
        1,
    )
    assert block.information_state(1) == "r0;s1;c-;t1;H0;d0,0;n2,2;h0-0,2-2;x;m"
    # A hand-built short hand: seat 1 leads its only tile and goes out,
    # scoring the pips left in seat 0's hand (0+1+5+6 = 12): ``e`` appears.
    short = dc.Round.from_deal(
        dc.Block(set=6, players=2, hand_size=2), [["0-1", "5-6"], ["0-0"]], _rest(["0-1", "5-6", "0-0"]), None, 1
    )
    assert short.information_state(0) == "r0;s0;c-;t1;H0;d0,0;n2,1;h0-1,5-6;x;m"
    short.push("0-0@0")
    assert short.result.points == (0, 12)
    assert short.information_state(0) == "r0;s0;c-;t1;H0;d0,0;n2,1;h0-1,5-6;x;m1:0-0@0;e0,12"
    assert short.information_state(1) == "r0;s1;c-;t1;H0;d0,0;n2,1;h0-0;x;m1:0-0@0;e0,12"


def _rest(taken):
    """Every tile of the double-6 set but ``taken``, in index order."""
    return [str(t) for t in tiles_of_set(6) if str(t) not in taken]


# ------------------------------------------------------------------ records


def _generated(dc, config, seed):
    """A round of ``config`` dealt from ``seed``, before any move."""
    game, options = config
    rules = dc.rules_from_dict({"game": game, **options})
    return dc.Round(rules, seed=seed, round_index=seed % (rules.set + 1 if rules.rounds is not None else 3))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_records_keep_the_setup_facts(dc, config):
    """Version 2 with ``setup_draws`` and ``highest_double`` as docs/information.md
    2 says; ``from_dict`` gives back the record and every seat's information state."""
    rng = random.Random(f"records {config_id(config)}")
    game, options = config
    for round_, _ in positions(dc, config, rng, 4):
        data = round_.to_dict()
        assert data["version"] == 2
        deal = data["deal"]
        # P4 of docs/games/partnership.md: a puerto_rico round on its own leads the highest double too
        assert deal["highest_double"] is (game == "doubles" or options.get("lead") in ("highest_double", "puerto_rico"))
        if options.get("rule_set") != "cross":
            assert deal["setup_draws"] == []
        loaded = dc.Round.from_dict(data)
        assert loaded.to_dict() == data
        for s in range(round_.rules.players):
            assert loaded.information_state(s) == round_.information_state(s)
    if options.get("rule_set") == "cross" and round_.rules.tile_count > options["players"] * round_.rules.hand_size:
        searched = 0
        for seed in range(20):
            round_ = _generated(dc, config, seed)
            deal = round_.to_dict()["deal"]
            draws = deal["setup_draws"]
            if not draws:  # the starter was dealt the double
                assert deal["centre"] not in [t for h in deal["hands"] for t in h]
                continue
            searched += 1
            drawers = [(round_.round_index + i) % options["players"] for i in range(len(draws))]
            assert draws[-1] == deal["centre"] and drawers[-1] == deal["starter"]
            for tile, drawer in zip(draws[:-1], drawers):
                assert tile in deal["hands"][drawer]
            assert all(len(h) >= options.get("hand_size", 0) for h in deal["hands"])
        assert searched, "no cross round of 20 searched for its double"


def test_a_version_1_record_loads(dc):
    round_ = dc.Round(dc.Doubles(players=3), seed=4)
    for _ in range(6):
        round_.push(round_.legal_moves()[0])
    data = round_.to_dict()
    old = copy.deepcopy(data)
    del old["version"], old["deal"]["setup_draws"], old["deal"]["highest_double"]
    loaded = dc.Round.from_dict(old)
    assert loaded.move_stack == round_.move_stack and loaded.hands == round_.hands
    new = loaded.to_dict()
    assert new["version"] == 2 and new["deal"]["setup_draws"] == [] and new["deal"]["highest_double"] is False


@pytest.mark.parametrize("version", [3, 0, "2", 2.5])
def test_another_record_version_is_a_state_error(dc, version):
    data = dc.Round(dc.ChickenFoot(players=3, rule_set="cross"), seed=2).to_dict()
    data["version"] = version
    with pytest.raises(dc.StateError):
        dc.Round.from_dict(data)


def _false_setup_facts():
    """(what is wrong, rules, from_deal's positional arguments, setup_draws, highest_double)."""
    cross = ChickenFoot(rule_set="cross", set=6, players=2, hand_size=7)
    searched = _cross_deal()
    search = ["0-1", "2-3", "6-6"]
    rest = _rest(["6-6"])
    plain = ([rest[:7], rest[7:14]], rest[14:], "6-6", 0, 0)
    # The 6-6 dealt, the 5-5 in the centre.
    rest = _rest(["5-5", "6-6"])
    high = ([["6-6"] + rest[:6], rest[6:13]], rest[13:], "5-5", 0, 0)
    # No centre, and the 0-0 dealt.
    rest = _rest([])
    no_centre = ([rest[:7], rest[7:14]], rest[14:], None, 0, 0)
    trains, mexican = ChickenFoot(set=6, players=2), MexicanTrain(set=6, players=2)
    doubles, block = Doubles(set=6, players=2), Block(set=6, players=2, lead="highest_double")
    return [
        ("a search tile in another seat's hand", cross, searched, ["2-3", "0-1", "6-6"], False),
        ("the double not last", cross, searched, ["0-1", "2-3"], False),
        ("a tile after the double", cross, searched, search + ["0-0"], False),
        ("the double drawn by another seat than the starter", cross, searched, ["0-1", "6-6"], False),
        ("a search tile twice", cross, searched, ["0-1", "0-1", "6-6"], False),
        ("a search ending on another double", cross, searched, ["0-1", "2-3", "5-5"], False),
        ("a tile outside the set", cross, searched, ["0-1", "9-9", "6-6"], False),
        ("not a tile", cross, searched, ["0-1", "x", "6-6"], False),
        ("highest_double in the cross", cross, searched, search, True),
        ("a search in trains", trains, plain, ["6-6"], False),
        ("highest_double in trains", trains, plain, [], True),
        ("highest_double in Mexican Train", mexican, plain, [], True),
        ("a search in Doubles", doubles, plain, ["6-6"], True),
        ("a higher double dealt in Doubles", doubles, high, [], True),
        ("a higher double dealt in Block", block, high, [], True),
        ("a double dealt in Block without a centre", block, no_centre, [], True),
    ]


FALSE_SETUP_FACTS = _false_setup_facts()


@pytest.mark.parametrize("case", FALSE_SETUP_FACTS, ids=[c[0] for c in FALSE_SETUP_FACTS])
def test_from_deal_rejects_false_setup_facts(dc, case):
    _, rules, args, setup_draws, highest_double = case
    dc.Round.from_deal(rules, *args)  # the deal itself is fine
    with pytest.raises(dc.StateError):
        dc.Round.from_deal(rules, *args, setup_draws=setup_draws, highest_double=highest_double)


def test_from_deal_accepts_true_setup_facts(dc):
    rules = dc.ChickenFoot(rule_set="cross", set=6, players=2, hand_size=7)
    round_ = dc.Round.from_deal(rules, *_cross_deal(), setup_draws=["0-1", "2-3", "6-6"])
    assert round_._deal_dict()["setup_draws"] == ["0-1", "2-3", "6-6"]
    assert round_.current_player == 1
    # A search of one tile: the first drawer, the starter, drew the double.
    hands, yard, _, _, _ = _cross_deal()
    one = dc.Round.from_deal(rules, [h[:7] for h in hands], yard + ["0-1", "2-3"], "6-6", 0, 0, setup_draws=["6-6"])
    assert one.to_dict()["deal"]["setup_draws"] == ["6-6"]
    # Block without a centre: nobody was dealt a double.
    doubles = [f"{v}-{v}" for v in range(7)]
    singles = _rest(doubles)
    block = dc.Block(set=6, players=2, lead="highest_double")
    r = dc.Round.from_deal(block, [singles[:7], singles[7:14]], singles[14:] + doubles, None, 1, highest_double=True)
    assert r._deal_dict()["highest_double"] is True and r.current_player == 1
    # Doubles: the 6-6 in the centre is the highest; highest_double false is a version-1 deal.
    rest = _rest(["6-6"])
    for fact in (True, False):
        d = dc.Round.from_deal(
            dc.Doubles(set=6, players=2), [rest[:7], rest[7:14]], rest[14:], "6-6", 1, highest_double=fact
        )
        assert d.to_dict()["deal"]["highest_double"] is fact


# ------------------------------------------------------------------ bad input


BAD_SEATS = [-1, "p", "1", 1.5, None]


def _seat_calls(dc):
    calls = {
        "information_state": lambda r, s: r.information_state(s),
        "information_state_hash": lambda r, s: r.information_state_hash(s),
        "information_state_tensor": lambda r, s: r.information_state_tensor(s),
        "observation_tensor": lambda r, s: r.observation_tensor(s),
        "observation_tensors (one seat)": lambda r, s: dc.Round.observation_tensors([r], s),
        "observation_tensors (a list)": lambda r, s: dc.Round.observation_tensors([r, r], [0, s]),
        "determinize": lambda r, s: r.determinize(s),
        "determinizer": lambda r, s: r.determinizer(s),
    }
    if hasattr(dc.Round, "view"):
        calls["view"] = lambda r, s: r.view(s)
    return calls


@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_a_bad_seat_is_a_rules_error_and_changes_nothing(dc, seat):
    round_ = dc.Round(dc.MexicanTrain(set=6, players=3), seed=11)
    for _ in range(5):
        round_.push(round_.legal_moves()[-1])
    bad = round_.rules.players if seat == "p" else seat
    before = round_.to_dict()
    for name, call in _seat_calls(dc).items():
        with pytest.raises(dc.RulesError):
            call(round_, bad)
        assert round_.to_dict() == before, name


def test_a_numpy_integer_is_a_seat(dc):
    round_ = dc.Round(dc.Doubles(players=3), seed=2)
    assert round_.information_state(np.int64(2)) == round_.information_state(2)
    assert np.array_equal(round_.observation_tensor(np.int8(1)), round_.observation_tensor(1))
    assert round_.determinize(np.int32(0), 3).to_dict() == round_.determinize(0, 3).to_dict()


def test_a_finished_round_cannot_be_determinized(dc):
    round_ = dc.Round(dc.Block(players=2), seed=3)
    while not round_.is_over:
        round_.push(round_.legal_moves()[0])
    before = round_.to_dict()
    for seat in range(2):
        with pytest.raises(dc.StateError):
            round_.determinizer(seat)
        with pytest.raises(dc.StateError):
            round_.determinize(seat, 1)
        # What a seat knows of a finished round is still there.
        assert round_.information_state(seat)
        assert round_.observation_tensor(seat).shape == round_.observation_tensor_shape
    assert round_.to_dict() == before


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1", None])
def test_a_bad_seed_is_a_rules_error(dc, seed):
    round_ = dc.Round(dc.Doubles(players=2), seed=1)
    with pytest.raises(dc.RulesError):
        round_.determinize(0, seed)
    with pytest.raises(dc.RulesError):
        round_.determinizer(0).sample(seed)


def _bad_buffers(shape):
    """``out`` arguments an observation tensor of ``shape`` must refuse, each
    filled with -7 where it can be."""
    shape = tuple(np.atleast_1d(shape))
    size = int(np.prod(shape))
    wide = np.full(shape[:-1] + (2 * shape[-1],), -7, dtype=np.float32)
    read_only = np.full(shape, -7, dtype=np.float32)
    read_only.flags.writeable = False
    buffers = {
        "float64": np.full(shape, -7, dtype=np.float64),
        "int32": np.full(shape, -7, dtype=np.int32),
        "short": np.full(shape[:-1] + (shape[-1] - 1,), -7, dtype=np.float32),
        "long": np.full(shape[:-1] + (shape[-1] + 1,), -7, dtype=np.float32),
        "another rank": np.full((1,) + shape, -7, dtype=np.float32),
        "flat": np.full(size, -7, dtype=np.float32) if len(shape) > 1 else np.full((1, size), -7, dtype=np.float32),
        "strided": wide[..., ::2],
        "read-only": read_only,
        "a list": [-7.0] * size,
    }
    if len(shape) > 1:
        buffers["fortran order"] = np.full(shape[::-1], -7, dtype=np.float32).T
    return buffers


@needs_core
def test_bad_out_buffers_are_refused_alike_by_both_implementations():
    """``observation_tensor``'s and ``observation_tensors``' ``out``: both
    implementations refuse the same buffers with the same error, and leave
    them in the same state."""
    outcomes = {}
    for name in ("dominocore.reference", "dominocore.native"):
        dc = importlib.import_module(name)
        round_ = dc.Round(dc.ChickenFoot(players=3, set=6), seed=8)
        size = round_.observation_tensor_shape[0]
        calls = {
            "observation_tensor": (size, lambda out, r=round_: r.observation_tensor(1, out=out)),
            "observation_tensors": (
                (2, size),
                lambda out, r=round_, cls=dc.Round: cls.observation_tensors([r, r], 1, out=out),
            ),
        }
        result = {}
        for call, (shape, fill) in calls.items():
            for label, out in _bad_buffers(shape).items():
                try:
                    fill(out)
                    result[call, label] = ("accepted", np.asarray(out).tobytes())
                except Exception as exc:  # noqa: BLE001 - the class is what is compared
                    result[call, label] = (type(exc).__name__, np.asarray(out).tobytes())
        outcomes[name] = result
    ref, core = outcomes.values()
    for case in ref:
        assert ref[case] == core[case], case
        assert ref[case][0] != "accepted", case


def test_observation_tensors_fill_a_good_buffer_in_place(dc):
    rng = random.Random(3)
    rounds = [r for r, _ in positions(dc, CONFIGS[5], rng, 4)]
    size = rounds[0].observation_tensor_shape[0]
    out = np.full((4, size), -1, dtype=np.float32)
    result = dc.Round.observation_tensors(rounds, [0, 1, 0, 1], out=out)
    assert result is out or np.shares_memory(result, out)
    for row, r, s in zip(out, rounds, [0, 1, 0, 1]):
        assert np.array_equal(row, r.observation_tensor(s))
    one = np.full(size, -1, dtype=np.float32)
    assert np.shares_memory(rounds[0].observation_tensor(1, out=one), one)
    assert np.array_equal(one, rounds[0].observation_tensor(1))


# ------------------------------------------------------------------ shapes and planes


def _history_bound(rules) -> int:
    """L = T + 2Y + 2p(T + 1) (docs/information.md 3), with Y = T - p: the
    most tiles a yard can hold after a set-up that leaves a move, hand-built
    deals included (a hand empty after the set-up ends the round at once),
    so that the length is one constant per rules object."""
    t, p = rules.tile_count, rules.players
    return t + 2 * (t - p) + 2 * p * (t + 1)


def _split(vector, sizes: Dict[str, int]) -> Dict[str, np.ndarray]:
    """``vector`` cut into the named planes of ``sizes``, in order (all of it)."""
    planes, start = {}, 0
    for name, size in sizes.items():
        planes[name] = vector[start : start + size]
        start += size
    assert start == len(vector)
    return planes


def _information_planes(round_, tensor) -> Dict[str, np.ndarray]:
    rules = round_.rules
    t, p = rules.tile_count, rules.players
    sizes = {"seat": p, "starter": p, "centre": t + 1, "highest double": 1, "round index": 31, "search draws": p}
    sizes.update({"dealt hand sizes": p, "points": p})
    if rules.scores_in_play:  # docs/information.md 3: the match totals carried in
        sizes["carried"] = p
    sizes.update({"own dealt hand": t, "own search draws": t})
    sizes["moves"] = _history_bound(rules) * (p + 3 + t + 10)
    return _split(tensor, sizes)


def _observation_planes(round_, tensor) -> Dict[str, np.ndarray]:
    rules = round_.rules
    t, p, n = rules.tile_count, rules.players, rules.set + 1
    sizes = {"own hand": t, "layout": t, "own drawn tile": t, "open ends": n + 1, "legal ends": n + 1}
    sizes.update({"unlocked": n, "obligation": 4, "viewer": p, "to move": p, "hand sizes": p, "yard": 1})
    sizes.update({"drawing": 1, "markers": p})
    if rules.game == "mexican_train":
        sizes["train ends"] = (p + 1) * (n + 1)
    if rules.scores_in_play:  # docs/games/all_fives.md F12
        sizes.update({"play points": p, "carried": p, "spinner": 2})
    if rules.teams:
        sizes["teammates"] = p
    return _split(tensor, sizes)


def _one_hot(size: int, *indices: int) -> np.ndarray:
    vector = np.zeros(size, dtype=np.float32)
    for i in indices:
        vector[i] += 1
    return vector


def _tiles(size: int, tiles) -> np.ndarray:
    return _one_hot(size, *(tile.index for tile in tiles))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_tensor_sizes_follow_the_tables(dc, config):
    round_ = _generated(dc, config, 1)
    rules = round_.rules
    t, p, n = rules.tile_count, rules.players, rules.set + 1
    info = p + p + (t + 1) + 1 + 31 + p + p + p + t + t + _history_bound(rules) * (p + 3 + t + 10)
    assert info == 5 * p + (t + 1) + 2 * t + 32 + _history_bound(rules) * (p + t + 13)
    obs = t + t + t + (n + 1) + (n + 1) + n + 4 + p + p + p + 1 + 1 + p
    if rules.game == "mexican_train":
        obs += (p + 1) * (n + 1)
    if rules.scores_in_play:  # carried (information state); play points, carried, spinner (observation)
        info += p
        obs += 2 * p + 2
    if rules.teams:
        obs += p  # teammates (docs/games/partnership.md P5)
    assert round_.information_state_tensor_shape == (info,)
    assert round_.observation_tensor_shape == (obs,)
    for seat in range(p):
        it = round_.information_state_tensor(seat)
        ot = round_.observation_tensor(seat)
        assert it.dtype == np.float32 and it.shape == (info,)
        assert ot.dtype == np.float32 and ot.shape == (obs,)
    rows = dc.Round.observation_tensors([round_, round_.clone()], 0)
    assert rows.dtype == np.float32 and rows.shape == (2, obs)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_tensor_planes_hold_what_the_tables_say(dc, config):
    """Each plane of both tensors against the public queries and the seat's own
    history (the legal-ends plane only while an obligation names the ends)."""
    rng = random.Random(f"planes {config_id(config)}")
    for round_, seat in positions(dc, config, rng, 3):
        rules = round_.rules
        t, p, n = rules.tile_count, rules.players, rules.set + 1
        know = Knowledge(round_, seat)
        info = _information_planes(round_, round_.information_state_tensor(seat))
        assert np.array_equal(info["seat"], _one_hot(p, seat))
        assert np.array_equal(info["starter"], _one_hot(p, round_.starter))
        assert np.array_equal(info["centre"], _one_hot(t + 1, t if round_.centre is None else round_.centre.index))
        assert list(info["highest double"]) == [float(round_.view(seat).highest_double)]
        assert list(info["round index"]) == [(round_.round_index >> b) & 1 for b in range(31)]
        assert np.array_equal(info["search draws"], _one_hot(p, *know.search_drawers))
        deal = parse_deal(round_._deal_dict())
        searched = [[x for x, d in zip(deal["setup_draws"], know.search_drawers) if d == s] for s in range(p)]
        dealt_sizes = [sum(1 for x in deal["hands"][s] if x not in searched[s]) for s in range(p)]
        assert list(info["dealt hand sizes"]) == dealt_sizes
        points = round_.result.points if round_.is_over else [0] * p
        assert list(info["points"]) == list(points)
        if rules.scores_in_play:
            assert list(info["carried"]) == list(round_.carried)
        own_search = set(know.own_search)
        assert np.array_equal(info["own dealt hand"], _tiles(t, [x for x in know.own_initial if x not in own_search]))
        order = np.zeros(t, dtype=np.float32)
        for rank, tile in enumerate(know.own_search, 1):
            order[tile.index] = rank
        assert np.array_equal(info["own search draws"], order)
        blocks = info["moves"].reshape(-1, p + 3 + t + 10)
        for i, (mover, move, drawn) in enumerate(round_._history()):
            kind = ("place", "draw", "pass").index(move.kind)
            shown = move.tile if move.kind == "place" else drawn if mover == seat else None
            expected = np.concatenate(
                [
                    _one_hot(p, mover),
                    _one_hot(3, kind),
                    _tiles(t, [shown] if shown is not None else []),
                    np.array([(move.end >> b) & 1 if move.kind == "place" else 0 for b in range(10)], np.float32),
                ]
            )
            assert np.array_equal(blocks[i], expected), i
        assert not blocks[len(know.moves) :].any()

        obs = _observation_planes(round_, round_.observation_tensor(seat))
        assert np.array_equal(obs["own hand"], _tiles(t, round_.hand(seat)))
        assert np.array_equal(obs["layout"], _tiles(t, [x.tile for x in round_.layout]))
        mine = round_.drawn_tile is not None and round_.current_player == seat
        assert np.array_equal(obs["own drawn tile"], _tiles(t, [round_.drawn_tile] if mine else []))
        numbers = [n if e.number is None else e.number for e in round_.open_ends]
        assert np.array_equal(obs["open ends"], _one_hot(n + 1, *numbers))
        if round_.pending_ends:
            pending = [n if e.number is None else e.number for e in round_.open_ends if e.id in round_.pending_ends]
            assert np.array_equal(obs["legal ends"], _one_hot(n + 1, *pending))
        assert np.array_equal(obs["unlocked"], _one_hot(n, *round_.unlocked))
        kinds = [None, "start", "foot", "double"]
        assert np.array_equal(obs["obligation"], _one_hot(4, kinds.index(round_.obligation)))
        assert np.array_equal(obs["viewer"], _one_hot(p, seat))
        assert np.array_equal(obs["to move"], _one_hot(p, round_.current_player))
        assert list(obs["hand sizes"]) == [len(h) for h in round_.hands]
        assert list(obs["yard"]) == [round_.yard_size]
        assert list(obs["drawing"]) == [float(round_.drawn_tile is not None)]
        assert list(obs["markers"]) == [float(m) for m in round_.markers]
        if rules.game == "mexican_train":
            ends = {round_.train_of(e.id): e.number for e in round_.open_ends}
            expected = [_one_hot(n + 1, ends.get(train, n)) for train in range(p + 1)]
            assert np.array_equal(obs["train ends"], np.concatenate(expected))
        if rules.scores_in_play:  # docs/games/all_fives.md F12
            # each quotient in double, rounded to float32 once
            scaled = np.array([round_.play_points, round_.carried], np.float64) / rules.target
            assert np.array_equal(obs["play points"], scaled[0].astype(np.float32))
            assert np.array_equal(obs["carried"], scaled[1].astype(np.float32))
            doubles = [pl for pl in round_.layout if pl.tile.is_double]
            spinner = rules.spinner == "first" and bool(doubles)
            sides = any(len(pl.created) > (2 if pl.end == 0 and pl.number is None else 1) for pl in round_.layout)
            assert list(obs["spinner"]) == [float(spinner), float(sides)]
        if rules.teams:
            partners = [s for s in range(p) if s % rules.teams == seat % rules.teams]
            assert np.array_equal(obs["teammates"], _one_hot(p, *partners))


# ------------------------------------------------------------------ the worst-case scan (bench/)


def test_the_determinization_scan_reports_every_position(tmp_path):
    """bench/determinize_scan.py, which docs/information.md 4 quotes: a
    configuration's scan visits its ten points a round and finds no failure,
    and ``--records`` measures each recorded position (here the cross
    double-18 2-player one, counted by tile) with its acceptance."""
    import importlib.util

    path = pathlib.Path(__file__).parent.parent / "bench" / "determinize_scan.py"
    spec = importlib.util.spec_from_file_location("determinize_scan", path)
    assert spec is not None and spec.loader is not None
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    dc = scan.dc  # the scan measures the installed implementation, which must be the core
    if dc.IMPLEMENTATION != "cpp":
        pytest.skip("the scan measures the compiled core")
    rules = dc.rules_from_dict({**scan.GAMES["cross"], "set": 6, "players": 3})
    line = scan.scan("cross", rules, rounds=2, first_seed=7)
    assert line["config"] == "cross d6 3p" and line["positions"] == 2 * len(scan.POINTS)
    assert line["failed"] == [] and line["relaxed"] == 0 and line["lowest_acceptance"] is None
    # The acceptance counts both rejections: a coarser model's and liveness's.
    drawn = {"count_samples": 2, "relaxed_rejected": 5, "count_rejected": 1}
    assert scan.acceptance(drawn) == 0.25
    assert scan.acceptance({"count_samples": 0, "relaxed_rejected": 0, "count_rejected": 0}) is None
    case = next(c for c in HARD_POSITIONS if c["name"].startswith("cross double-18, 2 players"))
    records = tmp_path / "one.json"
    records.write_text(json.dumps([case]))
    (measured,) = list(scan.measure_records(str(records), worlds=5))
    assert measured["name"] == case["name"] and measured["count"] == "tile" and measured["acceptance"] == 1.0
