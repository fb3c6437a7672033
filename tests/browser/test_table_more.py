"""The table laid out for every table size and screen, and the rule options' controls, clicked as a person."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.table import (
    CURRENT_GAME,
    NewPage,
    change_settings,
    hand,
    open_table,
    play_until,
    settle,
    tap_bid,
    tap_card,
    tool,
    wait_until,
)


def box(locator: Locator) -> dict[str, float]:
    """Where an element is drawn; it must be drawn."""
    b = locator.bounding_box()
    assert b is not None, "not drawn"
    return {"x": b["x"], "y": b["y"], "width": b["width"], "height": b["height"],
            "cx": b["x"] + b["width"] / 2, "cy": b["y"] + b["height"] / 2}


def new_game_with(page: Page, preset: str, **options: int | bool) -> None:
    """Choose rules in Settings and start a new game with them."""
    change_settings(page, preset=preset, options=options)
    tool(page, "New Game").click()
    settle(page)


def assert_hand_fits(page: Page, min_width: float) -> None:
    """Every card of the hand is wholly on screen, and wide enough to read."""
    view = page.viewport_size
    assert view is not None
    for card in page.locator("#hand .card").all():
        b = box(card)
        assert b["x"] >= 0 and b["x"] + b["width"] <= view["width"], b
        assert b["y"] + b["height"] <= view["height"], b
        assert b["width"] >= min_width, b


def assert_scores_in_one_row(page: Page, sides: int) -> None:
    """Every side's score box sits in one row above the table, wholly on screen."""
    view = page.viewport_size
    assert view is not None
    scores = [box(b) for b in page.locator("#scores .score").all()]
    assert len(scores) == sides
    assert len({round(b["y"]) for b in scores}) == 1, scores
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= view["width"] for b in scores), scores


def test_three_players_sit_in_a_triangle_not_a_table_with_a_hole(fresh_page: NewPage) -> None:
    page = fresh_page(1280, 800)
    open_table(page)
    new_game_with(page, "three-player")
    expect(page.locator("#seat-top")).to_be_hidden()
    trick = box(page.locator("#trick"))
    for pos in ("left", "right"):
        seat = box(page.locator(f"#seat-{pos} .nameplate"))
        assert seat["cy"] < trick["cy"] - trick["height"] * 0.2, (pos, seat, trick)
    you = box(page.locator("#seat-bottom .nameplate"))
    assert you["cy"] > trick["cy"]
    assert len(hand(page)) == 17


def test_two_players_face_each_other_and_the_draw_happens_on_the_table(fresh_page: NewPage) -> None:
    page = fresh_page(1280, 800)
    open_table(page)
    new_game_with(page, "two-player")
    for pos in ("left", "right"):
        expect(page.locator(f"#seat-{pos}")).to_be_hidden()
    north, you = box(page.locator("#seat-top .nameplate")), box(page.locator("#seat-bottom .nameplate"))
    assert abs(north["cx"] - you["cx"]) < 2
    stock = page.locator("#trick .stock")
    for i in range(8):
        offered = page.locator("#trick .offered")
        expect(offered).to_have_count(1)
        expect(stock).to_have_attribute("aria-label", f"Stock: {52 - 4 * i} cards left")
        card = offered.get_attribute("data-card")
        keep = i % 2 == 0
        page.get_by_role("button", name="Keep the" if keep else "Refuse it").click()
        settle(page)
        assert len(hand(page)) == i + 1
        if keep:
            assert card in hand(page)
        assert_hand_fits(page, 60)
    expect(page.locator("#message")).to_contain_text("or discard this one and keep the next")


def test_on_a_phone_the_whole_hand_shows_at_a_readable_size(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page)
    change_settings(page)
    assert len(hand(page)) == 13
    assert_hand_fits(page, 56)
    tool(page, "Settings")  # opens the menu
    for b in page.locator(".bid-btn").all() + page.locator(".tools button:visible").all():
        r = box(b)
        assert r["x"] >= 0 and r["x"] + r["width"] <= 390, r
    new_game_with(page, "three-player")
    assert len(hand(page)) == 17
    assert_hand_fits(page, 45)
    assert_scores_in_one_row(page, 3)
    new_game_with(page, "cutthroat")
    assert_scores_in_one_row(page, 4)


