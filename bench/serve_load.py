"""Load on ``dominocore serve``: many concurrent tables of bots and scripted
players on loopback, for a bounded time (docs/serve.md). A benchmark, never a
timed test.

    python bench/serve_load.py [--tables 200] [--seconds 30] [--seed 1] [--json OUT]

Half the tables are bots only, playing long matches as fast as they can;
the other half each have one scripted player (a websocket client that plays
a random legal move from its view, and starts a new table when its match
ends), and every tenth of those a spectator. It reports moves a second (all, and the scripted
players' own), moves per CPU-second of the server, the latency from sending
a move to receiving the view that shows it (p50, p90, p99), and the server's
memory. It checks, and exits 1 if any fails:

- no lost or duplicated move: every table's move rows are numbered 0..n-1,
  and every move a player saw acknowledged is in the database, where it was;
- no leak: no message to a player names a tile it could not know (its hand,
  now or before, its drawn tiles, the placed tiles), and none to a spectator
  names an unplaced tile;
- every error was provoked on purpose (a stale stamp and a malformed message
  on a few tables), with the right code, and those tables played on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sqlite3
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Set, Tuple

from serve_process import create_table, running_server
from websockets.asyncio.client import connect

TILE = re.compile(r"(?<![0-9])([0-9]{1,2})-([0-9]{1,2})(?![0-9])")
SCRIPTED = [  # tables with one scripted player (seat 0)
    ({"game": "block", "players": 2, "set": 6, "target": 50}, ["human", "greedy"]),
    ({"game": "doubles", "players": 3, "set": 6, "target": 60}, ["human", "random", "greedy"]),
    ({"game": "chickenfoot", "rule_set": "trains", "players": 4, "set": 6}, ["human", "greedy", "random", "greedy"]),
]
BOTS = [
    ({"game": "chickenfoot", "rule_set": "trains", "players": 4, "set": 9}, ["greedy", "random", "greedy", "random"]),
    ({"game": "mexican_train", "players": 4, "set": 9}, ["greedy"] * 4),
    ({"game": "block", "players": 2, "set": 6, "target": 500}, ["random", "greedy"]),
]


def tiles(text: str) -> Set[Tuple[int, int]]:
    return {tuple(sorted((int(a), int(b)))) for a, b in TILE.findall(text)}  # type: ignore[misc]


def placed(view: Dict[str, Any]) -> Set[Tuple[int, int]]:
    return tiles(" ".join([p[0] for p in view["layout"]] + [view["centre"] or ""]))


class Stats:
    def __init__(self) -> None:
        self.latencies: List[float] = []
        self.own_moves: List[Tuple[str, int, int, str]] = []  # (table, round, move number, move) acknowledged
        self.problems: List[str] = []
        self.provoked = 0
        self.messages = 0


async def player(
    url: str, table: str, token: str, seat: Optional[int], stats: Stats, rng: random.Random, provoke: bool
) -> None:
    """A scripted player at ``seat`` (``None``: a spectator) until the match ends or it is cancelled."""
    known: Set[Tuple[int, int]] = set()
    sent: Optional[Tuple[int, int, str, float]] = None  # (round, move number, move, when)
    async with connect(url, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        async for text in ws:
            message = json.loads(text)
            stats.messages += 1
            if message["type"] == "error":
                expected = {"stale", "bad_json"} if provoke else set()
                if message["code"] in expected:
                    stats.provoked += 1
                else:
                    stats.problems.append(f"table {table}: unexpected error {message}")
                continue
            if message["type"] != "state":
                continue
            view = message["view"]
            if seat is None:
                leaked = tiles(json.dumps(view)) - placed(view)
            else:
                known |= tiles(" ".join(view["hand"] + view["own_setup_draws"] + [view["drawn_tile"] or ""])) | placed(
                    view
                )
                leaked = tiles(json.dumps(view)) - known
            if leaked:
                stats.problems.append(f"table {table}: seat {seat} was sent {sorted(leaked)}")
            if seat is None:
                continue
            if sent is not None and (view["round_index"], view["move_number"]) > (sent[0], sent[1]):
                stats.latencies.append(time.perf_counter() - sent[3])
                if view["round_index"] == sent[0]:
                    entry = view["history"][sent[1]]
                    if entry[0] != seat or entry[1] != sent[2]:
                        stats.problems.append(f"table {table}: move {sent[1]} is {entry}, not ours ({sent[2]})")
                stats.own_moves.append((table, sent[0], sent[1], sent[2]))
                sent = None
            if message["match"]["over"]:
                return
            if view["result"] is not None:
                await ws.send(json.dumps({"v": 1, "type": "next"}))
            elif view["current_player"] == seat and sent is None:
                stamp = {"round_id": view["round_id"], "move_number": view["move_number"]}
                if provoke and rng.random() < 0.05:  # provoked: a stale stamp, then a malformed message
                    await ws.send(
                        json.dumps({"v": 1, "type": "move", "move": "pass", "stamp": {**stamp, "move_number": -1}})
                    )
                    await ws.send("{malformed")
                move = rng.choice(view["legal_moves"])
                sent = (view["round_index"], view["move_number"], move, time.perf_counter())
                await ws.send(json.dumps({"v": 1, "type": "move", "move": move, "stamp": stamp}))


async def table_after_table(
    base: str,
    url: str,
    answer: Dict[str, Any],
    rules: Dict[str, Any],
    seats: List[str],
    seed: int,
    stats: Stats,
    k: int,
) -> None:
    """Seat 0 of ``answer``'s table, then of a new table each time a match ends, until cancelled."""
    rng, provoke = random.Random(k), k % 20 == 1
    while True:
        await player(url, answer["table"], answer["seats"][0], 0, stats, rng, provoke)
        seed += 1_000_003
        answer = await asyncio.to_thread(create_table, base, {"rules": rules, "seats": seats, "seed": seed})


