"""The coach at a friends' table over real HTTP, on SQLite and PostgreSQL: each seated person gets the
review of their own seat's decisions in a finished hand (the same as the coach's analysis of that seat
from the game's record), kept apart from every other seat's and from the solo games'; spectators, bad
tokens, unknown tables and unfinished hands get a clear refusal, and a server without the coach says so."""

from __future__ import annotations

import time
from typing import Any

import httpx

from server.api_client import simple_move
from server.conftest import query
from server.tables_client import app_state, join, open_table
from spades.bots.coach import analyze
from spades.record import dump_record, load_record
from spades.server.run import BackgroundServer
from spades.server.schemas import CoachReviewOut
from spades.server.tables.table import FriendsTable, TableOptions

SAMPLES = 4
"""A small sample budget: the tests check the plumbing; tests/test_coach.py checks the judgement."""


def seat_get(client: httpx.Client, path: str, token: str | None) -> httpx.Response:
    """A GET with the seat's token (None: as a spectator, without one)."""
    return client.get(path, headers={} if token is None else {"X-Seat-Token": token})


def finish_first_hand(client: httpx.Client, code: str, tokens: list[str]) -> dict[str, Any]:
    """The people make simple legal moves over HTTP until the first hand is over; the first one's view."""
    while True:
        for token in tokens:
            view = seat_get(client, f"/api/tables/{code}/view", token).json()
            game = view["game"]
            if game["phase"] == "hand_over":
                return dict(view)
            if game["turn"] == view["you"]:
                r = client.post(f"/api/tables/{code}/commands", headers={"X-Seat-Token": token},
                                json={"do": "move", "move": simple_move(game), "version": game["version"]})
                assert r.status_code == 200, r.text


