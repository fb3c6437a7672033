"""The lobby and Quick game over real HTTP, on SQLite and PostgreSQL: people pressing Quick game meet at
one table, each at their own seat, never twice; computer players fill the seats no one came for; the
listed tables; bad input; and ``pick``'s invariants."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from server.pgcluster import Cluster
from server.processes import Served, redis_server
from server.tables_client import app_state
from spades.server.lobby import Waiting, pick, window
from spades.server.run import BackgroundServer
from spades.server.store import QuickWait, open_store


def player(client: httpx.Client) -> dict[str, str]:
    """A new anonymous player's headers."""
    return {"X-Player-Token": client.post("/api/players").json()["token"]}


def press(client: httpx.Client, who: dict[str, str], name: str, expect: int = 200, **body: Any) -> Any:
    r = client.post("/api/quick", json={"name": name, **body}, headers=who)
    assert r.status_code == expect, r.text
    return r.json()


def test_four_people_pressing_quick_game_meet_at_one_table_each_in_a_seat_of_their_own(
        client: httpx.Client, server: BackgroundServer) -> None:
    people = [player(client) for _ in range(4)]
    first = press(client, people[0], "Ann", options={"target": 200})
    assert first["status"] == "waiting" and first["token"] is None and 0 < first["fill_in"] <= 20
    assert first["others"] == 0
    again = press(client, people[0], "Ann", options={"target": 200})  # pressed twice: still one wait
    assert again["status"] == "waiting" and again["waited"] >= first["waited"]
    assert press(client, people[1], "Bob", options={"target": 200})["others"] == 1
    press(client, people[2], "Ann", options={"target": 300})  # other rules: waits apart
    assert press(client, people[2], "Cy", options={"target": 200})["status"] == "waiting"  # changed her mind
    last = press(client, people[3], "Dee", options={"target": 200})
    assert last["status"] == "seated"  # the fourth press forms the table at once

    outs = [client.get("/api/quick", headers=p).json() for p in people]
    assert {o["status"] for o in outs} == {"seated"}
    assert len({o["code"] for o in outs}) == 1 and sorted(o["seat"] for o in outs) == [0, 1, 2, 3]
    code = outs[0]["code"]
    for o in outs:  # each token opens that person's own seat
        view = client.get(f"/api/tables/{code}/view", headers={"X-Seat-Token": o["token"]}).json()
        assert view["you"] == o["seat"] and view["seats"][o["seat"]]["name"] == o["name"]
        assert view["game"] is not None and view["rules"]["target"] == 200
    assert press(client, people[0], "Ann", options={"target": 200})["code"] == code  # a second tab: same seat
    r = client.delete("/api/quick", headers=people[0])
    assert r.status_code == 403 and code in r.json()["detail"]
    table = app_state(server).tables.read(code, lambda t: ([(s.name, s.player is not None) for s in t.seats],
                                                           t.options.rated_as))
    assert sorted(table[0]) == [("Ann", True), ("Bob", True), ("Cy", True), ("Dee", True)]
    assert table[1] == "standard" and last["rated"] == "standard"  # the standard game, any target: rated


def test_computer_players_fill_the_seats_no_one_came_for_once_the_wait_is_over(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "s.sqlite3", quick_fill=1) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        ann = player(client)
        out = press(client, ann, "Ann", preset="three-player")
        assert out["status"] == "waiting" and out["players"] == 3
        for _ in range(100):
            out = client.get("/api/quick", headers=ann).json()
            if out["status"] == "seated":
                break
            threading.Event().wait(0.1)
        assert out["status"] == "seated"
        view = client.get(f"/api/tables/{out['code']}/view", headers={"X-Seat-Token": out["token"]}).json()
        assert [s["person"] for s in view["seats"]] == [True, False, False] and view["game"] is not None


def test_rules_asked_for_as_a_preset_or_by_its_options_are_one_rule_set(client: httpx.Client) -> None:
    ann, bob = player(client), player(client)
    assert press(client, ann, "Ann", preset="two-player")["rules_name"] == "two-player"
    out = press(client, bob, "Bob", options={"players": 2, "partnerships": False})
    assert out["status"] == "seated" and out["rules_name"] == "two-player"  # met Ann at a table of two