def test_a_one_card_pass_after_nil_says_card(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "standard", nil_pass=1)
    page.get_by_role("button", name="Bid Nil").click()
    settle(page)
    message = re.compile(r"^(\w+ bids \w+\. )*Choose 1 card to pass to your partner\.$")
    expect(page.locator("#message")).to_have_text(message)
    page.locator("#hand .card").first.click(position={"x": 6, "y": 24})
    page.get_by_role("button", name="Pass 1/1 card").click()
    settle(page)
    assert len(hand(page)) == 13
    expect(page.locator(".passinfo")).to_contain_text("You passed")


def test_a_deal_number_that_is_not_one_says_what_a_deal_number_is(fresh_page: NewPage) -> None:
    page = fresh_page()
    for bad in ("banana", "0", "12.5", "99999999999999999999"):
        open_table(page, f"/?deal={bad}")
        expect(page.locator("#message")).to_have_text(
            f'Deal "{bad}" cannot be played: a deal number is a whole number from 1 to 9007199254740991.')
        assert len(hand(page)) == 13
        assert f"deal={bad}" not in page.url


def test_whiz_says_why_only_some_bids_are_offered(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "whiz")
    expect(page.locator("#message")).to_have_text(
        "Your turn to bid. In Whiz you bid the number of spades you hold, or nil.")
    spades = sum(card.endswith("S") for card in hand(page))
    offered = page.locator(".bid-btn").all_inner_texts()
    assert offered == (["Nil", str(spades)] if spades else ["Nil"])


FIND_MISDEAL = """async () => {
  const token = localStorage.getItem("spades.token");
  const headers = {"Content-Type": "application/json", "X-Player-Token": token};
  for (let deal = 1; deal < 2000; deal++) {
    const res = await fetch("/api/games", {method: "POST", headers, body: JSON.stringify({deal})});
    if ((await res.json()).state.can_misdeal) return deal;
  }
  return null;
}"""


def test_a_hand_without_spades_may_be_thrown_in(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page, options={"misdeal_no_spades": True})
    deal = page.evaluate(FIND_MISDEAL)
    assert deal is not None
    open_table(page, f"/?deal={deal}")
    before = hand(page)
    assert not any(card.endswith("S") for card in before)
    page.get_by_role("button", name="Call a misdeal (no spades)").click()
    settle(page)
    assert hand(page) != before and len(hand(page)) == 13
    expect(page.locator("#message")).to_have_text(
        "You call a misdeal: the cards are dealt again. Your turn to bid.")


def test_on_a_phone_the_hand_review_keeps_each_hand_on_one_row(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page)
    new_game_with(page, "three-player")
    play_until(page, "sheet")
    sheet = page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    width = box(sheet)["x"] + box(sheet)["width"]
    for seat in sheet.locator(".review-hand").all():
        minis = [box(m) for m in seat.locator(".mini").all()]
        assert len(minis) == 17
        assert len({round(m["y"]) for m in minis}) == 1
        assert max(m["x"] + m["width"] for m in minis) <= width
    items = [box(li) for li in sheet.locator(".trick-list li").all()]
    assert len(items) == 17
    assert all(a["y"] + a["height"] <= b["y"] + 1 for a, b in pairwise(items))
    expect(sheet.locator(".trick-list li").first).to_contain_text(re.compile("[♠♥♦♣]"))


