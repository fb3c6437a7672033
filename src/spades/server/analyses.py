"""The coach in the background: a finished hand's review of the person's decisions, one or two at a time.

When a hand of a solo game ends (or a page asks for a hand's review that is not kept yet, as a
friends' table's pages do for their own seat's) its analysis is queued; a review is kept under its
subject (the solo game, or the table's game and seat) and the hand. Each analysis runs in a process
of its own (the search is CPU-bound: a thread would hold the interpreter's lock against the
requests), started from a fresh interpreter, and reports its progress through a pipe; the review is
kept in the store, so it is computed once and read on every later visit, by any server process. At
most ``workers`` analyses run at once and ``waiting`` more wait; beyond that a request is refused
(``CoachUnavailable``) rather than queued. On shutdown the waiting ones are dropped and the running
ones stopped, and nothing half-done is kept. The coach reads only the person's seat's views
(``spades.bots.coach.analyze``). With several server processes sharing a store, the process that
starts a hand's analysis first claims it in the store (``Store.claim_review``) and renews the claim
with its progress as it goes; another process asked for that hand reports the claim's progress and
queues nothing, and one that had queued it too drops it when its turn comes. A claim not renewed for
``stale_after`` seconds (its process was killed) is taken over by the next process asked for the
hand.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import queue
import threading
import time
import uuid
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

from spades.errors import SpadesError
from spades.server.store import Store, StoreError

__all__ = ["Analyses", "CoachUnavailable", "Progress"]

_log = logging.getLogger("spades.coach")
_POLL = 0.2
"""Seconds between a worker's looks at its running analysis (and at whether the server is stopping)."""


class CoachUnavailable(SpadesError):
    """The coach cannot take this hand now: too many are waiting, the server is stopping, or its
    analysis failed."""


@dataclass(frozen=True)
class Progress:
    """Where a hand's analysis stands: ``waiting`` with ``ahead`` hands before it (waiting or being
    analysed), ``starting`` (its process is starting), or ``running`` with ``done`` of ``total``
    decisions judged."""

    status: Literal["waiting", "starting", "running"]
    done: int = 0
    total: int = 0
    ahead: int = 0


@dataclass(frozen=True)
class _Job:
    """One hand to review, as sent to the child process that analyses it."""
    subject: str
    """What is reviewed (``reviews.game_subject``, ``reviews.table_subject``): with the hand, the key."""
    hand: int
    record: str
    """The game's record as JSON (it may run past the hand: only the hand's decisions are judged)."""
    seat: int
    computer: frozenset[int] = frozenset()
    """The seat's moves a computer player made for its person (``analyze``'s ``computer``)."""


def _analyse(job: _Job, samples: int, conn: Connection) -> None:
    """In the child process: judge the seat's decisions in the hand, sending ``("progress", done,
    total)`` as it goes and ``("done", review)`` (or ``("error", message)``) at the end."""
    from spades.bots.coach import HandReview, analyze
    from spades.record import load_record

    try:
        review = analyze(load_record(job.record), job.seat, job.hand, samples=samples, computer=job.computer,
                         progress=lambda done, total: conn.send(("progress", done, total)))
        hands = review.hands or (HandReview(job.hand, job.seat, ()),)  # none: the seat had no choice to make
        conn.send(("done", hands[0].to_dict()))
    except SpadesError as e:
        conn.send(("error", str(e)))
    finally:
        conn.close()


