"""Table events between server processes: "table CODE is now at version N, by these entries".

An event says that a table's log grew, and carries the entries that grew it (as the store keeps them:
only the process that appended them at that version announces them), so a listener whose copy of
the table is just behind applies them without a trip to the store; one further behind, or told
without entries, reads the rest from the store. So every process sees every table's entries in the
log's one order. ``LocalBus`` passes events inside the process; ``RedisBus`` (when
``SPADES_REDIS_URL`` is set) also passes them through Redis pub/sub to every other process. Redis
is only the messenger: when it fails, each process still serves its own tables, and the others
catch up from the store (a look at a table's connections reads it every few seconds anyway:
``Live._check_quiet_tables``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import orjson

from spades.server.tables.entries import BadEntry, Entry, entry_json, entry_of
from spades.server.tables.state import Told

__all__ = ["Carried", "EventBus", "Listener", "LocalBus", "RedisBus", "make_bus"]

Listener = Callable[[str, int, Sequence[Entry]], None]
"""Called from any thread with a table's code, its new version and the entries that brought it there
(the last ``len(entries)`` of the log up to that version: maybe none, when they were not carried;
``Carried`` if they come with their moves' events)."""


class Carried(list[Entry]):
    """Entries, each with the event of its move as the process that made it told it (``tell_move``;
    None for an entry that is no move, or whose event is not known), so that a process that hears
    them need not make them again. Each process sends each seat only its own line. Its parts and
    joins (``since``, ``then``) keep each entry's event with it."""

    def __init__(self, entries: Sequence[Entry] = (), told: Sequence[Told | None] | None = None) -> None:
        """``told``: one for each entry, in order (None: none known); ValueError if not one each."""
        super().__init__(entries)
        if told is not None and len(told) != len(entries):
            raise ValueError(f"{len(told)} events told for {len(entries)} entries")
        self.told: list[Told | None] = [None] * len(entries) if told is None else list(told)

    def since(self, start: int) -> Carried:
        """The entries from index ``start`` on (negative: the last ``-start``), with their events."""
        return Carried(self[start:], self.told[start:])

    def then(self, later: Carried) -> Carried:
        """These entries, then ``later``'s, with their events."""
        return Carried([*self, *later], self.told + later.told)


Event = tuple[int, Carried]
"""A table's version and the entries that brought it there (as in ``Listener``)."""

_CHANNEL = "spades:tables:"
_EVENT = re.compile(rb"(\d+)(?: ([^\s:]+)(?::(\S+))?)?")
"""An event as sent through Redis: ``"<version> <sender>:<entries>"``, the entries as JSON without
whitespace (``_wire``), so that a Spades from before they were carried, which reads ``"<version>
<sender>"``, takes the rest for a sender's name (not its own) and reads the entries from the store;
an older Spades still sent the version alone."""
_CARRIED = 64
"""At most this many entries ride with one event (more pile up only while Redis fails; the store
has them all)."""
_TIMEOUT = 1.0
"""Seconds a call to Redis may take (to connect, or to answer) before it counts as failed."""
_RETRY = 1.0
"""Seconds between tries while Redis fails."""
_QUIET = 5.0
"""Seconds the listening connection may say nothing before it is asked to answer a ping (within
``_TIMEOUT``): a connection cut off by the network without a word to either end is noticed so."""
_log = logging.getLogger("spades.tables")


class EventBus(Protocol):
    """Publishes table versions to every listener of every process."""

    def publish(self, code: str, seq: int, entries: Sequence[Entry] = ()) -> None:
        """Say that table ``code`` has reached version ``seq`` by appending ``entries`` (``Carried``: with
        their events): called once they are stored, on the event loop too, so it neither waits on the
        network nor fails for the messenger's sake."""
        ...

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` for every event from now on."""
        ...

    async def run(self) -> None:
        """The bus's work on the server's event loop, until cancelled (the server's lifespan runs it)."""
        ...

    def close(self) -> None:
        """Stop listening."""
        ...


class LocalBus:
    """Events within one process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def publish(self, code: str, seq: int, entries: Sequence[Entry] = ()) -> None:
        """Call the listeners at once (those there when it began: one may be added from another thread)."""
        for listener in list(self._listeners):
            listener(code, seq, entries)

    def listen(self, listener: Listener) -> None:
        """Add a listener."""
        self._listeners.append(listener)

    async def run(self) -> None:
        """Nothing: the events are passed on as they are published."""

    def close(self) -> None:
        """Forget the listeners."""
        self._listeners.clear()


class _Outage:
    """Says in the log once that Redis failed at a task, and once that it works again: an outage is
    two lines, not one per event or retry."""

    def __init__(self, task: str) -> None:
        self.task = task
        self.down = False

    def failed(self, error: Exception) -> None:
        """Redis failed at the task: a warning, unless this outage already had one."""
        if not self.down:
            self.down = True
            _log.warning("Redis failed at %s (%s): retrying every %g s; meanwhile each process serves "
                         "its own tables and the others catch up from the store.", self.task, error, _RETRY)

    def ok(self) -> None:
        """Redis did the task: said once, at the end of an outage."""
        if self.down:
            self.down = False
            _log.warning("Redis works again at %s.", self.task)


class RedisBus:
    """Events through Redis pub/sub, heard by every other process subscribed; this process's own
    listeners are called at once, whether Redis answers or not.

    Redis is only the messenger (the store holds every change), so it must never hold up or fail a
    command that was stored: ``publish`` queues the event (one a table: its latest version, with the
    entries since the last sent while they join up, ``_joined``) for ``run``, which sends the queued
    events, and retries while Redis fails, and hears the other processes' events, subscribing again
    when Redis comes back. ``run`` works on an event loop: the server's (``own_loop=False``: its
    lifespan runs it there, so that an event published or heard on the loop wakes no thread), else one
    of the bus's own, in a thread started at once. Every call to Redis has a timeout, so a Redis that
    stops answering holds up neither for long.
    """

    def __init__(self, url: str, own_loop: bool = True) -> None:
        import redis  # an extra: only a server that is given SPADES_REDIS_URL needs it

        self._url = url
        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        with redis.Redis.from_url(url, socket_timeout=_TIMEOUT, socket_connect_timeout=_TIMEOUT) as client:
            client.ping()  # a wrong URL stops the server at start
        self._me = secrets.token_hex(8)
        """Sent with each event, so that the bus skips this process's own when it hears them."""
        self._strays = False
        """Whether a message on the tables' channels that is no event was heard (said in the log once)."""
        self._local = LocalBus()
        """This process's listeners, called for its own events and for those heard from Redis."""
        self._pending: dict[str, Event] = {}
        """Each table's latest version not yet sent to Redis, with its entries."""
        self._lock = threading.Lock()
        """Guards ``_pending`` and the loop ``run`` works on (``publish`` is called from any thread)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._wake: asyncio.Event | None = None
        """Set when events are queued, for ``run``'s sender (on its loop)."""
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        if own_loop:
            running = threading.Event()
            self._thread = threading.Thread(target=asyncio.run, args=(self._run_own(running),),
                                            name="spades-redis", daemon=True)
            self._thread.start()
            running.wait()

    def publish(self, code: str, seq: int, entries: Sequence[Entry] = ()) -> None:
        """Tell this process's listeners now, and queue the event for Redis (never waits for it)."""
        self._local.publish(code, seq, entries)
        self._queue({code: (seq, entries if isinstance(entries, Carried) else Carried(entries))})

    def listen(self, listener: Listener) -> None:
        """Add a listener."""
        self._local.listen(listener)

    async def run(self) -> None:
        """Send the queued events to Redis and pass the other processes' on to the listeners, on the
        running event loop, until cancelled (the events queued then are sent first, if Redis answers)."""
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        client = redis.asyncio.Redis.from_url(self._url, socket_timeout=_TIMEOUT,
                                              socket_connect_timeout=_TIMEOUT,
                                              retry=Retry(NoBackoff(), 0))  # this retries, at its pace
        with self._lock:
            self._loop, self._loop_thread = asyncio.get_running_loop(), threading.get_ident()
            self._wake = asyncio.Event()
            if self._pending:
                self._wake.set()
        listening = asyncio.create_task(self._listen(client))
        try:
            await self._send(client, self._wake)
        finally:
            with self._lock:
                self._loop = None
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            with contextlib.suppress(*self._errors):
                await self._sent(client, self._taken())
            await client.aclose()

    def _queue(self, events: dict[str, Event]) -> None:
        """Add events to those waiting to be sent, one a table (``_joined``), and wake the sender."""
        with self._lock:
            for code, event in events.items():
                waiting = self._pending.get(code)
                self._pending[code] = event if waiting is None else _joined(waiting, event)
            loop, wake = self._loop, self._wake
        if loop is None or wake is None:
            return  # sent once ``run`` starts
        if threading.get_ident() == self._loop_thread:
            wake.set()
        else:
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(wake.set)

    def _taken(self) -> dict[str, Event]:
        """The queued events, now no longer queued."""
        with self._lock:
            events, self._pending = self._pending, {}
        return events

    async def _send(self, client: Any, wake: asyncio.Event) -> None:
        """Send the queued events as they come, those queued meanwhile together in one round trip; while
        Redis fails, keep them (merged with newer ones) and try again every ``_RETRY`` seconds. A fault of
        ours drops the events it could not send, never the sender (which every table's news needs)."""
        outage = _Outage("publishing table events")
        while True:
            await wake.wait()
            wake.clear()
            events = self._taken()
            try:
                await self._sent(client, events)
            except self._errors as e:
                outage.failed(e)
                self._queue(events)
                await asyncio.sleep(_RETRY)
            except Exception:  # a fault of ours: logged, and the sender goes on with the next events
                _log.exception("Table events could not be published: dropped (the other processes' pages "
                               "catch up from the store within a few seconds).")
            else:
                outage.ok()

    async def _sent(self, client: Any, events: dict[str, Event]) -> None:
        """Publish the events in one round trip."""
        if events:
            pipe = client.pipeline(transaction=False)
            for code, (seq, entries) in events.items():
                pipe.publish(_CHANNEL + code, f"{seq} {self._me}".encode() + _wire(entries))
            await pipe.execute()

    async def _listen(self, client: Any) -> None:
        """Pass the other processes' events on to the listeners; while Redis fails, or leaves a ping
        unanswered, drop the connection and try again every ``_RETRY`` seconds (redis-py then connects
        anew and subscribes again)."""
        outage = _Outage("passing other processes' table events")
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        said = time.monotonic()  # when the connection last said anything
        pinged = False
        try:
            while True:
                try:
                    if not pubsub.patterns:  # subscribed once, redis-py subscribes again on reconnecting
                        await pubsub.psubscribe(_CHANNEL + "*")
                    quiet = time.monotonic() - said
                    if pinged and quiet > _QUIET + _TIMEOUT:
                        raise TimeoutError(f"Redis left a ping unanswered for {_TIMEOUT:.0f} s")
                    if not pinged and quiet > _QUIET:
                        await pubsub.ping()
                        pinged = True
                    message = await pubsub.get_message(timeout=_QUIET + _TIMEOUT - quiet if pinged else
                                                       _QUIET - quiet)
                except self._errors as e:
                    outage.failed(e)
                    if pubsub.connection is not None:
                        await pubsub.connection.disconnect()
                    await asyncio.sleep(_RETRY)
                    said, pinged = time.monotonic(), False
                    continue
                outage.ok()
                if message is not None:
                    said, pinged = time.monotonic(), False
                if message is not None and message["type"] == "pmessage":
                    try:
                        self._pass_on(message["channel"], message["data"])
                    except Exception:  # a stray message on our channels, or a fault of ours: heard next
                        _log.exception("A table event from Redis could not be passed on: %r", message)
        finally:
            await pubsub.aclose()

    def _pass_on(self, channel: bytes, data: bytes) -> None:
        """Call the listeners for an event another process published: ``"<version> <sender>:<entries>"``,
        or an older Spades's ``"<version> <sender>"`` or ``"<version>"`` (so that processes of each can
        run side by side while an upgrade rolls). Anything else is said in the log once (a stray
        publisher may send many) and ignored."""
        event = _EVENT.fullmatch(data) if isinstance(data, bytes) else None
        entries = None if event is None else _entries(event.group(3))
        if event is None or entries is None:
            if not self._strays:
                self._strays = True
                _log.warning("A message on the tables' Redis channel %r is no table event: %r ignored, as "
                             "any such after it.", channel, data)
            return
        seq, sender = event.group(1, 2)
        if sender != self._me.encode():
            self._local.publish(channel[len(_CHANNEL):].decode(errors="replace"), int(seq), entries)

    async def _run_own(self, running: threading.Event) -> None:
        """``run`` on the bus's own loop (its thread's), until ``close``."""
        self._task = asyncio.current_task()
        running.set()
        with contextlib.suppress(asyncio.CancelledError):
            await self.run()

    def close(self) -> None:
        """Stop listening (a bus with a loop of its own stops ``run`` there: the queued events are sent
        first if Redis answers; else the server's lifespan stops it)."""
        task, thread = self._task, self._thread
        if task is not None and thread is not None:
            with contextlib.suppress(RuntimeError):  # its loop has ended already
                task.get_loop().call_soon_threadsafe(task.cancel)
            thread.join(timeout=5)
        self._local.close()


def _joined(a: Event, b: Event) -> Event:
    """Two events of one table as one: the later version, with the entries of both if they join up
    (the later's alone if not), the last ``_CARRIED`` of them."""
    earlier, later = sorted((a, b), key=lambda e: e[0])
    entries = later[1]
    if later[0] - len(later[1]) == earlier[0]:
        entries = earlier[1].then(entries)
    return later[0], entries.since(-_CARRIED)


_TOLD = "told"
"""The key of a move's event beside the stored form of its entry in an event (a Spades from before
they were carried reads the entry without it)."""


def _wire(entries: Carried) -> bytes:
    """Entries as they follow the sender in an event: ``":"`` and JSON without whitespace, in UTF-8 (a
    space can only be in a string, where ``\\u0020`` says the same; orjson escapes the others), or
    nothing if there are none; each move's entry with its event (``_TOLD``)."""
    if not entries:
        return b""
    stored = [entry_json(e) if told is None else {**entry_json(e), _TOLD: told}
              for e, told in zip(entries, entries.told, strict=True)]
    return b":" + orjson.dumps(stored).replace(b" ", b"\\u0020")


def _entries(text: bytes | None) -> Carried | None:
    """The entries an event carries (none if it carries none), with their events; None if they are not
    a list of entries (an event that is not as ``_told`` reads one is taken for none)."""
    if text is None:
        return Carried()
    try:
        data: Any = orjson.loads(text)
        if not isinstance(data, list):
            return None
        entries = [entry_of(d) for d in data]
    except (ValueError, BadEntry):
        return None
    return Carried(entries, [_told(d.get(_TOLD)) for d in data])


def _told(data: Any) -> Told | None:
    """A move's event as an event carries it: ``[before, after, [line, ...]]``; None if it is not so."""
    if isinstance(data, list) and len(data) == 3 and isinstance(data[0], str) and isinstance(data[1], str) \
            and isinstance(data[2], list) and all(isinstance(t, str) for t in data[2]):
        return data[0], data[1], tuple(data[2])
    return None


def make_bus(redis_url: str | None) -> EventBus:
    """Redis when a URL is given (its work to be run on the server's event loop: ``RedisBus.run``),
    else the process's own bus."""
    return RedisBus(redis_url, own_loop=False) if redis_url else LocalBus()
