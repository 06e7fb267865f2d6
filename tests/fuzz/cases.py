"""Mutation cases and their checks, shared by test_mutations.py and the atheris target.

Every case is named by its kind and an integer seed, and is rebuilt from
them alone: a finding is reproduced with

    python tests/fuzz/cases.py record SEED      # or text, pickle
    python tests/fuzz/cases.py record SEED -v   # and print the mutated input

which runs the same check and prints the violation (or "ok").
"""

from __future__ import annotations

import functools
import io
import json
import pickle
import pickletools
import random
import sys
from typing import Any, Dict, List, Optional, Tuple

from contract import (
    Violation,
    expect_error,
    expect_same,
    implementations,
    move_fields,
    outcome,
    parse_move_text,
    parse_tile_text,
    require,
    short,
)
from mutate import Mutator
from strategies import ALL_CONFIGS, make_rules, played_round

MUTATIONS_PER_CASE = (1, 3)


def _driver():
    """The implementation that plays the base rounds (the core: faster; records are identical)."""
    ref, core = implementations()
    return core


@functools.lru_cache(maxsize=None)
def base_rounds() -> Tuple[Any, ...]:
    """A fixed pool of rounds (and so records): every configuration, at the
    deal, a few moves in, and further (some to the end)."""
    dc = _driver()
    out = []
    for i, config in enumerate(ALL_CONFIGS):
        rules = make_rules(dc, config)
        for j, depth in enumerate((0, 6, 25, 400)):
            out.append(played_round(dc, rules, 1000 * i + j, depth))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def base_records() -> Tuple[Dict[str, Any], ...]:
    # the long ones are costly to replay in the reference: keep 1 in 4 of them
    return tuple(r.to_dict() for r in base_rounds())


@functools.lru_cache(maxsize=None)
def base_texts() -> Tuple[str, ...]:
    texts = {"draw", "pass", "DRAW", " Pass\t", "0-0@0", "18-18@4095", "9-2@0", " 2 - 9 @ 0 ", "02-9@0000"}
    for r in base_rounds()[::3]:
        texts.update(str(m) for m in r.legal_moves())
        texts.update(str(m) for m in r.move_stack[:5])
    return tuple(sorted(texts))


# --------------------------------------------------------------------------- records


def record_case(seed: int) -> Tuple[str, Any]:
    """(description, mutated record) of case ``seed``."""
    records = base_records()
    rng = random.Random(seed)
    k = rng.randrange(len(records))
    if len(records[k]["moves"]) > 60 and rng.random() < 0.75:  # long replays are slow in the reference
        k = rng.randrange(len(records))
    return f"Mutator({seed}).record(base_records()[{k}])", Mutator(seed).record(records[k])


def check_record(record: Any, what: str = "from_dict") -> str:
    """``Round.from_dict(record)``: a round that round-trips, or StateError;
    both implementations alike. Returns "accepted" or "rejected"."""
    import copy

    ref, core = implementations()
    outs = {}
    for name, dc in (("reference", ref), ("core", core)):
        try:
            mine = copy.deepcopy(record)
        except Exception:  # noqa: BLE001 - an object deepcopy cannot copy: share it
            mine = record
        outs[name] = outcome(dc.Round.from_dict, mine)
        if not outs[name].ok:
            expect_error(outs[name], (ref.StateError,), f"{name} {what}")
    expect_same(outs["reference"], outs["core"], what)
    if not outs["reference"].ok:
        return "rejected"
    rounds = {name: out.value for name, out in outs.items()}
    check_round_trips(rounds, what)
    return "accepted"


def check_round_trips(rounds: Dict[str, Any], what: str) -> None:
    """Accepted rounds: equal across implementations, JSON-able, and their records reload equal."""
    from helpers import observe

    records = {}
    for name, r in rounds.items():
        rec = r.to_dict()
        require(json.loads(json.dumps(rec)) == rec, f"{what}: the {name} round's to_dict() is not plain JSON data")
        again = outcome(type(r).from_dict, rec)
        require(again.ok, f"{what}: the {name} round's own record does not reload: {again!r}")
        require(again.value.to_dict() == rec, f"{what}: the {name} round's record does not round-trip")
        records[name] = rec
    require(records["reference"] == records["core"], f"{what}: the implementations load different rounds")
    seen = {name: observe(r) for name, r in rounds.items()}
    require(seen["reference"] == seen["core"], f"{what}: the loaded rounds differ")


