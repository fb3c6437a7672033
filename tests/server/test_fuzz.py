"""Whatever a client sends, the answer is never a 500: random bodies, paths and headers over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.api_client import Player
from server.tables_client import join, open_table

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=8,
)
FIELDS = st.sampled_from(["deal", "daily", "resume", "move", "version", "level", "speed", "rules",
                          "preset", "options", "target", "table_color", "four_color", "blind_nil"])
BODIES = JSON | st.dictionaries(FIELDS, JSON, max_size=4)
MOVES = st.text(max_size=20) | st.sampled_from([
    "bid 3", "bid nil", "bid blind nil", "bid 10 for 200", "play AS", "play 2C", "look", "misdeal",
    "draw keep", "pass AS KS", "pass", "play", "bid", "",
])
ENDPOINTS = st.sampled_from([
    ("POST", "/api/games"), ("POST", "/api/games/{id}/moves"), ("POST", "/api/games/{id}/next"),
    ("POST", "/api/games/{id}/restart"), ("GET", "/api/games/{id}/hint"), ("GET", "/api/games/{id}/hands/0"),
    ("PUT", "/api/settings"), ("GET", "/api/games/current"), ("GET", "/api/stats"),
])
TABLE_FIELDS = st.sampled_from(["name", "preset", "options", "level", "grace", "turn_seconds", "seat", "move",
                                "version", "to", "text", "kind", "id", "watch", "bids", "tricks", "rules"])
COMMANDS = st.sampled_from(["move", "next", "start", "sit", "move_person", "bot", "keep", "open", "host",
                            "back", "leave", "chat", "react", "rematch", "sync", "nonsense"])
TABLE_BODIES = BODIES | st.dictionaries(TABLE_FIELDS, JSON, max_size=4) | st.builds(
    lambda do, rest: {**rest, "do": do}, COMMANDS, st.dictionaries(TABLE_FIELDS, JSON, max_size=3))
TABLE_ENDPOINTS = st.sampled_from([
    ("POST", "/api/tables"), ("GET", "/api/tables/{code}"), ("POST", "/api/tables/{code}/seats"),
    ("GET", "/api/tables/{code}/view"), ("GET", "/api/tables/{code}/watch"),
    ("POST", "/api/tables/{code}/commands"), ("GET", "/api/tables/{code}/hint"),
    ("GET", "/api/tables/{code}/hands/{n}"), ("GET", "/api/tables/{code}/hands/{n}/coach"),
    ("GET", "/api/tables/{code}/coach"), ("POST", "/api/scorekeeper/score"),
    ("POST", "/api/scorekeeper/score-sheet.pdf"), ("GET", "/api/daily"),
])
IDS = st.sampled_from(["{own}", "0", "-1", "999999", "1e3", "abc", str(2**64)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=ENDPOINTS, game=IDS, body=BODIES, move=MOVES, version=st.integers(-2, 400),
       token=st.sampled_from(["own", "none", "bad"]))
def test_no_request_gets_a_server_error(client: httpx.Client, endpoint: tuple[str, str], game: str, body: Any,
                                        move: str, version: int, token: str) -> None:
    p = Player(client)
    own = p.new_game(deal=3)["id"]
    method, path = endpoint
    path = path.replace("{id}", game.replace("{own}", str(own)))
    if path.endswith("/moves") and isinstance(body, dict) and body.get("move") is None:
        body = {"move": move, "version": version}
    headers = {"own": p.headers, "none": {}, "bad": {"X-Player-Token": "ü".encode("latin-1") * 20}}[token]
    r = client.request(method, path, json=None if method == "GET" else body, headers=headers)
    assert r.status_code < 500, (method, path, body, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=TABLE_ENDPOINTS, code=st.sampled_from(["{own}", "{own:lower}", "ZZZZZZ", "", "x" * 40, ".."]),
       number=st.sampled_from(["0", "-1", "99", "x", str(2**64)]), body=TABLE_BODIES,
       token=st.sampled_from(["host", "guest", "none", "bad"]))
def test_no_table_request_gets_a_server_error(client: httpx.Client, endpoint: tuple[str, str], code: str,
                                              number: str, body: Any, token: str) -> None:
    """The friends' tables and the scorekeeper, at a table under way: any body, code, hand or seat token
    gets a 4xx with its reason at worst."""
    host = open_table(client)
    guest = join(client, host["code"], "Bo")
    assert client.post(f"/api/tables/{host['code']}/commands", json={"do": "start"},
                       headers={"X-Seat-Token": host["token"]}).status_code == 200
    method, path = endpoint
    code = code.replace("{own}", host["code"]).replace("{own:lower}", host["code"].lower())
    path = path.replace("{code}", code).replace("{n}", number)
    headers = {"host": {"X-Seat-Token": host["token"]}, "guest": {"X-Seat-Token": guest["token"]}, "none": {},
               "bad": {"X-Seat-Token": "ü".encode("latin-1") * 8}}[token]
    r = client.request(method, path, json=None if method == "GET" else body, headers=headers)
    assert r.status_code < 500, (method, path, body, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)
