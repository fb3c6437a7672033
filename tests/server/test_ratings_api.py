"""Rated friends' tables over the real server: a game's end moves every rating once, in the right
direction; a person who left takes a loss; the profiles, the caller's own ratings and the leaderboard;
and what is refused, with a reason."""

from __future__ import annotations

from typing import Any

import httpx

from server.api_client import Player, simple_move
from server.conftest import query
from server.tables_client import Seat, app_state, close_at, play_game, run_async, start_game
from spades.ratings import PROVISIONAL_GAMES
from spades.server.run import BackgroundServer
from spades.server.tables.state import hash_token

QUICK = {"preset": "standard", "options": {"target": 10, "low_mark": -10}, "level": "easy", "rated": True}
"""Rated rules whose game ends after a hand or two."""


def player(client: httpx.Client) -> dict[str, str]:
    """A new anonymous player's headers."""
    r = client.post("/api/players")
    assert r.status_code == 201, r.text
    return {"X-Player-Token": r.json()["token"]}


def own(client: httpx.Client, headers: dict[str, str]) -> dict[str, Any]:
    """The player's own ratings and rated games."""
    r = client.get("/api/ratings", headers=headers)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def sit(client: httpx.Client, code: str, name: str, headers: dict[str, str], seat: int) -> str:
    """Take a seat at the table; its token."""
    r = client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat}, headers=headers)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def test_a_rated_table_moves_every_rating_once_in_the_right_direction(
        server: BackgroundServer, client: httpx.Client) -> None:
    app_state(server).live.burst = 10**6  # these people move far faster than people do
    people = [player(client) for _ in range(4)]
    r = client.post("/api/tables", json={"name": "Ann", **QUICK}, headers=people[0])
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    tokens += [sit(client, code, name, people[i], i) for i, name in enumerate(("Bob", "Cy", "Dee"), 1)]
    assert client.get(f"/api/tables/{code}").json()["rated"] == "standard"
    fresh = own(client, people[0])
    assert fresh == {**fresh, "name": None, "computer": False, "ratings": [], "history": [], "recent": []}

    async def game() -> dict[str, Any]:
        seats = [Seat(server.url, code, t) for t in tokens]
        await start_game(seats)
        await play_game(seats)
        await seats[0].send({"do": "chat", "text": "gg"})  # an entry after the end rates nothing again
        await seats[0].until(lambda t: bool(t["chat"]))
        await close_at(seats, "game_over")
        return seats[0].table

    end = run_async(game())
    winner = end["game"]["winner"]
    sides = {s["seat"]: s["side"] for s in end["seats"]}
    for seat, headers in enumerate(people):
        mine = own(client, headers)
        [rating] = mine["ratings"]
        [rated] = mine["history"]
        won = sides[seat] == winner
        assert rating["rules"] == "standard" and rating["games"] == 1 and rating["provisional"]
        assert (rating["rating"] > 1500) is won and (rating["rating"] < 1500) is not won
        assert rated == {**rated, "game": f"table {code} 1", "won": won, "place": 0 if won else 1,
                         "before": 1500, "after": rating["rating"]}
        assert rating["uncertainty"] < 350
    assert client.get("/api/profiles/easy").json()["ratings"] == []  # no computer played: not rated


def test_a_person_who_leaves_takes_a_loss_and_the_computer_level_is_rated(
        server: BackgroundServer, client: httpx.Client) -> None:
    app_state(server).live.burst = 10**6
    ann, bob = player(client), player(client)
    r = client.post("/api/tables", json={"name": "Ann", **QUICK}, headers=ann)
    code, host = r.json()["code"], r.json()["token"]
    partner = sit(client, code, "Bob", bob, 2)  # Ann's partner, who leaves: their side's result is not his

    async def game() -> dict[str, Any]:
        seats = [Seat(server.url, code, t) for t in (host, partner)]
        await start_game(seats)
        await seats[1].send({"do": "leave"})
        await seats[0].until(lambda t: t["seats"][2]["bot"])
        await seats[1].close()
        await play_game(seats[:1])
        await close_at(seats[:1], "game_over")
        return seats[0].table

    end = run_async(game())
    ann_won = end["game"]["winner"] == 0
    [ann_rating], [bob_rating] = own(client, ann)["ratings"], own(client, bob)["ratings"]
    assert (ann_rating["rating"] > 1500) is ann_won
    assert bob_rating["rating"] < 1500 and own(client, bob)["history"][0]["place"] == 2
    easy = client.get("/api/profiles/easy").json()
    assert easy["computer"] and easy["name"] == "easy" and easy["ratings"][0]["games"] == 1
    assert (easy["ratings"][0]["rating"] < 1500) is ann_won

    async def rematch() -> None:
        seat = Seat(server.url, code, host)
        await seat.connect()
        await seat.until(lambda t: bool(t) and t["game"]["phase"] == "game_over")
        await seat.send({"do": "rematch"})
        await seat.until(lambda t: t["game"]["phase"] != "game_over")
        await play_game([seat])
        await close_at([seat], "game_over")

    run_async(rematch())  # Bob, gone before it was dealt, is not in the second game: the level plays
    assert own(client, ann)["ratings"][0]["games"] == 2 and own(client, bob)["ratings"][0]["games"] == 1
    assert client.get("/api/profiles/easy").json()["ratings"][0]["games"] == 2


