"""No rough edges: no console error in normal use, a ?deal= link asks before replacing a game under way,
Settings says it saved and when new rules apply, and every page links to the site's others."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import ConsoleMessage, Page, WebSocket, expect

from browser.table import (
    CURRENT_GAME,
    NewPage,
    change_settings,
    hand,
    open_table,
    play_until,
    settle,
    take_turn,
    tap_bid,
    tool,
    wait_until,
)


def collect_errors(page: Page, errors: list[str] | None = None) -> list[str]:
    """Every console error and uncaught exception the page will report from now on (added to ``errors``,
    if given: one list for several pages)."""
    errors = [] if errors is None else errors

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(f"{msg.text} ({msg.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_a_first_visit_and_a_whole_hand_log_no_console_error(fresh_page: NewPage) -> None:
    page = fresh_page()
    errors = collect_errors(page)
    open_table(page)  # a new player: no game yet
    change_settings(page)
    play_until(page, "sheet")
    page.locator("#btn-next").click()
    settle(page)
    tool(page, "Stats").click()
    page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    page.goto("/rules")
    expect(page.get_by_role("heading", name="How to play Spades")).to_be_visible()
    page.goto("/scorekeeper")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    assert errors == []


def test_the_page_moves_over_the_games_socket(fresh_page: NewPage) -> None:
    """A hand's moves and the next hand go over the game's WebSocket, opened once with the page's
    credential, none as a request, answered with partial states; the table then shows what a fresh load
    of the game shows; no console error."""
    page = fresh_page()
    errors = collect_errors(page)
    sent: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    posted: list[str] = []

    def opened(ws: WebSocket) -> None:
        if ws.url.endswith("/api/games/live"):
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
            ws.on("framereceived", lambda payload: answers.append(json.loads(payload)))
    page.on("websocket", opened)
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and "/api/games/" in r.url
            else None)
    open_table(page)
    change_settings(page)
    play_until(page, "sheet")
    page.locator("#btn-next").click()
    settle(page)
    tap_bid(page)
    assert posted == []
    hellos = [m for m in sent if "token" in m]
    assert len(hellos) == 1 and hellos[0]["token"] == page.evaluate("localStorage.getItem('spades.token')")
    assert hellos[0]["partial"] is True and any(a.get("partial") for a in answers)
    assert {m["do"] for m in sent if "do" in m} == {"move", "next"}
    settle(page)
    said = page.locator("#message").inner_text()
    shown = page.locator("main.table-area").inner_text().replace(said, "")
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    settle(page)
    again = page.locator("#message").inner_text()
    assert page.locator("main.table-area").inner_text().replace(again, "") == shown
    # the live page tells what the last answer's moves did before the prompt ("West took the last trick."
    # when the only legal card was played for the person and a trick ended); a fresh load, the prompt alone
    assert said.endswith(again)
    assert errors == []


@pytest.mark.parametrize("refusal", ["closed", "never opened"])
def test_moves_go_as_requests_when_the_games_socket_cannot_be_used(fresh_page: NewPage, refusal: str) -> None:
    """A socket that a proxy closes at once, or one that never opens: the moves are made all the same."""
    page = fresh_page()
    errors = collect_errors(page)
    if refusal == "closed":
        page.route_web_socket("**/api/games/live", lambda ws: ws.close())
    else:
        page.add_init_script("""window.WebSocket = class extends window.WebSocket {
          constructor(url, ...rest) { super(url.replace("/api/games/live", "/nowhere"), ...rest); } };""")
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and "/moves" in r.url else None)
    open_table(page)
    change_settings(page)
    tap_bid(page)
    for _ in range(3):
        take_turn(page)
    settle(page)
    assert len(posted) >= 2
    assert page.evaluate(CURRENT_GAME)["version"] > 4
    assert all("/nowhere" in e for e in errors), errors  # the browser's own report of the refused socket


def test_sounds_wait_for_the_first_tap(fresh_page: NewPage) -> None:
    """A page loaded at the person's turn makes no sound (the browser would refuse it, with a console
    warning), and the first tap's sounds play."""
    page = fresh_page()
    page.add_init_script("""window.audioMade = [];
        window.AudioContext = class extends window.AudioContext {
          constructor(...args) { super(...args); window.audioMade.push(this); }
        };""")
    warnings: list[str] = []
    page.on("console", lambda msg: warnings.append(msg.text) if "AudioContext" in msg.text else None)
    open_table(page)
    expect(page.locator(".bid-btn").first).to_be_visible()  # the person's turn: the turn's sound was due
    assert page.evaluate("window.audioMade.length") == 0
    tap_bid(page)
    assert wait_until(page, "window.audioMade.length === 1 && window.audioMade[0].state") == "running"
    assert warnings == []


