"""The search bots (docs/search.md): IS-MCTS, PIMC and the cheating MCTS.

The searches run in the core; the rounds they are given come from either
implementation (the ``dc`` fixture), and their policies are played by both
implementations' ``Match.play`` and ``simulate``. No test times anything.
"""

from __future__ import annotations

import random

import dominocore
import pytest
from helpers import import_core, scaled

search = import_core("dominocore.search")  # the searches are the compiled core's
CheatingMCTSPlayer, ISMCTSPlayer, PIMCPlayer = search.CheatingMCTSPlayer, search.ISMCTSPlayer, search.PIMCPlayer

GAMES = {
    "trains": lambda dc: dc.ChickenFoot(players=4),
    "cross": lambda dc: dc.ChickenFoot(players=3, rule_set="cross"),
    "doubles": lambda dc: dc.Doubles(players=4),
    "block": lambda dc: dc.Block(players=2),
    "block_highest": lambda dc: dc.Block(players=3, lead="highest_double"),
    "mexican_train": lambda dc: dc.MexicanTrain(players=4),
    "all_fives": lambda dc: dc.AllFives(players=2),
    "all_fives_teams": lambda dc: dc.AllFives(players=4, teams=2),
    "fives_and_threes": lambda dc: dc.FivesAndThrees(players=3),
}


def positions(dc, rules, count: int, seed: int = 0):
    """Random mid-round positions with at least two distinct legal moves."""
    rng = random.Random(seed)
    out = []
    s = 0
    while len(out) < count:
        s += 1
        r = dc.Round(rules, seed=1000 * seed + s)
        for _ in range(rng.randrange(0, 45)):
            if r.is_over:
                break
            r.push(rng.choice(r.legal_moves()))
        if not r.is_over and len(r.legal_moves(distinct=True)) >= 2:
            out.append(r)
    return out


def bots():
    return [
        ISMCTSPlayer(iterations=120, seed=7),
        PIMCPlayer(iterations=120, determinizations=4, seed=7),
        ISMCTSPlayer(iterations=60, seed=3, rollout="greedy", reward="own", trees=2),
    ]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_information_leak(dc, game):
    """States the seat cannot tell apart (its determinizations) give the same
    search, visit for visit; so does the seat's PlayerView alone."""
    rules = GAMES[game](dc)
    for r in positions(dc, rules, scaled(4, 40), seed=1):
        seat = r.current_player
        worlds = [r.determinize(seat, k) for k in (1, 2)]
        # the compiled round's own search: for the reference's Round, the same
        # deal and moves in the core (a reference Round is searched through its view)
        core = dominocore.Round.from_dict(r.to_dict())
        for bot in bots():
            want = bot.search(core)
            assert bot.search(r)["visits"] == want["visits"]
            assert bot.search(r.view(seat))["visits"] == want["visits"]
            for w in worlds:
                assert w.information_state(seat) == r.information_state(seat)
                got = bot.search(w)
                assert (got["move"], got["visits"], got["mean_reward"]) == (
                    want["move"],
                    want["visits"],
                    want["mean_reward"],
                )


