"""Every bot takes the view of the seat to move wherever it takes a Round
(issue 20, item 8): an app that holds only views can use each of them, and
the deterministic bots choose from a view what they choose in the round."""

from __future__ import annotations

import random

import pytest
from helpers import CORE_INSTALLED

GAMES = {
    "trains": lambda dc: dc.ChickenFoot(players=4),
    "cross": lambda dc: dc.ChickenFoot(players=3, rule_set="cross"),
    "doubles": lambda dc: dc.Doubles(players=4),
    "block": lambda dc: dc.Block(players=2),
    "mexican_train": lambda dc: dc.MexicanTrain(players=4),
    "all_fives": lambda dc: dc.AllFives(players=4, teams=2),
    "fives_and_threes": lambda dc: dc.FivesAndThrees(players=3, spinner="first"),
}


def positions(dc, rules, count: int = 12):
    """Mid-round positions of seeded random play, one every few moves."""
    out = []
    for seed in range(count):
        r = dc.Round(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 25)):
            if r.is_over:
                break
            r.push(rng.choice(r.legal_moves()))
        if not r.is_over:
            out.append(r)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_and_greedy_choose_from_a_view_what_they_choose_in_the_round(dc, game):
    for r in positions(dc, GAMES[game](dc)):
        view = r.view(r.current_player)
        assert dc.GreedyPlayer().choose(view) == dc.GreedyPlayer().choose(r)
        from_view, from_round = dc.RandomPlayer(seed=5), dc.RandomPlayer(seed=5)
        for _ in range(3):  # the generators advance alike
            assert from_view.choose(view) == from_round.choose(r)


@pytest.mark.skipif(not CORE_INSTALLED, reason="the searches are the compiled core's")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_searches_choose_from_a_view_what_they_choose_in_the_round(dc, game):
    from dominocore.search import ISMCTSPlayer, PIMCPlayer

    for r in positions(dc, GAMES[game](dc), count=3):
        view = r.view(r.current_player)
        for make in (lambda: ISMCTSPlayer(iterations=30, seed=2), lambda: PIMCPlayer(iterations=30, seed=2)):
            assert make().choose(view) == make().choose(r)


@pytest.mark.skipif(not CORE_INSTALLED, reason="the searches are the compiled core's")
def test_the_cheating_search_refuses_a_view_saying_why(dc):
    from dominocore.search import CheatingMCTSPlayer

    r = dc.Round(dc.Block(players=2), seed=1)
    with pytest.raises(dc.RulesError, match="reads the true state: give it a Round"):
        CheatingMCTSPlayer(iterations=10).choose(r.view(r.current_player))


def test_a_bot_refuses_a_view_of_a_seat_not_to_move_and_a_finished_one(dc):
    r = dc.Round(dc.Block(players=2), seed=1)
    other = r.view(1 - r.current_player)
    for bot in (dc.GreedyPlayer(), dc.RandomPlayer(1)):
        with pytest.raises(dc.StateError, match=f"this is seat {other.seat}'s view, and seat {r.current_player}"):
            bot.choose(other)
    while not r.is_over:
        r.push(dc.GreedyPlayer().choose(r))
    for bot in (dc.GreedyPlayer(), dc.RandomPlayer(1)):
        with pytest.raises(dc.StateError, match="the round is over"):
            bot.choose(r.view(0))
    with pytest.raises(TypeError, match="expected a dominocore Round"):
        dc.GreedyPlayer().choose("2-9@0")


def test_a_client_views_json_is_enough_for_greedy(dc):
    """What an app holds: a view that went through JSON."""
    r = dc.Round(dc.ChickenFoot(players=4), seed=7)
    view = dc.PlayerView.from_dict(r.view(r.current_player).to_dict())
    assert dc.GreedyPlayer().choose(view) == dc.GreedyPlayer().choose(r)
