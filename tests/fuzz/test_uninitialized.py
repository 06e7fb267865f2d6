"""Objects whose ``__init__`` never ran (``Round.__new__(Round)``): every
method and property, with a few arguments, in a child process.

docs/validation.md: such a call raises ``TypeError`` (or, for a bad
argument, that argument's documented error) and never crashes the
interpreter. A child that dies (a segfault, ``std::terminate``) is reported
with the call that killed it, and the sweep goes on in a new child from the
next call. Reproduce one call with
``python tests/fuzz/test_uninitialized.py INDEX``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

CLASSES = ["Round", "Match", "SplitMix64", "RandomPlayer", "GreedyPlayer", "ChickenFoot", "Doubles"]
ARGS = [(), (0,), ("draw",), ({},), (None,), (2,)]
DUNDERS = {"__repr__", "__str__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__eq__"}
#: Calls that read or change the state: an uninitialized object must refuse them (TypeError), not invent a state.
STATEFUL = {
    "Round": {"pop", "legal_moves", "legal_actions", "legal_action_mask", "to_dict", "clone", "current_player", "yard"},
    "Match": {"play", "new_round", "totals", "rounds"},
    "SplitMix64": {"next"},
}
EXTRA = ["pickle.dumps", "copy.copy", "copy.deepcopy"]


def calls():
    """Every (implementation, class, attribute, args) to try, in a fixed order."""
    import dominocore.native as core
    import dominocore.reference as ref

    out = []
    for impl, module in (("reference", ref), ("core", core)):
        for name in CLASSES:
            cls = getattr(module, name)
            for attr in sorted(dir(cls)):
                if attr.startswith("__") and attr not in DUNDERS:
                    continue
                if attr.startswith("_") and not attr.startswith("__"):
                    continue  # private: not part of the contract
                static = cls.__dict__.get(attr) if attr in cls.__dict__ else None
                if isinstance(static, (classmethod, staticmethod, type)) or attr in ("from_dict", "from_deal", "parse"):
                    continue
                descriptor = getattr(cls, attr, None)
                if isinstance(descriptor, property) or not callable(descriptor):
                    out.append((impl, name, attr, None))
                else:
                    out.extend((impl, name, attr, args) for args in ARGS)
            out.extend((impl, name, extra, ()) for extra in EXTRA)
    return out


def run_one(index: int) -> dict:
    """Make call ``index`` on a fresh uninitialized object; describe the outcome."""
    import copy
    import pickle

    import dominocore.native as core
    import dominocore.reference as ref

    impl, name, attr, args = calls()[index]
    module = ref if impl == "reference" else core
    cls = getattr(module, name)
    obj = cls.__new__(cls)
    try:
        if attr in EXTRA:
            {"pickle.dumps": pickle.dumps, "copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy}[attr](obj)
        elif args is None:
            getattr(obj, attr)
        else:
            getattr(obj, attr)(*args)
    except Exception as exc:  # noqa: BLE001
        domino = isinstance(exc, ref.DominoError)
        return {"outcome": type(exc).__name__, "domino": domino, "message": str(exc)[:120]}
    return {"outcome": "ok"}


def child(start: int) -> None:
    """Run calls from ``start`` on, one JSON line each (the parent reads them)."""
    for index in range(start, len(calls())):
        print(json.dumps({"start": index}), flush=True)
        print(json.dumps({"index": index, **run_one(index)}), flush=True)


def describe(index: int, all_calls) -> str:
    impl, name, attr, args = all_calls[index]
    call = attr if args is None else f"{attr}{args!r}" if attr not in EXTRA else f"{attr}(obj)"
    return f"{impl} {name}.__new__({name}).{call}" if attr not in EXTRA else f"{impl} {attr}({name}.__new__({name}))"


def violation(index: int, result: dict, all_calls) -> str:
    impl, name, attr, args = all_calls[index]
    outcome = result["outcome"]
    if outcome == "TypeError":
        return ""
    if outcome == "ok":  # copying or pickling an empty object, or a stateless bot, may work
        if attr in STATEFUL.get(name, ()):
            return f"{describe(index, all_calls)} succeeded: an uninitialized object must raise TypeError"
        return ""
    if result.get("domino") and args:
        return ""  # the argument's own documented error
    return f"{describe(index, all_calls)} raised {outcome}: {result.get('message', '')} (the contract wants TypeError)"


def test_uninitialized_objects_raise_type_error_and_never_crash():
    try:
        all_calls = calls()
    except ImportError as exc:  # pragma: no cover
        pytest.skip(f"needs both implementations: {exc}")
    problems = []
    start = 0
    here = os.path.abspath(__file__)
    while start < len(all_calls):
        proc = subprocess.run(
            [sys.executable, here, "--child", str(start)], capture_output=True, text=True, timeout=600
        )
        last_started = start
        for line in proc.stdout.splitlines():
            record = json.loads(line)
            if "start" in record:
                last_started = record["start"]
                continue
            problem = violation(record["index"], record, all_calls)
            if problem:
                problems.append(problem)
        if proc.returncode == 0:
            break
        error = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        problems.append(
            f"CRASH (exit {proc.returncode}): {describe(last_started, all_calls)} killed the interpreter: {error}"
            f"  [python tests/fuzz/test_uninitialized.py {last_started}]"
        )
        start = last_started + 1
    # one line per (implementation, class, outcome), with a count: the sweep is repetitive
    groups = {}
    for problem in problems:
        words = problem.split()
        key = (words[0], words[1].split(".")[0], problem.split(" raised ")[-1].split(":")[0][:40])
        groups.setdefault(key, []).append(problem)
    lines = [
        f"{group[0]}" + (f"  (and {len(group) - 1} more like it)" if len(group) > 1 else "")
        for group in groups.values()
    ]
    assert not problems, f"{len(problems)} contract violation(s):\n" + "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(int(sys.argv[2]))
    else:  # reproduce one call in this process
        i = int(sys.argv[1])
        print(describe(i, calls()))
        print(run_one(i))
