"""Hosted tournaments over real HTTP and WebSockets: eight people in a two-table duplicate through to the
standings (one of them never comes, and a computer player takes their seat), and every bad request a
clear 4xx that changes nothing."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from server.api_client import simple_move
from server.conftest import query
from server.tables_client import ACTIVE, Seat, app_state, check_no_hidden_cards, run_async
from spades.server.run import BackgroundServer
from spades.server.tournaments.service import LISTED_FOR
from spades.tournament.scores import matchpoints

PEOPLE = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
ABSENT = "Gus"
"""The person who registers and never comes: a computer player takes their seat after the grace period."""


def create(client: httpx.Client, **body: Any) -> tuple[str, str]:
    """A new tournament's code and host token."""
    r = client.post("/api/tournaments", json={"name": "Club night", **body})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["host_token"]


def register(client: httpx.Client, code: str, names: list[str]) -> dict[str, str]:
    """Register each name; their registration tokens."""
    tokens = {}
    for name in names:
        r = client.post(f"/api/tournaments/{code}/entries", json={"name": name})
        assert r.status_code == 201, r.text
        tokens[name] = r.json()["token"]
    return tokens


def look(client: httpx.Client, code: str, entry: str | None = None) -> dict[str, Any]:
    """The tournament as a person (or anyone) sees it."""
    r = client.get(f"/api/tournaments/{code}", headers={"X-Entry-Token": entry} if entry else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def play_round(bases: list[str], client: httpx.Client, code: str, tokens: dict[str, str],
                     hold: Callable[[Seat], bool] | None = None) -> list[Seat]:
    """Everyone but the absent person goes to their seat (the ``i``-th person through server process
    ``bases[i % len(bases)]``) and plays simple moves (each table's host deals the next board) until the
    tournament moves past this round; their connections, closed, with every message each received. With
    ``hold``, a seat stops moving once ``hold(seat)`` is true, and once every seat's is the round is left
    in the middle, the connections open."""
    before = look(client, code)
    seats = []
    for i, (name, token) in enumerate(tokens.items()):
        you = look(client, code, token)["you"]
        assert you["code"] is not None and you["token"] is not None
        if name != ABSENT:
            seats.append(Seat(bases[i % len(bases)], you["code"], you["token"]))
    done = asyncio.Event()
    held: set[int] = set()

    async def play(seat: Seat) -> None:
        await seat.connect()
        last = None
        while not done.is_set():
            t, g = seat.table, seat.table.get("game")
            if hold is not None and t and hold(seat):
                held.add(id(seat))
                if len(held) == len(seats):
                    done.set()
            elif g is not None and (t["seq"], g["version"]) != last:
                if g["phase"] in ACTIVE and g["turn"] == t["you"] and not t["seats"][t["you"]]["bot"]:
                    await seat.send_paced({"do": "move", "move": simple_move(g), "version": g["version"]})
                    last = (t["seq"], g["version"])
                elif g["phase"] in ("hand_over", "game_over") and t["host"] == t["you"] and t["boards_left"]:
                    await seat.send_paced({"do": "next", "version": g["version"]})
                    last = (t["seq"], g["version"])
            try:
                msg = await seat.recv(timeout=0.3)
            except TimeoutError:
                continue
            assert msg["type"] != "error" or msg["status"] == 409, msg  # a move crossed: it is told again
        if hold is None:
            await seat.close()

    async def watch() -> None:
        deadline = time.monotonic() + 120
        while (now := await asyncio.to_thread(look, client, code))["round"] == before["round"] \
                and now["status"] != "over" and not done.is_set():
            assert time.monotonic() < deadline, now["tables"]
            await asyncio.sleep(0.3)
        done.set()

    await asyncio.gather(watch(), *(play(s) for s in seats))
    return seats


def check_frames(server: BackgroundServer, seats: list[Seat]) -> None:
    """No message to a seat at any of these tables held a card another seat hid at its version."""
    log = app_state(server).tables.log
    for code in {s.code for s in seats}:
        by_seat: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for s in seats:
            if s.code == code:
                by_seat[s.table["you"]] += s.received
        assert check_no_hidden_cards(log, code, by_seat) > 0


def test_eight_people_play_a_two_table_duplicate_through_to_the_standings(server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        code, host = create(client, rounds=2, boards=2, grace=5, turn_seconds=30)
        tokens = register(client, code, PEOPLE)
        started = client.post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": host})
        assert started.status_code == 204
        first = look(client, code)
        assert first["status"] == "playing" and first["round"] == 1 and len(first["tables"]) == 2
        assert [p["entrant"] for p in first["people"]] == [1, 1, 2, 2, 3, 3, 4, 4]
        check_frames(server, run_async(play_round([server.url], client, code, tokens)))
        second = look(client, code)
        assert second["round"] == 2 and {t["code"] for t in second["tables"]}.isdisjoint(
            t["code"] for t in first["tables"])
        check_frames(server, run_async(play_round([server.url], client, code, tokens)))
        final = look(client, code, tokens["Ann"])
    assert final["status"] == "over" and final["you"]["code"] is None
    results = final["results"]
    check_standings(results, boards=4)
    assert results["seed"] > 0  # over: the deals are public


def check_standings(results: dict[str, Any], boards: int) -> None:
    """The results of eight people's two tables, ``boards`` boards in all: each board's two lines held the
    same cards, their matchpoints and the standings are the test's own from the lines' results."""
    travellers = results["travellers"]
    assert [t["board"] for t in travellers] == list(range(1, boards + 1))
    mp: dict[str, int] = defaultdict(int)
    for board in travellers:
        lines = board["lines"]
        assert len(lines) == 2 and len({line["round"] for line in lines}) == 1
        assert held(lines[0]) == held(lines[1])  # both tables held the same cards in the same seats
        ns = matchpoints([line["ns_result"] for line in lines])
        ew = matchpoints([-line["ns_result"] for line in lines])
        for line, a, b in zip(lines, ns, ew, strict=True):
            assert line["matchpoints"] == [a, b]
            mp[line["ns"]] += a
            mp[line["ew"]] += b
    standings = results["standings"]
    assert {s["name"]: s["score"] for s in standings} == dict(mp)
    assert {s["name"] for s in standings} == {"Ann & Bob", "Cal & Dee", "Eve & Fay", "Gus & Hal"}
    assert all(s["top"] == 2 * boards and s["boards"] == boards for s in standings)  # 1 pair to beat a board
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)


def held(line: dict[str, Any]) -> list[set[str]]:
    """The cards each seat played on a traveller line (North, East, South, West), from its tricks."""
    seats: list[set[str]] = [set(), set(), set(), set()]
    for trick in line["play"]:
        leader, cards = trick.split(": ")
        first = "NESW".index(leader)
        for k, card in enumerate(cards.split()):
            seats[(first + k) % 4].add(card)
    return seats


def test_bad_requests_are_refused_with_a_reason_and_change_nothing(client: httpx.Client) -> None:
    code, host = create(client, rounds=3, boards=1)
    hosted = {"X-Host-Token": host}
    assert client.get("/api/tournaments/ZZZZZZ").status_code == 404
    assert client.post("/api/tournaments", json={"name": "x", "rounds": 0}).status_code == 422
    assert client.post("/api/tournaments", json={"name": "x", "preset": "cutthroat"}).status_code == 400
    tokens = register(client, code, PEOPLE[:5])
    again = client.post(f"/api/tournaments/{code}/entries", json={"name": " ann "})
    assert again.status_code == 409 and "registered already" in again.json()["detail"]
    kept = client.post(f"/api/tournaments/{code}/entries", json={"name": "Computer (North)"})
    assert kept.status_code == 422
    not_host = client.post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": tokens["Ann"]})
    assert not_host.status_code == 403
    too_many_rounds = client.post(f"/api/tournaments/{code}/start", headers=hosted)
    assert too_many_rounds.status_code == 409 and "cannot be paired" in too_many_rounds.json()["detail"]
    gone = client.delete(f"/api/tournaments/{code}/entries/4", headers={"X-Entry-Token": tokens["Eve"]})
    assert gone.status_code == 204
    few = client.post(f"/api/tournaments/{code}/start", headers=hosted)
    assert few.status_code == 409 and "at least 5 people" in few.json()["detail"]
    assert look(client, code)["status"] == "open" and len(look(client, code)["people"]) == 4
    register(client, code, ["Eve", "Fay", "Gus"])  # 7 people: 4 pairs, the last with a computer partner
    assert client.post(f"/api/tournaments/{code}/start", headers=hosted).status_code == 409  # still 3 rounds
    assert client.post(f"/api/tournaments/{code}/end-round", headers=hosted).status_code == 409
    forged = client.get(f"/api/tournaments/{code}", headers={"X-Entry-Token": "A" * 24})
    assert forged.status_code == 403


def test_a_round_opens_computers_for_the_withdrawn_and_the_host_ends_it(client: httpx.Client) -> None:
    code, host = create(client, rounds=2, boards=1)
    hosted = {"X-Host-Token": host}
    tokens = register(client, code, PEOPLE[:5])  # 3 pairs (Eve with a computer) and a computer pair
    assert client.post(f"/api/tournaments/{code}/start", headers=hosted).status_code == 204
    late = client.post(f"/api/tournaments/{code}/entries", json={"name": "Zed"})
    assert late.status_code == 409 and "registration is closed" in late.json()["detail"]
    seen = look(client, code, tokens["Bob"])
    assert len(seen["tables"]) == 2 and "Computer pair (fill)" in {t["ns"] for t in seen["tables"]} | {
        t["ew"] for t in seen["tables"]}
    assert seen["you"]["token"] is not None and seen["host"] is False
    assert client.delete(f"/api/tournaments/{code}/entries/1", headers=hosted).status_code == 204
    assert look(client, code, tokens["Bob"])["you"]["code"] is None  # a computer plays for Bob now
    seat = client.get(f"/api/tables/{seen['you']['code']}/view",
                      headers={"X-Seat-Token": seen["you"]["token"]})
    assert seat.status_code == 200 and seat.json()["seats"][seat.json()["you"]]["bot"]
    assert client.delete(f"/api/tournaments/{code}/entries/1", headers=hosted).status_code == 409
    assert client.post(f"/api/tournaments/{code}/end-round?round=1", headers=hosted).status_code == 204
    again = client.post(f"/api/tournaments/{code}/end-round?round=1", headers=hosted)  # a second click
    assert again.status_code == 409 and "Round 1 is over already" in again.json()["detail"]
    after = look(client, code)
    assert after["round"] == 2 and after["status"] == "playing"
    assert client.get(f"/api/tournaments/{code}/standings.csv").text.startswith("place,name")
    assert client.get(f"/api/tournaments/{code}/results.pdf").content[:5] == b"%PDF-"
    assert client.get(f"/api/tournaments/{code}/results.json").json()["format"] == "duplicate-pairs"


@pytest.mark.parametrize("path", ["/tournaments", "/tournaments/ABCDEF"])
def test_the_page_is_served(client: httpx.Client, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and "tournament.js" in r.text


def test_a_player_with_an_account_registers_under_its_name_once(client: httpx.Client) -> None:
    code, _ = create(client)
    player = {"X-Player-Token": client.post("/api/players").json()["token"]}
    made = client.post("/api/account", json={"name": "Zoë", "password": "correct horse battery"},
                       headers=player)
    assert made.status_code == 201, made.text
    entry = client.post(f"/api/tournaments/{code}/entries", json={}, headers=player)
    assert entry.status_code == 201, entry.text
    assert [p["name"] for p in look(client, code)["people"]] == ["Zoë"]
    again = client.post(f"/api/tournaments/{code}/entries", json={"name": "Zed"}, headers=player)
    assert again.status_code == 409 and "registered already, as Zoë" in again.json()["detail"]
    nameless = client.post(f"/api/tournaments/{code}/entries", json={})
    assert nameless.status_code == 400 and "Give a name" in nameless.json()["detail"]


def played_by_computers(client: httpx.Client, **body: Any) -> tuple[str, dict[str, Any]]:
    """A one-board tournament of five people (``body``: more of its creation's fields), none of whom comes
    (computer players take their seats after 5 s), played to its end: its code and how it looks then."""
    code, host = create(client, rounds=1, boards=1, grace=5, level="random", **body)
    register(client, code, PEOPLE[:5])
    started = client.post(f"/api/tournaments/{code}/start", headers={"X-Host-Token": host})
    assert started.status_code == 204
    deadline = time.monotonic() + 60
    while (over := look(client, code))["status"] != "over":
        assert time.monotonic() < deadline, over["tables"]
        time.sleep(0.3)
    return code, over


def test_a_finished_tournaments_results_outlive_its_tables_expiry(database: str) -> None:
    with BackgroundServer(database) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        code, over = played_by_computers(client)
    query(database, "UPDATE friend_tables SET touched = 0")  # idle for 56 years: the codes open no table
    with BackgroundServer(database) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get(f"/api/tables/{over['tables'][0]['code']}").status_code == 404
        assert look(client, code)["results"] == over["results"]
    assert len(over["results"]["travellers"][0]["lines"]) == 2


def test_a_presets_own_target_keeps_its_name(client: httpx.Client) -> None:
    # the create form sends the target as it stands: left at the preset's, the rules are still the preset
    kept, _ = create(client, name="Standard night", listed=True, options={"target": 500})
    changed, _ = create(client, name="Short night", listed=True, preset="pagat", options={"target": 300})
    named = {t["code"]: (t["rules_name"], t["target"]) for t in client.get("/api/tournaments").json()}
    assert named == {kept: ("standard", 500), changed: ("custom", 300)}
    assert look(client, kept)["rules_name"] == "standard"


def test_a_listed_tournament_is_found_until_it_is_over(database: str, client: httpx.Client) -> None:
    # a host lists theirs for anyone to find; another's, unlisted, is known by its link alone
    assert client.get("/api/tournaments").json() == []
    code, host = create(client, name="Open night", format="swiss", rounds=1, boards=1, listed=True,
                        options={"target": 300})
    create(client, name="Private")
    old, _ = create(client, name="Last week's", listed=True)
    query(database, "UPDATE tournaments SET created = created - ? WHERE code = ?", (LISTED_FOR + 60, old))
    register(client, code, PEOPLE[:4])
    assert client.get("/api/tournaments").json() == [{
        "code": code, "name": "Open night", "format": "swiss", "individual": False, "to_target": False,
        "status": "open", "rules_name": "custom", "target": 300, "rounds": 1, "boards": 1, "people": 4}]
    hosted = {"X-Host-Token": host}
    assert client.post(f"/api/tournaments/{code}/start", headers=hosted).status_code == 204
    assert [t["status"] for t in client.get("/api/tournaments").json()] == ["playing"]
    assert client.post(f"/api/tournaments/{code}/end-round?round=1", headers=hosted).status_code == 204
    assert look(client, code)["status"] == "over"
    assert client.get("/api/tournaments").json() == []  # over: no longer listed
