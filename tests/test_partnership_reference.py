"""Partnerships (docs/games/partnership.md P1..P6) in the reference engine.

Written from the rules page, against the reference only (``dominocore.reference``):
the compiled core learns teams on its own branch, and the differential run
compares the two once both have them. Every test builds an exact position
(``Round.from_deal``) or a seeded one and asserts exact outcomes; expected
deals, points and leaders are recomputed independently from the page.
"P3" means docs/games/partnership.md P3, "B2" docs/games/block.md B2.
"""

from __future__ import annotations

import json
import pickle
import re

import dominocore.reference as ref
import numpy as np
import pytest
from dominocore.common.information import observation_planes, observation_tensor_size
from scenario_helpers import deal, hand, legal, result

# --------------------------------------------------------------------------- helpers


def team_rules(**options):
    """4 players in teams {0, 2} and {1, 3}, every tile dealt (P6)."""
    return ref.Block(players=4, hand_size=7, teams=2, **options)


def team_round(hands, starter=0, centre=None, **options):
    """A hand-built team round: the tiles not named stay out of play (the yard)."""
    return deal(ref, team_rules(**options), centre, hands, starter=starter)


def seat_pips(r, seat):
    return sum(t.low + t.high for t in r.hand(seat))


def expected_points(r):
    """P3 from the final hands, independently."""
    rules = r.rules
    team_pips = [seat_pips(r, s) + seat_pips(r, s + 2) for s in (0, 1)]
    res = r.result
    low = min(team_pips)
    fewest = team_pips.index(low) if team_pips.count(low) == 1 else None
    if rules.team_scoring == "all_pips":
        winner = res.out_seat % 2 if res.reason == "out" else fewest
        score = sum(team_pips)
    else:
        winner = fewest
        score = 0 if winner is None else team_pips[1 - winner]
    return tuple(score if winner is not None and s % 2 == winner else 0 for s in range(4))


def blocker(r):
    """The seat of the round's last move, read from a seat's public history."""
    return r.view(0).history[-1].seat


def expected_leader(r):
    """P4 from a finished round, independently: who leads the next round."""
    res = r.result
    if res.reason == "out":
        return res.out_seat
    b = blocker(r)
    if not any(res.points):
        return res.starter
    return b if res.points[b] > 0 else (b + 1) % 4


def expected_deal(rules, gen, leader, round_index=0):
    """B1 and P4: one shuffle; seat s takes positions s*h .. s*h+h-1. A round
    whose leader no match chose (``leader=None``) is led by the holder of the
    highest double, which the set-up places; with none dealt, by seat
    round_index mod p with any tile. A chosen leader leads any tile."""
    p, h = rules.players, rules.hand_size
    deck = list(range(rules.tile_count))
    gen.shuffle(deck)
    hands = [sorted(deck[s * h : (s + 1) * h]) for s in range(p)]
    centre, starter = None, leader
    if leader is None:
        starter = round_index % p
        held = [(i, s) for s in range(p) for i in hands[s] if ref.Tile.from_index(i).is_double]
        if held:
            centre, starter = max(held)
            hands[starter].remove(centre)
    return {
        "centre": None if centre is None else str(ref.Tile.from_index(centre)),
        "starter": starter,
        "hands": [[str(ref.Tile.from_index(i)) for i in hd] for hd in hands],
        "yard": [str(ref.Tile.from_index(i)) for i in deck[p * h :]],
        "setup_draws": [],
        "highest_double": leader is None,
    }


def margins(points):
    """P2 with two teams: a seat's team points minus the other team's."""
    return [float(points[s] - points[(s + 1) % 4]) for s in range(4)]


# --------------------------------------------------------------------------- P1 teams


def test_teams_of_the_seats():
    """P1: seat s is on team s mod k; partners sit opposite."""
    rules = team_rules()
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.sides == 2
    assert (rules.teams, rules.team_scoring, rules.reserve) == (2, "all_pips", 0)


# --------------------------------------------------------------------------- P3 scoring


