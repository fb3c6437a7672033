"""The store's one interface and its SQL, shared by SQLite and PostgreSQL.

A game is a row (who plays it, how it was set up, its status and its version) and its log: a
row per move, numbered from 0. A move appends to the log and moves the version on in one
transaction that only succeeds on the version the move was made on (a compare-and-set, backed
by the log's unique (game, seq) key), so any number of server processes can share one store.
A friends' table has the same shape: a row (its code, options, version and when it was last
touched) and its log, an entry per row, appended on the same compare-and-set; the append that ends
one of its games also writes, in the same transaction, a row of ``friend_results`` for each person
who linked their player token to a seat, which the stats count beside the solo games. The coach's
review of a finished hand is a row of ``coach_reviews``, keyed by its subject (a solo game, or a seat
in a table's game) and the hand; the process analysing one holds a row of ``coach_claims``, taken by
insert-if-absent (or over a stale one), so that only one process does. Each serving process renews
its lease, a row of ``server_processes`` stamped by the database's clock, so that the others can tell
when it has died (``spades.server.tables.leases``). A rated game's end (a solo game's append, or a
table's) also rates it in the same transaction (``spades.ratings``): each rated id's row of ``ratings``
is read and locked in a fixed order, moved, and a row of ``rating_changes`` kept per id and game, which
a game's reference keys, so that a game is rated once and only once, whichever process ends it. A table
its host lists in the lobby is marked so (``listed``). A person waiting for a Quick game is a row of
``quick_waits`` (one a player) until a process claims a group of them for a new table, by a
compare-and-set on each row, in one transaction. A player may have an
account (``accounts``: a name, a password's hash) with passkeys, and sessions on other devices
(``sessions``, kept as a selector and a hash: never the credential itself); a passkey ceremony's
challenge is a row of ``passkey_challenges`` until it is used up or expires, so that any process can
finish it. A hosted tournament is a row of
``tournaments``: its document (JSON) replaced whole by a compare-and-set on its version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from spades.ratings import COMPUTER, PROVISIONAL_GAMES, GameResult, Rating, rate

__all__ = ["AT_ONCE_WAIT", "DELETED_NAME", "SCHEMA_VERSION", "Account", "Dialect", "FriendResult", "GameRow",
           "GroupCommit", "LogEntry", "Passkey", "Played", "QuickWait", "RatingChange", "Result", "Store",
           "StoreBusy", "StoreError", "Tx", "at_once", "holding", "lock_wait", "solo_ref", "table_ref"]

T = TypeVar("T")
LogEntry = tuple[int, str] | None
"""A logged move as (seat, move text), or None where the next hand was dealt."""


class StoreError(Exception):
    """The database cannot be reached or cannot write; nothing was changed by the failed call."""


class StoreBusy(StoreError):
    """A call made ``at_once`` found a lock held by another writer (another thread, process or program)
    and changed nothing: make it again where a wait stalls no one, e.g. in a worker thread."""


AT_ONCE_WAIT = 0.02
"""Seconds a call made ``at_once`` may wait for locks in all: a few writes of this server's, not the
seconds another program may hold the database for."""
_this_thread = threading.local()
"""This thread's ``at_once`` deadline, if any: a thread's, not a context's, because asyncio copies the
context into whatever work a call hands on (a callback, a task, a worker thread), which must not
inherit a wait meant for the call itself."""


class at_once:
    """Calls made within it, in this thread, wait for locks at most ``wait`` seconds in all (0: not at
    all), then raise ``StoreBusy`` having changed nothing: for work on the server's event loop, where a
    long wait would stall everyone (nothing is awaited within it: the loop's other tasks would share it).
    A class, not a generator: the solo socket enters one three times a message."""

    def __init__(self, wait: float = AT_ONCE_WAIT) -> None:
        self._wait = wait
        self._outer: float | None = None

    def __enter__(self) -> None:
        self._outer = getattr(_this_thread, "deadline", None)
        _this_thread.deadline = time.monotonic() + self._wait

    def __exit__(self, *exc: object) -> None:
        _this_thread.deadline = self._outer


def lock_wait() -> float | None:
    """How long a lock may be waited for here: None (as long as it takes) or, within ``at_once``, the
    seconds left of its wait."""
    deadline: float | None = getattr(_this_thread, "deadline", None)
    return None if deadline is None else max(0.0, deadline - time.monotonic())


@contextmanager
def holding(lock: threading.Lock, what: str) -> Iterator[None]:
    """Hold a lock of this process, waited for as ``lock_wait`` allows (``StoreBusy`` past that)."""
    wait = lock_wait()
    if not lock.acquire(timeout=-1 if wait is None else wait):
        raise StoreBusy(f"{what} is busy.")
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class GameRow:
    """One stored game without its log: how it was set up, where it stands, how it ended."""

    id: int
    token: str
    deal: int
    daily: str | None
    level: str
    bots_bid_nil: bool
    header: str
    """The game's record (rules, deal, decks, first dealer) with no moves: the log holds them."""
    status: str
    """``new`` (not yet played to the person), ``active``, ``finished`` or ``abandoned``."""
    version: int
    """How many log entries the game has."""
    won: bool | None
    final_score: int | None
    rated: str | None = None
    """The rated rule set the game is rated under, if it is rated (its deal is then kept secret)."""


@dataclass(frozen=True)
class Dialect:
    """How a database spells the few statements that differ."""

    id: str
    """An auto-numbered primary key column."""
    compact: str
    """What follows a table keyed by its primary key alone, to store it as that key's tree."""
    table_exists: str
    """A query that returns a row when the table its one parameter names exists."""
    now: str
    """The database's clock, in seconds since 1970, as an SQL expression: one clock for every process,
    on whatever machine, whether or not their own clocks agree."""

    def has_table(self, tx: Tx, name: str) -> bool:
        """Whether the schema holds a table of this name."""
        return tx.one(self.table_exists, (name,)) is not None


@dataclass(frozen=True)
class Result:
    """How a finished game ended for its person, which the stats count."""

    won: bool
    final_score: int


@dataclass(frozen=True)
class FriendResult:
    """How a friends' table's game ended for one seated person who linked their player token."""

    game: int
    """The game's number at its table (1, then 2 after a rematch...)."""
    seat: int
    player: str
    """The hash of the person's player token (the table's log keeps no token itself)."""
    won: bool
    final_score: int


def solo_ref(game_id: int) -> str:
    """A solo game's reference: its number."""
    return str(game_id)


def table_ref(code: str, game: int) -> str:
    """A friends' table's game's reference: the table's code and the game's number there (``ABC234-2``)."""
    return f"{code}-{game}"


@dataclass(frozen=True)
class Played:
    """A finished game in a player's record: solo, or at a friends' table."""

    won: bool
    final_score: int | None
    friends: bool
    ref: str
    """The game's reference (``solo_ref``, ``table_ref``): what its page and its record name it by."""
    seat: int | None
    """The person's seat at a friends' table (None: the solo game's person, who sits South)."""
    finished: str
    """When it ended: UTC, ISO 8601."""


@dataclass(frozen=True)
class QuickWait:
    """A person waiting for a Quick game, or just seated by one."""

    player: str
    """The hash of the person's player token."""
    rules: str
    """The rule set they wait for (its key: the rules as canonical JSON)."""
    name: str
    rating: float
    ticket: str
    """A random text of this wait, from which the person's own process derives their seat token."""
    sealed: str
    """The hash of that seat token, which the table's seat is given."""
    waited: float
    """Seconds since they pressed, by the database's clock."""
    code: str | None
    """The table a process claimed them for (None: still waiting)."""
    seat: int | None
    formed: bool
    """Whether that table has been formed with them seated (their seat is then theirs to take)."""


@dataclass(frozen=True)
class RatingChange:
    """One rated game in a rated id's history: how it placed, and its rating before and after."""

    game: str
    """The game's reference: ``table CODE N`` (the Nth game at a friends' table) or ``game ID`` (solo)."""
    rules: str
    place: int
    """Its side's place (0: won), as rated: last for a person who left."""
    before: Rating
    after: Rating
    at: str
    """When, as the store writes times (UTC, ISO 8601)."""


DELETED_NAME = "deleted player"
"""What a deleted account's games and ratings are shown under."""


@dataclass(frozen=True)
class Session:
    """Where an account is signed in: a session, or (``selector`` None) the player's own token."""

    selector: str | None
    created: str
    device: str | None
    """The browser and system it signed in from (None: not known, as for the player's own token)."""
    used: str | None
    """When it was last marked used (at most once a day; when it was made if never since; None for the
    player's own token, whose use is not marked)."""


@dataclass(frozen=True)
class Account:
    """A player's account: the name people see, and how it signs in."""

    player: str
    """The player's own token: the key of their games, settings and stats."""
    player_hash: str
    """The token's hash, as friends' tables and their results keep a player."""
    name: str
    name_key: str
    """The name's normalised form, which look-alike names share: unique."""
    password: str | None
    """The password's argon2id hash, or None when the account has none."""
    created: str


_ACCOUNT_COLUMNS = "player, player_hash, name, name_key, password, created"


@dataclass(frozen=True)
class Passkey:
    """A WebAuthn credential of an account's: its id and public key (base64url), its signature count."""

    id: str
    player: str
    public_key: str
    sign_count: int
    created: str
    used: str | None


_PASSKEY_COLUMNS = "id, player, public_key, sign_count, created, used"


class Tx:
    """One connection (in a transaction when writing), spoken to with ``?`` placeholders."""

    def __init__(self, conn: Any, placeholder: str) -> None:
        self._conn = conn
        self._placeholder = placeholder

    def _sql(self, sql: str) -> str:
        """The statement in this driver's placeholder style (the SQL is written with ``?``)."""
        return sql if self._placeholder == "?" else sql.replace("?", self._placeholder)

    def run(self, sql: str, params: Sequence[object] = ()) -> int:
        """Execute a statement; the number of rows it changed."""
        cur = self._conn.cursor()
        cur.execute(self._sql(sql), params)
        count: int = cur.rowcount
        return count

    def many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Execute a statement once per row of parameters."""
        if rows:
            self._conn.cursor().executemany(self._sql(sql), rows)

    def all(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Every row a query returns."""
        cur = self._conn.cursor()
        cur.execute(self._sql(sql), params)
        rows: list[tuple[Any, ...]] = [tuple(r) for r in cur.fetchall()]
        return rows

    def one(self, sql: str, params: Sequence[object] = ()) -> tuple[Any, ...] | None:
        """The first row a query returns, or None."""
        rows = self.all(sql, params)
        return rows[0] if rows else None


def _now() -> str:
    """The current time as the store writes it: UTC, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


_GAME_COLUMNS = ("id, token, deal, daily, level, bots_bid_nil, header, status, version, won, final_score,"
                 " rated")


def _game_row(r: tuple[Any, ...]) -> GameRow:
    """A ``games`` row (the columns of ``_GAME_COLUMNS``) as a ``GameRow``."""
    return GameRow(
        id=r[0], token=r[1], deal=r[2], daily=r[3], level=r[4], bots_bid_nil=bool(r[5]), header=r[6],
        status=r[7], version=r[8], won=None if r[9] is None else bool(r[9]), final_score=r[10], rated=r[11],
    )


class _Lost(Exception):
    """A person of a Quick game's group is no longer waiting: the claim is rolled back."""


_QUICK_COLUMNS = "player, rules, name, rating, ticket, sealed, {now} - since, code, seat, formed"
"""A ``quick_waits`` row's columns, ``{now}`` the database's clock."""


def _quick_row(r: tuple[Any, ...]) -> QuickWait:
    """A ``quick_waits`` row (the columns of ``_QUICK_COLUMNS``) as a ``QuickWait``."""
    return QuickWait(player=r[0], rules=r[1], name=r[2], rating=float(r[3]), ticket=r[4], sealed=r[5],
                     waited=max(0.0, float(r[6])), code=r[7], seat=r[8], formed=bool(r[9]))


# -- schema migrations -------------------------------------------------------------------------
# Each migration takes the schema from the version before it to its own, in the transaction that
# records the new version; a fresh database runs them all.


def _v1_records(tx: Tx, dialect: Dialect) -> None:
    """The first schema: players, and games each holding their whole record."""
    tx.run("CREATE TABLE players (token TEXT PRIMARY KEY, created TEXT NOT NULL, settings TEXT)")
    tx.run(f"""CREATE TABLE games (
        id {dialect.id}, token TEXT NOT NULL REFERENCES players(token), deal BIGINT NOT NULL,
        daily TEXT, level TEXT NOT NULL, bots_bid_nil INTEGER NOT NULL, record TEXT NOT NULL,
        status TEXT NOT NULL, won INTEGER, final_score INTEGER, created TEXT NOT NULL, finished TEXT)""")
    tx.run("CREATE INDEX games_by_token ON games(token, status)")


def _v2_move_log(tx: Tx, dialect: Dialect) -> None:
    """A game is a header and a log of moves, a row each; every stored record is split into them."""
    tx.run(f"""CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, seat INTEGER, move TEXT,
        PRIMARY KEY (game_id, seq)){dialect.compact}""")
    tx.run("ALTER TABLE games ADD COLUMN header TEXT NOT NULL DEFAULT ''")
    tx.run("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
    for game_id, record in tx.all("SELECT id, record FROM games"):
        try:
            data = json.loads(record)
            log = data["moves"]
            data["moves"] = []
            entries = [None if m is None else (int(m[0]), str(m[1])) for m in log]
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise StoreError(f"Game {game_id}'s stored record cannot be read ({e}): the database "
                             "was not upgraded.") from None
        tx.run("UPDATE games SET header = ?, version = ? WHERE id = ?", (json.dumps(data), len(log), game_id))
        tx.many("INSERT INTO moves (game_id, seq, seat, move) VALUES (?, ?, ?, ?)",
                [(game_id, i, *(e if e is not None else (None, None))) for i, e in enumerate(entries)])
    tx.run("ALTER TABLE games DROP COLUMN record")


def _v3_friend_tables(tx: Tx, dialect: Dialect) -> None:
    """Friends' tables, each a row with a version and a log of entries, in the store.

    A SQLite file may already hold them without versions, from when the tables kept their own log
    beside the store: those gain a version (the length of their log).
    """
    if dialect.has_table(tx, "friend_tables"):
        tx.run("ALTER TABLE friend_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        tx.run("UPDATE friend_tables SET version ="
               " (SELECT count(*) FROM friend_entries WHERE friend_entries.code = friend_tables.code)")
        return
    tx.run("""CREATE TABLE friend_tables (
        code TEXT PRIMARY KEY, options TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        touched DOUBLE PRECISION NOT NULL, version INTEGER NOT NULL)""")
    tx.run(f"""CREATE TABLE friend_entries (
        code TEXT NOT NULL REFERENCES friend_tables(code), seq INTEGER NOT NULL, entry TEXT NOT NULL,
        PRIMARY KEY (code, seq)){dialect.compact}""")


def _v4_coach_reviews(tx: Tx, dialect: Dialect) -> None:
    """The coach's review of a finished hand, for the person's seat: computed once, read on every visit."""
    tx.run(f"""CREATE TABLE coach_reviews (
        game_id BIGINT NOT NULL REFERENCES games(id), hand INTEGER NOT NULL, review TEXT NOT NULL,
        created TEXT NOT NULL, PRIMARY KEY (game_id, hand)){dialect.compact}""")


def _v5_coach_claims(tx: Tx, dialect: Dialect) -> None:
    """Which server process is analysing a hand for the coach (and how far it got), so that only one
    does: a claim not renewed for a while is taken to be a stopped process's, and can be taken over."""
    tx.run(f"""CREATE TABLE coach_claims (
        game_id BIGINT NOT NULL REFERENCES games(id), hand INTEGER NOT NULL, owner TEXT NOT NULL,
        claimed DOUBLE PRECISION NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL,
        PRIMARY KEY (game_id, hand)){dialect.compact}""")


def _v6_friend_results(tx: Tx, dialect: Dialect) -> None:
    """The results of friends' tables' games, one row per person who linked their player token to a
    seat, so that the stats count them (found by the token's hash)."""
    tx.run(f"""CREATE TABLE friend_results (
        code TEXT NOT NULL REFERENCES friend_tables(code), game INTEGER NOT NULL, seat INTEGER NOT NULL,
        player TEXT NOT NULL, won INTEGER NOT NULL, final_score INTEGER NOT NULL, finished TEXT NOT NULL,
        PRIMARY KEY (code, game, seat)){dialect.compact}""")
    tx.run("CREATE INDEX friend_results_by_player ON friend_results(player)")


def _v7_coach_subjects(tx: Tx, dialect: Dialect) -> None:
    """The coach's reviews and claims keyed by what is reviewed (``coach.subject``: a solo game, or one
    seat in a friends' table's game) rather than by a solo game's id; the kept reviews move over, and
    the claims, which last seconds, are dropped (a hand being analysed then is analysed again if asked)."""
    tx.run(f"""CREATE TABLE coach_reviews_by_subject (
        subject TEXT NOT NULL, hand INTEGER NOT NULL, review TEXT NOT NULL, created TEXT NOT NULL,
        PRIMARY KEY (subject, hand)){dialect.compact}""")
    tx.run("INSERT INTO coach_reviews_by_subject (subject, hand, review, created)"
           " SELECT 'game ' || game_id, hand, review, created FROM coach_reviews")
    tx.run("DROP TABLE coach_reviews")
    tx.run("ALTER TABLE coach_reviews_by_subject RENAME TO coach_reviews")
    tx.run("DROP TABLE coach_claims")
    tx.run(f"""CREATE TABLE coach_claims (
        subject TEXT NOT NULL, hand INTEGER NOT NULL, owner TEXT NOT NULL, claimed DOUBLE PRECISION NOT NULL,
        done INTEGER NOT NULL, total INTEGER NOT NULL, PRIMARY KEY (subject, hand)){dialect.compact}""")


def _v8_server_processes(tx: Tx, dialect: Dialect) -> None:
    """Each serving process's lease: when it last said it is alive (``beat``, by the database's clock)."""
    tx.run(f"CREATE TABLE server_processes (process TEXT PRIMARY KEY, beat DOUBLE PRECISION NOT NULL)"
           f"{dialect.compact}")


def _v9_ratings(tx: Tx, dialect: Dialect) -> None:
    """Ratings per rated id and rated rule set, the history of their changes (one row per id and game),
    and which rated rule set a solo game is rated under (NULL: not rated)."""
    tx.run(f"""CREATE TABLE ratings (
        player TEXT NOT NULL, rules TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, updated TEXT NOT NULL,
        PRIMARY KEY (player, rules)){dialect.compact}""")
    tx.run("CREATE INDEX ratings_by_rules ON ratings(rules, games)")
    tx.run(f"""CREATE TABLE rating_changes (
        id {dialect.id}, game TEXT NOT NULL, player TEXT NOT NULL, rules TEXT NOT NULL,
        place INTEGER NOT NULL, before_mu DOUBLE PRECISION NOT NULL, before_sigma DOUBLE PRECISION NOT NULL,
        after_mu DOUBLE PRECISION NOT NULL, after_sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,
        at TEXT NOT NULL, UNIQUE (game, player))""")
    tx.run("CREATE INDEX rating_changes_by_player ON rating_changes(player, rules, id)")
    tx.run("ALTER TABLE games ADD COLUMN rated TEXT")


def _v10_lobby(tx: Tx, dialect: Dialect) -> None:
    """The lobby: which tables their host lists there, and the people waiting for a Quick game (by the
    hash of their player token: one wait each), until a process claims them for a table (``code`` and
    ``seat``) and has formed it (``formed``)."""
    tx.run("ALTER TABLE friend_tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 0")
    tx.run("CREATE INDEX friend_tables_listed ON friend_tables(listed, touched)")
    tx.run(f"""CREATE TABLE quick_waits (
        player TEXT PRIMARY KEY, rules TEXT NOT NULL, name TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
        ticket TEXT NOT NULL, sealed TEXT NOT NULL, since DOUBLE PRECISION NOT NULL,
        seen DOUBLE PRECISION NOT NULL, code TEXT, seat INTEGER, claimed DOUBLE PRECISION,
        formed INTEGER NOT NULL DEFAULT 0){dialect.compact}""")
    tx.run("CREATE INDEX quick_waits_by_rules ON quick_waits(rules, code)")


def _v11_accounts(tx: Tx, dialect: Dialect) -> None:
    """Optional accounts over the anonymous players: a name (and its key, which look-alikes share), a
    password's hash, passkeys, the sessions of other devices (hashed), the passkey ceremonies under way;
    and whether a player's own token still signs in (``retired``: not after signing out everywhere)."""
    tx.run("ALTER TABLE players ADD COLUMN retired INTEGER NOT NULL DEFAULT 0")
    tx.run("""CREATE TABLE accounts (
        player TEXT PRIMARY KEY REFERENCES players(token), player_hash TEXT NOT NULL UNIQUE, name TEXT,
        name_key TEXT UNIQUE, password TEXT, created TEXT NOT NULL, deleted TEXT)""")
    tx.run("""CREATE TABLE sessions (
        selector TEXT PRIMARY KEY, verifier TEXT NOT NULL, player TEXT NOT NULL REFERENCES players(token),
        created TEXT NOT NULL)""")
    tx.run("CREATE INDEX sessions_by_player ON sessions(player)")
    tx.run("""CREATE TABLE passkeys (
        id TEXT PRIMARY KEY, player TEXT NOT NULL REFERENCES players(token), public_key TEXT NOT NULL,
        sign_count BIGINT NOT NULL, created TEXT NOT NULL, used TEXT)""")
    tx.run("CREATE INDEX passkeys_by_player ON passkeys(player)")
    tx.run(f"""CREATE TABLE passkey_challenges (
        challenge TEXT PRIMARY KEY, purpose TEXT NOT NULL, player TEXT, expires DOUBLE PRECISION NOT NULL
        ){dialect.compact}""")


def _v12_tournaments(tx: Tx, dialect: Dialect) -> None:
    """Hosted tournaments: each a JSON document under its code, with a version that guards every write."""
    tx.run("""CREATE TABLE tournaments (code TEXT PRIMARY KEY, doc TEXT NOT NULL, version INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL)""")


def _v13_bot_tokens(tx: Tx, dialect: Dialect) -> None:
    """Bot accounts: an account with a bot token (its hash, one a player) is a bot, which connects with it."""
    tx.run("""CREATE TABLE bot_tokens (player TEXT PRIMARY KEY REFERENCES players(token),
        token_hash TEXT NOT NULL UNIQUE, created TEXT NOT NULL)""")


def _v14_session_devices(tx: Tx, dialect: Dialect) -> None:
    """What kind of device each session signed in from (a browser and a system, as its person would name
    them: never the whole User-Agent), for the account's list of where it is signed in."""
    tx.run("ALTER TABLE sessions ADD COLUMN device TEXT")


def _v15_session_use(tx: Tx, dialect: Dialect) -> None:
    """When each session was last used (marked at most once a day; none yet: when it was made), so that
    one unused for long ends (``spades.server.accounts.credentials.SESSION_IDLE``)."""
    tx.run("ALTER TABLE sessions ADD COLUMN used TEXT")


def _v16_listed_tournaments(tx: Tx, dialect: Dialect) -> None:
    """Tournaments their hosts list for anyone to join (``listed``), and where each stands (``status``:
    open, playing, over, as its document says), so that the list is one query."""
    tx.run("ALTER TABLE tournaments ADD COLUMN listed INTEGER NOT NULL DEFAULT 0")
    tx.run("ALTER TABLE tournaments ADD COLUMN status TEXT NOT NULL DEFAULT 'open'")
    tx.run("CREATE INDEX tournaments_listed ON tournaments(listed, status, created)")


_MIGRATIONS: tuple[Callable[[Tx, Dialect], None], ...] = (_v1_records, _v2_move_log, _v3_friend_tables,
                                                          _v4_coach_reviews, _v5_coach_claims,
                                                          _v6_friend_results, _v7_coach_subjects,
                                                          _v8_server_processes, _v9_ratings,
                                                          _v10_lobby, _v11_accounts,
                                                          _v12_tournaments, _v13_bot_tokens,
                                                          _v14_session_devices, _v15_session_use,
                                                          _v16_listed_tournaments)
SCHEMA_VERSION = len(_MIGRATIONS)
"""The schema this code reads and writes."""


def _rate(tx: Tx, result: GameResult) -> None:
    """Rate a finished game within the transaction that records its end: once (a game already rated is
    left as it is), each rated id's row locked as it is read, in the ids' sorted order (two games ending
    at once wait for each other rather than both moving a rating from the same value, and never
    deadlock on these rows)."""
    if tx.one("SELECT 1 FROM rating_changes WHERE game = ?", (result.game,)) is not None:
        return
    now = _now()
    before: dict[str, Rating] = {}
    for player in result.players:
        row = tx.one("INSERT INTO ratings (player, rules, mu, sigma, games, updated)"
                     " VALUES (?, ?, ?, ?, 0, ?)"
                     " ON CONFLICT (player, rules) DO UPDATE SET updated = ratings.updated"
                     " RETURNING mu, sigma, games", (player, result.rules, Rating().mu, Rating().sigma, now))
        assert row is not None
        before[player] = Rating(mu=row[0], sigma=row[1], games=row[2])
    after = rate(result, before)
    places = {p: result.place(i) for i, p in enumerate(result.seats)}
    tx.many("UPDATE ratings SET mu = ?, sigma = ?, games = ?, updated = ? WHERE player = ? AND rules = ?",
            [(r.mu, r.sigma, r.games, now, p, result.rules) for p, r in after.items()])
    tx.many("INSERT INTO rating_changes (game, player, rules, place, before_mu, before_sigma, after_mu,"
            " after_sigma, games, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(result.game, p, result.rules, places[p], before[p].mu, before[p].sigma, r.mu, r.sigma, r.games,
              now) for p, r in after.items()])


