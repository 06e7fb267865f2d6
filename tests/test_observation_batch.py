"""``Round.observation_tensors`` of the compiled core takes a one-pass C++
path when every check passes plainly (a list or tuple of Rounds of one rules
object, plain seats, ``out`` None or fitting) and the wrapper's full checks
otherwise: both give each round's own tensor, and the same errors."""

from __future__ import annotations

import dominocore
import numpy as np
import pytest
from dominocore.common.errors import RulesError, StateError
from helpers import import_core

native = import_core()  # dominocore.native; a skip of the module where the core is absent


def _rounds(rules, count, seed=1):
    rng = np.random.default_rng(seed)
    rounds = []
    for i in range(count):
        r = native.Round(rules, seed=seed + i)
        for _ in range(int(rng.integers(0, 30))):
            if r.is_over:
                break
            ids = r.legal_actions()
            r.apply_action(ids[int(rng.integers(len(ids)))])
        rounds.append(r)
    return rounds


class MyRound(native.Round):
    __slots__ = ()


@pytest.mark.parametrize(
    "make",
    [
        lambda: dominocore.ChickenFoot(players=4),
        lambda: dominocore.MexicanTrain(players=5, set=15),
        lambda: dominocore.Block(players=4, teams=2),
        lambda: dominocore.AllFives(players=3, set=6),
    ],
)
def test_every_form_of_the_arguments_gives_each_rounds_tensor(make):
    rules = make()
    rounds = _rounds(rules, 7)
    rounds.append(rounds[2])  # a round twice
    rounds.append(MyRound._wrap(rules, rounds[0].clone()._s))  # a subclass
    n, p = len(rounds), rules.players
    seat_list = [i % p for i in range(n)]
    want = np.stack([r.observation_tensor(s) for r, s in zip(rounds, seat_list)])
    same_seat = np.stack([r.observation_tensor(1) for r in rounds])
    equal_rules = make()
    assert equal_rules == rules and equal_rules is not rules
    twins = [native.Round._wrap(equal_rules, r._s) for r in rounds]  # equal rules, not the same object
    cases = [
        (rounds, seat_list, want),
        (tuple(rounds), tuple(seat_list), want),
        (iter(rounds), np.array(seat_list, np.int64), want),
        (rounds, np.array(seat_list, np.int32), want),
        (rounds, np.array(seat_list, np.int16), want),  # the full checks
        (rounds, [np.int64(s) for s in seat_list], want),  # the full checks
        (twins, seat_list, want),
        (rounds, 1, same_seat),
        (rounds, np.int64(1), same_seat),
    ]
    for given, seats, expected in cases:
        got = native.Round.observation_tensors(given, seats)
        assert got.dtype == np.float32 and got.tobytes() == expected.tobytes()
        out = np.full(expected.shape, -3, np.float32)
        assert native.Round.observation_tensors(list(rounds), seats, out=out) is out
        assert out.tobytes() == expected.tobytes()


def test_bad_arguments_raise_the_wrappers_errors():
    rules = dominocore.ChickenFoot(players=4)
    rounds = _rounds(rules, 3)
    other = native.Round(dominocore.ChickenFoot(players=3), seed=1)
    tensors = native.Round.observation_tensors
    with pytest.raises(TypeError, match="expected a dominocore Round"):
        tensors(rounds + [object()], 0)
    with pytest.raises(StateError, match="every round must have the same rules: round 3 has"):
        tensors(rounds + [other], 0)
    with pytest.raises(RulesError, match="seats must hold one seat per round: 3 rounds, 2 seats"):
        tensors(rounds, [0, 1])
    with pytest.raises(RulesError, match="seat must be between 0 and 3, got 4"):
        tensors(rounds, [0, 1, 4])
    with pytest.raises(RulesError, match="seat must be an integer, got True"):
        tensors(rounds, [0, True, 1])
    with pytest.raises(RulesError, match="seat must be between 0 and 3, got -1"):
        tensors(rounds, np.array([0, -1, 1]))
    with pytest.raises(RulesError, match="out must be a writable"):
        tensors(rounds, 0, out=np.zeros((2, 219), np.float32))
    with pytest.raises(RulesError, match="out must be a writable"):
        tensors(rounds, 0, out=np.zeros((3, 219), np.float64))
    empty = tensors([], 0)
    assert empty.shape == (0, 0)
