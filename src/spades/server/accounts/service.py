"""Accounts over the anonymous players: a name, a password and passkeys, and sessions on other devices.

A player stays their anonymous token inside (games, settings, stats and friends' tables' results are
keyed by it); an account only names it and lets other devices sign in as it. Signing in gives the device
a session credential (``credentials``), which ``Service.player`` turns back into the player on every
request. Signing out everywhere ends every session and the player's own token in one write, which every
process sees at its next request, since none of them keeps credentials in memory.

Passwords are hashed with argon2id. A sign-in by an unknown name is checked against a dummy hash, so it
takes as long as a wrong password and gets the same answer. Sign-in attempts are limited per name and
per client address (``attempts``: Redis's buckets when configured, so across processes).
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from dataclasses import dataclass
from functools import cached_property

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.concurrency import run_in_threadpool

from spades.protocol.remote import REMOTE_PREFIX
from spades.server.accounts.credentials import new_session, selector_of, unused_since
from spades.server.accounts.errors import (
    NameTaken,
    NoAccount,
    NoSuchPasskey,
    NoSuchSession,
    SignInRefused,
    TooManyAttempts,
    WrongPassword,
)
from spades.server.accounts.names import BadName, check_name, name_key
from spades.server.accounts.passkeys import Passkeys
from spades.server.accounts.schemas import AccountOut, BotTokenOut, PasskeyOut, SessionInfoOut, SessionOut
from spades.server.middleware import Buckets
from spades.server.store import Account, Store
from spades.server.tables.state import hash_token

__all__ = ["Accounts"]

_SIGN_IN_REFUSED = "That name and password do not sign in."
_BOT_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{2,19}")
"""What a bot account's name's key must be: it names the bot as a table's computer players."""
_NOT_SIGNED_OUT = ("it was not signed out: make an account first (a player without one, signed out, "
                   "would be lost for good)")
"""Why a player without an account cannot sign out (or end a session)."""