# --------------------------------------------------------------------------- move texts


def text_case(seed: int) -> Tuple[str, str]:
    texts = base_texts()
    rng = random.Random(seed)
    base = texts[rng.randrange(len(texts))]
    return f"Mutator({seed}).text({base!r})", Mutator(seed).text(base)


@functools.lru_cache(maxsize=None)
def _text_rounds():
    ref, core = implementations()
    # a round where many well-formed texts are legal or nearly: the start of a trains round
    return {name: dc.Round(dc.ChickenFoot(players=4), seed=7) for name, dc in (("reference", ref), ("core", core))}


def check_text(text: Any) -> str:
    """Move.parse / Tile.parse / push of ``text``: the grammar of
    docs/validation.md, only ParseError (or IllegalMoveError for a
    well-formed move), both implementations alike."""
    ref, core = implementations()
    expected = parse_move_text(text)
    outs = {name: outcome(dc.Move.parse, text) for name, dc in (("reference", ref), ("core", core))}
    call = f"Move.parse({short(text)})"
    for name, out in outs.items():
        if expected is None:
            expect_error(out, (ref.ParseError,), f"{name} {call} (not in the grammar)")
        else:
            require(out.ok, f"{name} {call} raised {out!r} but the text is in the grammar")
            require(move_fields(out.value) == expected, f"{name} {call} -> {out.value}, the grammar says {expected}")
            again = outcome(type(out.value).parse, str(out.value))
            require(again.ok and again.value == out.value, f"{name} {call}: str() does not re-parse: {again!r}")
    expect_same(outs["reference"], outs["core"], call)

    tile_expected = parse_tile_text(text)
    tiles = {name: outcome(dc.Tile.parse, text) for name, dc in (("reference", ref), ("core", core))}
    for name, out in tiles.items():
        tcall = f"{name} Tile.parse({short(text)})"
        if tile_expected is None:
            expect_error(out, (ref.ParseError,), tcall + " (not in the grammar)")
        else:
            require(out.ok and (out.value.low, out.value.high) == tile_expected, f"{tcall} -> {out!r}")

    pushes = {}
    for name, r in _text_rounds().items():
        pushes[name] = outcome(r.push, text)
        if pushes[name].ok:
            r.pop()
        elif expected is None:
            expect_error(pushes[name], (ref.ParseError,), f"{name} push({short(text)})")
        else:
            expect_error(pushes[name], (ref.IllegalMoveError,), f"{name} push({short(text)}) (well formed)")
    expect_same(pushes["reference"], pushes["core"], f"push({short(text)})")
    return "accepted" if expected is not None else "rejected"


# --------------------------------------------------------------------------- pickles

#: The dominocore names a pickle may reference (anything else is refused, see ``SafeUnpickler``).
ALLOWED = frozenset(
    """Round Match ChickenFoot Doubles rules_from_dict Tile Move End Placement RoundResult SplitMix64
    RandomPlayer GreedyPlayer DominoError RulesError ParseError StateError IllegalMoveError""".split()
)
#: Names rebound to the implementation under test (the rest are shared value types).
PER_IMPLEMENTATION = frozenset(["Round", "Match", "SplitMix64", "RandomPlayer", "GreedyPlayer"])
#: Methods a pickle may fetch with builtins.getattr (a Round pickles as getattr(Round, "from_dict")).
GETATTR_NAMES = frozenset(["from_dict", "from_deal", "_from_state", "_restore"])
#: Opcodes that index the memo: a flipped byte can make the index huge, and the
#: C unpickler then allocates (and clears) a memo of that size.
MEMO_OPS = frozenset(["PUT", "BINPUT", "LONG_BINPUT", "GET", "BINGET", "LONG_BINGET"])


class Unsafe(Exception):
    """A blob this harness will not load."""


class DominoCall(Exception):
    """An exception raised inside a dominocore callable during unpickling (wrapped to tell it apart)."""

    def __init__(self, callee: str, inner: BaseException) -> None:
        super().__init__(callee, inner)
        self.callee = callee
        self.inner = inner


