"""A user's script over every public name of ``dominocore``, for ``mypy
--strict`` (tests/test_typing.py): every line type-checks, and each
``assert_type`` pins the type a user sees. It runs, too (the same test runs it)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import dominocore as dc
import numpy as np
from dominocore import record
from dominocore.common.learned import shipped_weights
from numpy.typing import NDArray
from typing_extensions import assert_type

# ---- rules, tiles, moves
rules = dc.ChickenFoot(players=4, set=9, rule_set="trains")
assert_type(rules, dc.ChickenFoot)
assert_type(rules.players, int)
assert_type(rules.num_actions, int)
assert_type(dc.Doubles(players=2), dc.Doubles)
assert_type(dc.Block(players=2), dc.Block)
assert_type(dc.MexicanTrain(players=4), dc.MexicanTrain)
assert_type(dc.AllFives(players=4, teams=2), dc.AllFives)
assert_type(dc.FivesAndThrees(spinner="first"), dc.FivesAndThrees)
generic: dc.Rules = dc.rules_from_dict(rules.to_dict())
assert_type(dc.tile_count(9), int)
tile = dc.Tile.parse("5-9")
assert_type(tile, dc.Tile)
assert_type(tile.low, int)
assert_type(tile.index, int)
move = dc.Move.parse("5-9@2")
assert_type(move, dc.Move)
assert_type(move.kind, str)
assert_type(move.tile, Optional[dc.Tile])
assert_type(move.end, Optional[int])
move_kind, move_tile, move_end = move  # a move and a tile unpack to typed fields
assert_type((move_kind, move_tile, move_end), Tuple[str, Optional[dc.Tile], Optional[int]])
low, high = tile
assert_type((low, high), Tuple[int, int])

# ---- a round
state = dc.Round(rules, seed=7, round_index=0)
assert_type(state, dc.Round)
assert_type(state.current_player, int)
assert_type(state.centre, Optional[dc.Tile])
assert_type(state.hand(0), List[dc.Tile])
assert_type(state.legal_moves(), List[dc.Move])
assert_type(state.open_ends, List[dc.End])
assert_type(state.is_over, bool)
assert_type(state.legal_actions(), List[int])
state.push(state.legal_moves()[0])
state.push("draw") if False else None
assert_type(state.pop(), dc.Move)
state.apply_action(state.legal_actions()[0])
assert_type(state.clone(), dc.Round)
assert_type(state.observation_tensor(0), NDArray[np.float32])
assert_type(state.information_state(0), str)
assert_type(state.result, Optional[dc.RoundResult])
assert_type(state.layout, List[dc.Placement])
view = state.view(state.current_player)
assert_type(view, dc.PlayerView)
assert_type(view.legal_moves(), Tuple[dc.Move, ...])
assert_type(dc.PlayerView.from_dict(view.to_dict()), dc.PlayerView)
assert_type(view.history, Tuple[dc.HistoryEntry, ...])
world = state.determinize(state.current_player, seed=1)
assert_type(world, dc.Round)
assert_type(dc.Round.from_dict(state.to_dict()), dc.Round)

# ---- bots, matches, simulations
assert_type(dc.GreedyPlayer().choose(state), dc.Move)
assert_type(dc.RandomPlayer(3).choose(view), dc.Move)
assert_type(dc.ISMCTSPlayer(iterations=20, seed=1).choose(view), dc.Move)
assert_type(dc.PIMCPlayer(iterations=20, seed=1).choose(view), dc.Move)
assert_type(dc.CheatingMCTSPlayer(iterations=20, seed=1).choose(state), dc.Move)
match = dc.Match(dc.Doubles(players=2), seed=1).play(["greedy", "random"], rounds=1)
assert_type(match, dc.Match)
assert_type(match.totals, Tuple[int, ...])
assert_type(match.rounds[0], dc.Round)
assert_type(match.round, Optional[dc.Round])
assert_type(dc.Match(dc.Doubles(players=2), seed=2).new_round(), dc.Round)
assert_type(dc.match_winners(match.rules, match.results), Tuple[int, ...])
sim = dc.simulate(rules, rounds=10, seed=1)
assert_type(sim, dc.SimulationResult)
assert_type(sim.points, NDArray[np.int32])
chunks = dc.simulate_iter(rules, rounds=10, chunk_size=5)
assert_type(chunks, Iterator[dc.SimulationResult])
generator = dc.SplitMix64(7)
assert_type(generator.next(), int)
block = dc.Block(players=2)
network = dc.network_for(block)  # the shipped network (docs/learning.md)
assert_type(network, dc.Network)
assert_type(network.outputs(dc.Round(block, seed=1), 0), List[int])
assert_type(network.value(dc.Round(block, seed=1), 0), float)
assert_type(dc.load_network(shipped_weights(network.key)).key, str)
assert_type(dc.LearnedPlayer().choose(dc.Round(block, seed=1)), dc.Move)
model = dc.OpponentModel("softmax", temperature=1.0)
assert_type(model.temperature, float)
env = dc.VectorEnv(rules, num_envs=2, seed=1)
assert_type(env, dc.VectorEnv)
observations, masks, seats = env.reset(seed=1)
assert_type(observations, NDArray[np.float32])
assert_type(masks, NDArray[np.bool_])
assert_type(seats, NDArray[np.int32])
step = env.step([int(np.flatnonzero(row)[0]) for row in masks])
assert_type(step[1], NDArray[np.float32])
assert_type(step[2], NDArray[np.bool_])
assert_type(env.step_random()[4], NDArray[np.int32])
learned_env = dc.VectorEnv(block, num_envs=2, seed=1)
learned_env.reset(seed=1)
assert_type(learned_env.step_learned()[0], NDArray[np.float32])
assert_type(env.round(0), dc.Round)
assert_type(env.episodes, NDArray[np.int64])
assert_type(state.legal_action_mask(), NDArray[np.bool_])
# the dtypes the types name are the dtypes the arrays have (checked when the script runs)
for array, dtype in [
    (state.observation_tensor(0), np.float32),
    (state.legal_action_mask(), np.bool_),
    (sim.points, np.int32),
    (sim.out_seat, np.int8),
    (sim.moves, np.int32),
    (sim.match_index, np.int64),
    (observations, np.float32),
    (masks, np.bool_),
    (seats, np.int32),
    (step[1], np.float32),
    (step[2], np.bool_),
    (env.actions, np.int32),
    (env.episodes, np.int64),
]:
    assert array.dtype == dtype, (array.dtype, dtype)
result = dc.tournament(dc.Block(players=2), ["greedy", "random"], rounds=2, progress=False)
assert_type(result.pair("greedy", "random"), Dict[str, Any])

# ---- records, errors, the package
text = record.dumps(state)
assert_type(record.loads(text), Union[dc.Round, dc.Match])
errors: Tuple[type, ...] = (dc.DominoError, dc.IllegalMoveError, dc.ParseError, dc.RulesError, dc.StateError)
assert_type(dc.IMPLEMENTATION, str)
assert_type(dc.__version__, str)
assert_type(dc.get_include(), str)
assert_type(dc.get_library_dirs(), List[str])
assert_type(dc.get_libraries(), List[str])
assert_type(dc.reference.Round(rules, seed=1), dc.reference.Round)
