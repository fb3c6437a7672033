"""Finished games open to all: the replay and record of a solo game and of a friends' table's games, the
downloads that ``spades replay`` reads, and nothing of a game still being played."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.api_client import Player, cards_in, simple_move
from server.tables_client import Seat, app_state, close_at, play_game, run_async, start_game
from spades.cli import main
from spades.ratings import PROVISIONAL_GAMES
from spades.record import load_record, replay
from spades.server.run import BackgroundServer

QUICK = {"preset": "standard", "options": {"target": 10, "low_mark": -10}}
"""Rules whose game ends after a hand or two."""


def play_to_end(p: Player, state: dict[str, Any]) -> dict[str, Any]:
    """Play the person's moves (and deal each next hand) until the game is over."""
    while state["phase"] != "game_over":
        if state["phase"] == "hand_over":
            state = p.next_hand(state)["state"]
        else:
            state = p.move(state, simple_move(state))["state"]
    return state


def test_a_finished_solo_game_replays_and_downloads(client: httpx.Client, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    p = Player(client, rules=QUICK)
    state = p.new_game()
    ref = str(state["id"])
    while state["phase"] != "game_over":  # at every point of the game, nothing of it is shown
        for path in (f"/api/replays/{ref}", f"/api/records/{ref}"):
            r = client.get(path)
            assert r.status_code == 409 and "not over" in r.json()["detail"] and not cards_in(r.json())
        state = p.next_hand(state)["state"] if state["phase"] == "hand_over" else \
            p.move(state, simple_move(state))["state"]
    end = state

    out = client.get(f"/api/replays/{ref}").json()
    assert out["ref"] == ref and out["table"] is None and out["record"] == f"/api/records/{ref}"
    def totals(sheet: list[list[dict[str, Any]]]) -> list[list[int]]:
        return [[row["total"] for row in line] for line in sheet]
    assert out["game"]["winner"] == end["winner"] and totals(out["game"]["sheet"]) == totals(end["sheet"])
    assert [s["name"] for s in out["game"]["seats"]] == ["Computer (North)", "Computer (East)", "Player",
                                                          "Computer (West)"]
    assert len(out["hands"]) == len(end["sheet"]) >= 1
    for hand in out["hands"]:  # every hand face up: 52 cards dealt, 13 tricks, a bid each
        assert sorted(c for seat in hand["dealt"] for c in seat) == sorted(cards_in(hand["dealt"]))
        assert len(cards_in(hand["dealt"])) == 52 and len(hand["tricks"]) == 13
        assert all(b is not None for b in hand["bids"])

    r = client.get(f"/api/records/{ref}")
    assert r.headers["content-disposition"] == f'attachment; filename="spades-game-{ref}.json"'
    game = replay(load_record(r.text))
    assert game.scores == [s["score"] for s in sorted(end["sides"], key=lambda s: s["side"])]
    one = tmp_path / "one.json"
    one.write_bytes(r.content)
    assert main(["replay", str(one)]) == 0 and "game over" in capsys.readouterr().out

    p.new_game()  # a second game, left unfinished: not among the records
    mine = client.get("/api/records", headers=p.headers)
    assert mine.status_code == 200 and [load_record(x) for x in mine.json()] == [load_record(r.text)]
    every = tmp_path / "all.json"
    every.write_bytes(mine.content)
    assert main(["replay", str(every)]) == 0


@pytest.mark.parametrize(("ref", "status"), [("999999", 404), ("ABCDEF-1", 404), ("ABCDE1-1", 404),
                                             ("0", 422), ("12-1", 422), ("x" * 30, 422)])
def test_no_such_game_is_a_clear_error(client: httpx.Client, ref: str, status: int) -> None:
    for path in (f"/api/replays/{ref}", f"/api/records/{ref}"):
        r = client.get(path)
        assert r.status_code == status and r.json()["detail"], r.text


def test_a_game_left_unfinished_stays_hidden(client: httpx.Client) -> None:
    p = Player(client)
    first = p.new_game()
    p.move(first, simple_move(first))
    p.new_game()  # the first is abandoned, never finished
    r = client.get(f"/api/replays/{first['id']}")
    assert r.status_code == 409 and "left unfinished" in r.json()["detail"] and not cards_in(r.json())


def test_a_friends_tables_games_replay_by_number(server: BackgroundServer, client: httpx.Client) -> None:
    app_state(server).live.burst = 10**6  # these people move far faster than people do
    ann = Player(client)
    r = client.post("/api/tables", json={"name": "Ann", **QUICK, "level": "easy"}, headers=ann.headers)
    host = r.json()
    code = host["code"]
    bob = client.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 1}).json()
    r = client.get(f"/api/replays/{code}-1")
    assert r.status_code == 404 and "no game 1" in r.json()["detail"]

    async def first_game_then_rematch() -> dict[str, Any]:
        seats = [Seat(server.url, code, t) for t in (host["token"], bob["token"])]
        await start_game(seats)
        await play_game(seats)
        await close_at(seats, "game_over")
        end = seats[0].table
        again = Seat(server.url, code, host["token"])
        await again.connect()
        await again.until(lambda t: bool(t) and t["game"]["phase"] == "game_over")
        await again.send({"do": "rematch"})
        await again.until(lambda t: t["game"]["phase"] != "game_over")
        await again.close()
        return end

    end = run_async(first_game_then_rematch())
    out = client.get(f"/api/replays/{code.lower()}-1").json()
    assert out["ref"] == f"{code}-1" and out["table"] == code
    assert [s["name"] for s in out["game"]["seats"]] == ["Ann", "Bob", "Computer (South)", "Computer (West)"]
    assert out["game"]["winner"] == end["game"]["winner"]
    assert len(out["hands"]) == len(end["game"]["sheet"])
    record = client.get(f"/api/records/{code}-1").json()
    assert replay(load_record(record)).winner == end["game"]["winner"]
    assert record["deal"] == end["deal"]

    r = client.get(f"/api/replays/{code}-2")  # the rematch is being played: its cards stay hidden
    assert r.status_code == 409 and not cards_in(r.json())
    assert client.get(f"/api/records/{code}-3").status_code == 404
    mine = client.get("/api/records", headers=ann.headers).json()
    assert [json.dumps(x, sort_keys=True) for x in mine] == [json.dumps(record, sort_keys=True)]

    assert client.post("/api/account", json={"name": "Annie"}, headers=ann.headers).status_code == 201
    assert client.delete("/api/account", headers=ann.headers).status_code == 204
    names = [s["name"] for s in client.get(f"/api/replays/{code}-1").json()["game"]["seats"]]
    assert names == ["deleted player", "Bob", "Computer (South)", "Computer (West)"]  # her name erased


