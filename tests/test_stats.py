"""A person's figures from their finished hands, against values worked out by hand from fixed games.

``data/three_hands_deal*.json`` are records of three hands between ``normal`` players (kept as records,
so that a later change to the players does not change them). Their bids and tricks won, by seat:

deal 33: hand 1 bids 1 3 5 2, won 2 2 7 2; hand 2 bids 2 6 nil 1, won 3 6 0 4;
         hand 3 bids 5 nil 2 2, won 4 0 5 4.
deal 7:  hand 1 bids 3 4 2 nil, won 5 5 2 1; hand 2 bids 1 2 5 4, won 4 2 3 4;
         hand 3 bids 2 3 4 1, won 3 5 4 1.
"""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots import RandomPlayer, play_out
from spades.game import Game
from spades.record import load_record, replay
from spades.rules import Rules, find_preset
from spades.stats import SeatStats, seat_stats

DATA = Path(__file__).parent / "data"


def game(deal: int) -> Game:
    return replay(load_record((DATA / f"three_hands_deal{deal}.json").read_text()))


def test_deal_33_north_makes_every_contract_and_its_nil() -> None:
    g = game(33)
    # side 0 bids 6, 2 (North nil), 7 and takes 9, 3, 9: three contracts made, 3 + 1 + 2 bags.
    s = seat_stats(g.rules, g.history, 2)
    assert s == SeatStats(hands=3, contracts=3, made=3, nils=1, nils_made=1, bags=6)
    assert s.sets == 0 and s.bags_per_hand == 2.0


def test_deal_33_east_west_are_set_once() -> None:
    g = game(33)
    # side 1 bids 5 and takes 4 (set), bids 7 and takes 10 (3 bags), bids 2 (East nil) and takes 4.
    east, west = seat_stats(g.rules, g.history, 1), seat_stats(g.rules, g.history, 3)
    assert east == SeatStats(hands=3, contracts=3, made=2, nils=1, nils_made=1, bags=5)
    assert east.sets == 1
    assert west == SeatStats(hands=3, contracts=3, made=2, nils=0, nils_made=0, bags=5)


def test_deal_7_a_broken_nil_counts_as_bid_not_made() -> None:
    g = game(7)
    # West bids nil and takes a trick; the side's contracts 4, 6, 4 are made with 2, 0 and 2 bags
    # (the broken nil's trick is a bag of the side).
    s = seat_stats(g.rules, g.history, 3)
    assert s == SeatStats(hands=3, contracts=3, made=3, nils=1, nils_made=0, bags=4)


def test_a_side_with_no_tricks_bid_has_no_contract() -> None:
    g = play_out(Game(find_preset("standard").replace(first_hand_no_bids=True), deal=5),
                 [RandomPlayer()] * 4, hands=1)
    s = seat_stats(g.rules, g.history, 0)
    assert (s.hands, s.contracts, s.nils, s.bags) == (1, 0, 0, 0)


@settings(max_examples=15, deadline=None)
@given(deal=st.integers(1, 10**6), preset=st.sampled_from(["standard", "cutthroat", "three-player"]))
def test_a_games_figures_are_the_sum_of_its_hands(deal: int, preset: str) -> None:
    g = play_out(Game(find_preset(preset), deal=deal), [RandomPlayer()] * find_preset(preset).players,
                 seed=deal, hands=3)
    rules: Rules = g.rules
    for seat in range(g.players):
        whole = seat_stats(rules, g.history, seat)
        assert whole == sum((seat_stats(rules, [h], seat) for h in g.history), SeatStats())
        assert whole.hands == len(g.history) and 0 <= whole.made <= whole.contracts <= whole.hands
        assert 0 <= whole.nils_made <= whole.nils <= whole.hands
        partner = rules.partner(seat)
        if partner is not None:  # partners share the contract and the bags
            other = seat_stats(rules, g.history, partner)
            assert (whole.contracts, whole.made, whole.bags) == (other.contracts, other.made, other.bags)
