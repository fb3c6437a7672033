"""Motion: a played card travels from where it was to its place in the trick, unless motion is off."""

from __future__ import annotations

from playwright.sync_api import Page

from browser.table import NewPage, change_settings, open_table, settle, tap_card, tool

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
    page.locator(".bid-btn[data-bid='3']").click()
    settle(page)
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


def test_a_new_hand_is_dealt_into_yours(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=42")
    change_settings(page, speed="slow")
    tool(page, "New Game").click()
    settle(page)
    moving = "[...document.querySelectorAll('#hand .card')].filter((el) => el.getAnimations().length).length"
    assert page.evaluate(moving) > 0  # the last cards are still on their way
    page.emulate_media(reduced_motion="reduce")
    tool(page, "New Game").click()  # nothing played yet: no question
    settle(page)
    assert page.evaluate(moving) == 0