def test_leaving_the_queue_and_bad_input(client: httpx.Client) -> None:
    ann = player(client)
    assert client.get("/api/quick", headers=ann).status_code == 404
    assert client.delete("/api/quick", headers=ann).status_code == 204  # not waiting: nothing to do
    press(client, ann, "Ann")
    assert client.delete("/api/quick", headers=ann).status_code == 204
    r = client.get("/api/quick", headers=ann)
    assert r.status_code == 404 and "not waiting" in r.json()["detail"]

    bad = [({"name": "Computer (East)"}, 422), ({"name": "  "}, 422),
           ({"name": "Ann", "preset": "chess"}, 422),
           ({"name": "Ann", "options": {"blind_nil": True, "nil": False}}, 400),
           ({"name": "Ann", "seat": 1}, 422)]
    for body, status in bad:
        r = client.post("/api/quick", json=body, headers=ann)
        assert r.status_code == status, (body, r.text)
        assert isinstance(r.json()["detail"], str)
    assert client.post("/api/quick", json={"name": "Ann"}).status_code == 422  # no player token
    assert client.post("/api/quick", json={"name": "Ann"},
                       headers={"X-Player-Token": "x" * 24}).status_code == 401
    assert client.get("/api/quick", headers=ann).status_code == 404  # the refusals queued no one


def test_the_lobby_lists_the_tables_their_hosts_listed_to_join_and_to_watch(client: httpx.Client) -> None:
    def opened(name: str, listed: bool, preset: str = "two-player", **more: Any) -> dict[str, str]:
        body = {"name": name, "listed": listed, "preset": preset, **more}
        out: dict[str, str] = client.post("/api/tables", json=body, headers=player(client)).json()
        return out

    def listed() -> dict[str, Any]:
        return {t["code"]: t for t in client.get("/api/lobby").json()["tables"]}
    ann, bob, dee = opened("Ann", True), opened("Bob", False), opened("Dee", True, "standard", rated=True)
    tables = listed()
    assert ann["code"] in tables and dee["code"] in tables and bob["code"] not in tables
    shown = tables[ann["code"]]
    assert shown["rules_name"] and shown["seats"][0]["name"] == "Ann" and not shown["started"]
    assert shown["ratings"] == [None, None] and shown["rated"] is None  # two players: no rated rule set
    rated = tables[dee["code"]]
    assert rated["rated"] == "standard" and rated["ratings"] == [1500, None, None, None]
    client.post(f"/api/tables/{ann['code']}/seats", json={"name": "Cy"})  # full now
    client.post(f"/api/tables/{dee['code']}/commands", json={"do": "start"},
                headers={"X-Seat-Token": dee["token"]})
    assert listed() == {}  # a full table, and a rated one under way (which takes no one in) are not listed
    playing = client.get("/api/lobby").json()["playing"]  # but a game under way is there to watch
    assert [t["code"] for t in playing] == [dee["code"]] and playing[0]["started"]
    assert playing[0]["ratings"][0] == 1500 and None not in playing[0]["ratings"]  # computers rated too


def test_a_claim_is_all_or_nothing_and_a_table_never_formed_lets_its_people_wait_again(database: str) -> None:
    store = open_store(database)
    store.check()
    try:
        for p in "abcde":
            wait = QuickWait(player=p, rules="r", name=p, rating=1500, ticket="t" + p, sealed="s" + p,
                             waited=0, code=None, seat=None, formed=False)
            store.quick_wait(wait=wait, kept=60)
        assert store.quick_claim(rules="r", code="T1", seats={"a": 0, "b": 1})
        assert not store.quick_claim(rules="r", code="T2", seats={"c": 0, "b": 1})  # b is taken: nor is c
        assert [w.player for w in store.quick_waiting(rules="r", stale=60)] == ["c", "d", "e"]
        assert store.quick_cancel(player="a") is not None  # claimed: not to be cancelled
        assert store.quick_cancel(player="e") is None and store.quick_seen(player="e") is None
        time.sleep(0.05)  # T1's process stopped before forming it: once stale, a and b wait again
        assert sorted(w.player for w in store.quick_waiting(rules="r", stale=0.01)) == ["a", "b"]
        assert store.quick_formed(code="T1") == 0  # too late: nobody is seated there
    finally:
        store.close()