def proc(pid: int) -> Tuple[float, int]:
    """The process's CPU seconds and resident memory in KB."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return cpu, rss


async def run(base: str, pid: int, db: str, args: argparse.Namespace, stats: Stats) -> Dict[str, Any]:
    rng = random.Random(args.seed)
    url = base.replace("http", "ws") + "/ws"
    tasks = []
    for k in range(args.tables):
        seed = args.seed * 100_000 + k
        if k % 2 == 0:
            rules, seats = BOTS[(k // 2) % len(BOTS)]
            create_table(base, {"rules": rules, "seats": seats, "seed": seed})
            continue
        rules, seats = SCRIPTED[(k // 2) % len(SCRIPTED)]
        first = create_table(base, {"rules": rules, "seats": seats, "seed": seed})
        tasks.append(asyncio.create_task(table_after_table(base, url, first, rules, seats, seed, stats, k)))
        if k % 20 == 3:
            tasks.append(asyncio.create_task(player(url, first["table"], first["spectator"], None, stats, rng, False)))
    cpu0, rss0 = proc(pid)
    moves0 = count_moves(db)
    start, peak = time.perf_counter(), rss0
    while time.perf_counter() - start < args.seconds:
        await asyncio.sleep(1.0)
        peak = max(peak, proc(pid)[1])
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                stats.problems.append(f"a player failed: {task.exception()!r}")
                tasks.remove(task)
    elapsed = time.perf_counter() - start
    cpu1, rss1 = proc(pid)
    moves = count_moves(db) - moves0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"elapsed": elapsed, "cpu": cpu1 - cpu0, "moves": moves, "rss": (rss0, max(peak, rss1), rss1)}


def count_moves(db: str) -> int:
    """The moves committed so far (the server writes in WAL mode: reading does not stop it)."""
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]


def percentile(values: List[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    stats = Stats()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/db.sqlite3"
        with running_server(db) as (server, base):
            result = asyncio.run(run(base, server.pid, db, args, stats))
        with sqlite3.connect(db) as con:
            rows = con.execute(
                "SELECT table_id, number, round_index, seat, move FROM moves ORDER BY table_id, number"
            ).fetchall()
    by_table: Dict[str, List[Tuple[int, int, int, str]]] = {}
    for table, number, round_index, seat, move in rows:
        by_table.setdefault(table, []).append((number, round_index, seat, move))
    for table, moves in by_table.items():
        if [m[0] for m in moves] != list(range(len(moves))):
            stats.problems.append(f"table {table}: move numbers are not 0..{len(moves) - 1}")
    for table, round_index, number, move in stats.own_moves:
        in_round = [m for m in by_table.get(table, []) if m[1] == round_index]
        if number >= len(in_round) or (in_round[number][2], in_round[number][3]) != (0, move):
            stats.problems.append(
                f"table {table}: acknowledged move {round_index}/{number} {move} is not in the database"
            )
    elapsed, cpu, moves = result["elapsed"], result["cpu"], result["moves"]
    numbers = {
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "player_moves_per_second": round(len(stats.own_moves) / elapsed, 1),
        "moves_per_cpu_second": round(moves / cpu, 1) if cpu else None,
        "latency_ms": {
            q: round(1000 * percentile(stats.latencies, p), 1) for q, p in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
        },
        "rss_mb": {k: round(v / 1024, 1) for k, v in zip(("start", "peak", "end"), result["rss"])},
        "messages": stats.messages,
        "provoked_errors": stats.provoked,
        "problems": stats.problems[:20],
    }
    print("| tables | seconds | moves/s | player moves/s | moves/CPU-s | p50 | p90 | p99 | RSS start/peak/end MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    lat, rss = numbers["latency_ms"], numbers["rss_mb"]
    print(
        f"| {args.tables} | {numbers['seconds']} | {numbers['moves_per_second']} "
        f"| {numbers['player_moves_per_second']} "
        f"| {numbers['moves_per_cpu_second']} | {lat['p50']} ms | {lat['p90']} ms | {lat['p99']} ms "
        f"| {rss['start']} / {rss['peak']} / {rss['end']} |"
    )
    print(f"{stats.messages} messages; {stats.provoked} provoked errors; {len(stats.own_moves)} player moves checked")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(numbers, f, indent=2)
    if stats.problems or not stats.provoked or not stats.own_moves:
        print("FAIL:\n" + "\n".join(stats.problems[:20] or ["no provoked error or no player move was seen"]))
        return 1
    print("PASS: no move lost or duplicated, no tile leaked, every error provoked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
