"""Partnerships in the compiled engine (docs/games/partnership.md P1-P5).

Written from the rules page, against the compiled engine only
(``dominocore.native`` and the search bots over the core): the options the
core accepts and refuses, exact points of hand-built rounds under both team
scorings (the example of P3 included), who leads each round of a match
under ``lead="puerto_rico"`` (P4), the team margins of the VectorEnv
rewards and of the search's reward against ``Rules.round_margins`` (P2),
the ``teammates`` plane (P5) and records with teams. The differential tests
compare the two engines move for move; these pin the outcomes.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dominocore._core", reason="the compiled core is not installed")

import dominocore.native as native  # noqa: E402
from dominocore.common.information import observation_tensor_size  # noqa: E402
from dominocore.common.vector_env import round_seed  # noqa: E402
from dominocore.native.codec import _core  # noqa: E402
from dominocore.search import CheatingMCTSPlayer  # noqa: E402

ALL_TILES = [f"{a}-{b}" for b in range(7) for a in range(b + 1)]


def teams(**options):
    """Block for 4 players in 2 teams, 7 tiles each (every tile dealt)."""
    return native.Block(players=4, hand_size=7, teams=2, **options)


def built(rules, hands, starter, centre=None, **setup):
    """A hand-built round; the tiles not named are out of play."""
    named = {centre, *(t for h in hands for t in h)}
    yard = [t for t in ALL_TILES if t not in named]
    return native.Round.from_deal(rules, hands=hands, yard=yard, centre=centre, starter=starter, **setup)


def played(rules, hands, starter, moves):
    r = built(rules, hands, starter)
    for m in moves:
        r.push(m)
    assert r.is_over
    return r


def last_placer(r):
    """The seat of the round's last placement (the set-up's double: the starter's)."""
    c = r.clone()
    while c.move_stack:
        move = c.pop()
        if move.kind == "place":
            return c.current_player
    return r.starter


class FakeRules:
    """A rules dict the Python rules class would refuse, to reach the core's own checks."""

    def __init__(self, **fields):
        self.fields = {"game": "block", "set": 6, "players": 4, "hand_size": 5, "target": 100, "max_rounds": 1000}
        self.fields.update(fields)

    def to_dict(self):
        return dict(self.fields)


# --------------------------------------------------------------------------- P1 the options


def test_the_core_takes_the_options():
    rules = teams(team_scoring="fewer_pips", lead="puerto_rico", target=200)
    assert rules.to_dict() == {
        "game": "block", "set": 6, "players": 4, "hand_size": 7, "target": 200, "max_rounds": 1000,
        "lead": "puerto_rico", "teams": 2, "team_scoring": "fewer_pips",
    }  # fmt: skip
    assert _core.CoreRules(rules).describe == (
        "block double-6, 4 players, hand 7, 0 tiles out of play, lead puerto_rico, target 200, "
        "at most 1000 rounds, 2 teams (fewer_pips)"
    )
    assert _core.CoreRules(teams()).describe.endswith(", 2 teams (all_pips)")
    assert "teams" not in _core.CoreRules(native.Block(players=4)).describe
    assert "teams" not in native.Block(players=4).to_dict()


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"teams": 2, "players": 2, "hand_size": 7}, "2 players cannot sit as 2 teams"),
        ({"teams": 3, "players": 3}, "3 players cannot sit as 3 teams"),
        ({"teams": 3}, "4 players cannot sit as 3 teams"),
        ({"teams": 4}, "4 players cannot sit as 4 teams"),
        ({"teams": 1}, "4 players cannot sit as 1 teams"),
        ({"team_scoring": "all_pips"}, "team_scoring needs teams"),
        ({"teams": 2, "team_scoring": "most_pips"}, "unknown team_scoring 'most_pips'"),
        ({"lead": "puerto_rico"}, "lead='puerto_rico' is a partnership rule: it needs teams"),
        ({"game": "doubles", "teams": 2}, "option teams does not apply to doubles"),
        ({"game": "doubles", "team_scoring": "all_pips"}, "option team_scoring does not apply to doubles"),
    ],
)
def test_the_core_refuses_what_python_refuses(fields, message):
    with pytest.raises(native.RulesError, match=message):
        _core.CoreRules(FakeRules(**fields))


