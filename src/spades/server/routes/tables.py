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

from spades.bots import hint
from spades.game import Phase
from spades.moves import MakeBid, Play
from spades.record import dump_record
from spades.server.deps import MaybeTokenDep
from spades.server.present import review_of
from spades.server.reviews import Reviews, table_subject
from spades.server.schemas import CoachGameOut, CoachOut, ErrorOut, HandReview, HintOut
from spades.server.store import Store
from spades.server.tables.events import make_bus
from spades.server.tables.hub import TableHub, normal_code
from spades.server.tables.live import Live, run_command
from spades.server.tables.log import TableLog
from spades.server.tables.table import (
    FriendsTable,
    NotAllowed,
    TableError,
    TableNotFound,
    WrongTime,
    hash_token,
)
from spades.server.tables.views import Command, JoinIn, JoinOut, LobbyView, NewTableIn, TableView, view_of

__all__ = ["install", "router"]

_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut, "description": text}
                                            for status, text in {
    400: "The table cannot do that as asked (rules that contradict, no such seat): the detail says why.",
    401: "The X-Player-Token given is not known here (ask POST /api/players for one).",
    403: "The seat token is not valid at this table, or only the host may do that.",
    404: "No table has this code (or it has expired).",
    409: "Not now: a full table, a stale or illegal move, the wrong moment; the detail says why.",
    413: "The request body is larger than the server accepts.",
    422: "A display name or text that is empty, too long or holds control characters, or a malformed body.",
    429: "Too many messages or requests: wait a little.",
}.items()}

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=_ERRORS)


async def _hub(request: Request) -> TableHub:
    hub: TableHub = request.app.state.tables
    return hub


async def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


HubDep = Annotated[TableHub, Depends(_hub)]
ReviewsDep = Annotated[Reviews, Depends(_reviews)]
SeatToken = Annotated[str, Header(alias="X-Seat-Token", max_length=64,
                                  description="the secret seat token from opening or joining the table")]
CoachSeatToken = Annotated[str | None, Header(alias="X-Seat-Token", max_length=64,
                                              description="the seat token: the coach reviews that seat's "
                                                          "decisions (a spectator, without one, gets none)")]
HandNumber = Annotated[int, Path(ge=0, le=10**6, description="the hand, numbered from 0")]


def _player(token: str | None) -> str | None:
    """What a seat keeps of the player token it is linked to (its hash), if one was given."""
    return None if token is None else hash_token(token)


@router.post("", status_code=201)
def open_table(body: NewTableIn, hub: HubDep, player: MaybeTokenDep) -> JoinOut:
    """Open a table with the host's rules; the host takes the first seat (North; East at a table of
    three). Share the code (or the link)."""
    return hub.open(body, _player(player))


@router.get("/{code}")
def lobby(code: str, hub: HubDep) -> LobbyView:
    """Who sits where, and the rules: what the link shows before sitting down."""
    return hub.lobby(code)


@router.post("/{code}/seats", status_code=201)
def join(code: str, body: JoinIn, hub: HubDep, player: MaybeTokenDep) -> JoinOut:
    """Take a free seat (or the first free one) with a display name."""
    token, seat = hub.act(code, lambda t: t.join(body.name, body.seat, conn=hub.process,
                                                 player=_player(player)))
    return JoinOut(code=normal_code(code), seat=seat, token=token)


@router.get("/{code}/view")
def table_view(code: str, hub: HubDep, token: SeatToken) -> TableView:
    """The table as your seat sees it."""
    return hub.view(code, token)


@router.get("/{code}/watch")
def watch(code: str, hub: HubDep) -> TableView:
    """The table as a spectator sees it: only what is face up (``you`` is the number of seats)."""
    return hub.view(code, None)


@router.post("/{code}/commands")
def command(code: str, body: Command, hub: HubDep, token: SeatToken) -> TableView:
    """Do something at the table (a move, start, chat...): the same commands as over the WebSocket."""
    def act(t: FriendsTable, seat: int) -> TableView:
        if body.do != "sync":
            run_command(t, seat, body)
        return view_of(t, seat)
    return hub.seat_act(code, token, act)


