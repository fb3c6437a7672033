"""Typed dependencies the routers share: the service, and the caller's player token.

They are coroutines, so FastAPI runs them on the event loop instead of handing each to a worker
thread and back (under load those hand-offs cost more than the dependencies themselves). Every request's
credential is looked up in the store (a signing out counts at once in every process): on the loop when
the store is a local SQLite file (a read by key, which never waits: if a lock held by another program
would make it, it is refused as busy rather than hold up the loop), else in a worker thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.concurrency import run_in_threadpool

from spades.server.schemas import TOKEN_PATTERN
from spades.server.service import Service
from spades.server.store import at_once
from spades.server.tournaments.service import Tournaments

__all__ = ["CallerDep", "MaybeTokenDep", "ServiceDep", "TokenDep", "TournamentsDep", "player_of"]


async def get_service(request: Request) -> Service:
    """The app's one service."""
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(get_service)]


async def get_tournaments(request: Request) -> Tournaments:
    """The app's hosted tournaments."""
    tournaments: Tournaments = request.app.state.tournaments
    return tournaments


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]
_TOKEN = {"pattern": TOKEN_PATTERN}
"""The token's form in the schema; the service refuses any other with a 400 that says it is malformed."""


_CREDENTIAL = Header(alias="X-Player-Token", max_length=64, json_schema_extra=_TOKEN,
                     description="the anonymous token from POST /api/players, or a session's from signing in")


async def get_caller(service: ServiceDep, token: Annotated[str, _CREDENTIAL]) -> tuple[str, str]:
    """The player the caller's credential stands for (their own token: the key of their games), and the
    credential itself (which signing out ends)."""
    return await player_of(service, token), token


async def player_of(service: Service, credential: str) -> str:
    """The player a credential stands for, asked of the store from the event loop (the module's way)."""
    if service.store.local:
        with at_once(0):  # as the loop's writes: its connection's lock wait is then never set again
            return service.player(credential)
    return await run_in_threadpool(service.player, credential)


CallerDep = Annotated[tuple[str, str], Depends(get_caller)]


async def get_token(caller: CallerDep) -> str:
    """The player the caller's credential stands for."""
    return caller[0]


TokenDep = Annotated[str, Depends(get_token)]


async def get_maybe_token(
    service: ServiceDep,
    token: Annotated[str | None, Header(alias="X-Player-Token", max_length=64, json_schema_extra=_TOKEN,
                                        description="the token from POST /api/players (or a "
                                                    "session's), if any")] = None,
) -> str | None:
    """The caller's player where a credential is optional (None when the request carries none)."""
    return None if token is None else (await get_caller(service, token))[0]


MaybeTokenDep = Annotated[str | None, Depends(get_maybe_token)]
