"""Numbered deals: the algorithm is pinned by literals so a deal number means the same game forever."""

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
    1: (2, ["2C 6C JC KC 4D 2H 7H 9H JH KH AH 4S 5S", "4C 5C 7C 8C 10D KD 3H 8H 10H 7S 8S KS AS",
            "3C 10C QC 2D 3D 6D 9D QD AD 5H QH 9S QS", "9C AC 5D 7D 8D JD 4H 6H 2S 3S 6S 10S JS"]),
    2: (3, ["6C 9C KC AC 4D 5D 6D 8D 10D 8H 9H AH 10S", "3C 5C 8C JC 3D 7D 9D AD 4H 2S 4S 6S AS",
            "4C 7C 10C QC JD KD 3H 5H 6H 7H QH 3S QS", "2C 2D QD 2H 10H JH KH 5S 7S 8S 9S JS KS"]),
    20261201: (0, ["6C 7C JC 5D 7D 10D 6H 8H QH 4S 6S 8S JS", "2C 3C 5C QC KC 4H 7H 3S 7S 10S QS KS AS",
                   "4C 9C 10C 2D 3D 8D JD KD AD 3H 5H JH 9S", "8C AC 4D 6D 9D QD 2H 9H 10H KH AH 2S 5S"]),
}


@pytest.mark.parametrize("deal", list(PINNED))
def test_pinned_four_player_deals(deal: int) -> None:
    dealer, hands = PINNED[deal]
    game = Game(Rules(), deal=deal)
    assert game.dealer == dealer
    assert [mask_to_str(game.view(s).hand) for s in range(4)] == hands


def test_pinned_three_player_deal_and_set_aside_card() -> None:
    game = Game(find_preset("three-player"), deal=5)
    assert game.dealer == 1
    assert [mask_to_str(h) for h in game.hands] == [
        "2C 9C KC 4D 5D 8D 10D JD 3H KH AH 2S 5S 6S 7S 9S AS",
        "5C 8C QC AC 2D 6D 7D 9D KD AD 5H 6H 7H QH 4S JS KS",
        "3C 4C 6C 7C 10C JC 3D QD 2H 8H 9H 10H JH 3S 8S 10S QS",
    ]
    assert mask_to_str(game.set_aside) == "4H"


def test_pinned_two_player_stock_and_joker_deal() -> None:
    game = Game(find_preset("two-player"), deal=5)
    assert (game.dealer, game.turn) == (1, 0)
    assert [str(c) for c in game.stock[:6]] == ["4C", "2S", "4S", "QD", "5S", "AD"]
    jokers = Game(find_preset("jokers"), deal=5)
    assert mask_to_str(jokers.hands[0]) == "5C 6C JC QC KC 8H 10H AH 3S 7S 10S JS BJ"
    assert mask_to_str(jokers.hands[3]) == "7C 8C 6D 8D 10D QD AD 2H 6H 2S 5S KS LJ"


def test_generator_literals() -> None:
    rng = DealRng.for_hand(1, 0)
    assert [rng.next64() for _ in range(3)] == [10691528562939865726, 13739094642059647243,
                                                 17585908570246422350]
    rng = DealRng(0)
    assert [rng.below(52) for _ in range(5)] == [35, 0, 27, 12, 43]
    assert [str(c) for c in shuffled(STANDARD_DECK, DealRng.for_hand(42, 0))][:4] == ["JC", "QH", "6S", "7D"]


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