def test_a_view_carries_the_set_ups_highest_double_fact(dc):
    # Reproducer: the view's search assumed every Doubles deal had its highest
    # double in the centre; this one (from_deal, highest_double=False) has the
    # 6-6 in the hand of the seat to move, and its view could not be searched.
    tiles = [str(dc.Tile.from_index(i)) for i in range(28)]
    own = ["6-6", "0-1", "0-2", "1-3", "2-4", "3-5", "4-6", "5-5"]
    other = [t for t in tiles if t != "0-0" and t not in own][:8]
    yard = [t for t in tiles if t != "0-0" and t not in own and t not in other]
    r = dc.Round.from_deal(dc.Doubles(players=2), [other, own], yard, "0-0", 0, highest_double=False)
    view = r.view(1)
    assert r.current_player == 1 and view.highest_double is False
    assert dc.Round(dc.Doubles(players=2), seed=1).view(0).highest_double is True
    bot = ISMCTSPlayer(iterations=300, seed=2)
    assert bot.search(view)["visits"] == bot.search(r)["visits"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_moves_are_legal_and_reproducible(dc, game):
    rules = GAMES[game](dc)
    for r in positions(dc, rules, 3, seed=2):
        for bot in bots() + [CheatingMCTSPlayer(iterations=100, seed=7)]:
            move = bot.choose(r)
            assert move in r.legal_moves(distinct=True)
            assert bot.choose(r) == move
            result = bot.search(r)
            assert result["moves"] == r.legal_moves(distinct=True)
            assert sum(result["visits"]) == result["iterations"]


def test_thread_count_does_not_change_the_result():
    r = positions(dominocore, dominocore.ChickenFoot(players=4), 1, seed=3)[0]
    for cls, extra in (
        (ISMCTSPlayer, {"trees": 4}),
        (PIMCPlayer, {"determinizations": 4}),
        (CheatingMCTSPlayer, {"trees": 3}),
    ):
        one = cls(iterations=401, threads=1, seed=5, **extra).search(r)
        two = cls(iterations=401, threads=2, seed=5, **extra).search(r)
        assert (one["visits"], one["move"], one["iterations"]) == (two["visits"], two["move"], two["iterations"])
        assert one["iterations"] == 401


def test_seed_changes_the_search():
    r = positions(dominocore, dominocore.ChickenFoot(players=4), 1, seed=4)[0]
    runs = {tuple(ISMCTSPlayer(iterations=200, seed=s).search(r)["visits"]) for s in range(4)}
    assert len(runs) > 1


def test_the_cheat_sees_what_the_fair_bots_do_not():
    """The cheating search reads the true state: different worlds, different searches."""
    r = positions(dominocore, dominocore.ChickenFoot(players=4), 1, seed=5)[0]
    seat = r.current_player
    bot = CheatingMCTSPlayer(iterations=300, seed=1)
    searches = {tuple(bot.search(r.determinize(seat, k))["visits"]) for k in range(4)}
    assert len(searches) > 1
    with pytest.raises(dominocore.RulesError, match="true state"):
        bot.choose(r.view(seat))


def test_finished_round_and_other_seats_view_raise(dc):
    r = dc.Round(dc.Doubles(players=2), seed=1)
    seat = r.current_player
    other = r.view(1 - seat)
    with pytest.raises(dc.StateError, match="turn"):
        ISMCTSPlayer(iterations=10).choose(other)
    while not r.is_over:
        r.push(r.legal_moves()[0])
    for bot in (ISMCTSPlayer(iterations=10), PIMCPlayer(iterations=10), CheatingMCTSPlayer(iterations=10)):
        with pytest.raises(dc.StateError, match="over"):
            bot.choose(r)
    with pytest.raises(dc.StateError, match="over"):
        ISMCTSPlayer(iterations=10).choose(r.view(0))


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": -1},
        {"iterations": 0},
        {"c": -0.5},
        {"c": float("nan")},
        {"rollout": "smart"},
        {"reward": "win"},
        {"trees": 0},
        {"threads": 0},
        {"seed": -1},
        {"seconds": -1.0},
        {"iterations": "many"},
    ],
)
def test_bad_options_raise_rules_error(options):
    with pytest.raises(dominocore.RulesError):
        ISMCTSPlayer(**options)


def test_bad_input_raises():
    with pytest.raises(TypeError):
        ISMCTSPlayer(iterations=10).choose("a round")
    with pytest.raises(dominocore.RulesError):
        dominocore.simulate(dominocore.Doubles(players=2), rounds=1, policy=["ismcts", "chess"])
    with pytest.raises(dominocore.RulesError):
        dominocore.simulate(
            dominocore.Doubles(players=2), rounds=1, policy="ismcts", policy_options={"ismcts": {"depth": 3}}
        )
    with pytest.raises(dominocore.RulesError):
        dominocore.simulate(dominocore.Doubles(players=2), rounds=1, policy="ismcts", policy_options={"alphazero": {}})


