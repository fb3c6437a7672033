"""Real services for the tests and the benchmarks: a throwaway redis-server, a relay whose connections a
test can cut off silently, ``spades serve`` as a process, and the CPU time of a process tree."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx

from spades.server.run import free_port


def _wait(ok: Callable[[], object], what: str, proc: subprocess.Popen[Any], errors: IO[str] | None = None,
          seconds: float = 120) -> None:
    """Wait until ``ok()`` answers truthfully; an error with what the process wrote if it ends first."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            said = ""
            if errors is not None:
                errors.seek(0)
                said = ": " + errors.read()
            raise RuntimeError(f"{what} exited with {proc.returncode}{said}")
        try:
            if ok():
                return
        except Exception:  # not answering yet (each client has its own connection error)
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not answer within {seconds:.0f} s")


class RedisServer:
    """Debian's redis-server on a free port, its files in ``folder``, as a process the tests can pause,
    kill and start again on the same port (``url`` stays the same); ``with`` stops it after."""

    def __init__(self, folder: Path) -> None:
        self.exe = shutil.which("redis-server")
        if self.exe is None:
            raise RuntimeError("redis-server is not installed (./scripts/test installs it)")
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        folder.mkdir(parents=True, exist_ok=True)
        self.start()

    def start(self) -> None:
        """Start redis-server (again) and wait until it answers."""
        import redis

        assert self.exe is not None
        self.proc = subprocess.Popen([self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
                                      str(self.folder), "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        try:
            _wait(client.ping, "redis-server", self.proc)
        finally:
            client.close()

    def pause(self) -> None:
        """SIGSTOP: the server keeps its connections open but answers nothing, as behind a partition."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after ``pause``: it answers what waited meanwhile."""
        self.proc.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """kill -9: every connection drops, and nothing answers on the port until ``start``."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *_: object) -> None:
        if self.proc.poll() is None:
            self.resume()  # a paused server would not end on SIGTERM
            self.proc.terminate()
            self.proc.wait(timeout=10)


class SilentCut:
    """A TCP relay to a local port whose connections ``cut`` ends without a word to either end, as a
    network partition does: from then on it swallows what they send, both ways, and never closes them;
    connections made after the cut go through. ``with`` closes everything after."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.server.getsockname()[1]
        self.links: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        threading.Thread(target=self._accept, name="silent-cut", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.server.accept()
            except OSError:  # closed
                return
            far = socket.create_connection(("127.0.0.1", self.target))
            cut = threading.Event()
            self.links.append((near, far, cut))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._relay, args=(a, b, cut), daemon=True).start()

    @staticmethod
    def _relay(source: socket.socket, sink: socket.socket, cut: threading.Event) -> None:
        """Pass on what ``source`` sends until it closes; once cut, drop it."""
        try:
            while data := source.recv(65536):
                if not cut.is_set():
                    sink.sendall(data)
            if not cut.is_set():
                sink.shutdown(socket.SHUT_WR)
        except OSError:  # closed at the end
            pass

    def cut(self) -> None:
        """Cut off every connection made so far."""
        for _, _, cut in self.links:
            cut.set()

    def __enter__(self) -> SilentCut:
        return self

    def __exit__(self, *_: object) -> None:
        self.server.close()
        for near, far, _cut in self.links:
            near.close()
            far.close()


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A ``RedisServer`` in ``folder``; yields its URL; stopped after."""
    with RedisServer(folder) as server:
        yield server.url


class Served:
    """``spades serve`` in a process of its own on a free port (or ``port``), on a SQLite file or a
    database URL, with more ``serve`` flags in ``extra``, table events and rate limits through Redis if
    ``redis_url`` is given, and more ``SPADES_*`` settings if given (the rate limits are off unless they
    say otherwise). The one way tests and benchmarks start the real server as a process: ``with`` stops
    it gracefully; ``kill`` is kill -9."""

    def __init__(self, database: Path | str, *extra: str, redis_url: str | None = None,
                 settings: dict[str, str] | None = None, port: int | None = None) -> None:
        self.database = str(database)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "SPADES_ACCESS_LOG": "0", "SPADES_RATE_PER_TOKEN": "0",
               "SPADES_RATE_PER_ADDRESS": "0", **(settings or {})}
        env.pop("SPADES_REDIS_URL", None)
        if redis_url:
            env["SPADES_REDIS_URL"] = redis_url
        flag = "--database-url" if "://" in self.database else "--db"
        self._errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (open for the process's life; a pipe stalls uvicorn's workers)
        command = [sys.executable, "-m", "spades.cli", "serve", "--port", str(self.port), flag, self.database]
        self.proc = subprocess.Popen([*command, *extra], stdout=subprocess.DEVNULL, stderr=self._errors,
                                     text=True, env=env, start_new_session=True)
        try:
            _wait(lambda: httpx.get(self.url + "/healthz", timeout=2).status_code == 200, "spades serve",
                  self.proc, self._errors)
        except BaseException:
            self.kill()
            raise

    def kill(self) -> None:
        """kill -9 of the server and every process it started: they end at once, whatever they were doing."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=60)
        self._errors.close()

    def stop(self) -> None:
        """A graceful stop (SIGTERM, as a service manager sends): requests under way are answered first."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=60)
        self._errors.close()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def tree_cpu_seconds(pid: int, *, itself: bool = True) -> float:
    """The CPU time (user and system) a process and all its descendants have used so far (without the
    process's own with ``itself=False``); processes gone meanwhile count for nothing."""
    total, todo, first = 0.0, [pid], True
    while todo:
        p = todo.pop()
        try:
            if itself or not first:
                fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            todo += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except OSError:
            pass
        first = False
    return total
