"""Friends' tables on the real server: whole games over four WebSockets, and every kind of bad input."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from server.api_client import simple_move
from server.tables_client import (
    ACTIVE,
    Seat,
    app_state,
    check_no_hidden_cards,
    close_at,
    join,
    open_table,
    play_alone,
    play_game,
    run_async,
    start_game,
    ws_url,
)
from spades.server.run import BackgroundServer
from spades.server.tables.entries import entry_json

RULES = {
    4: {"preset": "standard", "options": {"target": 100, "low_mark": -100}},
    3: {"preset": "three-player", "options": {"target": 100, "low_mark": -100}},
    2: {"preset": "two-player", "options": {"target": 100, "low_mark": -100}},
}


@pytest.mark.parametrize("players", [4, 3, 2])
def test_people_play_whole_games_and_see_only_their_own_cards(
        players: int, server: BackgroundServer, client: httpx.Client) -> None:
    app_state(server).live.burst = 10**6  # these people move far faster than people do
    host = open_table(client, "Ann", level="easy", **RULES[players])
    code = host["code"]
    names = ("Bob", "Cy", "Di")[:players - 1]
    tokens = [host["token"]] + [join(client, code, name)["token"] for name in names]
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Eve"})
    assert r.status_code == 409 and "full" in r.json()["detail"]

    async def run() -> dict[int, list[dict[str, Any]]]:
        seats = [Seat(server.url, code, t) for t in tokens]
        watcher = Seat(server.url, code, None)  # a spectator, there from the start
        await watcher.connect()
        await start_game(seats)
        await play_game([*seats, watcher])
        await close_at([*seats, watcher], "game_over")
        ends = [s.table for s in seats]
        assert len({json.dumps(e["game"]["sheet"]) for e in ends}) == 1  # one game, seen from every seat
        assert all(e["deal"] and e["game"]["deal"] == e["deal"] for e in ends)  # the secret deal, shown now
        seen = [m["table"]["game"] for m in watcher.received if m["type"] == "update" and m["table"]["game"]]
        assert watcher.table["you"] == players and len(seen) > 10
        assert all(g["hand"] == [] and g["human"] == players and g["human_side"] == -1 for g in seen)
        assert not any("You" in e["text"] or "you" in e["text"].split() for m in watcher.received
                       if m["type"] == "update" for e in m["events"])  # a spectator is no one at the table
        return {s.table["you"]: s.received for s in [*seats, watcher]}

    received = run_async(run())
    assert players in received
    assert check_no_hidden_cards(app_state(server).tables.log, code, received) > 100


def test_bad_input_gets_a_clear_message_and_changes_nothing(
        server: BackgroundServer, client: httpx.Client) -> None:
    host = open_table(client, "Ann", grace=5)
    code, token = host["code"], host["token"]
    bob = join(client, code, "Bob")

    def view(tok: str = token) -> dict[str, Any]:
        r = client.get(f"/api/tables/{code}/view", headers={"X-Seat-Token": tok})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def refused(status: int, words: str, method: str, path: str, tok: str = token, **body: Any) -> None:
        before = view()
        r = client.request(method, f"/api/tables/{code}{path}", json=body or None,
                           headers={"X-Seat-Token": tok})
        assert r.status_code == status, r.text
        assert words in r.json()["detail"], r.text
        assert view() == before

    r = client.get("/api/tables/ZZZZZZ")
    assert r.status_code == 404 and "No table" in r.json()["detail"]
    assert client.get("/api/tables/ZZZZZZ/watch").status_code == 404
    r = client.get("/api/tables/not-a-code!")
    assert r.status_code == 404 and "not a table code" in r.json()["detail"]
    r = client.post("/api/tables", json={"name": "\u0000bad"})
    assert r.status_code == 422 and "control" in r.json()["detail"]
    r = client.post("/api/tables", json={"name": "Ann", "options": {"target": -5}})
    assert r.status_code == 400
    refused(403, "Only the host", "POST", "/commands", tok=bob["token"], do="start")
    refused(403, "not valid", "POST", "/commands", tok="forged" * 4, do="start")
    refused(422, "too long", "POST", "/commands", do="chat", text="x" * 201)
    refused(409, "not started", "POST", "/commands", do="move", move="bid 3", version=0)
    refused(422, "Invalid request", "POST", "/commands", do="dance")
    refused(422, "valid integer", "POST", "/seats", name="Cy", seat=True)  # not seat 1
    refused(422, "valid integer", "POST", "/commands", do="sit", to=True)
    refused(422, "greater than or equal to 0", "GET", "/hands/-1")  # not "Hand 0 is not finished"
    assert client.post(f"/api/tables/{code}/commands", json={"do": "start"},
                       headers={"X-Seat-Token": token}).status_code == 200
    state = view()
    g = state["game"]
    watched = client.get(f"/api/tables/{code}/watch").json()  # by the link alone: only what is face up
    assert watched["game"]["hand"] == [] and watched["game"]["legal_bids"] == [] and watched["you"] == 4
    me, other = (token, bob["token"]) if g["turn"] == state["you"] else (bob["token"], token)
    refused(409, "turn", "POST", "/commands", tok=other, do="move", move="bid 3", version=g["version"])
    refused(409, "moved on", "POST", "/commands", tok=me, do="move", move="bid 3", version=g["version"] + 7)
    refused(409, "", "POST", "/commands", tok=me, do="move", move="play 2C", version=g["version"])
    for i in range(5):
        client.post(f"/api/tables/{code}/commands", json={"do": "chat", "text": f"hi {i}"},
                    headers={"X-Seat-Token": token})
    refused(429, "Slow down", "POST", "/commands", do="chat", text="once more")

    async def ws_run() -> None:
        seat = Seat(server.url, code, token)
        await seat.connect()
        await seat.until(lambda t: bool(t))
        seq = seat.table["seq"]
        await seat.send({"do": "chat", "text": "y" * 5000})
        msg = await seat.recv()
        assert msg["type"] == "error" and "too long" in msg["detail"]
        assert seat.ws is not None
        await seat.ws.send("not json")
        msg = await seat.recv()
        assert msg["type"] == "error" and "JSON" in msg["detail"]
        for _ in range(40):
            await seat.send({"do": "sync", "id": 1})
        errors: list[dict[str, Any]] = []
        while not errors:
            msg = await seat.recv()
            if msg["type"] == "error":
                errors.append(msg)
        assert errors[0]["status"] == 429
        assert seat.table["seq"] == seq
        await seat.close()
        forged = Seat(server.url, code, "forged-token-" * 3)
        await forged.connect()
        msg = await forged.recv()
        assert msg["type"] == "error" and msg["status"] == 403
        watcher = Seat(server.url, code, None)
        await watcher.connect()
        await watcher.until(lambda t: bool(t))
        assert watcher.table["game"]["hand"] == [] and watcher.table["you"] == 4
        for do in ({"do": "chat", "text": "hi"}, {"do": "move", "move": "bid 3", "version": 0}):
            await watcher.send(do)
            msg = await watcher.recv()
            assert msg["type"] == "error" and msg["status"] == 403 and "watching" in msg["detail"]
        await watcher.close()
        unsure = Seat(server.url, code, token)
        await unsure.connect(keep="yes")  # type: ignore[arg-type]
        msg = await unsure.recv()
        assert msg["type"] == "error" and msg["status"] == 400 and "'keep' is true" in msg["detail"]
        nowhere = Seat(server.url, "ZZZZZZ", None)
        await nowhere.connect()
        msg = await nowhere.recv()
        assert msg["type"] == "error" and msg["status"] == 404
    run_async(ws_run())


def test_a_command_sent_with_an_id_is_answered_ok_once_accepted_or_else_refused(
        server: BackgroundServer, client: httpx.Client) -> None:
    host = open_table(client, "Ann")

    async def run() -> None:
        seat = Seat(server.url, host["code"], host["token"])
        await seat.connect()
        await seat.until(lambda t: bool(t))
        await seat.send({"do": "chat", "text": "hi", "id": 7})
        await seat.send({"do": "move", "move": "bid 3", "version": 0, "id": [8]})  # not started: refused
        await seat.send({"do": "sync", "id": "s"})
        await seat.send({"do": "chat", "text": "no id"})  # answered by its update alone
        await seat.send({"do": "chat", "text": "last", "id": 9})
        answers: list[dict[str, Any]] = []
        while not answers or answers[-1].get("id") != 9:
            msg = await seat.recv()
            if msg["type"] != "update":
                answers.append(msg)
        assert [(m["type"], m["id"]) for m in answers] == [("ok", 7), ("error", [8]), ("ok", "s"), ("ok", 9)]
        assert answers[0] == {"type": "ok", "id": 7} and "not started" in answers[1]["detail"]
        await seat.until(lambda t: [c["text"] for c in t["chat"]] == ["hi", "no id", "last"])
        await seat.close()
    run_async(run())


def test_a_seat_away_past_the_grace_period_is_played_and_handed_back(
        server: BackgroundServer, client: httpx.Client) -> None:
    host = open_table(client, "Ann", grace=5)
    code = host["code"]
    bob_token = join(client, code, "Bob")["token"]

    async def run() -> None:
        ann, bob = Seat(server.url, code, host["token"]), Seat(server.url, code, bob_token)
        await start_game([ann, bob])
        b = bob.table["you"]
        await bob.close()
        await ann.until(lambda t: t["seats"][b]["away"] and not t["seats"][b]["bot"])
        table = await ann.until(lambda t: t["seats"][b]["bot"], timeout=30)  # after the 5 s grace
        assert table["seats"][b]["person"] and table["seats"][b]["name"] == "Bob"
        g = table["game"]
        assert g["turn"] != b  # the computer player moved for Bob up to someone else's turn
        back = Seat(server.url, code, bob_token)
        await back.connect(since=bob.table["seq"])
        await back.until(lambda t: bool(t) and not t["seats"][b]["bot"])
        assert back.received[0]["events"] and not back.received[0]["resync"]  # it caught up from its version
        await ann.until(lambda t: not t["seats"][b]["bot"] and not t["seats"][b]["away"])
        await ann.close()
        await back.close()

    run_async(run())


def test_the_lobby_names_places_and_sides_and_finished_hands_are_shown_face_up(
        server: BackgroundServer, client: httpx.Client) -> None:
    host = open_table(client, "Ann", level="easy", options={"target": 100, "low_mark": -100})
    code, headers = host["code"], {"X-Seat-Token": host["token"]}
    lobby = client.get(f"/api/tables/{code}").json()
    assert [(s["where"], s["side"]) for s in lobby["seats"]] == [("North", 0), ("East", 1), ("South", 0),
                                                                 ("West", 1)]
    assert lobby["reactions"]["gg"] == "Good game!"
    r = client.get(f"/api/tables/{code}/hands/0", headers=headers)
    assert r.status_code == 404 and "not finished" in r.json()["detail"]

    async def run() -> dict[str, Any]:
        seat = Seat(server.url, code, host["token"])
        await play_alone(seat, seconds=300)
        return seat.table

    table = run_async(run())
    r = client.get(f"/api/tables/{code}/hands/0", headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["dealt"] == table["game"]["review"]["dealt"]  # all four hands, as the review shows them
    forged = client.get(f"/api/tables/{code}/hands/0", headers={"X-Seat-Token": "forged" * 4})
    assert forged.status_code == 403


def test_websocket_messages_are_not_compressed(server: BackgroundServer, client: httpx.Client) -> None:
    """Each message is small: permessage-deflate would cost the server CPU for little, so it is off."""
    code = open_table(client, "Ann")["code"]

    async def run() -> str | None:
        async with connect(ws_url(server.url, code), compression="deflate") as ws:  # the client offers it
            assert ws.response is not None
            agreed: str | None = ws.response.headers.get("Sec-WebSocket-Extensions")
            return agreed

    assert run_async(run()) is None


def test_a_connections_updates_after_its_first_leave_out_what_never_changes(
        server: BackgroundServer, client: httpx.Client) -> None:
    """The rules (the table's and the game's) and the reactions come in a connection's first update and
    in a resync, not in the others, which merged as the page merges them make the whole view; a page
    connecting again gets them again, and a spectator too; a client whose hello does not say it keeps
    what updates leave out gets every update whole."""
    host = open_table(client, "Ann")
    code = host["code"]
    constants = {"rules", "reactions"}

    async def run() -> None:
        ann = Seat(server.url, code, host["token"])
        await start_game([ann])
        first, *later = [m["table"] for m in ann.received if m["type"] == "update"]
        assert constants <= first.keys() and first["rules"]["target"] == 500
        assert later and all(not constants & t.keys() and "rules" not in (t["game"] or {}) for t in later)
        whole = client.get(f"/api/tables/{code}/view", headers={"X-Seat-Token": host["token"]}).json()
        assert ann.table == whole
        await ann.close()
        plain = Seat(server.url, code, host["token"])  # a client that merges nothing
        await plain.connect(keep=None)
        await plain.recv()
        game = plain.table["game"]
        await plain.send({"do": "move", "move": simple_move(game), "version": game["version"]})
        await plain.until(lambda t: t["game"]["version"] > game["version"])
        moved = plain.received[-1]["table"]
        assert moved.keys() == whole.keys() and moved["game"].keys() == whole["game"].keys()
        await plain.close()
        for since in (ann.table["seq"] - 1, -1):  # a page connecting again, behind or anew
            again = Seat(server.url, code, host["token"])
            await again.connect(since)
            msg = await again.recv()
            assert msg["resync"] is (since < 0)
            assert constants <= msg["table"].keys() and msg["table"]["game"]["rules"] == first["rules"]
            await again.close()
        watcher = Seat(server.url, code, None)
        await watcher.connect()
        assert constants <= (await watcher.recv())["table"].keys()
        await watcher.close()

    run_async(run())


def test_the_table_messages_name_the_people_as_their_plates_do(
        server: BackgroundServer, client: httpx.Client) -> None:
    """At a friends' table "Bob to play." and "Bob bids 3.", not "East": each seat's view names people."""
    host = open_table(client, "Ann", level="easy")
    code = host["code"]
    bob_token = join(client, code, "Bob")["token"]

    async def run() -> tuple[Seat, Seat]:
        ann, bob = Seat(server.url, code, host["token"]), Seat(server.url, code, bob_token)
        await start_game([ann, bob])
        await play_game([ann, bob], until_phase="hand_over")
        for s in (ann, bob):
            await s.close()
        return ann, bob

    ann, bob = run_async(run())
    a, b = ann.table["you"], bob.table["you"]
    updates = [m for m in ann.received if m["type"] == "update" and m["table"]["game"]]
    turns = [m["table"]["game"]["message"] for m in updates
             if m["table"]["game"]["turn"] == b and m["table"]["game"]["phase"] == "play"]
    assert turns and set(turns) == {"Bob to play."}
    events = [e["game"] for m in updates for e in m["events"] if e["game"]]
    assert {e["text"].split(" bids ")[0] for e in events if e["kind"] == "bid" and e["seat"] == b} == {"Bob"}
    assert all(e["text"].startswith("You bid ") for e in events if e["kind"] == "bid" and e["seat"] == a)
    bot = next(s for s in ann.table["seats"] if not s["person"])
    assert any(e["text"].startswith(f"{bot['name']} bids ") for e in events if e["seat"] == bot["seat"])
    seen_by_bob = {e["game"]["text"] for m in bob.received if m["type"] == "update" for e in m["events"]
                   if e["game"] and e["game"]["seat"] == a and e["game"]["kind"] == "bid"}
    assert len(seen_by_bob) == 1 and seen_by_bob.pop().startswith("Ann bids ")
    side = next(s for s in ann.table["game"]["sides"] if s["side"] == ann.table["seats"][a]["side"])
    assert side["name"].startswith("You & ")  # the score boxes too, yours first


def test_a_code_typed_in_lower_case_still_gets_every_change(server: BackgroundServer,
                                                            client: httpx.Client) -> None:
    """The live address takes the code as people type it (lower case, dashes): its updates come as
    the table changes, like those of a connection made with the code as given."""
    host = open_table(client, "Ann")
    code = host["code"]
    typed = f"{code[:3].lower()}-{code[3:].lower()}"

    async def run() -> dict[str, Any]:
        ann = Seat(server.url, typed, host["token"])
        await ann.connect()
        await ann.until(lambda t: bool(t))
        join(client, code, "Bob")
        seen = await ann.until(lambda t: any(s["name"] == "Bob" for s in t["seats"]), timeout=10)
        await ann.close()
        return seen

    seen = run_async(run())
    assert seen["code"] == code and [s["name"] for s in seen["seats"]][:2] == ["Ann", "Bob"]



async def answers(seat: Seat, ref: object) -> list[dict[str, Any]]:
    """The seat's messages up to the answer (``ok`` or ``error``) to its command with id ``ref``."""
    got = [await seat.recv(timeout=15)]
    while got[-1]["type"] == "update" or got[-1].get("id") != ref:
        got.append(await seat.recv(timeout=15))
    return got


