"""Who is at a friends' table when several server processes serve it: a process killed without a goodbye
leaves no one "here" (its lease in the store expires), and a page open on another process keeps its
person here."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from server.conftest import query
from server.processes import Served, redis_server
from server.tables_client import Seat, join, open_table, play_game, run_async, start_game
from spades.server.store import open_store
from spades.server.tables.leases import LEASE, Leases


def test_a_lease_is_read_on_the_databases_clock_and_judged_only_by_a_live_process(database: str) -> None:
    """A process without a lease, or with one older than ``LEASE``, is dead; one that renewed it is not;
    a process that has not renewed its own judges no one; a lease dead an hour is deleted. The clock
    has them judged once a heartbeat."""
    store = open_store(database)
    store.check()
    try:
        judge, other = Leases(store, "judge"), Leases(store, "other")
        assert judge.judging() and not judge.judging()  # judged once a heartbeat, not at every tick
        assert judge.dead({"other", "gone"}) == set()  # not renewed its own lease: cut off, it judges no one
        judge.renew()
        other.renew()
        assert 0 <= store.beats(processes=["other", "gone"])["other"] < LEASE
        assert judge.dead({"judge", "other", "gone"}) == {"gone"}  # no lease: dead; itself, never
        query(database, "UPDATE server_processes SET beat = beat - ? WHERE process = 'other'", (LEASE,))
        late = Leases(store, "late")  # one that has not heard of "other" yet reads its expired lease
        late.renew()
        assert late.dead({"other"}) == {"other"}
        other.renew()
        assert late.dead({"other"}) == set()  # renewed: alive again
        query(database, "UPDATE server_processes SET beat = beat - 7200 WHERE process = 'other'")
        judge.renew()
        assert query(database, "SELECT process FROM server_processes ORDER BY process") == [("judge",),
                                                                                            ("late",)]
    finally:
        store.close()


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


def news_of(seat: Seat, who: int) -> list[str]:
    """The kinds of the events about seat ``who`` the connection was told of, in order."""
    return [e["kind"] for m in seat.received if m["type"] == "update" for e in m["events"]
            if e["seat"] == who]


def test_a_page_open_on_another_process_keeps_its_person_here(tmp_path: Path, database: str) -> None:
    """Bob has a page open through process A, then a newer one through B; closing the newer one makes B
    mark him away, and A, where his older page is still open, says at once that he is back. Once that
    one closes too he is away for good, and a computer player takes his seat."""
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a, \
            Served(database, redis_url=redis_url) as b:
        with httpx.Client(base_url=a.url) as client:
            host = open_table(client, "Ann", level="easy", grace=5)
            code = host["code"]
            bob = join(client, code, "Bob")
        n = bob["seat"]
        ann = Seat(a.url, code, host["token"])
        older, newer = Seat(a.url, code, bob["token"]), Seat(b.url, code, bob["token"])

        async def run() -> None:
            for s in (ann, older, newer):
                await s.connect()
                await s.until(bool)
            await older.until(lambda _: news_of(older, n)[-1:] == ["back"])  # B has him now
            await newer.close()
            while news_of(older, n)[-2:] != ["away", "back"]:
                msg = await older.recv(timeout=60)
                assert msg["type"] != "error", msg
            assert not older.table["seats"][n]["away"]
            await older.close()
            await ann.until(lambda t: t["seats"][n]["bot"], timeout=60)  # away for good: covered
            assert news_of(ann, n)[-3:] == ["back", "away", "bot"]
            await ann.close()

        run_async(run())
