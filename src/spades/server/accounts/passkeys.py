"""Passkeys (WebAuthn, with the ``webauthn`` package): adding one to an account, and signing in with one.

Each ceremony is a pair of calls: options (with a fresh challenge, kept in the store for
``CHALLENGE_SECONDS`` so that any process can finish it), then the browser's answer, verified against
that challenge, which is used up by the first answer that names it: a replayed answer finds it gone.
Passkeys are discoverable (kept on the authenticator with the account's user handle), so signing in
needs no name. A sign-in's signature count must move past the kept one (a cloned authenticator's does
not), and moves it on only if no other sign-in moved it first.

The relying party is the site as the browser sees it: its host name (an IP address is no RP ID) and
origin, from the request, unless the operator sets them (``SPADES_PASSKEY_RP_ID``, ``SPADES_PASSKEY_ORIGIN``)
behind a proxy that rewrites them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from spades.server.accounts.errors import NoAccount, PasskeyRefused
from spades.server.accounts.schemas import SessionOut
from spades.server.store import Account, Store

__all__ = ["CHALLENGE_SECONDS", "Passkeys", "RelyingParty"]

CHALLENGE_SECONDS = 300.0
"""How long a ceremony's challenge may be answered."""
_TIMEOUT_MS = 120_000
"""How long the browser gives the person to use their authenticator."""
_REGISTER, _SIGN_IN = "register", "sign in"
_UNREADABLE = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError)
"""What the package raises for an answer that is not a credential's JSON form at all."""


@dataclass(frozen=True)
class RelyingParty:
    """The site a passkey belongs to: its RP ID (a host name) and the origin its pages are served from."""

    id: str
    origin: str


class Passkeys:
    """The passkey ceremonies of a store's accounts; ``open_session`` signs an account's device in."""

    def __init__(self, store: Store, open_session: Callable[[Account, str], SessionOut]) -> None:
        self.store = store
        self.open_session = open_session

    def registration_options(self, player: str, rp: RelyingParty) -> dict[str, Any]:
        """Options for adding a passkey to the player's account (its passkeys excluded)."""
        account = self.store.account(player=player)
        if account is None:
            raise NoAccount("This player has no account: make one (a name) before adding a passkey.")
        options = generate_registration_options(
            rp_id=rp.id, rp_name="Spades", user_name=account.name, user_display_name=account.name,
            user_id=hashlib.sha256(account.player_hash.encode()).digest(), timeout=_TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id))
                                 for p in self.store.passkeys(player=player)])
        self.store.add_challenge(challenge=bytes_to_base64url(options.challenge), purpose=_REGISTER,
                                 player=player, ttl=CHALLENGE_SECONDS)
        return options_to_json_dict(options)

    def register(self, player: str, credential: dict[str, Any], rp: RelyingParty) -> None:
        """Verify the browser's new passkey against the player's challenge, and keep it."""
        try:
            parsed = parse_registration_credential_json(credential)
            challenge = parse_client_data_json(parsed.response.client_data_json).challenge
        except _UNREADABLE as e:
            raise PasskeyRefused(f"That is not a passkey's answer ({e}).") from None
        kept = self.store.take_challenge(challenge=bytes_to_base64url(challenge), purpose=_REGISTER)
        if kept is None or kept[0] != player:
            raise PasskeyRefused(_UNKNOWN_CHALLENGE)
        try:
            verified = verify_registration_response(credential=parsed, expected_challenge=challenge,
                                                    expected_rp_id=rp.id, expected_origin=rp.origin)
        except _UNREADABLE as e:
            raise PasskeyRefused(f"The new passkey did not verify: {e}") from None
        if not self.store.add_passkey(player=player, passkey_id=bytes_to_base64url(verified.credential_id),
                                      public_key=bytes_to_base64url(verified.credential_public_key),
                                      sign_count=verified.sign_count):
            raise PasskeyRefused("That passkey is known here already.")

    def sign_in_options(self, rp: RelyingParty) -> dict[str, Any]:
        """Options for signing in with any passkey of this site's."""
        options = generate_authentication_options(rp_id=rp.id, timeout=_TIMEOUT_MS,
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        self.store.add_challenge(challenge=bytes_to_base64url(options.challenge), purpose=_SIGN_IN,
                                 player=None, ttl=CHALLENGE_SECONDS)
        return options_to_json_dict(options)

    def sign_in(self, credential: dict[str, Any], rp: RelyingParty, device: str) -> SessionOut:
        """A new session (on ``device``) for the account whose passkey signed the challenge;
        ``PasskeyRefused`` for an answer that is forged, replayed, expired, another site's, or from a
        passkey removed since."""
        try:
            parsed = parse_authentication_credential_json(credential)
            challenge = parse_client_data_json(parsed.response.client_data_json).challenge
        except _UNREADABLE as e:
            raise PasskeyRefused(f"That is not a passkey's answer ({e}).") from None
        if self.store.take_challenge(challenge=bytes_to_base64url(challenge), purpose=_SIGN_IN) is None:
            raise PasskeyRefused(_UNKNOWN_CHALLENGE)
        passkey = self.store.passkey(passkey_id=bytes_to_base64url(parsed.raw_id))
        account = None if passkey is None else self.store.account(player=passkey.player)
        if passkey is None or account is None:
            raise PasskeyRefused("This passkey is not an account's here (was it removed?).")
        try:
            verified = verify_authentication_response(
                credential=parsed, expected_challenge=challenge, expected_rp_id=rp.id,
                expected_origin=rp.origin, credential_public_key=base64url_to_bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count)
        except _UNREADABLE as e:
            raise PasskeyRefused(f"The passkey's answer did not verify: {e}") from None
        if not self.store.use_passkey(passkey_id=passkey.id, was=passkey.sign_count,
                                      now=verified.new_sign_count):
            raise PasskeyRefused("This passkey signed in elsewhere at the same moment: try again.")
        return self.open_session(account, device)


_UNKNOWN_CHALLENGE = ("This passkey answer is not to a request of this server's, or was used already, or "
                      "came too late: try again.")