def test_a_database_locked_by_another_program_stalls_no_other_table(tmp_path: Path) -> None:
    """While another program holds the SQLite file's write lock (an admin's shell in a transaction, a
    backup), a move sent over the WebSocket waits for it off the event loop: the probe and another
    table still answer meanwhile, and the move lands once, answered, when the lock is let go. Held
    past the store's wait, the move is refused with a 503, nothing done, and can be sent again."""
    path = tmp_path / "spades.sqlite3"
    with BackgroundServer(path) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        store = app_state(server).tables.log.store
        ann_table, bea_table = open_table(client, "Ann"), open_table(client, "Bea")
        code = ann_table["code"]
        sent: list[str] = []

        async def ann_to_move(ann: Seat, after: int = -1) -> tuple[str, int]:
            """Ann's next move (once the table is past version ``after``) and its version."""
            t = await ann.until(lambda t: t["game"]["phase"] in ACTIVE and t["game"]["turn"] == t["you"]
                                and t["game"]["version"] > after)
            sent.append(simple_move(t["game"]))
            return sent[-1], t["game"]["version"]

        async def others_answer(bea: Seat) -> None:
            async with httpx.AsyncClient(base_url=server.url, timeout=5) as probe:
                for n in range(3):
                    assert (await probe.get("/healthz")).status_code == 200
                    await bea.send({"do": "sync", "id": n})
                    assert (await answers(bea, n))[-1] == {"type": "ok", "id": n}

        async def run() -> None:
            ann = Seat(server.url, code, ann_table["token"])
            bea = Seat(server.url, bea_table["code"], bea_table["token"])
            await start_game([ann])
            await bea.connect()
            await bea.until(lambda t: bool(t))
            other = sqlite3.connect(path, isolation_level=None)

            move, version = await ann_to_move(ann)
            other.execute("BEGIN IMMEDIATE")
            await ann.send({"do": "move", "move": move, "version": version, "id": "held"})
            await others_answer(bea)
            with pytest.raises(TimeoutError):  # no answer while the lock is held...
                await ann.recv(timeout=0.3)
            other.execute("ROLLBACK")
            got = await answers(ann, "held")  # ...and the move's once it is let go
            assert got[-1] == {"type": "ok", "id": "held"} and all(m["type"] == "update" for m in got[:-1])

            move, version = await ann_to_move(ann, version)
            store.busy_timeout = 0.5
            other.execute("BEGIN IMMEDIATE")
            await ann.send({"do": "move", "move": move, "version": version, "id": "too long"})
            await others_answer(bea)
            refused = (await answers(ann, "too long"))[-1]
            assert refused["status"] == 503 and "locked" in refused["detail"], refused
            other.execute("ROLLBACK")
            await ann.send({"do": "move", "move": move, "version": version, "id": "again"})
            assert (await answers(ann, "again"))[-1] == {"type": "ok", "id": "again"}
            other.close()
            await ann.close()
            await bea.close()

        run_async(run())
        entries = [entry_json(e) for e in app_state(server).tables.log.load(code)[1]]
        assert [e["m"] for e in entries if e["k"] == "move" and e["seat"] == 0] == sent


