"""The coach over real HTTP, on SQLite and PostgreSQL: a finished hand is reviewed in the background
(202 with its progress, then 200 with the review), kept in the store so a restarted server answers at
once, unknown hands are 404s, play goes on while it runs, and stopping the server stops it cleanly."""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.api_client import Player, simple_move
from server.conftest import back_to_schema_6, query
from server.processes import Served
from spades.server.run import BackgroundServer
from spades.server.store import SCHEMA_VERSION

SAMPLES = 4
"""A small sample budget: the tests check the plumbing; tests/test_coach.py checks the judgement."""


def finish_hand(p: Player, state: dict[str, Any]) -> dict[str, Any]:
    """Play the person's seat with simple legal moves until the hand is over."""
    while state["phase"] not in ("hand_over", "game_over"):
        state = p.move(state, simple_move(state))["state"]
    return state


def wait_for_review(client: httpx.Client, p: Player, path: str) -> tuple[list[dict[str, Any]],
                                                                         dict[str, Any]]:
    """Ask for a coach review until it is done; the 202 answers on the way, and the answer."""
    waiting: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = client.get(path, headers=p.headers)
        if r.status_code == 200:
            return waiting, r.json()
        assert r.status_code == 202, r.text
        waiting.append(r.json())
        time.sleep(0.1)
    raise AssertionError(f"no review after 120 s: {waiting[-1:]}")


Reviewed = tuple[BackgroundServer, httpx.Client, Player, dict[str, Any], str, dict[str, Any]]


@contextmanager
def reviewed_first_hand(database: str) -> Iterator[Reviewed]:
    """A server with the coach on ``database``, and a player whose first hand of deal 7 is over and
    reviewed: the server, a client, the player, the hand's last state, its review's path, the review."""
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        p = Player(client)
        state = finish_hand(p, p.new_game(deal=7))
        path = f"/api/games/{state['id']}/hands/0/coach"
        _, done = wait_for_review(client, p, path)
        yield server, client, p, state, path, done


def test_a_finished_hand_is_reviewed_in_the_background_and_kept(database: str) -> None:
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        p = Player(client, level="normal")
        state = p.new_game(deal=7)
        assert state["coach"] is True  # the page may ask this server for the coach
        game = state["id"]
        path = f"/api/games/{game}/hands/0/coach"
        r = client.get(path, headers=p.headers)
        assert r.status_code == 404 and "not finished" in r.json()["detail"]  # nothing before the hand ends
        state = finish_hand(p, state)
        first = client.get(path, headers=p.headers)
        assert first.status_code == 202 and first.json()["status"] in ("waiting", "starting", "running")
        assert first.json()["review"] is None
        nxt = p.next_hand(state)["state"]  # play goes on while the coach works
        assert nxt["hand_number"] == 1 and nxt["phase"] == "bid"
        waiting, done = wait_for_review(client, p, path)
        running = [w for w in waiting if w["status"] == "running"]
        assert all(0 <= w["done"] <= w["total"] for w in running)
        assert done["status"] == "done" and done["done"] == done["total"] == len(done["review"]["decisions"])
        review = done["review"]
        assert review["hand"] == 0 and review["seat"] == state["human"]
        assert review["decisions"][0]["phase"] == "bid" and review["decisions"][0]["made"] == "bid 3"
        plays = [d for d in review["decisions"] if d["phase"] == "play"]
        assert plays and all(1 <= d["trick"] <= 13 and d["made"].startswith("play ") for d in plays)
        for d in review["decisions"]:
            assert abs(d["loss"] - (d["best_points"] - d["made_points"])) <= 0.11
            assert (d["reason"] == "") == (d["best"] == d["made"])
            assert not d["flagged"] or d["loss"] > 10
        assert review["mistakes"] == sum(d["flagged"] for d in review["decisions"])
        assert query(database, "SELECT subject, hand FROM coach_reviews") == [(f"game {game}", 0)]
        assert server.app is not None and server.app.state.service.coach.analyses == 1
        for unknown in (f"/api/games/{game}/hands/1/coach", f"/api/games/{game}/hands/99/coach",
                        f"/api/games/{game + 1000}/hands/0/coach"):
            r = client.get(unknown, headers=p.headers)
            assert r.status_code == 404 and r.json()["detail"], unknown
        r = client.get(f"/api/games/{game}/hands/-1/coach", headers=p.headers)
        assert r.status_code == 422
        stranger = Player(client)
        r = client.get(path, headers=stranger.headers)
        assert r.status_code == 404  # another player's game is not theirs to review
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        again = client.get(path, headers=p.headers)
        assert again.status_code == 200 and again.json() == done  # kept: answered at once, not computed again
        assert server.app is not None and server.app.state.service.coach.analyses == 0


