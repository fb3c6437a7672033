"""The coach in the hand review: after a hand the review shows its progress, then the flagged decisions
("you played X; Y was better by about N points"); after a reload they are there again, read from the
store, not computed a second time. At a friends' table the same, for the person's own seat, and only on the
moves the person made: those a computer player made for them are counted in a line of their own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from browser.table import NewPage, change_settings, open_table, play_until, settle, tool
from browser.test_friends import Person, open_friends_table, play_round, sit, take_turn_at_table
from server.tables_client import app_state
from spades.server.run import BackgroundServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BackgroundServer]:
    """The server with its coach on, at a small sample budget (this checks the page, not the judgement)."""
    with BackgroundServer(tmp_path / "spades.sqlite3", coach_workers=1, coach_samples=4) as s:
        yield s


def coach_flags(page: Page) -> list[str]:
    """The review's coach section once the analysis is done: its flagged decisions' lines."""
    coach = page.locator("#dlg-sheet #coach")
    expect(coach).to_have_attribute("data-status", "done", timeout=120_000)
    expect(coach.locator("progress")).to_have_count(0)
    expect(coach.locator(".coach-note")).to_contain_text(re.compile("cost points|No costly mistakes"))
    lines: list[str] = coach.locator(".coach-flag").all_inner_texts()
    return lines


def game_summary(page: Page) -> tuple[str, list[str]]:
    """The coach's summary of the game under the score sheet once every hand is reviewed: its total
    line and its row for each hand."""
    summary = page.locator("#dlg-sheet #coach-game")
    expect(summary).to_have_attribute("data-status", "done", timeout=120_000)
    rows: list[str] = summary.locator("tbody tr").all_inner_texts()
    return summary.locator(".coach-game-total").inner_text(), rows


def test_the_review_shows_the_coach_flags_and_a_reload_shows_them_again(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    page = fresh_page()
    open_table(page, "/?deal=7")
    change_settings(page)
    play_until(page, "sheet")
    sheet = page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    expect(sheet.locator("#coach")).to_have_attribute("data-status", re.compile("waiting|starting|running"))
    flags = coach_flags(page)
    assert flags, "the simple moves of the test player give the coach something to flag"
    first = flags[0]
    assert first.startswith(("Bid:", "Trick ")) and "was better by about" in first and " points." in first
    assert server.app is not None
    coach = server.app.state.service.coach
    assert coach.analyses == 1
    total, rows = game_summary(page)
    mistakes = len(flags)
    assert total.startswith(f"{mistakes} mistake{'' if mistakes == 1 else 's'} in ")
    assert "over 1 hand: about " in total
    assert len(rows) == 1 and rows[0].split()[:2] == ["1", str(mistakes)]
    costliest = page.locator("#dlg-sheet #coach-game .coach-costliest")
    expect(costliest).to_contain_text("Costliest: hand 1, ")
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    settle(page)
    if not sheet.is_visible():
        tool(page, "Score sheet").click()
    sheet.get_by_role("button", name="Review hand 1").click()
    assert coach_flags(page) == flags
    assert game_summary(page) == (total, rows)
    assert coach.analyses == 1  # kept in the store: the reload did not analyse the hand again


def test_at_a_friends_table_the_review_shows_the_coach_for_your_own_seat(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann = Person(fresh_page, "Ann")
    code = open_friends_table(ann)
    ann.page.locator("#btn-start").click()  # computer players in the three other seats
    play_round([ann], "sheet", server, code)
    sheet = ann.page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    flags = coach_flags(ann.page)
    seat = ann.last_table()["you"]
    reviews = app_state(server).table_service.reviews
    kept = reviews.store.review(subject=f"table {code} game 1 seat {seat}", hand=0)
    assert kept is not None  # reviewed for Ann's seat, kept under the table
    review = json.loads(kept)
    assert review["seat"] == seat and len(flags) == review["mistakes"]
    n = len(review["decisions"])  # "2 decisions of 14 cost points", or "No costly mistakes in 14 decisions"
    expect(sheet.locator("#coach .coach-note")).to_contain_text(re.compile(rf"of {n} cost|in {n} decisions"))
    assert all(re.match(r"(Bid|Trick \d+):\s+you (bid|played) ", f) for f in flags), flags
    total, rows = game_summary(ann.page)
    assert total.startswith(f"{len(flags)} mistake") and len(rows) == 1


def test_moves_a_computer_player_made_for_you_are_not_judged_and_the_review_says_so(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann"), Person(fresh_page, "Bob")
    code = open_friends_table(ann, grace=600)
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    ann.page.locator("#btn-start").click()
    expect(bob.page.locator("#hand .card")).to_have_count(13)
    tool(ann.page, "Table").click()  # the host lets a computer play Bob's seat for a few tricks
    ann.page.locator("#dlg-table").get_by_role("button", name="Let a computer play: South").click()
    ann.page.locator("#dlg-table").get_by_role("button", name="Close").click()
    cards = bob.page.locator("#hand .card")
    for _ in range(300):
        if cards.count() <= 10:
            break
        settle(ann.page)
        take_turn_at_table(ann.page)
    bob.page.locator("#table-status").get_by_role("button", name="Take my seat back").click()
    play_round([ann, bob], "sheet", server, code)

    sheet = bob.page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    flags = coach_flags(bob.page)
    seat = bob.last_table()["you"]
    computer = app_state(server).tables.read(code, lambda t: t.computer_moves_of(seat))
    assert len(computer) >= 4  # the bid and three cards at least
    expect(sheet.locator("#coach .coach-computer")).to_have_text(
        f"A computer player made {len(computer)} of your moves in this hand: the coach judges only yours.")
    reviews = app_state(server).table_service.reviews
    kept = reviews.store.review(subject=f"table {code} game 1 seat {seat}", hand=0)
    assert kept is not None
    review = json.loads(kept)
    assert review["decisions"] and not {d["move_index"] for d in review["decisions"]} & computer
    assert len(flags) == review["mistakes"]
    ann_sheet = ann.page.locator("#dlg-sheet")  # Ann played all her own moves: no such line for her
    ann_sheet.get_by_role("button", name="Show all hands").click()
    coach_flags(ann.page)
    expect(ann_sheet.locator("#coach .coach-computer")).to_have_count(0)
