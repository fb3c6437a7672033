"""Friends' tables under load: N tables, four WebSocket seats each, people moving ~1 s after their turn.

Measures the time from a move being sent to the last seat of its table receiving it (an update
whose game version is past the move), as p50/p95/p99, on one server process or on two sharing a
real Redis (seats of one table alternate between the processes), and the CPU time the servers (and
Redis) spent per move, a figure a busy machine disturbs far less. Starts its own servers (and
redis-server) in a temporary folder and stops them.

    .venv/bin/python benchmarks/bench_tables.py --tables 50 --seconds 40
    .venv/bin/python benchmarks/bench_tables.py --tables 250 --seconds 40 --processes 2

``--profile FILE`` samples the thread holding the GIL in each server process with py-spy while the
seats are measured, into ``FILE.0``, ``FILE.1`` (and the load generator itself into ``FILE.bench``):
py-spy's raw collapsed stacks, which ``benchmarks/profile_shares.py`` sums by function.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server.api_client import simple_move
from server.processes import Served, redis_server, tree_cpu_seconds

ACTIVE = ("bid", "play", "pass", "draw")


class Bench:
    """The moves in flight and the latencies measured."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.pending: dict[str, dict[int, tuple[float, set[int]]]] = {}
        """By table, the moves in flight by the game version they were made on: when each left, and
        the seats that have seen it."""
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.measuring = False
        self.cpu = 0.0
        """CPU seconds the servers (and Redis) used while measuring."""
        self.client_cpu = 0.0
        """CPU seconds this load generator used meanwhile (on the same cores)."""
        self.received = 0
        """Bytes of the messages the seats received while measuring."""

    def sent(self, code: str, version: int) -> None:
        """A move from game ``version`` leaves now."""
        self.pending.setdefault(code, {})[version] = (time.perf_counter(), set())

    def seen(self, code: str, seat: int, version: int, seats: int) -> None:
        """A seat's update reached game ``version``: every move of the table below it has arrived there."""
        now = time.perf_counter()
        pending = self.pending.get(code, {})
        for key in [v for v in pending if v < version]:
            start, got = pending[key]
            got.add(seat)
            if len(got) == seats:
                del pending[key]
                if self.measuring:
                    self.latencies.append(now - start)


async def join_live(url: str, code: str, token: str, gate: asyncio.Semaphore) -> ClientConnection:
    """A seat's WebSocket, opened a few at a time (a thousand handshakes at once only time out)."""
    async with gate:
        ws = await connect(url.replace("http://", "ws://") + f"/api/tables/{code}/live",
                           compression=None, max_size=None, open_timeout=120,
                           ping_interval=None)  # as a browser: it answers pings, sends none
        await ws.send(json.dumps({"token": token, "since": -1, "keep": True}))  # as the page does
        return ws


async def seat(bench: Bench, ws: ClientConnection, code: str) -> None:
    """One person: waits ~``think`` seconds after each turn comes, then moves; the host deals on; until
    cancelled. Cheap for the machine the servers share: each message waited for without a timeout of its
    own, taken as bytes and parsed by orjson (the clients took 42% of a core at 700 moves/s, a third of
    it waiting with timeouts and another in Python's JSON parser)."""
    acted: tuple[int, str] | None = None
    mover: asyncio.Task[None] | None = None

    async def act(delay: float, message: dict[str, Any], version: int | None) -> None:
        await asyncio.sleep(delay)
        if version is not None:
            bench.sent(code, version)
        await ws.send(json.dumps(message))

    try:
        while True:
            raw = await ws.recv(decode=False)
            if bench.measuring:
                bench.received += len(raw)
            msg = orjson.loads(raw)
            if msg["type"] == "error":
                if msg["status"] != 409:
                    bench.errors.append(msg["detail"])
                continue
            t = msg["table"]
            g = t["game"]
            if g is None:
                continue
            bench.seen(code, t["you"], g["version"], t["players"])
            key = (g["version"], g["phase"])
            if key == acted:
                continue
            delay = bench.think * random.uniform(0.8, 1.2)
            if g["phase"] in ACTIVE and g["turn"] == t["you"]:
                acted = key
                mover = asyncio.create_task(act(delay, {"do": "move", "move": simple_move(g),
                                                        "version": g["version"]}, g["version"]))
            elif g["phase"] == "hand_over" and t["host"] == t["you"]:
                acted = key
                mover = asyncio.create_task(act(delay, {"do": "next", "version": g["version"]}, None))
            elif g["phase"] == "game_over" and t["host"] == t["you"]:
                acted = key
                mover = asyncio.create_task(act(delay, {"do": "rematch"}, None))
    finally:
        if mover is not None:
            mover.cancel()
        ws.transport.abort()  # gone at once, as a closed laptop: no closing handshake to wait for


def _client() -> httpx.AsyncClient:
    """A client whose every request has a connection of its own: one kept alive could be closed by a
    busy server just as a request went out on it (a reset, not an answer)."""
    return httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_keepalive_connections=0))


