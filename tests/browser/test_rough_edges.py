"""No rough edges: no console error in normal use, a ?deal= link asks before replacing a game under way,
and Settings says it saved and when new rules apply."""

from __future__ import annotations

from playwright.sync_api import ConsoleMessage, Page, expect

from browser.table import NewPage, change_settings, open_table, play_until, settle


def collect_errors(page: Page) -> list[str]:
    """Every console error and uncaught exception the page will report from now on."""
    errors: list[str] = []

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
    page.get_by_role("button", name="Stats").click()
    page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    page.goto("/rules")
    expect(page.get_by_role("heading", name="How to play Spades")).to_be_visible()
    page.goto("/scorekeeper")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    assert errors == []
