"""Seeded fuzzing of the command line's arguments (issue 19, item 11).

Each case is an argv list rebuilt from its seed alone: the commands and
options of ``dominocore`` (docs/cli.md) with values drawn valid or mutated
(negative, huge, floats, empty, non-ASCII, line breaks, unknown options,
missing values, files that are not records, paths in missing directories),
run in this process through ``cli.main(argv)``. The contract (docs/cli.md,
"Exit statuses and errors"):

- status 0, with output on stdout; or
- status 2 (``SystemExit``), nothing on stdout, and on stderr the usage
  followed by exactly one line ``PROG: error: MESSAGE``, the last; or
- a documented status (130 after Ctrl-C; none is sent here);
- never an exception out of ``main``, never a traceback, never
  "internal error" (status 1).

Run sizes are capped by the generator (at most a few hundred rounds, a few
matches, the built-in bots), so that every case takes milliseconds. Default:
400 cases in a few seconds; ``--large``: 6,000 (DOMINOCORE_FUZZ_CLI sets the
count, DOMINOCORE_FUZZ_SEED moves the seeds). A failure names its seed:
``python tests/fuzz/test_cli_fuzz.py SEED`` prints its argv.
"""

from __future__ import annotations

import builtins
import json
import os
import random
import sys
import time
from typing import Callable, Dict, List

import pytest

try:
    from helpers import scaled
except ImportError:  # run as a script: python tests/fuzz/test_cli_fuzz.py SEED
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from helpers import scaled

from dominocore import cli

SHARDS = 4
COUNT = scaled(400, 6_000, "DOMINOCORE_FUZZ_CLI")
BASE_SEED = int(os.environ.get("DOMINOCORE_FUZZ_SEED", "0"))
#: A case slower than this fails: the generator keeps every run small.
CASE_SECONDS = 20.0

# ---------------------------------------------------------------------- values

WEIRD_TEXT = ["", " ", "é", "①", "ß", "\u202e", "日本", "a\nb", "-", "--", "1e3", "0x10", "nan", "inf", "None", "ｘ"]
WEIRD_INTS = ["-1", "-0", "-2147483649", str(2**31), str(2**40 + 1), str(2**63), str(2**64), str(2**70), "9" * 60,
              "1.5", "2.0", "1e3", "", " 3 ", "٣", "１２", "1_0", "+4", "0x7", "three"]  # fmt: skip


class Files:
    """The files and paths a case may name, under one temporary directory."""

    def __init__(self, root: str) -> None:
        import dominocore as dc
        from dominocore import record

        self.root = root
        self.record = os.path.join(root, "game.json")
        match = dc.Match(dc.Doubles(players=2, target=30), seed=3).play("random", rounds=2)
        record.save(match, self.record)
        self.round_record = os.path.join(root, "round.json")
        r = dc.Round(dc.Block(players=2), seed=1)
        for _ in range(4):
            r.push(r.legal_moves()[0])
        record.save(r, self.round_record)
        self.junk = os.path.join(root, "junk.json")
        with open(self.junk, "w", encoding="utf-8") as f:
            f.write('{"format": "dominocore-record", "version": 99, "games": [1, 2')
        self.save = os.path.join(root, "save.json")
        with open(self.save, "w", encoding="utf-8") as f:
            json.dump({"format": "dominocore-play", "version": 1, "seat": 0, "bots": [None, "greedy"],
                       "seed": "x", "stop_after": None, "match": match.to_dict()}, f)  # fmt: skip
        self.folder = os.path.join(root, "folder")
        os.makedirs(self.folder, exist_ok=True)

    def record_path(self, rng: random.Random) -> str:
        return rng.choice(
            [self.record, self.round_record, self.junk, self.save, self.folder, self.missing(rng, ".json")]
        )

    def missing(self, rng: random.Random, suffix: str) -> str:
        return os.path.join(self.root, "no", "such", f"dir{rng.randrange(9)}", "f" + suffix)

    def out_path(self, rng: random.Random) -> str:
        suffix = rng.choice([".csv", ".npz", ".CSV", ".Npz", ".txt", "", ".parquet", ".csv.gz"])
        kind = rng.randrange(6)
        if kind == 0:
            return self.missing(rng, suffix)
        if kind == 1:
            return self.folder
        if kind == 2:
            return os.path.join(self.root, rng.choice(["é", "日本", "a b", "-x"]) + suffix)
        return os.path.join(self.root, f"out{rng.randrange(1000)}{suffix}")


