"""After a hosted tournament its boards open as solo games with the hands the tables held: the board's
dealer deals (``board``), not East, so South holds the board's South hand; and under the tournament's rules
when its code is given."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.test_tournaments import held, played_by_computers
from spades.cards import cards_of
from spades.game import Game
from spades.rules import Rules
from spades.server.run import BackgroundServer

_SOUTH = 2


def test_a_finished_tournaments_board_opens_as_a_solo_game_with_its_hands(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "spades.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        code, over = played_by_computers(client, options={"target": 200, "nil_value": 50})
        line = over["results"]["travellers"][0]["lines"][0]
        deal = over["results"]["travellers"][0]["deal"]
        player = {"X-Player-Token": client.post("/api/players").json()["token"]}
        solo = client.post("/api/games", json={"deal": deal, "board": True}, headers=player)
        assert solo.status_code == 201, solo.text
        again = client.post("/api/games", json={"deal": deal, "board": True, "resume": True}, headers=player)
        plain = client.post("/api/games", json={"deal": deal}, headers=player).json()["state"]
        restarted = client.post(f"/api/games/{plain['id']}/restart", headers=player).json()["state"]
        asked_as_board = client.post("/api/games", json={"deal": deal, "board": True, "resume": True},
                                     headers=player).json()["state"]
        refused = [client.post("/api/games", json=body, headers=player)
                   for body in ({"deal": deal, "board": True, "tournament": "ZZZZZZ"},
                                {"board": True, "tournament": code}, {"deal": deal, "tournament": code})]
        unchanged = client.get("/api/games/current", headers=player).json()
        theirs = client.post("/api/games", json={"deal": deal, "board": True, "resume": True,
                                                 "tournament": code.lower()}, headers=player).json()["state"]
        resumed = client.post("/api/games", json={"deal": deal, "board": True, "resume": True,
                                                  "tournament": code}, headers=player).json()["state"]
    state = solo.json()["state"]
    board = Game(Rules(), deal)  # the engine's board: its first dealer drawn from the deal number
    assert [{str(c) for c in cards_of(mask)} for mask in board.hand.dealt] == held(line)  # the tables'
    assert state["dealer"] == board.dealer and set(state["hand"]) == held(line)[_SOUTH]
    assert again.json()["state"]["id"] == state["id"]  # resumed: the same game
    assert plain["dealer"] == 1 and restarted["dealer"] == 1  # a numbered deal: East deals, as before
    assert asked_as_board["id"] != restarted["id"] and asked_as_board["dealer"] == board.dealer
    assert [r.status_code for r in refused] == [404, 400, 400] and unchanged == asked_as_board
    assert "ZZZZZZ" in refused[0].json()["detail"] and "deal number" in refused[1].json()["detail"]
    assert asked_as_board["target"] == 500 and theirs["target"] == 200 and theirs["rules"]["nil_value"] == 50
    assert theirs["id"] != asked_as_board["id"] and set(theirs["hand"]) == held(line)[_SOUTH]
    assert resumed["id"] == theirs["id"]  # the same board under the same rules: resumed
