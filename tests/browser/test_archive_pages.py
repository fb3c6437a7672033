"""The leaderboard, a profile and a finished game's page in Chromium, each clean by axe-core: a person
goes from the leaderboard to a computer level's profile (its rating, the rating's history drawn, its
latest games), opens a game there and steps through a hand trick by trick, seeing what each seat held and
played; a game still being played shows a message and no card; the person who played those games sees
their own standing on the leaderboard. No page logs a console error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from browser.table import NewPage, open_table, tool
from browser.test_accessibility import assert_clean
from browser.test_rough_edges import collect_errors
from server.api_client import Player, simple_move
from spades.ratings import PROVISIONAL_GAMES
from spades.record import load_records, replay
from spades.server.run import BackgroundServer

QUICK = {"preset": "standard", "options": {"target": 10, "low_mark": -10}}


def finished_game(p: Player, **body: Any) -> dict[str, Any]:
    """A game played to its end over the API (the pages under test only show it); its end."""
    state = p.new_game(**body)
    while state["phase"] != "game_over":
        state = p.next_hand(state)["state"] if state["phase"] == "hand_over" else \
            p.move(state, simple_move(state))["state"]
    return state


def test_from_the_leaderboard_to_a_profile_to_a_game_stepped_through(fresh_page: NewPage,
                                                                     server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        player = Player(client, level="easy", rules=QUICK)
        for _ in range(PROVISIONAL_GAMES):  # the easy level plays enough rated games to be listed
            end = finished_game(player, rated=True)
        replay = client.get(f"/api/replays/{end['id']}").json()
        easy = client.get("/api/profiles/easy").json()
        unfinished = player.new_game()
    page = fresh_page()
    errors = collect_errors(page)
    page.goto("/leaderboard")
    board = page.locator("#board")
    expect(board.locator("tr[data-name=easy]")).to_contain_text(f"{easy['ratings'][0]['rating']}")
    page.get_by_label("Rules").select_option("cutthroat")
    expect(board).to_contain_text("No one is past their provisional games under the cutthroat rules yet.")
    page.get_by_label("Rules").select_option("standard")
    expect(board.locator("tr[data-name=easy]")).to_be_visible()
    assert_clean(page, "leaderboard")
    board.get_by_role("link", name="easy").click()

    expect(page.get_by_role("heading", name="easy")).to_be_visible()  # the level's profile
    rating = easy["ratings"][0]
    expect(page.locator("#ratings tr[data-rules=standard]")).to_contain_text(
        f"{rating['rating']}± {rating['uncertainty']}{PROVISIONAL_GAMES} games")
    line = page.locator("figure.plot[data-rules=standard] [data-test=plot-line-0]")
    values = [easy["history"][0]["before"]] + [g["after"] for g in easy["history"]]
    expect(line).to_have_attribute("data-values", ",".join(map(str, values)))
    expect(page.locator("#games li")).to_have_count(PROVISIONAL_GAMES)
    assert_clean(page, "profile")
    page.get_by_role("link", name=f"Game {end['id']}").click()

    expect(page.get_by_role("heading", name=f"Game {end['id']}")).to_be_visible()
    expect(page.locator("#game-summary")).to_contain_text(replay["game"]["message"])
    expect(page.locator("#hand-title")).to_have_text(f"Hand 1 of {len(replay['hands'])}")
    seats = page.locator(".replay-seat")
    expect(seats).to_have_count(4)
    first = replay["hands"][0]
    south = seats.nth(2).locator(".mini-cards .mini")
    expect(south).to_have_count(13)
    assert south.evaluate_all("els => els.map(e => e.dataset.card)") == first["dealt"][2]  # as dealt

    assert_clean(page, "game page")
    forward = page.get_by_role("button", name="Next trick")
    forward.click()
    forward.click()
    trick = first["tricks"][1]
    winner = replay["game"]["seats"][trick["winner"]]["name"]
    expect(page.locator("#step-title")).to_have_text(f"Trick 2 of 13: {winner} takes it.")
    for played in trick["cards"]:  # each seat shows the card it played, and holds two fewer
        seat = seats.nth(played["seat"])
        expect(seat.locator(".played-card .mini")).to_have_attribute("data-card", played["card"])
        expect(seat.locator(".mini-cards .mini")).to_have_count(11)
    expect(seats.nth(trick["winner"])).to_have_class("replay-seat took")

    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-title")).to_contain_text("Trick 1 of 13")
    page.get_by_role("button", name="End").click()
    expect(page.locator("#step-title")).to_contain_text("Trick 13 of 13")
    expect(seats.nth(0).locator(".mini-cards .mini")).to_have_count(0)
    expect(forward).to_be_disabled()
    if len(replay["hands"]) > 1:
        page.get_by_role("button", name="Next hand").click()
        expect(page.locator("#hand-title")).to_have_text(f"Hand 2 of {len(replay['hands'])}")
    expect(page.locator("#sheet-body .sheet")).to_be_visible()
    expect(page.locator("#game-record")).to_have_attribute("href", f"/api/records/{end['id']}")

    assert errors == []

    page.goto(f"/games/{unfinished['id']}")  # being played: a message, no card
    expect(page.locator("#game-problem")).to_contain_text("is not over")
    expect(page.locator(".mini")).to_have_count(0)
    assert [e.split(" (http")[0] for e in errors] == [  # the browser's own note of the refusal, nothing else
        "Failed to load resource: the server responded with a status of 409 (Conflict)"]

    # the person who played those games, past their provisional ones, sees their standing: unlisted, then
    # listed once they have a name
    page.evaluate("token => localStorage.setItem('spades.token', token)", player.headers["X-Player-Token"])
    with httpx.Client(base_url=server.url) as client:
        you = client.get("/api/leaderboard", headers=player.headers).json()["you"]
        page.goto("/leaderboard")
        standing = page.locator("#board-you")
        shown = f"{you['rating']} ± {you['uncertainty']}"
        expect(standing).to_have_text(f"You: {shown}, make an account to be listed")
        assert client.post("/api/account", json={"name": "Ann"}, headers=player.headers).status_code == 201
        rank = client.get("/api/leaderboard", headers=player.headers).json()["you"]["rank"]
    page.reload()
    expect(page.locator("#board tr[data-name=Ann] td").first).to_have_text(str(rank))
    expect(standing).to_have_text(f"You (Ann): {shown}, place {rank}")
    assert_clean(page, "the leaderboard with the viewer's standing")
    standing.get_by_role("link", name="You (Ann)").click()
    expect(page.get_by_role("heading", name="Ann")).to_be_visible()
    assert len(errors) == 1


def test_stats_list_a_players_games_and_download_them_all(fresh_page: NewPage, server: BackgroundServer,
                                                          tmp_path: Path) -> None:
    with httpx.Client(base_url=server.url) as client:
        player = Player(client, rules=QUICK)
        ends = [finished_game(player) for _ in range(2)]
    page = fresh_page()
    errors = collect_errors(page)
    token = json.dumps(player.headers["X-Player-Token"])
    page.add_init_script(f"localStorage.setItem('spades.token', {token})")  # this player's browser
    open_table(page)
    end = page.locator("#dlg-end")  # their last game, just over
    last = f"/games/{ends[-1]['id']}"
    expect(end.get_by_role("link", name="Replay this game")).to_have_attribute("href", last)
    page.keyboard.press("Escape")
    expect(end).to_be_hidden()
    tool(page, "Stats").click()
    games = page.locator("#stats-games li")
    expect(games).to_have_count(2)
    newest = games.first.get_by_role("link")
    expect(newest).to_have_attribute("href", last)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download all your games").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "spades-games.json"
    assert [replay(r).winner for r in load_records(saved.read_text())] == [end["winner"] for end in ends]
    newest.click()
    expect(page.get_by_role("heading", name=f"Game {ends[-1]['id']}")).to_be_visible()

    with httpx.Client(base_url=server.url) as client:  # named, the player has a profile page
        assert client.post("/api/account", json={"name": "Ann"}, headers=player.headers).status_code == 201
        figures = client.get("/api/profiles/Ann").json()["stats"]
    page.go_back()
    tool(page, "Stats").click()
    page.get_by_role("link", name="Your profile page").click()
    expect(page.get_by_role("heading", name="Ann")).to_be_visible()
    expect(page.locator("#ratings")).to_have_text("No rated game yet.")
    expect(page.locator("[data-figure='Games counted']")).to_have_text(f"2 ({figures['hands']} hands)")
    expect(page.locator("[data-figure='Bags a hand']")).to_have_text(f"{figures['bags_per_hand']:.2f}")
    expect(page.locator("#coach-trend")).to_have_text("The coach has reviewed none of these games yet.")
    expect(page.locator("#games li a")).to_have_text([f"Game {end['id']}" for end in reversed(ends)])
    assert_clean(page, "a person's profile")
    assert errors == []
