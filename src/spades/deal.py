"""Numbered deals: one number fixes every shuffle and draw of a whole game.

The algorithm is part of the project's promise (a shared number must mean the same game in
every later version), so it is written out here rather than borrowed from ``random``:

* A stream is seeded from ``(deal, hand, attempt)`` by SplitMix64 mixing of
  ``deal * 2**20 + (hand + 1) * 2**8 + attempt`` (``hand`` -1 is the draw for the first dealer).
* ``below(n)`` joins ``w`` 64-bit SplitMix64 outputs, the first lowest, into one number
  below ``2**(64 * w)`` (``w`` the fewest words that hold ``n - 1``; one for every n up to
  ``2**64``), and draws again while it falls in the top ``2**(64 * w) % n`` values, so every
  result is exactly uniform.
* A shuffle of ``k`` cards draws one index ``x = below(k!)`` and reads it in mixed radix as
  forward Fisher-Yates swaps over the deck's cards sorted by card number: for position
  ``i = 0, 1, ... k - 2``, ``x, r = divmod(x, k - i)`` and position ``i`` swaps with
  ``i + r``. Every order of the deck is exactly equally likely (one index per order), a
  52-card shuffle costs four outputs (redrawn with probability below 2**-30), and the top
  cards are known before the rest (the draw for the first dealer reads only those).

Tests pin the hands of a few deal numbers as literals.

>>> DealRng.for_hand(1, 0).below(52)
46
>>> [str(c) for c in shuffled(0b1111, DealRng(5))]
['4C', '3C', '2C', '5C']
>>> daily_deal(date(2026, 12, 1))
20261201
"""

from __future__ import annotations

from datetime import date
from functools import cache
from math import factorial
from typing import Final

from spades.cards import Card, cards_of
from spades.errors import SpadesError

__all__ = ["MAX_DEAL", "DealRng", "check_deal_number", "daily_deal", "shuffled"]

MAX_DEAL = 2**53 - 1
"""The largest deal number (the largest integer a browser's JavaScript holds exactly)."""

_MASK64 = (1 << 64) - 1


def _mix(z: int) -> int:
    """The SplitMix64 finaliser."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK64
    return z ^ (z >> 31)


class DealRng:
    """The SplitMix64 generator that all deals are drawn from."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    @classmethod
    def for_hand(cls, deal: int, hand: int, attempt: int = 0) -> DealRng:
        """The stream for one hand of a numbered game (and one redeal of that hand)."""
        return cls(_mix((deal << 20) + ((hand + 1) << 8) + attempt & _MASK64))

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        return _mix(self._state)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, however large ``n`` is."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        words = max(1, ((n - 1).bit_length() + 63) // 64)
        span = 1 << 64 * words
        limit = span - span % n
        while True:
            x = 0
            for w in range(words):
                x |= self.next64() << 64 * w
            if x < limit:
                return x % n


@cache
def _sorted_cards(deck_mask: int) -> tuple[Card, ...]:
    """A deck's cards by card number (made once per deck kind)."""
    return tuple(cards_of(deck_mask))


_SMALL: Final = 1 << 62
"""Below this a product of radices stays a small (compiled: unboxed) integer."""


@cache
def _orders(k: int) -> int:
    """How many orders k cards have (k!, a 226-bit number for a deck: worked out once)."""
    return factorial(k)


@cache
def _radix_runs(k: int) -> tuple[tuple[int, int, int], ...]:
    """The swaps of a k-card shuffle in runs ``(first, end, product of their radices)``, each product
    below ``_SMALL``: one big division per run splits off its digits, read with small numbers."""
    runs = []
    i = 0
    while i < k - 1:
        first, product = i, 1
        while i < k - 1 and product * (k - i) < _SMALL:
            product *= k - i
            i += 1
        runs.append((first, i, product))
    return tuple(runs)


def shuffled(deck_mask: int, rng: DealRng, top: int | None = None) -> list[Card]:
    """The deck's cards in shuffled order, top first (one uniform index read as Fisher-Yates swaps).

    With ``top``, only the top ``top`` cards: the same cards, for fewer swaps.
    """
    cards = list(_sorted_cards(deck_mask))
    k = len(cards)
    x = rng.below(_orders(k))
    end = k - 1 if top is None else min(top, k - 1)
    for first, stop, product in _radix_runs(k):  # the digits of x, in radices k, k - 1, ... 2
        if first >= end:
            break
        digits = x % product
        x //= product
        for i in range(first, min(stop, end)):
            radix = k - i
            j = i + digits % radix
            digits //= radix
            cards[i], cards[j] = cards[j], cards[i]
    return cards if top is None else cards[:top]


def check_deal_number(deal: object) -> int:
    """The deal number, or a SpadesError saying what is wrong with it."""
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise SpadesError(f"A deal number is a whole number, not {deal!r}.")
    if not 1 <= deal <= MAX_DEAL:
        raise SpadesError(f"Deal numbers run from 1 to {MAX_DEAL}; {deal} is out of range.")
    return deal


def daily_deal(day: date) -> int:
    """The deal everyone plays on a given day: its date written as YYYYMMDD."""
    return day.year * 10000 + day.month * 100 + day.day
