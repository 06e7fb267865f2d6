"""Text rendering of a round as one seat may see it (docs/cli.md).

``render(round, seat)`` draws the layout as lines of text: every train,
toe, arm or Mexican Train personal train as a line that starts at the centre
and lists its tiles in the order they were laid, each written with the half
it attached by first (``9-5 5-3 3-3``), and ends in its open end with the id
that move notation uses (``a-b@id``). Below the layout: the pending
obligation, the Doubles locks, the hand counts, the yard, whose turn it is,
the last move and, for a seat, its own hand.

What it shows is exactly what ``seat`` may see (docs/information.md 1): its
own hand and drawn tile, and the public state. ``seat=None`` shows the public
state only, as a spectator sees it. Two rounds the seat cannot tell apart
render to the same string.

>>> import dominocore as dc
>>> from dominocore.text import render
>>> print(render(dc.Round(dc.Block(players=2), seed=1), seat=0))
Block, double-6, 2 players, round 0, move 0
lead: none yet
layout:
  lead end: -> @0 takes any tile
hands:
  seat 0 (you): 7 tiles  <- to move
  seat 1: 7 tiles
out of play: 14 tiles
your turn
your hand: 1-1 2-2 2-3 2-4 3-4 2-6 5-6
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .common.arms import arm_lines
from .common.extensions import register_renderer
from .common.moves import DRAW, PLACE, End, Move, Placement
from .common.rules import Rules
from .common.tiles import Tile
from .common.view import PlayerView, view_for

__all__ = ["render", "describe_move", "game_title", "result_text", "team_points"]


def game_title(rules: Rules) -> str:
    """A short name of the game and its set: ``"Chicken Foot (trains), double-9, 4 players"``."""
    name = rules.title
    if rules.rule_set:
        name += f" ({rules.rule_set})"
    return f"{name}, double-{rules.set}, {rules.players} players"


def describe_move(
    seat: int, move: Move, drawn: Optional[Tile] = None, you: Optional[int] = None, points: int = 0
) -> str:
    """A move as a sentence: ``"seat 2 placed 3-5@7"``, ``"seat 2 drew"``,
    ``"seat 2 passed"``. ``drawn`` (the tile a Draw took) is shown only when
    given: pass it only to the seat that drew. ``you``: the viewer's seat,
    named "you". ``points``: what the move scored in play, shown when not 0
    (``"seat 2 placed 3-5@7, scoring 10"``)."""
    who = "you" if seat == you else f"seat {seat}"
    if move.kind == PLACE:
        return f"{who} placed {move}" + (f", scoring {points}" if points else "")
    if move.kind == DRAW:
        return f"{who} drew" + ("" if drawn is None else f" {drawn}")
    return f"{who} passed"


def result_text(result: Sequence[Any]) -> str:
    """How a round ended, in one line: ``"seat 1 went out; points 0 12 5"``."""
    reason, out_seat, points = result[0], result[1], result[2]
    how = {"out": f"seat {out_seat} went out", "blocked": "blocked", "target": "the match target was reached"}[reason]
    text = f"{how}; points " + " ".join(str(x) for x in points)
    if len(result) > 6 and any(result[5]):  # points scored in play, then at the end
        text += " (in play " + " ".join(map(str, result[5])) + ", at the end " + " ".join(map(str, result[6])) + ")"
    return text


def render(round: Any, seat: Optional[int] = None) -> str:
    """The position of ``round`` (either implementation's ``Round``, or a
    ``PlayerView``) as text, showing only what ``seat`` may see: its own
    hand and drawn tile, the public layout, hand counts, yard size and whose
    turn it is. ``seat=None`` shows the public state only. A seat out of
    range, or another seat than a view's own, raises ``RulesError``."""
    view, you = view_for(round, seat)
    return "\n".join(_lines(view, you))


# ---------------------------------------------------------------- drawing the layout


def _oriented(placement: Placement) -> str:
    """A placed tile with the half it attached by first (Block's lead as it is)."""
    tile, number = placement.tile, placement.number
    if number is None or placement.end is None:
        return str(tile)
    return f"{number}-{tile.other(number)}"


