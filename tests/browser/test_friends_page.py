"""The friends' table page as four people met it, at the normal animation speed: input while a finished
trick is held, chat and the status line while the cards move, the lobby's tools, the name "You", the
lobby's news, and a visitor's lobby that is live and offers to watch. No page logs a console error."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser.table import NewPage, tap_card, tool
from browser.test_friends import Person, open_friends_table, sit
from spades.server.run import BackgroundServer

NORMAL = "normal"


MOMENT = """() => {
  // Where the page is: a finished trick held on the table ("held": every seat's card there, the winner's
  // marked, none moving), the table busy showing moves, or waiting for this person's bid or card.
  const played = [...document.querySelectorAll("#trick .played")];
  const seats = document.querySelectorAll(".seat .nameplate").length;
  const busy = document.body.classList.contains("busy");
  if (busy && seats && played.length === seats && document.querySelector("#trick .played.winner")
      && played.every((el) => !el.getAnimations().length)) return "held";
  if (busy) return "busy";
  if (document.querySelector("#panel .bid-btn[data-bid='3']")) return "bid";
  return document.querySelector("#hand .card.legal") ? "play" : "wait";
}"""


HELD = f"({MOMENT})() === 'held'"
"""Script: whether a finished trick is held on the table."""


def play_until(page: Page, done: str, *players: Page, limit: int = 3000) -> None:
    """The ``players`` bid and play as people do (without waiting for their tables to settle) until the
    script ``done`` is true on ``page``."""
    for _ in range(limit):
        if page.evaluate(done):
            return
        if not any(take_a_turn(p) for p in players):
            page.wait_for_timeout(20)
    raise AssertionError(f"never true: {done}")


def take_a_turn(page: Page) -> bool:
    """Bid 3 or play a playable card if the page waits for this person to; whether it did."""
    moment = page.evaluate(MOMENT)
    if moment == "bid":
        bid = page.locator("#panel .bid-btn[data-bid='3']")
        bid.click()
        expect(bid).not_to_be_attached()  # the move is in before the next one is looked for
    elif moment == "play":
        name = page.locator("#hand .card.legal").first.get_attribute("data-card")
        card = page.locator(f"#hand .card[data-card='{name}']")
        tap_card(page, card)
        expect(card).not_to_be_attached()
    return moment in ("bid", "play")


def test_a_held_trick_eats_no_key_or_click_meant_for_the_chat_the_reactions_or_the_tools(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann = Person(fresh_page, "Ann", speed=NORMAL)
    open_friends_table(ann)
    ann.page.locator("#btn-start").click()
    page = ann.page
    log = page.locator("#chat-log p")

    play_until(page, HELD, page)
    page.locator("#chat-text").press_sequentially("hello")  # focused by the keys' own way, then typed
    page.locator("#chat-text").press("Enter")
    expect(log.last).to_have_text("You: hello")  # every letter, the first too

    play_until(page, HELD, page)
    page.locator("#reactions").get_by_role("button", name="Nice!").click()
    expect(log).to_have_count(2)
    expect(log.last).to_have_text("You: Nice!")

    play_until(page, HELD, page)
    tool(page, "Table").click()
    expect(page.locator("#dlg-table")).to_be_visible()
    page.locator("#dlg-table").get_by_role("button", name="Close").click()
    play_until(page, HELD, page)  # and the game goes on
    assert ann.errors == []


FREEZE = """() => {
  // Hold every card in flight where it is (as a slow phone takes its time): the page stays busy showing
  // the moves until THAW lets them go on. How many were moving.
  const moving = document.getAnimations().filter((a) => a.playState === "running");
  for (const a of moving) a.pause();
  window.frozen = moving;
  return moving.length;
}"""
THAW = "() => { for (const a of window.frozen) a.play(); }"


WRITE_DOWN = """() => {
  // Each chat line and status line as it appears, with whether the table was busy showing moves then,
  // and each number the countdowns showed, in order.
  window.seen = { chat: [], status: [], counts: [] };
  const busy = () => document.body.classList.contains("busy");
  new MutationObserver((changes) => {
    for (const c of changes) for (const p of c.addedNodes) window.seen.chat.push([p.textContent, busy()]);
  }).observe(document.getElementById("chat-log"), { childList: true });
  const status = document.getElementById("table-status");
  new MutationObserver(() => {
    window.seen.status.push([status.textContent, busy()]);
    const n = status.querySelector("[data-countdown]");
    if (n && n.textContent !== "") window.seen.counts.push(Number(n.textContent));
  }).observe(status, { childList: true, subtree: true, characterData: true });
}"""


def test_chat_and_the_status_line_show_at_once_while_the_cards_move(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann", speed=NORMAL), Person(fresh_page, "Bob", speed=NORMAL)
    code = open_friends_table(ann, grace=5)
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    ann.page.evaluate(WRITE_DOWN)
    ann.page.locator("#btn-start").click()
    play_until(ann.page, FREEZE, ann.page, bob.page)  # a card moves on Ann's page, and stays on its way

    bob.page.locator("#chat-text").fill("Good luck")
    bob.page.locator("#chat-text").press("Enter")
    ann.page.locator("#chat-text").fill("You too")
    ann.page.locator("#chat-text").press("Enter")
    for p in (ann, bob):
        expect(p.page.locator("#chat-log p")).to_have_count(2)
    bob.page.close()  # Bob is away: a computer player takes his seat after 5 s
    status = ann.page.locator("#table-status")
    expect(status).to_contain_text(re.compile(r"Bob is away — a computer player takes over in [1-5] s\."))
    expect(status).to_contain_text("A computer player plays for Bob.", timeout=15000)
    seen = ann.page.evaluate("window.seen")
    assert ann.page.evaluate("document.body.classList.contains('busy')")  # the cards are still moving
    assert seen["chat"] == [["Bob: Good luck", True], ["You: You too", True]]
    assert [busy for _, busy in seen["status"]] == [True] * len(seen["status"])
    counts = seen["counts"]
    assert counts and counts == sorted(counts, reverse=True) and counts[-1] <= 1, counts  # down, never up

    ann.page.evaluate(THAW)
    play_until(ann.page, HELD, ann.page)  # the game goes on, the computer player in Bob's seat
    assert ann.errors == [] and bob.errors == []


GAME_TOOLS = ("Hint", "Last trick", "Score sheet")


def test_the_tools_for_a_game_wait_in_the_lobby_until_there_is_one(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann", speed=NORMAL), Person(fresh_page, "Bob", speed=NORMAL)
    code = open_friends_table(ann)
    bob.page.goto(f"/?table={code}")
    for p in (ann, bob):  # the host, and a visitor
        for name in GAME_TOOLS:
            expect(tool(p.page, name)).to_be_disabled()
    sit(bob, "South")
    for name in GAME_TOOLS:
        expect(tool(bob.page, name)).to_be_disabled()
    ann.page.locator("#btn-start").click()
    expect(tool(ann.page, "Hint")).to_be_enabled()
    play_until(ann.page, f"({MOMENT})() === 'bid'", bob.page)
    tool(ann.page, "Hint").click()
    expect(ann.page.locator("#message")).to_contain_text("Hint: bid")
    expect(tool(ann.page, "Last trick")).to_be_disabled()  # none won yet
    play_until(ann.page, HELD, ann.page, bob.page)
    expect(tool(ann.page, "Last trick")).to_be_enabled()
    assert ann.errors == [] and bob.errors == []

def test_the_lobby_tells_who_sits_down_and_who_leaves(fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, eve = Person(fresh_page, "Ann", speed=NORMAL), Person(fresh_page, "Eve", speed=NORMAL)
    code = open_friends_table(ann)
    news = ann.page.locator("#table-news")
    eve.page.goto(f"/?table={code}")
    sit(eve, "East")
    expect(news).to_have_text("Eve sat down.")
    expect(news).to_be_visible()
    eve.page.get_by_role("button", name="Leave the table").click()
    expect(news).to_have_text("Eve left the table.")
    expect(ann.page.locator("#lobby-seats .seat-item .who")).to_have_text(
        ["Ann (you, host)"] + ["Free: a computer player"] * 3)
    assert ann.errors == [] and eve.errors == []

def test_a_visitor_sees_the_lobby_live_and_may_watch_while_a_seat_is_free(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann", speed=NORMAL), Person(fresh_page, "Bob", speed=NORMAL)
    carl = Person(fresh_page, "Carl", speed=NORMAL)
    code = open_friends_table(ann)
    asked: list[str] = []  # what Carl's page asks the server about the table over HTTP
    carl.page.on("request", lambda r: asked.append(r.url) if f"/api/tables/{code}" in r.url else None)
    carl.page.goto(f"/?table={code}")
    names = carl.page.locator("#lobby-seats .seat-item .who")
    expect(names).to_have_text(["Ann (host)"] + ["Free: a computer player"] * 3)
    bob.page.goto(f"/?table={code}")
    sit(bob, "South")
    expect(names).to_have_text(["Ann (host)", "Bob", "Free: a computer player", "Free: a computer player"])
    assert len(asked) == 1, asked  # the change came over the table's live channel, not by asking again

    carl.page.get_by_role("button", name="Watch").click()
    expect(carl.page.locator("#lobby-note")).to_contain_text("You are watching")
    expect(carl.page.get_by_role("button", name="Watch")).to_be_hidden()
    ann.page.locator("#btn-start").click()
    expect(carl.page.locator("#lobby")).to_be_hidden()
    expect(carl.page.locator(".seat .nameplate")).to_have_count(4)
    expect(carl.page.locator("#table-status")).to_contain_text("You are watching")
    expect(carl.page.locator("#hand [data-card]")).to_have_count(0)
    carl.page.reload()  # and a reload watches on
    expect(carl.page.locator("#table-status")).to_contain_text("You are watching")
    assert ann.errors == [] and bob.errors == [] and carl.errors == []


RESERVED = 'The name "You" is kept for each person\'s own seat: choose another name.'


def test_the_name_you_is_refused_as_kept_for_each_persons_own_seat(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann", speed=NORMAL), Person(fresh_page, "You", speed=NORMAL)
    code = open_friends_table(ann)
    bob.page.goto(f"/?table={code}")
    bob.page.locator("#lobby-name").fill("You")
    bob.page.locator("#lobby-seats").get_by_role("button", name="Sit here: South").click()
    expect(bob.page.locator("#lobby-error")).to_have_text(RESERVED)
    expect(bob.page.locator("#lobby-seats").get_by_role("button", name="Sit here: South")).to_be_visible()
    expect(ann.page.locator("#lobby-seats .seat-item .who")).to_have_text(
        ["Ann (you, host)"] + ["Free: a computer player"] * 3)  # nothing changed
    refused = f"422 (Unprocessable Entity) ({server.url}/api/tables/{code}/seats)"
    assert ann.errors == [] and bob.errors == [  # the browser's own line for the refusal, and no other
        f"Failed to load resource: the server responded with a status of {refused}"]

