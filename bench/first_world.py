"""The first world as a search bot meets it, and what a bot saves by reusing
its determinizer (docs/search.md 2, "What a bot keeps between searches").

    python bench/first_world.py                                   # cross, trains, Mexican Train; d15, d18; 6-8 players
    python bench/first_world.py --games cross --sets 18 --players 8 --rounds 4
    python bench/first_world.py --records tests/data/determinize_hard.json

For each configuration it plays ``--rounds`` random rounds (uniformly random
legal moves, ``random.Random(seed)``, seeds ``--first-seed`` and on) and, at
late points of each round, searches for the seat to move with a fresh bot,
``ISMCTSPlayer(iterations=1)``: that search builds the seat's determinizer
and draws its first world (building the exact count when the proposals
fail, docs/information.md 4), then runs one iteration. The same bot then
searches the same position again (``reused`` is true: no slot model and no
count to build), and then once more at ``--iterations`` iterations. It prints
a JSON line a configuration (the slowest first search and where, the slowest
repeated one, the positions whose first search took over 0.1 s) and a summary line over
every configuration. Times are wall-clock on a shared machine: worst cases,
not benchmarks.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from typing import Any, Dict, Iterator

import dominocore as dc
from dominocore.search import ISMCTSPlayer

sys.path.insert(0, str(pathlib.Path(__file__).parent))  # run as a script or loaded by a test: its neighbour
from determinize_scan import GAMES, configurations, round_positions  # noqa: E402

#: The games whose long rounds make the hardest determinizations.
HARDEST = ("cross", "trains", "mexican_train")

#: Late points of a round (fractions of its length) where the bot searches.
POINTS = (0.6, 0.7, 0.8, 0.9, 0.97)


def timed_searches(position: Any, iterations: int) -> Dict[str, Any]:
    """A fresh bot's first search of ``position`` (1 iteration), the same
    search again, and one of ``iterations`` iterations, by the same bot."""
    bot = ISMCTSPlayer(iterations=1, seed=0)
    clock = time.perf_counter()
    first = bot.search(position)
    first_s = time.perf_counter() - clock
    clock = time.perf_counter()
    again = bot.search(position)
    again_s = time.perf_counter() - clock
    bot.iterations = iterations
    clock = time.perf_counter()
    full = bot.search(position)
    full_s = time.perf_counter() - clock
    assert not first["reused"] and again["reused"] and full["reused"]
    assert again["move"] == first["move"]
    return {
        "first_s": first_s,
        "again_s": again_s,
        "search_s": full_s,
        "iterations": full["iterations"],
    }


def scan(label: str, rules: Any, rounds: int, first_seed: int, iterations: int) -> Dict[str, Any]:
    worst_first, worst_at, worst_again, slow, positions, searches = 0.0, None, 0.0, 0, 0, []
    started = time.perf_counter()
    for where, position in round_positions(rules, rounds, first_seed, POINTS):
        if len(position.legal_moves(distinct=True)) < 2:
            continue  # a lone legal move is played without a search
        positions += 1
        m = timed_searches(position, iterations)
        slow += m["first_s"] > 0.1
        searches.append(m["search_s"] / max(1, m["iterations"]))
        worst_again = max(worst_again, m["again_s"])
        if m["first_s"] > worst_first:
            worst_first = m["first_s"]
            worst_at = {**where, "again_s": round(m["again_s"], 4)}
    return {
        "config": f"{label} d{rules.set} {rules.players}p",
        "positions": positions,
        "first_over_0.1s": slow,
        "worst_first_search_s": round(worst_first, 4),
        "at": worst_at,
        "worst_repeat_search_s": round(worst_again, 4),
        "mean_iteration_ms": round(1e3 * sum(searches) / max(1, len(searches)), 3),
        "scan_s": round(time.perf_counter() - started),
    }


def measure_records(path: str, iterations: int) -> Iterator[Dict[str, Any]]:
    """Each position of a JSON list of ``{"name", "seat", "record"}`` (as in
    tests/data/determinize_hard.json) whose seat is to move."""
    with open(path, encoding="utf-8") as file:
        cases = json.load(file)
    for case in cases:
        position = dc.Round.from_dict(case["record"])
        if position.current_player != case["seat"] or len(position.legal_moves(distinct=True)) < 2:
            continue
        m = timed_searches(position, iterations)
        yield {
            "name": case["name"],
            "first_search_s": round(m["first_s"], 3),
            "repeat_search_s": round(m["again_s"], 4),
            "search_s": round(m["search_s"], 3),
            "iterations": m["iterations"],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(HARDEST), help="comma-separated, from: " + ", ".join(GAMES))
    parser.add_argument("--sets", default="15,18", help="comma-separated set sizes (default 15,18)")
    parser.add_argument("--players", default="6,7,8", help="comma-separated player counts (default 6,7,8)")
    parser.add_argument("--rounds", type=int, default=2, help="random rounds a configuration (default 2)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first round's seed (default 0)")
    parser.add_argument("--iterations", type=int, default=200, help="the third search's iterations (default 200)")
    parser.add_argument("--records", metavar="JSON", help="measure these positions instead")
    args = parser.parse_args()
    if dc.IMPLEMENTATION != "cpp":
        parser.error("the scan measures the compiled core: build it (pip install .)")
    if args.records:
        for line in measure_records(args.records, args.iterations):
            print(json.dumps(line), flush=True)
        return
    split = lambda text: [x for x in text.split(",") if x]  # noqa: E731
    unknown = set(split(args.games)) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    worst: Dict[str, Any] = {"worst_first_search_s": 0.0, "worst_repeat_search_s": 0.0}
    configs = configurations(
        split(args.games), [int(x) for x in split(args.sets)], [int(x) for x in split(args.players)]
    )
    for label, rules in configs:
        line = scan(label, rules, args.rounds, args.first_seed, args.iterations)
        print(json.dumps(line), flush=True)
        if line["worst_first_search_s"] > worst["worst_first_search_s"]:
            worst.update(worst_first_search_s=line["worst_first_search_s"], config=line["config"], at=line["at"])
        worst["worst_repeat_search_s"] = max(worst["worst_repeat_search_s"], line["worst_repeat_search_s"])
    print(json.dumps({"summary": worst}), flush=True)


if __name__ == "__main__":
    main()
