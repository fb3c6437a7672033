"""Games: start (numbered, daily or fresh), resume, move, next hand, restart, hint; and the WebSocket a page
may make its moves on instead.

The routes a game is played through are coroutines that hand the service's work to one worker thread
(the store may wait on its database, and the appends waiting there at once share a transaction):
FastAPI would otherwise use a thread for the route and another to check its answer.

The WebSocket (``/api/games/live``) answers each move as the HTTP route would, with the same status and
body, without the HTTP request's machinery around it. It starts with ``{"token": <credential>}``; each
message is then a ``SoloCommandIn``, its credential checked again in the store (a signing out counts at
once) and counted against the player token's rate limit, and its answer is ``{"type": "answer", "id":
<the message's>, "status": <HTTP status>, "body": <the route's JSON>}``. A hello with ``"partial": true``
asks for partial states: a move's answer then carries only the state's fields that changed since the
last state answered on the connection (always ``id`` and ``version``), marked ``"partial": true``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from spades.server.deps import ServiceDep, TokenDep, TournamentsDep, player_of
from spades.server.failures import FAILURES, failure_of, invalid_detail
from spades.server.middleware import Buckets, too_many
from spades.server.present import Fields, json_text
from spades.server.schemas import (
    TOKEN_ERRORS,
    CoachGameOut,
    CoachOut,
    GameState,
    HandReview,
    HintOut,
    MoveIn,
    MoveOut,
    NewGameIn,
    NextHandIn,
    SoloCommandIn,
    errors,
)
from spades.server.service import Service

router = APIRouter(prefix="/api/games", tags=["games"], responses={**errors(429), **TOKEN_ERRORS})
_GAME_ERRORS = errors(404, 409)
"""What a route on one game may answer besides: no such game (404), or not now (409), which is also the
answer on a game the player replaced by a newer one (its state is the newer game, for a page to redraw)."""

GameId = Annotated[int, Path(ge=1, le=2**62, description="the game's number")]


@router.post("", status_code=201, responses=errors(404, 413))
async def new_game(body: NewGameIn, service: ServiceDep, tournaments: TournamentsDep,
                   token: TokenDep) -> MoveOut:
    """Start a game with the player's rules (a tournament's board: with the tournament's); ``resume`` keeps
    a game of the same deal going."""
    rules = None if body.tournament is None else await run_in_threadpool(tournaments.rules, body.tournament)
    return await run_in_threadpool(service.new_game, token, deal=body.deal, daily=body.daily,
                                   resume=body.resume, rated=body.rated, board=body.board, rules=rules)


@router.get("/current", response_model=GameState,
            responses={204: {"description": "The player has no game yet: start one."}})
async def current_game(service: ServiceDep, token: TokenDep) -> GameState | Response:
    """The player's game where they left it; 204 before their first (no error: pages ask each visit)."""
    state = await run_in_threadpool(service.current, token)
    return Response(status_code=204) if state is None else state


_HELLO_WAIT = 15.0
"""Seconds a WebSocket has to send its credential."""
MAX_MESSAGE = 1000
"""The longest message the WebSocket takes, in characters."""