def test_python_refuses_the_same():
    for options in ({"teams": 3}, {"teams": 4}, {"teams": 1}, {"team_scoring": "all_pips"}, {"lead": "puerto_rico"}):
        with pytest.raises(native.RulesError):
            native.Block(players=4, **options)
    with pytest.raises(native.RulesError):
        native.Block(players=2, teams=2)


# --------------------------------------------------------------------------- P3 scoring a round

#: The example of P3: seat 1 leads its last tile and goes out; seat 0 holds
#: 6-6, seat 2 0-1 and seat 3 2-3.
EXAMPLE = [["6-6"], ["4-5"], ["0-1"], ["2-3"]]


@pytest.mark.parametrize("scoring, points", [("all_pips", (0, 18, 0, 18)), ("fewer_pips", (0, 13, 0, 13))])
def test_the_example_of_p3(scoring, points):
    r = played(teams(team_scoring=scoring), EXAMPLE, 1, ["4-5@0"])
    assert (r.result.reason, r.result.out_seat, r.result.points) == ("out", 1, points)
    assert r.rules.round_margins(r.result.points) == [-points[1], points[1], -points[1], points[1]]


def test_the_default_team_scoring_is_all_pips():
    assert played(teams(), EXAMPLE, 1, ["4-5@0"]).result.points == (0, 18, 0, 18)


def test_fewer_pips_going_out_does_not_win_by_itself():
    # Seat 0 goes out, but its partner holds 6-6: team {0, 2} 12, team {1, 3} 3.
    hands = [["4-5"], ["0-1"], ["6-6"], ["0-2"]]
    assert played(teams(), hands, 0, ["4-5@0"]).result.points == (15, 0, 15, 0)
    r = played(teams(team_scoring="fewer_pips"), hands, 0, ["4-5@0"])
    assert (r.result.out_seat, r.result.points) == (0, (0, 12, 0, 12))


def test_a_partner_out_scores_for_the_team():
    # Seat 2 leads 0-0, seat 3 places 0-4 and goes out: 5 + 6 + 12 left.
    hands = [["2-3"], ["1-3", "0-2"], ["0-0", "6-6"], ["0-4"]]
    r = played(teams(), hands, 2, ["0-0@0", "0-4@1"])
    assert (r.result.reason, r.result.out_seat, r.result.points) == ("out", 3, (0, 23, 0, 23))
    r = played(teams(team_scoring="fewer_pips"), hands, 2, ["0-0@0", "0-4@1"])
    assert r.result.points == (0, 17, 0, 17)  # team {1, 3} holds 6, team {0, 2} 17


#: Seat 0 leads 5-5 and nobody holds a 5: blocked at once, by seat 0.
BLOCKED = {
    # team {0, 2}: 0 + 3 pips, team {1, 3}: 2 + 4
    "blocker_won": ([["5-5", "0-0"], ["1-1"], ["1-2"], ["2-2"]], (9, 0, 9, 0), (6, 0, 6, 0)),
    # 12 + 3 against 2 + 4
    "blocker_lost": ([["5-5", "6-6"], ["1-1"], ["1-2"], ["2-2"]], (0, 21, 0, 21), (0, 15, 0, 15)),
    # 3 + 2 against 2 + 3: nobody scores
    "tie": ([["5-5", "0-3"], ["1-1"], ["0-2"], ["1-2"]], (0, 0, 0, 0), (0, 0, 0, 0)),
}


@pytest.mark.parametrize("case", sorted(BLOCKED))
def test_blocked_rounds(case):
    hands, all_pips, fewer_pips = BLOCKED[case]
    r = played(teams(), hands, 0, ["5-5@0"])
    assert (r.result.reason, r.result.out_seat, r.result.points) == ("blocked", -1, all_pips)
    assert played(teams(team_scoring="fewer_pips"), hands, 0, ["5-5@0"]).result.points == fewer_pips