class Analyses:
    """The queue of hands to analyse and the threads that run them, each in a child process."""

    def __init__(self, store: Store, *, samples: int, workers: int = 1, waiting: int = 32,
                 stale_after: float = 60.0) -> None:
        self.store = store
        self.samples = samples
        self.stale_after = stale_after
        """Seconds after which another process's claim on a hand, not renewed, is taken to be a
        stopped process's (a running analysis renews its claim four times as often)."""
        self.owner = uuid.uuid4().hex
        """This coach's name on its claims in the store."""
        self.analyses = 0
        """How many analyses this process has run to the end (kept or not)."""
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=waiting)
        self._progress: dict[tuple[str, int], Progress] = {}
        """The hands being analysed here (starting or running)."""
        self._waiting: list[tuple[str, int]] = []
        """The hands queued here, in their order."""
        self._failed: dict[tuple[str, int], str] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._context = multiprocessing.get_context("spawn")  # fresh: none of the server's locks
        self._threads = [threading.Thread(target=self._work, name=f"coach-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:
            t.start()

    def request(self, subject: str, hand: int, record: str, seat: int,
                computer: frozenset[int] = frozenset()) -> Progress | None:
        """Queue the hand's analysis unless it is queued or running already: where it stands, or
        None when its review is kept (it may have been kept a moment ago). ``computer``: the seat's
        moves a computer player made for its person, who is not judged on them.

        Raises ``CoachUnavailable`` when the queue is full, the server is stopping, or an analysis
        of this hand failed (with its message)."""
        key = (subject, hand)
        with self._lock:
            if key in self._failed:
                raise CoachUnavailable(f"The coach could not review this hand: {self._failed[key]}")
            if key in self._progress:
                return self._progress[key]
            if self.store.review(subject=subject, hand=hand) is not None:
                return None
            claim = self.store.claim(subject=subject, hand=hand)
            if claim is not None and claim[0] != self.owner and claim[1] < self.stale_after:
                _, _, done, total = claim  # another process is analysing it (if queued here, it is dropped)
                return Progress("running", done=done, total=total) if total else Progress("starting")
            if (where := self._where(key)) is not None:
                return where
            if self._stopping.is_set():
                raise CoachUnavailable("The server is stopping: the coach takes no more hands.")
            try:
                self._queue.put_nowait(_Job(subject, hand, record, seat, computer))
            except queue.Full:
                raise CoachUnavailable("The coach has too many hands to review right now: ask again in a "
                                "minute.") from None
            self._waiting.append(key)
            return self._where(key)

    def progress(self, subject: str, hand: int) -> Progress | None:
        """Where the hand's analysis stands in this process, or None if it is not queued here."""
        with self._lock:
            return self._where((subject, hand))

    def _where(self, key: tuple[str, int]) -> Progress | None:
        """Where a hand stands here (the lock held): being analysed, or waiting behind the others."""
        if key in self._progress:
            return self._progress[key]
        if key in self._waiting:
            return Progress("waiting", ahead=len(self._progress) + self._waiting.index(key))
        return None

    def close(self) -> None:
        """Drop the waiting analyses, stop the running ones, and wait for the threads."""
        self._stopping.set()
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        with self._lock:
            self._waiting.clear()
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join(timeout=10)

    def _work(self) -> None:
        """A worker thread: take the next hand and see its analysis through, until told to stop."""
        while (job := self._queue.get()) is not None:
            if self._stopping.is_set():
                continue
            key = (job.subject, job.hand)
            with self._lock:
                if key in self._waiting:  # (close() may have just emptied it)
                    self._waiting.remove(key)
                self._progress[key] = Progress("starting")
            try:
                claimed = self.store.claim_review(subject=job.subject, hand=job.hand, owner=self.owner,
                                                  stale_after=self.stale_after)
                # not claimed: kept meanwhile, or another process is on it (asking reports its progress)
                outcome = self._run(job) if claimed else ""
            except Exception as e:  # whatever one hand's analysis meets, the worker goes on to the next
                _log.exception("coach: %s hand %s failed", job.subject, job.hand + 1)
                outcome = f"{type(e).__name__}: {e}"
            with suppress(StoreError):  # (a claim left behind goes stale)
                self.store.release_claim(subject=job.subject, hand=job.hand, owner=self.owner)
            with self._lock:
                self._progress.pop(key, None)
                if outcome:
                    self._failed[key] = outcome
            if outcome:
                _log.warning("coach: %s hand %s not reviewed: %s", job.subject, job.hand + 1, outcome)

    def _run(self, job: _Job) -> str:
        """Run one analysis in a child process and keep its review; an error message, or ''."""
        key = (job.subject, job.hand)
        started = time.monotonic()
        mine, theirs = self._context.Pipe(duplex=False)
        child = self._context.Process(target=_analyse, args=(job, self.samples, theirs), daemon=True,
                                      name=f"coach {job.subject} hand {job.hand + 1}")
        child.start()
        theirs.close()
        renewed = time.monotonic()
        try:
            while not self._stopping.is_set():
                if time.monotonic() - renewed > self.stale_after / 4:
                    self._renew(job, self._progress[key])
                    renewed = time.monotonic()
                if not mine.poll(_POLL):
                    if not child.is_alive() and not mine.poll(0):
                        return f"the analysis stopped (exit code {child.exitcode})"
                    continue
                message: tuple[Any, ...] = mine.recv()
                if message[0] == "progress":
                    with self._lock:
                        self._progress[key] = Progress("running", done=message[1], total=message[2])
                    self._renew(job, self._progress[key])
                    renewed = time.monotonic()
                    continue
                with self._lock:
                    self.analyses += 1
                if message[0] == "error":
                    return str(message[1])
                self.store.save_review(subject=job.subject, hand=job.hand, review=json.dumps(message[1]))
                _log.info("coach: %s hand %s reviewed in %.1f s", job.subject, job.hand + 1,
                          time.monotonic() - started)
                return ""
            return ""  # the server is stopping: the analysis is dropped unkept
        finally:
            mine.close()
            if child.is_alive():
                child.terminate()
            child.join(timeout=10)

    def _renew(self, job: _Job, progress: Progress) -> None:
        """Renew this coach's claim on the hand, with its progress for the other processes to show."""
        with suppress(StoreError):  # a missed renewal is made up by the next; the claim lasts stale_after
            self.store.renew_claim(subject=job.subject, hand=job.hand, owner=self.owner, done=progress.done,
                                   total=progress.total)

