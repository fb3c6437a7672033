"""More friends' tables in headless Chromium, clicked as people click: the host lets a computer play
an idle seat, tables of two and of three (cutthroat) play a whole hand, the countdowns are right on
a page whose clock is off, and everyone at the table sees whose turn it is and how long is left."""

from __future__ import annotations

import math
import re
import time

import pytest
from playwright.sync_api import Locator, expect

from browser.table import NewPage, change_settings, settle, tool
from browser.test_friends import Person, check_frames, open_friends_table, play_round, sit, take_turn_at_table
from server.tables_client import app_state
from spades.server.run import BackgroundServer


def test_the_host_lets_a_computer_play_an_idle_seat_until_its_person_takes_it_back(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann"), Person(fresh_page, "Bob")
    code = open_friends_table(ann, grace=600)  # Bob stays connected: idle, not away
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    ann.page.locator("#btn-start").click()
    expect(bob.page.locator("#hand .card")).to_have_count(13)
    expect(bob.page.get_by_role("button", name="Take my seat back")).to_have_count(0)

    tool(ann.page, "Table").click()
    dialog = ann.page.locator("#dlg-table")
    dialog.get_by_role("button", name="Let a computer play: South").click()
    south = dialog.locator(".seat-item[data-seat='2'] .who")
    expect(south).to_contain_text("a computer player plays for now")
    expect(dialog.get_by_role("button", name="Let a computer play: South")).to_have_count(0)
    dialog.get_by_role("button", name="Close").click()
    expect(ann.page.locator("#table-status")).to_contain_text("A computer player plays for Bob.")
    expect(bob.page.locator("#table-status")).to_contain_text("A computer player has your seat.")

    cards = bob.page.locator("#hand .card")
    for _ in range(200):  # Ann plays her turns; the computer player plays Bob's cards, Bob does nothing
        if cards.count() < 13:
            break
        settle(ann.page)
        take_turn_at_table(ann.page)
    expect(cards).not_to_have_count(13)
    expect(bob.page.locator(".bid-btn")).to_have_count(0)
    expect(bob.page.locator("#hand .card.legal")).to_have_count(0)  # not his to play while it is covered

    bob.page.locator("#table-status").get_by_role("button", name="Take my seat back").click()
    expect(ann.page.locator("#table-status")).not_to_contain_text("Bob")
    expect(bob.page.locator("#table-status")).not_to_contain_text("your seat")
    assert check_frames([ann, bob], server, code) > 10


@pytest.mark.parametrize(("preset", "names"), [("two-player", ("Ann", "Bob")),
                                               ("three-player", ("Ann", "Bob", "Cy"))])
def test_tables_of_two_and_of_three_play_a_whole_hand(
        preset: str, names: tuple[str, ...], fresh_page: NewPage, server: BackgroundServer) -> None:
    people = [Person(fresh_page, n) for n in names]
    ann = people[0]
    change_settings(ann.page, preset=preset)  # the table takes the host's rules
    code = open_friends_table(ann)
    for p in people[1:]:
        p.page.goto(f"/?table={code}")
        sit(p)
    seats = ann.page.locator("#lobby-seats .seat-item")
    expect(seats).to_have_count(len(people))
    expect(ann.page.locator("#lobby-seats h3")).to_have_count(len(people))  # no partners: a side each
    expect(ann.page.locator("#lobby-seats .seat-item .who")).to_have_text(
        [f"{n} (you, host)" if n == "Ann" else n for n in names])
    ann.page.locator("#btn-start").click()
    for p in people:
        expect(p.page.locator("#lobby")).to_be_hidden()
        expect(p.page.locator("#scores .score")).to_have_count(len(people))

    assert play_round(people, "sheet", server, code, limit=1500) > 3
    for p in people:
        sheet = p.page.locator("#dlg-sheet")
        expect(sheet.locator(".sheet th[scope=colgroup]")).to_have_count(len(people))  # a column group a side
        expect(sheet.locator(".hand-link")).to_have_count(1)  # the one hand played
        sheet.get_by_role("button", name="Review hand 1").click()
        expect(sheet.locator(".review-hand .mini")).not_to_have_count(0)  # over: the hands face up
    assert check_frames(people, server, code) > 50


def clock_off_by(seconds: int) -> str:
    """An init script that sets the page's date ``seconds`` off, as a computer whose clock is wrong has
    it (the page's steady clock, performance.now, runs as ever)."""
    return f"(() => {{ const now = Date.now; Date.now = () => now.call(Date) + {seconds * 1000}; }})();"


def shows(countdown: Locator, server_left: float) -> None:
    """The countdown shows the seconds the server has left (to within one: the two are read apart)."""
    shown = int(countdown.inner_text())
    assert abs(shown - math.ceil(server_left)) <= 1, (shown, server_left)


def test_the_countdowns_count_from_what_the_server_says_is_left_whatever_the_page_clock(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann"), Person(fresh_page, "Bob")
    ann.page.add_init_script(clock_off_by(90))  # a minute and a half ahead, from the table's page on
    code = open_friends_table(ann, grace=60, turn_seconds=60)
    assert ann.page.evaluate("(Date.now() - performance.timeOrigin - performance.now()) / 1000") > 80
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    ann.page.locator("#btn-start").click()
    tables = app_state(server).tables
    status = ann.page.locator("#table-status")
    for _ in range(100):  # Bob takes his turns until it is Ann's
        settle(ann.page)
        if ann.page.locator(".bid-btn").count():
            break
        settle(bob.page)
        take_turn_at_table(bob.page)
    turn = status.locator("[data-countdown]")
    expect(status).to_contain_text(re.compile(r"You have \d+ s for this move, then the computer moves for"))
    shows(turn, tables.read(code, lambda t: t.turn_left(time.time())))
    first = int(turn.inner_text())
    expect(turn).to_have_text(str(first - 2), timeout=5000)  # counting down, by the second
    shows(turn, tables.read(code, lambda t: t.turn_left(time.time())))

    take_turn_at_table(ann.page)
    bob.page.close()  # Bob is away: a computer player takes his seat in 60 s
    away = status.locator("[data-countdown]").first  # the turn timer's, for whoever moves, comes after it
    expect(status).to_contain_text(re.compile(r"Bob is away — a computer player takes over in \d+ s\."))
    shows(away, tables.read(code, lambda t: t.away_left(2, time.time())))
    first = int(away.inner_text())
    expect(away).to_have_text(str(first - 2), timeout=5000)
    shows(away, tables.read(code, lambda t: t.away_left(2, time.time())))
    assert ann.page.evaluate("window.__violations") == []  # no script had to be allowed for it


def test_everyone_at_the_table_and_a_spectator_see_whose_turn_it_is_and_how_long_is_left(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob, carl = Person(fresh_page, "Ann"), Person(fresh_page, "Bob"), Person(fresh_page, "Carl")
    code = open_friends_table(ann, turn_seconds=60)
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    ann.page.locator("#btn-start").click()
    carl.page.goto(f"/?table={code}")
    carl.page.get_by_role("button", name="Watch").click()
    expect(carl.page.locator("#table-status")).to_contain_text("You are watching")
    tables = app_state(server).tables
    bid: list[str] = []
    for _ in range(2):  # the bidding: each person's turn once, the computer players' in between
        mover = next_to_bid([ann, bob])
        expect(mover.page.locator("#table-status")).to_contain_text(
            re.compile(r"You have \d+ s for this move, then the computer moves for you\."))
        for p in (ann, bob, carl):
            if p is mover:
                continue
            status = p.page.locator("#table-status")
            expect(status).to_contain_text(
                re.compile(rf"{mover.name} has \d+ s for this move, then the computer moves for them\."))
            shows(status.locator("[data-countdown]"), tables.read(code, lambda t: t.turn_left(time.time())))
        if not bid:  # and it counts down, by the second, on a page that is not the mover's
            countdown = carl.page.locator("#table-status [data-countdown]")
            first = int(countdown.inner_text())
            expect(countdown).to_have_text(str(first - 2), timeout=5000)
            countdown.evaluate("span => { span.dataset.seen = 'yes'; }")
            other = bob if mover is ann else ann  # news that leaves the line's words as they are
            other.page.locator("#chat-text").fill("Take your time")
            other.page.locator("#chat-text").press("Enter")
            expect(carl.page.locator("#chat-log p")).to_have_text([f"{other.name}: Take your time"])
            expect(countdown).to_have_attribute("data-seen", "yes")  # the line stays: not read out again
            shows(countdown, tables.read(code, lambda t: t.turn_left(time.time())))
        take_turn_at_table(mover.page)
        expect(mover.page.locator(".bid-btn")).to_have_count(0)  # the bid is in: the turn has passed on
        bid.append(mover.name)
    assert sorted(bid) == ["Ann", "Bob"]

    play_round([ann, bob], "sheet", server, code)  # after the hand the timer deals the next one
    for p in (ann, bob, carl):
        expect(p.page.locator("#table-status")).to_contain_text(
            re.compile(r"The next hand is dealt in \d+ s\."))


def next_to_bid(people: list[Person]) -> Person:
    """The person whose page offers bids (it is their turn), once one does."""
    for _ in range(300):
        for p in people:
            if p.page.locator(".bid-btn").count():
                return p
        people[0].page.wait_for_timeout(50)
    raise AssertionError("no one was asked to bid")


def test_a_spectator_who_reloads_the_page_watches_on_until_leaving_the_table(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, carl = Person(fresh_page, "Ann"), Person(fresh_page, "Carl")
    code = open_friends_table(ann)
    ann.page.locator("#btn-start").click()
    carl.page.goto(f"/?table={code}")
    carl.page.get_by_role("button", name="Watch").click()
    status = carl.page.locator("#table-status")
    expect(status).to_contain_text("You are watching")
    for _ in range(3):
        take_turn_at_table(ann.page)
    carl.page.reload()  # back to watching the same table, where it is now
    carl.page.wait_for_selector("body[data-ready=yes]")
    expect(status).to_contain_text("You are watching")
    expect(carl.page.locator("#lobby")).to_be_hidden()
    expect(carl.page.locator(".seat .nameplate")).to_have_count(4)
    game = carl.last_table()["game"]
    assert carl.last_table()["you"] == 4 and game["version"] >= 3 and game["hand"] == []
    seq = carl.last_table()["seq"]
    take_turn_at_table(ann.page)  # and it goes on live
    for _ in range(50):
        if carl.last_table()["seq"] > seq:
            break
        carl.page.wait_for_timeout(100)
    assert carl.last_table()["seq"] > seq

    tool(carl.page, "Table").click()
    carl.page.locator("#dlg-table").get_by_role("button", name="Leave the table").click()
    expect(carl.page).not_to_have_url(re.compile("table="))
    carl.page.goto(f"/?table={code}")  # having left, the link shows the lobby again: watch, or sit down
    expect(carl.page.locator("#lobby")).to_be_visible()
    expect(carl.page.get_by_role("button", name="Watch")).to_be_visible()
    assert check_frames([ann, carl], server, code) > 5


def test_the_others_are_told_who_sits_down_leaves_comes_back_and_hosts_but_not_on_a_resync(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, cy = Person(fresh_page, "Ann"), Person(fresh_page, "Cy")
    code = open_friends_table(ann)
    ann.page.locator("#btn-start").click()
    expect(ann.page.locator("#hand .card")).to_have_count(13)
    news = ann.page.locator("#table-news")
    expect(news).to_be_empty()

    cy.page.goto(f"/?table={code}")
    expect(cy.page.locator("#lobby-note")).to_contain_text("The game is under way")
    cy.page.locator("#lobby-name").fill("Cy")
    cy.page.locator("#lobby-seats").get_by_role("button", name="Sit here: West").click()  # from its computer
    expect(cy.page.locator("#hand .card")).not_to_have_count(0)
    expect(news).to_have_text("Cy sat down.")  # not "back": a first connection is no return
    expect(news).to_have_attribute("aria-live", "polite")
    expect(cy.page.locator("#table-news")).to_be_empty()  # Cy's own page came with the whole table

    tool(cy.page, "Table").click()
    cy.page.locator("#dlg-table").get_by_role("button", name="Leave the table").click()
    expect(news).to_have_text("Cy left the table.")
    expect(ann.page.locator("#table-status")).to_contain_text("A computer player plays for Cy.")
    cy.reopen(f"/?table={code}")  # the same browser: the seat is Cy's again
    expect(news).to_have_text("Cy is back.")
    expect(ann.page.locator("#table-status")).not_to_contain_text("Cy")
    assert news.evaluate("e => e.children.length") == 0  # text, never markup

    ann.reopen(f"/?table={code}")  # the same seat in a new tab: the table comes whole, with no news
    expect(ann.page.locator("#hand .card")).not_to_have_count(0)
    expect(ann.page.locator("#table-news")).to_be_empty()
    expect(cy.page.locator("#table-news")).to_be_empty()  # Ann connecting again is no news either
    tool(ann.page, "Table").click()
    ann.page.locator("#dlg-table").get_by_role("button", name="Leave the table").click()
    expect(cy.page.locator("#table-news")).to_have_text("Ann left the table. You are the host.")


def test_a_quick_second_tap_on_a_card_at_a_table_plays_it_once_without_a_refusal(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann = Person(fresh_page, "Ann", speed="normal")
    code = open_friends_table(ann)
    ann.page.locator("#btn-start").click()  # computer players in the three other seats
    legal = ann.page.locator("#hand .card.legal")
    for _ in range(200):  # her bid, then the computer players' cards until it is hers to play
        settle(ann.page)
        if legal.count():
            break
        take_turn_at_table(ann.page)
    cards = ann.page.locator("#hand .card").count()
    legal.first.dblclick(position={"x": 6, "y": 24})  # the move's answer has not come before the second tap
    expect(ann.page.locator("#hand .card")).to_have_count(cards - 1)
    ann.page.locator("#chat-text").fill("Oops")  # its update comes after any answer to a second move
    ann.page.locator("#chat-text").press("Enter")
    expect(ann.page.locator("#chat-log p").first).to_contain_text("Oops")
    assert [f for f in ann.frames if f.get("type") == "error"] == []
    assert not ann.errors
    assert check_frames([ann], server, code) > 1
