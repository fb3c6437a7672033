"""Friends' tables over HTTP and a WebSocket: open, look up a code, sit down, act, live updates.

A seat is proven by its secret token in the ``X-Seat-Token`` header (over the WebSocket, in the
first message). Opening or joining with an ``X-Player-Token`` links the seat to that player, whose
stats then count the table's games. The coach reviews each seated person's own decisions, asked for
with the seat's token, and kept under the table, the game and the seat. ``install`` adds the routes,
the errors' statuses and the live connections' clock to an app.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Path, Request, Response, WebSocket
from fastapi.responses import JSONResponse

from spades.protocol import Roster
from spades.server.deps import MaybeTokenDep
from spades.server.reviews import Reviews
from spades.server.schemas import TOKEN_PATTERN, CoachGameOut, CoachOut, ErrorOut, HandReview, HintOut
from spades.server.store import Store
from spades.server.tables.events import make_bus
from spades.server.tables.hub import CODE_ALPHABET, CODE_LENGTH, TableHub
from spades.server.tables.live import Live
from spades.server.tables.log import TableLog
from spades.server.tables.service import TableService
from spades.server.tables.table import TableError
from spades.server.tables.views import (
    CommandIn,
    CommandKindOut,
    JoinIn,
    JoinOut,
    LobbyView,
    NewTableIn,
    TableView,
)

__all__ = ["install", "router"]

_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut, "description": text}
                                            for status, text in {
    400: "The table cannot do that as asked (rules that contradict, no such seat): the detail says why.",
    401: "The X-Player-Token given is not known here (ask POST /api/players for one).",
    403: "The seat token is not valid at this table, or only the host may do that.",
    404: "No table has this code (or it has expired).",
    409: "Not now: a full table, a name taken, a seat this table has not, a stale or illegal move, the wrong "
         "moment; the detail says why.",
    413: "The request body is larger than the server accepts.",
    422: "A display name or text that is empty, too long or holds control characters, or a malformed body.",
    429: "Too many messages or requests: wait a little.",
    503: "The coach cannot review this now (or this server runs without it), or the table's log is damaged.",
}.items()}

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=_ERRORS)


async def _tables(request: Request) -> TableService:
    tables: TableService = request.app.state.table_service
    return tables


TablesDep = Annotated[TableService, Depends(_tables)]
_SEAT_TOKEN = {"pattern": TOKEN_PATTERN}
"""The seat token's form in the schema: a table refuses any other (403), as it does a token it never gave."""
SeatToken = Annotated[str, Header(alias="X-Seat-Token", max_length=64, json_schema_extra=_SEAT_TOKEN,
                                  description="the secret seat token from opening or joining the table")]
CoachSeatToken = Annotated[str | None, Header(
    alias="X-Seat-Token", max_length=64, json_schema_extra=_SEAT_TOKEN,
    description="the seat token: the coach reviews that seat's decisions (a spectator, without one, "
                "gets none)")]
