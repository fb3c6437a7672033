"""What a friends' table is: its options, its seats, its host, its game, its chat; and the errors a
table's commands raise.

``TableState`` holds all that an entry of the log changes (``entries``) and the few changes they make;
``table.FriendsTable`` adds the log itself, the commit of new entries, the clock and the computer
players. This module is the floor beneath both: it knows of neither.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spades.bots import LEVELS
from spades.deal import MAX_DEAL
from spades.errors import SpadesError
from spades.game import SEAT_NAMES, Game, HandResult, Phase, seat_name
from spades.protocol.names import BOT_NAME
from spades.protocol.remote import REMOTE_PREFIX
from spades.ratings import NotRated, rated_rules_of
from spades.rules import Rules

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "MAX_NAME",
    "REACTIONS",
    "RESERVED_NAMES",
    "SELDOM",
    "BadSeatToken",
    "BadText",
    "ChatLine",
    "Clock",
    "MoveRefused",
    "NameTaken",
    "NoSuchSeat",
    "NotAllowed",
    "Seat",
    "StaleVersion",
    "TableDamaged",
    "TableError",
    "TableFull",
    "TableNotFound",
    "TableOptions",
    "TableState",
    "Told",
    "TooFast",
    "WrongTime",
    "clean_text",
    "hash_token",
]

SELDOM = ("seats", "chat", "sheet")
"""The parts of a seat's view that change seldom: the table's seats, the chat, the game's score sheet
(an update to a page that has them as they are leaves them out)."""
REACTIONS: dict[str, str] = {
    "nice": "Nice!", "oops": "Oops!", "wow": "Wow!", "thanks": "Thanks!", "gg": "Good game!",
    "hurry": "Your turn!",
}
"""The quick reactions, by name, and the text each shows."""
RESERVED_NAMES = ("You", *(f"Computer ({where})" for where in SEAT_NAMES[4]))
"""The names a table's messages give to each person's own seat and to the computer players, which no
person may take (in any case)."""
Clock = Callable[[], float]
"""Seconds, from any fixed origin (``time.time`` in the server, a counter in the tests)."""
Told = tuple[str, str, tuple[str, ...]]
"""A move's event as the seats see it: its JSON text before and after its line, and the line each seat
and then a spectator sees (written into its place for each)."""

MAX_NAME = 24
MAX_CHAT = 200
CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""At most ``CHAT_BURST`` chat lines and reactions per seat in any ``CHAT_WINDOW`` seconds."""
_CHAT_KEPT = 50


class TableError(SpadesError):
    """Something a person asked of a table that it cannot do; ``status`` is the HTTP status for it."""

    status = 400


class TableNotFound(TableError):
    """No table has this code (or it has expired)."""

    status = 404


class TableDamaged(TableError):
    """The table's log in the database holds an entry that cannot be read (the server's fault, not the
    asker's: nothing is changed, and the table is not served)."""

    status = 503


class TableFull(TableError):
    """Every seat is taken by a person."""

    status = 409


class BadSeatToken(TableError):
    """A seat token this table does not know (forged, mistyped, or given up)."""

    status = 403


class NotAllowed(TableError):
    """Only the host, or only the seat's own person, may do that."""

    status = 403


class WrongTime(TableError):
    """Not now: before the start, after the start, before the game is over..."""

    status = 409


class StaleVersion(TableError):
    """The game moved on since the move was chosen (a replayed or crossed move)."""

    status = 409


class MoveRefused(TableError):
    """The engine refuses the move; the message says why."""

    status = 409


class TooFast(TableError):
    """Too many chat lines or messages in a short time."""

    status = 429


class BadText(TableError):
    """A display name or chat text that is empty, too long, or holds control characters; a display
    name the table's messages could not tell from another seat's."""

    status = 422


class NameTaken(BadText):
    """A display name someone at the table has already: a conflict with the table as it is."""

    status = 409


class NoSuchSeat(TableError):
    """A seat this table has not (seat 3 at a table of three): a conflict with the table as it is."""

    status = 409


