"""Game records (``dominocore.record``, docs/records.md): writing, reading in
either implementation, exact round trips, the rejections, and the records
kept in tests/data/records/.

The files in tests/data/records/ were written by record format version 1 and
are the fixed point every later version must keep loading: never rewrite
them. ``python tests/test_records.py --write DIR`` writes the same records
into another directory (to compare, or to start the files of a new version).
"""

from __future__ import annotations

import datetime
import json
import pathlib
import random
import sys

import pytest
from dominocore import record
from dominocore.common.errors import StateError
from dominocore.common.results import read_match_record
from dominocore.games import Doubles
from dominocore.record import RecordError
from helpers import needs_core, observe

DATA = pathlib.Path(__file__).parent / "data" / "records"
IMPLEMENTATIONS = {"python": "dominocore.reference", "cpp": "dominocore.native"}


# --------------------------------------------------------------------------- the kept records


def _play(round_, bot, moves=None) -> None:
    """Let ``bot`` play ``round_`` to its end, or ``moves`` moves."""
    while not round_.is_over and (moves is None or moves > 0):
        round_.push(bot.choose(round_))
        moves = None if moves is None else moves - 1


def fixture_objects(dc):
    """(file name, object, header arguments) of every kept record, built with ``dc``."""
    out = []
    # rounds: dealt from a seed (the seed in the record), from a match, from a hand-built deal
    r = dc.Round(dc.ChickenFoot(players=4, set=9), seed=11, round_index=3)
    _play(r, dc.RandomPlayer(11))
    out.append(("trains_round.json", r, {"seed": 11, "seats": ["Ann", "Bo", "Cy", "Di"], "date": "2024-05-01"}))
    m = dc.Match(dc.ChickenFoot(players=3, set=6, rule_set="cross"), seed=12).play("random", rounds=3)
    out.append(("cross_round.json", m.rounds[2], {"event": "a round of a match"}))
    r = dc.Round(dc.Doubles(players=2), seed=13)
    _play(r, dc.GreedyPlayer(), moves=10)  # in play
    out.append(("doubles_round.json", r, {"seed": 13}))
    tiles = [str(dc.Tile.from_index(i)) for i in range(28)]
    random.Random(14).shuffle(tiles)
    r = dc.Round.from_deal(dc.Block(players=2), [tiles[:7], tiles[7:14]], tiles[14:], None, starter=1)
    _play(r, dc.GreedyPlayer())
    out.append(("block_round.json", r, {"seats": ["north", "south"]}))
    r = dc.Round(dc.MexicanTrain(players=3, set=9), seed=15, round_index=4)
    _play(r, dc.RandomPlayer(15))
    out.append(("mexican_train_round.json", r, {"seed": 15}))
    r = dc.Round(dc.AllFives(players=2), seed=16)
    _play(r, dc.GreedyPlayer())
    out.append(("all_fives_round.json", r, {"seed": 16}))
    m = dc.Match(dc.FivesAndThrees(players=4, teams=2, target=30), seed=17).play("random", rounds=2)
    out.append(("fives_and_threes_round.json", m.rounds[1], {"event": "a round carrying the match's totals"}))
    # matches: finished, and one with a round in play
    m = dc.Match(dc.ChickenFoot(players=2, set=6), seed=21).play(["greedy", "random"])
    out.append(("trains_match.json", m, {"seats": ["greedy", "random"], "event": "bots", "date": "2024-05-02"}))
    m = dc.Match(dc.ChickenFoot(players=3, set=6, rule_set="cross"), seed=22).play("random", rounds=3)
    _play(m.new_round(), dc.GreedyPlayer(), moves=5)
    out.append(("cross_match.json", m, {}))
    out.append(("doubles_match.json", dc.Match(dc.Doubles(players=3, target=60), seed=23).play("random"), {}))
    out.append(("block_match.json", dc.Match(dc.Block(players=2, target=50), seed=24).play("greedy"), {}))
    m = dc.Match(dc.MexicanTrain(players=2, set=6, drawn_tile="may"), seed=25).play("random")
    out.append(("mexican_train_match.json", m, {"date": datetime.date(2024, 5, 3)}))
    out.append(("all_fives_match.json", dc.Match(dc.AllFives(players=2, target=60), seed=26).play("greedy"), {}))
    m = dc.Match(dc.FivesAndThrees(players=3, spinner="first", target=25), seed=27).play("random")
    out.append(("fives_and_threes_match.json", m, {}))
    return out


def write_fixtures(directory: pathlib.Path) -> None:
    """Write every kept record into ``directory`` (not into tests/data/records: see the module docstring)."""
    import dominocore.reference as ref

    directory.mkdir(parents=True, exist_ok=True)
    for name, obj, header in fixture_objects(ref):
        record.save(obj, directory / name, **header)


