"""The two-player draw: nobody deals; the players take turns at the stock until it runs out.

"On your turn, look at the top card without showing it. To keep it, put it in your hand, then
look at the next card and discard that one face down. To refuse it, discard it face down and
take the next card, which you must keep." Some groups draw two cards at a time and keep one.
Either way each turn takes two cards from the stock, one kept and one discarded; ``Game`` keeps
the ``Stock`` and asks these what a seat is shown and what it keeps.

>>> from spades.cards import Card
>>> from spades.rules import Rules, TwoPlayerDraw
>>> stock = [Card.parse(c) for c in ("AS", "2H", "KD", "3C")]
>>> two = Rules(players=2, two_player_draw=TwoPlayerDraw.DRAW_TWO_KEEP_ONE)
>>> shown(Rules(players=2), stock, 0), shown(two, stock, 2)
((Card.parse('AS'),), (Card.parse('KD'), Card.parse('3C')))
>>> kept_and_discarded(stock, 0, keep_first=False)
(Card.parse('2H'), Card.parse('AS'))
"""

from __future__ import annotations

from collections.abc import Sequence

from spades.cards import Card
from spades.rules import Rules, TwoPlayerDraw

__all__ = ["Stock", "kept_and_discarded", "shown"]


class Stock:
    """The two-player draw as it stands: the stock in its shuffled order (never changed, so shared
    by copies; empty for a dealt hand), how far it is drawn, and the cards each seat discarded."""

    def __init__(self, cards: list[Card], players: int) -> None:
        self.cards = cards
        self.pos = 0
        self.discards = [0] * players

    def copy(self) -> Stock:
        """An independent copy (the discards copied, the stock shared)."""
        c = Stock(self.cards, 0)
        c.pos, c.discards = self.pos, list(self.discards)
        return c

    def left(self) -> int:
        """How many cards are left to draw."""
        return len(self.cards) - self.pos


def shown(rules: Rules, stock: Sequence[Card], pos: int) -> tuple[Card, ...]:
    """The card(s) the seat to draw sees: the top card (keep or refuse it), or the top two (keep one)."""
    if rules.two_player_draw is TwoPlayerDraw.DRAW_TWO_KEEP_ONE:
        return tuple(stock[pos:pos + 2])
    return (stock[pos],)


def kept_and_discarded(stock: Sequence[Card], pos: int, keep_first: bool) -> tuple[Card, Card]:
    """The card kept and the card discarded when the seat keeps the first card shown, or not."""
    first, second = stock[pos], stock[pos + 1]
    return (first, second) if keep_first else (second, first)
