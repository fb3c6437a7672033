"""The browser game, clicked as a person clicks it, in headless Chromium against the real server."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser.table import (
    CURRENT_GAME,
    NewPage,
    change_settings,
    hand,
    open_table,
    play_until,
    settle,
    take_turn,
    tap_bid,
    tap_card,
    tool,
    wait_until,
)
from spades.server.run import BackgroundServer


def table_snapshot(page: Page) -> dict[str, object]:
    """What the table shows: the hand, the cards in the middle, the seats and the scores."""
    return {
        "hand": hand(page),
        "trick": page.eval_on_selector_all("#trick .played", "els => els.map(e => e.dataset.card)"),
        "seats": page.locator("#felt .nameplate").all_inner_texts(),
        "scores": page.locator("#scores").inner_text(),
        "deal": page.locator("#deal-label").inner_text(),
    }


def test_bid_by_keyboard_and_play_a_whole_hand_by_clicking(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    expect(page.locator("#message")).to_have_text("Your turn to bid.")
    expect(page.locator("#deal-label")).to_have_text("Deal #42")
    assert len(hand(page)) == 13
    page.keyboard.press("3")
    expect(page.locator(".bid-btn[data-bid='3']")).to_be_focused()
    page.keyboard.press("Enter")
    settle(page)
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid 3")
    for pos in ("left", "top", "right"):
        expect(page.locator(f"#seat-{pos} .bid")).not_to_have_text("Bid –")
    first = page.locator("#hand .card.legal").first
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    settle(page)
    assert len(hand(page)) == 12
    play_until(page, "sheet")
    sheet = page.locator("#dlg-sheet")
    expect(sheet.locator("tbody tr:not(.note-row)")).to_have_count(1)
    sheet.get_by_role("button", name="Show all hands").click()
    expect(sheet.locator(".review-hand")).to_have_count(4)
    expect(sheet.locator(".review-hand .mini")).to_have_count(52)
    expect(sheet.locator(".trick-list li")).to_have_count(13)
    sheet.get_by_role("button", name="Hide all hands").click()
    expect(sheet.locator(".review-hand")).to_have_count(0)
    sheet.get_by_role("button", name="Review hand 1").click()
    expect(sheet.locator(".review-hand .mini")).to_have_count(52)


def test_a_whole_game_to_its_end_screen_then_stats_and_new_game(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page, target=60)
    tool(page, "Stats").click()
    expect(page.locator("[data-stat=played]")).to_have_text("0")
    page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    tool(page, "New Game").click()
    settle(page)
    deal = page.locator("#deal-label").inner_text()
    play_until(page, "end")
    end = page.locator("#dlg-end")
    expect(end).to_contain_text("win")
    expect(end.locator("#end-text")).to_contain_text(re.compile(r"Final scores after \d+ hands?:"))
    expect(end.locator(".end-score")).to_have_count(2)
    game = page.evaluate(CURRENT_GAME)
    expect(end.get_by_role("link", name="Replay this game")).to_have_attribute("href", f"/games/{game['id']}")
    end.get_by_role("button", name="New Game").click()
    settle(page)
    expect(page.locator("#deal-label")).not_to_have_text(deal)
    expect(page.locator("#message")).to_have_text("Your turn to bid.")
    tool(page, "Stats").click()
    expect(page.locator("[data-stat=played]")).to_have_text("1")
    assert page.locator("[data-stat=best_score]").inner_text() != "–"


def test_tapping_a_dimmed_card_says_why(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    tap_bid(page)
    dimmed = page.locator("#hand .card.dim")
    assert dimmed.count() > 0
    card = dimmed.first.get_attribute("data-card")
    reasons = page.evaluate(CURRENT_GAME)["reasons"]
    expect(dimmed.first).to_have_attribute("aria-label", re.compile(r"^\w+ of \w+, cannot be played now$"))
    dimmed.first.click()
    expect(page.locator("#message")).to_have_text(reasons[card])
    assert reasons[card].startswith("The first lead may not be a spade")
    assert len(hand(page)) == 13


def test_hint_suggests_a_bid_then_a_card(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=11")
    change_settings(page)
    tool(page, "Hint").click()
    expect(page.locator(".bid-btn.hint")).to_have_count(1)
    expect(page.locator("#message")).to_contain_text("Hint: bid")
    page.locator(".bid-btn.hint").click()
    settle(page)
    tool(page, "Hint").click()
    hinted = page.locator("#hand .card.hint")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator("#message")).to_contain_text("Hint: ")


def play_to_mid_trick(page: Page) -> None:
    """Play on until it is the person's turn with cards already on the table."""
    for _ in range(200):
        if take_turn(page) == "play":
            settle(page)
            in_progress = page.locator("#trick .played:not(.done)").count()
            if in_progress and page.locator("#hand .card.legal").count():
                return
    raise AssertionError("never reached a trick in progress")


