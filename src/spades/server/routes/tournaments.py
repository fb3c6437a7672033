"""Hosted tournaments over HTTP: create, register, start, look (standings, travellers, your seat), end a
round, withdraw; the results as JSON, CSV and PDF; the page.

The host proves themselves with the ``X-Host-Token`` creating gave, a registered person with the
``X-Entry-Token`` registering gave. Each route is one call to the app's ``tournaments.Tournaments``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from spades.errors import SpadesError
from spades.rules import Rules
from spades.server.deps import MaybeTokenDep, TournamentsDep
from spades.server.routes.scorekeeper import PDF_RESPONSES, STATIC, print_pdf
from spades.server.schemas import TOKEN_PATTERN, ErrorOut, Level, Preset, RuleOptions, StrictIn, text_pattern
from spades.server.store import StoreError
from spades.server.tables.hub import CODE_ALPHABET, CODE_LENGTH
from spades.server.tables.state import TableError, clean_text, hash_token
from spades.server.tables.views import DisplayName
from spades.server.tournaments.live import Look, Watch
from spades.server.tournaments.model import Tournament
from spades.server.tournaments.service import Tournaments
from spades.tournament.printable import results_pdf
from spades.tournament.run import Format, TournamentResult

__all__ = ["AboutOut", "EntryOut", "ListedOut", "NewTournamentIn", "TournamentOut", "router"]

_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut, "description": text}
                                            for status, text in {
    400: "Rules that contradict each other or do not suit a tournament, individuals or rounds to a target in "
         "a format other than Swiss, or a registration with no name from a player without an account: the "
         "detail says why.",
    403: "Only the host (or, to withdraw, the person) may do that; or a token this tournament never gave.",
    404: "No tournament has this code, or no one is registered under that number.",
    409: "Not now: registration closed, a name registered already, too few people, more rounds than the "
         "entrants can be paired for, the tournament over; the detail says why.",
    422: "A name that is empty, too long or holds control characters, or a malformed body.",
    429: "Too many requests: wait a little.",
    503: "The database cannot serve this right now: nothing was changed; try again.",
}.items()}

router = APIRouter(tags=["tournaments"], responses=_ERRORS)
MAX_TITLE = 60

_TOKEN = {"pattern": TOKEN_PATTERN}
HostToken = Annotated[str, Header(alias="X-Host-Token", max_length=64, json_schema_extra=_TOKEN,
                                  description="the host's secret token, from creating the tournament")]
MaybeHostToken = Annotated[str | None, Header(alias="X-Host-Token", max_length=64, json_schema_extra=_TOKEN,
                                              description="the host's token: the answer says you are host")]
MaybeEntryToken = Annotated[str | None, Header(
    alias="X-Entry-Token", max_length=64, json_schema_extra=_TOKEN,
    description="a registration token: the answer holds that person's seat at the round's table")]
Code = Annotated[str, Path(description="the tournament's code, as creating it gave it",
                           json_schema_extra={"pattern": f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$"})]


class NewTournamentIn(StrictIn):
    """A tournament as the host sets it up (people make its pairs or teams in the order they register)."""

    name: str = Field(max_length=200, json_schema_extra={"pattern": text_pattern(MAX_TITLE)},
                      description=f"the tournament's name: 1 to {MAX_TITLE} characters once trimmed, none a "
                                  "control character (else a 422 that says why)")
    format: Format = Field(default="duplicate-pairs", description="duplicate pairs (a Mitchell movement), "
                           "Swiss (each round paired by the standings) or teams of four")
    individual: bool = Field(default=False, description="Swiss only: each person plays on their own, "
                             "partners changing every round")
    rounds: int = Field(default=2, ge=1, le=12, description="rounds (a Mitchell: at most one a table; Swiss: "
                        "fewer than the entrants)")
    to_target: bool = Field(default=False, description="Swiss only: a round is a game to the rules' target "
                            "at each table, instead of its boards")
    boards: int = Field(default=2, ge=1, le=8, description="boards each round, each one hand from 0-0 (not "
                        "used in rounds to a target)")
    preset: Preset = "standard"
    options: RuleOptions = Field(default_factory=dict)
    level: Level = "normal"
    turn_seconds: float = Field(default=30, ge=5, le=600, description="seconds per move before a computer "
                                "player moves for a person, and before the next board is dealt")
    grace: float = Field(default=30, ge=5, le=600, description="seconds a person may be away (or not come) "
                                                                  "before a computer player takes their seat")
    listed: bool = Field(default=False, description="list it at GET /api/tournaments (and on the page), for "
                         "anyone to find and join; else only its link leads to it")


class AboutOut(BaseModel):
    """What a tournament is, as its host set it up: the part of it a listing and its page both show."""

    code: str
    name: str
    format: Format
    individual: bool
    to_target: bool
    rules_name: str
    rounds: int
    boards: int
    """Boards a round (0: each round is a game to the target)."""

    @classmethod
    def fields_of(cls, t: Tournament) -> dict[str, Any]:
        """These fields of a stored tournament."""
        return {"code": t.code, "name": t.name, "format": t.format, "individual": t.individual,
                "to_target": t.to_target, "rules_name": t.rules.name, "rounds": t.rounds, "boards": t.boards}


class ListedOut(AboutOut):
    """A tournament its host listed for anyone to join: what it is, how many registered, where it stands."""

    status: Literal["open", "playing"]
    target: int
    people: int


class CreatedOut(BaseModel):
    """The new tournament's code (its link is ``/tournaments/{code}``) and the host's secret token."""

    code: str
    host_token: str


class EntryIn(StrictIn):
    """Register: the name to play under (names are unique in a tournament); a player with an account
    plays under their account's name, and may leave it out."""

    name: DisplayName | None = None


