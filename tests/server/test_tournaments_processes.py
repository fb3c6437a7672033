"""A tournament on two server processes sharing PostgreSQL and Redis: people register and sit through
either, and a kill -9 of one of them between rounds loses no finished board; the next round is played
through the other."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.pgcluster import Cluster
from server.processes import Served, redis_server
from server.tables_client import run_async
from server.test_tournaments import PEOPLE, create, look, play_round, register


def test_a_tournament_on_two_processes_goes_on_when_one_is_killed(tmp_path: Path,
                                                                   pg_cluster: Cluster) -> None:
    database = pg_cluster.database()
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a:
        b = Served(database, redis_url=redis_url)
        try:
            with httpx.Client(base_url=a.url, timeout=30) as ca, \
                    httpx.Client(base_url=b.url, timeout=30) as cb:
                code, host = create(ca, rounds=2, boards=1, grace=5)
                tokens = register(cb, code, PEOPLE)
                started = cb.post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": host})
                assert started.status_code == 204
                run_async(play_round([a.url, b.url], ca, code, tokens))
                before = look(cb, code)
                assert before["round"] == 2 and len(before["results"]["travellers"]) == 1
                b.kill()
                run_async(play_round([a.url], ca, code, tokens))
                after = look(ca, code)
        finally:
            b.kill()
    assert after["status"] == "over"
    boards = after["results"]["travellers"]
    assert [len(board["lines"]) for board in boards] == [2, 2]
    assert boards[0]["lines"] == before["results"]["travellers"][0]["lines"]  # nothing finished was lost
