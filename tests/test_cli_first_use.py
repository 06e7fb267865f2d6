"""The command line as a new user meets it: every example it prints and every
example in the docs runs, every file it writes is read by every command that
reads files, every error is one line with exit status 2, and what it prints
says what a newcomer needs (issue 20's first-use report)."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

import dominocore
import pytest
from dominocore import cli, cli_results, record

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMANDS = ("play", "simulate", "replay", "show")


def help_text(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def help_examples(capsys) -> list:
    """The example commands ``dominocore --help`` and each ``COMMAND --help``
    print: lines under an "examples:" heading, up to the two spaces before
    their comment."""
    found = []
    for argv in [(), *((c,) for c in COMMANDS)]:
        lines = help_text(capsys, *argv).splitlines()
        if "examples:" not in lines:
            continue
        for line in lines[lines.index("examples:") + 1 :]:
            if not line.startswith("  dominocore"):
                break
            found.append(re.split(r"\s{2,}", line.strip())[0])
    return found


def docs_examples() -> list:
    """``(command, expected exit status)`` for every ``$ dominocore ...`` line
    in docs/ and every ``dominocore`` command of the README's shell blocks; a
    docs example followed by a usage line is one of a refusal (status 2)."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ dominocore"):
                refused = i + 1 < len(lines) and lines[i + 1].startswith("usage:")
                found.append((line[2:], 2 if refused else 0))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.*?)```", readme, flags=re.S):
        for line in block.splitlines():
            command = line.split("#")[0].strip()
            for part in command.split("&&"):
                part = part.strip()
                if part.startswith("python -m dominocore"):
                    found.append(("dominocore" + part[len("python -m dominocore") :], 0))
    return found


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory holding the files the examples name (a saved game as
    ``game.json``), and a person who types ``quit`` at ``play``'s prompt."""
    monkeypatch.chdir(tmp_path)
    match = dominocore.Match(dominocore.ChickenFoot(players=2, set=6), seed=5).play("greedy", rounds=1)
    record.save(match, tmp_path / "game.json", seats=["Ann", "Bo"])
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    # `dominocore serve` serves until stopped: its examples are parsed and
    # checked here, and the server itself is started in tests/test_serve.py.
    serve = pytest.importorskip("dominocore.serve", reason="dominocore serve needs the [web] extra")
    monkeypatch.setattr(serve, "run", lambda host, port, db: print(f"would serve on {host}:{port}, db {db}"))
    return tmp_path


def run(argv) -> int:
    try:
        return cli.main(argv)
    except SystemExit as stop:  # argparse's --help and usage errors
        return int(stop.code or 0)


def test_every_example_of_the_help_runs(capsys, workdir):
    examples = help_examples(capsys)
    assert len(examples) >= 5 and any(e.startswith("dominocore show") for e in examples)
    for example in examples:
        argv = shlex.split(example.replace("COMMAND", "show"))[1:]
        status = run(argv)
        out, err = capsys.readouterr()
        assert status == 0, f"`{example}` (from --help) exited {status}: {err.strip()}"


def test_every_example_of_the_docs_runs(capsys, workdir):
    examples = docs_examples()
    assert len(examples) >= 8
    for example, expected in examples:
        status = run(shlex.split(example)[1:])
        out, err = capsys.readouterr()
        assert status == expected, f"`{example}` (from the docs) exited {status}, not {expected}: {err.strip()}"


# --------------------------------------------------------------------------- files


def saved_play(tmp_path, monkeypatch, capsys) -> pathlib.Path:
    """A game saved by ``play``'s ``save`` command, a few moves in."""
    path = tmp_path / "saved.json"
    typed = ["save " + str(path), "quit"]
    monkeypatch.setattr("builtins.input", lambda prompt="": typed.pop(0))
    argv = ["play", "--game", "block", "--players", "2", "--seed", "3", "--bots", "cheat"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    assert json.loads(path.read_text())["format"] == cli.SAVE_FORMAT
    return path


def written_files(tmp_path, monkeypatch, capsys) -> dict:
    """Every kind of file the command line writes, by what wrote it."""
    files = {"play save": saved_play(tmp_path, monkeypatch, capsys)}
    for suffix in cli_results.OUT_TYPES:
        if suffix == ".parquet":
            pytest.importorskip("pyarrow")
        path = tmp_path / f"results{suffix}"
        assert cli.main(["simulate", "--rounds", "5", "--out", str(path)]) == 0
        files[f"simulate --out {suffix}"] = path
    capsys.readouterr()
    return files


def test_every_file_the_cli_writes_is_read_by_every_reader(tmp_path, monkeypatch, capsys):
    files = written_files(tmp_path, monkeypatch, capsys)
    for writer, path in files.items():
        for reader in (["replay", str(path), "--all"], ["show", "--record", str(path)]):
            status = run(reader)
            out, err = capsys.readouterr()
            if writer == "play save":  # a game: shown
                assert status == 0, f"{reader[0]} cannot read what {writer} wrote: {err.strip()}"
                assert "Block, double-6, 2 players" in out
            else:  # results, not a game: one line saying so
                assert status == 2 and "cannot read" in err and len(err.strip().splitlines()[-1:]) == 1
                assert "Traceback" not in err
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert run(["play", "--resume", str(files["play save"])]) == 0
    assert "Block, double-6, 2 players" in capsys.readouterr().out


def test_replay_names_the_seats_and_ends_a_match_with_its_totals_and_winner(capsys, workdir):
    assert cli.main(["replay", "game.json", "--all"]) == 0
    out = capsys.readouterr().out
    match = record.load(workdir / "game.json")
    assert "seats: 0 Ann, 1 Bo" in out.splitlines()[:3]
    last = out.rstrip().splitlines()[-1]
    totals = " ".join(map(str, match.totals))
    if match.is_over:
        assert last.startswith(f"match over: totals {totals} (") and f"seat {match.winners[0]}" in last
    else:
        assert last == f"match not over: totals {totals} after {len(match.rounds)} rounds"
    assert "the lowest total wins" in last or not match.is_over


def test_replay_of_a_finished_match_names_its_winner(capsys, tmp_path):
    match = dominocore.Match(dominocore.Block(players=2, target=20), seed=2).play("greedy")
    assert match.is_over
    record.save(match, tmp_path / "m.json")
    assert cli.main(["replay", str(tmp_path / "m.json"), "--all"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    winners = ", ".join(map(str, match.winners))
    assert last.startswith("match over: totals ") and last.endswith(f"seat {winners}")
    assert "the first to 20 wins" in last


@pytest.mark.parametrize(
    "game, says",
    [
        ("chickenfoot", "the lowest total wins"),
        ("mexican_train", "the lowest total wins"),
        ("doubles", "the first to 100 wins"),
        ("block", "the first to 100 wins"),
    ],
)
def test_the_demo_says_how_the_match_is_won(capsys, game, says):
    assert cli.main(["--game", game, "--players", "2", "--set", "6", "--seed", "1"]) == 0
    won = [line for line in capsys.readouterr().out.splitlines() if line.startswith("how it is won: ")]
    assert len(won) == 1 and says in won[0]


# --------------------------------------------------------------------------- errors


BAD = [
    (["--policy", "ismcts,foo"], "--policy: unknown bot 'foo'"),
    (["simulate", "--policy", "greedy,foo"], "--policy: unknown bot 'foo'"),
    (["play", "--bots", "foo"], "--bots: unknown bot 'foo'"),
    (["play", "--resume", "no-such-file.json"], "cannot resume from no-such-file.json: No such file or directory"),
    (["replay", "no-such-file.json"], "cannot read no-such-file.json: No such file or directory"),
    (["show", "--record", "no-such-file.json"], "cannot read no-such-file.json: No such file or directory"),
    (["simulate", "--matches", "3", "--round-index", "2"], "--round-index applies to --rounds only"),
    (["show", "--seed", "3", "--moves", "9-5@0"], "move 1 (5-9@0)"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_every_error_is_one_line_with_exit_status_2(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert run(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and "Errno" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("dominocore") and message in last, last


def test_every_bot_of_the_library_is_a_bot_of_every_command(capsys, monkeypatch):
    from dominocore.common.policies import POLICY_NAMES

    assert cli.BOTS == POLICY_NAMES
    for name in POLICY_NAMES:
        if name in ("ismcts", "pimc", "cheat") and not dominocore.Round.__module__.startswith("dominocore.native"):
            continue  # the searches are the compiled core's
        monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
        common = ["--game", "block", "--players", "2", "--seed", "1"]
        assert run([*common, "--policy", name]) == 0, name
        assert run(["play", *common, "--bots", name]) == 0, name
        assert run(["simulate", *common, "--rounds", "2", "--policy", name]) == 0, name
        capsys.readouterr()


def test_a_bad_implementation_name_is_one_line_and_exit_status_2():
    env = {**os.environ, "DOMINOCORE_IMPLEMENTATION": "pyhton"}
    env.pop("DOMINOCORE_DEBUG", None)
    code = "import sys, _dominocore_cli; sys.exit(_dominocore_cli.main(['--seed', '7']))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "dominocore: error: DOMINOCORE_IMPLEMENTATION must be 'cpp' or 'python', got 'pyhton'"
    ]


def test_the_console_script_is_the_entry_point_that_catches_it():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "dominocore"]
    assert script.value == "_dominocore_cli:main"


def test_the_progress_bar_stays_out_of_pipes_and_logs(capsys):
    assert cli.main(["simulate", "--rounds", "2000"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: no bar, no "\r" frames
    assert cli.main(["--simulate", "2000"]) == 0
    assert capsys.readouterr().err == ""
