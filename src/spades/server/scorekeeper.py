"""The scorekeeper's routes: the page, scoring a whole game (stateless), and the printable PDFs.

The browser keeps the game (no account) and sends every hand each time; the server rescores
from the first hand, so a corrected hand 1 rescores hands 2 and 3. Impossible input is a 400
whose message names the hand and the team.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from spades.printables import rule_sheet_pdf, score_sheet_pdf
from spades.scorekeeper import HandRow, ScoreGame, status_text
from spades.scoring import SideScore

__all__ = ["ScoreGameIn", "ScoreSheetOut", "router"]

MAX_HANDS = 400
STATIC = Path(__file__).parent / "static"

router = APIRouter(tags=["scorekeeper"])

_BAD: dict[int | str, dict[str, Any]] = {400: {"description": "A hand that cannot have happened; the "
                                               "detail names the hand and what to fix."}}


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerIn(_In):
    """One player's bid; for a nil bidder, whether it was kept and the tricks that player won."""

    bid: str | int = Field(description="4, nil, blind nil or 10 for 200")
    kept: bool | None = Field(default=None, description="nil bidders: kept (null: judged from nil_tricks)")
    nil_tricks: int = Field(default=0, description="nil bidders: the tricks they won")


class TeamIn(_In):
    """A team's line: both partners' bids and the tricks the team won."""

    players: list[PlayerIn] = Field(min_length=2, max_length=2)
    tricks: int


class HandIn(_In):
    """A hand as written on the score pad."""

    teams: list[TeamIn] = Field(min_length=2, max_length=2)
    renege: int | None = Field(default=None, description="the team (0 or 1) that reneged, if any")


class ScoreGameIn(_In):
    """A whole game: the rule options chosen at the start, the team names, every hand so far."""

    rules: dict[str, Any] = Field(default_factory=dict, description="Rules options, as GET /api/rules lists")
    names: list[str] = Field(default=["Team 1", "Team 2"], min_length=2, max_length=2)
    hands: list[HandIn] = Field(default_factory=list, max_length=MAX_HANDS)

    def game(self) -> ScoreGame:
        """The checked domain game (a SpadesError, hence a 400, if it cannot be)."""
        return ScoreGame.from_dict({"version": 1, **self.model_dump()})


class TeamRowOut(BaseModel):
    """One team's cells in a hand's row, and the breakdown in words."""

    bid: str
    tricks: int
    points: int
    bags: int
    total: int
    made: bool
    notes: list[str]


class RowOut(BaseModel):
    """A scored hand."""

    number: int
    teams: list[TeamRowOut]


class ScoreSheetOut(BaseModel):
    """The scored game: rows, running totals, and how the game stands."""

    names: list[str]
    target: int
    rows: list[RowOut]
    totals: list[int]
    bags: list[int]
    winner: int | None
    tied: bool = Field(description="the end was reached level: one more hand decides it")
    status: str


def _notes(side: SideScore, reneged: bool, bag_limit: int) -> list[str]:
    """A team's hand in words: contract, bags, nils, bag penalty."""
    notes: list[str] = []
    if reneged:
        notes.append("reneged")
    if side.ten_for_two_hundred:
        notes.append(f"10 for 200 {'made' if side.made else 'failed'} ({side.contract_points:+d})")
    elif side.contract or not side.nils:
        verb = "made" if side.made else "set on"
        notes.append(f"{verb} {side.contract} ({side.contract_points:+d})")
    if side.bags_added:
        notes.append(f"{side.bags_added} bag{'s' * (side.bags_added != 1)} ({side.bag_points:+d})")
    for nil in side.nils:
        kind = "blind nil" if nil.blind else "nil"
        outcome = "kept" if nil.made else f"broken, {nil.tricks} won"
        notes.append(f"{kind} {outcome} ({nil.points:+d})")
    if side.penalties:
        notes.append(f"{bag_limit * side.penalties} bags reached ({-side.penalty_points:+d})")
    return notes


def _row(row: HandRow, bag_limit: int) -> RowOut:
    return RowOut(number=row.number, teams=[
        TeamRowOut(bid=team.bid_text, tricks=team.tricks, points=row.score.points[s], bags=row.bags[s],
                   total=row.totals[s], made=row.score.sides[s].made,
                   notes=_notes(row.score.sides[s], row.entry.renege == s, bag_limit))
        for s, team in enumerate(row.entry.teams)
    ])


@router.get("/scorekeeper", include_in_schema=False)
def scorekeeper_page() -> FileResponse:
    """The scorekeeper page."""
    return FileResponse(STATIC / "scorekeeper.html")


@router.post("/api/scorekeeper/score", responses=_BAD)
def score(body: ScoreGameIn) -> ScoreSheetOut:
    """Score every hand from the first, with the game's rules; the first impossible hand is a 400."""
    game = body.game()
    sheet = game.sheet()
    limit = game.rules.bag_limit
    return ScoreSheetOut(names=list(game.names), target=game.rules.target,
                         rows=[_row(r, limit) for r in sheet.rows], totals=list(sheet.totals),
                         bags=list(sheet.bags), winner=sheet.winner, tied=sheet.tied,
                         status=status_text(game))


def _pdf(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/scorekeeper/rule-sheet.pdf", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}})
def rule_sheet() -> Response:
    """The one-page rule sheet (Letter)."""
    return _pdf(rule_sheet_pdf(), "spades-rules.pdf")


@router.get("/api/scorekeeper/score-sheet.pdf", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}})
def blank_score_sheet() -> Response:
    """A blank Spades score sheet (Letter)."""
    return _pdf(score_sheet_pdf(), "spades-score-sheet.pdf")


@router.post("/api/scorekeeper/score-sheet.pdf", response_class=Response,
             responses={200: {"content": {"application/pdf": {}}}, **_BAD})
def filled_score_sheet(body: ScoreGameIn) -> Response:
    """The score sheet filled in with a game's hands: a finished game kept on paper."""
    return _pdf(score_sheet_pdf(body.game()), "spades-game.pdf")
