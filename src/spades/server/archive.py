"""Finished games, open to everyone: each one's record and its replay hand by hand; a person's games
and their figures.

A game is named by its reference (``store.solo_ref``: a solo game's number; ``store.table_ref``: a
friends' table's code and the game's number there). Only a finished game is served, since every card
of it is public then: a game still being played (or left unfinished) is a ``NotOver``, and so is the
daily deal until its day is over everywhere, so that a finished one does not spoil it for those still
to play it. A friends' table's game is found by replaying the table's log up to its end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from spades.errors import SpadesError
from spades.game import Game, seat_name
from spades.record import record_of
from spades.server.present import human_seat, review_of, state_of
from spades.server.reviews import Reviews, game_subject, table_subject
from spades.server.schemas import CoachTrendOut, GameState, PlayedOut, PlayStatsOut, ReplayHand, ReplayOut
from spades.server.service import NotFound, replayed
from spades.server.store import DELETED_NAME, Played, Store, solo_ref, table_ref
from spades.server.tables.entries import Entry, Joined
from spades.server.tables.hub import normal_code
from spades.server.tables.log import TableLog
from spades.server.tables.state import TableDamaged, TableNotFound, TableOptions
from spades.server.tables.table import FriendsTable, hash_token
from spades.stats import SeatStats, seat_stats

__all__ = ["REF_PATTERN", "Archive", "Finished", "NotOver", "page_of"]

REF_PATTERN = r"^(?:[1-9][0-9]{0,17}|[A-Za-z0-9]{6}-[1-9][0-9]{0,5})$"
"""A game's reference as the routes take it: a solo game's number, or a table's code, a dash and a number."""
_TABLE_REF = re.compile(r"^([A-Za-z0-9]{6})-([1-9][0-9]{0,5})$")
COUNTED = 200
"""A person's figures count their latest this many finished games (each replayed once, to count it)."""
_COUNTED_KEPT = 100_000
"""Games' figures kept counted (all are dropped at once when there are more)."""
PERSON = "Player"
"""What a solo game's page calls its person without an account (with a deleted one: ``DELETED_NAME``)."""


def page_of(rated: str) -> str:
    """The reference of a game as the ratings name it (``game ID``, ``table CODE N``).

    >>> page_of("game 12"), page_of("table ABC234 2")
    ('12', 'ABC234-2')
    """
    kind, _, rest = rated.partition(" ")
    if kind == "table":
        code, _, number = rest.partition(" ")
        return table_ref(code, int(number))
    return solo_ref(int(rest))


class NotOver(SpadesError):
    """The game is not over (or, for the daily deal, not yet to be shown): its cards are not public."""


@dataclass(frozen=True)
class Finished:
    """A finished game as its page shows it: the game, each seat's name, where it was played."""

    ref: str
    game: Game
    names: tuple[str, ...]
    table: str | None
    """The friends' table's code (None: a solo game)."""
    level: str
    """The computer players' level."""

    def state(self) -> GameState:
        """The game at its end as a spectator sees it: names, sides, the score sheet, the winner."""
        g = self.game
        number = int(self.ref.rsplit("-", 1)[-1])
        return state_of(g, game_id=number, deal=g.deal_number or 0, daily=None, level=self.level,
                        viewer=g.players, names=self.names)

    def replay(self) -> ReplayOut:
        """Its page's contents: the end as a spectator sees it, and every hand face up with its bids."""
        g, rules = self.game, self.game.rules
        hands = [ReplayHand(**review_of(g.spec, h).model_dump(), dealer=h.dealer,
                            bids=[None if b is None else b.written(rules) for b in h.bids])
                 for h in g.history]
        return ReplayOut(ref=self.ref, table=self.table, game=self.state(), hands=hands,
                         record=f"/api/records/{self.ref}")

    def record(self) -> dict[str, Any]:
        """The game's record (``spades.record``), as ``spades replay`` reads it."""
        return record_of(self.game).to_json()


