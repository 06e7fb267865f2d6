"""Inference (docs/information.md 5): worlds weighted by a model of the other seats' play.

On small positions reached by random play, every consistent world is
enumerated by brute force (tests/information_helpers.py) and weighted by its
likelihood, computed by the tests' own replay through the oracle; the
samplers' frequencies are then compared with the posterior (the exact
method) and with the law of resampling among K candidates, computed exactly
from the enumeration, by chi-square. The p-values are printed (``-s``); a
correct sampler fails the threshold of 1e-6 about once in a million runs.
Both implementations compute the same likelihood as the oracle, world by
world.
"""

from __future__ import annotations

import collections
import math
import random
from typing import Any, Dict, List, NamedTuple, Tuple

import numpy as np
import pytest
from dominocore.common.errors import RulesError, StateError
from dominocore.common.inference import OpponentModel, check_model
from helpers import CORE_INSTALLED, needs_core
from information_helpers import (
    CONFIGS,
    Key,
    Knowledge,
    config_id,
    enumerate_worlds,
    information_scaled,
    oracle_log_weight,
    parse_deal,
    positions,
    uniform_chi2,
    weighted_chi2,
)

ALPHA = 1e-6


class Spot(NamedTuple):
    """A position reached by random play: ``moves`` moves chosen by
    ``random.Random(seed)`` among the distinct legal moves of the round dealt
    from ``seed``, the seat to move observing; ``model`` the model tested
    there (the positions were picked for worlds whose likelihoods differ)."""

    rules: Dict[str, Any]
    seed: int
    moves: int
    model: str


SPOTS = {
    "trains-softmax": Spot({"game": "chickenfoot", "rule_set": "trains", "set": 6, "players": 2}, 24, 13, "softmax"),
    "trains-random": Spot({"game": "chickenfoot", "rule_set": "trains", "set": 6, "players": 2}, 24, 13, "random"),
    "block-random": Spot({"game": "block", "lead": "winner", "set": 6, "players": 2}, 22, 12, "random"),
    "mexican-softmax": Spot({"game": "mexican_train", "set": 6, "players": 3}, 16, 13, "softmax"),
    "doubles-random": Spot({"game": "doubles", "set": 6, "players": 2}, 7, 12, "random"),
    # the shipped network of Block double-6 for 2 (docs/learning.md): its placements of one tile differ
    "block-learned": Spot({"game": "block", "lead": "winner", "set": 6, "players": 2}, 22, 12, "learned"),
}
#: The softmax model of the tests: a low temperature, so that the weights differ a lot.
TEMPERATURE = 1.0
#: The learned model's: a higher one, so that the exact method (whose bound is 1) accepts often enough.
LEARNED_TEMPERATURE = 3.0


def temperature_of(name: str) -> float:
    return LEARNED_TEMPERATURE if name == "learned" else TEMPERATURE


def model_of(name: str) -> OpponentModel:
    return OpponentModel(name) if name == "random" else OpponentModel(name, temperature=temperature_of(name))


def build(dc, spot: Spot) -> Tuple[Any, int]:
    round_ = dc.Round(dc.rules_from_dict(spot.rules), seed=spot.seed)
    rng = random.Random(spot.seed)
    for _ in range(spot.moves):
        round_.push(rng.choice(round_.legal_moves(distinct=True)))
    assert not round_.is_over
    return round_, round_.current_player


_ENUMERATED: Dict[str, Tuple[Knowledge, Dict[Key, float], Dict[Key, float], List[float]]] = {}


