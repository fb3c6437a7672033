"""``spades serve`` as a real process on a free loopback port, for the tests that kill or share it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time

import httpx

from spades.server.run import free_port


class Served:
    """One ``spades serve`` process on a database (a SQLite path or a URL)."""

    def __init__(self, database: str, *extra: str, port: int | None = None) -> None:
        self.database = database
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        flag = "--database-url" if "://" in database else "--db"
        env = {**os.environ, "SPADES_ACCESS_LOG": "0", "SPADES_RATE_PER_TOKEN": "0",
               "SPADES_RATE_PER_ADDRESS": "0"}
        self._errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (kept open for the process's life; a pipe stalls uvicorn's workers)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spades.cli", "serve", "--port", str(self.port), flag, database, *extra],
            stdout=subprocess.DEVNULL, stderr=self._errors, text=True, env=env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._errors.seek(0)
                raise RuntimeError(f"spades serve ended: {self._errors.read()}")
            try:
                httpx.get(self.url + "/api/rules", timeout=2)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("spades serve did not answer within two minutes.")

    def kill(self) -> None:
        """kill -9: the process ends at once, whatever it was doing."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """A graceful stop (SIGTERM): requests under way are answered first."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
