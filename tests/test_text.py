"""The text rendering of a position (dominocore.text): it shows a seat only
what that seat may see, reads the same in both implementations, and draws
each game's layout as lines from the centre."""

from __future__ import annotations

import doctest
import importlib
import random

import dominocore.text as text_module
import pytest
from dominocore.text import render
from helpers import import_core, scaled

#: One configuration of every game and rule set: small sets, so that rounds are short.
CONFIGS = [
    dict(game="chickenfoot", rule_set="trains", set=6, players=3),
    dict(game="chickenfoot", rule_set="cross", set=6, players=3),
    dict(game="doubles", set=6, players=3),
    dict(game="block", set=6, players=2),
    dict(game="block", set=6, players=3, lead="highest_double"),
    dict(game="mexican_train", set=6, players=3),
    dict(game="all_fives", set=6, players=2),
    dict(game="fives_and_threes", set=6, players=4, teams=2, spinner="first"),
]
IDS = [f"{c['game']}-{c.get('rule_set') or c.get('lead') or ''}-p{c['players']}" for c in CONFIGS]
ROUNDS = scaled(2, 20)


def positions(dc, options, seed, every=3):
    """A seeded random round, yielded every ``every`` moves and at its end."""
    rules = dc.rules_from_dict(dict(options))
    r = dc.Round(rules, seed=seed)
    rng = random.Random(seed)
    k = 0
    while True:
        if k % every == 0 or r.is_over:
            yield r
        if r.is_over:
            return
        r.push(rng.choice(r.legal_moves()))
        k += 1


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_worlds_a_seat_cannot_tell_apart_render_the_same(dc, options):
    checked = 0
    for seed in range(ROUNDS):
        for r in positions(dc, options, seed):
            if r.is_over:
                continue  # nothing hidden left to sample
            public = render(r)
            for seat in range(r.rules.players):
                mine = render(r, seat)
                for world_seed in (1, 2):
                    world = r.determinize(seat, world_seed)
                    assert render(world, seat) == mine
                    assert render(world) == public
                    checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_both_implementations_render_the_same(options):
    native = import_core()
    ref = importlib.import_module("dominocore.reference")
    for seed in range(ROUNDS):
        for a, b in zip(positions(ref, options, seed), positions(native, options, seed)):
            assert render(a) == render(b)
            for seat in range(a.rules.players):
                assert a.render(seat) == b.render(seat) == render(a, seat)


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_a_render_holds_no_tile_of_another_hand(dc, options):
    """No tile of another seat's hand, of the yard, nor another seat's drawn tile appears."""
    for seed in range(ROUNDS):
        for r in positions(dc, options, seed, every=1):
            placed = {pl.tile for pl in r.layout}
            for seat in [None, *range(r.rules.players)]:
                words = set(render(r, seat).replace("@", " ").split())
                own = set() if seat is None else set(r.hand(seat))
                hidden = {t for s in range(r.rules.players) for t in r.hand(s)} | set(r.yard)
                for tile in hidden - own - placed:
                    assert str(tile) not in words and f"{tile.high}-{tile.low}" not in words, (seat, tile)


def test_chicken_foot_lines_toes_and_pending(dc):
    r = dc.Round(dc.ChickenFoot(players=2, set=6), seed=7)
    out = r.render(r.current_player)
    assert "centre: 6-6" in out
    assert out.count("-> @") == r.rules.slots  # one line a train, each ending in its open end
    assert "pending: fill every slot of the start double first (@0 @1)" in out
    assert "your turn" in out and "your hand: " + " ".join(map(str, r.hand(r.current_player))) in out
    # place until a chicken foot: its toes are lines under its train
    rng = random.Random(1)
    while r.obligation != "foot" and not r.is_over:
        r.push(rng.choice(r.legal_moves()))
    out = r.render()
    assert "(a chicken foot)" in out and "  toe 1: " in out and "pending: finish the chicken foot" in out
    for e in r.pending_ends:
        assert f"@{e} needs" in out


def test_public_render_names_no_hand(dc):
    r = dc.Round(dc.MexicanTrain(players=3, set=6), seed=2)
    out = r.render()
    assert "your hand" not in out and "(you)" not in out
    assert "seat 0's train" in out and "Mexican train: -> @3 needs 6" in out
    assert str(r) != out and all(str(t) in str(r) for t in r.hand(1))  # str() is the full dump


