"""The tournament page hosting an individual Swiss in headless Chromium: the host picks the format on the
form (which says how it is played, and offers rounds to a target), starts it, hands every seat to a computer
player, and the page's standings show points, margin and Buchholz as the results have them, under the rule
that ranks them; a double click on "End this round" ends one round, not two; no console error."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from browser.table import NewPage
from browser.test_accessibility import assert_clean
from browser.test_rough_edges import collect_errors
from server.test_tournaments import PEOPLE
from spades.server.run import BackgroundServer


def test_the_host_runs_an_individual_swiss_from_the_page(fresh_page: NewPage,
                                                         server: BackgroundServer) -> None:
    host = fresh_page()
    errors = collect_errors(host)
    host.goto("/tournaments")
    form = host.locator("#create-form")
    form.get_by_label("Name").fill("Swiss night")
    expect(form.get_by_label("A round is")).to_be_hidden()
    form.get_by_label("Format").select_option(label="Swiss, individual")
    expect(host.locator("#format-about")).to_contain_text("partners changing every round")
    form.get_by_label("A round is").select_option(label="a game to the target")
    expect(form.get_by_label("Boards a round")).to_be_hidden()
    form.get_by_label("A round is").select_option(label="its boards")
    form.get_by_label("Rounds").fill("2")
    form.get_by_label("Boards a round").fill("1")
    form.get_by_label("Computer players").select_option("random")
    assert_clean(host, "the tournament's form with Swiss chosen")
    host.get_by_role("button", name="Create").click()
    host.wait_for_url(re.compile(r"/tournaments/[A-Z2-9]{6}$"))
    api = host.url.replace("/tournaments/", "/api/tournaments/")
    with httpx.Client(timeout=30) as client:
        for name in PEOPLE[:5]:  # five people: one table of four, one bye
            assert client.post(api + "/entries", json={"name": name}).status_code == 201
    expect(host.locator("#people li")).to_have_count(5)
    host.get_by_role("button", name="Start the tournament").click()
    expect(host.locator("#status")).to_contain_text("Sitting this round out (a bye): Eve")
    expect(host.locator("#travellers")).to_have_text(re.compile(r"^None yet: a board's traveller shows"))
    host.get_by_role("button", name="End this round").dblclick()  # the second click finds round 1 over
    expect(host.locator("#status")).to_contain_text("Round 2 of 2 is being played")
    expect(host.locator("#error")).to_contain_text("Round 1 is over already")
    for k in range(5):  # everyone, whoever sits out round 2
        host.get_by_role("button", name="Computer plays").first.click()
        expect(host.locator("#people li", has_text="a computer player plays for them")).to_have_count(k + 1)
    expect(host.locator("#status")).to_contain_text("over", timeout=60_000)
    results: dict[str, Any] = host.request.get(api + "/results.json").json()
    expect(host.locator("#ranking")).to_contain_text("then Buchholz")
    expect(host.locator("#standings th")).to_have_text(["Place", "Player", "Points", "Margin", "Buchholz",
                                                        "Boards"])
    rows = host.locator("#standings tr")
    expect(rows).to_have_count(6)
    for k, s in enumerate(results["standings"], 1):
        expect(rows.nth(k).locator("td")).to_have_text([str(s["place"]), s["name"], str(s["score"]),
                                                        re.compile(r"[+−]?\d+|0"), str(s["buchholz"]),
                                                        str(s["boards"])])
    expect(host.locator("#travellers th")).not_to_contain_text(["Matchpoints"])
    assert_clean(host, "an individual Swiss's results")
    refused = ("Failed to load resource: the server responded with a status of 409 (Conflict) "
               f"({api}/end-round?round=1)")
    assert errors == [refused], errors  # the second click's answer, and nothing else
