"""The lobby over HTTP: the tables listed there, and the Quick game's queue (press, ask, cancel).

Each route is one call to the app's ``lobby.Lobby``; the person waiting is known by their player token.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from spades.server.deps import TokenDep
from spades.server.lobby import Listed, Lobby, QuickStatus, quick_rules, rated_as, window
from spades.server.present import rules_json
from spades.server.schemas import ErrorOut, Preset, RuleOptions, StrictIn
from spades.server.tables.views import DisplayName, LobbyView

__all__ = ["ListedTable", "LobbyOut", "QuickIn", "QuickOut", "router"]

_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut, "description": text}
                                            for status, text in {
    400: "Rules that contradict each other, or a malformed token: the detail says why.",
    401: "The X-Player-Token is not known here (ask POST /api/players for one).",
    422: "A display name that is empty, too long, holds control characters or is kept for the computer "
         "players, or a malformed body.",
    429: "Too many requests: wait a little.",
    503: "The database cannot serve this right now: nothing was changed; try again.",
}.items()}

router = APIRouter(tags=["lobby"], responses=_ERRORS)


async def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(_lobby)]


class ListedTable(LobbyView):
    """A listed table as its link shows it, with the rating of who sits in each seat."""

    ratings: list[int | None]
    """By seat, on the 1500 scale, under the rated rule set the rules play: the person's (1500 if not yet
    rated), or the computer level's where a computer player plays; None for a free seat, a person not known
    by a player token, or rules no rated rule set covers."""


class LobbyOut(BaseModel):
    """The tables listed in the lobby, the latest first: those with a free seat, and those under way."""

    tables: list[ListedTable]
    """Those with a free seat whose game is not over: to join."""
    playing: list[ListedTable]
    """Those whose game is under way (not over): to watch (one with a free seat is in both lists)."""


class QuickIn(StrictIn):
    """Quick game: the display name to sit down with, and the rules to play (a preset, with options)."""

    name: DisplayName
    preset: Preset = "standard"
    options: RuleOptions = Field(default_factory=dict)


class QuickOut(BaseModel):
    """Where a person's Quick game stands: ``waiting`` (for others of a similar rating, with the seconds
    before computer players take the seats no one came for), or ``seated`` (the table, the seat and its
    secret token: the person's page opens the table with it)."""

    status: Literal["waiting", "seated"]
    rated: str | None
    """The rated rule set the rules play, under which the table is rated and ``rating`` is (None: unrated)."""
    rules: dict[str, Any]
    """The rules waited for, every option (as a table's view gives them)."""
    rules_name: str
    players: int
    name: str
    rating: float
    waited: float
    """Seconds waited so far."""
    others: int
    """How many others wait for the same rules now (of any rating; 0 once seated)."""
    window: float
    """Points either side of the rating within which others are met now (it widens as the wait goes on)."""
    fill_in: float
    """Seconds before computer players take the seats no one came for (0 once seated)."""
    code: str | None = None
    seat: int | None = None
    token: str | None = None


def _out(status: QuickStatus) -> QuickOut:
    """A person's Quick game as the API answers it (the table and seat only once seated)."""
    wait, rules = status.wait, status.rules
    seated = status.token is not None
    return QuickOut(status="seated" if seated else "waiting", rated=rated_as(rules), rules=rules_json(rules),
                    rules_name=rules.name, players=rules.players, name=wait.name, rating=wait.rating,
                    waited=round(wait.waited, 1), window=round(window(wait.waited)), others=status.others,
                    fill_in=round(status.fill_in, 1), code=wait.code if seated else None,
                    seat=wait.seat if seated else None, token=status.token)


@router.get("/api/lobby")
def tables(lobby: LobbyDep) -> LobbyOut:
    """The friends' tables their hosts listed in the lobby (at most 50, the latest touched first), those
    with a free seat and those to watch: the rules, rated or not, whether under way, who sits where with
    their ratings."""
    to_join, to_watch = lobby.tables()
    return LobbyOut(tables=_shown(to_join), playing=_shown(to_watch))


def _shown(listed: list[Listed]) -> list[ListedTable]:
    """Listed tables as the API shows them."""
    return [ListedTable(**view.model_dump(), ratings=ratings) for view, ratings in listed]


@router.post("/api/quick")
def press(body: QuickIn, lobby: LobbyDep, token: TokenDep) -> QuickOut:
    """Press Quick game: wait for people of a similar rating who want the same rules (once: pressing again
    changes the name or rules of the wait, and keeps a seat already found). Seated at once when others are
    there for you; else ask ``GET /api/quick`` every second or so, which also keeps you in the queue."""
    return _out(lobby.press(token, body.name, quick_rules(body.preset, body.options)))


@router.get("/api/quick", responses={404: {"model": ErrorOut, "description": "You are not waiting."}})
def status(lobby: LobbyDep, token: TokenDep) -> QuickOut:
    """Where your Quick game stands. A wait no page asks about for 10 seconds is dropped (you left)."""
    return _out(lobby.status(token))


@router.delete("/api/quick", status_code=204, responses={
    403: {"model": ErrorOut, "description": "A table was formed for you already: the detail names it."}})
def cancel(lobby: LobbyDep, token: TokenDep) -> Response:
    """Leave the queue (nothing happens if you were not waiting)."""
    lobby.cancel(token)
    return Response(status_code=204)
