"""Typed dependencies the routers share: the service, and the caller's player token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from spades.server.service import Service

__all__ = ["ServiceDep", "TokenDep"]


def get_service(request: Request) -> Service:
    """The app's one service."""
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(get_service)]


def get_token(
    service: ServiceDep,
    token: Annotated[str, Header(alias="X-Player-Token", max_length=64,
                                 description="the anonymous token from POST /api/players")],
) -> str:
    """The caller's checked player token."""
    return service.player(token)


TokenDep = Annotated[str, Depends(get_token)]
