"""repr() and str() of every public result type work, in both implementations.

Reproducer (issue 19, item 10): with numpy 2.4, ``repr(simulate(...))`` and
``print(sim.reason)`` raised ``ValueError: Unknown format code 'd'`` (numpy
formats the elements of an integer array read through ``__getitem__``, and
``ReasonArray`` reads an element as its name).

The objects are enumerated from the public API: every class in ``__all__``
has an example below (a new public class without one fails
``test_every_public_class_has_an_example``), and the fields and elements of
the composite results are printed too.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import numpy as np
import pytest
from helpers import CORE_INSTALLED, NO_CORE

#: The search bots, which are the compiled core's (None in a pure-Python install).
search = importlib.import_module("dominocore.search") if CORE_INSTALLED else None

SIM_FIELDS = ("points", "reason", "out_seat", "starter", "moves", "match_index", "totals", "winners")


def printed(obj) -> str:
    """repr(obj) and str(obj), both of which must work; returns the repr."""
    text = repr(obj)
    assert isinstance(text, str) and text
    assert isinstance(str(obj), str)
    return text


def examples(dc) -> dict:
    """One instance (or more) of every public class of ``dc``, by class name."""
    rules = dc.ChickenFoot(players=3, set=6)
    round_ = dc.Round(rules, seed=np.int64(5))  # numpy integers pass through to the reprs
    for _ in range(6):
        round_.push(round_.legal_moves()[0])
    over = dc.Round(dc.Block(players=2), seed=2)
    while not over.is_over:
        over.push(dc.GreedyPlayer().choose(over))
    match = dc.Match(dc.Doubles(players=2, target=40), seed=np.uint64(3)).play("random")
    sim = dc.simulate(dc.Doubles(players=2, target=40), matches=np.int64(3), seed=np.uint64(1))
    errors = {
        "DominoError": dc.DominoError("x"),
        "RulesError": dc.RulesError("bad option"),
        "ParseError": dc.ParseError("bad text"),
        "StateError": dc.StateError("bad record"),
        "IllegalMoveError": dc.IllegalMoveError("not_in_hand", "not in hand"),
    }
    found = {
        "Block": dc.Block(players=2),
        "ChickenFoot": rules,
        "Doubles": dc.Doubles(players=2, target=np.int64(60)),
        "MexicanTrain": dc.MexicanTrain(players=4),
        "AllFives": dc.AllFives(players=4, teams=2),
        "FivesAndThrees": dc.FivesAndThrees(target=np.int64(31)),
        "Rules": rules,
        "End": round_.open_ends[0],
        "Placement": round_.layout[-1],
        "Tile": dc.Tile(np.int64(3), 5),
        "Move": round_.move_stack[-1],
        "Round": [round_, over, dc.Round(dc.MexicanTrain(players=3), seed=1), dc.Round(dc.AllFives(), seed=1)],
        "RoundResult": over.result,
        "HistoryEntry": round_.view(round_.current_player).history[-1],
        "PlayerView": [round_.view(s) for s in range(3)] + [over.view(0)],
        "Match": match,
        "SimulationResult": [
            sim,
            dc.simulate(dc.ChickenFoot(players=4), rounds=2_000, seed=4),  # numpy's summarised form
            dc.simulate(dc.Doubles(players=2), rounds=0),
        ],
        "SplitMix64": dc.SplitMix64(np.uint64(7)),
        "OpponentModel": [dc.OpponentModel("random"), dc.OpponentModel("softmax", temperature=np.float64(0.5))],
        "RandomPlayer": dc.RandomPlayer(np.int64(9)),
        "GreedyPlayer": dc.GreedyPlayer(),
        "LearnedPlayer": dc.LearnedPlayer(),
        "Network": dc.network_for(dc.Block(players=2)),  # the shipped network
        "VectorEnv": dc.VectorEnv(dc.Block(players=2), num_envs=2, seed=1),
        **errors,
    }
    if search is not None:
        found["ISMCTSPlayer"] = search.ISMCTSPlayer(iterations=20, seed=np.int64(1))
        found["PIMCPlayer"] = search.PIMCPlayer(iterations=20, seed=1)
        found["CheatingMCTSPlayer"] = search.CheatingMCTSPlayer(iterations=20, seed=1)
    return found


def public_classes(dc) -> set:
    """The public classes of ``dc``, and dominocore's search bots."""
    names = {n for n in dc.__all__ if inspect.isclass(getattr(dc, n, None))}
    return names | (set(search.__all__) - {"SEARCH_POLICIES"} if search is not None else set())


def test_every_public_class_has_an_example(dc):
    assert public_classes(dc) <= set(examples(dc))


