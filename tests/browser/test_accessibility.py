"""axe-core scans every page and dialog a player meets: no serious or critical accessibility violation.

axe-core (MPL-2.0) is kept beside the tests in vendor/ with its licence, as the npm registry ships it
(`npm pack axe-core`), so the scan needs no network.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from browser.table import NewPage, change_settings, open_table, play_until, settle, tap_bid, tool

AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def serious_violations(page: Page) -> list[str]:
    """Run axe-core over the page as it is now; each serious or critical violation as 'rule: element'."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated through the debugger, not subject to CSP
    found: list[dict[str, object]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
             .filter((v) => ["serious", "critical"].includes(v.impact))
             .map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3)}))"""
    )
    return [f"{v['id']}: {v['nodes']}" for v in found]


def assert_clean(page: Page, where: str) -> None:
    """Fail with every serious or critical violation axe-core finds, naming where the page was."""
    found = serious_violations(page)
    assert not found, f"{where}: {found}"


def test_the_table_bidding_playing_and_at_the_score_sheet(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    assert_clean(page, "bidding")
    tap_bid(page)
    assert_clean(page, "playing")
    play_until(page, "sheet")
    assert_clean(page, "score sheet")
    page.get_by_role("button", name="Show all hands").click()
    assert_clean(page, "score sheet with all hands")


def test_settings_stats_the_account_the_phone_menu_and_the_leave_question(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page, "/?deal=7")
    tool(page, "Settings").click()
    page.locator("#dlg-settings details.rule-group").first.locator("summary").click()
    assert_clean(page, "settings")
    page.locator("#dlg-settings").get_by_role("button", name="Cancel").click()
    tool(page, "Stats").click()
    expect(page.locator("#dlg-stats")).to_be_visible()
    assert_clean(page, "stats")
    page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    tool(page, "Account").click()
    dialog = page.locator("#dlg-account")
    expect(dialog).to_be_visible()
    assert_clean(page, "account, with none yet")
    dialog.locator("#account-make").get_by_label("Name").fill("Axel")
    dialog.get_by_role("button", name="Make the account").click()
    expect(dialog.locator("#account-name")).to_have_text("Axel")
    assert_clean(page, "account")
    dialog.get_by_role("button", name="Close").click()
    page.locator("#btn-menu").click()
    assert_clean(page, "the phone's menu")
    page.locator(".bid-btn").first.click()  # a game under way: a deal link now asks first
    settle(page)  # once the bid is answered (leaving sooner may leave the game without it)
    open_table(page, "/?deal=8")
    expect(page.locator("#dlg-confirm")).to_be_visible()
    assert_clean(page, "the question before replacing a game")


def test_the_rules_page_and_the_scorekeeper(fresh_page: NewPage) -> None:
    page = fresh_page()
    page.goto("/rules")
    assert_clean(page, "rules page")
    page.goto("/scorekeeper")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    assert_clean(page, "scorekeeper")
