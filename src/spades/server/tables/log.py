"""Where friends' tables are kept: each table is its options and a log of entries with a version.

``TableLog`` is the whole interface (create, append at a version, load from a version), the same
shape as a game's log of moves: an append names the version it continues, and a stale one is
refused, so several server processes can share one table. ``SqliteTableLog`` keeps it in SQLite
(one file several processes on one machine may open).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from spades.server.tables.table import Entry, StaleVersion, TableNotFound

__all__ = ["SqliteTableLog", "StoredTable", "TableLog"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS friend_tables (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS friend_entries (
    code TEXT NOT NULL REFERENCES friend_tables(code),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
"""

StoredTable = tuple[dict[str, Any], list[Entry]]
"""A table's options (as JSON) and the entries of its log asked for."""


class TableLog(Protocol):
    """The store's interface for friends' tables."""

    def create(self, code: str, options: dict[str, Any]) -> bool:
        """Store a new table; False if the code is already in use."""
        ...

    def append(self, code: str, seq: int, entries: list[Entry]) -> None:
        """Append entries after the first ``seq``; StaleVersion if the log has moved past ``seq``."""
        ...

    def load(self, code: str, since: int = 0, max_idle: float | None = None) -> StoredTable:
        """The table's options and its entries from ``since`` on; TableNotFound if none (or idle too long)."""
        ...

    def close(self) -> None:
        """Let go of the database: the server calls it when it stops."""
        ...


class SqliteTableLog:
    """``TableLog`` in a SQLite file (WAL, so readers never wait for the one writer)."""

    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        with self._tx() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # with WAL: commits wait for no flush, never corrupt
            db.executescript(_SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._db

    def close(self) -> None:
        """Close the file."""
        with self._tx() as db:
            db.close()

    def create(self, code: str, options: dict[str, Any]) -> bool:
        """Store a new table; False if the code is already in use."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO friend_tables (code, options, created, touched) VALUES (?, ?, ?, ?)",
                (code, json.dumps(options), now, now),
            )
        return cur.rowcount == 1

    def append(self, code: str, seq: int, entries: list[Entry]) -> None:
        """Append entries after the first ``seq`` at once; StaleVersion if another got there first."""
        with self._tx() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                (count,) = db.execute("SELECT COUNT(*) FROM friend_entries WHERE code = ?",
                                      (code,)).fetchone()
                if count != seq:
                    raise StaleVersion(f"Table {code} is at version {count}, not {seq}.")
                db.executemany("INSERT INTO friend_entries (code, seq, entry) VALUES (?, ?, ?)",
                               [(code, seq + i, json.dumps(e)) for i, e in enumerate(entries)])
                db.execute("UPDATE friend_tables SET touched = ? WHERE code = ?", (time.time(), code))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def load(self, code: str, since: int = 0, max_idle: float | None = None) -> StoredTable:
        """The table's options and its entries from ``since`` on; TableNotFound if none (or idle too long)."""
        with self._tx() as db:
            row = db.execute("SELECT options, touched FROM friend_tables WHERE code = ?", (code,)).fetchone()
            if row is None or (max_idle is not None and time.time() - row[1] > max_idle):
                raise TableNotFound(f"No table has the code {code}: check it, or ask for a new link.")
            rows = db.execute("SELECT entry FROM friend_entries WHERE code = ? AND seq >= ? ORDER BY seq",
                              (code, since)).fetchall()
        return json.loads(row[0]), [json.loads(r[0]) for r in rows]
