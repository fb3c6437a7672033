"""The exceptions the library raises, all under one base so callers can catch them at once.

Every error is a ``ValueError``: the caller passed something wrong. The message names the
seat and the card where there is one, and is fit to show to a player.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "IllegalMoveError",
    "OutOfTurnError",
    "RecordError",
    "RulesError",
    "SpadesError",
    "TournamentError",
    "WrongPhaseError",
]


class SpadesError(ValueError):
    """Base of every error this library raises."""


class CardError(SpadesError):
    """Text or a number that is not a card (malformed notation)."""


class RulesError(SpadesError):
    """Rule options that do not exist or contradict each other, or an unknown preset."""


class IllegalMoveError(SpadesError):
    """A move the rules forbid now; the message says why."""


class OutOfTurnError(IllegalMoveError):
    """A move by a seat whose turn it is not."""


class WrongPhaseError(IllegalMoveError):
    """A move of the wrong kind for the phase (a bid during play, a card during bidding)."""


class RecordError(SpadesError):
    """A game record that is malformed, of an unknown version, or does not replay."""


class TournamentError(SpadesError):
    """A tournament that cannot be run as asked: too few entrants, too many rounds, unfit rules."""
