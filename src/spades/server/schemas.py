"""The API's request and response bodies: typed, and separate from the engine's own types.

Cards travel as their short text (``QH``, ``10S``, ``BJ``), bids and moves as the text forms
the engine parses (``4``, ``nil``, ``play QH``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic.config import JsonDict

from spades.bots import LEVELS
from spades.deal import MAX_DEAL
from spades.rules import OPTIONS, PRESETS, RuleOption

__all__ = [
    "MOVE_PATTERN",
    "OPTION_SCHEMAS",
    "TOKEN_ERRORS",
    "TOKEN_PATTERN",
    "CoachCostliestOut",
    "CoachDecisionOut",
    "CoachGameOut",
    "CoachHandSummaryOut",
    "CoachOut",
    "CoachReviewOut",
    "CoachTrendOut",
    "ConflictOut",
    "DateText",
    "ErrorOut",
    "EventOut",
    "GameState",
    "GroupOut",
    "HandReview",
    "HintOut",
    "Level",
    "MoveIn",
    "MoveOut",
    "NewGameIn",
    "NextHandIn",
    "OptionOut",
    "PlayStatsOut",
    "PlayedCard",
    "PlayedOut",
    "PlayerOut",
    "Preset",
    "PresetOut",
    "Record",
    "ReplayHand",
    "ReplayOut",
    "RuleOptions",
    "RulesChoice",
    "RulesOut",
    "SeatOut",
    "SettingsIn",
    "SheetRow",
    "SideOut",
    "SoloCommandIn",
    "StatsOut",
    "StatusOut",
    "StrictIn",
    "TableOut",
    "TrickOut",
    "any_case",
    "errors",
    "text_pattern",
]

TOKEN_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"
"""A player or seat token as the server issues them (``secrets.token_urlsafe``): any other is refused."""

_CARD = r"(?:10|[2-9TJQKA])[CDHS]|BJ|LJ"
MOVE_PATTERN = (rf"^(?:bid (?:[0-9]|1[0-7]|nil|blind nil|10 for 200)|play (?:{_CARD})|pass (?:{_CARD})"
                rf"(?: (?:{_CARD}))*|draw (?:keep|refuse)|look|misdeal)$")
"""The moves as the API writes them (``spades.moves.parse_move`` reads these and a few more spellings):
a move of this form is refused only for being illegal now (409), never as unreadable (400)."""


def text_pattern(limit: int) -> str:
    """A name or line the server trims and checks (``tables.table.clean_text``): 1 to ``limit`` characters
    once trimmed, none of them a control or other invisible character (Unicode category C)."""
    return rf"^\s*[^\p{{C}}\s](?:[^\p{{C}}]{{0,{limit - 2}}}[^\p{{C}}\s])?\s*$"


def any_case(texts: tuple[str, ...]) -> str:
    """A pattern matching any of ``texts`` in any case, spaces around (JSON Schema's patterns have no flags).

    >>> import re; bool(re.match(any_case(("You",)), " yOU ")), bool(re.match(any_case(("You",)), "Your"))
    (True, False)
    """
    def letters(text: str) -> str:
        """The text with each letter as a class of its two cases."""
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c if c == " " else re.escape(c)
                       for c in text)
    return rf"^\s*(?:{'|'.join(letters(t) for t in texts)})\s*$"


DateText = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"),
                     Field(json_schema_extra={"format": "date"})]
"""A day as YYYY-MM-DD; one that is no date (``2026-02-30``) is a 400 naming it."""


def _one_of(names: tuple[str, ...], what: str) -> AfterValidator:
    """Refuse a text that is none of ``names``, naming them (422)."""
    def check(value: str) -> str:
        """The text, if it is one of the names."""
        if value not in names:
            raise ValueError(f"the {what} is one of {', '.join(names)}")
        return value
    return AfterValidator(check)


Level = Annotated[str, Field(description="the computer players' level",
                             json_schema_extra={"enum": list(LEVELS)}), _one_of(LEVELS, "level")]
"""A level of the computer players."""

TableLevel = Annotated[str, Field(max_length=32, pattern=r"^[a-z][a-z0-9_-]*$",
                                  description="the computer players: a level, or an outside bot the server "
                                              "offers (GET /api/rules lists both)")]
"""A friends' table's computer players: a level or an operator's outside bot."""

Preset = Annotated[str, Field(max_length=40, description="a rules preset, as GET /api/rules lists them",
                              json_schema_extra={"enum": list(PRESETS)}), _one_of(tuple(PRESETS), "preset")]
"""A rules preset by its name."""


def _option_schema(option: RuleOption) -> dict[str, Any]:
    """One rule option's JSON Schema, from its description: its type, and its bounds or choices."""
    if option.kind == "bool":
        return {"type": "boolean", "description": option.help}
    if option.kind == "choice":
        return {"type": "string", "enum": [value for value, _ in option.choices], "description": option.help}
    number = {"type": "integer", "minimum": option.low, "maximum": option.high}
    return {**(number if option.kind == "int" else {"anyOf": [number, {"type": "null"}]}),
            "description": option.help}


def _options_only(options: dict[str, Any]) -> dict[str, Any]:
    """Refuse the keys beside the options that ``Rules.from_dict`` would read too: the preset is chosen
    on its own, and a custom rule set has no name."""
    for key in ("preset", "name"):
        if key in options:
            raise ValueError(f"{key!r} is no rule option")
    return options


OPTION_SCHEMAS: dict[str, dict[str, Any]] = {o.name: _option_schema(o) for o in OPTIONS}
"""Each rule option's JSON Schema by its name: an object of rule options has these properties."""
RuleOptions = Annotated[
    dict[Annotated[str, StringConstraints(max_length=40)], Any],
    Field(max_length=64, description="option name: value, as GET /api/rules lists them; the rules check "
          "that they fit together (blind nil needs nil bids...) and refuse a mix that does not with a 400",
          json_schema_extra={"properties": OPTION_SCHEMAS, "additionalProperties": False}),
    AfterValidator(_options_only)]
"""Rule options changed from a preset (``spades.rules.Rules.from_dict`` reads them): their names, types
and bounds stated from ``spades.rules.OPTIONS``."""


def _whole_numbers(value: Any) -> Any:
    """JSON's integral numbers as whole numbers (``300.0`` is 300), through objects and arrays."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value


class StrictIn(BaseModel):
    """A request body: a field it does not have is refused (422), never silently ignored; and each field
    takes JSON's own type only, as the schema states it (``"5"`` is no number, ``1`` no boolean), where a
    number is whole however it is written (``5.0`` is 5, as JSON Schema has it)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole(cls, data: Any) -> Any:
        """Read integral numbers as whole numbers before the strict types check them."""
        return _whole_numbers(data)


class ErrorOut(BaseModel):
    """Every error the API answers (4xx, 503): what went wrong, in words a person can act on."""

    detail: str


class StatusOut(BaseModel):
    """A probe's answer."""

    status: Literal["ok"]


class PlayerOut(BaseModel):
    """A new anonymous player token, which the browser keeps."""

    token: str = Field(pattern=TOKEN_PATTERN)


def _not_both(a: str, a_is: JsonDict, b: str, b_is: JsonDict) -> JsonDict:
    """The JSON Schema of an object that does not have both field ``a`` as ``a_is`` and ``b`` as ``b_is``."""
    return {"not": {"required": [a, b], "properties": {a: a_is, b: b_is}}}


class NewGameIn(StrictIn):
    """Start a game: a deal number, the daily deal of a date, or (neither) a fresh number."""

    model_config = ConfigDict(json_schema_extra={"allOf": [
        _not_both("deal", {"type": "integer"}, "daily", {"type": "string"}),
        _not_both("rated", {"const": True}, "deal", {"type": "integer"}),
        _not_both("rated", {"const": True}, "daily", {"type": "string"}),
        {"dependentRequired": {"tournament": ["deal", "board"]}},
        _not_both("tournament", {"type": "string"}, "board", {"const": False}),
        _not_both("tournament", {"type": "string"}, "rated", {"const": True})]})

    deal: int | None = Field(default=None, ge=1, le=MAX_DEAL, description="the deal number to play")
    daily: DateText | None = Field(default=None, description="play the daily deal of this date (not with "
                                   "a deal number)")
    resume: bool = Field(default=False, description="keep the current game if it is this same deal (with "
                         "``board``, one dealt as a board)")
    board: bool = Field(default=False, description="deal it as a board of a tournament (or any friends' "
                        "table) is dealt: the first dealer drawn from the deal number, not East, so the "
                        "seats hold the board's hands")
    tournament: str | None = Field(default=None, max_length=20, description="with ``board``: the code of "
                                   "the tournament whose board it is, to play under its rules instead of "
                                   "the player's (a 404 if there is no such tournament)")
    rated: bool = Field(default=False, description="a rated game (the player's rules must be a rated "
                        "rule set): its deal is secret until it is over, so no deal number nor daily deal")


class MoveIn(StrictIn):
    """A move by the player's seat, checked against the table's version to catch stale tabs."""

    move: str = Field(max_length=80, description="bid 4, bid nil, bid blind nil, play QH, pass AS KH, "
                      "draw keep, draw refuse, look, misdeal", json_schema_extra={"pattern": MOVE_PATTERN})
    version: int = Field(ge=0, description="the state version this move was chosen from")


class NextHandIn(StrictIn):
    """Deal the next hand once the score sheet has been seen."""

    version: int = Field(ge=0)


class SoloCommandIn(StrictIn):
    """A message on the solo game's WebSocket (``/api/games/live``): a move (``do: "move"``, as ``POST
    /api/games/{game}/moves``) or the next hand (``do: "next"``, as ``POST .../next``), answered with the
    same status and body, and its ``id`` (any whole number the page chooses, to match the answer)."""

    id: int = Field(ge=0, le=2**53, description="echoed in the answer")
    do: Literal["move", "next"]
    game: int = Field(ge=1, le=2**62, description="the game's number")
    move: str | None = Field(default=None, max_length=80, description="the move, for ``do: \"move\"``",
                             json_schema_extra={"pattern": MOVE_PATTERN})
    version: int = Field(ge=0, description="the state version this was chosen from")


class PlayedCard(BaseModel):
    """A card on the table and the seat that played it (frozen: ``present`` makes each one once)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    card: str


class TrickOut(BaseModel):
    """A finished trick."""

    leader: int
    cards: list[PlayedCard]
    winner: int


class SeatOut(BaseModel):
    """One seat as the table shows it."""

    seat: int
    name: str
    position: Literal["bottom", "left", "top", "right"]
    human: bool
    side: int
    bid: str | None
    tricks: int
    cards: int
    """How many cards the seat holds (the backs the page draws)."""
    nil_broken: bool
    """The seat bid nil (or blind nil) and has taken a trick this hand."""


class SideOut(BaseModel):
    """A team's (or lone player's) score line."""

    side: int
    name: str
    score: int
    bags: int
    bags_to_penalty: int | None = None
    """Bags the side may still take before the bag penalty (None where bags cost nothing)."""
    contract: int | None = None
    """Tricks the side must take this hand, once all its players have bid (10 for a 10 for 200)."""
    ten_for_two_hundred: bool = False
    """Whether the side's bid this hand is a 10 for 200."""
    seats: list[int]
    progress: str | None
    """This hand so far, for partners who have both bid: "3 of 7" (tricks won of tricks bid)."""