async def open_tables(urls: list[str], n: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """N tables of four people, a few opened at once; the seats alternate between the servers."""
    gate = asyncio.Semaphore(8)

    async def post(c: httpx.AsyncClient, url: str, body: dict[str, str]) -> dict[str, Any]:
        r = await c.post(url, json=body)
        if not r.is_success:
            raise RuntimeError(f"POST {url}: {r.status_code} {r.text}")
        answer: dict[str, Any] = r.json()
        return answer

    async def table(c: httpx.AsyncClient, i: int) -> tuple[str, list[tuple[str, str]]]:
        async with gate:
            host = await post(c, f"{urls[0]}/api/tables", {"name": f"Host {i}"})
            code = host["code"]
            seats = [(urls[0], host["token"])]
            for k in range(1, 4):
                url = urls[k % len(urls)]
                joined = await post(c, f"{url}/api/tables/{code}/seats", {"name": f"P{k}"})
                seats.append((url, joined["token"]))
            return code, seats

    async with _client() as c:
        return await asyncio.gather(*(table(c, i) for i in range(n)))


def profile(pids: list[int], path: str | None, seconds: float) -> list[subprocess.Popen[bytes]]:
    """py-spy sampling each of ``pids`` (the servers', then this process's) for ``seconds`` into
    ``path.0``, ``path.1``..., this process's into ``path.bench`` (nothing without a path)."""
    if path is None:
        return []
    spy = str(Path(sys.executable).parent / "py-spy")
    names = [*map(str, range(len(pids) - 1)), "bench"]
    return [subprocess.Popen([spy, "record", "--pid", str(pid), "--nonblocking", "--gil", "--format", "raw",
                              "--rate", "100", "--duration", str(round(seconds)), "-o", f"{path}.{name}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for pid, name in zip(pids, names, strict=True)]


async def run(urls: list[str], n: int, bench: Bench, warmup: float, seconds: float, spied: list[int],
              spy_path: str | None, measured: Callable[[], None]) -> None:
    """Open N tables, connect every seat, start every table, measure for ``seconds`` after ``warmup``,
    then call ``measured``."""
    began = time.perf_counter()
    tables = await open_tables(urls, n)
    opened = time.perf_counter()
    gate = asyncio.Semaphore(20)
    sockets = await asyncio.gather(*(join_live(url, code, token, gate)
                                     for code, seats in tables for url, token in seats))
    print(f"opened {n} tables in {opened - began:.0f} s, connected their seats in "
          f"{time.perf_counter() - opened:.0f} s", file=sys.stderr)
    codes = [code for code, seats in tables for _ in seats]
    tasks = [asyncio.create_task(seat(bench, ws, code))
             for ws, code in zip(sockets, codes, strict=True)]
    async def start(c: httpx.AsyncClient, code: str, url: str, token: str) -> None:
        async with gate:
            try:
                await c.post(f"{url}/api/tables/{code}/commands", json={"do": "start"},
                             headers={"X-Seat-Token": token})
            except httpx.HTTPError as e:  # counted: that table does not play
                bench.errors.append(f"start: {e!r}")

    async with _client() as c:
        await asyncio.gather(*(start(c, code, *seats[0]) for code, seats in tables))
    await asyncio.sleep(warmup)
    gc.disable()  # this load generator's own collections would be counted as the server's delay
    bench.measuring = True
    cpu, own = tree_cpu_seconds(os.getpid(), itself=False), time.process_time()
    spies = profile([*spied, os.getpid()], spy_path, seconds)
    await asyncio.sleep(seconds)
    bench.measuring = False
    bench.cpu = tree_cpu_seconds(os.getpid(), itself=False) - cpu
    bench.client_cpu = time.process_time() - own
    gc.enable()
    for spy in spies:
        spy.wait(timeout=60)
    measured()  # said now: a server far behind may take long to see every seat go
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    """Start the servers, run the tables, print the figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--processes", type=int, choices=(1, 2), default=1)
    p.add_argument("--seconds", type=float, default=40, help="how long to measure")
    p.add_argument("--warmup", type=float, default=8)
    p.add_argument("--think", type=float, default=1.0, help="seconds a person waits before moving")
    p.add_argument("--profile", metavar="FILE", help="sample the servers and the load generator with py-spy")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        db = Path(folder) / "spades.sqlite3"
        redis_url = stack.enter_context(redis_server(Path(folder) / "redis")) if args.processes == 2 else None
        servers = [stack.enter_context(Served(db, redis_url=redis_url)) for _ in range(args.processes)]
        bench = Bench(args.think)
        asyncio.run(run([s.url for s in servers], args.tables, bench, args.warmup, args.seconds,
                        [s.proc.pid for s in servers], args.profile, lambda: report(bench, args)))


def report(bench: Bench, args: argparse.Namespace) -> None:
    """Print the figures."""
    lat = sorted(bench.latencies)
    if not lat:
        print("no moves measured", flush=True)
        return
    q = statistics.quantiles(lat, n=100)
    redis = " + Redis" if args.processes == 2 else ""
    print(f"{args.tables} tables x 4 seats, {args.processes} process(es){redis}, "
          f"think {args.think:g} s, {args.seconds:g} s measured: {len(lat)} moves "
          f"({len(lat) / args.seconds:.0f}/s), move to last seat p50 {q[49] * 1000:.0f} ms, "
          f"p95 {q[94] * 1000:.0f} ms, p99 {q[98] * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms; "
          f"errors {len(bench.errors)}{': ' + bench.errors[0] if bench.errors else ''}; "
          f"server CPU {1000 * bench.cpu / len(lat):.2f} ms a move; the seats received "
          f"{bench.received / len(lat) / 1000:.1f} KB a move in all; the clients used "
          f"{100 * bench.client_cpu / args.seconds:.0f}% of a core", flush=True)


if __name__ == "__main__":
    main()
