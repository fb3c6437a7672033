"""The player's token, settings and stats."""

from __future__ import annotations

from fastapi import APIRouter

from spades.server.deps import ServiceDep, TokenDep
from spades.server.schemas import TOKEN_ERRORS, PlayerOut, SettingsIn, StatsOut, errors

router = APIRouter(prefix="/api", tags=["players"], responses=errors(429))


@router.post("/players", status_code=201, responses=errors(503))
def new_player(service: ServiceDep) -> PlayerOut:
    """A new anonymous player token; the browser keeps it and sends it as X-Player-Token."""
    return PlayerOut(token=service.new_player())


@router.get("/settings", responses=TOKEN_ERRORS)
def get_settings(service: ServiceDep, token: TokenDep) -> SettingsIn:
    """The player's settings."""
    return service.settings(token)


@router.put("/settings", responses={**TOKEN_ERRORS, **errors(413)})
def put_settings(body: SettingsIn, service: ServiceDep, token: TokenDep) -> SettingsIn:
    """Save the player's settings (the rules are checked first)."""
    return service.save_settings(token, body)


@router.get("/stats", responses=TOKEN_ERRORS)
def get_stats(service: ServiceDep, token: TokenDep) -> StatsOut:
    """Games played and won, win rate, best final score, win streaks."""
    return service.stats(token)
