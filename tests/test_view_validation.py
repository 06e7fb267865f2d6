"""PlayerView.from_dict and the searches on untrusted views (docs/validation.md, "Views").

Issue 19, item 1: a tampered view given to a search bot crashed the
interpreter (a negative round index with search draws, huge search counts),
a history placing on ends that were never open was replayed unchecked,
huge hand sizes gave raw ``ValueError``/``TypeError`` or burnt CPU, and
``from_dict`` accepted seats, sizes and markers of any kind. Every case here
is rejected with ``StateError`` before any work, whichever implementation's
round the view came from; a hand-built ``PlayerView`` (bypassing
``from_dict``) is rejected the same way by the searches.
"""

from __future__ import annotations

import copy
import json
import random
import time

import dominocore as dc
import pytest
from helpers import CORE_INSTALLED, view_with

#: The history replay of ``PlayerView.from_dict`` is the compiled core's
#: (registered by ``dominocore.search``): a pure-Python install checks the fields only.
needs_replay = pytest.mark.skipif(
    not CORE_INSTALLED, reason="PlayerView.from_dict replays a view's history only with the compiled core installed"
)

try:
    from dominocore import _core
    from dominocore.native.codec import core_rules as _core_rules
except ImportError:  # pragma: no cover - no compiled core
    _core = None

needs_core = pytest.mark.skipif(_core is None, reason="the searches run in the compiled core")

CONFIGS = [
    ("chickenfoot", {"rule_set": "trains", "players": 4, "set": 9}),
    ("chickenfoot", {"rule_set": "cross", "players": 4, "set": 6, "hand_size": 3}),  # set-up searches
    ("chickenfoot", {"rule_set": "cross", "players": 2, "set": 6}),
    ("doubles", {"players": 3, "set": 9}),
    ("block", {"players": 2, "set": 6}),
    ("block", {"players": 3, "set": 6, "lead": "highest_double"}),
    ("mexican_train", {"players": 4, "set": 9}),
    ("all_fives", {"players": 2, "set": 6}),
    ("fives_and_threes", {"players": 4, "set": 6, "teams": 2, "spinner": "first"}),
]


def rules_of(impl, config):
    game, options = config
    return impl.rules_from_dict({"game": game, **options})


def play(impl, config, seed=0, moves=8, round_index=None):
    """A round of ``impl`` (either implementation) after ``moves`` random moves (or to its end)."""
    rules = rules_of(impl, config)
    index = round_index if round_index is not None else (seed % (rules.set + 1) if rules.rounds else 0)
    r = impl.Round(rules, seed=seed, round_index=index)
    rng = random.Random(seed)
    for _ in range(moves):
        if r.is_over:
            break
        r.push(rng.choice(r.legal_moves()))
    return r


def own_turn(impl, config, seed=0, moves=8, need=lambda v: True):
    """The record of the seat to move's view after ``moves`` moves (at
    least one of them its own placement), first seed from ``seed`` on where
    ``need(view)`` holds."""
    for s in range(seed, seed + 200):
        r = play(impl, config, s, moves)
        if r.is_over:
            continue
        v = r.view(r.current_player)
        if need(v):
            return json.loads(json.dumps(v.to_dict()))
    raise AssertionError("no such position")  # pragma: no cover


def tampered(record, **fields):
    out = copy.deepcopy(record)
    out.update(fields)
    return out


def hand_built(record, **fields):
    """A PlayerView built directly (not through from_dict) with ``fields`` replaced."""
    return view_with(dc.PlayerView.from_dict(copy.deepcopy(record)), **fields)


def rejected(record, match):
    with pytest.raises(dc.StateError, match=match):
        dc.PlayerView.from_dict(record)


def searches_reject(view, match):
    for bot in (dc.ISMCTSPlayer(iterations=20, seed=1), dc.PIMCPlayer(iterations=20, determinizations=2, seed=1)):
        with pytest.raises(dc.StateError, match=match):
            bot.search(view)


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c[0] + "-" + "-".join(map(str, c[1].values())))
def test_every_view_of_real_rounds_is_accepted_and_round_trips(dc, config):
    """No false rejection: every seat's view, at every move of whole rounds
    of either implementation (finished ones included), loads back equal."""
    for seed in range(2):
        r = play(dc, config, seed, moves=0)
        rng = random.Random(seed)
        while True:
            for seat in range(r.rules.players):
                view = r.view(seat)
                record = json.loads(json.dumps(view.to_dict()))
                assert dc.PlayerView.from_dict(record) == view
            if r.is_over:
                break
            r.push(rng.choice(r.legal_moves()))