def test_reload_mid_trick_finds_the_same_table(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=5")
    change_settings(page)
    play_to_mid_trick(page)
    before = table_snapshot(page)
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    settle(page)
    assert table_snapshot(page) == before


def test_restarting_the_server_mid_hand_finds_the_same_table(fresh_page: NewPage,
                                                             server: BackgroundServer) -> None:
    page = fresh_page()
    open_table(page, "/?deal=6")
    change_settings(page)
    play_to_mid_trick(page)
    before = table_snapshot(page)
    server.stop()
    server.start()
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    settle(page)
    assert table_snapshot(page) == before


def test_a_shared_deal_number_gives_two_fresh_browsers_the_same_hands(fresh_page: NewPage) -> None:
    a, b = fresh_page(), fresh_page()
    open_table(a, "/?deal=987654")
    open_table(b, "/?deal=987654")
    assert hand(a) == hand(b) and len(hand(a)) == 13
    expect(b.locator("#deal-label")).to_have_text("Deal #987654")
    c = fresh_page()
    open_table(c, "/?deal=987655")
    assert hand(c) != hand(a)


def test_a_bad_deal_number_gets_a_clear_message(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=banana")
    expect(page.locator("#message")).to_contain_text('Deal "banana" cannot be played')
    assert len(hand(page)) == 13
    open_table(page, "/?deal=99999999999999999999")
    expect(page.locator("#message")).to_contain_text("cannot be played")


def test_the_daily_deal_is_the_same_in_two_browsers(fresh_page: NewPage) -> None:
    a, b = fresh_page(), fresh_page()
    for p in (a, b):
        open_table(p)
        tool(p, "Daily Deal").click()
        settle(p)
        expect(p.locator("#deal-label")).to_contain_text("Daily Deal")
    assert hand(a) == hand(b)
    assert a.locator("#deal-label").inner_text() == b.locator("#deal-label").inner_text()


def test_settings_persist_across_a_reload(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page, speed="fast", table_color="blue", four_color=True)
    expect(page.locator("body")).to_have_class("table-blue back-blue four-color")
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    expect(page.locator("body")).to_have_class("table-blue back-blue four-color")
    tool(page, "Settings").click()
    expect(page.get_by_label("Animation speed")).to_have_value("fast")
    expect(page.get_by_label("Four-colour suits")).to_be_checked()


def test_the_rules_page_is_reachable_from_the_table(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    tool(page, "How to play").click()
    expect(page.get_by_role("heading", name="Bidding")).to_be_visible()
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_selector("body[data-ready=yes]")
    assert len(hand(page)) == 13


def test_a_stale_tab_gets_the_current_table_and_a_message(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=13")
    change_settings(page)
    stale = page.context.new_page()
    open_table(stale, "/?deal=13")
    tap_bid(page, "2")
    stale.locator(".bid-btn[data-bid='5']").click()
    settle(stale)
    expect(stale.locator("#message")).to_have_text(
        "The table has moved on since that move was chosen: here it is now.")
    expect(stale.locator("#seat-bottom .bid")).to_have_text("Bid 2")
    assert table_snapshot(stale) == table_snapshot(page)


def test_a_double_click_plays_one_card(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, speed="fast")
    tap_bid(page)
    page.locator("#hand .card.legal").first.dblclick(position={"x": 6, "y": 24})
    settle(page)
    assert len(hand(page)) == 12
    your_turn = re.compile(r"^(\w+ took the last trick\. )?Your turn to play\.$")
    expect(page.locator("#message")).to_have_text(your_turn)


def test_the_two_player_draw_is_shown_card_by_card(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    tool(page, "Settings").click()
    page.locator("#dlg-settings").get_by_label("Preset").select_option("two-player")
    page.get_by_label("Animation speed").select_option("instant")
    page.get_by_role("button", name="Save").click()
    tool(page, "New Game").click()
    settle(page)
    for i in range(13):
        expect(page.locator(".offered")).to_have_count(1)
        page.get_by_role("button", name="Keep" if i % 2 else "Refuse").click()
        settle(page)
        assert len(hand(page)) == i + 1
    expect(page.locator(".bid-btn").first).to_be_visible()
    expect(page.locator("#seat-top .name")).to_contain_text("North")


def test_at_instant_speed_no_trick_waits_for_a_tap(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, auto_play=False)
    tap_bid(page)
    went = stayed = 0
    message = page.locator("#message")
    while len(hand(page)) > 1:
        cards = len(hand(page))
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)  # no tap needed to go on
        assert len(hand(page)) == cards - 1
        if page.locator("#trick .played:not(.done)").count():
            went += 1  # won by another seat, who led the next trick at once: the message says who took it
            expect(message).to_contain_text(re.compile(r"(West|North|East) took the last trick\."))
        else:
            stayed += 1  # you won it and lead: it stays until your card
            expect(page.locator("#trick .played.done")).to_have_count(4)
            expect(page.locator("#trick .played.done.winner")).to_have_class(re.compile(r"\bat-bottom\b"))
            expect(message).to_have_text("You took the trick. Your turn to play.")
    assert went and stayed, (went, stayed)
    tap_card(page, page.locator("#hand .card.legal").first)
    settle(page)
    expect(page.locator("#dlg-sheet")).to_be_visible()
    expect(page.locator("#btn-next")).to_be_focused()
    page.keyboard.press("Enter")
    settle(page)
    expect(page.locator("#dlg-sheet")).to_be_hidden()
    assert len(hand(page)) == 13


def test_at_every_timed_speed_a_won_trick_is_shown_with_its_winner(fresh_page: NewPage) -> None:
    page = fresh_page()
    for deal, speed in ((42, "fast"), (43, "normal")):
        open_table(page)
        change_settings(page, speed=speed, auto_play=False)
        open_table(page, f"/?deal={deal}")
        if page.locator("#dlg-confirm").is_visible():  # the game before is under way
            page.get_by_role("button", name=f"Play deal {deal}").click()
        expect(page.locator("#deal-label")).to_have_text(f"Deal #{deal}")  # not the old game's buttons
        settle(page)
        tap_bid(page)
        for _ in range(3):
            tap_card(page, page.locator("#hand .card.legal").first)
            wait_until(page, "document.querySelectorAll('#trick .played').length === 4"
                             " && document.querySelector('#trick .played.winner') !== null")
            settle(page)


def test_a_nil_bidder_who_takes_a_trick_is_marked(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    page.get_by_role("button", name="Bid Nil").click()
    settle(page)
    you = page.locator("#seat-bottom")
    while len(hand(page)) > 0 and not page.locator("#dlg-sheet").is_visible():
        won = page.evaluate(CURRENT_GAME)["seats"][2]["tricks"]
        expect(you).to_have_class(re.compile(r"\bnil-broken\b") if won else re.compile(r"^(?!.*nil-broken)"))
        if won:
            return
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)
    raise AssertionError("the nil never took a trick")


def test_after_your_bid_the_message_says_what_the_others_bid_in_turn(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page)
    tap_bid(page)
    seats = page.evaluate(CURRENT_GAME)["seats"]
    said = " ".join(f"{seats[s]['name']} bids {seats[s]['bid']}." for s in (3, 0, 1))  # West, North, East
    expect(page.locator("#message")).to_have_text(f"{said} Your turn to play.")
    tap_card(page, page.locator("#hand .card.legal").first)
    settle(page)
    expect(page.locator("#message")).not_to_contain_text("bids")
