"""Remote bots: a bot account's program, connected over a WebSocket, as a ``Player`` (lichess's Bot API).

The bot speaks the protocol's messages, one JSON object a text frame. Before a decision for a seat and
rules other than those it last heard ``hello`` for, it is greeted again (``hello``, answered by
``ready``); then ``decide``, answered by ``move``. A bot that is not connected, answers late, malformed
or illegally is at fault as an exec bot is (``Fault``, logged, counted, ``refused`` told to a live bot),
and the ``normal`` level plays that decision: a table never waits on a bot for longer than its time a move.
A bot's socket lives in one server process: a table whose computer players move in another process finds
the bot absent there (its seats then play at the ``normal`` level).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import random
import threading
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from spades.bots import Player, make_player
from spades.game import SeatView
from spades.moves import Move
from spades.protocol.messages import (
    AnswerError,
    decide_line,
    hello,
    legal_moves,
    parse_answer,
    parse_ready,
    refused,
)
from spades.protocol.referee import KEPT_FAULTS, START_SECONDS, Fault
from spades.rules import Rules

__all__ = ["REMOTE_PREFIX", "RemoteBot", "RemotePlayer", "Remotes"]

log = logging.getLogger("spades.protocol")

REMOTE_PREFIX = "bot-"
"""A remote bot's name as a table's computer players: this, then its account name's key."""


class _Gone(Exception):
    """The bot's socket closed."""


class RemoteBot:
    """One connected bot: how to send it a line (a coroutine on ``loop``), the lines it sent, the seat and
    rules it was last greeted for."""

    def __init__(self, name: str, send: Callable[[str], Coroutine[Any, Any, None]],
                 loop: asyncio.AbstractEventLoop) -> None:
        self.name, self.send, self.loop = name, send, loop
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.greeted: tuple[int, Rules] | None = None
        self.decisions = 0
        self._turn = asyncio.Lock()

    def heard(self, line: str | None) -> None:
        """A line the bot sent (None: its socket closed); on the loop."""
        self.lines.put_nowait(line)

    async def _read(self, seconds: float) -> str:
        """The bot's next line within ``seconds`` (``TimeoutError`` if none, ``_Gone`` if it left)."""
        line = await asyncio.wait_for(self.lines.get(), seconds)
        if line is None:
            self.lines.put_nowait(None)
            raise _Gone()
        return line

    async def _ready(self, deadline: float) -> None:
        """Wait for ``ready``, skipping a late answer to an earlier decision sent before it."""
        while True:
            line = await self._read(max(0.0, deadline - self.loop.time()))
            try:
                parse_ready(line)
                return
            except AnswerError:
                try:
                    late = parse_answer(line, self.decisions + 1) is None
                except AnswerError:
                    late = False
                if not late:
                    raise

    async def exchange(self, view: SeatView, move_ms: int) -> tuple[int, Move]:
        """Greet the bot for the view's seat if need be, ask for its move: the decision's number and the
        move (legal or not: the caller's to check)."""
        async with self._turn:
            key = (view.seat, view.rules)
            if self.greeted != key:
                self.greeted = None
                await self.send(json.dumps(hello(view.rules, view.seat, move_ms)))
                await self._ready(self.loop.time() + START_SECONDS)
                self.greeted = key
            self.decisions += 1
            number = self.decisions
            await self.send(decide_line(view, number, move_ms))
            deadline = self.loop.time() + move_ms / 1000
            move = None
            while move is None:  # answers to earlier decisions, late ones, are skipped
                move = parse_answer(await self._read(max(0.0, deadline - self.loop.time())), number)
            return number, move


class Remotes:
    """The bots connected to this server process, by name (``bot-<key>``); a new connection of a name
    replaces its earlier one. ``faults`` and ``fault_count`` are theirs, as an ``ExecPlayer`` keeps them."""

    def __init__(self, move_seconds: float = 2.0) -> None:
        self.move_ms = round(move_seconds * 1000)
        self.faults: deque[Fault] = deque(maxlen=KEPT_FAULTS)
        self.fault_count = 0
        self._bots: dict[str, RemoteBot] = {}
        self._lock = threading.Lock()

    def connect(self, name: str, send: Callable[[str], Coroutine[Any, Any, None]]) -> RemoteBot:
        """Register a bot's connection (on its event loop)."""
        bot = RemoteBot(name, send, asyncio.get_running_loop())
        with self._lock:
            old, self._bots[name] = self._bots.get(name), bot
        if old is not None:
            old.loop.call_soon_threadsafe(old.heard, None)
        return bot

    def disconnect(self, bot: RemoteBot) -> None:
        """Forget a connection that closed (its waits end at once)."""
        with self._lock:
            if self._bots.get(bot.name) is bot:
                del self._bots[bot.name]
        bot.heard(None)

    def get(self, name: str) -> RemoteBot | None:
        """The connected bot of this name, or None."""
        with self._lock:
            return self._bots.get(name)

    def names(self) -> list[str]:
        """The connected bots' names, sorted."""
        with self._lock:
            return sorted(self._bots)

    def fault(self, fault: Fault, name: str) -> None:
        """Count and log a bot's fault."""
        with self._lock:
            self.faults.append(fault)
            self.fault_count += 1
        log.warning("remote bot %s, seat %d: %s: %s", name, fault.seat, fault.kind, fault.reason)


class RemotePlayer:
    """A table's computer player that asks a remote bot (by name, whenever connected) for each move."""

    def __init__(self, remotes: Remotes, name: str, bid_nil: bool = True) -> None:
        self.remotes, self.name = remotes, name
        self.fallback: Player = make_player("normal", bid_nil=bid_nil)

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The bot's move for the view; the ``normal`` level's if it cannot be played (not from the bot's own
        event loop's thread, which would wait on itself: the table's work runs in worker threads)."""
        bot = self.remotes.get(self.name)
        if bot is None or _on(bot.loop):
            return self._fault(view, rng, None, 0, "absent", "not connected to this server process")
        ms = self.remotes.move_ms
        asked = asyncio.run_coroutine_threadsafe(bot.exchange(view, ms), bot.loop)
        try:
            number, move = asked.result(timeout=START_SECONDS + ms / 1000 + 1)
        except AnswerError as e:
            return self._fault(view, rng, bot, bot.decisions, "malformed", str(e))
        except _Gone:
            return self._fault(view, rng, None, bot.decisions, "crash", "disconnected")
        except (TimeoutError, concurrent.futures.TimeoutError):
            asked.cancel()
            return self._fault(view, rng, None, bot.decisions, "late", "no answer in time")
        if move not in legal_moves(view):
            return self._fault(view, rng, bot, number, "illegal", f"{move} is not one of the legal moves.")
        return move

    def _fault(self, view: SeatView, rng: random.Random, told: RemoteBot | None, decision: int, kind: str,
               reason: str) -> Move:
        """Report the fault (to the bot too, if ``told``); the fallback's move."""
        self.remotes.fault(Fault(kind, reason, view.seat, decision), self.name)
        move = self.fallback.choose(view, rng)
        if told is not None:
            line = json.dumps(refused(decision, kind, reason, move))
            asyncio.run_coroutine_threadsafe(told.send(line), told.loop)
        return move


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread runs the loop."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
