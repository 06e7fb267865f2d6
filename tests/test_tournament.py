"""Tournaments (dominocore.tournaments, docs/tournaments.md): the design (duplicate
deals, rotated seats, per-game seeds), the statistics on hand-made inputs,
reproducibility whatever the chunks, progress, and bad input. The Ray
backend is in tests/test_ray.py."""

from __future__ import annotations

import math

import dominocore as dc
import dominocore.stats as S
import dominocore.tournaments as T
import numpy as np
import pytest
from helpers import needs_core


def tour(dc, rules, bots, **kwargs):
    kwargs.setdefault("progress", False)
    return dc.tournament(rules, bots, **kwargs)


# ---------------------------------------------------------------- statistics on hand-made inputs


def test_a_bot_that_always_wins_block():
    """Block 2p, 3 deals, bot 0 scores at both seats: every statistic exactly."""
    rules = dc.Block(players=2)
    seating = [[0, 1], [1, 0]]
    # deals x tables x seats: bot 0 is seat 0 at table 0 and seat 1 at table 1
    points = [[[10, 0], [0, 20]], [[5, 0], [0, 5]], [[30, 0], [0, 0 + 12]]]
    wins = [[[1, 0], [0, 1]]] * 3
    r = T.TournamentResult(rules, ["A", "B"], seating, points, wins)
    a, b = r.table()
    assert (a["games"], a["deals"], r.games) == (6, 3, 6)
    # A's per-deal mean points: 15, 5, 21; B's 0
    assert r.per_deal("points")[:, 0].tolist() == [15.0, 5.0, 21.0]
    assert a["mean_points"] == pytest.approx(41 / 3)
    sd = np.std([15, 5, 21], ddof=1)
    half = S.t_quantile(0.975, 2) * sd / math.sqrt(3)
    assert (a["mean_points_low"], a["mean_points_high"]) == pytest.approx((41 / 3 - half, 41 / 3 + half))
    assert (a["win_rate"], a["win_rate_low"], a["win_rate_high"]) == (1.0, 1.0, 1.0)
    assert (b["win_rate"], b["mean_rank"], a["mean_rank"]) == (0.0, 2.0, 1.0)
    # Block: margin = own - the other's = A's points (B scores 0)
    assert r.per_deal("margin")[:, 0].tolist() == [15.0, 5.0, 21.0]
    assert a["mean_margin"] == pytest.approx(41 / 3) and b["mean_margin"] == pytest.approx(-41 / 3)
    ab = r.pair("A", "B")
    assert (ab["wins"], ab["losses"], ab["ties"], ab["deals"]) == (3, 0, 0, 3)
    assert ab["margin"] == pytest.approx(82 / 3)
    expected_p = S.t_sf((82 / 3) / (2 * sd / math.sqrt(3)), 2)
    assert ab["p_value"] == pytest.approx(expected_p) == pytest.approx(0.0497494935)  # 3 deals only
    assert r.pair("B", "A")["p_value"] == pytest.approx(1 - expected_p)
    # Bradley-Terry with 0.5 pseudo-wins each way: 3.5 to 0.5
    assert a["elo"] - b["elo"] == pytest.approx(400 * math.log10(3.5 / 0.5))
    assert a["elo"] + b["elo"] == pytest.approx(3000)


def test_a_constant_advantage_has_zero_width_intervals_and_p_zero():
    rules = dc.Doubles(players=2)
    points = [[[12, 0], [0, 12]]] * 4
    wins = [[[1, 0], [0, 1]]] * 4
    r = T.TournamentResult(rules, ["A", "B"], [[0, 1], [1, 0]], points, wins)
    ab = r.pair("A", "B")
    assert (ab["margin"], ab["margin_low"], ab["margin_high"], ab["p_value"]) == (24.0, 24.0, 24.0, 0.0)
    assert r.pair("B", "A")["p_value"] == 1.0