class _Slot:
    """One write waiting in a ``GroupCommit``: what it does, then its answer or error."""

    def __init__(self, write: Callable[[Tx], Any]) -> None:
        self.write = write
        self.done: threading.Event | None = None
        """Set when answered: made only for a write that waits (a thread's Event costs a few microseconds)."""
        self.lead = False
        """Set instead of an answer: the writer is to write the next batch itself."""
        self.result: Any = None
        self.error: BaseException | None = None


class GroupCommit:
    """Writes from many threads, gathered into shared transactions (a group commit).

    A thread whose write finds no batch being written writes every write waiting then, its own among
    them, in one transaction; meanwhile others wait (without the GIL), and the first of them writes
    the next batch. Under load, one transaction and one turn at the database's write lock serve many
    writes, where one each made them queue for the lock (each turn costs several waits for the GIL).
    If the transaction fails, each write of its batch raises the error, and none was made.
    """

    def __init__(self, transaction: Callable[[], AbstractContextManager[Tx]]) -> None:
        self._transaction = transaction
        self._lock = threading.Lock()
        self._waiting: list[_Slot] = []
        self._busy = False

    def __call__(self, write: Callable[[Tx], T]) -> T:
        """Make the write (in a transaction shared with others) and return its answer."""
        slot = _Slot(write)
        with self._lock:
            self._waiting.append(slot)
            lead, self._busy = not self._busy, True
            if not lead:
                slot.done = threading.Event()
        if slot.done is not None:
            slot.done.wait()
        if lead or slot.lead:
            self._write_batch()
        if slot.error is not None:
            raise slot.error
        result: T = slot.result
        return result

    def _write_batch(self) -> None:
        """Write what waits, answer each, then hand the next batch to the first still waiting."""
        with self._lock:
            batch, self._waiting = self._waiting, []
        try:
            with self._transaction() as tx:
                results = [s.write(tx) for s in batch]
        except BaseException as e:
            for s in batch:
                s.error = e
        else:
            for s, r in zip(batch, results, strict=True):
                s.result = r
        with self._lock:
            after = self._waiting[0] if self._waiting else None
            self._busy = after is not None
        for s in batch:
            if s.done is not None:
                s.done.set()
        if after is not None and after.done is not None:
            after.lead = True
            after.done.set()


