"""Hypothesis property tests over random seeded games of every rule set.

``EXAMPLES`` examples per property (and implementation) in the default run,
many more under ``--large``; ``DOMINOCORE_PROPERTY_EXAMPLES`` overrides both."""

from __future__ import annotations

import copy
import pickle

from helpers import all_tiles_in_play, observe, scaled, set_tiles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CONFIGS = [
    ("chickenfoot", dict(players=4, set=9, rule_set="trains")),
    ("chickenfoot", dict(players=2, set=6, rule_set="trains", trains=3)),
    ("chickenfoot", dict(players=6, set=12, rule_set="trains", double_blank_50=True)),
    ("chickenfoot", dict(players=3, set=9, rule_set="cross")),
    ("chickenfoot", dict(players=4, set=6, rule_set="cross")),
    ("doubles", dict(players=2, set=6)),
    ("doubles", dict(players=4, set=9)),
    ("block", dict(players=2, set=6)),
    ("block", dict(players=4, set=9, lead="highest_double")),
    ("block", dict(players=4, set=6, hand_size=7, teams=2, team_scoring="fewer_pips")),
    ("mexican_train", dict(players=4, set=12)),
    ("mexican_train", dict(players=7, set=9, drawn_tile="may", double_blank_50=True)),
    ("all_fives", dict(players=2, set=6)),
    ("all_fives", dict(players=4, set=9, teams=2, sides_open="at_once", draw="one", target=40)),
    ("fives_and_threes", dict(players=3, set=6, spinner="first", reserve=0)),
]

games = st.tuples(
    st.sampled_from(CONFIGS),
    st.integers(0, 2**64 - 1),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=150),
)
EXAMPLES = scaled(40, 500, "DOMINOCORE_PROPERTY_EXAMPLES")
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def make(dc, config, seed):
    game, options = config
    rules = dc.rules_from_dict({"game": game, **options})
    round_index = seed % (rules.set + 1)
    return dc.Round(rules, seed=seed, round_index=round_index)


def walk(round_, choices):
    """Yield before each move, then play the move picked by the next choice."""
    for choice in choices:
        if round_.is_over:
            return
        moves = round_.legal_moves()
        yield moves
        round_.push(moves[choice % len(moves)])


@SETTINGS
@given(games)
def test_the_set_is_conserved_after_every_move(dc, game):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    expected = sorted(set_tiles(dc, round_.rules))
    for _ in walk(round_, choices):
        assert sorted(all_tiles_in_play(round_)) == expected
    assert sorted(all_tiles_in_play(round_)) == expected


@SETTINGS
@given(games)
def test_pop_restores_the_exact_previous_state(dc, game):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    for moves in walk(round_, choices):
        before = observe(round_)
        round_.push(moves[-1])
        assert round_.pop() == moves[-1]
        assert observe(round_) == before
    # and all the way back to the deal
    deal = make(dc, config, seed)
    while round_.move_stack:
        round_.pop()
    assert observe(round_) == observe(deal)


