"""Live tables: each WebSocket connection is one seat, and gets that seat's view after every change.

A connection starts with ``{"token": ..., "since": version, "keep": true}`` (``keep``: the client
keeps what updates leave out, see ``views.update_message``; without it every update is whole); it
then receives ``update`` messages (the table's version, the events since the version it had, as its
seat sees them, and the table as its seat sees it) and may send the same commands as ``POST
.../commands``. A spectator starts with ``{"watch": true, "since": version}`` instead: it receives
what is face up and may only ask for a ``sync``. Events that are too old to tell again come as a
resync (``events`` empty, ``resync`` true). The clock task lets grace periods and turn timers act.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import anyio
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from spades.server.one_at_a_time import OneAtATime
from spades.server.store import StoreBusy, StoreError, at_once
from spades.server.tables.commands import Command, Sync
from spades.server.tables.entries import Entry
from spades.server.tables.hub import Ask, Findings, TableHub, Update, normal_code
from spades.server.tables.table import FriendsTable, NotAllowed, TableError, TooFast
from spades.server.tables.views import CommandIn

__all__ = ["MAX_MESSAGE", "Live"]

T = TypeVar("T")
MAX_MESSAGE = 2000
"""The longest message a connection may send, in characters."""
_log = logging.getLogger("spades.tables")
_HELLO_WAIT = 15.0
_TICK = 0.5
_QUIET = 3.0
"""Seconds without a message to a table's connections before the clock has the store looked at."""
_OUTBOX = 64
"""Messages a connection may have waiting; one further behind gets the whole table instead."""
_PAUSES = (0.001, 0.002, 0.004)
"""Seconds table work on the event loop that found a lock held pauses (the loop serving the others
meanwhile) before it is tried there again; after the last, it goes to a worker thread."""


class _Conn:
    """One connection: its seat's token, the version it has (or will have once its messages are
    sent), the messages waiting to go, and the signal to send them."""

    def __init__(self, ws: WebSocket, code: str, token: str | None, since: int, keep: bool) -> None:
        self.ws = ws
        self.code = code
        self.token = token
        self.sent = since
        self.resync = since < 0
        """The page asked for the whole table again (or has none yet)."""
        self.keep = keep
        """Whether the client keeps what updates leave out (its hello said so, as the page's does): else
        each update is whole, as a client written before updates left anything out expects."""
        self.told = False
        """Whether an update was queued here: the first is whole, the others (if ``keep``) leave out what
        the client has (``views.update_message``)."""
        self.outbox: deque[str] = deque()
        self.refused: TableError | None = None
        self.ready = asyncio.Event()
        self.said: deque[float] = deque()


