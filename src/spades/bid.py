"""A player's bid, the one value of the scoring that is built from what people type and send.

It lives apart from ``spades.scoring`` (which holds it in its names, as always) because that module
is compiled (see setup.py) and this one must not be: a compiled class would check its fields' types,
with a TypeError, before ``__post_init__`` could give its precise SpadesError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spades.errors import SpadesError
from spades.rules import NilRule, Rules

__all__ = ["Bid"]


@dataclass(frozen=True, slots=True)
class Bid:
    """One player's bid: a number of tricks, nil (0), blind nil, or a team's 10 for 200.

    >>> Bid.parse("blind nil"), str(Bid(4)), str(Bid.parse("10 for 200"))
    (Bid(0, blind=True), '4', '10 for 200')
    """

    tricks: int
    blind: bool = False
    ten_for_two_hundred: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.tricks, bool) or not isinstance(self.tricks, int):
            raise SpadesError(f"A bid is a number of tricks, not {self.tricks!r}.")
        if not 0 <= self.tricks <= 17:
            raise SpadesError(f"No bid of {self.tricks}: bids run from 0 to 13 (17 with three).")
        if self.blind and self.tricks != 0:
            raise SpadesError("A blind nil is a bid of no tricks.")
        if self.ten_for_two_hundred and (self.tricks != 10 or self.blind):
            raise SpadesError("10 for 200 is a bid of 10 tricks.")

    @classmethod
    def nil(cls) -> Bid:
        """A plain nil."""
        return cls(0)

    @classmethod
    def blind_nil(cls) -> Bid:
        """A blind nil, made before looking at the cards."""
        return cls(0, blind=True)

    @classmethod
    def ten_for_200(cls) -> Bid:
        """The team bid of 10 for 200."""
        return cls(10, ten_for_two_hundred=True)

    def is_nil(self, rules: Rules) -> bool:
        """Whether this bid is a nil (or blind nil) bet under these rules: a 0 is plain where nil is not."""
        return self.blind or (self.tricks == 0 and rules.nil is NilRule.NIL)

    def written(self, rules: Rules) -> str:
        """The bid as a table or a score sheet shows it: a 0 is ``nil`` only where nil is a bet.

        >>> from spades.rules import Rules
        >>> Bid(0).written(Rules()), Bid(0).written(Rules(players=3, nil=NilRule.PLAIN))
        ('nil', '0')
        """
        return "0" if self.is_zero and not self.is_nil(rules) else str(self)

    @property
    def is_zero(self) -> bool:
        """A bid of no tricks (nil, blind nil, or a plain 0 where nil is not played)."""
        return self.tricks == 0

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read ``4``, ``nil``, ``blind nil`` (or ``bn``), ``10 for 200``."""
        t = " ".join(str(text).strip().lower().replace("_", " ").replace("-", " ").split())
        if t in ("nil", "0"):
            return cls(0)
        if t in ("blind nil", "bn", "blind"):
            return cls(0, blind=True)
        if t in ("10 for 200", "ten for two hundred", "10for200"):
            return cls.ten_for_200()
        if re.fullmatch(r"\d{1,2}", str(text).strip()):
            return cls(int(t))
        raise SpadesError(f"Not a bid: {text!r}. Bid a number, nil, blind nil or 10 for 200.")

    def __str__(self) -> str:
        if self.blind:
            return "blind nil"
        if self.ten_for_two_hundred:
            return "10 for 200"
        return "nil" if self.tricks == 0 else str(self.tricks)

    def __repr__(self) -> str:
        extra = ", blind=True" if self.blind else ""
        extra += ", ten_for_two_hundred=True" if self.ten_for_two_hundred else ""
        return f"Bid({self.tricks}{extra})"
