"""Partnerships in the layers both engines share (docs/games/partnership.md):
the rules objects and their refusals, team margins, the bridges' bounds, the
tournaments' team margins and tables, text and SVG, the command line. The
engines' own play of the rules is tested in tests/test_partnership_core.py,
tests/test_partnership_reference.py and the differential run."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from dominocore import cli, openspiel_model
from dominocore.cli import build_parser
from dominocore.cli_games import build_rules
from dominocore.common.errors import RulesError, StateError
from dominocore.common.rules import rules_from_dict
from dominocore.games import GAMES, Block
from dominocore.svg import render as svg_render
from dominocore.tournament_result import TournamentResult, margins
from test_cli import _Person

PAIRS = dict(players=4, hand_size=7, teams=2)


def test_p1_teams_alternate_around_the_table():
    rules = Block(**PAIRS)
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.sides == 2 and rules.team_scoring == "all_pips"
    alone = Block(players=4)
    assert [alone.team_of(s) for s in range(4)] == [0, 1, 2, 3] and alone.sides == 4
    assert alone.teams is None and alone.team_scoring is None


@pytest.mark.parametrize(
    "options, words",
    [
        (dict(players=2, teams=2), "2 players cannot sit as 2 teams"),
        (dict(players=3, teams=2), "3 players cannot sit as 2 teams"),
        (dict(players=4, teams=3), "4 players cannot sit as 3 teams"),
        (dict(players=4, teams=4), "4 players cannot sit as 4 teams"),
        (dict(players=4, teams=1), "teams must be between 2 and 4"),
        (dict(players=4, teams=True), "teams must be an integer"),
        (dict(players=4, teams="2"), "teams must be an integer"),
        (dict(players=4, team_scoring="all_pips"), "team_scoring needs teams"),
        (dict(players=4, teams=2, team_scoring="most_pips"), "team_scoring must be 'all_pips' or 'fewer_pips'"),
        (dict(players=4, lead="puerto_rico"), "lead='puerto_rico' is a partnership rule"),
    ],
)
def test_p1_refused_team_shapes(options, words):
    with pytest.raises(RulesError) as caught:
        Block(**options)
    assert words in str(caught.value)


@pytest.mark.parametrize("game", [g for g in GAMES if g not in ("block", "all_fives", "fives_and_threes")])
def test_p1_the_other_games_refuse_teams(game):
    with pytest.raises(RulesError, match="unknown option"):
        rules_from_dict({"game": game, "players": 4, "teams": 2})


def test_rules_dicts_keep_the_teams_and_old_dicts_are_unchanged():
    rules = Block(**PAIRS, team_scoring="fewer_pips", lead="puerto_rico")
    data = rules.to_dict()
    assert data["teams"] == 2 and data["team_scoring"] == "fewer_pips" and data["lead"] == "puerto_rico"
    assert rules_from_dict(data) == rules and hash(rules_from_dict(data)) == hash(rules)
    assert "teams" not in Block(players=4).to_dict()  # every record written before teams reads the same
    assert rules != Block(players=4, hand_size=7)
    # a record whose teams do not fit its rules
    with pytest.raises(RulesError, match="cannot sit as 2 teams"):
        rules_from_dict({**data, "players": 3})


def test_p2_round_margins_are_team_margins():
    rules = Block(**PAIRS)
    assert rules.round_margins([18, 0, 18, 0]) == [18.0, -18.0, 18.0, -18.0]
    assert rules.round_margins([0, 13, 0, 13]) == [-13.0, 13.0, -13.0, 13.0]
    assert rules.round_margins([0, 0, 0, 0]) == [0.0] * 4
    # the same arrays through the tournaments' exact integer margins
    assert margins(rules, [[18, 0, 18, 0], [0, 13, 0, 13]]).tolist() == [[18, -18, 18, -18], [-13, 13, -13, 13]]
    # without teams, as before
    assert margins(Block(players=4), [12, 0, 0, 0]).tolist() == [12.0, -4.0, -4.0, -4.0]


def test_openspiel_bounds_and_parameters_with_teams():
    rules = openspiel_model.rules_of("block", {"players": 4, "hand_size": 7, "teams": 2, "team_scoring": "fewer_pips"})
    assert rules == Block(**PAIRS, team_scoring="fewer_pips")
    assert openspiel_model.utility_range(rules) == (-168.0, 168.0)  # a team margin: p becomes 2
    assert openspiel_model.rules_of("block", {"players": 4}) == Block(players=4)  # teams=0: none
    assert openspiel_model.utility_range(Block(players=4)) == (-56.0, 168.0)
    assert openspiel_model.GAME_PARAMETERS["block"]["teams"] == 0
    with pytest.raises(RulesError, match="cannot sit as 2 teams"):
        openspiel_model.rules_of("block", {"players": 3, "teams": 2})


def test_tournament_result_reports_teams():
    rules = Block(**PAIRS)
    # two deals at the tables A B A B and B A B A (bot 0 = A, bot 1 = B)
    seating = [[0, 1, 0, 1], [1, 0, 1, 0]]
    points = [[[10, 0, 10, 0], [0, 4, 0, 4]], [[0, 0, 0, 0], [6, 0, 6, 0]]]
    wins = [[[1, 0, 1, 0], [0, 1, 0, 1]], [[0.25] * 4, [1, 0, 1, 0]]]
    result = TournamentResult(rules, ["A", "B"], seating, points, wins)
    # A's margins: deal 0: +10 (team 0 at table 0) and +4 (team 1 at table 1); deal 1: 0 and -6
    assert result.per_deal("margin")[:, 0].tolist() == [7.0, -3.0]
    rows = {row["team"]: row for row in result.teams()}
    assert set(rows) == {"A+A", "B+B"} and rows["A+A"]["mean_margin"] == 2.0
    assert rows["A+A"]["games"] == 4 and rows["B+B"]["mean_margin"] == -2.0
    assert rows["A+A"]["win_rate"] == pytest.approx((1.0 + 0.125) / 2)
    assert "| A+A |" in str(result) and "| team | mean margin | win rate |" in str(result)
    assert TournamentResult(Block(players=4), ["A", "B"], seating, points, wins).teams() == []


def test_text_and_svg_show_the_teams(dc):
    r = dc.Round(dc.Block(**PAIRS), seed=3)
    text = r.render(seat=1)
    assert "teams: 0+2 against 1+3" in text
    assert "seat 1 (you), team 1: 7 tiles" in text and "seat 2, team 0: 7 tiles" in text
    assert "seat 2 (team 0): 7 tiles" in svg_render(r, seat=1)
    # a partner's hand is hidden like an opponent's, in the middle of the round too
    for _ in range(6):
        r.push(r.legal_moves()[0])
    for seat in (0, 2):
        partner = (seat + 2) % 4
        shown = r.render(seat=seat) + svg_render(r, seat=seat)
        assert all(str(t) in shown for t in r.hands[seat])  # the check would see a tile it shows
        assert not [str(t) for t in r.hands[partner] if str(t) in shown]


def test_the_command_line_takes_teams():
    parser = build_parser()
    args = parser.parse_args(["--game", "block", "--players", "4", "--teams", "2", "--team-scoring", "fewer_pips"])
    assert build_rules(args) == Block(players=4, teams=2, team_scoring="fewer_pips")
    with pytest.raises(SystemExit):
        parser.parse_args(["--team-scoring", "most"])
    assert isinstance(args, argparse.Namespace)


def test_bad_record_teams_are_refused_by_both_engines(dc):
    r = dc.Round(dc.Block(**PAIRS), seed=1)
    data = r.to_dict()
    data["rules"] = {**data["rules"], "teams": 3}
    with pytest.raises(StateError, match="cannot sit as 3 teams"):
        dc.Round.from_dict(data)
    assert np.array_equal(np.asarray(r.rules.round_margins([1, 0, 1, 0])), [1, -1, 1, -1])


def points_shown(out: str) -> list:
    """The round's points as the line ``round 0 over: ...`` shows them."""
    over = [line for line in out.splitlines() if line.startswith("round 0 over: ")]
    return [int(x) for x in over[-1].split("points ")[1].split()]