class Live:
    """This process's connections by table, woken by the event bus from any process.

    A change at a table is looked at once for all of this process's connections to it (one look at the
    table, each seat's message made there; a command from one of them makes them itself), on the event
    loop or in a worker thread (``_run``); each connection then sends its own messages, so a slow one
    holds up no other.
    """

    def __init__(self, hub: TableHub, burst: int = 30, window: float = 5.0) -> None:
        self.hub = hub
        self.burst = burst
        self.window = window
        """At most ``burst`` messages from a connection in any ``window`` seconds (people send far fewer)."""
        self._conns: dict[str, set[_Conn]] = {}
        self._known: dict[str, int] = {}
        """The latest version the bus announced for each table with connections here."""
        self._looks = OneAtATime(self._bring_up_to_date, self._behind)
        """The looks at each table for its connections, one at a time (a command's look takes a turn too:
        ``_act``)."""
        self._last_sent: dict[str, float] = {}
        """When a message was last queued for a connection to each table (the clock's own clock)."""
        self._checks: set[str] = set()
        """Tables whose next look reads the store, whatever the bus announced."""
        self._tasks: set[asyncio.Task[None]] = set()
        """The seats' returns under way (``_still_here``), kept so that none is collected before its end."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._here: Counter[tuple[str, str]] = Counter()
        """The open connections of each seat (table code, seat token) in this process: once the last has
        gone the process marks the seat away (another process with a page of theirs answers that: see
        ``_still_here``), and a page that connects again is no return (no entry is written)."""
        self._saying_back: set[tuple[str, str]] = set()
        """The seats (table code, seat token) for which ``_still_here`` is under way."""
        hub.bus.listen(self._heard)

    def _on_loop(self) -> None:
        """Note the running loop (and its thread), which the bus's listener tells of changes."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()

    async def run_clock(self) -> None:
        """Tick the tables that wait for the clock, for as long as the server runs."""
        self._on_loop()
        while True:
            await asyncio.sleep(_TICK)
            try:
                await anyio.to_thread.run_sync(self.hub.tick)
                self._check_quiet_tables()
            except Exception:  # a fault of ours: logged; a clock that stopped would stop every table's
                _log.exception("The tables' clock failed at a tick.")

    def _check_quiet_tables(self) -> None:
        """Look at the store for each table with nothing sent lately: a safety net, so that a change
        whose announcement went astray reaches its connections within ``_QUIET`` seconds anyway."""
        now = time.monotonic()
        for code in list(self._conns):
            if now - self._last_sent.get(code, 0.0) > _QUIET:
                self._last_sent[code] = now
                self._checks.add(code)
                self._looks.request(code)

    def _heard(self, code: str, seq: int, entries: Sequence[Entry]) -> None:
        """A table changed (called from any thread; the hub keeps the entries, ``TableHub._hear``): told
        at once on the loop's own thread (a command run there, whose look has usually served every
        connection already), else through the loop."""
        loop = self._loop
        if loop is None or code not in self._conns:
            return
        if threading.get_ident() == self._loop_thread:
            self._changed(code, seq)
        else:
            loop.call_soon_threadsafe(self._changed, code, seq)

    def _changed(self, code: str, seq: int) -> None:
        if self._conns.get(code):
            self._known[code] = max(seq, self._known.get(code, -1))
            self._looks.request(code)

    def _current(self, code: str, conns: Iterable[_Conn]) -> bool:
        """Whether each of the connections has the table's latest version the bus announced, and none
        wants the whole table (False if the next look is to read the store: ``_checks``)."""
        known = None if code in self._checks else self._known.get(code)
        return known is not None and all(c.sent >= known and not c.resync for c in conns)

    def _behind(self, code: str) -> bool:
        """Whether a connection to the table lacks a message (a look is then wanted)."""
        return not self._current(code, self._conns.get(code, ()))

    async def _bring_up_to_date(self, code: str) -> bool:
        """Queue for each connection to the table the message it lacks; True to be run again at once (the
        database failed for a moment, and a tick has passed)."""
        try:
            conns = list(self._conns.get(code, ()))
            if not conns or self._current(code, conns):
                return False  # every connection has the change already
            known = None if code in self._checks else self._known.get(code)
            self._checks.discard(code)
            asks, _ = _take_asks(conns)
            try:
                found = await self._run(code, self.hub.updates, code, asks, known)
            except TableError as e:  # the table itself is gone
                found = [e] * len(conns), []
            except StoreError:  # the database failed for a moment: try again shortly
                for c in conns:
                    c.resync = True
                await asyncio.sleep(_TICK)
                return True
            self._found(code, conns, found)
        except Exception:  # a fault of ours: said in the log; the next change or quiet check looks again
            _log.exception("The updates of table %s could not be made.", code)
        return False

    def _found(self, code: str, conns: list[_Conn], found: Findings) -> None:
        """Hand a look's updates to the connections' senders, and say that the seats it found missed are
        back (``_still_here``)."""
        updates, missed = found
        for c, update in zip(conns, updates, strict=True):
            self._queue(c, update)
        for token in missed:
            if (code, token) not in self._saying_back:
                self._saying_back.add((code, token))
                task = asyncio.get_running_loop().create_task(self._still_here(code, token))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _still_here(self, code: str, token: str) -> None:
        """The table takes a seat's person to be away, but a page of theirs is open here: say they are back.

        Each process decides a seat is away on its own, when its last page of the seat closes
        (``_away_unless_here``) or when a process that had them dies (``TableHub.tick``); a process that
        still has a page of theirs answers that ``away`` with a ``back`` (on hearing of it, or within a
        few seconds from the store: ``_check_quiet_tables``), before the grace period is out. So a
        person is away only while no live process has a page of theirs, and every race between a page
        closing on one process and one open or opening on another is settled by the log's one order.
        Presence kept in the store instead would cost every connection a write and every goodbye a read,
        and still need this answer for those races; the price here is an "away" and a "back" in the log
        when a page closes on one process while another stays open on another.
        """
        def back(t: FriendsTable, seat: int) -> None:
            if self._here[code, token] and t.missed(seat):
                t.connected(seat, self.hub.process)

        try:
            await self._run(code, self.hub.seat_act, code, token, back)
        except TableError:  # the seat or the table is gone
            pass
        except StoreError as e:  # the next look at the table tries again
            _log.warning("Table %s: a seat's return could not be stored: %s", code, e)
        finally:
            self._saying_back.discard((code, token))

    def _queue(self, conn: _Conn, update: Update) -> None:
        """Hand a look's finding to the connection's sender (nothing if it is up to date)."""
        if update is None:
            return
        if isinstance(update, TableError):
            conn.refused = update
        elif len(conn.outbox) >= _OUTBOX:  # far behind: one whole table will do instead
            conn.outbox.clear()
            conn.resync = True
            self._looks.request(conn.code)
        else:
            conn.sent, message = update
            conn.outbox.append(message)
            conn.told = True
            self._last_sent[conn.code] = time.monotonic()
        conn.ready.set()

    async def serve(self, ws: WebSocket, code: str) -> None:
        """A connection's whole life: hello, updates out, commands in, goodbye."""
        self._on_loop()
        await ws.accept()
        try:
            code = normal_code(code)  # as the hub announces it, however the link was typed
            token, since, keep = _hello(await asyncio.wait_for(ws.receive_text(), _HELLO_WAIT))
            conn = _Conn(ws, code, token, since, keep)
            if token is None:
                await self._run(code, self.hub.lobby, code)  # a table to watch
            else:
                self._here[code, token] += 1
                try:
                    await self._run(code, self.hub.seat_act, code, token,
                                    lambda t, s: t.connected(s, self.hub.process))
                except BaseException:
                    self._gone(code, token)
                    raise
        except (TableError, StoreError, ValueError) as e:
            await _refuse(ws, e)
            return
        except (TimeoutError, WebSocketDisconnect):
            return
        self._conns.setdefault(code, set()).add(conn)
        self._looks.request(code)
        sender = asyncio.create_task(self._send(conn))
        try:
            await self._receive(conn)
        except (WebSocketDisconnect, OSError):  # gone (uvicorn's ClientDisconnected is an OSError)
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, OSError):
                await sender
            self._conns[code].discard(conn)
            if not self._conns[code]:
                del self._conns[code]
                self._known.pop(code, None)
                self._last_sent.pop(code, None)
            if token is not None:
                self._gone(code, token)
                try:
                    await self._run(code, self.hub.seat_act, code, token, self._away_unless_here(code, token))
                except TableError:  # the seat or the table is gone
                    pass
                except StoreError as e:  # the seat is shown present until its next connection ends
                    _log.warning("Table %s: a seat's leaving could not be stored: %s", code, e)

    def _away_unless_here(self, code: str, token: str) -> Callable[[FriendsTable, int], None]:
        """The seat's person is away, unless another of their connections to this process is open: asked
        under the table's lock, which a page connecting meanwhile takes too, having been counted first."""
        def away(t: FriendsTable, seat: int) -> None:
            if not self._here[code, token]:
                t.disconnected(seat, self.hub.process)
        return away

    def _gone(self, code: str, token: str) -> None:
        """One connection of the seat fewer."""
        self._here[code, token] -= 1
        if not self._here[code, token]:
            del self._here[code, token]

    async def _send(self, conn: _Conn) -> None:
        """Send the connection's messages as they are queued; close it if its seat is gone."""
        while True:
            await conn.ready.wait()
            conn.ready.clear()
            if conn.refused is not None:
                await _refuse(conn.ws, conn.refused)
                return
            while conn.outbox:
                await conn.ws.send_text(conn.outbox.popleft())

    async def _act(self, code: str, token: str, command: Command) -> None:
        """Run a seat's command and, in the same look at the table, make the table's connections their
        updates (unless a look is under way: the change it is then told of brings them)."""
        if self._looks.busy(code):
            await self._command(code, token, command, None)
            return
        with self._looks.held(code):  # a change or a wish meanwhile: looked at after, unless this served it
            conns = list(self._conns.get(code, ()))
            asks, resync = _take_asks(conns)
            try:
                found = await self._command(code, token, command, asks)
            except BaseException:
                for c in resync:  # refused or failed: those pages still want the whole table
                    c.resync = True
                raise
            self._found(code, conns, found)

    async def _command(self, code: str, token: str, command: Command, asks: list[Ask] | None) -> Findings:
        """A seat's command (with a look, if given asks) on the event loop where the table is quick here,
        its append awaited from the store's writer thread (``TableHub.seat_act_soon``); else, or while the
        table stays locked after the pauses, in a worker thread, as ``_run`` does."""
        for pause in _PAUSES:
            if not self.hub.quick(code):
                break
            try:
                return await self.hub.seat_act_soon(code, token, _runner(command), asks)
            except StoreBusy:
                await asyncio.sleep(pause)
        return await anyio.to_thread.run_sync(self.hub.seat_act_and_updates, code, token, _runner(command),
                                              asks)

    async def _run(self, code: str, work: Callable[..., T], *args: Any) -> T:
        """The hub's work for a table: right here on the event loop where the hub says it is quick
        (no hand-off to a thread and back, no thread waiting for the GIL: under load those waits were
        most of a move's delay), else in a worker thread.

        On the loop, the work waits for no lock (``at_once(0)``): a wait would stall every table. If one
        is held (the store's writers' turn, by another writer of this process or another; the table's,
        by a worker thread), it has done nothing (``TableHub._turn``), and is tried again after a pause
        in which the loop serves the others, a few times (``_PAUSES``), then done in a worker thread
        with the store's usual wait: so another program holding the database (a backup) stalls no one.
        Should the database's own lock be the one held, the hub has dropped the table's copy the command
        changed (the table is then no longer quick here): the thread reads it again."""
        for pause in _PAUSES:
            if not self.hub.quick(code):
                break
            try:
                with at_once(0.0):
                    return work(*args)
            except StoreBusy:
                await asyncio.sleep(pause)
        return await anyio.to_thread.run_sync(work, *args)

    def _check_rate(self, conn: _Conn) -> None:
        now = time.monotonic()
        while conn.said and now - conn.said[0] >= self.window:
            conn.said.popleft()
        if len(conn.said) >= self.burst:
            raise TooFast(f"Too many messages: at most {self.burst} in {self.window:g} seconds.")
        conn.said.append(now)

    async def _receive(self, conn: _Conn) -> None:
        """Commands from the connection, each answered with an error if it is refused, and with ``ok``
        once accepted if it came with an ``id`` (so a page can forget it); until the connection goes
        (a failed send in ``_send`` marks it gone before the client's goodbye arrives)."""
        while conn.ws.application_state == WebSocketState.CONNECTED:
            text = await conn.ws.receive_text()
            ref: Any = None
            try:
                self._check_rate(conn)
                if len(text) > MAX_MESSAGE:
                    raise TableError(f"The message is too long: at most {MAX_MESSAGE} characters.")
                data = _json(text)
                ref = data.pop("id", None) if isinstance(data, dict) else None
                command = _command(data)
                if isinstance(command, Sync):
                    conn.resync = True
                    self._looks.request(conn.code)
                else:
                    token = conn.token
                    if token is None:
                        raise NotAllowed("You are watching this table: take a free seat to play or talk.")
                    await self._act(conn.code, token, command)
                if ref is not None:
                    await conn.ws.send_text(json.dumps({"type": "ok", "id": ref}))
            except TableError as e:
                await conn.ws.send_text(json.dumps({"type": "error", "id": ref, "status": e.status,
                                                    "detail": str(e)}))
            except StoreError as e:
                await conn.ws.send_text(json.dumps({"type": "error", "id": ref, "status": 503,
                                                    "detail": _failed(e)}))


