"""The scorekeeper's routes: the page, scoring a whole game (stateless), and the printable PDFs.

The browser keeps the game (no account) and sends every hand each time; the server rescores
from the first hand, so a corrected hand 1 rescores hands 2 and 3. Impossible input is a 400
whose message names the hand and the team or player.

The cost of a request is bounded: at most ``MAX_HANDS`` hands of bounded fields, the work done in
FastAPI's threadpool (plain ``def`` routes, off the event loop), and at most ``PRINTERS`` PDFs drawn
at once; the sheets for a set of rules are kept, so printing a preset's sheet again costs nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from spades.outcome import describe_side
from spades.paper.printables import rule_sheet_pdf, score_sheet_pdf
from spades.paper.scorekeeper import (
    FORMAT_VERSION,
    MAX_HANDS,
    MAX_NAME,
    HandRow,
    ScoreGame,
    bid_choices,
    status_text,
)
from spades.rules import PRESETS, Rules, rules_from_text
from spades.server.rules_page import Changes, Preset
from spades.server.schemas import OPTION_SCHEMAS, StrictIn

__all__ = ["PDF_RESPONSES", "PRINTERS", "ScoreGameIn", "ScoreSheetOut", "print_pdf", "router"]

MOST_TRICKS = 17
"""The tricks in the largest hand (three players)."""
BidText = Annotated[str, Field(max_length=20)]
"""A bid as written: ``4``, ``nil``, ``blind nil``, ``10 for 200``."""

PRINTERS = 2
"""PDFs drawn at once (each holds a core for up to a second or two); others wait, then get a 503."""
PRINT_WAIT = 10.0
"""Seconds a PDF request waits for a free printer."""
_printers = threading.BoundedSemaphore(PRINTERS)
STATIC = Path(__file__).parents[1] / "static"

router = APIRouter(tags=["scorekeeper"])

_BAD: dict[int | str, dict[str, Any]] = {400: {"description": "A hand that cannot have happened; the "
                                               "detail names the hand and what to fix."}}


class PlayerIn(StrictIn):
    """One partner's bid; for a nil bidder, whether it was kept and the tricks that player won."""

    bid: BidText | int = Field(description="4, nil, blind nil or 10 for 200")
    kept: bool | None = Field(default=None, description="nil bidders: kept (null: judged from nil_tricks)")
    nil_tricks: int = Field(default=0, ge=0, le=MOST_TRICKS, description="nil bidders: the tricks they won")


class TeamIn(StrictIn):
    """A team's line: both partners' bids (none on a hand without bidding) and the tricks the team won."""

    players: list[PlayerIn] = Field(default_factory=list, max_length=2)
    tricks: int = Field(ge=0, le=MOST_TRICKS)


class SoloIn(StrictIn):
    """The line of a player alone: the bid (none on a hand without bidding) and the tricks won."""

    bid: BidText | int | None = Field(default=None, description="4, nil, blind nil, 0")
    tricks: int = Field(ge=0, le=MOST_TRICKS)


class HandIn(StrictIn):
    """A hand as written on the score pad: a line per team, or per player where each scores alone."""

    teams: list[TeamIn] | None = Field(default=None, min_length=2, max_length=2)
    players: list[SoloIn] | None = Field(default=None, min_length=2, max_length=4)
    renege: int | None = Field(default=None, ge=0, le=3,
                               description="the team or player (from 0) that reneged, if any")


_RULES: dict[str, Any] = {
    "properties": {"preset": {"type": "string", "enum": list(PRESETS)}, **OPTION_SCHEMAS},
    "additionalProperties": False}
"""The form of a game's rules in the schema (the rules check that the options fit together: a 400)."""


class ScoreGameIn(StrictIn):
    """A whole game: the rule options chosen at the start, the names of its score columns, every hand."""

    rules: dict[str, Any] = Field(default_factory=dict, max_length=40,
                                  description="the preset and the rule options changed from it, as GET "
                                              "/api/rules lists them", json_schema_extra=_RULES)
    names: list[Annotated[str, Field(max_length=MAX_NAME)]] = Field(
        default_factory=list, max_length=4,
        description="a name per team or per player alone (none: Team 1, Player 1...)")
    hands: list[HandIn] = Field(default_factory=list, max_length=MAX_HANDS)

    def game(self) -> ScoreGame:
        """The checked domain game (a SpadesError, hence a 400, if it cannot be)."""
        return ScoreGame.from_dict({"version": FORMAT_VERSION, "rules": self.rules, "names": self.names,
                                    "hands": [h.model_dump(exclude_none=True) for h in self.hands]})


class SideRowOut(BaseModel):
    """One team's or player's cells in a hand's row, and the breakdown in words."""

    bid: str
    tricks: int
    points: int
    bags: int
    total: int
    made: bool
    contract: int = Field(description="tricks bid, nils apart; 10 for 10 for 200")
    penalties: int = Field(description="how many times the bags reached the limit this hand")
    notes: list[str] = Field(description="the hand in words: contract, bags, nils, bag penalty, Boston")


