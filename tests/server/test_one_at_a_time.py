"""``OneAtATime``, the turns that the tables' and the tournaments' live looks take: the requests made
while a run is under way (or the turn is held) make one more run, not one each; a run that asks to be
run again is; a request that is not wanted makes none."""

from __future__ import annotations

import asyncio

from server.tables_client import run_async
from spades.server.one_at_a_time import OneAtATime


class _Recorder:
    """Turns whose work notes each run's key; the first run waits for ``gate`` (open unless ``hold``), and
    run ``n`` (from 1) asks to be run again while ``n < repeats``."""

    def __init__(self, hold: bool = False, repeats: int = 0) -> None:
        self.runs: list[str] = []
        self.gate = asyncio.Event()
        if not hold:
            self.gate.set()
        self.repeats = repeats
        self.turns = OneAtATime(self._work)

    async def _work(self, key: str) -> bool:
        self.runs.append(key)
        if len(self.runs) == 1:
            await self.gate.wait()
        return len(self.runs) < self.repeats

    async def settled(self, *keys: str) -> list[str]:
        """The runs, once no key's turn is taken."""
        while any(self.turns.busy(key) for key in keys):
            await asyncio.sleep(0)
        return self.runs


def test_the_requests_made_during_a_run_make_one_more() -> None:
    async def scenario() -> list[str]:
        r = _Recorder(hold=True)
        r.turns.request("a")
        await asyncio.sleep(0)
        assert r.turns.busy("a") and r.runs == ["a"]
        for _ in range(3):
            r.turns.request("a")
        r.turns.request("b")  # another key is not held up by the first's run
        await asyncio.sleep(0)
        assert r.runs == ["a", "b"]
        r.gate.set()
        return await r.settled("a", "b")
    assert run_async(scenario()) == ["a", "b", "a"]


def test_a_run_that_asks_again_runs_again_and_an_unwanted_request_runs_none() -> None:
    async def scenario() -> list[str]:
        r = _Recorder(repeats=3)
        r.turns.request("a")
        up_to_date = OneAtATime(lambda key: asyncio.sleep(0, False), wanted=lambda key: False)
        up_to_date.request("a")
        assert not up_to_date.busy("a")
        return await r.settled("a")
    assert run_async(scenario()) == ["a", "a", "a"]


def test_a_held_turn_defers_the_requests_to_one_run_after_it() -> None:
    async def scenario() -> list[str]:
        r = _Recorder()
        with r.turns.held("a"):
            r.turns.request("a")
            r.turns.request("a")
            await asyncio.sleep(0)
            assert r.runs == [] and r.turns.busy("a")
        await r.settled("a")
        with r.turns.held("a"):
            pass  # nothing asked meanwhile: no run after
        await asyncio.sleep(0)
        return r.runs
    assert run_async(scenario()) == ["a"]
