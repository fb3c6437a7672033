"""Numbered deals: the algorithm is pinned by literals so a deal number means the same game forever."""

import math
from collections import Counter
from datetime import date

import pytest

from spades.cards import STANDARD_DECK, Card, mask_to_str
from spades.deal import MAX_DEAL, DealRng, check_deal_number, daily_deal, shuffled
from spades.errors import SpadesError
from spades.game import Game
from spades.rules import FirstDealer, Rules, find_preset

# Seat order North, East, South West; the dealer of each deal's first hand.
PINNED = {
    1: (2, ["7C 8C 9C 8D QD 6H JH 3S 4S 6S 7S JS AS", "5C 6C 10C QC 4D 6D 9D JD 7H 5S 9S QS KS",
            "3C JC 10D KD 2H 3H 5H 8H 10H KH 2S 8S 10S", "2C 4C KC AC 2D 3D 5D 7D AD 4H 9H QH AH"]),
    2: (3, ["4C 5C 9C 10C JC 4D 6D 3H 7H JH QH 6S QS", "KC 2D 3D 5D 7D 10D JD QD AD 4H 10H 7S 10S",
            "7C 8C QC 9D KD KH AH 4S 5S 8S 9S JS AS", "2C 3C 6C AC 8D 2H 5H 6H 8H 9H 2S 3S KS"]),
    20261201: (1, ["3C 5C 8C 10C KC 10D KD AD 3H 10H 9S 10S AS", "4C 6C 9C QC 3D 4H 5H 6H 9H AH 2S 3S 7S",
                   "2C 7C JC 2D 5D 7D 8D 9D 2H QH KH 5S QS", "AC 4D 6D JD QD 7H 8H JH 4S 6S 8S JS KS"]),
}


@pytest.mark.parametrize("deal", list(PINNED))
def test_pinned_four_player_deals(deal: int) -> None:
    dealer, hands = PINNED[deal]
    game = Game(Rules(), deal=deal)
    assert game.dealer == dealer
    assert [mask_to_str(game.view(s).hand) for s in range(4)] == hands


def test_pinned_three_player_deal_and_set_aside_card() -> None:
    game = Game(find_preset("three-player"), deal=5)
    assert game.dealer == 0
    assert [mask_to_str(h) for h in game.hands] == [
        "2C 3C 7C 8C 10C 3D 8D JD QD 5H 9H JH QH 3S 5S 6S KS",
        "4C QC AC 4D 6D 9D 10D AD 6H 7H 2S 4S 8S 9S JS QS AS",
        "5C 6C 9C JC KC 2D 5D 7D KD 2H 3H 4H 8H 10H KH 7S 10S",
    ]
    assert mask_to_str(game.set_aside) == "AH"


def test_pinned_two_player_stock_and_joker_deal() -> None:
    game = Game(find_preset("two-player"), deal=5)
    assert (game.dealer, game.turn) == (0, 1)
    assert [str(c) for c in game.stock[:6]] == ["AC", "2H", "7C", "4S", "5D", "JH"]
    jokers = Game(find_preset("jokers"), deal=5)
    assert mask_to_str(jokers.hands[0]) == "8C JC KC 9D 2H 9H JH AH 2S JS QS AS LJ"
    assert mask_to_str(jokers.hands[3]) == "3C 5C 6C 7C 10C AC JD KD 4H KH 4S 7S BJ"


def test_generator_literals() -> None:
    rng = DealRng.for_hand(1, 0)
    assert [rng.next64() for _ in range(3)] == [10691528562939865726, 13739094642059647243,
                                                 17585908570246422350]
    rng = DealRng(0)
    assert [rng.below(52) for _ in range(5)] == [35, 0, 27, 12, 43]
    assert [str(c) for c in shuffled(STANDARD_DECK, DealRng.for_hand(42, 0))][:4] == ["QS", "9H", "10S", "7S"]


def test_below_joins_words_for_a_bound_past_64_bits() -> None:
    a, b = DealRng(9), DealRng(9)
    assert a.below(2**64) == b.next64()
    x = b.next64() | b.next64() << 64
    assert a.below(10**30) == x % 10**30  # 2**128 % 10**30 is tiny: no redraw for this seed


def reference_shuffle(deck_mask: int, rng: DealRng) -> list[int]:
    """The docstring's algorithm written out again: the index's mixed-radix digits as forward swaps."""
    cards = sorted(c for c in range(54) if deck_mask >> c & 1)
    x = rng.below(math.factorial(len(cards)))
    for i in range(len(cards) - 1):
        r = x % (len(cards) - i)
        x //= len(cards) - i
        cards[i], cards[i + r] = cards[i + r], cards[i]
    return cards


def test_shuffle_is_the_documented_algorithm_and_its_top_is_the_same_cards() -> None:
    for seed in range(20):
        deck = shuffled(STANDARD_DECK, DealRng(seed))
        assert deck == reference_shuffle(STANDARD_DECK, DealRng(seed))
        assert [shuffled(STANDARD_DECK, DealRng(seed), top) for top in (0, 5, 52)] == [[], deck[:5], deck]


def test_every_order_of_a_small_deck_is_equally_likely() -> None:
    rng = DealRng(4)
    counts = Counter(tuple(shuffled(0b1111, rng)) for _ in range(4800))
    assert len(counts) == 24 and min(counts.values()) > 140 and max(counts.values()) < 260


def test_streams_differ_by_hand_and_attempt() -> None:
    decks = {tuple(shuffled(STANDARD_DECK, DealRng.for_hand(9, h, a)))
             for h in range(-1, 3) for a in range(3)}
    assert len(decks) == 12


def test_below_is_uniform_and_in_range() -> None:
    rng = DealRng(123)
    counts = Counter(rng.below(3) for _ in range(3000))
    assert set(counts) == {0, 1, 2} and min(counts.values()) > 900
    with pytest.raises(ValueError):
        rng.below(0)


def test_shuffle_is_a_permutation() -> None:
    cards = shuffled(STANDARD_DECK, DealRng.for_hand(77, 3))
    assert sorted(cards) == list(range(52)) and all(isinstance(c, Card) for c in cards)


def test_first_dealer_is_the_high_card_of_the_draw() -> None:
    rules = Rules()
    spec = rules.deck_spec
    for deal in range(1, 30):
        drawn = shuffled(spec.cards, DealRng.for_hand(deal, -1))[:4]
        powers = [spec.power[c] for c in drawn]
        if powers.count(max(powers)) == 1:
            assert Game(rules, deal=deal).dealer == powers.index(max(powers))


def test_first_dealer_random_is_reproducible_and_varies() -> None:
    rules = Rules(first_dealer=FirstDealer.RANDOM)
    dealers = [Game(rules, deal=d).dealer for d in range(1, 11)]
    assert dealers == [1, 2, 1, 2, 1, 3, 3, 0, 3, 0]
    assert dealers == [Game(rules, deal=d).dealer for d in range(1, 11)]


def test_deal_numbers_are_checked() -> None:
    assert check_deal_number(MAX_DEAL) == MAX_DEAL
    for bad in (0, -3, MAX_DEAL + 1, "7", 1.0, True):
        with pytest.raises(SpadesError, match=r"deal number|Deal numbers"):
            check_deal_number(bad)
    with pytest.raises(SpadesError):
        Game(Rules(), deal=0)


def test_daily_deal() -> None:
    assert daily_deal(date(2027, 1, 9)) == 20270109
