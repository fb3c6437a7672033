"""Who wins a trick: the one definition (``DeckSpec.strength``) against the rules text, for every
deck, and every fast form of it proved equal to it for every pair of cards and every led suit (the
numpy path's winner on thousands of random tricks)."""

import itertools
import random

import numpy as np
import pytest

from spades.cards import BIG_JOKER, LITTLE_JOKER, Card, Suit, cards_of
from spades.fast import PlayState, _tables
from spades.play import trick_winner
from spades.rules import DeckKind, Rules

RAISED = {
    DeckKind.STANDARD: [],
    DeckKind.JOKERS: ["LJ", "BJ"],
    DeckKind.JOKERS_HIGH_TWOS: ["2S", "2D", "LJ", "BJ"],
    DeckKind.JOKERS_HIGH_SPADE_TWO: ["2S", "LJ", "BJ"],
}
"""The trumps above the ace of spades, lowest first, as the rules text lists them: "Add 2 jokers as
the top 2 spades. The big joker beats the little joker, and both beat the ace of spades"; "The trumps
then run big joker, little joker, 2 of diamonds, 2 of spades, ace of spades and on down. The 2 of
diamonds counts as a spade. Some groups raise only the 2 of spades."""


def card(text: str) -> int:
    return {"LJ": LITTLE_JOKER, "BJ": BIG_JOKER}.get(text) or Card.parse(text)


def text_rank(kind: DeckKind, c: int, led: int) -> tuple[int, int]:
    """A card's rank in a trick, from the rules text: "The highest spade in a trick wins it. If no
    spade was played, the highest card of the suit led wins." (A card of a third suit never wins.)"""
    raised = [card(t) for t in RAISED[kind]]
    if c in raised:
        return (2, 15 + raised.index(c))
    suit, rank = Card(c).suit, Card(c).rank
    if suit is Suit.SPADES:
        return (2, rank)
    return (1, rank) if suit == led else (0, 0)


@pytest.mark.parametrize("kind", list(DeckKind))
def test_the_strength_table_ranks_every_pair_as_the_rules_text_does(kind: DeckKind) -> None:
    spec = Rules(deck=kind).deck_spec
    deck = list(cards_of(spec.cards))
    assert len(deck) == 52
    for led in range(4):
        strength = spec.strength[led]
        for a, b in itertools.permutations(deck, 2):
            ra, rb = text_rank(kind, a, led), text_rank(kind, b, led)
            assert (strength[a] > strength[b]) == (ra > rb), (Card(a), Card(b), led)
            assert spec.beats(a, b, led) == (ra > rb)


@pytest.mark.parametrize("kind", list(DeckKind))
def test_the_bit_mask_forms_equal_the_strength_table(kind: DeckKind) -> None:
    """``beaten_by`` (the search's playouts, the heuristic, must-beat) and the numpy path's table:
    for every card that can be winning a trick of each led suit (one of that suit, or a trump),
    the cards that beat it are exactly those the strength table ranks higher."""
    rules = Rules(deck=kind)
    spec = rules.deck_spec
    numpy_beats = [int(m) for m in _tables(rules).beats]
    deck = list(cards_of(spec.cards))
    for led in range(4):
        strength = spec.strength[led]
        for b in deck:
            if spec.suit_of[b] not in (led, Suit.SPADES):
                continue  # it cannot be winning this trick
            stronger = sum(1 << a for a in deck if strength[a] > strength[b])
            assert spec.beaten_by[b] == stronger == numpy_beats[b], (Card(b), led)


@pytest.mark.parametrize("kind", list(DeckKind))
def test_trick_winner_takes_the_highest_ranked_card_of_any_trick(kind: DeckKind) -> None:
    """``trick_winner`` and the numpy path's winner, each trick so far a row (-1: no card yet)."""
    rules = Rules(deck=kind)
    spec = rules.deck_spec
    deck = list(cards_of(spec.cards))
    rng = random.Random(kind.value)
    rows = 2000
    state = PlayState.start(rules, np.zeros((rows, 4), dtype=np.uint64), np.zeros(rows, dtype=np.int64))
    expected = []
    for row in range(rows):
        cards = rng.sample(deck, rng.randint(1, 4))
        led = spec.suit_of[cards[0]]
        best = max(range(len(cards)), key=lambda i: text_rank(kind, cards[i], led))
        assert trick_winner(spec, [(seat, c) for seat, c in enumerate(cards)]) == best
        state.trick[row, :len(cards)] = cards
        expected.append(best)
    assert state._winning_place().tolist() == expected
