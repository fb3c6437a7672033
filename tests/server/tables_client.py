"""A seat at a friends' table over the real WebSocket, and the hidden-card check against the table's log."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect

from server.api_client import cards_in, simple_move
from spades.cards import Card
from spades.game import Phase
from spades.server.run import BackgroundServer
from spades.server.tables.log import TableLog
from spades.server.tables.table import FriendsTable, TableOptions

ACTIVE = ("bid", "play", "pass", "draw")
PACE = (25, 5.0)
"""At most this many moves in so many seconds from a seat's play loop: under the server's limit on a
connection (``LiveTables``: 30 in 5 s), which a loop moving at machine speed would otherwise reach."""

T = TypeVar("T")


def merged(before: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The table an update's ``table`` shows, with what it left out kept from the page's table
    ``before``, as the page keeps it: what never changes from the connection's first update, the
    seats, the chat and the score sheet from the last that had them."""
    table = {**{key: before.get(key) for key in ("rules", "reactions", "seats", "chat")}, **update}
    if table["game"] is not None:
        game = before.get("game") or {}
        table["game"] = {"rules": table["rules"], "sheet": game.get("sheet"),
                         "sheet_legend": game.get("sheet_legend"), **table["game"]}
    return table


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a loop of its own, in a thread of its own.

    ``asyncio.run`` refuses to start where a loop already runs in this thread, as one does
    once the browser tests' synchronous Playwright has started in the same pytest session.
    """
    out: list[T] = []
    failed: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # handed to the caller's thread
            failed.append(e)

    worker = threading.Thread(target=main)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return out[0]


def app_state(server: BackgroundServer) -> Any:
    """The running app's state: the tables, whose log a test reads to check what was sent."""
    assert server._server is not None
    app: Any = server._server.config.app
    return app.state


def ws_url(base: str, code: str) -> str:
    """The table's WebSocket address on a server."""
    return base.replace("http://", "ws://") + f"/api/tables/{code}/live"


