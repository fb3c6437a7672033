"""Where players and games are kept: SQLite by default, PostgreSQL when given its URL.

>>> open_store("/tmp/games.sqlite3").describe()
'SQLite file /tmp/games.sqlite3'
"""

from __future__ import annotations

from pathlib import Path

from spades.server.store.base import (
    DELETED_NAME,
    SCHEMA_VERSION,
    Account,
    FriendResult,
    GameRow,
    LogEntry,
    Passkey,
    Played,
    QuickWait,
    RatingChange,
    Result,
    Session,
    Store,
    StoreBusy,
    StoreError,
    at_once,
    holding,
    lock_wait,
    solo_ref,
    table_ref,
)
from spades.server.store.sqlite import SQLiteStore

__all__ = ["DELETED_NAME", "SCHEMA_VERSION", "Account", "FriendResult", "GameRow", "LogEntry", "Passkey",
           "Played", "QuickWait", "RatingChange", "Result", "Session", "Store", "StoreBusy", "StoreError",
           "at_once", "holding", "lock_wait", "open_store", "solo_ref", "table_ref"]


def open_store(where: str | Path) -> Store:
    """The store at a database URL or a SQLite file's path.

    URLs: ``postgresql://user:password@host:port/database`` (libpq's form), and for SQLite
    ``sqlite:///relative/path`` or ``sqlite:////absolute/path``, as SQLAlchemy writes them.

    It is not checked yet: call ``check()`` (which also upgrades its schema) before serving.
    """
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        from spades.server.store.postgres import PostgresStore

        return PostgresStore(text)
    if text.startswith("sqlite:///"):
        return SQLiteStore(text.removeprefix("sqlite:///"))
    if "://" in text:
        raise StoreError(f"Unknown database URL {text.split('://')[0]}://…: use postgresql:// or sqlite:///.")
    return SQLiteStore(text)
