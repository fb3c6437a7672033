"""The referee: an outside bot's process, spoken to in the protocol's messages, as a ``Player``.

``ExecPlayer`` starts the bot's command once per seat and rule set it plays (on its first decision
there, keeping the ``MAX_PROCESSES`` latest), greets it, and at each decision sends the seat's view and
waits at most ``move_seconds`` for the answer. An answer that is late, malformed or illegal is a
``Fault``, counted and logged with its reason; the ``normal`` level's move is played instead, so a match
never stops for a bot. A late bot is stopped (it may be spinning), a crashed one too; either is started
again at its next decision, and after ``MAX_RESTARTS`` restarts the ``normal`` level plays its seats for
good. The child runs under a memory limit (``RLIMIT_AS``) and is stopped by ``close`` (``bye``, then its
standard input closed, then killed).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import random
import resource
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spades.bots import Player, make_player
from spades.errors import SpadesError
from spades.game import SeatView
from spades.moves import Move
from spades.protocol.messages import (
    AnswerError,
    bye,
    decide_line,
    hello,
    legal_moves,
    parse_answer,
    parse_ready,
)
from spades.protocol.messages import refused as refused_message
from spades.rules import Rules

__all__ = ["MAX_LINE", "MAX_RESTARTS", "BotCommandError", "ExecPlayer", "Fault", "bot_command"]

log = logging.getLogger("spades.protocol")

MAX_RESTARTS = 3
"""Times a bot's process is started again after a crash or a late answer before ``normal`` replaces it."""
MAX_PROCESSES = 8
"""Processes one ``ExecPlayer`` keeps (a seat and a rule set each); starting another stops the least used."""
KEPT_FAULTS = 256
"""The latest faults an ``ExecPlayer`` keeps (``fault_count`` counts them all)."""
MAX_LINE = 1 << 20
"""The longest line a bot may write (bytes); a longer one is malformed."""
START_SECONDS = 10.0
"""How long a bot has to answer ``hello`` with ``ready``."""
STOP_SECONDS = 1.0
"""How long a bot has to exit after ``bye`` before it is killed."""


class BotCommandError(SpadesError):
    """An outside bot's command that cannot be run (empty, unbalanced quotes, no such program)."""


@dataclass(frozen=True)
class Fault:
    """One thing a bot did wrong: its kind (``illegal``, ``malformed``, ``late``, ``crash``), why, and
    where (the seat and the decision's number at that seat's process)."""

    kind: str
    reason: str
    seat: int
    decision: int


def bot_command(command: str) -> list[str]:
    """The argument list of a bot's command line (shell words, no shell), checked to name a program.

    >>> bot_command("python3 mybot.py --fast")[1:]
    ['mybot.py', '--fast']
    """
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise BotCommandError(f"Cannot read the bot's command {command!r}: {e}.") from None
    if not argv:
        raise BotCommandError("An outside bot needs a command, as in exec:python3 mybot.py.")
    if shutil.which(argv[0]) is None:
        raise BotCommandError(f"The bot's program {argv[0]!r} is not found or not executable.")
    return argv


class _Dead(Exception):
    """The bot's process ended or closed its output."""


class _Late(Exception):
    """The bot did not answer in time."""


_LIVE: weakref.WeakSet[_Process] = weakref.WeakSet()
"""Every bot process still running, killed when this interpreter exits."""


@atexit.register
def _kill_live() -> None:
    """Kill the bot processes nobody closed."""
    for proc in list(_LIVE):
        proc.kill()


