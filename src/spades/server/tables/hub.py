"""The friends' tables of one server process: a cache of tables kept in step with the shared log.

Every command runs under the table's lock on the process's copy, then appends the new entries at
the version it started from. The copy is not read again first: if another process appended
meanwhile, the append is refused, the copy rebuilt from the log and the command tried again (where
it may now be refused, e.g. as a stale move); a command the copy refuses is tried again only if the
log has moved on.
After an append the hub publishes the table's new version and its new entries on the event bus;
listeners (the WebSocket connections of every process) read what changed from their own caught-up
copy, which the hub of each process brings up to date with the entries the event carried where they
join up with it (no trip to the store), else from the store.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TypeVar

from spades.bots import LEVEL_REGISTRY
from spades.errors import SpadesError
from spades.protocol import Roster
from spades.rules import Rules
from spades.server.present import face_up
from spades.server.store import StoreBusy, StoreError, at_once, holding, lock_wait
from spades.server.tables.entries import Entry
from spades.server.tables.events import Carried, EventBus, LocalBus
from spades.server.tables.leases import Leases
from spades.server.tables.log import TableLog
from spades.server.tables.table import (
    Clock,
    FriendsTable,
    StaleVersion,
    TableError,
    TableNotFound,
    TableOptions,
)
from spades.server.tables.views import (
    JoinOut,
    LobbyView,
    NewTableIn,
    SharedView,
    TableView,
    lobby_of,
    tell_move,
    update_message,
    view_of,
)

__all__ = ["CODE_ALPHABET", "Ask", "Findings", "TableHub", "Update", "new_code"]

T = TypeVar("T")
Ask = tuple[str | None, int, bool]
"""A connection's seat token (None: a spectator's), the table version its page has (-1: none), and
whether its update must be whole (a connection's first, and every one to a client that does not keep
what updates leave out)."""
Update = tuple[int, str] | TableError | None
"""What a connection is sent: the version and the update message that brings it there, the reason
it has no seat, or nothing (it is up to date)."""
Findings = tuple[list[Update], list[str]]
"""What a look at a table finds for a process's connections: each one's update, and the seat tokens
among theirs whose person the table takes to be away although a page of theirs is open there
(``FriendsTable.missed``)."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other when read aloud or typed (no I, O, 0, 1)."""
CODE_LENGTH = 6
MAX_IDLE = 24 * 3600.0
"""A table untouched this long has expired: its code no longer opens it."""
_CACHE = 2048
_log = logging.getLogger("spades.tables")
_RETRIES = 8
_HEARD = 64
"""At most this many entries heard from the bus are kept a table until its copy catches up."""


def new_code() -> str:
    """A fresh short table code (about 10^9 of them)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes; TableNotFound if it cannot be one."""
    c = code.strip().upper().replace("-", "").replace(" ", "")
    if len(c) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in c):
        raise TableNotFound(f"{code[:20]!r} is not a table code: codes are {CODE_LENGTH} letters and digits.")
    return c