@pytest.mark.parametrize("scoring, points", [("all_pips", (0, 18, 0, 18)), ("fewer_pips", (0, 13, 0, 13))])
def test_worked_example_of_p3(scoring, points):
    """P3's example: seat 1 goes out; seat 0 holds 6-6, seat 2 0-1, seat 3 2-3."""
    r = team_round([["6-6"], ["4-5"], ["0-1"], ["2-3"]], starter=1, team_scoring=scoring)
    assert legal(r) == ["4-5@0"]
    r.push("4-5@0")
    assert result(r) == ("out", 1, points, 1, 1)
    assert result(r)[2] == expected_points(r)


@pytest.mark.parametrize("scoring, points", [("all_pips", (0, 15, 0, 15)), ("fewer_pips", (12, 0, 12, 0))])
def test_going_out_wins_only_under_all_pips(scoring, points):
    """P3: under "all_pips" the team of the seat that went out wins every pip
    left (its partner's 6-6 included); under "fewer_pips" the team with fewer
    pips wins although the other team's seat went out."""
    r = team_round([["0-1"], ["4-5"], ["0-2"], ["6-6"]], starter=1, team_scoring=scoring)
    r.push("4-5@0")
    assert result(r) == ("out", 1, points, 1, 1)
    assert result(r)[2] == expected_points(r)


def test_out_after_several_moves_all_pips():
    """P3 "all_pips": a seat goes out after a few placements."""
    hands = [["0-6", "1-1"], ["3-6", "2-2"], ["6-6", "0-0"], ["2-3"]]
    r = team_round(hands, starter=0)
    for move in ["0-6@0", "3-6@2", "0-0@1", "2-3@3"]:
        r.push(move)
    # seat 3 went out: team {1, 3} scores every pip left, 2 + 4 + 12 (1-1, 2-2, 6-6)
    assert result(r) == ("out", 3, (0, 18, 0, 18), 0, 4)
    assert [hand(r, s) for s in range(3)] == [["1-1"], ["2-2"], ["6-6"]]


@pytest.mark.parametrize("scoring, points", [("all_pips", (18, 0, 18, 0)), ("fewer_pips", (12, 0, 12, 0))])
def test_blocked_fewest_team_pips_wins(scoring, points):
    """P3: blocked, the team with the fewest pips wins, although the seat
    with the fewest pips (seat 3, 0-0) is on the other team."""
    r = team_round([["5-5", "1-3"], ["6-6"], ["0-2"], ["0-0"]], starter=0, team_scoring=scoring)
    r.push("5-5@0")  # no other hand holds a 5: blocked at once
    assert result(r) == ("blocked", -1, points, 0, 1)
    assert [seat_pips(r, s) for s in range(4)] == [4, 12, 2, 0]
    assert result(r)[2] == expected_points(r)


@pytest.mark.parametrize("scoring", ["all_pips", "fewer_pips"])
def test_blocked_tie_scores_nobody(scoring):
    """P3: teams tied for the fewest pips (7 each): nobody scores."""
    r = team_round([["5-5", "1-2"], ["0-3"], ["0-4"], ["1-3"]], starter=0, team_scoring=scoring)
    r.push("5-5@0")
    assert result(r) == ("blocked", -1, (0, 0, 0, 0), 0, 1)


def test_without_teams_nothing_changes():
    """P3 applies with teams only: the same position without teams is B5."""
    rules = ref.Block(players=4, hand_size=7)
    r = deal(ref, rules, None, [["5-5", "1-3"], ["6-6"], ["0-2"], ["0-0"]])
    r.push("5-5@0")
    assert result(r) == ("blocked", -1, (0, 0, 0, 18), 0, 1)  # seat 3's 0 pips win alone
    assert observation_tensor_size(rules) + 4 == observation_tensor_size(team_rules())


# --------------------------------------------------------------------------- P4 the lead, set-up


@pytest.mark.parametrize("seed, round_index", [(0, 0), (5, 0), (11, 3)])
def test_puerto_rico_round_on_its_own_leads_the_highest_double(seed, round_index):
    """P4: a round built on its own is led by the holder of the highest double
    dealt, placed by the set-up (with every tile dealt, the 6-6); the next
    seat moves."""
    rules = team_rules(lead="puerto_rico")
    r = ref.Round(rules, seed=seed, round_index=round_index)
    expected = expected_deal(rules, ref.SplitMix64(seed), None, round_index)
    assert r.to_dict()["deal"] == expected
    assert str(r.centre) == expected["centre"] == "6-6"
    assert r.current_player == (r.starter + 1) % 4
    assert [(e.id, e.number) for e in r.open_ends] == [(0, 6), (1, 6)]