class SheetRow(BaseModel):
    """One side's line of the score sheet for one hand."""

    side: int
    bid: str
    tricks: int
    points: int
    bags: int
    bags_total: int
    contract: int
    """Tricks the side bid (not its nils); 10 for 10 for 200."""
    made: bool
    penalties: int
    """How many times the side's bags reached the limit this hand."""
    penalty_points: int
    notes: list[str]
    """The hand in words beyond a contract simply made: a set, 10 for 200, nils, bag penalty, Boston."""
    total: int


class HandReview(BaseModel):
    """A finished hand face up: every seat's cards as dealt, each trick, what was set aside."""

    number: int
    dealt: list[list[str]]
    tricks: list[TrickOut]
    set_aside: list[str]


class CoachDecisionOut(BaseModel):
    """One of the person's decisions as the coach judged it, from what their seat knew then."""

    move_index: int
    phase: str = Field(description="bid, pass or play")
    trick: int = Field(description="for a play, the trick's number in the hand (1 for the first); else 0")
    made: str = Field(description="the move made, as the API writes moves (play QH, bid 4)")
    best: str
    made_short: str = Field(description="the move made in a few characters: Q♥, 4, nil")
    best_short: str
    made_points: float = Field(description="its expected points: the side's score change minus the others'")
    best_points: float
    loss: float = Field(description="best_points - made_points")
    flagged: bool = Field(description="the move lost more than the coach's threshold, clearly")
    reason: str = Field(description="why the best move is better, in a line (empty when the move was best)")


