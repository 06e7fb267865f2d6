"""The dominocore command line (docs/cli.md).

Without a subcommand it plays a seeded demo match between bots and prints
every round's scores and the winner::

    dominocore --game chickenfoot --rule-set trains --players 4 --seed 7

Subcommands: ``play`` (a person at the terminal against bots), ``simulate``
(many bot rounds or matches, summarised), ``replay`` (step through a game
record) and ``show`` (print one position). What a person is shown is only
what their seat may see (``dominocore.text.render``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

from tqdm import tqdm

import dominocore as dc
from dominocore import record
from dominocore.cli_games import GAME_OPTIONS, add_game_options, build_rules, check_game_options, given
from dominocore.cli_play import SAVE_FORMAT, PlaySession, print_match_end, what_wins
from dominocore.cli_results import check_out_path, summary, write_results
from dominocore.common.checks import MAX_SIM_COUNT
from dominocore.common.policies import POLICY_NAMES
from dominocore.common.simulate_args import MAX_ITER_COUNT

from . import text

#: The bots of every command (the demo's --policy, play's --bots, simulate's
#: --policy): the library's one list (the searches at their default options,
#: docs/search.md; "cheat" reads every hand, on purpose).
BOTS = POLICY_NAMES
#: The file types simulate --out writes, by suffix.
#: What a play session file says it is.
_DESCRIPTION = (
    "dominocore: play, simulate and inspect domino games "
    "(Chicken Foot, Doubles, Block, Mexican Train, All Fives, Fives and Threes)."
)
_EPILOG = """\
Without a subcommand: play a seeded demo match between bots and print it.

examples:
  dominocore --seed 7                               the demo match
  dominocore play --game block --players 2          play Block against a bot
  dominocore simulate --rounds 100000 --out r.npz   100,000 random rounds
  dominocore replay game.json                       step through a record
  dominocore show --seed 3 --moves "2-9@0 0-9@1"    one position
  dominocore serve                                  play in the browser
  dominocore COMMAND --help                         the options of a command
"""


# ---------------------------------------------------------------------- parser


class _Parser(argparse.ArgumentParser):
    """An argument parser whose error is always the usage and exactly one
    line (a message holding line breaks is joined into one), exit status 2.
    Its subcommands' parsers are of this class too."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        super().error(" ".join(str(message).split("\n")))


