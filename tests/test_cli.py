"""The demo command prints every round's scores and the winner."""

from __future__ import annotations

import pytest
from dominocore import cli


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


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "doubles", "--rule-set", "cross"], "rule_set"),  # Doubles has no rule sets
        (["--game", "block", "--drawn-tile", "may"], "drawn_tile"),  # nobody draws in Block
        (["--game", "chickenfoot", "--lead", "winner"], "lead"),
        (["--game", "mexican_train", "--target", "50"], "target"),
    ],
)
def test_an_option_the_game_does_not_have_is_refused(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown option" in err and message in err


def test_version(capsys):
    import dominocore

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"dominocore {dominocore.__version__}"