# --------------------------------------------------------------------------- the examples


@pytest.fixture
def cross2(dc):
    """A 2-player cross view of the seat to move (whose turn it is)."""
    return own_turn(dc, CONFIGS[2], seed=3, moves=4)


@pytest.fixture
def searched(dc):
    """A 4-player cross view, round 1, whose seats searched for the double."""
    return own_turn(dc, CONFIGS[1], seed=1, moves=0, need=lambda v: sum(v.setup_draws) >= 3 and v.own_setup_draws)


def test_negative_round_index_with_search_draws_is_rejected(cross2):
    rejected(tampered(cross2, round_index=-3, setup_draws=[1, 1]), "round_index must be between 0 and 6, got -3")


@needs_replay
def test_negative_round_index_with_search_draws_does_not_crash_a_search(cross2):
    searches_reject(hand_built(cross2, round_index=-3, setup_draws=(1, 1)), "round_index must be between 0 and 6")


@pytest.mark.parametrize("counts", [[10**6, 10**6], [2**40, 0], [2**31, 2**31], [1, 1]])
def test_search_counts_out_of_range_or_not_the_rotation_are_rejected(cross2, counts):
    match = (
        "a search count must be between 0 and 28"
        if counts[0] > 28
        else r"own_setup_draws holds \d+ tiles but setup_draws says seat \d drew 1"
    )
    rejected(tampered(cross2, setup_draws=counts), match)


@needs_replay
@pytest.mark.parametrize("counts", [(10**6, 10**6), (2**40, 0), (1, 1)])
def test_search_counts_out_of_range_do_not_crash_a_search(cross2, counts):
    searches_reject(hand_built(cross2, setup_draws=counts), "search count|own_setup_draws")


@needs_replay
def test_search_counts_against_the_rotation(searched):
    counts = list(searched["setup_draws"])
    seat = searched["seat"]
    other = (seat + 1) % 4
    counts[other] += 1  # one more draw out of the rotation
    rejected(tampered(searched, setup_draws=counts), "search counts do not follow the rotation")


@needs_replay
def test_own_search_draws_must_be_the_seats_own(searched):
    own = list(searched["own_setup_draws"])
    not_held = next(t for t in (str(dc.Tile.from_index(i)) for i in range(28)) if t not in searched["hand"])
    own[0] = not_held
    rejected(tampered(searched, own_setup_draws=own), "search draw .* is not in its dealt hand|inconsistent")


@pytest.mark.parametrize(
    "size, match",
    [
        (-5, "a hand size must be between 0 and 28, got -5"),
        (2**40, "a hand size must be between 0 and 28, got 1099511627776"),
        (3_000_000, "a hand size must be between 0 and 28, got 3000000"),
        (True, "a hand size must be an integer, got True"),
        (2.0, "a hand size must be an integer, got 2.0"),
    ],
)
def test_hand_sizes_out_of_range_are_rejected_at_once(cross2, size, match):
    other = 1 - cross2["seat"]
    sizes = list(cross2["hand_sizes"])
    sizes[other] = size
    start = time.perf_counter()
    rejected(tampered(cross2, hand_sizes=sizes), match)
    assert time.perf_counter() - start < 0.5


@needs_replay
@pytest.mark.parametrize("size", [-5, 2**40, 3_000_000])
def test_hand_sizes_out_of_range_in_a_search_are_state_errors_at_once(cross2, size):
    other = 1 - cross2["seat"]
    sizes = list(cross2["hand_sizes"])
    sizes[other] = size
    start = time.perf_counter()
    searches_reject(hand_built(cross2, hand_sizes=tuple(sizes)), "a hand size must be between 0 and 28")
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    "fields, match",
    [
        ({"seat": 99}, "seat must be between 0 and 1, got 99"),
        ({"seat": 1.7}, "seat must be an integer, got 1.7"),
        ({"seat": True}, "seat must be an integer, got True"),
        ({"seat": "0"}, "seat must be an integer, got '0'"),
        ({"hand_sizes": "abc"}, "hand_sizes must be a list, got 'abc'"),
        ({"hand_sizes": [7]}, "hand_sizes must have 2 entries, got 1"),
        ({"markers": []}, "markers must have 2 entries, got 0"),
        ({"markers": [0, 0]}, "a marker must be true or false, got 0"),
        ({"view_version": 1}, "unknown view format version 1"),
        ({"view_version": 2.0}, "unknown view format version 2.0"),
        ({"view_version": True}, "unknown view format version True"),
        ({"round_index": 7}, "round_index must be between 0 and 6, got 7"),
        ({"starter": 2}, "starter must be between 0 and 1, got 2"),
        ({"current_player": 2}, "current_player must be between -1 and 1, got 2"),
        ({"centre": "7-7"}, "centre 7-7 is not a tile of this set"),
        ({"yard_size": -1}, "yard_size must be between 0 and 28, got -1"),
        ({"rules": {"game": "chickenfoot", "players": 9}}, "the view's rules are not a valid rules dict"),
        ({"history": "draw"}, "history must be a list"),
        ({"drawing": 1}, "drawing must be true or false, got 1"),
        ({"obligation": ["start"]}, "obligation must be one of"),
        ({"round_id": ""}, "round_id must be a string of 1 to 64 characters"),
        ({"legal_actions": [10**6]}, "a legal action must be between 0 and 57"),
        ({"result": {"reason": "out"}}, "missing keys in the view's result"),
    ],
)
def test_fields_of_the_wrong_type_or_range_are_rejected(cross2, fields, match):
    rejected(tampered(cross2, **fields), match)


