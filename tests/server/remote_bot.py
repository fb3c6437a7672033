"""A remote bot over the real WebSocket for the tests: a bot account, its connection, and a bot that
answers the first legal move (or an illegal one), checking every message against its schema."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from protocol.schemas import check


def bot_account(client: httpx.Client, name: str) -> dict[str, Any]:
    """A new player with an account of this name, made a bot: its name, level and token."""
    player = {"X-Player-Token": client.post("/api/players").json()["token"]}
    assert client.post("/api/account", json={"name": name}, headers=player).status_code == 201
    r = client.post("/api/account/bot", headers=player)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def bot_connection(base: str, token: str) -> ClientConnection:
    """A bot's socket, its token sent."""
    ws = await connect(base.replace("http://", "ws://") + "/api/bots/live")
    await ws.send(json.dumps({"token": token}))
    return ws


async def run_bot(ws: ClientConnection, received: list[dict[str, Any]], decisions: int | None,
                  illegal: bool = False, late_first: float = 0) -> None:
    """Answer as a bot does (the first legal move; an illegal one if ``illegal``; the first only after
    ``late_first`` seconds), checking every message; leave after ``decisions``."""
    async for text in ws:
        msg = json.loads(text)
        check(msg)
        received.append(msg)
        if msg["type"] == "hello":
            answer = {"type": "ready", "name": "first-legal"}
        elif msg["type"] == "decide":
            if decisions is not None and sum(m["type"] == "decide" for m in received) > decisions:
                await ws.close()
                return
            move = "play 2C" if illegal and "play 2C" not in msg["legal"] else msg["legal"][0]
            answer = {"type": "move", "id": msg["id"], "move": move}
            if msg["id"] == 1:
                await asyncio.sleep(late_first)
        else:
            continue
        check(answer)
        await ws.send(json.dumps(answer))


def wait_offered(client: httpx.Client, level: str) -> None:
    """Wait until the server offers the bot (its socket registered)."""
    deadline = time.monotonic() + 10
    while level not in client.get("/api/rules").json()["bots"]:
        assert time.monotonic() < deadline, "the bot was never offered"
        time.sleep(0.05)