def scan(blob: bytes) -> None:
    """Refuse blobs that the pickle VM would not read to the end, or whose memo indices are huge."""
    import warnings

    try:
        with warnings.catch_warnings():  # protocol 0 STRING payloads: "invalid escape sequence" noise
            warnings.simplefilter("ignore", DeprecationWarning)
            ops = list(pickletools.genops(blob))
        for op, arg, _pos in ops:
            if op.name in MEMO_OPS and isinstance(arg, int) and not 0 <= arg < 10_000:
                raise Unsafe(f"memo index {arg}")
            if op.name == "FRAME" and arg > len(blob):
                raise Unsafe("frame longer than the blob")
    except Unsafe:
        raise
    except Exception as exc:  # noqa: BLE001 - not a complete pickle
        raise Unsafe(f"not a pickle: {type(exc).__name__}") from None


def _guard(callee: str, fn: Any) -> Any:
    """``fn`` with its exceptions wrapped in ``DominoCall`` (a wrong call
    signature is the pickle's fault, not dominocore's: left unwrapped)."""
    import inspect

    try:
        signature: Optional[inspect.Signature] = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None

    def call(*args: Any, **kwargs: Any) -> Any:
        if signature is not None:
            try:
                signature.bind(*args, **kwargs)
            except TypeError:
                raise
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            raise DominoCall(callee, exc) from None

    call.__name__ = callee
    return call


class SafeUnpickler(pickle.Unpickler):
    """``pickle.loads`` limited to dominocore's own reduce paths: the only
    globals it resolves are the dominocore names of ``ALLOWED`` (rebound to
    the implementation under test) and ``builtins.getattr`` on them for the
    names of ``GETATTR_NAMES`` (and ``copyreg._reconstructor`` of those
    classes, for protocols 0 and 1). A flipped byte in a pickle can name any
    callable (``os.system``); unpickling such a blob is unsafe whatever
    dominocore does, and outside its contract."""

    def __init__(self, blob: bytes, dc: Any) -> None:
        super().__init__(io.BytesIO(blob))
        self.dc = dc

    def find_class(self, module: str, name: str) -> Any:
        module = {"__builtin__": "builtins", "copy_reg": "copyreg"}.get(module, module)  # protocols 0-2
        if module == "builtins" and name == "getattr":
            return self._getattr
        if module == "builtins" and name in ("tuple", "object"):
            return {"tuple": tuple, "object": object}[name]
        if module == "copyreg" and name == "_reconstructor":
            return self._reconstructor
        if (module == "dominocore" or module.startswith("dominocore.")) and name in ALLOWED:
            target = getattr(self.dc, name, None)
            if target is None:
                raise Unsafe(f"{self.dc.__name__} has no {name}")
            return target if isinstance(target, type) else _guard(name, target)
        raise Unsafe(f"refused global {module}.{name}")

    def _reconstructor(self, cls: Any, base: Any, state: Any) -> Any:
        import copyreg

        if not (isinstance(cls, type) and cls.__name__ in ALLOWED and base in (object, tuple)):
            raise Unsafe(f"refused _reconstructor({short(cls)}, {short(base)})")
        return _guard(f"{cls.__name__}._reconstructor", copyreg._reconstructor)(cls, base, state)

    def _getattr(self, obj: Any, name: Any, *default: Any) -> Any:
        if not (isinstance(obj, type) and obj.__name__ in ALLOWED and name in GETATTR_NAMES):
            raise Unsafe(f"refused getattr({short(obj)}, {short(name)})")
        return _guard(f"{obj.__name__}.{name}", getattr(obj, name))


def safe_loads(blob: bytes, dc: Any) -> Any:
    scan(blob)
    return SafeUnpickler(blob, dc).load()


@functools.lru_cache(maxsize=None)
def base_pickles() -> Tuple[bytes, ...]:
    """Pickles (every protocol) of rounds from the pool, and of the other public objects."""
    ref, core = implementations()
    blobs: List[bytes] = []
    rounds = base_rounds()
    objects: List[Any] = [rounds[i] for i in range(0, len(rounds), 5)]
    objects += [ref.Round.from_dict(r.to_dict()) for r in rounds[1::9]]
    objects += [ref.ChickenFoot(players=3, rule_set="cross"), ref.Doubles(), ref.Tile(2, 9), ref.Move.draw()]
    objects += [ref.Move.place("2-9", 3)]
    for obj in objects:
        for protocol in range(0, pickle.HIGHEST_PROTOCOL + 1):
            blobs.append(pickle.dumps(obj, protocol=protocol))
    return tuple(blobs)