def test_a_deal_link_asks_before_replacing_a_game_under_way(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    tap_bid(page)
    mine = hand(page)
    open_table(page, "/?deal=43")
    ask = page.locator("#dlg-confirm")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("play deal #43")
    ask.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#deal-label")).to_have_text("Deal #42")
    assert hand(page) == mine and "deal=42" in page.url
    open_table(page, "/?deal=42")  # the same deal: resumed, nothing to ask
    expect(ask).to_be_hidden()
    assert hand(page) == mine
    open_table(page, "/?deal=43")
    ask.get_by_role("button", name="Play deal 43").click()
    settle(page)
    expect(page.locator("#deal-label")).to_have_text("Deal #43")
    assert "deal=43" in page.url and len(hand(page)) == 13


def test_settings_say_they_saved_and_when_new_rules_apply_until_the_next_move(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=8")
    change_settings(page)
    expect(page.locator("#notice")).to_have_text("Settings saved.")
    change_settings(page, target=300)
    message = page.locator("#notice")
    expect(message).to_contain_text("Settings saved. The new rules start with your next new game")
    page.wait_for_timeout(1500)  # nothing the table does by itself replaces it
    expect(message).to_contain_text("The new rules start with your next new game")
    tap_bid(page)
    expect(message).to_be_empty()


SITE = ["Play", "Lobby", "Tournaments", "Leaderboard", "Scorekeeper", "How to play"]
"""The site's pages as their links name them, in the order every header lists them."""


def site_links(page: Page) -> list[str]:
    """The names of the links in the page's site navigation."""
    return page.get_by_role("navigation", name="Site").get_by_role("link").all_inner_texts()


def test_every_page_links_to_the_sites_others(fresh_page: NewPage) -> None:
    # A person on a phone walks the site by its headers alone, from the game and back to it.
    page = fresh_page(390, 844)
    errors = collect_errors(page)
    page.goto("/")
    tool(page, "Tournaments").click()  # the game's page: in its tools (in the menu, on a phone)
    expect(page).to_have_url(re.compile("/tournaments$"))
    for here, there in (("Tournaments", "Lobby"), ("Lobby", "Leaderboard"), ("Leaderboard", "Scorekeeper"),
                        ("Scorekeeper", "How to play")):
        expect(page.get_by_role("navigation", name="Site").get_by_role("link", name=there)).to_be_visible()
        assert [n for n in site_links(page) if n in SITE] == [n for n in SITE if n != here], here
        page.get_by_role("navigation", name="Site").get_by_role("link", name=there, exact=True).click()
        page.wait_for_load_state()
    expect(page).to_have_title("How to play Spades")
    assert site_links(page) == ["Back to the table", *SITE[1:-1]]  # the rules page: Play is the way back
    page.get_by_role("link", name="Back to the table").click()
    expect(page.locator("#deal-label")).to_contain_text("Deal #")
    for name in SITE[1:]:  # and the game's page has them all in its tools
        expect(tool(page, name)).to_have_attribute("href", re.compile("^/"))
        page.keyboard.press("Escape")
    assert errors == []
    page.goto("/@nobody")  # a page the server writes (here a 404: no such player) has them too
    assert site_links(page) == SITE
