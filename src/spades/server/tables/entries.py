"""The entries of a friends' table's log: one type for each thing that happened at the table.

Each entry type says, in one place, how it changes the table (``apply``), which of the seats' views'
seldom-changing parts it changes (``parts``, see ``SELDOM``) and the line it shows (``line``).
Entries are stored, and sent between server processes, as JSON objects: ``{"k": kind, ..., "at":
seconds}``, a field under the short key its metadata names, if any, as tables have been stored from
the start.

>>> entry_json(ChatSaid(seat=1, text="Hi", at=5.0))
{'k': 'chat', 'seat': 1, 'text': 'Hi', 'at': 5.0}
>>> entry_of({"k": "react", "seat": 2, "r": "gg", "at": 6.0})
Reacted(at=6.0, seat=2, reaction='gg')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from spades.errors import SpadesError
from spades.game import Game, Phase
from spades.moves import Move, parse_move
from spades.server.tables.state import REACTIONS, SELDOM, TableState

__all__ = [
    "ENTRIES",
    "Away",
    "BadEntry",
    "BotSeated",
    "ChatSaid",
    "Entry",
    "GameDealt",
    "HandDealt",
    "HostChanged",
    "Joined",
    "Left",
    "MoveMade",
    "Reacted",
    "Returned",
    "SeatEntry",
    "SeatKept",
    "SeatsSwapped",
    "Who",
    "entries_of",
    "entry_json",
    "entry_of",
]


class BadEntry(SpadesError):
    """A stored or heard entry that is not one this code knows how to read."""


@dataclass(frozen=True)
class Who:
    """How an entry's line names the seat it concerns, for the viewer it is told to: "You are back."
    to that seat's person, "Ann is back." to the others."""

    name: str
    you: bool

    @property
    def name_is(self) -> str:
        """The name with its verb: "You are", "Ann is"."""
        return f"{self.name} are" if self.you else f"{self.name} is"

    @property
    def whom(self) -> str:
        """The name as an object: "you", "Ann"."""
        return "you" if self.you else self.name


ENTRIES: dict[str, type[Entry]] = {}
"""Every entry type, by its kind (the ``k`` of its stored form)."""


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One line of a table's log; ``at`` is when it was made (stamped by the table as it commits it)."""

    kind: ClassVar[str]
    parts: ClassVar[tuple[str, ...]] = SELDOM
    """The parts of the seats' views the entry changes (most entries: all, for they change the seats)."""
    at: float = 0.0

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        """Register an entry type under its kind."""
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind
            ENTRIES[kind] = cls

    @property
    def who(self) -> int | None:
        """The seat the entry concerns, if one does."""
        return None

    def apply(self, table: TableState) -> None:
        """Change the table by this entry (checked already when it was made, or read from the log)."""
        raise NotImplementedError

    def changes(self, table: TableState) -> tuple[str, ...]:
        """The parts of the views that applying this entry changed (``parts``, unless it depends)."""
        return self.parts

    def line(self, who: Who) -> str:
        """The line that tells a viewer of this entry (``who``: its seat, as that viewer names it)."""
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class SeatEntry(Entry):
    """An entry about one seat."""

    seat: int

    @property
    def who(self) -> int | None:
        """The seat the entry concerns."""
        return self.seat


@dataclass(frozen=True, kw_only=True)
class Joined(SeatEntry, kind="join"):
    """A person sat down; ``token`` is the hash of their secret seat token, ``player`` of their player
    token if they linked it, ``conn`` the server process their page connects through."""

    name: str
    token: str = field(metadata={"key": "tok"})
    conn: str | None = None
    player: str | None = None

    def apply(self, table: TableState) -> None:
        """The seat is theirs; the first person at the table is its host."""
        table.seat_person(self.seat, self.name, self.token, self.player, self.conn)

    def line(self, who: Who) -> str:
        """ "Ann sat down." """
        return f"{who.name} sat down."


@dataclass(frozen=True, kw_only=True)
class SeatsSwapped(Entry, kind="sit"):
    """Before the start, two seats swapped (a person moved to a free seat, or the host moved them)."""

    frm: int = field(metadata={"key": "from"})
    to: int

    def apply(self, table: TableState) -> None:
        """Swap the seats (the host goes with their seat)."""
        table.swap_seats(self.frm, self.to)

    def line(self, who: Who) -> str:
        """Always the same line."""
        return "Seats changed."


