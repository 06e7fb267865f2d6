"""Matches saved and restored exactly (``Match.to_dict``/``from_dict``, in
either implementation), finished matches that stay finished, and
``match_winners`` (docs/records.md, docs/engine.md reading 12)."""

from __future__ import annotations

import copy
import importlib
import json

import pytest
from helpers import needs_core, observe

IMPLEMENTATIONS = ("dominocore.reference", "dominocore.native")

# (name, rules factory, policy): small sets so that whole matches stay quick.
GAMES = [
    ("trains", lambda dc: dc.ChickenFoot(players=3, set=6), "random"),
    ("cross", lambda dc: dc.ChickenFoot(players=3, set=6, rule_set="cross"), ["random", "greedy", "random"]),
    ("doubles", lambda dc: dc.Doubles(players=3, target=80), "random"),
    ("block", lambda dc: dc.Block(players=2, target=60), ["greedy", "random"]),
    ("mexican_train", lambda dc: dc.MexicanTrain(players=3, set=6), "random"),
    ("all_fives", lambda dc: dc.AllFives(players=2, target=300), ["greedy", "random"]),
    ("fives_and_threes", lambda dc: dc.FivesAndThrees(players=4, teams=2), "random"),
]


def implementations():
    return [importlib.import_module(name) for name in IMPLEMENTATIONS]


def finished(dc, rules, seed=5, policy="greedy"):
    return dc.Match(rules, seed=seed).play(policy)


def history(match) -> dict:
    """Everything a match has played: each round's record and result, the totals, the winners."""
    return {
        "rounds": [r.to_dict() for r in match.rounds],
        "results": [tuple(r) for r in match.results],
        "totals": match.totals,
        "winners": match.winners,
        "is_over": match.is_over,
    }


# --------------------------------------------------------------------------- resuming exactly


@needs_core
@pytest.mark.parametrize("name, make, policy", GAMES, ids=[g[0] for g in GAMES])
def test_a_saved_match_resumes_exactly_in_both_implementations(dc, name, make, policy):
    rules = make(dc)
    original = dc.Match(rules, seed=17).play(policy, rounds=2)
    # a round in play inside the match: a few moves by hand
    round_ = original.new_round()
    for _ in range(3):
        if not round_.is_over:
            round_.push(round_.legal_moves()[-1])
    saved = json.loads(json.dumps(original.to_dict()))  # plain JSON
    assert saved["version"] == 1
    restored = [impl.Match.from_dict(saved) for impl in implementations()]
    for twin in restored:
        assert twin.to_dict() == saved
        assert observe(twin.round) == observe(original.round)
    # continue all three: every later deal, move, result and total agrees
    for match in [original, *restored]:
        match.play(policy)
    expected = history(original)
    assert expected["is_over"]
    for twin in restored:
        assert history(twin) == expected


def test_play_in_parts_is_play_at_once(dc):
    """The random seats' generator carries on from one play() to the next."""
    rules = dc.Doubles(players=2, target=150)
    whole = dc.Match(rules, seed=9).play("random")
    parts = dc.Match(rules, seed=9)
    while not parts.is_over:
        parts.play("random", rounds=1)
    assert history(parts) == history(whole)
    assert len(whole.rounds) > 2


def test_play_with_a_round_limit(dc):
    m = dc.Match(dc.ChickenFoot(players=2, set=6), seed=3)
    assert m.play("greedy", rounds=0) is m and m.round is None
    m.play("greedy", rounds=2)
    assert len(m.results) == 2 and len(m.rounds) == 2 and not m.is_over
    m.new_round().push(m.round.legal_moves()[0])
    m.play("greedy", rounds=1)  # finishing the round in play counts as one
    assert len(m.results) == 3 and len(m.rounds) == 3
    with pytest.raises(dc.RulesError, match="rounds must be between 0 and"):
        m.play("greedy", rounds=-1)
    with pytest.raises(dc.RulesError, match="rounds must be an integer"):
        m.play("greedy", rounds=1.5)
    assert len(m.results) == 3


