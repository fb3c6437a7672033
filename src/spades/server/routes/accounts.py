"""Accounts: make one, sign in and out (with a password or a passkey), passkeys, the password, deleting.

Each route takes the caller's credential as the others do (``X-Player-Token``: the anonymous token, or a
session's from signing in); the sign-ins answer with a new session's credential for this device.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from spades.protocol import Roster
from spades.server.accounts.devices import device_of
from spades.server.accounts.passkeys import RelyingParty
from spades.server.accounts.schemas import (
    ACCOUNT_ERRORS,
    AccountIn,
    AccountOut,
    BotTokenOut,
    DeleteIn,
    PasskeyIn,
    PasskeyOptionsOut,
    PasswordIn,
    SessionInfoOut,
    SessionOut,
    SignInIn,
)
from spades.server.accounts.service import Accounts
from spades.server.deps import CallerDep, TokenDep
from spades.server.settings import Settings

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["accounts"], responses=ACCOUNT_ERRORS)


async def _accounts(request: Request) -> Accounts:
    """The app's accounts."""
    accounts: Accounts = request.app.state.accounts
    return accounts


AccountsDep = Annotated[Accounts, Depends(_accounts)]


async def _relying_party(request: Request) -> RelyingParty:
    """The site passkeys belong to: as the operator set it, else as the browser asked for it."""
    settings: Settings = request.app.state.settings
    url = request.url
    return RelyingParty(id=settings.passkey_rp_id or url.hostname or "localhost",
                        origin=settings.passkey_origin or f"{url.scheme}://{url.netloc}")


SiteDep = Annotated[RelyingParty, Depends(_relying_party)]
PasskeyId = Annotated[str, Path(min_length=1, max_length=1400, pattern=r"^[A-Za-z0-9_-]+$",
                                description="the passkey's id (base64url)")]


@router.post("/account", status_code=201)
def make_account(body: AccountIn, accounts: AccountsDep, player: TokenDep) -> AccountOut:
    """Make the caller's player an account: a unique name (look-alikes collide), and a password if given."""
    return accounts.create(player, body.name, body.password)


@router.get("/account")
def get_account(accounts: AccountsDep, player: TokenDep) -> AccountOut:
    """The caller's account (``name`` null: the player has none)."""
    return accounts.describe(player)


@router.delete("/account", status_code=204)
async def delete_account(accounts: AccountsDep, player: TokenDep, body: DeleteIn | None = None) -> Response:
    """Erase the account (name, password, passkeys, sessions, settings) and sign out everywhere, given its
    password when it has one; its finished games stay, under "deleted player"."""
    await accounts.delete(player, None if body is None else body.password)
    return Response(status_code=204)


@router.post("/account/bot", status_code=201)
def make_bot(accounts: AccountsDep, player: TokenDep) -> BotTokenOut:
    """Mark the caller's account a bot and give it a new token, with which its program connects to
    ``/api/bots/live`` (an earlier token stops working). Its name must be ASCII letters, digits, - or _."""
    return accounts.make_bot(player)


BOT_HELLO_SECONDS = 10.0
"""How long a bot's socket has to send its token."""
BAD_TOKEN = 4401
"""The close code for a connection without a bot's token (the reason says what was wrong)."""


@router.websocket("/bots/live")
async def bot_live(ws: WebSocket) -> None:
    """A bot account's connection: first ``{"token": ...}``, then the protocol's messages (``hello`` and
    ``decide`` from the server, ``ready`` and ``move`` from the bot) while it plays at friends' tables that
    asked for it; offered to them while connected."""
    await ws.accept()
    accounts: Accounts = ws.app.state.accounts
    roster: Roster = ws.app.state.roster
    try:
        first = json.loads(await asyncio.wait_for(ws.receive_text(), BOT_HELLO_SECONDS))
        token = first.get("token") if isinstance(first, dict) else None
    except (TimeoutError, ValueError, KeyError):
        token = None
    except WebSocketDisconnect:
        return
    name = await run_in_threadpool(accounts.bot, token) if isinstance(token, str) and len(token) < 100 \
        else None
    if name is None:
        await ws.close(BAD_TOKEN, "Send {\"token\": ...} with a bot account's token (POST /api/account/bot).")
        return
    bot = roster.remotes.connect(name, ws.send_text)
    try:
        while True:
            bot.heard(await ws.receive_text())
    except (WebSocketDisconnect, KeyError):
        pass
    finally:
        roster.remotes.disconnect(bot)


