"""The rules page: the standard game, the other tables and house rules, and a rule sheet per preset."""

from __future__ import annotations

import subprocess
from pathlib import Path

from playwright.sync_api import expect

from browser.table import NewPage
from spades.rules import preset_names


def test_the_rules_page_links_a_rule_sheet_for_every_preset(fresh_page: NewPage, tmp_path: Path) -> None:
    page = fresh_page()
    page.goto("/")
    page.click("#link-rules")
    expect(page).to_have_title("How to play Spades")
    for heading in ("The standard game", "Bidding", "Playing the cards", "Scoring", "Three players",
                    "Cutthroat: four players alone", "Two players", "House rules", "Printable rule sheets"):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    links = page.locator("#preset-sheets a[data-preset]")
    assert [links.nth(i).get_attribute("data-preset") for i in range(links.count())] == preset_names()
    for name in preset_names():  # every listed sheet is served, for the preset it names
        r = page.request.get(f"/api/scorekeeper/rule-sheet.pdf?rules={name}")
        assert r.status == 200 and r.body().startswith(b"%PDF-"), name
    page.get_by_role("link", name="Printable rule sheets").click()
    with page.expect_download() as download:
        page.click("#preset-sheets a[data-preset=three-player]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    text = " ".join(subprocess.run(["pdftotext", "-raw", str(saved), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert saved.name == "spades-rules.pdf"
    assert "Three players, each playing alone; the three-player rules." in text and "holds 17 cards" in text
    page.click("#back-to-table")
    expect(page.locator("#link-rules")).to_be_visible()  # back at the table


def test_the_rules_page_reads_on_a_phone(fresh_page: NewPage) -> None:
    page = fresh_page(width=375, height=700)
    page.goto("/rules")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width}px)"
    expect(page.locator("#three")).to_contain_text("Deal 17 cards each")
