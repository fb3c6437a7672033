"""Table events between server processes: "table CODE is now at version N".

An event only says that a table's log grew; whoever listens reads the new entries from the store,
so every process sees every table's entries in the log's one order. ``LocalBus`` passes events
inside the process; ``RedisBus`` (when ``SPADES_REDIS_URL`` is set) passes them through Redis
pub/sub to every process, this one included.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

__all__ = ["EventBus", "Listener", "LocalBus", "RedisBus", "make_bus"]

Listener = Callable[[str, int], None]
"""Called with a table's code and its new version, from any thread."""

_CHANNEL = "spades:tables:"


class EventBus(Protocol):
    """Publishes table versions to every listener of every process."""

    def publish(self, code: str, seq: int) -> None:
        """Say that table ``code`` has reached version ``seq``."""
        ...

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` for every event from now on."""
        ...

    def close(self) -> None:
        """Stop listening."""
        ...


class LocalBus:
    """Events within one process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def publish(self, code: str, seq: int) -> None:
        """Call the listeners at once."""
        for listener in self._listeners:
            listener(code, seq)

    def listen(self, listener: Listener) -> None:
        """Add a listener."""
        self._listeners.append(listener)

    def close(self) -> None:
        """Forget the listeners."""
        self._listeners.clear()


class RedisBus:
    """Events through Redis pub/sub, heard by every process subscribed (this one too)."""

    def __init__(self, url: str) -> None:
        import redis  # an extra: only a server that is given SPADES_REDIS_URL needs it

        self._redis = redis.Redis.from_url(url)
        self._redis.ping()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        self._pubsub.psubscribe(_CHANNEL + "*")
        self._listeners: list[Listener] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="spades-redis-bus", daemon=True)
        self._thread.start()

    def publish(self, code: str, seq: int) -> None:
        """Publish on the table's channel."""
        self._redis.publish(_CHANNEL + code, str(seq))

    def listen(self, listener: Listener) -> None:
        """Add a listener."""
        self._listeners.append(listener)

    def _run(self) -> None:
        while not self._stop.is_set():
            message = self._pubsub.get_message(timeout=0.5)
            if message is None or message["type"] != "pmessage":
                continue
            code = message["channel"].decode()[len(_CHANNEL):]
            seq = int(message["data"])
            for listener in list(self._listeners):
                listener(code, seq)

    def close(self) -> None:
        """Stop the listening thread and close the connections."""
        self._stop.set()
        self._thread.join(timeout=5)
        self._pubsub.close()
        self._redis.close()


def make_bus(redis_url: str | None) -> EventBus:
    """Redis when a URL is given, else the process's own bus."""
    return RedisBus(redis_url) if redis_url else LocalBus()
