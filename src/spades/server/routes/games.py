"""Games: start (numbered, daily or fresh), resume, move, next hand, restart, hint.

The routes a game is played through are coroutines that hand the service's work to one worker
thread (the store may wait on its database): FastAPI would otherwise use a thread for the route
and another to check its answer.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response
from starlette.concurrency import run_in_threadpool

from spades.server.deps import ServiceDep, TokenDep
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
    errors,
)

router = APIRouter(prefix="/api/games", tags=["games"], responses={**errors(429), **TOKEN_ERRORS})
_GAME_ERRORS = errors(404, 409)
"""What a route on one game may answer besides: no such game (404), or not now (409), which is also the
answer on a game the player replaced by a newer one (its state is the newer game, for a page to redraw)."""

GameId = Annotated[int, Path(ge=1, le=2**62, description="the game's number")]


@router.post("", status_code=201, responses=errors(413))
async def new_game(body: NewGameIn, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Start a game with the player's rules; ``resume`` keeps a game of the same deal going."""
    return await run_in_threadpool(service.new_game, token, deal=body.deal, daily=body.daily,
                                   resume=body.resume, rated=body.rated, board=body.board)


@router.get("/current", response_model=GameState,
            responses={204: {"description": "The player has no game yet: start one."}})
async def current_game(service: ServiceDep, token: TokenDep) -> GameState | Response:
    """The player's game where they left it; 204 before their first (no error: pages ask each visit)."""
    state = await run_in_threadpool(service.current, token)
    return Response(status_code=204) if state is None else state


@router.post("/{game_id}/moves", responses={**_GAME_ERRORS, **errors(413)})
async def make_move(game_id: GameId, body: MoveIn, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Make the player's move; the computer players answer up to the player's next decision."""
    return await run_in_threadpool(service.move, token, game_id, body.move, body.version)


@router.post("/{game_id}/next", responses={**_GAME_ERRORS, **errors(413)})
async def next_hand(game_id: GameId, body: NextHandIn, service: ServiceDep, token: TokenDep) -> MoveOut:
    """Deal the next hand once a hand is over."""
    return await run_in_threadpool(service.next_hand, token, game_id, body.version)


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
