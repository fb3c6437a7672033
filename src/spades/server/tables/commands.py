"""What a seated person may ask of a friends' table: one type for each command, with its checks.

A command is the same over HTTP (``POST /api/tables/{code}/commands``) and the WebSocket: a JSON
object ``{"do": kind, ...}`` with the fields its type names (``command_of`` reads it). Its ``run``
checks it against the table and commits the entries it makes (``entries``), or raises a
``TableError`` that says why not and changes nothing. A new command is one new type here: subclassing
``Command`` with ``do="kind"`` registers it, and the server's list of commands (``GET
/api/tables/commands``, which the page reads) names it.

>>> from spades.rules import Rules
>>> from spades.server.tables.table import FriendsTable, TableOptions
>>> t = FriendsTable("ABC234", TableOptions(Rules()), clock=lambda: 0.0)
>>> _, seat = t.join("Ann")
>>> t.run(seat, command_of({"do": "chat", "text": "Hello"}))
>>> t.chat[-1].text
'Hello'
>>> command_of({"do": "sit"})
Traceback (most recent call last):
...
spades.server.tables.state.TableError: 'sit' needs the seat to move to ('to').
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from spades.errors import IllegalMoveError, OutOfTurnError, SpadesError
from spades.game import Phase, seat_name
from spades.moves import parse_move
from spades.server.tables.entries import (
    BotSeated,
    ChatSaid,
    GameDealt,
    HostChanged,
    Left,
    MoveMade,
    Reacted,
    Returned,
    SeatKept,
    SeatsSwapped,
)
from spades.server.tables.state import REACTIONS
from spades.server.tables.table import (
    MAX_CHAT,
    BadText,
    FriendsTable,
    MoveRefused,
    NotAllowed,
    StaleVersion,
    TableError,
    WrongTime,
    clean_text,
)

__all__ = [
    "COMMANDS",
    "About",
    "Back",
    "Chat",
    "Command",
    "GiveHost",
    "GiveToBot",
    "Keep",
    "Leave",
    "MakeMove",
    "MovePerson",
    "NextHand",
    "Open",
    "React",
    "Rematch",
    "Sit",
    "Start",
    "Sync",
    "command_of",
    "described",
    "needs",
]

COMMANDS: dict[str, type[Command]] = {}
"""Every command type, by its ``do``."""

About = Literal["game", "table", "chat"]


def needs(what: str) -> Any:
    """A field a command cannot do without; ``what`` names it in the refusal when it is missing."""
    return field(metadata={"needs": what})


@dataclass(frozen=True, kw_only=True)
class Command:
    """Something a seated person asks of the table."""

    do: ClassVar[str]
    about: ClassVar[About] = "table"
    """What the command is about, where a page shows its refusal: the game, the table's seats, the chat."""

    def __init_subclass__(cls, do: str = "", **kwargs: Any) -> None:
        """Register a command type under its ``do``."""
        super().__init_subclass__(**kwargs)
        if do:
            cls.do = do
            COMMANDS[do] = cls

    def run(self, table: FriendsTable, by: int) -> None:
        """Check the command for seat ``by`` and commit its entries (a TableError says why not)."""
        raise NotImplementedError


def command_of(data: Mapping[str, Any]) -> Command:
    """The command a request holds: its ``do`` and the fields that command needs, and no other. A
    TableError if the kind is unknown, a field it needs is missing (or null), or one it has not is given."""
    cls = COMMANDS.get(data.get("do"))  # type: ignore[arg-type]
    if cls is None:
        raise TableError(f"The commands are {', '.join(COMMANDS)}.")
    names = [f.name for f in dataclasses.fields(cls)]
    others = [name for name in data if name not in ("do", *names)]
    if others:
        takes = f"only {', '.join(repr(n) for n in names)}" if names else "nothing beside 'do'"
        raise TableError(f"'{cls.do}' takes {takes}, not {', '.join(repr(n) for n in others)}.")
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        value = data.get(f.name)
        if value is None:
            raise TableError(f"'{cls.do}' needs {f.metadata['needs']}.")
        values[f.name] = value
    return cls(**values)


def described() -> list[dict[str, Any]]:
    """Every command's kind, what it is about and the fields it needs (what ``GET /api/tables/commands``
    answers, so that a page or a bot learns them from the server)."""
    return [{"do": do, "about": cls.about, "fields": [f.name for f in dataclasses.fields(cls)]}
            for do, cls in COMMANDS.items()]


