"""SQLite, the default: one file, WAL, a connection per thread; reads never wait.

Writes take turns before SQLite's own write lock: SQLite makes a writer that finds the file locked
sleep (1, 2, 5, 10... ms) and retry, which under load costs more than the writes themselves. The
threads of one process queue on a lock of the process, and the processes on an advisory lock
(``flock``) of a file beside the database (``<name>-writer``), so a writer starts as soon as the
one before it is done, whichever process it is in (on Windows, processes meet SQLite's wait).
A call made ``at_once`` (work on the server's event loop) waits for these locks and for another
program's (SQLite's own) only ``AT_ONCE_WAIT`` in all, then raises ``StoreBusy`` having written
nothing; other calls wait up to ``busy_timeout`` for another program.

Checkpoints (copying the WAL back into the database file) run in a thread of the store's own every
``_CHECKPOINT_EVERY`` seconds, never in a write's commit: SQLite's automatic checkpoint, made by the
commit that fills 1000 pages, held that write up by 6 to 50 ms (a move on the server's event loop,
and every table with it). The thread copies beside the writers, then the little written meanwhile
between two writes (a millisecond or so), which completes the checkpoint: the next write then
starts the WAL file over, so it holds about ``_CHECKPOINT_EVERY`` seconds of writes at most.

Durability: WAL with ``synchronous=NORMAL``. A move is answered after its transaction has
committed to the WAL file, so an answered move survives the server being killed (kill -9); a
power cut or an operating-system crash may lose the moves of the last moments (those not yet
checkpointed or synced), never the database's consistency.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from spades.server.store.base import Dialect, Store, StoreBusy, StoreError, Tx, at_once, holding, lock_wait

if sys.platform != "win32":
    import fcntl

__all__ = ["SQLiteStore"]

_POLL = 0.001
"""Seconds between two tries at the writers' file lock by a call made ``at_once``."""
_CHECKPOINT_EVERY = 0.2
"""Seconds between two checkpoints of the WAL by the store's thread."""
_log = logging.getLogger("spades.store")


