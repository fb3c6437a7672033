"""The solo game's WebSocket on the real server, on both stores: each move answered exactly as over HTTP,
no hidden card in any answer, every kind of bad input answered and nothing changed, a signing out that
counts at once on the socket of another process, and moves alternating between two processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.api_client import Player, cards_in, simple_move
from server.processes import Served
from server.tables_client import run_async
from spades.server.routes.games import MAX_MESSAGE
from spades.server.run import BackgroundServer

PASSWORD = "correct horse battery"


def live_url(base: str) -> str:
    """The socket's address on a server."""
    return base.replace("http://", "ws://") + "/api/games/live"


async def hello(base: str, token: str, partial: bool = False) -> ClientConnection:
    """A socket that has said hello with this credential (asking for partial states, or not)."""
    ws = await connect(live_url(base))
    await ws.send(json.dumps({"token": token, "partial": True} if partial else {"token": token}))
    return ws


async def ask(ws: ClientConnection, message: dict[str, Any] | str) -> dict[str, Any]:
    """Send one message; its answer."""
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    answer: dict[str, Any] = json.loads(await ws.recv())
    return answer


def command(ref: int, state: dict[str, Any], move: str | None = None) -> dict[str, Any]:
    """The message for a move chosen from ``state`` (or, without a move, the next hand)."""
    if move is None:
        return {"id": ref, "do": "next", "game": state["id"], "version": state["version"]}
    return {"id": ref, "do": "move", "game": state["id"], "move": move, "version": state["version"]}


def visible(state: dict[str, Any]) -> set[str]:
    """The cards the person's seat may see in a state: their hand, what is face up, and the finished
    hands' review."""
    shown = set(state["hand"]) | set(state["passed"]) | set(state["received"]) | set(state["offered"])
    return shown | cards_in(state["trick"]) | cards_in(state["last_trick"]) | cards_in(state["review"])


@pytest.mark.parametrize("partial", [False, True])
def test_a_game_over_the_socket_is_answered_as_over_http(tmp_path: Path, partial: bool) -> None:
    """The same deal and moves on two fresh servers, one player over HTTP and one over the socket: the same
    answers, byte for byte, through two hands (``partial``: each answer's state, merged onto the last one,
    the same, and the rules sent once); none shows a card the seat cannot see."""
    with BackgroundServer(tmp_path / "1.sqlite3") as one, BackgroundServer(tmp_path / "2.sqlite3") as two, \
            httpx.Client(base_url=one.url) as on_one, httpx.Client(base_url=two.url) as on_two:
        by_http, by_socket = Player(on_one, level="normal"), Player(on_two, level="normal")

        async def run() -> int:
            old = by_http.new_game(deal=1234)
            new = by_socket.new_game(deal=1234)
            assert old == new  # game 1 on each server
            ws = await hello(two.url, by_socket.headers["X-Player-Token"], partial)
            hands = answered = 0
            played: set[str] = set()  # face up once played
            last: dict[str, Any] = {}
            while hands < 2:
                move = None if old["phase"] == "hand_over" else simple_move(old)
                expected = by_http.next_hand(old) if move is None else by_http.move(old, move)
                answer = await ask(ws, command(answered, new, move))
                if partial and answered:
                    assert answer.pop("partial") is True and "rules" not in answer["body"]["state"]
                    answer["body"]["state"] = {**last, **answer["body"]["state"]}
                last = answer["body"]["state"]
                assert answer == {"type": "answer", "id": answered, "status": 200, "body": expected}
                state = expected["state"]
                played |= {event["card"] for event in expected["events"] if event["card"]}
                assert cards_in(expected) <= visible(state) | played
                old = new = state
                hands += state["phase"] == "hand_over"
                answered += 1
            await ws.close()
            return answered

        assert run_async(run()) > 20
        current = on_two.get("/api/games/current", headers=by_socket.headers).json()
        assert current == new_state(on_one, by_http)  # every answered move was stored


def new_state(client: httpx.Client, player: Player) -> dict[str, Any]:
    """The player's game as the server has it."""
    state: dict[str, Any] = client.get("/api/games/current", headers=player.headers).json()
    return state


