"""A friends' table: seats that belong to people, computer players in the others, one game at a time.

The table is a log of entries (someone joined, sat, started, moved, went away, chatted...: one type
each, in ``entries``). A person's command (one type each, in ``commands``) is checked against the table,
turned into entries and applied; replaying the same entries rebuilds the same table, so the log is all
a store keeps. Nothing an entry's ``apply`` does reads the clock or draws a random number: the time and
the seed are in the entries.

>>> from spades.server.tables.commands import Start
>>> t = FriendsTable("ABC234", TableOptions(Rules()), clock=lambda: 0.0)
>>> token, seat = t.join("Ann")
>>> t.run(t.seat_of(token), Start())
>>> t.game is not None and t.seats[seat].name == "Ann"
True
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spades.bots import LEVELS, Player, make_player
from spades.deal import MAX_DEAL
from spades.errors import SpadesError
from spades.game import Game, Phase, seat_name
from spades.moves import Move
from spades.rules import Rules
from spades.server.store.base import FriendResult
from spades.server.tables.entries import (
    REACTIONS,
    SELDOM,
    Away,
    BotSeated,
    Entry,
    HandDealt,
    HostChanged,
    Joined,
    MoveMade,
    Returned,
)

if TYPE_CHECKING:
    from spades.server.tables.commands import Command

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "MAX_NAME",
    "REACTIONS",
    "SELDOM",
    "BadSeatToken",
    "BadText",
    "ChatLine",
    "Clock",
    "FriendsTable",
    "MoveRefused",
    "NotAllowed",
    "Seat",
    "StaleVersion",
    "TableDamaged",
    "TableError",
    "TableFull",
    "TableNotFound",
    "TableOptions",
    "Teller",
    "Told",
    "TooFast",
    "WrongTime",
]

Clock = Callable[[], float]
"""Seconds, from any fixed origin (``time.time`` in the server, a counter in the tests)."""
Told = tuple[tuple[str, str], ...]
"""A move's event as each seat and then a spectator sees it: its line and its JSON text."""
Teller = Callable[["FriendsTable", MoveMade], Told]
"""What makes a move's ``Told`` as it is applied (the presentation's: ``views.tell_move``)."""

