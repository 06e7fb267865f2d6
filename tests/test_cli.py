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
