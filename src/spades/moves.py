"""The moves a seat can make, as small frozen values whose text forms round-trip.

>>> parse_move("play 10h")
Play(Card.parse('10H'))
>>> [str(parse_move(t)) for t in ("bid blind nil", "pass AS KH", "draw keep", "look", "misdeal")]
['bid blind nil', 'pass KH AS', 'draw keep', 'look', 'misdeal']
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.cards import Card, cards_of, mask_of, parse_cards
from spades.errors import SpadesError
from spades.scoring import Bid

__all__ = ["Draw", "Look", "MakeBid", "Misdeal", "Move", "PassCards", "Play", "parse_move"]


@dataclass(frozen=True, slots=True)
class MakeBid:
    """Bid a number of tricks, nil, blind nil or 10 for 200."""

    bid: Bid

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Play({self.card!r})"


@dataclass(frozen=True, slots=True)
class PassCards:
    """Pass cards face down to the partner (the nil and blind nil exchange); a card mask."""

    cards: int

    @classmethod
    def of(cls, *cards: Card) -> PassCards:
        """The pass of these cards."""
        return cls(mask_of(cards))

    def __str__(self) -> str:
        return "pass " + " ".join(str(c) for c in cards_of(self.cards))


@dataclass(frozen=True, slots=True)
class Draw:
    """Two-player draw: keep the first card shown (else the second), discarding the other."""

    keep_first: bool

    def __str__(self) -> str:
        return "draw keep" if self.keep_first else "draw refuse"


@dataclass(frozen=True, slots=True)
class Look:
    """Look at your cards (giving up blind nil for this hand)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True)
class Misdeal:
    """Call a misdeal: you were dealt no spades."""

    def __str__(self) -> str:
        return "misdeal"


Move = MakeBid | Play | PassCards | Draw | Look | Misdeal


def parse_move(text: str) -> Move:
    """Read a move from its text form (``bid 4``, ``play QH``, ``pass AS KH``...)."""
    if not isinstance(text, str):
        raise SpadesError(f"A move is text such as 'play QH', not {text!r}.")
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word == "bid":
        return MakeBid(Bid.parse(rest))
    if word == "play":
        return Play(Card.parse(rest))
    if word == "pass":
        return PassCards(mask_of(parse_cards(rest)))
    if word == "draw" and rest.lower() in ("keep", "refuse"):
        return Draw(rest.lower() == "keep")
    if word == "look" and not rest:
        return Look()
    if word == "misdeal" and not rest:
        return Misdeal()
    raise SpadesError(f"Not a move: {text!r}. Moves are bid, play, pass, draw, look, misdeal.")
