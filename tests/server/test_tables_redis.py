"""Two server processes share tables through a real Redis and one store (a SQLite file, or PostgreSQL):
same moves, same order; and a Redis that stops answering, or dies, holds up no move."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import queue
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from server.api_client import simple_move
from server.conftest import query
from server.processes import RedisServer, Served, SilentCut, redis_server
from server.tables_client import ACTIVE, Seat, close_at, join, open_table, play_game, run_async, start_game
from server.test_store import count
from spades.bots import hint
from spades.rules import Rules
from spades.server.tables import events
from spades.server.tables.commands import MakeMove, Start
from spades.server.tables.entries import entries_of, entry_json
from spades.server.tables.events import Carried, RedisBus
from spades.server.tables.table import FriendsTable, TableOptions
from spades.server.tables.views import tell_move


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


def two_people(a: str, b: str) -> list[Seat]:
    """Ann opens a table on process ``a``, Bob sits down on process ``b``; quick computer players (their
    moves run on the event loop, as a quick table's work does) take the other seats at the start."""
    with httpx.Client(base_url=a) as ca, httpx.Client(base_url=b) as cb:
        host = open_table(ca, "Ann", level="easy")
        bob = join(cb, host["code"], "Bob")
    return [Seat(a, host["code"], host["token"]), Seat(b, host["code"], bob["token"])]


async def seen_by_all(seats: list[Seat], seq: int, timeout: float) -> None:
    """Every seat has heard of version ``seq`` of the table."""
    for s in seats:
        await s.until(lambda t: t["seq"] >= seq, timeout)


def whose_turn(seats: list[Seat]) -> tuple[Seat, Seat]:
    """The person whose turn it is (the computer players move at once), and the other."""
    game = seats[0].table["game"]
    assert game["phase"] in ACTIVE, game
    mover = next(s for s in seats if s.table["you"] == game["turn"])
    return mover, next(s for s in seats if s is not mover)


async def move(seat: Seat) -> int:
    """The seat's move, sent with an id: answered ``ok``, then the table's version after it (and after
    the computer players' moves it brought)."""
    game, before = seat.table["game"], seat.table["seq"]
    await seat.send({"do": "move", "move": simple_move(game), "version": game["version"], "id": "m"})
    ok = False
    while not ok or seat.table["seq"] <= before:
        msg = await seat.recv(timeout=2)
        assert msg["type"] != "error", msg
        ok = ok or msg == {"type": "ok", "id": "m"}
    seq: int = seat.table["seq"]
    return seq


def heard_from_redis(listener: Any, seq: int, timeout: float = 5) -> None:
    """A message on the table's channel announces version ``seq`` or later (a process published it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        message = listener.get_message(timeout=0.2)
        if message is not None and message["type"] == "message" and int(message["data"].split()[0]) >= seq:
            return
    raise AssertionError(f"no announcement of version {seq} came through Redis")


def subscribed_processes(url: str) -> int:
    """How many connections to Redis listen to the tables' channels."""
    with redis.Redis.from_url(url) as client:
        return sum(1 for c in client.client_list() if int(c["psub"]) > 0)


def test_a_paused_redis_holds_up_no_move_and_the_move_is_announced_once_it_answers(tmp_path: Path) -> None:
    db = tmp_path / "spades.sqlite3"
    with RedisServer(tmp_path / "redis") as server, Served(db, redis_url=server.url) as served_a, \
            Served(db, redis_url=server.url) as served_b, redis.Redis.from_url(server.url) as client:
        seats = two_people(served_a.url, served_b.url)
        listener = client.pubsub()
        listener.subscribe("spades:tables:" + seats[0].code)

        async def run() -> None:
            await start_game(seats)
            await seen_by_all(seats, seats[0].table["seq"], 5)
            mover, other = whose_turn(seats)
            server.pause()
            try:  # on the event loop: the move, and the health check meanwhile, are answered at once
                seq = await move(mover)
                async with httpx.AsyncClient() as http:
                    assert (await http.get(mover.base + "/healthz", timeout=2)).status_code == 200
            finally:
                server.resume()
            await asyncio.to_thread(heard_from_redis, listener, seq)
            await seen_by_all([other], seq, 5)
            for s in seats:
                await s.close()

        run_async(run())
        listener.close()


def test_a_move_is_stored_while_redis_is_dead_and_events_flow_once_it_is_back(tmp_path: Path,
                                                                              database: str) -> None:
    with RedisServer(tmp_path / "redis") as server, Served(database, redis_url=server.url) as served_a, \
            Served(database, redis_url=server.url) as served_b:
        seats = two_people(served_a.url, served_b.url)
        code = seats[0].code

        async def run() -> None:
            await start_game(seats)
            await seen_by_all(seats, seats[0].table["seq"], 5)
            server.kill()
            seq = await move(whose_turn(seats)[0])  # answered ok on the same socket: no 500, no drop
            assert query(database, "SELECT version FROM friend_tables WHERE code = ?", (code,)) == [(seq,)]
            server.start()
            end = time.monotonic() + 5
            while subscribed_processes(server.url) < 2:  # both processes' listeners subscribed again
                assert time.monotonic() < end, "the processes did not subscribe again"
                await asyncio.sleep(0.1)
            await seen_by_all(seats, seq, 5)
            with redis.Redis.from_url(server.url) as client:
                listener = client.pubsub()
                listener.subscribe("spades:tables:" + code)
                mover, other = whose_turn(seats)
                seq = await move(mover)
                await asyncio.to_thread(heard_from_redis, listener, seq)  # the process publishes again
                listener.close()
            await seen_by_all([other], seq, 5)
            for s in seats:
                await s.close()

        run_async(run())


def test_the_bus_hears_an_older_process_and_says_once_that_it_ignores_strays(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """While an upgrade rolls, an older process publishes a table's version alone: it is heard as an event.
    Messages on the tables' channels that are no events are said in the log once and ignored, and the
    listening thread goes on hearing the events after them."""
    caplog.set_level(logging.WARNING, logger="spades.tables")
    with redis_server(tmp_path / "redis") as url, redis.Redis.from_url(url) as client:
        bus = RedisBus(url)
        heard: queue.Queue[tuple[str, int]] = queue.Queue()
        bus.listen(lambda code, seq, entries: heard.put((code, seq)))
        try:
            end = time.monotonic() + 10
            while client.publish("spades:tables:ABC234", b"7") == 0:  # until the bus has subscribed
                assert time.monotonic() < end, "the bus did not subscribe"
                time.sleep(0.05)
            assert heard.get(timeout=10) == ("ABC234", 7)
            for stray in (b"", b"x", b"-3", b"7 a b", b"\xff", b"7\n"):
                assert client.publish("spades:tables:ABC234", stray) == 1
            client.publish("spades:tables:ABC234", b"8 " + b"f" * 16)  # as a process of this Spades sends it
            assert heard.get(timeout=10) == ("ABC234", 8)
            assert heard.empty()
        finally:
            bus.close()
    strays = [r for r in caplog.records if "is no table event" in r.getMessage()]
    assert len(strays) == 1 and "b''" in strays[0].getMessage()


def test_a_listening_connection_cut_off_without_a_word_is_noticed_and_made_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A partition can leave the bus's connection open but dead, with no error on either end: the bus
    asks it for a ping once it has been quiet a while, and when no answer comes it connects anew
    (through the same address) and hears the other processes' events again."""
    monkeypatch.setattr(events, "_QUIET", 0.5)
    with RedisServer(tmp_path / "redis") as server, SilentCut(server.port) as relay, \
            redis.Redis.from_url(server.url) as client:
        bus = RedisBus(f"redis://127.0.0.1:{relay.port}/0")
        heard: queue.Queue[tuple[str, int]] = queue.Queue()
        bus.listen(lambda code, seq, entries: heard.put((code, seq)))

        def announce(seq: int) -> None:
            """Publish version ``seq`` as another process would until the bus hears it."""
            end = time.monotonic() + 20
            while True:
                client.publish("spades:tables:ABC234", f"{seq} {'f' * 16}")
                try:
                    assert heard.get(timeout=0.5) == ("ABC234", seq)
                    return
                except queue.Empty:
                    assert time.monotonic() < end, f"the bus never heard version {seq}"

        try:
            announce(1)
            relay.cut()
            announce(2)
        finally:
            bus.close()


def test_the_entries_an_event_carries_reach_the_other_process_as_they_were_stored(tmp_path: Path) -> None:
    """What one process's bus publishes another's hears: each table's version with the entries that
    brought it there (any text in them, spaces and all), events sent together joined into one; and a
    process from before the entries were carried still reads the version and a sender not its own."""
    with redis_server(tmp_path / "redis") as url:
        sender, hearer = RedisBus(url), RedisBus(url)
        heard: queue.Queue[tuple[str, int, list[Any]]] = queue.Queue()
        hearer.listen(lambda code, seq, entries: heard.put((code, seq, list(entries))))
        log = entries_of([{"k": "join", "seat": 1, "name": "Bo  \"B\" 🂡", "tok": "0f", "at": 1.5},
                          {"k": "chat", "seat": 1, "text": "hi there:\tall [of] you\n", "at": 2.0},
                          {"k": "react", "seat": 0, "r": "gg", "at": 2.5}])
        try:
            end = time.monotonic() + 10
            while subscribed_processes(url) < 2:  # both buses listen
                assert time.monotonic() < end, "the buses did not subscribe"
                time.sleep(0.05)
            for seq in range(1, len(log) + 1):
                sender.publish("ABC234", seq, log[seq - 1:seq])
            last = 0
            while last < len(log):
                code, last, entries = heard.get(timeout=10)
                assert code == "ABC234" and entries and entries == log[last - len(entries):last]
            with redis.Redis.from_url(url) as client, client.pubsub() as listener:
                listener.subscribe("spades:tables:ABC234")
                listener.get_message(timeout=5)  # subscribed
                sender.publish("ABC234", 4, [log[2]])
                message = None
                while message is None or message["type"] != "message":
                    message = listener.get_message(timeout=5)
            older = re.fullmatch(rb"(\d+)(?: (\S+))?", message["data"])  # an older Spades's reading:
            assert older is not None and older.group(1) == b"4" and b":[" in older.group(2)  # no one's id
        finally:
            sender.close()
            hearer.close()


def test_an_event_the_bus_cannot_write_is_dropped_and_the_next_still_goes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A fault of ours writing one event (here an entry holding what JSON cannot say) is logged and that
    event dropped: the sender goes on, and the next event reaches the other process."""
    with redis_server(tmp_path / "redis") as url:
        sender, hearer = RedisBus(url), RedisBus(url)
        heard: queue.Queue[tuple[str, int]] = queue.Queue()
        hearer.listen(lambda code, seq, entries: heard.put((code, seq)))
        chat = entries_of([{"k": "chat", "seat": 1, "text": "hi", "at": 2.0}])[0]
        try:
            end = time.monotonic() + 10
            while subscribed_processes(url) < 2:  # both buses listen
                assert time.monotonic() < end, "the buses did not subscribe"
                time.sleep(0.05)
            with caplog.at_level(logging.ERROR, logger="spades.tables"):
                sender.publish("BAD234", 1, [dataclasses.replace(chat, text=object())])  # type: ignore[call-arg]
                end = time.monotonic() + 10
                while "could not be published" not in caplog.text:
                    assert time.monotonic() < end, "the fault was not logged"
                    time.sleep(0.05)
            sender.publish("ABC234", 2, [chat])
            assert heard.get(timeout=10) == ("ABC234", 2)
        finally:
            sender.close()
            hearer.close()


def test_a_moves_event_rides_with_its_entry_between_processes(tmp_path: Path) -> None:
    """A move's event as the process that made it told it reaches the other with its entry; one that is
    not as the bus writes it reaches it as none (the hearer then makes its own)."""
    table = FriendsTable("ABC234", TableOptions(Rules.from_dict({"preset": "standard"})), lambda: 0.0,
                         teller=tell_move)
    seats = [table.join(name)[1] for name in ("Ann", "Bo", "Cy", "Di")]
    table.run(seats[0], Start())
    before = table.seq
    for _ in range(2):
        game = table.game
        assert game is not None and game.turn is not None
        table.run(game.turn, MakeMove(move=str(hint(game.view(game.turn), "normal").move),
                                      version=len(game.log)))
    carried = Carried(table.entries[before:], table.told_since(before) or ())
    assert len(carried) == 2 and all(told is not None for told in carried.told)
    with redis_server(tmp_path / "redis") as url:
        sender, hearer = RedisBus(url), RedisBus(url)
        heard: queue.Queue[tuple[int, Any]] = queue.Queue()
        hearer.listen(lambda code, seq, entries: heard.put((seq, entries)))
        try:
            end = time.monotonic() + 10
            while subscribed_processes(url) < 2:  # both buses listen
                assert time.monotonic() < end, "the buses did not subscribe"
                time.sleep(0.05)
            sender.publish("ABC234", table.seq, carried)
            seq, entries = heard.get(timeout=10)
            assert seq == table.seq and isinstance(entries, Carried)
            assert entries == carried and entries.told == carried.told
            garbled = json.dumps([{**entry_json(carried[0]), "told": ["{", 3, []]}],
                                 separators=(",", ":")).replace(" ", "\\u0020")  # as the bus writes it
            with redis.Redis.from_url(url) as client:
                client.publish("spades:tables:ABC234", f"{table.seq + 1} {'f' * 16}:{garbled}")
            seq, entries = heard.get(timeout=10)
            assert seq == table.seq + 1 and entries == carried[:1] and entries.told == [None]
        finally:
            sender.close()
            hearer.close()