class EntryOut(BaseModel):
    """The person's number and secret registration token (the page keeps it: it fetches their seats)."""

    number: int
    token: str


class PersonOut(BaseModel):
    """Someone registered: their number, name, entrant (their pair or team, from 1; in individual Swiss
    their own number plus 1) and whether a computer plays for them."""

    number: int
    name: str
    entrant: int
    computer: bool


class TableOut(BaseModel):
    """A table of the round being played: its code, its sides (pairs, teams, or two people each), and the
    boards it has played."""

    table: int
    code: str
    ns: str
    ew: str
    played: int


class YouOut(BaseModel):
    """The person the entry token names, and their seat at the round's table (if they have one)."""

    number: int
    code: str | None
    seat: int | None
    token: str | None
    """Their seat token at that table (the table's page takes it as a friends' table's seat)."""


class TournamentOut(AboutOut):
    """A tournament as everyone sees it, with the asker's part: standings and travellers count the boards
    every table of their round has played (a round the host ended: those every table had played by then)."""

    status: Literal["open", "playing", "over"]
    level: str
    turn_seconds: float
    grace: float
    round: int
    """The round being played (or last played), from 1; 0 before the start."""
    people: list[PersonOut]
    tables: list[TableOut]
    byes: list[str]
    """Swiss and teams: who sits the round being played out (a bye counts as a tied match)."""
    repeats: bool
    """Swiss and teams: the round repeats a match (or a partnership) since no pairing avoids it."""
    results: dict[str, Any]
    """The results so far as ``spades tournament --json`` writes them: standings, rounds, travellers."""
    host: bool
    you: YouOut | None


@router.post("/api/tournaments", status_code=201)
def create(body: NewTournamentIn, tournaments: TournamentsDep) -> CreatedOut:
    """Create a tournament open for registration; share its link. Keep the host token: it starts it."""
    try:
        rules = Rules.from_dict({"preset": body.preset, **body.options})
    except SpadesError as e:
        raise TableError(str(e)) from None
    name = clean_text(body.name, what="tournament's name", limit=MAX_TITLE)
    code, host = tournaments.create(name, rules, body.rounds, body.boards, body.level, body.turn_seconds,
                                    body.grace, body.format, body.individual, body.to_target, body.listed)
    return CreatedOut(code=code, host_token=host)


@router.get("/api/tournaments")
def listed(tournaments: TournamentsDep) -> list[ListedOut]:
    """The tournaments their hosts listed that are open for registration or under way (made in the last
    week), the newest first, at most 50: register at ``/tournaments/{code}`` while open, watch it after."""
    return [ListedOut(**ListedOut.fields_of(t), status="open" if t.status == "open" else "playing",
                      target=t.rules.target, people=len(t.people))
            for t in tournaments.listed()]