def enumerated(dc, name: str) -> Tuple[Knowledge, Dict[Key, float], Dict[Key, float], List[float]]:
    """The spot's knowledge, its posterior ``pi`` and its likelihood ``L`` by
    key, and each key's acceptance ``L / B``, from the enumeration (both
    implementations reach the same position, so it is computed once)."""
    if name not in _ENUMERATED:
        spot = SPOTS[name]
        round_, seat = build(dc, spot)
        know = Knowledge(round_, seat)
        worlds, _ = enumerate_worlds(know)
        weights = {
            key: oracle_log_weight(know, world, spot.model, temperature_of(spot.model)) for key, world in worlds.items()
        }
        likelihood = {key: math.exp(log_l) for key, (log_l, _) in weights.items()}
        total = sum(likelihood.values())
        posterior = {key: value / total for key, value in likelihood.items()}
        _ENUMERATED[name] = (know, posterior, likelihood, [math.exp(e) for _, e in weights.values()])
    return _ENUMERATED[name]


def total_variation(a: Dict[Key, float], b: Dict[Key, float]) -> float:
    return 0.5 * sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def resampling_law(likelihood: Dict[Key, float], k: int) -> Dict[Key, float]:
    """q_K of docs/information.md 5, exactly: ``K u(x) E[L(x) / (L(x) + S)]``,
    S the sum of K - 1 independent uniform draws' likelihoods."""
    keys = list(likelihood)
    values = np.array([likelihood[key] for key in keys])
    others = np.zeros(1)
    for _ in range(k - 1):  # every sum of k - 1 draws, each equally likely
        others = (others[:, None] + values[None, :]).ravel()
    n = len(keys)
    return {key: k / n * float(np.mean(v / (v + others))) for key, v in zip(keys, values)}


def sample_counts(dc, name: str, samples: int, candidates: Any) -> collections.Counter:
    spot = SPOTS[name]
    round_, seat = build(dc, spot)
    know = enumerated(dc, name)[0]
    det = round_.determinizer(seat, model=model_of(spot.model), candidates=candidates)
    generator = dc.SplitMix64(20261205)
    counts: collections.Counter = collections.Counter()
    for _ in range(samples):
        counts[know.key_of_world(det.sample(generator))] += 1
    stats = det.stats
    assert stats["model_draws"] >= samples
    if candidates is None:
        assert stats["model_draws"] == samples + stats["model_rejected"]
    else:
        assert stats["model_draws"] == samples * candidates and stats["model_rejected"] == 0
    return counts


def samples_for(dc, core: int, reference: int) -> int:
    return information_scaled(core if dc.IMPLEMENTATION == "cpp" else reference, 10 * core)


# ------------------------------------------------------------------ the positions have teeth


@pytest.mark.parametrize("name", list(SPOTS))
def test_the_spots_weigh_their_worlds_differently(ref, name):
    """The likelihood varies over the consistent worlds (else the posterior
    would be uniform and the tests below could not tell the samplers from the
    uniform one), and the bound B holds: L / B is at most 1 in every world."""
    _, posterior, likelihood, acceptance = enumerated(ref, name)
    assert len(posterior) > 5
    assert max(likelihood.values()) >= 2 * min(likelihood.values())
    assert max(acceptance) <= 1 + 1e-12
    assert sum(acceptance) / len(acceptance) > 0.04  # the exact method's acceptance, for the tests' speed


# ------------------------------------------------------------------ the exact method


@pytest.mark.parametrize("name", list(SPOTS))
def test_the_exact_method_draws_the_posterior(dc, name):
    samples = samples_for(dc, 4000, 800)
    counts = sample_counts(dc, name, samples, None)
    _, posterior, _, _ = enumerated(dc, name)
    statistic, df, p = weighted_chi2(counts, posterior)
    _, _, p_uniform = uniform_chi2(counts, posterior)
    print(f"\n{name} [{dc.IMPLEMENTATION}, exact]: {len(posterior)} worlds, {samples} samples, "
          f"chi2={statistic:.1f} df={df} p={p:.3g}; against uniform p={p_uniform:.3g}")  # fmt: skip
    assert df >= 8, "too few cells for the test to see anything"
    assert p > ALPHA, f"{name}: the exact method's worlds do not follow the posterior (p={p:.3g})"
    if dc.IMPLEMENTATION == "cpp":  # enough samples to tell the posterior from the uniform law
        assert p_uniform < 1e-3, f"{name}: the samples do not tell the posterior from uniform"