class Archive:
    """Finished games from the store, by reference or by person."""

    def __init__(self, store: Store, reviews: Reviews) -> None:
        self.store = store
        self.reviews = reviews
        self.tables = TableLog(store)
        self._counted: dict[tuple[str, int | None], tuple[SeatStats, str]] = {}
        """Each finished game's figures for the person's seat (by reference and seat), and the subject the
        coach's reviews of that seat are kept under."""

    def finished(self, ref: str) -> Finished:
        """The finished game of this reference: NotFound if there is none, NotOver if it is not over."""
        found = _TABLE_REF.match(ref)
        if found is not None:
            code, number = found.group(1).upper(), int(found.group(2))
            games, dealt = self._table_games(code, upto=number)
            if number in games:
                return games[number]
            if number > dealt:
                raise NotFound(f"Table {code} has played no game {number}.")
            raise NotOver(f"Game {number} at table {code} is not over: its cards are not public yet.")
        if not ref.isdigit() or not 0 < int(ref) < 2**62:
            raise NotFound(f"{ref[:40]!r} names no game: a game is a number, or a table's code, a dash and "
                           "a number.")
        return self._solo(int(ref))

    def record(self, ref: str) -> dict[str, Any]:
        """The record of a finished game."""
        return self.finished(ref).record()

    def games_of(self, token: str) -> list[Played]:
        """The person's finished games, solo and at friends' tables, newest first."""
        return self.store.played(token=token, player=hash_token(token))[::-1]

    def records_of(self, token: str) -> list[dict[str, Any]]:
        """The records of the person's finished games, oldest first (one not to be shown yet is left out)."""
        return [f.record() for f, _ in self._finished_of(self.games_of(token)[::-1])]

    def stats(self, token: str) -> PlayStatsOut:
        """The person's figures over their latest ``COUNTED`` finished games: contracts made and set, nils
        made, bags a hand; and the coach's points lost a hand in each reviewed game, oldest first.

        A game's figures are counted once (replayed from its log) and kept: a finished game never changes.
        """
        latest = self.games_of(token)[:COUNTED][::-1]
        for f, p in self._finished_of([p for p in latest if (p.ref, p.seat) not in self._counted]):
            seat = human_seat(f.game.players) if p.seat is None else p.seat
            subject = game_subject(int(p.ref)) if f.table is None else \
                table_subject(f.table, int(p.ref.rsplit("-", 1)[1]), seat)
            if len(self._counted) >= _COUNTED_KEPT:
                self._counted.clear()
            self._counted[p.ref, p.seat] = seat_stats(f.game.rules, f.game.history, seat), subject
        total, games, trend = SeatStats(), 0, []
        for p in latest:
            counted = self._counted.get((p.ref, p.seat))
            if counted is None:  # not to be shown yet
                continue
            figures, subject = counted
            total += figures
            games += 1
            lost = self.reviews.points_lost(subject)
            if lost is not None:
                trend.append(CoachTrendOut(ref=p.ref, finished=p.finished, hands=lost[0],
                                           per_hand=round(lost[1] / lost[0], 1)))
        return PlayStatsOut(games=games, hands=total.hands, contracts=total.contracts, made=total.made,
                            sets=total.sets, nils=total.nils, nils_made=total.nils_made,
                            bags_per_hand=round(total.bags_per_hand, 2), coach=trend)

    def recent(self, token: str, limit: int) -> list[PlayedOut]:
        """The person's latest finished games with their results."""
        return [PlayedOut(ref=p.ref, finished=p.finished, won=p.won, final_score=p.final_score,
                          friends=p.friends) for p in self.games_of(token)[:limit]]

    # -- inside ----------------------------------------------------------------------------------

    def _finished_of(self, played: list[Played]) -> Iterator[tuple[Finished, Played]]:
        """Each of these games as found (a table's log replayed once for all its games), skipping those
        not to be shown yet."""
        tables: dict[str, dict[int, Finished]] = {}
        for p in played:
            try:
                if p.friends:
                    code, number = p.ref.rsplit("-", 1)
                    if code not in tables:
                        tables[code] = self._table_games(code)[0]
                    yield tables[code][int(number)], p
                else:
                    yield self._solo(int(p.ref)), p
            except (NotOver, KeyError, TableDamaged):  # a damaged table's games go uncounted, not the rest
                continue

    def _solo(self, game_id: int) -> Finished:
        """A finished solo game (NotFound, NotOver)."""
        row = self.store.game(game_id=game_id)
        if row is None or row.status == "new":
            raise NotFound(f"There is no game {game_id}.")
        if row.status != "finished":
            left = " (it was left unfinished)" if row.status == "abandoned" else ""
            raise NotOver(f"Game {game_id} is not over{left}: its cards are not public.")
        yesterday = datetime.now(UTC).date() - timedelta(days=1)
        if row.daily is not None and date.fromisoformat(row.daily) >= yesterday:
            raise NotOver(f"Game {game_id} is the daily deal of {row.daily}: it is shown once that day is "
                          "over everywhere, so that it spoils the deal for no one.")
        game = replayed(row, None, self.store.log(game_id=game_id))
        n = game.players
        human = human_seat(n)
        player = hash_token(row.token)
        person = self.store.names(player_hashes=[player]).get(player, PERSON)
        names = tuple(person if s == human else f"Computer ({seat_name(n, s)})" for s in range(n))
        return Finished(ref=solo_ref(game_id), game=game, names=names, table=None, level=row.level)

    def _table_games(self, code: str, upto: int | None = None) -> tuple[dict[int, Finished], int]:
        """A friends' table's finished games by number (up to game ``upto``), with the people's names as the
        game ended, and how many games were dealt there; its log replayed once."""
        try:
            code = normal_code(code)
            options, entries = self.tables.load(code)
            table = FriendsTable(code, TableOptions.from_json(options), clock=lambda: 0.0)
        except TableNotFound as e:
            raise NotFound(str(e)) from None
        games: dict[int, Finished] = {}
        named = self.store.names(player_hashes=_players(entries))
        gone = {p for p, name in named.items() if name == DELETED_NAME}  # their display names are erased too
        for entry in entries:
            table.extend([entry])
            if table.ended == table.seq - 1 and table.game is not None:  # this entry ended a game
                number = len(table.past_seeds) + 1
                names = tuple(DELETED_NAME if s.player in gone else table.seat_label(i)
                              for i, s in enumerate(table.seats))
                games[number] = Finished(ref=table_ref(code, number), game=table.game, names=names,
                                         table=code, level=table.options.level)
                if number == upto:
                    break
        return games, len(table.past_seeds) + (table.game is not None)


def _players(entries: list[Entry]) -> set[str]:
    """The players (their tokens' hashes) who linked themselves to a seat of a table's log."""
    return {e.player for e in entries if isinstance(e, Joined) and e.player is not None}