_Waiting = tuple[Callable[[Tx], Any], "asyncio.Future[Any]"]
"""A write waiting for its transaction, and the future its answer is given to."""


class Writer:
    """Writes handed over from an event loop, made by a thread of their own in shared transactions.

    A coroutine awaits its write's answer, given after the commit, without a worker thread of its own:
    the writer takes every write waiting when it is free, so under load a batch costs one wake-up of
    the writer and one of each loop, where a thread a write costs two hand-offs a write.
    """

    def __init__(self, transaction: Callable[[], AbstractContextManager[Tx]]) -> None:
        self._transaction = transaction
        self._lock = threading.Lock()
        self._waiting: list[_Waiting] = []
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closing = False

    def __call__(self, write: Callable[[Tx], T]) -> asyncio.Future[T]:
        """The write's answer (or error), once its transaction is committed (or failed)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.take([(write, future)])
        return future

    def take(self, writes: list[_Waiting]) -> None:
        """Make these writes, their futures (on any loops) settled once committed."""
        with self._lock:
            if self._closing:
                raise StoreError("The store is closed.")
            self._waiting += writes
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="spades-store-writer", daemon=True)
                self._thread.start()
        self._wake.set()

    def close(self) -> None:
        """Write what waits, then stop the thread."""
        with self._lock:
            self._closing, thread = True, self._thread
        self._wake.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        """Write the waiting writes in batches until closed."""
        while True:
            self._wake.wait()
            with self._lock:
                self._wake.clear()
                batch, self._waiting = self._waiting, []
                if not batch and self._closing:
                    return
            if batch:
                self._write_batch(batch)

    def _write_batch(self, batch: list[_Waiting]) -> None:
        """Write a batch in one transaction, then settle its futures on their loops (all failed if it did)."""
        error: BaseException | None = None
        results: list[Any] = []
        try:
            with self._transaction() as tx:
                results = [write(tx) for write, _ in batch]
        except Exception as e:
            error = e
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for i, (_, future) in enumerate(batch):
            by_loop.setdefault(future.get_loop(), []).append((future, None if error else results[i]))
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_settle, settled, error)


class LoopWrites:
    """Writes made on an event loop, gathered while the loop works through what is ready and written
    together once it has: under load the moves of several connections are worked out in one turn of
    the loop, and their appends then share one transaction and one turn at the writers' lock (each
    alone, they cost several times as much CPU a move). The transaction is made on the loop itself while
    no other writer has the lock (it waits for nothing; a lock taken is tried again a few times, a
    millisecond apart), else it is handed to the store's ``Writer``; either way each write is answered
    after the commit. If the shared transaction fails, each write is made again alone, so that only a
    faulty one fails."""

    def __init__(self, transaction: Callable[[], AbstractContextManager[Tx]],
                 writer: Callable[[], Writer]) -> None:
        self._transaction = transaction
        self._writer = writer
        self._waiting: dict[asyncio.AbstractEventLoop, list[_Waiting]] = {}

    def __call__(self, write: Callable[[Tx], T]) -> asyncio.Future[T]:
        """The write's answer (or error), once its transaction is committed (or failed)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        waiting = self._waiting.get(loop)
        if waiting is None:
            waiting = self._waiting[loop] = []
            loop.call_soon(self._write_waiting, loop)
        waiting.append((write, future))
        return future

    def _write_waiting(self, loop: asyncio.AbstractEventLoop, held: Sequence[_Waiting] = (),
                       tries: int = 0) -> None:
        """Write what was gathered on ``loop`` (on the loop, once what was ready has run), with ``held``:
        writes that found the lock taken ``tries`` times already. A lock taken is tried again a moment
        later (another process's commit is soon over: waking the writer's thread costs more), the loop
        serving the others meanwhile, and after ``_TRIES`` the writes go to the writer."""
        batch = [*held, *self._waiting.pop(loop, ())]
        if not batch or self._write(batch):
            return
        if tries < _TRIES:
            loop.call_later(_PAUSE, self._write_waiting, loop, batch, tries + 1)
        else:
            self._hand_over(batch)

    def _write(self, batch: list[_Waiting]) -> bool:
        """Write a batch in one transaction at once and settle its futures; False, nothing done, if the
        lock is taken."""
        try:
            with at_once(0), self._transaction() as tx:
                results = [write(tx) for write, _ in batch]
        except StoreBusy:
            return False
        except Exception as e:
            if len(batch) == 1:
                _settle([(batch[0][1], None)], e)
            else:
                for one in batch:
                    if not self._write([one]):
                        self._hand_over([one])
        else:
            _settle([(future, result) for (_, future), result in zip(batch, results, strict=True)], None)
        return True

    def _hand_over(self, batch: list[_Waiting]) -> None:
        """Have the store's writer make these writes (it waits for the lock in its own thread)."""
        try:
            self._writer().take(batch)
        except StoreError as e:  # closed meanwhile
            _settle([(future, None) for _, future in batch], e)


