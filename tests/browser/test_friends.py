"""Friends at one table in headless Chromium: four people (four browser profiles) open and join a
table by its link or code, sit down, play over the WebSocket, talk, leave and come back.

Every WebSocket frame each page receives is kept and checked against the table's log: no frame to a
seat holds another seat's unplayed card; the pages' DOM is checked against the server's table too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from browser.table import NewPage, change_settings, open_table, settle, take_turn, tool
from browser.test_accessibility import assert_clean
from browser.test_rough_edges import collect_errors
from browser.test_security_policy import WATCH
from server.tables_client import app_state, check_no_hidden_cards
from spades.cards import Card
from spades.game import Phase
from spades.server.run import BackgroundServer


class Person:
    """One person's browser profile and page, with every WebSocket frame its page received and every
    console error its pages logged."""

    def __init__(self, fresh_page: NewPage, name: str, speed: str = "instant") -> None:
        self.name = name
        self.page = fresh_page()
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.add_init_script(WATCH)  # every page load collects Content-Security-Policy violations
        self.watch(self.page)
        open_table(self.page)
        change_settings(self.page, speed=speed)  # instant unless asked: most tests do not wait for motion

    def watch(self, page: Page) -> None:
        """Keep the frames of every WebSocket the page opens, and its console errors."""
        collect_errors(page, self.errors)

        def opened(ws: Any) -> None:
            ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
        page.on("websocket", opened)

    def reopen(self, path: str) -> None:
        """A new tab in the same profile (its storage kept) on ``path``."""
        self.page = self.page.context.new_page()
        self.page.set_default_timeout(15000)
        self.watch(self.page)
        open_table(self.page, path)

    def last_table(self) -> dict[str, Any]:
        """The table as the last update this person's page received shows it."""
        updates = [f for f in self.frames if f.get("type") == "update"]
        assert updates, f"{self.name} received no update"
        table: dict[str, Any] = updates[-1]["table"]
        return table


def lobby_code(page: Page) -> str:
    """The table's code as the lobby shows it."""
    expect(page.locator("#lobby")).to_be_visible()
    code = page.locator("#lobby-share .code").inner_text()
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code), code
    return code


def open_friends_table(person: Person, grace: int = 5, turn_seconds: int = 0, listed: bool = False) -> str:
    """The host opens a table from the page with their saved rules (``listed`` in the lobby); its code."""
    tool(person.page, "Play with friends").click()
    dialog = person.page.locator("#dlg-friends")
    dialog.get_by_label("Your name").fill(person.name)
    dialog.get_by_label("List the table in the lobby, to join or to watch").set_checked(listed)
    dialog.get_by_label("Seconds away before a computer player takes a seat").fill(str(grace))
    dialog.get_by_label("Seconds for each move, then the computer moves").fill(str(turn_seconds))
    dialog.get_by_role("button", name="Open the table").click()
    person.page.wait_for_url(re.compile(r"\?table="))
    person.page.wait_for_selector("body[data-ready=yes]")
    return lobby_code(person.page)


def sit(person: Person, where: str | None = None) -> None:
    """A visitor types their name and takes a seat (``where``, else the first free one)."""
    page = person.page
    expect(page.locator("#lobby-name")).to_be_visible()
    page.locator("#lobby-name").fill(person.name)
    button = page.locator("#lobby-seats").get_by_role("button", name=f"Sit here: {where}") if where else \
        page.locator("#lobby-seats").get_by_role("button", name=re.compile("^Sit here")).first
    button.click()
    expect(page.locator("#lobby-seats .seat-item.me")).to_contain_text(person.name)


def hidden_cards(server: BackgroundServer, code: str, seat: int) -> tuple[int, set[str]]:
    """The hand being played and the cards ``seat`` may not see now, from the server's own table."""
    def read(t: Any) -> tuple[int, set[str]]:
        g = t.game
        if g is None or g.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return -1, set()
        v = g.view(seat)
        hidden = v.unseen & ~sum(1 << c for c in v.offered) & ~v.passed
        return g.hand_number, {str(Card(c)) for c in range(52) if hidden >> c & 1}
    result: tuple[int, set[str]] = app_state(server).tables.read(code, read)
    return result


