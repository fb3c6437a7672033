"""Running the service: ``spades play`` (a free local port and a browser tab) and ``spades serve``."""

from __future__ import annotations

import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from spades.server.app import create_app
from spades.server.settings import Settings
from spades.server.store import StoreError, open_store

__all__ = ["PLAY_PORT", "WS_MAX_BYTES", "BackgroundServer", "free_port", "run_server"]


WS_MAX_BYTES = 64 * 1024
"""The largest WebSocket message a client may send (a command is at most 2,000 characters): a bigger one
closes its connection with 1009, message too big, before it is held in memory whole (uvicorn's own limit
is 16 MiB a message, on every connection at once)."""

_WS: dict[str, Any] = {"ws_per_message_deflate": False, "ws_max_size": WS_MAX_BYTES}
"""The WebSocket messages are small: compressing each costs more CPU than it saves."""

PLAY_PORT = 8421
"""The port ``spades play`` prefers, so the page's address (and its saved token) stays the same."""


def free_port(host: str = "127.0.0.1", prefer: int = 0) -> int:
    """A TCP port nobody is listening on right now: ``prefer`` if it is free, else any."""
    for port in (prefer, 0) if prefer else (0,):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            found: int = s.getsockname()[1]
            return found
    raise OSError("No free port.")


def run_server(settings: Settings, *, open_browser: bool) -> int:
    """Serve the game until interrupted; print the address once it answers, and open a tab on it if asked.

    The database is checked (and upgraded) first: if it cannot be used, the reason is printed and
    the exit status is 1. With several workers, as many processes share the port and the store.
    """
    store = open_store(settings.database)
    print(f"Starting the server (games are saved in {store.describe()})...", flush=True)
    try:
        store.check()
    except StoreError as e:
        print(f"spades: the database cannot be used, so nothing is served: {e}", file=sys.stderr)
        return 1
    finally:
        store.close()
    shown = "127.0.0.1" if settings.host in ("0.0.0.0", "::") else settings.host
    url = f"http://{shown}:{settings.port}/"
    options: dict[str, Any] = {"host": settings.host, "port": settings.port, "log_level": "warning",
                               "access_log": False, "proxy_headers": False, **_WS}
    if settings.workers > 1:
        # Each worker process builds its own app (and store connections) from the environment; one
        # still importing on a busy machine must not be taken for a hung one (uvicorn's default
        # 5 s health check would restart it forever).
        os.environ.update(settings.to_env())
        print(f"Spades is served at {url} by {settings.workers} processes (Ctrl+C stops it)", flush=True)
        if not settings.redis_url:
            print("Friends' tables are live within each process only: set SPADES_REDIS_URL so that people "
                  "at one table on different processes see each other's moves as they happen.", flush=True)
        uvicorn.run("spades.server.app:create_app", factory=True, workers=settings.workers,
                    timeout_worker_healthcheck=120, **options)
        return 0
    server = uvicorn.Server(uvicorn.Config(create_app(settings), **options))

    def announce_when_up() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            print(f"Spades is ready at {url}  (Ctrl+C stops it)", flush=True)
            if open_browser:
                webbrowser.open(url)

    threading.Thread(target=announce_when_up, daemon=True).start()
    server.run()
    return 0


class BackgroundServer:
    """The real server on a loopback port in a thread: for the tests and the benchmark.

    Stopping and starting it again on the same port and database is a server restart. The
    keyword ``settings`` are ``Settings`` fields (the environment is not read: tests stay alike);
    the coach is off unless ``coach_workers`` is given, so that what does not look at its reviews
    does not pay for them. ``app`` is the app being served.
    """

    def __init__(self, database: Path | str, port: int | None = None, host: str = "127.0.0.1",
                 **settings: Any) -> None:
        self.database = database
        """A SQLite file's path or a database URL."""
        self.host = host
        self.port = port or free_port(host)
        if "://" in str(database):
            settings["database_url"] = database
        else:
            settings["db_path"] = database
        settings.setdefault("coach_workers", 0)
        self.settings = Settings(host=host, port=self.port, **settings)
        self.app: FastAPI | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The server's base address, without the trailing slash."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> BackgroundServer:
        """Start serving (a fresh app on the same database) and wait until it answers."""
        self.app = app = create_app(self.settings)
        self._server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port, log_level="warning",
                                                     access_log=False, proxy_headers=False, **_WS))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        for _ in range(400):
            if self._server.started:
                return self
            if not self._thread.is_alive():
                break
            threading.Event().wait(0.025)
        raise RuntimeError(f"The server did not start on {self.url}.")

    def stop(self) -> None:
        """Stop serving and wait for the thread to end."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