def test_a_persons_figures_count_their_finished_games(server: BackgroundServer, client: httpx.Client) -> None:
    p = Player(client, rules=QUICK)
    before = p.call("GET", "/api/ratings")
    assert before["stats"]["games"] == 0 and before["recent"] == [] and before["stats"]["coach"] == []
    end = play_to_end(p, p.new_game())
    ref = str(end["id"])
    hands = client.get(f"/api/replays/{ref}").json()["hands"]
    # worked out from the bids and tricks as a person would: South and North are side 0
    contracts = made = nils = nils_made = 0
    for h in hands:
        won = [sum(t["winner"] == s for t in h["tricks"]) for s in range(4)]
        bid = [0 if b in ("nil", "blind nil") else int(b) for b in (h["bids"][0], h["bids"][2])]
        if sum(bid):
            contracts += 1
            made += won[0] * (bid[0] > 0) + won[2] * (bid[1] > 0) >= sum(bid)
        nils += h["bids"][2] in ("nil", "blind nil")
        nils_made += h["bids"][2] in ("nil", "blind nil") and won[2] == 0
    bags = sum(row["bags"] for line in end["sheet"] for row in line if row["side"] == 0)

    review = {"hand": 0, "seat": 2, "mistakes": 1, "points_lost": 30.0, "decisions": []}
    assert server.app is not None
    server.app.state.service.store.save_review(subject=f"game {ref}", hand=0, review=json.dumps(review))
    out = p.call("GET", "/api/ratings")
    stats = out["stats"]
    assert (stats["games"], stats["hands"]) == (1, len(hands))
    assert (stats["contracts"], stats["made"], stats["sets"]) == (contracts, made, contracts - made)
    assert (stats["nils"], stats["nils_made"]) == (nils, nils_made)
    assert stats["bags_per_hand"] == round(bags / len(hands), 2)
    assert [(c["ref"], c["hands"], c["per_hand"]) for c in stats["coach"]] == [(ref, 1, 30.0)]
    assert [(g["ref"], g["won"], g["friends"]) for g in out["recent"]] == [
        (ref, end["winner"] == end["human_side"], False)]


