"""The tables of ``dominocore serve``: each holds one match, its seats, the
clients watching it, and its bots (docs/serve.md 2 and 4).

A table changes only under its own ``asyncio.Lock``: a move is checked,
played, committed to the database and then announced, in that order, so no
client hears of a move the database does not hold. Bots choose from their
seat's view, outside the lock: a search or the learned network in a worker
thread, ``random`` and ``greedy`` (well under a millisecond) on the event
loop after letting the others run; the move is played only if the round
has not moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import time
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import dominocore as dc

from ..common.errors import DominoError
from ..common.extensions import search_policies
from ..common.rules import rules_from_dict
from ..common.view import round_id
from .protocol import ProtocolError, picture, state_message
from .store import Store

__all__ = ["BOT_KINDS", "SEAT_KINDS", "Client", "Table", "Tables", "bot_move", "check_config"]

log = logging.getLogger("dominocore.serve")

#: The bots a seat may hold, each with its time budget a move in seconds
#: (0: a plain policy, no search).
BOT_KINDS: Dict[str, float] = {
    "random": 0.0, "greedy": 0.0, "learned": 0.0, "ismcts-0.1": 0.1, "ismcts-0.5": 0.5, "ismcts-2": 2.0,
}  # fmt: skip
#: Every kind of seat: a person, or one of the bots.
SEAT_KINDS = ("human",) + tuple(BOT_KINDS)
#: The bots that answer well under a millisecond, asked on the event loop; the
#: others think in worker threads (``learned``: 0.6 ms a move in the reference).
QUICK_BOTS = ("random", "greedy")
#: The worker threads the searching bots think in (a search releases the
#: interpreter while it runs; more threads than this wait their turn).
_SEARCHES = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="dominocore-bot")
#: A client whose unsent messages pile up beyond this is disconnected.
MAX_BACKLOG = 64


def bot_move(kind: str, view: Any, key: int) -> "dc.Move":
    """The move of the bot ``kind`` at the seat whose view is ``view``. A bot
    sees what its seat may see and nothing more. ``key`` seeds its random
    numbers (the table's seed and the move number: the same position gets the
    same move after a restart)."""
    if kind == "random":
        return dc.RandomPlayer(key).choose(view)
    if kind == "greedy":
        return dc.GreedyPlayer().choose(view)
    if kind == "learned":
        return dc.LearnedPlayer().choose(view)
    return search_policies()["ismcts"](iterations=0, seconds=BOT_KINDS[kind], seed=key).choose(view)


def _search_installed() -> bool:
    try:
        return bool(search_policies())
    except DominoError:  # an install without the compiled core
        return False


class Client:
    """One connection to a table: the seat it holds (``None``: a spectator)
    and its queue of messages still to send. ``send`` takes a message for it
    without waiting; a transport (a websocket, or a test) drains ``outbox``."""

    def __init__(self, seat: Optional[int]) -> None:
        self.seat = seat
        self.outbox: "asyncio.Queue[Optional[Dict[str, Any]]]" = asyncio.Queue()
        self.closed = False

    def send(self, message: Dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_BACKLOG:  # a client that does not read: drop it
            self.close()
            return
        self.outbox.put_nowait(message)

    def close(self) -> None:
        """Stop sending; the transport sees ``None`` and closes."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


def check_config(data: Any) -> Dict[str, Any]:
    """A new table's settings from a client's request: ``{"rules", "seats",
    "seed"}``, checked; ``ProtocolError("bad_message")`` otherwise."""
    if not isinstance(data, dict) or set(data) - {"rules", "seats", "seed"}:
        raise ProtocolError("bad_message", "a table needs rules, seats and optionally seed, and nothing else")
    try:
        rules = rules_from_dict(data.get("rules"))  # type: ignore[arg-type]  # checked there
    except (DominoError, TypeError, ValueError, KeyError) as exc:
        raise ProtocolError("bad_message", f"bad rules: {exc}") from None
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != rules.players or not all(s in SEAT_KINDS for s in seats):
        raise ProtocolError(
            "bad_message", f"seats must list {rules.players} seat kinds, each one of {', '.join(SEAT_KINDS)}"
        )
    if any(s.startswith("ismcts") for s in seats) and not _search_installed():
        raise ProtocolError("bad_message", "the IS-MCTS bots need dominocore's compiled core")
    if "learned" in seats:  # these rules may have no network (docs/learning.md 1)
        try:
            dc.network_for(rules)
        except DominoError as exc:
            raise ProtocolError("bad_message", f"the learned bot: {exc}") from None
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbits(63)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ProtocolError("bad_message", "seed must be an integer from 0 to 2**63 - 1")
    return {"rules": rules.to_dict(), "seats": list(seats), "seed": seed}


