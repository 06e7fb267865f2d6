"""The two implementations behave alike, not only by name: the same printing,
the same types from every public query, and the same error type, reason and
message for every refused move, action id and undo, in every game.

(The differential run compares positions and legal moves after every move;
this file compares what a user sees around them.)
"""

from __future__ import annotations

import inspect
import random

import dominocore.reference as ref
import numpy as np
import pytest
from helpers import import_core

native = import_core()

RULES = [
    ("chickenfoot", dict(players=4, set=9)),
    ("chickenfoot", dict(players=3, set=6, rule_set="cross")),
    ("doubles", dict(players=2, set=6)),
    ("block", dict(players=3, set=6)),
    ("block", dict(players=2, set=9, lead="highest_double")),
    ("mexican_train", dict(players=4, set=9)),
    ("mexican_train", dict(players=3, set=6, drawn_tile="may")),
    ("all_fives", dict(players=2, set=6)),
    ("all_fives", dict(players=4, set=9, teams=2, sides_open="at_once", target=30)),
    ("fives_and_threes", dict(players=3, set=6, draw="one")),
]
#: Public queries compared on every position (properties and no-argument methods).
QUERIES = [
    "current_player", "starter", "round_index", "centre", "yard", "yard_size", "open_ends", "pending_ends",
    "obligation", "markers", "unlocked", "drawn_tile", "layout", "move_stack", "is_over", "result", "hands",
    "num_actions", "legal_moves", "legal_actions", "to_dict",
]  # fmt: skip


def positions(label_options, count=6, seed=0):
    """Pairs (reference round, native round) at random points of random rounds."""
    game, options = label_options
    rng = random.Random(f"{game}-{options}-{seed}")
    for i in range(count):
        a = ref.Round(ref.rules_from_dict({"game": game, **options}), seed=i, round_index=i % 3)
        b = native.Round(native.rules_from_dict({"game": game, **options}), seed=i, round_index=i % 3)
        for _ in range(rng.randrange(0, 16)):
            if a.is_over:
                break
            move = rng.choice(a.legal_moves())
            a.push(move)
            b.push(move)
        yield a, b


def value_of(round_, name):
    value = getattr(round_, name)
    return value() if callable(value) else value


def described(value):
    """A value with the type of every part: equal only if types match too."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [described(v) for v in value])
    if isinstance(value, dict):
        return ("dict", {k: described(v) for k, v in value.items()})
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.tolist())
    return (type(value).__name__, value)


def outcome(call, *args, **kwargs):
    try:
        return ("ok", described(call(*args, **kwargs)))
    except Exception as exc:  # noqa: BLE001 - the comparison is the test
        return (type(exc).__name__, getattr(exc, "reason", None), str(exc))


def candidates(round_):
    """Moves worth trying: every tile of the set on every end ever handed out
    (and one beyond), Draw and Pass."""
    ends = range(max([e.id for e in round_.open_ends] + [p for pl in round_.layout for p in pl.created] + [0]) + 2)
    tiles = [str(ref.Tile.from_index(i)) for i in range(round_.rules.tile_count)]
    return [f"{t}@{e}" for t in tiles for e in ends] + ["draw", "pass"]


@pytest.mark.parametrize("config", RULES, ids=lambda c: f"{c[0]}-{'-'.join(map(str, c[1].values()))}")
def test_queries_printing_and_types_agree(config):
    for a, b in positions(config):
        for name in QUERIES:
            assert described(value_of(a, name)) == described(value_of(b, name)), name
        assert str(a) == str(b)
        assert repr(a) == repr(b)
        assert a.num_actions == b.num_actions == a.rules.num_actions
        mask_a, mask_b = a.legal_action_mask(), b.legal_action_mask()
        assert described(mask_a) == described(mask_b)
        for end in range(-1, 12):
            assert a.train_of(end) == b.train_of(end)


@pytest.mark.parametrize("config", RULES, ids=lambda c: f"{c[0]}-{'-'.join(map(str, c[1].values()))}")
def test_every_refusal_has_the_same_type_reason_and_message(config):
    reasons = set()
    for a, b in positions(config, count=4):
        players = [None, *range(a.rules.players)]
        for text in candidates(a):
            for player in players:
                got = outcome(a.push, text, player=player), outcome(b.push, text, player=player)
                assert got[0] == got[1], (text, player)
                if got[0][0] == "ok":  # legal: take it back on both sides and go on
                    a.pop()
                    b.pop()
                else:
                    reasons.add(got[0][1])
                assert a.is_legal(text, player=player) == b.is_legal(text, player=player)
            assert outcome(a.move_to_action, text) == outcome(b.move_to_action, text)
        for action in [-1, 0, 1, 2, a.num_actions - 1, a.num_actions, 10**30, True, 2.0, "1", None]:
            assert outcome(a.action_to_move, action) == outcome(b.action_to_move, action), action
            assert outcome(a.clone().apply_action, action) == outcome(b.clone().apply_action, action), action
    fresh = (ref.Round(ref.rules_from_dict({"game": config[0], **config[1]})),)
    fresh += (native.Round(native.rules_from_dict({"game": config[0], **config[1]})),)
    assert outcome(fresh[0].pop) == outcome(fresh[1].pop)
    assert {"not_in_hand", "end_not_open", "not_your_turn"} <= reasons


def test_the_public_classes_have_the_same_members_and_signatures():
    for name in ("Round", "Match", "RandomPlayer", "GreedyPlayer"):
        a, b = getattr(ref, name), getattr(native, name)
        public = lambda cls: {m for m in dir(cls) if not m.startswith("_")}  # noqa: E731
        assert public(a) == public(b), name
        for member in public(a):
            x, y = inspect.getattr_static(a, member), inspect.getattr_static(b, member)
            if callable(x) and callable(y) and not isinstance(x, type):
                try:
                    sig_x, sig_y = inspect.signature(getattr(a, member)), inspect.signature(getattr(b, member))
                except (TypeError, ValueError):
                    continue
                assert list(sig_x.parameters) == list(sig_y.parameters), f"{name}.{member}"


def test_the_hand_size_tables_agree():
    """Each implementation keeps its own table of default hand sizes (the core
    is a C++ library of its own): they must give the same figure for every
    game, rule set, set size and player count the rules allow."""
    from dominocore import _core

    compared = 0
    for game, options in [("chickenfoot", {"rule_set": "trains"}), ("chickenfoot", {"rule_set": "cross"})] + [
        (g, {}) for g in ("doubles", "block", "mexican_train")
    ]:
        for n in range(6, 19):
            for p in range(2, 9):
                try:
                    rules = ref.rules_from_dict({"game": game, "set": n, "players": p, **options})
                except ref.RulesError:
                    continue
                rule_set = options.get("rule_set", "trains")  # ignored by the games without rule sets
                assert _core._default_hand_size(game, rule_set, n, p) == rules.hand_size, (game, options, n, p)
                compared += 1
    assert compared > 300