def test_a_review_lost_to_a_stop_is_made_when_asked_for_and_a_stop_leaves_no_process(
        database: str) -> None:
    with BackgroundServer(database, coach_workers=1, coach_samples=5000) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        p = Player(client)
        state = finish_hand(p, p.new_game(deal=7))
        path = f"/api/games/{state['id']}/hands/0/coach"
        deadline = time.monotonic() + 60
        while (r := client.get(path, headers=p.headers)).json()["status"] != "running":
            assert r.status_code == 202 and time.monotonic() < deadline
            assert r.json()["status"] in ("waiting", "starting") and r.json()["total"] == 0
            time.sleep(0.1)
        assert multiprocessing.active_children()  # the analysis runs in a process of its own
        other = Player(client)
        second = finish_hand(other, other.new_game(deal=8))
        r = client.get(f"/api/games/{second['id']}/hands/0/coach", headers=other.headers)
        assert r.status_code == 202
        assert r.json() == {"status": "waiting", "done": 0, "total": 0, "ahead": 1, "review": None}
        query(database, "INSERT INTO coach_claims (subject, hand, owner, claimed, done, total)"
              " VALUES (?, 0, 'another process', ?, 3, 14)", (f"game {second['id']}", time.time()))
        r = client.get(f"/api/games/{second['id']}/hands/0/coach", headers=other.headers)
        assert r.json()["status"] == "running" and (r.json()["done"], r.json()["total"]) == (3, 14)
        query(database, "DELETE FROM coach_claims WHERE owner = 'another process'")
    assert not multiprocessing.active_children()  # stopping the server stopped it
    assert query(database, "SELECT count(*) FROM coach_reviews") == [(0,)]  # nothing half-done kept
    assert query(database, "SELECT count(*) FROM coach_claims") == [(0,)]  # nor its claim
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        _, done = wait_for_review(client, p, path)  # asking queues it again
        assert done["review"]["hand"] == 0


def test_a_server_without_the_coach_says_so(client: httpx.Client) -> None:
    p = Player(client)
    state = finish_hand(p, p.new_game(deal=7))
    assert state["coach"] is False  # so the page does not ask
    for path in (f"/api/games/{state['id']}/hands/0/coach", f"/api/games/{state['id']}/coach"):
        r = client.get(path, headers=p.headers)
        assert r.status_code == 503 and "without the coach" in r.json()["detail"], path


def test_the_game_summary_adds_up_the_hands_reviews(database: str) -> None:
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        p = Player(client)
        state = p.new_game(deal=7)
        path = f"/api/games/{state['id']}/coach"
        r = client.get(path, headers=p.headers)
        assert r.status_code == 200 and r.json() == {"hands": [], "reviewed": 0, "decisions": 0,
                                                     "mistakes": 0, "points_lost": 0.0, "costliest": None}
        state = finish_hand(p, p.next_hand(finish_hand(p, state))["state"])
        assert state["hand_number"] == 1
        waiting, summary = wait_for_review(client, p, path)
        statuses = {h["status"] for w in waiting for h in w["hands"]}
        assert statuses <= {"waiting", "starting", "running", "done"}
        reviews = [wait_for_review(client, p, f"/api/games/{state['id']}/hands/{n}/coach")[1]["review"]
                   for n in (0, 1)]
        hands = [(h["hand"], h["status"], h["decisions"], h["mistakes"], h["points_lost"])
                 for h in summary["hands"]]
        assert hands == [(n, "done", len(r["decisions"]), r["mistakes"], r["points_lost"])
                         for n, r in enumerate(reviews)]
        assert summary["reviewed"] == 2
        assert summary["decisions"] == sum(len(r["decisions"]) for r in reviews)
        assert summary["mistakes"] == sum(r["mistakes"] for r in reviews) > 0
        assert abs(summary["points_lost"] - sum(r["points_lost"] for r in reviews)) <= 0.11
        flagged = [(n, d) for n, r in enumerate(reviews) for d in r["decisions"] if d["flagged"]]
        n, worst = max(flagged, key=lambda f: f[1]["loss"])
        assert summary["costliest"] == {"hand": n, "phase": worst["phase"], "trick": worst["trick"],
                                        "made_short": worst["made_short"], "best_short": worst["best_short"],
                                        "loss": worst["loss"], "reason": worst["reason"]}
        for other, unknown in ((Player(client), state["id"]), (p, state["id"] + 1000)):
            r = client.get(f"/api/games/{unknown}/coach", headers=other.headers)
            assert r.status_code == 404 and r.json()["detail"]


