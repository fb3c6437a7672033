"""Accounts in Chromium, as a person uses them at the normal animation speed: an anonymous player who
has finished a rated game makes an account with a password and a passkey (Chromium's virtual
authenticator, through the DevTools protocol), then signs in on two other browser profiles, one with
each, and finds the same stats, game, rating and settings there; a wrong password is told in the dialog;
signing out everywhere signs each device out, and each is told so once; deleting the account asks for
its password again. Pages are browsed at ``localhost`` (an IP address is no passkey site), and none logs
a console error but the browser's report of the 401s and the 403 they were meant to meet."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from browser.table import CURRENT_GAME, change_settings, open_table, play_until, tool
from browser.test_rough_edges import collect_errors
from spades.server.run import BackgroundServer

PASSWORD = "a long enough password"
MINE = """async () => {
  const headers = {"X-Player-Token": localStorage.getItem("spades.token")};
  const get = async (path) => (await fetch(path, {headers})).json();
  return {stats: await get("/api/stats"), settings: await get("/api/settings"),
          ratings: (await get("/api/ratings")).ratings, game: (await get("/api/games/current")).id};
}"""
"""Script for page.evaluate: what the API tells this page of its player."""


class Device:
    """A browser profile of its own (its own storage: its own anonymous player) at ``localhost``, with
    Chromium's virtual authenticator, which says the person is there and verified."""

    def __init__(self, browser: Browser, server: BackgroundServer, errors: list[str]) -> None:
        self.context: BrowserContext = browser.new_context(viewport={"width": 1100, "height": 820},
                                                           base_url=f"http://localhost:{server.port}")
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(15000)
        collect_errors(self.page, errors)
        self.cdp: CDPSession = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]
        open_table(self.page)

    def passkeys(self) -> list[dict[str, Any]]:
        """The passkeys the virtual authenticator holds (with their private keys)."""
        credentials: list[dict[str, Any]] = self.cdp.send(
            "WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]
        return credentials

    def take(self, passkey: dict[str, Any]) -> None:
        """Hold a copy of another device's passkey (as a synced passkey or a security key carried over)."""
        self.cdp.send("WebAuthn.addCredential", {"authenticatorId": self.authenticator,
                                                 "credential": passkey})

    def account(self) -> Page:
        """Open the Account dialog; the page."""
        tool(self.page, "Account").click()
        expect(self.page.locator("#dlg-account")).to_be_visible()
        return self.page

    def mine(self) -> dict[str, Any]:
        """What the API says of this page's player."""
        value: dict[str, Any] = self.page.evaluate(MINE)
        return value


@pytest.fixture
def devices(browser: Browser, server: BackgroundServer) -> Iterator[tuple[list[Device], list[str]]]:
    """The devices a test makes, and the console errors of their pages; closed after."""
    made: list[Device] = []
    errors: list[str] = []
    yield made, errors
    for device in made:
        device.context.close()


def test_an_account_brings_the_same_player_to_other_devices(browser: Browser, server: BackgroundServer,
                                                            devices: tuple[list[Device], list[str]]) -> None:
    made, errors = devices
    first = Device(browser, server, errors)
    made.append(first)
    page = first.page
    change_settings(page, speed="normal", table_color="purple", target=10)
    tool(page, "Rated Game").click()
    if page.locator("#dlg-confirm").is_visible():
        page.locator("#btn-confirm").click()
    play_until(page, "end")
    before = first.mine()
    assert before["stats"]["played"] == 1 and before["settings"]["table_color"] == "purple"
    assert [r["games"] for r in before["ratings"]] == [1]
    page.locator("#dlg-end").get_by_role("button", name="Score sheet").click()
    page.locator("#dlg-sheet").get_by_role("button", name="Close").click()

    dialog = first.account().locator("#dlg-account")
    make = dialog.locator("#account-make")
    make.get_by_label("Name").fill("Ｍａｒｇｏ")  # full width: kept as "Margo"
    make.get_by_label("Password (optional)").fill(PASSWORD)
    make.get_by_role("button", name="Make the account").click()
    expect(dialog.locator("#account-notice")).to_contain_text('Your account "Margo" is made')
    expect(dialog.locator("#account-name")).to_have_text("Margo")
    dialog.get_by_role("button", name="Add a passkey").click()
    expect(dialog.locator("#account-notice")).to_contain_text("The passkey is added")
    expect(dialog.locator("#account-passkeys li")).to_have_count(1)
    assert len(first.passkeys()) == 1
    dialog.get_by_role("button", name="Close").click()

    # a second device signs in with the name and password (a wrong one first)
    second = Device(browser, server, errors)
    made.append(second)
    assert second.mine()["game"] != before["game"]
    sign_in = second.account().locator("#account-sign-in")
    sign_in.get_by_label("Name").fill("margo")
    sign_in.get_by_label("Password").fill("not the password")
    sign_in.get_by_role("button", name="Sign in", exact=True).click()
    expect(second.page.locator("#account-error")).to_have_text("That name and password do not sign in.")
    sign_in.get_by_label("Password").fill(PASSWORD)
    with second.page.expect_navigation():
        sign_in.get_by_role("button", name="Sign in", exact=True).click()
    second.page.wait_for_selector("body[data-ready=yes]")
    assert second.mine() == before
    assert "table-purple" in (second.page.locator("body").get_attribute("class") or "")
    expect(second.page.locator("#dlg-end")).to_be_visible()  # the account's game, over: its end shown
    second.page.keyboard.press("Escape")
    tool(second.page, "Stats").click()
    expect(second.page.locator("[data-stat=played]")).to_have_text("1")
    second.page.locator("#dlg-stats").get_by_role("button", name="Close").click()
    tool(second.page, "Play with friends").click()  # the account's name is the one a table is offered
    expect(second.page.locator("#open-form").get_by_label("Your name")).to_have_value("Margo")
    second.page.locator("#open-form").get_by_role("button", name="Cancel").click()

    # a third signs in with the passkey, carried over from the first
    third = Device(browser, server, errors)
    made.append(third)
    third.take(first.passkeys()[0])
    with third.page.expect_navigation():
        third.account().get_by_role("button", name="Sign in with a passkey").click()
    third.page.wait_for_selector("body[data-ready=yes]")
    assert third.mine() == before
    assert third.page.evaluate(CURRENT_GAME)["id"] == before["game"]
    third.page.keyboard.press("Escape")
    expect(third.account().locator("#account-name")).to_have_text("Margo")

    # the third lists where the account is signed in, and signs the second out from there
    sessions = third.page.locator("#account-sessions li")
    expect(sessions).to_have_count(3)
    day = datetime.now(UTC).date().isoformat()
    expect(sessions).to_contain_text([re.compile(r"^the device the account was made on, since \S+Sign out$"),
                                      re.compile(f"^Chrome on Linux, since {day}, last used {day}Sign out$"),
                                      re.compile(r"^Chrome on Linux, since \S+ \(this device\)$")])
    sessions.nth(1).get_by_role("button", name="Sign out").click()
    expect(third.page.locator("#account-notice")).to_contain_text("That device is signed out")
    expect(sessions).to_have_count(2)
    second.page.reload()
    second.page.wait_for_selector("body[data-ready=yes]")
    expect(second.page.locator("#account-notice")).to_contain_text('This device was signed out of "Margo"')
    assert second.mine()["stats"]["played"] == 0
    second.page.keyboard.press("Escape")

    # signing out everywhere from the third signs every device out: each is a new player at its next load
    everywhere = third.page.locator("#btn-sign-out-everywhere")
    expect(everywhere).to_have_text("Sign out everywhere")
    everywhere.click()
    expect(everywhere).to_have_text("Sign out on every device, this one too?")
    with third.page.expect_navigation():
        everywhere.click()
    third.page.wait_for_selector("body[data-ready=yes]")
    for device in (first, second, third):
        device.page.reload()
        device.page.wait_for_selector("body[data-ready=yes]")
        assert device.mine()["stats"]["played"] == 0
    for device in (first,):  # signed out from elsewhere: told so, once (the second was, above)
        notice = device.page.locator("#dlg-account #account-notice")
        expect(notice).to_contain_text('This device was signed out of "Margo"')
        expect(device.page.locator("#account-none")).to_be_visible()
        device.page.keyboard.press("Escape")
        device.page.reload()
        device.page.wait_for_selector("body[data-ready=yes]")
        expect(device.page.locator("#dlg-account")).to_be_hidden()
    expect(third.page.locator("#dlg-account")).to_be_hidden()  # it signed out itself

    # the account is deleted from a device signed in again, its password asked for once more
    sign_in = first.account().locator("#account-sign-in")
    sign_in.get_by_label("Name").fill("Margo")
    sign_in.get_by_label("Password").fill(PASSWORD)
    with first.page.expect_navigation():
        sign_in.get_by_role("button", name="Sign in", exact=True).click()
    first.page.wait_for_selector("body[data-ready=yes]")
    first.page.keyboard.press("Escape")  # the account's game, over: its end shown
    dialog = first.account().locator("#dlg-account")
    delete = dialog.locator("#btn-account-delete")
    expect(dialog.get_by_label("Your password, to delete the account")).to_be_hidden()
    delete.click()
    expect(delete).to_have_text("Delete the account for good? (Its finished games stay, unnamed.)")
    dialog.get_by_label("Your password, to delete the account").fill("not the password")
    delete.click()
    expect(dialog.locator("#account-error")).to_have_text(
        "The current password is not right, so the account was not deleted.")
    dialog.get_by_label("Your password, to delete the account").fill(PASSWORD)
    with first.page.expect_navigation():
        delete.click()
    first.page.wait_for_selector("body[data-ready=yes]")
    assert first.page.evaluate("async () => (await fetch('/api/sessions', {method: 'POST', headers: "
                               "{'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Margo', "
                               f"password: '{PASSWORD}'}})}})).status") == 401
    # the browser reports each 401 the pages were meant to meet: the wrong password's, and the first
    # request of each device signed out from elsewhere (which then becomes a new player); nothing else
    refused = "Failed to load resource: the server responded with a status of 401 (Unauthorized)"
    base = f"http://localhost:{server.port}"
    wrong = "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    assert sorted(errors) == sorted([f"{refused} ({base}{path})" for path in
                                     ("/api/sessions", "/api/settings", "/api/settings", "/api/sessions")]
                                    + [f"{wrong} ({base}/api/account)"])
