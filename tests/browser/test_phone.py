"""A phone, upright and sideways: every card of the hand wide enough to tap, no control over another."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.table import NewPage, change_settings, open_table, settle, tap_bid, tap_card, tool

TAPPABLE = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
  // How wide a strip of the card a finger can hit: along a line near its top, the points where it is on top.
  const r = card.getBoundingClientRect();
  const y = r.top + 10;
  let width = 0;
  for (let x = Math.max(0, r.left); x < Math.min(innerWidth, r.right); x++) {
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('.card') === card) width++;
  }
  return width;
})"""

CONTROLS = """() => [...document.querySelectorAll(
    'button:not(#hand .card), a.button, .nameplate, .score, #message, .bid-summary, .passinfo')]
  .filter((el) => el.offsetParent !== null && el.textContent.trim() !== '' && !el.closest('dialog'))
  .map((el) => { const r = el.getBoundingClientRect();
    return {name: el.id || el.className || el.tagName, x: r.left, y: r.top, w: r.width, h: r.height}; })"""


PLAYED = """() => [...document.querySelectorAll('#trick .played')].map((el) => {
    const r = el.getBoundingClientRect();
    return {name: 'played ' + el.dataset.card, x: r.left, y: r.top, w: r.width, h: r.height, card: true};
  })"""


def overlapping(page: Page) -> list[tuple[str, str]]:
    """Every pair of visible controls or played cards whose boxes share area (beyond a pixel's rounding)."""
    boxes = page.evaluate(CONTROLS) + page.evaluate(PLAYED)
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            wide = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            tall = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if wide > 1 and tall > 1:
                pairs.append((a["name"], b["name"]))
    return pairs


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390), (360, 740)])
def test_every_card_can_be_tapped_and_no_control_covers_another(fresh_page: NewPage, width: int,
                                                                  height: int) -> None:
    page = fresh_page(width, height)
    open_table(page, "/?deal=42")
    change_settings(page, auto_play=False)
    widths = page.evaluate(TAPPABLE)
    assert len(widths) == 13 and min(widths) >= 44, widths
    assert overlapping(page) == [], "while bidding"
    tap_bid(page)
    played: list[float] = []
    for turn in range(4):
        widths = page.evaluate(TAPPABLE)
        assert min(widths) >= 44, (turn, widths)
        assert overlapping(page) == [], turn
        played += [p["w"] for p in page.evaluate(PLAYED)]
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)
    assert played and min(played) >= 60, played  # the cards on the table large enough to read at a glance


def test_on_an_upright_phone_the_tools_fold_into_a_menu(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page)
    stats = page.locator("#tools").get_by_role("button", name="Stats")
    expect(stats).to_be_hidden()
    menu = page.locator("#btn-menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    tool(page, "Stats").click()  # opens the menu, then the tool
    expect(page.locator("#dlg-stats")).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")  # choosing a tool closed it
    page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    menu.click()
    expect(stats).to_be_visible()
    page.keyboard.press("Escape")
    expect(stats).to_be_hidden()


TOOLS_ROW = """() => {
  // Each tool in view and the Menu button, and how far its middle is from the deal number's: one row.
  const middle = (el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
  const row = middle(document.getElementById('deal-label'));
  return [...document.querySelectorAll('#tools button, #tools a')].filter((el) => el.offsetParent !== null)
    .map((el) => [el.textContent.trim(), Math.abs(middle(el) - row)]);
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390), (360, 740), (1100, 820), (1400, 900)])
def test_the_tools_keep_to_one_row_and_the_rest_are_in_the_menu(fresh_page: NewPage, width: int,
                                                                height: int) -> None:
    page = fresh_page(width, height)
    open_table(page)
    shown = page.evaluate(TOOLS_ROW)
    assert all(off < 2 for _, off in shown), shown
    names = [name for name, _ in shown]
    if "Menu" not in names:  # a wide screen: every tool in the row
        assert len(names) == page.locator("#tools button:not([hidden]), #tools a").count() - 1
        return
    assert "Scorekeeper" not in names
    page.locator("#btn-menu").click()
    expect(page.locator("#more").get_by_role("link", name="Scorekeeper")).to_be_visible()
    box = page.locator("#more").bounding_box()
    assert box is not None and box["y"] + box["height"] <= height  # all of the menu in view


def test_on_a_phone_the_rules_page_leads_back_to_the_table(fresh_page: NewPage) -> None:
    page = fresh_page(360, 740)
    page.goto("/rules")
    page.get_by_role("link", name="Back to the table").click()
    expect(page.locator("#deal-label")).to_contain_text("Deal #")