def test_costs_ties_ranks_and_shares_in_chicken_foot():
    """Chicken Foot: points are costs; tied seats share the win and their ranks."""
    rules = dc.ChickenFoot(players=3, set=6)
    seating = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    points = [[[0, 0, 9], [4, 8, 0], [3, 6, 6]]]  # one deal
    wins = [[[0.5, 0.5, 0], [0, 0, 1], [1, 0, 0]]]
    r = T.TournamentResult(rules, ["A", "B", "C"], seating, points, wins)
    # ranks per table: [1.5, 1.5, 3], [2, 3, 1], [1, 2.5, 2.5]
    # A sits at (t0 s0), (t1 s2), (t2 s1): ranks 1.5, 1, 2.5; B: 1.5, 2, 2.5; C: 3, 3, 1
    assert r.per_deal("rank")[0].tolist() == pytest.approx([5 / 3, 2.0, 7 / 3])
    assert r.per_deal("wins")[0].tolist() == pytest.approx([0.5, 1 / 6, 1 / 3])
    # margins: others' mean - own
    m = T.margins(rules, points)[0]
    assert m[0].tolist() == [4.5, 4.5, -9.0]
    assert r.per_deal("margin")[0, 0] == pytest.approx((4.5 + 6.0 + -1.5) / 3)
    assert np.allclose(T.margins(rules, points).sum(axis=-1), 0)
    assert math.isnan(r.table()[0]["mean_points_low"])  # one deal: no interval
    assert math.isnan(r.pair("A", "B")["p_value"])


def test_student_t_against_known_values():
    mean, low, high = T.t_interval([1, 2, 3, 4])
    assert mean == 2.5 and (low, high) == pytest.approx((2.5 - 2.05426, 2.5 + 2.05426), abs=1e-5)
    assert S.t_quantile(0.975, 3) == pytest.approx(3.182446305284263, rel=1e-10)
    assert S.t_quantile(0.975, 1000) == pytest.approx(1.962339, rel=1e-6)
    assert S.t_sf(0.0, 7) == 0.5
    assert T.paired_t_test([0, 0, 0]) == 0.5 and T.paired_t_test([-1, -1]) == 1.0
    assert math.isnan(T.paired_t_test([3]))


def test_student_t_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 5, 30, 499):
        for t in (-6.0, -1.0, 0.3, 2.0, 7.5):
            assert S.t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-9, abs=1e-14)
        assert S.t_quantile(0.975, df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-9)


def test_bradley_terry_three_bots_is_consistent():
    wins = [[0, 30, 40], [20, 0, 30], [10, 20, 0]]
    elo = T.bradley_terry(wins)
    assert elo.mean() == pytest.approx(1500) and elo[0] > elo[1] > elo[2]
    # the MM fixed point: each bot's wins equal its expected wins
    w = np.asarray(wins, float) + 0.5
    np.fill_diagonal(w, 0)
    pi = 10 ** ((elo - 1500) / 400)
    expected = [sum((w[i, j] + w[j, i]) * pi[i] / (pi[i] + pi[j]) for j in range(3) if j != i) for i in range(3)]
    assert expected == pytest.approx(w.sum(axis=1).tolist(), rel=1e-9)


# ---------------------------------------------------------------- the design


@pytest.mark.parametrize(
    "bots, players, kwargs, tables",
    [
        (["A", "B"], 2, {}, 2),
        (["A", "B", "C"], 3, {}, 3),
        (["A", "B", "C"], 3, {"seating": "permute"}, 6),
        (["A", "B", "C", "D"], 4, {}, 4),
        (["A", "B"], 4, {}, 2),  # A B A B: two distinct rotations
        (["A", "B"], 4, {"lineup": ["A", "B", "B", "B"]}, 4),
        (["A", "B", "C"], 2, {}, 6),  # every pair, both ways
    ],
)
def test_every_bot_plays_every_seat_equally(bots, players, kwargs, tables):
    seating = T._seating(len(bots), players, kwargs.get("seating", "rotate"), None)
    if "lineup" in kwargs:
        seating = T._seating(
            len(bots), players, "rotate", T._check_lineup(kwargs["lineup"], bots, [None] * len(bots), players)
        )
    assert len(seating) == tables
    assert len({tuple(row) for row in seating.tolist()}) == tables
    for b in range(len(bots)):
        per_seat = (seating == b).sum(axis=0)
        assert len(set(per_seat.tolist())) == 1 and per_seat[0] > 0, (b, per_seat)