@dataclass(frozen=True, kw_only=True)
class MakeMove(Command, do="move"):
    """A move in the library's text form (``play QH``, ``bid 4``, ``bid nil``...), chosen from the game
    state of ``version`` (a stale or replayed move is refused)."""

    about: ClassVar[About] = "game"
    move: str = needs("a move")
    version: int = needs("the state version")

    def run(self, table: FriendsTable, by: int) -> None:
        """Checked by the engine, once: the entry it makes is applied without checking it again."""
        game = table.need_game()
        if self.version != len(game.log):
            raise StaleVersion("The table has moved on since that move was chosen: here it is now.")
        try:
            move = parse_move(self.move)
        except SpadesError as e:
            raise MoveRefused(str(e)) from None
        if table.seats[by].bot:
            raise WrongTime("A computer player has your seat: say you are back first.")
        try:
            game.verify_move(by, move)
        except OutOfTurnError:  # the engine names places; at a table the people have names
            assert game.turn is not None
            raise MoveRefused(f"It is {table.seat_label(game.turn)}'s turn, not yours.") from None
        except IllegalMoveError as e:
            raise MoveRefused(str(e)) from None
        table.commit(MoveMade(seat=by, move=move))


@dataclass(frozen=True, kw_only=True)
class NextHand(Command, do="next"):
    """Deal the next hand once the score sheet has been seen (anyone seated may)."""

    about: ClassVar[About] = "game"
    version: int = needs("the state version")

    def run(self, table: FriendsTable, by: int) -> None:
        """Only once the hand is over, and only from its last state."""
        game = table.need_game()
        if self.version != len(game.log):
            raise StaleVersion("The table has moved on: here it is now.")
        table.commit(table.next_deal())


@dataclass(frozen=True, kw_only=True)
class Start(Command, do="start"):
    """The host deals the first game; computer players take the empty seats."""

    def run(self, table: FriendsTable, by: int) -> None:
        """Only the host, only once."""
        table.need_host(by)
        if table.started:
            raise WrongTime("The game has already started.")
        table.commit(table.first_deal())


@dataclass(frozen=True, kw_only=True)
class Rematch(Command, do="rematch"):
    """After the game: a new game with the same seats and a new secret deal."""

    about: ClassVar[About] = "game"

    def run(self, table: FriendsTable, by: int) -> None:
        """Only once the game is over, and not at a tournament's table (it plays the round, then ends)."""
        if table.options.boards:
            raise WrongTime("This table plays the tournament's boards: no rematch.")
        if table.options.tournament:
            raise WrongTime("This table plays a round of the tournament: no rematch. The tournament's page "
                            "takes you to the next round.")
        if table.need_game().phase is not Phase.GAME_OVER:
            raise WrongTime("A rematch comes once the game is over.")
        table.commit(GameDealt(seed=table.new_seed()))


@dataclass(frozen=True, kw_only=True)
class MovePerson(Command, do="move_person"):
    """Before the start: the host moves a person to another seat, swapping with whoever is there (a
    person may move themselves to a free seat: ``sit``)."""

    seat: int = needs("the seat to move from ('seat')")
    to: int = needs("'to'")

    def run(self, table: FriendsTable, by: int) -> None:
        """Seats stay as they are once the game has started."""
        frm, to = self.seat, self.to
        table.check_seat(frm)
        table.check_seat(to)
        if table.started:
            raise WrongTime("The game has started: seats stay as they are.")
        if by not in (frm, table.host):
            raise NotAllowed("Only the host moves other people.")
        if not table.seats[frm].person:
            raise WrongTime(f"No one sits {seat_name(table.players, frm)}.")
        if table.seats[to].person and by != table.host:
            raise WrongTime(f"{seat_name(table.players, to)} is taken: choose a free seat.")
        if frm == to:
            raise WrongTime("That is the same seat.")
        table.check_not_kept(to)
        table.commit(SeatsSwapped(frm=frm, to=to))


@dataclass(frozen=True, kw_only=True)
class Sit(Command, do="sit"):
    """Before the start: move to a free seat."""

    to: int = needs("the seat to move to ('to')")

    def run(self, table: FriendsTable, by: int) -> None:
        """As the host moving this person would (``MovePerson``)."""
        MovePerson(seat=by, to=self.to).run(table, by)


