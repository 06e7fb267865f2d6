"""``dominocore`` command line: play a seeded match between bots and print it.

dominocore --game chickenfoot --rule-set trains --players 4 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import dominocore as dc
from dominocore.common.rules import GAMES as RULES_CLASSES

#: The rules class of every game id (the one list of games: dominocore.common.rules).
GAMES = {name: getattr(dc, cls.__name__) for name, cls in RULES_CLASSES.items()}


def build_rules(args: argparse.Namespace) -> "dc.Rules":
    """The rules object the command-line options describe: only the options
    given are passed, so an option the game does not have is refused by it
    (``RulesError``) instead of being silently ignored."""
    options = {
        "players": args.players,
        "set": args.set,
        "rule_set": args.rule_set,
        "target": args.target,
        "lead": args.lead,
        "drawn_tile": args.drawn_tile,
    }
    return GAMES[args.game](**{k: v for k, v in options.items() if v is not None})


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``dominocore`` command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="dominocore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"dominocore {dc.__version__}")
    parser.add_argument("--game", choices=sorted(GAMES), default="chickenfoot")
    parser.add_argument("--rule-set", choices=["trains", "cross"], help="Chicken Foot: the rule set (default trains)")
    parser.add_argument("--players", type=int, help="seats (default: the game's)")
    parser.add_argument("--set", type=int, help="N of the double-N set (default: the game's)")
    parser.add_argument("--target", type=int, help="Doubles and Block: points that end the match (default 100)")
    parser.add_argument("--lead", choices=["winner", "highest_double"], help="Block: who leads a round")
    parser.add_argument("--drawn-tile", choices=["must", "may"], help="Mexican Train: a drawn tile that fits")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--policy", default="greedy,random", help="comma-separated policies per seat, cycled (random, greedy)"
    )
    parser.add_argument(
        "--simulate", type=int, default=0, metavar="N", help="also time N random rounds with dominocore.simulate"
    )
    args = parser.parse_args(argv)
    try:
        rules = build_rules(args)
        names = args.policy.split(",")
        policy = [names[s % len(names)] for s in range(rules.players)]
        match = dc.Match(rules, seed=args.seed).play(policy)
    except dc.DominoError as exc:
        parser.error(str(exc))
    print(f"dominocore {dc.__version__} ({dc.IMPLEMENTATION} engine): {rules!r}, seed {args.seed}")
    print("seats: " + ", ".join(f"{s}={p}" for s, p in enumerate(policy)))
    for k, result in enumerate(match.results):
        r = match.rounds[k]
        scores = " ".join(f"{x:4d}" for x in result.points)
        ending = f"out by seat {result.out_seat}" if result.reason == "out" else "blocked"
        print(
            f"round {k:2d} centre {str(r.centre or '-'):>5}  starter {result.starter}  "
            f"{result.moves:3d} moves  {ending:15s} scores {scores}"
        )
    print("totals " + " ".join(f"{x:4d}" for x in match.totals))
    print("winner" + ("s" if len(match.winners) > 1 else "") + ": seat " + ", ".join(map(str, match.winners)))
    if args.simulate:
        return _timed_simulation(rules, args.simulate, args.seed)
    return 0


def _timed_simulation(rules: "dc.Rules", rounds: int, seed: int) -> int:
    """Time ``rounds`` random rounds with a progress bar; Ctrl-C stops them."""
    import time

    from tqdm import tqdm

    start = time.perf_counter()
    with tqdm(total=rounds, unit="round", unit_scale=True, file=sys.stderr, disable=None) as bar:
        try:
            sim = dc.simulate(rules, rounds=rounds, seed=seed, progress=lambda done, total: bar.update(done - bar.n))
        except KeyboardInterrupt:
            bar.close()
            print("simulation interrupted", file=sys.stderr)
            return 130
    elapsed = time.perf_counter() - start
    print(
        f"simulated {rounds} random rounds in {elapsed:.3f}s "
        f"({rounds / elapsed:,.0f} rounds/s, {int(sim.moves.sum()) / elapsed:,.0f} moves/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
