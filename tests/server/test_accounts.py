"""Accounts over real HTTP on both stores: a name and a password, signing in on another device as the same
player, the names refused, signing out (here, everywhere: on another process too), the password changed,
the account deleted with its games kept, sign-in attempts limited, and nothing secret in the access log."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.api_client import Player, simple_move
from server.conftest import query
from server.processes import Served, redis_server
from spades.server.accounts.credentials import SESSION_IDLE
from spades.server.accounts.names import BadName, check_name, name_key
from spades.server.run import BackgroundServer
from spades.server.store import DELETED_NAME, open_store

PASSWORD = "correct horse battery"


def as_device(token: str) -> dict[str, str]:
    """The headers of a device that holds this credential."""
    return {"X-Player-Token": token}


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD, expect: int = 201) -> dict[str, str]:
    """Sign a new device in; its headers."""
    r = client.post("/api/sessions", json={"name": name, "password": password})
    assert r.status_code == expect, r.text
    return as_device(r.json()["token"]) if expect == 201 else {}


def test_a_second_device_signs_in_as_the_same_player(database: str, client: httpx.Client) -> None:
    p = Player(client, level="easy")
    state = p.new_game(deal=11)
    p.move(state, simple_move(state))
    made = p.call("POST", "/api/account", {"name": "Ａlice", "password": PASSWORD}, expect=201)
    assert made == {"name": "Alice", "password": True, "passkeys": []}
    assert p.call("GET", "/api/account") == made

    other = sign_in(client, " ALICE ")
    assert len(other["X-Player-Token"]) == 48 and other != p.headers
    for path in ("/api/account", "/api/settings", "/api/stats", "/api/games/current"):
        assert client.get(path, headers=other).json() == client.get(path, headers=p.headers).json(), path
    # what is kept of the session is a selector and a hash, never the credential
    kept = query(database, "SELECT selector, verifier FROM sessions")
    assert len(kept) == 1 and other["X-Player-Token"] not in kept[0]
    assert kept[0][0] == other["X-Player-Token"][:16] and len(kept[0][1]) == 64

    # a player without an account has none, and cannot sign out (it would be lost)
    stranger = Player(client)
    assert stranger.call("GET", "/api/account") == {"name": None, "password": False, "passkeys": []}
    for method, path, says in (("DELETE", "/api/sessions/current", "so it was not signed out"),
                               ("GET", "/api/account/sessions", "so it is signed in on this device alone"),
                               ("PUT", "/api/account/password", "so the password was not changed")):
        body = {"old": None, "new": PASSWORD} if method == "PUT" else None
        r = client.request(method, path, headers=stranger.headers, json=body)
        assert r.status_code == 409, path
        assert r.json()["detail"].startswith(f"This player has no account, {says}"), path


PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile"
LAPTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


def test_the_account_lists_where_it_is_signed_in_and_ends_one(database: str, client: httpx.Client) -> None:
    p = Player(client)
    p.call("POST", "/api/account", {"name": "judy", "password": PASSWORD}, expect=201)
    devices = {}
    for agent in (PHONE, LAPTOP):
        r = client.post("/api/sessions", json={"name": "judy", "password": PASSWORD},
                        headers={"User-Agent": agent})
        devices[agent] = as_device(r.json()["token"])
    listed = client.get("/api/account/sessions", headers=devices[LAPTOP]).json()
    assert [(s["device"], s["current"]) for s in listed] == [("the device the account was made on", False),
                                                             ("Chrome on Android", False),
                                                             ("Firefox on Linux", True)]
    assert listed[0]["id"] == "own" and all(len(s["id"]) == 16 for s in listed[1:])
    assert query(database, "SELECT device FROM sessions ORDER BY created") == [("Chrome on Android",),
                                                                               ("Firefox on Linux",)]
    # the phone is lost: the laptop signs it out, and its credential stops working at once
    phone = f"/api/account/sessions/{listed[1]['id']}"
    assert client.delete(phone, headers=devices[LAPTOP]).status_code == 204
    assert client.get("/api/account", headers=devices[PHONE]).status_code == 401
    again = client.delete(phone, headers=devices[LAPTOP])
    assert again.status_code == 404 and "not signed in on that device" in again.json()["detail"]
    assert client.delete("/api/account/sessions/own", headers=devices[LAPTOP]).status_code == 204
    assert client.get("/api/account", headers=p.headers).status_code == 401
    assert [s["device"] for s in client.get("/api/account/sessions", headers=devices[LAPTOP]).json()] == [
        "Firefox on Linux"]
    # another account's session is not found through this one, and a malformed id is a 422
    other = Player(client)
    other.call("POST", "/api/account", {"name": "karl"}, expect=201)
    mine = client.get("/api/account/sessions", headers=devices[LAPTOP]).json()[0]["id"]
    assert client.delete(f"/api/account/sessions/{mine}", headers=other.headers).status_code == 404
    assert client.delete("/api/account/sessions/NOT-AN-ID", headers=devices[LAPTOP]).status_code == 422
    assert client.get("/api/account", headers=devices[LAPTOP]).json()["name"] == "judy"


def test_a_session_unused_for_long_ends_and_one_in_use_goes_on(database: str, client: httpx.Client) -> None:
    p = Player(client)
    p.call("POST", "/api/account", {"name": "lena", "password": PASSWORD}, expect=201)
    idle, busy = (sign_in(client, "lena")["X-Player-Token"] for _ in range(2))
    now = datetime.now(UTC)
    for token, hours in ((idle, 1), (busy, -1)):  # made an hour before (after) the limit, never used since
        made = (now - SESSION_IDLE - timedelta(hours=hours)).isoformat(timespec="seconds")
        query(database, "UPDATE sessions SET created = ? WHERE selector = ?", (made, token[:16]))
    refused = client.get("/api/account", headers=as_device(idle))
    assert refused.status_code == 401 and "sign in" in refused.json()["detail"]
    assert client.get("/api/account", headers=as_device(busy)).json()["name"] == "lena"  # used today: marked
    used = query(database, "SELECT used FROM sessions WHERE selector = ?", (busy[:16],))
    assert used[0][0][:10] == now.date().isoformat()
    listed = client.get("/api/account/sessions", headers=as_device(busy)).json()
    assert [(s["id"], s["current"]) for s in listed] == [("own", False), (listed[1]["id"], True)]  # no idle
    assert [s["used"] for s in listed] == [None, now.date().isoformat()]  # its last use, not when it was made
    assert p.call("GET", "/api/account")["name"] == "lena"  # the device the account was made on never ends so
    sign_in(client, "lena")  # a sign-in forgets the account's ended sessions
    assert query(database, "SELECT count(*) FROM sessions WHERE selector = ?", (idle[:16],)) == [(0,)]
    assert client.get("/api/account", headers=as_device(busy)).status_code == 200


def test_a_wrong_name_and_a_wrong_password_get_one_answer(client: httpx.Client) -> None:
    Player(client).call("POST", "/api/account", {"name": "bob", "password": PASSWORD}, expect=201)
    Player(client).call("POST", "/api/account", {"name": "nopass"}, expect=201)
    answers = [client.post("/api/sessions", json={"name": name, "password": password})
               for name, password in (("bob", "wrong password"), ("nobody", PASSWORD), ("nopass", PASSWORD))]
    assert {(r.status_code, r.json()["detail"]) for r in answers} == {
        (401, "That name and password do not sign in.")}


@pytest.mark.parametrize(("name", "says"), [
    ("ab", "3 to 20 characters"), ("x" * 21, "3 to 20 characters"), ("two words", "not ' '"),
    ("bad\x00name", "'\\x00'"), ("_lead", "begins with a letter"), ("You", "kept for the game"),
    ("computer", "kept for the game"), ("Expert", "kept for the game"),
    ("deleted.player", "kept for the game"), ("ＹＯＵ", "kept for the game")])
def test_names_that_cannot_be_an_accounts_are_refused(client: httpx.Client, database: str, name: str,
                                                      says: str) -> None:
    p = Player(client)
    r = client.post("/api/account", json={"name": name}, headers=p.headers)
    assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert query(database, "SELECT count(*) FROM accounts") == [(0,)]


def test_look_alike_names_collide_and_one_player_has_one_account(client: httpx.Client) -> None:
    first = Player(client)
    first.call("POST", "/api/account", {"name": "Zoë"}, expect=201)
    for look_alike in ("ZOË", "zoe\u0308", "ｚｏë"):  # upper case, a combining diaeresis, full width
        r = client.post("/api/account", json={"name": look_alike}, headers=Player(client).headers)
        assert r.status_code == 409 and "taken" in r.json()["detail"], look_alike
    r = client.post("/api/account", json={"name": "Another"}, headers=first.headers)
    assert r.status_code == 409 and "has an account already" in r.json()["detail"]
    short = client.post("/api/account", json={"name": "Shorty", "password": "short"},
                        headers=Player(client).headers)
    assert short.status_code == 422 and "at least 8 characters" in short.json()["detail"]


@given(st.text(min_size=1, max_size=30))
@settings(max_examples=300, deadline=None)
def test_a_name_is_refused_or_kept_as_its_own_normal_form(text: str) -> None:
    try:
        shown = check_name(text)
    except BadName:
        return
    assert check_name(shown) == shown == check_name(f" {shown}\t")
    assert 3 <= len(shown) <= 20 and all(c.isalnum() or c in "_-." for c in shown)


def test_signing_out_here_and_everywhere(client: httpx.Client) -> None:
    p = Player(client)
    p.call("POST", "/api/account", {"name": "carol", "password": PASSWORD}, expect=201)
    phone, tablet = sign_in(client, "carol"), sign_in(client, "carol")
    assert client.delete("/api/sessions/current", headers=phone).status_code == 204
    assert client.get("/api/settings", headers=phone).status_code == 401
    assert client.get("/api/settings", headers=tablet).status_code == 200
    assert client.get("/api/settings", headers=p.headers).status_code == 200

    assert client.delete("/api/sessions", headers=tablet).status_code == 204
    for device in (tablet, p.headers):
        r = client.get("/api/stats", headers=device)
        assert r.status_code == 401 and "sign in" in r.json()["detail"]
    again, other = sign_in(client, "carol"), sign_in(client, "carol")
    assert client.get("/api/account", headers=again).json()["name"] == "carol"

    # the first device's own token signs out like a session: the others stay signed in
    first = Player(client)
    first.call("POST", "/api/account", {"name": "carl", "password": PASSWORD}, expect=201)
    later = sign_in(client, "carl")
    assert client.delete("/api/sessions/current", headers=first.headers).status_code == 204
    assert client.get("/api/settings", headers=first.headers).status_code == 401
    assert client.get("/api/account", headers=later).json()["name"] == "carl"
    assert client.get("/api/account", headers=other).json()["name"] == "carol"


def test_signing_out_everywhere_counts_at_once_on_another_process(database: str) -> None:
    with Served(database) as a, Served(database) as b:
        token = httpx.post(a.url + "/api/players").json()["token"]
        own = {"X-Player-Token": token}
        assert httpx.post(a.url + "/api/account", json={"name": "dave", "password": PASSWORD},
                          headers=own).status_code == 201
        session = httpx.post(b.url + "/api/sessions", json={"name": "dave", "password": PASSWORD}).json()
        stolen = {"X-Player-Token": session["token"]}
        for served in (a, b):  # both processes have seen both credentials
            for device in (own, stolen):
                assert httpx.get(served.url + "/api/stats", headers=device).status_code == 200
        assert httpx.delete(a.url + "/api/sessions", headers=own).status_code == 204
        for served in (b, a):
            for device in (stolen, own):
                assert httpx.get(served.url + "/api/stats", headers=device).status_code == 401


def test_changing_the_password_needs_the_old_one(client: httpx.Client) -> None:
    p = Player(client)
    p.call("POST", "/api/account", {"name": "erin"}, expect=201)
    assert p.call("PUT", "/api/account/password", {"new": PASSWORD})["password"] is True
    r = client.put("/api/account/password", json={"old": "not it at all", "new": "another one"},
                   headers=p.headers)
    assert r.status_code == 403 and "not right" in r.json()["detail"]
    no_old = client.put("/api/account/password", json={"new": "another one"}, headers=p.headers)
    assert no_old.status_code == 403
    p.call("PUT", "/api/account/password", {"old": PASSWORD, "new": "another one"})
    sign_in(client, "erin", PASSWORD, expect=401)
    sign_in(client, "erin", "another one")


def test_deleting_an_account_keeps_its_games_under_deleted_player(database: str,
                                                                  client: httpx.Client) -> None:
    p = Player(client, level="easy")
    state = p.new_game(deal=5)
    p.move(state, simple_move(state))
    p.call("POST", "/api/account", {"name": "frank", "password": PASSWORD}, expect=201)
    p.call("PUT", "/api/settings", {"level": "hard"})
    device = sign_in(client, "frank")
    for body in (None, {"password": "not frank's"}):  # a signed-in device alone cannot delete it
        r = client.request("DELETE", "/api/account", json=body, headers=device)
        assert r.status_code == 403 and "so the account was not deleted" in r.json()["detail"]
    assert client.get("/api/account", headers=device).json()["name"] == "frank"
    deleted = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=device)
    assert deleted.status_code == 204
    for headers in (device, p.headers):
        assert client.get("/api/account", headers=headers).status_code == 401
    sign_in(client, "frank", expect=401)
    player = p.headers["X-Player-Token"]
    assert query(database, "SELECT count(*) FROM games WHERE token = ?", (player,)) == [(1,)]
    assert query(database, "SELECT settings FROM players WHERE token = ?", (player,)) == [(None,)]
    assert query(database, "SELECT count(*) FROM sessions") == [(0,)]
    store = open_store(database)
    store.check()
    try:
        hashed = query(database, "SELECT player_hash FROM accounts")[0][0]
        assert store.names(player_hashes=[hashed]) == {hashed: DELETED_NAME}
        assert store.account_by_name(name_key="frank") is None
    finally:
        store.close()
    # the name is free again
    Player(client).call("POST", "/api/account", {"name": "Frank"}, expect=201)


def test_the_name_lookup_goes_both_ways(database: str, client: httpx.Client) -> None:
    p = Player(client)
    p.call("POST", "/api/account", {"name": "Grace"}, expect=201)
    store = open_store(database)
    store.check()
    try:
        account = store.account_by_name(name_key=name_key("GRACE"))
        assert account is not None and account.player == p.headers["X-Player-Token"]
        assert store.names(player_hashes=[account.player_hash, "0" * 64]) == {account.player_hash: "Grace"}
    finally:
        store.close()


def test_sign_in_attempts_are_limited_per_name_and_per_address(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", sign_ins_per_minute=1, sign_in_burst=3,
                          trusted_proxies=("127.0.0.1",)) as s, httpx.Client(base_url=s.url) as client:
        Player(client).call("POST", "/api/account", {"name": "heidi", "password": PASSWORD}, expect=201)

        def attempt(name: str, address: str) -> httpx.Response:
            return client.post("/api/sessions", json={"name": name, "password": PASSWORD},
                               headers={"X-Forwarded-For": address})

        by_name = [attempt("heidi", f"10.0.0.{i}") for i in range(4)]
        assert [r.status_code for r in by_name] == [201, 201, 201, 429]
        assert "for this name" in by_name[-1].json()["detail"]
        assert int(by_name[-1].headers["retry-after"]) >= 1
        by_address = [attempt(f"name{i}", "10.9.9.9") for i in range(4)]
        assert [r.status_code for r in by_address] == [401, 401, 401, 429]
        assert "for this address" in by_address[-1].json()["detail"]
        # a stolen credential cannot guess the password faster where it is asked for again either
        ivan = Player(client)
        ivan.call("POST", "/api/account", {"name": "ivan", "password": PASSWORD}, expect=201)
        guesses = [client.request("DELETE", "/api/account", json={"password": f"guess {i}"},
                                  headers=ivan.headers) for i in range(3)]
        guesses.append(client.put("/api/account/password", json={"old": "guess", "new": "x" * 8},
                                  headers=ivan.headers))
        assert [r.status_code for r in guesses] == [403, 403, 403, 429]
        assert "for this name" in guesses[-1].json()["detail"]
        assert client.get("/api/account", headers=ivan.headers).json()["name"] == "ivan"


def test_two_processes_count_one_names_attempts_together(tmp_path: Path) -> None:
    limits = {"SPADES_SIGN_INS_PER_MINUTE": "0.5", "SPADES_SIGN_IN_BURST": "3"}
    db = tmp_path / "spades.sqlite3"
    with redis_server(tmp_path / "redis") as url, Served(db, redis_url=url, settings=limits) as a, \
            Served(db, redis_url=url, settings=limits) as b:
        body = {"name": "ivan", "password": "wrong password"}
        codes = [httpx.post((a.url, b.url)[i % 2] + "/api/sessions", json=body).status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]


def test_no_password_or_credential_reaches_the_access_log(tmp_path: Path) -> None:
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("spades.access").addHandler(handler)
    try:
        with BackgroundServer(tmp_path / "db.sqlite3", access_log=True) as s, \
                httpx.Client(base_url=s.url) as client:
            p = Player(client)
            p.call("POST", "/api/account", {"name": "judy", "password": PASSWORD}, expect=201)
            device = sign_in(client, "judy")
            client.get("/api/stats", headers=device)
            client.post("/api/sessions", json={"name": "judy", "password": "a wrong one"})
    finally:
        logging.getLogger("spades.access").removeHandler(handler)
    assert any('"/api/sessions"' in line for line in lines)
    for secret in (PASSWORD, "a wrong one", device["X-Player-Token"], p.headers["X-Player-Token"]):
        assert not any(secret in line for line in lines)
