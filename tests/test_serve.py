"""``dominocore serve`` (docs/serve.md): the table API, the websocket
protocol's every refusal, what each seat is sent, persistence and restart.

The protocol is tested through Starlette's test client (the real
application, no network); the secrets over 200 games with in-process
clients that check every message as it is sent; the restart against a real
``dominocore serve`` process killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from helpers import CORE_INSTALLED, free_port, seen_by, serve_process, tiles_in

pytest.importorskip("starlette", reason="dominocore serve needs the [web] extra")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

import dominocore as dc  # noqa: E402
from dominocore import record, svg  # noqa: E402
from dominocore.serve import create_app  # noqa: E402
from dominocore.serve.app import STATIC  # noqa: E402
from dominocore.serve.protocol import ERROR_CODES, MAX_MESSAGE_BYTES  # noqa: E402
from dominocore.serve.store import Store  # noqa: E402
from dominocore.serve.tables import SEAT_KINDS, Client, Tables  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BLOCK = {"game": "block", "players": 2, "set": 6}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "db.sqlite3")) as c:
        yield c


def create(client, rules=BLOCK, seats=("human", "human"), seed=5):
    answer = client.post("/api/tables", json={"rules": rules, "seats": list(seats), "seed": seed})
    assert answer.status_code == 201, answer.text
    return answer.json()


def send(ws, **message):
    ws.send_text(json.dumps({"v": 1, **message}))


def hello(ws, token):
    send(ws, type="hello", token=token)
    state = ws.receive_json()
    assert state["type"] == "state", state
    return state


def stamp(state):
    view = state["view"]
    return {"round_id": view["round_id"], "move_number": view["move_number"]}


def error(ws, code):
    """The next message, which must be the error ``code``."""
    answer = ws.receive_json()
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert set(answer) == {"v", "type", "code", "message"} and answer["message"]
    assert "Traceback" not in answer["message"] and 'File "' not in answer["message"]
    return answer


def moves_in_db(path, table):
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT number, seat, move FROM moves WHERE table_id = ? ORDER BY number", (table,)
        ).fetchall()


# ---------------------------------------------------------------- creating tables


def test_a_table_gives_one_token_per_human_seat_and_a_spectator_token(client):
    answer = create(client, seats=("human", "greedy"))
    assert answer["seats"][1] is None and isinstance(answer["seats"][0], str) and len(answer["seats"][0]) >= 20
    assert answer["spectator"] not in answer["seats"]
    assert client.get("/api/health").json() == {"tables": 1}


@pytest.mark.parametrize(
    "body,code",
    [
        (b"not json", "bad_json"),
        (b"[1, 2]", "bad_message"),
        (json.dumps({"rules": {"game": "chess"}, "seats": ["human"]}).encode(), "bad_message"),
        (json.dumps({"rules": {"game": "block", "players": 9}, "seats": ["human"] * 9}).encode(), "bad_message"),
        (json.dumps({"rules": BLOCK, "seats": ["human"]}).encode(), "bad_message"),
        (json.dumps({"rules": BLOCK, "seats": ["human", "wizard"]}).encode(), "bad_message"),
        (json.dumps({"rules": {**BLOCK, "set": 9}, "seats": ["human", "learned"]}).encode(), "bad_message"),
        (json.dumps({"rules": BLOCK, "seats": ["human", "human"], "seed": -1}).encode(), "bad_message"),
        (json.dumps({"rules": BLOCK, "seats": ["human", "human"], "seed": True}).encode(), "bad_message"),
        (json.dumps({"rules": BLOCK, "seats": ["human", "human"], "admin": 1}).encode(), "bad_message"),
        (
            json.dumps({"rules": BLOCK, "seats": ["human", "human"], "pad": "x" * MAX_MESSAGE_BYTES}).encode(),
            "too_large",
        ),
    ],
)
def test_a_bad_table_request_is_refused_and_creates_nothing(client, body, code):
    answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == (413 if code == "too_large" else 400)  # docs/serve.md 2
    assert answer.json()["error"] == code and answer.json()["message"]
    assert client.get("/api/health").json() == {"tables": 0}


def test_a_table_the_server_fails_to_store_is_answered_500_internal(client, monkeypatch):
    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error at /secret/path")

    monkeypatch.setattr(Store, "create_table", broken)
    answer = client.post("/api/tables", json={"rules": BLOCK, "seats": ["human", "human"]})
    assert answer.status_code == 500 and answer.json()["error"] == "internal"
    assert "secret" not in answer.text and "sqlite" not in answer.text.lower()
    assert client.get("/api/health").json() == {"tables": 0}


# ---------------------------------------------------------------- the page


def test_the_pages_seat_kinds_are_the_servers():
    """The form offers exactly the kinds the server accepts, in its order."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    offered = re.search(r"^const KINDS = (\[.*\]);$", script, re.M)
    assert offered is not None and tuple(json.loads(offered.group(1))) == SEAT_KINDS