def test_every_public_object_prints(dc):
    for objs in examples(dc).values():
        for obj in objs if isinstance(objs, list) else [objs]:
            printed(obj)
            if isinstance(obj, dc.Round):
                printed(obj.result)
                printed(obj.rules)
                printed(obj.legal_moves())
                for method in ("hands", "open_ends", "layout", "move_stack", "markers", "unlocked", "yard"):
                    printed(getattr(obj, method))
            if isinstance(obj, dc.PlayerView):
                for field in ("hand", "history", "open_ends", "layout", "hand_sizes", "result"):
                    if hasattr(obj, field):
                        printed(getattr(obj, field))


def test_simulation_results_print_with_their_reasons_by_name(dc):
    # The reproducer: these raised ValueError with numpy 2.4.
    sim = dc.simulate(dc.Doubles(players=2), rounds=3, seed=0)
    assert dataclasses.fields(sim) and tuple(f.name for f in dataclasses.fields(sim)) == SIM_FIELDS
    reasons = sim.reason.names().tolist()
    assert repr(sim.reason) == "ReasonArray([" + ", ".join(repr(r) for r in reasons) + "])"
    assert str(sim.reason) == "[" + " ".join(repr(r) for r in reasons) + "]"
    assert f"reason={sim.reason!r}" in repr(sim) and repr(sim).startswith("SimulationResult(points=array(")
    for name in SIM_FIELDS:
        printed(getattr(sim, name))
        printed(getattr(sim, name)[:1])
    assert repr(sim.reason[:0]) == "ReasonArray([])"
    assert str(sim.reason[0]) == reasons[0] and printed(sim.reason.reshape(1, -1)).startswith("ReasonArray([[")
    big = dc.simulate(dc.Doubles(players=2), rounds=3_000, seed=0)
    assert "..." in printed(big.reason) and "..." in str(big.reason)
    # the parts of simulate_iter and their concatenation print too
    parts = list(dc.simulate_iter(dc.Doubles(players=2), rounds=5, chunk_size=2))
    for part in parts + [dc.SimulationResult.concatenate(parts)]:
        printed(part)
    # an array that holds no reason codes (arithmetic on one) prints its numbers
    assert str(sim.reason.view(np.ndarray) + 5) == str(np.asarray(sim.reason.view(np.ndarray) + 5))
    assert "7" in printed((sim.reason + 7).view(type(sim.reason)))


def test_match_and_round_results_print(dc):
    match = dc.Match(dc.Doubles(players=2, target=30), seed=np.uint64(4)).play("random")
    assert printed(match).startswith("<Match ")
    for result in match.results:
        text = printed(result)
        assert text.startswith("RoundResult(")
        for part in result:
            printed(part)
    printed(match.rounds)
    printed(match.totals)
    printed(match.winners)
    printed(dc.match_winners(match.rules, match.results))


def test_tournament_and_search_results_print(dc):
    result = dc.tournament(dc.Block(players=2), ["greedy", "random"], rounds=3, seed=np.int64(2), progress=False)
    assert printed(result) and str(result) != ""
    for metric in ("points", "wins", "rank", "margin"):
        printed(result.per_deal(metric))
    printed(result.margin_differences(0, 1))
    for attr in ("seating", "points", "wins", "rounds"):
        printed(getattr(result, attr))
    printed(result.ratings())
    printed(result.pairwise_wins())
    if search is None:
        pytest.skip(NO_CORE)  # the rest prints the search bots' results
    r = dc.Round(dc.Block(players=2), seed=1)
    for cls in (search.ISMCTSPlayer, search.PIMCPlayer, search.CheatingMCTSPlayer):
        bot = cls(iterations=20, seed=1)
        position = r if cls is search.CheatingMCTSPlayer else r.view(r.current_player)
        found = bot.search(position)
        printed(found)
        for value in found.values():
            printed(value)


@pytest.mark.parametrize("seat", [None, 0])
def test_text_renders_print(dc, seat):
    from dominocore import text

    r = dc.Round(dc.Doubles(players=2), seed=np.int64(3))
    assert isinstance(text.render(r, seat), str)
    assert isinstance(r.render(seat), str)


def test_tiles_and_moves_print_as_their_notation(dc):
    """A hand or a list of moves prints as everything else writes them (issue
    20, item 11: ``print(state.hand(s))`` showed ``Tile(low=1, high=1)``), and
    the notation parses back to the same value."""
    r = dc.Round(dc.ChickenFoot(players=4), seed=7)
    hand = r.hand(r.current_player)
    assert str(hand) == "[" + ", ".join(str(t) for t in hand) + "]"
    moves = r.legal_moves() + [dc.Move.draw(), dc.Move.pass_()]
    assert repr(moves) == "[" + ", ".join(str(m) for m in moves) + "]"
    for i in range(190):  # every tile of double-18
        tile = dc.Tile.from_index(i)
        assert dc.Tile.parse(repr(tile)) == tile and repr(tile) == str(tile)
    for move in moves:
        assert dc.Move.parse(repr(move)) == move
