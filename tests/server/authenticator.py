"""A passkey authenticator in software, for the API's tests: what a browser and a security key answer to
WebAuthn's ceremonies (ES256 keys, "none" attestation, discoverable credentials, a signature counter)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

_PRESENT, _VERIFIED, _ATTESTED = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    """Bytes as WebAuthn's JSON writes them."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """WebAuthn's base64url back to bytes."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    """One passkey the authenticator holds."""

    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    count: int = 0


class SoftAuthenticator:
    """Makes passkeys and signs challenges with them, as ``navigator.credentials`` would answer."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.credentials: list[Credential] = []

    def _client_data(self, kind: str, options: dict[str, Any]) -> bytes:
        """The clientDataJSON the browser makes for a ceremony's options."""
        return json.dumps({"type": kind, "challenge": options["challenge"], "origin": self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """A new passkey for ``navigator.credentials.create``'s options, as its JSON answer."""
        key = ec.generate_private_key(ec.SECP256R1())
        cred = Credential(os.urandom(16), key, options["rp"]["id"], unb64url(options["user"]["id"]))
        self.credentials.append(cred)
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        auth_data = (hashlib.sha256(cred.rp_id.encode()).digest() + bytes([_PRESENT | _VERIFIED | _ATTESTED])
                     + cred.count.to_bytes(4, "big") + bytes(16) + len(cred.id).to_bytes(2, "big") + cred.id
                     + cose)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(cred.id), "rawId": b64url(cred.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(self._client_data("webauthn.create", options)),
                             "attestationObject": b64url(attestation)},
                "clientExtensionResults": {}}

    def get(self, options: dict[str, Any], count: int | None = None) -> dict[str, Any]:
        """A signed answer to ``navigator.credentials.get``'s options, with the first passkey, its counter
        moved on (or set to ``count``, as a cloned authenticator's would be)."""
        cred = self.credentials[0]
        cred.count = cred.count + 1 if count is None else count
        client_data = self._client_data("webauthn.get", options)
        auth_data = (hashlib.sha256(cred.rp_id.encode()).digest() + bytes([_PRESENT | _VERIFIED])
                     + cred.count.to_bytes(4, "big"))
        signature = cred.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(cred.id), "rawId": b64url(cred.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(cred.user_handle)},
                "clientExtensionResults": {}}