class Table:
    """One match at one table. Made by :class:`Tables`."""

    def __init__(
        self, table_id: str, config: Dict[str, Any], match: Any, moves: int, store: Store, owner: "Tables"
    ) -> None:
        self.id = table_id
        self.kinds: List[str] = config["seats"]
        self.seed: int = config["seed"]
        self.match = match
        self.moves = moves  # moves committed so far, over the whole match
        self.store = store
        self.owner = owner
        self.lock = asyncio.Lock()
        self.clients: Set[Client] = set()
        self._bots: Optional["asyncio.Task[None]"] = None

    @property
    def has_humans(self) -> bool:
        return "human" in self.kinds

    # ------------------------------------------------------------ messages

    def seats(self) -> List[Dict[str, Any]]:
        """The seats as every client sees them: kind, and whether a person is connected."""
        present = {c.seat for c in self.clients}
        return [{"kind": kind, "connected": kind != "human" or s in present} for s, kind in enumerate(self.kinds)]

    def match_summary(self) -> Dict[str, Any]:
        """The match's public scores."""
        match = self.match
        finished = [r for r in match.rounds if r.is_over]
        return {
            "totals": list(match.totals),
            "rounds": [list(r.result.points) for r in finished],
            "over": bool(match.is_over),
            "winners": list(match.winners) if match.is_over else [],
        }

    def broadcast(self) -> None:
        """Send every client its state: each seat's built once, the picture
        drawn once for all (and nothing built for a table nobody watches)."""
        if not self.clients:
            return
        round_ = self.match.round
        layout_svg = picture(round_.view(0))
        seats, summary = self.seats(), self.match_summary()
        built: Dict[Optional[int], Dict[str, Any]] = {}
        for client in list(self.clients):
            seat = client.seat
            if seat not in built:
                view = round_.view(0 if seat is None else seat)
                built[seat] = state_message(self.id, view, seat, seats, summary, layout_svg)
            client.send(built[seat])

    # ------------------------------------------------------------ clients

    async def join(self, client: Client) -> None:
        async with self.lock:
            self.clients.add(client)
            self.broadcast()  # the newcomer's state, and everyone's "connected"

    async def leave(self, client: Client) -> None:
        client.close()
        async with self.lock:
            self.clients.discard(client)
            if client.seat is not None and self.kinds[client.seat] == "human":
                self.broadcast()
            self.owner.forget_if_idle(self)

    # ------------------------------------------------------------ changes

    async def play(self, seat: Optional[int], move_text: str, stamp: Dict[str, Any]) -> None:
        """A person's move for ``seat``, made on the view ``stamp`` names;
        :class:`ProtocolError` and nothing changed if it cannot be played."""
        if seat is None:
            raise ProtocolError("spectator", "a spectator cannot play")
        async with self.lock:
            round_ = self.match.round
            if self.match.is_over:
                raise ProtocolError("match_over", "the match is over")
            if round_.is_over:
                raise ProtocolError("round_over", "the round is over: send next for the next round")
            if stamp.get("round_id") != round_id(round_) or stamp.get("move_number") != len(round_.move_stack):
                raise ProtocolError("stale", "the table has moved on since that view: play from the latest state")
            if round_.current_player != seat:
                raise ProtocolError("not_your_turn", f"it is seat {round_.current_player}'s turn, not yours")
            try:
                move = dc.Move.parse(move_text)
                round_.push(move, player=seat)
            except DominoError as exc:
                raise ProtocolError("illegal_move", str(exc)) from None
            self._commit(seat, move)
        self.wake_bots()

    async def next_round(self, seat: Optional[int]) -> None:
        """Deal the next round, asked by a person at ``seat``."""
        if seat is None:
            raise ProtocolError("spectator", "a spectator cannot deal")
        async with self.lock:
            if self.match.is_over:
                raise ProtocolError("match_over", "the match is over")
            if not self.match.round.is_over:
                raise ProtocolError("not_over", "the round is still being played")
            self._deal()
        self.wake_bots()

    def _commit(self, seat: int, move: Any) -> None:
        """Write the move just pushed, then announce it; if the write fails,
        take the move back (nothing announced) and fail."""
        round_ = self.match.round
        try:
            self.store.record_move(
                self.id, self.moves, round_.round_index, seat, str(move), self.match.to_dict(), self.match.is_over
            )
        except Exception:
            round_.pop()
            log.exception("table %s: the move could not be stored", self.id)
            raise ProtocolError("internal", "the server could not store the move; nothing changed") from None
        self.moves += 1
        self.broadcast()

    def _deal(self) -> None:
        self.match.new_round()
        self.store.save_match(self.id, self.match.to_dict(), self.match.is_over)
        self.broadcast()

    # ------------------------------------------------------------ bots

    def wake_bots(self) -> None:
        """Start the table's bot task unless it runs (it stops when a person is to act)."""
        if self._bots is None or self._bots.done():
            self._bots = asyncio.get_running_loop().create_task(self._run_bots())

    async def stop(self) -> None:
        """Cancel the bots and close every client."""
        if self._bots is not None:
            self._bots.cancel()
            try:
                await self._bots
            except (asyncio.CancelledError, Exception):
                pass
        for client in list(self.clients):
            client.close()

    async def _run_bots(self) -> None:
        try:
            while True:
                async with self.lock:
                    match = self.match
                    if match.is_over:
                        self.owner.forget_if_idle(self)
                        return
                    round_ = match.round
                    if round_.is_over:
                        if self.has_humans:
                            return  # a person deals the next round (docs/serve.md 3)
                        self._deal()
                        continue
                    mover = round_.current_player
                    kind = self.kinds[mover]
                    if kind == "human":
                        return
                    view, number = round_.view(mover), len(round_.move_stack)
                key = (self.seed * 0x9E3779B97F4A7C15 + self.moves) % 2**64
                if kind not in QUICK_BOTS:  # a search for its budget, or a network, in a worker thread
                    move = await asyncio.get_running_loop().run_in_executor(_SEARCHES, bot_move, kind, view, key)
                else:  # a plain policy takes well under a millisecond: no thread, but let the others run first
                    await asyncio.sleep(0)
                    move = bot_move(kind, view, key)
                async with self.lock:
                    if self.match.round is not round_ or len(round_.move_stack) != number:
                        continue  # the table moved on while the bot thought
                    round_.push(move, player=mover)
                    self._commit(mover, move)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot's failure must not take the server down; the table waits
            log.exception("table %s: the bot failed", self.id)


