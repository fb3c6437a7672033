"""The numpy fast path plays by the engine's rules: same legal sets, trick winners and scores on the
same deals, under chosen rule sets and random ones."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_mixes import option_mixes
from spades.bots import RandomPlayer
from spades.cards import parse_cards
from spades.errors import RulesError, SpadesError
from spades.fast import PlayState, lowest_card, popcount, random_bids, random_hands, score_batch
from spades.game import Game, Phase
from spades.moves import Play
from spades.rules import (
    ClubsFirstTrick,
    DeckKind,
    FailedBid,
    FailedNilTricks,
    FirstLead,
    Rules,
    find_preset,
)
from spades.scoring import Bid, score_hand

RULES = [
    find_preset("standard"), find_preset("jokers"), find_preset("jokers-high-twos"),
    Rules(deck=DeckKind.JOKERS_HIGH_SPADE_TWO),
    find_preset("three-player"), find_preset("two-player"), find_preset("bicycle"),
    Rules(partnerships=False, must_beat=True),
    Rules(partnerships=False, must_beat=True, clubs_first_trick=ClubsFirstTrick.STRICT,
          first_lead=FirstLead.TWO_OF_CLUBS),
    Rules(clubs_first_trick=ClubsFirstTrick.STRICT,
          first_lead=FirstLead.TWO_OF_CLUBS),
    Rules(clubs_first_trick=ClubsFirstTrick.LOOSE, first_lead=FirstLead.TWO_OF_CLUBS),
    Rules(spades_led_any_time=True), Rules(first_lead=FirstLead.DEALER),
    Rules(failed_nil_tricks=FailedNilTricks.CONTRACT, failed_bid=FailedBid.MINUS_SHORT, boston_bonus=100),
]


# Dealt by West from an explicit deck: North holds every club but three, South and West none.
VOID_IN_CLUBS = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2S 3S 4S", "5H 6H QC KC AC 2D 3D 4D 5D 6D 5S 6S 7S",
    "KH 7H 8H 9H 7D 8D 9D 10D 8S 9S 10S JS QS", "AH 2H 3H 4H 10H JH QH JD QD KD AD KS AS",
]


def to_play(rules: Rules, deal: int, extra: int) -> Game:
    """A game of this deal (0: the explicit deck above) at its play phase, ``extra`` random cards in."""
    if deal:
        game = Game(rules, deal=deal)
    else:
        hands = [parse_cards(h) for h in VOID_IN_CLUBS]
        game = Game(rules, decks=[[hands[i % 4][i // 4] for i in range(52)]], first_dealer=3)
    rng = random.Random(deal)
    player = RandomPlayer()
    while game.phase is not Phase.PLAY or extra > 0:
        seat = game.turn
        assert seat is not None
        if game.phase is Phase.PLAY:
            extra -= 1
        game.apply(seat, player.choose(game.view(seat), rng))
    return game


def assert_batch_matches_the_engine(game: Game, rows: int, seed: int) -> None:
    """Play ``rows`` copies of ``game`` out at once with random legal cards, then each copy in the
    engine with the same cards: at every card the same seat to play (so every trick went to the
    same winner) with the same legal set, and at the end the same tricks and, where every bid is
    a batch bid, the same score."""
    state = PlayState.from_game(game, rows=rows)
    rng = np.random.default_rng(seed)
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    while not state.done:
        legal, turn = state.legal(), state.turn
        cards = state.random_cards(rng)
        assert ((legal >> cards.astype(np.uint64)) & np.uint64(1)).all()
        steps.append((turn, legal, cards))
        state.play(cards)
    scored = all(b is not None and not b.blind and not b.ten_for_two_hundred for b in game.bids)
    if scored:
        bids = np.array([[b.tricks if b else 0 for b in game.bids]] * rows, dtype=np.int64)
        bags = np.array([game.bags] * rows, dtype=np.int64)
        points, bags_after = score_batch(game.rules, bids, state.tricks_won, bags)
    for row in range(rows):
        twin = game.copy()
        for turn, legal, cards in steps:
            seat = twin.turn
            assert seat == int(turn[row])
            assert twin.legal_plays(seat) == int(legal[row])
            twin.apply(seat, Play(int(cards[row])))  # type: ignore[arg-type]
        result = twin.history[-1]
        assert list(result.tricks_won) == state.tricks_won[row].tolist()
        if scored:
            assert list(result.score.points) == points[row].tolist()
            assert list(result.score.bags) == bags_after[row].tolist()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("deal", [0, 3, 8])
def test_batch_matches_the_engine_card_by_card(rules: Rules, deal: int) -> None:
    if deal == 0 and (rules.players != 4 or rules.deck_spec.cards != (1 << 52) - 1):
        pytest.skip("the explicit deck is a standard 4-player deal")
    assert_batch_matches_the_engine(to_play(rules, deal, extra=6 if deal == 8 else 0), rows=12, seed=deal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), deal=st.integers(1, 10**6), extra=st.integers(0, 50))
def test_random_rule_sets_play_and_score_as_the_engine(rules: Rules, deal: int, extra: int) -> None:
    """The differential test: random deals, part played, under random mixes of every rule option."""
    game = to_play(rules, deal, extra=extra % (rules.players * rules.hand_size))
    assert_batch_matches_the_engine(game, rows=6, seed=deal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), seed=st.integers(0, 10**6))
def test_score_batch_matches_score_hand(rules: Rules, seed: int) -> None:
    """Random bids (0 to 17), trick counts and bags (to twice the bag limit: the table's edge and
    past it) under random rule sets, twice over so the second batch reads what the first kept."""
    rng = np.random.default_rng(seed)
    rows = 200
    for _ in range(2):
        bids = rng.integers(0, min(17, rules.max_bid + 2) + 1, size=(rows, rules.players))
        cuts = np.sort(rng.integers(0, rules.hand_size + 1, size=(rows, rules.players - 1)), axis=1)
        edges = np.concatenate([np.zeros((rows, 1), int), cuts, np.full((rows, 1), rules.hand_size)], axis=1)
        tricks = np.diff(edges, axis=1)
        bags = rng.integers(0, 2 * rules.bag_limit, size=(rows, rules.sides))
        points, after = score_batch(rules, bids, tricks, bags)
        for i in range(rows):
            expect = score_hand(rules, [Bid(int(b)) for b in bids[i]], tricks[i].tolist(), bags[i].tolist())
            assert points[i].tolist() == list(expect.points) and after[i].tolist() == list(expect.bags)


def test_score_batch_refuses_what_score_hand_refuses() -> None:
    """Rows the table does not hold go to the engine, even with every case they could be
    mistaken for already known: a hand whose tricks overrun it is refused, bags past the limit
    are scored."""
    rules = Rules()
    good = np.array([[13, 0, 0, 0], [0, 0, 0, 13], [0, 13, 0, 0]])
    bids = np.array([[3, 3, 3, 3], [3, 3, 3, 3], [0, 3, 0, 3]])  # the last: the table's first case
    score_batch(rules, bids, good, np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(SpadesError, match="add up to 13"):
        score_batch(rules, np.full((1, 4), 3), np.array([[13, 0, 0, 13]]), np.zeros((1, 2), dtype=np.int64))
    with pytest.raises(SpadesError, match="No bid of -1"):
        score_batch(rules, np.array([[-1, 3, 3, 3]]), good[:1], np.zeros((1, 2), dtype=np.int64))
    points, after = score_batch(rules, bids, good, np.full((3, 2), 12))
    for i in range(3):
        expect = score_hand(rules, [Bid(int(b)) for b in bids[i]], good[i].tolist(), [12, 12])
        assert points[i].tolist() == list(expect.points) and after[i].tolist() == list(expect.bags)


def test_random_hands_are_deals_of_the_rules_deck() -> None:
    for rules in (Rules(), find_preset("jokers"), find_preset("three-player"), find_preset("two-player")):
        hands = random_hands(rules, 50, np.random.default_rng(1))
        assert (popcount(hands) == rules.hand_size).all()
        union = np.bitwise_or.reduce(hands, axis=1)
        assert all(int(u) & ~rules.deck_spec.cards == 0 for u in union)
        for row in hands:
            assert sum(int(h).bit_count() for h in row) == int(np.bitwise_or.reduce(row)).bit_count()


def test_bit_helpers_and_copies() -> None:
    masks = np.array([0, 1, 1 << 53, (1 << 40) | (1 << 7)], dtype=np.uint64)
    assert popcount(masks).tolist() == [0, 1, 1, 2] and lowest_card(masks).tolist() == [-1, 0, 53, 7]
    state = PlayState.start(Rules(), random_hands(Rules(), 4, np.random.default_rng(2)),
                            leader=np.zeros(4, dtype=np.int64))
    twin = state.copy()
    twin.play_out(np.random.default_rng(3))
    assert state.tricks_done == 0 and (state.tricks_won == 0).all() and twin.done


def test_unsupported_batch_requests_are_refused() -> None:
    with pytest.raises(RulesError, match="standard bid format"):
        random_bids(find_preset("whiz"), np.zeros((1, 4), dtype=np.uint64), np.random.default_rng(0))
    with pytest.raises(RulesError, match="play phase"):
        PlayState.from_game(Game(Rules(), deal=1))


def test_bench_command_prints_every_rate(capsys: pytest.CaptureFixture[str]) -> None:
    from spades.cli import main

    assert main(["bench", "--seconds", "0.3", "--batch", "64"]) == 0
    out = capsys.readouterr().out
    assert "public API (Game.apply)" in out and "fast path (numpy, 64 hands a batch)" in out
    assert "/ OpenSpiel:" in out or "OpenSpiel is not installed" in out
    assert main(["bench", "--seconds", "0"]) == 2
    assert main(["bench", "--seconds", "0.3", "--batch", "64", "--cpu"]) == 0
    out = capsys.readouterr().out
    assert "timed by CPU time" in out and "public API (Game.apply_action)" in out