# ------------------------------------------------------------------ resampling


@pytest.mark.parametrize("name", ["trains-softmax", "block-random", "mexican-softmax", "block-learned"])
@pytest.mark.parametrize("k", [2, 3])
def test_resampling_follows_its_law(dc, name, k):
    """Resampling among K candidates draws q_K exactly (not the posterior:
    for finite K it lies between the uniform law and the posterior)."""
    if dc.IMPLEMENTATION != "cpp" and k == 3:
        pytest.skip("the reference runs K = 2 only (its uniform sampler is slow)")
    samples = samples_for(dc, 4000, 800)
    counts = sample_counts(dc, name, samples, k)
    _, posterior, likelihood, _ = enumerated(dc, name)
    law = resampling_law(likelihood, k)
    assert math.isclose(sum(law.values()), 1.0, rel_tol=1e-9)
    uniform = {key: 1 / len(posterior) for key in posterior}
    statistic, df, p = weighted_chi2(counts, law)
    tv_law, tv_uniform = total_variation(law, posterior), total_variation(uniform, posterior)
    print(f"\n{name} [{dc.IMPLEMENTATION}, K={k}]: chi2={statistic:.1f} df={df} p={p:.3g}; "
          f"TV(q, pi)={tv_law:.3f} TV(u, pi)={tv_uniform:.3f}")  # fmt: skip
    assert tv_law < tv_uniform
    assert df >= 8, "too few cells for the test to see anything"
    assert p > ALPHA, f"{name}: resampling among {k} does not follow q_K (p={p:.3g})"


# ------------------------------------------------------------------ the likelihood


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("policy", ["random", "softmax"])
def test_the_likelihood_is_the_oracles(dc, config, policy):
    """``log_likelihood`` of sampled worlds equals the oracle's, on random
    positions of every configuration of the information model."""
    rng = random.Random(hash((config_id(config), policy)) & 0xFFFF)
    model = model_of(policy)
    for round_, seat in positions(dc, config, rng, 3 if dc.IMPLEMENTATION == "cpp" else 1):
        det = round_.determinizer(seat, model=model, candidates=2)
        know = Knowledge(round_, seat)
        for i in range(2):
            world = det.sample(i)
            expected, _ = oracle_log_weight(know, parse_deal(world._deal_dict()), policy, TEMPERATURE)
            assert math.isclose(det.log_likelihood(world), expected, rel_tol=1e-9, abs_tol=1e-9)


#: The configurations with a shipped network (docs/learning.md 1), in CONFIGS' form.
LEARNED_CONFIGS = [
    ("chickenfoot", {"rule_set": "trains", "set": 9, "players": 4}),
    ("chickenfoot", {"rule_set": "cross", "set": 9, "players": 4}),
    ("doubles", {"set": 6, "players": 4}),
    ("block", {"lead": "winner", "set": 6, "players": 2}),
]


@pytest.mark.parametrize("config", LEARNED_CONFIGS, ids=config_id)
def test_the_learned_likelihood_is_the_oracles_and_the_engines_agree(ref, config):
    """Under the learned model, the core's and the reference's likelihoods of
    the same worlds equal the oracle's (to 1e-9: the softmax's sums differ in
    order, the network's integers do not), on random positions of every
    configuration with a shipped network; the model's worlds are weighed
    differently from uniform ones."""
    core = pytest.importorskip("dominocore.native") if CORE_INSTALLED else None
    rng = random.Random(hash(config_id(config)) & 0xFFFF)
    model = model_of("learned")
    spread = []
    for round_, seat in positions(ref, config, rng, 3):
        det = round_.determinizer(seat, model=model, candidates=2)
        know = Knowledge(round_, seat)
        twin = core.Round.from_dict(round_.to_dict()).determinizer(seat, model=model, candidates=2) if core else None
        for i in range(2):
            world = det.sample(i)
            expected, _ = oracle_log_weight(know, parse_deal(world._deal_dict()), "learned", LEARNED_TEMPERATURE)
            assert math.isclose(det.log_likelihood(world), expected, rel_tol=1e-9, abs_tol=1e-9)
            if twin is not None:
                core_world = core.Round.from_dict(world.to_dict())
                assert math.isclose(twin.log_likelihood(core_world), expected, rel_tol=1e-9, abs_tol=1e-9)
            spread.append(expected)
    assert max(spread) > min(spread)


