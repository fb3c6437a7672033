"""Scoring: every worked example of the reference, and every scoring option."""

from collections.abc import Sequence

import pytest

from spades.errors import SpadesError
from spades.rules import FailedBid, FailedNilTricks, NilRule, RenegePenalty, Rules, find_preset
from spades.scoring import Bid, HandScore, game_winner, score_hand

MAIN = Rules()


def teams(rules: Rules, ours: Sequence[tuple[Bid, int]], theirs: Sequence[tuple[Bid, int]],
          bags: Sequence[int] = (0, 0), **kw: object) -> HandScore:
    """Score a partnership hand from (bid, tricks) for North/South then East/West."""
    seats = [ours[0], theirs[0], ours[1], theirs[1]]
    return score_hand(rules, [b for b, _ in seats], [t for _, t in seats], bags, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("bid", "won", "points", "bags"), [
    (5, 5, 50, 0), (5, 7, 52, 2), (5, 8, 53, 3), (7, 7, 70, 0), (5, 4, -50, 0), (4, 3, -40, 0),
])
def test_table_of_sample_scores(bid: int, won: int, points: int, bags: int) -> None:
    first = min(won, 3)
    s = teams(MAIN, [(Bid(bid - 2), first), (Bid(2), won - first)],
              [(Bid(1), 13 - won), (Bid(1), 0)]).sides[0]
    assert (s.points, s.bags_added, s.made) == (points, bags, won >= bid)


def test_partners_bidding_3_and_2_make_5_whoever_wins_them() -> None:
    for north in range(6):
        s = teams(MAIN, [(Bid(3), north), (Bid(2), 5 - north)], [(Bid(4), 8), (Bid(4), 0)]).sides[0]
        assert (s.contract, s.points) == (5, 50)


def test_three_hand_worked_example() -> None:
    scores, bags = [0, 0], [0, 0]
    hands = [
        ([(Bid(2), 4), (Bid(2), 4)], [(Bid(3), 3), (Bid(3), 2)], (44, -60), (44, -60)),
        ([(Bid(3), 5), (Bid(1), 2)], [(Bid.nil(), 0), (Bid(5), 6)], (43, 151), (87, 91)),
        ([(Bid(3), 6), (Bid(2), 2)], [(Bid(4), 3), (Bid(1), 2)], (-47, 50), (40, 141)),
    ]
    for ours, theirs, points, totals in hands:
        result = teams(MAIN, ours, theirs, bags)
        assert result.points == points
        scores = [a + b for a, b in zip(scores, result.points, strict=True)]
        bags = list(result.bags)
        assert tuple(scores) == totals
    assert bags == [0, 1]


def test_eight_bags_plus_three_costs_100_and_leaves_one() -> None:
    s = teams(MAIN, [(Bid(2), 4), (Bid(2), 3)], [(Bid(4), 3), (Bid(4), 3)], bags=(8, 0)).sides[0]
    assert (s.bags_added, s.penalties, s.penalty_points, s.bags_after, s.points) == (3, 1, 100, 1, -57)


def test_bags_past_twenty_cost_twice() -> None:
    s = teams(MAIN, [(Bid(1), 12), (Bid(1), 1)], [(Bid(1), 0), (Bid(1), 0)], bags=(9, 0)).sides[0]
    assert (s.bags_added, s.penalties, s.bags_after, s.points) == (11, 2, 0, 20 + 11 - 200)


@pytest.mark.parametrize(("bid", "won", "points"), [
    (Bid.nil(), 0, 100), (Bid.nil(), 1, -100), (Bid.blind_nil(), 0, 200), (Bid.blind_nil(), 2, -200),
])
def test_nil_and_blind_nil_rows(bid: Bid, won: int, points: int) -> None:
    s = teams(MAIN, [(bid, won), (Bid(3), 3)], [(Bid(3), 10 - won), (Bid(3), 0)]).sides[0]
    assert s.nil_points == points
    assert s.contract_points == 30 and s.nils[0].made == (won == 0)