def test_records_that_are_not_view_records_are_rejected(cross2):
    rejected([cross2], "a view record must be a dict")
    rejected({**cross2, "extra": 1}, "unknown keys in a view record: 'extra'")
    record = dict(cross2)
    del record["markers"]
    rejected(record, r"missing keys in a view record: \['markers'\]")


@needs_replay
def test_markers_of_the_wrong_shape_do_not_reach_the_renderers_or_the_search(cross2):
    # the old from_dict accepted markers=[], and text and SVG rendering then raised IndexError
    rejected(tampered(cross2, markers=[]), "markers must have 2 entries")
    searches_reject(hand_built(cross2, markers=()), "markers must have 2 entries")


# --------------------------------------------------------------------------- consistency


def test_the_tiles_must_add_up_to_the_set(cross2):
    rejected(
        tampered(cross2, yard_size=cross2["yard_size"] + 1),
        r"the hands \(\d+\), the yard \(\d+\) and the layout \(\d+\) do not add up to the 28 tiles",
    )
    rejected(tampered(cross2, yard_size=cross2["yard_size"] - 1), "yard_size must be between 0 and 28, got -1")


def test_other_hand_sizes_that_add_up_are_those_of_a_hand_built_deal(dc):
    """``Round.from_deal`` deals hands of any size: a view with one more tile
    in another hand and one less in the yard is the view of such a round."""
    record = own_turn(dc, CONFIGS[3], moves=4)
    sizes = list(record["hand_sizes"])
    sizes[(record["seat"] + 1) % 3] += 1
    changed = tampered(record, hand_sizes=sizes, yard_size=record["yard_size"] - 1)
    assert dc.PlayerView.from_dict(changed).to_dict() == changed


def _placement_index(record, seat):
    return next(i for i, (s, m, _, _) in enumerate(record["history"]) if s == seat and "@" in m)


@needs_replay
def test_a_history_placing_on_an_end_never_open_is_rejected(dc):
    config = CONFIGS[0]  # trains: the viewer placed on one of the start double's slots
    record = own_turn(
        dc, config, moves=6, need=lambda v: any(h.seat == v.seat and h.move.kind == "place" for h in v.history)
    )
    i = _placement_index(record, record["seat"])
    seat, move, drawn, points = record["history"][i]
    history = copy.deepcopy(record["history"])
    history[i] = [seat, move.split("@")[0] + "@40", drawn, points]  # end 40 was never opened
    rejected(tampered(record, history=history), r"move %d \(.*@40 by seat %d\) is illegal: end_not_open" % (i, seat))


@needs_replay
def test_a_search_does_not_replay_a_history_placing_on_an_end_never_open(dc):
    config = CONFIGS[0]
    record = own_turn(
        dc, config, moves=6, need=lambda v: any(h.seat == v.seat and h.move.kind == "place" for h in v.history)
    )
    i = _placement_index(record, record["seat"])
    view = dc.PlayerView.from_dict(record)
    entries = list(view.history)
    entry = entries[i]
    entries[i] = entry._replace(move=dc.Move.place(entry.move.tile, 40))
    searches_reject(hand_built(record, history=tuple(entries)), r"is illegal: end_not_open")


@needs_replay
def test_another_seats_move_out_of_turn_is_rejected(dc):
    record = own_turn(dc, CONFIGS[3], moves=4)
    history = copy.deepcopy(record["history"])
    history[0][0] = (history[0][0] + 1) % 3
    rejected(tampered(record, history=history), r"move 0 .* is seat \d's, but seat \d was to move")