def test_what_a_rated_table_refuses_says_why(client: httpx.Client) -> None:
    ann, bob = player(client), player(client)
    r = client.post("/api/tables", json={"name": "Ann", **QUICK, "preset": "three-player"}, headers=ann)
    assert r.status_code == 400 and "cannot be rated" in r.json()["detail"]
    r = client.post("/api/tables", json={"name": "Ann", **QUICK, "options": {"blind_nil": True}}, headers=ann)
    assert r.status_code == 400 and "blind_nil" in r.json()["detail"]
    r = client.post("/api/tables", json={"name": "Ann", **QUICK})
    assert r.status_code == 403 and "seats players" in r.json()["detail"]
    opened = client.post("/api/tables", json={"name": "Ann", **QUICK}, headers=ann).json()
    code = opened["code"]
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Cy"})
    assert r.status_code == 403 and "seats players" in r.json()["detail"]
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Ann again"}, headers=ann)
    assert r.status_code == 409 and "already have a seat" in r.json()["detail"]
    sit(client, code, "Bob", bob, 1)
    host = {"X-Seat-Token": opened["token"]}
    r = client.post(f"/api/tables/{code}/commands", json={"do": "start"}, headers=host)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Cy"}, headers=player(client))
    assert r.status_code == 409 and "under way" in r.json()["detail"]
    unrated = {"name": "Ann", **QUICK, "rated": False, "preset": "three-player"}
    assert client.post("/api/tables", json=unrated).status_code == 201  # as before ratings
    r = client.get("/api/leaderboard", params={"rules": "three-player"})
    assert r.status_code == 404 and "standard, cutthroat" in r.json()["detail"]
    r = client.get("/api/profiles/nobody-at-all")
    assert r.status_code == 404 and "No player is named" in r.json()["detail"]
    assert client.get("/api/ratings").status_code == 422
    board = client.get("/api/leaderboard", params={"rules": "cutthroat"}).json()
    assert board == {"rules": "cutthroat", "rated_rules": ["standard", "cutthroat"], "leaders": [],
                     "you": None}


def play_rated(person: Player) -> dict[str, Any]:
    """A rated solo game played to its end; its last state."""
    state = person.new_game(rated=True)
    while state["phase"] != "game_over":
        hand_over = state["phase"] == "hand_over"
        state = (person.next_hand(state) if hand_over else person.move(state, simple_move(state)))["state"]
    return state


