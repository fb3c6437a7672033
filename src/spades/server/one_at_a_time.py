"""Work on the event loop run one at a time per key, however often it is asked for.

A table's connections (``tables.live``) and a tournament's pages (``tournaments.live``) are brought up to
date by a look at it, asked for by every change heard; looks at one table (or tournament) never overlap,
and the changes heard while one runs make one more look after it, not one each.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator

__all__ = ["OneAtATime"]


class OneAtATime:
    """Runs ``work(key)`` in a task on the running loop, one run at a time per key; the requests made while
    one runs (or while the key is ``held``) make one more run after it.

    ``work`` returns True to be run again whatever was asked (it failed for a moment and has waited);
    ``wanted(key)``, if given, says whether a request made with no run under way needs one at all.
    """

    def __init__(self, work: Callable[[str], Awaitable[bool]],
                 wanted: Callable[[str], bool] | None = None) -> None:
        self._work = work
        self._wanted = wanted
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        """The runs under way, kept so that none is collected before it is done."""

    def busy(self, key: str) -> bool:
        """Whether a run, or a holder (``held``), has the key's turn."""
        return key in self._busy

    def request(self, key: str) -> None:
        """Have the work run for the key: now, or once more after the run under way."""
        if key in self._busy:
            self._again.add(key)
        elif self._wanted is None or self._wanted(key):
            self._busy.add(key)
            task = asyncio.get_running_loop().create_task(self._runs(key))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @contextlib.contextmanager
    def held(self, key: str) -> Iterator[None]:
        """The key's turn taken for other work (by a caller that found it not ``busy``): the requests made
        meanwhile are served by one run after it."""
        self._busy.add(key)
        try:
            yield
        finally:
            self._busy.discard(key)
            if key in self._again:
                self._again.discard(key)
                self.request(key)

    async def _runs(self, key: str) -> None:
        """Run the work until a run ends with nothing asked meanwhile."""
        try:
            while True:
                self._again.discard(key)
                if not await self._work(key) and key not in self._again:
                    return
        finally:
            self._busy.discard(key)
