"""The accounts' request and response bodies, and the errors their routes may answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from spades.server.accounts.names import MAX_NAME
from spades.server.schemas import TOKEN_PATTERN, ErrorOut, StrictIn

__all__ = ["ACCOUNT_ERRORS", "MAX_PASSWORD", "MIN_PASSWORD", "AccountIn", "AccountOut", "BotTokenOut",
           "DeleteIn", "PasskeyIn", "PasskeyOptionsOut", "PasskeyOut", "PasswordIn", "SessionInfoOut",
           "SessionOut", "SignInIn"]

MIN_PASSWORD = 8
MAX_PASSWORD = 256
_NAME = Field(min_length=1, max_length=4 * MAX_NAME, description="the account's name (3 to 20 letters, "
              "digits, _ - or .; checked after Unicode NFKC normalisation)")
_PASSWORD = Field(max_length=MAX_PASSWORD, description="the account's password")


class AccountIn(StrictIn):
    """Make the caller's player an account: a name, and a password if wanted (passkeys come after)."""

    name: str = _NAME
    password: str | None = Field(default=None, min_length=MIN_PASSWORD, max_length=MAX_PASSWORD,
                                 description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters, if any")


class BotTokenOut(BaseModel):
    """A bot account's new token: the bot sends it to connect (``/api/bots/live``); shown only now."""

    name: str = Field(description="the account's name")
    level: str = Field(description="the bot as a table's computer players (bot-<name>), offered while "
                                   "connected")
    token: str = Field(description="the bot's secret token (a new one replaces the old)")


class PasswordIn(StrictIn):
    """Set the account's password: the current one is asked for again when there is one."""

    old: str | None = Field(default=None, max_length=MAX_PASSWORD, description="the current password")
    new: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD,
                     description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters")


class DeleteIn(StrictIn):
    """Delete the account: its password is asked for again when it has one."""

    password: str | None = Field(default=None, max_length=MAX_PASSWORD, description="the current password")


class SignInIn(StrictIn):
    """Sign in on this device with an account's name and password."""

    name: str = _NAME
    password: str = _PASSWORD


class PasskeyIn(StrictIn):
    """A passkey's answer to a ceremony (``PublicKeyCredential.toJSON()`` in the browser)."""

    credential: dict[str, Any] = Field(description="the credential as WebAuthn's JSON form writes it")


class PasskeyOut(BaseModel):
    """One of the account's passkeys."""

    id: str = Field(description="the credential's id (base64url)")
    created: str
    used: str | None = Field(description="when it last signed in, if ever")


class AccountOut(BaseModel):
    """The caller's account: its name (None: the player has no account), and how it signs in."""

    name: str | None
    password: bool = Field(description="whether the account has a password")
    passkeys: list[PasskeyOut]


class SessionInfoOut(BaseModel):
    """A device the account is signed in on."""

    id: str = Field(description='the session\'s id, to end it by ("own": the account\'s first device)')
    device: str = Field(description='the browser and system it signed in with, e.g. "Firefox on Linux"')
    created: str = Field(description="when it signed in (UTC, ISO 8601)")
    used: str | None = Field(description="the day it last signed a request in (UTC, ISO 8601 date); null "
                                         "for the device the account was made on, whose use is not kept")
    current: bool = Field(description="whether it is the device asking")


class SessionOut(BaseModel):
    """A signed-in device's credential: sent as X-Player-Token from now on, in place of the one before."""

    token: str = Field(pattern=TOKEN_PATTERN)
    name: str


class PasskeyOptionsOut(BaseModel):
    """What ``navigator.credentials`` is given to start a passkey ceremony (WebAuthn's JSON form)."""

    options: dict[str, Any]


_ERRORS = {
    400: "A passkey's answer that does not verify (forged, replayed, expired, another site's), or a "
         "malformed token: the detail says why.",
    401: "The name and password do not sign in, or the X-Player-Token is not known (signed out?).",
    403: "The current password, given again to change the password or delete the account, is wrong.",
    404: "The account has no such passkey, or is not signed in with that session.",
    409: "Not now: the name is taken, the player has an account already, or has none.",
    413: "The request body is larger than the server accepts.",
    422: "A name or password that cannot be an account's (length, characters, a reserved name), or a "
         "malformed body: the detail says why.",
    429: "Too many sign-in attempts for this name or from this address, or too many requests: wait the "
         "seconds in Retry-After.",
    503: "The database cannot serve this right now: nothing was changed; try again.",
}
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
ACCOUNT_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text, **({"headers": _RETRY_AFTER} if status == 429 else {})}
    for status, text in _ERRORS.items()}
"""Every status the accounts' routes may answer besides their own success."""
