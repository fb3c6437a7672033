"""The pages work under the server's Content-Security-Policy: no inline script or style is refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from browser.table import NewPage, open_table, settle, tool

WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));"""
"""Collects every CSP violation the page reports, from before its first script runs."""


def _violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


@pytest.mark.parametrize("path", ["/", "/rules", "/scorekeeper"])
def test_each_page_loads_and_plays_without_a_policy_violation(fresh_page: NewPage, path: str) -> None:
    page = fresh_page()
    page.add_init_script(WATCH)
    console = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    response = page.goto(path)
    assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")
    if path == "/":
        open_table(page)
        tool(page, "Hint").click()
        tool(page, "Settings").click()
        settle(page)
    assert _violations(page) == [] and console == []
