"""Two server processes on PostgreSQL and Redis: the process a rated game's last move is sent to is
killed (kill -9) as the game ends (before it stored the move, or after), and every rating still changes
exactly once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx

from server.api_client import simple_move
from server.conftest import query
from server.pgcluster import Cluster
from server.processes import Served, redis_server

RATED = {"preset": "standard", "options": {"target": 10, "low_mark": -10}, "level": "easy", "rated": True}
KILL_AFTER = (0.0, 0.5)
"""Seconds from sending a hand's last card to the kill: at once (the move is mostly lost, and sent again
to the other process), then once it has surely been answered (stored, and perhaps not yet announced)."""
GAMES = 2


def view(base: str, code: str, token: str) -> dict[str, Any]:
    """The table as a seat sees it, from one process."""
    r = httpx.get(f"{base}/api/tables/{code}/view", headers={"X-Seat-Token": token}, timeout=30)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def ends_the_hand(game: dict[str, Any]) -> bool:
    """Whether the move to make now is the hand's last card (which may end the game)."""
    return game["phase"] == "play" and len(game["trick"]) == game["players"] - 1 and len(game["hand"]) == 1


def test_a_process_killed_as_a_rated_game_ends_leaves_each_rating_changed_once(
        tmp_path: Path, pg_cluster: Cluster) -> None:
    database = pg_cluster.database()
    with redis_server(tmp_path / "redis") as redis_url, Served(database, redis_url=redis_url) as b:
        doomed = [Served(database, redis_url=redis_url)]
        try:
            code, people, tokens, kills = _open(b, doomed[0])
            for number in range(1, GAMES + 1):
                game, kills = _play_killing_at_hands_ends(database, redis_url, b, doomed, code, tokens, kills)
                sides = {s["seat"]: s["side"] for s in view(b.url, code, tokens[0])["seats"]}
                for seat, token in enumerate(people):
                    mine = httpx.get(f"{b.url}/api/ratings", headers={"X-Player-Token": token}).json()
                    [rating], rated = mine["ratings"], mine["history"]
                    assert rating["games"] == len(rated) == number
                    assert rated[-1]["won"] is (sides[seat] == game["winner"])
                    assert rated[-1]["after"] == rating["rating"]
                assert _post(b.url, code, tokens[0], {"do": "rematch"}) == 200
        finally:
            doomed[0].stop()
        assert kills >= GAMES
    for number in range(1, GAMES + 1):
        game_ref = f"table {code} {number}"
        assert query(database, "SELECT count(*) FROM rating_changes WHERE game = ?", (game_ref,)) == [(4,)]
    assert query(database, "SELECT sum(games) FROM ratings") == [(4 * GAMES,)]


def _open(b: Served, other: Served) -> tuple[str, list[str], list[str], int]:
    """Four players at a rated table, sat down through either process, and its game started: the code, the
    player tokens and the seat tokens (and no kill yet)."""
    people = [httpx.post(f"{b.url}/api/players").json()["token"] for _ in range(4)]
    r = httpx.post(f"{other.url}/api/tables", json={"name": "P0", **RATED},
                   headers={"X-Player-Token": people[0]})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for i in range(1, 4):
        r = httpx.post(f"{(b, other)[i % 2].url}/api/tables/{code}/seats",
                       json={"name": f"P{i}", "seat": i}, headers={"X-Player-Token": people[i]})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    assert _post(b.url, code, tokens[0], {"do": "start"}) == 200
    return code, people, tokens, 0


def _play_killing_at_hands_ends(database: str, redis_url: str, b: Served, doomed: list[Served],
                                code: str, tokens: list[str], kills: int) -> tuple[dict[str, Any], int]:
    """The game played to its end, the commands sent to both processes in turn; each hand's last card to
    the doomed process, killed (kill -9) a while after (``KILL_AFTER``, in turn), then started again; the
    move sent again if it was lost. The game at its end, and the kills so far."""
    for step in range(400):
        game = view(b.url, code, tokens[0])["game"]
        if game["phase"] == "game_over":
            break
        if game["phase"] == "hand_over":
            seat, body = 0, {"do": "next", "version": game["version"]}
        else:
            seat = game["turn"]
            mine = view(b.url, code, tokens[seat])["game"]
            body = {"do": "move", "move": simple_move(mine), "version": mine["version"]}
            if ends_the_hand(mine):
                sent = threading.Thread(target=_post, args=(doomed[0].url, code, tokens[seat], body))
                sent.start()
                threading.Event().wait(KILL_AFTER[kills % len(KILL_AFTER)])
                doomed[0].kill()
                sent.join()
                kills += 1
                doomed[0] = Served(database, redis_url=redis_url)
                if view(b.url, code, tokens[seat])["game"]["version"] != body["version"]:
                    continue  # the killed process had stored it
        assert _post((b, doomed[0])[step % 2].url, code, tokens[seat], body) == 200
    return game, kills


def _post(base: str, code: str, token: str, body: dict[str, Any]) -> int | None:
    """Send a seat's command; its status (None if the process died before it answered)."""
    try:
        return httpx.post(f"{base}/api/tables/{code}/commands", json=body, headers={"X-Seat-Token": token},
                          timeout=30).status_code
    except httpx.HTTPError:
        return None