def seat_all_at_once(urls: list[str], count: int) -> dict[int, dict[str, Any]]:
    """``count`` people press Quick game at once from threads, person ``i`` on server ``urls[i % n]``, and ask
    until seated; what each was told once seated."""
    with httpx.Client(base_url=urls[0], timeout=60) as c:
        people = [player(c) for _ in range(count)]
    seated: dict[int, dict[str, Any]] = {}

    def go(i: int) -> None:
        with httpx.Client(base_url=urls[i % len(urls)], timeout=60) as c:
            out = press(c, people[i], f"P{i}")
            for _ in range(300):
                if out["status"] == "seated":
                    seated[i] = {**out, "headers": people[i]}
                    return
                threading.Event().wait(0.05)
                out = c.get("/api/quick", headers=people[i]).json()

    threads = [threading.Thread(target=go, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return seated


def assert_seated_once_at_full_tables(seated: dict[int, dict[str, Any]], count: int) -> None:
    """Everyone seated, at tables of four, one person a seat."""
    assert len(seated) == count
    assert set(Counter(o["code"] for o in seated.values()).values()) == {4}
    assert len({(o["code"], o["seat"]) for o in seated.values()}) == count


def test_people_pressing_at_once_are_each_seated_once_at_tables_of_four(client: httpx.Client) -> None:
    seated = seat_all_at_once([str(client.base_url)], 12)
    assert_seated_once_at_full_tables(seated, 12)


def test_people_pressing_on_two_processes_meet_at_one_table(tmp_path: Path, pg_cluster: Cluster) -> None:
    """Two ``spades serve`` processes on one PostgreSQL, with Redis: four people pressing in turn, on one
    process and the other, meet at one table, and a seat's token opens it on either process; eight
    pressing at once, half on each, make two tables of four, no one twice."""
    database = pg_cluster.database()
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as a, \
            Served(database, redis_url=redis_url) as b:
        clients = [httpx.Client(base_url=a.url, timeout=30), httpx.Client(base_url=b.url, timeout=30)]
        people = [player(clients[0]) for _ in range(4)]
        for i, who in enumerate(people):
            press(clients[i % 2], who, f"P{i}")
        outs = [clients[(i + 1) % 2].get("/api/quick", headers=who).json() for i, who in enumerate(people)]
        assert {o["status"] for o in outs} == {"seated"} and len({o["code"] for o in outs}) == 1
        for i, o in enumerate(outs):
            view = clients[i % 2].get(f"/api/tables/{o['code']}/view", headers={"X-Seat-Token": o["token"]})
            assert view.json()["you"] == o["seat"] and view.json()["game"] is not None
        for c in clients:
            c.close()
        assert_seated_once_at_full_tables(seat_all_at_once([a.url, b.url], 8), 8)


waiting = st.lists(st.builds(Waiting, player=st.text("abcdefgh", min_size=1, max_size=2),
                             rating=st.floats(1000, 2000), waited=st.floats(0, 30)),
                   max_size=10, unique_by=lambda w: w.player)


@settings(max_examples=300, deadline=None)
@given(waiting, st.sampled_from([2, 3, 4]), st.floats(1, 30))
def test_pick_seats_each_waiting_person_once_within_the_windows(
        people: list[Waiting], seats: int, fill_after: float) -> None:
    group = pick(people, seats, fill_after)
    if group is None:  # no one is left waiting past the fill time
        assert all(w.waited < fill_after for w in people)
        return
    assert 1 <= len(group) <= seats and len({w.player for w in group}) == len(group)
    assert all(w in people for w in group)
    anchor = group[0]
    assert anchor.waited == max(w.waited for w in people) or len(group) == seats
    assert len(group) == seats or anchor.waited >= fill_after
    for w in group[1:]:
        assert abs(w.rating - anchor.rating) <= max(window(anchor.waited), window(w.waited))
