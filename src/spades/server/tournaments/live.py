"""Tournament pages told of changes as they happen, instead of asking every few seconds.

A page follows a tournament through a WebSocket (``routes.tournaments``); this process's ``Watch`` looks at
a followed tournament again when what the page shows may have changed, and hands every page of it the new
look: when its document was written, by any process (``Tournaments`` announces each write on the tables'
event bus, which Redis relays to every process), or when a table of its round finished a board (a hand,
in a round played to a target: the tables' own events, heard by every process). A look that shows
nothing new is not handed on, and the looks at one tournament run one at a time, the events that come
meanwhile making one more. A tournament quiet for ``QUIET`` seconds is looked at anyway: an announcement
Redis lost is made up for so, as the tables make up for theirs (without Redis, one process hears its own).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass

import anyio

from spades.server.one_at_a_time import OneAtATime
from spades.server.store import StoreError
from spades.server.tables.entries import Entry
from spades.server.tables.hub import normal_code
from spades.server.tables.state import TableError
from spades.server.tournaments.model import Tournament
from spades.server.tournaments.service import ANNOUNCED, Tournaments
from spades.tournament.run import TournamentResult

__all__ = ["QUIET", "Look", "Watch"]

QUIET = 15.0
"""Seconds a followed tournament may go without a look before it is looked at anyway."""
_log = logging.getLogger("spades.tournaments")


@dataclass(eq=False)
class Look:
    """A look at a tournament, as ``Tournaments.look`` gives it (one object per look: pages that render
    it may keep what they made of it by its identity)."""

    tournament: Tournament
    result: TournamentResult
    played: list[int]
    order: int
    """Looks begun later have higher numbers: a slow look never replaces a later one."""


class Watch:
    """The tournaments this process's pages follow, looked at again as they change."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self._lock = threading.Lock()
        """Guards what the bus's listener and the looks read and write from any thread: the seven below."""
        self._followed: set[str] = set()
        self._tables: dict[str, str] = {}
        """Each followed tournament's tables of the round being played: the tournament's code."""
        self._boards: dict[str, int] = {}
        """How many boards (or hands of its game) each of those tables had played at the latest look."""
        self._seqs: dict[str, int] = {}
        """The latest version heard of each of those tables: a look takes this process's copy that far
        along as it is (``Tournaments.look``'s ``known``), sparing the store a question a table."""
        self._begun = 0
        """How many looks have begun (their ``order``)."""
        self._fresh: set[str] = set()
        """The tournaments whose next look asks the store about every table (the quiet look)."""
        self._news: dict[str, dict[str, int] | None] = {}
        """Per tournament, what was heard since its latest look: the tables that changed, at what version
        (None: its document was written, so it is looked at whatever they did)."""
        self._games: set[str] = set()
        """The followed tournaments whose rounds are games to a target (a hand, not a board, is news)."""
        self._pages: dict[str, set[asyncio.Event]] = {}
        self._latest: dict[str, tuple[Look, str]] = {}
        """Each followed tournament's latest look, and what it showed (to hand on only news)."""
        self._looked: dict[str, float] = {}
        """When (the event loop's clock) each followed tournament was last looked at."""
        self._checks = OneAtATime(self._check)
        """The looks at each tournament for its pages, one at a time."""
        self._loop: asyncio.AbstractEventLoop | None = None
        tournaments.hub.bus.listen(self._heard)

    async def follow(self, code: str) -> AsyncGenerator[Look, None]:
        """The tournament now (a TableError first if there is none), then each look that shows something
        new, for as long as the caller iterates."""
        self._loop = asyncio.get_running_loop()
        code = normal_code(code)
        with self._lock:
            self._followed.add(code)
        woken = asyncio.Event()
        self._pages.setdefault(code, set()).add(woken)
        try:
            look = await anyio.to_thread.run_sync(self._look, code)
            self._take(code, look)
            shown = self._latest[code][1]  # before the page is sent it: a newer look may come meanwhile
            yield look
            while True:
                try:
                    await asyncio.wait_for(woken.wait(), QUIET)
                except TimeoutError:
                    if asyncio.get_running_loop().time() - self._looked.get(code, 0.0) >= QUIET:
                        with self._lock:
                            self._fresh.add(code)
                        self._news_of(code, None)
                    continue
                woken.clear()
                latest, now = self._latest[code]
                if now != shown:
                    shown = now
                    yield latest
        finally:
            self._unfollow(code, woken)

    def _unfollow(self, code: str, woken: asyncio.Event) -> None:
        """A page stopped following: forget the tournament once no page here follows it."""
        pages = self._pages[code]
        pages.discard(woken)
        if pages:
            return
        del self._pages[code]
        self._latest.pop(code, None)
        self._looked.pop(code, None)
        self._games.discard(code)
        with self._lock:
            self._followed.discard(code)
            self._news.pop(code, None)
            self._fresh.discard(code)
            self._map(code, {})

    def _heard(self, code: str, seq: int, entries: Sequence[Entry]) -> None:
        """An event on the bus (from any thread): a followed tournament's write, or a change at one of its
        tables, is news for it."""
        if code.startswith(ANNOUNCED):
            tournament: str | None = code.removeprefix(ANNOUNCED)
            with self._lock:
                if tournament not in self._followed:
                    return
        else:
            with self._lock:
                tournament = self._tables.get(code)
                if tournament is not None:
                    self._seqs[code] = max(seq, self._seqs.get(code, -1))
            if tournament is None:
                return
        self._news_of(tournament, None if code.startswith(ANNOUNCED) else (code, seq))

    def _news_of(self, tournament: str, table: tuple[str, int] | None) -> None:
        """Keep what was heard of a tournament (a table's change, or None: a write) and have it looked at."""
        with self._lock:
            if tournament not in self._followed:
                return
            news = self._news.get(tournament, {})
            if news is not None and table is not None:
                news[table[0]] = max(table[1], news.get(table[0], -1))
            self._news[tournament] = None if table is None else news
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self._checks.request, tournament)

    async def _check(self, code: str) -> bool:
        """Look at the tournament if what was heard may show, and hand its pages the look (never run again
        at once: a failed look waits for the next news or quiet look)."""
        try:
            look = await anyio.to_thread.run_sync(self._look_if_news, code)
            if look is not None and code in self._pages:
                self._take(code, look)
        except (TableError, StoreError) as e:  # the next news or quiet look tries again
            _log.warning("Tournament %s could not be looked at for its pages: %s", code, e)
        except Exception:  # a fault of ours: said in the log; the next news looks again
            _log.exception("Tournament %s could not be looked at for its pages.", code)
        return False

    def _look_if_news(self, code: str) -> Look | None:
        """A new look at the tournament if its document was written or a table of its round played another
        board since the latest (each such table read at the version heard, which needs no trip to the
        store where the table is cached); else None."""
        with self._lock:
            news = self._news.pop(code, {})
        game = code in self._games
        if news is not None and all(self._hands_at(table, game, seq) == self._boards.get(table)
                                    for table, seq in news.items()):
            return None
        return self._look(code)

    def _hands_at(self, table: str, game: bool, seq: int) -> int | None:
        """How many boards (``game``: hands of its game) a table has played, as of version ``seq`` at least
        (None: it is gone)."""
        try:
            return len(self.tournaments.hands_of(table, game, seq))
        except TableError:
            return None

    def _look(self, code: str) -> Look:
        """Look at the tournament (its next round opened if the last is over) and keep which tables its
        round has, and the boards each has played."""
        with self._lock:
            self._begun += 1
            order = self._begun
            fresh = code in self._fresh
            self._fresh.discard(code)
            known = {} if fresh else {x: self._seqs[x] for x, c in self._tables.items() if c == code
                                      and x in self._seqs}
        t, result, played = self.tournaments.look(code, known)
        if t.to_target:
            self._games.add(code)
        with self._lock:
            followed = t.code in self._followed and t.status == "playing"
            self._map(t.code, dict(zip(t.tables[t.current], played, strict=True)) if followed else {})
        return Look(t, result, played, order)

    def _map(self, code: str, boards: dict[str, int]) -> None:
        """Keep (under the lock) that the tournament's round has these tables, which have played these many
        boards (the versions heard of tables still there kept)."""
        for table in [x for x, c in self._tables.items() if c == code and x not in boards]:
            del self._tables[table]
            self._boards.pop(table, None)
            self._seqs.pop(table, None)
        for table, played in boards.items():
            self._tables[table] = code
            self._boards[table] = played

    def _take(self, code: str, look: Look) -> None:
        """The latest look at a tournament: its pages are woken if it shows something new."""
        self._looked[code] = asyncio.get_running_loop().time()
        shown = json.dumps([look.tournament.to_json(), look.played])
        latest = self._latest.get(code)
        if latest is not None and (latest[1] == shown or latest[0].order > look.order):
            return
        self._latest[code] = look, shown
        for woken in self._pages.get(code, ()):
            woken.set()