def pickle_case(seed: int) -> Tuple[str, bytes]:
    blobs = base_pickles()
    rng = random.Random(seed)
    k = rng.randrange(len(blobs))
    return f"Mutator({seed}).pickle_bytes(base_pickles()[{k}])", Mutator(seed).pickle_bytes(blobs[k])


def _load(blob: bytes, dc: Any) -> Tuple[str, Any]:
    """("loaded", obj) | ("domino", DominoCall) | ("pickle", exception class) | ("unsafe", reason)."""
    try:
        return "loaded", safe_loads(blob, dc)
    except Unsafe as exc:
        return "unsafe", str(exc)
    except DominoCall as exc:
        return "domino", exc
    except RecursionError:
        return "pickle", RecursionError
    except Exception as exc:  # noqa: BLE001 - the pickle VM's own errors on a corrupt blob
        return "pickle", type(exc)


def _comparable(x: Any) -> Any:
    """``x`` with each implementation's own objects replaced by what both share:
    classes and functions by their name, rounds by their record."""
    if type(x).__name__ == "Round":
        return ("Round", x.to_dict())
    if callable(x):
        return ("callable", getattr(x, "__name__", None))
    if type(x) in (tuple, list):
        return type(x)(_comparable(v) for v in x)
    if type(x) is dict:
        return {k: _comparable(v) for k, v in x.items()}
    return x


def check_pickle(blob: bytes, what: str = "pickle") -> str:
    """A corrupted pickle: the pickle VM may reject it (its business), but
    what dominocore's reduce path raises is documented (``from_dict``:
    StateError; other constructors: a DominoError), what it returns is a
    sound object, and both implementations do the same."""
    ref, core = implementations()
    results = {name: _load(blob, dc) for name, dc in (("reference", ref), ("core", core))}
    kinds = {name: res[0] for name, res in results.items()}
    if "unsafe" in kinds.values():
        return "unsafe"
    for name, (kind, value) in results.items():
        if kind == "domino":
            inner = value.inner
            allowed = (ref.StateError,) if value.callee.endswith(".from_dict") else (ref.DominoError,)
            require(
                isinstance(inner, allowed),
                f"{what}: unpickling with the {name} called {value.callee}, which raised "
                f"{type(inner).__name__}: {short(str(inner), 150)} (the contract allows {allowed[0].__name__})",
            )
    require(kinds["reference"] == kinds["core"], f"{what}: the implementations disagree: {short(results, 400)}")
    kind = kinds["reference"]
    if kind == "domino":
        a, b = (type(results[n][1].inner) for n in ("reference", "core"))
        require(a is b, f"{what}: reference raised {a.__name__}, core {b.__name__}")
    elif kind == "pickle":
        require(results["reference"][1] is results["core"][1], f"{what}: {short(results, 400)}")
    elif kind == "loaded":
        a, b = results["reference"][1], results["core"][1]
        rounds = {"reference": a, "core": b}
        if type(a).__name__ == "Round":
            check_round_trips(rounds, what)
        else:
            # A pickle cut short can stop on anything on its stack: a class, a
            # (guarded) method, or a tuple of them. Each implementation loads
            # its own, so they are compared by name (and rounds by record).
            a, b = _comparable(a), _comparable(b)
            require(type(a).__name__ == type(b).__name__, f"{what}: {short(a)} vs {short(b)}")
            same = outcome(lambda: a == b)
            require(same.ok, f"{what}: comparing the loaded objects raised {same!r}")
            # (a NaN, alone or in a tuple, is unequal to itself: its repr is not)
            if type(a) is type(b):
                require(same.value or repr(a) == repr(b), f"{what}: loaded {short(a)} and {short(b)}")
    return kind


# --------------------------------------------------------------------------- the command line


def main(argv: List[str]) -> int:  # pragma: no cover - a reproduction aid
    kind, seed = argv[0], int(argv[1])
    verbose = "-v" in argv
    builder, checker = {
        "record": (record_case, check_record),
        "text": (text_case, check_text),
        "pickle": (pickle_case, check_pickle),
    }[kind]
    what, value = builder(seed)
    if verbose:
        print(what)
        print(short(value, 5000))
    try:
        print(checker(value))
    except Violation as exc:
        print(f"VIOLATION ({what}): {exc}")
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [here, os.path.dirname(here)]
    sys.exit(main(sys.argv[1:]))