HandNumber = Annotated[int, Path(ge=0, le=10**6, description="the hand, numbered from 0")]
TableCode = Annotated[str, Path(
    description="the table's code, as opening it gave it (lower case, spaces and dashes are read too); "
                "anything that cannot be a code is a 404 that says so",
    json_schema_extra={"pattern": f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$"})]


@router.post("", status_code=201)
def open_table(body: NewTableIn, tables: TablesDep, player: MaybeTokenDep) -> JoinOut:
    """Open a table with the host's rules; the host takes the first seat (North; East at a table of
    three). Share the code (or the link)."""
    return tables.open(body, player)


@router.get("/commands")
def commands(tables: TablesDep) -> list[CommandKindOut]:
    """The commands a seated person may send (over HTTP or the WebSocket): each one's ``do``, what it is
    about (the game, the table's seats or the chat: where a page shows a refusal) and the fields it needs."""
    return [CommandKindOut(**c) for c in tables.commands()]


@router.get("/{code}")
def lobby(code: TableCode, tables: TablesDep) -> LobbyView:
    """Who sits where, and the rules: what the link shows before sitting down."""
    return tables.lobby(code)


@router.post("/{code}/seats", status_code=201)
def join(code: TableCode, body: JoinIn, tables: TablesDep, player: MaybeTokenDep) -> JoinOut:
    """Take a free seat (or the first free one) with a display name."""
    return tables.join(code, body, player)


@router.get("/{code}/view")
def table_view(code: TableCode, tables: TablesDep, token: SeatToken) -> TableView:
    """The table as your seat sees it."""
    return tables.view(code, token)


@router.get("/{code}/watch")
def watch(code: TableCode, tables: TablesDep) -> TableView:
    """The table as a spectator sees it: only what is face up (``you`` is the number of seats)."""
    return tables.view(code, None)


@router.post("/{code}/commands")
def command(code: TableCode, body: CommandIn, tables: TablesDep, token: SeatToken) -> TableView:
    """Do something at the table (a move, start, chat...): the same commands as over the WebSocket."""
    return tables.command(code, token, body)


@router.get("/{code}/hint")
def table_hint(code: TableCode, tables: TablesDep, token: SeatToken) -> HintOut:
    """What the computer would do in your seat now, and why (your seat only)."""
    return tables.hint(code, token)


@router.get("/{code}/hands/{number}")
def table_hand(code: TableCode, number: HandNumber, tables: TablesDep, token: SeatToken) -> HandReview:
    """A finished hand of the game being played, face up (a hand still being played is not shown)."""
    return tables.hand(code, token, number)


_COACH_202 = "The analysis is waiting or running: `done` of `total` decisions judged so far. Ask again."


@router.get("/{code}/hands/{number}/coach", responses={202: {"model": CoachOut, "description": _COACH_202}})
def table_coach_review(code: TableCode, number: HandNumber, tables: TablesDep, response: Response,
                       token: CoachSeatToken = None) -> CoachOut:
    """The coach's review of your seat's decisions in a finished hand of the game being played (as
    ``GET /api/games/{id}/hands/{n}/coach``, judged only from what your seat knew): 202 while the analysis
    runs in the background, kept once done; 403 to a spectator."""
    out = tables.coach_hand(code, token, number)
    if out.status != "done":
        response.status_code = 202
    return out


@router.get("/{code}/coach", responses={202: {"model": CoachGameOut, "description": "Some hands' analyses "
                                              "are waiting or running: the summary covers those reviewed."}})
def table_coach_game(code: TableCode, tables: TablesDep, response: Response,
                     token: CoachSeatToken = None) -> CoachGameOut:
    """The coach's summary of your seat's game being played (as ``GET /api/games/{id}/coach``): per finished
    hand the decisions judged, mistakes and points lost, and over the game the same and the costliest."""
    summary, pending = tables.coach_game(code, token)
    if pending:
        response.status_code = 202
    return summary


@router.websocket("/{code}/live")
async def live(ws: WebSocket, code: TableCode) -> None:
    """Live updates for one seat; send ``{"token": ..., "since": version}`` first, then commands."""
    live: Live = ws.app.state.live
    await live.serve(ws, code)


def install(app: FastAPI, store: Store, reviews: Reviews, roster: Roster, redis_url: str = "") -> None:
    """Add friends' tables to the app: their log in the store, their computer players from the roster,
    their events through Redis if given a URL, the coach's reviews of each seat's hands (when ``reviews``
    has a coach)."""
    hub = TableHub(TableLog(store), make_bus(redis_url or None), coached=reviews.coach is not None,
                   roster=roster)
    app.state.tables = hub
    document = app.openapi

    def offered_levels() -> dict[str, Any]:
        """The OpenAPI document, naming the computer players this server offers a table (the levels and
        its operator's bots: another is a 400)."""
        schema = document()
        schema["components"]["schemas"]["NewTableIn"]["properties"]["level"]["enum"] = hub.offered()
        return schema

    app.openapi = offered_levels  # type: ignore[method-assign]  # FastAPI's documented way to change it
    app.state.table_service = TableService(hub, reviews)
    app.state.live = Live(hub)
    app.include_router(router)

    @app.exception_handler(TableError)
    async def refused(_: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    outer = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with outer(a) as state:
            hub.leases.start()
            bus = asyncio.create_task(hub.bus.run())
            clock = asyncio.create_task(app.state.live.run_clock())
            try:
                yield state
            finally:
                for task in (clock, bus):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                hub.leases.close()
                hub.bus.close()

    app.router.lifespan_context = lifespan