@router.put("/account/password")
async def set_password(body: PasswordIn, accounts: AccountsDep, player: TokenDep) -> AccountOut:
    """Set the account's password (the current one must be given when there is one)."""
    return await accounts.set_password(player, body.old, body.new)


@router.post("/sessions", status_code=201)
async def sign_in(body: SignInIn, request: Request, accounts: AccountsDep) -> SessionOut:
    """Sign this device in with a name and password: the answer's token is its credential from now on."""
    client = request.client
    return await accounts.sign_in(body.name, body.password, client.host if client else None, _device(request))


def _device(request: Request) -> str:
    """What the device signing in is called in the account's list of sessions."""
    return device_of(request.headers.get("user-agent"))


@router.get("/account/sessions")
def sessions(accounts: AccountsDep, caller: CallerDep) -> list[SessionInfoOut]:
    """Where the account is signed in, oldest first, this device marked ``current``."""
    return accounts.sessions(*caller)


@router.delete("/sessions/current", status_code=204)
def sign_out(accounts: AccountsDep, caller: CallerDep) -> Response:
    """Sign this device out: the credential it sent stops working (the account stays)."""
    accounts.sign_out(*caller)
    return Response(status_code=204)


@router.delete("/sessions", status_code=204)
def sign_out_everywhere(accounts: AccountsDep, player: TokenDep) -> Response:
    """Sign out on every device, this one too: every session and the player's own token stop working."""
    accounts.sign_out_everywhere(player)
    return Response(status_code=204)


@router.delete("/account/sessions/{session_id}", status_code=204)
def end_session(session_id: Annotated[str, Path(pattern=r"^(own|[0-9a-f]{16})$", description="the session's "
                                                "id, from GET /api/account/sessions")],
                accounts: AccountsDep, player: TokenDep) -> Response:
    """Sign the account out on one device (a lost phone's, say): its credential stops working at once."""
    accounts.end_session(player, session_id)
    return Response(status_code=204)


@router.post("/passkey-sign-ins")
async def passkey_sign_in_options(request: Request, accounts: AccountsDep,
                                  site: SiteDep) -> PasskeyOptionsOut:
    """Start signing in with a passkey: the options for ``navigator.credentials.get``."""
    client = request.client
    if client is not None:
        await accounts.count_attempt(f"address:{client.host}", "this address")
    return PasskeyOptionsOut(options=await run_in_threadpool(accounts.passkeys.sign_in_options, site))


@router.post("/sessions/passkey", status_code=201)
def passkey_sign_in(body: PasskeyIn, request: Request, accounts: AccountsDep, site: SiteDep) -> SessionOut:
    """Sign this device in with the passkey's answer: the answer's token is its credential from now on."""
    return accounts.passkeys.sign_in(body.credential, site, _device(request))


@router.post("/passkey-registrations")
def passkey_options(accounts: AccountsDep, player: TokenDep, site: SiteDep) -> PasskeyOptionsOut:
    """Start adding a passkey to the account: the options for ``navigator.credentials.create``."""
    return PasskeyOptionsOut(options=accounts.passkeys.registration_options(player, site))


@router.post("/passkeys", status_code=201)
def add_passkey(body: PasskeyIn, accounts: AccountsDep, player: TokenDep, site: SiteDep) -> AccountOut:
    """Add the new passkey of the browser's answer to the account."""
    accounts.passkeys.register(player, body.credential, site)
    return accounts.describe(player)


@router.delete("/passkeys/{passkey_id}")
def remove_passkey(passkey_id: PasskeyId, accounts: AccountsDep, player: TokenDep) -> AccountOut:
    """Remove one of the account's passkeys."""
    return accounts.drop_passkey(player, passkey_id)
