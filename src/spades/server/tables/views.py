"""What a friends' table shows to one seat: the seats, the chat, and the game as that seat sees it.

The game part is the solo game's ``GameState`` from the same presenter, shown to the seat's own
viewpoint: other seats' cards appear only in the review of a hand that is over. The deal number
(the table's secret seed) is shown once the game is over.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, GetJsonSchemaHandler, StrictInt
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, to_json

from spades.game import Phase, seat_name
from spades.server.present import FaceUp, Fields, event_lines, json_text, rules_json, state_fields
from spades.server.schemas import (
    MOVE_PATTERN,
    GameState,
    Preset,
    RuleOptions,
    StrictIn,
    TableLevel,
    any_case,
    text_pattern,
)
from spades.server.tables.commands import COMMANDS, Command, command_of
from spades.server.tables.entries import Entry, MoveMade, Who
from spades.server.tables.state import MAX_NAME, REACTIONS, RESERVED_NAMES
from spades.server.tables.table import MAX_CHAT, FriendsTable, TableOptions, Told

__all__ = [
    "ChatOut",
    "CommandIn",
    "CommandKindOut",
    "JoinIn",
    "JoinOut",
    "LobbyView",
    "NewTableIn",
    "SeatInfo",
    "SharedView",
    "TableView",
    "lobby_of",
    "shared_view",
    "table_events",
    "tell_move",
    "told_to",
    "update_message",
    "view_of",
]


SeatNumber = Annotated[int, Field(ge=0, le=3)]
"""A seat's number from 0 (``1.0`` is seat 1, ``true`` none; a table of three has no seat 3: a 400)."""
DisplayName = Annotated[str, Field(
    max_length=200,
    json_schema_extra={"pattern": text_pattern(MAX_NAME), "not": {"pattern": any_case(RESERVED_NAMES)}},
    description=f"a display name: 1 to {MAX_NAME} characters once trimmed, none a control character, and "
                f"none of {', '.join(RESERVED_NAMES)} (else a 422 that says why)")]


class NewTableIn(StrictIn):
    """Open a table: the host's rules, computer players and clocks, and the host's display name."""

    name: DisplayName
    preset: Preset = "standard"
    options: RuleOptions = Field(default_factory=dict)
    level: TableLevel = "normal"
    bots_bid_nil: bool = True
    grace: float = Field(default=30, description="seconds away before a computer player takes the seat",
                         json_schema_extra={"minimum": 5, "maximum": 600})
    turn_seconds: float = Field(default=0, description="seconds per move before the computer moves (0: off)",
                                json_schema_extra={"anyOf": [{"const": 0}, {"minimum": 5, "maximum": 600}]})
    rated: bool = Field(default=False, description="the games are rated: the rules must be a rated "
                                                   "rule set (standard or cutthroat, any length)")
    listed: bool = Field(default=False, description="list the table in the lobby while a seat is free (else "
                                                    "only its link and code find it)")


class JoinIn(StrictIn):
    """Take a seat: a display name, and the seat wanted (else the first free one)."""

    name: DisplayName
    seat: SeatNumber | None = None


class JoinOut(BaseModel):
    """The seat taken and its secret token, which the browser keeps (it is the key to the seat)."""

    code: str
    seat: int
    token: str


def _known(kind: str) -> str:
    """A command's kind, if a command type is registered under it (``commands.COMMANDS``)."""
    if kind not in COMMANDS:
        kinds = [repr(k) for k in COMMANDS]
        raise PydanticCustomError("literal_error", "Input should be {expected}",
                                  {"expected": f"{', '.join(kinds[:-1])} or {kinds[-1]}"})
    return kind


CommandKind = Annotated[str, AfterValidator(_known)]
"""The commands' kinds, as their types in ``commands`` register them (so a new type is a new kind; the
document names each in the ``oneOf`` of ``CommandIn``)."""


