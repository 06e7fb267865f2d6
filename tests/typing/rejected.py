"""Mistakes a user makes, each of which ``mypy --strict`` must reject: every
line with an "E" comment is an error, and no other line is
(tests/test_typing.py). It is never run."""

from __future__ import annotations

import dominocore as dc
import numpy as np
from dominocore import record
from numpy.typing import NDArray

rules = dc.ChickenFoot(players=4)
state = dc.Round(rules, seed=7)
state.push(3.5)  # E: a move is a Move or its text
dc.Round("trains")  # E: a Round takes a rules object
state.apply_action("2-9@0")  # E: an action is an int id
state.apply_action(state.legal_moves()[0])  # E: a Move is not an action id
dc.simulate(rules, rounds="10")  # E: a count is an int
dc.ChickenFoot(players="4")  # E: players is an int
state.hand("0")  # E: a seat is an int
state.is_legal(7)  # E: a move is a Move or its text
tile_sum: int = state.centre  # E: the centre is a Tile (or None), not an int
points: NDArray[np.int64] = dc.simulate(rules, rounds=1).points  # E: points are int32
tensor: NDArray[np.float64] = state.observation_tensor(0)  # E: observations are float32
record.loads(state)  # E: a record is JSON text
dc.tournament(rules, ["greedy", "random"], rounds=2, lineup=[0.5, 1, 1, 1])  # E: a lineup names bots by name or index
state.no_such_method()  # E: a typo is an error, not Any
state.view(0).hand.append(dc.Tile(1, 1))  # E: a view is immutable: its hand is a tuple
low: int = dc.Move.parse("5-9@2").tile.low  # E: a move's tile may be None (a draw)
kind, tile, end = dc.Move.parse("5-9@2")
end_text: str = end  # E: a move unpacks to typed fields: its end id is an int (or None)
half, _ = dc.Tile(5, 9)
half_text: str = half  # E: a tile unpacks to two ints
env = dc.VectorEnv(rules, num_envs=2)
env.step(["0", "1"])  # E: actions are int ids
env.round(0).push(3.5)  # E: an environment's round is a Round, not Any
dc.Match(rules, seed=1).rounds[0].push(3.5)  # E: a match's rounds are Rounds, not Any
