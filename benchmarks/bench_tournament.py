"""A hosted tournament of many tables on two server processes: how soon the standings show a round once its
last card is played, on the server and on the entrants' pages, and what a look at the tournament costs.

Registers ``--tables`` × 4 people (alternately through each process), starts a duplicate of one round of
``--boards`` boards: every table opens with its four people away, so computer players (``random``, which
moves at once) take the seats after the grace period and play the boards, the turn timer dealing each next
board. Meanwhile every entrant's page would ask for the tournament every two seconds; here one asker per
process looks every ``--every`` seconds, alternately, and times each look. Reported: each look's time
(p50/p95/p99), and the time from the round's last card (the latest move in the tables' logs, by the
server's clock) to the first look that shows every board counted, and whether every table's every board is
in the standings (nothing lost). Starts its own servers, Redis and a throwaway PostgreSQL cluster
(``--database sqlite`` for one SQLite file instead), and stops them.

``--pages P`` adds P entrants' pages, half on each process, each following the tournament as the page does
(a WebSocket that is sent each change) or, with ``--poll``, as the page did before it could (asking every
two seconds, each from its own moment): reported, the time from the round's last card to each page's
first sight of every board counted (p50/p95). ``--every 0`` leaves out the askers, so that the pages alone
move the tournament on.

    .venv/bin/python benchmarks/bench_tournament.py --tables 64 --boards 1
    .venv/bin/python benchmarks/bench_tournament.py --tables 64 --boards 2 --pages 64 --every 0 [--poll]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from figures import percentiles

from server.pgcluster import Cluster
from server.processes import Served, redis_server
from spades.server.store import open_store

GRACE = 5
"""Seconds before a computer player takes an absent person's seat (the least a table allows)."""


def last_card(database: str, codes: list[str]) -> float:
    """When the latest move of these tables was made (seconds since 1970, as the tables stamp entries)."""
    store = open_store(database)
    store.check()
    try:
        latest = 0.0
        for code in codes:
            found = store.table(code=code)
            assert found is not None
            moves = [json.loads(e) for e in found[1]]
            latest = max([latest, *(e["at"] for e in moves if e["k"] == "move")])
        return latest
    finally:
        store.close()


OVER = '"status":"over"'
"""How a message to a page says that the tournament is over (compact JSON)."""
POLL_EVERY = 2.0
"""Seconds between a polling page's looks, as the page asked before it was sent the changes."""


async def page(base: str, code: str, poll: bool, stop: threading.Event) -> float:
    """An entrant's page: when (``time.time``) it first showed the tournament over (0: never, by ``stop``)."""
    if poll:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            await asyncio.sleep(random.uniform(0, POLL_EVERY))
            while not stop.is_set():
                if (await client.get(f"/api/tournaments/{code}")).json()["status"] == "over":
                    return time.time()
                await asyncio.sleep(POLL_EVERY)
        return 0.0
    async with connect(base.replace("http://", "ws://") + f"/api/tournaments/{code}/live") as ws:
        await ws.send("{}")
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1)
            except TimeoutError:
                continue
            # the status read off the text: parsing every page's messages in this one thread would make
            # the pages wait for each other, where each browser parses its own
            if OVER in text:
                return time.time()
    return 0.0


def pages(bases: list[str], code: str, count: int, poll: bool, stop: threading.Event) -> list[float]:
    """``count`` pages, alternately on each process, in a thread's event loop: when each saw the end."""
    async def run() -> list[float]:
        return list(await asyncio.gather(*(page(bases[i % 2], code, poll, stop) for i in range(count))))
    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--boards", type=int, default=1)
    parser.add_argument("--every", type=float, default=0.1, help="seconds between looks, per process")
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--pages", type=int, default=0, help="entrants' pages following the tournament")
    parser.add_argument("--poll", action="store_true", help="the pages ask every 2 s instead of following")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        if args.database == "postgres":
            database = stack.enter_context(Cluster()).database()
        else:
            database = str(folder / "spades.sqlite3")
        redis_url = stack.enter_context(redis_server(folder / "redis"))
        servers = [stack.enter_context(Served(database, redis_url=redis_url)) for _ in range(2)]
        clients = [stack.enter_context(httpx.Client(base_url=s.url, timeout=60)) for s in servers]
        made = clients[0].post("/api/tournaments", json={
            "name": "Bench", "rounds": 1, "boards": args.boards, "level": "random", "grace": GRACE,
            "turn_seconds": 5})
        made.raise_for_status()
        code, host = made.json()["code"], made.json()["host_token"]
        for i in range(args.tables * 4):
            clients[i % 2].post(f"/api/tournaments/{code}/entries", json={"name": f"P{i}"}).raise_for_status()
        stop, seen = threading.Event(), list[float]()
        follow = threading.Thread(target=lambda: seen.extend(pages([s.url for s in servers], code, args.pages,
                                                                   args.poll, stop)))
        follow.start()
        began = time.perf_counter()
        clients[1].post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": host}).raise_for_status()
        print(f"{args.tables} tables opened in {time.perf_counter() - began:.1f} s", flush=True)
        looks: list[float] = []
        seen_at = 0.0
        t: dict[str, Any] = {}
        k = 0
        while args.every > 0:
            asked = time.perf_counter()
            r = clients[k % 2].get(f"/api/tournaments/{code}")
            looks.append(time.perf_counter() - asked)
            r.raise_for_status()
            t = r.json()
            k += 1
            if t["status"] == "over":
                seen_at = time.time()
                break
            time.sleep(args.every / 2)
        follow.join(timeout=600)
        stop.set()
        t = clients[0].get(f"/api/tournaments/{code}").json()
        codes = [table["code"] for table in t["tables"]]
        card = last_card(database, codes)
        if args.pages:
            print(f"from the round's last card to each of {args.pages} pages showing every board counted "
                  f"({'asking every 2 s' if args.poll else 'sent each change'}): "
                  f"{percentiles([at - card for at in seen if at])}; pages that never saw it: "
                  f"{sum(1 for at in seen if not at)}")
        results = t["results"]
        assert isinstance(results, dict)
        lines = sum(len(b["lines"]) for b in results["travellers"])
        if args.every > 0:
            print(f"looks at the tournament ({args.tables} tables): {percentiles(looks)}")
            print(f"from the round's last card to a look showing every board counted: "
                  f"{(seen_at - card) * 1000:.0f} ms (looks every {args.every / 2:.2f} s across the two "
                  "processes)")
        print(f"traveller lines: {lines} of {args.tables * args.boards}; standings: "
              f"{len(results['standings'])} pairs, boards each: "
              f"{sorted({s['boards'] for s in results['standings']})}")


if __name__ == "__main__":
    main()
