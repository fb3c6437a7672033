"""Two server processes share tables through a real Redis and one store (a SQLite file, or PostgreSQL):
same moves, same order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from server.conftest import query
from server.processes import Served, redis_server
from server.tables_client import Seat, close_at, join, open_table, play_game, run_async, start_game
from server.test_store import count


def moves_seen(seat: Seat) -> list[tuple[Any, ...]]:
    """The game moves a seat was told of (version, seat, kind, card, bids), in the order it heard them."""
    return [(e["seq"], e["game"]["seat"], e["game"]["kind"], e["game"]["card"], tuple(e["game"]["bids"]))
            for m in seat.received if m["type"] == "update" for e in m["events"] if e["game"] is not None]


def test_people_on_two_processes_see_each_others_moves_in_one_order(tmp_path: Path, database: str) -> None:
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as served_a, \
            Served(database, redis_url=redis_url) as served_b:
        a, b = served_a.url, served_b.url
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            host = open_table(ca, "Ann", preset="standard", options={"target": 100, "low_mark": -100},
                              level="easy")
            code = host["code"]
            others = [join(cb, code, "Bob"), join(ca, code, "Cy"), join(cb, code, "Di")]
            assert cb.get(f"/api/tables/{code}").json()["seats"][3]["name"] == "Di"

        async def run() -> list[Seat]:
            seats = [Seat(a, code, host["token"])] + [Seat(b if i % 2 == 0 else a, code, o["token"])
                                                     for i, o in enumerate(others)]
            await start_game(seats)
            await play_game(seats, until_phase="hand_over")
            await close_at(seats, "hand_over")
            return seats

        seats = run_async(run())
        seen = [moves_seen(s) for s in seats]
        firsts = [x[0][0] for x in seen]
        start = max(firsts)
        common: list[Any] = [[m for m in x if m[0] >= start] for x in seen]
        assert len(common[0]) >= 52 and all(c == common[0] for c in common)
        assert all(sorted(x) == x for x in seen)  # each heard the moves in the log's order
    assert query(database, "SELECT version FROM friend_tables WHERE code = ?", (code,)) == [
        (count(database, "friend_entries"),)]  # the table is in the store the processes were given