def test_a_restored_match_deals_as_the_original(dc, ref):
    """Between rounds: the match generator's state decides the next deal."""
    rules = dc.Block(players=3, target=80)
    m = dc.Match(rules, seed=2**64 - 3).play("random", rounds=3)
    twin = ref.Match.from_dict(m.to_dict())
    assert twin.new_round().to_dict() == m.new_round().to_dict()


def test_pickles_and_copies_keep_the_bots_generator(dc):
    import pickle

    m = dc.Match(dc.Doubles(players=2, target=120), seed=4).play("random", rounds=2)
    twins = (pickle.loads(pickle.dumps(m)), copy.deepcopy(m))
    expected = history(m.play("random"))  # the original itself plays on
    for twin in twins:
        assert history(twin.play("random")) == expected


# --------------------------------------------------------------------------- rejected saves


def saved_doubles(dc) -> dict:
    m = dc.Match(dc.Doubles(players=2, target=100), seed=8).play("greedy", rounds=2)
    m.new_round().push(m.round.legal_moves()[0])
    return m.to_dict()


def broken(dc, change):
    data = saved_doubles(dc)
    change(data)
    return data


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=2), "unsupported match record version 2 (this version reads 1)"),
        (lambda d: d.update(version="1"), "unsupported match record version '1'"),
        (lambda d: d.update(extra=1), "unknown keys in match record: 'extra'"),
        (lambda d: d.pop("bot_generator"), "missing keys in match record: ['bot_generator']"),
        (lambda d: d.update(rules={"game": "doubles", "colour": 1}), "bad rules in match record"),
        (lambda d: d.update(seed=-1), "the match record's seed must be between 0 and"),
        (lambda d: d.update(seed=9), "round 0 of the match record is not the deal the match seed 9 deals"),
        (lambda d: d.update(generator=d["generator"] ^ 1), "the match record's generator state"),
        (lambda d: d.update(bot_generator=True), "bot_generator state must be an integer"),
        (lambda d: d.update(rounds={}), "'rounds' must be a list of round records"),
        (lambda d: d["rounds"][1]["moves"].pop(), "round 1 of the match record is not over, but round 2 follows it"),
        (lambda d: d["rounds"][1].update(round_index=3), "round 1 of the match record has round_index 3"),
        (lambda d: d["rounds"][0]["moves"].append("pass"), "round 0 of the match record: move"),
        (lambda d: d["rounds"][0]["rules"].update(target=90), "round 0 of the match record has rules"),
    ],
)
def test_a_malformed_save_is_refused(dc, change, message):
    with pytest.raises(dc.StateError) as info:
        dc.Match.from_dict(broken(dc, change))
    assert message in str(info.value)


def test_a_save_with_a_round_after_the_end_is_refused(dc):
    rules = dc.ChickenFoot(players=2, set=6)
    data = finished(dc, rules).to_dict()
    extra = dc.Round(rules, seed=1, round_index=6).to_dict()
    data["rounds"].append(extra)
    with pytest.raises(dc.StateError, match="has a round 7, but the match was over after round 6"):
        dc.Match.from_dict(data)
    with pytest.raises(dc.StateError, match="a match record is a dict, got list"):
        dc.Match.from_dict([])


# --------------------------------------------------------------------------- finished is final


def test_a_finished_match_does_not_change_when_a_round_is_popped(dc):
    m = finished(dc, dc.ChickenFoot(players=2, set=6))
    before = history(m)
    saved = m.to_dict()
    assert m.is_over
    popped = m.rounds[-1]
    popped.pop()
    assert not popped.is_over  # the copy changed ...
    m.round.pop()
    m.rounds[0].pop()
    for r in m.rounds[:2]:
        r.pop()
    assert history(m) == before  # ... the match did not
    assert m.to_dict() == saved
    assert m.rounds[-1].is_over and m.round.is_over


