"""Remote bots: a bot account's program, connected over a WebSocket, as a ``Player`` (lichess's Bot API).

The bot speaks the protocol's messages, one JSON object a text frame. Before a decision for a seat and
rules other than those it last heard ``hello`` for, it is greeted again (``hello``, answered by
``ready``); then ``decide``, answered by ``move``. A bot that is not connected, answers late, malformed
or illegally is at fault as an exec bot is (``Fault``, logged, counted, ``refused`` told to a live bot),
and the ``normal`` level plays that decision: a table never waits on a bot for longer than its time a move.
A bot's socket lives in one server process; a table whose computer players move in another process asks
it through a ``Relay`` (Redis, when the server has it), with the same deadline, and finds it absent
without one.
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
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from spades.bots import Player, make_player
from spades.errors import SpadesError
from spades.game import SeatView
from spades.moves import Move, parse_move
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

__all__ = ["REMOTE_PREFIX", "Answer", "Relay", "RemoteBot", "RemotePlayer", "Remotes"]

log = logging.getLogger("spades.protocol")

REMOTE_PREFIX = "bot-"
"""A remote bot's name as a table's computer players: this, then its account name's key."""


class _Gone(Exception):
    """The bot's socket closed."""


@dataclass(frozen=True)
class Answer:
    """What came of asking a bot for a decision: its number, and the move's text or the fault and why."""

    decision: int
    move: str | None = None
    fault: str = ""
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """As JSON values, to pass between server processes."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        """Read back ``to_dict``'s values."""
        return cls(int(data["decision"]), data.get("move"), str(data.get("fault", "")),
                   str(data.get("reason", "")))


class Relay(Protocol):
    """Reaches the bots connected to other server processes (``spades.server.bots_relay``, through Redis)."""

    def serve(self, remotes: Remotes) -> None:
        """Answer the other processes' requests for the bots connected to ``remotes``, from now on."""
        ...

    def arrived(self, name: str) -> None:
        """Say that a bot connected to this process (every process then offers it)."""
        ...

    def left(self, name: str) -> None:
        """Say that a bot's connection to this process closed."""
        ...

    def present(self) -> set[str]:
        """The bots connected to any process (an empty set when the relay fails)."""
        ...

    def ask(self, name: str, greeting: str, decision: str, seconds: float) -> Answer | None:
        """Ask the process that has the bot for a decision (``Remotes.ask_here``'s arguments), waiting at
        most ``seconds``; None without an answer in time."""
        ...

    def tell(self, name: str, line: str) -> None:
        """Send a line to the bot, wherever it is connected."""
        ...

    def close(self) -> None:
        """Stop serving and saying this process's bots are here."""
        ...


class RemoteBot:
    """One connected bot: how to send it a line (a coroutine on ``loop``), the lines it sent, the seat and
    rules it was last greeted for."""

    def __init__(self, name: str, send: Callable[[str], Coroutine[Any, Any, None]],
                 loop: asyncio.AbstractEventLoop) -> None:
        self.name, self.send, self.loop = name, send, loop
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.greeted: str | None = None
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

    async def exchange(self, greeting: str, decision: str, move_ms: int) -> tuple[int, Move]:
        """Send the ``hello`` line ``greeting`` if it is not the one the bot last answered, then the
        ``decide`` line ``decision`` under this bot's next number: that number and the move (legal or
        not: the caller's to check)."""
        async with self._turn:
            if self.greeted != greeting:
                self.greeted = None
                await self.send(greeting)
                await self._ready(self.loop.time() + START_SECONDS)
                self.greeted = greeting
            self.decisions += 1
            number = self.decisions
            await self.send(_numbered(decision, number))
            deadline = self.loop.time() + move_ms / 1000
            move = None
            while move is None:  # answers to earlier decisions, late ones, are skipped
                move = parse_answer(await self._read(max(0.0, deadline - self.loop.time())), number)
            return number, move


_RELAYED = 1.0
"""Seconds more a process waits on another's answer, so that the other's own verdict (``late``, with
the decision's number) reaches it first."""


