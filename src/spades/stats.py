"""A person's play in figures, from the finished hands of their games: contracts made and set, nils
made, bags per hand.

A seat is counted with its side: the contract is the side's (its non-nil bids together, as scoring has
it), and so are the bags; a nil is the seat's own. A hand where the side bid no tricks (both partners
nil, or a first hand played without bids) has no contract to make or lose.

>>> from spades.game import Game
>>> from spades.rules import Rules
>>> from spades.bots import make_player, play_out
>>> g = play_out(Game(Rules(), deal=7), [make_player("easy")] * 4, hands=1)
>>> s = seat_stats(g.rules, g.history, 0)
>>> s.hands, s.contracts == s.made + s.sets
(1, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spades.game import HandResult
from spades.rules import Rules

__all__ = ["SeatStats", "seat_stats"]


@dataclass(frozen=True)
class SeatStats:
    """What a seat's finished hands came to; two add up (``a + b``), so any number of games can."""

    hands: int = 0
    contracts: int = 0
    """Hands where the seat's side had a contract: tricks bid by its non-nil bidders."""
    made: int = 0
    """Of those, the contracts made."""
    nils: int = 0
    """Hands where the seat bid nil or blind nil."""
    nils_made: int = 0
    bags: int = 0
    """Bags the seat's side took, in all."""

    @property
    def sets(self) -> int:
        """Contracts the side failed to make."""
        return self.contracts - self.made

    @property
    def bags_per_hand(self) -> float:
        """The side's bags a hand, on average (0 before any hand)."""
        return self.bags / self.hands if self.hands else 0.0

    def __add__(self, other: SeatStats) -> SeatStats:
        return SeatStats(self.hands + other.hands, self.contracts + other.contracts, self.made + other.made,
                         self.nils + other.nils, self.nils_made + other.nils_made, self.bags + other.bags)


def seat_stats(rules: Rules, history: Iterable[HandResult], seat: int) -> SeatStats:
    """The figures of ``seat`` over a game's finished hands (``Game.history``) under its ``rules``."""
    total = SeatStats()
    for h in history:
        side = h.score.sides[rules.side_of(seat)]
        nils = [n for n in side.nils if n.seat == seat]
        bid = side.contract > 0
        total += SeatStats(hands=1, contracts=int(bid), made=int(bid and side.made), nils=len(nils),
                           nils_made=sum(n.made for n in nils), bags=side.bags_added)
    return total