def _take_asks(conns: list[_Conn]) -> tuple[list[Ask], list[_Conn]]:
    """What a look asks for each connection (its token, the version it has or -1 for the whole table,
    and whether its update must be whole: its first, or any to a client that does not ``keep``), and
    those that wanted the whole table: their wish is taken (cleared) by the look."""
    resync = [c for c in conns if c.resync]
    asks = [(c.token, -1 if c.resync else c.sent, not (c.told and c.keep)) for c in conns]
    for c in resync:
        c.resync = False
    return asks, resync


def _runner(command: Command) -> Callable[[FriendsTable, int], None]:
    """The command as the hub runs it, for a seat."""
    return lambda t, s: t.run(s, command)




def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise TableError("A message is a JSON object.") from None


def _command(data: Any) -> Command:
    """The command a message holds (checked as ``POST .../commands`` checks its body)."""
    try:
        return CommandIn.model_validate(data).command()
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        what = f"{where}: " if where else ""
        raise TableError(f"Invalid command: {what}{first.get('msg', 'invalid')}.") from None


def _hello(text: str) -> tuple[str | None, int, bool]:
    """The first message: the seat token (None for a spectator), the version the page already has
    (-1: none), and whether the client keeps what updates leave out (``"keep": true``)."""
    if len(text) > MAX_MESSAGE:
        raise TableError("The first message is too long.")
    data = _json(text)
    watch = isinstance(data, dict) and data.get("watch") is True and "token" not in data
    if not isinstance(data, dict) or not (watch or isinstance(data.get("token"), str)):
        raise TableError('Say hello first: {"token": "<your seat token>", "since": <version or -1>}, or '
                         '{"watch": true, "since": <version or -1>} to watch.')
    since = data.get("since", -1)
    if isinstance(since, bool) or not isinstance(since, int) or since < -1:
        raise TableError("'since' is a table version (or -1).")
    keep = data.get("keep", False)
    if not isinstance(keep, bool):
        raise TableError("'keep' is true (the client keeps what updates leave out) or false.")
    return None if watch else data["token"], since, keep


def _failed(e: StoreError) -> str:
    """What a person is told when the database failed their command (nothing was done)."""
    return f"The server's database failed ({e}): try again."


async def _refuse(ws: WebSocket, e: Exception) -> None:
    """Tell the connection why it is closed, and close it."""
    if isinstance(e, StoreError):
        status, detail = 503, _failed(e)
    else:
        status, detail = e.status if isinstance(e, TableError) else 400, str(e)
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "status": status, "detail": detail}))
        await ws.close(code=4000 + status)