@router.get("/api/tournaments/{code}")
def look(code: Code, tournaments: TournamentsDep, host: MaybeHostToken = None,
         entry: MaybeEntryToken = None) -> TournamentOut:
    """The tournament now (its next round opened if the last is over), and the asker's seat."""
    t, result, played = tournaments.look(code)
    you = None
    if entry is not None:
        number, table, seat, token = tournaments.seat(t, entry)
        you = YouOut(number=number, code=table, seat=seat, token=token)
    return _out(t, result, played, host, you)


@router.websocket("/api/tournaments/{code}/live")
async def live(ws: WebSocket, code: str) -> None:
    """The tournament as it changes, instead of asking again and again: send ``{"host": token, "entry":
    token}`` first (either, both or neither, as the headers of ``GET /api/tournaments/{code}``); each
    message is then ``{"type": "tournament", "host": ..., "you": ..., "tournament": ...}``, the tournament
    as that GET answers it (``host`` and ``you`` beside it), at once and each time it changes; a refusal is
    ``{"type": "error", "status": ..., "detail": ...}`` (as is a second message from the page), and the
    connection closes."""
    watch: Watch = ws.app.state.tournament_watch
    await ws.accept()
    feed: AsyncGenerator[Look, None] | None = None
    try:
        host, entry = _hello(await asyncio.wait_for(ws.receive_text(), _HELLO_WAIT))
        feed = watch.follow(code)
        await ws.send_text(_pushed(await anext(feed), watch.tournaments, host, entry))
        sender = asyncio.create_task(_push(ws, feed, watch.tournaments, host, entry))
        try:
            if (await ws.receive())["type"] != "websocket.disconnect":
                raise TableError("A page says nothing after its hello: it is only sent the tournament.")
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, OSError):
                await sender
    except (TableError, StoreError) as e:
        await _refuse(ws, e)
    except (TimeoutError, WebSocketDisconnect, OSError):
        pass
    finally:
        if feed is not None:
            await feed.aclose()


async def _refuse(ws: WebSocket, e: TableError | StoreError) -> None:
    """Tell the page why it is no longer followed (a 503: the database failed, connect again), and close."""
    with contextlib.suppress(Exception):
        status = 503 if isinstance(e, StoreError) else e.status
        await ws.send_text(json.dumps({"type": "error", "status": status, "detail": str(e)}))
        await ws.close(code=4000 + status)


_HELLO_WAIT = 15.0
_TOKEN_RE = re.compile(TOKEN_PATTERN)


def _hello(text: str) -> tuple[str | None, str | None]:
    """The host's and the person's tokens a page's first message holds (TableError if it is no hello)."""
    try:
        data = json.loads(text) if len(text) <= 500 else None
    except ValueError:
        data = None
    if not isinstance(data, dict) or set(data) - {"host", "entry"} or not all(
            isinstance(v, str) and _TOKEN_RE.fullmatch(v) for v in data.values()):
        raise TableError('Say hello first: {"host": "<host token>", "entry": "<registration token>"}, '
                         "either or neither.")
    return data.get("host"), data.get("entry")


async def _push(ws: WebSocket, feed: AsyncIterator[Look], tournaments: Tournaments, host: str | None,
                entry: str | None) -> None:
    """Send the page each new look at the tournament (a person withdrawn before the start is refused)."""
    try:
        async for look in feed:
            await ws.send_text(_pushed(look, tournaments, host, entry))
    except TableError as e:
        await _refuse(ws, e)


def _pushed(look: Look, tournaments: Tournaments, host: str | None, entry: str | None) -> str:
    """A look as a page's message: what everyone sees (made once a look), and the page's own part."""
    t = look.tournament
    you = None
    if entry is not None:
        number, table, seat, token = tournaments.seat(t, entry)
        you = YouOut(number=number, code=table, seat=seat, token=token).model_dump_json()
    is_host = host is not None and hash_token(host) == t.host
    return (f'{{"type":"tournament","host":{"true" if is_host else "false"},"you":{you or "null"},'
            f'"tournament":{_shared(look)}}}')