def build_parser() -> argparse.ArgumentParser:
    """The ``dominocore`` argument parser, with its subcommands."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="dominocore", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"dominocore {dc.__version__}")
    add_game_options(parser, top=True)
    parser.add_argument("--seed", type=int, default=None, help="the match seed (default 7)")
    parser.add_argument(
        "--policy",
        default=None,
        help=f"comma-separated policies per seat, cycled: {', '.join(BOTS)} (default greedy,random)",
    )
    parser.add_argument(
        "--simulate", type=int, default=0, metavar="N", help="also time N random rounds with dominocore.simulate"
    )
    parser.set_defaults(command=None, parser=parser)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play against bots at the terminal",
        formatter_class=formatter,
        description="Play a match against bots. You see your own hand and the public table only.",
        epilog=_PLAY_EPILOG,
    )
    add_game_options(play, top=False)
    play.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="the match seed (default: a random one)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument(
        "--bots",
        default="greedy",
        help=f"the other seats' bots in seat order, comma-separated, cycled ({', '.join(BOTS)})",
    )
    play.add_argument("--rounds", type=int, metavar="N", help="stop after N rounds (default: the whole match)")
    play.add_argument("--resume", metavar="FILE", help="resume a game saved with the save command")
    play.set_defaults(command="play", parser=play)

    simulate = sub.add_parser(
        "simulate",
        help="simulate many bot rounds or matches and summarise them",
        formatter_class=formatter,
        description="Simulate rounds or matches between bots, with a progress bar, and print a summary. "
        "Ctrl-C stops the run and keeps what was finished.",
    )
    add_game_options(simulate, top=False)
    count = simulate.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=int, metavar="N", help="standalone rounds (default 1000)")
    count.add_argument("--matches", type=int, metavar="N", help="whole matches")
    simulate.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="game i is seeded seed + i (default 0)")
    simulate.add_argument(
        "--round-index", type=int, metavar="K", help="the index of every round (with --rounds only; default 0)"
    )
    simulate.add_argument(
        "--policy",
        default=argparse.SUPPRESS,
        help=f"comma-separated policies per seat, cycled: {', '.join(BOTS)} (default random)",
    )
    simulate.add_argument("--threads", type=int, help="native threads (default: every core)")
    simulate.add_argument("--out", metavar="FILE", help="write the per-round results to FILE.npz, .csv or .parquet")
    simulate.add_argument(
        "--chunk", type=int, metavar="N", help="rounds or matches a chunk; Ctrl-C keeps the chunks finished"
    )
    simulate.set_defaults(command="simulate", parser=simulate)

    replay = sub.add_parser(
        "replay",
        help="step through a game record",
        formatter_class=formatter,
        description="Print the position after every move of a game record (a round or a match). "
        "On a terminal, Enter steps to the next move and q stops.",
    )
    replay.add_argument("file", metavar="FILE", help="the record")
    replay.add_argument("--seat", type=int, help="show only what this seat sees (default: the public view)")
    replay.add_argument("--all", action="store_true", help="print every position without waiting")
    replay.set_defaults(command="replay", parser=replay)

    serve = sub.add_parser(
        "serve",
        help="serve tables to play in the browser (the [web] extra)",
        formatter_class=formatter,
        description="Serve tables where people play in the browser, against each other and bots; "
        "every seat is sent only its own view (docs/serve.md). Needs: pip install 'dominocore[web]'.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--db", metavar="PATH", help="the SQLite database (default: tables.sqlite3 in the user's data directory)"
    )
    serve.set_defaults(command="serve", parser=serve)

    show = sub.add_parser(
        "show",
        help="print one position",
        formatter_class=formatter,
        description="Print the position of a seeded deal after some moves, or of a record at some move.",
    )
    add_game_options(show, top=False)
    show.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="the deal's seed (default 0)")
    show.add_argument(
        "--round-index", type=int, metavar="K", help="the round to deal, or the round of a match record (default: 0)"
    )
    source = show.add_mutually_exclusive_group()
    source.add_argument("--moves", metavar="MOVES", help='moves to play from the deal, like "9-5@0 draw pass"')
    source.add_argument("--record", metavar="FILE", help="a game record")
    show.add_argument("--ply", type=int, metavar="K", help="the position after the first K moves (default: all)")
    show.add_argument("--seat", type=int, help="show only what this seat sees (default: the public view)")
    show.set_defaults(command="show", parser=show)
    return parser


_PLAY_EPILOG = """\
at the prompt, type a move or a command:
  5-9@2          place the tile 5-9 on the open end with id 2
  draw, pass     draw from the yard, pass
  help           list your legal moves and the commands
  hint           what the greedy bot would play for you
  undo           take back your last turn (and the bots' moves after it)
  save FILE      save the game; play --resume FILE goes on from there
  show           print the table again
  quit           stop
"""


# ---------------------------------------------------------------------- options


def _rules_or_exit(parser: argparse.ArgumentParser, args: argparse.Namespace) -> "dc.Rules":
    check_game_options(parser, args)
    try:
        return build_rules(args)
    except dc.DominoError as exc:
        parser.error(str(exc))
    raise AssertionError("unreachable")  # parser.error exits


def _policies(parser: argparse.ArgumentParser, text_: str, option: str, rules: "dc.Rules", seats: int) -> List[str]:
    names = [n.strip() for n in text_.split(",")]
    for name in names:
        if name not in BOTS:
            parser.error(f"{option}: unknown bot {name!r} (choose from {', '.join(BOTS)})")
    if "learned" in names:  # before any work: these rules may have no network (docs/learning.md 1)
        try:
            dc.network_for(rules)
        except dc.DominoError as exc:
            parser.error(f"{option}: {exc}")
    return [names[s % len(names)] for s in range(seats)]


def _check_seat(parser: argparse.ArgumentParser, seat: Optional[int], players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        parser.error(f"--seat must be between 0 and {players - 1}, got {seat}")


# ---------------------------------------------------------------------- the demo


def _demo(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play a seeded match between bots and print every round."""
    rules = _rules_or_exit(parser, args)
    seed = 7 if args.seed is None else args.seed
    if not 0 <= args.simulate <= MAX_SIM_COUNT:
        parser.error(f"--simulate must be between 0 and {MAX_SIM_COUNT}, got {args.simulate}")
    policy = _policies(parser, args.policy or "greedy,random", "--policy", rules, rules.players)
    try:
        match = dc.Match(rules, seed=seed)  # checks the seed
        if args.simulate:
            dc.simulate(rules, rounds=0, seed=seed)  # checks what the timed run takes, before any work
        match.play(policy)
    except dc.DominoError as exc:
        parser.error(str(exc))
    print(f"dominocore {dc.__version__} ({dc.IMPLEMENTATION} engine): {rules!r}, seed {seed}")
    print("seats: " + ", ".join(f"{s}={p}" for s, p in enumerate(policy)))
    print(f"how it is won: {what_wins(rules)}")
    for k, result in enumerate(match.results):
        r = match.rounds[k]
        scores = " ".join(f"{x:4d}" for x in result.points)
        ending = {"out": f"out by seat {result.out_seat}", "blocked": "blocked", "target": "target reached"}[
            result.reason
        ]
        print(
            f"round {k:2d} centre {str(r.centre or '-'):>5}  starter {result.starter}  "
            f"{result.moves:3d} moves  {ending:15s} scores {scores}"
        )
    print("totals " + " ".join(f"{x:4d}" for x in match.totals))
    print("winner" + ("s" if len(match.winners) > 1 else "") + ": seat " + ", ".join(map(str, match.winners)))
    if args.simulate:
        return _timed_simulation(rules, args.simulate, seed)
    return 0


def _timed_simulation(rules: "dc.Rules", rounds: int, seed: int) -> int:
    """Time ``rounds`` random rounds with a progress bar; Ctrl-C stops them."""
    start = time.perf_counter()
    with tqdm(total=rounds, unit="round", unit_scale=True, file=sys.stderr, disable=None) as bar:
        try:
            sim = dc.simulate(rules, rounds=rounds, seed=seed, progress=lambda done, total: bar.update(done - bar.n))
        except KeyboardInterrupt:
            bar.close()
            print("simulation interrupted", file=sys.stderr)
            return 130
    elapsed = max(time.perf_counter() - start, 1e-9)
    print(
        f"simulated {rounds} random rounds in {elapsed:.3f}s "
        f"({rounds / elapsed:,.0f} rounds/s, {int(sim.moves.sum()) / elapsed:,.0f} moves/s)"
    )
    return 0


# ---------------------------------------------------------------------- play


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The ``play`` subcommand."""
    read = input
    if args.resume:
        flags = [flag for flag, keyword, _ in GAME_OPTIONS if given(args, keyword) is not None]
        flags += ["--game"] * (given(args, "game") is not None) + ["--seed"] * (given(args, "seed") is not None)
        if flags:
            parser.error(f"--resume takes the game from the file: drop {', '.join(flags)}")
        try:
            with open(args.resume, encoding="utf-8") as f:
                data = json.load(f)
            session = PlaySession.from_dict(data, read)
        except (OSError, ValueError, KeyError, TypeError, OverflowError, dc.DominoError) as exc:
            parser.error(f"cannot resume from {args.resume}: {_reason(exc)}")
    else:
        rules = _rules_or_exit(parser, args)
        _check_seat(parser, args.seat, rules.players)
        if args.rounds is not None and args.rounds < 1:
            parser.error(f"--rounds must be at least 1, got {args.rounds}")
        seed = given(args, "seed")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        others = _policies(parser, args.bots, "--bots", rules, rules.players - 1)
        bots: List[Optional[str]] = list(others)
        bots.insert(args.seat, None)  # the person
        try:
            match = dc.Match(rules, seed=seed)
        except dc.DominoError as exc:
            parser.error(str(exc))
        session = PlaySession(match, args.seat, bots, seed, args.rounds, read)
    try:
        return session.run()
    except KeyboardInterrupt:
        print("\ninterrupted")
        return 130


# ---------------------------------------------------------------------- simulate


#: The seconds a chunk of simulate should take when --chunk is not given.
_CHUNK_SECONDS = 0.2


def _count(matches: bool, n: int) -> Dict[str, Any]:
    """``simulate``'s count argument: ``matches=n`` or ``rounds=n``."""
    return {"matches": n} if matches else {"rounds": n}


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The ``simulate`` subcommand. Every argument is checked before any work
    (usage, one line, status 2); Ctrl-C keeps the chunks finished (status 130)."""
    rules = _rules_or_exit(parser, args)
    matches = args.matches is not None
    n = args.matches if matches else (1000 if args.rounds is None else args.rounds)
    if not 0 <= n <= MAX_ITER_COUNT:
        parser.error(f"--{'matches' if matches else 'rounds'} must be between 0 and {MAX_ITER_COUNT}, got {n}")
    if matches and args.round_index is not None:
        parser.error("--round-index applies to --rounds only: a match deals its rounds 0, 1, ... itself")
    policy = _policies(parser, given(args, "policy") or "random", "--policy", rules, rules.players)
    if args.out is not None:
        check_out_path(parser, args.out)
    if args.chunk is not None and not 1 <= args.chunk <= MAX_SIM_COUNT:
        parser.error(f"--chunk must be between 1 and {MAX_SIM_COUNT}, got {args.chunk}")
    seed = given(args, "seed") or 0
    what = "matches" if matches else "rounds"
    options: Dict[str, Any] = dict(seed=seed, policy=policy, threads=args.threads)
    if not matches:
        options["round_index"] = args.round_index or 0
    bar: Any = None  # made once the arguments are checked (the progress callback reads it then)
    try:  # check the arguments before any work: simulate_iter checks them all when called
        dc.simulate(rules, **_count(matches, 0), **options)
        chunks = dc.simulate_iter(
            rules,
            **_count(matches, n),
            **options,
            chunk_size=args.chunk,
            chunk_seconds=_CHUNK_SECONDS,
            progress=lambda d, total: bar.update(d - bar.n),
        )
    except dc.DominoError as exc:
        parser.error(str(exc))
    start = time.perf_counter()
    bar = tqdm(total=n, unit="match" if matches else "round", unit_scale=True, file=sys.stderr, disable=None)
    parts: List[Any] = []
    interrupted = False
    try:  # chunk by chunk, so that Ctrl-C keeps what was finished
        for part in chunks:
            parts.append(part)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    done = sum(len(p.totals) if matches else p.num_rounds for p in parts)
    elapsed = time.perf_counter() - start
    sim = dc.SimulationResult.concatenate(parts) if parts else None
    policy_text = policy[0] if len(set(policy)) == 1 else ",".join(policy)
    header = f"{text.game_title(rules)}: {done:,} {what}, policy {policy_text}, seed {seed}"
    if interrupted:
        print(f"interrupted: {done:,} of {n:,} {what} finished", file=sys.stderr)
        header += f" (interrupted, of {n:,})"
    rate = f"{done / elapsed:,.0f} {what}/s" if elapsed > 0 else ""
    print(f"{header}; {elapsed:.2f}s{', ' + rate if rate else ''}")
    if sim is None:
        print("nothing finished")
    else:
        for line in summary(rules, sim, matches):
            print(line)
        if args.out is not None:
            try:
                write_results(args.out, rules, sim)
            except OSError as exc:  # checked before the run: the disk filled up, or the directory went away
                print(f"dominocore simulate: error: cannot write {args.out!r}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            print(f"wrote {sim.num_rounds:,} rounds to {args.out}")
    return 130 if interrupted else 0


# ---------------------------------------------------------------------- records: replay, show


def _reason(exc: BaseException) -> str:
    """Why a file could not be read, as one sentence ("No such file or
    directory", not "[Errno 2] ...")."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split("\n"))


def _load_record(parser: argparse.ArgumentParser, path: str) -> Tuple[Any, Optional[List[str]]]:
    """The Round or Match a file holds, and its seats' names if it names
    them: a game record (``dominocore.record``) or a game saved by ``play``
    (every file the command line writes is read by every command that reads
    one)."""
    try:
        with open(path, encoding="utf-8") as f:
            text_ = f.read()
        data = json.loads(text_)
        if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
            session = PlaySession.from_dict(data, input)
            return session.match, session.seat_names()
        loaded = record.loads(text_)  # checks and replays the whole record, once
        return loaded, data["header"]["seats"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, OverflowError, dc.DominoError) as exc:
        parser.error(f"cannot read {path}: {_reason(exc)}")


def _is_match(record: Any) -> bool:
    """Whether a loaded record is a match (either implementation's) rather than a round."""
    return hasattr(record, "new_round")


def _rounds_of(record: Any) -> List[Any]:
    """The rounds of a loaded record: the round itself, or a match's rounds."""
    return list(record.rounds) if _is_match(record) else [record]


def _at_deal(round_: Any) -> Tuple[Any, List["dc.Move"]]:
    """A copy of ``round_`` taken back to its deal, and its moves."""
    start = round_.clone()
    moves = start.move_stack
    for _ in moves:
        start.pop()
    return start, moves


def _replay(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The ``replay`` subcommand."""
    record, names = _load_record(parser, args.file)
    rounds = _rounds_of(record)
    if not rounds:
        print("the record holds no round")
        return 0
    seat = args.seat
    _check_seat(parser, seat, rounds[0].rules.players)
    interactive = not args.all and sys.stdin.isatty()
    print(f"{text.game_title(rounds[0].rules)}; {len(rounds)} round{'s' if len(rounds) != 1 else ''}")
    if names:
        print("seats: " + ", ".join(f"{s} {name}" for s, name in enumerate(names)))
    for r in rounds:
        position, moves = _at_deal(r)
        print(f"\nround {position.round_index}: the deal")
        print(text.render(position, seat))
        for i, move in enumerate(moves, 1):
            if interactive:
                try:
                    answer = input("[Enter: next move, q: quit] ")
                except EOFError:
                    answer = "q"
                if answer.strip().lower() in ("q", "quit"):
                    return 0
            mover = position.current_player
            position.push(move)
            drawn = position.drawn_tile if move.kind == "draw" and seat == mover else None
            print(f"\nmove {i}: " + text.describe_move(mover, move, drawn, you=seat, points=position.points_stack[-1]))
            print(text.render(position, seat))
    if _is_match(record):
        print_match_end(record)
    return 0


def _serve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The ``serve`` subcommand."""
    if not 0 < args.port < 65536:
        parser.error(f"--port must be from 1 to 65535, got {args.port}")
    try:
        import dominocore.serve as serve
    except ImportError as exc:
        parser.error(f"serve needs the [web] extra ({exc.name} is missing): pip install 'dominocore[web]'")
    try:
        serve.run(args.host, args.port, args.db)
    except KeyboardInterrupt:
        pass
    return 0


def _show(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The ``show`` subcommand."""
    if args.record is not None:
        flags = [flag for flag, keyword, _ in GAME_OPTIONS if given(args, keyword) is not None]
        flags += ["--game"] * (given(args, "game") is not None) + ["--seed"] * (given(args, "seed") is not None)
        if flags:
            parser.error(f"--record takes the game from the file: drop {', '.join(flags)}")
        rounds = _rounds_of(_load_record(parser, args.record)[0])
        if not rounds:
            parser.error(f"{args.record} holds no round")
        k = args.round_index
        if k is None:
            round_ = rounds[-1]
        else:
            by_index = {r.round_index: r for r in rounds}
            if k not in by_index:
                parser.error(f"--round-index: the record has rounds {', '.join(map(str, sorted(by_index)))}, not {k}")
            round_ = by_index[k]
        position, moves = _at_deal(round_)
    else:
        rules = _rules_or_exit(parser, args)
        try:
            position = dc.Round(rules, seed=given(args, "seed") or 0, round_index=args.round_index or 0)
        except dc.DominoError as exc:
            parser.error(str(exc))
        texts = (args.moves or "").replace(",", " ").split()
        moves = []
        for i, word in enumerate(texts, 1):
            try:
                moves.append(dc.Move.parse(word))
            except dc.DominoError as exc:
                parser.error(f"--moves: move {i}: {exc}")
    _check_seat(parser, args.seat, position.rules.players)
    ply = len(moves) if args.ply is None else args.ply
    if not 0 <= ply <= len(moves):
        parser.error(f"--ply must be between 0 and {len(moves)}, got {ply}")
    for i, move in enumerate(moves[:ply], 1):
        try:
            position.push(move)
        except dc.DominoError as exc:
            parser.error(f"move {i} ({move}): {exc}")
    print(text.render(position, args.seat))
    if args.seat is not None and position.current_player == args.seat:
        print("legal moves: " + " ".join(str(m) for m in position.legal_moves()))
    return 0


# ---------------------------------------------------------------------- entry point

_COMMANDS: Dict[Optional[str], Callable[[argparse.ArgumentParser, argparse.Namespace], int]] = {
    None: _demo,
    "play": _play,
    "simulate": _simulate,
    "replay": _replay,
    "show": _show,
    "serve": _serve,
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``dominocore`` command; returns the exit status
    (docs/cli.md): 0; 2 for a bad argument (``SystemExit(2)`` after the
    usage and one line on stderr, before any work); 130 after Ctrl-C; 1 when
    the results could not be written after all, or for a bug (one line
    saying so; ``DOMINOCORE_DEBUG=1`` shows its traceback)."""
    try:
        parser = build_parser()
        args = parser.parse_args(None if argv is None else list(argv))
        return _COMMANDS[args.command](args.parser, args)
    except KeyboardInterrupt:  # Ctrl-C where a command does not handle it itself
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (dominocore ... | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except Exception as exc:  # a bug: never a traceback to the user, unless asked for
        if os.environ.get("DOMINOCORE_DEBUG"):
            raise
        words = " ".join(str(exc).split("\n"))
        print(
            f"dominocore: internal error: {type(exc).__name__}: {words} "
            "(a bug: please report it; DOMINOCORE_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
