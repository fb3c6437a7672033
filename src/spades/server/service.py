"""The referee: games in progress, the computer players, settings and stats.

Every move a page sends is checked by the engine on a copy of the game; the computer players
then move up to the person's next decision, and the new moves are appended to the game's log in
the store, on the version the move was made on, before the answer goes back. Only then does the
copy replace the cached game, so a failed or refused save leaves the game as it was. The cache
holds games rebuilt from their logs; it brings a game up to date with the moves another process
appended before using it, so any process can serve any request.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cached_property
from typing import Any, NoReturn

from spades.bots import Player, hint, make_player
from spades.cards import Card
from spades.deal import check_deal_number, daily_deal
from spades.errors import IllegalMoveError, SpadesError
from spades.game import Game, Phase
from spades.moves import MakeBid, Move, Play, parse_move
from spades.ratings import GameResult, computer, places_of, rated_rules_of
from spades.record import dump_record, extend, load_record, record_of, replay
from spades.rules import Rules
from spades.server.accounts.credentials import selector_of, unused_since, verifies
from spades.server.analyses import Analyses, CoachUnavailable
from spades.server.present import Fields, event_fields, human_seat, review_of, state_fields
from spades.server.reviews import Reviews, game_subject
from spades.server.schemas import (
    TOKEN_PATTERN,
    CoachGameOut,
    CoachOut,
    GameState,
    HandReview,
    HintOut,
    MoveOut,
    Record,
    SettingsIn,
    StatsOut,
)
from spades.server.store import GameRow, LogEntry, Played, Result, Store, StoreBusy, StoreError, at_once
from spades.server.tables.table import hash_token

__all__ = ["MoveRejected", "NotFound", "SeededOnUse", "Service", "SoloGame", "UnknownPlayer", "replayed"]

_TOKEN = re.compile(TOKEN_PATTERN)
_NEW_DEALS = 10**9
"""Fresh deal numbers are drawn below this, so they stay short enough to read out."""
_CACHE = 2048
"""Games kept rebuilt in memory, most recently used first."""
_log = logging.getLogger("spades.service")
_MOVED_ON = "The table has moved on since that move was chosen: here it is now."


class UnknownPlayer(SpadesError):
    """A well-formed token this server never issued (or whose database was replaced)."""


class NotFound(SpadesError):
    """No such game for this player."""


class MoveRejected(SpadesError):
    """A move the table cannot take now (stale, repeated, out of turn, illegal): the state goes back."""

    def __init__(self, message: str, state: GameState) -> None:
        super().__init__(message)
        self.state = state


@dataclass
class SoloGame:
    """A game being played: its stored row, the engine's game as stored (a move is made on it, under its
    lock, and undone if it is not stored), its computer players."""

    row: GameRow
    game: Game
    bots: dict[int, Player]
    coached: bool
    """Whether the server's coach reviews this game's finished hands."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @cached_property
    def human(self) -> int:
        """The person's seat (asked several times a move)."""
        return human_seat(self.game.players)

    @property
    def version(self) -> int:
        """The stored version the cached game is at: its number of log entries."""
        return len(self.game.log)

    def state(self) -> GameState:
        """What the person's seat may see now (a rated game's deal number only once it is over)."""
        return GameState.model_validate(self.fields())

    def fields(self) -> Fields:
        """``state`` as plain data."""
        secret = self.row.rated is not None and self.game.phase is not Phase.GAME_OVER
        return state_fields(self.game, game_id=self.row.id, deal=0 if secret else self.row.deal,
                            daily=self.row.daily, level=self.row.level, coach=self.coached)

    def answer(self, events: list[Fields]) -> Fields:
        """A move's answer as plain data (``MoveOut``'s fields): its events and the state now."""
        return {"events": events, "state": self.fields()}

    def rated_game(self, game: Game, *, abandoned: bool = False) -> GameResult | None:
        """If the game is rated and ``game`` (its copy, moved on) is over, or ``abandoned`` (a loss for the
        person): what rating it needs. The person and their computer partner against two computer
        players, the level rated in each of their seats."""
        if self.row.rated is None or (game.winner is None and not abandoned):
            return None
        rules = game.rules
        mine = rules.side_of(self.human)
        places = (tuple(int(side == mine) for side in range(rules.sides)) if abandoned or game.winner is None
                  else places_of(game.scores, game.winner))
        return GameResult(rules=self.row.rated, game=f"game {self.row.id}",
                          seats=tuple(hash_token(self.row.token) if s == self.human
                                      else computer(self.row.level) for s in range(game.players)),
                          sides=tuple(rules.side_of(s) for s in range(game.players)), places=places)