def test_a_page_connecting_again_writes_nothing_and_the_last_to_go_marks_the_seat_away(
        server: BackgroundServer, client: httpx.Client) -> None:
    """A seat's pages (a reload, a second tab) connect without writing an entry, and one of two going
    writes none either; the last one going marks the seat away, and the next connection is its return."""
    host = open_table(client, "Ann")
    code, token = host["code"], host["token"]
    live, log = app_state(server).live, app_state(server).tables.log

    def kinds() -> list[str]:
        return [e.kind for e in log.load(code)[1]]

    async def until(test: Any) -> None:
        for _ in range(300):
            if test():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("not reached in 15 s")

    async def run() -> None:
        first, second = Seat(server.url, code, token), Seat(server.url, code, token)
        for page in (first, second):
            await page.connect()
            await page.until(lambda t: bool(t))
        assert kinds() == ["join"]
        await first.close()
        await until(lambda: live._here[code, token] == 1)  # the server has seen it go
        assert kinds() == ["join"]
        await second.close()
        await until(lambda: kinds() == ["join", "away"])
        again = Seat(server.url, code, token)
        await again.connect()
        await again.until(lambda t: bool(t) and not t["seats"][0]["away"])
        assert kinds() == ["join", "away", "back"]
        await again.close()

    run_async(run())