def test_the_leaderboard_names_accounts_only_and_a_deleted_account_takes_its_ratings_away(
        database: str, client: httpx.Client) -> None:
    ann, bob = (Player(client, level="easy", rules={"preset": "standard", "options": QUICK["options"]})
                for _ in range(2))
    assert client.post("/api/account", json={"name": "Annie"}, headers=ann.headers).status_code == 201
    def standing(person: Player) -> Any:
        """The person's own standing as the standard leaderboard shows it to them."""
        return client.get("/api/leaderboard", params={"rules": "standard", "limit": 2},
                          headers=person.headers).json()["you"]

    assert standing(ann) is None  # no rated game yet
    for n in range(1, PROVISIONAL_GAMES + 1):
        play_rated(ann)
        play_rated(bob)  # rated too, but with no account: no name to list
        if n == 1:  # shown to herself while provisional, with the games still to play
            you = standing(ann)
            assert (you["name"], you["rank"], you["provisional"], you["games"], you["to_list"]) == (
                "Annie", None, True, 1, PROVISIONAL_GAMES - 1)
    assert own(client, ann.headers)["name"] == "Annie" and own(client, bob.headers)["name"] is None
    board = client.get("/api/leaderboard", params={"rules": "standard", "limit": 2},
                       headers=ann.headers).json()
    leaders = board["leaders"]
    assert {(x["name"], x["computer"]) for x in leaders} == {("Annie", False), ("easy", True)}
    assert [x["rank"] for x in leaders] == [1, 2] and leaders[0]["rating"] >= leaders[1]["rating"]
    [annie] = [x for x in leaders if x["name"] == "Annie"]
    assert board["you"] == {"rules": "standard", "rating": annie["rating"],
                            "uncertainty": annie["uncertainty"], "games": PROVISIONAL_GAMES,
                            "provisional": False, "name": "Annie", "rank": annie["rank"], "to_list": 0}
    you = standing(bob)  # past the provisional games, but unnamed: not listed
    assert (you["name"], you["rank"], you["provisional"], you["to_list"]) == (None, None, False, 0)
    assert client.delete("/api/account", headers=ann.headers).status_code == 204
    assert [x["name"] for x in client.get("/api/leaderboard").json()["leaders"]] == ["easy"]
    me = hash_token(ann.headers["X-Player-Token"])
    for table in ("ratings", "rating_changes"):  # erased: the rating was the person's
        assert query(database, f"SELECT count(*) FROM {table} WHERE player = ?", (me,)) == [(0,)]
    assert own(client, bob.headers)["ratings"][0]["games"] == PROVISIONAL_GAMES  # the others' stay
    assert client.get("/api/profiles/easy").json()["ratings"][0]["games"] == 2 * PROVISIONAL_GAMES


def test_a_rated_solo_game_keeps_its_deal_secret_and_is_rated_once_at_its_end(client: httpx.Client) -> None:
    person = Player(client, level="easy", rules={"preset": "standard", "options": QUICK["options"]})
    state = person.new_game(rated=True)
    assert state["deal"] == 0
    r = client.post(f"/api/games/{state['id']}/restart", headers=person.headers)
    assert r.status_code == 400 and "cannot be restarted" in r.json()["detail"]
    while state["phase"] != "game_over":
        assert state["deal"] == 0 and own(client, person.headers)["ratings"] == []
        hand_over = state["phase"] == "hand_over"
        state = (person.next_hand(state) if hand_over else person.move(state, simple_move(state)))["state"]
    assert state["deal"] > 0  # told once the game is over
    won = state["winner"] == 0
    mine = own(client, person.headers)
    [rating] = mine["ratings"]
    assert rating["games"] == 1 and (rating["rating"] > 1500) is won
    assert mine["history"][0]["game"] == f"game {state['id']}" and mine["history"][0]["won"] is won
    assert mine["history"][0]["page"] == f"/games/{state['id']}"
    easy = client.get("/api/profiles/easy").json()["ratings"][0]
    assert easy["games"] == 1  # on both sides: moved by the mean of its sides' changes


def test_a_rated_solo_game_abandoned_for_a_new_one_is_rated_as_a_loss(client: httpx.Client) -> None:
    person = Player(client, level="easy")
    abandoned = person.new_game(rated=True)
    person.move(abandoned, simple_move(abandoned))
    person.new_game()  # an unrated game replaces it: the rated one is lost
    person.new_game()  # and the next replaces an unrated game: nothing more
    [rating] = own(client, person.headers)["ratings"]
    [lost] = own(client, person.headers)["history"]
    assert rating["games"] == 1 and rating["rating"] < 1500
    assert lost == {**lost, "game": f"game {abandoned['id']}", "won": False, "place": 1}
    r = client.post(f"/api/games/{abandoned['id']}/moves", json={"move": "bid 3", "version": 1},
                    headers=person.headers)
    assert r.status_code == 409 and "replaced" in r.json()["detail"]


def test_a_solo_game_is_rated_only_with_a_secret_deal_and_rated_rules(client: httpx.Client) -> None:
    person = Player(client, rules={"preset": "standard", "options": {"blind_nil": True}})
    r = client.post("/api/games", json={"rated": True}, headers=person.headers)
    assert r.status_code == 400 and "blind_nil" in r.json()["detail"]
    for asked in ({"deal": 5}, {"daily": "2026-12-05"}):
        r = client.post("/api/games", json={"rated": True, **asked}, headers=person.headers)
        assert r.status_code == 400 and "secret" in r.json()["detail"]
    assert own(client, person.headers)["ratings"] == []