@dataclass
class Accounts:
    """The accounts of one store; ``attempts`` limits sign-ins (None: no limit)."""

    store: Store
    attempts: Buckets | None = None

    @cached_property
    def _hasher(self) -> PasswordHasher:
        """argon2id as OWASP's password guide sets it (19 MiB, 2 passes, 1 lane): tens of milliseconds of
        one core, where the library's default (64 MiB, 4 lanes) took most of a second on a busy 2-core
        server; a hash made otherwise is made again at its next sign-in."""
        return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

    @cached_property
    def _dummy(self) -> str:
        """A hash to check an unknown name's password against, so that it costs what a known one does."""
        return self._hasher.hash("not anyone's password")

    @cached_property
    def passkeys(self) -> Passkeys:
        """The passkey ceremonies."""
        return Passkeys(self.store, self._open_session)

    # -- the account --------------------------------------------------------------------------

    def create(self, player: str, name: str, password: str | None) -> AccountOut:
        """Make the player an account with this name (and password); ``NameTaken`` if the name, or one
        that looks the same, is another's, or if the player has an account already."""
        shown = check_name(name)
        hashed = None if password is None else self._hash(password)
        if not self.store.add_account(player=player, player_hash=hash_token(player), name=shown,
                                      name_key=name_key(shown), password=hashed):
            if self.store.account(player=player) is not None:
                raise NameTaken("This player has an account already.")
            raise NameTaken(f'The name "{shown}" (or one that looks the same) is taken: choose another.')
        return self.describe(player)

    def describe(self, player: str) -> AccountOut:
        """The player's account as the page shows it (``name`` None: no account)."""
        account = self.store.account(player=player)
        if account is None:
            return AccountOut(name=None, password=False, passkeys=[])
        return AccountOut(name=account.name, password=account.password is not None,
                          passkeys=[PasskeyOut(id=p.id, created=p.created, used=p.used)
                                    for p in self.store.passkeys(player=player)])

    def find(self, name: str) -> Account | None:
        """The account of this name (or of one that looks the same), or None: for ``/@name`` and the like."""
        return self.store.account_by_name(name_key=name_key(name))

    async def set_password(self, player: str, old: str | None, new: str) -> AccountOut:
        """Set the account's password; the current one must be given right when there is one."""
        await self._confirm(player, old, "the password was not changed")
        return await run_in_threadpool(self._set_password, player, new)

    def _set_password(self, player: str, new: str) -> AccountOut:
        self.store.set_password(player=player, password=self._hash(new))
        return self.describe(player)

    async def delete(self, player: str, password: str | None) -> None:
        """Erase the account and sign it out everywhere, the password given right when it has one (a
        device left signed in, or a copied credential, is not enough); its finished games stay, under
        "deleted player"."""
        await self._confirm(player, password, "the account was not deleted")
        if not await run_in_threadpool(lambda: self.store.delete_account(player=player)):
            raise NoAccount("This player has no account, so the account was not deleted.")

    async def _confirm(self, player: str, password: str | None, otherwise: str) -> None:
        """Check the account's current password, asked for again before changing or erasing what signs in
        (nothing to check when it has none). Each try is counted against the name's sign-in attempts, so
        that a stolen credential cannot guess the password here faster than at the sign-in."""
        account = await run_in_threadpool(self._account, player, otherwise)
        if account.password is None:
            return
        await self.count_attempt(f"name:{account.name_key}", "this name")
        if password is None or not await run_in_threadpool(self._verify, account.password, password):
            raise WrongPassword(f"The current password is not right, so {otherwise}.")

    def drop_passkey(self, player: str, passkey_id: str) -> AccountOut:
        """Remove one of the account's passkeys."""
        self._account(player, "there is no passkey to remove")
        if not self.store.drop_passkey(player=player, passkey_id=passkey_id):
            raise NoSuchPasskey("This account has no such passkey.")
        return self.describe(player)

    # -- bots ---------------------------------------------------------------------------------

    def make_bot(self, player: str) -> BotTokenOut:
        """Mark the player's account a bot and give it a new token to connect with (only its hash is kept;
        an earlier token stops working). Its name must read as a computer player's (ASCII, no dot)."""
        account = self._account(player, "it cannot be made a bot: make an account first")
        if not _BOT_KEY.fullmatch(account.name_key):
            raise BadName("A bot's name holds only ASCII letters, digits, - and _: make another account.")
        token = secrets.token_urlsafe(32)
        self.store.set_bot_token(player=player, token_hash=hash_token(token))
        return BotTokenOut(name=account.name, level=REMOTE_PREFIX + account.name_key, token=token)

    def bot(self, token: str) -> str | None:
        """The computer players' name (``bot-<key>``) of the bot account this token connects, or None."""
        account = self.store.bot_by_token(token_hash=hash_token(token))
        return None if account is None else REMOTE_PREFIX + account.name_key

    # -- signing in and out -------------------------------------------------------------------

    async def sign_in(self, name: str, password: str, address: str | None, device: str) -> SessionOut:
        """A new session for the account of this name if the password is its own; one refusal, whichever
        is wrong. Counted against the name's and the address's attempts first. ``device``: what the
        device is called in the account's list of sessions (``devices.device_of``)."""
        key = name_key(name)
        if address is not None:
            await self.count_attempt(f"address:{address}", "this address")
        await self.count_attempt(f"name:{key}", "this name")
        return await run_in_threadpool(self._sign_in, key, password, device)

    async def count_attempt(self, key: str, who: str) -> None:
        """Take a sign-in attempt from a bucket (``TooManyAttempts`` when it is empty)."""
        wait = 0.0 if self.attempts is None else await self.attempts.wait(key)
        if wait:
            seconds = math.ceil(wait)
            raise TooManyAttempts(f"Too many sign-in attempts for {who}: try again in {seconds} s.", seconds)

    def _sign_in(self, key: str, password: str, device: str) -> SessionOut:
        """``sign_in`` once its attempts are counted (in a worker thread: a hash costs tens of ms)."""
        dummy = self._dummy  # made at the first sign-in, whatever its name, so no name's first costs more
        account = self.store.account_by_name(name_key=key)
        if account is None or account.password is None:
            self._verify(dummy, password)
            raise SignInRefused(_SIGN_IN_REFUSED)
        if not self._verify(account.password, password):
            raise SignInRefused(_SIGN_IN_REFUSED)
        if self._hasher.check_needs_rehash(account.password):
            self.store.set_password(player=account.player, password=self._hash(password))
        return self._open_session(account, device)

    def _open_session(self, account: Account, device: str) -> SessionOut:
        """A new session credential for the account's player (only its selector and hash are kept)."""
        token, selector, verifier = new_session()
        self.store.add_session(player=account.player, selector=selector, verifier=verifier, device=device,
                               since=unused_since())
        return SessionOut(token=token, name=account.name)

    def sessions(self, player: str, credential: str) -> list[SessionInfoOut]:
        """Where the account is signed in, oldest first, this device (``credential``'s) marked."""
        self._account(player, "it is signed in on this device alone")
        here = None if credential == player else selector_of(credential)
        return [SessionInfoOut(id=_session_id(s.selector), created=s.created,
                               used=None if s.used is None else s.used[:10],
                               device=s.device or "the device the account was made on",
                               current=s.selector == here)
                for s in self.store.sessions(player=player, since=unused_since())]

    def end_session(self, player: str, session_id: str) -> None:
        """Sign the account out on one of its devices (``NoSuchSession`` if it is not signed in there)."""
        self._account(player)
        for s in self.store.sessions(player=player, since=unused_since()):
            if _session_id(s.selector) == session_id and self.store.sign_out(player=player,
                                                                             selector=s.selector):
                return
        raise NoSuchSession("The account is not signed in on that device (signed out already?).")

    def sign_out(self, player: str, credential: str) -> None:
        """End the credential this request came with: a session, or the player's own token."""
        self._account(player)
        self.store.sign_out(player=player, selector=None if credential == player else selector_of(credential))

    def sign_out_everywhere(self, player: str) -> None:
        """End every session of the account's, and its own token, this device's too."""
        self._account(player)
        self.store.sign_out_everywhere(player=player)

    # -- inside -------------------------------------------------------------------------------

    def _account(self, player: str, otherwise: str = _NOT_SIGNED_OUT) -> Account:
        """The player's account, or ``NoAccount`` saying what ``otherwise`` was not done."""
        account = self.store.account(player=player)
        if account is None:
            raise NoAccount(f"This player has no account, so {otherwise}.")
        return account

    def _hash(self, password: str) -> str:
        """A password's argon2id hash (its length is checked by the request's schema)."""
        return self._hasher.hash(password)

    def _verify(self, hashed: str, password: str) -> bool:
        """Whether the password has this hash."""
        try:
            return self._hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False


def _session_id(selector: str | None) -> str:
    """A session's id in the API: a digest of its selector (which is part of its credential), "own" for
    the player's own token."""
    return "own" if selector is None else hashlib.blake2b(selector.encode(), digest_size=8).hexdigest()
