"""Server time per human move over real HTTP, with many games played at once.

Starts ``spades serve`` in its own process on a free port with a temporary SQLite file, then
plays whole games from several client threads as the page does (bid, play, next hand), and
prints the server's own time per request (its ``Server-Timing`` header: the move, the engine's
checks, the computer players' replies and the save) and the round trip the client saw.

    .venv/bin/python benchmarks/bench_server.py --games 32 --clients 8 --level normal
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from spades.server.run import free_port


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
    return "play " + state["legal"][len(state["legal"]) // 2]


def play_games(url: str, games: list[int], level: str, server_ms: list[float], client_ms: list[float],
               lock: threading.Lock) -> None:
    """One client: a player token, then whole games of the given deal numbers."""
    with httpx.Client(base_url=url, timeout=60) as c:
        token = c.post("/api/players").json()["token"]
        h = {"X-Player-Token": token}
        c.put("/api/settings", json={"level": level, "speed": "instant"}, headers=h).raise_for_status()
        for deal in games:
            state = c.post("/api/games", json={"deal": deal}, headers=h).json()["state"]
            while state["phase"] != "game_over":
                if state["phase"] == "hand_over":
                    path, body = f"/api/games/{state['id']}/next", {"version": state["version"]}
                else:
                    path = f"/api/games/{state['id']}/moves"
                    body = {"move": choose(state), "version": state["version"]}
                start = time.perf_counter()
                r = c.post(path, json=body, headers=h)
                took = (time.perf_counter() - start) * 1000
                r.raise_for_status()
                dur = float(r.headers["Server-Timing"].split("dur=")[1])
                with lock:
                    server_ms.append(dur)
                    client_ms.append(took)
                state = r.json()["state"]


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=32, help="whole games to play (default 32)")
    ap.add_argument("--clients", type=int, default=8, help="games played at once (default 8)")
    ap.add_argument("--level", default="normal", help="the computer players' level (default normal)")
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "spades.cli", "serve", "--port", str(port),
                                 "--db", str(Path(tmp) / "bench.sqlite3")], stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    httpx.get(url + "/api/rules", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            server_ms: list[float] = []
            client_ms: list[float] = []
            lock = threading.Lock()
            deals = [1000 + i for i in range(args.games)]
            threads = [threading.Thread(target=play_games, args=(url, deals[i::args.clients], args.level,
                                                                 server_ms, client_ms, lock))
                       for i in range(args.clients)]
            start = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"{args.games} games, {args.clients} at once, level {args.level}: {len(server_ms)} moves "
          f"in {wall:.1f} s ({len(server_ms) / wall:.0f} moves/s)")
    for name, values in (("server time", server_ms), ("round trip", client_ms)):
        p50, p95, p99 = (percentile(values, q) for q in (50, 95, 99))
        print(f"  {name:>11} per move: p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   p99 {p99:6.1f} ms"
              f"   mean {statistics.fmean(values):6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
