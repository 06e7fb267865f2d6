"""A whole round of ``dominocore play`` typed through a pseudo-terminal, as a
person would: read the prompt, ask for the legal moves, type one; use undo,
hint, save, quit and ``play --resume``, until the round ends."""

from __future__ import annotations

import os
import re
import sys

import dominocore as dc
import pytest
from dominocore.text import result_text

pexpect = pytest.importorskip("pexpect")

PROMPT = "move> "
LEGAL = re.compile(r"legal moves: ([^\r\n]*)\r?\n")
HINT = re.compile(r"hint: (\S+)\r?\n")
ROUND_OVER = re.compile(r"round 0 over: ([^\r\n]*)\r?\n")
STOPPED = re.compile(r"stopped after 1 round: totals ([-\d ]+)\r?\n")
ARGS = ["play", "--game", "chickenfoot", "--set", "6", "--players", "3", "--seed", "5", "--rounds", "1"]


def spawn(*args: str):
    env = dict(os.environ, COLUMNS="120", PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable, ["-m", "dominocore", *args], env=env, encoding="utf-8", timeout=30, dimensions=(50, 120)
    )
    return child


def legal_moves(child) -> list:
    """Type help at the prompt; the moves it lists."""
    child.sendline("help")
    child.expect(LEGAL)
    moves = child.match.group(1).split()
    child.expect_exact(PROMPT)
    return moves


def play_until_over(child, moves_typed: list) -> str:
    """At each prompt type the first legal move, until the round is over; the result line."""
    while True:
        index = child.expect_exact([PROMPT, "round 0 over: "])
        if index == 1:
            child.expect(r"([^\r\n]*)\r?\n")
            return child.match.group(1)
        moves = legal_moves(child)
        moves_typed.append(moves[0])
        child.sendline(moves[0])


def test_a_whole_round_through_a_terminal(tmp_path):
    save = tmp_path / "game.json"
    typed: list = []
    child = spawn(*ARGS)
    child.expect_exact("you are seat 0")
    child.expect_exact(PROMPT)
    # the first turn: list the moves, play one, then take it back
    first = legal_moves(child)
    assert first
    child.sendline(first[0])
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect(r"took back (\d+) moves?")
    child.expect_exact(PROMPT)
    assert legal_moves(child) == first  # back at the same turn
    # the hint is one of the legal moves; play it
    child.sendline("hint")
    child.expect(HINT)
    hint = child.match.group(1)
    assert hint in first
    child.expect_exact(PROMPT)
    child.sendline(hint)
    typed.append(hint)
    # a few more turns, then save and quit
    for _ in range(2):
        index = child.expect_exact([PROMPT, "round 0 over: "])
        assert index == 0, "the round should last longer than three turns"
        moves = legal_moves(child)
        typed.append(moves[0])
        child.sendline(moves[0])
    child.expect_exact(PROMPT)
    child.sendline(f"save {save}")
    child.expect_exact(f"saved to {save}")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert save.exists()

    # resume: the same table, then play to the end of the round
    child = spawn("play", "--resume", str(save))
    child.expect_exact("round 0 (resumed)")
    result = play_until_over(child, typed)
    child.expect(STOPPED)
    totals = [int(x) for x in child.match.group(1).split()]
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # the result line is the one these moves give against the greedy bots
    assert re.fullmatch(r"(seat \d went out|blocked); points \d+ \d+ \d+", result), result
    assert totals == [int(x) for x in result.split("points ")[1].split()]
    round_ = dc.Match(dc.ChickenFoot(set=6, players=3), seed=5).new_round()
    mine = list(typed)
    while not round_.is_over:
        round_.push(mine.pop(0) if round_.current_player == 0 else dc.GreedyPlayer().choose(round_))
    assert not mine
    assert result == result_text(round_.result)