@pytest.mark.parametrize(
    "field",
    ["open_ends", "pending_ends", "unlocked", "layout", "legal_moves", "legal_actions", "current_player", "hand"],
)
@needs_replay
def test_public_fields_that_the_history_does_not_give_are_rejected(dc, field):
    """Each field is changed to another well-formed value: the rebuilt position tells."""
    record = own_turn(dc, CONFIGS[3], moves=5)  # Doubles: spinners, locks, several ends
    changed = copy.deepcopy(record)
    value = changed[field]
    if field == "open_ends":
        value[0][1] = (value[0][1] + 1) % 10
    elif field == "pending_ends":
        value.append(value[0][0] if False else changed["open_ends"][0][0])
    elif field == "unlocked":
        value[:] = [n for n in range(10) if n not in value][:1] + value
        value.sort()
    elif field == "layout":
        value[-1][3] = value[-1][3][:-1]
    elif field == "legal_moves":
        value.pop()
    elif field == "legal_actions":
        value.pop()
    elif field == "current_player":
        changed["current_player"] = (value + 1) % 3
        changed["legal_moves"], changed["legal_actions"] = [], []
    elif field == "hand":  # a tile of the layout in the hand
        value[0] = changed["layout"][-1][0]
        value.sort(key=lambda t: dc.Tile.parse(t).index)
    assert changed != record
    with pytest.raises(dc.StateError, match="inconsistent"):
        dc.PlayerView.from_dict(changed)


def test_a_drawn_tile_must_be_the_viewers_own_in_its_hand(dc):
    record = own_turn(dc, CONFIGS[3], moves=4)
    not_held = next(str(dc.Tile.from_index(i)) for i in range(55) if str(dc.Tile.from_index(i)) not in record["hand"])
    rejected(tampered(record, drawn_tile=not_held, drawing=True), "drawn_tile is only the viewer's own drawn tile")


@needs_replay
def test_a_finished_rounds_result_must_follow_from_its_history(dc):
    r = play(dc, CONFIGS[4], seed=2, moves=500)
    assert r.is_over
    record = json.loads(json.dumps(r.view(0).to_dict()))
    assert dc.PlayerView.from_dict(record).result == tuple(
        (x if not isinstance(x, list) else tuple(x)) for x in record["result"].values()
    )
    rejected(tampered(record, result={**record["result"], "moves": record["move_number"] - 1}), "move count")
    rejected(tampered(record, result={**record["result"], "points": [1, 2, 3]}), "result points must have 2 entries")
    rejected(tampered(record, result={**record["result"], "points": [-1, 0]}), "result points must be between 0")
    rejected(tampered(record, result=None), "current_player is -1")
    unfinished = play(dc, CONFIGS[4], seed=2, moves=2)
    record = json.loads(json.dumps(unfinished.view(0).to_dict()))
    result = {"reason": "out", "out_seat": 0, "points": [0, 0], "starter": record["starter"], "moves": 2}
    result.update(play_points=[0, 0], end_points=[0, 0])
    rejected(tampered(record, result=result, current_player=-1, legal_moves=[], legal_actions=[]), "inconsistent")
    split = {**result, "points": [3, 0], "end_points": [0, 0]}  # the parts must add up to the points
    rejected(tampered(record, result=split, current_player=-1, legal_moves=[], legal_actions=[]), "add up|plus")


# --------------------------------------------------------------------------- the core alone


def _knowledge(rules, **changes):
    """The arguments of ``_core._state_from_knowledge`` for the deal of a
    2-player cross round, with ``changes``."""
    r = dc.Round(rules, seed=3, round_index=1)
    v = r.view(r.current_player)
    args = dict(
        rules=_core_rules(rules),
        seat=v.seat,
        round_index=v.round_index,
        centre=v.centre.index,
        starter=v.starter,
        highest_double=False,
        hand=[t.index for t in v.hand],
        hand_sizes=list(v.hand_sizes),
        own_search=[t.index for t in v.own_setup_draws],
        search_counts=list(v.setup_draws),
        movers=[],
        codes=[],
        drawn=[],
    )
    args.update(changes)
    return args


