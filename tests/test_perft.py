"""Spades perft: pinned deals and fixed move sequences whose legal-move counts and scores are literals.

If any of these change, a deal number no longer means the same game: treat it as a breaking change.
"""

import pytest

from spades.cards import cards_of
from spades.game import Game, Phase
from spades.moves import Draw, MakeBid, Play
from spades.rules import Rules, find_preset
from spades.scoring import Bid


def perft(game: Game, depth: int) -> int:
    """The number of distinct card sequences of this many plays from here."""
    if depth == 0 or game.phase is not Phase.PLAY:
        return 1
    seat = game.turn
    assert seat is not None
    total = 0
    for card in cards_of(game.legal_plays(seat)):
        child = game.copy()
        child.apply(seat, Play(card))
        total += perft(child, depth - 1)
    return total


def bid_threes(game: Game) -> Game:
    """Draw (keeping every first card shown) and bid 3 wherever 3 is allowed, else the first legal bid."""
    while game.phase is Phase.DRAW:
        assert game.turn is not None
        game.apply(game.turn, Draw(True))
    while game.phase is Phase.BID:
        seat = game.turn
        assert seat is not None
        bid = Bid(3) if Bid(3) in game.legal_bids(seat) else game.legal_bids(seat)[0]
        game.apply(seat, MakeBid(bid))
    return game


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def counts_and_scores(rules: Rules, deal: int, highest: bool) -> tuple[str, tuple[int, ...]]:
    """Play one hand always taking the lowest (or highest) legal card; the counts of legal cards."""
    game = bid_threes(Game(rules, deal=deal))
    counts = []
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        legal = list(cards_of(game.legal_plays(seat)))
        counts.append(len(legal))
        game.apply(seat, Play(legal[-1] if highest else legal[0]))
    return "".join(DIGITS[c] for c in counts), tuple(game.scores)


PINNED = [
    ("standard", 1, False, "d342631385247413642148217717662654354414332321221111", (61, 60)),
    ("standard", 1, True, "d216c1c5b3b6a22a911988887777666651214444333322221111", (65, -60)),
    ("standard", 20261201, False, "b1547315832b8a32712958884777361622354332312322211111", (64, -60)),
    ("standard", 20261201, True, "b325922191b3a325912188187777666655124441333322221111", (-60, 65)),
    ("three-player", 5, False, "135e428337446338c291b821264153371624525413313222111", (-30, -40, 10)),
    ("three-player", 5, True, "135964d31ae4d24c51bb2aa1999888733622511444333222111", (-30, -70, -30)),
    ("jokers-high-twos", 7, False, "8215941261b45aa3923984237231612655324421333322121111", (64, -60)),
    ("jokers-high-twos", 7, True, "83427231612ba563994584187377666152454344333321221111", (63, -60)),
    ("cutthroat", 3, False, "a334823282117234531258884423366122214333313122221111", (-30, 31, 31, 32)),
    ("cutthroat", 3, True, "a23482338b12a333922281117177633252214114333322221111", (31, 31, -30, 30)),
    ("two-player", 9, False, "8372657a613221362543322111", (31, 36)),
    ("two-player", 9, True, "82716ba5918877665241332211", (-30, 39)),
]


@pytest.mark.parametrize(("preset", "deal", "highest", "counts", "scores"), PINNED)
def test_pinned_lines(preset: str, deal: int, highest: bool, counts: str, scores: tuple[int, ...]) -> None:
    assert counts_and_scores(find_preset(preset), deal, highest) == (counts, scores)


@pytest.mark.parametrize(("deal", "expected"), [(1, [13, 30, 96, 224, 2147, 5939]),
                                                (2, [11, 29, 63, 172, 1297, 3738])])
def test_perft_from_the_first_lead(deal: int, expected: list[int]) -> None:
    game = bid_threes(Game(Rules(), deal=deal))
    assert [perft(game, depth) for depth in range(1, 7)] == expected