class RowOut(BaseModel):
    """A scored hand: a cell group per team or player."""

    number: int
    sides: list[SideRowOut]


class ScoreSheetOut(BaseModel):
    """The scored game: rows, running totals, and how the game stands."""

    names: list[str]
    alone: bool = Field(description="each player scores alone (cutthroat, 3 or 2 players)")
    hand_size: int = Field(description="tricks in a hand: 13, or 17 with three players")
    bids: list[str] = Field(description="the bids a player may write down under these rules")
    first_hand_no_bids: bool = Field(description="hand 1 is played without bids: tricks only")
    target: int
    rows: list[RowOut]
    totals: list[int]
    bags: list[int]
    winner: int | None
    tied: bool = Field(description="the end was reached level: one more hand decides it")
    status: str


def _row(row: HandRow, rules: Rules) -> RowOut:
    """A scored hand as the scorekeeper page shows it: per side its bid, tricks, points, bags,
    total and the outcome's words."""
    no_bids = not row.entry.has_bids
    sides = []
    for s, line in enumerate(row.entry.lines):
        said = describe_side(rules, row.score.sides[s], no_bids=no_bids, reneged=row.entry.renege == s)
        sides.append(SideRowOut(
            bid=line.bid_text(rules), tricks=line.tricks, points=row.score.points[s], bags=row.bags[s],
            total=row.totals[s], made=said.made, contract=said.contract, penalties=said.penalties,
            notes=list(said.texts)))
    return RowOut(number=row.number, sides=sides)


@router.get("/scorekeeper", include_in_schema=False)
def scorekeeper_page() -> FileResponse:
    """The scorekeeper page."""
    return FileResponse(STATIC / "scorekeeper.html")


@router.post("/api/scorekeeper/score", responses=_BAD)
def score(body: ScoreGameIn) -> ScoreSheetOut:
    """Score every hand from the first, with the game's rules; the first impossible hand is a 400."""
    game = body.game()
    sheet = game.sheet()
    r = game.rules
    return ScoreSheetOut(names=list(game.names), alone=not r.has_partners, hand_size=r.hand_size,
                         bids=bid_choices(r), first_hand_no_bids=r.first_hand_no_bids, target=r.target,
                         rows=[_row(row, r) for row in sheet.rows], totals=list(sheet.totals),
                         bags=list(sheet.bags), winner=sheet.winner, tied=sheet.tied,
                         status=status_text(game))


def print_pdf(draw: Callable[[], bytes], name: str) -> Response:
    """A PDF drawn on one of the ``PRINTERS``, as a download; a 503 if none is free within ``PRINT_WAIT``."""
    if not _printers.acquire(timeout=PRINT_WAIT):
        return JSONResponse({"detail": "Every printer is busy: try again in a few seconds."}, status_code=503,
                            headers={"Retry-After": "5"})
    try:
        data = draw()
    finally:
        _printers.release()
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@lru_cache(maxsize=64)
def _rule_sheet(rules: Rules, name: str) -> bytes:
    """A rule sheet, kept for the next request for the same rules (``name`` too: the sheet prints it)."""
    return rule_sheet_pdf(rules)


@lru_cache(maxsize=64)
def _blank_score_sheet(rules: Rules) -> bytes:
    """A blank score sheet, kept for the next request for the same rules."""
    return score_sheet_pdf(rules=rules)


PDF_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/pdf": {}}},
    503: {"description": "Every printer stayed busy; try again after Retry-After seconds."}}


@router.get("/api/scorekeeper/rule-sheet.pdf", response_class=Response, responses=PDF_RESPONSES)
def rule_sheet(rules: Preset = "standard", changes: Changes = None) -> Response:
    """The one-page rule sheet (Letter) for a rules preset and any changes; unknown rules are a 400."""
    chosen = rules_from_text(rules, changes or [])
    return print_pdf(lambda: _rule_sheet(chosen, chosen.name), "spades-rules.pdf")


@router.get("/api/scorekeeper/score-sheet.pdf", response_class=Response, responses=PDF_RESPONSES)
def blank_score_sheet(rules: Preset = "standard", changes: Changes = None) -> Response:
    """A blank Spades score sheet (Letter) for the rules: a column per team, or per player alone."""
    chosen = rules_from_text(rules, changes or [])
    return print_pdf(lambda: _blank_score_sheet(chosen), "spades-score-sheet.pdf")


@router.post("/api/scorekeeper/score-sheet.pdf", response_class=Response, responses={**PDF_RESPONSES, **_BAD})
def filled_score_sheet(body: ScoreGameIn) -> Response:
    """The score sheet filled in with a game's hands: a finished game kept on paper."""
    game = body.game()
    return print_pdf(lambda: score_sheet_pdf(game), "spades-game.pdf")
