"""A finished game's page in Chromium: a person steps through a hand trick by trick and sees what each seat
held and played; a game still being played shows a message and no card. No page logs a console error."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from browser.table import NewPage
from browser.test_rough_edges import collect_errors
from server.api_client import Player, simple_move
from spades.server.run import BackgroundServer

QUICK = {"preset": "standard", "options": {"target": 10, "low_mark": -10}}


def finished_game(client: httpx.Client) -> tuple[Player, dict[str, Any]]:
    """A player with a game played to its end over the API (the page under test only shows it)."""
    p = Player(client, rules=QUICK)
    state = p.new_game()
    while state["phase"] != "game_over":
        state = p.next_hand(state)["state"] if state["phase"] == "hand_over" else \
            p.move(state, simple_move(state))["state"]
    return p, state


def test_a_finished_game_steps_through_a_hand(fresh_page: NewPage, server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        player, end = finished_game(client)
        replay = client.get(f"/api/replays/{end['id']}").json()
        unfinished = player.new_game()
    page = fresh_page()
    errors = collect_errors(page)
    page.goto(f"/games/{end['id']}")
    expect(page.get_by_role("heading", name=f"Game {end['id']}")).to_be_visible()
    expect(page.locator("#game-summary")).to_contain_text(replay["game"]["message"])
    expect(page.locator("#hand-title")).to_have_text(f"Hand 1 of {len(replay['hands'])}")
    seats = page.locator(".replay-seat")
    expect(seats).to_have_count(4)
    first = replay["hands"][0]
    south = seats.nth(2).locator(".mini-cards .mini")
    expect(south).to_have_count(13)
    assert south.evaluate_all("els => els.map(e => e.dataset.card)") == first["dealt"][2]  # as dealt

    forward = page.get_by_role("button", name="Next trick")
    forward.click()
    forward.click()
    trick = first["tricks"][1]
    winner = replay["game"]["seats"][trick["winner"]]["name"]
    expect(page.locator("#step-title")).to_have_text(f"Trick 2 of 13: {winner} takes it.")
    for played in trick["cards"]:  # each seat shows the card it played, and holds two fewer
        seat = seats.nth(played["seat"])
        expect(seat.locator(".played-card .mini")).to_have_attribute("data-card", played["card"])
        expect(seat.locator(".mini-cards .mini")).to_have_count(11)
    expect(seats.nth(trick["winner"])).to_have_class("replay-seat took")

    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-title")).to_contain_text("Trick 1 of 13")
    page.get_by_role("button", name="End").click()
    expect(page.locator("#step-title")).to_contain_text("Trick 13 of 13")
    expect(seats.nth(0).locator(".mini-cards .mini")).to_have_count(0)
    expect(forward).to_be_disabled()
    if len(replay["hands"]) > 1:
        page.get_by_role("button", name="Next hand").click()
        expect(page.locator("#hand-title")).to_have_text(f"Hand 2 of {len(replay['hands'])}")
    expect(page.locator("#sheet-body .sheet")).to_be_visible()
    expect(page.locator("#game-record")).to_have_attribute("href", f"/api/records/{end['id']}")

    assert errors == []

    page.goto(f"/games/{unfinished['id']}")  # being played: a message, no card
    expect(page.locator("#game-problem")).to_contain_text("is not over")
    expect(page.locator(".mini")).to_have_count(0)
    assert [e.split(" (http")[0] for e in errors] == [  # the browser's own note of the refusal, nothing else
        "Failed to load resource: the server responded with a status of 409 (Conflict)"]
