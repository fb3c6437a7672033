"""Session credentials: what a signed-in device sends as its ``X-Player-Token``, and what is kept of it.

A session's credential is 48 characters: a selector (the first 16), by which the store finds the session,
and a verifier (the rest), of which the store keeps only the SHA-256 hash, compared in constant time. So
a copy of the database signs no one in, and a lookup's timing tells nothing of the secret part.

>>> token, selector, verifier = new_session()
>>> forged = selector + "A" * 32
>>> len(token), selector == token[:SELECTOR], verifies(verifier, token), verifies(verifier, forged)
(48, True, True, False)
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import time
from datetime import UTC, datetime, timedelta

__all__ = ["SELECTOR", "SESSION_IDLE", "new_session", "selector_of", "unused_since", "verifies"]

SELECTOR = 16
"""Characters of a credential that find its session."""
SESSION_IDLE = timedelta(days=60)
"""A session not used for this long has ended (a lost phone's credential does not sign in for ever); the
player's own token, the device the account was made on, never ends this way."""


def unused_since(now: datetime | None = None) -> str:
    """The time before which a session last used has ended (as of ``now``, the current time if not
    given), as the store writes times."""
    if now is None:
        return _unused_since(int(time.time()))
    return (now - SESSION_IDLE).isoformat(timespec="seconds")


@functools.lru_cache(maxsize=1)
def _unused_since(second: int) -> str:
    """``unused_since`` as of a whole second since the epoch: worked out once a second (every request's
    credential is checked)."""
    return unused_since(datetime.fromtimestamp(second, UTC))


def _hash(secret: str) -> str:
    """What the store keeps of a verifier."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_session() -> tuple[str, str, str]:
    """A fresh credential, and what the store keeps of it: (credential, selector, verifier's hash)."""
    selector, secret = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    return selector + secret, selector, _hash(secret)


def selector_of(token: str) -> str:
    """The part of a credential that finds its session."""
    return token[:SELECTOR]


def verifies(verifier: str, token: str) -> bool:
    """Whether a credential's secret part has the kept hash (compared in constant time)."""
    return hmac.compare_digest(verifier, _hash(token[SELECTOR:]))