def _labels(f: PlayerView, you: Optional[int], parent: Optional[Placement], count: int) -> List[str]:
    """The names of the ``count`` lines that start at ``parent`` (``None``: the lead end)."""
    rules = f.rules
    if parent is None:
        return ["lead end"]
    if parent.end is None:  # the set-up's tile: the centre, the engine, Block's set-up lead
        if rules.has_seat_trains:
            p = f.rules.players
            names = []
            for t in range(count):
                name = "Mexican train" if t == p else f"seat {t}'s train"
                if t == you:
                    name += " (yours)"
                if t < p and f.markers[t]:
                    name += " [marker]"
                names.append(name)
            return names
        return [f"{rules.line_word} {i + 1}" for i in range(count)]
    if parent.number is None:  # Block's lead, laid by a move
        return [f"side {i + 1}" for i in range(count)]
    return [f"{rules.branch_word} {i + 1}" for i in range(count)]


def _end_text(f: PlayerView, end: End) -> str:
    if end.number is None:
        return f"@{end.id} takes any tile"
    text = f"@{end.id} needs {end.number}"
    notes = []
    if end.id in f.pending_ends:
        notes.append("to fill first")
    if f.rules.locks_numbers and end.number not in f.unlocked:
        notes.append(f"locked: only {end.number}-{end.number}")
    return text + (f" ({', '.join(notes)})" if notes else "")


def _layout_lines(f: PlayerView, you: Optional[int]) -> List[str]:
    ends = {e.id: e for e in f.open_ends}
    on_end: Dict[int, Placement] = {pl.end: pl for pl in f.layout if pl.end is not None}
    created = {e for pl in f.layout for e in pl.created}
    # The lines start from the set-up's tile, or Block's lead laid by a move
    # (on the lead end, by no number), else from the lead end itself.
    roots = [pl for pl in f.layout if pl.end is None or pl.number is None]
    lines: List[str] = []
    branch_mark = f.rules.branch_mark

    def walk(start: int, label: str, depth: int) -> None:
        tiles: List[str] = []
        end: Optional[int] = start
        branch: Optional[Placement] = None
        while end is not None and end in on_end:
            placement = on_end[end]
            tiles.append(_oriented(placement))
            if len(placement.created) == 1:
                end = placement.created[0]
            else:
                branch, end = placement, None
        pad = "  " * depth
        body = " ".join(tiles)
        if branch is not None:
            lines.append(f"{pad}{label}: {body} {branch_mark}".rstrip())
            for child, name in zip(branch.created, _labels(f, you, branch, len(branch.created))):
                walk(child, name, depth + 1)
        else:
            open_end = ends.get(end) if end is not None else None
            tail = _end_text(f, open_end) if open_end is not None else "closed"
            lines.append(f"{pad}{label}: {body + ' ' if body else ''}-> {tail}")

    if roots:
        root = roots[0]
        for child, name in zip(root.created, _labels(f, you, root, len(root.created))):
            walk(child, name, 1)
    else:
        for e in sorted(set(ends) - created):
            walk(e, _labels(f, you, None, 1)[0], 1)
    if not lines:
        lines.append("  (empty)")
    return lines


def _arms_lines(f: PlayerView) -> List[str]:
    """A lead with arms (All Fives): each arm as a line out of the lead, the
    spinner's sides named as such, and whether they are open yet."""
    if not f.layout:
        return [f"  lead end: -> {_end_text(f, f.open_ends[0])}" if f.open_ends else "  (empty)"]
    read = arm_lines(f.layout, f.rules.arms)
    ends = {e.id: e for e in f.open_ends}
    spinner = None if read.spinner is None else f.layout[read.spinner].tile
    lines = []
    for arm, indices in enumerate(read.lines):
        label = f"arm {arm}" if arm < 2 else f"arm {arm} (a side of the spinner {spinner})"
        if arm >= 2 and not read.sides_open:
            if spinner is not None:
                lines.append(f"  {label}: opens once both ends next to the spinner are covered")
            continue
        tiles = [_oriented(f.layout[i]) + (" (the spinner)" if i == read.spinner else "") for i in indices]
        open_end = next((ends[e] for e, a in read.end_arms.items() if a == arm and e in ends), None)
        tail = _end_text(f, open_end) if open_end is not None else "closed"
        lines.append(f"  {label}: {' '.join(tiles) + ' ' if tiles else ''}-> {tail}")
    if read.spinner == 0:
        lines.insert(0, f"  the lead {spinner} is the spinner")
    return lines


