"""A tournament on two server processes sharing PostgreSQL and Redis: people register and sit through
either, and a kill -9 of one of them, between rounds or in the middle of one, loses no finished board; the
round goes on through the other, where computer players take the seats of the killed process's people
who do not come back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx

from server.conftest import query
from server.pgcluster import Cluster
from server.processes import Served, redis_server
from server.tables_client import Seat, run_async
from server.test_tournaments import PEOPLE, check_standings, create, look, play_round, register


@contextlib.contextmanager
def _two_processes(tmp_path: Path, database: str) -> Iterator[tuple[Served, Served]]:
    """Two server processes on one PostgreSQL database and one Redis; the second is the one the tests
    kill (killed again at the end, whatever happened)."""
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a:
        b = Served(database, redis_url=redis_url)
        try:
            yield a, b
        finally:
            b.kill()


def test_a_tournament_on_two_processes_goes_on_when_one_is_killed(tmp_path: Path,
                                                                   pg_cluster: Cluster) -> None:
    with _two_processes(tmp_path, pg_cluster.database()) as (a, b), \
            httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
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
    assert after["status"] == "over"
    boards = after["results"]["travellers"]
    assert [len(board["lines"]) for board in boards] == [2, 2]
    assert boards[0]["lines"] == before["results"]["travellers"][0]["lines"]  # nothing finished was lost


def _log(database: str, table: str) -> list[str]:
    """A table's log as the store holds it."""
    return [e for (e,) in query(database, "SELECT entry FROM friend_entries WHERE code = ? ORDER BY seq",
                                (table,))]


def test_a_kill_in_the_middle_of_a_round_loses_no_board_and_the_round_goes_on(tmp_path: Path,
                                                                               pg_cluster: Cluster) -> None:
    database = pg_cluster.database()
    with _two_processes(tmp_path, database) as (a, b), httpx.Client(base_url=a.url, timeout=30) as client:
        code, host = create(client, rounds=2, boards=2, grace=5, turn_seconds=120)
        tokens = register(client, code, PEOPLE)
        started = client.post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": host})
        assert started.status_code == 204
        tables = [t["code"] for t in look(client, code)["tables"]]

        def hold(seat: Seat) -> bool:
            """Table 2 has played its first board and is a trick into its second; table 1 is a
            trick into its first."""
            g, board = seat.table["game"], 0 if seat.code == tables[1] else 1
            return g is not None and g["phase"] == "play" and seat.table["boards_left"] == board \
                and sum(s["tricks"] for s in g["seats"]) > 0

        async def kill_mid_round() -> dict[str, list[str]]:
            seats = await play_round([a.url, b.url], client, code, tokens, hold)
            logs = {t: _log(database, t) for t in tables}  # as the kill finds them
            await asyncio.to_thread(b.kill)
            for seat in seats:
                with contextlib.suppress(Exception):  # those on the killed process are cut off
                    await seat.close()
            # those who were on the killed process do not come back this round: once its lease is
            # out and their grace period over, computer players take their seats
            await play_round([a.url], client, code, dict(list(tokens.items())[::2]))
            await play_round([a.url], client, code, tokens)
            return logs

        logs = run_async(kill_mid_round())
        final = look(client, code)
    assert final["status"] == "over"
    for table, before in logs.items():
        assert _log(database, table)[:len(before)] == before  # every entry stored before the kill kept
    check_standings(final["results"], boards=4)