@functools.lru_cache(maxsize=1024)
def _shared_rules(rules: Rules) -> Rules:
    """The first of the tables' rules equal to ``rules``: tables with the same rules share one ``Rules``,
    as the presenter keeps what it works out from them by their identity (``present.rules_json``, for
    each look at a table), in a cache that a thousand tables' own copies of the standard rules emptied
    over and over."""
    return rules


@dataclass(frozen=True)
class TableOptions:
    """What the host chooses: the rules (players and target included), the computer players, the clocks."""

    rules: Rules
    level: str = "normal"
    bots_bid_nil: bool = True
    grace: float = 30.0
    """Seconds a person may be away before a computer player takes their seat."""
    turn_seconds: float = 0.0
    """Seconds a person has for each move before the computer player moves for them (0: no timer)."""
    rated: bool = False
    """Whether the table's games are rated (``spades.ratings``): its rules must be a rated rule set."""
    rated_as: str | None = field(init=False, default=None, compare=False)
    """The rated rule set the table's games are rated under (None: not rated)."""
    listed: bool = False
    """The table is listed in the lobby while it has a free seat (else only its link and code find it)."""
    boards: tuple[int, ...] = ()
    """A tournament's table: the deal numbers it plays, each one hand from 0-0 (a duplicate board), and
    then it is over (none: games with secret deals, one after another)."""
    tournament: str | None = None
    """A tournament's table: the tournament's code (its page is where the people go after the boards, or
    after the game of a round played to a target)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _shared_rules(self.rules))
        if self.level not in LEVELS and not BOT_NAME.fullmatch(self.level):
            raise TableError(f"The computer players' level is one of {', '.join(LEVELS)}, or an outside "
                             "bot's name.")
        if not 5 <= self.grace <= 600:
            raise TableError("The grace period runs from 5 to 600 seconds.")
        if self.turn_seconds and not 5 <= self.turn_seconds <= 600:
            raise TableError("The turn timer is off (0) or from 5 to 600 seconds.")
        if self.rated:
            try:
                object.__setattr__(self, "rated_as", rated_rules_of(self.rules))
            except NotRated as e:
                raise TableError(f"This table cannot be rated. {e}") from None
        if any(isinstance(b, bool) or not isinstance(b, int) or not 1 <= b < MAX_DEAL for b in self.boards):
            raise TableError(f"A board is a deal number from 1 to {MAX_DEAL - 1}.")
        if self.boards and self.rated:
            raise TableError("A table playing given boards is not rated.")

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON-ready object (the header of a stored table)."""
        listed = {"listed": True} if self.listed else {}  # a table stored before the lobby reads as unlisted
        boards = {"boards": list(self.boards), "tournament": self.tournament} if self.boards else {}
        target = {"tournament": self.tournament} if self.tournament and not self.boards else {}
        return {"rules": self.rules.to_dict(), "level": self.level, "bots_bid_nil": self.bots_bid_nil,
                "grace": self.grace, "turn_seconds": self.turn_seconds, "rated": self.rated,
                **listed, **boards, **target}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        """The options back from ``to_json`` (tables stored before ratings are not rated)."""
        return cls(Rules.from_dict(data["rules"]), level=data["level"], bots_bid_nil=data["bots_bid_nil"],
                   grace=data["grace"], turn_seconds=data["turn_seconds"], rated=data.get("rated", False),
                   listed=data.get("listed", False), boards=tuple(data.get("boards", ())),
                   tournament=data.get("tournament"))