@needs_replay
@pytest.mark.parametrize(
    "changes, match",
    [
        ({"round_index": -3, "search_counts": [1, 1]}, "round index -3 is out of range 0..6"),
        ({"search_counts": [10**6, 10**6]}, "search count 1000000 of seat 0 is not 0..28"),
        ({"own_search": list(range(20))}, "the seat's own search draws do not match its search count"),
        ({"search_counts": [1, 1]}, "the search's last draw .* was seat 0's, so the starter must be 0, not 1"),
        ({"hand_sizes": [3_000_000, 3_000_000]}, "hand size 3000000 of seat 0 is not 0..28"),
        ({"hand_sizes": [-5, 7]}, "hand size -5 of seat 0 is not 0..28"),
        ({"seat": 2}, "seat 2 is not a seat 0..1"),
        ({"starter": -1}, "starter -1 is not a seat 0..1"),
        ({"centre": 999}, "centre 999 is not a tile of the set"),
        ({"movers": [5], "codes": [-1], "drawn": [-1]}, "mover 5 is not a seat"),
        ({"movers": [0], "codes": [10**8], "drawn": [-1]}, "move code 100000000 is out of range"),
        ({"movers": [0, 0], "codes": [-1], "drawn": [-1]}, "differ in length"),
        ({"highest_double": True}, "highest_double is only a fact of Doubles' and Block's set-ups"),
    ],
)
def test_state_from_knowledge_checks_every_input_before_any_work(changes, match):
    rules = dc.ChickenFoot(rule_set="cross", players=2, set=6)
    start = time.perf_counter()
    with pytest.raises(dc.StateError, match=match):
        _core._state_from_knowledge(**_knowledge(rules, **changes))
    assert time.perf_counter() - start < 0.05


@needs_replay
def test_state_from_knowledge_takes_the_untampered_knowledge():
    rules = dc.ChickenFoot(rule_set="cross", players=2, set=6)
    state = _core._state_from_knowledge(**_knowledge(rules))
    assert state.current_player == _knowledge(rules)["seat"]


def _passed_then_grown(impl, seed):
    """A 2-player Block view of the seat to move after the other seat
    passed, with the out-of-play tiles moved into the other seat's hand (the
    sizes still add up: a hand-built deal could have such hands)."""
    rules = impl.Block(players=2, set=6)
    r = impl.Round(rules, seed=seed)
    rng = random.Random(seed)
    while not r.is_over:
        v = r.view(r.current_player)
        if v.legal_moves() and any(h.seat != v.seat and h.move.kind == "pass" for h in v.history):
            record = json.loads(json.dumps(v.to_dict()))
            record["hand_sizes"][1 - v.seat] += record["yard_size"]
            record["yard_size"] = 0
            return record
        r.push(rng.choice(r.legal_moves()))
    raise AssertionError("no such position")  # pragma: no cover


@needs_replay
def test_a_search_refuses_a_view_whose_passes_no_deal_honours(dc):
    """Seat 1 passed holding 14 more tiles than it can have held without a
    placement: no deal of the hidden tiles honours the pass. ``from_dict``
    accepts it (the count of worlds is the determinizer's, docs/validation.md
    "Views"); a search raises StateError (it raised RuntimeError from the
    determinizer)."""
    record = _passed_then_grown(dc, 6)
    view = dc.PlayerView.from_dict(record)
    searches_reject(view, r"cannot search this position: .*the slot model has no world")


def test_a_blocked_block_round_dealt_by_hand_is_accepted(dc):
    """Block never draws: its out-of-play tiles are its yard, however many a
    hand-built deal leaves, and a blocked round's view is accepted whatever
    the yard holds (the check of the yard against the reserve is for the
    games that draw)."""
    rules = dc.Block(players=2, set=6)
    found = 0
    for seed in range(40):
        tiles = [dc.Tile.from_index(i) for i in range(28)]
        random.Random(seed).shuffle(tiles)
        r = dc.Round.from_deal(rules, [tiles[:2], tiles[2:5]], tiles[5:], None, 0)
        rng = random.Random(seed)
        while not r.is_over:
            r.push(rng.choice(r.legal_moves()))
        if r.result.reason == "blocked" and r.yard_size > rules.reserve:
            found += 1
            for seat in range(2):
                view = r.view(seat)
                assert dc.PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))) == view
    assert found >= 3


class _BadIndex:
    """An integer-like object whose ``__index__`` raises ValueError."""

    def __index__(self):
        raise ValueError("no index")


def test_an_object_whose_index_raises_is_a_state_error(cross2):
    rejected(tampered(cross2, seat=_BadIndex()), "malformed view record: ValueError: no index")


@needs_replay
def test_a_hand_built_view_with_an_odd_seat_is_a_state_error_in_a_search(cross2):
    searches_reject(hand_built(cross2, seat=_BadIndex()), "malformed view record|turn, not the viewer's")