def test_the_games_are_the_documented_deals_and_seeds(dc):
    """Deal d at table t is Round(rules, seed + d) with the bot at seat s seeded game_seed(seed, d, t, s)."""
    rules = dc.ChickenFoot(players=3, set=6)
    seed = 11
    r = tour(dc, rules, ["random", "greedy", "random"], rounds=3, seed=seed)
    assert r.seating.tolist() == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    for d in range(3):
        for t, table in enumerate(r.seating.tolist()):
            round_ = dc.Round(rules, seed=seed + d)
            bots = [
                dc.RandomPlayer(seed=T.game_seed(seed, d, t, s)) if b != 1 else dc.GreedyPlayer()
                for s, b in enumerate(table)
            ]
            while not round_.is_over:
                round_.push(bots[round_.current_player].choose(round_))
            assert r.points[d, t].tolist() == list(round_.result.points)


def test_both_implementations_give_the_same_tournament(ref):
    rules = ref.Doubles(players=3)
    a = tour(ref, rules, ["greedy", "random", ("random", {})], rounds=6, seed=5)
    b = tour(dc, rules, ["greedy", "random", ("random", {})], rounds=6, seed=5)
    assert a == b and a.bots == ["greedy", "random", "random#2"]
    m1 = tour(ref, ref.Block(players=2, target=30), ["greedy", "random"], matches=3, seed=2)
    m2 = tour(dc, ref.Block(players=2, target=30), ["greedy", "random"], matches=3, seed=2)
    assert m1 == m2 and m1.unit == "matches" and (m1.rounds >= 1).all()


def test_matches_use_match_totals_and_winners(dc):
    rules = dc.Doubles(players=2, target=50)
    r = tour(dc, rules, ["greedy", "random"], matches=2, seed=9)
    for d in range(2):
        for t, table in enumerate(r.seating.tolist()):
            m = dc.Match(rules, seed=9 + d)
            bots = [
                dc.RandomPlayer(seed=T.game_seed(9, d, t, s)) if b == 1 else dc.GreedyPlayer()
                for s, b in enumerate(table)
            ]
            while not m.is_over:
                round_ = m.new_round()
                while not round_.is_over:
                    round_.push(bots[round_.current_player].choose(round_))
            assert r.points[d, t].tolist() == list(m.totals)
            assert r.wins[d, t].tolist() == [1.0 / len(m.winners) if s in m.winners else 0.0 for s in range(2)]
            assert r.rounds[d, t] == len(m.results)


# ---------------------------------------------------------------- reproducibility, chunks, progress


def test_same_seed_same_result_whatever_the_chunks(dc):
    rules = dc.ChickenFoot(players=4, set=6)
    bots = ["greedy", "random", "random", "greedy"]
    base = tour(dc, rules, bots, rounds=7, seed=3)
    for chunks in (1, 2, 5):
        assert tour(dc, rules, bots, rounds=7, seed=3, chunks=chunks) == base
    assert tour(dc, rules, bots, rounds=7, seed=4) != base
    assert str(tour(dc, rules, bots, rounds=7, seed=3)) == str(base)