@dataclass
class Seat:
    """A seat: empty (a computer player sits), or a person's, who may be away."""

    name: str | None = None
    token: str | None = None
    """The hash of the person's secret seat token."""
    player: str | None = None
    """The hash of the person's player token, if they linked it: their stats count the table's games."""
    conn: str | None = None
    """The server process the person's pages connect through (the latest), so that a late goodbye from a
    page of another process is not taken for leaving."""
    away_since: float | None = None
    left: bool = False
    """The person left the started game (``leave``): away by choice, not for want of an open page."""
    bot: bool = False
    """A computer player keeps the person's seat warm (they left, stayed away, or the host asked)."""
    kept: bool = False
    """The host keeps this empty seat for a computer player: no one may sit there."""

    @property
    def person(self) -> bool:
        """Whether a person holds this seat."""
        return self.token is not None

    @property
    def awaited(self) -> bool:
        """Whether the person is away and no computer player has their seat yet (a countdown runs)."""
        return self.person and not self.bot and self.away_since is not None

    @property
    def played_by_bot(self) -> bool:
        """Whether a computer player makes this seat's moves now."""
        return not self.person or self.bot


@dataclass(frozen=True)
class ChatLine:
    """A chat line or a reaction, as text."""

    seat: int
    name: str
    text: str
    at: float
    reaction: bool


