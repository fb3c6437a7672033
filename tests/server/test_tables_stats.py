"""A friends' table's games count in each linked person's stats on the server, once each."""

from __future__ import annotations

from typing import Any

import httpx

from server.tables_client import Seat, app_state, close_at, play_game, run_async, start_game
from spades.server.run import BackgroundServer

QUICK = {"preset": "standard", "options": {"target": 10, "low_mark": -10}, "level": "easy"}
"""Rules whose game ends after a hand or two."""


def player(client: httpx.Client) -> dict[str, str]:
    """A new anonymous player's headers."""
    r = client.post("/api/players")
    assert r.status_code == 201, r.text
    return {"X-Player-Token": r.json()["token"]}


def stats(client: httpx.Client, headers: dict[str, str]) -> dict[str, Any]:
    """The player's stats."""
    r = client.get("/api/stats", headers=headers)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_friends_game_counts_for_each_linked_person_once(
        server: BackgroundServer, client: httpx.Client) -> None:
    app_state(server).live.burst = 10**6  # these people move far faster than people do
    ann, bob = player(client), player(client)
    r = client.post("/api/tables", json={"name": "Ann", **QUICK}, headers=ann)
    assert r.status_code == 201, r.text
    host = r.json()
    code = host["code"]
    joined = client.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 1}, headers=bob).json()
    cy = client.post(f"/api/tables/{code}/seats", json={"name": "Cy"}).json()  # no player token: not counted
    assert (host["seat"], joined["seat"]) == (0, 1)  # opponents: one side wins, the other loses

    async def first_game() -> list[dict[str, Any]]:
        seats = [Seat(server.url, code, t) for t in (host["token"], joined["token"], cy["token"])]
        await start_game(seats)
        await play_game(seats)
        await close_at(seats, "game_over")
        return [s.table for s in seats]

    ends = run_async(first_game())
    game = ends[0]["game"]
    side = {s["seat"]: s["side"] for s in ends[0]["seats"]}
    for headers, seat in ((ann, 0), (bob, 1)):
        won = game["winner"] == side[seat]
        s = stats(client, headers)
        assert s["played"] == s["friends"]["played"] == 1 and s["alone"]["played"] == 0
        assert s["won"] == s["friends"]["won"] == int(won) and s["streak"] == int(won)
        assert s["best_score"] == next(x["score"] for x in game["sides"] if x["side"] == side[seat])
    assert {stats(client, ann)["won"], stats(client, bob)["won"]} == {0, 1}  # the losing side shows it lost

    async def reload_and_rematch() -> dict[str, Any]:
        again = Seat(server.url, code, host["token"])
        await again.connect()  # a reload: the finished game is shown again
        await again.until(lambda t: bool(t) and t["game"]["phase"] == "game_over")
        await again.send({"do": "rematch"})
        table = await again.until(lambda t: t["game"]["phase"] != "game_over")
        await again.close()
        return table

    assert run_async(reload_and_rematch())["past_deals"] == [ends[0]["deal"]]
    assert stats(client, ann)["played"] == stats(client, bob)["played"] == 1  # counted once, not again


def test_a_player_token_that_is_forged_or_unknown_is_refused(client: httpx.Client) -> None:
    code = client.post("/api/tables", json={"name": "Ann"}).json()["code"]
    before = client.get(f"/api/tables/{code}").json()
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Bob"}, headers={"X-Player-Token": "A" * 32})
    assert r.status_code == 401 and "not known" in r.json()["detail"]
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Bob"}, headers={"X-Player-Token": "no good!"})
    assert r.status_code == 400 and "malformed" in r.json()["detail"]
    r = client.post("/api/tables", json={"name": "Bob"}, headers={"X-Player-Token": "B" * 32})
    assert r.status_code == 401
    assert client.get(f"/api/tables/{code}").json() == before
