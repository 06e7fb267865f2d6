"""Where ``dominocore serve`` keeps its tables: SQLite, through the standard
library (docs/serve.md 4).

Three tables: ``tables`` (each table's settings and its match as
``Match.to_dict()``), ``tokens`` (the SHA-256 of each secret token, with
the seat it grants) and ``moves`` (one row per move, numbered per table).
A move's row and the match it leads to are written in one transaction, so
the database never holds one without the other.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

__all__ = ["Store", "default_db_path", "token_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,
    match TEXT NOT NULL,
    moves INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    round_index INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


def default_db_path() -> Path:
    """The default database: ``tables.sqlite3`` in the user's data directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "dominocore" / "tables.sqlite3"


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """The server's database at ``path`` (created if missing). Thread-safe:
    one connection, used under a lock."""

    def __init__(self, path: "str | os.PathLike[str]") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        # WAL: a killed process loses no committed transaction, and readers
        # do not wait for the writer.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _transaction(self, statements: List[Tuple[str, Tuple[Any, ...]]]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_table(
        self,
        table_id: str,
        created: float,
        config: Dict[str, Any],
        match: Dict[str, Any],
        tokens: Dict[str, Optional[int]],
    ) -> None:
        """A new table with its tokens (token -> seat, ``None`` for the spectator)."""
        statements: List[Tuple[str, Tuple[Any, ...]]] = [
            (
                "INSERT INTO tables (id, created, config, match) VALUES (?, ?, ?, ?)",
                (table_id, created, json.dumps(config), json.dumps(match)),
            )
        ]
        statements += [
            ("INSERT INTO tokens (hash, table_id, seat) VALUES (?, ?, ?)", (token_hash(t), table_id, seat))
            for t, seat in tokens.items()
        ]
        self._transaction(statements)

    def record_move(
        self, table_id: str, number: int, round_index: int, seat: int, move: str, match: Dict[str, Any], over: bool
    ) -> None:
        """Move ``number`` (0, 1, ... per table) and the match it leads to.
        A second row with the same number raises ``sqlite3.IntegrityError``
        and writes nothing."""
        self._transaction(
            [
                (
                    "INSERT INTO moves (table_id, number, round_index, seat, move) VALUES (?, ?, ?, ?, ?)",
                    (table_id, number, round_index, seat, move),
                ),
                (
                    "UPDATE tables SET match = ?, moves = ?, over = ? WHERE id = ?",
                    (json.dumps(match), number + 1, int(over), table_id),
                ),
            ]
        )

    def save_match(self, table_id: str, match: Dict[str, Any], over: bool) -> None:
        """The match after a change that is not a move (a new round dealt)."""
        self._transaction(
            [("UPDATE tables SET match = ?, over = ? WHERE id = ?", (json.dumps(match), int(over), table_id))]
        )

    def seat_of(self, token: str) -> Optional[Tuple[str, Optional[int]]]:
        """``(table id, seat)`` the token grants (seat ``None``: the spectator), or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT table_id, seat FROM tokens WHERE hash = ?", (token_hash(token),)).fetchone()
        return None if row is None else (row[0], row[1])

    def table(self, table_id: str) -> Optional[Tuple[Dict[str, Any], Dict[str, Any], int]]:
        """One table: ``(config, match, moves)``, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT config, match, moves FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), json.loads(row[1]), row[2])

    def tables(self, unfinished: bool = False) -> Iterator[Tuple[str, Dict[str, Any], Dict[str, Any], int]]:
        """Every table (or only those whose match is not over): ``(id, config, match, moves)``."""
        where = " WHERE over = 0" if unfinished else ""
        with self._lock:
            rows = self._db.execute(f"SELECT id, config, match, moves FROM tables{where} ORDER BY created").fetchall()
        for table_id, config, match, moves in rows:
            yield table_id, json.loads(config), json.loads(match), moves

    def moves(self, table_id: str) -> List[Tuple[int, int, int, str]]:
        """A table's moves in order: ``(number, round index, seat, move)``."""
        with self._lock:
            return self._db.execute(
                "SELECT number, round_index, seat, move FROM moves WHERE table_id = ? ORDER BY number", (table_id,)
            ).fetchall()