def _int(rng: random.Random, low: int, high: int, most: int = 0) -> str:
    """A valid integer of [low, high] most of the time, else a mutated one.
    ``most``: the largest value a count option accepts; a mutated value
    above ``high`` but not above it becomes ``most + 1`` (a valid count that
    large would run for hours)."""
    if rng.random() < 0.85:
        return str(rng.randint(low, high))
    text = rng.choice(WEIRD_INTS + [str(low - 1), str(high + 1), str(-high)])
    try:
        value = int(text)
    except ValueError:
        return text
    return str(most + 1) if most and high < value <= most else text


def _text(rng: random.Random, good: List[str]) -> str:
    return rng.choice(good) if rng.random() < 0.85 else rng.choice(WEIRD_TEXT + [g.upper() for g in good])


def _policy(rng: random.Random) -> str:
    # the built-in bots only: a search bot's whole match would take seconds
    names = [rng.choice(["random", "greedy"]) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.1:
        names[rng.randrange(len(names))] = rng.choice(["clever", "", " random", "RANDOM", "ismcts!", "é"])
    return ",".join(names)


def _moves(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.6:
            words.append(f"{rng.randint(0, 9)}-{rng.randint(0, 9)}@{rng.randint(0, 12)}")
        elif kind < 0.8:
            words.append(rng.choice(["draw", "pass", "DRAW"]))
        else:
            words.append(rng.choice(["9-9@-1", "1-2@", "@@", "x", "19-1@0", "1-1@4096", "１-1@0", "1-1@²"]))
    return rng.choice([" ", ",", ", "]).join(words)


# ---------------------------------------------------------------------- argv

GAME_OPTIONS: Dict[str, Callable[[random.Random], List[str]]] = {
    "--rule-set": lambda rng: ["--rule-set", _text(rng, ["trains", "cross"])],
    "--players": lambda rng: ["--players", _int(rng, 2, 4)],
    "--set": lambda rng: ["--set", _int(rng, 6, 12)],
    "--target": lambda rng: ["--target", _int(rng, 1, 200)],
    "--lead": lambda rng: ["--lead", _text(rng, ["winner", "highest_double", "puerto_rico"])],
    "--teams": lambda rng: ["--teams", _int(rng, 1, 4)],
    "--team-scoring": lambda rng: ["--team-scoring", _text(rng, ["all_pips", "fewer_pips"])],
    "--drawn-tile": lambda rng: ["--drawn-tile", _text(rng, ["must", "may"])],
}
#: The game options each game has (docs/cli.md); a case names another one now and then.
OPTIONS_OF = {
    "chickenfoot": ["--rule-set", "--players", "--set"],
    "doubles": ["--players", "--set", "--target"],
    "block": ["--players", "--set", "--target", "--lead", "--teams", "--team-scoring"],
    "mexican_train": ["--players", "--set", "--drawn-tile"],
}


def _game_options(rng: random.Random) -> List[str]:
    game = rng.choice(sorted(OPTIONS_OF))
    argv = ["--game", _text(rng, [game])] if rng.random() < 0.8 or game != "chickenfoot" else []
    names = OPTIONS_OF[game] if rng.random() < 0.9 else sorted(GAME_OPTIONS)
    for name in rng.sample(names, rng.randint(0, len(names))):
        argv += GAME_OPTIONS[name](rng)
    return argv


def _seed(rng: random.Random) -> List[str]:
    return ["--seed", _int(rng, 0, 2**64 - 1)] if rng.random() < 0.7 else []


def _demo(rng: random.Random, files: Files) -> List[str]:
    argv = _game_options(rng) + _seed(rng)
    if rng.random() < 0.5:
        argv += ["--policy", _policy(rng)]
    if rng.random() < 0.4:
        argv += ["--simulate", _int(rng, 0, 200, most=2**40)]
    return argv


def _simulate(rng: random.Random, files: Files) -> List[str]:
    argv = ["simulate"] + _game_options(rng) + _seed(rng)
    count = rng.random()
    if count < 0.45:
        argv += ["--rounds", _int(rng, 0, 300, most=2**63 - 1)]
    elif count < 0.8:
        argv += ["--matches", _int(rng, 0, 4, most=2**63 - 1)]
    if rng.random() < 0.3:
        argv += ["--round-index", _int(rng, 0, 3)]
    if rng.random() < 0.4:
        argv += ["--policy", _policy(rng)]
    if rng.random() < 0.3:
        argv += ["--threads", _int(rng, 1, 2)]
    if rng.random() < 0.3:
        argv += ["--chunk", _int(rng, 1, 60)]
    if rng.random() < 0.4:
        argv += ["--out", files.out_path(rng)]
    return argv  # neither count: the default of 1000 rounds


def _show(rng: random.Random, files: Files) -> List[str]:
    argv = ["show"]
    if rng.random() < 0.3:
        argv += ["--record", files.record_path(rng)]
        if rng.random() < 0.2:
            argv += _game_options(rng)  # refused: the record holds the game
    else:
        argv += _game_options(rng) + _seed(rng)
        if rng.random() < 0.7:
            argv += ["--moves", _moves(rng)]
    if rng.random() < 0.4:
        argv += ["--round-index", _int(rng, 0, 3)]
    if rng.random() < 0.4:
        argv += ["--ply", _int(rng, 0, 6)]
    if rng.random() < 0.5:
        argv += ["--seat", _int(rng, 0, 3)]
    return argv


def _replay(rng: random.Random, files: Files) -> List[str]:
    argv = ["replay"]
    if rng.random() < 0.95:
        argv.append(files.record_path(rng))
    if rng.random() < 0.5:
        argv += ["--seat", _int(rng, 0, 3)]
    if rng.random() < 0.5:
        argv.append("--all")
    return argv


def _play(rng: random.Random, files: Files) -> List[str]:
    if rng.random() < 0.25:
        argv = ["play", "--resume", rng.choice([files.save, files.junk, files.record, files.missing(rng, ".json")])]
        if rng.random() < 0.3:
            argv += _game_options(rng)
        return argv
    argv = ["play"] + _game_options(rng) + _seed(rng)
    if rng.random() < 0.5:
        argv += ["--seat", _int(rng, 0, 3)]
    if rng.random() < 0.5:
        argv += ["--bots", _policy(rng)]
    if rng.random() < 0.3:
        argv += ["--rounds", _int(rng, 1, 3)]
    return argv


COMMANDS = [(_demo, 3), (_simulate, 4), (_show, 3), (_replay, 1), (_play, 2)]


def _mutate(rng: random.Random, argv: List[str]) -> List[str]:
    """Break the argv the way people do: an unknown option, a value missing
    or doubled, an option moved, a stray word, --help."""
    kind = rng.randrange(9)
    if kind == 0:
        argv.insert(rng.randint(0, len(argv)), rng.choice(["--frobnicate", "-x", "--seed=", "--players=", "--"]))
    elif kind == 1 and argv:
        del argv[rng.randrange(len(argv))]  # a value goes missing, or becomes the next option's
    elif kind == 2:
        argv.append(rng.choice(["--seed", "--players", "--rounds", "--out", "--seat", "--moves", "--game"]))
    elif kind == 3:
        argv.insert(rng.randint(0, len(argv)), rng.choice(WEIRD_TEXT + WEIRD_INTS))
    elif kind == 4 and rng.random() < 0.1:
        argv.append(rng.choice(["--help", "-h", "--version"]))
    elif kind == 5 and argv:
        i = rng.randrange(len(argv))
        argv.insert(rng.randint(0, len(argv)), argv[i])  # a word twice
    return argv


#: The count options, with the largest value each accepts.
COUNTS = {"--rounds": 2**63 - 1, "--matches": 2**63 - 1, "--simulate": 2**40}


def _bounded(argv: List[str]) -> List[str]:
    """A count that a mutation made large but valid (a value moved after
    ``--rounds``, say) made too large instead: the run would take hours."""
    for i, word in enumerate(argv[:-1]):
        if word in COUNTS:
            try:
                value = int(argv[i + 1])
            except ValueError:
                continue
            if 1000 < value <= COUNTS[word]:
                argv[i + 1] = str(COUNTS[word] + 1)
    return argv


def case(seed: int, files: Files) -> List[str]:
    """The argv of case ``seed``."""
    rng = random.Random(seed)
    makers = [maker for maker, weight in COMMANDS for _ in range(weight)]
    argv = rng.choice(makers)(rng, files)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        argv = _mutate(rng, argv)
    return _bounded(argv)


# ---------------------------------------------------------------------- the contract


def check(argv: List[str], capsys) -> str:
    """Run ``argv``; return what kind of outcome it had, or raise AssertionError."""
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err, captured.err
    if status == 0 or status is None:
        assert captured.out, "status 0 with no output"
        return "ok"
    assert status == 2, f"status {status!r}; stderr: {captured.err!r}"
    assert captured.out == "", f"a refusal printed on stdout: {captured.out[:300]!r}"
    lines = captured.err.splitlines()
    assert lines and lines[0].startswith("usage: dominocore"), captured.err
    errors = [i for i, line in enumerate(lines) if ": error: " in line]
    assert errors == [len(lines) - 1], f"not exactly one error line, the last: {captured.err!r}"
    assert lines[-1].startswith("dominocore"), lines[-1]
    return "refused"


@pytest.fixture
def files(tmp_path):
    return Files(str(tmp_path))


@pytest.fixture
def no_terminal_input(monkeypatch):
    """``play`` reads moves with ``input``: end of input (it quits)."""

    def end_of_input(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr(builtins, "input", end_of_input)
    monkeypatch.delenv("DOMINOCORE_DEBUG", raising=False)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_cli_arguments_fuzz(shard, files, capsys, no_terminal_input, monkeypatch):
    monkeypatch.chdir(files.root)  # relative paths a case names land here
    tally = {"ok": 0, "refused": 0}
    slowest = (0.0, None)
    failures = []
    for seed in range(BASE_SEED + shard, BASE_SEED + COUNT, SHARDS):
        argv = case(seed, files)
        began = time.perf_counter()
        try:
            tally[check(argv, capsys)] += 1
        except Exception as exc:  # AssertionError, or anything out of main: a finding
            failures.append(f"seed {seed}: {argv!r}: {type(exc).__name__}: {exc}")
            if len(failures) >= 10:
                break
        took = time.perf_counter() - began
        slowest = max(slowest, (took, seed), key=lambda x: x[0])
        assert took < CASE_SECONDS, f"seed {seed}: {argv!r} took {took:.1f} s"
    assert not failures, "\n".join(failures)
    # both outcomes are well represented: the generator is not degenerate
    assert tally["ok"] >= COUNT // SHARDS // 10 and tally["refused"] >= COUNT // SHARDS // 10, tally
    print(f"shard {shard}: {tally}; slowest case {slowest[0]:.3f} s (seed {slowest[1]})")


if __name__ == "__main__":  # print the argv of the seeds given
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        for arg in sys.argv[1:]:
            print(arg, case(int(arg), Files(root)))