class CommandIn(StrictIn):
    """Something a seated person does: ``do``, and the fields that kind's type in ``commands`` names (no
    other); the same body over HTTP and the WebSocket. Its schema is one object per kind (``oneOf``,
    made from the command types), each with the fields that kind needs and no other."""

    do: CommandKind
    move: str | None = Field(default=None, max_length=80, json_schema_extra={"pattern": MOVE_PATTERN},
                             description="a move in the library's text form")
    version: int | None = Field(default=None, ge=0, description="the game state version of a move or next")
    seat: StrictInt | None = Field(default=None, ge=0, le=3)
    to: StrictInt | None = Field(default=None, ge=0, le=3)
    text: str | None = Field(default=None, max_length=MAX_CHAT * 4,
                             json_schema_extra={"pattern": text_pattern(MAX_CHAT)})
    reaction: str | None = Field(default=None, max_length=20, json_schema_extra={"enum": list(REACTIONS)})

    def command(self) -> Command:
        """The command this body holds (``commands.command_of``: the fields its kind needs, no other)."""
        return command_of(self.model_dump(exclude_unset=True))

    @classmethod
    def __get_pydantic_json_schema__(cls, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """One object per command kind, as the kinds are registered when the document is made."""
        whole = handler.resolve_ref_schema(handler(core))
        props = whole["properties"]

        def required(name: str) -> dict[str, Any]:
            """A field's schema without its ``null`` (which says only that other kinds leave it out)."""
            prop = dict(props[name])
            prop.pop("default", None)
            branches = [b for b in prop.pop("anyOf", []) if b.get("type") != "null"]
            return {**branches[0], **prop} if branches else prop

        kinds = []
        for do, command in COMMANDS.items():
            names = [f.name for f in dataclasses.fields(command)]
            kinds.append({"type": "object", "title": f"{do} command", "additionalProperties": False,
                          "properties": {"do": {"type": "string", "const": do},
                                         **{name: required(name) for name in names}},
                          "required": ["do", *names]})
        return {"title": whole.get("title", "CommandIn"), "description": whole.get("description", ""),
                "oneOf": kinds}


class CommandKindOut(BaseModel):
    """A command a seated person may send: its ``do``, what it is about (where a page shows its refusal)
    and the fields it needs beside ``do``."""

    do: str
    about: Literal["game", "table", "chat"]
    fields: list[str]


class SeatInfo(BaseModel):
    """A seat at the table: who sits there and whether they are here."""

    seat: int
    where: str
    """The seat's place at the table (North, East...)."""
    side: int
    """The side the seat plays for: partners share one."""
    name: str
    person: bool
    """A person holds the seat (else a computer player fills it)."""
    away: bool
    away_left: float | None
    """Seconds left, as this view was made, before a computer player takes the seat of its person, who
    is away (None: not away, or a computer player has it). A page counts down from the moment it
    receives the view by its own steady clock: the server's clock and the page's need not agree."""
    bot: bool
    """A computer player makes the seat's moves now."""
    kept: bool
    """The host keeps this empty seat for a computer player: no one may sit there."""
    host: bool


class ChatOut(BaseModel):
    """A chat line or a reaction (always shown as text)."""

    seat: int
    name: str
    text: str
    reaction: bool


class LobbyView(BaseModel):
    """A table as anyone with its code sees it before sitting down."""

    code: str
    players: int
    rules: dict[str, Any]
    rules_name: str
    level: str
    grace: float
    turn_seconds: float
    rated: str | None
    """The rated rule set the table's games are rated under (None: not rated)."""
    started: bool
    turn_left: float | None
    """Seconds left on the turn timer, as this view was made, before the computer player moves for the
    person to move (or, after a hand, the next one is dealt); None when no timer runs."""
    seats: list[SeatInfo]
    reactions: dict[str, str]
    """The quick reactions a seat may send, by name, with the text each shows."""
    boards_left: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """A tournament's table: the boards it has still to deal after the one being played (0: the table is
    over once this board is); left out at other tables (their views are as they always were)."""
    tournament: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """A tournament's table: the tournament's code, whose page the people go back to; left out elsewhere."""


class TableView(LobbyView):
    """The table as one seat sees it."""

    seq: int
    you: int
    host: int | None
    chat: list[ChatOut]
    game: GameState | None
    deal: int | None
    """The game's deal number, once the game is over (so it can be replayed alone)."""
    past_deals: list[int]


def _seats(table: FriendsTable, now: float) -> list[SeatInfo]:
    rules = table.options.rules
    return [SeatInfo(seat=i, where=seat_name(table.players, i), side=rules.side_of(i),
                     name=table.seat_label(i), person=s.person, away=s.away_since is not None,
                     away_left=_seconds(table.away_left(i, now)),
                     bot=s.played_by_bot, kept=s.kept, host=i == table.host)
            for i, s in enumerate(table.seats)]


def _seconds(left: float | None) -> float | None:
    """A countdown as the views send it: to the tenth of a second."""
    return None if left is None else round(float(left), 1)


def lobby_of(table: FriendsTable) -> LobbyView:
    """What the code shows before joining (no cards, no tokens), its countdowns as of now."""
    return LobbyView(**_lobby_fields(table))


def _lobby_fields(table: FriendsTable, seats: bool = True) -> dict[str, Any]:
    """The fields of ``lobby_of``'s view, each of its type already (``shared_view`` takes them without
    a check: a look makes them at every change); without ``seats``, the seats left empty (an update
    that leaves them out)."""
    o: TableOptions = table.options
    now = table.clock()
    return {"code": table.code, "players": table.players, "rules": rules_json(o.rules),
            "rules_name": o.rules.name, "level": o.level, "grace": float(o.grace),
            "turn_seconds": float(o.turn_seconds), "rated": o.rated_as, "started": table.started,
            "turn_left": _seconds(table.turn_left(now)), "seats": _seats(table, now) if seats else [],
            "reactions": REACTIONS, "boards_left": table.boards_left, "tournament": o.tournament}


def shared_view(table: FriendsTable, left_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """What every seat's view of the table holds alike (all but ``you`` and ``game``): made once
    when several seats' views are made at one version (the ``seats`` and ``chat`` left empty if in
    ``left_out``: an update leaves them out). A table of a tournament's boards shows no deal number:
    other tables may be playing the same deal."""
    shown = _deal_shown(table)
    chat = [] if "chat" in left_out else [ChatOut(seat=c.seat, name=c.name, text=c.text, reaction=c.reaction)
                                          for c in table.chat]
    return {**_lobby_fields(table, "seats" not in left_out), "seq": table.seq, "host": table.host,
            "chat": chat, "deal": shown or None,
            "past_deals": [] if table.options.boards else list(table.past_seeds)}


def _deal_shown(table: FriendsTable) -> int:
    """The deal number a table's people may see: its game's, once over (0: none), and never a board's."""
    game = table.game
    over = game is not None and game.phase is Phase.GAME_OVER and not table.options.boards
    return (table.seed or 0) if over else 0


def view_of(table: FriendsTable, seat: int) -> TableView:
    """Everything ``seat`` may see now."""
    state = _state(table, seat, table.seat_labels())
    return TableView.model_construct(**shared_view(table), you=seat,
                                     game=None if state is None else GameState.model_validate(state))


def _state(table: FriendsTable, seat: int, names: tuple[str, ...], shown: FaceUp | None = None,
           sheet: bool = True) -> Fields | None:
    """The game as ``seat`` sees it (as plain data), if one is dealt (``names``: the table's
    ``seat_labels``; ``shown``: its ``face_up``, if made already; without ``sheet``, its score sheet
    left empty: the update leaves it out)."""
    game = table.game
    if game is None:
        return None
    return state_fields(game, game_id=len(table.past_seeds) + 1, deal=_deal_shown(table), daily=None,
                        level=table.options.level, viewer=seat, names=names,
                        coach=table.coached and seat < table.players, shown=shown, sheet=sheet)


class SharedView:
    """A table's ``shared_view`` at one version, made once for all the seats a look makes updates for,
    with its JSON on either side of a seat's ``you`` and ``game`` made once for each set of parts the
    updates leave out: each seat's view is then its game's JSON between those (the same text as
    ``view_of``'s, without a whole model made and written for each seat)."""

    def __init__(self, table: FriendsTable) -> None:
        self.table = table
        self._around: dict[frozenset[str] | None, tuple[str, str, str]] = {}
        self._same: dict[int, frozenset[str]] = {}
        self._names = table.seat_labels()

    def same(self, since: int) -> frozenset[str]:
        """``_same`` for pages at version ``since``, worked out once a look (its seats are mostly at one)."""
        same = self._same.get(since)
        if same is None:
            same = self._same[since] = _same(self.table, since)
        return same

    def json(self, seat: int, shown: FaceUp | None, same: frozenset[str] | None) -> str:
        """The view of ``seat`` as JSON text, leaving out the ``CONSTANTS`` and the ``SELDOM`` parts
        ``same`` (None: whole)."""
        exclude = None if same is None else _exclusion(same)
        around = self._around.get(same)
        if around is None:
            around = self._around[same] = self._split(exclude)
        state = _state(self.table, seat, self._names, shown, sheet=same is None or "sheet" not in same)
        left = frozenset[str]() if exclude is None else exclude["game"]
        game = "null" if state is None else json_text({k: v for k, v in state.items() if k not in left})
        before, between, after = around
        return f"{before}{seat}{between}{game}{after}"

    def _split(self, exclude: dict[str, Any] | None) -> tuple[str, str, str]:
        """The view's JSON before a seat's ``you`` (after ``seq``), between it and its ``game`` (before
        ``deal``), and after that: the model's fields are in that order, written as the model writes
        them (the parts left out not made)."""
        left = frozenset(k for k, v in (exclude or {}).items() if v is True)
        fields = {**shared_view(self.table, left), "you": 0, "game": None}
        text = to_json({k: fields[k] for k in _VIEW_FIELDS
                        if k not in left and not (k in _LEFT_OUT_IF and _LEFT_OUT_IF[k](fields[k]))}).decode()
        you = f',"seq":{self.table.seq},"you":'
        start = text.index(you) + len(you)
        game = text.index(',"game":null,"deal":', start)
        return text[:start], text[start + 1:game] + ',"game":', text[game + len(',"game":null'):]


_VIEW_FIELDS = tuple(TableView.model_fields)
"""A ``TableView``'s fields in the order its JSON gives them."""
_LEFT_OUT_IF = {k: f.exclude_if for k, f in TableView.model_fields.items() if f.exclude_if is not None}
"""The fields a view leaves out for some values, with the test (a tournament's, at other tables)."""


CONSTANTS: dict[str, Any] = {"rules": True, "reactions": True, "game": {"rules"}}
"""What never changes at a table, left out of a connection's updates after its first (``update_message``):
the rules, twice (the table's and the game's, about 40% of an update) and the reactions offered."""


def update_message(table: FriendsTable, seat: int, since: int, shared: SharedView | None = None,
                   shown: FaceUp | None = None, whole: bool = True) -> str:
    """The ``update`` message (JSON text) for a page of ``seat`` at version ``since`` (-1: none): the
    table's version, the events since (``resync`` if they are too old to tell) and the seat's view
    (``shared``: the table's at this version, if made already; ``shown``: its game's ``face_up``).
    Unless ``whole`` or a resync, the view leaves out its ``CONSTANTS`` and those of its ``SELDOM``
    parts that the page has as they are (``_same``)."""
    events = None if since < 0 else table_events(table, seat, since)
    shared = shared or SharedView(table)
    same = None if whole or events is None else shared.same(since)
    view = shared.json(seat, shown, same)
    return (f'{{"type":"update","seq":{table.seq},"resync":{"true" if events is None else "false"},'
            f'"events":[{",".join(events or ())}],"table":{view}}}')


def _same(table: FriendsTable, since: int) -> frozenset[str]:
    """The ``SELDOM`` parts an update to a page at version ``since`` leaves out: those that have not
    changed since (the seats not while they count down: ``counting_down``). The page keeps what it had;
    a chatty table's 50 lines and a long game's score sheet were most of each update."""
    return frozenset(part for part, at in table.changed.items()
                     if at <= since and not (part == "seats" and table.counting_down))


@functools.cache
def _exclusion(same: frozenset[str]) -> dict[str, Any]:
    """The ``exclude`` of a view without its ``CONSTANTS`` and the ``SELDOM`` parts ``same`` (the score
    sheet with its legend, which a game's first update carries)."""
    sheet = {"sheet", "sheet_legend"} if "sheet" in same else set()
    return {**CONSTANTS, **{part: True for part in same - {"sheet"}}, "game": CONSTANTS["game"] | sheet}


def table_events(table: FriendsTable, seat: int, since: int) -> list[str] | None:
    """The events after version ``since`` as ``seat`` sees them, each as JSON text (None if they are
    too old to tell: resync). An event is ``{"seq", "kind", "seat", "text", "game"}``: its version,
    the entry's kind, the seat it concerns (or null), a line to show, and for a move the game's
    event (``EventOut``) as the seat sees it (else null)."""
    out: list[str] = []
    first = -1
    for seq, entry, game_events in reversed(table.recent):  # newest first: a page is rarely far behind
        if seq < since:
            break
        first = seq
        out.append(_event(table, seat, seq, entry, game_events))
    if since < table.seq and first != since:
        return None
    out.reverse()
    return out


def _event(table: FriendsTable, seat: int, seq: int, e: Entry, game: Told | None) -> str:
    """One event as JSON text (``game``: a move's event as ``tell_move`` made it)."""
    who = e.who
    if game is not None:
        text, told = told_to(game, seat)
    else:
        told = "null"
        you = who == seat
        text = e.line(Who("You" if you else "" if who is None else table.seat_label(who), you))
    head = json.dumps({"seq": seq, "kind": e.kind, "seat": who, "text": text})
    return f'{head[:-1]},"game":{told}}}'


def tell_move(table: FriendsTable, e: MoveMade) -> Told:
    """A move just applied as each seat, then a spectator, sees it: its ``EventOut`` as JSON text on
    either side of its line, and each one's line (the table keeps them for the pages that are told of
    it later: ``table_events``; the bus carries them to the other processes)."""
    assert table.game is not None
    face, texts = event_lines(table.game, e.seat, e.move, range(table.players + 1), table.seat_labels())
    first = face.model_dump_json()  # the others differ in their line alone: written into its place
    start = first.index(',"text":') + len(',"text":')
    return first[:start], first[start + len(_json_text(face.text)):], tuple(texts)


def told_to(told: Told, viewer: int) -> tuple[str, str]:
    """A move's line and its ``EventOut`` as JSON text, as ``viewer`` sees them."""
    before, after, texts = told
    return texts[viewer], f"{before}{_json_text(texts[viewer])}{after}"


def _json_text(text: str) -> str:
    """A string as the models write it in JSON."""
    return to_json(text).decode()