def test_bad_messages_are_answered_and_change_nothing(server: BackgroundServer, client: httpx.Client) -> None:
    player = Player(client)
    state = player.new_game(deal=77)
    token = player.headers["X-Player-Token"]

    async def run() -> None:
        ws = await hello(server.url, token)
        move = simple_move(state)
        cases: list[tuple[dict[str, Any] | str, int, str]] = [
            ("not json", 422, "Invalid request"),
            ({"id": 1, "do": "fly", "game": state["id"], "version": state["version"]}, 422, "do"),
            ({"id": 2, "do": "move", "game": state["id"], "version": state["version"]}, 422, "move"),
            ({"id": 3, "do": "move", "game": state["id"], "move": move, "version": "1"}, 422, "version"),
            ({"id": 4, "do": "next", "game": state["id"], "version": 0, "more": 1}, 422, "more"),
            ({"id": 5, "do": "move", "game": state["id"] + 1000, "move": move, "version": state["version"]},
             404, "no game"),
            ({"id": 6, "do": "move", "game": state["id"], "move": move, "version": state["version"] + 5},
             409, "moved on"),
            ({"id": 7, "do": "move", "game": state["id"], "move": "bid 99", "version": state["version"]},
             400, ""),
            ({"id": 8, "do": "next", "game": state["id"], "version": state["version"]}, 409, "not over"),
            ("x" * (MAX_MESSAGE + 1), 413, "longer"),
        ]
        for message, status, words in cases:
            answer = await ask(ws, message)
            assert answer["status"] == status and words in answer["body"]["detail"], (message, answer)
            if isinstance(message, dict) and status != 422:
                assert answer["id"] == message["id"]
            if status == 409:
                assert answer["body"]["state"] == state  # the game as it is, to redraw from
        good = await ask(ws, command(9, state, move))  # the connection is still open, the game unchanged
        assert good["status"] == 200 and good["body"]["state"]["version"] > state["version"]
        await ws.close()

        unknown, too_long = json.dumps({"token": "A" * 40}), json.dumps({"token": "A" * 65})
        for first, code in [("not json", 4400), ('{"token": 5}', 4400), (unknown, 4401), (too_long, 4400),
                            (json.dumps({"token": token, "partial": 1}), 4400)]:
            ws = await connect(live_url(server.url))
            await ws.send(first)
            refusal = json.loads(await ws.recv())
            assert refusal["type"] == "error" and refusal["status"] == code - 4000
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            assert ws.close_code == code

    run_async(run())


def test_the_socket_counts_against_the_player_rate_limit(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "g.sqlite3", rate_per_token=0.01, burst_per_token=4) as server, \
            httpx.Client(base_url=server.url) as client:
        player = Player(client)  # its token's first request
        state = player.new_game(deal=5)  # its second

        async def run() -> list[int]:
            ws = await hello(server.url, player.headers["X-Player-Token"])
            statuses = [(await ask(ws, command(i, state, "bid 3")))["status"] for i in range(4)]
            await ws.close()
            return statuses

        statuses = run_async(run())  # the game's start and three messages fill the burst of four
        assert statuses[-1] == 429 and statuses.count(429) == 1, statuses


def test_signing_out_everywhere_stops_a_socket_on_another_process(database: str) -> None:
    """Moves go alternately through a socket on one process and over HTTP on another, each process's cached
    copy caught up from the store; a game replaced on the second is refused as such on the first; then
    signing out on the second refuses the first's socket at once."""
    with Served(database) as a, Served(database) as b, httpx.Client(base_url=b.url) as on_b:
        player = Player(on_b, level="normal")
        assert on_b.post("/api/account", json={"name": "erin", "password": PASSWORD},
                         headers=player.headers).status_code == 201
        state = player.new_game(deal=99)

        async def run() -> None:
            nonlocal state
            ws = await hello(a.url, player.headers["X-Player-Token"])
            for i in range(6):
                if i % 2:
                    state = player.move(state, simple_move(state))["state"]
                else:
                    answer = await ask(ws, command(i, state, simple_move(state)))
                    assert answer["status"] == 200, answer
                    state = answer["body"]["state"]
            newer = player.new_game(deal=100)  # on b: a's copy of the older game does not know
            answer = await ask(ws, command(6, state, simple_move(state)))
            assert answer["status"] == 409 and "replaced by a newer game" in answer["body"]["detail"]
            assert answer["body"]["state"] == newer
            assert on_b.delete("/api/sessions", headers=player.headers).status_code == 204
            answer = await ask(ws, command(7, newer, simple_move(newer)))
            assert answer["status"] == 401 and "not known" in answer["body"]["detail"]
            await ws.close()

        run_async(run())
