"""A rated solo game in the page, at normal animation speed: Rated Game asks before it replaces the game
under way (which is lost from the rating), keeps the deal secret (no number shown, none in the address,
no Restart) until the game is over, and the game's end moves the player's rating once."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.table import NewPage, change_settings, open_table, play_until, settle, tap_bid, tool
from browser.test_rough_edges import collect_errors

OWN_RATINGS = """async () => {
  const headers = {"X-Player-Token": localStorage.getItem("spades.token")};
  return (await fetch("/api/ratings", {headers})).json();
}"""


def test_a_rated_game_keeps_its_deal_secret_and_moves_the_rating_once(fresh_page: NewPage) -> None:
    page = fresh_page()
    errors = collect_errors(page)
    open_table(page)
    change_settings(page, speed=None, target=10, options={"low_mark": -10})
    tool(page, "New Game").click()
    settle(page)
    tap_bid(page)
    tool(page, "Rated Game").click()
    ask = page.locator("#dlg-confirm")
    expect(ask).to_contain_text("does not count in your stats")
    ask.get_by_role("button", name="Rated Game").click()
    settle(page)
    expect(page.locator("#deal-label")).to_have_text("Rated game")
    assert "deal=" not in page.url
    expect(page.locator("#btn-restart")).to_be_disabled()
    tap_bid(page)
    tool(page, "New Game").click()  # asked: leaving a rated game loses it
    expect(ask).to_contain_text("counts as a loss in your rating")
    ask.get_by_role("button", name="Keep playing").click()
    play_until(page, "end")
    expect(page.locator("#deal-label")).to_contain_text("Deal #")  # told once the game is over
    mine = page.evaluate(OWN_RATINGS)
    assert [r["games"] for r in mine["ratings"]] == [1] and len(mine["history"]) == 1
    assert mine["history"][0]["after"] == mine["ratings"][0]["rating"] != 1500
    assert errors == []


def test_a_rated_table_says_so_and_rules_that_cannot_be_rated_are_refused(fresh_page: NewPage) -> None:
    page = fresh_page()
    errors = collect_errors(page)
    open_table(page)
    change_settings(page, preset="pagat")  # blind nil, a random first dealer: not a rated rule set
    tool(page, "Play with friends").click()
    dialog = page.locator("#dlg-friends")
    dialog.get_by_label("Your name").fill("Ann")
    dialog.locator("input[name=rated]").set_checked(True)
    dialog.get_by_role("button", name="Open the table").click()
    expect(page.locator("#friends-error")).to_contain_text("cannot be rated")
    dialog.get_by_role("button", name="Cancel").click()
    change_settings(page, preset="standard")
    tool(page, "Play with friends").click()
    dialog.get_by_label("Your name").fill("Ann")
    dialog.locator("input[name=rated]").set_checked(True)
    dialog.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"\?table="))
    expect(page.locator("#lobby-rules")).to_contain_text("Rated (standard): leaving counts as a loss.")
    [refused] = errors  # Chromium's own line for the refused request, which the dialog told
    assert "status of 400" in refused and refused.endswith("/api/tables)")