@needs_core
def test_the_progress_bar_changes_nothing(dc, capsys):
    rules = dc.Block(players=2)
    quiet = tour(dc, rules, ["greedy", "random"], rounds=5, seed=1)
    capsys.readouterr()
    shown = dc.tournament(rules, ["greedy", "random"], rounds=5, seed=1, progress=True)
    out = capsys.readouterr()
    assert shown == quiet and out.out == ""
    assert out.err == ""  # stderr is not a terminal here: no bar, no "\r" frames in a pipe or a log
    calls = []
    T.tournament(rules, ["greedy", "random"], rounds=4, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_table_and_str_are_readable(dc):
    r = tour(dc, dc.Block(players=2), {"G": "greedy", "R": "random"}, rounds=20, seed=1)
    rows = r.table()
    assert [row["bot"] for row in rows] == ["G", "R"]
    assert set(rows[0]) == {
        "bot", "games", "deals", "elo",
        *(f"{k}{s}" for k in ("mean_points", "win_rate", "mean_rank", "mean_margin") for s in ("", "_low", "_high")),
    }  # fmt: skip
    assert all(isinstance(v, (str, int, float)) for row in rows for v in row.values())
    assert rows[0]["mean_margin"] == pytest.approx(-rows[1]["mean_margin"])
    assert [(p["bot"], p["opponent"]) for p in r.pairwise()] == [("G", "R"), ("R", "G")]
    text = str(r)
    assert "| G | R |" in text and "20 deals x 2 tables = 40 rounds" in text
    assert repr(r) == "<TournamentResult G, R: 20 deals x 2 tables>"


# ---------------------------------------------------------------- bots


def test_a_function_sees_only_its_view_and_may_return_an_action_id(dc):
    seen = []

    def first(view):
        seen.append(view)
        return view.legal_actions()[0]

    rules = dc.ChickenFoot(players=2, set=6)
    r = tour(dc, rules, [first, "greedy"], rounds=2, seed=1)
    assert r.bots == ["first", "greedy"] and seen
    assert all(isinstance(v, dc.PlayerView) and v.current_player == v.seat for v in seen)


def test_bot_objects_are_copied_and_reseeded_per_game(dc):
    class Picker:
        name = "picker"

        def __init__(self):
            self.seed = None
            self.calls = 0

        def reseed(self, seed):
            self.seed = seed

        def choose(self, view):
            self.calls += 1
            moves = view.legal_moves()
            return moves[self.seed % len(moves)]

    bot = Picker()
    rules = dc.Block(players=2)
    a = tour(dc, rules, [bot, "greedy"], rounds=3, seed=2)
    assert bot.calls == 0 and bot.seed is None  # the caller's object is untouched
    assert a == tour(dc, rules, [Picker(), "greedy"], rounds=3, seed=2, chunks=3)
    assert a.bots == ["picker", "greedy"]


def test_builtin_bot_objects_and_registered_bots(dc):
    rules = dc.Block(players=2)
    a = tour(dc, rules, [dc.RandomPlayer(seed=99), dc.GreedyPlayer()], rounds=3, seed=1)
    assert a.bots == ["random", "greedy"] and a == tour(dc, rules, ["random", "greedy"], rounds=3, seed=1)
    made = []

    class Last:
        def __init__(self, seed=0, offset=0):
            made.append((seed, offset))

        def choose(self, round_):
            return round_.legal_moves()[-1]

    T.register_bot("test-last", Last)
    r = tour(dc, rules, [("test-last", {"offset": 3}), "greedy"], rounds=2, seed=1)
    assert r.bots == ["test-last(offset=3)", "greedy"]
    assert sorted(made) == sorted((T.game_seed(1, d, t, t), 3) for d in range(2) for t in range(2))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "bots, kwargs, words",
    [
        (["greedy"], {"rounds": 2}, "at least 2 bots"),
        ("greedy", {"rounds": 2}, "bots must be"),
        (["greedy", 3], {"rounds": 2}, "a bot is"),
        (["greedy", ("greedy", {"depth": 2})], {"rounds": 2}, "takes no options"),
        (["greedy", ("x", 2)], {"rounds": 2}, "(policy name, dict of options)"),
        (["greedy", "random"], {}, "exactly one of"),
        (["greedy", "random"], {"rounds": 2, "matches": 2}, "exactly one of"),
        (["greedy", "random"], {"rounds": 0}, "rounds must be"),
        (["greedy", "random"], {"rounds": 2, "backend": "spark"}, "backend must be"),
        (["greedy", "random"], {"rounds": 2, "address": "ray://x:1"}, "backend='ray' only"),
        (["greedy", "random"], {"rounds": 2, "seating": "shuffle"}, "seating must be"),
        (["greedy", "random"], {"rounds": 2, "lineup": ["greedy"] * 4}, "leaves out"),
        (["greedy", "random"], {"rounds": 2, "lineup": ["a"] * 4}, "unknown bot"),
        (["greedy", "random"], {"rounds": 2, "chunks": 0}, "chunks must be"),
        (["greedy", "random"], {"matches": 2, "round_index": 1}, "round_index applies"),
        (["greedy", "nobody"], {"rounds": 2}, "unknown bot policy 'nobody'"),
        (["greedy", "random"], {"rounds": 2, "progress": "yes"}, "progress must be"),
    ],
)
def test_bad_input_is_a_rules_error(dc, bots, kwargs, words):
    with pytest.raises(dc.RulesError) as info:
        dc.tournament(dc.ChickenFoot(players=4, set=6), bots, **{"progress": False, **kwargs})
    assert words in str(info.value)


