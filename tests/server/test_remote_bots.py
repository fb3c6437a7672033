"""Remote bots: a bot account connects over the real WebSocket with its token, is offered to friends'
tables while connected, plays its seats in the protocol's messages (each checked against its schema),
and a bot that leaves mid-hand is replaced by the normal level; bad tokens are refused."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.pgcluster import Cluster
from server.processes import Served, redis_server
from server.remote_bot import bot_account, bot_connection, run_bot, wait_offered
from server.tables_client import Seat, app_state, open_table, play_alone, run_async
from spades.ratings import PROVISIONAL_GAMES, GameResult, computer
from spades.server.accounts.service import Accounts
from spades.server.run import BackgroundServer
from spades.server.store import open_store


@pytest.mark.parametrize(("leaves_after", "illegal", "late_first"),
                         [(None, False, 0), (3, False, 0), (None, True, 0), (None, False, 2.5)])
def test_a_bot_account_plays_a_hand_at_a_friends_table(tmp_path: Path, leaves_after: int | None,
                                                       illegal: bool, late_first: float) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        bot = bot_account(client, "Robo_1")
        assert bot["level"] == "bot-robo_1"
        r = client.post("/api/tables", json={"name": "Ann", "level": bot["level"]})
        assert r.status_code == 400 and "bot-robo_1" not in r.json()["detail"]  # not connected: not offered
        received: list[dict[str, Any]] = []

        async def play() -> None:
            ws = await bot_connection(server.url, bot["token"])
            playing = asyncio.create_task(run_bot(ws, received, leaves_after, illegal, late_first))
            await asyncio.to_thread(wait_offered, client, bot["level"])
            host = await asyncio.to_thread(open_table, client, level=bot["level"])
            seat = Seat(server.url, host["code"], host["token"])
            await play_alone(seat)
            await ws.close()
            await playing
            assert seat.table["level"] == bot["level"]
            assert [s["bot"] for s in seat.table["seats"]] == [False, True, True, True]
            assert [s["name"] for s in seat.table["seats"][1:]] == [f"Bot robo_1 ({s})"
                                                                     for s in ("East", "South", "West")]

        run_async(play())
        remotes = app_state(server).roster.remotes
        decides = [m for m in received if m["type"] == "decide"]
        hellos = [m for m in received if m["type"] == "hello"]
        assert {m["seat"] for m in hellos} == {1, 2, 3}
        first = {m["view"]["seat"]: set(m["view"]["hand"]) for m in reversed(decides)}
        assert sorted(first) == [1, 2, 3] and all(len(h) == 13 for h in first.values())
        assert len(set.union(*first.values())) == 39  # each seat's own hand only, never another's
        refusals = [m for m in received if m["type"] == "refused"]
        if illegal:  # each illegal answer refused and counted, the normal level's move played instead
            assert refusals and all(m["fault"] == "illegal" and m["reason"].startswith("play 2C")
                                    for m in refusals)
            assert remotes.fault_count == len(refusals) and {f.kind for f in remotes.faults} == {"illegal"}
        elif late_first:  # its first answer came too late: replaced, skipped when it came; then on time
            assert [(f.kind, f.decision) for f in remotes.faults] == [("late", 1)] and not refusals
            assert len(decides) >= 3 * 13
        elif leaves_after is None:
            assert len(decides) >= 3 * 13 and remotes.fault_count == 0 and not refusals
        else:  # it left: the normal level played its seats, each decision reported
            assert len(decides) == leaves_after + 1
            assert remotes.fault_count > 0 and {f.kind for f in remotes.faults} <= {"absent", "crash"}
        assert bot["level"] not in client.get("/api/rules").json()["bots"]


def test_a_bot_connected_to_one_process_plays_at_a_table_of_another(tmp_path: Path,
                                                                      pg_cluster: Cluster) -> None:
    """Two ``spades serve`` processes with Redis: the bot's socket is on A, the table is opened and played
    on B, and B's computer seats are the bot's (asked through Redis), each seat its own hand only."""
    database = pg_cluster.database()
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a, \
            Served(database, redis_url=redis_url) as b, httpx.Client(base_url=b.url, timeout=30) as client:
        bot = bot_account(client, "Faraway")
        received: list[dict[str, Any]] = []

        async def play() -> None:
            ws = await bot_connection(a.url, bot["token"])
            playing = asyncio.create_task(run_bot(ws, received, None))
            await asyncio.to_thread(wait_offered, client, bot["level"])
            host = await asyncio.to_thread(open_table, client, level=bot["level"])
            seat = Seat(b.url, host["code"], host["token"])
            await play_alone(seat)
            await ws.close()
            await playing
            assert [s["bot"] for s in seat.table["seats"]] == [False, True, True, True]

        run_async(play())
        decides = [m for m in received if m["type"] == "decide"]
        assert {m["seat"] for m in received if m["type"] == "hello"} == {1, 2, 3}
        assert len(decides) >= 3 * 13 and not [m for m in received if m["type"] == "refused"]
        assert [m["id"] for m in decides] == list(range(1, len(decides) + 1))
        first = {m["view"]["seat"]: set(m["view"]["hand"]) for m in reversed(decides)}
        assert len(set.union(*first.values())) == 39  # each seat's own hand only, never another's
        deadline = time.monotonic() + 10  # once it left A, B no longer offers it
        while bot["level"] in client.get("/api/rules").json()["bots"]:
            assert time.monotonic() < deadline, "the bot was still offered after it left"
            time.sleep(0.05)


def test_the_example_bridge_plays_the_example_bot_as_a_bot_account(tmp_path: Path) -> None:
    examples = Path(__file__).parents[2] / "examples" / "bots"
    with BackgroundServer(tmp_path / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        bot = bot_account(client, "Bridged")
        bridge = subprocess.Popen([sys.executable, str(examples / "remote.py"), server.url, bot["token"],
                                   sys.executable, str(examples / "bot.py")])
        try:
            wait_offered(client, bot["level"])
            host = open_table(client, level=bot["level"])
            seat = Seat(server.url, host["code"], host["token"])

            run_async(play_alone(seat))
            remotes = app_state(server).roster.remotes
            assert remotes.fault_count == 0 and remotes.get(bot["level"]).decisions >= 3 * 13
        finally:
            bridge.terminate()
            bridge.wait(timeout=10)


def test_bad_tokens_are_refused_with_a_reason(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        bot = bot_account(client, "Robo2")
        again = client.post("/api/account/bot", headers={"X-Player-Token": "x" * 48})
        assert again.status_code == 401
        player = {"X-Player-Token": client.post("/api/players").json()["token"]}
        r = client.post("/api/account/bot", headers=player)  # no account yet
        assert r.status_code == 409 and "no account" in r.json()["detail"]
        client.post("/api/account", json={"name": "dotted.name"}, headers=player)
        r = client.post("/api/account/bot", headers=player)
        assert r.status_code == 422 and "ASCII" in r.json()["detail"]

        async def refused(first: str) -> tuple[int | None, str]:
            ws = await connect(server.url.replace("http://", "ws://") + "/api/bots/live")
            await ws.send(first)
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None
            return closed.value.rcvd.code, closed.value.rcvd.reason

        for first in ("not json", json.dumps({"token": 5}), json.dumps({"token": "nope"}),
                      json.dumps({"token": bot["token"] + "x"})):
            code, reason = run_async(refused(first))
            assert code == 4401 and "bot account's token" in reason
        assert bot["level"] not in client.get("/api/rules").json()["bots"]


def test_a_remote_bot_is_rated_at_a_rated_table_as_its_account_marked_a_bot(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        bot = bot_account(client, "Robo_4")
        player = {"X-Player-Token": client.post("/api/players").json()["token"]}
        r = client.post("/api/account", json={"name": "Bot-Ann"}, headers=player)
        assert r.status_code == 422 and "remote bots" in r.json()["detail"]
        received: list[dict[str, Any]] = []

        async def play() -> None:
            ws = await bot_connection(server.url, bot["token"])
            playing = asyncio.create_task(run_bot(ws, received, None))
            await asyncio.to_thread(wait_offered, client, bot["level"])
            r = await asyncio.to_thread(client.post, "/api/tables", headers=player, json={
                "name": "Ann", "level": bot["level"], "rated": True,
                "options": {"target": 10, "low_mark": -10}})
            assert r.status_code == 201, r.text
            seat = Seat(server.url, r.json()["code"], r.json()["token"])
            await play_alone(seat, until_phase="game_over")
            await ws.close()
            await playing

        run_async(play())
        profile = client.get(f"/api/profiles/{bot['level']}").json()  # rated as its account, a bot
        assert profile["bot"] and not profile["computer"] and profile["name"] == "Robo_4"
        assert [(r["rules"], r["games"]) for r in profile["ratings"]] == [("standard", 1)]
        assert client.get("/api/profiles/Robo_4").json() == profile
        assert client.get("/api/profiles/computer:bot-robo_4").status_code == 404
        assert not client.get("/api/profiles/normal").json()["bot"]


def test_a_bots_token_is_kept_hashed_replaced_and_ended(database: str) -> None:
    store = open_store(database)
    store.check()
    try:
        accounts = Accounts(store)
        store.add_player(token="p" * 48)
        accounts.create("p" * 48, "Robo3", None)
        first = accounts.make_bot("p" * 48)
        assert accounts.bot(first.token) == first.level == "bot-robo3"
        assert store.bot_by_token(token_hash=first.token) is None  # only its hash finds it
        second = accounts.make_bot("p" * 48)
        assert accounts.bot(first.token) is None and accounts.bot(second.token) == "bot-robo3"
        accounts.sign_out_everywhere("p" * 48)
        assert accounts.bot(second.token) is None
        third = accounts.make_bot("p" * 48)
        run_async(accounts.delete("p" * 48, None))  # the account has no password to give
        assert accounts.bot(third.token) is None
    finally:
        store.close()


def test_a_bot_account_is_on_the_leaderboard_marked_a_bot(database: str) -> None:
    store = open_store(database)
    store.check()
    try:
        accounts = Accounts(store)
        store.add_player(token="b" * 48)
        accounts.create("b" * 48, "Robo5", None)
        accounts.make_bot("b" * 48)
        bot = store.bot_by_name(name_key="robo5")
        assert bot is not None and bot.name == "Robo5" and store.bot_by_name(name_key="robo6") is None
        expert = computer("expert")
        for i in range(PROVISIONAL_GAMES):
            code = f"B{i:05d}"
            assert store.add_table(code=code, options="{}")
            rated = GameResult(rules="standard", game=f"table {code} 1", sides=(0, 1, 0, 1), places=(0, 1),
                               seats=(bot.player_hash, expert, bot.player_hash, expert))
            assert store.append_table(code=code, version=0, entries=[json.dumps({"k": "x"})], rated=rated)
        board = store.leaderboard(rules="standard", limit=5)
        assert [(player, name, marked) for player, _, name, marked in board] == [
            (bot.player_hash, "Robo5", True), (expert, None, False)]
    finally:
        store.close()