class _Process:
    """One running bot, greeted for one seat under one set of rules: lines in, lines out, with deadlines."""

    def __init__(self, argv: Sequence[str], rules: Rules, seat: int, move_ms: int, memory_bytes: int) -> None:
        self.rules, self.seat = rules, seat
        self.decisions = 0
        limit = memory_bytes

        def limit_memory() -> None:  # in the child, before exec: one system call, safe beside threads
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        try:
            self.popen = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          preexec_fn=limit_memory, start_new_session=True)
        except OSError as e:
            raise _Dead(f"could not start: {e.strerror}") from None
        _LIVE.add(self)
        assert self.popen.stdout is not None
        self.fd = self.popen.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)
        try:
            self.send(hello(rules, seat, move_ms))
            self.name = parse_ready(self.read_line(time.monotonic() + START_SECONDS))
        except BaseException:
            self.kill()
            raise

    def send(self, message: dict[str, Any] | str) -> None:
        """Write one message as a line, given as values or as its JSON text (a bot that stopped reading
        is dead)."""
        stdin = self.popen.stdin
        assert stdin is not None
        line = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        try:
            stdin.write(line.encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise _Dead(self.ended()) from None

    def read_line(self, deadline: float) -> str:
        """The bot's next line, waiting until ``deadline`` (``time.monotonic``) at most."""
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise _Dead(f"wrote a line longer than {MAX_LINE} bytes")
            wait = deadline - time.monotonic()
            if wait <= 0 or not self.selector.select(wait):
                raise _Late()
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise _Dead(self.ended())
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def ended(self) -> str:
        """How the process ended, in words (or that it stopped talking)."""
        try:
            code = self.popen.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with code {code}" if code >= 0 else f"killed by signal {-code}"

    def close(self) -> None:
        """Say ``bye``, close its input and give it a moment to exit; kill it if it does not."""
        if self.popen.poll() is None:
            try:
                self.send(bye())
                assert self.popen.stdin is not None
                self.popen.stdin.close()
                self.popen.wait(timeout=STOP_SECONDS)
            except (_Dead, subprocess.TimeoutExpired, OSError):
                pass
        self.kill()

    def kill(self) -> None:
        """Kill the process and everything it started (its session, which outlives it while anything in it
        runs), and let go of its pipes."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()
        self.selector.close()
        for pipe in (self.popen.stdin, self.popen.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        _LIVE.discard(self)


class ExecPlayer:
    """An outside bot, run as a command speaking the protocol on its standard input and output.

    ``on_fault`` is called with each fault as it happens (besides ``faults``, the latest, ``fault_count``
    and the log). The bot's
    standard error is this process's. Threads may share one: it decides for one at a time.
    """

    def __init__(self, command: str, *, bid_nil: bool = True, hand_alone: bool = False,
                 move_seconds: float = 1.0, memory_mb: int = 1024, name: str | None = None,
                 on_fault: Callable[[Fault], None] | None = None) -> None:
        if not move_seconds > 0 or memory_mb < 16:
            raise SpadesError("A bot needs a positive time a move and at least 16 MB of memory.")
        self.argv = bot_command(command)
        self.name = name or f"exec:{command}"
        self.move_ms = round(move_seconds * 1000)
        self.memory_bytes = memory_mb << 20
        self.fallback: Player = make_player("normal", bid_nil=bid_nil, hand_alone=hand_alone)
        self.faults: deque[Fault] = deque(maxlen=KEPT_FAULTS)
        self.fault_count = 0
        self.on_fault = on_fault
        self.restarts = 0
        self._procs: OrderedDict[tuple[int, Rules], _Process] = OrderedDict()
        self._lock = threading.Lock()

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The bot's move for the view; the ``normal`` level's if the bot's answer cannot be played."""
        with self._lock:
            return self._choose(view, rng)

    def _choose(self, view: SeatView, rng: random.Random) -> Move:
        """``choose``, under the lock."""
        key = (view.seat, view.rules)
        proc = self._procs.get(key)
        if proc is None:
            if self.restarts > MAX_RESTARTS:
                return self.fallback.choose(view, rng)
            try:
                proc = self._procs[key] = _Process(self.argv, view.rules, view.seat, self.move_ms,
                                                   self.memory_bytes)
            except (_Dead, _Late, AnswerError) as e:
                return self._fault(view, rng, None, "crash", f"did not start: {_why(e, 'ready')}")
            if len(self._procs) > MAX_PROCESSES:
                self._procs.popitem(last=False)[1].close()
        self._procs.move_to_end(key)
        proc.decisions += 1
        number = proc.decisions
        legal = legal_moves(view)
        deadline = time.monotonic() + self.move_ms / 1000
        try:
            proc.send(decide_line(view, number, self.move_ms))
            move = None
            while move is None:  # answers to earlier decisions, late ones, are skipped
                move = parse_answer(proc.read_line(deadline), number)
        except AnswerError as e:
            return self._fault(view, rng, proc, "malformed", str(e))
        except (_Dead, _Late) as e:
            return self._fault(view, rng, proc, "crash" if isinstance(e, _Dead) else "late", _why(e, "move"))
        if move not in legal:
            return self._fault(view, rng, proc, "illegal", f"{move} is not one of the legal moves.")
        return move

    def _fault(self, view: SeatView, rng: random.Random, proc: _Process | None, kind: str,
               reason: str) -> Move:
        """Count and report the fault, tell a live bot, stop a crashed or late one; the fallback's move."""
        seat = view.seat
        fault = Fault(kind, reason, seat, proc.decisions if proc else 0)
        self.faults.append(fault)
        self.fault_count += 1
        log.warning("bot %s (ready as %s), seat %d: %s: %s", self.name, proc.name if proc else None, seat,
                    kind, reason)
        if self.on_fault is not None:
            self.on_fault(fault)
        move = self.fallback.choose(view, rng)
        if proc is not None and kind in ("illegal", "malformed"):
            try:
                proc.send(refused_message(fault.decision, kind, reason, move))
            except _Dead:
                kind = "crash"
        if kind in ("crash", "late"):
            self.restarts += 1
            if proc is not None:
                proc.kill()
            self._procs.pop((seat, view.rules), None)
        return move

    def close(self) -> None:
        """Stop every process of the bot."""
        with self._lock:
            for proc in self._procs.values():
                proc.close()
            self._procs.clear()

    def __enter__(self) -> ExecPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _why(e: Exception, answer: str) -> str:
    """A fault's reason from the exception that ended the wait for an answer."""
    if isinstance(e, _Late):
        return f"no {answer} in time"
    return str(e) if isinstance(e, AnswerError) else f"the process {e}"