@dataclass(frozen=True, kw_only=True)
class Keep(Command, do="keep"):
    """The host keeps an empty seat for a computer player: no one may sit there."""

    on: ClassVar[bool] = True
    seat: int = needs("the seat")

    def run(self, table: FriendsTable, by: int) -> None:
        """Only the host, only an empty seat, only if it changes."""
        table.need_host(by)
        table.check_seat(self.seat)
        where = seat_name(table.players, self.seat)
        if table.seats[self.seat].person:
            raise WrongTime(f"{where} is a person's seat.")
        if table.seats[self.seat].kept == self.on:
            raise WrongTime(f"{where} is {'already kept' if self.on else 'open'}.")
        table.commit(SeatKept(seat=self.seat, on=self.on))


@dataclass(frozen=True, kw_only=True)
class Open(Keep, do="open"):
    """The host opens a kept seat to people again."""

    on: ClassVar[bool] = False


@dataclass(frozen=True, kw_only=True)
class Leave(Command, do="leave"):
    """A person leaves: before the start the seat is free again; after it a computer player keeps it."""

    def run(self, table: FriendsTable, by: int) -> None:
        """Always allowed."""
        table.commit(Left(seat=by, name=table.seats[by].name))


@dataclass(frozen=True, kw_only=True)
class Back(Command, do="back"):
    """The person takes their seat back from the computer player."""

    def run(self, table: FriendsTable, by: int) -> None:
        """Only from a computer player."""
        if not table.seats[by].bot:
            raise WrongTime("You already have your seat.")
        table.commit(Returned(seat=by, conn=table.seats[by].conn))


@dataclass(frozen=True, kw_only=True)
class GiveToBot(Command, do="bot"):
    """The host hands another person's seat (an idle one's) to a computer player, until they are back."""

    seat: int = needs("the seat")

    def run(self, table: FriendsTable, by: int) -> None:
        """Only the host, only another person's seat that a person plays."""
        table.need_host(by)
        table.check_seat(self.seat)
        if self.seat == by:
            raise WrongTime("Leave the table to hand your own seat to a computer player.")
        if not table.seats[self.seat].person or table.seats[self.seat].bot:
            raise WrongTime(f"A computer player already plays {seat_name(table.players, self.seat)}.")
        table.commit(BotSeated(seat=self.seat))


@dataclass(frozen=True, kw_only=True)
class GiveHost(Command, do="host"):
    """The host hands the role to another person at the table."""

    seat: int = needs("the seat")

    def run(self, table: FriendsTable, by: int) -> None:
        """Only the host, only to another person."""
        table.need_host(by)
        table.check_seat(self.seat)
        if self.seat == by or not table.seats[self.seat].person:
            raise WrongTime("Hand the host role to another person at the table.")
        table.commit(HostChanged(seat=self.seat))


@dataclass(frozen=True, kw_only=True)
class Chat(Command, do="chat"):
    """A chat line of at most 200 characters, shown to everyone as text."""

    about: ClassVar[About] = "chat"
    text: str = needs("the text")

    def run(self, table: FriendsTable, by: int) -> None:
        """Trimmed and checked, within the seat's rate."""
        text = clean_text(self.text, what="chat message", limit=MAX_CHAT)
        table.check_rate(by)
        table.commit(ChatSaid(seat=by, text=text))


@dataclass(frozen=True, kw_only=True)
class React(Command, do="react"):
    """One of the quick reactions (``nice``, ``oops``, ``wow``, ``thanks``, ``gg``, ``hurry``), shown
    as text."""

    about: ClassVar[About] = "chat"
    reaction: str = needs("the reaction")

    def run(self, table: FriendsTable, by: int) -> None:
        """A known reaction, within the seat's rate."""
        if self.reaction not in REACTIONS:
            raise BadText(f"The reactions are {', '.join(REACTIONS)}.")
        table.check_rate(by)
        table.commit(Reacted(seat=by, reaction=self.reaction))


@dataclass(frozen=True, kw_only=True)
class Sync(Command, do="sync"):
    """Send me the whole table again (on the WebSocket: a spectator's only command); it changes
    nothing."""

    def run(self, table: FriendsTable, by: int) -> None:
        """Nothing to do at the table: the connection sends the whole table."""
