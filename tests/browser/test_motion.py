"""Motion: a card travels to the trick, a won trick goes to its winner, a hand is dealt (unless off)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Page, expect

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
)

TRACK = """async (card) => {
  // The card's place in the trick, frame by frame, for half a second from its first frame there
  // (waiting up to 10 s for the server's answer, which a busy machine may take).
  const find = () => document.querySelector(`#trick .played[data-card="${card}"]`);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const waitFrom = performance.now();
  while (!find() && performance.now() - waitFrom < 10000) await frame();
  const seen = [];
  const start = performance.now();
  while (performance.now() - start < 500) {
    const el = find();
    if (el) { const r = el.getBoundingClientRect(); seen.push([Math.round(r.x), Math.round(r.y)]); }
    await frame();
  }
  return seen;
}"""


def play_and_track(page: Page, speed: str) -> list[tuple[int, int]]:
    """Bid, then play a card at this speed, and give where its element was on each frame after."""
    open_table(page, "/?deal=42")
    change_settings(page, speed=speed, auto_play=False)
    tap_bid(page)
    card = page.locator("#hand .card.legal").first
    name = card.get_attribute("data-card")
    start = card.bounding_box()
    assert start is not None
    tap_card(page, card)
    seen: list[list[int]] = page.evaluate(TRACK, name)
    assert seen, "the card never reached the trick"
    return [(x, y) for x, y in seen]


def test_a_played_card_travels_from_the_hand_to_the_trick(fresh_page: NewPage) -> None:
    page = fresh_page()
    seen = play_and_track(page, "slow")
    first, last = seen[0], seen[-1]
    assert len(set(seen)) >= 5, seen  # it moved over several frames
    assert first[1] - last[1] > 40, (first, last)  # from the hand, below, up to the trick
    settle(page)


def test_with_reduced_motion_the_card_is_simply_there(fresh_page: NewPage) -> None:
    page = fresh_page()
    page.emulate_media(reduced_motion="reduce")
    seen = play_and_track(page, "slow")
    assert len(set(seen[:5])) == 1, seen[:5]
    settle(page)


WATCH_DEAL = """() => {
  // Each frame until told to stop: how many cards of your hand are on their way, and how many other
  // seats show a bid.
  const frames = window.dealFrames = [];
  const count = (sel, test) => [...document.querySelectorAll(sel)].filter(test).length;
  const tick = () => {
    const dealing = count("#hand .card", (el) => el.getAnimations().length);
    const bids = count(".seat:not(.pos-bottom) .bid", (el) => !/–/.test(el.textContent));
    frames.push([dealing, bids]);
    if (!window.dealWatched) requestAnimationFrame(tick);
  };
  window.dealWatched = false;
  requestAnimationFrame(tick);
}"""


def test_a_new_hand_is_dealt_before_the_others_bid_in_turn(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, auto_play=True)
    play_until(page, "sheet")  # South bids first in the first hand; in the second the others bid before
    page.locator("#dlg-sheet [data-close]").click()
    change_settings(page, speed="slow")
    page.evaluate(WATCH_DEAL)
    page.locator("#btn-panel-next").click()
    settle(page)
    frames: list[list[int]] = page.evaluate("window.dealWatched = true, window.dealFrames")
    dealt = [i for i, (dealing, _) in enumerate(frames) if dealing]
    assert dealt, "no card of the new hand was seen on its way"
    assert not any(bids for _, bids in frames[dealt[0]:dealt[-1] + 1]), "a bid shown mid-deal"
    after = [bids for _, bids in frames[dealt[-1]:]]
    assert after == sorted(after), after  # then the three others bid, one after another
    assert sorted(set(after)) == [0, 1, 2, 3], after
    expect(page.locator(".bid-btn").first).to_be_visible()


def test_with_reduced_motion_a_new_hand_is_simply_there(fresh_page: NewPage) -> None:
    page = fresh_page()
    page.emulate_media(reduced_motion="reduce")
    open_table(page, "/?deal=42")
    change_settings(page, speed="slow")
    page.evaluate(WATCH_DEAL)
    tool(page, "New Game").click()  # nothing played yet: no question
    settle(page)
    frames: list[list[int]] = page.evaluate("window.dealWatched = true, window.dealFrames")
    assert not any(dealing for dealing, _ in frames)


GATHER = """async () => {
  // Each frame until the table waits for the person again: the trick's cards' centres and opacity.
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const frames = [];
  const start = performance.now();
  do {
    frames.push([...document.querySelectorAll("#trick .played")].map((el) => {
      const r = el.getBoundingClientRect();
      return [el.dataset.card, r.x + r.width / 2, r.y + r.height / 2, Number(getComputedStyle(el).opacity)];
    }));
    await frame();
  } while (document.body.classList.contains("busy") && performance.now() - start < 15000);
  return frames;
}"""


@pytest.mark.parametrize("speed", ["slow", "normal", "fast"])
def test_a_trick_you_win_gathers_and_goes_to_you_before_you_lead(fresh_page: NewPage, speed: str) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, speed=speed, auto_play=False)
    tap_bid(page)
    south = page.locator("#hand").bounding_box()
    assert south is not None
    south_y = south["y"] + south["height"] / 2
    while len(hand(page)) > 1:
        tap_card(page, page.locator("#hand .card.legal").first)
        frames: list[list[list[Any]]] = page.evaluate(GATHER)
        settle(page)
        game = page.evaluate(CURRENT_GAME)
        if game["trick"] or game["last_trick"]["winner"] != game["human"]:
            continue
        # You took it and lead next: the four cards were seen together, then moving down to your seat.
        full = [f for f in frames if len(f) == 4]
        assert full, "the won trick was never seen whole"
        # At rest, the frame before all four start moving together (before that only your card moved).
        held = next((a for a, b in pairwise(full)
                    if all(p[1:3] != q[1:3] for p, q in zip(a, b, strict=True))), None)
        assert held is not None, "the won trick never moved: it stayed on the table"
        first = {c: y for c, _, y, _ in held}
        last = {c: (y, o) for c, _, y, o in full[-1]}
        assert all(last[c][0] > first[c] + 20 for c in first), (held, full[-1])
        assert all(abs(last[c][0] - south_y) < abs(first[c] - south_y) for c in first)
        assert min(o for _, o in last.values()) < 1  # fading as it arrives
        expect(page.locator("#trick .played")).to_have_count(0)  # gone to you, not left on the table
        expect(page.locator("#message")).to_contain_text("You took the trick.")
        return
    raise AssertionError("you never won a trick")