class TableHub:
    """Opens, loads and changes tables; thread-safe; the same for every process sharing a log."""

    def __init__(self, log: TableLog, bus: EventBus | None = None, clock: Clock = time.time,
                 max_idle: float = MAX_IDLE, coached: bool = False, roster: Roster | None = None) -> None:
        self.log = log
        self.coached = coached
        self.roster = roster or Roster({})
        """The levels and the operator's outside bots that the tables' computer players are made from."""
        """Whether this server's coach reviews the seats' hands (each table is told, for its views)."""
        self.bus = bus or LocalBus()
        self.process = secrets.token_hex(8)
        """This process, as the table records where a seat's pages connect (``FriendsTable.connected``)."""
        self.leases = Leases(log.store, self.process)
        """This process's lease and the others': ``start`` it once the process serves."""
        self.clock = clock
        self.max_idle = max_idle
        self._tables: OrderedDict[str, FriendsTable] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._heard: dict[str, tuple[int, Carried]] = {}
        """Entries of cached tables heard from the bus, ahead of the copies, each with the version before
        its first: ``_fresh`` applies them where they join up with the copy."""
        self._lock = threading.Lock()
        self.bus.listen(self._hear)

    def open(self, body: NewTableIn, player: str | None = None) -> JoinOut:
        """Open a table with the host's choices and sit the host down (``player``: as in ``join``)."""
        try:
            rules = Rules.from_dict({"preset": body.preset, **body.options})
        except SpadesError as e:
            raise TableError(str(e)) from None
        if not self.roster.offers(body.level):
            raise TableError(f"The computer players are one of {', '.join(self.offered())}.")
        options = TableOptions(rules, level=body.level, bots_bid_nil=body.bots_bid_nil, grace=body.grace,
                               turn_seconds=body.turn_seconds, rated=body.rated, listed=body.listed)
        # the name (and a rated table's player) checked before a code is taken
        FriendsTable("", options, self.clock).join(body.name, player=player)
        for _ in range(_RETRIES):
            code = new_code()
            if self.log.create(code, options.to_json()):
                token, seat = self.act(code, lambda t: t.join(body.name, conn=self.process, player=player))
                return JoinOut(code=code, seat=seat, token=token)
        raise TableError("No free table code was found: try again.")

    def offered(self) -> list[str]:
        """What a table's computer players may be: the levels, then the operator's outside bots."""
        return [*LEVEL_REGISTRY, *self.roster.bots()]

    def act(self, code: str, command: Callable[[FriendsTable], T]) -> T:
        """Run a command on the table and store (and announce) the entries it made."""
        return self._act(code, command, None)[0]

    def seat_act(self, code: str, token: str, command: Callable[[FriendsTable, int], T]) -> T:
        """Run a command for the seat a token holds."""
        return self.act(code, lambda t: command(t, t.seat_of(token)))

    def seat_act_and_updates(self, code: str, token: str, command: Callable[[FriendsTable, int], object],
                             asks: list[Ask] | None) -> Findings:
        """``seat_act``, then ``updates`` for the asks from the table as the command left it, in the
        same look (the connection that sent the command spares its table a second trip; no asks: none)."""
        return self._act(code, lambda t: command(t, t.seat_of(token)), asks)[1]

    def _act(self, code: str, command: Callable[[FriendsTable], T],
             asks: list[Ask] | None) -> tuple[T, Findings]:
        """The command's result (its entries stored, then announced once the table is free, so
        listeners find it so) and, if given asks, their updates from the table it left."""
        code = normal_code(code)
        with holding(self._table_lock(code), f"Table {code}"):
            for trusted in _tries():
                table = self._fresh(code, 0 if trusted else None)
                before = table.seq
                try:
                    with self._turn():  # StoreBusy here: nothing was done, the copy is as it was
                        result = self._command(code, table, command, trusted)
                        if table.seq != before:
                            with self._storing(code):
                                self.log.append(code, before, table.entries[before:], table.results(before),
                                                table.rated_game(before))
                except _Stale:
                    continue
                found = _look(table, asks)
                break
        self._announce(code, table, before)
        return result, found

    async def seat_act_soon(self, code: str, token: str, command: Callable[[FriendsTable, int], object],
                            asks: list[Ask] | None) -> Findings:
        """``seat_act_and_updates`` on the event loop (where the table is ``quick``): the command run there
        at once, its entries stored by the store's writer thread, awaited with the table kept locked (so
        that nothing reads the copy ahead of the log meanwhile), then the look, if given asks. No turn
        at the writers' lock is waited for on the loop, nor a worker thread taken; StoreBusy if the table
        is locked (nothing was done)."""
        code = normal_code(code)
        lock = self._table_lock(code)
        if not lock.acquire(blocking=False):
            raise StoreBusy(f"Table {code} is busy.")
        try:
            for trusted in _tries():
                try:
                    with at_once(0.0):
                        table = self._fresh(code, 0 if trusted else None)
                        before = table.seq
                        self._command(code, table, lambda t: command(t, t.seat_of(token)), trusted)
                    if table.seq != before:
                        with self._storing(code):
                            await self.log.append_soon(code, before, table.entries[before:],
                                                       table.results(before), table.rated_game(before))
                except _Stale:
                    continue
                found = _look(table, asks)
                break
        finally:
            lock.release()
        self._announce(code, table, before)
        return found

    def _announce(self, code: str, table: FriendsTable, before: int) -> None:
        """Publish the entries a command added since version ``before`` (once the table is free, so that
        listeners find it so)."""
        if table.seq != before:
            self.bus.publish(code, table.seq, Carried(table.entries[before:], table.told_since(before)))

    def _command(self, code: str, table: FriendsTable, command: Callable[[FriendsTable], T],
                 trusted: bool) -> T:
        """Run a command on the table's copy; ``_Stale`` if a copy taken as it was (``trusted``) refused
        it and the log has moved on (the command is to be tried on the log's)."""
        before = table.seq
        try:
            return command(table)
        except TableError:  # refused before any entry was made: the table is as it was
            if trusted and self._fresh(code).seq != before:
                raise _Stale from None
            raise
        except BaseException:
            self._forget(code)  # anything else may have left the copy half changed
            raise

    @contextmanager
    def _storing(self, code: str) -> Iterator[None]:
        """An append of the copy's new entries: the copy dropped if it is not stored (``_Stale`` if the log
        had moved on: the command is tried again on the log's; the store's error else)."""
        try:
            yield
        except StaleVersion:
            self._forget(code)
            raise _Stale from None
        except BaseException:
            self._forget(code)  # not stored (StoreError): the copy ran ahead: read it again
            raise

    def _turn(self) -> AbstractContextManager[None]:
        """The store's writers' turn for a command that may not wait for it (``at_once``: on the event
        loop), taken before the command changes the copy: an append refused for a busy store after
        that costs the table's replay from its whole log (in the worker thread the command then goes
        to), where a turn not had costs nothing. A command that may wait appends in a group instead."""
        return nullcontext() if lock_wait() is None else self.log.store.write_turn()

    def read(self, code: str, reader: Callable[[FriendsTable], T], known: int | None = None) -> T:
        """Read the table, caught up with the log (or with version ``known``, if it is that far)."""
        code = normal_code(code)
        with holding(self._table_lock(code), f"Table {code}"):
            return reader(self._fresh(code, known))

    def lobby(self, code: str) -> LobbyView:
        """The table as the code shows it, before joining."""
        return self.read(code, lobby_of)

    def view(self, code: str, token: str | None) -> TableView:
        """The table as the token's seat sees it (no token: as a spectator does)."""
        return self.read(code, lambda t: view_of(t, t.viewer(token)))

    def updates(self, code: str, asks: list[Ask], known: int | None = None) -> Findings:
        """For each page's seat token (None: a spectator) and version (-1: none): the message with what
        it lacks (and the tokens of those taken to be away). One look at the table serves every
        connection of a process; ``known`` is a version the table is known to have reached (a cached
        copy that far along is then not checked against the store)."""
        return self.read(code, lambda t: _look(t, asks), known)

    def quick(self, code: str) -> bool:
        """Whether work at this table may run on the server's event loop, where a wait would hold up
        every table: the store is local, the table is cached here (nothing to replay), and its
        computer players move at once (they do not search). There it runs ``at_once`` (``Live._run``)."""
        if not self.log.store.local:
            return False
        with self._lock:
            table = self._tables.get(code)
        level = LEVEL_REGISTRY.get(table.options.level) if table is not None else None
        return level is not None and level.quick

    def tick(self) -> list[str]:
        """Let the clock act at the cached tables where it is due, and mark away there the people whose
        pages connected through a process that has died (its lease expired: ``Leases``); each checked
        again as a command (a move another process made may have reset a timer, a page may have connected
        elsewhere: the append then finds the copy behind). The codes of the tables that changed."""
        now = self.clock()
        with self._lock:
            due = [c for c, t in self._tables.items() if t.due(now)]
            judging = self.leases.judging()
            through = {c: t.connected_through() for c, t in self._tables.items() if judging}
        try:
            dead = self.leases.dead(set[str]().union(*through.values())) if through else set()
        except StoreError:  # the leases are read again when next judged
            dead = set()
        changed = [c for c in due if self._clock_act(c, FriendsTable.tick)]
        gone = [c for c, conns in through.items() if conns & dead]
        return changed + [c for c in gone if self._clock_act(c, lambda t: t.processes_stopped(dead))]

    def _clock_act(self, code: str, command: Callable[[FriendsTable], bool]) -> bool:
        """Run a command of the clock's at a table: whether it changed the table (False if it failed: the
        clock tries again at its next tick)."""
        try:
            return self.act(code, command)
        except (TableError, StoreError):
            return False
        except Exception:  # a fault of ours at this table: logged; the others' clocks go on
            _log.exception("The clock failed at table %s.", code)
            return False

    # -- inside --------------------------------------------------------------------------

    def _table_lock(self, code: str) -> threading.Lock:
        with self._lock:
            lock = self._locks.get(code)
            if lock is None:
                lock = self._locks[code] = threading.Lock()
            return lock

    def _hear(self, code: str, seq: int, entries: Sequence[Entry]) -> None:
        """Keep the entries an event carried (any process's, from any thread) for the table's copy, if it
        is cached and behind them: the next look applies them instead of reading them from the store."""
        start = seq - len(entries)
        with self._lock:
            table = self._tables.get(code)
            if table is None or not entries or table.seq >= seq:  # this process's own, or unknown here
                return
            heard = entries if isinstance(entries, Carried) else Carried(entries)
            kept = self._heard.get(code)
            if kept is not None and kept[0] + len(kept[1]) == start:
                start, heard = kept[0], kept[1].then(heard)
            self._heard[code] = (max(start, seq - _HEARD), heard.since(-_HEARD))

    def _fresh(self, code: str, known: int | None = None) -> FriendsTable:
        """The cached table caught up with the log (loaded and replayed if not cached); a cached table
        already at version ``known`` is taken as it is, and one the bus's entries bring there
        (``_hear``) too."""
        with self._lock:
            table = self._tables.get(code)
            heard = self._heard.pop(code, None)
            if table is not None:
                self._tables.move_to_end(code)
        if table is not None and heard is not None and heard[0] <= table.seq:
            try:
                rest = heard[1].since(table.seq - heard[0])
                table.extend(rest, rest.told)
            except Exception:  # a garbled message: the copy may be half changed, so read the store's
                _log.exception("Entries heard for table %s do not apply to its copy: read from the store",
                               code)
                self._forget(code)
                return self._fresh(code, known)
        if table is None:
            options, entries = self.log.load(code, max_idle=self.max_idle)
            table = FriendsTable.replay(code, TableOptions.from_json(options), entries, self.clock, tell_move)
            table.coached = self.coached
            table.make_bot = self.roster.player
            with self._lock:
                self._tables[code] = table
                while len(self._tables) > _CACHE:
                    old, _ = self._tables.popitem(last=False)
                    self._locks.pop(old, None)
                    self._heard.pop(old, None)
            return table
        if known is not None and table.seq >= known:
            return table
        _, entries = self.log.load(code, since=table.seq)
        table.extend(entries)
        return table

    def _forget(self, code: str) -> None:
        with self._lock:
            self._tables.pop(code, None)
            self._heard.pop(code, None)


class _Stale(Exception):
    """The copy a command ran on was behind the log: the command is tried again on the log's."""


def _tries() -> Iterator[bool]:
    """A command's tries, each saying whether it may take the cached copy as it is (the first: the
    append's compare-and-set catches a stale one; the next, after a stale copy, the log's); after
    ``_RETRIES``, each found behind the log by another process's, the command is refused."""
    yield True
    for _ in range(_RETRIES - 1):
        yield False
    raise TableError("The table is very busy: try again.")


def _look(t: FriendsTable, asks: list[Ask] | None) -> Findings:
    """Each ask's update from the table as it is (none if no asks), and the seats found missed."""
    if asks is None:
        return [], []
    out: list[Update] = []
    missed: list[str] = []
    shared = shown = None
    for token, since, whole in asks:
        try:
            seat = t.viewer(token)
        except TableError as e:
            out.append(e)
            continue
        if token is not None and t.missed(seat) and token not in missed:
            missed.append(token)
        if since == t.seq:
            out.append(None)
            continue
        if shared is None:  # what every seat's view holds alike, made once
            shared, shown = SharedView(t), None if t.game is None else face_up(t.game)
        out.append((t.seq, update_message(t, seat, since, shared, shown, whole)))
    return out, missed
