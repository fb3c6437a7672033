"""Typed dependencies the routers share: the service, and the caller's player token.

They are coroutines, so FastAPI runs them on the event loop instead of handing each to a worker
thread and back (under load those hand-offs cost more than the dependencies themselves); only a
token this process has not seen yet is looked up in the store, in a worker thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.concurrency import run_in_threadpool

from spades.server.schemas import TOKEN_PATTERN
from spades.server.service import Service

__all__ = ["MaybeTokenDep", "ServiceDep", "TokenDep"]


async def get_service(request: Request) -> Service:
    """The app's one service."""
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(get_service)]
_TOKEN = {"pattern": TOKEN_PATTERN}
"""The token's form in the schema; the service refuses any other with a 400 that says it is malformed."""


async def get_token(
    service: ServiceDep,
    token: Annotated[str, Header(alias="X-Player-Token", max_length=64, json_schema_extra=_TOKEN,
                                 description="the anonymous token from POST /api/players")],
) -> str:
    """The caller's checked player token."""
    if service.is_known(token):
        return token
    return await run_in_threadpool(service.player, token)


TokenDep = Annotated[str, Depends(get_token)]


async def get_maybe_token(
    service: ServiceDep,
    token: Annotated[str | None, Header(alias="X-Player-Token", max_length=64, json_schema_extra=_TOKEN,
                                        description="the token from POST /api/players, if any")] = None,
) -> str | None:
    """The caller's checked player token where it is optional (None when the request carries none)."""
    return None if token is None else await get_token(service, token)


MaybeTokenDep = Annotated[str | None, Depends(get_maybe_token)]