_TRIES = 5
"""Times a loop's writes try the writers' lock again before they go to the writer."""
_PAUSE = 0.001
"""Seconds between two tries."""


def _settle(settled: list[tuple[asyncio.Future[Any], Any]], error: BaseException | None) -> None:
    """Give each waiting write its answer, or the batch's error (on the futures' loop)."""
    for future, result in settled:
        if not future.done():
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)


class Store(ABC):
    """Players (an anonymous token and its settings) and their games, in a SQL database.

    The service talks to storage only through these keyword-only methods; a subclass brings the
    connections (``_tx``) and the few statements its database spells differently. Every method
    raises ``StoreError`` when the database fails, and then has changed nothing.
    """

    dialect: ClassVar[Dialect]
    local: ClassVar[bool]
    """Its data is in this machine's files: a call never waits on a network (nor long on anything)."""

    @cached_property
    def _group(self) -> GroupCommit:
        """The appends' group commit."""
        return GroupCommit(lambda: self._tx(write=True))

    @cached_property
    def _writer(self) -> Writer:
        """The appends handed over from an event loop."""
        return Writer(lambda: self._tx(write=True))

    @cached_property
    def _on_loop(self) -> LoopWrites:
        """The appends made on an event loop, on a store of this machine."""
        return LoopWrites(lambda: self._tx(write=True), lambda: self._writer)

    def _soon(self, write: Callable[[Tx], T]) -> asyncio.Future[T]:
        """A log's append made from an event loop, answered once committed: on a store of this machine
        gathered with the others of the loop's turn (``LoopWrites``), else made by the store's ``Writer``
        (a database over the network must not be waited for on the loop)."""
        return self._on_loop(write) if self.local else self._writer(write)

    def _close_writer(self) -> None:
        """Let the writer finish what it holds and stop (a close's first step)."""
        writer: Writer | None = self.__dict__.pop("_writer", None)
        if writer is not None:
            writer.close()

    def _appends(self, write: Callable[[Tx], T]) -> T:
        """A log's append (a game's or a table's), which come one per move: written in batches, except
        one made ``at_once``, which is written alone (it may neither wait for a batch under way nor put
        others' writes in a transaction that gives up soon)."""
        if lock_wait() is None:
            return self._group(write)
        with self._tx(write=True) as tx:
            return write(tx)

    def write_turn(self) -> AbstractContextManager[None]:
        """This thread's turn among the writers, taken now (waiting as ``lock_wait`` allows, else
        ``StoreBusy``) and kept for the writes it makes within: work that cannot be undone cheaply once
        done, on the event loop, takes the turn before it is done rather than find it taken after. Only
        a store whose writers take turns has one to take (``local``)."""
        return nullcontext()

    @abstractmethod
    def _tx(self, *, write: bool) -> AbstractContextManager[Tx]:
        """A connection for one call: a write is one transaction, committed at the end."""

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Every row one read returns (``?`` placeholders), as ``_tx`` reads it: a store may read
        more cheaply (the solo socket reads a credential a message)."""
        with self._tx(write=False) as tx:
            return tx.all(sql, params)

    @abstractmethod
    def _lock_schema(self, tx: Tx) -> None:
        """Keep other processes out of the schema until this write transaction ends."""

    @abstractmethod
    def close(self) -> None:
        """Close every connection."""

    @abstractmethod
    def describe(self) -> str:
        """Where the data lives, for messages (never a password)."""

    # -- start-up ------------------------------------------------------------------------------

    def check(self) -> None:
        """Upgrade the schema if it is older, then prove the database reachable and writable.

        Raises ``StoreError`` with a message for the operator: a newer schema than this code
        knows, a database that cannot be written, one that cannot be reached.
        """
        with self._tx(write=True) as tx:
            self._lock_schema(tx)
            found = self._schema_version(tx)
            if found > SCHEMA_VERSION:
                raise StoreError(
                    f"The database {self.describe()} has schema version {found}, newer than this "
                    f"Spades knows ({SCHEMA_VERSION}): run a newer Spades, or point it at another database.")
            for version in range(found + 1, SCHEMA_VERSION + 1):
                _MIGRATIONS[version - 1](tx, self.dialect)
            if found == 0:
                tx.run("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                tx.run("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            else:
                # also the proof that the database takes writes when nothing needed upgrading
                tx.run("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def ready(self) -> None:
        """The readiness probe's check, cheap enough to run often: the database answers, takes a
        write (one row rewritten as it was), and still holds the schema this code knows.

        ``check`` at start does the thorough part (the upgrade, and SQLite's scan of its pages).
        """
        with self._tx(write=True) as tx:
            kept = tx.run("UPDATE schema_version SET version = version WHERE version = ?", (SCHEMA_VERSION,))
            if kept != 1:
                raise StoreError(f"{self.describe()} no longer has schema version {SCHEMA_VERSION}: was it "
                                 "replaced, or upgraded by a newer Spades?")

    def _schema_version(self, tx: Tx) -> int:
        """The schema version the database holds: 0 for an empty one, 1 for one written before
        versions were kept (which is then marked as such)."""
        if self.dialect.has_table(tx, "schema_version"):
            row = tx.one("SELECT version FROM schema_version")
            return 0 if row is None else int(row[0])
        if self.dialect.has_table(tx, "games"):  # written before versions were kept: the first schema
            tx.run("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            tx.run("INSERT INTO schema_version (version) VALUES (1)")
            return 1
        return 0

    # -- players -------------------------------------------------------------------------------

    def add_player(self, *, token: str) -> None:
        """Remember a newly issued player token."""
        with self._tx(write=True) as tx:
            tx.run("INSERT INTO players (token, created) VALUES (?, ?)", (token, _now()))

    def has_player(self, *, token: str) -> bool:
        """Whether this token was issued here."""
        with self._tx(write=False) as tx:
            return tx.one("SELECT 1 FROM players WHERE token = ?", (token,)) is not None

    def settings(self, *, token: str) -> dict[str, Any] | None:
        """The player's saved settings, or None if they never saved any."""
        rows = self._query("SELECT settings FROM players WHERE token = ?", (token,))
        if not rows or rows[0][0] is None:
            return None
        value: dict[str, Any] = json.loads(rows[0][0])
        return value

    def save_settings(self, *, token: str, settings: dict[str, Any]) -> None:
        """Replace the player's settings."""
        with self._tx(write=True) as tx:
            tx.run("UPDATE players SET settings = ? WHERE token = ?", (json.dumps(settings), token))

    # -- accounts ------------------------------------------------------------------------------

    def credential(self, *, token: str, selector: str, since: str) -> list[tuple[str, str | None, str]]:
        """Who a credential may be: the player whose own token it is (if that still signs in), with None,
        and the player of the session whose selector it starts with (if used ``since`` then), with that
        session's verifier (the hash the rest of it must have: ``spades.server.accounts.credentials``);
        each with when it was last used (the session's; "" for the player's own token)."""
        rows = self._query("SELECT token, NULL, '' FROM players WHERE token = ? AND retired = 0"
                           " UNION ALL SELECT player, verifier, COALESCE(used, created) FROM sessions"
                           " WHERE selector = ? AND COALESCE(used, created) >= ?", (token, selector, since))
        return [(str(player), None if verifier is None else str(verifier), str(used))
                for player, verifier, used in rows]

    def session_used(self, *, selector: str) -> None:
        """Mark a session used now (its credential signed a request in)."""
        with self._tx(write=True) as tx:
            tx.run("UPDATE sessions SET used = ? WHERE selector = ?", (_now(), selector))

    def add_account(self, *, player: str, player_hash: str, name: str, name_key: str,
                    password: str | None) -> bool:
        """Give a player a name (``name_key``: its normalised form, unique) and a password's hash (or
        None); False, writing nothing, if the player has an account already (even a deleted one) or
        another has the key."""
        with self._tx(write=True) as tx:
            return tx.run("INSERT INTO accounts (player, player_hash, name, name_key, password, created)"
                          " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                          (player, player_hash, name, name_key, password, _now())) == 1

    def account(self, *, player: str) -> Account | None:
        """A player's account (not a deleted one), or None."""
        with self._tx(write=False) as tx:
            row = tx.one(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE player = ? AND name IS NOT NULL",
                         (player,))
        return None if row is None else Account(*row)

    def account_by_name(self, *, name_key: str) -> Account | None:
        """The account whose name has this key (``spades.server.accounts.names.name_key(name)``), or None:
        from a name to the player (``Account.player``, and ``player_hash`` as friends' tables keep it)."""
        with self._tx(write=False) as tx:
            row = tx.one(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?", (name_key,))
        return None if row is None else Account(*row)

    def names(self, *, player_hashes: Collection[str]) -> dict[str, str]:
        """From players (their tokens' hashes, as friends' tables and results keep them) to the names shown
        for them: an account's name, or ``DELETED_NAME`` for a deleted one; a player who never made an
        account is not among them."""
        wanted = list(player_hashes)
        if not wanted:
            return {}
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT player_hash, name FROM accounts"
                          f" WHERE player_hash IN ({', '.join('?' * len(wanted))})", wanted)
        return {str(h): DELETED_NAME if name is None else str(name) for h, name in rows}

    def set_password(self, *, player: str, password: str | None) -> None:
        """Replace the hash of the account's password (None: no password)."""
        with self._tx(write=True) as tx:
            tx.run("UPDATE accounts SET password = ? WHERE player = ? AND name IS NOT NULL",
                   (password, player))

    def set_bot_token(self, *, player: str, token_hash: str) -> None:
        """Make the player's account a bot, connecting with the token of this hash (replacing an earlier
        one)."""
        with self._tx(write=True) as tx:
            tx.run("DELETE FROM bot_tokens WHERE player = ?", (player,))
            tx.run("INSERT INTO bot_tokens (player, token_hash, created) VALUES (?, ?, ?)",
                   (player, token_hash, _now()))

    def bot_by_token(self, *, token_hash: str) -> Account | None:
        """The (not deleted) bot account whose token has this hash, or None."""
        return self._bot("bot_tokens.token_hash", token_hash)

    def bot_by_name(self, *, name_key: str) -> Account | None:
        """The (not deleted) bot account whose name has this key, or None."""
        return self._bot("accounts.name_key", name_key)

    def _bot(self, column: str, value: str) -> Account | None:
        """The (not deleted) bot account whose ``column`` (of ``bot_tokens`` or ``accounts``) is ``value``."""
        columns = ", ".join(f"accounts.{c.strip()}" for c in _ACCOUNT_COLUMNS.split(","))
        with self._tx(write=False) as tx:
            row = tx.one(f"SELECT {columns} FROM bot_tokens"
                         " JOIN accounts ON accounts.player = bot_tokens.player"
                         f" WHERE {column} = ? AND accounts.name IS NOT NULL", (value,))
        return None if row is None else Account(*row)

    def add_session(self, *, player: str, selector: str, verifier: str, device: str, since: str) -> None:
        """Keep a new session of a player's (its selector and verifier: never the credential itself), and
        the kind of device it signed in from; forget the player's sessions not used ``since`` then."""
        with self._tx(write=True) as tx:
            tx.run("DELETE FROM sessions WHERE player = ? AND COALESCE(used, created) < ?", (player, since))
            tx.run("INSERT INTO sessions (selector, verifier, player, created, device)"
                   " VALUES (?, ?, ?, ?, ?)", (selector, verifier, player, _now(), device))

    def sessions(self, *, player: str, since: str) -> list[Session]:
        """Where a player is signed in, oldest first: their own token while it still signs in (its
        ``selector`` None), then each session used ``since`` then."""
        with self._tx(write=False) as tx:
            own = tx.all("SELECT NULL, a.created, NULL, NULL FROM players p"
                         " JOIN accounts a ON a.player = p.token"
                         " WHERE p.token = ? AND p.retired = 0", (player,))
            rows = tx.all("SELECT selector, created, device, COALESCE(used, created) FROM sessions"
                          " WHERE player = ?"
                          " AND COALESCE(used, created) >= ? ORDER BY created", (player, since))
        return [Session(*row) for row in [*own, *rows]]

    def sign_out(self, *, player: str, selector: str | None) -> bool:
        """End one credential of a player's: the session with this selector, or (None) the player's token;
        False if it had ended already."""
        with self._tx(write=True) as tx:
            if selector is None:
                return tx.run("UPDATE players SET retired = 1 WHERE token = ? AND retired = 0",
                              (player,)) == 1
            return tx.run("DELETE FROM sessions WHERE selector = ? AND player = ?", (selector, player)) == 1

    def sign_out_everywhere(self, *, player: str) -> None:
        """End every session of a player's and retire the player's own token, at once."""
        with self._tx(write=True) as tx:
            self._sign_out_everywhere(tx, player)

    @staticmethod
    def _sign_out_everywhere(tx: Tx, player: str) -> None:
        """``sign_out_everywhere`` within a transaction (a bot's token too)."""
        tx.run("DELETE FROM sessions WHERE player = ?", (player,))
        tx.run("DELETE FROM bot_tokens WHERE player = ?", (player,))
        tx.run("UPDATE players SET retired = 1 WHERE token = ?", (player,))

    def delete_account(self, *, player: str) -> bool:
        """Erase an account in one transaction: its name (which others may then take), password, passkeys,
        sessions, passkey ceremonies, the player's settings, ratings and rating history, and every
        credential; the finished games stay, shown under ``DELETED_NAME`` (and the ratings they moved of
        the others who played them stay as they are). False (nothing changed) if the player has no
        account."""
        with self._tx(write=True) as tx:
            if tx.run("UPDATE accounts SET name = NULL, name_key = NULL, password = NULL, deleted = ?"
                      " WHERE player = ? AND name IS NOT NULL", (_now(), player)) != 1:
                return False
            for table in ("ratings", "rating_changes"):
                tx.run(f"DELETE FROM {table} WHERE player ="
                       " (SELECT player_hash FROM accounts WHERE player = ?)", (player,))
            tx.run("DELETE FROM passkeys WHERE player = ?", (player,))
            tx.run("DELETE FROM passkey_challenges WHERE player = ?", (player,))
            tx.run("UPDATE players SET settings = NULL WHERE token = ?", (player,))
            self._sign_out_everywhere(tx, player)
            return True

    def add_passkey(self, *, player: str, passkey_id: str, public_key: str, sign_count: int) -> bool:
        """Keep a passkey of an account's (its id and public key in base64url); False if the id is known."""
        with self._tx(write=True) as tx:
            return tx.run("INSERT INTO passkeys (id, player, public_key, sign_count, created) VALUES"
                          " (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                          (passkey_id, player, public_key, sign_count, _now())) == 1

    def passkey(self, *, passkey_id: str) -> Passkey | None:
        """A passkey by its id, or None."""
        with self._tx(write=False) as tx:
            row = tx.one(f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE id = ?", (passkey_id,))
        return None if row is None else Passkey(*row)

    def passkeys(self, *, player: str) -> list[Passkey]:
        """An account's passkeys, oldest first."""
        with self._tx(write=False) as tx:
            rows = tx.all(f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE player = ? ORDER BY created, id",
                          (player,))
        return [Passkey(*r) for r in rows]

    def drop_passkey(self, *, player: str, passkey_id: str) -> bool:
        """Remove one of an account's passkeys; False if it has no such passkey."""
        with self._tx(write=True) as tx:
            return tx.run("DELETE FROM passkeys WHERE id = ? AND player = ?", (passkey_id, player)) == 1

    def use_passkey(self, *, passkey_id: str, was: int, now: int) -> bool:
        """Move a passkey's signature count from ``was`` to ``now``; False if another sign-in moved it."""
        with self._tx(write=True) as tx:
            return tx.run("UPDATE passkeys SET sign_count = ?, used = ? WHERE id = ? AND sign_count = ?",
                          (now, _now(), passkey_id, was)) == 1

    def add_challenge(self, *, challenge: str, purpose: str, player: str | None, ttl: float) -> None:
        """Keep a passkey ceremony's challenge (base64url) for ``ttl`` seconds by the database's clock, for
        one purpose (and player, when registering), so that any process can finish the ceremony."""
        with self._tx(write=True) as tx:
            tx.run(f"DELETE FROM passkey_challenges WHERE expires < {self.dialect.now}")
            tx.run(f"INSERT INTO passkey_challenges (challenge, purpose, player, expires) VALUES"
                   f" (?, ?, ?, {self.dialect.now} + ?)", (challenge, purpose, player, ttl))

    def take_challenge(self, *, challenge: str, purpose: str) -> tuple[str | None] | None:
        """Use up a challenge kept for this purpose: (the player it was given to, or None), or None if it
        is not kept (never given, used already, or expired). Only one call ever gets it."""
        with self._tx(write=True) as tx:
            row = tx.one(f"DELETE FROM passkey_challenges WHERE challenge = ? AND purpose = ?"
                         f" AND expires >= {self.dialect.now} RETURNING player", (challenge, purpose))
        return None if row is None else (None if row[0] is None else str(row[0]),)

    # -- games ---------------------------------------------------------------------------------

    def add_game(self, *, token: str, deal: int, daily: str | None, level: str, bots_bid_nil: bool,
                 header: str, rated: str | None = None) -> GameRow:
        """Store a new game with an empty log (``rated``: under that rated rule set); it becomes the
        player's game at its first append."""
        with self._tx(write=True) as tx:
            row = tx.one(
                "INSERT INTO games (token, deal, daily, level, bots_bid_nil, header, status, version,"
                f" created, rated) VALUES (?, ?, ?, ?, ?, ?, 'new', 0, ?, ?) RETURNING {_GAME_COLUMNS}",
                (token, deal, daily, level, int(bots_bid_nil), header, _now(), rated),
            )
        assert row is not None
        return _game_row(row)

    def game(self, *, game_id: int, token: str | None = None) -> GameRow | None:
        """One of the player's games (``token``: theirs; None: whoever's), or None."""
        with self._tx(write=False) as tx:
            if token is None:
                row = tx.one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            else:
                row = tx.one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ? AND token = ?",
                             (game_id, token))
        return None if row is None else _game_row(row)

    def active_game(self, *, token: str) -> GameRow | None:
        """The player's game in progress (or the one just finished), or None."""
        with self._tx(write=False) as tx:
            row = tx.one(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE token = ? AND status IN ('active', 'finished')"
                " ORDER BY id DESC LIMIT 1",
                (token,),
            )
        return None if row is None else _game_row(row)

    def log(self, *, game_id: int, since: int = 0) -> list[LogEntry]:
        """The game's log from entry ``since`` on."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT seat, move FROM moves WHERE game_id = ? AND seq >= ? ORDER BY seq",
                          (game_id, since))
        return [None if move is None else (seat, move) for seat, move in rows]

    def append(self, *, game_id: int, version: int, entries: Sequence[LogEntry],
               result: Result | None = None, rated: GameResult | None = None,
               forfeit: tuple[int, GameResult] | None = None) -> bool:
        """Add entries to the log of a game at ``version``, and its result if they end it (with its
        rating, if rated).

        False (and nothing written) when the game is no longer at that version or is over. The
        first append makes a new game the player's game, and their previous one abandoned: if that is
        ``forfeit``'s game (a rated one) and was still being played, it is rated as ``forfeit`` says.
        """
        return self._appends(self._game_append(game_id, version, entries, result, rated, forfeit))

    async def append_soon(self, *, game_id: int, version: int, entries: Sequence[LogEntry],
                          result: Result | None = None, rated: GameResult | None = None) -> bool:
        """``append`` from an event loop, answered once committed (``_soon``)."""
        return await self._soon(self._game_append(game_id, version, entries, result, rated, None))

    @staticmethod
    def _game_append(game_id: int, version: int, entries: Sequence[LogEntry], result: Result | None,
                     rated: GameResult | None,
                     forfeit: tuple[int, GameResult] | None) -> Callable[[Tx], bool]:
        """The write of ``append``."""
        status = "active" if result is None else "finished"

        def write(tx: Tx) -> bool:
            changed = tx.run(
                "UPDATE games SET version = ?, status = ?, won = ?, final_score = ?, finished = ?"
                " WHERE id = ? AND version = ? AND status IN ('new', 'active')",
                (version + len(entries), status, None if result is None else int(result.won),
                 None if result is None else result.final_score, None if result is None else _now(),
                 game_id, version),
            )
            if changed != 1:
                return False
            if version == 0:
                if forfeit is not None and tx.run("UPDATE games SET status = 'abandoned' WHERE id = ?"
                                                  " AND status = 'active'", (forfeit[0],)) == 1:
                    _rate(tx, forfeit[1])
                tx.run("UPDATE games SET status = 'abandoned' WHERE status = 'active' AND id <> ?"
                       " AND token = (SELECT token FROM games WHERE id = ?)", (game_id, game_id))
            tx.many("INSERT INTO moves (game_id, seq, seat, move) VALUES (?, ?, ?, ?)",
                    [(game_id, version + i, *(e if e is not None else (None, None)))
                     for i, e in enumerate(entries)])
            if rated is not None:
                _rate(tx, rated)
            return True

        return write

    def save_review(self, *, subject: str, hand: int, review: str) -> bool:
        """Keep the coach's review of a finished hand (JSON) and end the claim on its analysis; False
        if one was kept already (the first stays: a review is deterministic, so any copy is the same)."""
        with self._tx(write=True) as tx:
            tx.run("DELETE FROM coach_claims WHERE subject = ? AND hand = ?", (subject, hand))
            return tx.run("INSERT INTO coach_reviews (subject, hand, review, created) VALUES (?, ?, ?, ?)"
                          " ON CONFLICT DO NOTHING", (subject, hand, review, _now())) == 1

    def claim_review(self, *, subject: str, hand: int, owner: str, stale_after: float) -> bool:
        """Claim the analysis of a hand for ``owner``: True if it was not kept and no one else holds
        a claim on it renewed in the last ``stale_after`` seconds (that one is taken over). Claims are
        timed by the database's clock, which every process shares, as the processes' leases are."""
        now = self.dialect.now
        with self._tx(write=True) as tx:
            if tx.one("SELECT 1 FROM coach_reviews WHERE subject = ? AND hand = ?", (subject, hand)):
                return False
            if tx.run("INSERT INTO coach_claims (subject, hand, owner, claimed, done, total)"
                      f" VALUES (?, ?, ?, {now}, 0, 0) ON CONFLICT DO NOTHING", (subject, hand, owner)) == 1:
                return True
            return tx.run(f"UPDATE coach_claims SET owner = ?, claimed = {now}, done = 0, total = 0"
                          f" WHERE subject = ? AND hand = ? AND (owner = ? OR claimed < {now} - ?)",
                          (owner, subject, hand, owner, stale_after)) == 1

    def renew_claim(self, *, subject: str, hand: int, owner: str, done: int, total: int) -> bool:
        """Renew ``owner``'s claim on a hand's analysis, with how far it got; False if it is not theirs."""
        with self._tx(write=True) as tx:
            return tx.run(f"UPDATE coach_claims SET claimed = {self.dialect.now}, done = ?, total = ?"
                          " WHERE subject = ? AND hand = ? AND owner = ?",
                          (done, total, subject, hand, owner)) == 1

    def release_claim(self, *, subject: str, hand: int, owner: str) -> None:
        """End ``owner``'s claim on a hand's analysis (stopped or failed), if it still holds it."""
        with self._tx(write=True) as tx:
            tx.run("DELETE FROM coach_claims WHERE subject = ? AND hand = ? AND owner = ?",
                   (subject, hand, owner))

    def claim(self, *, subject: str, hand: int) -> tuple[str, float, int, int] | None:
        """The claim on a hand's analysis: its owner, seconds since it was renewed, decisions judged
        and to judge; or None."""
        with self._tx(write=False) as tx:
            row = tx.one(f"SELECT owner, {self.dialect.now} - claimed, done, total FROM coach_claims"
                         " WHERE subject = ? AND hand = ?", (subject, hand))
        return None if row is None else (str(row[0]), float(row[1]), int(row[2]), int(row[3]))

    def review(self, *, subject: str, hand: int) -> str | None:
        """The coach's kept review of a hand (JSON), or None."""
        with self._tx(write=False) as tx:
            row = tx.one("SELECT review FROM coach_reviews WHERE subject = ? AND hand = ?", (subject, hand))
        return None if row is None else str(row[0])

    def reviews(self, *, subject: str) -> dict[int, str]:
        """The coach's kept reviews of a game's hands (JSON), by hand number."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT hand, review FROM coach_reviews WHERE subject = ?", (subject,))
        return {int(hand): str(review) for hand, review in rows}

    def drop_review(self, *, subject: str, hand: int, review: str) -> bool:
        """Remove a kept review that cannot be read, if it still holds exactly ``review`` (another
        process may have replaced it meanwhile); whether it was removed."""
        with self._tx(write=True) as tx:
            return tx.run("DELETE FROM coach_reviews WHERE subject = ? AND hand = ? AND review = ?",
                          (subject, hand, review)) == 1

    def played(self, *, token: str, player: str) -> list[Played]:
        """The player's finished games, solo (by ``token``) and at friends' tables (by ``player``,
        the token's hash), oldest first."""
        with self._tx(write=False) as tx:
            rows = tx.all(
                "SELECT won, final_score, CAST(NULL AS TEXT), finished, id, CAST(NULL AS INTEGER) FROM games"
                " WHERE token = ? AND status = 'finished'"
                " UNION ALL SELECT won, final_score, code, finished, game, seat FROM friend_results"
                " WHERE player = ? ORDER BY 4, 5",
                (token, player),
            )
        return [Played(won=bool(won), final_score=score, friends=code is not None,
                       ref=solo_ref(number) if code is None else table_ref(code, number), seat=seat,
                       finished=finished)
                for won, score, code, finished, number, seat in rows]

    # -- friends' tables -----------------------------------------------------------------------

    def add_table(self, *, code: str, options: str, listed: bool = False) -> bool:
        """Store a new friends' table (its options as JSON, ``listed`` in the lobby or not) with an empty
        log; False if the code is taken."""
        now = time.time()
        with self._tx(write=True) as tx:
            added = tx.run("INSERT INTO friend_tables (code, options, created, touched, version, listed)"
                           " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (code) DO NOTHING",
                           (code, options, now, now, int(listed)))
        return added == 1

    def listed_tables(self, *, max_idle: float, limit: int) -> list[str]:
        """The codes of the tables listed in the lobby that were touched in the last ``max_idle`` seconds,
        the latest first, at most ``limit``."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT code FROM friend_tables WHERE listed = 1 AND touched > ?"
                          " ORDER BY touched DESC LIMIT ?", (time.time() - max_idle, limit))
        return [str(r[0]) for r in rows]

    def append_table(self, *, code: str, version: int, entries: Sequence[str],
                     results: Sequence[FriendResult] = (), rated: GameResult | None = None) -> bool:
        """Add entries (JSON texts) to the log of a table at ``version``, with the results of the game
        they end if they end one (and its rating, if rated); False (nothing written) when it is at
        another version."""
        return self._appends(self._table_append(code, version, entries, results, rated))

    async def append_table_soon(self, *, code: str, version: int, entries: Sequence[str],
                                results: Sequence[FriendResult] = (),
                                rated: GameResult | None = None) -> bool:
        """``append_table`` from an event loop: made by the store's ``Writer``, answered once committed."""
        return await self._writer(self._table_append(code, version, entries, results, rated))

    @staticmethod
    def _table_append(code: str, version: int, entries: Sequence[str], results: Sequence[FriendResult],
                      rated: GameResult | None) -> Callable[[Tx], bool]:
        """The write of ``append_table``."""
        def write(tx: Tx) -> bool:
            if tx.run("UPDATE friend_tables SET version = ?, touched = ? WHERE code = ? AND version = ?",
                      (version + len(entries), time.time(), code, version)) != 1:
                return False
            tx.many("INSERT INTO friend_entries (code, seq, entry) VALUES (?, ?, ?)",
                    [(code, version + i, e) for i, e in enumerate(entries)])
            tx.many("INSERT INTO friend_results (code, game, seat, player, won, final_score, finished)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [(code, r.game, r.seat, r.player, int(r.won), r.final_score, _now()) for r in results])
            if rated is not None:
                _rate(tx, rated)
            return True

        return write

    def table(self, *, code: str, since: int = 0,
              max_idle: float | None = None) -> tuple[str, list[str]] | None:
        """A table's options and its log from entry ``since`` on (JSON texts); None if there is no
        such table, or it was last touched more than ``max_idle`` seconds ago."""
        with self._tx(write=False) as tx:
            row = tx.one("SELECT options, touched FROM friend_tables WHERE code = ?", (code,))
            if row is None or (max_idle is not None and time.time() - row[1] > max_idle):
                return None
            rows = tx.all("SELECT entry FROM friend_entries WHERE code = ? AND seq >= ? ORDER BY seq",
                          (code, since))
        return row[0], [r[0] for r in rows]

    # -- tournaments ---------------------------------------------------------------------------

    def add_tournament(self, *, code: str, doc: str, listed: bool = False) -> bool:
        """Store a new tournament (its document, JSON) at version 0, open, ``listed`` for anyone to join or
        not; False if the code is taken."""
        with self._tx(write=True) as tx:
            return tx.run("INSERT INTO tournaments (code, doc, version, created, listed)"
                          " VALUES (?, ?, 0, ?, ?) ON CONFLICT (code) DO NOTHING",
                          (code, doc, time.time(), int(listed))) == 1

    def listed_tournaments(self, *, max_age: float, limit: int) -> list[tuple[str, str]]:
        """The code and document of each tournament listed for anyone to join that is not over and was made
        in the last ``max_age`` seconds, the newest first (at most ``limit``)."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT code, doc FROM tournaments WHERE listed = 1 AND status <> 'over'"
                          " AND created > ? ORDER BY created DESC LIMIT ?", (time.time() - max_age, limit))
        return [(str(code), str(doc)) for code, doc in rows]

    def tournament(self, *, code: str) -> tuple[str, int] | None:
        """A tournament's document and version, or None."""
        with self._tx(write=False) as tx:
            row = tx.one("SELECT doc, version FROM tournaments WHERE code = ?", (code,))
        return None if row is None else (str(row[0]), int(row[1]))

    def save_tournament(self, *, code: str, version: int, doc: str, status: str) -> bool:
        """Replace a tournament's document, and where it stands (``status``), if it is still at ``version``
        (its version moves on); False (nothing written) if another wrote first."""
        with self._tx(write=True) as tx:
            return tx.run("UPDATE tournaments SET doc = ?, version = ?, status = ?"
                          " WHERE code = ? AND version = ?", (doc, version + 1, status, code, version)) == 1

    # -- ratings -------------------------------------------------------------------------------

    def ratings(self, *, player: str) -> dict[str, Rating]:
        """A rated id's ratings, by rated rule set (none before its first rated game)."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT rules, mu, sigma, games FROM ratings WHERE player = ?", (player,))
        return {str(r[0]): Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}

    def ratings_of(self, *, players: Collection[str], rules: str) -> dict[str, Rating]:
        """The ratings of several rated ids under one rated rule set (none for an id not yet rated)."""
        wanted = list(players)
        if not wanted:
            return {}
        with self._tx(write=False) as tx:
            rows = tx.all(f"SELECT player, mu, sigma, games FROM ratings WHERE rules = ?"
                          f" AND player IN ({', '.join('?' * len(wanted))})", (rules, *wanted))
        return {str(r[0]): Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}

    def leaderboard(self, *, rules: str, limit: int) -> list[tuple[str, Rating, str | None, bool]]:
        """The computer levels and the people with an account past their provisional games under a rated
        rule set, the highest first: each one's rated id, rating, account name (None for a level), and
        whether the account is a bot's."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT ratings.player, mu, sigma, games, accounts.name, bot_tokens.player"
                          " FROM ratings"
                          " LEFT JOIN accounts ON accounts.player_hash = ratings.player"
                          " LEFT JOIN bot_tokens ON bot_tokens.player = accounts.player"
                          " WHERE rules = ? AND games >= ?"
                          " AND (accounts.name IS NOT NULL OR ratings.player LIKE ?)"
                          " ORDER BY mu DESC, ratings.player LIMIT ?",
                          (rules, PROVISIONAL_GAMES, COMPUTER + "%", limit))
        return [(str(r[0]), Rating(mu=r[1], sigma=r[2], games=r[3]), r[4], r[5] is not None) for r in rows]

    def rating_history(self, *, player: str, limit: int) -> list[RatingChange]:
        """A rated id's latest ``limit`` rating changes, oldest first."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT game, rules, place, before_mu, before_sigma, after_mu, after_sigma, games,"
                          " at FROM rating_changes WHERE player = ? ORDER BY id DESC LIMIT ?",
                          (player, limit))
        return [RatingChange(game=r[0], rules=r[1], place=r[2], before=Rating(r[3], r[4], r[7] - 1),
                             after=Rating(r[5], r[6], r[7]), at=r[8]) for r in reversed(rows)]

    # -- the Quick game's queue ----------------------------------------------------------------

    def quick_wait(self, *, wait: QuickWait, kept: float) -> QuickWait:
        """A person presses Quick game: their wait as it now stands. One already waiting stays in the queue
        once (with the rule set and name given now; their time waited counts on if the rule set is the
        same); one a process has claimed, or seated less than ``kept`` seconds ago, keeps that seat; anyone
        else waits anew."""
        now = self.dialect.now
        with self._tx(write=True) as tx:
            tx.run(f"DELETE FROM quick_waits WHERE player = ? AND formed = 1 AND claimed < {now} - ?",
                   (wait.player, kept))
            tx.run(f"UPDATE quick_waits SET since = CASE WHEN rules = ? THEN since ELSE {now} END, rules = ?,"
                   f" name = ?, rating = ?, seen = {now} WHERE player = ? AND code IS NULL",
                   (wait.rules, wait.rules, wait.name, wait.rating, wait.player))
            tx.run("INSERT INTO quick_waits (player, rules, name, rating, ticket, sealed, since, seen)"
                   f" VALUES (?, ?, ?, ?, ?, ?, {now}, {now}) ON CONFLICT (player) DO NOTHING",
                   (wait.player, wait.rules, wait.name, wait.rating, wait.ticket, wait.sealed))
            found = self._quick_row(tx, wait.player)
        assert found is not None
        return found

    def quick_seen(self, *, player: str) -> QuickWait | None:
        """A waiting person's page asks how it stands (which keeps them in the queue): their wait, or None."""
        with self._tx(write=True) as tx:
            tx.run(f"UPDATE quick_waits SET seen = {self.dialect.now} WHERE player = ?", (player,))
            return self._quick_row(tx, player)

    def quick_cancel(self, *, player: str) -> QuickWait | None:
        """A person leaves the queue: None if they were waiting (or not there at all); their wait as it
        stands, unchanged, if a process has claimed them for a table already."""
        with self._tx(write=True) as tx:
            if tx.run("DELETE FROM quick_waits WHERE player = ? AND code IS NULL", (player,)):
                return None
            return self._quick_row(tx, player)

    def quick_waiting(self, *, rules: str, stale: float) -> list[QuickWait]:
        """Those waiting for a rule set and not yet claimed, longest first, once the queue is rid of the
        waits no page asked about for ``stale`` seconds (the person left) and put back in it those whose
        table was claimed that long ago and never formed (its process stopped)."""
        now = self.dialect.now
        with self._tx(write=True) as tx:
            tx.run(f"DELETE FROM quick_waits WHERE rules = ? AND code IS NULL AND seen < {now} - ?",
                   (rules, stale))
            tx.run(f"UPDATE quick_waits SET code = NULL, seat = NULL, claimed = NULL WHERE rules = ?"
                   f" AND code IS NOT NULL AND formed = 0 AND claimed < {now} - ?", (rules, stale))
            rows = tx.all(f"SELECT {self._quick_columns} FROM quick_waits WHERE rules = ? AND code IS NULL"
                          " ORDER BY since, player", (rules,))
        return [_quick_row(r) for r in rows]

    def quick_claim(self, *, rules: str, code: str, seats: dict[str, int]) -> bool:
        """Claim waiting people for table ``code``, each for a seat (by player): all of them, or (if another
        process claimed or the person cancelled any of them first) none, and False. The rows are claimed in
        one order, so that two processes' claims never wait for each other in a circle."""
        try:
            with self._tx(write=True) as tx:
                for player in sorted(seats):
                    if tx.run(f"UPDATE quick_waits SET code = ?, seat = ?, claimed = {self.dialect.now}"
                              " WHERE player = ? AND rules = ? AND code IS NULL",
                              (code, seats[player], player, rules)) != 1:
                        raise _Lost
        except _Lost:
            return False
        return True

    def quick_formed(self, *, code: str) -> int:
        """The claimed table has been formed: its people's seats are theirs to take. How many they are."""
        with self._tx(write=True) as tx:
            return tx.run(f"UPDATE quick_waits SET formed = 1, claimed = {self.dialect.now}"
                          " WHERE code = ? AND formed = 0", (code,))

    @cached_property
    def _quick_columns(self) -> str:
        """The columns a ``QuickWait`` is read from, timed by this database's clock."""
        return _QUICK_COLUMNS.format(now=self.dialect.now)

    def _quick_row(self, tx: Tx, player: str) -> QuickWait | None:
        """A person's wait, or None."""
        row = tx.one(f"SELECT {self._quick_columns} FROM quick_waits WHERE player = ?", (player,))
        return None if row is None else _quick_row(row)

    # -- server processes ----------------------------------------------------------------------

    def beat(self, *, process: str, forget_after: float) -> None:
        """Renew a server process's lease (its ``beat`` is now, by the database's clock), and drop the
        rows of processes that renewed none for ``forget_after`` seconds."""
        now = self.dialect.now
        with self._tx(write=True) as tx:
            tx.run(f"INSERT INTO server_processes (process, beat) VALUES (?, {now})"
                   " ON CONFLICT (process) DO UPDATE SET beat = excluded.beat", (process,))
            tx.run(f"DELETE FROM server_processes WHERE beat < {now} - ?", (forget_after,))

    def beats(self, *, processes: Collection[str]) -> dict[str, float]:
        """Seconds since each of these processes last renewed its lease, by the database's clock; one
        that has no lease (gone long ago, or never started on this store) is not among them."""
        wanted = list(processes)
        if not wanted:
            return {}
        with self._tx(write=False) as tx:
            rows = tx.all(f"SELECT process, {self.dialect.now} - beat FROM server_processes"
                          f" WHERE process IN ({', '.join('?' * len(wanted))})", wanted)
        return {str(process): float(age) for process, age in rows}
