"""The compiled core against the reference, compared after every move.

For every rule set, set size (6, 9, 12, 15, 18 where allowed) and allowed
player count: ROUNDS seeded rounds, moves picked by a seeded random player,
and in every third round a random number of moves undone and another branch
taken. ``DOMINOCORE_DIFF_ROUNDS`` raises the count (the README's large run).
"""

from __future__ import annotations

import os
import random

import dominocore.reference as ref
import pytest
from helpers import observe

native = pytest.importorskip("dominocore._native")

ROUNDS = int(os.environ.get("DOMINOCORE_DIFF_ROUNDS", "200"))
MATCHES = int(os.environ.get("DOMINOCORE_DIFF_MATCHES", "20"))


def configurations():
    for n in (6, 9, 12, 15, 18):
        t = (n + 1) * (n + 2) // 2
        for p in range(2, min(8, n) + 1):
            yield ("trains", n, p)
        for p in range(2, 9):
            if 7 * p <= t:
                yield ("cross", n, p)
        for p in range(2, 5):
            yield ("doubles", n, p)


def make_rules(module, rule_set, n, p):
    if rule_set == "doubles":
        return module.Doubles(players=p, set=n)
    return module.ChickenFoot(players=p, set=n, rule_set=rule_set)


def play_and_compare(a, b, rng: random.Random, branch: bool) -> int:
    """Play both rounds move for move; return the number of moves compared."""
    compared = 0
    assert observe(a) == observe(b)
    while not a.is_over:
        moves = a.legal_moves()
        if branch and len(a.move_stack) > 4 and rng.random() < 0.05:
            for _ in range(rng.randint(1, min(6, len(a.move_stack)))):
                assert str(a.pop()) == str(b.pop())
            assert observe(a) == observe(b)
            branch = rng.random() < 0.5
            continue
        move = moves[rng.randrange(len(moves))]
        a.push(move)
        b.push(str(move))
        compared += 1
        assert observe(a, history=False) == observe(b, history=False), f"after {move}"
    assert observe(a) == observe(b)
    assert a.to_dict() == b.to_dict()
    return compared


@pytest.mark.parametrize("rule_set,n,p", list(configurations()), ids=lambda x: str(x))
def test_rounds_agree_move_for_move(rule_set, n, p):
    ref_rules, core_rules = make_rules(ref, rule_set, n, p), make_rules(native, rule_set, n, p)
    rng = random.Random(f"{rule_set}-{n}-{p}")
    for i in range(ROUNDS):
        seed = rng.getrandbits(64)
        k = i % (n + 1) if rule_set != "doubles" else 0
        a = ref.Round(ref_rules, seed=seed, round_index=k)
        b = native.Round(core_rules, seed=seed, round_index=k)
        play_and_compare(a, b, rng, branch=i % 3 == 0)


@pytest.mark.parametrize("rule_set", ["trains", "cross", "doubles"])
def test_whole_matches_agree(rule_set):
    rng = random.Random(rule_set)
    for i in range(MATCHES):
        n = (6, 9, 12)[i % 3]
        p = 2 + i % 3
        seed = rng.getrandbits(64)
        a = ref.Match(make_rules(ref, rule_set, n, p), seed=seed)
        b = native.Match(make_rules(native, rule_set, n, p), seed=seed)
        while not a.is_over:
            play_and_compare(a.new_round(), b.new_round(), rng, branch=False)
        assert b.is_over
        assert a.totals == b.totals and a.winners == b.winners
        assert [tuple(r) for r in a.results] == [tuple(r) for r in b.results]