class SQLiteStore(Store):
    """The store in one SQLite file, shared safely by threads and by processes."""

    dialect = Dialect(id="INTEGER PRIMARY KEY AUTOINCREMENT", compact=" WITHOUT ROWID",
                      table_exists="SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      now="((julianday('now') - 2440587.5) * 86400.0)")
    local = True

    def __init__(self, path: Path | str, *, busy_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        """Seconds a write waits for another program's write before it fails (read at each call)."""
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._write = threading.Lock()
        """Held by this process's one writer at a time."""
        self._writer_file: int | None = None
        self._checkpoints: threading.Thread | None = None
        self._closing = threading.Event()

    def describe(self) -> str:
        """The file's path."""
        return f"SQLite file {self.path}"

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection to the file, opened on first use (WAL makes reads never wait), its
        wait for another program's lock set to what ``lock_wait`` allows now."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=10000")  # see _CHECKPOINT_EVERY
            self._local.conn = conn
            self._local.timeout = self.busy_timeout
            with self._lock:
                self._connections.append(conn)
                if self._checkpoints is None and not getattr(self._local, "checkpoints", False):
                    self._closing = threading.Event()  # the new thread's own, which a close sets
                    self._checkpoints = threading.Thread(target=self._checkpoint_until_closed,
                                                         args=(self._closing,),
                                                         name="spades-sqlite-checkpoints", daemon=True)
                    self._checkpoints.start()
        wait = lock_wait()  # in steps of 5 ms, so that the loop's connection is seldom set again
        timeout = self.busy_timeout if wait is None else math.ceil(wait * 200) / 200
        if timeout != self._local.timeout:
            conn.execute(f"PRAGMA busy_timeout = {round(timeout * 1000)}")
            self._local.timeout = timeout
        return conn

    @contextmanager
    def _tx(self, *, write: bool) -> Iterator[Tx]:
        """This thread's connection, in a transaction when writing (after its turn at the writers'
        lock); rolled back on any error, and a driver error becomes a StoreError naming the file
        (``StoreBusy`` for a lock still held when a call made ``at_once`` has waited enough)."""
        try:
            with self._writing() if write else contextlib.nullcontext():
                conn = self._connection()
                try:
                    if write:
                        conn.execute("BEGIN IMMEDIATE")
                    yield Tx(conn, "?")
                    if write:
                        conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        except sqlite3.Error as e:
            raise self._failure(e) from e

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """``_tx``'s read, made straight on this thread's connection."""
        try:
            rows: list[tuple[Any, ...]] = self._connection().execute(sql, params).fetchall()
        except sqlite3.Error as e:
            raise self._failure(e) from e
        return rows

    def _failure(self, e: sqlite3.Error) -> StoreError:
        """A driver's error as the store's, naming the file (``StoreBusy`` for a lock still held when a
        call made ``at_once`` has waited enough)."""
        code = getattr(e, "sqlite_errorcode", 0)  # none on the errors Python's module makes itself
        busy = code & 0xFF == sqlite3.SQLITE_BUSY and lock_wait() is not None
        return (StoreBusy if busy else StoreError)(f"{self.describe()}: {e}")

    def write_turn(self) -> AbstractContextManager[None]:
        """The writers' turn (``_writing``), kept for this thread's writes within."""
        return self._writing()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """This process's turn, then the turn among processes (the file lock waits without sleeping,
        or polls while ``lock_wait`` allows); a thread that has the turn already keeps it."""
        if getattr(self._local, "turn", False):
            yield
            return
        with holding(self._write, f"{self.describe()} (a write of this process)"):
            self._local.turn = True
            try:
                with self._writers_file():
                    yield
            finally:
                self._local.turn = False

    @contextmanager
    def _writers_file(self) -> Iterator[None]:
        """The turn among processes: the writers' file locked (none on Windows, where processes meet
        SQLite's own wait)."""
        if sys.platform == "win32":
            yield
            return
        try:
            if self._writer_file is None:
                self._writer_file = os.open(f"{self.path}-writer", os.O_RDWR | os.O_CREAT, 0o644)
            self._take_writers_file(self._writer_file)
        except OSError as e:
            raise StoreError(f"{self.describe()}: its writers' lock file cannot be used ({e}).") from e
        try:
            yield
        finally:
            fcntl.flock(self._writer_file, fcntl.LOCK_UN)

    def _take_writers_file(self, fd: int) -> None:
        """Lock the writers' file: waiting until it is free, or polling it while ``lock_wait`` allows."""
        if lock_wait() is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if not lock_wait():
                    raise StoreBusy(f"{self.describe()}: another process is writing.") from None
                time.sleep(_POLL)

    def _lock_schema(self, tx: Tx) -> None:
        """Nothing to do: a write transaction (BEGIN IMMEDIATE) already holds the file's write lock."""

    def check(self) -> None:
        """Open (or create) a writable file, check its pages, switch it to WAL, then the common checks."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"{self.describe()}: its folder cannot be made ({e}).") from e
        self._check_writable()
        with self._tx(write=False) as tx:
            problems = [r[0] for r in tx.all("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{self.describe()} is damaged: {'; '.join(problems[:3])}. Restore it "
                                 "from a backup, or move it away to start afresh.")
            mode = tx.one("PRAGMA journal_mode=WAL")
            if mode is None or mode[0] != "wal":
                raise StoreError(f"{self.describe()} cannot be switched to WAL mode: is it writable?")
        super().check()

    def _check_writable(self) -> None:
        """Name a read-only file or folder (SQLite itself would only say "unable to open")."""
        for where in (self.path, self.path.parent):
            if where.exists() and not os.access(where, os.W_OK):
                raise StoreError(f"{self.describe()} cannot be written: {where} is read-only (or on a "
                                 "read-only file system), and every move is saved.")

    def ready(self) -> None:
        """The file is still there and writable (an open connection would write on to a removed
        file), then the common cheap check."""
        if not self.path.exists():
            raise StoreError(f"{self.describe()} is gone: was its folder removed or unmounted?")
        self._check_writable()
        super().ready()

    def _checkpoint_until_closed(self, closing: threading.Event) -> None:
        """Every ``_CHECKPOINT_EVERY`` seconds until the store is closed: a passive checkpoint beside the
        writers (most of the copying), then one between two writes if the writers' locks are free at
        once (the pages written meanwhile), which completes, so that the next write starts the WAL over."""
        failing = False
        self._local.checkpoints = True  # its own connection starts no other checkpoint thread
        while not closing.wait(_CHECKPOINT_EVERY):
            try:
                conn = self._connection()
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                with at_once(), self._writing():
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                failing = False
            except StoreBusy:  # the writers were busy: the next turn completes it
                continue
            except (sqlite3.Error, StoreError) as e:  # tried again at the next turn; meanwhile the WAL grows
                if not failing:
                    _log.warning("A checkpoint of %s failed: %s", self.describe(), e)
                failing = True

    def close(self) -> None:
        """Stop the writer and the checkpoints, then close every thread's connection."""
        self._close_writer()
        with self._lock:
            thread, self._checkpoints, closing = self._checkpoints, None, self._closing
        if thread is not None:
            closing.set()
            thread.join()
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()
        with self._write:
            if self._writer_file is not None:
                os.close(self._writer_file)
                self._writer_file = None
