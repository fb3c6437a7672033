"""An API client that plays as the page does, and the card scanner for the hidden-card checks."""

from __future__ import annotations

import re
from typing import Any

import httpx

CARD = re.compile(r"^(?:10|[2-9JQKA])[SHDC]$|^[BL]J$")


class Player:
    """One anonymous player talking to the API, as the page does."""

    def __init__(self, client: httpx.Client, **settings: Any) -> None:
        self.client = client
        r = client.post("/api/players")
        assert r.status_code == 201
        self.headers = {"X-Player-Token": r.json()["token"]}
        self.responses: list[dict[str, Any]] = []
        if settings:
            body = {"speed": "instant", **settings}
            r = client.put("/api/settings", json=body, headers=self.headers)
            assert r.status_code == 200, r.text

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        """Send a request; check its status; keep the JSON for the leak checks."""
        r = self.client.request(method, path, json=body, headers=self.headers)
        assert r.status_code == expect, r.text
        data = r.json()
        self.responses.append(data)
        return data

    def new_game(self, **body: Any) -> dict[str, Any]:
        """Start a game; return its state."""
        state: dict[str, Any] = self.call("POST", "/api/games", body, expect=201)["state"]
        return state

    def move(self, state: dict[str, Any], move: str, expect: int = 200) -> Any:
        """Send a move chosen from this state."""
        return self.call("POST", f"/api/games/{state['id']}/moves",
                         {"move": move, "version": state["version"]}, expect=expect)

    def next_hand(self, state: dict[str, Any]) -> dict[str, Any]:
        """Deal the next hand."""
        out: dict[str, Any] = self.call("POST", f"/api/games/{state['id']}/next",
                                        {"version": state["version"]})
        return out


def simple_move(state: dict[str, Any]) -> str:
    """A legal move a plain player would make from this state."""
    phase = state["phase"]
    if phase == "bid":
        if state["can_look"]:
            return "look"
        bids = state["legal_bids"]
        return "bid " + ("3" if "3" in bids else bids[0])
    if phase == "pass":
        return "pass " + " ".join(state["hand"][-state["pass_count"]:])
    if phase == "draw":
        return "draw keep"
    return "play " + str(state["legal"][0])


def cards_in(data: Any) -> set[str]:
    """Every card text anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(data, str):
        if CARD.match(data):
            found.add(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= cards_in(v)
    return found