class CoachReviewOut(BaseModel):
    """The coach's review of the person's decisions in one finished hand."""

    hand: int
    seat: int
    mistakes: int
    points_lost: float
    decisions: list[CoachDecisionOut]
    computer_moves: int = Field(default=0, description="the seat's moves in the hand that a computer player "
                                "made for the person (at a friends' table: while they were away, when the "
                                "host gave the seat away, or when their turn timer ran out): not judged")


class CoachOut(BaseModel):
    """A hand's coach review: ``done`` with the review, or where its analysis stands."""

    status: Literal["waiting", "starting", "running", "done"] = Field(
        description="waiting: queued behind `ahead` other hands; starting: its process is starting; "
                    "running: `done` of `total` decisions judged; done: the review is here")
    done: int = Field(description="decisions judged so far")
    total: int = Field(description="decisions to judge (0 until the analysis runs)")
    ahead: int = Field(default=0, description="while waiting: hands the coach reviews before this one")
    review: CoachReviewOut | None = None


class CoachHandSummaryOut(BaseModel):
    """One finished hand in the game's coach summary: where its review stands, and its figures once done."""

    hand: int
    status: Literal["waiting", "starting", "running", "done", "unavailable"] = Field(
        description="as a hand's review says; unavailable: the coach cannot review it now (see `detail`)")
    decisions: int = Field(description="decisions judged (0 until done)")
    mistakes: int
    points_lost: float
    detail: str = ""


