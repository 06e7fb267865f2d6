"""The byte-driven fuzz targets behind atheris_target.py (usable without atheris).

``test_one_input(data)`` reads the first byte as the target and the rest
with ``Bytes``, a small deterministic reader (the same input always makes
the same calls, with or without atheris). Every target raises
``contract.Violation`` on a breach of docs/validation.md.
"""

from __future__ import annotations

import copy
import json
import pickle
import struct
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
from contract import (
    REASONS,
    Index,
    Violation,
    as_index,
    expect_error,
    expect_same,
    implementations,
    in_range,
    outcome,
    require,
    short,
)
from strategies import ALL_CONFIGS

MAX_SEED = 2**64 - 1


class Bytes:
    """Reads values off the front of a byte string; past its end, zeros."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def left(self) -> int:
        return len(self.data) - self.pos

    def raw(self, n: int) -> bytes:
        out = self.data[self.pos : self.pos + n]
        self.pos += len(out)
        return out + bytes(n - len(out))

    def byte(self) -> int:
        return self.raw(1)[0]

    def range(self, low: int, high: int) -> int:
        """An int in ``[low, high]``."""
        span = high - low + 1
        size = max(1, (span.bit_length() + 7) // 8)
        return low + int.from_bytes(self.raw(size), "little") % span

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.range(0, len(items) - 1)]

    def flag(self) -> bool:
        return bool(self.byte() & 1)

    def text(self, limit: int = 40) -> str:
        n = self.range(0, limit)
        return self.raw(n).decode("utf-8", "replace")

    def integer(self) -> int:
        """Small, 64-bit edges, or big (up to 10**5000)."""
        kind = self.range(0, 7)
        if kind <= 2:
            return self.range(-3, 300)
        if kind == 3:
            return self.choice([2**31, 2**32, 2**40, 2**40 + 1, 2**63, 2**64 - 1, 2**64, -(2**63), 10**6, 10**6 + 1])
        if kind == 4:
            return struct.unpack("<q", self.raw(8))[0]
        if kind == 5:
            return int.from_bytes(self.raw(self.range(1, 40)), "little", signed=self.flag())
        if kind == 6:
            return self.choice([10**5000, -(10**5000), 4095, 4096, 0, 1])
        return self.range(0, 2**64 + 5)

    def value(self) -> Any:
        """An integer in some form, or something that is not an integer."""
        kind = self.range(0, 11)
        n = self.integer()
        if kind <= 3:
            return n
        if kind == 4:
            for t in (np.int64, np.uint64, np.int32, np.int8):
                if np.iinfo(t).min <= n <= np.iinfo(t).max:
                    return t(n)
            return n
        if kind == 5:
            return Index(n)
        if kind == 6:
            return self.choice([True, False, np.bool_(True)])
        if kind == 7:
            return float(n) if abs(n) < 2**1000 else float("inf")
        if kind == 8:
            return str(n) if abs(n) < 10**100 else "1" * 5000
        if kind == 9:
            return self.choice(
                [None, b"1", [1], (1,), {"a": 1}, object(), complex(1, 0), "\u00b2", "\uff11", [10**5000]]
            )
        if kind == 10:
            return self.text(8)
        return np.array(n) if -(2**63) <= n < 2**63 else n


def test_one_input(data: bytes) -> None:
    if not data:
        return
    target, rest = data[0] % 6, data[1:]
    TARGETS[target](rest)


# --------------------------------------------------------------------------- 0, 1, 4: the mutation checks


def target_record(data: bytes) -> None:
    import cases

    try:
        record = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return
    cases.check_record(record, f"from_dict(json.loads({short(data, 200)}))")


def target_text(data: bytes) -> None:
    import cases

    cases.check_text(data.decode("utf-8", "replace"))


def target_pickle(data: bytes) -> None:
    import cases

    cases.check_pickle(data, f"pickle {short(data, 200)}")


# --------------------------------------------------------------------------- 2: a program of calls on a round


def _rules(dc: Any, config: tuple) -> Any:
    game, options = config
    return dc.rules_from_dict({"game": game, **options})


def target_program(data: bytes) -> None:
    from helpers import observe

    ref, core = implementations()
    d = Bytes(data)
    config = d.choice(ALL_CONFIGS)
    seed = d.range(0, MAX_SEED)
    rules = _rules(ref, config)
    index = d.range(0, rules.set) if rules.rounds is not None else d.range(0, 2**31 - 1)
    rounds = {
        name: dc.Round(_rules(dc, config), seed=seed, round_index=index)
        for name, dc in (("reference", ref), ("core", core))
    }
    log: List[str] = [f"Round({config}, seed={seed}, round_index={index})"]

    def fail(message: str) -> None:
        raise Violation(message + "\n  after: " + "; ".join(log[-12:]))

    def both(call: str, fn: Any) -> Dict[str, Any]:
        before = {name: observe(r) for name, r in rounds.items()}
        outs = {name: outcome(fn, r) for name, r in rounds.items()}
        log.append(call)
        if outs["reference"].key() != outs["core"].key():
            fail(f"{call}: the implementations disagree: reference {outs['reference']!r}, core {outs['core']!r}")
        out = outs["reference"]
        if not out.ok:
            if not (isinstance(out.error, type) and issubclass(out.error, ref.DominoError)):
                fail(f"{call} raised {out!r}, not a documented error")
            if out.error is ref.IllegalMoveError and out.reason not in REASONS:
                fail(f"{call}: undocumented reason {out.reason!r}")
            for name, r in rounds.items():
                if observe(r) != before[name]:
                    fail(f"{call} raised {out!r} but changed the {name} round")
        return outs

    for _ in range(d.range(1, 40)):
        if d.left() <= 0:
            break
        r0 = rounds["reference"]
        op = d.range(0, 10)
        legal = r0.legal_moves()
        actions = r0.legal_actions()
        if op == 0 and legal:
            move = d.choice(legal)
            arg = str(move) if d.flag() else move
            out = both(f"push({arg!r})", lambda r, arg=arg: r.push(arg))
            if not out["reference"].ok:
                fail(f"push({arg!r}) of a legal move -> {out['reference']!r}")
        elif op == 1:
            text = d.text(20)
            out = both(f"push({short(text)})", lambda r, text=text: r.push(text))
            if not out["reference"].ok and out["reference"].error not in (ref.ParseError, ref.IllegalMoveError):
                fail(f"push({short(text)}) -> {out['reference']!r}")
        elif op in (2, 3):
            value = d.value()
            method = "apply_action" if op == 2 else "action_to_move"
            call = f"{method}({short(value)})"
            out = both(call, lambda r, m=method, v=value: getattr(r, m)(v))["reference"]
            number = as_index(value)
            if number is not None and number in actions:
                if not out.ok:
                    fail(f"{call} of a legal id -> {out!r}")
            elif out.ok or out.reason != "illegal_action":
                fail(f"{call} -> {out!r}; the contract wants IllegalMoveError(illegal_action)")
        elif op == 4:
            move = d.choice(legal) if legal else ref.Move.draw()
            player = d.value() if d.flag() else d.range(-1, 8)
            call = f"push({move}, player={short(player)})"
            seat = in_range(player, 0, rules.players - 1)
            over = r0.is_over
            current = r0.current_player
            out = both(call, lambda r, m=move, p=player: r.push(m, player=p))["reference"]
            if player is None:
                pass  # no player named: an ordinary push
            elif seat is None:
                if out.ok or out.error is not ref.RulesError:
                    fail(f"{call} -> {out!r}; not a seat: the contract wants RulesError")
            elif over:
                if out.reason != "round_over":
                    fail(f"{call} -> {out!r} in a finished round")
            elif seat != current and out.reason != "not_your_turn":
                fail(f"{call} -> {out!r}; seat {current} is to move")
        elif op == 5:
            both("pop()", lambda r: r.pop())
        elif op == 6:
            move = d.text(12) if d.flag() else d.value()
            player = d.value() if d.flag() else None
            for name, r in rounds.items():
                out = outcome(r.is_legal, move, player=player)
                if not (out.ok and isinstance(out.value, bool)):
                    fail(f"is_legal({short(move)}, player={short(player)}) -> {out!r} ({name})")
        elif op == 7:
            how = d.range(0, 4)
            copier = [
                lambda r: r.clone(),
                copy.copy,
                copy.deepcopy,
                lambda r: pickle.loads(pickle.dumps(r)),
                lambda r: type(r).from_dict(r.to_dict()),
            ][how]
            log.append(f"copy #{how}")
            for name in rounds:
                out = outcome(copier, rounds[name])
                if not out.ok or type(out.value) is not type(rounds[name]):
                    fail(f"copy #{how} of the {name} round -> {out!r}")
                if observe(out.value) != observe(rounds[name]):
                    fail(f"copy #{how} of the {name} round differs from it")
                rounds[name] = out.value
        elif op == 8:
            bot_seed = d.range(0, MAX_SEED)
            greedy = d.flag()
            outs = {}
            for name, dc in (("reference", ref), ("core", core)):
                bot = dc.GreedyPlayer() if greedy else dc.RandomPlayer(bot_seed)
                outs[name] = outcome(bot.choose, rounds[name])
            call = f"{'greedy' if greedy else 'random'} bot"
            log.append(call)
            expect_same(outs["reference"], outs["core"], call)
            if r0.is_over:
                expect_error(outs["reference"], (ref.StateError,), call + " in a finished round")
            else:
                require(outs["reference"].ok and outs["reference"].value == outs["core"].value, f"{call}: {outs}")
                for r in rounds.values():
                    r.push(outs["reference"].value)
        else:
            for _ in range(d.range(1, 50)):
                moves = rounds["reference"].legal_moves()
                if not moves:
                    break
                if rounds["core"].legal_moves() != moves:
                    fail("the legal moves differ")
                move = moves[d.range(0, len(moves) - 1)]
                for r in rounds.values():
                    r.push(move)
            log.append("played on")
    seen = {name: observe(r) for name, r in rounds.items()}
    if seen["reference"] != seen["core"]:
        fail("the two rounds differ")
    if rounds["reference"].to_dict() != rounds["core"].to_dict():
        fail("the two records differ")


# --------------------------------------------------------------------------- 3: simulate's arguments


def _expected_simulate_error(rules: Any, kwargs: Dict[str, Any]) -> Optional[str]:
    """Why docs/validation.md rejects these simulate arguments (None: accepted)."""
    matches, rounds = kwargs.get("matches"), kwargs.get("rounds")
    if (matches is None) == (rounds is None):
        return "exactly one of matches= and rounds="
    count = matches if matches is not None else rounds
    if in_range(count, 0, 2**40) is None:
        return "count"
    if in_range(kwargs.get("seed", 0), 0, MAX_SEED) is None:
        return "seed"
    index = kwargs.get("round_index", 0)
    if matches is not None:
        if in_range(index, 0, 0) is None:
            return "round_index with matches="
    else:
        top = rules.set if rules.rounds is not None else 2**31 - 1  # a round per start double, else any index
        if in_range(index, 0, top) is None:
            return "round_index"
    policy = kwargs.get("policy", "random")
    names = ("random", "greedy")
    if isinstance(policy, str):
        if policy not in names:
            return "policy"
    elif isinstance(policy, (list, tuple)):
        if len(policy) != rules.players or not all(isinstance(p, str) and p in names for p in policy):
            return "policy"
    else:
        return "policy"
    threads = kwargs.get("threads")
    if threads is not None and in_range(threads, 1, 256) is None:
        return "threads"
    progress = kwargs.get("progress")
    if progress is not None and not callable(progress):
        return "progress"
    return None


SMALL_CONFIGS = [c for c in ALL_CONFIGS if c[1]["set"] <= 9]


def target_simulate(data: bytes) -> None:
    ref, core = implementations()
    d = Bytes(data)
    config = d.choice(SMALL_CONFIGS)
    rules = _rules(ref, config)
    kwargs: Dict[str, Any] = {}
    mode = d.range(0, 3)
    small = d.range(0, 2)
    if mode in (0, 2):
        kwargs["rounds"] = small if d.range(0, 3) else d.value()
    if mode in (1, 2):
        kwargs["matches"] = min(small, 1) if d.range(0, 3) else d.value()
    if d.flag():
        kwargs["seed"] = d.value() if d.flag() else d.range(0, MAX_SEED)
    if d.flag():
        kwargs["round_index"] = d.value() if d.flag() else d.range(0, rules.set + 1)
    if d.flag():
        kwargs["policy"] = d.choice(
            ["random", "greedy", "Random", "", None, ("greedy",) * rules.players, ["random"] * rules.players,
             ["random"] * (rules.players + 1), {"random"}, b"random", ("random", 1), d.value()]
        )  # fmt: skip
    if d.flag():
        kwargs["threads"] = d.choice([None, 1, 2, 256, 257, 0, -1, True, 1.0, "2", d.value()])
    if d.flag():
        kwargs["progress"] = d.choice([None, print, 1, "x", lambda done, total: None])
    if "progress" in kwargs and kwargs["progress"] is print:
        kwargs["progress"] = lambda done, total: None
    # Keep the work tiny: a valid count is 0..2 rounds or 0..1 match.
    for key, top in (("rounds", 2), ("matches", 1)):
        n = in_range(kwargs.get(key), 0, 2**40)
        if n is not None and n > top:
            return
    call = f"simulate({rules!r}, {', '.join(f'{k}={short(v)}' for k, v in kwargs.items())})"
    why = _expected_simulate_error(rules, kwargs)
    outs = {
        name: outcome(dc.simulate, _rules(dc, config), **kwargs) for name, dc in (("reference", ref), ("core", core))
    }
    for name, out in outs.items():
        if why is not None:
            expect_error(out, (ref.RulesError,), f"{name} {call} (bad {why})")
        elif not out.ok:
            raise Violation(f"{name} {call} raised {out!r}; the arguments are valid")
    expect_same(outs["reference"], outs["core"], call)
    if why is None:
        a, b = outs["reference"].value, outs["core"].value
        for field in ("points", "out_seat", "starter", "moves", "match_index", "totals", "winners"):
            x, y = np.asarray(getattr(a, field)).tolist(), np.asarray(getattr(b, field)).tolist()
            require(x == y, f"{call}: {field} differs: {short(x)} vs {short(y)}")
        require((np.asarray(a.reason == "out")).tolist() == (np.asarray(b.reason == "out")).tolist(), f"{call}: reason")


# --------------------------------------------------------------------------- 5: constructors


INT_OPTIONS = ("players", "set", "hand_size", "trains", "target", "max_rounds", "teams", "reserve")
#: Each game's rules options (the keyword parameters of its rules class).
RULES_OPTIONS = {
    "chickenfoot": ["players", "set", "rule_set", "hand_size", "trains", "double_blank_50"],
    "doubles": ["players", "set", "hand_size", "target", "max_rounds"],
    "block": ["players", "set", "hand_size", "target", "max_rounds", "lead", "teams", "team_scoring"],
    "mexican_train": ["players", "set", "hand_size", "drawn_tile", "double_blank_50"],
    "all_fives": ["players", "set", "hand_size", "reserve", "draw", "spinner", "sides_open", "out_points", "target",
                  "end_in_play", "max_rounds", "teams"],
    "fives_and_threes": ["players", "set", "hand_size", "reserve", "draw", "spinner", "sides_open", "out_points",
                         "target", "end_in_play", "max_rounds", "teams"],
}  # fmt: skip
#: The options whose values are names, and the names they accept.
STRING_OPTIONS = {
    "lead": ["winner", "highest_double", "puerto_rico"],
    "drawn_tile": ["must", "may"],
    "team_scoring": ["all_pips", "fewer_pips"],
    "draw": ["until_playable", "one"],
    "spinner": ["first", "none"],
    "sides_open": ["after_ends", "at_once"],
    "out_points": ["nearest_five", "exact", "one"],
}


def target_constructors(data: bytes) -> None:
    ref, core = implementations()
    d = Bytes(data)
    what = d.range(0, 4)
    if what <= 1:  # rules objects: an integer in any form acts as the plain int; anything else is RulesError
        game = d.choice(sorted(RULES_OPTIONS))
        options = RULES_OPTIONS[game]
        kwargs: Dict[str, Any] = {}
        for option in options:
            if d.range(0, 2) == 0:
                continue
            if option == "rule_set":
                kwargs[option] = d.choice(["trains", "cross", "Trains", None, 1, "mexican"])
            elif option in STRING_OPTIONS:
                kwargs[option] = d.choice([*STRING_OPTIONS[option], None, 1, "", "MUST"])
            elif option in ("double_blank_50", "end_in_play"):
                kwargs[option] = d.choice([True, False, None, 1, 0, "yes", np.bool_(True)])
            elif d.range(0, 3) == 0:
                kwargs[option] = d.value()
            else:
                kwargs[option] = d.range(0, 25) if option != "target" else d.choice([0, 1, 100, 10**6, 10**6 + 1])
        cls = type(ref.rules_from_dict({"game": game}))
        call = f"{cls.__name__}({', '.join(f'{k}={short(v)}' for k, v in kwargs.items())})"
        out = outcome(cls, **kwargs)
        if not out.ok:
            expect_error(out, (ref.RulesError,), call)
        plain = {}
        for k, v in kwargs.items():
            if k in INT_OPTIONS and v is not None:
                n = as_index(v)
                if n is None:
                    expect_error(out, (ref.RulesError,), call + f" ({k} is not an integer)")
                    return
                plain[k] = n
            else:
                plain[k] = v
        again = outcome(cls, **plain)
        require(out.key() == again.key(), f"{call} -> {out!r}, but with plain ints -> {again!r}")
        if out.ok:
            require(out.value == again.value, f"{call} differs from its plain-int twin")
            rec = out.value.to_dict()
            require(all(type(v) in (int, str, bool) for v in rec.values()), f"{call}.to_dict() = {rec}")
            # the core accepts the same rules object, and deals the same round
            rounds = {name: outcome(dc.Round, out.value, seed=1) for name, dc in (("reference", ref), ("core", core))}
            expect_same(rounds["reference"], rounds["core"], f"Round({call}, seed=1)")
            if rounds["reference"].ok:
                require(rounds["reference"].value.to_dict() == rounds["core"].value.to_dict(), f"Round({call})")
        return
    config = d.choice(ALL_CONFIGS)
    rules = _rules(ref, config)
    if what == 2:  # Round(rules, seed, round_index)
        seed = d.value() if d.flag() else d.range(0, MAX_SEED)
        index = d.value() if d.flag() else d.range(0, rules.set + 1)
        call = f"Round({rules!r}, seed={short(seed)}, round_index={short(index)})"
        top = rules.set if rules.rounds is not None else 2**31 - 1  # a round per start double, else any index
        ok = in_range(seed, 0, MAX_SEED) is not None and in_range(index, 0, top) is not None
        outs = {
            name: outcome(dc.Round, _rules(dc, config), seed, index)
            for name, dc in (("reference", ref), ("core", core))
        }
        for name, out in outs.items():
            if not ok:
                expect_error(out, (ref.RulesError,), f"{name} {call}")
            else:
                require(out.ok, f"{name} {call} -> {out!r}; the arguments are valid")
        expect_same(outs["reference"], outs["core"], call)
        if ok:
            plain = ref.Round(rules, as_index(seed), as_index(index)).to_dict()
            for name, out in outs.items():
                require(out.value.to_dict() == plain, f"{name} {call} deals another round than with plain ints")
        return
    if what == 3:  # SplitMix64(seed).below(n), RandomPlayer(seed)
        seed = d.value() if d.flag() else d.range(0, MAX_SEED)
        n = d.value() if d.flag() else d.range(0, 100)
        ok_seed = in_range(seed, 0, MAX_SEED) is not None
        for cls_name in ("SplitMix64", "RandomPlayer"):
            outs = {name: outcome(getattr(dc, cls_name), seed) for name, dc in (("reference", ref), ("core", core))}
            call = f"{cls_name}({short(seed)})"
            for name, out in outs.items():
                if ok_seed:
                    require(out.ok, f"{name} {call} -> {out!r}")
                else:
                    expect_error(out, (ref.RulesError,), f"{name} {call}")
            expect_same(outs["reference"], outs["core"], call)
            if cls_name == "SplitMix64" and ok_seed:
                below = {name: outcome(out.value.below, n) for name, out in outs.items()}
                bcall = f"SplitMix64({short(seed)}).below({short(n)})"
                for name, out in below.items():
                    if in_range(n, 1, MAX_SEED) is None:
                        expect_error(out, (ref.RulesError,), f"{name} {bcall}")
                    else:
                        require(out.ok, f"{name} {bcall} -> {out!r}")
                expect_same(below["reference"], below["core"], bcall)
                require(below["reference"].value == below["core"].value, f"{bcall}: {below}")
        return
    # what == 4: seats and the Match constructor
    value = d.value()
    seat = in_range(value, 0, rules.players - 1)
    for name, dc in (("reference", ref), ("core", core)):
        r = dc.Round(_rules(dc, config), seed=3)
        for method in ("hand", "pips"):
            out = outcome(getattr(r, method), value)
            call = f"{name} {method}({short(value)})"
            if seat is None:
                expect_error(out, (ref.RulesError,), call)
            else:
                require(out.ok, f"{call} -> {out!r}")
        out = outcome(dc.Match, _rules(dc, config), value)
        call = f"{name} Match({rules!r}, seed={short(value)})"
        if in_range(value, 0, MAX_SEED) is None:
            expect_error(out, (ref.RulesError,), call)
        else:
            require(out.ok, f"{call} -> {out!r}")


TARGETS = [target_record, target_text, target_program, target_simulate, target_pickle, target_constructors]