def test_puerto_rico_seed_0_exactly():
    """P4, one deal in full."""
    r = ref.Round(team_rules(lead="puerto_rico"), seed=0)
    assert (str(r.centre), r.starter, r.current_player) == ("6-6", 2, 3)
    assert r.to_dict()["deal"]["highest_double"] is True


def test_puerto_rico_no_double_dealt():
    """P4: with no double dealt, seat round_index mod p leads any tile (and
    the record says the set-up looked for the highest double)."""
    rules = ref.Block(players=4, hand_size=1, teams=2, lead="puerto_rico")
    seed = 4
    r = ref.Round(rules, seed=seed, round_index=6)
    assert not any(t.is_double for s in range(4) for t in r.hand(s))
    assert r.to_dict()["deal"] == expected_deal(rules, ref.SplitMix64(seed), None, 6)
    assert (r.centre, r.starter, r.current_player) == (None, 2, 2)
    assert r.to_dict()["deal"]["highest_double"] is True
    assert [hand(r, s) for s in range(4)] == [["3-4"], ["0-4"], ["2-6"], ["0-5"]]
    assert legal(r) == ["2-6@0"]


def test_match_round_0_is_the_round_on_its_own():
    """P4: round 0 of a match is set up as a round on its own."""
    rules = team_rules(lead="puerto_rico", target=1000)
    m = ref.Match(rules, seed=14)
    r = m.new_round()
    assert r.to_dict()["deal"] == ref.Round(rules, seed=14).to_dict()["deal"]
    assert (str(r.centre), r.starter) == ("6-6", 0)


def test_match_round_with_a_chosen_leader_leads_any_tile():
    """P4: a later round of a match is led by the seat the match chose, with
    any tile: no centre, the lead end open, ``highest_double`` false."""
    rules = team_rules(lead="puerto_rico", target=1000)
    m = ref.Match(rules, seed=14).play("random", rounds=1)
    gen = ref.SplitMix64(14)
    expected_deal(rules, gen, None)  # round 0 takes the first shuffle
    r = m.new_round()
    assert r.to_dict()["deal"] == expected_deal(rules, gen, 2)
    assert (r.centre, r.starter, r.current_player) == (None, 2, 2)
    assert [(e.id, e.number) for e in r.open_ends] == [(0, None)]
    assert legal(r) == [f"{t}@0" for t in hand(r, 2)]
    assert len(legal(r)) == 7


# --------------------------------------------------------------------------- P4 the next leader


@pytest.mark.parametrize(
    "scoring, seed, reason, last, points, starter, leader",
    [
        # the seat that went out leads, whether its team won ("all_pips") ...
        ("all_pips", 0, "out", 3, (0, 16, 0, 16), 2, 3),
        # ... or lost ("fewer_pips": seat 3 went out, team {0, 2} held fewer pips)
        ("fewer_pips", 0, "out", 3, (10, 0, 10, 0), 2, 3),
        # blocked, the blocker's team won: the blocker
        ("all_pips", 4, "blocked", 1, (0, 56, 0, 56), 2, 1),
        ("all_pips", 14, "blocked", 2, (58, 0, 58, 0), 0, 2),
        ("all_pips", 43, "blocked", 3, (0, 72, 0, 72), 2, 3),
        ("fewer_pips", 4, "blocked", 1, (0, 32, 0, 32), 2, 1),
        # blocked, no team won: the previous round's leader
        ("all_pips", 64, "blocked", 2, (0, 0, 0, 0), 3, 3),
        ("fewer_pips", 64, "blocked", 2, (0, 0, 0, 0), 3, 3),
        # blocked, the blocker's team lost: the seat after the blocker
        ("all_pips", 5, "blocked", 0, (0, 10, 0, 10), 2, 1),
        ("all_pips", 23, "blocked", 1, (34, 0, 34, 0), 2, 2),  # seat 1 holds 0 pips, its team 19
        ("all_pips", 58, "blocked", 3, (58, 0, 58, 0), 3, 0),
        ("fewer_pips", 5, "blocked", 0, (0, 7, 0, 7), 2, 1),
    ],
)
def test_next_leader_in_a_match(scoring, seed, reason, last, points, starter, leader):
    """P4: who leads round 1 of a match after each way round 0 can end."""
    rules = team_rules(lead="puerto_rico", target=1000, team_scoring=scoring)
    m = ref.Match(rules, seed=seed).play("random", rounds=1)
    r0 = m.rounds[0]
    res = r0.result
    assert (res.reason, tuple(res.points), res.starter) == (reason, points, starter)
    assert blocker(r0) == last
    assert tuple(res.points) == expected_points(r0)
    if reason == "blocked":
        assert r0.move_stack[-1].kind == "place"  # the blocker placed
    assert expected_leader(r0) == leader
    r1 = m.new_round()
    assert (r1.starter, r1.centre, r1.to_dict()["deal"]["highest_double"]) == (leader, None, False)


