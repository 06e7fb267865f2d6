"""The demo command prints every round's scores and the winner."""

from __future__ import annotations

import json
import subprocess
import sys

import dominocore
import numpy as np
import pytest
from dominocore import cli, cli_play, text
from helpers import needs_core


def test_demo_match_prints_rounds_totals_and_winner(capsys):
    assert cli.main(["--seed", "7", "--players", "3", "--set", "6"]) == 0
    out = capsys.readouterr().out.splitlines()
    rounds = [line for line in out if line.startswith("round ")]
    assert len(rounds) == 7  # double-6: 7 rounds, 6-6 down to 0-0
    assert "centre   6-6" in rounds[0] and "centre   0-0" in rounds[-1]
    totals = [int(x) for x in out[-2].split()[1:]]
    scores = [[int(x) for x in line.split("scores")[1].split()] for line in rounds]
    assert totals == [sum(col) for col in zip(*scores)]
    assert out[-1].startswith("winner")


def test_doubles_demo_and_simulation(capsys):
    assert cli.main(["--game", "doubles", "--players", "2", "--target", "50", "--simulate", "100"]) == 0
    out = capsys.readouterr().out
    assert "simulated 100 random rounds" in out and "winner" in out


def test_bad_options_exit_with_a_message(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--players", "9"])
    assert "players must be between 2 and 8" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, rounds",
    [
        (["--game", "block", "--target", "30"], None),  # to a target: as many rounds as it takes
        (["--game", "block", "--players", "4", "--lead", "highest_double", "--target", "20"], None),
        (["--game", "mexican_train", "--players", "3", "--set", "6"], 7),  # double-6: engines 6-6 .. 0-0
        (["--game", "mexican_train", "--set", "6", "--drawn-tile", "may"], 7),
    ],
)
def test_every_game_plays_from_the_command_line(capsys, argv, rounds):
    assert cli.main([*argv, "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    played = [line for line in out if line.startswith("round ")]
    assert played and (rounds is None or len(played) == rounds)
    totals = [int(x) for x in out[-2].split()[1:]]
    scores = [[int(x) for x in line.split("scores")[1].split()] for line in played]
    assert totals == [sum(col) for col in zip(*scores)]
    assert out[-1].startswith("winner")


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["show"]])
@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--game", "doubles", "--rule-set", "cross"],
            "--rule-set: doubles has no such option (only chickenfoot has: trains, cross)",
        ),
        (["--game", "block", "--drawn-tile", "may"], "--drawn-tile: block has no such option"),
        (["--game", "chickenfoot", "--lead", "winner"], "--lead: chickenfoot has no such option"),
        (["--game", "mexican_train", "--target", "50"], "--target: mexican_train has no such option"),
    ],
)
def test_an_option_the_game_does_not_have_is_refused(capsys, command, argv, message):
    with pytest.raises(SystemExit) as exc:
        cli.main([*command, *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    prog = " ".join(["dominocore", *command])
    assert err.splitlines()[-1] == f"{prog}: error: {message}" or err.splitlines()[-1].startswith(
        f"{prog}: error: {message} "
    )


def test_version(capsys):
    import dominocore

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"dominocore {dominocore.__version__}"


# ---------------------------------------------------------------------- help and bad arguments


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["replay"], ["show"]])
def test_help_has_no_raw_markup(capsys, command):
    with pytest.raises(SystemExit) as exc:
        cli.main([*command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: dominocore")
    for markup in ("``", ":func:", ":class:", ".. ", "**"):
        assert markup not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--players", "2", "--seat", "2"], "--seat must be between 0 and 1, got 2"),
        (
            ["play", "--bots", "greedy,clever"],
            "--bots: unknown bot 'clever' (choose from random, greedy, learned, ismcts, pimc, cheat)",
        ),
        (["play", "--rounds", "0"], "--rounds must be at least 1, got 0"),
        (["play", "--resume", "/nonexistent/save.json"], "cannot resume from /nonexistent/save.json"),
        (["play", "--resume", "x.json", "--game", "block"], "--resume takes the game from the file: drop --game"),
        (["simulate", "--out", "results.txt"], "--out: unknown file type '.txt' (use .npz, .csv, .parquet)"),
        (["simulate", "--rounds", "5", "--threads", "0"], "threads must be between"),
        (["simulate", "--policy", "smart"], "--policy: unknown bot 'smart'"),
        (["simulate", "--rounds", "-1"], f"--rounds must be between 0 and {2**63 - 1}, got -1"),
        (["simulate", "--rounds", "3", "--matches", "3"], "not allowed with argument"),
        (["show", "--moves", "9-5@0 jump"], "--moves: move 2: a move is written"),
        (["show", "--game", "block", "--seed", "1", "--moves", "6-6@0"], "move 1 (6-6@0): illegal move"),
        (["show", "--game", "block", "--moves", "1-1@0", "--ply", "2"], "--ply must be between 0 and 1, got 2"),
        (["show", "--game", "block", "--seat", "2"], "--seat must be between 0 and 1, got 2"),
        (["replay", "/nonexistent/game.json"], "cannot read /nonexistent/game.json"),
        (["--players", "9"], "players must be between 2 and 8"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    last = captured.err.splitlines()[-1]
    assert last.startswith("dominocore") and ": error: " in last and message in last


# ---------------------------------------------------------------------- simulate


def _summary_means(out):
    """The mean points per seat from simulate's summary table."""
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    return [float(row[1]) for row in rows]


def test_simulate_rounds_summary_matches_dominocore_simulate(capsys):
    rules = dominocore.ChickenFoot(players=3, set=6)
    assert cli.main(["simulate", "--players", "3", "--set", "6", "--rounds", "300", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    sim = dominocore.simulate(rules, rounds=300, seed=5)
    assert out.splitlines()[0].startswith(
        "Chicken Foot (trains), double-6, 3 players: 300 rounds, policy random, seed 5;"
    )
    assert _summary_means(out) == [round(float(x), 2) for x in sim.points.mean(axis=0)]
    share = float((sim.reason == "out").mean())
    assert f"rounds: 300; out {share:.1%}, blocked {1 - share:.1%}; mean moves {sim.moves.mean():.1f}" in out
    assert "95% interval" in out


def test_simulate_matches_writes_npz(capsys, tmp_path):
    path = tmp_path / "matches.npz"
    argv = ["simulate", "--game", "doubles", "--players", "2", "--target", "30", "--matches", "7", "--seed", "2"]
    assert cli.main([*argv, "--policy", "greedy,random", "--out", str(path), "--chunk", "3"]) == 0
    out = capsys.readouterr().out
    assert "mean total" in out and "wins" in out
    sim = dominocore.simulate(dominocore.Doubles(players=2, target=30), matches=7, seed=2, policy=["greedy", "random"])
    data = np.load(path)
    for name in ("points", "out_seat", "starter", "moves", "match_index", "totals", "winners"):
        assert np.array_equal(data[name], getattr(sim, name)), name
    assert np.array_equal(data["reason"], sim.reason.view(np.ndarray))
    assert json.loads(str(data["rules"]))["game"] == "doubles"
    assert f"wrote {sim.num_rounds:,} rounds to {path}" in out


def _expected_rows(sim):
    rows = []
    for i in range(sim.num_rounds):
        rows.append(
            [
                str(i),
                str(sim.match_index[i]),
                str(sim.starter[i]),
                sim.reason[i],
                str(sim.out_seat[i]),
                str(sim.moves[i]),
            ]
            + [str(x) for x in sim.points[i]]
        )
    return rows


def test_simulate_writes_csv(capsys, tmp_path):
    path = tmp_path / "rounds.csv"
    assert cli.main(["simulate", "--game", "block", "--rounds", "25", "--seed", "9", "--out", str(path)]) == 0
    capsys.readouterr()
    lines = path.read_text().splitlines()
    assert lines[0] == "round,match,starter,reason,out_seat,moves,points_0,points_1"
    sim = dominocore.simulate(dominocore.Block(), rounds=25, seed=9)
    assert [line.split(",") for line in lines[1:]] == _expected_rows(sim)


def test_simulate_writes_parquet(capsys, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "rounds.parquet"
    argv = ["simulate", "--game", "mexican_train", "--set", "6", "--players", "3", "--rounds", "12"]
    assert cli.main([*argv, "--out", str(path)]) == 0
    capsys.readouterr()
    table = pq.read_table(path)
    sim = dominocore.simulate(dominocore.MexicanTrain(set=6, players=3), rounds=12, seed=0)
    assert table.column_names == ["round", "match", "starter", "reason", "out_seat", "moves"] + [
        f"points_{s}" for s in range(3)
    ]
    assert table.column("points_2").to_pylist() == sim.points[:, 2].tolist()
    assert table.column("reason").to_pylist() == list(sim.reason)
    assert json.loads(table.schema.metadata[b"rules"])["game"] == "mexican_train"


def test_parquet_without_pyarrow_is_one_clear_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    with pytest.raises(SystemExit) as exc:
        cli.main(["simulate", "--rounds", "5", "--out", str(tmp_path / "r.parquet")])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "dominocore simulate: error: --out FILE.parquet needs pyarrow: pip install pyarrow (or dominocore[parquet])"
    )
    assert not (tmp_path / "r.parquet").exists()


class _InterruptingBar:
    """Stands in for tqdm: Ctrl-C (KeyboardInterrupt) once the run has passed ``after`` rounds."""

    after = 10

    def __init__(self, *args, **kwargs):
        self.n = 0

    def update(self, k):
        self.n += k
        if self.n > self.after:
            raise KeyboardInterrupt

    def close(self):
        pass


def test_ctrl_c_keeps_the_finished_chunks(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "tqdm", _InterruptingBar)
    path = tmp_path / "partial.csv"
    argv = ["simulate", "--game", "doubles", "--players", "2", "--rounds", "40", "--chunk", "5", "--seed", "4"]
    assert cli.main([*argv, "--out", str(path)]) == 130  # stopped inside the third chunk
    captured = capsys.readouterr()
    assert "interrupted: 10 of 40 rounds finished" in captured.err
    assert "10 rounds, policy random, seed 4 (interrupted, of 40)" in captured.out
    sim = dominocore.simulate(dominocore.Doubles(players=2), rounds=10, seed=4)
    assert [line.split(",") for line in path.read_text().splitlines()[1:]] == _expected_rows(sim)
    assert _summary_means(captured.out) == [round(float(x), 2) for x in sim.points.mean(axis=0)]


def test_ctrl_c_before_any_chunk_keeps_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(_InterruptingBar, "after", 0)
    monkeypatch.setattr(cli, "tqdm", _InterruptingBar)
    path = tmp_path / "none.npz"
    assert cli.main(["simulate", "--rounds", "40", "--chunk", "5", "--out", str(path)]) == 130
    captured = capsys.readouterr()
    assert "nothing finished" in captured.out and not path.exists()


# ---------------------------------------------------------------------- play


class _Person:
    """Answers play's prompts: reads what was printed (through capsys), and
    types the commands given, then the first legal move listed by help."""

    def __init__(self, capsys, script=()):
        self.capsys = capsys
        self.script = list(script)
        self.transcript = []
        self.asking = False

    def __call__(self, prompt):
        out = self.capsys.readouterr().out
        self.transcript.append(out)
        if self.script:
            return self.script.pop(0)
        if not self.asking:
            self.asking = True
            return "help"
        self.asking = False
        listed = [
            line
            for line in out.splitlines()
            if line.startswith("move> legal moves: ") or line.startswith("legal moves: ")
        ]
        return listed[-1].split("legal moves: ")[1].split()[0]

    def output(self):
        self.transcript.append(self.capsys.readouterr().out)
        return "".join(self.transcript)


PLAY = ["play", "--game", "block", "--players", "2", "--seed", "11", "--rounds", "1"]


def test_play_a_whole_round(capsys, monkeypatch):
    person = _Person(capsys)
    monkeypatch.setattr("builtins.input", person)
    assert cli.main(PLAY) == 0
    out = person.output()
    assert out.startswith("Block, double-6, 2 players; seed 11; you are seat 0\nbots: seat 1 greedy\n")
    result = [line for line in out.splitlines() if "round over: " in line or line.startswith("round 0 over: ")]
    assert len(result) == 1, result  # the result once (the table printed it too)
    assert out.rstrip().splitlines()[-1].startswith("stopped after 1 round: totals ")
    assert "seat 1 (you)" not in out


def test_play_in_another_seat_against_several_bots(capsys, monkeypatch):
    person = _Person(capsys)
    monkeypatch.setattr("builtins.input", person)
    argv = ["play", "--game", "mexican_train", "--set", "6", "--players", "3", "--seat", "1", "--seed", "2"]
    assert cli.main([*argv, "--bots", "random,greedy", "--rounds", "1"]) == 0
    out = person.output()
    assert "you are seat 1\nbots: seat 0 random, seat 2 greedy\n" in out
    assert "seat 1's train (yours)" in out and "seat 1 (you)" in out
    assert "round 0 over: " in out and "stopped after 1 round" in out
    # the same round played here: the person's moves are the first listed, the bots' are cli's
    round_ = dominocore.Match(dominocore.MexicanTrain(set=6, players=3), seed=2).new_round()
    held = set(round_.hand(1))
    while not round_.is_over:
        seat = round_.current_player
        if seat == 1:
            move = round_.legal_moves()[0]
        else:
            move = cli_play._bot_move("random" if seat == 0 else "greedy", round_, 2)
        round_.push(move)
        held |= set(round_.hand(1))
    assert f"round 0 over: {text.result_text(round_.result)}" in out
    # the hands shown are seat 1's only: every tile listed was in seat 1's hand
    hands = [line.split()[2:] for line in out.splitlines() if line.startswith("your hand: ") and "(empty)" not in line]
    assert hands and {t for hand in hands for t in hand} <= {str(t) for t in held}


def test_play_commands_undo_hint_save_resume(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    printed = []

    def after(text):
        return printed[-1].split(text)[-1].split()[0]

    # list the moves, play the first, undo it (and the bot's answer), play the
    # hint, save, quit
    steps = iter(
        [
            lambda: "help",
            lambda: after("legal moves: "),
            lambda: "undo",
            lambda: "hint",
            lambda: after("hint: "),
            lambda: f"save {save}",
            lambda: "quit",
        ]
    )

    def person(prompt):
        printed.append(capsys.readouterr().out)
        return next(steps)()

    monkeypatch.setattr("builtins.input", person)
    assert cli.main(PLAY) == 0
    printed.append(capsys.readouterr().out)
    out = "".join(printed)
    assert "took back 2 moves" in out and "hint: " in out and f"saved to {save}" in out
    assert out.rstrip().endswith("bye")
    data = json.loads(save.read_text())
    assert data["format"] == "dominocore-play" and data["seat"] == 0 and data["bots"] == [None, "greedy"]
    saved = dominocore.Match.from_dict(data["match"])
    assert len(saved.round.move_stack) == 2  # the hinted move and the bot's answer

    # resume and finish the round: the same end as playing it straight through
    resumed = _Person(capsys)
    monkeypatch.setattr("builtins.input", resumed)
    assert cli.main(["play", "--resume", str(save)]) == 0
    resumed_out = resumed.output()
    assert "round 0 (resumed)" in resumed_out
    assert resumed_out.rstrip().splitlines()[-1].startswith("stopped after 1 round: totals ")


def test_play_bad_input_reprompts_with_the_engines_message(capsys, monkeypatch):
    person = _Person(capsys, ["jump", "6-6@5", "save", "undo", "quit"])
    monkeypatch.setattr("builtins.input", person)
    assert cli.main(PLAY) == 0
    out = person.output()
    assert "error: a move is written 'a-b@end' (like '5-9@2'), 'draw' or 'pass', got 'jump'" in out
    assert "error: illegal move 6-6@5" in out
    assert "error: save needs a file name: save FILE" in out
    assert "nothing to undo in this round" in out


def test_play_end_of_input_quits(capsys, monkeypatch):
    def no_more(prompt):
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    assert cli.main(PLAY) == 0
    assert capsys.readouterr().out.rstrip().endswith("bye")


def test_bots_moves_show_no_drawn_tile(capsys, monkeypatch):
    """Chicken Foot: the bots draw; their lines say that they drew, never what."""
    person = _Person(capsys)
    monkeypatch.setattr("builtins.input", person)
    argv = ["play", "--players", "3", "--set", "6", "--seed", "3", "--rounds", "1", "--bots", "random"]
    assert cli.main(argv) == 0
    out = person.output()
    drew = [line for line in out.splitlines() if line.startswith("seat ") and " drew" in line]
    assert drew and all(line.endswith(" drew") for line in drew)
    assert "round 0 over: " in out


# ---------------------------------------------------------------------- replay and show


@pytest.fixture
def match_record(tmp_path):
    from dominocore import record

    match = dominocore.Match(dominocore.ChickenFoot(players=2, set=6), seed=5).play("random", rounds=2)
    path = tmp_path / "match.json"
    record.save(match, path)
    return path, match


def test_replay_all_prints_every_position(capsys, match_record):
    path, match = match_record
    assert cli.main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    moves = sum(len(r.move_stack) for r in match.rounds)
    assert len([line for line in out.splitlines() if line.startswith("move ")]) == moves
    assert "round 0: the deal" in out and "round 1: the deal" in out
    assert "your hand" not in out
    # the last position of each round, as render draws it
    for r in match.rounds:
        assert r.render() in out
    drew = [line for line in out.splitlines() if line.startswith("move ") and "drew" in line]
    assert drew and all(line.endswith("drew") for line in drew)


def test_replay_for_one_seat_shows_its_hand_and_its_draws(capsys, match_record):
    path, match = match_record
    assert cli.main(["replay", str(path), "--all", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "your hand: " in out
    for r in match.rounds:
        assert r.render(1) in out
    draws = [line for line in out.splitlines() if line.startswith("move ") and "drew" in line]
    assert any(": you drew " in line for line in draws)  # its own draws, with the tile
    for line in draws:
        own = ": you drew " in line
        assert own or line.endswith("seat 0 drew")


def test_replay_steps_with_enter_on_a_terminal(capsys, monkeypatch, match_record):
    path, _ = match_record
    answers = iter(["", "", "q"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("move ")] == ["move 1", "move 2"]


def test_replay_of_a_file_that_is_not_a_record(capsys, tmp_path):
    path = tmp_path / "not-a-record.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(SystemExit) as exc:
        cli.main(["replay", str(path)])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"dominocore replay: error: cannot read {path}: ")


def test_show_a_seeded_position(capsys):
    moves = "1-1@0 1-6@1"
    assert cli.main(["show", "--game", "block", "--players", "2", "--seed", "1", "--moves", moves, "--seat", "0"]) == 0
    out = capsys.readouterr().out
    r = dominocore.Round(dominocore.Block(players=2), seed=1)
    for m in moves.split():
        r.push(m)
    assert out == r.render(0) + "\nlegal moves: " + " ".join(map(str, r.legal_moves())) + "\n"
    assert cli.main(["show", "--game", "block", "--seed", "1", "--moves", moves, "--ply", "1"]) == 0
    r.pop()
    assert capsys.readouterr().out == r.render() + "\n"


def test_show_a_record_at_a_ply(capsys, match_record):
    path, match = match_record
    assert cli.main(["show", "--record", str(path), "--round-index", "0", "--ply", "3", "--seat", "1"]) == 0
    r = match.rounds[0]
    while len(r.move_stack) > 3:
        r.pop()
    out = capsys.readouterr().out
    assert out.startswith(r.render(1) + "\n")
    with pytest.raises(SystemExit):
        cli.main(["show", "--record", str(path), "--round-index", "5"])
    assert "the record has rounds 0, 1, not 5" in capsys.readouterr().err


def test_python_dash_m_runs_the_demo():
    out = subprocess.run(
        [sys.executable, "-m", "dominocore", "--seed", "7", "--game", "block", "--target", "20"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[-1].startswith("winner")


def test_the_show_examples_of_docs_cli_md_print_as_written(capsys):
    import pathlib
    import re
    import shlex

    page = (pathlib.Path(__file__).parent.parent / "docs" / "cli.md").read_text()
    examples = re.findall(r"```\n\$ (dominocore show [^\n]*)\n(.*?)```", page, flags=re.S)
    assert len(examples) == 2
    for command, expected in examples:
        assert cli.main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out == expected


@needs_core
@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_a_search_bot_at_the_table_plays_from_its_seats_view(kind):
    r = dominocore.Round(dominocore.Block(players=2), seed=5)
    r.push(r.legal_moves()[0])
    move = cli_play._bot_move(kind, r, seed=3)
    assert move in r.legal_moves()
    world = r.determinize(r.current_player, seed=1)  # the same view, other hidden tiles
    assert cli_play._bot_move(kind, world, seed=3) == move


# --------------------------------------------------------------------------- issue 19, item 11: bad arguments


def refused(capsys, argv):
    """Run the command, which must refuse ``argv`` the documented way: exit
    status 2, the usage and exactly one error line on stderr, nothing on
    stdout; return the error line's message."""
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert lines[0].startswith("usage: dominocore")
    errors = [line for line in lines if ": error: " in line]
    assert errors == [lines[-1]] and not lines[-1].startswith(" ")
    return lines[-1].split(": error: ", 1)[1]


def test_an_out_path_in_a_missing_directory_is_refused_before_the_run(capsys, tmp_path, monkeypatch):
    # Reproducer: the whole run was played, then writing died with a traceback.
    played = []
    monkeypatch.setattr(dominocore, "simulate_iter", lambda *a, **k: played.append(1) or iter(()))
    missing = tmp_path / "nonexistent" / "r.csv"
    message = refused(capsys, ["simulate", "--rounds", "5", "--out", str(missing)])
    assert message == f"--out: cannot write {str(missing)!r}: no such directory {str(missing.parent)!r}"
    assert (
        refused(capsys, ["simulate", "--out", str(tmp_path)])
        == "--out: unknown file type '(none)' (use .npz, .csv, .parquet)"
    )
    folder = tmp_path / "d.csv"
    folder.mkdir()
    assert refused(capsys, ["simulate", "--out", str(folder)]) == f"--out: {str(folder)!r} is a directory"
    assert played == [] and not missing.parent.exists()


def test_an_out_file_is_written_by_its_suffix_in_any_case(capsys, tmp_path):
    path = tmp_path / "r.NPZ"
    assert cli.main(["simulate", "--game", "block", "--rounds", "20", "--out", str(path)]) == 0
    assert f"wrote 20 rounds to {path}" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.NPZ"]  # not r.NPZ.npz
    assert np.load(path)["points"].shape == (20, 2)


def test_a_late_write_failure_is_one_line_and_status_1(capsys, tmp_path, monkeypatch):
    def fail(path, rules, sim):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli, "write_results", fail)
    assert cli.main(["simulate", "--game", "block", "--rounds", "5", "--out", str(tmp_path / "r.csv")]) == 1
    captured = capsys.readouterr()
    assert "rounds: 5;" in captured.out  # the summary is printed first
    path = str(tmp_path / "r.csv")
    assert captured.err == f"dominocore simulate: error: cannot write {path!r}: No space left on device\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--simulate", "-1"], "--simulate must be between 0 and 1099511627776, got -1"),
        (["--simulate", str(2**41)], f"--simulate must be between 0 and 1099511627776, got {2**41}"),
        (["--simulate", "5", "--seed", "-3"], "a seed must be between 0 and 18446744073709551615, got -3"),
        (["simulate", "--matches", "2", "--round-index", "1"],
         "--round-index applies to --rounds only: a match deals its rounds 0, 1, ... itself"),
        (["simulate", "--matches", "2", "--round-index", "0"],
         "--round-index applies to --rounds only: a match deals its rounds 0, 1, ... itself"),
        (["simulate", "--rounds", str(2**63)], f"--rounds must be between 0 and {2**63 - 1}, got {2**63}"),
        (["simulate", "--chunk", str(2**41)], f"--chunk must be between 1 and 1099511627776, got {2**41}"),
        (["simulate", "--chunk", "0"], "--chunk must be between 1 and 1099511627776, got 0"),
        (["simulate", "--threads", "0"], "threads must be between 1 and 256, got 0"),
        (["simulate", "--round-index", "-1"], "round_index must be between 0 and 9, got -1"),
        (["simulate", "--rounds"], "argument --rounds: expected one argument"),
        (["show", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)  # fmt: skip
def test_bad_arguments_get_the_usage_and_one_line(capsys, argv, message):
    assert refused(capsys, argv) == message


def test_a_message_with_a_line_break_stays_one_line(capsys):
    message = refused(capsys, ["simulate", "--policy", "random,gre\nedy"])
    assert message == "--policy: unknown bot 'gre\\nedy' (choose from random, greedy, learned, ismcts, pimc, cheat)"
    parser = cli.build_parser()
    with pytest.raises(SystemExit):
        parser.error("two\nlines")
    assert capsys.readouterr().err.splitlines()[-1] == "dominocore: error: two lines"


def test_a_bug_is_one_line_and_status_1(capsys, monkeypatch):
    def broken(parser, args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(cli._COMMANDS, "show", broken)
    monkeypatch.delenv("DOMINOCORE_DEBUG", raising=False)
    assert cli.main(["show"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "dominocore: internal error: ZeroDivisionError: division by zero "
        "(a bug: please report it; DOMINOCORE_DEBUG=1 shows the traceback)\n"
    )
    monkeypatch.setenv("DOMINOCORE_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        cli.main(["show"])
