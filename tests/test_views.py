"""Player views (docs/information.md 3): what a seat may see, and nothing else.

Hidden information is tested like access control: for many positions of
every game, nothing a seat may not see (another hand's tile, the yard, the
tile another seat drew) appears in its view's JSON, repr or pickle; the
view holds no reference to the round; and a whole game can be run by an app
that only ever looks at views.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random

import pytest
from helpers import refusals, seen_by, tiles_in

CONFIGS = [
    ("ChickenFoot", {"rule_set": "trains", "players": 4}),
    ("ChickenFoot", {"rule_set": "cross", "players": 3}),
    ("ChickenFoot", {"rule_set": "cross", "players": 4, "set": 6, "hand_size": 3}),  # set-up searches
    ("Doubles", {"players": 4}),
    ("Block", {"players": 2}),
    ("Block", {"players": 3, "lead": "highest_double"}),
    ("MexicanTrain", {"players": 4, "set": 9}),
    ("AllFives", {"players": 2}),
    ("FivesAndThrees", {"players": 4, "teams": 2, "spinner": "first"}),
]


def make(dc, name, options):
    return getattr(dc, name)(**options)


def positions(dc, name, options, rounds=6, seed=0):
    """Positions of random play: every move of ``rounds`` rounds."""
    rules = make(dc, name, options)
    rng = random.Random(seed)
    for i in range(rounds):
        r = dc.Round(rules, seed=seed + i, round_index=i % (rules.set + 1))
        yield r
        while not r.is_over:
            r.apply_action(rng.choice(r.legal_actions()))
            yield r


@pytest.mark.parametrize("name,options", CONFIGS, ids=lambda x: str(x))
def test_a_view_shows_nothing_hidden_from_its_seat(dc, name, options):
    checked = 0
    for r in positions(dc, name, options):
        for seat in range(r.rules.players):
            view = r.view(seat)
            allowed = seen_by(r, seat)
            for where, text in (
                ("to_dict", json.dumps(view.to_dict())),
                ("repr", repr(view)),
                ("pickle", pickle.dumps(view).decode("latin-1")),
            ):
                leaked = tiles_in(text) - allowed
                assert not leaked, f"seat {seat}'s view leaks {sorted(leaked)} through {where}"
            checked += 1
    assert checked > 100


#: Every reason code a submission can get (docs/engine.md).
REASONS = {
    "round_over", "not_your_turn", "not_drawn_tile", "not_in_hand", "end_not_open", "start_unfinished",
    "foot_unfinished", "double_unsatisfied", "not_your_train", "no_match", "locked", "already_drew",
    "must_place", "yard_exhausted", "must_place_drawn", "must_draw", "illegal_action",
}  # fmt: skip
#: Configurations whose rounds reach the rarer reasons: a Mexican Train
#: drawn tile that must be placed, the reserve of a small Chicken Foot yard.
REFUSAL_CONFIGS = CONFIGS + [
    ("MexicanTrain", {"players": 2, "set": 6, "drawn_tile": "must"}),
    ("ChickenFoot", {"rule_set": "trains", "players": 2, "set": 6}),
]


def test_a_refusal_tells_the_seat_that_made_the_move_nothing_hidden_from_it(dc):
    """docs/information.md 3: for every reason code, the message of a move or
    an action submitted for seat s names no tile hidden from s (the tile it
    submitted aside), and lists legal moves only to the seat to move."""
    reasons = set()
    for name, options in REFUSAL_CONFIGS:
        for r in itertools.islice(positions(dc, name, options, rounds=3, seed=11), 0, None, 7):
            for player, submitted, reason, message in refusals(r):
                if reason is None or player is None:
                    continue
                reasons.add(reason)
                allowed = seen_by(r, player) | tiles_in(str(submitted))
                leaked = tiles_in(message) - allowed
                assert not leaked, f"{submitted!r} for seat {player} ({reason}): {message}"
                if player != r.current_player:
                    assert reason in ("not_your_turn", "round_over", "illegal_action"), message
                    assert "(legal:" not in message and "e.g." not in message, message
    assert reasons == REASONS


@pytest.mark.parametrize("name,options", CONFIGS, ids=lambda x: str(x))
def test_a_view_says_what_the_round_says_publicly(dc, name, options):
    for r in positions(dc, name, options, rounds=2, seed=5):
        for seat in range(r.rules.players):
            v = r.view(seat)
            assert v.seat == seat and v.rules == r.rules and v.round_index == r.round_index
            assert v.move_number == len(r.move_stack)
            assert v.current_player == r.current_player and v.starter == r.starter and v.centre == r.centre
            assert list(v.hand) == r.hand(seat)
            assert v.hand_sizes == tuple(len(h) for h in r.hands)
            assert v.yard_size == r.yard_size and list(v.open_ends) == r.open_ends
            assert list(v.pending_ends) == r.pending_ends and v.obligation == r.obligation
            assert v.unlocked == tuple(r.unlocked) and v.markers == tuple(r.markers)
            assert list(v.layout) == r.layout
            assert [h.move for h in v.history] == r.move_stack
            assert v.drawing == (r.drawn_tile is not None)
            own_turn = r.current_player == seat
            assert v.drawn_tile == (r.drawn_tile if own_turn else None)
            assert list(v.legal_moves()) == (r.legal_moves(distinct=True) if own_turn else [])
            assert list(v.legal_actions()) == (list(r.legal_actions()) if own_turn else [])
            assert v.result == (None if r.result is None else tuple(r.result))
            for entry in v.history:
                assert (entry.drawn is not None) == (entry.seat == seat and entry.move.kind == "draw")


def test_a_view_is_an_immutable_snapshot_with_no_way_back_to_the_round(dc):
    r = dc.Round(dc.ChickenFoot(players=4), seed=1)
    v = r.view(2)
    with pytest.raises(AttributeError):
        v.seat = 1
    with pytest.raises(AttributeError):
        v.hand = ()
    assert not hasattr(v, "__dict__")
    for name in type(v).__slots__:  # plain values only: no Round anywhere inside
        value = getattr(v, name)
        assert not isinstance(value, type(r))
        if isinstance(value, tuple):
            assert not any(isinstance(x, type(r)) for x in value)
    before = v.to_dict()
    r.apply_action(r.legal_actions()[0])
    assert v.to_dict() == before and not v.is_current(r)
    assert r.view(2).is_current(r)


def test_views_round_trip_through_json_and_pickle(dc):
    r = dc.Round(dc.MexicanTrain(players=3, set=9), seed=4)
    rng = random.Random(4)
    for _ in range(25):
        r.apply_action(rng.choice(r.legal_actions()))
    for seat in range(3):
        v = r.view(seat)
        again = dc.PlayerView.from_dict(json.loads(json.dumps(v.to_dict())))
        assert again == v and again.to_dict() == v.to_dict()
        assert pickle.loads(pickle.dumps(v)) == v


def test_a_views_round_token_is_per_round_object(dc):
    r = dc.Round(dc.Doubles(players=3), seed=2)
    token = r.view(0).round_id
    assert r.view(1).round_id == token  # stable for the object
    clone = r.clone()
    assert clone.view(0).round_id != token
    assert not r.view(0).is_current(clone)
    loaded = dc.Round.from_dict(r.to_dict())
    assert loaded.view(0).round_id not in (token, clone.view(0).round_id)
    r.apply_action(r.legal_actions()[0])
    r.pop()  # the same position again: the same number of moves
    assert r.view(0).round_id == token


@pytest.mark.parametrize("seat", [-1, 3, "1", 1.5, None, True])
def test_a_seat_out_of_range_is_refused(dc, seat):
    r = dc.Round(dc.Doubles(players=3), seed=2)
    before = r.to_dict()
    with pytest.raises(dc.RulesError, match="seat"):
        r.view(seat)
    assert r.to_dict() == before


def test_malformed_view_records_are_refused(dc):
    data = dc.Round(dc.Block(players=2), seed=1).view(0).to_dict()
    for broken in ({**data, "view_version": 9}, {k: v for k, v in data.items() if k != "hand"}, {**data, "hand": [7]}):
        with pytest.raises(dc.StateError):
            dc.PlayerView.from_dict(broken)


@pytest.mark.parametrize("name,options", CONFIGS, ids=lambda x: str(x))
def test_an_app_runs_whole_rounds_from_views_alone(dc, name, options):
    """A server that shows each seat only its view, and a client per seat that
    chooses from its view (a random legal move), plays rounds to the end."""
    rules = make(dc, name, options)
    for seed in range(3):
        server = dc.Round(rules, seed=seed)
        clients = [random.Random(seed * 10 + s) for s in range(rules.players)]
        turns = 0
        while True:
            views = [
                dc.PlayerView.from_dict(json.loads(json.dumps(server.view(s).to_dict()))) for s in range(rules.players)
            ]
            if views[0].is_over:
                break
            (mover,) = [v for v in views if v.legal_moves()]  # exactly one seat is to move
            assert mover.seat == server.current_player
            server.push(clients[mover.seat].choice(mover.legal_moves()), player=mover.seat)
            turns += 1
        assert all(v.result == tuple(server.result) for v in views)
        assert turns == len(server.move_stack) == views[0].move_number