class CoachCostliestOut(BaseModel):
    """The flagged decision of the game that gave away the most."""

    hand: int
    phase: str
    trick: int
    made_short: str
    best_short: str
    loss: float
    reason: str


class CoachGameOut(BaseModel):
    """The coach's summary of the person's game: per finished hand, and over the hands reviewed so far."""

    hands: list[CoachHandSummaryOut]
    reviewed: int = Field(description="hands whose review is done")
    decisions: int = Field(description="decisions judged in the reviewed hands")
    mistakes: int
    points_lost: float = Field(description="expected points the flagged decisions gave away")
    costliest: CoachCostliestOut | None


class GameState(BaseModel):
    """Everything the player's seat may see now, and what it may do."""

    id: int
    version: int
    deal: int
    """The deal number (0 while it is secret: a friends' table's or a rated game's, until it is over)."""
    daily: str | None
    level: str
    rules: dict[str, Any]
    rules_name: str
    players: int
    human: int
    """Your seat (at a friends' table, ``players`` for a spectator, who holds none)."""
    phase: str
    turn: int | None
    dealer: int
    hand_number: int
    seats: list[SeatOut]
    sides: list[SideOut]
    side_order: list[int]
    """The sides in seat order, yours first, then as play goes round: how the page lists them."""
    spare_tricks: int | None = None
    """Once every seat has bid: the tricks no side has bid (negative when the bids add up to more)."""
    human_side: int
    """Your side (-1 for a spectator)."""
    hand: list[str]
    legal: list[str]
    reasons: dict[str, str]
    """Why each card held but not playable now may not be played."""
    legal_bids: list[str]
    can_look: bool
    can_misdeal: bool
    pass_count: int
    passed: list[str]
    received: list[str]
    offered: list[str]
    stock: int
    """Two-player draw: the cards left in the stock (0 outside the draw)."""
    two_player_draw: str
    trick: list[PlayedCard]
    last_trick: TrickOut | None
    broken: bool
    target: int
    sheet: list[list[SheetRow]]
    sheet_legend: str
    """What the sheet's columns mean under these rules (bags, the bag penalty)."""
    review: HandReview | None
    """The hand just finished, face up (only once it is over)."""
    winner: int | None
    message: str
    coach: bool = False
    """Whether this server reviews the game's finished hands (the coach's routes answer), so that a
    page asks for the coach only where there is one."""