def test_partners_hold_the_same_points_in_random_rounds():
    for scoring in ("all_pips", "fewer_pips"):
        for seed in range(30):
            r = native.Round(native.Block(players=4, teams=2, team_scoring=scoring), seed=seed)
            r.apply_action(r.legal_actions()[0])
            while not r.is_over:
                r.push(r.legal_moves()[-1])
            points = r.result.points
            assert points[0] == points[2] and points[1] == points[3] and min(points[0], points[1]) == 0


# --------------------------------------------------------------------------- P4 who leads


def test_next_leader_of_built_rounds():
    rules = _core.CoreRules(teams(lead="puerto_rico"))
    expected = {"blocker_won": 0, "blocker_lost": 1, "tie": 0}
    for case, (hands, _, _) in BLOCKED.items():
        r = played(teams(lead="puerto_rico"), hands, 0, ["5-5@0"])
        assert r._s._last_placer == 0 and last_placer(r) == 0
        assert _core._next_leader(rules, r.result, 0, r._s._last_placer) == expected[case]
    # out: the seat that went out, whoever won
    r = played(teams(lead="puerto_rico", team_scoring="fewer_pips"), [["4-5"], ["0-1"], ["6-6"], ["0-2"]], 0, ["4-5@0"])
    assert _core._next_leader(_core.CoreRules(r.rules), r.result, 0, 0) == 0
    # the blocker is not the leader: seat 2 leads 0-0, seat 3 blocks with 0-5 and its team wins
    hands = [["2-3"], ["1-3", "1-1"], ["0-0", "6-6"], ["0-5", "2-2"]]
    r = played(teams(lead="puerto_rico"), hands, 2, ["0-0@0", "0-5@1"])
    assert (r.result.reason, r.result.points, r._s._last_placer) == ("blocked", (0, 27, 0, 27), 3)
    assert _core._next_leader(rules, r.result, 0, 3) == 3
    # ... its team loses (4 + 5 against 6 + 12): the seat after it leads
    hands = [["2-2"], ["1-3", "1-1"], ["0-0", "2-3"], ["0-5", "6-6"]]
    r = played(teams(lead="puerto_rico"), hands, 2, ["0-0@0", "0-5@1"])
    assert (r.result.reason, r.result.points, r._s._last_placer) == ("blocked", (27, 0, 27, 0), 3)
    assert _core._next_leader(rules, r.result, 0, 3) == 0
    # ... nobody wins (4 + 5 against 6 + 3): the round's leader leads again
    hands = [["2-2"], ["1-3", "1-1"], ["0-0", "2-3"], ["0-5", "1-2"]]
    r = played(teams(lead="puerto_rico"), hands, 2, ["0-0@0", "0-5@1"])
    assert (r.result.reason, r.result.points, r._s._last_placer) == ("blocked", (0, 0, 0, 0), 3)
    assert _core._next_leader(rules, r.result, 0, 3) == 2
    # lead = "winner" with teams (B2 unchanged): the first seat of the team that scored
    hands = [["2-3"], ["1-3", "1-1"], ["0-0", "6-6"], ["0-5", "2-2"]]
    r = played(teams(), hands, 2, ["0-0@0", "0-5@1"])
    assert _core._next_leader(_core.CoreRules(r.rules), r.result, 0, 3) == 1


def expected_leader(rules, previous):
    """P4: who leads the round after ``previous`` (a finished Round) under puerto_rico."""
    result = previous.result
    if result.out_seat >= 0:
        return "out", result.out_seat
    scored = [s for s in range(4) if result.points[s] > 0]
    blocker = last_placer(previous)
    if not scored:
        return "tie", previous.starter
    if rules.team_of(scored[0]) == rules.team_of(blocker):
        return "blocker_won", blocker
    return "blocker_lost", (blocker + 1) % 4


