"""The scorekeeper page in a real headless Chromium, against a real server on a loopback port.

Hands are entered through the page's own form, as a person at the table would.
"""

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Route, expect

from browser.table import tool
from spades.server.app import create_app
from spades.server.settings import Settings

THREE_HANDS = [("2 2 : 8", "3 3 : 5"), ("2 2 : 7", "nil 5 : 6"), ("3 2 : 8", "3 2 : 5")]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("scorekeeper") / "db.sqlite3"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(db_path=db)), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base_url)
    pg = context.new_page()
    pg.goto("/scorekeeper")
    expect(pg.locator("body")).to_have_attribute("data-ready", "yes")
    yield pg
    context.close()


def start(page: Page, names: tuple[str, ...] = ("Us", "Them"), target: int = 500, preset: str = "standard",
          no_bids: bool = False, **options: str | bool | int) -> None:
    """Fill the new-game form (the preset first: it sets the option fields, named as the API names them)."""
    page.select_option("[data-test=preset]", preset)
    page.set_checked("[data-option=first_hand_no_bids]", no_bids)
    for i, name in enumerate(names):
        page.fill(f"input[name=name{i}]", name)
    page.fill("[data-option=target]", str(target))
    for name, value in options.items():
        field = page.locator(f"[data-option={name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif isinstance(value, int):
            field.fill(str(value))
        else:
            field.select_option(value)
    page.click("[data-test=start]")
    expect(page.locator("#game")).to_be_visible()


def fill_team(page: Page, t: int, text: str) -> None:
    """Enter a team's line written as the tests write it: "nil/3 5 : 7" is a nil broken with 3 tricks."""
    bids, _, tricks = text.partition(":")
    for p, bid in enumerate(bids.split()):
        word, _, won = bid.partition("/")
        page.select_option(f"[data-test=bid-{t}-{p}]", {"bn": "blind nil"}.get(word, word))
        if "nil" in word or word == "bn":
            page.set_checked(f"[data-test=kept-{t}-{p}]", not won)
            page.fill(f"[data-test=niltricks-{t}-{p}]", won or "0")
    page.fill(f"[data-test=tricks-{t}]", tricks.strip())


def enter(page: Page, first: str, second: str) -> None:
    """Enter one hand and wait until the server has scored it."""
    rows = page.locator("#hands tbody tr[data-hand]").count()
    fill_team(page, 0, first)
    fill_team(page, 1, second)
    page.click("[data-test=score-hand]")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(rows + 1)


def totals(page: Page) -> tuple[int, ...]:
    texts = page.locator("#scoreboard [data-test^=total-]").all_inner_texts()
    return tuple(int(t.replace("−", "-")) for t in texts)


def enter_players(page: Page, *lines: str) -> None:
    """Enter one hand of players alone, each written "<bid> : <tricks>" (": 4" on a hand without bids)."""
    rows = page.locator("#hands tbody tr[data-hand]").count()
    for s, line in enumerate(lines):
        bid, _, tricks = line.partition(":")
        if bid.strip():
            page.select_option(f"[data-test=bid-{s}-0]", bid.strip())
        page.fill(f"[data-test=tricks-{s}]", tricks.strip())
    page.click("[data-test=score-hand]")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(rows + 1)


def column(page: Page, test: str) -> list[int]:
    return [int(x.replace("−", "-")) for x in page.locator(f"[data-test={test}]").all_inner_texts()]


def test_three_hands_reload_and_correct(page: Page) -> None:
    start(page)
    seen = []
    for first, second in THREE_HANDS:
        enter(page, first, second)
        seen.append(totals(page))
    assert seen == [(44, -60), (87, 91), (40, 141)]
    assert page.inner_text("[data-test=total-1]") == "141"
    expect(page.locator("[data-test=status]")).to_have_text("Us 40 (0 bags), Them 141 (1 bag).")
    assert page.get_attribute("[data-test=plot-line-0]", "data-values") == "0,44,87,40"
    assert page.get_attribute("[data-test=plot-line-1]", "data-values") == "0,-60,91,141"

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(3)
    assert totals(page) == (40, 141)

    page.click("[data-test=edit-1]")
    expect(page.locator("#hand-title")).to_have_text("Correcting hand 1")
    assert page.input_value("[data-test=tricks-0]") == "8"
    fill_team(page, 0, "2 2 : 7")
    fill_team(page, 1, "3 3 : 6")
    page.click("[data-test=score-hand]")
    expect(page.locator("[data-test=total-0]")).to_have_text("139")
    assert column(page, "row-total-0") == [43, 86, 139]
    assert column(page, "row-total-1") == [60, 211, 261]
    expect(page.locator("#hand-title")).to_have_text("Hand 4")

    page.click("[data-test=remove-2]")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(3)  # the first click only asks
    page.click("[data-test=remove-2]")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(2)
    assert column(page, "row-total-0") == [43, 96]
    page.reload()
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(2)
    page.fill("[data-test=name-0]", "Ann & Bo")
    page.press("[data-test=name-0]", "Tab")
    expect(page.locator("[data-test=status]")).to_have_text("Ann & Bo 96 (6 bags), Them 110 (0 bags).")
    expect(page.locator("[data-test=bid-0-0]")).to_have_attribute("aria-label", "Ann & Bo player 1 bid")


def test_sample_scores_and_eight_plus_three_bags(page: Page) -> None:
    start(page)
    for bids, won in [("3 2", 5), ("3 2", 7), ("3 2", 8), ("4 3", 7), ("3 2", 4), ("2 2", 3)]:
        enter(page, f"{bids} : {won}", f"1 1 : {13 - won}")
    assert column(page, "points-0") == [50, 52, 53, 70, -50, -40]
    page.click("[data-test=new-game]")
    page.click("[data-test=new-game]")
    start(page)
    enter(page, "2 2 : 12", "1 1 : 1")
    expect(page.locator("[data-test=bags-0]")).to_have_text("8 bags")
    enter(page, "3 2 : 8", "3 2 : 5")
    assert column(page, "points-0") == [48, -47]
    expect(page.locator("[data-test=bags-0]")).to_have_text("1 bag")
    expect(page.locator("[data-test=notes-2-0]")).to_contain_text("10 bags reached (\u2212100)")


@pytest.mark.parametrize(("reading", "total", "bags"), [
    ("bags", -147, "3 bags"), ("contract", -48, "2 bags"), ("neither", -150, "0 bags")])
def test_failed_nil_readings(page: Page, reading: str, total: int, bags: str) -> None:
    start(page, failed_nil_tricks=reading)
    enter(page, "nil/3 5 : 7", "3 3 : 6")
    assert totals(page) == (total, 60)
    expect(page.locator("[data-test=bags-0]")).to_have_text(bags)


def test_impossible_hands_are_refused(page: Page) -> None:
    start(page, blind_nil=True, blind_nil_value=200, blind_nil_deficit=100)
    error = page.locator("[data-test=error]")
    fill_team(page, 0, "2 2 : 8")
    fill_team(page, 1, "3 3 : 6")
    page.click("[data-test=score-hand]")
    expect(error).to_have_text("Hand 1: The tricks add up to 8 + 6 = 14, not 13.")
    fill_team(page, 0, "nil 4 : 7")
    page.set_checked("[data-test=kept-0-0]", True)
    page.fill("[data-test=niltricks-0-0]", "2")
    page.click("[data-test=score-hand]")
    expect(error).to_have_text("Hand 1: Us: a nil marked kept cannot have won 2 tricks.")
    fill_team(page, 0, "bn 4 : 7")
    page.click("[data-test=score-hand]")
    expect(error).to_have_text("Hand 1: Us: blind nil is only for a team at least 100 points behind.")
    page.select_option("[data-test=bid-0-0]", "")
    page.click("[data-test=score-hand]")
    expect(error).to_have_text("Choose both bids for Us.")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(0)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(0)

    # A saved game the server refuses (edited by hand, say) is set aside as a record, not lost.
    nine = {"players": [{"bid": "3"}, {"bid": "3"}], "tricks": 9}
    bad = {"records": [], "game": {"rules": {}, "names": ["A", "B"], "hands": [{"teams": [nine, nine]}]}}
    page.evaluate("(g) => localStorage.setItem('spades.scorekeeper.v1', JSON.stringify(g))", bad)
    page.reload()
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("[data-test=record]")).to_contain_text("A 0, B 0 (unfinished, 1 hand)")