@functools.lru_cache(maxsize=4096)
def hash_token(token: str) -> str:
    """What the log keeps of a seat token (the token itself never leaves the person's browser); kept
    for the tokens in use, which are asked for at every update."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_text(text: str, *, what: str, limit: int) -> str:
    """A name or chat line trimmed and checked: not empty, not too long, no control characters."""
    if not isinstance(text, str):
        raise BadText(f"The {what} must be text.")
    text = text.strip()
    if not text:
        raise BadText(f"The {what} is empty.")
    if len(text) > limit:
        raise BadText(f"The {what} is too long: at most {limit} characters.")
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise BadText(f"The {what} holds control characters.")
    return text


@dataclass
class TableState:
    """What a table is at one version of its log: what its entries change (``entries.Entry.apply``)."""

    code: str
    options: TableOptions
    clock: Clock
    seats: list[Seat] = field(init=False)
    seq: int = 0
    """How many entries of the log have been applied: the table's version."""
    host: int | None = None
    game: Game | None = None
    seed: int | None = None
    past_seeds: list[int] = field(default_factory=list)
    """The deal numbers of this table's finished games, oldest first (they may be shown)."""
    boards_played: list[HandResult] = field(default_factory=list)
    """A table of given boards: each board's hand, once a later board was dealt (``played_boards``)."""
    coached: bool = False
    """Whether the server's coach reviews the seats' finished hands (the server's setting, not logged)."""
    turn_since: float = 0.0
    """When the seat to move got its turn (for the turn timer)."""
    ended: int = -1
    """The version of the entry that ended the latest game (-1: none has ended)."""
    absent_at_deal: frozenset[int] = frozenset()
    """The people's seats a computer player had when the game being played was dealt (they had left, or
    were away past the grace period)."""
    computer_moves: set[int] = field(default_factory=set)
    """The moves of the game being played (by their place in its log) that a computer player made:
    for an empty seat, and for a person who was away, whose seat the host gave away, or whose turn
    timer ran out. The coach judges a person only on the others."""
    changed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SELDOM, 0))
    """The version at which each part of the seats' views that changes seldom (``SELDOM``) last
    changed: an update to a page that has a later version leaves the part out (``views``)."""
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=_CHAT_KEPT))
    said: dict[int, deque[float]] = field(default_factory=dict)
    """When each seat said its latest chat lines and reactions (for the rate they may say them at)."""

    def __post_init__(self) -> None:
        self.seats = [Seat() for _ in range(self.options.rules.players)]

    @property
    def started(self) -> bool:
        """Whether the host has started the first game."""
        return self.game is not None

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    def seat_label(self, seat: int) -> str:
        """A seat's name for people: the person's name, or the computer player and the seat (a remote bot
        by its name, marked a bot)."""
        s = self.seats[seat]
        if s.name is not None:
            return s.name
        level = self.options.level
        who = f"Bot {level.removeprefix(REMOTE_PREFIX)}" if level.startswith(REMOTE_PREFIX) else "Computer"
        return f"{who} ({seat_name(self.players, seat)})"

    def seat_labels(self) -> tuple[str, ...]:
        """Every seat's name for people, by seat: how the table's messages name the seats."""
        return tuple(self.seat_label(i) for i in range(self.players))

    def computer_moves_of(self, seat: int) -> frozenset[int]:
        """The moves a computer player made for ``seat`` in the game being played (by their place in its
        log): what the coach does not judge that seat's person on."""
        log = self.game.log if self.game is not None else []
        return frozenset(i for i in self.computer_moves if (m := log[i]) is not None and m[0] == seat)

    @property
    def board_over(self) -> bool:
        """Whether a table of given boards has played the hand of the board it was dealt."""
        game = self.game
        return bool(self.options.boards) and game is not None and bool(game.history) \
            and game.phase in (Phase.HAND_OVER, Phase.GAME_OVER)

    @property
    def between_deals(self) -> bool:
        """Whether the next deal is due once people have seen the score sheet: the next hand of a game,
        or at a table of given boards the next board (none after the last: the table is over)."""
        if self.options.boards:
            return self.board_over and bool(self.boards_left)
        return self.game is not None and self.game.phase is Phase.HAND_OVER

    @property
    def boards_left(self) -> int | None:
        """A table of given boards: how many it has still to deal after the one dealt (all of them before
        the start); None at other tables."""
        if not self.options.boards:
            return None
        return len(self.options.boards) - (len(self.past_seeds) + 1 if self.started else 0)

    def played_boards(self) -> list[HandResult]:
        """A table of given boards: the hand of each board played so far, in the boards' order."""
        game = self.game
        return self.boards_played + ([game.history[0]] if self.board_over and game is not None else [])

    def active(self) -> bool:
        """Whether a game is being played and someone must move (not between hands or after the game)."""
        return self.game is not None and self.game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)

    @property
    def counting_down(self) -> bool:
        """Whether a person is away and a computer player not yet in their seat: the seats' views then
        hold a countdown (``away_left``), which changes with the clock, not only with the log."""
        return any(s.awaited for s in self.seats)

    def away_left(self, seat: int, now: float) -> float | None:
        """Seconds at ``now`` before a computer player takes the seat of its person, who is away (0: due);
        None if no one is away there, or a computer player has the seat already."""
        s = self.seats[seat]
        if s.away_since is None or not s.awaited:
            return None
        return max(0.0, self.options.grace - (now - s.away_since))

    def seat_person(self, seat: int, name: str, token: str, player: str | None, conn: str | None) -> None:
        """A person has the seat; the first at the table is host."""
        self.seats[seat] = Seat(name=name, token=token, player=player, conn=conn)
        if self.host is None:
            self.host = seat

    def swap_seats(self, frm: int, to: int) -> None:
        """Two seats swap (the host role goes with its person)."""
        self.seats[frm], self.seats[to] = self.seats[to], self.seats[frm]
        if self.host in (frm, to):
            self.host = to if self.host == frm else frm

    def leave_seat(self, seat: int, at: float) -> None:
        """A person leaves: before the start the seat is free, after it a computer player keeps it."""
        if self.started:
            s = self.seats[seat]
            s.bot, s.left, s.away_since = True, True, s.away_since or at
        else:
            self.seats[seat] = Seat()
        if seat == self.host:
            self.pass_host()

    def add_chat(self, seat: int, text: str, at: float, reaction: bool) -> None:
        """A chat line or reaction joins the chat (and counts against the seat's rate)."""
        self.chat.append(ChatLine(seat, self.seats[seat].name or "", text, at, reaction))
        self.said.setdefault(seat, deque(maxlen=CHAT_BURST)).append(at)

    def pass_host(self) -> None:
        """The host role goes to the next person at the table who is here (it stays if there is none)."""
        assert self.host is not None
        for k in range(1, self.players):
            i = (self.host + k) % self.players
            s = self.seats[i]
            if s.person and not s.bot:
                self.host = i
                return
        if not self.seats[self.host].person:
            self.host = None