def assert_dom_hides_the_others(person: Person, server: BackgroundServer, code: str) -> int:
    """No card element of the page shows a card another seat still holds; 1 if it could check, else 0."""
    shown = set(person.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    seen = person.last_table()
    hand_number, hidden = hidden_cards(server, code, seen["you"])
    if seen["game"] and hand_number == seen["game"]["hand_number"]:  # the page shows the hand the server has
        assert not shown & hidden, f"{person.name} sees {shown & hidden}"
        return 1
    return 0


def play_round(people: list[Person], until: str, server: BackgroundServer, code: str,
               limit: int = 600) -> int:
    """Each person takes their turn as it comes, until every page shows ``until`` ("sheet" or "end").

    Now and then a page's DOM is checked for hidden cards; the number of checks made.
    """
    target = {"sheet": "#dlg-sheet", "end": "#dlg-end"}[until]
    checks = 0
    for step in range(limit):
        if all(p.page.locator(target).is_visible() for p in people):
            return checks
        for p in people:
            settle(p.page)
            if p.page.locator(target).is_visible():
                continue
            if take_turn_at_table(p.page, deals=until == "end" and p is people[0]) and step % 3 == 0:
                checks += assert_dom_hides_the_others(p, server, code)
    raise AssertionError(f"the table never reached {until}")


def take_turn_at_table(page: Page, deals: bool = False) -> bool:
    """Bid or play if it is this page's turn; Next after a hand only for the one who ``deals`` on (asked
    after the page settles: the computer players' last cards may end the hand meanwhile)."""
    return take_turn(page, deal_on=deals) in ("bid", "play")


def check_frames(people: list[Person], server: BackgroundServer, code: str) -> int:
    """Every frame each page received, checked against the table's log; the checks made."""
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for p in people:
        by_seat.setdefault(p.last_table()["you"], []).extend(p.frames)
    made: int = check_no_hidden_cards(app_state(server).tables.log, code, by_seat)
    return made


def test_four_friends_open_join_by_link_and_code_and_play_a_hand(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob, cy, di = (Person(fresh_page, n) for n in ("Ann", "Bob", "Cy", "Di"))
    tool(ann.page, "Play with friends").click()
    expect(ann.page.locator("#dlg-friends details.rule-group").first).to_be_attached()
    assert_clean(ann.page, "the Play with friends dialog")
    ann.page.locator("#dlg-friends").get_by_role("button", name="Cancel").click()
    code = open_friends_table(ann)
    link = ann.page.locator("#lobby-share [data-share]").input_value()
    assert link.endswith(f"/?table={code}")
    expect(ann.page.locator("#btn-start")).to_be_visible()
    assert_clean(ann.page, "the lobby, for the host")

    bob.page.goto(link)  # by the link
    sit(bob, "South")
    tool(cy.page, "Play with friends").click()  # by the code, typed in lower case with a space
    cy.page.locator("#dlg-friends").get_by_label("Table code").fill(f"{code[:3].lower()} {code[3:].lower()}")
    cy.page.locator("#dlg-friends").get_by_role("button", name="Join").click()
    cy.page.locator("#lobby-name").fill("Cy")
    cy.page.locator("#lobby-name").press("Enter")  # the first free seat
    expect(cy.page.locator("#lobby-seats .seat-item.me")).to_contain_text("East")
    di.page.goto(link)
    assert_clean(di.page, "the lobby, for a visitor")
    sit(di)
    expect(ann.page.locator("#lobby-seats h3")).to_have_text(["North & South", "East & West"])  # partners
    expect(ann.page.locator("#lobby-seats .seat-item .who")).to_have_text(
        ["Ann (you, host)", "Bob", "Cy", "Di"])
    names = ann.page.locator("#lobby-seats .seat-item .who")
    ann.page.get_by_role("button", name="Swap seats with me: South").click()  # the host moves people
    expect(names).to_have_text(["Bob", "Ann (you, host)", "Cy", "Di"])
    ann.page.get_by_role("button", name="Swap seats with me: North").click()
    expect(names).to_have_text(["Ann (you, host)", "Bob", "Cy", "Di"])
    expect(bob.page.locator("#btn-start")).to_be_hidden()
    expect(bob.page.locator("#lobby-note")).to_contain_text("Waiting for Ann")

    di.page.get_by_role("button", name="Leave the table").click()  # the seat is free again, and so is Di
    expect(di.page).not_to_have_url(re.compile("table="))
    expect(ann.page.locator("#lobby-seats .seat-item .who").last).to_have_text("Free: a computer player")
    open_table(di.page, link.removeprefix(server.url))
    sit(di)
    eve = fresh_page()  # a fifth person: the table is full
    open_table(eve, link.removeprefix(server.url))
    expect(eve.locator("#lobby-note")).to_contain_text("This table is full")
    open_table(eve, "/?table=ZZZZZZ")
    expect(eve.locator("#lobby-error")).to_contain_text('There is no table with the code "ZZZZZZ"')

    ann.page.locator("#btn-start").click()
    for p in (ann, bob, cy, di):
        expect(p.page.locator("#lobby")).to_be_hidden()
        expect(p.page.locator("#hand .card")).to_have_count(13)
        expect(p.page.locator("#deal-label")).to_have_text(f"Table {code}")
    bob.page.locator("#chat-text").fill("Good luck, <b>all</b>!")
    bob.page.locator("#chat-form").get_by_role("button", name="Send").click()
    cy.page.locator("#reactions").get_by_role("button", name="Nice!").click()
    for p in (ann, bob, cy, di):
        expect(p.page.locator("#chat-log p").first).to_have_text(
            "You: Good luck, <b>all</b>!" if p is bob else "Bob: Good luck, <b>all</b>!")  # text, never HTML
        expect(p.page.locator("#chat-log p.reaction")).to_contain_text("Nice!")
    assert_clean(di.page, "the live table")
    for i in range(5):  # five lines in ten seconds at most: the sixth is refused, with the reason
        bob.page.locator("#chat-text").fill(f"line {i}")
        bob.page.locator("#chat-text").press("Enter")
    expect(bob.page.locator("#chat-error")).to_contain_text("Slow down")
    expect(bob.page.locator("#chat-text")).to_have_value("line 4")  # the line refused is kept, to send later
    expect(ann.page.locator("#chat-log p")).to_have_count(6)
    log = ann.page.locator("#chat-log")  # Ann scrolls up to read, in a log too short for six lines
    log.evaluate("(log) => { log.style.maxHeight = '2.5rem'; log.scrollTop = 0; "
                 "log.firstElementChild.id = 'read'; }")
    bidder = next(p for p in (ann, bob, cy, di) if p.page.locator(".bid-btn").count())
    watcher = next(p for p in (ann, bob, cy, di) if p is not bidder)  # messages name people, not places
    expect(watcher.page.locator("#message")).to_contain_text(f"{bidder.name} to bid.")
    tool(bidder.page, "Hint").click()  # for your own seat, over the seat's token
    expect(bidder.page.locator("#message")).to_contain_text("Hint: bid")
    tool(ann.page, "Table").click()
    expect(ann.page.locator("#table-seats .seat-item.me")).to_contain_text("Ann")
    assert_clean(ann.page, "the Table dialog")
    ann.page.locator("#dlg-table").get_by_role("button", name="Close").click()

    assert play_round([ann, bob, cy, di], "sheet", server, code) > 3
    sheet = ann.page.locator("#dlg-sheet")
    expect(sheet.locator(".sheet tbody tr").first).to_be_visible()
    sheet.get_by_role("button", name="Review hand 1").click()
    expect(sheet.locator(".review-hand .mini")).to_have_count(52)  # over: every hand face up
    expect(sheet.locator("#coach")).to_be_empty()  # this server runs without the coach: the page asks nothing
    ann.page.locator("#btn-next").click()
    for p in (bob, cy, di):  # one person deals on for everyone: their sheets close
        expect(p.page.locator("#dlg-sheet")).to_be_hidden()
        expect(p.page.locator("#hand .card")).to_have_count(13)
    cy.page.locator("#chat-text").fill("Well played")  # Bob may still be too fast for the limit
    cy.page.locator("#chat-text").press("Enter")
    expect(log.locator("p")).to_have_count(7)
    expect(log.locator("p").last).to_have_text("Cy: Well played")
    # the moves and the new line left what Ann reads where it was: not drawn again, not scrolled away
    assert log.evaluate("(log) => log.scrollTop === 0 && log.firstElementChild.id === 'read'")
    assert check_frames([ann, bob, cy, di], server, code) > 50
    for p in (ann, bob, cy, di):
        assert p.page.evaluate("window.__violations") == [], p.name


def test_two_friends_and_two_computer_players_play_a_game_through_a_closed_tab_and_a_lost_connection(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann"), Person(fresh_page, "Bob")
    change_settings(ann.page, target=100)  # the table takes the host's own rules
    code = open_friends_table(ann, grace=5)
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")  # Ann's partner
    expect(ann.page.locator("#lobby-seats .seat-item .who")).to_have_text(
        ["Ann (you, host)", "Bob", "Free: a computer player", "Free: a computer player"])
    ann.page.get_by_role("button", name="Keep for a computer: West").click()  # no one else may sit there
    carl = fresh_page()
    open_table(carl, f"/?table={code}")
    expect(carl.locator("#lobby-seats .seat-item .who")).to_have_text(
        ["Ann (host)", "Bob", "Free: a computer player", "A computer player (kept by the host)"])
    expect(carl.get_by_role("button", name=re.compile("^Sit here"))).to_have_count(1)
    ann.page.locator("#btn-start").click()
    expect(bob.page.locator("#hand .card")).to_have_count(13)
    expect(ann.page.locator(".score.mine .team")).to_have_text("You & Bob")  # the sides by their people

    bob.page.close()  # mid-hand: a computer player takes the seat after the grace period, and play goes on
    status = ann.page.locator("#table-status")
    expect(status).to_contain_text(re.compile(r"Bob is away — a computer player takes over in \d s\."))
    first = int(status.locator("[data-countdown]").inner_text())  # the 5 s grace, counting down
    assert 1 <= first <= 5
    expect(status.locator("[data-countdown]")).to_have_text(re.compile(f"^[0-{first - 1}]$"))
    expect(status).to_contain_text("A computer player plays for Bob", timeout=20000)
    for _ in range(6):
        settle(ann.page)
        take_turn_at_table(ann.page)
    bob.reopen(f"/?table={code}")  # the same browser: its seat token is kept, so the seat comes back
    expect(bob.page.locator("#lobby")).to_be_hidden()
    expect(ann.page.locator("#table-status")).not_to_contain_text("Bob")
    expect(bob.page.locator("#table-status")).not_to_contain_text("your seat")
    assert bob.last_table()["seats"][bob.last_table()["you"]]["name"] == "Bob"

    server.stop()  # the connection drops; the pages try again until the server is back
    for p in (ann, bob):
        expect(p.page.locator("#table-status")).to_contain_text("connection to the table was lost")
    server.start()
    for p in (ann, bob):
        expect(p.page.locator("#table-status")).not_to_contain_text("lost", timeout=20000)
    since = [f for f in ann.frames if f.get("type") == "update"][-1]["seq"]

    play_round([ann, bob], "end", server, code, limit=3000)
    assert check_frames([ann, bob], server, code) > 50
    assert any(f.get("type") == "update" and f["seq"] > since for f in ann.frames)  # play went on after it
    end = ann.page.locator("#dlg-end")
    expect(end.locator(".end-score")).to_have_count(2)
    expect(end.get_by_role("link", name="Replay this game")).to_have_attribute("href", f"/games/{code}-1")
    label = ann.page.locator("#deal-label")
    expect(label).to_have_text(re.compile(rf"Table {code} · deal #\d+"))  # the secret deal, shown now
    end.get_by_role("button", name="Rematch").click()
    for p in (ann, bob):
        expect(p.page.locator("#dlg-end")).to_be_hidden()
        expect(p.page.locator("#hand .card")).to_have_count(13)
        expect(p.page.locator("#deal-label")).to_have_text(f"Table {code}")  # the new deal is secret again

    tool(ann.page, "Table").click()
    ann.page.get_by_role("button", name="Make host: South").click()
    expect(ann.page.locator("#table-seats .seat-item.me .who")).to_have_text("Ann (you)")
    tool(bob.page, "Table").click()
    expect(bob.page.locator("#table-seats .seat-item.me .who")).to_have_text("Bob (you, host)")
    bob.page.locator("#dlg-table").get_by_role("button", name="Close").click()

    tool(bob.page, "Stats").click()  # the friends' game counts in the stats, and is shown apart
    expect(bob.page.locator("[data-stat=played]")).to_have_text("1")
    expect(bob.page.locator("[data-stat=friends-played]")).to_have_text("1")
    expect(bob.page.locator("[data-stat=solo-played]")).to_have_text("0")


def face_up(server: BackgroundServer, code: str) -> tuple[int, set[str]]:
    """The hand being played and the cards played in it so far (all a spectator may see), from the server."""
    def read(t: Any) -> tuple[int, set[str]]:
        g = t.game
        if g is None or g.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return -1, set()
        v = g.view(0)
        return g.hand_number, {str(c) for tr in v.tricks for _, c in tr.cards} | {str(c) for _, c in v.trick}
    result: tuple[int, set[str]] = app_state(server).tables.read(code, read)
    return result


def test_a_spectator_watches_by_the_link_with_no_hand_and_no_moves(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, carl = Person(fresh_page, "Ann"), Person(fresh_page, "Carl")
    code = open_friends_table(ann)
    ann.page.locator("#btn-start").click()
    expect(ann.page.locator("#hand .card")).to_have_count(13)
    carl.page.goto(f"/?table={code}")
    expect(carl.page.locator("#lobby-note")).to_contain_text("The game is under way")
    carl.page.get_by_role("button", name="Watch").click()
    expect(carl.page.locator("#lobby")).to_be_hidden()
    expect(carl.page.locator(".seat .nameplate")).to_have_count(4)
    expect(carl.page.locator("#table-status")).to_contain_text("You are watching")
    expect(carl.page.locator("#chat-form")).to_be_hidden()
    assert_clean(carl.page, "a spectator's table")
    tool(carl.page, "Table").click()  # the seats, and nothing for a spectator to press there
    expect(carl.page.locator("#table-seats .seat-item")).to_have_count(4)
    expect(carl.page.locator("#table-seats").get_by_role("button")).to_have_count(0)
    carl.page.locator("#dlg-table").get_by_role("button", name="Close").click()
    checked = cards = 0
    for _ in range(400):  # Ann plays the hand; the spectator's page shows only the cards played
        if ann.page.locator("#dlg-sheet").is_visible():
            break
        settle(ann.page)
        take_turn_at_table(ann.page)
        settle(carl.page)
        expect(carl.page.locator("#hand [data-card]")).to_have_count(0)
        expect(carl.page.locator(".bid-btn")).to_have_count(0)
        shown = set(carl.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        hand_number, played = face_up(server, code)
        game = carl.last_table()["game"]
        if game and hand_number == game["hand_number"]:
            assert shown <= played, f"the spectator sees {shown - played}"
            checked += 1
            cards += len(shown)
    assert checked > 5 and cards > 0
    expect(carl.page.locator("#dlg-sheet")).to_be_visible()  # the score sheet, as for everyone
    expect(carl.page.locator("#btn-next")).to_be_hidden()  # but only the people deal on
    assert check_frames([ann, carl], server, code) > 50
    assert carl.last_table()["you"] == 4 and carl.page.evaluate("window.__violations") == []
