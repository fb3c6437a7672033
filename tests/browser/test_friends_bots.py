"""An operator's outside bot at a friends' table in Chromium: the host picks it in the Play with friends
dialog, and it plays three seats of a whole hand at the page's normal speed."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser.table import NewPage, tool
from browser.test_friends import Person, check_frames, lobby_code, play_round
from server.tables_client import app_state
from spades.server.run import BackgroundServer

BOT = Path(__file__).parents[2] / "examples" / "bots" / "bot.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BackgroundServer]:
    with BackgroundServer(tmp_path / "spades.sqlite3", bots=f"pybot=exec:{sys.executable} {BOT}") as s:
        yield s


def test_the_host_seats_an_outside_bot_which_plays_a_hand(fresh_page: NewPage, server: BackgroundServer
                                                          ) -> None:
    ann = Person(fresh_page, "Ann", speed="normal")
    tool(ann.page, "Play with friends").click()
    dialog = ann.page.locator("#dlg-friends")
    level = dialog.get_by_label("Computer players' level")
    expect(level.locator("option")).to_have_text(["random", "easy", "normal", "hard", "expert", "pybot"])
    level.select_option("pybot")
    dialog.get_by_label("Your name").fill("Ann")
    dialog.get_by_role("button", name="Open the table").click()
    ann.page.wait_for_url(re.compile(r"\?table="))
    code = lobby_code(ann.page)
    ann.page.locator("#btn-start").click()
    expect(ann.page.locator("#lobby")).to_be_hidden()

    assert play_round([ann], "sheet", server, code, limit=1500) > 0
    level, bots = app_state(server).tables.read(code, lambda t: (t.options.level,
                                                                 [s.played_by_bot for s in t.seats]))
    assert level == "pybot" and bots.count(True) == 3
    [bot] = app_state(server).roster._players.values()
    assert bot.fault_count == 0 and len(bot._procs) == 3  # one process for each of its seats
    assert check_frames([ann], server, code) > 20
    assert ann.errors == []
