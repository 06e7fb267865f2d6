"""``dominocore play``'s session: a person against bots (or people) at one
terminal, with undo, hints, saving, and a whole match if asked
(docs/cli.md). The command line (``dominocore.cli``) parses the options and
runs it.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional

import dominocore as dc
from dominocore import text
from dominocore.common.extensions import search_policies
from dominocore.common.policies import POLICY_NAMES

__all__ = ["PlaySession", "SAVE_FORMAT", "SAVE_VERSION", "print_match_end", "what_wins"]

#: The seats' kinds: "human", or a bot's policy name.
BOTS = POLICY_NAMES
SAVE_FORMAT = "dominocore-play"
SAVE_VERSION = 1


def _bot_move(kind: str, round_: Any, seed: int) -> "dc.Move":
    """The bot's move. A random bot draws from a generator seeded by the
    match seed, the round and the move number, so that the same position
    gets the same move again after an undo or a resume."""
    if kind == "greedy":
        return dc.GreedyPlayer().choose(round_)
    if kind == "learned":  # reads the seat to move's observation tensor only
        return dc.LearnedPlayer().choose(round_)
    key = (seed * 0x9E3779B97F4A7C15 + round_.round_index * 0x100000001B3 + len(round_.move_stack)) % 2**64
    if kind == "random":
        return dc.RandomPlayer(key).choose(round_)
    bot = search_policies()[kind](seed=key)
    if kind == "cheat":  # reads every hand, on purpose (docs/search.md)
        return bot.choose(round_)
    return bot.choose(round_.view(round_.current_player))  # a search sees only the seat's view


class PlaySession:
    """A person at the terminal against bots: the match, the person's seat,
    the bots, where to stop."""

    def __init__(
        self,
        match: Any,
        seat: int,
        bots: List[Optional[str]],
        seed: int,
        stop_after: Optional[int],
        read: Callable[[str], str],
    ) -> None:
        self.match = match
        self.seat = seat
        self.bots = bots  # one per seat; None at the person's seat
        self.seed = seed
        self.stop_after = stop_after  # the number of rounds of the match after which to stop
        self.read = read

    # -------------------------------------------------------------- saving

    def to_dict(self) -> Dict[str, Any]:
        """The session as JSON-able data: the match and the command's settings."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seat": self.seat,
            "bots": self.bots,
            "seed": self.seed,
            "stop_after": self.stop_after,
            "match": self.match.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any, read: Callable[[str], str]) -> "PlaySession":
        """A session from ``to_dict()`` output (``ValueError`` if it is not one)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("not a saved dominocore play session")
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"unknown save version {data.get('version')!r}")
        match = dc.Match.from_dict(data["match"])
        seat, bots = data["seat"], data["bots"]
        players = match.rules.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"bad seat {seat!r}")
        if (
            not isinstance(bots, list)
            or len(bots) != players
            or any((b is not None) if s == seat else (b not in BOTS) for s, b in enumerate(bots))
        ):
            raise ValueError(f"bad bots {bots!r}")
        stop = data.get("stop_after")
        if stop is not None and not isinstance(stop, int):
            raise ValueError(f"bad stop_after {stop!r}")
        return cls(match, seat, bots, int(data["seed"]), stop, read)

    def seat_names(self) -> List[str]:
        """A name for each seat: "you", or its bot."""
        return ["you" if bot is None else bot for bot in self.bots]

    def save(self, path: str) -> None:
        """Write the session to ``path`` (JSON)."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f)
            f.write("\n")

    # -------------------------------------------------------------- the loop

    def show(self, round_: Any) -> None:
        print()
        print(text.render(round_, self.seat))

    def run(self) -> int:
        """Play until the match ends, the round limit, or ``quit``; return the exit status."""
        match, seat = self.match, self.seat
        print(f"{text.game_title(match.rules)}; seed {self.seed}; you are seat {seat}")
        print("bots: " + ", ".join(f"seat {s} {b}" for s, b in enumerate(self.bots) if s != seat))
        print("type help for your moves and the commands")
        round_ = match.round
        if round_ is None or round_.is_over:
            round_ = self._next_round()
            if round_ is None:
                return 0
        else:
            print(f"\nround {round_.round_index} (resumed)")
        shown_at = -1  # the move number at which the table was last printed
        while True:
            if round_.is_over:
                round_ = self._finish_round(round_)
                if round_ is None:
                    return 0
                shown_at = -1
                continue
            mover = round_.current_player
            if mover != seat:
                move = _bot_move(self.bots[mover] or "greedy", round_, self.seed)
                round_.push(move)
                print(text.describe_move(mover, move, points=round_.points_stack[-1]))
                continue
            if shown_at != len(round_.move_stack):
                self.show(round_)
                shown_at = len(round_.move_stack)
            try:
                line = self.read("move> ")
            except EOFError:
                print()
                line = "quit"
            status = self._command(round_, line.strip())
            if status is not None:
                return status

    def _command(self, round_: Any, line: str) -> Optional[int]:
        """Carry out one line typed at the prompt; an exit status to stop."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return None
        if word in ("quit", "exit", "q"):
            print("bye")
            return 0
        if word in ("help", "?"):
            moves = " ".join(str(m) for m in round_.legal_moves())
            print(f"legal moves: {moves}")
            print("commands: help, hint, undo, save FILE, show, quit (or type a move, like 5-9@2)")
        elif word == "hint":
            print(f"hint: {dc.GreedyPlayer().choose(round_.view(self.seat))}")  # from what the person sees
        elif word == "show":
            self.show(round_)
        elif word == "undo":
            self._undo(round_)
        elif word == "save":
            path = rest.strip()
            if not path:
                print("error: save needs a file name: save FILE")
                return None
            try:
                self.save(path)
            except OSError as exc:
                print(f"error: cannot save to {path}: {exc.strerror or exc}")
                return None
            print(f"saved to {path} (dominocore play --resume {path} goes on from here)")
        else:
            try:
                move = dc.Move.parse(line)
                round_.push(move, player=self.seat)
            except dc.DominoError as exc:
                print(f"error: {exc}")
                return None
            drawn = round_.drawn_tile if move.kind == "draw" else None
            print(text.describe_move(self.seat, move, drawn, you=self.seat, points=round_.points_stack[-1]))
        return None

    def _undo(self, round_: Any) -> None:
        """Take back moves to the start of the person's previous turn in this round."""
        popped = []
        while round_.move_stack:
            popped.append(round_.pop())
            if round_.current_player == self.seat and round_.drawn_tile is None:
                print(f"took back {len(popped)} move{'s' if len(popped) != 1 else ''}")
                return  # the loop prints the table again
        for move in reversed(popped):  # nothing of the person's to take back: put it all back
            round_.push(move)
        print("nothing to undo in this round")

    def _next_round(self) -> Optional[Any]:
        """Deal the next round, or ``None`` (and the closing lines) when the match or the session is over."""
        match = self.match
        totals = " ".join(map(str, match.totals))
        if match.is_over:
            print_match_end(match)
            return None
        if self.stop_after is not None and len(match.rounds) >= self.stop_after:
            print(f"stopped after {self.stop_after} round{'s' if self.stop_after != 1 else ''}: totals {totals}")
            return None
        round_ = match.new_round()
        print(f"\nround {round_.round_index}")
        return round_

    def _finish_round(self, round_: Any) -> Optional[Any]:
        # The result once: the moves since the person's last turn were each
        # described, so the table is not printed again (it ends with the result too).
        print(f"round {round_.round_index} over: {text.result_text(round_.result)}")
        if round_.rules.teams:
            print(text.team_points(round_.rules, round_.result.points))
        print(f"totals: {' '.join(map(str, self.match.totals))}")
        return self._next_round()


def print_match_end(match: Any) -> None:
    """A match's totals, and its winners once it is over."""
    totals = " ".join(map(str, match.totals))
    if match.is_over:
        winners = ", ".join(map(str, match.winners))
        print(
            f"\nmatch over: totals {totals} ({what_wins(match.rules)}); "
            f"winner{'s' if len(match.winners) > 1 else ''}: seat {winners}"
        )
    else:
        print(f"\nmatch not over: totals {totals} after {len(match.rounds)} rounds")


def what_wins(rules: "dc.Rules") -> str:
    """How the game's match is won, in a few words (docs/rules.md and docs/games/)."""
    if rules.points_are_costs:
        return "points are pips left in hand: the lowest total wins"
    return f"points are scored: the first to {rules.target} wins, else the highest total"
