"""Running the service: ``spades play`` (a free local port and a browser tab) and ``spades serve``."""

from __future__ import annotations

import socket
import threading
import webbrowser
from pathlib import Path

import uvicorn

from spades.server.app import AppSettings, create_app, default_db_path

__all__ = ["free_port", "run_server"]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody is listening on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def run_server(*, host: str, port: int, db_path: Path | None, open_browser: bool) -> None:
    """Serve the game until interrupted; print the address, and open a browser tab on it if asked."""
    db = db_path or default_db_path()
    app = create_app(AppSettings(db_path=db))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    print(f"Spades is being served at {url}  (games saved in {db}; Ctrl+C stops it)", flush=True)
    if open_browser:

        def open_when_up() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_up, daemon=True).start()
    server.run()
