"""Who is at a friends' table when several server processes serve it: a process killed without a goodbye
leaves no one "here" (its lease in the store expires), and a page open on another process keeps its
person here."""

from __future__ import annotations

import json

import httpx

from server.conftest import query
from server.processes import Served
from server.tables_client import Seat, join, open_table, play_game, run_async, start_game


def moves_by(seat: Seat, who: int, since: int) -> int:
    """How many game moves of seat ``who`` from version ``since`` on the connection was told of."""
    return sum(1 for m in seat.received if m["type"] == "update" for e in m["events"]
               if e["game"] is not None and e["seat"] == who and e["seq"] >= since)


def test_a_killed_process_leaves_no_one_here_and_a_computer_player_takes_over(database: str) -> None:
    """Bob's page connects through process A, which is killed (kill -9): process B, where Ann plays, marks
    him away once A's lease has expired, and after the grace period a computer player plays for him. No
    Redis: the leases are in the store, and each process reads the other's changes there."""
    with Served(database) as served_b:
        served_a = Served(database)
        try:
            with httpx.Client(base_url=served_b.url) as cb, httpx.Client(base_url=served_a.url) as ca:
                host = open_table(cb, "Ann", level="easy", grace=5)
                code = host["code"]
                bob = join(ca, code, "Bob")
            ann, bobs = Seat(served_b.url, code, host["token"]), Seat(served_a.url, code, bob["token"])
            b = bob["seat"]

            async def run() -> None:
                await start_game([ann, bobs])
                killed = ann.table["seq"]
                served_a.kill()
                await ann.until(lambda t: t["seats"][b]["away"], timeout=60)
                await ann.until(lambda t: t["seats"][b]["bot"], timeout=60)
                await play_game([ann], until_phase="hand_over", seconds=240)
                assert moves_by(ann, b, killed) > 0  # the computer player played Bob's cards
                await ann.close()

            run_async(run())
        finally:
            served_a.kill()
    entries = [json.loads(r[0]) for r in query(database, "SELECT entry FROM friend_entries WHERE code = ?",
                                               (code,))]
    assert sum(e["k"] == "away" and e["seat"] == b for e in entries) == 1  # one process marked him, once