def test_time_budget():
    r = positions(dominocore, dominocore.Doubles(players=4), 1, seed=6)[0]
    result = ISMCTSPlayer(iterations=0, seconds=0.02).search(r)
    assert result["iterations"] > 0 and result["move"] in r.legal_moves(distinct=True)
    assert result["tree_iterations"] == [result["iterations"]]


def test_a_time_budget_is_shared_by_the_trees_a_thread_runs():
    # Reproducer: the trees shared one deadline, so on one thread the first
    # tree (PIMC: the first world) took the whole budget and the rest ran 0.
    r = positions(dominocore, dominocore.ChickenFoot(players=4), 1, seed=3)[0]
    for bot in (
        ISMCTSPlayer(iterations=0, seconds=0.08, trees=4),
        PIMCPlayer(iterations=0, seconds=0.08, determinizations=4),
    ):
        result = bot.search(r)
        assert len(result["tree_iterations"]) == 4
        assert min(result["tree_iterations"]) > 0, result["tree_iterations"]
        assert sum(result["tree_iterations"]) == result["iterations"]


def test_an_iteration_budget_is_split_evenly_over_the_trees():
    r = positions(dominocore, dominocore.ChickenFoot(players=4), 1, seed=3)[0]
    assert ISMCTSPlayer(iterations=1001, trees=4, threads=2).search(r)["tree_iterations"] == [251, 250, 250, 250]


def test_policies_in_match_and_simulate(dc):
    """Search names with options, bot objects and callables play in both
    implementations, with the same games; plain policies given as objects
    give the games of the fast path."""
    rules = dc.Doubles(players=2, target=40)
    plain = dc.Match(rules, seed=4).play(["random", "greedy"]).totals
    assert dc.Match(rules, seed=4).play(["random", dc.GreedyPlayer()]).totals == plain
    sim = dc.simulate(rules, rounds=3, seed=2, policy=["greedy", "random"])
    mixed = dc.simulate(rules, rounds=3, seed=2, policy=[_greedy, "random"])
    assert mixed.points.tolist() == sim.points.tolist()
    opts = {"ismcts": {"iterations": 50, "seed": 1}}
    a = dc.simulate(rules, rounds=2, seed=3, policy=["ismcts", "greedy"], policy_options=opts)
    b = dominocore.reference.simulate(rules, rounds=2, seed=3, policy=["ismcts", "greedy"], policy_options=opts)
    assert a.points.tolist() == b.points.tolist()
    c = dc.simulate(rules, rounds=2, seed=3, policy=[ISMCTSPlayer(iterations=50, seed=1), "greedy"], threads=2)
    assert c.points.tolist() == a.points.tolist()
    m = dc.Match(rules, seed=1).play(
        ["pimc", lambda v: v.legal_actions()[0]], policy_options={"pimc": {"iterations": 40}}
    )
    assert m.is_over


def _greedy(view):
    """Greedy from a view: the placeable tile that scores most, first in canonical order on ties."""
    moves = view.legal_moves()
    places = [m for m in moves if m.is_place]
    if not places:
        return moves[0]
    best = places[0]
    for m in places[1:]:
        if view.rules.tile_score(m.tile) > view.rules.tile_score(best.tile):
            best = m
    return best


def test_a_numpy_array_is_not_a_bot(dc):
    # Reproducer (atheris, tests/fuzz): ndarray has a choose() method, so
    # simulate(policy=np.array(...)) played it as a bot and raised TypeError.
    import numpy as np

    rules = dc.Doubles(players=2, hand_size=13, target=1)
    for policy in (np.array(983826528823463354), np.array(["random", "greedy"]), np.int64(3)):
        with pytest.raises(dc.RulesError, match="a bot or a callable"):
            dc.simulate(rules, matches=1, policy=policy, threads=1)
        with pytest.raises(dc.RulesError, match="an object with choose"):
            dominocore.tournament(rules, [policy, "greedy"], rounds=1, progress=False)
