"""The referee: games in progress, the computer players, settings and stats.

Every move a page sends is checked by the engine; the computer players then move up to the
person's next decision, and the game's record is saved before the answer goes back.
"""

from __future__ import annotations

import random
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date

from spades.bots import Player, hint, make_player
from spades.cards import Card
from spades.deal import check_deal_number, daily_deal
from spades.errors import IllegalMoveError, SpadesError
from spades.game import Game, Phase
from spades.moves import MakeBid, Move, Play, parse_move
from spades.record import dump_record, load_record, replay
from spades.rules import Rules
from spades.server.present import event_of, human_seat, review_of, state_of
from spades.server.schemas import EventOut, GameState, HandReview, HintOut, MoveOut, SettingsIn, StatsOut
from spades.server.store import GameRow, Store

__all__ = ["MoveRejected", "NotFound", "Service", "Table"]

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_NEW_DEALS = 10**9
"""Fresh deal numbers are drawn below this, so they stay short enough to read out."""
_CACHE = 512


class NotFound(SpadesError):
    """No such game for this player."""


class MoveRejected(SpadesError):
    """A move the table cannot take now (stale, repeated, out of turn, illegal): the state goes back."""

    def __init__(self, message: str, state: GameState) -> None:
        super().__init__(message)
        self.state = state


@dataclass
class Table:
    """A game being played: the engine's game, its computer players, and its stored row."""

    row: GameRow
    game: Game
    bots: dict[int, Player]
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def human(self) -> int:
        """The person's seat."""
        return human_seat(self.game.players)

    def state(self) -> GameState:
        """What the person's seat may see now."""
        return state_of(self.game, game_id=self.row.id, deal=self.row.deal, daily=self.row.daily,
                        level=self.row.level)