class EventOut(BaseModel):
    """One thing that happened at the table, with the table as it stood right after it."""

    seat: int
    kind: Literal["bid", "play", "pass", "draw", "look", "misdeal"]
    text: str
    card: str | None
    trick: list[PlayedCard]
    winner: int | None
    """Set on the play that completes a trick."""
    bids: list[str | None]
    tricks: list[int]
    progress: list[str | None]
    """Each side's progress right after the event, as ``SideOut.progress``."""
    nil_broken: list[int]
    """The seats whose nil is broken right after the event."""


class MoveOut(BaseModel):
    """The events a move caused (the player's own, then the computer players'), and the new state."""

    events: list[EventOut]
    state: GameState


class ConflictOut(ErrorOut):
    """A move that cannot be taken now (409): why, and the table as it is, to redraw from."""

    state: GameState


class HintOut(BaseModel):
    """What the computer would do in the player's seat, and why."""

    move: str
    card: str | None
    bid: str | None
    reason: str


class Record(BaseModel):
    """Games played to their end and won, the best final score, and the win streaks."""

    played: int
    won: int
    win_rate: float
    best_score: int | None
    streak: int
    best_streak: int


class StatsOut(Record):
    """The player's record over every finished game, and apart: alone, and at friends' tables (those
    where they sat with this player token)."""

    alone: Record
    friends: Record


class PlayedOut(BaseModel):
    """A finished game in a person's list, with how it ended for them."""

    ref: str = Field(description="the game's reference: its page is /games/{ref}, its record is "
                                 "/api/records/{ref}")
    finished: str = Field(description="when it ended: UTC, ISO 8601")
    won: bool
    final_score: int | None
    friends: bool = Field(description="played at a friends' table (else alone, with computer players)")


class CoachTrendOut(BaseModel):
    """The coach's verdict on one of the person's games: the points their flagged decisions lost a hand."""

    ref: str
    finished: str
    hands: int = Field(description="hands of the game the coach reviewed")
    per_hand: float = Field(description="points lost a reviewed hand")


class PlayStatsOut(BaseModel):
    """A person's play in figures over their latest finished games (``games``), counted with their side:
    contracts made and set, their own nils bid and made, the side's bags a hand; and the coach's points
    lost a hand in each game it reviewed, oldest first."""

    games: int
    hands: int
    contracts: int
    made: int
    sets: int
    nils: int
    nils_made: int
    bags_per_hand: float
    coach: list[CoachTrendOut]


class ReplayHand(HandReview):
    """A finished hand of a finished game, face up, as its page replays it."""

    dealer: int
    bids: list[str | None] = Field(description="each seat's bid as written (null: none, in a hand played "
                                               "without bids)")


class ReplayOut(BaseModel):
    """A finished game's page: the end as a spectator sees it (names, sides, the score sheet, the
    winner) and every hand face up."""

    ref: str
    table: str | None = Field(description="the friends' table's code (null: a solo game)")
    game: GameState
    hands: list[ReplayHand]
    record: str = Field(description="where the game's record downloads")


class RulesChoice(StrictIn):
    """The rules for new games: a preset and options changed from it."""

    preset: Preset = "standard"
    options: RuleOptions = Field(default_factory=dict)


class SettingsIn(StrictIn):
    """The player's settings (all saved on the server under their token)."""

    table_color: Literal["green", "blue", "red", "purple", "gray"] = "green"
    card_back: Literal["blue", "red", "green", "black", "tartan", "medallion"] = "blue"
    four_color: bool = False
    sounds: bool = True
    auto_play: bool = True
    speed: Literal["slow", "normal", "fast", "instant"] = "normal"
    level: Level = "normal"
    bots_bid_nil: bool = False
    rules: RulesChoice = Field(default_factory=RulesChoice)


class TableOut(BaseModel):
    """The table a rule set is played at, as the rules work it out: forms show it, never guess it."""

    seats: int = Field(description="players at the table: 2, 3 or 4")
    partners: bool = Field(description="two teams of partners; else each player scores alone")
    sides: int = Field(description="score columns: one per team, or per player alone")
    cards_each: int = Field(description="cards dealt to each player, and so the tricks in a hand")
    text: str = Field(description="the table in words, as the scorekeeper's form shows it")


class PresetOut(BaseModel):
    """A named preset, its options and its table."""

    name: str
    options: dict[str, Any]
    table: TableOut


