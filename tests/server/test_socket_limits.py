"""A WebSocket message over the server's limit closes its connection with 1009 (message too big) before it
is held whole, on every socket, and changes nothing: the game goes on from where it was."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.api_client import Player, simple_move
from server.tables_client import Seat, open_table, run_async
from server.test_solo_live import ask, command, hello
from spades.server.run import WS_MAX_BYTES, BackgroundServer

TOO_BIG = "x" * (WS_MAX_BYTES + 1)


async def closed_as_too_big(ws: ClientConnection) -> None:
    """Send a message over the limit: the server closes the connection with 1009."""
    await ws.send(TOO_BIG)
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(30):  # not closed: answered, on a connection left open
            while True:
                await ws.recv()
    assert ws.close_code == 1009


def test_a_message_too_big_closes_the_solo_socket_and_the_game_goes_on(
        server: BackgroundServer, client: httpx.Client) -> None:
    player = Player(client)
    state = player.new_game(deal=77)
    token = player.headers["X-Player-Token"]

    async def too_big() -> None:
        await closed_as_too_big(await hello(server.url, token, partial=True))

    async def move() -> None:
        ws = await hello(server.url, token)
        answer = await ask(ws, command(1, state, simple_move(state)))
        assert answer["status"] == 200 and answer["body"]["state"]["version"] > state["version"]
        await ws.close()

    run_async(too_big())
    assert client.get("/api/games/current", headers=player.headers).json() == state
    run_async(move())


def test_a_message_too_big_closes_a_table_socket_and_the_bots_socket(
        server: BackgroundServer, client: httpx.Client) -> None:
    host = open_table(client)

    async def run() -> None:
        seat = Seat(server.url, host["code"], host["token"])
        await seat.connect()
        first = await seat.until(lambda t: bool(t))
        assert seat.ws is not None
        await closed_as_too_big(seat.ws)
        again = Seat(server.url, host["code"], host["token"])
        await again.connect()
        now = await again.until(lambda t: bool(t))
        assert now["seats"] == first["seats"] and now["chat"] == first["chat"] == []  # as it was
        await again.send({"do": "chat", "text": "still here", "id": 1})
        await again.until(lambda t: any(line["text"] == "still here" for line in t["chat"]))
        await again.close()
        bots = await connect(server.url.replace("http://", "ws://") + "/api/bots/live")
        await closed_as_too_big(bots)

    run_async(run())