def test_failed_nil_tricks_three_readings() -> None:
    # North bids nil and wins 2; South bids 4 and wins 3.
    def side(reading: FailedNilTricks) -> tuple[int, int, bool]:
        s = teams(MAIN.replace(failed_nil_tricks=reading), [(Bid.nil(), 2), (Bid(4), 3)],
                  [(Bid(4), 8), (Bid(4), 0)]).sides[0]
        return s.points, s.bags_added, s.made

    assert side(FailedNilTricks.BAGS) == (-100 - 40 + 2, 2, False)
    assert side(FailedNilTricks.CONTRACT) == (-100 + 40 + 1, 1, True)
    assert side(FailedNilTricks.NEITHER) == (-100 - 40, 0, False)
    # The partner made: the nil bidder's tricks are bags on top of the partner's bags.
    s = teams(MAIN, [(Bid.nil(), 2), (Bid(4), 5)], [(Bid(3), 6), (Bid(3), 0)]).sides[0]
    assert (s.points, s.bags_added) == (-100 + 40 + 3, 3)


def test_three_player_bid_4_win_5_scores_30() -> None:
    three = find_preset("three-player")
    s = score_hand(three, [Bid(4), Bid(6), Bid(5)], [5, 6, 6], [0, 0, 0])
    assert s.points == (30, 60, 40)
    s = score_hand(three, [Bid(8), Bid(0), Bid(5)], [7, 0, 10], [0, 0, 0])
    assert s.points == (-80, 0, 0)  # a 3-player 0 has no bonus; 10 won on a bid of 5 costs 50


def test_softer_failed_bids() -> None:
    def failed(rule: FailedBid) -> int:
        return teams(MAIN.replace(failed_bid=rule), [(Bid(3), 2), (Bid(3), 2)],
                     [(Bid(1), 9), (Bid(1), 0)]).sides[0].points

    assert failed(FailedBid.MINUS_BID) == -60
    assert failed(FailedBid.MINUS_SHORT) == -20  # bid 6 and win 4 loses 20
    assert failed(FailedBid.ZERO) == 0
    bicycle = find_preset("bicycle")
    points = score_hand(bicycle, [Bid(6), Bid(1), Bid(1), Bid(1)], [5, 3, 3, 2], [0] * 4).points
    assert points == (0, 12, 12, 11)


def test_no_bag_penalty_and_bags_costing_a_point() -> None:
    free = MAIN.replace(bag_penalty=0)
    s = teams(free, [(Bid(1), 12), (Bid(1), 0)], [(Bid(1), 1), (Bid(1), 0)], bags=(5, 0)).sides[0]
    assert (s.points, s.bags_after, s.penalties) == (20 + 10, 15, 0)
    minus = MAIN.replace(bag_penalty=0, bag_value=-1)
    s = teams(minus, [(Bid(2), 3), (Bid(2), 3)], [(Bid(4), 7), (Bid(1), 0)], bags=(9, 0)).sides[0]
    assert (s.points, s.bags_after) == (40 - 2, 11)


def test_bag_limit_and_penalty_as_numbers() -> None:
    rules = MAIN.replace(bag_limit=5, bag_penalty=50)
    s = teams(rules, [(Bid(2), 4), (Bid(2), 3)], [(Bid(3), 6), (Bid(3), 0)], bags=(3, 0)).sides[0]
    assert (s.bags_added, s.penalties, s.points, s.bags_after) == (3, 1, 40 + 3 - 50, 1)


def test_ten_for_two_hundred() -> None:
    rules = MAIN.replace(ten_for_two_hundred=True)
    def ten(r: Rules, won: int) -> tuple[int, bool]:
        s = teams(r, [(Bid(4), won), (Bid.ten_for_200(), 0)], [(Bid(1), 13 - won), (Bid(1), 0)]).sides[0]
        return s.points, s.ten_for_two_hundred

    assert ten(rules, 10) == (200, True)
    assert ten(rules, 9) == (-200, True)
    assert ten(rules, 11) == (-200, True)
    assert ten(rules.replace(ten_for_two_hundred_or_more=True), 11) == (201, True)


def test_first_hand_without_bidding_scores_10_a_trick() -> None:
    s = score_hand(MAIN, [None] * 4, [3, 4, 2, 4], [0, 0], no_bids=True)
    assert s.points == (50, 80) and s.bags == (0, 0)