@dataclass(frozen=True)
class _Start:
    """Where moves made on a table's game start: its version then, and its hands finished then."""

    version: int
    hands: int


class _NotStored(Exception):
    """Moves refused by the store: another process moved the game on first."""


class Service:
    """Games, settings and stats for anonymous players, kept in a ``Store``."""

    def __init__(self, store: Store, coach: Analyses | None = None) -> None:
        self.store = store
        self.coach = coach
        """The coach that reviews each finished hand in the background (None: no coach here)."""
        self.reviews = Reviews(store, coach)
        """The coach's reviews as the routes serve them (the friends' tables' routes use it too)."""
        self._tables: OrderedDict[int, SoloGame] = OrderedDict()
        self._lock = threading.Lock()

    # -- players and settings ------------------------------------------------------------

    def new_player(self) -> str:
        """A fresh anonymous token, stored now (the only request that adds a player)."""
        token = secrets.token_urlsafe(24)
        self.store.add_player(token=token)
        return token

    def player(self, token: str) -> str:
        """The player a credential stands for: their own anonymous token (while it still signs in), or a
        session of theirs from signing in on another device (not one unused for ``SESSION_IDLE``). Asks
        the store each time, so that a signing out anywhere counts at once in every process; writes only
        a session's first use of a day (and not when another writer would make it wait)."""
        if not _TOKEN.match(token):
            raise SpadesError("The player token is malformed: ask POST /api/players for a new one.")
        selector = selector_of(token)
        for player, verifier, used in self.store.credential(token=token, selector=selector,
                                                            since=unused_since()):
            if verifier is None:
                return player
            if verifies(verifier, token):
                if used[:10] < datetime.now(UTC).date().isoformat():
                    with suppress(StoreBusy), at_once(0):
                        self.store.session_used(selector=selector)
                return player
        raise UnknownPlayer("This player token is not known here (signed out, or the server's database "
                            "was replaced?): sign in, or ask POST /api/players for a new one.")

    def settings(self, token: str) -> SettingsIn:
        """The player's settings (the defaults until they save some)."""
        saved = self.store.settings(token=token)
        return SettingsIn() if saved is None else SettingsIn.model_validate(saved)

    def _auto_play(self, token: str) -> bool:
        """The player's ``auto_play`` setting, read alone (a move may ask it: the settings were checked
        as they were saved, and checking them all again cost more than the computer players' moves)."""
        saved = self.store.settings(token=token)
        value = None if saved is None else saved.get("auto_play")
        return _AUTO_PLAY if value is None else bool(value)

    def save_settings(self, token: str, settings: SettingsIn) -> SettingsIn:
        """Check the rules the settings choose, then save them."""
        rules_of(settings)
        self.store.save_settings(token=token, settings=settings.model_dump(mode="json"))
        return settings

    def stats(self, token: str) -> StatsOut:
        """Games played and won, the best final score, and the win streaks: in all, alone and with friends."""
        games = self.store.played(token=token, player=hash_token(token))
        return StatsOut(**_record(games).model_dump(), alone=_record([g for g in games if not g.friends]),
                        friends=_record([g for g in games if g.friends]))

    # -- games ---------------------------------------------------------------------------

    def new_game(
        self, token: str, *, deal: int | None = None, daily: str | None = None, resume: bool = False,
        rated: bool = False, board: bool = False, rules: Rules | None = None,
    ) -> MoveOut:
        """Start a numbered, daily or fresh deal with the player's rules (or resume it); or a rated game,
        on a fresh deal kept secret until it is over, under the player's rules if they are rated. A
        ``board`` is dealt as the friends' tables deal it (the first dealer drawn from the deal number),
        so a tournament's board opens with the hands its tables held; under the tournament's ``rules``,
        if given (a board's deal number is then needed)."""
        if deal is not None and daily is not None:
            raise SpadesError("Ask for a deal number or a daily deal, not both.")
        if rules is not None and (deal is None or not board or rated):
            raise SpadesError("A tournament's board is played by its deal number, as a board: ask for one "
                              "(not a fresh, daily or rated deal).")
        if rated:
            if deal is not None or daily is not None:
                raise SpadesError("A rated game's deal is secret: ask for one without a deal number or "
                                  "a daily deal.")
            settings = self.settings(token)
            rules = rules_of(settings)
            deal = secrets.randbelow(_NEW_DEALS - 1) + 1
            return self._start(token, rules, deal, None, settings.level, settings.bots_bid_nil,
                               rated_rules_of(rules))
        if daily is not None:
            try:
                deal = daily_deal(date.fromisoformat(daily))
            except ValueError:
                raise SpadesError(f"{daily!r} is not a date.") from None
        if deal is None:
            deal = secrets.randbelow(_NEW_DEALS - 1) + 1
        deal = check_deal_number(deal)
        if resume:
            row = self.store.active_game(token=token)
            if row is not None and row.status == "active" and row.deal == deal:
                with self._locked(row) as table:
                    same = rules is None or table.game.rules == rules
                    if same and (not board or table.game.first_dealer is None):
                        return MoveOut(events=[], state=table.state())
        settings = self.settings(token)
        return self._start(token, rules_of(settings) if rules is None else rules, deal, daily, settings.level,
                           settings.bots_bid_nil, board=board)

    def restart(self, token: str, game_id: int) -> MoveOut:
        """The same deal and rules again, from the first hand."""
        with self._table(token, game_id) as table:
            rules, row, board = table.game.rules, table.row, table.game.first_dealer is None
        if row.rated is not None:
            raise SpadesError("A rated game cannot be restarted: its deal is played once.")
        return self._start(token, rules, row.deal, row.daily, row.level, row.bots_bid_nil, board=board)

    def _start(self, token: str, rules: Rules, deal: int, daily: str | None, level: str,
               bots_bid_nil: bool, rated: str | None = None, board: bool = False) -> MoveOut:
        """Store a new game (rated under ``rated``, if given), play the computer players up to the
        person, and append their moves. The seat before the person's deals first, so they bid last;
        a ``board``'s first dealer is drawn from the deal number instead."""
        forfeit = self._forfeit(token)
        human = human_seat(rules.players)
        game = Game(rules, deal, first_dealer=None if board else (human - 1) % rules.players)
        row = self.store.add_game(token=token, deal=deal, daily=daily, level=level,
                                  bots_bid_nil=bots_bid_nil, header=dump_record(game), rated=rated)
        table = self._new_table(row, game)
        with table.lock, self._moving(table) as start:
            events = self._advance(table, token)
            self._commit(table, start, forfeit)
            with self._lock:
                self._cache(table)
            return MoveOut.model_validate(table.answer(events))

    def current(self, token: str) -> GameState | None:
        """The player's game at the point they left it, or None before their first game."""
        row = self.store.active_game(token=token)
        if row is None:
            return None
        with self._locked(row) as table:
            return table.state()

    def move(self, token: str, game_id: int, text: str, version: int) -> MoveOut:
        """Check and make the person's move, then let the computer players answer."""
        return MoveOut.model_validate(self.move_answer(token, game_id, text, version))

    def move_answer(self, token: str, game_id: int, text: str, version: int) -> Fields:
        """``move``'s answer as plain data (the solo socket writes it as it is)."""
        with self._playing(token, game_id) as table:
            self._check_version(table, version)
            with self._moving(table) as start:
                events = self._moved(table, text, token)
                self._commit(table, start)
            return table.answer(events)

    async def move_soon(self, token: str, game_id: int, text: str, version: int) -> Fields | None:
        """``move_answer`` on the event loop, for a store on this machine (``local``: its reads are short),
        its append committed with the others of the loop's turn (``append_soon``): no worker thread a
        move. Only the plain case, a move on the cached game at its version with nobody else at it; None
        otherwise (a refusal included), and the caller then asks ``move_answer`` in a worker thread, which
        does the rest and tells any refusal."""
        return await self._soon(token, game_id, version, lambda table: self._moved(table, text, token))

    async def next_soon(self, token: str, game_id: int, version: int) -> Fields | None:
        """``next_answer`` on the event loop, as ``move_soon`` makes a move (None: ask ``next_answer``)."""
        return await self._soon(token, game_id, version, lambda table: self._dealt(table, token))

    async def _soon(self, token: str, game_id: int, version: int,
                    step: Callable[[SoloGame], list[Fields]]) -> Fields | None:
        """``move_soon``'s way with any ``step`` of the game (made on it, its events returned)."""
        with self._lock:
            table = self._tables.get(game_id)
        if (not self.store.local or table is None or table.row.token != token or version != table.version
                or not table.lock.acquire(blocking=False)):
            return None
        try:
            with self._moving(table) as start:
                try:
                    with at_once(0):  # a read it makes (the settings) waits for no lock on the loop
                        events = step(table)
                except MoveRejected:  # the game as it was: the thread tells the refusal
                    return None
                entries, result = self._log_of(table, start.version)
                if not await self.store.append_soon(game_id=table.row.id, version=start.version,
                                                    entries=entries, result=result,
                                                    rated=table.rated_game(table.game)):
                    raise _NotStored
            out = table.answer(events)
            coached = self._finished(table, start)
        except (_NotStored, StoreBusy):  # another process moved first, or holds a lock: the thread catches
            return None  # up (waiting for the lock) and tells any refusal, the game as it was
        finally:
            table.lock.release()
        if coached is not None:  # the coach's request reads the store
            await asyncio.to_thread(self._coach, table.row.id, *coached)
        return out

    def _moved(self, table: SoloGame, text: str, token: str) -> list[Fields]:
        """The person's move made on the table's game, then the computer players' answers: their events
        (an illegal move is refused, with the state as it is, before anything changes)."""
        move = parse_move(text)
        game = table.game
        try:
            game.apply(table.human, move)
        except IllegalMoveError as e:
            raise MoveRejected(str(e), table.state()) from None
        return [event_fields(game, table.human, move)[0], *self._advance(table, token)]

    def next_hand(self, token: str, game_id: int, version: int) -> MoveOut:
        """Deal the next hand after the score sheet, and play the computer players to the person."""
        return MoveOut.model_validate(self.next_answer(token, game_id, version))

    def next_answer(self, token: str, game_id: int, version: int) -> Fields:
        """``next_hand``'s answer as plain data (the solo socket writes it as it is)."""
        with self._playing(token, game_id) as table:
            self._check_version(table, version)
            with self._moving(table) as start:
                events = self._dealt(table, token)
                self._commit(table, start)
            return table.answer(events)

    def _dealt(self, table: SoloGame, token: str) -> list[Fields]:
        """The next hand dealt on the table's game, then the computer players' moves: their events
        (refused with the state as it is while the hand is not over)."""
        if table.game.phase is not Phase.HAND_OVER:
            raise MoveRejected("The hand is not over yet.", table.state())
        table.game.next_hand()
        return self._advance(table, token)

    def review(self, token: str, game_id: int, number: int) -> HandReview:
        """A finished hand of the game, face up (a hand still being played is not shown)."""
        with self._table(token, game_id) as table:
            history = table.game.history
            if not 0 <= number < len(history):
                raise NotFound(f"Hand {number + 1} of game {game_id} is not finished.")
            return review_of(table.game.spec, history[number])

    def coach_review(self, token: str, game_id: int, number: int) -> CoachOut:
        """The coach's review of the person's decisions in a finished hand, or where its analysis
        stands (it is queued now if it was neither kept nor queued: after a restart, say)."""
        with self._table(token, game_id) as table:
            if not 0 <= number < len(table.game.history):
                raise NotFound(f"Hand {number + 1} of game {game_id} is not finished.")
            record, seat = dump_record(table.game), table.human
        return self.reviews.hand(game_subject(game_id), number, record, seat)

    def coach_game(self, token: str, game_id: int) -> tuple[CoachGameOut, bool]:
        """The coach's summary of the game's finished hands (their analyses queued as for each hand),
        and whether some are still being analysed."""
        with self._table(token, game_id) as table:
            finished, record, seat = len(table.game.history), dump_record(table.game), table.human
        return self.reviews.game(game_subject(game_id), finished, record, seat)

    def hint(self, token: str, game_id: int) -> HintOut:
        """The move the computer would make for the person now, and why."""
        with self._table(token, game_id) as table:
            game = table.game
            if game.turn != table.human or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                raise MoveRejected("There is nothing for you to do right now.", table.state())
            h = hint(game.view(table.human), table.row.level, seed=len(game.log))
            return HintOut(
                move=str(h.move), reason=h.reason,
                card=str(h.move.card) if isinstance(h.move, Play) else None,
                bid=str(h.move.bid) if isinstance(h.move, MakeBid) else None,
            )

    # -- inside --------------------------------------------------------------------------

    def _check_version(self, table: SoloGame, version: int) -> None:
        """Refuse a move chosen on another version (a client ahead of the cache looks again first)."""
        if version > table.version:
            self._refresh(table)
        if version != table.version:
            raise MoveRejected(_MOVED_ON, table.state())

    def _advance(self, table: SoloGame, token: str) -> list[Fields]:
        """Play the computer players (and the person's forced single cards, if their settings say so: read
        only then) up to a decision, on the table's game."""
        game = table.game
        auto: bool | None = None
        events: list[Fields] = []
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.turn
            assert seat is not None
            if seat == table.human:
                legal = game.legal_plays(seat)
                if game.phase is not Phase.PLAY or legal.bit_count() != 1:
                    break
                if auto is None:
                    auto = self._auto_play(token)
                if not auto:
                    break
                move: Move = Play(Card((legal & -legal).bit_length() - 1))
            else:
                rng = SeededOnUse(f"{table.row.id}:{len(game.log)}")
                move = table.bots[seat].choose(game.view(seat), rng)
            game.apply(seat, move)
            events.append(event_fields(game, seat, move)[0])
        return events

    def _forfeit(self, token: str) -> tuple[int, GameResult] | None:
        """The player's rated game being played, which a new game abandons, with its rating as a loss."""
        row = self.store.active_game(token=token)
        if row is None or row.rated is None or row.status != "active":
            return None
        with self._locked(row) as table:
            result = table.rated_game(table.game, abandoned=True)
        return None if result is None else (row.id, result)

    def _commit(self, table: SoloGame, start: _Start, forfeit: tuple[int, GameResult] | None = None) -> None:
        """Append the moves made on the table's game since ``start`` (``forfeit``: the rated game a new one
        abandons, rated as a loss).

        Another process's move on the same version wins: this one is undone and refused with the state now.
        """
        entries, result = self._log_of(table, start.version)
        if not self.store.append(game_id=table.row.id, version=start.version, entries=entries,
                                 result=result, rated=table.rated_game(table.game), forfeit=forfeit):
            self._rewind(table, start.version)
            self._refresh(table)
            raise MoveRejected(_MOVED_ON, table.state())
        coached = self._finished(table, start)
        if coached is not None:
            self._coach(table.row.id, *coached)

    @staticmethod
    def _log_of(table: SoloGame, base: int) -> tuple[list[LogEntry], Result | None]:
        """What the table's game appends to its stored log at version ``base``: its entries, and the
        game's result if they end it."""
        game = table.game
        entries: list[LogEntry] = [None if e is None else (e[0], str(e[1])) for e in game.log[base:]]
        result = None
        if game.phase is Phase.GAME_OVER:
            side = game.rules.side_of(table.human)
            result = Result(won=game.winner == side, final_score=game.scores[side])
        return entries, result

    @contextmanager
    def _moving(self, table: SoloGame) -> Iterator[_Start]:
        """Moves made on the table's game itself (under its lock: a copy of a long game cost more than the
        move), from the ``_Start`` yielded: if the block raises with them still on the game, not stored,
        it is brought back to that version (an illegal move changes nothing: the engine refuses it first)."""
        game, start = table.game, _Start(table.version, len(table.game.history))
        try:
            yield start
        except BaseException:
            if table.game is game:
                self._rewind(table, start.version)
            raise

    @staticmethod
    def _rewind(table: SoloGame, version: int) -> None:
        """Bring the table's game back to ``version``, which it had (the moves past it were not stored)."""
        if table.version != version:
            table.game = replay(record_of(table.game), upto=version)

    def _finished(self, table: SoloGame, start: _Start) -> tuple[str, int, range] | None:
        """If the moves since ``start`` finished hands and a coach reviews them: the game's record now,
        the person's seat and the hands' numbers (for ``_coach``, which may run once the game has moved
        on)."""
        ended = range(start.hands, len(table.game.history))
        if self.coach is None or not ended:
            return None
        return dump_record(table.game), table.human, ended

    def _coach(self, game_id: int, record: str, seat: int, ended: range) -> None:
        """Ask the coach to review the person's finished hands ``ended`` of the game ``record`` holds."""
        assert self.coach is not None
        for number in ended:
            with suppress(CoachUnavailable):  # too busy now: asking for the review queues it again
                self.coach.request(game_subject(game_id), number, record, seat)

    def _refresh(self, table: SoloGame) -> None:
        """Make on the cached game the moves stored after it (another process made them)."""
        entries = self.store.log(game_id=table.row.id, since=table.version)
        if entries:
            table.game = replayed(table.row, table.game, entries)

    @contextmanager
    def _table(self, token: str, game_id: int) -> Iterator[SoloGame]:
        """One of the player's games, up to date and locked against this process's other requests."""
        row = self.store.game(token=token, game_id=game_id)
        if row is None or row.status == "new":
            raise NotFound(f"There is no game {game_id} for this player.")
        if row.status == "abandoned":
            self._replaced(token, game_id)
        with self._locked(row) as table:
            yield table

    @contextmanager
    def _playing(self, token: str, game_id: int) -> Iterator[SoloGame]:
        """One of the player's games, locked, for a move chosen on a version: its cached copy as it is,
        without asking the store (a copy behind that version is caught up by ``_check_version``; one behind
        the store is refused by the append's compare-and-set), else as ``_table`` finds it. A refusal is
        then told as ``_table`` would have told it: a game replaced by a newer one says so."""
        with self._lock:
            table = self._tables.get(game_id)
        if table is None or table.row.token != token:
            with self._table(token, game_id) as table:
                yield table
            return
        with table.lock:
            try:
                yield table
            except MoveRejected:
                row = self.store.game(token=token, game_id=game_id)
                if row is not None and row.status == "abandoned":
                    self._replaced(token, game_id)
                raise

    def _replaced(self, token: str, game_id: int) -> NoReturn:
        """Refuse a move on a game the player replaced by a newer one, with the newer game's state."""
        current = self.current(token)
        assert current is not None, "a game is replaced only by a newer one"
        raise MoveRejected(f"Game {game_id} was replaced by a newer game: here it is.", current)

    @contextmanager
    def _locked(self, row: GameRow) -> Iterator[SoloGame]:
        """The cached table of a stored game (rebuilt from its log when missing), brought up to date."""
        with self._lock:
            table = self._tables.get(row.id)
        if table is None:
            table = self._new_table(row, replayed(row, None, []))
            with self._lock:
                table = self._cache(table)
        with table.lock:
            if row.version > table.version:
                self._refresh(table)
            yield table

    def _new_table(self, row: GameRow, game: Game) -> SoloGame:
        """A solo game in memory: the row, the game, and a computer player in every seat but the person's."""
        human = human_seat(game.players)
        bots = {s: make_player(row.level, bid_nil=row.bots_bid_nil)
                for s in range(game.players) if s != human}
        return SoloGame(row, game, bots, coached=self.coach is not None)

    def _cache(self, table: SoloGame) -> SoloGame:
        """Keep a table (the one already kept for its game wins); call with the lock held."""
        kept = self._tables.setdefault(table.row.id, table)
        self._tables.move_to_end(table.row.id)
        if len(self._tables) > _CACHE:
            self._tables.popitem(last=False)
        return kept