def test_an_illegal_move_names_the_bot(dc):
    def drawer(view):
        return "draw"

    with pytest.raises(dc.IllegalMoveError, match="bot 'drawer' at seat"):
        tour(dc, dc.Block(players=2), [drawer, "greedy"], rounds=1)
    with pytest.raises(dc.IllegalMoveError, match="action id"):
        tour(dc, dc.Block(players=2), [lambda v: None, "greedy"], rounds=1)


# ---------------------------------------------------------------- simulate in chunks


def test_simulate_in_local_chunks_is_the_same_run(dc):
    rules = dc.Doubles(players=3)
    whole = dc.simulate(rules, rounds=30, seed=8, policy="greedy")
    for chunks in (1, 2, 5):
        part = dc.simulate(rules, rounds=30, seed=8, policy="greedy", chunks=chunks)
        for name in ("points", "reason", "out_seat", "starter", "moves", "match_index", "totals", "winners"):
            assert np.array_equal(getattr(whole, name), getattr(part, name)), name
    m = dc.simulate(dc.Block(players=2, target=30), matches=4, seed=1, chunks=3)
    assert np.array_equal(m.totals, dc.simulate(dc.Block(players=2, target=30), matches=4, seed=1).totals)
    with pytest.raises(dc.RulesError, match="backend must be"):
        dc.simulate(rules, rounds=3, backend="dask")


def test_identical_bots_differ_by_exactly_nothing(dc):
    rules = dc.ChickenFoot(players=4, set=6)
    r = tour(dc, rules, {"A": "greedy", "B": "greedy"}, rounds=6, seed=1, lineup=["A", "B", "B", "B"])
    ab = r.pair("A", "B")
    assert (ab["margin"], ab["margin_low"], ab["margin_high"], ab["p_value"], ab["ties"]) == (0.0, 0.0, 0.0, 0.5, 6)
    assert r.table()[0]["mean_margin"] == 0.0 and r.table()[0]["elo"] == pytest.approx(1500)