def test_who_leads_in_matches():
    seen = {"out": 0, "blocker_won": 0, "blocker_lost": 0, "tie": 0}
    for seed in range(25):
        rules = native.Block(players=4, teams=2, lead="puerto_rico", target=150)  # 5 tiles each: blocks
        match = native.Match(rules, seed=seed).play("random")
        rounds = match.rounds
        first = rounds[0].to_dict()["deal"]
        assert first["highest_double"] is True
        if first["centre"] is not None:  # the holder of the highest double dealt leads it
            dealt = [t for h in first["hands"] for t in h]
            assert all(int(t[0]) < int(first["centre"][0]) for t in dealt if t[0] == t[2])
        else:
            assert rounds[0].starter == 0
        for previous, r in zip(rounds, rounds[1:]):
            case, seat = expected_leader(rules, previous)
            seen[case] += 1
            deal = r.to_dict()["deal"]
            assert (r.starter, deal["centre"], deal["highest_double"]) == (seat, None, False)
            assert r.to_dict()["moves"][0].endswith("@0")  # the leader leads any tile
        # the batch's matches (C++ Match) lead the same seats and score the same
        sim = native.simulate(rules, matches=1, seed=seed, threads=1)
        assert sim.starter.tolist() == [r.starter for r in rounds]
        assert [tuple(p) for p in sim.points.tolist()] == [r.points for r in match.results]
        assert tuple(sim.totals[0].tolist()) == match.totals
    assert seen == {"out": 123, "blocker_won": 29, "blocker_lost": 18, "tie": 3}


def test_one_match_exactly():
    rules = teams(lead="puerto_rico", target=200)  # the dominoes package's series
    match = native.Match(rules, seed=3).play("random")
    assert [(r.reason, r.out_seat, r.points, r.starter) for r in match.results[:4]] == [
        ("out", 0, (18, 0, 18, 0), 2),
        ("out", 1, (0, 22, 0, 22), 0),
        ("blocked", -1, (38, 0, 38, 0), 1),
        ("out", 1, (0, 17, 0, 17), 0),
    ]
    assert str(match.rounds[0].centre) == "6-6" and match.rounds[0].to_dict()["deal"]["highest_double"]
    assert last_placer(match.rounds[2]) == 0  # the blocker, whose team won, leads round 3
    assert match.totals == (56, 218, 56, 218) and match.winners == (1, 3)


def test_a_round_on_its_own_is_led_by_the_highest_double():
    for seed in range(20):
        r = native.Round(teams(lead="puerto_rico"), seed=seed, round_index=5)
        deal = r.to_dict()["deal"]
        assert (deal["centre"], deal["highest_double"], r.current_player) == ("6-6", True, (r.starter + 1) % 4)
        assert "6-6" in [str(t) for t in native.Round(teams(), seed=seed, round_index=5).hand(r.starter)]


# --------------------------------------------------------------------------- P2 margins


@pytest.mark.parametrize("scoring", ["all_pips", "fewer_pips"])
def test_vector_env_rewards_are_the_team_margins(scoring):
    rules = native.Block(players=4, teams=2, team_scoring=scoring)
    n, seed = 4, 11
    env = native.VectorEnv(rules, num_envs=n, seed=seed, threads=1)
    observations, masks, seats = env.reset(seed=seed)
    episodes = [0] * n
    mirrors = [native.Round(rules, seed=round_seed(seed, i, 0)) for i in range(n)]
    ended = 0
    rewards_seen = set()
    for _ in range(400):
        actions = [int(np.flatnonzero(masks[i])[0]) for i in range(n)]
        for i in range(n):
            mirrors[i].apply_action(actions[i])
        observations, rewards, terminations, masks, seats = env.step(actions)
        for i in range(n):
            if terminations[i]:
                points = mirrors[i].result.points
                margins = rules.round_margins(points)
                assert rewards[i].tolist() == np.asarray(margins, np.float32).tolist()
                assert margins[0] == margins[2] and margins[1] == margins[3] and sum(margins) == 0
                rewards_seen.add(tuple(margins))
                ended += 1
                episodes[i] += 1
                mirrors[i] = native.Round(rules, seed=round_seed(seed, i, episodes[i]))
            else:
                assert rewards[i].tolist() == [0.0] * 4
            teammates = [1.0 if s % 2 == seats[i] % 2 else 0.0 for s in range(4)]
            assert observations[i, -4:].tolist() == teammates
            assert observations[i].tolist() == mirrors[i].observation_tensor(int(seats[i])).tolist()
    assert ended > 30 and len(rewards_seen) > 5


