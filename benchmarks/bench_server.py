"""Server time per human move over real HTTP, with many games played at once.

Starts ``spades serve`` (``--workers`` processes) on a free port, on a temporary SQLite file or
on a throwaway PostgreSQL cluster (``--store postgres``: Debian's postgresql, with its durable
defaults), then plays whole games from many clients at once as the page does (bid, play, next
hand) for ``--seconds``, and prints moves per second, errors, and the percentiles of the server's
own time per move (its ``Server-Timing`` header: the move, the engine's checks, the computer
players' replies and the save) and of the round trip the client saw, and the CPU time the server's
processes spent per move (on a machine shared with other work, a steadier figure than moves/s;
it leaves out the database server's own CPU when the store is PostgreSQL).

Two kinds of load: ``--think 0`` (saturation: each client moves as soon as it is answered) and
``--think 1`` (each client waits a second after each answer, as a fast person does). The clients
are asyncio coroutines speaking HTTP/1.1 on keep-alive connections with as little code as
possible, so that the load generator, on the same machine, takes little of its CPU.

    .venv/bin/python benchmarks/bench_server.py --games 16 --think 0 --workers 2
    .venv/bin/python benchmarks/bench_server.py --games 300 --think 1 --store postgres

The coach's background reviews of finished hands are off unless ``--coach`` is given: they take
CPU beside the moves (an analysis process per server process at a time), which is not what is
measured here.

``--profile FILE`` samples the thread holding the GIL in each server process with py-spy
(``pip install py-spy``) while the clients play, and writes their stacks to FILE (py-spy's "raw"
collapsed stacks, one line a stack with its count; ``benchmarks/profile_shares.py`` sums them by
function).

``--warmup SECONDS`` lets the clients play that long before anything is counted: with ``--games 1000`` the
first second starts a thousand games at once (each over HTTP, the computer players moving up to the
person), a rush a server open for hours never sees; the figures are then those of the steady load.

``--redis`` turns the rate limits on (far above what the clients send) and has them counted in a
throwaway redis-server, as several processes of one server count them: the cost of that count.

``--ws`` makes the moves and next hands on the solo game's WebSocket (``/api/games/live``, one per
client) instead of ``POST`` requests; the player, settings and each new game still go over HTTP.

``--against DIR`` also runs the same load against the code of another checkout (``DIR/src`` first on
the server's ``PYTHONPATH``, over plain HTTP, since older code has no WebSocket; ``--against-ws``: over
its WebSocket too, for code that has one), the two taken in turn ``--rounds`` times, each on a fresh
database, and prints the ratios: a before/after comparison made in the same minutes, as this machine's
speed varies from hour to hour.

``--kill N`` instead kills the server (kill -9) N times at random moments under that load,
restarts it, and checks that every answered move is in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.pgcluster import Cluster
from server.processes import Served, redis_server, tree_cpu_seconds


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def choose(state: dict[str, Any]) -> str:
    """A plain legal move for the person's seat."""
    if state["phase"] == "bid":
        return "look" if state["can_look"] else "bid " + ("3" if "3" in state["legal_bids"] else
                                                          state["legal_bids"][0])
    if state["phase"] == "pass":
        return "pass " + " ".join(state["hand"][: state["pass_count"]])
    if state["phase"] == "draw":
        return "draw keep"
    return "play " + str(state["legal"][len(state["legal"]) // 2])


class Connection:
    """One keep-alive HTTP/1.1 connection: a request, its status, headers and JSON body."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, dict[str, str], Any]:
        """Send one request (reconnecting if needed); the answer."""
        if self.writer is None or self.reader is None or self.reader.at_eof():  # none yet, or closed idle
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n"
        head += "Content-Type: application/json\r\n" + (f"X-Player-Token: {token}\r\n" if token else "")
        self.writer.write(head.encode() + b"\r\n" + data)
        try:
            lines = (await self.reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            self.writer = None
            raise ConnectionError("the server closed the connection") from None
        status = int(lines[0].split()[1])
        headers = {k.lower(): v for k, _, v in (ln.partition(": ") for ln in lines[1:] if ln)}
        payload = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, json.loads(payload) if payload else None


class Socket:
    """The solo game's WebSocket: each move sent and its answer awaited, as ``Connection.request`` does;
    its partial states merged onto the last one, as the page does."""

    def __init__(self, port: int, token: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/api/games/live"
        self.token = token
        self.ws: Any = None
        self.sent = 0
        self.last: dict[str, Any] = {}

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, dict[str, str], Any]:
        """Send a move or the next hand (``path`` as over HTTP) and return its status and body; the
        server's time is not measured on a socket, so the headers are empty."""
        if self.ws is None:
            await self.open()
        game = int(path.split("/")[3])
        self.sent += 1
        message = {"id": self.sent, "do": "next" if path.endswith("/next") else "move", "game": game, **body}
        await self.ws.send(json.dumps(message))
        answer = json.loads(await self.ws.recv())
        if answer["status"] == 200:
            self.last = answer["body"]["state"] = {**self.last, **answer["body"]["state"]}
        return answer["status"], {}, answer["body"]

    async def open(self) -> None:
        """Connect and say hello (before the first move, as an HTTP client's connection is open by then)."""
        self.ws = await connect(self.url, compression=None)
        await self.ws.send(json.dumps({"token": self.token, "partial": True}))

    async def close(self) -> None:
        """Close the connection, if open."""
        if self.ws is not None:
            await self.ws.close()


class Load:
    """What the clients saw: the server's and the round trip's time per move, and the errors."""

    def __init__(self) -> None:
        self.server_ms: list[float] = []
        self.client_ms: list[float] = []
        self.kinds: list[str] = []
        """What each timed request was: a card, a bid, the next hand or a new game."""
        self.asked: list[float] = []
        """When each timed request was sent (``time.perf_counter()``)."""
        self.errors: list[str] = []
        self.answered: dict[str, dict[str, Any]] = {}
        """Each player's last answered state (for the kill check)."""
        self.since = float("inf")
        """The moves counted are those asked from this ``time.perf_counter()`` on (set once the warmup is
        over; none before)."""


async def client(port: int, level: str, think: float, until: float, load: Load, start_delay: float,
                 ws: bool = False) -> None:
    """One player: a token, then whole games until the time is up, waiting ``think`` after each answer
    (``ws``: the moves over the WebSocket)."""
    await asyncio.sleep(start_delay)
    conn = Connection(port)
    socket: Socket | None = None
    try:
        _, _, player = await conn.request("POST", "/api/players")
        token = player["token"]
        socket = Socket(port, token) if ws else None
        await conn.request("PUT", "/api/settings", {"level": level, "speed": "instant"}, token)
        _, _, out = await conn.request("POST", "/api/games", {"deal": random.randrange(1, 10**9)}, token)
        state = out["state"]
        load.answered[token] = state
        if socket is not None:
            await socket.open()
        body: dict[str, Any]
        while time.monotonic() < until:
            if state["phase"] == "game_over":
                path, body = "/api/games", {"deal": random.randrange(1, 10**9)}
            elif state["phase"] == "hand_over":
                path, body = f"/api/games/{state['id']}/next", {"version": state["version"]}
            else:
                path, body = f"/api/games/{state['id']}/moves", {"move": choose(state),
                                                                   "version": state["version"]}
            kind = "new game" if path == "/api/games" else "next hand" if path.endswith("/next") \
                else "bid" if state["phase"] == "bidding" else "card"
            start = time.perf_counter()
            via = conn if socket is None or path == "/api/games" else socket
            status, headers, out = await via.request("POST", path, body, token)
            took = (time.perf_counter() - start) * 1000
            if status >= 300:
                load.errors.append(f"{status} {out}")
                return
            if start >= load.since:
                load.server_ms.append(float(headers["server-timing"].split("dur=")[1]) if headers else took)
                load.client_ms.append(took)
                load.kinds.append(kind)
                load.asked.append(start)
            state = out["state"]
            load.answered[token] = state
            if think:
                await asyncio.sleep(think)
    except (ConnectionError, OSError, ConnectionClosed) as e:
        load.errors.append(repr(e))
    finally:
        if conn.writer is not None:
            conn.writer.close()
        if socket is not None:
            await socket.close()


def start_server(database: str, workers: int, coach: bool = False, redis_url: str | None = None,
                 source: str | None = None) -> Served:
    """``spades serve`` with ``workers`` processes on a database, the coach's background reviews off
    unless ``coach``; with ``redis_url``, the rate limits on, counted in Redis, too high to refuse
    these clients; with ``source``, that checkout's code."""
    settings = {} if coach else {"SPADES_COACH_WORKERS": "0"}
    if source is not None:
        settings["PYTHONPATH"] = str(Path(source).resolve() / "src")
    if redis_url:
        settings.update(SPADES_RATE_PER_TOKEN="1000", SPADES_RATE_PER_ADDRESS="100000")
    return Served(database, "--workers", str(workers), redis_url=redis_url, settings=settings)


async def run_load(args: argparse.Namespace, port: int, pid: int,
                   ws: bool) -> tuple[Load, float, float, float]:
    """``args.games`` clients for ``args.warmup`` then ``args.seconds`` (``ws``: moving over the
    WebSocket); what they saw after the warmup, the time that took, and the CPU seconds the server's
    processes (``pid``'s tree) and this one spent meanwhile."""
    load = Load()
    gc.collect()
    gc.disable()  # a thousand people's pages do not share one collector: its pauses are not the server's
    until = time.monotonic() + args.warmup + args.seconds
    spread = min(1.0, args.think or 0.2)  # the clients start over this many seconds
    clients = asyncio.gather(*(client(port, args.level, args.think, until, load, random.uniform(0, spread),
                                      ws) for _ in range(args.games)))
    await asyncio.sleep(args.warmup)
    load.since, cpu, own = time.perf_counter(), tree_cpu_seconds(pid), time.process_time()
    try:
        await clients
    finally:
        gc.enable()
    return load, time.perf_counter() - load.since, tree_cpu_seconds(pid) - cpu, time.process_time() - own


def report(load: Load, wall: float, cpu: float, args: argparse.Namespace, name: str) -> tuple[float, float]:
    """Print the figures of one run (``name``: which code, how reached); its moves a second and server
    CPU milliseconds a move."""
    moves = len(load.server_ms)
    rate, cpu_ms = moves / wall, 1000 * cpu / max(1, moves)
    limits = " + Redis rate limits" if args.redis else ""
    warm = f" after {args.warmup:g} s of warmup" if args.warmup else ""
    print(f"{name}: {args.store}{limits}, {args.workers} process(es), {args.games} games at once{warm}, "
          f"think {args.think} s, level {args.level}: {moves} moves in {wall:.1f} s "
          f"({rate:.0f} moves/s), {len(load.errors)} errors; server CPU {cpu_ms:.2f} ms a move")
    for name, values in (("server time", load.server_ms), ("round trip", load.client_ms)):
        if values:
            p50, p95, p99 = (percentile(values, q) for q in (50, 95, 99))
            print(f"  {name:>11} per move: p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   p99 {p99:6.1f} ms")
    by_kind: dict[str, list[float]] = {}
    for kind, ms in zip(load.kinds, load.server_ms, strict=True):
        by_kind.setdefault(kind, []).append(ms)
    print("  server p95 by request: " + ", ".join(f"{kind} {percentile(values, 95):.1f} ms ({len(values)})"
                                                  for kind, values in sorted(by_kind.items())))
    if args.windows and load.asked:
        first, windows = load.since, dict[int, list[float]]()
        for at, ms in zip(load.asked, load.client_ms, strict=True):
            windows.setdefault(int((at - first) // args.windows), []).append(ms)
        print(f"  round trip p95 by {args.windows:g} s window: " + ", ".join(
            f"{percentile(values, 95):.0f}" for _, values in sorted(windows.items())) + " ms")
    for e in load.errors[:5]:
        print("  error:", e[:300])
    return rate, cpu_ms


async def load_then_kill(server: Served, load: Load, args: argparse.Namespace) -> None:
    """Clients playing as fast as answered (or thinking), and the server killed -9 at a random moment."""
    until, load.since = time.monotonic() + 3600, time.perf_counter()
    tasks = [asyncio.create_task(client(server.port, args.level, args.think, until, load, 0))
             for _ in range(args.games)]
    await asyncio.sleep(random.uniform(1.0, args.seconds))
    server.kill()
    await asyncio.gather(*tasks)


async def missing_moves(port: int, load: Load) -> int:
    """How many players' last answered move the restarted server does not have."""
    conn, missing = Connection(port), 0
    for token, last in load.answered.items():
        _, _, now = await conn.request("GET", "/api/games/current", token=token)
        if now["id"] < last["id"] or (now["id"] == last["id"] and now["version"] < last["version"]):
            missing += 1
    return missing


def check_kills(database: str, args: argparse.Namespace) -> int:
    """Kill the server -9 at random moments under load; every answered move must be stored."""
    lost = 0
    for round_ in range(args.kill):
        load = Load()
        killed = start_server(database, args.workers)
        asyncio.run(load_then_kill(killed, load, args))
        with start_server(database, 1) as server:
            missing = asyncio.run(missing_moves(server.port, load))
        print(f"kill {round_ + 1}: {len(load.server_ms)} moves answered to {len(load.answered)} players, "
              f"then kill -9; after the restart {missing} players' last answered move is missing")
        lost += missing
    return 1 if lost else 0


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=16, help="games played at once (default 16)")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a client waits after each answer")
    ap.add_argument("--seconds", type=float, default=20, help="how long to load the server (default 20)")
    ap.add_argument("--warmup", type=float, default=0.0,
                    help="seconds of load before the --seconds counted (default 0: from the first game)")
    ap.add_argument("--windows", type=float, default=0.0, metavar="SECONDS",
                    help="also print the round trip's p95 in each window of this many seconds")
    ap.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    ap.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--level", default="normal", help="the computer players' level (default normal)")
    ap.add_argument("--coach", action="store_true",
                    help="keep the coach's background reviews of finished hands on (off by default: they "
                         "take CPU beside the moves, in processes of their own)")
    ap.add_argument("--redis", action="store_true",
                    help="count the rate limits in a throwaway redis-server (their cost per request)")
    ap.add_argument("--profile", metavar="FILE", help="sample the server with py-spy into FILE")
    ap.add_argument("--kill", type=int, default=0, help="kill -9 the server this many times and check")
    ap.add_argument("--ws", action="store_true", help="make the moves on the solo game's WebSocket")
    ap.add_argument("--against", metavar="DIR", help="also run another checkout's code (over HTTP), in turn")
    ap.add_argument("--against-ws", action="store_true",
                    help="with --against and --ws, the other checkout's moves over its WebSocket too")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each code with --against (default 2)")
    args = ap.parse_args()
    if args.kill:
        with ExitStack() as stack:
            return check_kills(fresh_database(stack, args.store), args)
    this = "this code" + (" over the WebSocket" if args.ws else " over HTTP")
    runs: list[tuple[str, str | None, bool]] = [(this, None, args.ws)]
    if args.against:
        theirs = args.ws and args.against_ws
        runs = [(f"{args.against} over {'the WebSocket' if theirs else 'HTTP'}", args.against, theirs),
                *runs] * args.rounds
    figures: dict[str, list[tuple[float, float]]] = {}
    for name, source, ws in runs:
        figures.setdefault(name, []).append(measure(args, source, ws, name))
    if args.against:
        (before, old), (after, new) = figures.items()
        for (old_rate, old_cpu), (new_rate, new_cpu) in zip(old, new, strict=True):
            print(f"{after} / {before}: moves/s x{new_rate / old_rate:.2f}, "
                  f"server CPU a move x{new_cpu / old_cpu:.2f}")
    return 0


def fresh_database(stack: ExitStack, store: str) -> str:
    """A new, empty database of the kind asked for, removed when ``stack`` closes."""
    if store == "postgres":
        return stack.enter_context(Cluster(durable=True)).database()
    return str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "bench.sqlite3")


def measure(args: argparse.Namespace, source: str | None, ws: bool, name: str) -> tuple[float, float]:
    """One run of the load on a fresh database against ``source``'s code (None: this checkout's); its
    figures printed, and its moves a second and server CPU milliseconds a move returned."""
    with ExitStack() as stack:
        database = fresh_database(stack, args.store)
        redis_url = stack.enter_context(redis_server(Path(stack.enter_context(
            tempfile.TemporaryDirectory())))) if args.redis else None
        with start_server(database, args.workers, args.coach, redis_url, source) as server:
            spy = None if args.profile is None else subprocess.Popen(
                [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(server.proc.pid),
                 "--subprocesses", "--nonblocking", "--gil", "--format", "raw", "--rate", "200",
                 "--duration", str(round(args.seconds)), "-o", args.profile], stdout=subprocess.DEVNULL)
            load, wall, cpu, own = asyncio.run(run_load(args, server.port, server.proc.pid, ws))
            if spy is not None:
                spy.wait(timeout=60)
        figures = report(load, wall, cpu, args, name)
        print(f"  the clients' own CPU {1000 * own / max(1, len(load.server_ms)):.2f} ms a move")
        return figures


if __name__ == "__main__":
    sys.exit(main())