def bench_tournament():
    """bench/tournament.py, imported as a module."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parent.parent / "bench" / "tournament.py"
    spec = importlib.util.spec_from_file_location("bench_tournament", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pre_registered_bench_script_runs(capsys):
    assert bench_tournament().main(["--bot", "random", "--deals", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Smoke run: 3 deals" in out and out.count("| 3 |") == 4


@needs_core
def test_the_pilots_options_reach_the_bots(capsys):
    module = bench_tournament()
    pilot = ["--inference", "--pool", "--pool-size", "16", "--temperature", "0.3", "--rollout", "greedy"]
    assert module.main([*pilot, "--configs", "3", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "temperature=0.3), 'candidates': 8, 'pool': 16}" in out
    assert "against IS-MCTS with uniform worlds (`{'iterations': 1000, 'rollout': 'greedy'}`)" in out
    assert out.count("| 2 |") == 1 and out.count("not run") == 3
    assert module.main(["--learned", "--second", "--configs", "3", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "- Block, d6, 2p: `ismcts` `{'iterations': 0, 'seconds': 0.003, 'rollout': 'greedy'}`" in out
    assert "against today's IS-MCTS (`{'iterations': 0, 'seconds': 0.003, 'rollout': 'random'}`)" in out
    assert module.main(["--learned", "--variant", "cheat", "--configs", "3", "--deals", "2", "--quiet"]) == 0
    assert (
        "- Block, d6, 2p: `cheat` `{'iterations': 0, 'seconds': 0.003, 'rollout': 'random'}`" in capsys.readouterr().out
    )


def test_the_third_equal_time_experiment_is_fixed_by_its_flag(capsys, monkeypatch):
    module = bench_tournament()
    played = []
    monkeypatch.setattr(
        module,
        "against_greedy",
        lambda args, rules, spec: played.append((args, spec)) or (np.full(2, float(len(played))), 0.0),
    )
    assert module.main(["--learned", "--third", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "(seed 41000000)" in out and "not the pre-registered 1000" in out and "not run" not in out
    assert all(args.deals == 2 and args.seed == 41_000_000 for args, _ in played)
    specs = [spec for _, spec in played]  # trains: new, IS-MCTS, cheat; then new and IS-MCTS a configuration
    timed = {"iterations": 0, "seconds": 0.003, "rollout": "random"}
    assert specs[2] == ("cheat", timed) and specs[1] == specs[4] == specs[6] == specs[8] == ("ismcts", timed)
    trains, cross, doubles, block = (specs[k] for k in (0, 3, 5, 7))
    assert trains == cross == ("ismcts", {**timed, "rollout": "greedy"})
    assert doubles[1]["rollout"] == "greedy" and block[1]["rollout"] == "random"
    for _, options in (doubles, block):
        assert options["pool"] == 256 and options["model"] == dc.OpponentModel("softmax", temperature=1.0)
    for extra in (["--variant", "pool"], ["--second"], ["--configs", "0"]):
        with pytest.raises(SystemExit) as exit_:
            module.main(["--learned", "--third", *extra, "--deals", "2", "--quiet"])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "--third fixes its searches" in err and f"give it none of {extra[0]}" in err
    played.clear()
    assert module.main(["--learned", "--third", "--powered", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "(seed 51000000)" in out and "not the pre-registered 5000" in out and out.count("not run") == 3
    assert [spec for _, spec in played] == [doubles, ("ismcts", timed)]
    assert "Doubles, d6, 4p: does not hold at p < 0.005 (Bonferroni)." in out  # the stub's new search is behind
    played.clear()
    assert module.main(["--learned", "--third", "--confirm", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "(seed 61000000)" in out and "not the pre-registered 16000" in out and out.count("not run") == 3
    assert [spec for _, spec in played] == [doubles, ("ismcts", timed)]
    assert "Doubles, d6, 4p: does not hold at p < 0.0033 (Bonferroni)." in out


@needs_core
@pytest.mark.parametrize(
    "flag, seed, deals, not_run, bonferroni, refused",
    [
        ("--powered", 31000000, 3000, 2, "at p < 0.002 (Bonferroni)", ["--pool", "--pool-size", "--temperature"]),
        ("--confirm", 71000000, 10000, 3, "at p < 0.0017 (Bonferroni)", ["--pool", "--powered", "--learned-model"]),
    ],
)
def test_the_powered_inference_experiments_are_fixed_by_their_flags(
    flag, seed, deals, not_run, bonferroni, refused, capsys
):
    """The fifth experiment and its confirmatory replication in Doubles."""
    module = bench_tournament()
    assert module.main(["--inference", flag, "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "'candidates': 8, 'pool': 4096}" in out and f"(seed {seed})" in out
    assert f"not the pre-registered {deals}" in out and out.count("not run") == not_run
    assert out.count(bonferroni) == 4 - not_run  # a line per configuration played, held or not
    values = {"--pool-size": ["16"], "--temperature": ["0.3"]}
    for extra in [[option, *values.get(option, [])] for option in refused] + [["--configs", "0"]]:
        with pytest.raises(SystemExit) as exit_:
            module.main(["--inference", flag, *extra, "--deals", "2", "--quiet"])
        assert exit_.value.code == 2 and "fixes its bots" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--pool-size", "16", "--inference"],
        ["--temperature", "0.3"],
        ["--rollout", "greedy"],
        ["--second"],
        ["--powered"],
        ["--third"],
        ["--confirm"],
    ],
)
def test_an_experiments_option_without_its_experiment_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        bench_tournament().main([*argv, "--deals", "2", "--quiet"])
    assert exit_.value.code == 2 and "belongs to --" in capsys.readouterr().err


# --------------------------------------------------------------------------- naming a bot (issue 20, item 7)


def test_a_bot_is_named_however_it_was_given():
    rules = dc.Block(players=4, set=6)
    bots = [("random", {}), "greedy"]
    by_policy = dc.tournament(rules, bots, lineup=["random", "greedy", "greedy", "greedy"], rounds=3, progress=False)
    by_index = dc.tournament(rules, bots, lineup=[0, 1, 1, 1], rounds=3, progress=False)
    assert by_policy == by_index
    for a, b in [(0, 1), ("random", "greedy"), ("random", 1), (0, "greedy")]:
        assert by_index.pair(a, b) == by_index.pair("random", "greedy")
        assert by_index.margin_differences(a, b).tolist() == by_index.margin_differences(0, 1).tolist()
    assert by_index.index("greedy") == 1 and by_index.index(np.int64(0)) == 0


def test_a_bot_with_options_answers_to_its_policy_name_and_its_full_name():
    rules = dc.Block(players=4, set=6)
    ismcts = lambda seed=0, iterations=1: dc.GreedyPlayer()  # noqa: E731  (stands in: fast)
    T.register_bot("slow_bot", ismcts)
    bots = [("slow_bot", {"iterations": 300}), "greedy"]
    result = dc.tournament(rules, bots, lineup=["slow_bot", "greedy", "greedy", "greedy"], rounds=2, progress=False)
    assert result.bots == ["slow_bot(iterations=300)", "greedy"]
    assert result.pair("slow_bot", "greedy") == result.pair("slow_bot(iterations=300)", "greedy") == result.pair(0, 1)


def test_an_ambiguous_or_unknown_name_is_refused_saying_what_would_do():
    rules = dc.Block(players=4, set=6)
    T.register_bot("fast_bot", lambda seed=0, depth=1: dc.GreedyPlayer())
    bots = [("fast_bot", {"depth": 1}), ("fast_bot", {"depth": 2}), "greedy"]
    with pytest.raises(dc.RulesError, match=r"lineup 'fast_bot' is ambiguous: it names bots 0, 1; use an index"):
        dc.tournament(rules, bots, lineup=["fast_bot", 1, "greedy", "greedy"], rounds=1, progress=False)
    result = dc.tournament(rules, bots, lineup=[0, 1, 2, 2], rounds=1, progress=False)
    assert result.pair("fast_bot(depth=2)", "greedy") == result.pair(1, 2)
    with pytest.raises(dc.RulesError, match="is ambiguous"):
        result.pair("fast_bot", "greedy")
    names = r"\(bots: 0 fast_bot\(depth=1\), 1 fast_bot\(depth=2\), 2 greedy\)"
    with pytest.raises(dc.RulesError, match=r"unknown bot 'ismcts' " + names):
        result.pair("ismcts", "greedy")
    with pytest.raises(dc.RulesError, match="a pair is two different bots"):
        result.pair(2, "greedy")
    for bad in (True, 1.5, None, 3, -1):
        with pytest.raises(dc.RulesError):
            result.index(bad)
    # the same policy twice, with no options: the first keeps the plain name
    twice = dc.tournament(rules, ["random", "random", "greedy"], lineup=[0, 1, 2, 2], rounds=1, progress=False)
    assert twice.bots == ["random", "random#2", "greedy"] and twice.index("random") == 0


def test_the_progress_bar_is_drawn_on_a_terminal(monkeypatch):
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    T.tournament(dc.Block(players=2), ["greedy", "random"], rounds=3, progress=True, _implementation="python")
    assert "\r" in err.getvalue() and "deal" in err.getvalue()