@pytest.mark.parametrize(
    "seed, centre, starter, points, leader",
    [
        (0, "4-4", 0, (39, 0, 39, 0), 0),  # the starter's team won: it leads again
        (37, "5-5", 2, (0, 31, 0, 31), 3),  # its team lost: the seat after it
        (279, "3-3", 2, (0, 0, 0, 0), 2),  # nobody won: the previous leader (the same seat)
    ],
)
def test_next_leader_after_a_block_at_the_set_up(seed, centre, starter, points, leader):
    """P4 and B2: a round blocked by the double the set-up placed, before any
    move: that double was the starter's lead (its placement, B2), so the
    starter is the blocker."""
    rules = ref.Block(players=4, hand_size=2, teams=2, lead="puerto_rico", target=1000)
    m = ref.Match(rules, seed=seed)
    r0 = m.new_round()
    res = r0.result
    assert (str(r0.centre), res.reason, res.moves, res.starter, tuple(res.points)) == (
        centre,
        "blocked",
        0,
        starter,
        points,
    )
    assert tuple(res.points) == expected_points(r0)
    assert m.new_round().starter == leader


def check_team_match(match, seed):
    """Every round of a finished match: the deal (B1, B6: one generator), its
    leader (P4), its points (P3), the team totals (P2) and the winners."""
    rules = match.rules
    gen = ref.SplitMix64(seed)
    leader = None
    totals = [0] * 4
    rounds = list(match.rounds)
    for k, r in enumerate(rounds):
        assert r.to_dict()["deal"] == expected_deal(rules, gen, leader, k), f"round {k}"
        assert tuple(r.result.points) == expected_points(r), f"round {k}"
        totals = [a + b for a, b in zip(totals, r.result.points)]
        leader = expected_leader(r)
    assert tuple(match.totals) == tuple(totals)
    assert totals[0] == totals[2] and totals[1] == totals[3]
    assert match.is_over and max(totals) >= rules.target
    best = max(totals)
    assert tuple(match.winners) == tuple(s for s in range(4) if totals[s] == best)
    assert len(match.winners) in (2, 4)  # partners win together
    return len(rounds)


@pytest.mark.parametrize(
    "scoring, seed, policy, rounds",
    [("all_pips", 1, "random", 6), ("all_pips", 2, "greedy", 15), ("fewer_pips", 3, "random", 17)],
)
def test_whole_puerto_rico_match(scoring, seed, policy, rounds):
    """P2, P4, P6: the dominoes package's series to 200, every round checked."""
    rules = team_rules(lead="puerto_rico", target=200, team_scoring=scoring)
    match = ref.Match(rules, seed=seed).play(policy)
    assert check_team_match(match, seed) == rounds


def test_latin_double_nine_match():
    """P6: double-9, 10 tiles each, 15 out of play, to 100."""
    rules = ref.Block(players=4, set=9, hand_size=10, teams=2, target=100, lead="puerto_rico")
    assert rules.reserve == 15
    match = ref.Match(rules, seed=7).play("random")
    rounds = list(match.rounds)
    assert len(rounds) == 4
    assert (str(rounds[0].centre), rounds[0].to_dict()["deal"]["highest_double"]) == ("9-9", True)
    for prev, r in zip(rounds, rounds[1:]):
        assert (r.starter, r.centre) == (expected_leader(prev), None)
        assert len(r.yard) == 15