def test_an_unreadable_kept_review_is_dropped_logged_and_made_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database = str(tmp_path / "spades.sqlite3")
    with reviewed_first_hand(database) as (server, client, p, _, path, done):
        for corrupt in ('{"hand": 0, "seat": 2, "mistakes"', '{"hand": "first"}', "[]"):
            query(database, "UPDATE coach_reviews SET review = ?", (corrupt,))
            with caplog.at_level(logging.WARNING, logger="spades.coach"):
                r = client.get(path, headers=p.headers)
            assert r.status_code == 202 and r.json()["status"] in ("waiting", "starting", "running"), r.text
            assert repr(corrupt) in caplog.text  # the host can see what was dropped
            assert query(database, "SELECT count(*) FROM coach_reviews") == [(0,)]
            _, again = wait_for_review(client, p, path)
            assert again == done  # made anew from the game's record: the same review
        assert server.app is not None and server.app.state.service.coach.analyses == 4


def wait_until_running(client: httpx.Client, p: Player, path: str) -> dict[str, Any]:
    """Ask for a hand's review until its analysis is running (judging decisions); that answer."""
    deadline = time.monotonic() + 60
    while (r := client.get(path, headers=p.headers)).json()["status"] != "running":
        assert r.status_code == 202 and time.monotonic() < deadline, r.text
        time.sleep(0.1)
    out: dict[str, Any] = r.json()
    return out


def test_two_server_processes_analyse_a_hand_once(database: str) -> None:
    slow = {"SPADES_COACH_WORKERS": "1", "SPADES_COACH_SAMPLES": "5000"}  # still running below
    with Served(database, settings=slow) as a, \
            BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as b, \
            httpx.Client(base_url=a.url, timeout=30) as on_a, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        p = Player(on_a)
        state = finish_hand(p, p.new_game(deal=7))  # a queues it as the hand ends
        path = f"/api/games/{state['id']}/hands/0/coach"
        running = wait_until_running(on_a, p, path)
        assert b.app is not None
        for _ in range(3):
            r = on_b.get(path, headers=p.headers)  # b reports a's progress, from a's claim
            assert r.status_code == 202 and r.json()["status"] == "running", r.text
            assert r.json()["total"] == running["total"] and r.json()["done"] >= 0
            assert b.app.state.service.coach.progress(f"game {state['id']}", 0) is None  # b queued nothing
            time.sleep(0.3)
        assert len(query(database, "SELECT owner FROM coach_claims")) == 1
        assert not multiprocessing.active_children()  # b started no analysis
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as b, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        # a stopped: its analysis was dropped and its claim released, so b takes the hand when asked
        assert query(database, "SELECT count(*) FROM coach_claims") == [(0,)]
        _, done = wait_for_review(on_b, p, path)
        assert b.app is not None and done["review"]["hand"] == 0 and b.app.state.service.coach.analyses == 1


def test_a_claim_not_renewed_is_taken_over(tmp_path: Path) -> None:
    database = str(tmp_path / "spades.sqlite3")
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        assert server.app is not None
        coach = server.app.state.service.coach
        p = Player(client)
        state = p.new_game(deal=7)
        path = f"/api/games/{state['id']}/hands/0/coach"
        query(database, "INSERT INTO coach_claims (subject, hand, owner, claimed, done, total)"
              " VALUES (?, 0, 'a process since killed', ?, 3, 14)", (f"game {state['id']}", time.time()))
        finish_hand(p, state)
        r = client.get(path, headers=p.headers)
        assert r.json() == {"status": "running", "done": 3, "total": 14, "ahead": 0, "review": None}
        assert coach.progress(f"game {state['id']}", 0) is None and coach.analyses == 0  # claimed elsewhere
        query(database, "UPDATE coach_claims SET claimed = ?", (time.time() - coach.stale_after - 1,))
        _, done = wait_for_review(client, p, path)  # stale: taken over
        assert done["review"]["hand"] == 0 and coach.analyses == 1
        assert query(database, "SELECT count(*) FROM coach_claims") == [(0,)]


def test_reviews_kept_before_schema_7_are_served_after_the_upgrade(database: str) -> None:
    with reviewed_first_hand(database) as (_, _, p, state, path, done):
        pass
    back_to_schema_6(database)
    assert query(database, "SELECT game_id, hand FROM coach_reviews") == [(state["id"], 0)]
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        again = client.get(path, headers=p.headers)
        assert again.status_code == 200 and again.json() == done  # moved over: not analysed again
        assert server.app is not None and server.app.state.service.coach.analyses == 0
    assert query(database, "SELECT subject, hand FROM coach_reviews") == [(f"game {state['id']}", 0)]
    assert query(database, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
