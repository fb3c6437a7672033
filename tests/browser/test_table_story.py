"""The table tells the story: the bids summed up when bidding ends, the score boxes in seat order with
the bags left before the penalty, and the hand review's tricks numbered once."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.table import (
    CURRENT_GAME,
    NewPage,
    change_settings,
    open_table,
    play_until,
    settle,
    tap_bid,
    tap_card,
    tool,
)


def test_when_bidding_ends_a_summary_gives_bids_contracts_and_spare_tricks(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, auto_play=False)
    summary = page.locator("#bid-summary")
    expect(summary).to_have_count(0)
    tap_bid(page)
    game = page.evaluate(CURRENT_GAME)
    bids = {s["name"]: s["bid"].replace("nil", "Nil") for s in game["seats"]}
    sides = {s["name"]: s["contract"] for s in game["sides"]}
    spare = game["spare_tricks"]
    assert spare == 13 - sum(sides.values())
    expect(summary).to_contain_text(
        f"Bids: You {bids['You']}, West {bids['West']}, North {bids['North']}, East {bids['East']}.")
    expect(summary).to_contain_text(
        f"You & North need {sides['You & North']}; East & West need {sides['East & West']}; ")
    words = "spare tricks?" if spare >= 0 else "more bid than there are tricks"
    expect(summary).to_contain_text(re.compile(rf"{abs(spare)} {words}\."))
    while not page.evaluate(CURRENT_GAME)["last_trick"]:
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)
    expect(summary).to_have_count(0)  # gone once the first trick is won


def test_three_players_score_in_seat_order_with_the_bags_left(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page, preset="three-player", options={"bag_penalty": 100})
    tool(page, "New Game").click()
    settle(page)
    expect(page.locator("#scores .score .team")).to_have_text(["You", "West", "East"])
    game = page.evaluate(CURRENT_GAME)
    left = game["sides"][game["human_side"]]["bags_to_penalty"]
    expect(page.locator("#scores .score.mine .bags")).to_have_text(f"bags 0 · {left} left")


def test_the_review_numbers_each_trick_once(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    play_until(page, "sheet")
    page.get_by_role("button", name="Show all hands").click()
    first = page.locator(".trick-list li").first
    expect(first).not_to_contain_text("Trick")
    assert page.locator(".trick-list").evaluate("l => l.tagName") == "OL"  # the list gives the number
