"""Cards, suits and card sets as bit masks.

A card is a small integer (``Card`` subclasses ``int``) so that a set of cards is a plain
``int`` bit mask: bit ``c`` is set when card ``c`` is in the set. Standard cards are numbered
``suit * 13 + (rank - 2)`` with suits in the order clubs, diamonds, hearts, spades; the
little joker is 52 and the big joker 53.

>>> Card.parse("QH")
Card.parse('QH')
>>> str(Card.parse("TH")), str(Card.parse("10h")), str(Card.parse("bj"))
('10H', '10H', 'BJ')
>>> mask_to_str(parse_mask("AS 10H 2C"))
'2C 10H AS'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from spades.errors import CardError

__all__ = [
    "ALL_CARDS",
    "BIG_JOKER",
    "LITTLE_JOKER",
    "STANDARD_DECK",
    "Card",
    "Suit",
    "cards_of",
    "mask_of",
    "mask_to_str",
    "parse_cards",
    "parse_mask",
    "popcount",
]


class Suit(IntEnum):
    """The four suits, in the order used for card numbers and for sorting a hand."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter code: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The printed symbol, such as ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def singular(self) -> str:
        """The English name of one card of the suit: ``club``, ``heart``..."""
        return ("club", "diamond", "heart", "spade")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter or symbol.

        >>> Suit.parse("h"), Suit.parse("♠")
        (<Suit.HEARTS: 2>, <Suit.SPADES: 3>)
        """
        t = text.strip().upper()
        for suit in cls:
            if t in (suit.letter, suit.symbol, suit.name):
                return suit
        raise CardError(f"Unknown suit {text!r}: use C, D, H or S.")


_RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_NAME = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "jack", 12: "queen", 13: "king", 14: "ace"}
_TEXT_RANK = {v: k for k, v in _RANK_TEXT.items()} | {"T": 10}

LITTLE_JOKER_ID = 52
BIG_JOKER_ID = 53


class Card(int):
    """One playing card; its value is its card number (0-53), so ``1 << card`` is its bit.

    >>> c = Card.parse("10H"); int(c), c.rank, c.suit.name, c.name
    (34, 10, 'HEARTS', '10 of hearts')
    """

    __slots__ = ()

    def __new__(cls, number: int) -> Card:
        """The card with this number; cards are interned, so ``Card(5) is Card(5)``."""
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 53:
            raise CardError(f"No card has the number {number!r}.")
        return _CARDS[number]

    @classmethod
    def make(cls, rank: int, suit: Suit) -> Card:
        """The standard card of a rank (2-14, ace high) and suit."""
        if not 2 <= rank <= 14:
            raise CardError(f"No rank {rank}: ranks run from 2 to 14 (ace).")
        return _CARDS[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit (``AS``, ``10H``, ``TH``, ``2c``), or ``BJ``/``LJ``."""
        t = text.strip().upper()
        if t in ("BJ", "LJ"):
            return _CARDS[BIG_JOKER_ID if t == "BJ" else LITTLE_JOKER_ID]
        if len(t) < 2:
            raise CardError(f"Not a card: {text!r}. Write the rank then the suit, as in AS or 10H.")
        rank = _TEXT_RANK.get(t[:-1])
        if rank is None:
            raise CardError(f"Not a card: {text!r}. Unknown rank {t[:-1]!r}.")
        try:
            suit = Suit.parse(t[-1])
        except CardError:
            raise CardError(f"Not a card: {text!r}. Unknown suit {t[-1]!r}.") from None
        return cls.make(rank, suit)

    @property
    def is_joker(self) -> bool:
        """True for the big and the little joker."""
        return self >= LITTLE_JOKER_ID

    @property
    def suit(self) -> Suit:
        """The printed suit; jokers are spades, as they are in every joker game."""
        return _SUITS[self]

    @property
    def rank(self) -> int:
        """2-14 for standard cards (ace is 14); 15 for the little joker, 16 for the big."""
        return self % 13 + 2 if self < LITTLE_JOKER_ID else self - 37

    @property
    def bit(self) -> int:
        """The card's bit in a card mask."""
        return 1 << self

    @property
    def name(self) -> str:
        """English name, as used in messages: ``queen of hearts``, ``big joker``."""
        return _NAMES[self]

    def _name(self) -> str:
        """``name``, made once per card (every move's message names its card)."""
        if self.is_joker:
            return "big joker" if self == BIG_JOKER_ID else "little joker"
        return f"{_RANK_NAME[self.rank]} of {self.suit.singular}s"

    @property
    def symbol(self) -> str:
        """Short form with the suit symbol: ``10♥``."""
        if self.is_joker:
            return str(self)
        return _RANK_TEXT[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        return _TEXTS[self]

    def _text(self) -> str:
        """The card as written (``AS``, ``10H``, ``BJ``), made once per card for ``__str__``."""
        if self.is_joker:
            return "BJ" if self == BIG_JOKER_ID else "LJ"
        return _RANK_TEXT[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: list[Card] = [int.__new__(Card, n) for n in range(BIG_JOKER_ID + 1)]
_SUITS: tuple[Suit, ...] = tuple(Suit(min(n // 13, Suit.SPADES)) for n in range(BIG_JOKER_ID + 1))
"""Each card's printed suit (jokers: spades), by card number."""
_TEXTS: list[str] = [c._text() for c in _CARDS]
_NAMES: list[str] = [c._name() for c in _CARDS]
ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)
LITTLE_JOKER = _CARDS[LITTLE_JOKER_ID]
BIG_JOKER = _CARDS[BIG_JOKER_ID]
STANDARD_DECK: int = (1 << 52) - 1
"""The mask of the 52 standard cards."""


def popcount(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def cards_of(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest card number first."""
    while mask:
        low = mask & -mask
        yield _CARDS[low.bit_length() - 1]
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding these cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``"AS, 10H 2C"``."""
    return [Card.parse(t) for t in text.replace(",", " ").split()]


def parse_mask(text: str) -> int:
    """Read a space-separated card list into a mask."""
    return mask_of(parse_cards(text))


def mask_to_str(mask: int) -> str:
    """Print a mask as card texts, lowest first."""
    return " ".join(str(c) for c in cards_of(mask))