def test_play_with_a_bot_partner(capsys, monkeypatch):
    """``dominocore play`` in a partnership: you at seat 0, a bot partner at
    seat 2, and the round's points shown as team points."""
    person = _Person(capsys)
    monkeypatch.setattr("builtins.input", person)
    argv = ["play", "--game", "block", "--players", "4", "--teams", "2", "--seed", "3", "--rounds", "1"]
    assert cli.main(argv) == 0
    out = person.output()
    assert "you are seat 0" in out and "teams: 0+2 against 1+3" in out
    assert f"team points: 0+2 {points_shown(out)[0]}, 1+3 {points_shown(out)[1]}" in out
    assert "seat 0 (you), team 0" in out and "seat 2, team 0" in out
    over = [line for line in out.splitlines() if line.startswith("round 0 over: ")]
    assert len(over) == 1
    points = [int(x) for x in over[0].split("points ")[1].split()]
    assert points[0] == points[2] and points[1] == points[3] and min(points[0], points[1]) == 0


def test_a_partnership_tournament_seats_partners_and_counts_team_wins(dc):
    """docs/tournaments.md 2: "A and A against B and B" on both sides of every
    deal, and "A with a greedy partner" on every seat; a team's win counts
    once for each partner, tied teams share."""
    rules = dc.Block(**PAIRS)
    result = dc.tournament(rules, ["greedy", "random"], rounds=12, seed=5)
    assert result.seating.tolist() == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert (result.points[..., 0] == result.points[..., 2]).all() and (
        result.points[..., 1] == result.points[..., 3]
    ).all()
    assert np.allclose(result.wins.sum(axis=2), 2.0)  # two seats of one winning team, or four halves
    margin = result.per_deal("margin")
    assert np.allclose(margin[:, 0], -margin[:, 1])
    assert {row["team"] for row in result.teams()} == {"greedy+greedy", "random+random"}
    mixed = dc.tournament(
        rules, {"A": "greedy", "greedy": "greedy"}, rounds=3, seed=5, lineup=["A", "greedy", "greedy", "greedy"]
    )
    assert sorted(mixed.seating.tolist()) == sorted([[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])
    assert {row["team"] for row in mixed.teams()} == {"A+greedy", "greedy+greedy"}
    # A plays exactly as greedy here, so its team's margin is exactly 0 on average over the rotations
    assert mixed.table()[0]["mean_margin"] == pytest.approx(0.0, abs=1e-9)