MAX_NAME = 24
MAX_CHAT = 200
CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""At most ``CHAT_BURST`` chat lines and reactions per seat in any ``CHAT_WINDOW`` seconds."""
_CHAT_KEPT = 50
_RECENT = 128
"""Moves and other entries a table keeps as events to tell a page that is behind (one further
behind gets the whole table instead)."""
_SEED_BELOW = MAX_DEAL


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

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise TableError(f"The computer players' level is one of {', '.join(LEVELS)}.")
        if not 5 <= self.grace <= 600:
            raise TableError("The grace period runs from 5 to 600 seconds.")
        if self.turn_seconds and not 5 <= self.turn_seconds <= 600:
            raise TableError("The turn timer is off (0) or from 5 to 600 seconds.")

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON-ready object (the header of a stored table)."""
        return {"rules": self.rules.to_dict(), "level": self.level, "bots_bid_nil": self.bots_bid_nil,
                "grace": self.grace, "turn_seconds": self.turn_seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        """The options back from ``to_json``."""
        return cls(Rules.from_dict(data["rules"]), level=data["level"], bots_bid_nil=data["bots_bid_nil"],
                   grace=data["grace"], turn_seconds=data["turn_seconds"])


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
class FriendsTable:
    """One table's state, rebuilt from its log; commands check, then append and apply entries."""

    code: str
    options: TableOptions
    clock: Clock
    seats: list[Seat] = field(init=False)
    host: int | None = None
    game: Game | None = None
    seed: int | None = None
    past_seeds: list[int] = field(default_factory=list)
    """The deal numbers of this table's finished games, oldest first (they may be shown)."""
    coached: bool = False
    """Whether the server's coach reviews the seats' finished hands (the server's setting, not logged)."""
    turn_since: float = 0.0
    """When the seat to move got its turn (for the turn timer)."""
    ended: int = -1
    """The version of the entry that ended the latest game (-1: none has ended)."""
    computer_moves: set[int] = field(default_factory=set)
    """The moves of the game being played (by their place in its log) that a computer player made:
    for an empty seat, and for a person who was away, whose seat the host gave away, or whose turn
    timer ran out. The coach judges a person only on the others."""
    teller: Teller | None = None
    """What tells a move to the seats as it is applied (none: the table keeps no move's event)."""
    entries: list[Entry] = field(default_factory=list)
    changed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SELDOM, 0))
    """The version at which each part of the seats' views that changes seldom (``SELDOM``) last
    changed: an update to a page that has a later version leaves the part out (``views``)."""
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=_CHAT_KEPT))
    recent: deque[tuple[int, Entry, Told | None]] = field(default_factory=lambda: deque(maxlen=_RECENT))
    """The latest entries with their version and, for a move, its event as the ``teller`` made it.
    Strings, unlike models and their lists, are nothing the garbage collector has to walk while they
    wait to be told."""
    _bots: dict[int, Player] = field(default_factory=dict)
    _said: dict[int, deque[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seats = [Seat() for _ in range(self.options.rules.players)]

    @classmethod
    def replay(cls, code: str, options: TableOptions, entries: list[Entry], clock: Clock,
               teller: Teller | None = None) -> FriendsTable:
        """The table its log describes."""
        table = cls(code, options, clock, teller=teller)
        table.extend(entries)
        return table

    def extend(self, entries: list[Entry]) -> None:
        """Apply entries another process appended (the log's continuation); only the last ``_RECENT``
        of the log are kept as events (a replayed table tells none of the older ones)."""
        first_told = len(self.entries) + len(entries) - _RECENT
        for e in entries:
            self._apply(e, tell=len(self.entries) >= first_told)

    # -- what the table is ---------------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many entries the log has: the table's state version."""
        return len(self.entries)

    @property
    def started(self) -> bool:
        """Whether the host has started the first game."""
        return self.game is not None

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    def results(self, since: int) -> list[FriendResult]:
        """If an entry from version ``since`` on ended the game: how it ended for each person at the
        table who linked their player token (what their stats count)."""
        game = self.game
        if game is None or game.phase is not Phase.GAME_OVER or self.ended < since:
            return []
        rules = game.rules
        return [FriendResult(game=len(self.past_seeds) + 1, seat=i, player=s.player,
                             won=game.winner == rules.side_of(i), final_score=game.scores[rules.side_of(i)])
                for i, s in enumerate(self.seats) if s.person and s.player is not None]

    def seat_of(self, token: str) -> int:
        """The seat a secret token holds (BadSeatToken if none)."""
        if isinstance(token, str) and token:
            h = hash_token(token)
            for i, s in enumerate(self.seats):
                if s.token == h:
                    return i
        raise BadSeatToken("This seat token is not valid at this table: join again with the link.")

    def viewer(self, token: str | None) -> int:
        """Whom a view is for: the seat a token holds, or for no token a spectator, numbered ``players``
        (who watches without a seat and sees only what is face up)."""
        return self.players if token is None else self.seat_of(token)

    def seat_label(self, seat: int) -> str:
        """A seat's name for people: the person's name, or the computer player and the seat."""
        s = self.seats[seat]
        return s.name if s.name is not None else f"Computer ({seat_name(self.players, seat)})"

    def seat_labels(self) -> tuple[str, ...]:
        """Every seat's name for people, by seat: how the table's messages name the seats."""
        return tuple(self.seat_label(i) for i in range(self.players))

    def computer_moves_of(self, seat: int) -> frozenset[int]:
        """The moves a computer player made for ``seat`` in the game being played (by their place in its
        log): what the coach does not judge that seat's person on."""
        log = self.game.log if self.game is not None else []
        return frozenset(i for i in self.computer_moves if (m := log[i]) is not None and m[0] == seat)

    def active(self) -> bool:
        """Whether a game is being played and someone must move (not between hands or after the game)."""
        return self.game is not None and self.game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)

    # -- what people and the server do ---------------------------------------------------------

    def run(self, by: int, command: Command) -> None:
        """Do what the person in seat ``by`` asked (``commands``: the command checks it all)."""
        command.run(self, by)

    def join(self, name: str, seat: int | None = None, conn: str | None = None,
             player: str | None = None) -> tuple[str, int]:
        """Sit a person down (in ``seat``, or the first free one); return their secret token and seat.

        ``player``: the hash of the person's player token, so that their stats count this table's games.
        """
        name = clean_text(name, what="display name", limit=MAX_NAME)
        if name.casefold() == "you":
            raise BadText('The name "You" is kept for each person\'s own seat: choose another name.')
        if name.casefold() in {label.casefold() for label in self.seat_labels()}:
            raise BadText(f"The name {name} is taken at this table: choose another name.")
        free = [i for i, s in enumerate(self.seats) if not s.person and not s.kept]
        if not free:
            raise TableFull(f"The table is full: all {self.players} seats are taken"
                            f"{' or kept for computer players' if any(s.kept for s in self.seats) else ''}.")
        if seat is None:
            seat = free[0]
        self.check_seat(seat)
        if self.seats[seat].person:
            raise WrongTime(f"{seat_name(self.players, seat)} is taken: choose a free seat.")
        self.check_not_kept(seat)
        token = secrets.token_urlsafe(18)
        self.commit(Joined(seat=seat, name=name, token=hash_token(token), conn=conn, player=player))
        return token, seat

    def connected(self, by: int, conn: str) -> None:
        """A page of the person's connected through process ``conn``: they are back if they were away (a
        computer player in their seat hands it back), and nothing changes if they were here through it."""
        s = self.seats[by]
        if s.conn == conn and s.away_since is None and not s.bot:
            return
        self.commit(Returned(seat=by, conn=conn))

    def disconnected(self, by: int, conn: str) -> None:
        """The person's last page on process ``conn`` went away; after the grace period a computer player
        takes the seat."""
        s = self.seats[by]
        if s.conn != conn or s.away_since is not None:
            return
        self.commit(Away(seat=by))

    def connected_through(self) -> set[str]:
        """The server processes through which the pages of the people here (not away) connect."""
        return {s.conn for s in self.seats if s.person and s.away_since is None and s.conn is not None}

    def processes_stopped(self, conns: set[str]) -> bool:
        """The server processes ``conns`` stopped without a goodbye (their leases expired): the people
        whose pages connected through them are away. Whether anyone was."""
        before = self.seq
        for i, s in enumerate(self.seats):
            if s.conn is not None and s.conn in conns:
                self.disconnected(i, s.conn)
        return self.seq != before

    def missed(self, seat: int) -> bool:
        """Whether the seat's person is taken to be away for want of an open page (not because they left):
        a process where a page of theirs is still open says they are back (``Live``)."""
        s = self.seats[seat]
        return s.person and s.away_since is not None and not s.left

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

    def turn_left(self, now: float) -> float | None:
        """Seconds at ``now`` before the turn timer acts (0: due): the computer player moves for the
        person to move, or the next hand is dealt. None when no timer runs (none set, no game, a
        computer player to move, the game over)."""
        game, limit = self.game, self.options.turn_seconds
        if game is None or not limit:
            return None
        person_to_move = self.active() and game.turn is not None and not self.seats[game.turn].played_by_bot
        if not person_to_move and game.phase is not Phase.HAND_OVER:
            return None
        return max(0.0, limit - (now - self.turn_since))

    def due(self, now: float) -> bool:
        """Whether ``tick`` at ``now`` would act: a seat's grace period or the turn timer has run out."""
        return any(self.away_left(i, now) == 0 for i in range(self.players)) or self.turn_left(now) == 0

    def tick(self) -> bool:
        """Let the clock act: seats away past the grace period, turns past the timer; whether anything did."""
        now = self.clock()
        before = self.seq
        for i in range(self.players):
            if self.away_left(i, now) == 0:
                self.commit(BotSeated(seat=i))
        game = self.game
        if game is not None and self.turn_left(now) == 0:
            if game.phase is Phase.HAND_OVER:
                self.commit(HandDealt())
            else:
                assert game.turn is not None
                seat = game.turn
                self.commit(MoveMade(seat=seat, move=self._bot_move(seat), timer=1))
        return self.seq != before

    # -- what commands check -------------------------------------------------------------------

    def check_seat(self, seat: object) -> None:
        """TableError unless ``seat`` is one of this table's seats."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise TableError(f"There is no seat {seat!r} at a table of {self.players}.")

    def check_not_kept(self, seat: int) -> None:
        """WrongTime if the host keeps the seat for a computer player."""
        if self.seats[seat].kept:
            raise WrongTime(f"The host keeps {seat_name(self.players, seat)} for a computer player.")

    def need_host(self, by: int) -> None:
        """NotAllowed unless ``by`` is the host's seat."""
        if by != self.host:
            raise NotAllowed("Only the host can do that.")

    def need_game(self) -> Game:
        """The game being played (WrongTime before the start)."""
        if self.game is None:
            raise WrongTime("The game has not started yet.")
        return self.game

    def check_rate(self, by: int) -> None:
        """TooFast if the seat said too much lately (``CHAT_BURST`` in ``CHAT_WINDOW``)."""
        said = self._said.get(by, deque())
        now = self.clock()
        if len(said) >= CHAT_BURST and now - said[-CHAT_BURST] < CHAT_WINDOW:
            raise TooFast(f"Slow down: at most {CHAT_BURST} messages in {CHAT_WINDOW:g} seconds.")

    def new_seed(self) -> int:
        """A new secret deal number for a game."""
        return secrets.randbelow(_SEED_BELOW - 1) + 1

    # -- what entries change -------------------------------------------------------------------

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
        self._said.setdefault(seat, deque(maxlen=CHAT_BURST)).append(at)

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

    # -- inside ----------------------------------------------------------------------------

    def commit(self, entry: Entry) -> None:
        """Stamp and apply an entry a command or the server made (with a ``HostChanged`` entry after it if the
        role passed to another person by it, so that the log says who is host), then let the computer
        players move up to a person's turn."""
        at = self.clock()
        host = self._host_token()
        self._apply(dataclasses.replace(entry, at=at))
        now_host = self.host
        if now_host is not None and self._host_token() != host and self.seq > 1 \
                and not isinstance(entry, HostChanged):
            self._apply(HostChanged(seat=now_host, at=at))
        while self.active():
            game = self.game
            assert game is not None and game.turn is not None
            if not self.seats[game.turn].played_by_bot:
                break
            seat = game.turn
            self._apply(MoveMade(seat=seat, move=self._bot_move(seat), at=at))

    def _bot_move(self, seat: int) -> Move:
        """The computer player's move for a seat, from the table's seed and the game's progress."""
        game = self.game
        assert game is not None
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_player(self.options.level, bid_nil=self.options.bots_bid_nil)
        return bot.choose(game.view(seat), random.Random(f"{self.seed}:{len(game.log)}"))

    def _apply(self, e: Entry, tell: bool = True) -> None:
        """Change the table by one entry, kept among the recent events if ``tell`` (a move with its
        event as the seats see it, made by the ``teller``); note the parts of the views it changed."""
        self.entries.append(e)
        e.apply(self)
        if tell:
            told = self.teller(self, e) if isinstance(e, MoveMade) and self.teller is not None else None
            self.recent.append((self.seq - 1, e, told))
        for part in e.changes(self):
            self.changed[part] = self.seq

    def _host_token(self) -> str | None:
        """Who is host (their seat token's hash; None: no one): a swap of seats moves them, not the role."""
        return None if self.host is None else self.seats[self.host].token