def _points_lines(f: PlayerView) -> List[str]:
    """The points scored in play this round, and the match totals carried in."""
    rules = f.rules
    seats = range(rules.sides)  # with teams, seat t holds team t's points

    def name(s: int) -> str:
        return f"team {_team_text(rules, s)}" if rules.teams else f"seat {s}"

    lines = ["points in play: " + ", ".join(f"{name(s)} {f.play_points[s]}" for s in seats)]
    if any(f.carried):
        totals = ", ".join(f"{name(s)} {f.carried[s] + f.play_points[s]}" for s in seats)
        lines.append(f"match totals: {totals} (target {rules.target})")
    return lines


def _header(f: PlayerView) -> List[str]:
    title = f"{game_title(f.rules)}, round {f.round_index}, move {len(f.history)}"
    if f.rules.layout in ("line", "arms"):
        if f.centre is not None and f.highest_double:
            first = f"lead: {f.centre} (the highest double dealt, led by seat {f.starter})"
        elif f.centre is not None:  # a double already led (from_deal): not known to be the highest
            first = f"lead: {f.centre} (led by seat {f.starter})"
        elif f.layout:
            first = f"lead: {f.layout[0].tile} (led by seat {f.starter})"
        else:
            first = "lead: none yet"
    else:
        first = f"{f.rules.centre_word}: {f.centre} (starter: seat {f.starter})"
    return [title, first]


def _obligation_lines(f: PlayerView) -> List[str]:
    if not f.pending_ends:
        return []
    ends = " ".join(f"@{e}" for e in f.pending_ends)
    if f.obligation == "start":
        return [f"pending: fill every slot of the start double first ({ends})"]
    if f.obligation == "foot":
        return [f"pending: finish the chicken foot: a tile on each toe first ({ends})"]
    if f.obligation == "double":
        return [f"pending: satisfy the double first ({ends})"]
    return [f"pending: {ends}"]


def _seat_lines(f: PlayerView, you: Optional[int]) -> List[str]:
    lines = []
    for s, count in enumerate(f.hand_sizes):
        name = f"seat {s}" + (" (you)" if s == you else "")
        if f.rules.teams:
            name += f", team {f.rules.team_of(s)}"
        text = f"  {name}: {count} tile{'s' if count != 1 else ''}"
        if s == f.current_player:
            text += "  <- to move" + (", has drawn a tile" if f.drawing else "")
        lines.append(text)
    return lines


def _team_text(rules: Rules, team: int) -> str:
    """A team as its seats: ``"0+2"``."""
    return "+".join(str(s) for s in range(rules.players) if rules.team_of(s) == team)


def team_points(rules: Rules, points: Sequence[int]) -> str:
    """A round's points (or a match's totals) by team: ``"team points: 0+2 18,
    1+3 0"``; partners hold their team's points (docs/games/partnership.md P2)."""
    return "team points: " + ", ".join(f"{_team_text(rules, t)} {points[t]}" for t in range(rules.sides))


def _lines(f: PlayerView, you: Optional[int]) -> List[str]:
    """The text of view ``f`` as seat ``you`` sees it (``None``: its public
    fields only, as a spectator sees them)."""
    lines = _header(f)
    if f.rules.teams:
        lines.append("teams: " + " against ".join(_team_text(f.rules, team) for team in range(f.rules.teams)))
    lines.append("layout:")
    lines += _arms_lines(f) if f.rules.layout == "arms" else _layout_lines(f, you)
    lines += _obligation_lines(f)
    if f.rules.locks_numbers:
        lines.append("unlocked numbers: " + (" ".join(str(n) for n in f.unlocked) or "none"))
    lines.append("hands:")
    lines += _seat_lines(f, you)
    if not f.rules.has_drawing:
        lines.append(f"out of play: {f.yard_size} tiles")
    else:
        lines.append(f"yard: {f.yard_size} tile{'s' if f.yard_size != 1 else ''}")
    if f.history:
        last = f.history[-1]
        drawn = last.drawn if you is not None else None
        lines.append("last move: " + describe_move(last.seat, last.move, drawn, you, last.points))
    if f.rules.scores_in_play:
        lines += _points_lines(f)
    if f.result is not None:
        lines.append("round over: " + result_text(f.result))
        if f.rules.teams:
            lines.append(team_points(f.rules, f.result[2]))
    elif you is not None and f.current_player == you:
        lines.append("your turn" + (f" (your drawn tile: {f.drawn_tile})" if f.drawn_tile is not None else ""))
    else:
        lines.append(f"seat {f.current_player} to move")
    if you is not None:
        hand = " ".join(str(t) for t in f.hand) or "(empty)"
        lines.append(f"your hand: {hand}")
    return lines


register_renderer("text", render)