class Remotes:
    """The bots connected to this server process, by name (``bot-<key>``), and through ``relay`` (if any)
    those connected to the others; a new connection of a name replaces its earlier one in its process.
    ``faults`` and ``fault_count`` are this process's tables', as an ``ExecPlayer`` keeps them."""

    def __init__(self, move_seconds: float = 2.0, relay: Relay | None = None) -> None:
        self.move_ms = round(move_seconds * 1000)
        self.faults: deque[Fault] = deque(maxlen=KEPT_FAULTS)
        self.fault_count = 0
        self.relay = relay
        self._bots: dict[str, RemoteBot] = {}
        self._lock = threading.Lock()
        if relay is not None:
            relay.serve(self)

    def connect(self, name: str, send: Callable[[str], Coroutine[Any, Any, None]]) -> RemoteBot:
        """Register a bot's connection (on its event loop)."""
        bot = RemoteBot(name, send, asyncio.get_running_loop())
        with self._lock:
            old, self._bots[name] = self._bots.get(name), bot
        if old is not None:
            old.loop.call_soon_threadsafe(old.heard, None)
        if self.relay is not None:
            self.relay.arrived(name)
        return bot

    def disconnect(self, bot: RemoteBot) -> None:
        """Forget a connection that closed (its waits end at once)."""
        with self._lock:
            gone = self._bots.get(bot.name) is bot
            if gone:
                del self._bots[bot.name]
        if gone and self.relay is not None:
            self.relay.left(bot.name)
        bot.heard(None)

    def get(self, name: str) -> RemoteBot | None:
        """The bot of this name connected to this process, or None."""
        with self._lock:
            return self._bots.get(name)

    def here(self) -> list[str]:
        """The names of the bots connected to this process."""
        with self._lock:
            return list(self._bots)

    def names(self) -> list[str]:
        """The names of the bots connected to any process, sorted."""
        there = self.relay.present() if self.relay is not None else set()
        return sorted(there.union(self.here()))

    def connected(self, name: str) -> bool:
        """Whether a bot of this name is connected to any process."""
        return self.get(name) is not None or (self.relay is not None and name in self.relay.present())

    def ask(self, name: str, greeting: str, decision: str) -> Answer:
        """The bot's answer to a decision (lines as ``RemoteBot.exchange`` takes them), wherever it is
        connected; a fault if it is nowhere or its process did not answer in time."""
        if self.get(name) is not None or self.relay is None:
            return self.ask_here(name, greeting, decision)
        answer = self.relay.ask(name, greeting, decision, self._longest() + _RELAYED)
        return answer or Answer(0, fault="late", reason="no answer in time")

    def ask_here(self, name: str, greeting: str, decision: str) -> Answer:
        """The answer of the bot connected to this process (not from its own event loop's thread, which
        would wait on itself: tables and the relay ask from worker threads)."""
        bot = self.get(name)
        if bot is None or _on(bot.loop):
            return Answer(0, fault="absent", reason="not connected to the server")
        asked = asyncio.run_coroutine_threadsafe(bot.exchange(greeting, decision, self.move_ms), bot.loop)
        try:
            number, move = asked.result(timeout=self._longest())
        except AnswerError as e:
            return Answer(bot.decisions, fault="malformed", reason=str(e))
        except _Gone:
            return Answer(bot.decisions, fault="crash", reason="disconnected")
        except (TimeoutError, concurrent.futures.TimeoutError):
            asked.cancel()
            return Answer(bot.decisions, fault="late", reason="no answer in time")
        return Answer(number, str(move))

    def _longest(self) -> float:
        """Seconds a decision may take at most: a greeting's, a move's, and one to spare."""
        return START_SECONDS + self.move_ms / 1000 + 1

    def tell(self, name: str, line: str) -> None:
        """Send a line to the bot, wherever it is connected (dropped if it is nowhere)."""
        bot = self.get(name)
        if bot is not None:
            asyncio.run_coroutine_threadsafe(bot.send(line), bot.loop)
        elif self.relay is not None:
            self.relay.tell(name, line)

    def fault(self, fault: Fault, name: str) -> None:
        """Count and log a bot's fault."""
        with self._lock:
            self.faults.append(fault)
            self.fault_count += 1
        log.warning("remote bot %s, seat %d: %s: %s", name, fault.seat, fault.kind, fault.reason)

    def close(self) -> None:
        """Stop the relay, if any."""
        if self.relay is not None:
            self.relay.close()


_TOLD = ("malformed", "illegal")
"""The faults a bot is told of (``refused``): it answered, but not a move that could be played."""


class RemotePlayer:
    """A table's computer player that asks a remote bot (by name, whenever connected) for each move."""

    def __init__(self, remotes: Remotes, name: str, bid_nil: bool = True) -> None:
        self.remotes, self.name = remotes, name
        self.fallback: Player = make_player("normal", bid_nil=bid_nil)

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The bot's move for the view; the ``normal`` level's if it cannot be played."""
        ms = self.remotes.move_ms
        answer = self.remotes.ask(self.name, json.dumps(hello(view.rules, view.seat, ms)),
                                  decide_line(view, 0, ms))
        fault, reason = answer.fault, answer.reason
        if not fault:
            try:
                move = parse_move(str(answer.move))
            except SpadesError as e:  # a process's answer is read back from its text
                fault, reason = "malformed", str(e)
            else:
                if move in legal_moves(view):
                    return move
                fault, reason = "illegal", f"{move} is not one of the legal moves."
        self.remotes.fault(Fault(fault, reason, view.seat, answer.decision), self.name)
        played = self.fallback.choose(view, rng)
        if fault in _TOLD:
            self.remotes.tell(self.name, json.dumps(refused(answer.decision, fault, reason, played)))
        return played


def _numbered(line: str, number: int) -> str:
    """A ``decide`` line under the bot's own decision number (its tables number them 0)."""
    message = json.loads(line)
    message["id"] = number
    return json.dumps(message, separators=(",", ":"))


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread runs the loop."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