@dataclass(frozen=True, kw_only=True)
class SeatKept(SeatEntry, kind="keep"):
    """The host kept an empty seat for a computer player (``on``), or opened it to people again."""

    on: bool

    def apply(self, table: TableState) -> None:
        """Mark the seat kept or open."""
        table.seats[self.seat].kept = self.on

    def line(self, who: Who) -> str:
        """Always the same line."""
        return "Seats changed."


@dataclass(frozen=True, kw_only=True)
class GameDealt(Entry, kind="start"):
    """A game was dealt from deal number ``seed`` (the first, or a rematch)."""

    seed: int

    def apply(self, table: TableState) -> None:
        """The new game; the last one's deal joins the past deals (and its hand the boards played, at a
        table of given boards)."""
        if table.game is not None and table.seed is not None:
            if table.board_over:
                table.boards_played.append(table.game.history[0])
            table.past_seeds.append(table.seed)
        table.seed = self.seed
        table.game = Game(table.options.rules, self.seed)
        table.computer_moves = set()
        table.absent_at_deal = frozenset(i for i, s in enumerate(table.seats) if s.person and s.bot)
        table.turn_since = self.at

    def line(self, who: Who) -> str:
        """Always the same line."""
        return "A new game is dealt."


@dataclass(frozen=True, kw_only=True)
class MoveMade(SeatEntry, kind="move"):
    """A move in the game, checked when it was made (by a person, or a computer player: for an empty
    seat, for a person away, or when the turn timer ran out, ``timer`` 1)."""

    move: Move = field(metadata={"key": "m"})
    timer: int = 0

    def apply(self, table: TableState) -> None:
        """Make the move (it was checked once, as it was made); note a computer player's."""
        game = table.game
        assert game is not None
        if table.seats[self.seat].played_by_bot or self.timer:
            table.computer_moves.add(len(game.log))
        game.apply_unchecked(self.seat, self.move)
        table.turn_since = self.at
        if game.phase is Phase.GAME_OVER:
            table.ended = table.seq - 1

    def changes(self, table: TableState) -> tuple[str, ...]:
        """The score sheet, if the move ended the hand; else nothing seldom."""
        game = table.game
        ended = game is not None and game.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        return ("sheet",) if ended else ()

    def line(self, who: Who) -> str:
        """A move's line is the game's own (``present.events_of``), made as it is applied."""
        return ""


@dataclass(frozen=True, kw_only=True)
class HandDealt(Entry, kind="next"):
    """The next hand was dealt (someone asked, or the turn timer did after a hand)."""

    parts: ClassVar[tuple[str, ...]] = ()

    def apply(self, table: TableState) -> None:
        """Deal the next hand."""
        assert table.game is not None
        table.game.next_hand()
        table.turn_since = self.at

    def line(self, who: Who) -> str:
        """Always the same line."""
        return "The next hand is dealt."


@dataclass(frozen=True, kw_only=True)
class Left(SeatEntry, kind="leave"):
    """A person left: before the start the seat is free again; after it a computer player keeps it.
    ``name``: theirs, for the line, since a freed seat has none (logs from before it was kept lack it)."""

    name: str | None = None

    def apply(self, table: TableState) -> None:
        """Free or hand over the seat; the host role passes on if it was theirs."""
        table.leave_seat(self.seat, self.at)

    def line(self, who: Who) -> str:
        """ "Ann left the table." """
        return f"{who.name if who.you or self.name is None else self.name} left the table."


@dataclass(frozen=True, kw_only=True)
class Away(SeatEntry, kind="away"):
    """A person's last page went away: after the grace period a computer player takes the seat."""

    def apply(self, table: TableState) -> None:
        """Note since when they are away."""
        table.seats[self.seat].away_since = self.at

    def line(self, who: Who) -> str:
        """ "Ann is away." """
        return f"{who.name_is} away."


@dataclass(frozen=True, kw_only=True)
class Returned(SeatEntry, kind="back"):
    """A person is back (a page of theirs connected through process ``conn``, or they asked for their
    seat back from the computer player)."""

    conn: str | None

    def apply(self, table: TableState) -> None:
        """They have their seat again; a turn timer running for it starts again."""
        s = table.seats[self.seat]
        s.away_since, s.left, s.bot, s.conn = None, False, False, self.conn
        if table.active():
            table.turn_since = max(table.turn_since, self.at)

    def line(self, who: Who) -> str:
        """ "Ann is back." """
        return f"{who.name_is} back."