def test_search_reward_is_the_team_margin():
    # Seat 0 to lead: 2-2 or 4-5; either blocks the round at once (nobody holds a 2, 4 or 5 after).
    hands = [["2-2", "4-5"], ["1-1"], ["0-3"], ["6-6"]]
    bot = CheatingMCTSPlayer(iterations=50, seed=1)
    found = bot.search(built(teams(), hands, 0))
    assert [str(m) for m in found["moves"]] == ["2-2@0", "4-5@0"]
    # lead 2-2: team {0, 2} 9 + 3 against 2 + 12, it wins 26; lead 4-5: 4 + 3, it wins 21
    assert found["mean_reward"] == [26.0, 21.0] and str(found["move"]) == "2-2@0"
    for move, margin in (("2-2@0", 26.0), ("4-5@0", 21.0)):
        r = played(teams(), hands, 0, [move])
        assert r.rules.round_margins(r.result.points) == [margin, -margin, margin, -margin]
    found = bot.search(built(teams(team_scoring="fewer_pips"), hands, 0))
    assert found["mean_reward"] == [14.0, 14.0]
    # reward="own": the seat's own points, which are its team's
    found = CheatingMCTSPlayer(iterations=50, seed=1, reward="own").search(built(teams(), hands, 0))
    assert found["mean_reward"] == [26.0, 21.0]


def test_search_maximises_the_team_margin():
    # Seat 0 leads 0-0 or 5-5; seat 1 cannot follow either. After 0-0 its
    # partner goes out with 0-4 (team {0, 2} wins 10 + 3 + 11 = 24); after
    # 5-5 seat 3 goes out with 5-6 (team {1, 3} wins 0 + 3 + 4 = 7). The seat's
    # own margin against the others' mean would be 24 - 8 = 16: the reward is
    # the team's.
    hands = [["0-0", "5-5"], ["1-2"], ["0-4"], ["5-6"]]
    found = CheatingMCTSPlayer(iterations=100, seed=2).search(built(teams(), hands, 0))
    assert [str(m) for m in found["moves"]] == ["0-0@0", "5-5@0"]
    assert found["mean_reward"] == [24.0, -7.0] and str(found["move"]) == "0-0@0"
    for move, out, points in (("0-0@0", 2, (24, 0, 24, 0)), ("5-5@0", 3, (0, 7, 0, 7))):
        r = built(teams(), hands, 0)
        r.push(move)
        while not r.is_over:
            (only,) = r.legal_moves(distinct=True)
            r.push(only)
        assert (r.result.out_seat, r.result.points) == (out, points)


# --------------------------------------------------------------------------- P5 the teammates plane


def test_the_teammates_plane():
    rules = teams()
    base = observation_tensor_size(native.Block(players=4, hand_size=7))
    assert observation_tensor_size(rules) == base + 4 == _core._observation_tensor_size(_core.CoreRules(rules))
    r = native.Round(rules, seed=5)
    for seat in range(4):
        obs = r.observation_tensor(seat)
        assert obs.shape == (base + 4,)
        assert obs[-4:].tolist() == [1.0 if s % 2 == seat % 2 else 0.0 for s in range(4)]
        plain = native.Round(native.Block(players=4, hand_size=7), seed=5).observation_tensor(seat)
        assert obs[:-4].tolist() == plain.tolist()  # the shared planes are the game's
    batch = native.Round.observation_tensors([r, r, r, r], [0, 1, 2, 3])
    assert batch.shape == (4, base + 4)
    assert batch[:, -4:].tolist() == [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]]


# --------------------------------------------------------------------------- records


def test_records_round_trip_with_teams():
    rules = teams(lead="puerto_rico", team_scoring="fewer_pips")
    assert native.rules_from_dict(rules.to_dict()) == rules
    r = native.Round(rules, seed=9)
    while not r.is_over:
        r.push(r.legal_moves()[0])
    record = r.to_dict()
    assert record["rules"]["teams"] == 2 and record["rules"]["team_scoring"] == "fewer_pips"
    back = native.Round.from_dict(record)
    assert back == r and back.rules == rules and back.result == r.result and back.to_dict() == record
    match = native.Match(rules, seed=4).play("random", rounds=3)
    saved = match.to_dict()
    again = native.Match.from_dict(saved)
    assert again.to_dict() == saved and again.results == match.results
    assert again.play("random").to_dict() == match.play("random").to_dict()