def header_args(text: str) -> dict:
    """The writer's arguments that reproduce a record's header."""
    h = record.read_header(text)
    return {"seats": h["seats"], "event": h["event"], "date": h["date"], "seed": h["seed"]}


FILES = sorted(p.name for p in DATA.glob("*.json"))


def test_every_game_has_a_kept_round_and_match():
    games = ["trains", "cross", "doubles", "block", "mexican_train", "all_fives", "fives_and_threes"]
    assert FILES == sorted(f"{g}_{kind}.json" for g in games for kind in ("match", "round"))


@pytest.mark.parametrize("name", FILES)
def test_the_kept_records_load_in_both_implementations(dc, name):
    """Written by the previous version: they must keep loading, replay to the
    same states in both implementations, and (while the format is version 1)
    write back byte for byte."""
    text = (DATA / name).read_text(encoding="utf-8")
    obj = record.loads(text, implementation=dc)
    kind = json.loads(text)["kind"]
    assert isinstance(obj, dc.Match if kind == "match" else dc.Round)
    assert record.dumps(obj, **header_args(text)) == text
    other = record.loads(text, implementation="python")
    rounds = (lambda x: list(x.rounds)) if kind == "match" else (lambda x: [x])
    for a, b in zip(rounds(obj), rounds(other)):
        assert observe(a) == observe(b)