def test_bad_seat_is_refused(dc):
    r = dc.Round(dc.Doubles(players=2), seed=1)
    with pytest.raises(dc.RulesError):
        r.render(2)


def test_module_examples():
    failures, tried = doctest.testmod(text_module, verbose=False, report=True)
    assert failures == 0 and tried > 0


def test_a_view_renders_as_its_round(dc):
    r = dc.Round(dc.ChickenFoot(players=3, set=6, rule_set="cross"), seed=4)
    for move in r.legal_moves()[:1]:
        r.push(move)
    view = r.view(1)
    assert render(view, 1) == r.render(1)
    assert render(view) == r.render()  # seat=None is the public state, from a view too (as svg.render)
    with pytest.raises(dc.RulesError):
        render(view, 0)


def test_a_block_lead_is_called_the_highest_double_only_when_it_is(dc):
    # Reproducer (issue 19, item 12): a hand-built Block round led with 2-2
    # while seat 1 holds 6-6 read "lead: 2-2 (the highest double dealt ...)".
    rules = dc.Block(players=2)
    tiles = [str(dc.Tile.from_index(i)) for i in range(rules.tile_count)]
    tiles.remove("2-2")
    tiles.remove("6-6")
    hands = [tiles[:7], tiles[7:13] + ["6-6"]]
    r = dc.Round.from_deal(rules, hands, tiles[13:], "2-2", 0)
    assert r.view(1).highest_double is False
    for seat in (None, 0, 1):
        assert render(r, seat).splitlines()[1] == "lead: 2-2 (led by seat 0)"
    # the set-up's lead of the highest double dealt says so
    highest = dc.Round(dc.Block(players=2, lead="highest_double"), seed=1)
    assert highest.view(0).highest_double is True and str(highest.centre) == "2-2"
    assert render(highest).splitlines()[1] == "lead: 2-2 (the highest double dealt, led by seat 0)"
    # a hand-built deal that says so is rendered so too
    hands = [tiles[:7], tiles[7:14]]
    out = tiles[14:] + ["6-6"]
    told = dc.Round.from_deal(rules, hands, out, "2-2", 1, highest_double=False)
    assert render(told, 0).splitlines()[1] == "lead: 2-2 (led by seat 1)"


def test_all_fives_shows_the_arms_the_spinner_and_the_points(dc):
    """docs/games/all_fives.md: each arm as a line out of the lead, the
    spinner and its sides, every move's points and the running totals."""
    from scenario_helpers import deal

    r = deal(dc, dc.AllFives(), None, [["5-5", "3-5", "1-1"], ["0-5", "2-5", "6-6"]])
    r.push("5-5@0")
    r.push("0-5@1")
    lines = render(r, 0).splitlines()
    assert lines[1] == "lead: 5-5 (led by seat 0)"
    assert "  the lead 5-5 is the spinner" in lines
    assert "  arm 0: 5-0 -> @3 needs 0" in lines
    assert "  arm 1: -> @2 needs 5" in lines
    assert "  arm 2 (a side of the spinner 5-5): opens once both ends next to the spinner are covered" in lines
    assert "last move: seat 1 placed 0-5@1, scoring 10" in lines
    assert "points in play: seat 0 10, seat 1 10" in lines
    r.push("3-5@2")
    r.push("2-5@5")
    lines = render(r, None).splitlines()
    assert "  arm 2 (a side of the spinner 5-5): 5-2 -> @7 needs 2" in lines
    assert "  arm 3 (a side of the spinner 5-5): -> @6 needs 5" in lines
    assert "points in play: seat 0 10, seat 1 15" in lines
    assert "your hand" not in render(r, None)


def test_partners_points_and_the_match_totals_are_shown_by_team(dc):
    from scenario_helpers import deal

    rules = dc.FivesAndThrees(players=4, teams=2)
    hands = [["6-6", "0-1"], ["3-6", "0-2"], ["1-2", "0-3"], ["1-3", "0-4"]]
    r = deal(dc, rules, None, hands, rest=0, carried=(20, 30, 20, 30))
    r.push("6-6@0")  # 12: four threes for team 0+2
    lines = render(r, 1).splitlines()
    assert "points in play: team 0+2 4, team 1+3 0" in lines
    assert "match totals: team 0+2 24, team 1+3 30 (target 61)" in lines