class Tables:
    """Every table of a server, over one :class:`Store`."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tables: Dict[str, Table] = {}

    def _load(self, table_id: str, config: Dict[str, Any], match: Dict[str, Any], moves: int) -> Optional[Table]:
        try:
            table = Table(table_id, config, dc.Match.from_dict(match), moves, self.store, self)
        except Exception:
            log.exception("table %s could not be loaded; it is left out", table_id)
            return None
        self.tables[table_id] = table
        return table

    def load(self) -> None:
        """Bring back every table whose match is not over (at start-up); a
        finished one is read from the database when a token asks for it."""
        for table_id, config, match, moves in self.store.tables(unfinished=True):
            self._load(table_id, config, match, moves)

    def forget_if_idle(self, table: Table) -> None:
        """Drop a finished table nobody watches from memory (the database keeps it)."""
        if table.match.is_over and not table.clients and self.tables.get(table.id) is table:
            del self.tables[table.id]

    def start(self) -> None:
        """Start the bots of every table that waits for one (in a running loop)."""
        for table in self.tables.values():
            table.wake_bots()

    async def stop(self) -> None:
        """Stop every table at once: a table's bots may finish its match and
        drop it from ``tables`` meanwhile, so the list is taken first."""
        await asyncio.gather(*(table.stop() for table in list(self.tables.values())))

    def create(self, request: Any) -> Dict[str, Any]:
        """A new table from a client's request (:func:`check_config`): the
        first round dealt and stored, its bots started. Returns the answer for
        the client: ``{"table", "seats", "spectator"}`` with the tokens."""
        config = check_config(request)
        table_id = secrets.token_urlsafe(9)
        match = dc.Match(rules_from_dict(config["rules"]), seed=config["seed"])
        match.new_round()
        seat_tokens = [secrets.token_urlsafe(16) if kind == "human" else None for kind in config["seats"]]
        spectator = secrets.token_urlsafe(16)
        tokens: Dict[str, Optional[int]] = {t: s for s, t in enumerate(seat_tokens) if t is not None}
        tokens[spectator] = None
        table = Table(table_id, config, match, 0, self.store, self)
        self.store.create_table(table_id, self.clock(), config, match.to_dict(), tokens)  # the last step that may fail
        self.tables[table_id] = table
        table.wake_bots()
        return {"table": table_id, "seats": seat_tokens, "spectator": spectator}

    def find(self, token: str) -> Optional[Tuple[Table, Optional[int]]]:
        """``(table, seat)`` for a token, or ``None``."""
        found = self.store.seat_of(token)
        if found is None:
            return None
        table_id, seat = found
        table = self.tables.get(table_id)
        if table is None:  # a finished table, or one that could not be loaded
            stored = self.store.table(table_id)
            table = None if stored is None else self._load(table_id, *stored)
        return None if table is None else (table, seat)
