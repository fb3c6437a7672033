"""A real server on a loopback port, on each store: a temporary SQLite file, and an empty schema
in a throwaway PostgreSQL cluster started once for the session."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.pgcluster import Cluster
from spades.server.run import BackgroundServer


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    if not Cluster.available:
        pytest.skip("PostgreSQL is not installed (./scripts/test installs Debian's postgresql)")
    with Cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database: a SQLite file's path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "spades.sqlite3")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.database()


def query(database: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on a test's database from outside the server (``?`` placeholders)."""
    if "://" not in database:
        with sqlite3.connect(database, isolation_level=None) as db:
            return [tuple(r) for r in db.execute(sql, params).fetchall()]
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        cur = conn.execute(sql.replace("?", "%s"), params)
        return [tuple(r) for r in cur.fetchall()] if cur.description else []


def back_to_schema_6(database: str) -> None:
    """Turn a database of this Spades back into schema version 6: the coach's reviews and claims keyed by
    a solo game's id (the kept reviews moved back), and no processes' leases, ratings, lobby nor accounts,
    as an older Spades left them."""
    for sql in (
            "CREATE TABLE old_reviews (game_id BIGINT NOT NULL, hand INTEGER NOT NULL, review TEXT NOT NULL,"
            " created TEXT NOT NULL, PRIMARY KEY (game_id, hand))",
            "INSERT INTO old_reviews SELECT CAST(substr(subject, 6) AS BIGINT), hand, review, created"
            " FROM coach_reviews",
            "DROP TABLE coach_reviews", "ALTER TABLE old_reviews RENAME TO coach_reviews",
            "DROP TABLE coach_claims",
            "CREATE TABLE coach_claims (game_id BIGINT NOT NULL, hand INTEGER NOT NULL, owner TEXT NOT NULL,"
            " claimed DOUBLE PRECISION NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL,"
            " PRIMARY KEY (game_id, hand))",
            "DROP TABLE server_processes", "DROP TABLE ratings", "DROP TABLE rating_changes",
            "DROP TABLE tournaments", "DROP TABLE bot_tokens",
            "ALTER TABLE games DROP COLUMN rated", "DROP TABLE quick_waits",
            "DROP INDEX friend_tables_listed", "ALTER TABLE friend_tables DROP COLUMN listed",
            "DROP TABLE passkey_challenges", "DROP TABLE passkeys", "DROP TABLE sessions",
            "DROP TABLE accounts", "ALTER TABLE players DROP COLUMN retired",
            "UPDATE schema_version SET version = 6"):
        query(database, sql)


@pytest.fixture
def server(database: str) -> Iterator[BackgroundServer]:
    with BackgroundServer(database) as s:
        yield s


@pytest.fixture
def client(server: BackgroundServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c
