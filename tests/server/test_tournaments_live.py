"""A tournament's page follows it through a WebSocket: the server sends it at once and each time it
changes (a registration, the start, a board every table has played, the end), relayed across two server
processes through Redis; a page it cannot serve is told why."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from server.pgcluster import Cluster
from server.processes import RedisServer, Served, redis_server
from server.tables_client import run_async
from server.test_tournaments import PEOPLE, check_standings, create, look, play_round, register
from spades.server.run import BackgroundServer
from spades.server.tournaments.live import QUIET

RELAYED = QUIET - 5
"""Seconds a page waits for news made on the other process: shorter than the quiet look, which would bring
it too, so the news can only have come through Redis."""


class Page:
    """A tournament page's connection: every tournament it was sent."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, base: str, code: str, hello: dict[str, str] | None = None) -> Page:
        """Connect and say hello (``hello``: the host's and the person's tokens, if any)."""
        ws = await connect(base.replace("http://", "ws://") + f"/api/tournaments/{code}/live")
        await ws.send(json.dumps(hello or {}))
        return cls(ws)

    async def next(self, timeout: float = RELAYED) -> dict[str, Any]:
        """The next message."""
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg["type"] == "tournament":
            self.seen.append(msg)
        return msg

    async def until(self, test: Any, timeout: float = RELAYED) -> dict[str, Any]:
        """Read until a tournament passes ``test``, each within ``timeout`` seconds."""
        while True:
            msg = await self.next(timeout)
            assert msg["type"] == "tournament", msg
            if test(msg["tournament"]):
                return msg


def test_a_page_is_sent_each_change_and_the_wrong_hellos_are_refused(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "spades.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        code, host = create(client)

        async def follow() -> None:
            page = await Page.open(server.url, code, {"host": host})
            first = await page.next()
            assert first["host"] is True and first["you"] is None and first["tournament"]["people"] == []
            tokens = await asyncio.to_thread(register, client, code, ["Ann"])
            assert [p["name"] for p in (await page.next())["tournament"]["people"]] == ["Ann"]
            mine = await Page.open(server.url, code, {"entry": tokens["Ann"]})
            assert (await mine.next())["you"]["number"] == 0
            await asyncio.to_thread(client.delete, f"/api/tournaments/{code}/entries/0",
                                    headers={"X-Host-Token": host})
            assert (await page.next())["tournament"]["people"] == []
            gone = await mine.next()  # withdrawn before the start: the token is no longer one of its
            assert gone == {"type": "error", "status": 403, "detail": gone["detail"]}
            for hello, status in (({"host": "short"}, 400), ({"entry": "A" * 24}, 403), ({"who": "me"}, 400)):
                refused = await (await Page.open(server.url, code, hello)).next()
                assert refused["type"] == "error" and refused["status"] == status, refused
            unknown = await (await Page.open(server.url, "ZZZZZZ")).next()
            assert unknown["type"] == "error" and unknown["status"] == 404
            await page.ws.send("{}")  # a page says nothing after its hello
            said = await page.next()
            assert said["type"] == "error" and said["status"] == 400, said
            for p in (page, mine):
                await p.ws.close()

        run_async(follow())


def test_a_page_on_one_process_follows_the_tables_played_on_the_other(tmp_path: Path,
                                                                      pg_cluster: Cluster) -> None:
    database = pg_cluster.database()
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a, \
            Served(database, redis_url=redis_url) as b, httpx.Client(base_url=b.url, timeout=30) as client:
        code, host = create(client, rounds=1, boards=2, grace=5)

        async def follow() -> dict[str, Any]:
            page = await Page.open(a.url, code)
            await page.next()
            tokens = await asyncio.to_thread(register, client, code, PEOPLE)  # on the other process
            await page.until(lambda t: len(t["people"]) == len(PEOPLE))
            started = await asyncio.to_thread(client.post, f"/api/tournaments/{code}/start",
                                              headers={"X-Host-Token": host})
            assert started.status_code == 204
            await page.until(lambda t: t["status"] == "playing")
            playing = asyncio.create_task(play_round([b.url], client, code, tokens))
            final = await page.until(lambda t: t["status"] == "over", timeout=120)
            await playing
            await page.ws.close()
            return {"final": final["tournament"], "seen": [m["tournament"] for m in page.seen]}

        out = run_async(follow())
        now = look(client, code)
    assert out["final"]["results"] == now["results"]
    check_standings(now["results"], boards=2)
    halfway = [t for t in out["seen"] if t["status"] == "playing" and len(t["results"]["travellers"]) == 1]
    assert halfway and halfway[0]["tables"][0]["played"] >= 1  # the first board, shown as soon as counted


def test_a_page_hears_of_a_change_on_the_other_process_while_redis_is_down(tmp_path: Path,
                                                                          pg_cluster: Cluster) -> None:
    database = pg_cluster.database()
    with RedisServer(tmp_path / "redis") as redis, Served(database, redis_url=redis.url) as a, \
            Served(database, redis_url=redis.url) as b, httpx.Client(base_url=b.url, timeout=30) as client:
        code, _ = create(client)

        async def follow() -> dict[str, Any]:
            page = await Page.open(a.url, code)
            await page.next()
            redis.pause()  # answers nothing, as behind a partition: no announcement passes
            try:
                await asyncio.to_thread(register, client, code, ["Ann"])
                told = await page.until(lambda t: bool(t["people"]), timeout=QUIET + 15)  # the quiet look's
            finally:
                redis.resume()
            await page.ws.close()
            return dict(told["tournament"])

        told = run_async(follow())
    assert [p["name"] for p in told["people"]] == ["Ann"]
