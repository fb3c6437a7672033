"""Rate limits shared by two server processes through a real Redis, and what happens when Redis stops."""

from __future__ import annotations

import contextlib
from pathlib import Path

import httpx
import redis

from server.processes import Served, redis_server

LIMITS = {"SPADES_RATE_PER_TOKEN": "0.01", "SPADES_BURST_PER_TOKEN": "6"}
"""Six requests per player, then one every 100 s: what a test can count."""


def test_two_processes_count_one_players_requests_together_and_alone_when_redis_stops(tmp_path: Path) -> None:
    db = tmp_path / "spades.sqlite3"
    with redis_server(tmp_path / "redis") as url, Served(db, redis_url=url, settings=LIMITS) as served_a, \
            Served(db, redis_url=url, settings=LIMITS) as served_b:
        a, b = served_a.url, served_b.url
        token = httpx.post(a + "/api/players").json()["token"]
        headers = {"X-Player-Token": token}
        answers = [httpx.get((a, b)[i % 2] + "/api/settings", headers=headers) for i in range(8)]
        assert [r.status_code for r in answers] == [200] * 6 + [429] * 2  # each alone would take 6
        assert "Too many requests from this player" in answers[-1].json()["detail"]
        assert int(answers[-1].headers["retry-after"]) >= 1

        with contextlib.suppress(redis.ConnectionError):  # it does not answer SHUTDOWN
            redis.Redis.from_url(url).shutdown(nosave=True)
        # each process now counts on its own (a fresh count): served, then limited, never a 500
        alone = [httpx.get(a + "/api/settings", headers=headers).status_code for _ in range(7)]
        assert alone == [200] * 6 + [429]
