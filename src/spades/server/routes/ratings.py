"""Ratings: a player's profile by name, the caller's own ratings, each rated rule set's leaderboard."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from spades.server.deps import MaybeTokenDep, TokenDep
from spades.server.schemas import TOKEN_ERRORS, LeaderboardOut, ProfileOut, errors
from spades.server.standings import Standings

router = APIRouter(prefix="/api", tags=["ratings"], responses=errors(429, 503))


def get_standings(request: Request) -> Standings:
    """The app's profiles and leaderboards."""
    standings: Standings = request.app.state.standings
    return standings


StandingsDep = Annotated[Standings, Depends(get_standings)]


@router.get("/leaderboard", responses=errors(400, 401, 404, 422))
def leaderboard(standings: StandingsDep, token: MaybeTokenDep,
                rules: Annotated[str, Query(max_length=40, description="the rated rule set")] = "standard",
                limit: Annotated[int, Query(ge=1, le=500, description="places at most")] = 100,
                ) -> LeaderboardOut:
    """The named players and computer levels past their provisional games under a rated rule set, the
    highest rated first; with the caller's credential, their own standing too (listed or not yet)."""
    return standings.leaderboard(rules, limit, token)


@router.get("/profiles/{name}", responses=errors(404, 422))
def profile(name: Annotated[str, Path(max_length=64, description="the player's name, or a computer level")],
            standings: StandingsDep) -> ProfileOut:
    """A player's rating under each rated rule set (with its uncertainty), and their latest rated games
    with their results and the rating before and after each (its history)."""
    return standings.profile(name)


@router.get("/ratings", responses=TOKEN_ERRORS)
def own_ratings(standings: StandingsDep, token: TokenDep) -> ProfileOut:
    """The caller's own ratings and rated games."""
    return standings.own(token)
