"""Which server processes are alive: each renews a lease in the store, and the others read it.

A seat records the process its person's pages connect through (``Seat.conn``). When that process dies
without a goodbye (kill -9, a crash, a machine lost), no page of theirs is left to say they went away,
and the table would wait for them forever. So each serving process renews its lease (a row in the
store: ``Store.beat``) every ``HEARTBEAT`` seconds, and any other process that has the table cached
takes the people who connect through a process whose lease is ``LEASE`` seconds old to be away
(``TableHub.tick``): a logged ``away`` entry, so the grace period and the computer player follow as
usual. The lease is in the store, not in Redis, so that it works without Redis, and it is stamped and
read on the database's clock, so that machines whose clocks disagree still agree on it.
"""

from __future__ import annotations

import logging
import math
import threading
import time

from spades.server.store import Store, StoreError

__all__ = ["HEARTBEAT", "LEASE", "Leases"]

HEARTBEAT = 2.0
"""Seconds between two renewals of a process's lease."""
LEASE = 10.0
"""Seconds without a renewal after which a process is taken to be dead: five heartbeats, so that a
database slow for a few seconds kills no one; a dead process's people are away this long after its
last renewal (about), then the table's grace period runs."""
_FORGET = 3600.0
"""Seconds after which a dead process's row is deleted (a process without a row counts as dead too)."""
_log = logging.getLogger("spades.tables")


class Leases:
    """This process's lease, renewed by a thread of its own, and what it has learnt of the others'."""

    def __init__(self, store: Store, process: str) -> None:
        self.store = store
        self.process = process
        self._renewed = -math.inf
        """When (``time.monotonic``) this process's lease was last renewed."""
        self._judged = -math.inf
        """When (``time.monotonic``) the others' leases were last to be judged (``judging``)."""
        self._alive_until: dict[str, float] = {}
        """Until when (``time.monotonic``) each other process is known to be alive, from its lease."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Renew the lease now, before this process serves anything (a page that connects through it is
        then never taken for one of a dead process's), then every ``HEARTBEAT`` seconds in a thread."""
        self.renew()
        self._thread = threading.Thread(target=self._run, name="spades-lease", daemon=True)
        self._thread.start()

    def renew(self) -> None:
        """Renew this process's lease (``StoreError`` if the store fails)."""
        started = time.monotonic()
        self.store.beat(process=self.process, forget_after=_FORGET)
        self._renewed = started

    def judging(self) -> bool:
        """Whether the others' leases are to be judged now (``dead``): once a ``HEARTBEAT``, as often as
        they are renewed, which spares the clock's ticks (``TableHub.tick``) a look at every table's
        connections at each."""
        now = time.monotonic()
        if now - self._judged < HEARTBEAT:
            return False
        self._judged = now
        return True

    def dead(self, processes: set[str]) -> set[str]:
        """Those of ``processes`` (this one aside) whose lease has expired, or who have none; the store
        is asked only about those whose last known lease has run out since. None while this process's
        own lease is not renewed: one that cannot reach the store judges no one."""
        now = time.monotonic()
        if now - self._renewed >= LEASE:
            return set()
        ask = {p for p in processes if p != self.process and self._alive_until.get(p, -math.inf) <= now}
        ages = self.store.beats(processes=ask)
        for p, age in ages.items():
            if age < LEASE:
                self._alive_until[p] = now + LEASE - age
        return {p for p in ask if ages.get(p, LEASE) >= LEASE}

    def close(self) -> None:
        """Stop renewing the lease (it expires ``LEASE`` seconds after the last renewal)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        """Renew the lease every ``HEARTBEAT`` seconds; a store that fails is said in the log once (and
        once when it works again), and tried again at the next heartbeat."""
        failing = False
        while not self._stop.wait(HEARTBEAT):
            try:
                self.renew()
            except StoreError as e:
                if not failing:
                    _log.warning("This process's lease could not be renewed (%s): retrying every %g s.",
                                 e, HEARTBEAT)
                failing = True
            else:
                if failing:
                    _log.warning("This process's lease is renewed again.")
                failing = False