def test_game_end_record_and_printables(page: Page, tmp_path: Path) -> None:
    start(page, names=("North-South", "East-West"), target=130)
    enter(page, "6 4 : 10", "2 1 : 3")
    enter(page, "2 1 : 3", "6 4 : 10")
    assert totals(page) == (130, 130)
    status = page.locator("[data-test=status]")
    expect(status).to_have_text("Level at 130 at the end: one more hand decides it.")
    enter(page, "3 3 : 6", "4 3 : 7")
    expect(page.locator("[data-test=status]")).to_have_text("East-West win, 200 to 190.")
    expect(page.locator("#hand-form")).to_be_hidden()
    for link in ("rule-sheet", "score-sheet"):
        r = page.request.get(page.get_attribute(f"[data-test={link}]", "href") or "")
        assert r.status == 200 and r.headers["content-type"] == "application/pdf"
        assert r.body().startswith(b"%PDF-")
    with page.expect_download() as download:
        page.click("[data-test=print-game]")
    saved = tmp_path / "game.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")
    page.click("[data-test=keep]")
    expect(page.locator("#setup")).to_be_visible()
    record = page.locator("[data-test=record]")
    expect(record).to_contain_text("North-South 190, East-West 200 (East-West won, 3 hands)")
    page.reload()
    expect(page.locator("[data-test=record]")).to_have_count(1)
    start(page)
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(0)


