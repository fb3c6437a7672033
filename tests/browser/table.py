"""What a person does at the table, as Playwright steps: open it, change settings, bid, play."""

from __future__ import annotations

import time
from typing import Any, Protocol

from playwright.sync_api import Locator, Page, expect


class NewPage(Protocol):
    """Makes a page in a fresh browser profile with a viewport of the given size."""

    def __call__(self, width: int = 1100, height: int = 820) -> Page: ...


CURRENT_GAME = """async () => {
  const headers = {"X-Player-Token": localStorage.getItem("spades.token")};
  return (await fetch("/api/games/current", {headers})).json();
}"""
"""Script for page.evaluate: the player's game as the API tells the page (to derive what to expect)."""


def open_table(page: Page, path: str = "/") -> None:
    """Load the page and wait until it has drawn its table."""
    page.goto(path)
    page.wait_for_selector("body[data-ready=yes]")
    settle(page)


def settle(page: Page) -> None:
    """Wait until no request or animation is running: the table waits for the person."""
    wait_until(page, "document.body.dataset.ready === 'yes' && !document.body.classList.contains('busy')")


def wait_until(page: Page, expression: str, timeout_ms: float = 15000) -> Any:
    """Poll a script until it is truthy and return its value.

    Playwright's wait_for_function evaluates its predicate with eval, which the server's Content
    Security Policy (no 'unsafe-eval') forbids; page.evaluate goes through the debugger, which it allows.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_ms / 1000:.0f} s: {expression}")
        page.wait_for_timeout(30)


def tool(page: Page, name: str) -> Locator:
    """A button or link of the toolbar, opening the menu first where it went for want of room."""
    page.wait_for_selector("body[data-ready=yes]")  # the tools are placed once the page has started
    found = page.locator("#tools").get_by_role("button", name=name, exact=True).or_(
        page.locator("#tools").get_by_role("link", name=name, exact=True))
    if not found.is_visible() and page.locator("#btn-menu").is_visible():
        page.locator("#btn-menu").click()
    return found


def change_settings(page: Page, *, speed: str | None = "instant", target: int | None = None,
                    table_color: str | None = None, four_color: bool | None = None,
                    preset: str | None = None, options: dict[str, int | bool] | None = None,
                    auto_play: bool | None = None) -> None:
    """Open Settings, change what is asked (a rules preset first, then single rule options), and save."""
    tool(page, "Settings").click()
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    if preset is not None:
        dialog.get_by_label("Preset").select_option(preset)
    for name, value in (options or {}).items():
        field = open_rule_group(page, name)
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    if speed is not None:
        dialog.get_by_label("Animation speed").select_option(speed)
    if table_color is not None:
        dialog.get_by_label("Table colour").select_option(table_color)
    if four_color is not None:
        dialog.get_by_label("Four-colour suits").set_checked(four_color)
    if auto_play is not None:
        dialog.get_by_label("Play my only legal card for me").set_checked(auto_play)
    if target is not None:
        open_rule_group(page, "target").fill(str(target))
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()


def open_rule_group(page: Page, name: str) -> Locator:
    """Open the group of rule options in Settings that holds an option, and give that option's field."""
    group = page.locator(f"#dlg-settings details.rule-group:has([data-option={name}])")
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    return group.locator(f"[data-option={name}]")


def hand(page: Page) -> list[str]:
    """The cards shown in the player's hand."""
    cards: list[str] = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    return cards


def tap_bid(page: Page, tricks: str = "3") -> None:
    """Tap a bid button (``3``, ``nil``...) as a person does, and wait for the table to settle."""
    page.locator(f".bid-btn[data-bid='{tricks}']").click()
    settle(page)


def take_turn(page: Page, deal_on: bool = True) -> str:
    """Do the next thing a person would: draw (keep what is offered), bid 3, play a playable card, or deal
    on (unless not ``deal_on``: then it waits). Says what it did."""
    settle(page)
    if page.locator("#dlg-end").is_visible():
        return "end"
    if page.locator("#btn-next").is_visible():
        if not deal_on:
            return "wait"
        page.locator("#btn-next").click()
        return "next"
    keep = page.locator("#panel .draw button").first
    if keep.count():
        keep.click()
        return "draw"
    bids = page.locator(".bid-btn")
    if bids.count():
        three = page.locator(".bid-btn[data-bid='3']")
        (three if three.count() else bids.first).click()
        return "bid"
    legal = page.locator("#hand .card.legal")
    if legal.count():
        tap_card(page, legal.first)
        return "play"
    page.wait_for_timeout(50)
    return "wait"


def tap_card(page: Page, card: Locator) -> None:
    """Tap a card in the hand where a person would: its left edge, which the next card leaves showing."""
    card.click(position={"x": 6, "y": 24})


def play_until(page: Page, stop: str, limit: int = 2000) -> None:
    """Take turns until ``stop`` ("sheet" after a hand, "end" after the game)."""
    for _ in range(limit):
        settle(page)
        if stop == "sheet" and page.locator("#dlg-sheet").is_visible():
            return
        if take_turn(page) == "end" and stop == "end":
            return
    raise AssertionError(f"Never reached {stop}")
