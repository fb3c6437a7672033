"""A hosted tournament in headless Chromium: eight people (eight browser profiles) at a two-table duplicate
of two boards. The host creates it from the page and lists it, the others find it in the list (or the
lobby's) and register,
the host starts it, each
page takes its person to their seat, they play at normal animation speed, and back on the tournament's page
every page shows the standings and travellers the test works out itself from the tables' results; both
tables held the same cards; no page logs a console error."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from playwright.sync_api import Page, expect

from browser.table import NewPage, settle, take_turn
from browser.test_accessibility import assert_clean
from browser.test_rough_edges import collect_errors
from server.test_tournaments import PEOPLE, held
from spades.server.run import BackgroundServer
from spades.tournament.scores import matchpoints


def board_done(page: Page, last: bool) -> bool:
    """Whether the page shows the score sheet of a board (``last``: the last, where no Next board is)."""
    return page.locator("#dlg-sheet").is_visible() and (page.locator("#btn-next").is_hidden() if last else
                                                         page.locator("#btn-next").is_visible())


def play_board(pages: list[Page], dealers: set[int], last: bool) -> None:
    """Everyone takes their turn as it comes until every page shows the board's score sheet; then (but the
    last board) one person at each table deals the next board."""
    for _ in range(2000):
        waiting = [i for i, p in enumerate(pages) if not board_done(p, last)]
        if not waiting:
            break
        for i in waiting:
            take_turn(pages[i], deal_on=False)
    else:
        raise AssertionError("a board never ended at every table")
    if not last:
        for i in dealers:
            expect(pages[i].locator("#btn-next")).to_have_text("Next board")
            pages[i].locator("#btn-next").click()
        for p in pages:
            settle(p)


def test_eight_people_play_a_two_table_duplicate_from_their_pages(fresh_page: NewPage,
                                                                   server: BackgroundServer) -> None:
    pages = [fresh_page() for _ in PEOPLE]
    errors: list[str] = []
    asked: list[str] = []  # the pages follow the tournament over a WebSocket: they never ask for it
    for p in pages:
        collect_errors(p, errors)
        p.on("request", lambda r: asked.append(r.url) if re.search(r"/api/tournaments/\w+$", r.url) else None)
    host = pages[0]
    host.goto("/tournaments")
    form = host.locator("#create-form")
    form.get_by_label("Name").fill("Thursday pairs")
    form.get_by_label("Rounds").fill("1")
    form.get_by_label("Boards a round").fill("2")
    form.get_by_role("spinbutton", name="Game to").fill("100")
    form.get_by_label("List it here, for anyone to join").check()
    assert_clean(host, "the tournament's form")
    host.get_by_role("button", name="Create").click()
    host.wait_for_url(re.compile(r"/tournaments/[A-Z2-9]{6}$"))
    link = host.url
    for i, (name, page) in enumerate(zip(PEOPLE, pages, strict=True)):
        if page is not host:  # the others find it in the list of tournaments to join (one in the lobby's)
            page.goto("/lobby" if i == 1 else "/tournaments")
            listed = "Thursday pairs · duplicate pairs, custom rules to 100, 1 round of 2 boards"
            expect(page.locator("#tournaments li" if i == 1 else "#listed-list li")).to_have_text(
                f"{listed} · {i} registered so far")
            page.get_by_role("link", name="Thursday pairs").click()
            page.wait_for_url(link)
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Register").click()
        expect(page.locator("#people")).to_contain_text(name)
    expect(host.locator("#people li")).to_have_count(8)
    assert_clean(host, "the tournament before the start")
    host.get_by_role("button", name="Start the tournament").click()
    for page in pages:
        page.wait_for_url(re.compile(r"/\?table=[A-Z2-9]{6}$"))
        page.wait_for_selector("body[data-ready=yes]")
    tables: dict[str, list[int]] = defaultdict(list)
    for i, page in enumerate(pages):
        tables[page.url.split("?table=")[1]].append(i)
    assert len(tables) == 2 and sorted(len(v) for v in tables.values()) == [4, 4]
    dealers = {people[0] for people in tables.values()}
    play_board(pages, dealers, last=False)
    play_board(pages, dealers, last=True)
    api = link.replace("/tournaments/", "/api/tournaments/")
    results: dict[str, Any] = host.request.get(api + "/results.json").json()
    mp: dict[str, int] = defaultdict(int)
    for board in results["travellers"]:
        lines = board["lines"]
        assert len(lines) == 2 and held(lines[0]) == held(lines[1])  # the same cards at both tables
        for line, a, b in zip(lines, matchpoints([x["ns_result"] for x in lines]),
                              matchpoints([-x["ns_result"] for x in lines]), strict=True):
            mp[line["ns"]] += a
            mp[line["ew"]] += b
    assert len(results["travellers"]) == 2 and sum(mp.values()) == 2 * 2 * 2
    for page in pages:
        page.get_by_role("link", name="Back to the tournament").click()
        expect(page.locator("#status")).to_contain_text("over")
        rows = page.locator("#standings tr")
        expect(rows).to_have_count(5)
        cells = [rows.nth(k).locator("td") for k in range(1, 5)]
        shown = {c.nth(1).inner_text(): int(c.nth(2).inner_text()) for c in cells}
        assert shown == dict(mp)
        expect(page.locator("#travellers section")).to_have_count(2)
        expect(page.locator("#travellers tr")).to_have_count(2 * 3)
        deals = [b["deal"] for b in results["travellers"]]
        expect(page.locator("#travellers h3 a")).to_have_text([f"play deal {d}" for d in deals])
        board = f"/?deal={deals[0]}&board={link.rsplit('/', 1)[1]}"  # the tournament's code: its rules
        expect(page.locator("#travellers h3 a").first).to_have_attribute("href", board)
    assert_clean(host, "the tournament's results")
    pages[1].locator("#travellers h3 a").first.click()  # a board to play again, alone
    pages[1].wait_for_selector("body[data-ready=yes]")
    expect(pages[1].locator("#hand .card")).to_have_count(13)
    expect(pages[1].locator(".target")).to_have_text("to 100")  # the tournament's rules, not the player's
    assert not errors, errors
    assert asked == [], asked
