"""The command line's game options (docs/cli.md): one flag per rules option
of any game, offered with the names the games allow (``Rules.option_choices``),
read into a rules object, and refused in one line when the chosen game does
not have the option."""

from __future__ import annotations

import argparse
import inspect
from typing import Any, Dict, Tuple

from dominocore.common.rules import Rules
from dominocore.games import DEFAULT_GAME, GAME_CLASSES, GAMES

__all__ = ["GAME_OPTIONS", "add_game_options", "build_rules", "check_game_options", "given"]


def _named(option: str) -> Dict[str, Any]:
    """argparse settings of a game option that takes a name: the names every
    game offers (``Rules.option_choices``), and the help saying which game has which."""
    names = {c.title: c.option_choices[option] for c in GAME_CLASSES if option in c.option_choices}
    help = "; ".join(f"{title}: {', '.join(n)} (default {n[0]})" for title, n in names.items())
    return dict(choices=sorted({name for n in names.values() for name in n}), help=help)


#: The game options of the command line: flag, keyword of the rules class, argparse settings.
GAME_OPTIONS: Tuple[Tuple[str, str, Dict[str, Any]], ...] = (
    ("--rule-set", "rule_set", _named("rule_set")),
    ("--players", "players", dict(type=int, help="seats (default: the game's)")),
    ("--set", "set", dict(type=int, help="N of the double-N set (default: the game's)")),
    (
        "--target",
        "target",
        dict(type=int, help="Doubles, Block, All Fives, Fives and Threes: points that end the match"),
    ),
    ("--lead", "lead", _named("lead")),
    ("--drawn-tile", "drawn_tile", _named("drawn_tile")),
    ("--teams", "teams", dict(type=int, help="Block, All Fives, Fives and Threes: the number of teams of partners")),
    ("--team-scoring", "team_scoring", _named("team_scoring")),
    ("--reserve", "reserve", dict(type=int, help="All Fives, Fives and Threes: boneyard tiles never drawn")),
    ("--draw", "draw", _named("draw")),
    ("--spinner", "spinner", _named("spinner")),
    ("--sides-open", "sides_open", _named("sides_open")),
    ("--out-points", "out_points", _named("out_points")),
)


def add_game_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """The game options. A subcommand's options default to "not given"
    (``SUPPRESS``), so that options written before the subcommand still count."""
    default: Any = None if top else argparse.SUPPRESS
    parser.add_argument("--game", choices=sorted(GAMES), default=default, help=f"the game (default {DEFAULT_GAME})")
    for flag, _, settings in GAME_OPTIONS:
        parser.add_argument(flag, default=default, **settings)


def given(args: argparse.Namespace, name: str) -> Any:
    """The option ``name`` if given, else ``None``."""
    return getattr(args, name, None)


def build_rules(args: argparse.Namespace) -> Rules:
    """The rules object the command-line options describe: only the options
    given are passed, so an option the game does not have is refused (with
    ``RulesError``) instead of being silently ignored."""
    game = given(args, "game") or DEFAULT_GAME
    options = {keyword: given(args, keyword) for _, keyword, _ in GAME_OPTIONS}
    return GAMES[game](**{k: v for k, v in options.items() if v is not None})


def check_game_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, with one line, an option the chosen game does not have."""
    game = given(args, "game") or DEFAULT_GAME
    accepted = inspect.signature(GAMES[game].__init__).parameters
    for flag, keyword, _ in GAME_OPTIONS:
        if given(args, keyword) is not None and keyword not in accepted:
            having = [f"{c.game} has: {', '.join(c.option_choices[keyword])}" for c in GAME_CLASSES if keyword in c.option_choices]  # fmt: skip  # noqa: E501
            parser.error(f"{flag}: {game} has no such option" + (f" (only {', '.join(having)})" if having else ""))