@dataclass(frozen=True, kw_only=True)
class BotSeated(SeatEntry, kind="bot"):
    """A computer player took a person's seat (the host asked, or they stayed away too long)."""

    def apply(self, table: TableState) -> None:
        """The computer player plays the seat; the host role passes on if it was theirs."""
        table.seats[self.seat].bot = True
        if self.seat == table.host:
            table.pass_host()

    def line(self, who: Who) -> str:
        """ "A computer player plays for Ann." """
        return f"A computer player plays for {who.whom}."


@dataclass(frozen=True, kw_only=True)
class HostChanged(SeatEntry, kind="host"):
    """The host role went to this seat (handed on, or passed on by the table)."""

    def apply(self, table: TableState) -> None:
        """The seat's person is host."""
        table.host = self.seat

    def line(self, who: Who) -> str:
        """ "Ann is the host." """
        return f"{who.name_is} the host."


@dataclass(frozen=True, kw_only=True)
class ChatSaid(SeatEntry, kind="chat"):
    """A chat line."""

    parts: ClassVar[tuple[str, ...]] = ("chat",)
    text: str

    def apply(self, table: TableState) -> None:
        """The line joins the chat."""
        table.add_chat(self.seat, self.text, self.at, reaction=False)

    def line(self, who: Who) -> str:
        """ "Ann: hello" """
        return f"{who.name}: {self.text}"


@dataclass(frozen=True, kw_only=True)
class Reacted(SeatEntry, kind="react"):
    """One of the quick reactions, by name (``REACTIONS``)."""

    parts: ClassVar[tuple[str, ...]] = ("chat",)
    reaction: str = field(metadata={"key": "r"})

    def apply(self, table: TableState) -> None:
        """Its text joins the chat."""
        table.add_chat(self.seat, REACTIONS[self.reaction], self.at, reaction=True)

    def line(self, who: Who) -> str:
        """ "Ann: nice" (the reaction's name; the chat shows its text)."""
        return f"{who.name}: {self.reaction}"


# -- the stored form -----------------------------------------------------------------------------------

_DECODE: dict[str, Any] = {"move": parse_move}
"""Fields whose stored form is not their value: how to read them (they are written with ``str``)."""
_OMITTED = {("move", "timer"), ("leave", "name")}
"""Fields (by entry kind) left out of the stored form at their default (as the first tables wrote
them, and as a leave was stored before it kept the name)."""


_Fields = tuple[tuple[str, str, dataclasses.Field[Any]], ...]
_FIELDS: dict[type[Entry], _Fields] = {}


def _fields(cls: type[Entry]) -> _Fields:
    """Each field but ``at``: its name, its stored key, the field (worked out once a kind: every entry
    stored, published and heard asks)."""
    kept = _FIELDS.get(cls)
    if kept is None:
        kept = _FIELDS[cls] = tuple((f.name, f.metadata.get("key", f.name), f)
                                    for f in dataclasses.fields(cls) if f.name != "at")
    return kept


def entry_json(e: Entry) -> dict[str, Any]:
    """The entry's stored form: ``{"k": kind, <fields by key>, "at": seconds}``."""
    out: dict[str, Any] = {"k": e.kind}
    for name, stored, f in _fields(type(e)):
        value = getattr(e, name)
        if (e.kind, name) in _OMITTED and value == f.default:
            continue
        out[stored] = str(value) if name in _DECODE else value
    out["at"] = e.at
    return out


def entry_of(data: Any) -> Entry:
    """The entry a stored form holds; BadEntry if it is none this code knows."""
    cls = ENTRIES.get(str(data.get("k"))) if isinstance(data, dict) else None
    if cls is None:
        raise BadEntry(f"Unknown table entry {str(data)[:80]}.")
    values: dict[str, Any] = {}
    try:
        for name, stored, _ in _fields(cls):
            if stored in data:
                values[name] = _DECODE[name](data[stored]) if name in _DECODE else data[stored]
        return cls(at=data["at"], **values)
    except (KeyError, TypeError, SpadesError) as e:
        raise BadEntry(f"A table entry that cannot be read ({e}): {str(data)[:80]}.") from None


def entries_of(data: Iterable[Any]) -> list[Entry]:
    """The entries of a stored log."""
    return [entry_of(d) for d in data]
