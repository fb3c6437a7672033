"""Headless Chromium (Debian's, via Playwright) against the real server on a loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from browser.table import NewPage
from spades.server.run import BackgroundServer

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (./scripts/test installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BackgroundServer]:
    with BackgroundServer(tmp_path / "spades.sqlite3") as s:
        yield s


@pytest.fixture
def fresh_page(browser: Browser, server: BackgroundServer) -> Iterator[NewPage]:
    """Pages of a chosen size in fresh browser profiles (their own storage, so their own anonymous player)."""
    contexts = []

    def make(width: int = 1100, height: int = 820) -> Page:
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
