"""Real services for the tests and the table benchmark: a throwaway redis-server, and server processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from spades.server.run import free_port


def _wait(ok: object, what: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            if ok():  # type: ignore[operator]
                return
        except Exception:  # not answering yet (each client has its own connection error)
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start")


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """Debian's redis-server on a free port, its files in ``folder``; yields its URL; stopped after."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (./scripts/test installs it)")
    import redis

    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                             "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        _wait(client.ping, "redis-server", proc)
        client.close()
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def server_process(db: Path | str, redis_url: str | None,
                   settings: dict[str, str] | None = None) -> Iterator[str]:
    """``spades serve`` in its own process on a free port, on a SQLite file or a database URL (events
    and rate limits through Redis if given), with more ``SPADES_*`` settings if given; yields its URL."""
    port = free_port()
    env = {**os.environ, "SPADES_ACCESS_LOG": "0", "SPADES_RATE_PER_ADDRESS": "0", **(settings or {})}
    env.pop("SPADES_REDIS_URL", None)
    if redis_url:
        env["SPADES_REDIS_URL"] = redis_url
    flag = "--database-url" if "://" in str(db) else "--db"
    command = [sys.executable, "-m", "spades.cli", "serve", "--port", str(port), flag, str(db)]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: httpx.get(url + "/api/rules", timeout=2).status_code == 200, "spades serve", proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


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