def wait_for_review(client: httpx.Client, path: str, token: str) -> dict[str, Any]:
    """Ask for a coach review until it is done (202 on the way); the answer."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = seat_get(client, path, token)
        if r.status_code == 200:
            out: dict[str, Any] = r.json()
            return out
        assert r.status_code == 202 and r.json()["status"] in ("waiting", "starting", "running"), r.text
        time.sleep(0.1)
    raise AssertionError(f"no review of {path} after 120 s")


def test_each_person_gets_the_review_of_their_own_seat(database: str) -> None:
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        ann = open_table(client, "Ann")
        code = ann["code"]
        r = seat_get(client, f"/api/tables/{code}/coach", ann["token"])
        assert r.status_code == 404 and "no game" in r.json()["detail"].lower()  # nothing to review yet
        bob = join(client, code, "Bob", seat=1)  # an opponent; the other two seats are computer players
        r = client.post(f"/api/tables/{code}/commands", headers={"X-Seat-Token": ann["token"]},
                        json={"do": "start"})
        assert r.status_code == 200 and r.json()["game"]["coach"] is True  # the page may ask
        assert client.get(f"/api/tables/{code}/watch").json()["game"]["coach"] is False
        path = f"/api/tables/{code}/hands/0/coach"
        r = seat_get(client, path, ann["token"])
        assert r.status_code == 404 and "not finished" in r.json()["detail"]

        finish_first_hand(client, code, [ann["token"], bob["token"]])
        reviews = {p["seat"]: wait_for_review(client, path, p["token"]) for p in (ann, bob)}

        options, entries = app_state(server).tables.log.load(code)
        table = FriendsTable.replay(code, TableOptions.from_json(options), entries, time.time)
        assert table.game is not None
        record = load_record(dump_record(table.game))
        for seat, done in reviews.items():
            assert done["status"] == "done" and done["review"]["seat"] == seat
            expected = analyze(record, seat, 0, samples=SAMPLES).hands[0].to_dict()  # that seat's view only
            assert done["review"] == CoachReviewOut.model_validate(expected).model_dump(mode="json")
            made = {str(e[1]) for e in table.game.log if e is not None and e[0] == seat}  # one hand so far
            assert {d["made"] for d in done["review"]["decisions"]} <= made  # only that seat's decisions
        assert reviews[0]["review"] != reviews[1]["review"]
        assert sorted(query(database, "SELECT subject, hand FROM coach_reviews")) == [
            (f"table {code} game 1 seat 0", 0), (f"table {code} game 1 seat 1", 0)]

        summary = seat_get(client, f"/api/tables/{code}/coach", bob["token"])
        assert summary.status_code == 200, summary.text
        assert summary.json()["reviewed"] == 1
        assert summary.json()["mistakes"] == reviews[1]["review"]["mistakes"]

        for token, status, words in ((None, 403, "spectator"), ("not-a-seat-token", 403, "not valid")):
            for where in (path, f"/api/tables/{code}/coach"):
                r = seat_get(client, where, token)
                assert r.status_code == status and words in r.json()["detail"], r.text
        for where, status in ((f"/api/tables/{code}/hands/1/coach", 404),
                              (f"/api/tables/{code}/hands/-1/coach", 422),
                              ("/api/tables/ZZZZZZ/hands/0/coach", 404), ("/api/tables/nope/coach", 404)):
            r = seat_get(client, where, ann["token"])
            assert r.status_code == status and r.json()["detail"], (where, r.text)
        assert server.app is not None and server.app.state.service.coach.analyses == 2


def test_a_table_on_a_server_without_the_coach_says_so(client: httpx.Client) -> None:
    ann = open_table(client, "Ann")
    r = client.post(f"/api/tables/{ann['code']}/commands", headers={"X-Seat-Token": ann["token"]},
                    json={"do": "start"})
    assert r.json()["game"]["coach"] is False  # so the page does not ask
    finish_first_hand(client, ann["code"], [ann["token"]])
    r = seat_get(client, f"/api/tables/{ann['code']}/hands/0/coach", ann["token"])
    assert r.status_code == 503 and "without the coach" in r.json()["detail"]


def test_the_review_judges_only_the_moves_the_person_made(database: str) -> None:
    """Bob bids himself; the host gives his seat to a computer player for a few tricks; Bob takes it back
    and plays the rest. His review judges only the moves he sent and counts the computer player's."""
    with BackgroundServer(database, coach_workers=1, coach_samples=SAMPLES) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        ann = open_table(client, "Ann")
        code = ann["code"]
        bob = join(client, code, "Bob", seat=1)

        def send(person: dict[str, Any], command: dict[str, Any]) -> None:
            r = client.post(f"/api/tables/{code}/commands", headers={"X-Seat-Token": person["token"]},
                            json=command)
            assert r.status_code == 200, r.text

        send(ann, {"do": "start"})
        sent: set[int] = set()  # the game's moves (by their place in its log) that Bob sent himself
        while (view := seat_get(client, f"/api/tables/{code}/view", bob["token"]).json())["game"]["phase"] \
                != "hand_over":
            game = view["game"]
            held = len(game["hand"])
            if view["seats"][1]["bot"] and held <= 9:
                send(bob, {"do": "back"})
            elif game["turn"] == 0:
                ann_game = seat_get(client, f"/api/tables/{code}/view", ann["token"]).json()["game"]
                send(ann, {"do": "move", "move": simple_move(ann_game), "version": ann_game["version"]})
            elif game["turn"] == 1 and game["phase"] == "play" and held == 12 and -1 not in sent:
                sent.add(-1)  # once: from his second card the computer player plays Bob's seat
                send(ann, {"do": "bot", "seat": 1})
            elif game["turn"] == 1:
                send(bob, {"do": "move", "move": simple_move(game), "version": game["version"]})
                sent.add(game["version"])
        sent.discard(-1)

        options, entries = app_state(server).tables.log.load(code)
        table = FriendsTable.replay(code, TableOptions.from_json(options), entries, time.time)
        assert table.game is not None
        bobs = {i for i, e in enumerate(table.game.log) if e is not None and e[0] == 1}
        computer = bobs - sent
        assert sent and computer and sent <= bobs  # Bob made some of his seat's moves, a computer the others

        done = wait_for_review(client, f"/api/tables/{code}/hands/0/coach", bob["token"])["review"]
        judged = {d["move_index"] for d in done["decisions"]}
        assert judged and judged <= sent  # none of the computer player's moves is held against Bob
        assert done["computer_moves"] == len(computer)
        record = load_record(dump_record(table.game))
        expected = analyze(record, 1, 0, samples=SAMPLES, computer=computer).hands[0].to_dict()
        assert done == CoachReviewOut.model_validate(expected).model_dump(mode="json")  # the coach's, as ever
        summary = seat_get(client, f"/api/tables/{code}/coach", bob["token"]).json()
        assert summary["decisions"] == len(judged) and summary["mistakes"] == done["mistakes"]