def test_a_return_the_locked_database_cannot_store_is_refused_with_a_503(tmp_path: Path) -> None:
    """A page whose hello must be stored (its seat was away) while another program holds the SQLite file
    past the store's wait is told so (503) and closed, and the seat stays away; once free, it is back."""
    path = tmp_path / "spades.sqlite3"
    with BackgroundServer(path) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        host = open_table(client, "Ann")
        code, token = host["code"], host["token"]
        log = app_state(server).tables.log

        async def run() -> None:
            ann = Seat(server.url, code, token)
            await ann.connect()
            await ann.until(lambda t: bool(t))
            await ann.close()
            for _ in range(300):
                if log.load(code)[1][-1].kind == "away":
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the seat was not marked away")
            log.store.busy_timeout = 0.3
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            refused = Seat(server.url, code, token)
            await refused.connect()
            msg = await refused.recv()
            assert msg["type"] == "error" and msg["status"] == 503 and "locked" in msg["detail"], msg
            assert refused.ws is not None
            await refused.ws.wait_closed()
            assert refused.ws.close_code == 4503
            other.execute("ROLLBACK")
            other.close()
            assert log.load(code)[1][-1].kind == "away"
            back = Seat(server.url, code, token)
            await back.connect()
            await back.until(lambda t: bool(t) and not t["seats"][0]["away"])
            await back.close()

        run_async(run())
