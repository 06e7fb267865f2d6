"""The atheris target: a short coverage-guided run in a subprocess, and its
byte-driven targets replayed on seeded random inputs (no atheris needed).

The long run is in docs/fuzzing.md.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from helpers import scaled

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "atheris_target.py")
#: Seconds of coverage-guided fuzzing in the default run (``--large``: 10 minutes).
SECONDS = scaled(12, 600, "DOMINOCORE_FUZZ_ATHERIS_SECONDS")
REPLAYS = scaled(300, 20_000, "DOMINOCORE_FUZZ_REPLAYS")

try:
    import dominocore.native  # noqa: F401
    import program
except ImportError as exc:  # pragma: no cover - the core is being rebuilt, or missing
    pytest.skip(f"the fuzz targets need both implementations: {exc}", allow_module_level=True)


@pytest.mark.parametrize("target", range(len(program.TARGETS)))
def test_the_targets_hold_on_seeded_random_inputs(target):
    """Each target on random bytes (seeded: ``Random(target * 10**6 + i)``)."""
    for i in range(REPLAYS // len(program.TARGETS) + 1):
        rng = random.Random(target * 10**6 + i)
        data = bytes([target]) + rng.randbytes(rng.choice([4, 16, 64, 256]))
        try:
            program.test_one_input(data)
        except AssertionError as exc:
            pytest.fail(f"program.test_one_input({data!r}):\n{exc}", pytrace=False)


#: Inputs coverage-guided runs stopped on, replayed on every run.
FOUND = [
    # A pickle cut short after ``getattr(Round, "from_dict")``: it loads the
    # method itself (a harness bug: the check compared two functions by identity).
    b"\x04c__builtin__\ngetattr\np0\n(cdominocore._native\nRound\np1\nVfrom_dict\np2\ntp3\nR.",
    # ... and a pickle of the class alone.
    b"\x04cdominocore._native\nRound\np1\n.",
    # A Move rebuilt by copyreg._reconstructor with one field: its repr raises,
    # and the harness printed it even when the implementations agreed.
    b"\x04ccopy_reg\n_reconstructor\nq\x00(cdominocore.common.moves\nMove\nq\x01c__builtin__\ntuple\nq\x02"
    b"(X\x04\x00\x00\x00draNNtq\x04tq\x05Rq\x06.",
    # A pickle stopped before its reduce: it loads the tuple (Round, "from_dict"),
    # each implementation's own class inside (the check compared them by identity).
    b"\x04c__builtin__\ngetattr\np0\n(cdominocore._native\nRound\np1\nVfrom_dict\np2\ntp3\n.",
]


@pytest.mark.parametrize("data", FOUND)
def test_the_inputs_found_before_hold(data):
    program.test_one_input(data)


def test_the_targets_hold_on_the_seed_corpus(tmp_path):
    subprocess.run([sys.executable, TARGET, "--write-seeds", str(tmp_path)], check=True, capture_output=True)
    for path in sorted(tmp_path.iterdir()):
        data = path.read_bytes()
        try:
            program.test_one_input(data)
        except AssertionError as exc:
            pytest.fail(f"seed {path.name} ({data[:60]!r}...):\n{exc}", pytrace=False)


def test_a_short_coverage_guided_run(tmp_path):
    try:
        import atheris  # noqa: F401
    except ImportError:
        pytest.skip("atheris is not installed (pip install atheris): the coverage-guided run is skipped")
    corpus = tmp_path / "corpus"
    subprocess.run([sys.executable, TARGET, "--write-seeds", str(corpus)], check=True, capture_output=True)
    cmd = [
        sys.executable, TARGET, str(corpus), f"-max_total_time={SECONDS}", "-atheris_runs=10000000",
        "-seed=1", "-timeout=60", "-rss_limit_mb=4096", f"-artifact_prefix={tmp_path}/", "-print_final_stats=1",
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=SECONDS + 300, cwd=tmp_path)
    output = proc.stdout + proc.stderr
    crashes = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-")))
    if proc.returncode != 0 or crashes:
        tail = "\n".join(output.splitlines()[-60:])
        inputs = "\n".join(f"  {name}: {(tmp_path / name).read_bytes()[:300]!r}" for name in crashes)
        pytest.fail(
            f"atheris found an input that breaks the contract (exit {proc.returncode}), kept in {tmp_path}:\n"
            f"{inputs}\nReplay: python {TARGET} {tmp_path}/<crash file>\n{tail}",
            pytrace=False,
        )
    assert "Done" in output or "stat::number_of_executed_units" in output, output[-2000:]
