"""The SQLite store: players (an anonymous token and their settings) and their games.

The service talks to storage only through ``Store``'s keyword-only methods, so another
database can take its place behind the same calls.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["GameRow", "Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    settings TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token TEXT NOT NULL REFERENCES players(token),
    deal INTEGER NOT NULL,
    daily TEXT,
    level TEXT NOT NULL,
    bots_bid_nil INTEGER NOT NULL,
    record TEXT NOT NULL,
    status TEXT NOT NULL,
    won INTEGER,
    final_score INTEGER,
    created TEXT NOT NULL,
    finished TEXT
);
CREATE INDEX IF NOT EXISTS games_by_token ON games(token, status);
"""


@dataclass(frozen=True)
class GameRow:
    """One stored game: its record and how it was set up and ended."""

    id: int
    token: str
    deal: int
    daily: str | None
    level: str
    bots_bid_nil: bool
    record: str
    status: str
    """``active``, ``finished`` or ``abandoned``."""
    won: bool | None
    final_score: int | None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """Games and players in one SQLite file; safe to share between the server's threads."""

    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._tx() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._db

    def close(self) -> None:
        """Close the database file."""
        with self._tx() as db:
            db.close()

    # -- players -------------------------------------------------------------------------

    def ensure_player(self, *, token: str) -> None:
        """Remember a player token (a no-op if it is already known)."""
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO players (token, created) VALUES (?, ?)", (token, _now()))

    def settings(self, *, token: str) -> dict[str, Any] | None:
        """The player's saved settings, or None if they never saved any."""
        with self._tx() as db:
            row = db.execute("SELECT settings FROM players WHERE token = ?", (token,)).fetchone()
        if row is None or row["settings"] is None:
            return None
        value: dict[str, Any] = json.loads(row["settings"])
        return value

    def save_settings(self, *, token: str, settings: dict[str, Any]) -> None:
        """Replace the player's settings."""
        with self._tx() as db:
            db.execute("UPDATE players SET settings = ? WHERE token = ?", (json.dumps(settings), token))

    # -- games ---------------------------------------------------------------------------

    def add_game(
        self, *, token: str, deal: int, daily: str | None, level: str, bots_bid_nil: bool, record: str
    ) -> int:
        """Store a new active game for the player (their other active game is abandoned)."""
        with self._tx() as db:
            db.execute("BEGIN")
            db.execute("UPDATE games SET status = 'abandoned' WHERE token = ? AND status = 'active'",
                       (token,))
            cur = db.execute(
                "INSERT INTO games (token, deal, daily, level, bots_bid_nil, record, status, created)"
                " VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
                (token, deal, daily, level, int(bots_bid_nil), record, _now()),
            )
            db.execute("COMMIT")
        assert cur.lastrowid is not None
        return cur.lastrowid

    def game(self, *, token: str, game_id: int) -> GameRow | None:
        """One of the player's games, or None."""
        with self._tx() as db:
            row = db.execute("SELECT * FROM games WHERE id = ? AND token = ?", (game_id, token)).fetchone()
        return None if row is None else _game_row(row)

    def active_game(self, *, token: str) -> GameRow | None:
        """The player's game in progress (or the one just finished), or None."""
        with self._tx() as db:
            row = db.execute(
                "SELECT * FROM games WHERE token = ? AND status != 'abandoned' ORDER BY id DESC LIMIT 1",
                (token,),
            ).fetchone()
        return None if row is None else _game_row(row)

    def save_game(self, *, game_id: int, record: str) -> None:
        """Store a game's record after a move."""
        with self._tx() as db:
            db.execute("UPDATE games SET record = ? WHERE id = ?", (record, game_id))

    def finish_game(self, *, game_id: int, record: str, won: bool, final_score: int) -> None:
        """Store a finished game's record and result, which the stats count."""
        with self._tx() as db:
            db.execute(
                "UPDATE games SET record = ?, status = 'finished', won = ?, final_score = ?, finished = ?"
                " WHERE id = ? AND status = 'active'",
                (record, int(won), final_score, _now(), game_id),
            )

    def finished_games(self, *, token: str) -> list[GameRow]:
        """The player's finished games, oldest first."""
        with self._tx() as db:
            rows = db.execute(
                "SELECT * FROM games WHERE token = ? AND status = 'finished' ORDER BY finished, id",
                (token,),
            ).fetchall()
        return [_game_row(r) for r in rows]


def _game_row(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"], token=row["token"], deal=row["deal"], daily=row["daily"], level=row["level"],
        bots_bid_nil=bool(row["bots_bid_nil"]), record=row["record"], status=row["status"],
        won=None if row["won"] is None else bool(row["won"]), final_score=row["final_score"],
    )