@router.get("/{code}/hint")
def table_hint(code: str, hub: HubDep, token: SeatToken) -> HintOut:
    """What the computer would do in your seat now, and why (your seat only)."""
    def read(t: FriendsTable) -> HintOut:
        seat = t.seat_of(token)
        game = t.game
        if game is None or game.turn != seat or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            raise WrongTime("There is nothing for you to do right now.")
        h = hint(game.view(seat), t.options.level, seed=len(game.log))
        return HintOut(move=str(h.move), reason=h.reason,
                       card=str(h.move.card) if isinstance(h.move, Play) else None,
                       bid=str(h.move.bid) if isinstance(h.move, MakeBid) else None)
    return hub.read(code, read)


@router.get("/{code}/hands/{number}")
def table_hand(code: str, number: HandNumber, hub: HubDep, token: SeatToken) -> HandReview:
    """A finished hand of the game being played, face up (a hand still being played is not shown)."""
    def read(t: FriendsTable) -> HandReview:
        t.seat_of(token)
        history = t.game.history if t.game is not None else ()
        if not 0 <= number < len(history):
            raise TableNotFound(f"Hand {number + 1} of this game is not finished.")
        assert t.game is not None
        return review_of(t.game.spec, history[number])
    return hub.read(code, read)


def _coached(t: FriendsTable, token: str | None, hands: int) -> tuple[str, str, int, int, frozenset[int]]:
    """For the coach: what the token's seat's reviews of the game being played are kept under, the
    game's record, the seat, its finished hands and the seat's moves a computer player made (not the
    person's to be judged on); refused to a spectator, or if fewer than ``hands`` hands are finished."""
    seat = t.viewer(token)
    if seat == t.players:
        raise NotAllowed("The coach reviews a seated person's own decisions: a spectator has none.")
    if t.game is None:
        raise TableNotFound("No game has started at this table yet.")
    finished = len(t.game.history)
    if finished < hands:
        raise TableNotFound(f"Hand {hands} of this game is not finished.")
    return (table_subject(t.code, len(t.past_seeds) + 1, seat), dump_record(t.game), seat, finished,
            t.computer_moves_of(seat))


_COACH_202 = "The analysis is waiting or running: `done` of `total` decisions judged so far. Ask again."


@router.get("/{code}/hands/{number}/coach", responses={202: {"model": CoachOut, "description": _COACH_202}})
def table_coach_review(code: str, number: HandNumber, hub: HubDep, reviews: ReviewsDep, response: Response,
                       token: CoachSeatToken = None) -> CoachOut:
    """The coach's review of your seat's decisions in a finished hand of the game being played (as
    ``GET /api/games/{id}/hands/{n}/coach``, judged only from what your seat knew): 202 while the analysis
    runs in the background, kept once done; 403 to a spectator."""
    subject, record, seat, _, computer = hub.read(code, lambda t: _coached(t, token, number + 1))
    out = reviews.hand(subject, number, record, seat, computer)
    if out.status != "done":
        response.status_code = 202
    return out


@router.get("/{code}/coach", responses={202: {"model": CoachGameOut, "description": "Some hands' analyses "
                                              "are waiting or running: the summary covers those reviewed."}})
def table_coach_game(code: str, hub: HubDep, reviews: ReviewsDep, response: Response,
                     token: CoachSeatToken = None) -> CoachGameOut:
    """The coach's summary of your seat's game being played (as ``GET /api/games/{id}/coach``): per finished
    hand the decisions judged, mistakes and points lost, and over the game the same and the costliest."""
    subject, record, seat, finished, computer = hub.read(code, lambda t: _coached(t, token, 0))
    summary, pending = reviews.game(subject, finished, record, seat, computer)
    if pending:
        response.status_code = 202
    return summary


@router.websocket("/{code}/live")
async def live(ws: WebSocket, code: str) -> None:
    """Live updates for one seat; send ``{"token": ..., "since": version}`` first, then commands."""
    live: Live = ws.app.state.live
    await live.serve(ws, code)


def install(app: FastAPI, store: Store, reviews: Reviews, redis_url: str = "") -> None:
    """Add friends' tables to the app: their log in the store, their events through Redis if given a URL,
    the coach's reviews of each seat's hands (when ``reviews`` has a coach)."""
    hub = TableHub(TableLog(store), make_bus(redis_url or None), coached=reviews.coach is not None)
    app.state.tables = hub
    app.state.reviews = reviews
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
            clock = asyncio.create_task(app.state.live.run_clock())
            try:
                yield state
            finally:
                clock.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clock
                hub.leases.close()
                hub.bus.close()

    app.router.lifespan_context = lifespan