def test_the_page_and_its_files_are_checked_with_the_server_every_time(client):
    for path in ("/", "/play", "/static/index.html", "/static/app.js", "/static/style.css"):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache", path
    etag = client.get("/static/app.js").headers["etag"]
    again = client.get("/static/app.js", headers={"if-none-match": etag})  # unchanged: a short answer
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"


# ---------------------------------------------------------------- the protocol


def test_a_seat_is_sent_exactly_its_view_and_a_spectator_the_public_one(client):
    answer = create(client)
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as watch:
        mine = hello(ws, answer["seats"][0])
        public = hello(watch, answer["spectator"])
        assert mine["role"] == "seat" and mine["seat"] == 0 and public["role"] == "spectator" and public["seat"] is None
        assert len(mine["view"]["hand"]) == 7 and mine["view"]["legal_moves"]
        assert public["view"]["hand"] == [] and public["view"]["legal_moves"] == []
        assert public["view"]["hand_sizes"] == mine["view"]["hand_sizes"]
        assert mine["svg"].startswith("<svg") and public["svg"].startswith("<svg")
        assert not tiles_in(json.dumps(public["view"]))  # nothing placed yet: no tile is public


def test_every_refusal_has_its_code_and_changes_nothing(client, tmp_path):
    answer = create(client)
    db = tmp_path / "db.sqlite3"
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        state = hello(a, answer["seats"][0])
        hello(b, answer["seats"][1])
        assert a.receive_json()["seats"][1]["connected"]  # every change is announced, b's arrival too
        assert state["view"]["current_player"] == 0
        a.send_text("{not json")
        error(a, "bad_json")
        a.send_text("[1]")
        error(a, "bad_json")
        a.send_text(json.dumps({"v": 1, "type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}))
        error(a, "too_large")
        a.send_text(json.dumps({"v": 2, "type": "ping"}))
        error(a, "bad_version")
        send(a, type="dance")
        error(a, "bad_message")
        send(a, type="move", move=7, stamp=stamp(state))
        error(a, "bad_message")
        send(a, type="move", move="draw", stamp={"round_id": 1, "move_number": 0})
        error(a, "bad_message")
        send(a, type="hello", token=answer["seats"][1])  # a connection holds one seat for good
        error(a, "bad_message")
        send(b, type="move", move=state["view"]["legal_moves"][0], stamp=stamp(state))  # seat 1, seat 0's turn
        error(b, "not_your_turn")
        send(a, type="move", move=state["view"]["legal_moves"][0], stamp={**stamp(state), "move_number": 3})
        error(a, "stale")
        send(a, type="move", move="6-6@0", stamp=stamp(state))  # not in seat 0's hand
        refused = error(a, "illegal_move")
        assert not (tiles_in(refused["message"]) - {(6, 6)} - set(map(tuple, _tiles(state["view"]["hand"]))))
        send(a, type="next")
        error(a, "not_over")
        send(a, type="ping")
        assert a.receive_json() == {"v": 1, "type": "pong"}
        assert moves_in_db(db, answer["table"]) == []
        # a legal move, then the same message again: the replay is stale
        move = {"type": "move", "move": state["view"]["legal_moves"][0], "stamp": stamp(state)}
        send(a, **move)
        after = a.receive_json()
        assert after["type"] == "state" and after["view"]["move_number"] == 1
        assert b.receive_json()["view"]["move_number"] == 1
        send(a, **move)
        error(a, "stale")
        assert len(moves_in_db(db, answer["table"])) == 1


def _tiles(texts):
    return [tuple(sorted(map(int, t.split("-")))) for t in texts]


def test_the_error_codes_are_the_documented_ones():
    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "serve.md"), encoding="utf-8").read()
    for code in ERROR_CODES:
        assert f"| `{code}` |" in text, code


@pytest.mark.parametrize("first", [None, "bad-token", "other-table"])
def test_a_connection_without_a_valid_hello_gets_bad_token_and_is_closed(client, first):
    answer = create(client)
    other = create(client, seed=6)
    with client.websocket_connect("/ws") as ws:
        if first is None:
            send(ws, type="ping")
        elif first == "bad-token":
            send(ws, type="hello", token=answer["seats"][0][:-1] + "x")
        else:  # another table's token joins that table, never this one
            state = hello(ws, other["seats"][0])
            assert state["table"] == other["table"] != answer["table"]
            send(ws, type="move", move=state["view"]["legal_moves"][0], stamp={"round_id": "x", "move_number": 0})
            error(ws, "stale")
            return
        error(ws, "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_a_spectator_cannot_play_or_deal(client):
    answer = create(client)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, answer["spectator"])
        send(ws, type="move", move="draw", stamp=stamp(state))
        error(ws, "spectator")
        send(ws, type="next")
        error(ws, "spectator")


def _play_round(ws, state, seat):
    """Seat ``seat`` plays its first legal move whenever it is to move, until the round ends."""
    while state["view"]["result"] is None:
        if state["view"]["current_player"] == seat:
            send(ws, type="move", move=state["view"]["legal_moves"][0], stamp=stamp(state))
        state = ws.receive_json()
        assert state["type"] == "state", state
    return state


def test_moves_after_the_round_and_after_the_match_are_refused(client):
    answer = create(client, rules={"game": "block", "players": 2, "set": 6, "target": 1}, seats=("human", "greedy"))
    with client.websocket_connect("/ws") as ws:
        state = _play_round(ws, hello(ws, answer["seats"][0]), 0)
        over = state
        while not state["match"]["over"]:  # the next rounds, until someone has a point
            send(ws, type="move", move="draw", stamp=stamp(state))
            error(ws, "round_over")
            send(ws, type="next")
            state = _play_round(ws, ws.receive_json(), 0)
        assert over["view"]["result"] is not None
        send(ws, type="move", move="pass", stamp=stamp(state))
        error(ws, "match_over")
        send(ws, type="next")
        error(ws, "match_over")
        assert state["match"]["winners"] and len(state["match"]["rounds"]) >= 1


def test_the_record_is_given_once_the_match_is_over_and_replays(client, tmp_path):
    answer = create(client, rules={"game": "block", "players": 2, "set": 6, "target": 30}, seats=("greedy", "random"))
    token = answer["spectator"]
    deadline = time.monotonic() + 60
    while True:
        got = client.get("/api/record", params={"token": token})
        if got.status_code == 200 or time.monotonic() > deadline:
            break
        assert got.status_code == 409 and got.json()["error"] == "not_over"
        time.sleep(0.05)
    assert got.status_code == 200, got.text
    assert client.get("/api/health").json() == {"tables": 0}  # a finished table nobody watches leaves memory
    assert client.get("/api/record", params={"token": token}).text == got.text  # and is read back when asked for
    assert client.get("/api/record", params={"token": "nothing"}).status_code == 403
    path = tmp_path / "match.json"
    path.write_text(got.text)
    match = record.load(path)
    assert match.is_over and sum(1 for r in match.rounds if r.is_over) >= 1
    moves = moves_in_db(tmp_path / "db.sqlite3", answer["table"])
    assert [n for n, _, _ in moves] == list(range(len(moves)))  # none lost, none twice
    assert sum(len(r.move_stack) for r in match.rounds) == len(moves)
    replay = subprocess.run(
        [sys.executable, "-m", "dominocore", "replay", str(path), "--all"], capture_output=True, text=True, timeout=120
    )
    assert replay.returncode == 0, replay.stderr
    assert "match over" in replay.stdout


def test_a_failed_write_is_answered_internal_with_nothing_changed(client, monkeypatch, tmp_path):
    answer = create(client)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, answer["seats"][0])

        def broken(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error at /secret/path")

        monkeypatch.setattr(Store, "record_move", broken)
        send(ws, type="move", move=state["view"]["legal_moves"][0], stamp=stamp(state))
        refused = error(ws, "internal")
        assert "secret" not in refused["message"] and "sqlite" not in refused["message"].lower()
        monkeypatch.undo()
        send(ws, type="move", move=state["view"]["legal_moves"][0], stamp=stamp(state))  # the same stamp still holds
        assert ws.receive_json()["view"]["move_number"] == 1


def test_two_tabs_on_one_seat_see_the_same_state_and_a_reconnection_restores_it(client):
    answer = create(client)
    token = answer["seats"][0]
    with client.websocket_connect("/ws") as one:
        first = hello(one, token)
        send(one, type="move", move=first["view"]["legal_moves"][0], stamp=stamp(first))
        played = one.receive_json()
        with client.websocket_connect("/ws") as two:
            again = hello(two, token)
            assert again["view"] == played["view"] and again["svg"] == played["svg"]
    with client.websocket_connect("/ws") as three:
        assert hello(three, token)["view"] == played["view"]


# ---------------------------------------------------------------- secrets


class CheckingClient(Client):
    """An in-process client that checks each message as the table sends it,
    with the round as it stands: no tile its receiver may not know appears in
    it, its view is the seat's own, and its picture is the same in another
    world that seat cannot tell from this one."""

    def __init__(self, seat, table, pictures):
        super().__init__(seat)
        self.table, self.pictures, self.checked, self.latest = table, pictures, 0, None

    def send(self, message):
        if message.get("type") == "state":
            round_ = self.table.match.round
            seat = self.seat
            allowed = set() if seat is None else seen_by(round_, seat)
            if seat is None:
                allowed = {tuple(sorted((p.tile.low, p.tile.high))) for p in round_.layout}
                if round_.centre is not None:
                    allowed.add(tuple(sorted((round_.centre.low, round_.centre.high))))
            leaked = tiles_in(json.dumps(message["view"])) - allowed
            assert not leaked, f"seat {seat} was sent {sorted(leaked)}"
            if seat is not None:
                expected = round_.view(seat).to_dict()
                if round_.is_over:  # a finished round is handed out as a fresh copy, with its own round_id
                    expected["round_id"] = message["view"]["round_id"]
                assert message["view"] == expected
            if self.pictures and not round_.is_over:
                world = round_.determinize(0 if seat is None else seat, seed=self.checked)
                other = svg.render(world.view(0 if seat is None else seat), seat=None)
                assert message["svg"] == other, f"seat {seat}'s picture depends on what it cannot see"
            self.checked += 1
            self.latest = message
        super().send(message)


GAMES = [
    {"game": "chickenfoot", "rule_set": "trains", "players": 4, "set": 6},
    {"game": "chickenfoot", "rule_set": "cross", "players": 3, "set": 6},
    {"game": "doubles", "players": 4, "set": 6},
    {"game": "block", "players": 2, "set": 6},
    {"game": "mexican_train", "players": 4, "set": 6},
    {"game": "all_fives", "players": 3, "set": 6},
    {"game": "fives_and_threes", "players": 4, "set": 6},
]


async def _play_checked(tables, rules, seats, seed, pictures):
    answer = tables.create({"rules": rules, "seats": seats, "seed": seed})
    table = tables.tables[answer["table"]]
    clients = {s: CheckingClient(s, table, pictures) for s, kind in enumerate(seats) if kind == "human"}
    watcher = CheckingClient(None, table, pictures)
    for c in [*clients.values(), watcher]:
        await table.join(c)
    rng = random.Random(seed)
    while not table.match.round.is_over:
        round_ = table.match.round
        mover = round_.current_player
        if mover in clients:
            view = clients[mover].latest["view"]
            assert view["move_number"] == len(round_.move_stack)
            await table.play(mover, rng.choice(view["legal_moves"]), stamp({"view": view}))
        else:
            await asyncio.sleep(0.0005)  # a bot is thinking
    await table.stop()
    return sum(c.checked for c in [*clients.values(), watcher])


def test_no_message_of_200_games_shows_a_seat_a_tile_it_may_not_know(tmp_path):
    async def main():
        tables = Tables(Store(tmp_path / "db.sqlite3"))
        checked = 0
        for g in range(200):
            rules = GAMES[g % len(GAMES)]
            players = rules["players"]
            seats = [("human" if (s + g) % 3 != 2 else ("greedy" if g % 2 else "random")) for s in range(players)]
            checked += await _play_checked(tables, rules, seats, seed=1000 + g, pictures=g % 5 == 0)
        tables.store.close()
        return checked

    checked = asyncio.run(asyncio.wait_for(main(), timeout=600))
    assert checked > 5000


def test_a_learned_bot_plays_the_learned_players_move_from_its_view(tmp_path):
    """Block double-6 for two has a shipped network: every move of the
    learned seat is the one ``LearnedPlayer`` chooses from that seat's view
    (and, for the messages, nothing leaks: ``_play_checked``)."""

    async def main():
        tables = Tables(Store(tmp_path / "db.sqlite3"))
        await _play_checked(tables, BLOCK, ["human", "learned"], seed=3, pictures=False)
        table = next(iter(tables.tables.values()))
        tables.store.close()
        return table.match.round

    round_ = asyncio.run(asyncio.wait_for(main(), timeout=120))
    moves = list(round_.move_stack)
    while round_.move_stack:
        round_.pop()
    learned = 0
    for move in moves:
        if round_.current_player == 1:
            assert move == dc.LearnedPlayer().choose(round_.view(1))
            learned += 1
        round_.push(move)
    assert learned >= 3


# ---------------------------------------------------------------- restart


def _post(port, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.mark.skipif(not CORE_INSTALLED, reason="the IS-MCTS bots, which keep tables busy, need the compiled core")
def test_a_killed_server_loses_no_move_and_every_table_resumes(tmp_path):
    ws_client = pytest.importorskip("websockets.sync.client")
    db, port = tmp_path / "db.sqlite3", free_port()
    with serve_process(db, port) as (server, _, _):
        busy = [
            _post(
                port, {"rules": {"game": "chickenfoot", "players": 4, "set": 6}, "seats": ["ismcts-0.1"] * 4, "seed": s}
            )
            for s in range(3)
        ]
        human = _post(port, {"rules": BLOCK, "seats": ["human", "greedy"], "seed": 9})
        url = f"ws://127.0.0.1:{port}/ws"
        with ws_client.connect(url) as ws:
            ws.send(json.dumps({"v": 1, "type": "hello", "token": human["seats"][0]}))
            state = json.loads(ws.recv(timeout=10))
            for _ in range(2):  # two of the person's moves, each announced
                while state["view"]["current_player"] != 0:
                    state = json.loads(ws.recv(timeout=10))
                ws.send(
                    json.dumps({"v": 1, "type": "move", "move": state["view"]["legal_moves"][0], "stamp": stamp(state)})
                )
                state = json.loads(ws.recv(timeout=10))
            announced = state["view"]["history"]
        time.sleep(1.0)  # the bots play on
        before = {t["table"]: len(moves_in_db(db, t["table"])) for t in busy}
        assert all(n > 0 for n in before.values())
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
    assert f"open http://127.0.0.1:{port}/" in server.stdout.read()  # the address to open, printed first
    at_kill = {t["table"]: len(moves_in_db(db, t["table"])) for t in busy}
    with serve_process(db, port) as (_, _, health):
        assert health["tables"] == 4
        with ws_client.connect(url) as ws:
            ws.send(json.dumps({"v": 1, "type": "hello", "token": human["seats"][0]}))
            state = json.loads(ws.recv(timeout=10))
            assert state["view"]["history"][: len(announced)] == announced  # no announced move lost
            while state["view"]["current_player"] != 0 and state["view"]["result"] is None:
                state = json.loads(ws.recv(timeout=10))
            if state["view"]["result"] is None:  # the person plays on after the restart
                ws.send(
                    json.dumps({"v": 1, "type": "move", "move": state["view"]["legal_moves"][0], "stamp": stamp(state)})
                )
                assert json.loads(ws.recv(timeout=10))["view"]["move_number"] == state["view"]["move_number"] + 1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the bots' tables resume
            after = {t["table"]: len(moves_in_db(db, t["table"])) for t in busy}
            if all(after[t] > at_kill[t] for t in after):
                break
            time.sleep(0.2)
        assert all(after[t] > at_kill[t] for t in after), (at_kill, after)
        for t in busy:
            numbers = [n for n, _, _ in moves_in_db(db, t["table"])]
            assert numbers == list(range(len(numbers)))


@pytest.mark.skipif(not CORE_INSTALLED, reason="the IS-MCTS bots need the compiled core")
def test_a_thinking_bot_blocks_no_other_table(client, tmp_path):
    """A table of 2-second IS-MCTS bots thinks in a worker thread: meanwhile a
    person at another table plays three moves, each answered, before the
    slow table has made its first."""
    slow = create(client, rules={"game": "chickenfoot", "players": 2, "set": 6}, seats=("ismcts-2", "ismcts-2"))
    answer = create(client, seats=("human", "greedy"))
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, answer["seats"][0])
        played = 0
        while played < 3 and state["view"]["result"] is None:
            if state["view"]["current_player"] == 0:
                send(ws, type="move", move=state["view"]["legal_moves"][0], stamp=stamp(state))
                played += 1
            state = ws.receive_json()
        assert moves_in_db(tmp_path / "db.sqlite3", slow["table"]) == []
        assert played == 3 or state["view"]["result"] is not None


def test_serve_refuses_a_bad_port_in_one_line(capsys):
    from dominocore import cli

    with pytest.raises(SystemExit) as exit:
        cli.main(["serve", "--port", "0"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: dominocore serve") and err.strip().endswith("--port must be from 1 to 65535, got 0")


def test_stopping_the_server_while_bots_finish_their_matches_stops_every_table(tmp_path):
    """A table whose bots end its match leaves ``tables`` while the others
    are being stopped: stopping must not trip over it, and must cancel every bot."""

    async def main():
        tables = Tables(Store(tmp_path / "db.sqlite3"))
        made = [
            tables.create({"rules": {**BLOCK, "target": 1}, "seats": ["greedy", "random"], "seed": k})
            for k in range(50)
        ]
        running = list(tables.tables.values())
        await asyncio.sleep(0)
        await tables.stop()
        assert all(t._bots is None or t._bots.done() for t in running)
        tables.store.close()
        return made

    assert len(asyncio.run(asyncio.wait_for(main(), timeout=120))) == 50
