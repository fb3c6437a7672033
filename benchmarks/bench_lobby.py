"""Quick game under load: N people pressing Quick game over a minute, on two server processes.

Each person presses on one process or the other (alternately), then asks where they stand every second,
as the page does, on the same process, until seated. Measures the time to be seated of the person whose
press finds three others of a similar rating waiting (their press forms the table: the answer they get),
as p50/p95/p99, and of everyone (from pressing to the answer that seats them); counts the tables formed
and checks that nobody is seated twice: every person seated once, no seat given twice, and each table's
people, as the table itself shows them, exactly those told they sit there. Then the cost of a game's
rating update: a table's append that ends a rated game (which rates it, in the same transaction) against
the same append unrated, on the same database. Starts its own servers, Redis
and a throwaway PostgreSQL cluster (``--database sqlite`` for one SQLite file instead), and stops them.

    .venv/bin/python benchmarks/bench_lobby.py --people 1000 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from figures import percentiles

from server.pgcluster import Cluster
from server.processes import Served, redis_server
from spades.ratings import GameResult
from spades.server.store import open_store

ASK_EVERY = 1.0
"""Seconds between a waiting person's asks, as the page's."""


async def person(client: httpx.AsyncClient, token: str, name: str, at: float, start: float,
                 out: dict[str, Any]) -> None:
    """Press at ``at`` seconds after ``start``, then ask every second until seated; what was told, kept."""
    await asyncio.sleep(max(0.0, start + at - time.perf_counter()))
    headers = {"X-Player-Token": token}
    pressed = time.perf_counter()
    r = await client.post("/api/quick", json={"name": name}, headers=headers)
    r.raise_for_status()
    told = r.json()
    out["formed"] = told["status"] == "seated"
    while told["status"] != "seated":
        await asyncio.sleep(ASK_EVERY)
        r = await client.get("/api/quick", headers=headers)
        r.raise_for_status()
        told = r.json()
    out.update(seconds=time.perf_counter() - pressed, code=told["code"], seat=told["seat"], name=name)


async def run(urls: list[str], people: int, seconds: float) -> None:
    """The people's presses and asks against the servers at ``urls``; the figures printed, then checked."""
    limits = httpx.Limits(max_connections=200)
    clients = [httpx.AsyncClient(base_url=u, timeout=60, limits=limits) for u in urls]
    try:
        tokens = []
        for i in range(people):
            r = await clients[i % len(clients)].post("/api/players")
            tokens.append(r.json()["token"])
        outs: list[dict[str, Any]] = [{} for _ in range(people)]
        start = time.perf_counter()
        await asyncio.gather(*(person(clients[i % len(clients)], tokens[i], f"P{i}", i * seconds / people,
                                      start, outs[i]) for i in range(people)))
        elapsed = time.perf_counter() - start
        formed = [o["seconds"] for o in outs if o["formed"]]
        print(f"{people} people pressed over {seconds:g} s on {len(urls)} processes; "
              f"all seated after {elapsed:.1f} s")
        print("time to be seated when three others wait (the press that forms a table): "
              f"{percentiles(formed)}")
        print(f"time to be seated, everyone (pressed to seated, asking every {ASK_EVERY:g} s): "
              f"{percentiles([o['seconds'] for o in outs])}")
        await check(clients[0], outs)
    finally:
        for c in clients:
            await c.aclose()


async def check(client: httpx.AsyncClient, outs: list[dict[str, Any]]) -> None:
    """Nobody seated twice: each seated once, no seat given twice, each table's people those told so."""
    seats = Counter((o["code"], o["seat"]) for o in outs)
    assert all(n == 1 for n in seats.values()), "a seat given twice"
    tables: dict[str, set[str]] = {}
    for o in outs:
        tables.setdefault(o["code"], set()).add(o["name"])
    sizes = Counter(len(names) for names in tables.values())
    for code, names in tables.items():
        shown = (await client.get(f"/api/tables/{code}")).json()["seats"]
        assert {s["name"] for s in shown if s["person"]} == names, f"table {code} seats others than told"
    kinds = ", ".join(f"{n} of {k} people" for k, n in sorted(sizes.items()))
    print(f"tables formed: {len(tables)} ({kinds}); "
          f"nobody seated twice (checked: {len(outs)} people, {len(seats)} seats, each table's people)")


def rating_cost(database: str | Path, games: int) -> None:
    """The time of the append that ends a rated game (rating four people in its transaction), against the
    same append unrated, each on a table of its own, alternately."""
    store = open_store(database)
    store.check()
    entry = [json.dumps({"k": "chat", "n": 0})]
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for i in range(2 * games):
            rated = i % 2 == 0
            code = secrets.token_hex(4)
            store.add_table(code=code, options="{}")
            seats = tuple(secrets.token_hex(8) for _ in range(4))
            result = GameResult(rules="standard", game=f"table {code} 1", seats=seats, sides=(0, 1, 0, 1),
                                places=(0, 1)) if rated else None
            began = time.perf_counter()
            assert store.append_table(code=code, version=0, entries=entry, rated=result)
            times[rated].append(time.perf_counter() - began)
    finally:
        store.close()
    with_rating, without = statistics.median(times[True]), statistics.median(times[False])
    print(f"a game's rating update: {(with_rating - without) * 1000:.2f} ms (median append that ends a rated "
          f"game {with_rating * 1000:.2f} ms, the same unrated {without * 1000:.2f} ms; {games} games each)")


def main() -> None:
    """Start the database, Redis and the servers, run the people, then time the rating's cost."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--people", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=60.0, help="the presses spread evenly over this long")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    p.add_argument("--rated-games", type=int, default=200, help="appends timed for the rating's cost")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        if args.database == "postgres":
            database: str | Path = stack.enter_context(Cluster(durable=True)).database()
        else:
            database = Path(folder) / "spades.sqlite3"
        redis_url = stack.enter_context(redis_server(Path(folder) / "redis"))
        urls = [stack.enter_context(Served(database, redis_url=redis_url)).url for _ in range(args.processes)]
        asyncio.run(run(urls, args.people, args.seconds))
        rating_cost(database, args.rated_games)


if __name__ == "__main__":
    main()
