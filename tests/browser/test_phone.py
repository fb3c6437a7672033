"""A phone, upright and sideways: every card of the hand wide enough to tap, no control over another."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.table import NewPage, change_settings, open_table, settle, tap_card, tool

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
    """Every pair of visible controls, or of a played card and a control, whose boxes share area
    (more than a pixel's rounding); played cards may overlap one another, as on a table."""
    boxes = page.evaluate(CONTROLS) + page.evaluate(PLAYED)
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a.get("card") and b.get("card"):
                continue
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
    page.locator(".bid-btn[data-bid='3']").click()
    settle(page)
    for turn in range(4):
        widths = page.evaluate(TAPPABLE)
        assert min(widths) >= 44, (turn, widths)
        assert overlapping(page) == [], turn
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)


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
