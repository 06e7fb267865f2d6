#!/usr/bin/env python
"""Coverage-guided fuzzing of dominocore with atheris (libFuzzer for Python).

    python tests/fuzz/atheris_target.py -atheris_runs=20000            # in memory
    python tests/fuzz/atheris_target.py --write-seeds CORPUS           # seed a corpus folder
    python tests/fuzz/atheris_target.py CORPUS -max_total_time=3600    # grow it (see docs/fuzzing.md)
    python tests/fuzz/atheris_target.py crash-1234abcd                 # replay one input

dominocore's Python code (the reference and the wrapper of the core) is
instrumented for coverage; the compiled core runs as built (a crash there is
caught by libFuzzer's signal handlers all the same). The first byte of an
input picks a target, the rest is its data:

0. a JSON round record -> ``Round.from_dict`` (cases.check_record)
1. a move text -> ``Move.parse``, ``Tile.parse``, ``push`` (cases.check_text)
2. a program of calls on a round: push texts and moves, ``apply_action`` /
   ``action_to_move`` with ints of any size and type, ``player=``, ``pop``,
   clones, records, bots; both implementations in lock step
3. ``simulate`` arguments (tiny counts) against the argument table
4. pickle bytes (cases.check_pickle: only dominocore's reduce paths are loaded)
5. rules and round constructor arguments against the argument table

Whatever the target, the contract of docs/validation.md is asserted: only the
documented exceptions, nothing changed by a rejected call, both
implementations alike. A violation is an uncaught ``contract.Violation``:
libFuzzer stops and writes the input to ``crash-<sha1>``.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

TARGETS = 6


def _write_seeds(folder: str) -> None:
    """A starting corpus: records, texts, programs, argument sets, pickles."""
    import pickle

    import cases

    os.makedirs(folder, exist_ok=True)
    seeds = []
    for rec in cases.base_records()[::4]:
        seeds.append(bytes([0]) + json.dumps(rec).encode())
    for text in cases.base_texts()[::4]:
        seeds.append(bytes([1]) + text.encode())
    for i in range(16):
        seeds.append(bytes([2, i]) + os.urandom(48))
        seeds.append(bytes([3, i]) + os.urandom(24))
        seeds.append(bytes([5, i]) + os.urandom(24))
    for blob in cases.base_pickles()[::6]:
        seeds.append(bytes([4]) + blob)
    seeds.append(bytes([4]) + pickle.dumps(cases.base_rounds()[0]))
    for k, seed in enumerate(seeds):
        with open(os.path.join(folder, f"seed-{k:04d}"), "wb") as out:
            out.write(seed)
    print(f"wrote {len(seeds)} seeds to {folder}")


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--write-seeds":
        _write_seeds(sys.argv[2])
        return

    import atheris

    with atheris.instrument_imports(include=["dominocore"]):
        import dominocore.native  # noqa: F401
        import dominocore.reference  # noqa: F401
    import program

    atheris.Setup(sys.argv, program.test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