def test_reachable_from_the_game_menu(page: Page) -> None:
    page.goto("/")
    tool(page, "Scorekeeper").click()
    expect(page).to_have_url(re.compile(r"/scorekeeper$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#setup")).to_be_visible()


def test_three_players_two_hands(page: Page) -> None:
    start(page, names=("Ann", "Bo", "Cy"), target=300, preset="three-player")
    expect(page.locator("#scoreboard .team")).to_have_count(3)
    expect(page.locator("#entries fieldset")).to_have_count(3)
    expect(page.locator("#hands thead [data-col=name-2]")).to_have_text("Cy")
    bids = page.locator("[data-test=bid-0-0] option").all_inner_texts()
    assert bids[1:3] == ["0", "1"] and bids[-1] == "17" and "nil" not in bids  # 0 is an ordinary bid
    expect(page.locator("[data-test=kept-0-0]")).to_have_count(0)  # a player alone: tricks are the nil's
    enter_players(page, "4 : 5", "6 : 6", "5 : 6")  # the reference: bid 4 and win 5 scores 30
    assert totals(page) == (30, 60, 40)
    expect(page.locator("[data-test=status]")).to_have_text("Ann 30 (1 bag), Bo 60 (0 bags), Cy 40 (1 bag).")
    expect(page.locator("[data-test=bags-0]")).to_have_text("1 bag")

    page.select_option("[data-test=bid-0-0]", "6")
    page.fill("[data-test=tricks-0]", "5")
    page.select_option("[data-test=bid-1-0]", "0")
    page.fill("[data-test=tricks-1]", "6")
    page.select_option("[data-test=bid-2-0]", "0")
    page.fill("[data-test=tricks-2]", "5")
    page.click("[data-test=score-hand]")
    error = "Hand 2: The tricks add up to 5 + 6 + 5 = 16, not 17."
    expect(page.locator("[data-test=error]")).to_have_text(error)
    enter_players(page, "6 : 4", "0 : 2", "0 : 11")
    assert column(page, "points-1") == [60, -20]
    assert totals(page) == (-30, 40, -70)
    assert page.locator("[data-test=bid-cell-2]").all_inner_texts() == ["5", "0"]
    expect(page.locator("[data-test=notes-2-2]")).to_contain_text("11 bags (\u2212110)")
    assert page.get_attribute("[data-test=plot-line-2]", "data-values") == "0,40,-70"
    expect(page.locator("[data-test=renege] option")).to_have_count(4)

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(2)
    assert totals(page) == (-30, 40, -70)
    page.click("[data-test=edit-1]")
    assert page.input_value("[data-test=bid-0-0]") == "4" and page.input_value("[data-test=tricks-2]") == "6"
    page.fill("[data-test=tricks-0]", "4")
    page.fill("[data-test=tricks-2]", "7")
    page.click("[data-test=score-hand]")
    expect(page.locator("[data-test=total-0]")).to_have_text("−20")
    assert column(page, "row-total-2") == [30, -80]


def test_cutthroat_first_hand_without_bids(page: Page, tmp_path: Path) -> None:
    page.select_option("[data-test=preset]", "cutthroat")
    expect(page.locator("[data-test=table-line]")).to_contain_text("4 players, each alone (cutthroat)")
    for link in ("rule-sheet", "score-sheet"):  # the printables follow the preset chosen
        href = re.compile(r"\?rules=cutthroat$")
        expect(page.locator(f"[data-test={link}]")).to_have_attribute("href", href)
    expect(page.locator("[data-option=players]")).to_have_count(0)  # the preset sets the table
    start(page, names=("N", "E", "S", "W"), preset="cutthroat", no_bids=True)
    expect(page.locator("#hand-title")).to_have_text("Hand 1 (no bidding)")
    expect(page.locator("#entries select")).to_have_count(0)
    expect(page.locator("[data-test=renege]")).to_be_hidden()
    enter_players(page, ": 4", ": 3", ": 3", ": 3")
    assert totals(page) == (40, 30, 30, 30)
    assert page.locator("[data-test=bid-cell-0]").all_inner_texts() == ["-"]
    expect(page.locator("#hand-title")).to_have_text("Hand 2")
    enter_players(page, "3 : 4", "4 : 4", "2 : 5", "nil : 0")
    assert totals(page) == (71, 70, 53, 130)
    expect(page.locator("[data-test=status]")).to_have_text(
        "N 71 (1 bag), E 70 (0 bags), S 53 (3 bags), W 130 (0 bags).")
    with page.expect_download() as download:
        page.click("[data-test=print-game]")
    saved = tmp_path / "game.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")
    page.set_viewport_size({"width": 1000, "height": 1400})
    page.screenshot(path=str(tmp_path / "cutthroat.png"), full_page=True)