def test_winner_lead_with_teams():
    """B2 under teams (P4: unchanged): the seat that went out (its team won
    under "all_pips") leads the next round."""
    rules = team_rules(target=1000)
    m = ref.Match(rules, seed=2).play("random", rounds=1)
    res = m.rounds[0].result
    assert (res.reason, res.out_seat, tuple(res.points), res.starter) == ("out", 3, (0, 19, 0, 19), 0)
    assert (m.new_round().starter, m.rounds[1].centre) == (3, None)


# --------------------------------------------------------------------------- P2 margins and rewards


def test_round_margins_with_teams():
    """P2: a seat's margin is its team's points minus the other team's."""
    rules = team_rules()
    assert rules.round_margins((0, 18, 0, 18)) == [-18.0, 18.0, -18.0, 18.0]
    assert rules.round_margins((13, 0, 13, 0)) == [13.0, -13.0, 13.0, -13.0]
    assert rules.round_margins((0, 0, 0, 0)) == [0.0, 0.0, 0.0, 0.0]


def test_vector_env_rewards_are_team_margins():
    """P2: the VectorEnv rewards a finished round with its team margins."""
    rules = team_rules(team_scoring="fewer_pips")
    env = ref.VectorEnv(rules, 3, seed=9)
    obs, masks, seats = env.reset(seed=9)
    finished = []
    for _ in range(200):
        actions = [int(np.flatnonzero(masks[i])[0]) for i in range(3)]
        after = []
        for i, a in enumerate(actions):
            r = env.round(i)
            r.apply_action(a)
            after.append(r)
        obs, rewards, terms, masks, seats = env.step(actions)
        for i in range(3):
            if terms[i]:
                points = after[i].result.points
                assert list(rewards[i]) == margins(points) == rules.round_margins(points)
                assert points[0] == points[2] and points[1] == points[3]
                finished.append(tuple(points))
            else:
                assert list(rewards[i]) == [0.0] * 4
        if len(finished) >= 6:
            break
    assert finished[:3] == [(0, 22, 0, 22), (0, 28, 0, 28), (18, 0, 18, 0)]


def test_simulate_plays_team_matches():
    """P2: simulate's matches are the reference's matches: team points,
    team totals, partners win together."""
    rules = team_rules(lead="puerto_rico", target=100)
    sim = ref.simulate(rules, matches=3, seed=20, policy="greedy")
    rows = 0
    for i in range(3):
        match = ref.Match(rules, seed=20 + i).play("greedy")
        results = match.results
        points = sim.points[rows : rows + len(results)]
        assert [tuple(int(x) for x in row) for row in points] == [tuple(res.points) for res in results]
        assert [int(s) for s in sim.starter[rows : rows + len(results)]] == [res.starter for res in results]
        assert tuple(int(x) for x in sim.totals[i]) == tuple(match.totals)
        assert [bool(w) for w in sim.winners[i]] == [s in match.winners for s in range(4)]
        rows += len(results)
    assert rows == len(sim.points) == 22
    assert all(row[0] == row[2] and row[1] == row[3] for row in sim.points)


def test_pettingzoo_rewards_are_team_margins():
    """P2: PettingZoo's rewards are the team margins."""
    pz = pytest.importorskip("dominocore.pettingzoo")
    e = pz.raw_env(game="block", implementation="python", players=4, hand_size=7, teams=2)
    e.reset(seed=4)
    while not all(e.terminations.values()):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    points = e.round.result.points
    assert tuple(points) == (46, 0, 46, 0)
    assert [e.rewards[f"player_{s}"] for s in range(4)] == margins(points) == [46.0, -46.0, 46.0, -46.0]
    observation = e.observe("player_1")["observation"]
    assert list(observation[-4:]) == [0.0, 1.0, 0.0, 1.0]  # P5: teammates


# --------------------------------------------------------------------------- P5 information


