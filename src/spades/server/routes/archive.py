"""Finished games, open to everyone: a game's page and its replay, its record to download, and a
person's own records (``spades.server.archive``); the pages of profiles and leaderboards, which draw what
the ratings' routes answer."""

from __future__ import annotations

from html import escape
from pathlib import Path as FilePath
from string import Template
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import FileResponse, HTMLResponse
from starlette.concurrency import run_in_threadpool

from spades.server.archive import REF_PATTERN, Archive
from spades.server.deps import TokenDep
from spades.server.routes.ratings import StandingsDep
from spades.server.routes.scorekeeper import STATIC
from spades.server.schemas import TOKEN_ERRORS, ErrorOut, ReplayOut, errors
from spades.server.service import NotFound

__all__ = ["pages", "router"]

router = APIRouter(prefix="/api", tags=["games"], responses=errors(429))
_MISSING = Template((FilePath(__file__).parents[1] / "templates" / "page.html").read_text(encoding="utf-8"))
"""A page that says what is not there, and why."""
pages = APIRouter(include_in_schema=False)
_GAME_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No game has this reference."},
    409: {"model": ErrorOut, "description": "The game is not over (or is a daily deal whose day is not over "
                                            "everywhere): its cards are not public yet."},
    **errors(422, 503),
}


async def _archive(request: Request) -> Archive:
    archive: Archive = request.app.state.archive
    return archive


ArchiveDep = Annotated[Archive, Depends(_archive)]
Ref = Annotated[str, Path(description="the game's reference: a solo game's number, or a friends' table's "
                                      "code, a dash and the game's number there (ABC234-2)",
                          pattern=REF_PATTERN, max_length=25)]


def _download(response: Response, name: str) -> None:
    """Have a browser save the answer as a file of this name."""
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'


@router.get("/replays/{ref}", responses=_GAME_ERRORS)
async def replay(ref: Ref, archive: ArchiveDep) -> ReplayOut:
    """A finished game for its page: its end as a spectator sees it (the seats' names, the score sheet, the
    winner) and every hand face up, with its bids and tricks."""
    return await run_in_threadpool(lambda: archive.finished(ref).replay())


@router.get("/records/{ref}", responses=_GAME_ERRORS)
async def record(ref: Ref, archive: ArchiveDep, response: Response) -> dict[str, Any]:
    """A finished game's record (the format ``spades replay`` reads), as a file to save."""
    _download(response, f"spades-game-{ref}.json")
    return await run_in_threadpool(archive.record, ref)


@router.get("/records", responses=TOKEN_ERRORS)
async def my_records(archive: ArchiveDep, token: TokenDep, response: Response) -> list[dict[str, Any]]:
    """The records of every finished game of the player's, solo and at friends' tables, oldest first, as
    one file to save (a JSON array; ``spades replay`` reads it)."""
    _download(response, "spades-games.json")
    return await run_in_threadpool(archive.records_of, token)


@pages.get("/games/{ref}")
def game_page(ref: str) -> FileResponse:
    """A finished game's page (it asks ``/api/replays/{ref}`` and says so when there is no such game)."""
    return FileResponse(STATIC / "game.html")


@pages.get("/@{name}", response_model=None)
def profile_page(name: str, standings: StandingsDep) -> FileResponse | HTMLResponse:
    """A player's profile (it asks ``/api/profiles/{name}``); a 404 page that says so for no such player."""
    try:
        standings.who(name)
    except NotFound as e:
        page = _MISSING.substitute(title="No such player", message=escape(str(e)))
        return HTMLResponse(page, status_code=404)
    return FileResponse(STATIC / "profile.html")


@pages.get("/leaderboard")
def leaderboard_page() -> FileResponse:
    """Each rated rule set's leaderboard (it asks ``/api/leaderboard``)."""
    return FileResponse(STATIC / "leaderboard.html")