@SETTINGS
@given(games)
def test_a_clone_is_independent(dc, game):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    for _ in walk(round_, choices[: len(choices) // 2]):
        pass
    for twin in (round_.clone(), copy.copy(round_), copy.deepcopy(round_), pickle.loads(pickle.dumps(round_))):
        before = observe(round_)
        assert observe(twin) == before
        for _ in walk(twin, choices):
            pass
        assert observe(round_) == before


@SETTINGS
@given(games, st.data())
def test_every_rejected_move_leaves_the_state_unchanged(dc, game, data):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    t = round_.rules.tile_count
    for _ in walk(round_, choices):
        tile = dc.Tile.from_index(data.draw(st.integers(0, t - 1)))
        end = data.draw(st.integers(0, 60))
        for move in (dc.Move.place(tile, end), dc.Move.draw(), dc.Move.pass_()):
            if round_.is_legal(move):
                continue
            before = observe(round_)
            try:
                round_.push(move)
            except dc.IllegalMoveError as exc:
                assert exc.reason and str(exc)
            else:
                raise AssertionError(f"{move} was accepted though is_legal said no")
            assert observe(round_) == before


@SETTINGS
@given(games)
def test_distinct_listing_keeps_one_move_per_tile_and_number(dc, game):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    for moves in walk(round_, choices):
        distinct = round_.legal_moves(distinct=True)
        assert set(distinct) <= set(moves)
        # Placements are equivalent when they put the same tile on ends of the same
        # number (docs/rules.md 1.7) of the same train (Mexican Train's ends differ by train).
        key = {e.id: (e.number, round_.train_of(e.id)) for e in round_.open_ends}
        if round_.rules.scores_in_play:  # ends of one number count apart: no two are equivalent
            assert distinct == moves
            key = {e.id: e.id for e in round_.open_ends}
        keys = [(m.tile, key[m.end]) for m in distinct if m.kind == "place"]
        assert len(keys) == len(set(keys))
        full_keys = {(m.tile, key[m.end]) for m in moves if m.kind == "place"}
        assert set(keys) == full_keys
        for m in distinct:  # the lowest end id of its class
            if m.kind == "place":
                ids = [x.end for x in moves if x.kind == "place" and (x.tile, key[x.end]) == (m.tile, key[m.end])]
                assert m.end == min(ids)


@SETTINGS
@given(games)
def test_action_ids_round_trip(dc, game):
    config, seed, choices = game
    round_ = make(dc, config, seed)
    for moves in walk(round_, choices):
        actions = round_.legal_actions()
        assert actions == sorted(actions)
        distinct = round_.legal_moves(distinct=True)
        assert sorted(round_.move_to_action(m) for m in distinct) == actions
        for a in actions:
            assert round_.move_to_action(round_.action_to_move(a)) == a
        for m in moves:  # every full-listing move maps onto a legal action
            assert round_.move_to_action(m) in actions
        mask = round_.legal_action_mask()
        assert [i for i, legal in enumerate(mask) if legal] == actions


@SETTINGS
@given(games)
def test_the_points_of_play_are_fives_or_fives_and_threes(dc, game):
    """docs/games/all_fives.md F5, fives_and_threes.md T3: in All Fives every
    move scores a multiple of 5; in Fives and Threes what some count that 3
    or 5 divides scores; draws and passes score nothing; and the points of
    play are the sum of the moves' points, by side."""
    config, seed, choices = game
    round_ = make(dc, config, seed)
    rules = round_.rules
    scores = set()
    if rules.scores_in_play:
        scores = {rules.points_for_count(c) for c in range(1, 8 * rules.set + 1) if c % 3 == 0 or c % 5 == 0}
    for _ in walk(round_, choices):
        pass
    history = [(mover, move, points) for (mover, move, _), points in zip(round_._history(), round_.points_stack)]
    for _, move, points in history:
        if not rules.scores_in_play or not move.is_place:
            assert points == 0
        elif config[0] == "all_fives":
            assert points % 5 == 0
        else:
            assert points == 0 or points in scores
    for s in range(rules.players):
        side = [points for mover, _, points in history if rules.team_of(mover) == rules.team_of(s)]
        assert round_.play_points[s] == sum(side)


@SETTINGS
@given(games)
def test_the_rewards_of_the_steps_add_up_to_the_round_margin(dc, game):
    """Every step's rewards (each seat's change in margin) add up, over a
    whole round, to its margins; before the end only the points of play move them."""
    from dominocore.common.results import last_step_rewards

    config, seed, choices = game
    round_ = make(dc, config, seed)
    total = last_step_rewards(round_)  # zeros, or the margins of a round over at its set-up
    step = 0
    while not round_.is_over:
        moves = round_.legal_moves()
        round_.push(moves[choices[step % len(choices)] % len(moves)])
        step += 1
        rewards = last_step_rewards(round_)
        if not round_.rules.scores_in_play and not round_.is_over:
            assert rewards == [0.0] * round_.rules.players
        total = [a + b for a, b in zip(total, rewards)]
    want = round_.rules.round_margins(round_.result.points)
    assert all(abs(a - b) < 1e-6 for a, b in zip(total, want))