def test_observation_ends_with_the_teammates_plane():
    """P5: the last plane, ``teammates``, has a one for every seat on the
    viewer's team, the viewer included."""
    rules = team_rules()
    assert observation_planes(rules)[-1] == ("teammates", (4,))
    r = ref.Round(rules, seed=3)
    assert r.observation_tensor_shape == (observation_tensor_size(rules),)
    for seat in range(4):
        tensor = r.observation_tensor(seat)
        assert list(tensor[-4:]) == ([1.0, 0.0, 1.0, 0.0] if seat % 2 == 0 else [0.0, 1.0, 0.0, 1.0])
        assert list(tensor[-8:-4]) == [0.0] * 4  # markers: none in Block
    batch = ref.Round.observation_tensors([r, r], [0, 3])
    assert batch[:, -4:].tolist() == [[1, 0, 1, 0], [0, 1, 0, 1]]


def test_no_teammates_plane_without_teams():
    rules = ref.Block(players=4, hand_size=7)
    assert [name for name, _ in observation_planes(rules)][-1] == "markers"


def tiles_in(data):
    return set(re.findall(r"\d+-\d+", json.dumps(data)))


def test_a_partners_hand_is_hidden():
    """P1, P5: a seat's view, information state and observation tell nothing
    of its partner's hand: two rounds that differ only in the tiles seats 2
    and 3 hold look the same to seat 0."""
    hands = [["0-1", "1-2", "4-4"], ["1-1", "2-5"], ["3-6", "0-5"], ["0-6", "2-6"]]
    swapped = [hands[0], hands[1], ["0-6", "2-6"], ["3-6", "0-5"]]
    a, b = team_round(hands), team_round(swapped)
    for r in (a, b):
        r.push("1-2@0")
        r.push("1-1@1")
    view_a, view_b = a.view(0).to_dict(), b.view(0).to_dict()
    view_a.pop("round_id"), view_b.pop("round_id")
    assert view_a == view_b
    assert tiles_in(view_a) == {"0-1", "1-2", "4-4", "1-1"}  # its hand, the layout
    assert not tiles_in(view_a) & {"3-6", "0-5", "0-6", "2-6"}
    assert a.view(0).hand_sizes == (2, 1, 2, 2)
    assert a.information_state(0) == b.information_state(0)
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert not np.array_equal(a.observation_tensor(2), b.observation_tensor(2))  # its own hand differs
    known = {"0-1", "4-4", "1-2", "1-1"}  # seat 0's hand and the layout
    worlds = [a.determinize(0, seed=s) for s in range(20)]
    for world in worlds:
        assert hand(world, 0) == ["0-1", "4-4"]
        assert [len(world.hand(s)) for s in range(4)] == [2, 1, 2, 2]
        assert not set(hand(world, 2)) & known
    partner_hands = {tuple(hand(world, 2)) for world in worlds}
    assert len(partner_hands) > 1 and partner_hands != {("3-6", "0-5")}  # sampled, never read


# --------------------------------------------------------------------------- records and pickles


@pytest.mark.parametrize("scoring", ["all_pips", "fewer_pips"])
def test_round_records_and_pickles_with_teams(scoring):
    rules = team_rules(lead="puerto_rico", team_scoring=scoring)
    r = ref.Round(rules, seed=8)
    player = ref.RandomPlayer(8)
    while not r.is_over:
        r.push(player.choose(r))
    record = r.to_dict()
    assert record["rules"] == {
        "game": "block",
        "set": 6,
        "players": 4,
        "hand_size": 7,
        "target": 100,
        "max_rounds": 1000,
        "lead": "puerto_rico",
        "teams": 2,
        "team_scoring": scoring,
    }
    back = ref.Round.from_dict(json.loads(json.dumps(record)))
    assert back == r and back.result == r.result and back.rules == rules
    assert tuple(r.result.points) == expected_points(r)
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.result == r.result
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_match_records_and_pickles_with_teams():
    """A puerto_rico match saved mid-way deals and plays on exactly."""
    rules = team_rules(lead="puerto_rico", target=200)
    half = ref.Match(rules, seed=1).play("random", rounds=2)
    saved = json.loads(json.dumps(half.to_dict()))
    restored = ref.Match.from_dict(saved)
    assert [r.starter for r in restored.rounds] == [r.starter for r in half.rounds]
    assert restored.totals == half.totals
    copy = pickle.loads(pickle.dumps(half))
    full = half.play("random")
    assert restored.play("random").totals == full.totals == copy.play("random").totals
    assert check_team_match(full, 1) == 6