def test_the_kept_records_are_what_this_version_writes(tmp_path):
    write_fixtures(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == FILES
    for name in FILES:
        assert (tmp_path / name).read_text(encoding="utf-8") == (DATA / name).read_text(encoding="utf-8"), name


# --------------------------------------------------------------------------- writing and round trips


def same_states_move_by_move(a, b) -> None:
    """Two rounds equal in every observable, undone move by move back to the deal."""
    a, b = a.clone(), b.clone()
    while True:
        assert observe(a) == observe(b)
        if not a.move_stack:
            assert not b.move_stack
            break
        assert a.pop() == b.pop()


def objects(dc):
    """Rounds and matches of every game, finished and in play."""
    out = [obj for _, obj, _ in fixture_objects(dc)]
    out.append(dc.Round(dc.Doubles(players=4, set=9), seed=3))  # no move yet
    out.append(dc.Match(dc.Block(players=3), seed=4))  # no round yet
    return out


@needs_core
def test_records_round_trip_exactly_across_implementations(dc):
    for obj in objects(dc):
        text = record.dumps(obj)
        for impl in IMPLEMENTATIONS:
            again = record.loads(text, implementation=impl)
            assert record.dumps(again) == text
            assert record.dumps(record.loads(record.dumps(again))) == text
            if isinstance(obj, dc.Match):
                assert again.totals == obj.totals and again.winners == obj.winners
                assert again.is_over == obj.is_over and len(again.rounds) == len(obj.rounds)
                for a, b in zip(again.rounds, obj.rounds):
                    same_states_move_by_move(a, b)
            else:
                same_states_move_by_move(again, obj)


def test_the_layout_and_header(dc):
    r = dc.Round(dc.Block(players=2), seed=3)
    _play(r, dc.GreedyPlayer())
    data = record.to_record(r, seats=("Ann", "Bo"), event="club", date=datetime.datetime(2024, 5, 1, 20, 30))
    assert list(data) == ["format", "version", "kind", "header", "deal", "moves"]
    assert data["format"] == "dominocore-record" and data["version"] == 1 and data["kind"] == "round"
    header = data["header"]
    assert list(header) == ["game", "rules", "seed", "round_index", "seats", "event", "date", "result"]
    assert header["game"] == "block" and header["rules"] == r.rules.to_dict() and header["seed"] is None
    assert header["seats"] == ["Ann", "Bo"] and header["date"] == "2024-05-01" and header["event"] == "club"
    res = r.result
    assert header["result"] == {
        "reason": res.reason,
        "out_seat": None if res.out_seat < 0 else res.out_seat,
        "points": list(res.points),
        "winners": list(dc.match_winners(r.rules, [res])),
    }
    assert data["deal"] == r.to_dict()["deal"] and data["moves"] == [str(m) for m in r.move_stack]
    assert record.from_record(data, implementation=dc).to_dict() == r.to_dict()
    seeded = record.to_record(r, seed=3)
    assert seeded["deal"] is None and seeded["header"]["seed"] == 3
    text = record.dumps(r)
    assert text.endswith("}\n") and max(map(len, text.splitlines())) <= 100
    assert json.loads(text) == record.to_record(r)


def test_match_records(dc):
    m = dc.Match(dc.Doubles(players=2, target=40), seed=5).play("random")
    data = record.to_record(m, seed=5)
    assert list(data) == ["format", "version", "kind", "header", "rounds"]
    header = data["header"]
    assert list(header) == ["game", "rules", "seed", "rounds", "seats", "event", "date", "result"]
    assert header["seed"] == 5 and header["rounds"] == len(m.rounds) == len(data["rounds"])
    assert header["result"] == {"totals": list(m.totals), "winners": list(m.winners)}
    for k, (entry, r) in enumerate(zip(data["rounds"], m.rounds)):
        assert list(entry) == ["round_index", "result", "moves"] and entry["round_index"] == k
        assert entry["moves"] == [str(x) for x in r.move_stack]
    with pytest.raises(RecordError, match=r"a match record's seed is the match's own \(5\), not 6"):
        record.to_record(m, seed=6)


def test_save_and_load(dc, tmp_path):
    m = dc.Match(dc.ChickenFoot(players=2, set=6), seed=2).play("greedy", rounds=2)
    path = tmp_path / "game.json"
    record.save(m, path, seats=["x", "y"], event="é", date="2024-01-31")
    assert path.read_text(encoding="utf-8") == record.dumps(m, seats=["x", "y"], event="é", date="2024-01-31")
    import dominocore
    import dominocore.reference as ref

    again = record.load(path)
    assert type(again) is dominocore.Match  # the served implementation
    assert again.to_dict()["rounds"] == m.to_dict()["rounds"]
    assert type(record.load(str(path), implementation="python")) is ref.Match
    assert type(record.loads(path.read_bytes(), implementation=dc)) is dc.Match
    assert record.read_header(path.read_text(encoding="utf-8"))["event"] == "é"


def test_the_served_implementation_is_the_default(dc):
    import dominocore

    text = record.dumps(dc.Round(dc.Doubles(players=2), seed=1))
    assert type(record.loads(text)) is dominocore.Round
    assert type(record.loads(text, implementation=dc)) is dc.Round
    with pytest.raises(dc.RulesError, match="implementation must be 'cpp', 'python' or a module"):
        record.loads(text, implementation="java")
    with pytest.raises(dc.RulesError, match="implementation must be"):
        record.loads(text, implementation=json)


def test_writer_arguments_are_checked(dc):
    r = dc.Round(dc.Doubles(players=2), seed=1)
    with pytest.raises(RecordError, match=r"seed 2 does not deal this round \(round index 0\)"):
        record.dumps(r, seed=2)
    with pytest.raises(RecordError, match="seed must be an integer 0..2\\*\\*64-1, got True"):
        record.dumps(r, seed=True)
    with pytest.raises(RecordError, match="seats must be a list of 2 names, one per seat"):
        record.dumps(r, seats=["a"])
    with pytest.raises(RecordError, match="each seat's name must be a non-empty string, got ''"):
        record.dumps(r, seats=["a", ""])
    with pytest.raises(RecordError, match="event must be a string, got 3"):
        record.dumps(r, event=3)
    with pytest.raises(RecordError, match="date must be a date written YYYY-MM-DD, got '2024-5-1'"):
        record.dumps(r, date="2024-5-1")
    with pytest.raises(TypeError, match="a record is written of a dominocore Round or Match"):
        record.dumps("round")
    assert issubclass(RecordError, dc.ParseError) and issubclass(RecordError, dc.DominoError)


# --------------------------------------------------------------------------- rejections


def round_record(dc) -> dict:
    """A finished Chicken Foot round dealt from a seed, as data."""
    r = dc.Round(dc.ChickenFoot(players=3, set=6), seed=5, round_index=1)
    _play(r, dc.GreedyPlayer())
    return record.to_record(r, seed=5)


def deal_record(dc) -> dict:
    """A round with its deal (no seed), six moves played, as data."""
    r = dc.Round(dc.Doubles(players=2), seed=5)
    _play(r, dc.GreedyPlayer(), moves=6)
    return record.to_record(r)


def match_record(dc) -> dict:
    m = dc.Match(dc.Doubles(players=2, target=60), seed=5).play("greedy")
    return record.to_record(m)


def rejected(dc, data, fragment: str) -> None:
    with pytest.raises(RecordError) as info:
        record.from_record(data, implementation=dc)
    assert fragment in str(info.value)


def swap_move(data: dict, ply: int, move: str) -> None:
    data["moves"][ply - 1] = move


@pytest.mark.parametrize(
    "make, change, fragment",
    [
        (round_record, lambda d: d.update(version=2), "unsupported record version 2 (newer than this dominocore reads"),
        (round_record, lambda d: d.update(version=0), "unsupported record version 0: this version reads [1]"),
        (round_record, lambda d: d.update(version=1.0), "the record's version must be an integer, got 1.0"),
        (round_record, lambda d: d.update(format="pgn"), "not a dominocore record: its 'format' must be"),
        (round_record, lambda d: d.update(kind="game"), "the record's kind must be 'round' or 'match', got 'game'"),
        (round_record, lambda d: d.update(comment="x"), "unknown key 'comment' in the record"),
        (round_record, lambda d: d.pop("moves"), "missing key 'moves' in the record"),
        (round_record, lambda d: d["header"].update(site="x"), "unknown key 'site' in the header"),
        (round_record, lambda d: d["header"].pop("date"), "missing key 'date' in the header"),
        (round_record, lambda d: d["header"]["result"].update(by=1), "unknown key 'by' in the header's result"),
        (round_record, lambda d: d["header"].update(game="doubles"), "the header's game 'doubles' is not its rules'"),
        (round_record, lambda d: d["header"]["rules"].update(set=5), "bad rules in the header: set must be"),
        (round_record, lambda d: d["header"]["rules"].update(colour=1), "bad rules in the header"),
        (round_record, lambda d: d["header"].update(seed=-1), "the header's seed must be an integer 0..2**64-1 or"),
        (round_record, lambda d: d["header"].update(round_index=7), "the header's round_index must be between 0"),
        (round_record, lambda d: d["header"].update(round_index=True), "round_index must be an integer, got True"),
        (round_record, lambda d: d["header"].update(seats=["a"]), "seats must be null or a list of 3 names"),
        (round_record, lambda d: d["header"].update(seats=["a", "b", 3]), "each seat's name must be a non-empty"),
        (round_record, lambda d: d["header"].update(event=1), "the header's event must be null or a string"),
        (round_record, lambda d: d["header"].update(date="2024-02-30"), "date must be a date written YYYY-MM-DD"),
        (round_record, lambda d: d["header"]["result"].update(points=[1, 2]), "points must hold 3 numbers"),
        (round_record, lambda d: d["header"]["result"].update(out_seat="0"), "out_seat must be a seat or null"),
        (round_record, lambda d: d.update(moves="draw"), "the round's moves must be a list of moves"),
        (round_record, lambda d: swap_move(d, 3, 7), "the round, move 3: a move is a string, got 7"),
        (round_record, lambda d: swap_move(d, 2, "play"), "the round, move 2: a move is written"),
        (round_record, lambda d: swap_move(d, 1, " pass"), "the round, move 1: ' pass' is not written as the"),
        (round_record, lambda d: d.update(deal={}), "a round record holds a seed or a deal, not both"),
        (deal_record, lambda d: d.update(deal=None), "a round record without a seed must hold its deal"),
        (deal_record, lambda d: d["deal"].update(starter=5), "bad deal: starter must be between 0 and 1"),
        (deal_record, lambda d: d["deal"]["hands"][0].pop(), "bad deal: tiles missing from the deal"),
        (deal_record, lambda d: d["deal"].update(extra=1), "bad deal: unknown keys in deal: 'extra'"),
        (deal_record, lambda d: d.update(deal=[]), "the record's deal must be a JSON object"),
        (match_record, lambda d: d["header"].update(seed=None), "the header's seed must be an integer 0..2**64-1,"),
        (match_record, lambda d: d["header"].update(rounds=9), "the header counts 9 rounds, but the record holds"),
        (match_record, lambda d: d["header"].update(rounds=-1), "the header's rounds must be a count of rounds"),
        (match_record, lambda d: d.update(rounds={}), "the record's rounds must be a list"),
        (match_record, lambda d: d["rounds"][1].update(when=1), "unknown key 'when' in round 1"),
        (match_record, lambda d: d["rounds"][1].update(round_index=0), "round 1 has round_index 0, not 1"),
        (
            match_record,
            lambda d: d["rounds"][0].update(moves=[], result=None),
            "round 0 is not over, but round 1 follows it",
        ),
        (match_record, lambda d: d["header"]["result"].pop("totals"), "missing key 'totals' in the header's result"),
        (match_record, lambda d: d["header"]["result"].update(totals=[1]), "totals must hold 2 numbers"),
        (match_record, lambda d: d["rounds"][0]["result"].update(points=1), "round 0's result's points must be a"),
    ],
)
def test_a_malformed_record_is_refused(dc, make, change, fragment):
    data = make(dc)
    change(data)
    rejected(dc, data, fragment)


def test_an_illegal_move_is_named_by_its_ply_and_reason(dc):
    data = round_record(dc)
    r = dc.Round(dc.ChickenFoot(players=3, set=6), seed=5, round_index=1)
    for text in data["moves"][:4]:
        r.push(text)
    wrong = next(m for m in ("draw", "pass") if not r.is_legal(m))
    reason = None
    try:
        r.push(wrong)
    except dc.IllegalMoveError as exc:
        reason, message = exc.reason, str(exc)
    swap_move(data, 5, wrong)
    rejected(dc, data, f"the round, move 5 ({wrong}) is illegal: {reason}: {message}")
    # a tile nobody holds, in a match's third round
    data = match_record(dc)
    data["rounds"][2]["moves"][0] = "6-6@40"
    rejected(dc, data, "round 2, move 1 (6-6@40) is illegal: ")
    # a move after the round ended
    data = round_record(dc)
    data["moves"].append("pass")
    data["header"]["result"] = None
    rejected(dc, data, f"the round, move {len(data['moves'])} (pass) is illegal: round_over: ")


def test_a_wrong_result_is_refused(dc):
    data = round_record(dc)
    data["header"]["result"]["points"][0] += 1
    rejected(dc, data, "the header's result {")
    rejected(dc, data, "is not the result of its moves, {")
    data = round_record(dc)
    data["header"]["result"] = None
    rejected(dc, data, "the header's result null is not the result of its moves")
    data = round_record(dc)
    data["header"]["result"]["winners"] = [True]  # JSON true is not 1
    rejected(dc, data, "the header's result's winners must be a list of integers, got [True]")
    data = deal_record(dc)
    data["header"]["result"] = {"reason": "out", "out_seat": 0, "points": [0, 0], "winners": [0, 1]}
    rejected(dc, data, "is not the result of its moves, null")
    data = match_record(dc)
    data["header"]["result"]["winners"] = [0, 1]
    rejected(dc, data, "the header's result {")
    data = match_record(dc)
    data["rounds"][1]["result"]["reason"] = "blocked"
    rejected(dc, data, "round 1's result {")
    data = match_record(dc)
    data["header"]["result"] = None
    rejected(dc, data, "the header's result null is not the result of its moves, {")


def test_a_round_after_the_end_of_the_match_is_refused(dc):
    data = match_record(dc)
    data["rounds"].append({"round_index": len(data["rounds"]), "result": None, "moves": []})
    data["header"]["rounds"] += 1
    rejected(dc, data, f"round {len(data['rounds']) - 1} follows the end of the match (it was over after")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("{", "a record must be JSON: "),
        ('{"format": 1, "format": 2}', "key 'format' appears twice in one object"),
        ('{"version": NaN}', "NaN is not a number a record may hold"),
        ("[]", "a record is a JSON object, got []"),
        (b"\xff", "a record is UTF-8 text"),
        ("[" * 100000, "a record must be JSON"),
    ],
)
def test_text_that_is_not_a_record(text, fragment):
    with pytest.raises(RecordError) as info:
        record.loads(text)
    assert fragment in str(info.value)
    with pytest.raises(RecordError, match="a record is JSON text, got 3"):
        record.loads(3)  # type: ignore[arg-type]


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) != 3 or sys.argv[1] != "--write" or pathlib.Path(sys.argv[2]).resolve() == DATA.resolve():
        sys.exit("usage: python tests/test_records.py --write DIR   (never tests/data/records: those are kept)")
    write_fixtures(pathlib.Path(sys.argv[2]))


# ------------------------------------------- the match record's shape (common, read by both engines)


def test_read_match_record_checks_the_shape_and_decides_no_rule():
    good = {"version": 1, "rules": Doubles().to_dict(), "seed": 7, "generator": 9, "bot_generator": 11, "rounds": []}
    parts = read_match_record(good)
    assert parts == (Doubles(), 7, 9, 11, [])
    # the rounds are passed on unread: replaying them is each engine's work
    assert read_match_record({**good, "rounds": ["not a round"]}).rounds == ["not a round"]
    bad = {
        "a match record is a dict, got list": [good],
        "unsupported match record version": {**good, "version": 2},
        "unknown key": {**good, "colour": 1},
        "bad rules in match record": {**good, "rules": {"game": "chess"}},
        "seed": {**good, "seed": -1},
        "generator state": {**good, "generator": 2**64},
        "bot_generator": {**good, "bot_generator": "1"},
        "must be a list": {**good, "rounds": {}},
    }
    for words, data in bad.items():
        with pytest.raises(StateError) as caught:
            read_match_record(data)
        assert words in str(caught.value)
