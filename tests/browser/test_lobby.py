"""The lobby in headless Chromium: four people (four browser profiles) press Quick game, land at one rated
table each in their own seat, and play it to the end with a low target, at the normal animation speed;
every rating moves once, the winners' up and the losers' down; every WebSocket frame is checked for hidden
cards. Each then makes an account and finds the rating on their profile and their standing on the
leaderboard, and no page logs an error. A table its host lists shows in the lobby, and its Join leads to
it; once under way it shows among the games to watch, and its Watch watches it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.table import NewPage, tool
from browser.test_accessibility import assert_clean
from browser.test_friends import Person, check_frames, open_friends_table, play_round
from server.tables_client import app_state
from spades.ratings import PROVISIONAL_GAMES
from spades.server.run import BackgroundServer


def test_four_people_press_quick_game_and_play_a_game_at_the_table_it_forms(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    people = [Person(fresh_page, name, speed="normal") for name in ("Ann", "Bob", "Cyd", "Dee")]
    for p in people:
        p.page.goto("/lobby")
        p.page.wait_for_selector("body[data-ready=yes]")
        p.page.get_by_label("Your name").fill(p.name)
        p.page.get_by_label("Rules").select_option("standard")
        p.page.get_by_label("Game to").fill("50")
        p.page.get_by_role("button", name="Quick game").click()
        if p is people[0]:  # waiting, counting down to the computer players, which Cancel stops
            status = p.page.locator("#quick-status")
            expect(status).to_contain_text("Looking for 3 more players for custom rules, game to 50, "
                                           "rated as standard: yours is 1500")
            fill = p.page.locator("#quick-fill [data-countdown]")
            first = int(fill.inner_text())
            expect(fill).to_have_text(str(first - 1))
            p.page.get_by_role("button", name="Cancel").click()
            expect(p.page.locator("#quick-wait")).to_be_hidden()
            p.page.get_by_role("button", name="Quick game").click()
            expect(status).to_be_visible()
    for p in people:
        p.page.wait_for_url(re.compile(r"/\?table="))
        p.page.wait_for_selector("body[data-ready=yes]")
    codes = {p.page.url.split("table=")[1] for p in people}
    assert len(codes) == 1
    code = codes.pop()
    for p in people:
        expect(p.page.locator("#lobby")).to_be_hidden()
        expect(p.page.locator("#hand .card")).to_have_count(13)
    seats = {p.last_table()["you"] for p in people}
    assert seats == {0, 1, 2, 3} and people[0].last_table()["rated"] == "standard"
    assert {s["name"] for s in people[0].last_table()["seats"]} == {"Ann", "Bob", "Cyd", "Dee"}

    play_round(people, "end", server, code, limit=3000)
    assert check_frames(people, server, code) > 50
    for p in people:
        expect(p.page.locator("#dlg-end .end-score")).to_have_count(2)
        assert p.errors == [], p.errors
    store = app_state(server).tables.log.store
    players = app_state(server).tables.read(code, lambda t: [s.player for s in t.seats])
    for p in people:
        changes = store.rating_history(player=players[p.last_table()["you"]], limit=10)
        assert len(changes) == 1 and changes[0].rules == "standard"  # rated once
        change = changes[0]
        won, before, after = change.place == 0, change.before.shown, change.after.shown
        assert (after > before) == won
        show_the_rating_on_the_profile_and_the_leaderboard(p, won, before, after, change.after.uncertainty)


def show_the_rating_on_the_profile_and_the_leaderboard(p: Person, won: bool, before: int, after: int,
                                                       uncertainty: int) -> None:
    """The person makes an account in the Account dialog, finds the game's rating on their profile (one
    point plotted, from ``before``), and their standing, still provisional, on the leaderboard."""
    p.page.keyboard.press("Escape")  # the game's end
    tool(p.page, "Account").click()
    make = p.page.locator("#dlg-account #account-make")
    make.get_by_label("Name").fill(p.name)
    make.get_by_label("Password (optional)").fill("a long enough password")
    make.get_by_role("button", name="Make the account").click()
    expect(p.page.locator("#account-notice")).to_contain_text(f'Your account "{p.name}" is made')
    p.page.goto(f"/@{p.name}")
    rating = p.page.locator("#ratings tr[data-rules=standard]")
    expect(rating).to_contain_text(f"{after}± {uncertainty}1 game")
    line = p.page.locator("figure.plot[data-rules=standard] [data-test=plot-line-0]")
    expect(line).to_have_attribute("data-values", f"{before},{after}")
    expect(p.page.locator(f"#games li[data-result={'won' if won else 'lost'}]")).to_have_count(1)
    p.page.goto("/leaderboard")
    expect(p.page.locator("#board-you")).to_have_text(
        f"You ({p.name}): {after} ± {uncertainty}, provisional: {PROVISIONAL_GAMES - 1} more rated games "
        "to be listed")
    p.page.locator("#board-you").get_by_role("link", name=f"You ({p.name})").click()
    expect(p.page.get_by_role("heading", name=p.name)).to_be_visible()
    assert p.errors == [], p.errors


def test_a_listed_table_shows_in_the_lobby_and_join_leads_to_it(
        fresh_page: NewPage, server: BackgroundServer) -> None:
    ann, bob = Person(fresh_page, "Ann"), Person(fresh_page, "Bob")
    code = open_friends_table(ann, listed=True)
    bob.page.goto("/lobby")
    listed = bob.page.locator(f".listed[data-code='{code}']")
    expect(listed).to_contain_text("North: Ann")
    expect(listed).to_contain_text("South: free")
    assert_clean(bob.page, "the lobby with a table listed")
    bob.page.get_by_label("Your name").fill("Bob")
    bob.page.get_by_role("button", name="Quick game").click()
    expect(bob.page.locator("#quick-status")).to_be_visible()
    assert_clean(bob.page, "the lobby while waiting for a Quick game")
    bob.page.get_by_role("button", name="Cancel").click()
    listed.get_by_role("link", name=f"Join table {code}").click()
    expect(bob.page.locator("#lobby-name")).to_be_visible()
    ann.page.locator("#btn-start").click()  # a game to watch now (and to join: computers hold its seats)
    bob.page.goto("/lobby")
    playing = bob.page.locator(f"#playing .listed[data-code='{code}']")
    expect(playing).to_contain_text("Under way")
    playing.get_by_role("link", name=f"Watch table {code}").click()
    expect(bob.page.locator("#table-status")).to_contain_text("You are watching")
    expect(bob.page).to_have_url(re.compile(f"table={code}$"))
    bob.page.reload()  # and watches on after a reload
    expect(bob.page.locator("#table-status")).to_contain_text("You are watching")
    assert ann.errors == [] and bob.errors == []
