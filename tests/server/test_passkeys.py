"""Passkeys over real HTTP on both stores, answered by a software authenticator: added to an account and
signed in with; a replayed, forged, late, cloned, misdirected or removed passkey's answer refused with a
4xx that says why; a ceremony begun on one process finished on another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from server.api_client import Player
from server.authenticator import SoftAuthenticator, b64url
from server.conftest import query
from spades.server.run import BackgroundServer


def with_passkey(client: httpx.Client, name: str) -> tuple[Player, SoftAuthenticator]:
    """A player with an account of this name and a passkey, and the authenticator that holds it."""
    p = Player(client)
    p.call("POST", "/api/account", {"name": name}, expect=201)
    key = SoftAuthenticator(str(client.base_url).rstrip("/"))
    options = p.call("POST", "/api/passkey-registrations")["options"]
    assert options["rp"]["id"] == client.base_url.host and options["user"]["name"] == name
    account = p.call("POST", "/api/passkeys", {"credential": key.create(options)}, expect=201)
    assert [k["id"] for k in account["passkeys"]] == [b64url(key.credentials[0].id)]
    return p, key


def sign_in_options(client: httpx.Client) -> dict[str, Any]:
    """The options of a passkey sign-in."""
    r = client.post("/api/passkey-sign-ins")
    assert r.status_code == 200, r.text
    options: dict[str, Any] = r.json()["options"]
    return options


def answer(client: httpx.Client, credential: dict[str, Any]) -> httpx.Response:
    """Send a passkey's answer to sign in."""
    return client.post("/api/sessions/passkey", json={"credential": credential})


def test_a_passkey_signs_another_device_in_as_the_same_player(client: httpx.Client) -> None:
    p, key = with_passkey(client, "kate")
    account = p.call("GET", "/api/account")
    assert account["name"] == "kate" and account["password"] is False and len(account["passkeys"]) == 1
    p.call("PUT", "/api/settings", {"level": "hard"})
    options = sign_in_options(client)
    assert options["allowCredentials"] == [] and options["rpId"] == client.base_url.host
    r = answer(client, key.get(options))
    assert r.status_code == 201 and r.json()["name"] == "kate"
    device = {"X-Player-Token": r.json()["token"]}
    assert client.get("/api/settings", headers=device).json()["level"] == "hard"
    assert client.get("/api/account", headers=device).json()["passkeys"][0]["used"] is not None


def test_an_answer_replayed_forged_late_or_cloned_is_refused(database: str, client: httpx.Client) -> None:
    _, key = with_passkey(client, "liam")
    options = sign_in_options(client)
    first = key.get(options)
    assert answer(client, first).status_code == 201
    replayed = answer(client, first)
    assert replayed.status_code == 400 and "used already" in replayed.json()["detail"]

    forged = key.get(sign_in_options(client))
    forged["response"]["signature"] = key.get(sign_in_options(client))["response"]["signature"]
    r = answer(client, forged)
    assert r.status_code == 400 and "did not verify" in r.json()["detail"]

    late = sign_in_options(client)
    query(database, "UPDATE passkey_challenges SET expires = 0")
    r = answer(client, key.get(late))
    assert r.status_code == 400 and "too late" in r.json()["detail"]

    cloned = key.get(sign_in_options(client), count=1)  # a copy of the key, its counter behind
    r = answer(client, cloned)
    assert r.status_code == 400 and "sign count" in r.json()["detail"]

    elsewhere = SoftAuthenticator("http://evil.example")
    elsewhere.credentials = key.credentials
    r = answer(client, elsewhere.get(sign_in_options(client)))
    assert r.status_code == 400 and "origin" in r.json()["detail"]
    for junk in ({}, {"id": "x", "response": {}}, {"id": "AA", "rawId": "AA", "type": "public-key",
                                                   "response": {"clientDataJSON": "e30"}}):
        r = answer(client, junk)
        assert r.status_code == 400 and "not a passkey's answer" in r.json()["detail"], r.text
    assert query(database, "SELECT count(*) FROM sessions") == [(1,)]


def test_a_registration_challenge_is_the_players_own_and_signs_no_one_in(client: httpx.Client) -> None:
    p, key = with_passkey(client, "mia")
    registration = p.call("POST", "/api/passkey-registrations")["options"]
    assert [c["id"] for c in registration["excludeCredentials"]] == [
        k["id"] for k in p.call("GET", "/api/account")["passkeys"]]
    # another player cannot finish this player's registration, nor sign in with its challenge
    other = Player(client)
    other.call("POST", "/api/account", {"name": "noah"}, expect=201)
    r = client.post("/api/passkeys", json={"credential": key.create(registration)}, headers=other.headers)
    assert r.status_code == 400
    registering = p.call("POST", "/api/passkey-registrations")["options"]
    r = answer(client, key.get({"challenge": registering["challenge"]}))
    assert r.status_code == 400 and "used already" in r.json()["detail"]
    # a player without an account has no passkeys to add
    r = client.post("/api/passkey-registrations", headers=Player(client).headers)
    assert r.status_code == 409 and "no account" in r.json()["detail"]


def test_a_removed_passkey_signs_in_no_more(client: httpx.Client) -> None:
    p, key = with_passkey(client, "olga")
    passkey_id = p.call("GET", "/api/account")["passkeys"][0]["id"]
    assert p.call("DELETE", f"/api/passkeys/{passkey_id}")["passkeys"] == []
    assert client.delete(f"/api/passkeys/{passkey_id}", headers=p.headers).status_code == 404
    r = answer(client, key.get(sign_in_options(client)))
    assert r.status_code == 400 and "removed" in r.json()["detail"]


def test_a_ceremony_begun_on_one_process_ends_on_another_at_the_site_the_operator_set(tmp_path: Path) -> None:
    db, site = tmp_path / "spades.sqlite3", "https://cards.example.org"
    with BackgroundServer(db, passkey_rp_id="cards.example.org", passkey_origin=site) as a, \
            BackgroundServer(db, passkey_rp_id="cards.example.org", passkey_origin=site) as b, \
            httpx.Client(base_url=a.url) as on_a, httpx.Client(base_url=b.url) as on_b:
        p = Player(on_a)
        p.call("POST", "/api/account", {"name": "pete"}, expect=201)
        options = p.call("POST", "/api/passkey-registrations")["options"]
        assert options["rp"]["id"] == "cards.example.org"
        key = SoftAuthenticator(site)
        assert on_b.post("/api/passkeys", json={"credential": key.create(options)},
                         headers=p.headers).status_code == 201
        r = answer(on_b, key.get(sign_in_options(on_a)))
        assert r.status_code == 201 and r.json()["name"] == "pete"
        stray = SoftAuthenticator(a.url)  # a page served from elsewhere than the site
        stray.credentials = key.credentials
        r = answer(on_a, stray.get(sign_in_options(on_b)))
        assert r.status_code == 400 and "origin" in r.json()["detail"]
