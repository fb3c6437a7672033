"""A friends' table: seats that belong to people, computer players in the others, one game at a time.

The table is a log of entries (someone joined, sat, started, moved, went away, chatted...: one type
each, in ``entries``). A person's command (one type each, in ``commands``) is checked against the table,
turned into entries and applied; replaying the same entries rebuilds the same table, so the log is all
a store keeps. Nothing an entry's ``apply`` does reads the clock or draws a random number: the time and
the seed are in the entries.

>>> from spades.rules import Rules
>>> from spades.server.tables.commands import Start
>>> t = FriendsTable("ABC234", TableOptions(Rules()), clock=lambda: 0.0)
>>> token, seat = t.join("Ann")
>>> t.run(t.seat_of(token), Start())
>>> t.game is not None and t.seats[seat].name == "Ann"
True
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from spades.bots import Player
from spades.deal import MAX_DEAL
from spades.game import Game, Phase, seat_name
from spades.moves import Move
from spades.protocol import Roster
from spades.ratings import GameResult, computer, places_of
from spades.server.store.base import FriendResult
from spades.server.tables.entries import (
    Away,
    BotSeated,
    Entry,
    GameDealt,
    HandDealt,
    HostChanged,
    Joined,
    MoveMade,
    Returned,
)
from spades.server.tables.state import (
    CHAT_BURST,
    CHAT_WINDOW,
    MAX_CHAT,
    MAX_NAME,
    RESERVED_NAMES,
    BadSeatToken,
    BadText,
    ChatLine,
    Clock,
    MoveRefused,
    NameTaken,
    NoSuchSeat,
    NotAllowed,
    Seat,
    StaleVersion,
    TableDamaged,
    TableError,
    TableFull,
    TableNotFound,
    TableOptions,
    TableState,
    Told,
    TooFast,
    WrongTime,
    clean_text,
    hash_token,
)

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "MAX_NAME",
    "BadSeatToken",
    "BadText",
    "ChatLine",
    "Clock",
    "FriendsTable",
    "MoveRefused",
    "NameTaken",
    "NoSuchSeat",
    "NotAllowed",
    "Runs",
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
    "clean_text",
    "hash_token",
]

Teller = Callable[["FriendsTable", MoveMade], Told]
"""What makes a move's ``Told`` as it is applied (the presentation's: ``views.tell_move``)."""
_RECENT = 128
"""Moves and other entries a table keeps as events to tell a page that is behind (one further
behind gets the whole table instead)."""
_SEED_BELOW = MAX_DEAL


class Runs(Protocol):
    """A command (``commands.Command``): what ``FriendsTable.run`` asks of one."""

    def run(self, table: FriendsTable, by: int) -> None:
        """Check the command for seat ``by`` and commit its entries."""


@dataclass
class FriendsTable(TableState):
    """One table, rebuilt from its log; commands check, then commit and apply entries."""

    teller: Teller | None = None
    """What tells a move to the seats as it is applied (none: the table keeps no move's event)."""
    entries: list[Entry] = field(default_factory=list)
    recent: deque[tuple[int, Entry, Told | None]] = field(default_factory=lambda: deque(maxlen=_RECENT))
    """The latest entries with their version and, for a move, its event as the ``teller`` made it.
    Strings, unlike models and their lists, are nothing the garbage collector has to walk while they
    wait to be told."""
    make_bot: Callable[[str, bool], Player] = Roster({}).player
    """What makes the computer player of a level (or an operator's outside bot) and nil choice: the hub's
    roster's ``player``; by default the levels alone."""
    _bots: dict[int, Player] = field(default_factory=dict)

    @classmethod
    def replay(cls, code: str, options: TableOptions, entries: list[Entry], clock: Clock,
               teller: Teller | None = None) -> FriendsTable:
        """The table its log describes."""
        table = cls(code, options, clock, teller=teller)
        table.extend(entries)
        return table

    def extend(self, entries: Sequence[Entry], told: Sequence[Told | None] = ()) -> None:
        """Apply entries another process appended (the log's continuation), with their moves' events as
        that process told them, if given (one for each entry: else the ``teller`` makes them again);
        only the last ``_RECENT`` of the log are kept as events (a replayed table tells none of the
        older ones)."""
        first_told = len(self.entries) + len(entries) - _RECENT
        for i, e in enumerate(entries):
            self._apply(e, tell=len(self.entries) >= first_told, told=told[i] if told else None)

    def told_since(self, version: int) -> list[Told | None] | None:
        """The events of the entries after ``version`` as this table told them (None for an entry that
        is no move; None in all if some of them are no longer kept)."""
        kept = [told for seq, _, told in self.recent if seq >= version]
        return kept if len(kept) == self.seq - version else None

    # -- what the table is ---------------------------------------------------------------

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

    def rated_game(self, since: int) -> GameResult | None:
        """If the table is rated and an entry from version ``since`` on ended the game: what rating it
        needs. Each seat is rated as its person (by their player token), or as the computer level if a
        computer player made all its moves (no person held it, or its person was gone from the deal on);
        a person whose seat a computer player had at the end left, and takes a loss."""
        game = self.game
        if self.options.rated_as is None or game is None or game.winner is None or self.ended < since:
            return None
        rules = game.rules
        people = {i: s.player for i, s in enumerate(self.seats)
                  if s.person and s.player is not None and not self._computer_throughout(i)}
        return GameResult(
            rules=self.options.rated_as, game=f"table {self.code} {len(self.past_seeds) + 1}",
            seats=tuple(people.get(i, computer(self.options.level)) for i in range(self.players)),
            sides=tuple(rules.side_of(i) for i in range(self.players)),
            places=places_of(game.scores, game.winner),
            left=frozenset(i for i in people if self.seats[i].bot))

    def _computer_throughout(self, seat: int) -> bool:
        """Whether the seat's person was gone when the game being played was dealt and a computer player
        made every move of the seat since."""
        log = self.game.log if self.game is not None else []
        return seat in self.absent_at_deal and \
            len(self.computer_moves_of(seat)) == sum(1 for m in log if m is not None and m[0] == seat)

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

    # -- what people and the server do ---------------------------------------------------------

    def run(self, by: int, command: Runs) -> None:
        """Do what the person in seat ``by`` asked (``commands``: the command checks it all)."""
        command.run(self, by)

    def join(self, name: str, seat: int | None = None, conn: str | None = None,
             player: str | None = None, sealed: str | None = None) -> tuple[str, int]:
        """Sit a person down (in ``seat``, or the first free one); return their secret token and seat.

        ``player``: the hash of the person's player token, so that their stats count this table's games.
        ``sealed``: the hash of a seat token the person gets elsewhere (a Quick game's, which only their
        own requests can make): the seat takes it, and no token is returned ("").
        """
        name = clean_text(name, what="display name", limit=MAX_NAME)
        if name.casefold() == "you":
            raise BadText('The name "You" is kept for each person\'s own seat: choose another name.')
        if name.casefold() in {r.casefold() for r in RESERVED_NAMES}:
            raise BadText(f"The name {name} is kept for the computer players: choose another name.")
        if name.casefold() in {label.casefold() for label in self.seat_labels()}:
            raise NameTaken(f"The name {name} is taken at this table: choose another name.")
        if self.options.rated:
            self._check_rated_join(player)
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
        token = "" if sealed else secrets.token_urlsafe(18)
        self.commit(Joined(seat=seat, name=name, token=sealed or hash_token(token), conn=conn, player=player))
        return token, seat

    def _check_rated_join(self, player: str | None) -> None:
        """Who may sit at a rated table: a player (rated by their player token), once, and not while a
        game is being played (each seat's rating is whoever held it from the deal)."""
        if player is None:
            raise NotAllowed("A rated table seats players: open Spades on this device first (its page "
                             "gives you a player), then join.")
        if any(s.player == player for s in self.seats):
            raise WrongTime("You already have a seat at this rated table.")
        if self.game is not None and self.game.phase is not Phase.GAME_OVER:
            raise WrongTime("This rated table's game is under way: its seats stay as they were dealt. "
                            "Watch, or join for the next game.")

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

    def turn_left(self, now: float) -> float | None:
        """Seconds at ``now`` before the turn timer acts (0: due): the computer player moves for the
        person to move, or the next hand is dealt. None when no timer runs (none set, no game, a
        computer player to move, the game over)."""
        game, limit = self.game, self.options.turn_seconds
        if game is None or not limit:
            return None
        person_to_move = self.active() and game.turn is not None and not self.seats[game.turn].played_by_bot
        if not person_to_move and not self.between_deals:
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
            if self.between_deals:
                self.commit(self.next_deal())
            else:
                assert game.turn is not None
                seat = game.turn
                self.commit(MoveMade(seat=seat, move=self._bot_move(seat), timer=1))
        return self.seq != before

    # -- what commands check -------------------------------------------------------------------

    def check_seat(self, seat: object) -> None:
        """NoSuchSeat unless ``seat`` is one of this table's seats."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NoSuchSeat(f"There is no seat {seat!r} at a table of {self.players}.")

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
        said = self.said.get(by, deque())
        now = self.clock()
        if len(said) >= CHAT_BURST and now - said[-CHAT_BURST] < CHAT_WINDOW:
            raise TooFast(f"Slow down: at most {CHAT_BURST} messages in {CHAT_WINDOW:g} seconds.")

    def new_seed(self) -> int:
        """A new secret deal number for a game."""
        return secrets.randbelow(_SEED_BELOW - 1) + 1

    def first_deal(self) -> GameDealt:
        """The first game's deal: the first given board, or a new secret deal."""
        return GameDealt(seed=self.options.boards[0] if self.options.boards else self.new_seed())

    def next_deal(self) -> Entry:
        """The next deal once a hand is over (``between_deals``): the game's next hand, or at a table of
        given boards the next board as a new game from 0-0 (WrongTime after the last)."""
        if not self.between_deals:
            raise WrongTime("This table's boards are all played." if self.board_over
                            else "The hand is not over yet.")
        if self.options.boards:
            return GameDealt(seed=self.options.boards[len(self.past_seeds) + 1])
        return HandDealt()

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
            bot = self._bots[seat] = self.make_bot(self.options.level, self.options.bots_bid_nil)
        return bot.choose(game.view(seat), random.Random(f"{self.seed}:{len(game.log)}"))

    def _apply(self, e: Entry, tell: bool = True, told: Told | None = None) -> None:
        """Change the table by one entry, kept among the recent events if ``tell`` (a move with its
        event as the seats see it: ``told`` if it has a line for each, else made by the ``teller``); note
        the parts of the views it changed."""
        self.entries.append(e)
        self.seq += 1
        e.apply(self)
        if tell:
            if not isinstance(e, MoveMade) or self.teller is None:
                told = None
            elif told is None or len(told[2]) != self.players + 1:  # none given, or not for these seats
                told = self.teller(self, e)
            self.recent.append((self.seq - 1, e, told))
        for part in e.changes(self):
            self.changed[part] = self.seq

    def _host_token(self) -> str | None:
        """Who is host (their seat token's hash; None: no one): a swap of seats moves them, not the role."""
        return None if self.host is None else self.seats[self.host].token
