"""The cards as drawn on the page: faces a player recognises, and the card back designs of Settings."""

from __future__ import annotations

from playwright.sync_api import expect

from browser.table import NewPage, open_table, tool

FACES = """async () => {
  const m = await import("/static/js/cards.js");
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const cards = [..."SHDC"].flatMap((s) => ranks.map((r) => r + s)).concat(["BJ", "LJ"]);
  const box = document.createElement("div");
  document.body.append(box);
  return cards.map((c) => {
    box.innerHTML = m.cardFace(c);
    const svg = box.firstElementChild;
    return {card: c, texts: svg.querySelectorAll("text").length, pips: svg.querySelectorAll(".pip").length,
            figures: svg.querySelectorAll(".robe").length, glyphs: svg.querySelectorAll(".glyph").length};
  });
}"""


def test_every_face_is_drawn_without_text_with_its_pips_figures_and_joker_index(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    faces = {f["card"]: f for f in page.evaluate(FACES)}
    assert len(faces) == 54
    assert all(f["texts"] == 0 for f in faces.values())  # no font, no letters for a screen reader to mis-read
    for suit in "SHDC":
        assert faces["A" + suit]["pips"] == 3  # two corners and the big one
        for n in range(2, 11):
            assert faces[f"{n}{suit}"]["pips"] == n + 2, f"{n}{suit}"
        for court in "KQJ":
            assert faces[court + suit]["figures"] == 2, court + suit  # head to head
    for joker in ("BJ", "LJ"):  # JOKER down both corners, and BIG or LITTLE under the jester
        assert faces[joker]["glyphs"] == 10 + (3 if joker == "BJ" else 6)


def test_a_card_back_design_chosen_in_settings_is_drawn_on_the_table(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page, "/?deal=5")
    lattice = page.locator("#card-back-defs .lattice")
    expect(lattice).to_have_css("display", "inline")
    expect(page.locator("#seat-top svg.back .back-medallion").first).to_be_hidden()
    tool(page, "Settings").click()
    page.locator("#dlg-settings").get_by_label("Card backs").select_option(label="Spade medallion")
    page.locator("#dlg-settings").get_by_role("button", name="Save").click()
    expect(page.locator("#seat-top svg.back .back-medallion").first).to_be_visible()
    expect(lattice).to_have_css("display", "none")
    expect(page.locator("#card-back-defs .dots")).to_have_css("display", "inline")
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    expect(page.locator("#seat-top svg.back .back-medallion").first).to_be_visible()
