"""Texts the API takes (moves, presets, option names) are bounded and checked: a 4xx with a message
that names the field, and nothing changes."""

from __future__ import annotations

import httpx
import pytest

from server.api_client import Player


def test_a_move_too_long_or_not_text_is_refused_and_the_table_stays(client: httpx.Client) -> None:
    p = Player(client, speed="instant")
    state = p.new_game(deal=5)
    url = f"/api/games/{state['id']}/moves"
    r = client.post(url, json={"move": "bid " + "9" * 77, "version": state["version"]}, headers=p.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == "Invalid request: move: String should have at most 80 characters"
    raw = '{"move": "play \\ud800", "version": ' + str(state["version"]) + '}'
    r = client.post(url, content=raw, headers={**p.headers, "Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"].startswith("Invalid request: move:")
    r = client.post(url, json={"move": "bid\x00 4", "version": state["version"]}, headers=p.headers)
    assert r.status_code == 400 and r.json()["detail"].startswith("Not a move: 'bid\\x00 4'.")
    assert p.call("GET", "/api/games/current") == state


@pytest.mark.parametrize(("rules", "status", "message"), [
    ({"preset": "s" * 41}, 422, "rules.preset: String should have at most 40 characters"),
    ({"options": {f"o{i}": 1 for i in range(65)}}, 422,
     "rules.options: Dictionary should have at most 64 items after validation, not more"),
    ({"options": {"t" * 41: 1}}, 422, "String should have at most 40 characters"),
    ({"options": {"targer": 300}}, 400, "Unknown rule option 'targer'"),
])
def test_rules_texts_are_bounded_and_the_settings_stay(client: httpx.Client, rules: dict[str, object],
                                                       status: int, message: str) -> None:
    p = Player(client, speed="instant", level="hard")
    before = p.call("GET", "/api/settings")
    r = client.put("/api/settings", json={**before, "rules": rules}, headers=p.headers)
    assert r.status_code == status and message in r.json()["detail"]
    assert p.call("GET", "/api/settings") == before


def test_an_option_name_that_is_not_text_is_refused(client: httpx.Client) -> None:
    p = Player(client)
    raw = '{"rules": {"options": {"\\ud800x": 1}}}'
    r = client.put("/api/settings", content=raw, headers={**p.headers, "Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"].startswith("Invalid request: rules.options")