def test_renege_penalties() -> None:
    hand = [(Bid(3), 4), (Bid(3), 3)], [(Bid(2), 4), (Bid(2), 2)]
    assert teams(MAIN, *hand, renege=0).sides[0].points == -60
    assert teams(MAIN, *hand, renege=1).points == (61, -40)
    three = MAIN.replace(renege_penalty=RenegePenalty.THREE_TRICKS)
    s = teams(three, *hand, renege=0).sides[0]
    assert (s.contract, s.points) == (9, -90)
    s = teams(three, [(Bid(2), 6), (Bid(2), 4)], [(Bid(1), 3), (Bid(1), 0)], renege=0).sides[0]
    assert (s.contract, s.points, s.bags_added) == (7, 73, 3)


def test_boston_is_recorded_and_may_score_a_bonus() -> None:
    hand = [(Bid(6), 7), (Bid(6), 6)], [(Bid(1), 0), (Bid(1), 0)]
    s = teams(MAIN, *hand).sides[0]
    assert s.boston and s.boston_points == 0 and s.points == 121
    s = teams(MAIN.replace(boston_bonus=250), *hand).sides[0]
    assert s.boston and s.points == 371
    assert not teams(MAIN.replace(boston_bonus=250), *hand).sides[1].boston


def test_no_nil_rule_scores_zero_as_a_plain_bid() -> None:
    plain = MAIN.replace(nil=NilRule.PLAIN)
    s = teams(plain, [(Bid(0), 1), (Bid(3), 3)], [(Bid(3), 9), (Bid(3), 0)]).sides[0]
    assert (s.nils, s.points) == ((), 31)


def test_bad_scoring_input_is_refused() -> None:
    with pytest.raises(SpadesError, match="add up to 13"):
        score_hand(MAIN, [Bid(1)] * 4, [3, 3, 3, 3], [0, 0])
    with pytest.raises(SpadesError, match="each of 4 seats"):
        score_hand(MAIN, [Bid(1)] * 3, [4, 4, 5], [0, 0])
    with pytest.raises(SpadesError, match="bags of each of 2"):
        score_hand(MAIN, [Bid(1)] * 4, [4, 4, 4, 1], [0])
    with pytest.raises(SpadesError, match="no bid"):
        score_hand(MAIN, [Bid(1), None, Bid(1), Bid(1)], [4, 4, 4, 1], [0, 0])


def test_bid_values_and_text() -> None:
    assert Bid.parse("Blind-Nil") == Bid.blind_nil() and Bid.parse(" 7 ") == Bid(7)
    assert str(Bid.parse("10 for 200")) == "10 for 200" and str(Bid(0)) == "nil"
    for bad in ("eleventy", "-1", "100"):
        with pytest.raises(SpadesError):
            Bid.parse(bad)
    for args in ((18,), (-1,), (3, True), (9, False, True)):
        with pytest.raises(SpadesError):
            Bid(*args)


@pytest.mark.parametrize(("rules", "scores", "winner"), [
    (MAIN, [499, 480], None), (MAIN, [500, 480], 0), (MAIN, [510, 530], 1), (MAIN, [505, 505], None),
    (MAIN.replace(target=200), [210, 150], 0), (MAIN.replace(target=1000), [990, 600], None),
    (MAIN.replace(target=300), [300, 300], None),
    (MAIN.replace(low_mark=-200), [-200, 100], 1), (MAIN.replace(low_mark=-500), [-450, 100], None),
    (find_preset("three-player").replace(target=300), [310, 320, 100], 1),
    (find_preset("cutthroat"), [100, 520, 510, 0], 1),
])
def test_game_end(rules: Rules, scores: list[int], winner: int | None) -> None:
    assert game_winner(rules, scores) == winner


def test_blind_nil_worth_100_with_plain_nil_at_50() -> None:
    rules = MAIN.replace(blind_nil=True, blind_nil_value=100, nil_value=50)
    s = teams(rules, [(Bid.blind_nil(), 0), (Bid(4), 4)], [(Bid.nil(), 1), (Bid(4), 8)])
    assert [n.points for n in s.sides[0].nils] == [100] and s.sides[0].points == 140
    assert [n.points for n in s.sides[1].nils] == [-50] and s.sides[1].points == -50 + 40 + 4 + 1
