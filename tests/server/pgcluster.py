"""A throwaway PostgreSQL cluster for the tests and the benchmark: Debian's binaries, a temp dir.

``initdb`` and ``pg_ctl`` from ``/usr/lib/postgresql/*/bin`` (``./scripts/test`` installs the
``postgresql`` package), run as the ``postgres`` user (or ``nobody``) when we are root, since
PostgreSQL refuses to run as root; the cluster listens on a free loopback port with its unix
socket in the same temp dir, and is stopped and deleted at the end.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

from spades.server.run import free_port

__all__ = ["Cluster"]


def _binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


class Cluster:
    """One PostgreSQL server of our own; ``database()`` hands out an empty schema's URL each call."""

    available = _binaries() is not None

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        """Keep PostgreSQL's fsync and synchronous commit (the benchmark); the tests turn them off."""
        self.dir = Path(tempfile.mkdtemp(prefix="spades-pg-"))
        self.port = free_port()
        self.url = f"postgresql://spades@127.0.0.1:{self.port}/postgres"
        self._user: int | None = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    entry = pwd.getpwnam(name)
                except KeyError:
                    continue
                self._user = entry.pw_uid
                os.chown(self.dir, entry.pw_uid, entry.pw_gid)
                break

    def _run(self, *args: str) -> None:
        bin_dir = _binaries()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (./scripts/test installs Debian's postgresql).")
        done = subprocess.run([str(bin_dir / args[0]), *args[1:]], cwd=self.dir, user=self._user,
                              capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
        if done.returncode:
            log = self.dir / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip()}\n{tail}")

    def start(self) -> Cluster:
        """initdb, then start the server and wait until it accepts connections."""
        data = str(self.dir / "data")
        self._run("initdb", "-D", data, "-U", "spades", "--auth=trust", "-E", "UTF8", "--no-locale",
                  "--no-sync", "--no-instructions")
        fast = "" if self.durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", data, "-l", str(self.dir / "log"), "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=300"
                  f" -c shared_buffers=128MB{fast}", "start")
        return self

    def database(self) -> str:
        """The URL of a fresh, empty schema (its own tables, as a new database would have)."""
        import psycopg

        schema = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return f"{self.url}?options=-csearch_path%3D{schema}"

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        try:
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