@functools.lru_cache(maxsize=16)
def _shared(look: Look) -> str:
    """What every page sees of a look, as JSON (``host`` and ``you`` left empty)."""
    return _out(look.tournament, look.result, look.played, None, None).model_dump_json()


@router.post("/api/tournaments/{code}/entries", status_code=201)
def register(code: Code, body: EntryIn, tournaments: TournamentsDep, player: MaybeTokenDep) -> EntryOut:
    """Register under a name before the start (people are paired in the order they register); with the
    X-Player-Token of an account, under the account's name, once."""
    token, number = tournaments.register(code, body.name, player)
    return EntryOut(number=number, token=token)


@router.delete("/api/tournaments/{code}/entries/{number}", status_code=204)
def withdraw(code: Code, number: Annotated[int, Path(ge=0, le=10_000)], tournaments: TournamentsDep,
             host: MaybeHostToken = None, entry: MaybeEntryToken = None) -> Response:
    """Withdraw a person (the host, or the person): before the start they leave the list; after it a
    computer player plays for them from now on."""
    tournaments.withdraw(code, number, host or entry or "")
    return Response(status_code=204)


@router.post("/api/tournaments/{code}/start", status_code=204)
def start(code: Code, host: HostToken, tournaments: TournamentsDep) -> Response:
    """The host starts the tournament: the first round's tables open, everyone seated."""
    tournaments.start(code, host)
    return Response(status_code=204)


@router.post("/api/tournaments/{code}/end-round", status_code=204)
def end_round(code: Code, host: HostToken, tournaments: TournamentsDep,
              round: Annotated[int | None, Query(ge=1, le=10_000)] = None) -> Response:
    """The host ends the round (``round``, from 1, if given: 409 when that round is over already): the
    boards every table has played count, and the next round opens."""
    tournaments.end_round(code, host, round)
    return Response(status_code=204)


@router.get("/api/tournaments/{code}/results.json")
def results_json(code: Code, tournaments: TournamentsDep) -> dict[str, Any]:
    """The results so far as ``spades tournament --json`` writes them."""
    return tournaments.look(code)[1].to_dict()


@router.get("/api/tournaments/{code}/{table}.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})
def results_csv(code: Code, table: Literal["standings", "travellers"],
                tournaments: TournamentsDep) -> Response:
    """The standings, or every traveller line, as CSV."""
    result = tournaments.look(code)[1]
    text = result.standings_csv() if table == "standings" else result.travellers_csv()
    return Response(text, media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{table}.csv"'})


@router.get("/api/tournaments/{code}/results.pdf", response_class=Response, responses=PDF_RESPONSES)
def pdf(code: Code, tournaments: TournamentsDep) -> Response:
    """The standings and every traveller, to print."""
    result = tournaments.look(code)[1]
    return print_pdf(lambda: results_pdf(result), "tournament.pdf")


pages = APIRouter(include_in_schema=False)


@pages.get("/tournaments")
@pages.get("/tournaments/{code}")
def page() -> FileResponse:
    """The tournament page: create one, or (with a code) register, play and follow the standings."""
    return FileResponse(STATIC / "tournament.html")


def _out(t: Tournament, result: TournamentResult, played: list[int], host: str | None,
         you: YouOut | None) -> TournamentOut:
    """The answer to a look: the tournament, its results, the round's tables."""
    r = t.current
    tables = [TableOut(table=i + 1, code=code, ns=result.side_name(s.ns), ew=result.side_name(s.ew), played=n)
              for i, (s, code, n) in enumerate(zip(t.round_tables(r), t.tables[r], played, strict=True))
              ] if r >= 0 else []
    return TournamentOut(
        **TournamentOut.fields_of(t), status=t.status, level=t.level,
        turn_seconds=t.turn_seconds, grace=t.grace, round=r + 1,
        people=[PersonOut(number=i, name=p.name, entrant=i // t.size + 1, computer=p.computer)
                for i, p in enumerate(t.people)],
        tables=tables, byes=[result.name(e) for e in t.byes(r)] if r >= 0 else [],
        repeats=r >= 0 and t.repeats(r), results=result.to_dict(), you=you,
        host=host is not None and hash_token(host) == t.host)