@router.post("/{game_id}/moves", responses={**_GAME_ERRORS, **errors(413)})
async def make_move(game_id: GameId, body: MoveIn, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Make the player's move; the computer players answer up to the player's next decision."""
    return await run_in_threadpool(service.move, token, game_id, body.move, body.version)


@router.post("/{game_id}/next", responses={**_GAME_ERRORS, **errors(413)})
async def next_hand(game_id: GameId, body: NextHandIn, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Deal the next hand once a hand is over."""
    return await run_in_threadpool(service.next_hand, token, game_id, body.version)


@router.websocket("/live")
async def live(ws: WebSocket) -> None:
    """Moves and next hands over one connection, each answered as its HTTP route answers it."""
    service: Service = ws.app.state.service
    buckets: Buckets | None = ws.app.state.token_buckets
    await ws.accept()
    try:
        hello = json.loads(await asyncio.wait_for(ws.receive_text(), _HELLO_WAIT))
        credential = hello.get("token") if isinstance(hello, dict) else None
        partial = hello.get("partial", False) if isinstance(hello, dict) else None
        if not isinstance(credential, str) or len(credential) > 64 or not isinstance(partial, bool):
            await _close(ws, 400, 'Say hello first: {"token": "<your player token>", "partial": true}.')
            return
        await player_of(service, credential)
        shown = _Shown() if partial else None
        while True:
            await ws.send_text(await _answer(service, buckets, credential, await ws.receive_text(), shown))
    except (TimeoutError, WebSocketDisconnect, OSError):  # gone (uvicorn's ClientDisconnected is an OSError)
        return
    except FAILURES as e:
        failure = failure_of(e)
        await _close(ws, failure.status, failure.body["detail"])
    except ValueError:
        await _close(ws, 400, "The first message is not JSON.")


class _Shown:
    """The state last answered on a connection that asked for partial states."""

    def __init__(self) -> None:
        self.state: Fields | None = None

    def answer(self, ref: int, out: Fields) -> str:
        """The answer to a move (``MoveOut``'s fields): its state's fields left out where the last one
        answered had them the same."""
        before, state = self.state, out["state"]
        self.state = state
        if before is None or before["id"] != state["id"]:
            return _whole(ref, out)
        changed = {name: value for name, value in state.items()
                   if name in _ALWAYS or (value is not before[name] and before[name] != value)}
        body = json_text({"events": out["events"], "state": changed})
        return f'{{"type":"answer","id":{ref},"status":200,"partial":true,"body":{body}}}'


_ALWAYS = {"id", "version"}
"""The fields of a partial state sent even when they did not change."""


def _whole(ref: int, out: Fields) -> str:
    """The answer to a move (``MoveOut``'s fields) with its whole state, as the HTTP route's body."""
    return f'{{"type":"answer","id":{ref},"status":200,"body":{json_text(out)}}}'


async def _answer(service: Service, buckets: Buckets | None, credential: str, text: str,
                  shown: _Shown | None) -> str:
    """The answer to one message, as its route's status and JSON body (``shown``: the connection's last
    state, if it asked for partial states)."""
    ref: int | None = None
    try:
        if len(text) > MAX_MESSAGE:
            return _reply(ref, 413, {"detail": f"The message is longer than {MAX_MESSAGE} characters."})
        try:
            command = SoloCommandIn.model_validate_json(text)
        except ValidationError as e:
            return _reply(ref, 422, {"detail": invalid_detail(e.errors())})
        ref = command.id
        wait = await buckets.wait(credential) if buckets is not None else 0.0
        if wait:
            return _reply(ref, 429, {"detail": too_many("this player", wait)[1]})
        token = await player_of(service, credential)
        game = command.game
        # on the loop when it can be, else (and to tell a refusal) in a worker thread
        if command.do == "next":
            soon = await service.next_soon(token, game, command.version)
            out = await run_in_threadpool(service.next_answer, token, game,
                                          command.version) if soon is None else soon
        elif command.move is None:
            return _reply(ref, 422, {"detail": "Invalid request: move: a move is required to make one"})
        else:
            soon = await service.move_soon(token, game, command.move, command.version)
            out = await run_in_threadpool(service.move_answer, token, game, command.move,
                                          command.version) if soon is None else soon
        return _whole(ref, out) if shown is None else shown.answer(ref, out)
    except FAILURES as e:
        failure = failure_of(e)
        return _reply(ref, failure.status, failure.body)


def _reply(ref: int | None, status: int, body: dict[str, Any]) -> str:
    """An answer that is not a move's state."""
    return json.dumps({"type": "answer", "id": ref, "status": status, "body": body})


async def _close(ws: WebSocket, status: int, detail: str) -> None:
    """Tell the connection why it is closed (an HTTP status), and close it (code 4000 + status)."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "status": status, "detail": detail}))
        await ws.close(code=4000 + status)


@router.post("/{game_id}/restart", status_code=201, responses=_GAME_ERRORS)
def restart(game_id: GameId, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Play the same deal again from the first hand (not a rated game: a 400)."""
    return service.restart(token, game_id)


@router.get("/{game_id}/hands/{number}", responses=_GAME_ERRORS)
def hand_review(game_id: GameId, number: Annotated[int, Path(ge=0, le=10**6)], service: ServiceDep,
                token: TokenDep) -> HandReview:
    """A finished hand (numbered from 0), with every seat's cards: for the score sheet's review."""
    return service.review(token, game_id, number)


@router.get("/{game_id}/hands/{number}/coach", responses={
    202: {"model": CoachOut, "description": "The analysis is waiting or running: `done` of `total` decisions "
                                            "judged so far. Ask again in a moment."},
    **_GAME_ERRORS})
def coach_review(game_id: GameId, number: Annotated[int, Path(ge=0, le=10**6)], service: ServiceDep,
                 token: TokenDep, response: Response) -> CoachOut:
    """The coach's review of the player's decisions in a finished hand (numbered from 0): each bid,
    pass and card with a choice, its expected points against the best choice, judged from what the
    player's seat knew then. 202 while the analysis runs in the background; kept once done."""
    out = service.coach_review(token, game_id, number)
    if out.status != "done":
        response.status_code = 202
    return out


@router.get("/{game_id}/coach", responses={
    202: {"model": CoachGameOut, "description": "Some hands' analyses are waiting or running: the summary "
                                                "covers the hands reviewed so far. Ask again in a moment."},
    **_GAME_ERRORS})
def coach_game(game_id: GameId, service: ServiceDep, token: TokenDep, response: Response) -> CoachGameOut:
    """The coach's summary of the player's game: per finished hand its decisions judged, mistakes and
    points lost to them, and over the game the same and the costliest mistake (what `spades analyze`
    prints last). 202 while some hands are still being reviewed in the background."""
    summary, pending = service.coach_game(token, game_id)
    if pending:
        response.status_code = 202
    return summary


@router.get("/{game_id}/hint", responses=_GAME_ERRORS)
def get_hint(game_id: GameId, service: ServiceDep, token: TokenDep) -> HintOut:
    """The move the computer would make for the player, with its reason."""
    return service.hint(token, game_id)