@pytest.mark.parametrize("temperature", [0.05, 1e6])
def test_the_likelihood_at_extreme_temperatures(dc, temperature):
    """Near greedy (scores 20 times apart) and near random, the engines still
    agree with the oracle: nothing overflows or loses the small terms."""
    round_, seat = build(dc, SPOTS["mexican-softmax"])
    know = Knowledge(round_, seat)
    det = round_.determinizer(seat, model=OpponentModel("softmax", temperature=temperature), candidates=2)
    for i in range(4):
        world = det.sample(i)
        expected, _ = oracle_log_weight(know, parse_deal(world._deal_dict()), "softmax", temperature)
        assert math.isfinite(expected)
        assert math.isclose(det.log_likelihood(world), expected, rel_tol=1e-9, abs_tol=1e-9)


@needs_core
@pytest.mark.parametrize("config", CONFIGS[::3], ids=config_id)
def test_both_implementations_compute_the_same_likelihood(ref, config):
    import dominocore.native as core

    rng = random.Random(7)
    for round_, seat in positions(core, config, rng, 3):
        twin = ref.Round.from_dict(round_.to_dict())
        for policy in ("random", "softmax"):
            det = round_.determinizer(seat, model=model_of(policy), candidates=1)
            twin_det = twin.determinizer(seat, model=model_of(policy), candidates=1)
            for i in range(3):
                world = det.sample(i)
                assert det.log_likelihood(world) == twin_det.log_likelihood(ref.Round.from_dict(world.to_dict()))


def test_the_likelihood_of_a_world_is_its_rounds_alone(dc):
    """log_likelihood does not change the world, is 0 without a model, and
    refuses a world of another history or another type."""
    round_, seat = build(dc, SPOTS["trains-softmax"])
    det = round_.determinizer(seat, model="softmax")
    world = det.sample(3)
    before = world.to_dict()
    value = det.log_likelihood(world)
    assert value < 0 and world.to_dict() == before
    assert round_.determinizer(seat).log_likelihood(world) == 0.0
    shorter = round_.clone()
    shorter.pop()
    with pytest.raises(StateError, match="another history"):
        det.log_likelihood(shorter)
    with pytest.raises(TypeError):
        det.log_likelihood("3-4")


# ------------------------------------------------------------------ the API


def test_opponent_model_values():
    assert OpponentModel() == OpponentModel("softmax", temperature=3.0)
    assert check_model("random") == OpponentModel("random") and check_model(None) is None
    assert hash(OpponentModel("softmax", 2)) == hash(OpponentModel("softmax", 2.0))
    assert repr(OpponentModel("softmax", 0.5)) == "OpponentModel('softmax', temperature=0.5)"
    assert repr(OpponentModel("random")) == "OpponentModel('random')"
    for bad in [dict(policy="greedy"), dict(policy=3), dict(temperature=0), dict(temperature=-1),
                dict(temperature=math.nan), dict(temperature=math.inf), dict(temperature=True),
                dict(temperature="1"), dict(temperature=2e6)]:  # fmt: skip
        with pytest.raises(RulesError):
            OpponentModel(**bad)


@pytest.mark.parametrize("model, candidates", [("greedy", None), (3, None), ("random", 0), ("random", 4097),
                                               ("random", 1.5), ("random", True), ("random", "2")])  # fmt: skip
def test_bad_inference_options_are_refused(dc, model, candidates):
    round_, seat = build(dc, SPOTS["block-random"])
    before = round_.to_dict()
    with pytest.raises(RulesError):
        round_.determinizer(seat, model=model, candidates=candidates)
    assert round_.to_dict() == before
    assert round_.determinizer(seat, model="random", candidates=2).sample(0).move_stack == round_.move_stack


