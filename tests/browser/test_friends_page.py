"""The friends' table page as four people met it, at the normal animation speed: input while a finished
trick is held, chat and the status line while the cards move, the lobby's tools, the name "You", the
lobby's news, and a visitor's lobby that is live and offers to watch. No page logs a console error."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from browser.table import NewPage, tap_card, tool
from browser.test_friends import Person, open_friends_table
from spades.server.run import BackgroundServer

NORMAL = "normal"

MOMENT = """() => {
  // Where the page is: a finished trick held on the table ("held": every seat's card there, the winner's
  // marked, none moving), the table busy showing moves, or waiting for this person's bid or card.
  const played = [...document.querySelectorAll("#trick .played")];
  const seats = document.querySelectorAll(".seat .nameplate").length;
  const busy = document.body.classList.contains("busy");
  if (busy && seats && played.length === seats && document.querySelector("#trick .played.winner")
      && played.every((el) => !el.getAnimations().length)) return "held";
  if (busy) return "busy";
  if (document.querySelector("#panel .bid-btn[data-bid='3']")) return "bid";
  return document.querySelector("#hand .card.legal") ? "play" : "wait";
}"""


def until_a_trick_is_held(page: Page, limit: int = 3000) -> None:
    """Bid and play as a person does, without waiting for the table to settle, until a finished trick is
    held on the table."""
    for _ in range(limit):
        moment = page.evaluate(MOMENT)
        if moment == "held":
            return
        if moment == "bid":
            bid = page.locator("#panel .bid-btn[data-bid='3']")
            bid.click()
            expect(bid).not_to_be_attached()  # the move is in before the next one is looked for
        elif moment == "play":
            card = page.locator("#hand .card.legal").first.get_attribute("data-card")
            tap_card(page, page.locator(f"#hand .card[data-card='{card}']"))
            expect(page.locator(f"#hand .card[data-card='{card}']")).not_to_be_attached()
        else:
            page.wait_for_timeout(20)
    raise AssertionError("no finished trick was held on the table")


def test_a_held_trick_eats_no_key_or_click_meant_for_the_chat_the_reactions_or_the_tools(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann = Person(fresh_page, "Ann", speed=NORMAL)
    open_friends_table(ann)
    ann.page.locator("#btn-start").click()
    page = ann.page
    log = page.locator("#chat-log p")

    until_a_trick_is_held(page)
    page.locator("#chat-text").press_sequentially("hello")  # focused by the keys' own way, then typed
    page.locator("#chat-text").press("Enter")
    expect(log.last).to_have_text("You: hello")  # every letter, the first too

    until_a_trick_is_held(page)
    page.locator("#reactions").get_by_role("button", name="Nice!").click()
    expect(log).to_have_count(2)
    expect(log.last).to_have_text("You: Nice!")

    until_a_trick_is_held(page)
    tool(page, "Table").click()
    expect(page.locator("#dlg-table")).to_be_visible()
    page.locator("#dlg-table").get_by_role("button", name="Close").click()
    until_a_trick_is_held(page)  # and the game goes on
    assert ann.errors == []