class OptionOut(BaseModel):
    """One rule option, described for a form: ``spades.rules.RuleOption`` as JSON."""

    name: str
    label: str = Field(description="what the option is called at the table")
    help: str = Field(description="one sentence on what it does")
    group: str = Field(description="the key of its group in `groups`")
    kind: Literal["bool", "int", "choice", "int_or_null"]
    choices: list[str] = Field(description="a choice's values, in order")
    choice_labels: dict[str, str] = Field(description="each choice's value and its label")
    default: bool | int | str | None
    min: int | None = Field(description="the least number allowed, for a number")
    max: int | None = Field(description="the largest number allowed, for a number")


class GroupOut(BaseModel):
    """A group of rule options, as a form shows them."""

    name: str
    label: str


class RulesOut(BaseModel):
    """Every preset, every option, and the computer player levels."""

    presets: list[PresetOut]
    groups: list[GroupOut]
    options: list[OptionOut]
    levels: list[str]
    bots: list[str] = Field(description="the outside bots this server offers at friends' tables besides "
                                        "the levels (SPADES_BOTS)")


_ERRORS = {
    400: "The request cannot be carried out as asked: the detail says why.",
    401: "The player token is unknown here: ask POST /api/players for a new one.",
    404: "There is no such game or hand for this player.",
    409: "Not now (a stale or illegal move, a game replaced by the player's newer one): the detail says why "
         "and `state` is the player's game as it is.",
    413: "The request body is larger than the server accepts.",
    422: "The request does not match its schema: the detail names the field and the problem.",
    429: "Too many requests from this address or player: wait the seconds in Retry-After.",
    503: "The database (or the coach) cannot serve this right now: nothing was changed; try again.",
}

_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these error statuses, each with the API's one error body."""
    return {status: {"model": ConflictOut if status == 409 else ErrorOut, "description": _ERRORS[status],
                     **({"headers": _RETRY_AFTER} if status == 429 else {})} for status in statuses}


TOKEN_ERRORS = errors(400, 401, 422, 503)
"""What any route that takes the player token may answer besides its own errors."""


# -- ratings ---------------------------------------------------------------------------------------


class RatingOut(BaseModel):
    """A rating under one rated rule set, on the 1500 scale: the number, its uncertainty (one standard
    deviation), its games, and whether it is still provisional (too few games to trust or list)."""

    rules: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool


class RatedGameOut(BaseModel):
    """A rated game in a player's history: its reference, how they placed (0: won; a person who left is
    placed last), and their rating before and after."""

    game: str
    """``table CODE N`` (the Nth game at a friends' table) or ``game ID`` (a solo game)."""
    page: str = Field(description="the game's page, where it replays")
    rules: str
    place: int
    won: bool
    before: int
    after: int
    at: str


class ProfileOut(BaseModel):
    """A player's ratings, each rated rule set's, and their latest rated games, oldest first (the
    rating's history)."""

    name: str | None
    """The name shown (a computer level's, or an account's); None for the caller's own, unnamed."""
    computer: bool
    bot: bool = Field(default=False, description="a remote bot's account, rated as itself")
    ratings: list[RatingOut]
    history: list[RatedGameOut]
    stats: PlayStatsOut | None = Field(default=None, description="a person's play in figures (none for a "
                                                                 "computer level)")
    recent: list[PlayedOut] = Field(default=[], description="a person's latest finished games, rated or "
                                                            "not, newest first")


class LeaderOut(BaseModel):
    """One place on a leaderboard."""

    rank: int
    name: str
    computer: bool
    bot: bool = Field(default=False, description="a remote bot's account, rated as itself")
    rating: int
    uncertainty: int
    games: int


class StandingOut(RatingOut):
    """The caller's own standing under a leaderboard's rule set: their rating, their account's name (None:
    none, so not listed), their place if the board lists them, and the rated games still to play before it
    can (0 once past the provisional ones)."""

    name: str | None
    rank: int | None
    to_list: int


class LeaderboardOut(BaseModel):
    """The players past their provisional games under a rated rule set, the highest rated first; and the
    caller's own standing, listed or not, when they send their credential and have a rating there."""

    rules: str
    rated_rules: list[str]
    """Every rated rule set (each has its leaderboard)."""
    leaders: list[LeaderOut]
    you: StandingOut | None = Field(default=None, description="the caller's own standing (none without a "
                                                               "credential or a rating under these rules)")