def test_each_presets_table_is_the_one_the_api_works_out(page: Page) -> None:
    """The table line, the name fields and the preset's choice say what GET /api/rules says."""
    meta = page.evaluate("async () => (await fetch('/api/rules')).json()")
    for preset in meta["presets"]:
        table = preset["table"]
        page.select_option("[data-test=preset]", preset["name"])
        expect(page.locator("[data-test=table-line]")).to_have_text(table["text"])
        expect(page.locator("#names input")).to_have_count(table["sides"])
        word = "two teams" if table["partners"] else f"{table['seats']} players alone"
        expect(page.locator(f"[data-test=preset] option[value={preset['name']}]")).to_have_text(
            f"{preset['name']} ({word})")


def test_the_page_takes_the_table_from_the_server_and_works_out_none(browser: Browser, base_url: str) -> None:
    """The server's answer altered on its way to say the standard preset is four players alone with
    99 cards each: the page shows that, which it would not if it worked the table out of the
    options (players 4, partnerships on) itself."""
    context = browser.new_context(base_url=base_url)
    page = context.new_page()

    def alter(route: Route) -> None:
        response = route.fetch()
        meta = response.json()
        standard = next(p for p in meta["presets"] if p["name"] == "standard")
        standard["table"] = {**standard["table"], "partners": False, "sides": 4,
                             "text": "4 players, each alone: 99 cards each."}
        route.fulfill(response=response, json=meta)

    page.route("**/api/rules", alter)
    page.goto("/scorekeeper")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("[data-test=table-line]")).to_have_text("4 players, each alone: 99 cards each.")
    expect(page.locator("#names input")).to_have_count(4)
    standard = page.locator("[data-test=preset] option[value=standard]")
    expect(standard).to_have_text("standard (4 players alone)")
    context.close()


def test_a_two_team_game_stored_before_players_alone_still_loads(page: Page) -> None:
    team = {"players": [{"bid": "2"}, {"bid": "2"}], "tricks": 8}
    other = {"players": [{"bid": "3"}, {"bid": "3"}], "tricks": 5}
    hands = [{"teams": [team, other], "renege": None}]
    old = {"records": [], "game": {"rules": {"target": 500}, "names": ["Us", "Them"], "hands": hands}}
    page.evaluate("(g) => localStorage.setItem('spades.scorekeeper.v1', JSON.stringify(g))", old)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#hands tbody tr[data-hand]")).to_have_count(1)
    assert totals(page) == (44, -60)
    enter(page, "2 2 : 7", "nil 5 : 6")
    assert totals(page) == (87, 91)


def test_the_new_game_form_shows_the_apis_options_and_words(page: Page) -> None:
    meta = page.evaluate("async () => (await fetch('/api/rules')).json()")
    standard = next(p["options"] for p in meta["presets"] if p["name"] == "standard")
    shown = page.locator("#rule-options label.opt")
    labels = [o["label"] for g in meta["groups"] for o in meta["options"] if o["group"] == g["name"]
              and (g["name"] in ("bidding", "nil", "scoring") or o["name"] == "renege_penalty")]
    expect(shown.locator("span")).to_have_text(labels)
    expect(page.locator("#rule-options legend")).to_have_text(
        [g["label"] for g in meta["groups"] if g["name"] != "players"])
    failed_bid = next(o for o in meta["options"] if o["name"] == "failed_bid")
    field = page.locator("[data-option=failed_bid]")
    expect(field).to_have_value(standard["failed_bid"])
    assert field.evaluate("s => [...s.options].map((o) => o.textContent)") == [
        failed_bid["choice_labels"][c] for c in failed_bid["choices"]]
    start(page, failed_bid="zero")
    expect(page.locator("#rules-line")).to_have_text(
        f"standard rules · Game to: 500 · {failed_bid['label']}: {failed_bid['choice_labels']['zero']}")
    enter(page, "3 3 : 5", "3 3 : 8")
    assert totals(page) == (0, 62)
