"""The rules page: written from the rule sheet's source for the rules asked for, every preset linked."""

from __future__ import annotations

import subprocess
from pathlib import Path

from playwright.sync_api import expect

from browser.table import NewPage, tool
from spades.paper.printables import rule_sections
from spades.rules import OPTIONS, find_preset, preset_names


def test_the_rules_page_links_a_rule_sheet_for_every_preset(fresh_page: NewPage, tmp_path: Path) -> None:
    page = fresh_page()
    page.goto("/")
    tool(page, "How to play").click()
    expect(page).to_have_title("How to play Spades")
    headings = [h for h, _ in rule_sections(find_preset("standard"))]
    for heading in [*headings, "The options in force", "Printable rule sheets", "Words used in Spades"]:
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.locator("#options-table tr[data-option]")).to_have_count(len(OPTIONS))
    expect(page.locator("#options-table tr.changed")).to_have_count(0)  # the standard game: nothing marked
    links = page.locator("#preset-sheets a[data-preset]")
    assert [links.nth(i).get_attribute("data-preset") for i in range(links.count())] == preset_names()
    for name in preset_names():  # every listed sheet is served, for the preset it names
        href = links.nth(preset_names().index(name)).get_attribute("href")
        r = page.request.get(href or "")
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
    expect(page.locator("#deal-label")).to_contain_text("Deal #")  # back at the table


def test_a_preset_page_describes_that_preset(fresh_page: NewPage) -> None:
    """Following a preset's link: the sheet's words for those rules, its options marked where they differ."""
    page = fresh_page()
    page.goto("/rules")
    page.click("#preset-sheets a[data-rules-page=three-player]")
    expect(page).to_have_title("How to play Spades: the three-player rules")
    expect(page.locator("#rules-in-force")).to_contain_text("Three players, each playing alone")
    expect(page.locator("#the-deal")).to_contain_text("so each player holds 17 cards")
    changed = page.locator("#options-table tr.changed")
    expect(changed.filter(has_text="Points per bag")).to_contain_text("-10 (standard: 1)")
    expect(changed.filter(has_text="First lead")).to_contain_text("the holder of the lowest club, with it")
    with page.expect_download() as download:
        page.click("#print-rules")
    assert download.value.suggested_filename == "spades-rules.pdf"


def test_changed_options_and_unknown_rules(fresh_page: NewPage) -> None:
    page = fresh_page()
    page.goto("/rules?rules=pagat&set=target=300&set=boston_bonus=200")
    expect(page.locator("#winning")).to_contain_text("reaches 300")
    expect(page.locator("#options-table tr[data-option=boston_bonus]")).to_contain_text("200 (standard: 0)")
    response = page.goto("/rules?rules=poker")
    assert response is not None and response.status == 400
    expect(page.get_by_role("alert")).to_contain_text("Unknown rules preset 'poker'. Known: standard,")
    expect(page.locator("#preset-sheets a[data-rules-page]")).to_have_count(len(preset_names()))
    response = page.goto("/rules?set=bag_value=1000000")
    assert response is not None and response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Points per bag (bag_value) is -100 to 100, not 1000000.")


def test_the_rules_page_reads_on_a_phone(fresh_page: NewPage) -> None:
    page = fresh_page(width=375, height=700)
    page.goto("/rules?rules=three-player")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width}px)"
    expect(page.locator("#the-deal")).to_contain_text("Deal one card at a time")