def test_screen_readers_hear_the_scores_the_trick_and_the_last_trick(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    expect(page.get_by_role("group", name="You & North: 0 points, 0 bags")).to_be_visible()
    tap_bid(page)
    page.locator("#hand .card.legal").first.click(position={"x": 6, "y": 24})
    settle(page)
    tool(page, "Last trick").click()
    last = page.locator("#dlg-last")
    expect(last.get_by_role("img")).to_have_count(4)
    expect(last.get_by_role("img", name=re.compile(r"^You: \w+ of \w+"))).to_have_count(1)
    expect(last.get_by_role("img", name=re.compile(", won the trick$"))).to_have_count(1)
    expect(page.get_by_role("group", name=re.compile(r"^You: bid 3, [01] tricks? won"))).to_have_count(1)


def test_leaving_a_game_under_way_asks_first(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    tool(page, "New Game").click()
    settle(page)
    deal, dealt = page.locator("#deal-label").inner_text(), hand(page)
    tap_bid(page)
    tool(page, "New Game").click()
    ask = page.locator("#dlg-confirm")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("does not count in your stats")
    ask.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid 3")
    tool(page, "Restart").click()
    ask.get_by_role("button", name="Restart").click()
    settle(page)
    expect(page.locator("#deal-label")).to_have_text(deal)
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid –")
    assert hand(page) == dealt
    tool(page, "Daily Deal").click()
    settle(page)
    expect(page.locator("#deal-label")).to_contain_text("Daily Deal")
    tap_bid(page)
    tool(page, "Daily Deal").click()
    settle(page)
    expect(ask).to_be_hidden()
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid 3")
    tool(page, "New Game").click()
    ask.get_by_role("button", name="New Game").click()
    settle(page)
    expect(page.locator("#deal-label")).not_to_contain_text("Daily Deal")


def test_a_phone_held_sideways_shows_the_whole_table_without_scrolling(fresh_page: NewPage) -> None:
    page = fresh_page(844, 390)
    open_table(page)
    change_settings(page)
    tap_bid(page)
    assert page.evaluate("document.documentElement.scrollHeight") <= 390
    for pos in ("top", "left", "right", "bottom"):
        seat = box(page.locator(f"#seat-{pos} .nameplate"))
        assert seat["y"] >= 0 and seat["y"] + seat["height"] <= 390, (pos, seat)
    assert_hand_fits(page, 40)


def test_jokers_are_drawn_as_jokers(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "jokers")
    play_until(page, "sheet")
    sheet = page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    for name in ("big joker", "little joker"):
        joker = sheet.get_by_role("img", name=name, exact=True)
        expect(joker).to_have_count(1)
        expect(joker.locator(f"svg.suit-J.{name.replace(' ', '-')}")).to_have_count(1)
    expect(sheet.locator(".review-hand .mini")).to_have_count(52)


def test_the_score_sheet_offers_next_hand_only_when_a_hand_is_over(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    sheet = page.locator("#dlg-sheet")
    play_until(page, "sheet")
    expect(sheet.get_by_role("button", name="Next hand")).to_be_visible()
    expect(sheet.get_by_role("button", name="Show all hands")).to_be_visible()
    sheet.get_by_role("button", name="Next hand").click()
    settle(page)
    tool(page, "Score sheet").click()
    expect(sheet.locator("tbody tr:not(.note-row)")).to_have_count(1)
    expect(sheet.get_by_role("button", name="Next hand")).to_be_hidden()
    expect(sheet.get_by_role("button", name="Show all hands")).to_be_hidden()


def test_on_a_phone_the_score_sheet_fits_with_one_table_per_side(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page)
    new_game_with(page, "cutthroat")
    play_until(page, "sheet")
    tables = page.locator("#dlg-sheet table.sheet")
    expect(tables).to_have_count(4)
    game = page.evaluate(CURRENT_GAME)
    names = [game["sides"][i]["name"] for i in game["side_order"]]
    for table, name in zip(tables.all(), names, strict=True):
        expect(table.locator("thead")).to_contain_text(name)
        expect(table.locator("thead")).to_contain_text("BidTricksPointsOverBagsTotal")
        fits = table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
        assert fits, name
    expect(page.get_by_role("button", name="Review hand 1")).to_have_count(1)


def test_on_a_wide_screen_four_lone_players_fit_the_sheet_two_by_two(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "cutthroat")
    play_until(page, "sheet")
    tables = page.locator("#dlg-sheet table.sheet")
    expect(tables).to_have_count(2)
    game = page.evaluate(CURRENT_GAME)
    names = [game["sides"][i]["name"] for i in game["side_order"]]
    for table, pair in zip(tables.all(), (names[:2], names[2:]), strict=True):
        expect(table.locator("thead tr").first.locator("th")).to_have_text(["Hand", *pair])
        assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")


def signed(n: int) -> str:
    """A number as the score sheet writes a change: +5, −40, 0."""
    return f"{n:+d}".replace("-", "\u2212") if n else "0"


@pytest.mark.parametrize("width,height", [(1100, 820), (390, 844)])
def test_the_score_sheet_reads_like_a_score_pad_with_the_nil_in_words(
        fresh_page: NewPage, width: int, height: int) -> None:
    page = fresh_page(width, height)
    open_table(page)
    new_game_with(page, "standard")
    page.get_by_role("button", name="Bid Nil").click()
    play_until(page, "sheet")
    game = page.evaluate(CURRENT_GAME)
    sheet = page.locator("#dlg-sheet")
    tables = sheet.locator("table.sheet")
    groups = [[0, 1]] if width > 560 else [[0], [1]]
    expect(tables).to_have_count(len(groups))
    heads = ["Bid", "Tricks", "Points", "Over", "Bags", "Total"]
    for table, sides in zip(tables.all(), groups, strict=True):
        expect(table.locator("thead tr").last.locator("th")).to_have_text(heads * len(sides))
        cells = []
        for side in sides:
            r = game["sheet"][0][side]
            bid = r["bid"].replace("blind nil", "Blind Nil").replace("nil", "Nil")
            cells += [bid, str(r["tricks"]), signed(r["points"]), signed(r["bags"]), str(r["bags_total"]),
                      str(r["total"]).replace("-", "\u2212")]
        expect(table.locator("tbody tr").first.locator("td")).to_have_text(cells)
    mine = tables.first.locator("tbody tr").first
    expect(mine.locator("td").first).to_have_text(re.compile(r"^Nil \+ \d+$"))
    note = tables.first.locator("tbody tr.note-row").first
    expect(note).to_have_text(re.compile(r"You: nil (made \(\+100\)|broken, took \d+ tricks? \(\u2212100\))"))
    # the words are the server's, as it sends them: the page adds none of its own
    expect(note.locator("td").first).to_have_text("; ".join(game["sheet"][0][0]["notes"]))
    assert box(note)["height"] < 2.5 * box(mine)["height"], "the nil's words run to more than two lines"
    expect(sheet.locator(".sheet-legend")).to_contain_text(
        "Bags carry over: each time they reach 10, 100 points are taken off.")
    for wrap in sheet.locator(".sheet-wrap").all():
        assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth"), "the sheet scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert sheet.evaluate("d => d.scrollWidth <= d.clientWidth")
    wide = width > 560  # now turn the screen the other way: the sheet refits
    page.set_viewport_size({"width": 390, "height": 844} if wide else {"width": 1100, "height": 820})
    expect(tables).to_have_count(2 if wide else 1)
    sheet.get_by_role("button", name="Show all hands").click()
    expect(sheet.locator(".review-hand")).to_have_count(4)


def test_a_hint_for_the_draw_names_the_button_to_press(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "two-player")
    tool(page, "Hint").click()
    hinted = page.locator("#panel .action.hint")
    expect(hinted).to_have_count(1)
    expect(page.locator("#message")).to_contain_text(f"Hint: {hinted.inner_text()}. ")


def test_focus_follows_the_turn_for_keys_but_never_looks_like_a_hint_to_a_mouse(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    tool(page, "New Game").click()
    settle(page)
    focused = "document.activeElement.className"
    assert "bid-btn" not in page.evaluate(focused)
    tap_bid(page)
    assert "card" not in page.evaluate(focused)
    tool(page, "Restart").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Restart").click()
    settle(page)
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    settle(page)
    expect(page.locator("#hand .card.legal").first).to_be_focused()


def test_the_stock_stays_on_the_table_while_the_draws_are_shown(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page, speed="slow", preset="two-player")
    tool(page, "New Game").click()
    settle(page)
    page.get_by_role("button", name="Keep the").click()
    wait_until(page, "document.body.classList.contains('busy') && /draws?\\./.test("
                     "document.getElementById('message').textContent)")
    expect(page.locator("#trick .stock")).to_have_count(1)
    expect(page.locator("#trick .offered")).to_have_count(0)
    settle(page)
    expect(page.locator("#trick .offered")).to_have_count(1)


def test_each_partnership_shows_its_tricks_won_of_its_bid(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    expect(page.locator("#scores .contract")).to_have_count(0)
    tap_bid(page)
    page.locator("#hand .card.legal").first.click(position={"x": 6, "y": 24})
    settle(page)
    state = page.evaluate(CURRENT_GAME)
    for side in state["sides"]:
        seats = [state["seats"][s] for s in side["seats"]]
        bid = sum(int(s["bid"]) for s in seats)
        won = sum(s["tricks"] for s in seats)
        assert side["progress"] == f"{won} of {bid}"  # the server says it; the page only shows it
        expect(page.locator(f"#scores .score[data-side='{side['side']}'] .contract")).to_have_text(
            f"won {won} of {bid}")


def test_arrow_keys_walk_the_bids_and_enter_bids(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".bid-btn").first).to_be_focused()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".bid-btn").nth(2)).to_be_focused()
    label = page.locator(".bid-btn").nth(2).inner_text()
    page.keyboard.press("Enter")
    settle(page)
    expect(page.locator("#seat-bottom .bid")).to_have_text(f"Bid {label}")


def test_ten_for_two_hundred_is_a_team_bid_of_ten(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    new_game_with(page, "standard", ten_for_two_hundred=True)
    expect(page.get_by_role("button", name="Bid 10 for 200")).to_have_count(0)
    play_until(page, "sheet")
    page.locator("#dlg-sheet").get_by_role("button", name="Next hand").click()
    settle(page)
    page.get_by_role("button", name="Bid 10 for 200").click()
    settle(page)
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid 10 for 200")
    team_bid = re.compile(r"^Bid \d+ \(10 for 200\)$")  # North's number gave way to the team's bid
    expect(page.locator("#seat-top .bid")).to_have_text(team_bid)
    expect(page.locator("#scores .score.mine .contract")).to_have_text(re.compile(r"^won \d+ of 10$"))


def test_the_hand_review_starts_with_your_hand_then_goes_clockwise(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    change_settings(page)
    play_until(page, "sheet")
    sheet = page.locator("#dlg-sheet")
    sheet.get_by_role("button", name="Show all hands").click()
    expect(sheet.locator(".review-hand h3")).to_have_text(["You", "West", "North", "East"])


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two drawn boxes share any area."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize(("width", "height"), [(844, 390), (667, 375)])
def test_a_phone_held_sideways_shows_every_card_while_bidding(
        fresh_page: NewPage, width: int, height: int) -> None:
    page = fresh_page(width, height)
    open_table(page)
    change_settings(page)
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert len(hand(page)) == 13
    assert_hand_fits(page, 40)
    cards = [box(c) for c in page.locator("#hand .card").all()]
    you = page.locator("#seat-bottom .nameplate")
    covers = [*page.locator(".bid-btn").all(), page.locator("#message"), you]
    for b in covers:
        assert not any(overlaps(box(b), c) for c in cards), box(b)
    for pos in ("left", "right"):
        seat = box(page.locator(f"#seat-{pos} .nameplate"))
        assert not any(overlaps(box(b), seat) for b in page.locator(".bid-btn").all()), pos
    page.get_by_role("button", name="Bid 4").click()
    settle(page)
    expect(page.locator("#seat-bottom .bid")).to_have_text("Bid 4")


def test_on_a_phone_the_rule_options_come_in_groups_that_fit(fresh_page: NewPage) -> None:
    page = fresh_page(390, 844)
    open_table(page)
    tool(page, "Settings").click()
    dialog = page.locator("#dlg-settings")
    groups = dialog.locator("details.rule-group")
    expect(groups.locator("summary")).to_have_text(["Players and deck", "Bidding", "Nil", "Play", "Scoring"])
    options = page.evaluate("async () => (await (await fetch('/api/rules')).json()).options.length")
    expect(dialog.locator("[data-option]")).to_have_count(options)
    expect(dialog.locator("[data-option=nil_pass]")).to_be_hidden()
    for summary in groups.locator("summary").all():
        summary.click()
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth")
    for row in dialog.locator(".opt").all():
        r = box(row)
        assert r["x"] >= 0 and r["x"] + r["width"] <= 390, r
    nil = groups.filter(has=page.locator("[data-option=nil_pass]"))
    nil.get_by_label("Cards passed after nil").fill("2")
    expect(nil.locator("summary")).to_have_text("Nil · 1 changed")
    save = dialog.get_by_role("button", name="Save")
    assert box(save)["y"] + box(save)["height"] <= 844
    save.click()
    expect(dialog).to_be_hidden()
    tool(page, "Settings").click()
    expect(nil.locator("summary")).to_have_text("Nil · 1 changed")
    expect(groups.filter(has_text="Scoring").locator("summary")).to_have_text("Scoring")
    dialog.get_by_label("Preset").select_option("standard")
    expect(nil.locator("summary")).to_have_text("Nil")


def test_a_phone_held_sideways_keeps_the_hand_in_view_through_a_pass_and_tricks(fresh_page: NewPage) -> None:
    page = fresh_page(844, 390)
    open_table(page)
    new_game_with(page, "standard", nil_pass=2)
    page.get_by_role("button", name="Bid Nil").click()
    settle(page)
    for card in page.locator("#hand .card").all()[:2]:
        tap_card(page, card)
    page.get_by_role("button", name="Pass 2/2 cards").click()
    settle(page)
    expect(page.locator(".passinfo")).to_contain_text("You received")
    while len(hand(page)) > 8:
        assert page.evaluate("document.documentElement.scrollHeight") <= 390
        assert_hand_fits(page, 40)
        tap_card(page, page.locator("#hand .card.legal").first)
        settle(page)