def test_a_round_held_by_the_caller_is_detached_once_settled(dc):
    rules = dc.Doubles(players=2, target=30, max_rounds=1)
    m = dc.Match(rules, seed=6)
    r = m.new_round()
    while not r.is_over:
        r.push(r.legal_moves()[0])
    assert m.is_over  # the match looks: the round is settled
    totals, winners = m.totals, m.winners
    r.pop()  # the caller's object changes, the match keeps its own copy
    assert not r.is_over
    assert m.is_over and m.totals == totals and m.winners == winners
    assert m.round.is_over and m.round.move_stack == [*r.move_stack, m.round.move_stack[-1]]


def test_a_round_in_play_is_the_matchs_own(dc):
    m = dc.Match(dc.Doubles(players=2), seed=6)
    r = m.new_round()
    assert m.round is r and m.rounds[0] is r
    move = r.legal_moves()[0]
    m.round.push(move)
    assert r.move_stack == [move]


def test_a_finished_match_refuses_new_round(dc):
    m = finished(dc, dc.ChickenFoot(players=2, set=6), seed=3)
    with pytest.raises(dc.IllegalMoveError) as info:
        m.new_round()
    assert info.value.reason == "match_over"
    assert str(info.value) == "the match is over after 7 rounds (won by seat 1): it deals no more rounds"
    assert len(m.rounds) == 7
    shared = finished(dc, dc.Block(players=2, max_rounds=1), seed=16)  # a blocked round nobody won
    assert shared.winners == (0, 1)
    with pytest.raises(dc.IllegalMoveError, match=r"over after 1 round \(won by seats 0, 1\)"):
        shared.new_round()


def test_new_round_while_a_round_is_in_play(dc):
    m = dc.Match(dc.Doubles(players=2), seed=6)
    m.new_round()
    with pytest.raises(dc.IllegalMoveError) as info:
        m.new_round()
    assert info.value.reason == "round_in_play"
    assert len(m.rounds) == 1


def test_rounds_is_a_read_only_sequence(dc):
    m = finished(dc, dc.ChickenFoot(players=2, set=6))
    rounds = m.rounds
    assert len(rounds) == 7 and len(rounds[2:4]) == 2 and rounds[-1].round_index == 6
    assert rounds == list(rounds) and rounds == m.rounds
    assert [r.round_index for r in rounds] == list(range(7))
    assert rounds[0] is not rounds[0]  # a fresh copy each time
    with pytest.raises(IndexError):
        rounds[7]
    with pytest.raises(TypeError):
        rounds[0] = None


# --------------------------------------------------------------------------- match_winners


def test_match_winners_is_public_in_both(dc, ref):
    assert "match_winners" in dc.__all__ and "match_winners" in ref.__all__
    m = finished(dc, dc.MexicanTrain(players=3, set=6), policy="random")
    assert tuple(m.totals) == (48, 77, 112)  # the lowest total wins
    assert dc.match_winners(m.rules, m.results) == m.winners == (0,)
    assert ref.match_winners(m.rules, tuple(m.results)) == m.winners
    rules = dc.Doubles(players=2)
    assert dc.match_winners(rules, [dc.RoundResult("out", 1, (0, 40), 0, 9)]) == (1,)
    with pytest.raises(dc.StateError, match=r"results\[0\] must be a RoundResult"):
        dc.match_winners(rules, [(1, 2)])
    with pytest.raises(dc.StateError, match=r"results\[0\] has 3 points for 2 players"):
        dc.match_winners(rules, [dc.RoundResult("out", 1, (0, 40, 0), 0, 9)])
    with pytest.raises(dc.StateError, match="results must be a list of RoundResult"):
        dc.match_winners(rules, "out")
    with pytest.raises(dc.RulesError):
        dc.match_winners("doubles", [])
