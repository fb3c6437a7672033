"""A remote bot at a friends' table in Chromium: while a bot account is connected over its WebSocket, the
host picks it in the Play with friends dialog, and it plays three seats of a hand, named as a bot."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import httpx
from playwright.sync_api import expect

from browser.table import NewPage, tool
from browser.test_friends import Person, check_frames, lobby_code, play_round
from server.remote_bot import bot_account, bot_connection, run_bot, wait_offered
from server.tables_client import app_state
from spades.server.run import BackgroundServer


def test_the_host_seats_a_connected_remote_bot(fresh_page: NewPage, server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        bot = bot_account(client, "Robo_1")
    received: list[dict[str, Any]] = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        ws = await bot_connection(server.url, bot["token"])
        playing = asyncio.create_task(run_bot(ws, received, None))
        await stop.wait()
        await ws.close()
        await playing

    worker = threading.Thread(target=loop.run_until_complete, args=(serve(),))
    worker.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            wait_offered(client, "bot-robo_1")
        ann = Person(fresh_page, "Ann", speed="normal")
        tool(ann.page, "Play with friends").click()
        dialog = ann.page.locator("#dlg-friends")
        level = dialog.get_by_label("Computer players' level")
        expect(level.locator("option")).to_have_text(["random", "easy", "normal", "hard", "expert",
                                                      "bot-robo_1"])
        level.select_option("bot-robo_1")
        dialog.get_by_label("Your name").fill("Ann")
        dialog.get_by_role("button", name="Open the table").click()
        ann.page.wait_for_url(re.compile(r"\?table="))
        code = lobby_code(ann.page)
        ann.page.locator("#btn-start").click()
        expect(ann.page.locator("#lobby")).to_be_hidden()
        expect(ann.page.get_by_text("Bot robo_1 (West)").first).to_be_visible()
        expect(ann.page.locator(".seat .bot-badge")).to_have_count(3)  # the bot's seats, not Ann's

        assert play_round([ann], "sheet", server, code, limit=1500) > 0
        assert app_state(server).roster.remotes.fault_count == 0
        assert sum(m["type"] == "decide" for m in received) >= 3 * 13
        assert check_frames([ann], server, code) > 20
        assert ann.errors == []
    finally:
        loop.call_soon_threadsafe(stop.set)
        worker.join()
        loop.close()