def test_the_pages_of_a_player_who_is_not_there_and_of_one_who_is(client: httpx.Client) -> None:
    r = client.get("/@nobody")
    assert r.status_code == 404 and "No player is named &#x27;nobody&#x27;." in r.text
    assert r.headers["content-type"].startswith("text/html")
    r = client.get("/@%3Cb%3E")
    assert r.status_code == 404 and "<b>" not in r.text  # what was asked is shown, never run
    assert client.get("/@expert").status_code == 200 and client.get("/leaderboard").status_code == 200


def test_a_daily_deal_is_shown_once_its_day_is_over_everywhere(client: httpx.Client) -> None:
    p = Player(client, rules=QUICK)
    today = datetime.now(UTC).date()
    for day, status in ((today, 409), (today - timedelta(days=1), 409), (today - timedelta(days=2), 200)):
        end = play_to_end(p, p.new_game(daily=day.isoformat()))
        r = client.get(f"/api/replays/{end['id']}")
        assert r.status_code == status, day
        if status == 409:
            assert f"daily deal of {day.isoformat()}" in r.json()["detail"] and not cards_in(r.json())


def test_a_named_persons_profile_leaderboard_place_and_games_and_after_deletion(client: httpx.Client) -> None:
    ann = Player(client, level="easy", rules=QUICK)
    assert client.post("/api/account", json={"name": "Ann"}, headers=ann.headers).status_code == 201
    for _ in range(PROVISIONAL_GAMES):
        end = play_to_end(ann, ann.new_game(rated=True))
    ref = str(end["id"])
    profile = client.get("/api/profiles/ＡＮＮ").json()  # a look-alike of the name finds it
    assert profile["name"] == "Ann" and not profile["computer"]
    assert profile["ratings"][0]["games"] == PROVISIONAL_GAMES and not profile["ratings"][0]["provisional"]
    assert profile["stats"]["games"] == PROVISIONAL_GAMES and profile["recent"][0]["ref"] == ref
    assert profile == {**client.get("/api/ratings", headers=ann.headers).json(), "name": "Ann"}
    board = client.get("/api/leaderboard").json()["leaders"]
    assert {(x["name"], x["computer"]) for x in board} == {("Ann", False), ("easy", True)}
    seats = client.get(f"/api/replays/{ref}").json()["game"]["seats"]
    assert seats[2]["name"] == "Ann"
    assert client.get("/@ann").status_code == 200

    assert client.delete("/api/account", headers=ann.headers).status_code == 204
    assert client.get("/api/profiles/Ann").status_code == 404 and client.get("/@Ann").status_code == 404
    assert [x["name"] for x in client.get("/api/leaderboard").json()["leaders"]] == ["easy"]
    seats = client.get(f"/api/replays/{ref}").json()["game"]["seats"]  # the game is kept, its person unnamed
    assert seats[2]["name"] == "deleted player"


@pytest.mark.parametrize("name", ["a%00b", "%F0%9F%82%A1", "x" * 64, "Computer%20(North)"])
def test_a_name_no_one_can_have_is_a_404(client: httpx.Client, name: str) -> None:
    assert client.get(f"/api/profiles/{name}").status_code == 404
    assert client.get(f"/@{name}").status_code == 404