class Service:
    """Games, settings and stats for anonymous players, kept in a ``Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tables: OrderedDict[int, Table] = OrderedDict()
        self._lock = threading.Lock()

    # -- players and settings ------------------------------------------------------------

    def new_player(self) -> str:
        """A fresh anonymous token."""
        token = secrets.token_urlsafe(24)
        self.store.ensure_player(token=token)
        return token

    def player(self, token: str) -> str:
        """Check a token's form and remember it (a token from a wiped database starts afresh)."""
        if not _TOKEN.match(token):
            raise SpadesError("The player token is malformed: ask POST /api/players for a new one.")
        self.store.ensure_player(token=token)
        return token

    def settings(self, token: str) -> SettingsIn:
        """The player's settings (the defaults until they save some)."""
        saved = self.store.settings(token=token)
        return SettingsIn() if saved is None else SettingsIn.model_validate(saved)

    def save_settings(self, token: str, settings: SettingsIn) -> SettingsIn:
        """Check the rules the settings choose, then save them."""
        rules_of(settings)
        self.store.save_settings(token=token, settings=settings.model_dump(mode="json"))
        return settings

    def stats(self, token: str) -> StatsOut:
        """Games played and won, the best final score, and the win streaks."""
        games = self.store.finished_games(token=token)
        won = sum(1 for g in games if g.won)
        streak = best = 0
        for g in games:
            streak = streak + 1 if g.won else 0
            best = max(best, streak)
        scores = [g.final_score for g in games if g.final_score is not None]
        return StatsOut(
            played=len(games), won=won, win_rate=won / len(games) if games else 0.0,
            best_score=max(scores) if scores else None, streak=streak, best_streak=best,
        )

    # -- games ---------------------------------------------------------------------------

    def new_game(
        self, token: str, *, deal: int | None = None, daily: str | None = None, resume: bool = False
    ) -> MoveOut:
        """Start a numbered, daily or fresh deal with the player's rules (or resume it)."""
        if deal is not None and daily is not None:
            raise SpadesError("Ask for a deal number or a daily deal, not both.")
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
                return MoveOut(events=[], state=self._table(row).state())
        settings = self.settings(token)
        return self._start(token, rules_of(settings), deal, daily, settings.level, settings.bots_bid_nil)

    def restart(self, token: str, game_id: int) -> MoveOut:
        """The same deal and rules again, from the first hand."""
        table = self._load(token, game_id)
        return self._start(token, table.game.rules, table.row.deal, table.row.daily, table.row.level,
                           table.row.bots_bid_nil)

    def _start(self, token: str, rules: Rules, deal: int, daily: str | None, level: str,
               bots_bid_nil: bool) -> MoveOut:
        human = human_seat(rules.players)
        game = Game(rules, deal, first_dealer=(human - 1) % rules.players)
        row_id = self.store.add_game(token=token, deal=deal, daily=daily, level=level,
                                     bots_bid_nil=bots_bid_nil, record=dump_record(game))
        row = self.store.game(token=token, game_id=row_id)
        assert row is not None
        table = self._table(row, game)
        with table.lock:
            events = self._advance(table, token)
            self._save(table)
            return MoveOut(events=events, state=table.state())

    def current(self, token: str) -> GameState | None:
        """The player's game at the point they left it, or None before their first game."""
        row = self.store.active_game(token=token)
        return None if row is None else self._table(row).state()

    def move(self, token: str, game_id: int, text: str, version: int) -> MoveOut:
        """Check and make the person's move, then let the computer players answer."""
        table = self._load(token, game_id)
        with table.lock:
            game = table.game
            self._check_version(table, version)
            move = parse_move(text)
            try:
                game.apply(table.human, move)
            except IllegalMoveError as e:
                raise MoveRejected(str(e), table.state()) from None
            events = [event_of(game, table.human, move)]
            events += self._advance(table, token)
            self._save(table)
            return MoveOut(events=events, state=table.state())

    def next_hand(self, token: str, game_id: int, version: int) -> MoveOut:
        """Deal the next hand after the score sheet, and play the computer players to the person."""
        table = self._load(token, game_id)
        with table.lock:
            self._check_version(table, version)
            game = table.game
            if game.phase is not Phase.HAND_OVER:
                raise MoveRejected("The hand is not over yet.", table.state())
            game.next_hand()
            events = self._advance(table, token)
            self._save(table)
            return MoveOut(events=events, state=table.state())

    def review(self, token: str, game_id: int, number: int) -> HandReview:
        """A finished hand of the game, face up (a hand still being played is not shown)."""
        table = self._load(token, game_id)
        with table.lock:
            history = table.game.history
            if not 0 <= number < len(history):
                raise NotFound(f"Hand {number + 1} of game {game_id} is not finished.")
            return review_of(table.game.spec, history[number])

    def hint(self, token: str, game_id: int) -> HintOut:
        """The move the computer would make for the person now, and why."""
        table = self._load(token, game_id)
        with table.lock:
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

    @staticmethod
    def _check_version(table: Table, version: int) -> None:
        if version != len(table.game.log):
            raise MoveRejected("The table has moved on since that move was chosen: here it is now.",
                               table.state())

    def _advance(self, table: Table, token: str) -> list[EventOut]:
        """Play the computer players (and the person's forced single cards) up to a decision."""
        game = table.game
        auto = self.settings(token).auto_play
        events: list[EventOut] = []
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.turn
            assert seat is not None
            if seat == table.human:
                legal = game.legal_plays(seat)
                if not (auto and game.phase is Phase.PLAY and legal.bit_count() == 1):
                    break
                move: Move = Play(Card((legal & -legal).bit_length() - 1))
            else:
                rng = random.Random(f"{table.row.id}:{len(game.log)}")
                move = table.bots[seat].choose(game.view(seat), rng)
            game.apply(seat, move)
            events.append(event_of(game, seat, move))
        return events

    def _save(self, table: Table) -> None:
        game = table.game
        record = dump_record(game)
        if game.phase is Phase.GAME_OVER and table.row.status == "active":
            side = game.rules.side_of(table.human)
            self.store.finish_game(game_id=table.row.id, record=record, won=game.winner == side,
                                   final_score=game.scores[side])
            fresh = self.store.game(token=table.row.token, game_id=table.row.id)
            assert fresh is not None
            table.row = fresh
        else:
            self.store.save_game(game_id=table.row.id, record=record)

    def _load(self, token: str, game_id: int) -> Table:
        row = self.store.game(token=token, game_id=game_id)
        if row is None:
            raise NotFound(f"There is no game {game_id} for this player.")
        if row.status == "abandoned":
            raise NotFound(f"Game {game_id} was replaced by a newer game.")
        return self._table(row)

    def _table(self, row: GameRow, game: Game | None = None) -> Table:
        """The cached table for a stored game, rebuilt from its record when not in memory."""
        with self._lock:
            table = self._tables.get(row.id)
            if table is not None:
                self._tables.move_to_end(row.id)
                return table
            if game is None:
                game = replay(load_record(row.record))
            human = human_seat(game.players)
            bots = {s: make_player(row.level, bid_nil=row.bots_bid_nil)
                    for s in range(game.players) if s != human}
            table = Table(row, game, bots)
            self._tables[row.id] = table
            if len(self._tables) > _CACHE:
                self._tables.popitem(last=False)
            return table


def rules_of(settings: SettingsIn) -> Rules:
    """The rules a player's settings choose for new games (a RulesError if they contradict)."""
    return Rules.from_dict({"preset": settings.rules.preset, **settings.rules.options})