def open_table(client: httpx.Client, name: str = "Ann", **body: Any) -> dict[str, Any]:
    """Open a table; the host's code, seat and token."""
    r = client.post("/api/tables", json={"name": name, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(client: httpx.Client, code: str, name: str, **body: Any) -> dict[str, Any]:
    """Take a seat."""
    r = client.post(f"/api/tables/{code}/seats", json={"name": name, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@dataclass
class Seat:
    """One person's connection (``token`` None: a spectator's); every message it received, for the checks."""

    base: str
    code: str
    token: str | None
    received: list[dict[str, Any]] = field(default_factory=list)
    ws: ClientConnection | None = None
    table: dict[str, Any] = field(default_factory=dict)
    sent: deque[float] = field(default_factory=lambda: deque(maxlen=PACE[0]))

    async def connect(self, since: int = -1, keep: bool | None = True) -> None:
        """Say hello from version ``since``, keeping what updates leave out as the page does (``keep``;
        None: a hello without it, as a client written before updates left anything out)."""
        self.ws = await connect(ws_url(self.base, self.code))
        hello: dict[str, Any] = {"watch": True} if self.token is None else {"token": self.token}
        await self.send({**hello, "since": since, **({} if keep is None else {"keep": keep})})

    async def send(self, data: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(data))

    async def send_paced(self, data: dict[str, Any]) -> None:
        """Send as a person's moves go: never more than ``PACE`` allows (waiting if need be)."""
        most, window = PACE
        if len(self.sent) == most:
            await asyncio.sleep(max(0.0, self.sent[0] + window - time.monotonic()))
        self.sent.append(time.monotonic())
        await self.send(data)

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        """The next message (an update also becomes the seat's current table, ``merged`` as the page
        merges it)."""
        assert self.ws is not None
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(msg)
        if msg["type"] == "update":
            self.table = merged(self.table, msg["table"])
        return msg

    async def until(self, test: Any, timeout: float = 30) -> dict[str, Any]:
        """Read messages until the table passes ``test``; errors fail."""
        while not test(self.table):
            msg = await self.recv(timeout)
            assert msg["type"] != "error", msg
        return self.table

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def start_game(seats: list[Seat]) -> None:
    """Connect every seat, wait for each one's first update, and let the host (the first seat) start."""
    for s in seats:
        await s.connect()
        await s.until(lambda t: bool(t))
    await seats[0].send({"do": "start"})
    for s in seats:
        await s.until(lambda t: t["game"] is not None)


async def close_at(seats: list[Seat], phase: str) -> None:
    """Wait until every seat has seen the game reach ``phase`` (or end), then close their connections."""
    for s in seats:
        await s.until(lambda t: t["game"]["phase"] in (phase, "game_over"))
        await s.close()


async def play_game(seats: list[Seat], until_phase: str = "game_over", seconds: float = 300) -> None:
    """Each person makes a simple legal move on their turn until the game reaches ``until_phase`` (or
    ends: a first hand can end a short game); a game still going after ``seconds`` fails the test."""
    done = asyncio.Event()
    deadline = time.monotonic() + seconds

    async def run(seat: Seat) -> None:
        last_sent = None
        while not done.is_set():
            t = seat.table
            g = t.get("game")
            if g is not None and g["phase"] in (until_phase, "game_over"):
                done.set()
                return
            assert time.monotonic() < deadline, f"the game did not reach {until_phase}: {g}"
            if g is not None and (t["seq"], g["version"]) != last_sent:
                if g["phase"] in ACTIVE and g["turn"] == t["you"] and not t["seats"][t["you"]]["bot"]:
                    await seat.send_paced({"do": "move", "move": simple_move(g), "version": g["version"]})
                    last_sent = (t["seq"], g["version"])
                elif g["phase"] == "hand_over" and t["host"] == t["you"]:
                    await seat.send_paced({"do": "next", "version": g["version"]})
                    last_sent = (t["seq"], g["version"])
            try:
                msg = await seat.recv(timeout=0.5)
            except TimeoutError:
                continue
            assert msg["type"] != "error" or msg["status"] == 409, msg  # a next hand crossed is fine

    await asyncio.gather(*(run(s) for s in seats))


async def play_alone(seat: Seat, until_phase: str = "hand_over", seconds: float = 120) -> None:
    """Start a game at a table where ``seat`` is the only person (computers in the other seats), play
    it to ``until_phase`` and close the connection."""
    await start_game([seat])
    await play_game([seat], until_phase=until_phase, seconds=seconds)
    await seat.close()


def check_no_hidden_cards(log: TableLog, code: str, seats: dict[int, list[dict[str, Any]]]) -> int:
    """No message to a seat holds a card another seat hides at the message's version, and none to a
    spectator (keyed by the number of seats) a card not yet played this hand; the checks made."""
    options, entries = log.load(code)
    checks: dict[int, list[tuple[int, set[str]]]] = {}
    for seat, messages in seats.items():
        for m in messages:
            if m["type"] != "update":
                continue
            checks.setdefault(m["seq"], []).append((seat, cards_in(m["table"])))
            for e in m["events"]:
                checks.setdefault(e["seq"] + 1, []).append((seat, cards_in(e)))
    table = FriendsTable.replay(code, TableOptions.from_json(options), [], lambda: 0.0)
    made = 0
    for seq in range(len(entries) + 1):
        if seq:
            table.extend([entries[seq - 1]])
        game = table.game
        if game is None or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            continue  # nothing hidden: the hand is over, or not dealt yet
        for seat, cards in checks.get(seq, []):
            if seat == table.players:
                v = game.view(0)
                played = {str(c) for t in v.tricks for _, c in t.cards} | {str(c) for _, c in v.trick}
                leaked = cards - played
            else:
                v = game.view(seat)
                hidden = v.unseen & ~sum(1 << c for c in v.offered) & ~v.passed
                leaked = {c for c in cards if hidden >> Card.parse(c) & 1}
            assert not leaked, f"seat {seat} was shown {leaked} at version {seq}"
            made += 1
    return made

