"""A scored hand in words (spades.outcome), checked on the rules text's own examples."""

from __future__ import annotations

from spades.outcome import broken_nils, describe_side
from spades.rules import FailedNilTricks, Rules
from spades.scoring import Bid, score_hand

STANDARD = Rules()


def words(rules: Rules, bids: list[Bid], tricks: list[int], bags: tuple[int, int] = (0, 0),
          side: int = 0) -> tuple[str, ...]:
    """The words for one side's hand: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return describe_side(rules, score_hand(rules, bids, tricks, list(bags)).sides[side]).texts


def test_the_worked_example_three_hands() -> None:
    # Hand 1: your team bids 4 and wins 8 (40 plus 4 bags); the other team bids 6 and wins only 5.
    hand1 = [Bid(2), Bid(3), Bid(2), Bid(3)]
    assert words(STANDARD, hand1, [4, 3, 4, 2]) == ("made 4 (+40)", "4 bags (+4)")
    assert words(STANDARD, hand1, [4, 3, 4, 2], side=1) == ("set on 6 (\u221260)",)
    # Hand 2: a player on the other team bids nil and wins none; the partner bids 5 and wins 6.
    hand2 = [Bid(2), Bid(0), Bid(2), Bid(5)]
    assert words(STANDARD, hand2, [3, 0, 4, 6], side=1) == ("made 5 (+50)", "1 bag (+1)", "nil made (+100)")
    # Hand 3: your team bids 5 and wins 8: those 3 bags bring its count (7) to 10.
    hand3 = [Bid(3), Bid(2), Bid(2), Bid(3)]
    assert words(STANDARD, hand3, [4, 2, 4, 3], bags=(7, 1)) == (
        "made 5 (+50)", "3 bags (+3)", "10 bags reached (\u2212100)")


def test_a_broken_nil_says_the_tricks_it_took_and_they_are_bags() -> None:
    # "When a nil fails, the tricks the nil bidder won do not count toward the partner's bid.
    # They do count as bags for the team."
    said = describe_side(STANDARD, score_hand(STANDARD, [Bid(0), Bid(3), Bid(4), Bid(3)], [2, 4, 4, 3],
                                              [0, 0]).sides[0], seat_name=lambda s: "You")
    assert said.texts == ("made 4 (+40)", "2 bags (+2)", "You: nil broken, took 2 tricks (\u2212100)")
    assert said.remarks == ("You: nil broken, took 2 tricks (\u2212100)",)
    assert (said.contract, said.bags, said.penalties) == (4, 2, 0)


def test_blind_nil_set_ten_for_two_hundred_and_boston() -> None:
    blind = Rules(blind_nil=True)
    # "A blind nil is broken: minus 200"; the partner bids 6 and wins 5: minus 60.
    assert words(blind, [Bid.blind_nil(), Bid(3), Bid(6), Bid(3)], [1, 3, 5, 4]) == (
        "set on 6 (\u221260)", "1 bag (+1)", "blind nil broken, took 1 trick (\u2212200)")
    ten = Rules(ten_for_two_hundred=True)
    bids = [Bid.ten_for_200(), Bid(1), Bid(3), Bid(2)]
    assert words(ten, bids, [6, 1, 4, 2]) == ("10 for 200 made (+200)",)
    assert words(ten, bids, [6, 2, 3, 2]) == ("10 for 200 failed (\u2212200)",)
    boston = Rules(boston_bonus=200)
    said = describe_side(boston, score_hand(boston, [Bid(6), Bid(0), Bid(5), Bid(2)], [7, 0, 6, 0],
                                            [0, 0]).sides[0])
    assert said.texts == ("made 11 (+110)", "2 bags (+2)", "Boston: all 13 tricks (+200)")
    assert said.remarks == ("Boston: all 13 tricks (+200)",)


def test_no_bids_and_a_renege() -> None:
    r = Rules(first_hand_no_bids=True)
    side = score_hand(r, [None] * 4, [3, 3, 4, 3], [0, 0], no_bids=True).sides[0]
    assert describe_side(r, side, no_bids=True).texts == ("no bids: 10 a trick (+70)",)
    side = score_hand(STANDARD, [Bid(3), Bid(3), Bid(3), Bid(3)], [4, 3, 3, 3], [0, 0], renege=0).sides[0]
    assert describe_side(STANDARD, side, reneged=True).texts[:2] == ("reneged", "set on 6 (\u221260)")


def test_a_nil_tricks_rule_that_counts_them_toward_the_contract_changes_the_words() -> None:
    r = Rules(failed_nil_tricks=FailedNilTricks.CONTRACT)
    assert words(r, [Bid(0), Bid(3), Bid(5), Bid(3)], [2, 3, 3, 5]) == (
        "made 5 (+50)", "nil broken, took 2 tricks (\u2212100)")


def test_a_nil_is_broken_once_its_bidder_takes_a_trick() -> None:
    assert broken_nils(STANDARD, [Bid(0), Bid(3), Bid.blind_nil(), None], [0, 2, 1, 0]) == [2]