_AUTO_PLAY: bool = SettingsIn.model_fields["auto_play"].default
"""``auto_play`` where a player never saved it."""


class SeededOnUse(random.Random):
    """``random.Random(seed)``, the same numbers, seeded at its first draw: most of the computer players'
    decisions draw none, and a seeding costs as much as a decision."""

    def __init__(self, seed: str) -> None:  # no super().__init__: it would seed now
        self._seed: str | None = seed
        self.gauss_next = None

    def _seeded(self) -> None:
        """Seed it, on the first draw."""
        if self._seed is not None:
            seed, self._seed = self._seed, None
            self.seed(seed)

    def random(self) -> float:
        """The next float in [0, 1)."""
        self._seeded()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """The next ``k`` random bits."""
        self._seeded()
        return super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        """The next ``n`` random bytes."""
        self._seeded()
        return super().randbytes(n)

    def getstate(self) -> tuple[Any, ...]:
        """The generator's state, as seeded."""
        self._seeded()
        return super().getstate()


def replayed(row: GameRow, game: Game | None, entries: list[LogEntry]) -> Game:
    """A copy of ``game`` (or the game of the row's header) with logged entries made on it."""
    try:
        work = replay(load_record(row.header)) if game is None else game.copy()
        extend(work, ((None if e is None else (e[0], parse_move(e[1]))) for e in entries),
               first=len(work.log))
    except SpadesError as e:
        raise StoreError(f"Game {row.id}'s stored moves do not replay: {e}") from e
    return work


def _record(games: list[Played]) -> Record:
    """The figures of some finished games, oldest first."""
    won = sum(1 for g in games if g.won)
    streak = best = 0
    for g in games:
        streak = streak + 1 if g.won else 0
        best = max(best, streak)
    scores = [g.final_score for g in games if g.final_score is not None]
    return Record(played=len(games), won=won, win_rate=won / len(games) if games else 0.0,
                  best_score=max(scores) if scores else None, streak=streak, best_streak=best)


def rules_of(settings: SettingsIn) -> Rules:
    """The rules a player's settings choose for new games (a RulesError if they contradict)."""
    return Rules.from_dict({"preset": settings.rules.preset, **settings.rules.options})
