"""What an account refuses, each with its HTTP status (the app maps them: ``status``)."""

from __future__ import annotations

from spades.errors import SpadesError

__all__ = ["AccountError", "NameTaken", "NoAccount", "NoSuchPasskey", "NoSuchSession", "PasskeyRefused",
           "SignInRefused", "TooManyAttempts", "WrongPassword"]


class AccountError(SpadesError):
    """Something asked of an account that it cannot do; ``status`` is the HTTP status for it."""

    status = 400


class NameTaken(AccountError):
    """The name (or one that looks the same) is another account's, or this player has an account."""

    status = 409


class NoAccount(AccountError):
    """The player has no account, and this needs one."""

    status = 409


class SignInRefused(AccountError):
    """A name and password that do not sign in: one message whichever was wrong."""

    status = 401


class WrongPassword(AccountError):
    """The account's current password, asked for again to change it, was not given right."""

    status = 403


class TooManyAttempts(AccountError):
    """Sign-in attempts past their limit, for this name or from this address."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PasskeyRefused(AccountError):
    """A passkey's answer that does not verify: forged, replayed, expired, or not this site's."""

    status = 400


class NoSuchPasskey(AccountError):
    """A passkey id the account does not have."""

    status = 404


class NoSuchSession(AccountError):
    """A session id the account is not signed in with."""

    status = 404