def test_a_world_depends_on_the_seed_alone(dc):
    round_, seat = build(dc, SPOTS["mexican-softmax"])
    for candidates in (None, 3):
        first = round_.determinizer(seat, model="softmax", candidates=candidates)
        second = round_.determinizer(seat, model="softmax", candidates=candidates)
        second.sample(99)  # an earlier sample changes nothing
        assert [first.sample(s).to_dict() for s in range(3)] == [second.sample(s).to_dict() for s in range(3)]
    plain, none = round_.determinizer(seat), round_.determinizer(seat, model=None)
    assert [plain.sample(s).to_dict() for s in range(3)] == [none.sample(s).to_dict() for s in range(3)]
    assert none.stats["model_draws"] == 0 and none.model is None and none.candidates is None


def test_the_determinizer_says_its_model(dc):
    round_, seat = build(dc, SPOTS["block-random"])
    det = round_.determinizer(seat, model="random", candidates=4)
    assert det.model == OpponentModel("random") and det.candidates == 4
    assert "model=OpponentModel('random') candidates=4" in repr(det)
    hidden = {str(t) for j in range(round_.rules.players) if j != seat for t in round_.hand(j)}
    assert not any(tile in repr(det) for tile in hidden)


# ------------------------------------------------------------------ search


@needs_core
@pytest.mark.parametrize("cls", ["ISMCTSPlayer", "PIMCPlayer"])
def test_the_searches_take_a_model(cls):
    import dominocore as dc

    round_, seat = build(dc, SPOTS["doubles-random"])  # three legal moves: the search runs
    make = getattr(dc, cls)
    bot = make(iterations=300, seed=4, model=OpponentModel("softmax", temperature=2.0))
    assert bot.candidates == 8 and "model=OpponentModel('softmax', temperature=2.0)" in repr(bot)
    view = round_.view(seat)
    result = bot.search(view)
    assert result["move"] in round_.legal_moves(distinct=True) and result["iterations"] == 300
    assert (
        make(iterations=300, seed=4, model=OpponentModel("softmax", temperature=2.0)).search(view)["visits"]
        == (result["visits"])
    )
    exact = make(iterations=100, seed=4, model="random", candidates=None).choose(round_)
    assert exact in round_.legal_moves(distinct=True)
    for bad in [dict(model="greedy"), dict(model="random", candidates=0), dict(candidates=5000)]:
        with pytest.raises(RulesError):
            make(iterations=10, **bad)
    with pytest.raises(RulesError, match="cheating"):
        dc.CheatingMCTSPlayer(model="random")


@needs_core
def test_a_pool_of_weighted_worlds():
    """IS-MCTS's pool: a legal move, the same for the same seed, and refused
    without a model, outside IS-MCTS or out of range."""
    import dominocore as dc

    round_, seat = build(dc, SPOTS["doubles-random"])
    bot = dc.ISMCTSPlayer(iterations=400, seed=2, model="softmax", pool=64)
    assert "pool=64" in repr(bot)
    first = bot.search(round_)
    assert first["move"] in round_.legal_moves(distinct=True) and first["iterations"] == 400
    again = dc.ISMCTSPlayer(iterations=400, seed=2, model="softmax", pool=64).search(round_.view(seat))
    assert again["visits"] == first["visits"]
    assert dc.ISMCTSPlayer(iterations=400, seed=2, model="softmax").search(round_)["visits"] != first["visits"]
    for make, options in [(dc.ISMCTSPlayer, dict(pool=8)), (dc.ISMCTSPlayer, dict(model="random", pool=-1)),
                          (dc.ISMCTSPlayer, dict(model="random", pool=2**16 + 1)),
                          (dc.CheatingMCTSPlayer, dict(pool=8))]:  # fmt: skip
        with pytest.raises(RulesError):
            make(iterations=10, **options)
