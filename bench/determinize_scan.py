"""The exact determinizer's worst cases, configuration by configuration
(docs/information.md 4, "Cost and worst case").

    python bench/determinize_scan.py                          # every game, sets 6-12, 6 rounds each
    python bench/determinize_scan.py --sets 15,18 --rounds 4  # the large sets (about an hour)
    python bench/determinize_scan.py --games cross --sets 18 --players 5
    python bench/determinize_scan.py --sets 18 --first-seed 100     # other rounds
    python bench/determinize_scan.py --records tests/data/determinize_hard.json

For each configuration (game and rule options, set, player count) it plays
``--rounds`` rounds by uniformly random legal moves (``random.Random(seed)``
over ``legal_moves()``, seeds ``--first-seed`` and on) and, at ten points of each round,
asks the compiled core for a determinizer of the seat to move: the first
world (which builds the exact count when the proposals fail) and ten more.
It prints a JSON line a configuration: the positions, how many built a
count, the slowest first world and where, the slowest further world, how
many counted a coarser model and the lowest acceptance of its draws (and
where), and the positions where the sampler gave up (``StateError``: not
seen since the coarser models). Times are wall-clock on a shared machine: worst
cases, not benchmarks.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any, Dict, Iterator, List, Tuple

import dominocore as dc

#: Every game and rule set, with the options the scan varies.
GAMES: Dict[str, Dict[str, Any]] = {
    "trains": {"game": "chickenfoot", "rule_set": "trains"},
    "cross": {"game": "chickenfoot", "rule_set": "cross"},
    "doubles": {"game": "doubles"},
    "block": {"game": "block"},
    "block-highest-double": {"game": "block", "lead": "highest_double"},
    "mexican_train": {"game": "mexican_train"},
    "mexican_train-may-db50": {"game": "mexican_train", "drawn_tile": "may", "double_blank_50": True},
}

#: The points of a round (fractions of its length) where a seat determinizes.
POINTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97)


def acceptance(stats: Dict[str, Any]) -> Any:
    """The share of a determinizer's draws from its count that it kept (the
    coarser model's draws the exact model rejects, and those that would
    block the round, count against it); ``None`` before any draw."""
    draws = stats["count_samples"] + stats["relaxed_rejected"] + stats["count_rejected"]
    return stats["count_samples"] / draws if draws else None


def configurations(games: List[str], sets: List[int], players: List[int]) -> Iterator[Any]:
    """The rules of every game, set and player count the engine allows."""
    for n in sets:
        for label in games:
            for p in players:
                try:
                    yield label, dc.rules_from_dict({**GAMES[label], "set": n, "players": p})
                except dc.RulesError:
                    continue


def round_positions(
    rules: Any, rounds: int, first_seed: int, points: Tuple[float, ...]
) -> Iterator[Tuple[Dict[str, int], Any]]:
    """Positions of random rounds (uniformly random legal moves,
    ``random.Random(seed)``, seeds ``first_seed`` and on) at ``points``
    (fractions of each round's length): ``({"seed", "move", "of"}, round)``,
    one ``Round`` object moved on from one point to the next."""
    for seed in range(first_seed, first_seed + rounds):
        moves, play, rng = [], dc.Round(rules, seed=seed), random.Random(seed)
        while not play.is_over:
            move = rng.choice(play.legal_moves())
            play.push(move)
            moves.append(move)
        position, done = dc.Round(rules, seed=seed), 0
        for point in points:
            cut = min(len(moves) - 1, int(point * len(moves)))
            while done < cut:
                position.push(moves[done])
                done += 1
            yield {"seed": seed, "move": cut, "of": len(moves)}, position


def scan(label: str, rules: Any, rounds: int, first_seed: int = 0) -> Dict[str, Any]:
    """The worst cases of one configuration."""
    worst_first, worst_at, worst_more, counted, relaxed, positions = 0.0, None, 0.0, 0, 0, 0
    lowest_acceptance: Any = None
    lowest_at = None
    failed: List[Dict[str, Any]] = []
    started = time.perf_counter()
    for where, position in round_positions(rules, rounds, first_seed, POINTS):
        positions += 1
        clock = time.perf_counter()
        sampler = position.determinizer(position.current_player)
        try:
            sampler.sample(0)
            first = time.perf_counter() - clock
            clock = time.perf_counter()
            for world in range(1, 11):
                sampler.sample(world)
        except dc.StateError:
            failed.append({**where, "after_s": round(time.perf_counter() - clock, 1)})
            continue
        worst_more = max(worst_more, (time.perf_counter() - clock) / 10)
        stats = sampler.stats
        counted += bool(stats["count_built"])
        if stats["count_relaxed"]:
            relaxed += 1
            kept = acceptance(stats)
            if lowest_acceptance is None or kept < lowest_acceptance:
                lowest_acceptance, lowest_at = kept, where
        if first > worst_first:
            worst_first, worst_at = first, {**where, "count_by_seat": stats["count_by_seat"]}
    return {
        "config": f"{label} d{rules.set} {rules.players}p",
        "positions": positions,
        "counted": counted,
        "worst_first_world_s": round(worst_first, 4),
        "at": worst_at,
        "worst_world_ms": round(worst_more * 1e3, 3),
        "relaxed": relaxed,
        "lowest_acceptance": None if lowest_acceptance is None else round(lowest_acceptance, 4),
        "lowest_at": lowest_at,
        "failed": failed,
        "scan_s": round(time.perf_counter() - started),
    }


def measure_records(path: str, worlds: int = 200) -> Iterator[Dict[str, Any]]:
    """Each position of a JSON list of ``{"name", "seat", "record"}`` (as in
    tests/data/determinize_hard.json): the first world of a determinizer of
    the seat (which builds the count), then the mean of ``worlds`` more, with
    the count it built and the acceptance of its draws."""
    with open(path, encoding="utf-8") as file:
        cases = json.load(file)
    for case in cases:
        position = dc.Round.from_dict(case["record"])
        clock = time.perf_counter()
        sampler = position.determinizer(case["seat"])
        sampler.sample(0)
        first = time.perf_counter() - clock
        clock = time.perf_counter()
        for world in range(1, worlds + 1):
            sampler.sample(world)
        stats = sampler.stats
        kept = acceptance(stats)
        yield {
            "name": case["name"],
            "first_world_s": round(first, 3),
            "world_ms": round((time.perf_counter() - clock) / worlds * 1e3, 3),
            "count": "none" if not stats["count_built"] else "seat" if stats["count_by_seat"] else "tile",
            "groups": [stats["exact_groups"], stats["count_groups"]],
            "acceptance": None if kept is None else round(kept, 4),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated, from: " + ", ".join(GAMES))
    parser.add_argument("--sets", default="6,9,12", help="comma-separated set sizes (default 6,9,12)")
    parser.add_argument("--players", default="2,3,4,5,6,7,8", help="comma-separated player counts")
    parser.add_argument("--rounds", type=int, default=6, help="random rounds a configuration (default 6)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first round's seed (default 0)")
    parser.add_argument("--records", metavar="JSON", help="measure these positions instead (see measure_records)")
    args = parser.parse_args()
    if dc.IMPLEMENTATION != "cpp":
        parser.error("the scan measures the compiled core: build it (pip install .)")
    if args.records:
        for line in measure_records(args.records):
            print(json.dumps(line), flush=True)
        return
    split = lambda text: [x for x in text.split(",") if x]  # noqa: E731
    unknown = set(split(args.games)) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    players = [int(x) for x in split(args.players)]
    for label, rules in configurations(split(args.games), [int(x) for x in split(args.sets)], players):
        print(json.dumps(scan(label, rules, args.rounds, args.first_seed)), flush=True)


if __name__ == "__main__":
    main()
