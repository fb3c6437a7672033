"""Cards and decks: text forms, card numbers, and the trump order of every deck."""

import pytest

from spades.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    STANDARD_DECK,
    Card,
    Suit,
    cards_of,
    mask_of,
    mask_to_str,
    parse_cards,
    parse_mask,
)
from spades.errors import CardError, SpadesError
from spades.game import trick_winner
from spades.rules import DeckKind, DeckSpec, Rules


def test_every_card_round_trips_through_text() -> None:
    for n in range(54):
        card = Card(n)
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card


@pytest.mark.parametrize(("text", "number"), [("AS", 51), ("10H", 34), ("TH", 34), ("th", 34),
                                              ("2C", 0), ("KD", 24), (" qh ", 36), ("BJ", 53),
                                              ("lj", 52), ("2♠", 39)])
def test_parse_card_numbers(text: str, number: int) -> None:
    assert Card.parse(text) == number


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ZZ", "10", "JOKER", "AS2"])
def test_malformed_card_text_is_a_card_error(text: str) -> None:
    with pytest.raises(CardError, match=r"Not a card|Unknown"):
        Card.parse(text)
    assert issubclass(CardError, SpadesError)


@pytest.mark.parametrize("number", [-1, 54, True, 2.0])
def test_bad_card_numbers_are_refused(number: object) -> None:
    with pytest.raises(CardError):
        Card(number)  # type: ignore[arg-type]


def test_card_names_and_properties() -> None:
    assert Card.parse("QH").name == "queen of hearts"
    assert Card.parse("10C").symbol == "10♣"
    assert BIG_JOKER.name == "big joker" and LITTLE_JOKER.is_joker and BIG_JOKER.suit is Suit.SPADES
    assert Card.parse("AS").rank == 14 and Card.parse("2D").suit is Suit.DIAMONDS
    assert Card.make(11, Suit.SPADES) == Card.parse("JS")
    with pytest.raises(CardError):
        Card.make(15, Suit.HEARTS)


def test_masks_round_trip() -> None:
    mask = parse_mask("AS, 10H 2C")
    assert mask == mask_of([51, 34, 0])
    assert mask_to_str(mask) == "2C 10H AS"
    assert list(cards_of(mask)) == parse_cards("2C 10H AS")
    assert parse_mask(mask_to_str(STANDARD_DECK)) == STANDARD_DECK


def spec_of(kind: DeckKind) -> DeckSpec:
    return Rules(deck=kind).deck_spec


def trumps_high_to_low(kind: DeckKind) -> list[str]:
    spec = spec_of(kind)
    return [str(Card(c)) for c in sorted(cards_of(spec.trumps), key=lambda c: -spec.power[c])]


def test_standard_deck() -> None:
    spec = spec_of(DeckKind.STANDARD)
    assert spec.cards == STANDARD_DECK and spec.cards.bit_count() == 52
    assert trumps_high_to_low(DeckKind.STANDARD)[:3] == ["AS", "KS", "QS"]
    assert all(spec.suit_masks[s].bit_count() == 13 for s in range(4))


def test_jokers_deck_removes_two_clubs_and_two_diamonds() -> None:
    spec = spec_of(DeckKind.JOKERS)
    assert spec.cards.bit_count() == 52
    assert not spec.cards & parse_mask("2C 2D")
    assert trumps_high_to_low(DeckKind.JOKERS)[:4] == ["BJ", "LJ", "AS", "KS"]
    assert spec.trumps.bit_count() == 15


def test_jokers_and_high_twos_deck() -> None:
    spec = spec_of(DeckKind.JOKERS_HIGH_TWOS)
    assert spec.cards.bit_count() == 52 and not spec.cards & parse_mask("2C 2H")
    assert trumps_high_to_low(DeckKind.JOKERS_HIGH_TWOS)[:6] == ["BJ", "LJ", "2D", "2S", "AS", "KS"]
    assert trumps_high_to_low(DeckKind.JOKERS_HIGH_TWOS)[-1] == "3S"
    assert spec.suit_of[Card.parse("2D")] == Suit.SPADES  # the 2♦ counts as a spade
    assert spec.suit_masks[Suit.DIAMONDS].bit_count() == 12


def test_jokers_raising_only_the_two_of_spades() -> None:
    spec = spec_of(DeckKind.JOKERS_HIGH_SPADE_TWO)
    assert trumps_high_to_low(DeckKind.JOKERS_HIGH_SPADE_TWO)[:4] == ["BJ", "LJ", "2S", "AS"]
    assert spec.suit_of[Card.parse("2D")] == Suit.DIAMONDS
    assert spec.power[Card.parse("2D")] < spec.power[Card.parse("3D")]


def play(kind: DeckKind, cards: str) -> int:
    """The seat (0-3, in the order played) that wins a trick of these cards."""
    return trick_winner(spec_of(kind), list(enumerate(parse_cards(cards))))


def test_trick_winners_follow_the_trump_order() -> None:
    assert play(DeckKind.STANDARD, "KH AH 2S 5H") == 2  # the reference's low-spade trick
    assert play(DeckKind.STANDARD, "KH AD AC 5H") == 0  # a third suit never wins
    assert play(DeckKind.JOKERS, "AS LJ BJ KS") == 2
    assert play(DeckKind.JOKERS_HIGH_TWOS, "AS 2S 2D KS") == 2
    assert play(DeckKind.JOKERS_HIGH_TWOS, "KD AD 3D QD") == 1
    assert play(DeckKind.JOKERS_HIGH_TWOS, "KH 2D AH QH") == 1  # the 2♦ trumps a heart
    assert play(DeckKind.JOKERS_HIGH_SPADE_TWO, "3D 2D AS 4D") == 2
    assert play(DeckKind.JOKERS_HIGH_SPADE_TWO, "AS 2S KS QS") == 1
