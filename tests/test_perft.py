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
    ("standard", 1, False, "84437332612661a2729148883225421135554242333321211111", (-60, 63)),
    ("standard", 1, True, "8632a21191bba424993188287717634152354324333122221111", (-60, 64)),
    ("standard", 20261201, False, "7323a24293b6621a399923533741426251244444331322221111", (-60, 64)),
    ("standard", 20261201, True, "7353a21291b1a124991388827771666653234242313122221111", (-60, 67)),
    ("three-player", 5, False, "146d529248627518c18b243a345588477326534423313212111", (-30, -10, -30)),
    ("three-player", 5, True, "146d539348239d1c34b34a23929888742643525414333222111", (-50, 30, 30)),
    ("jokers-high-twos", 7, False, "8542721471b4a1a3939982887233666652114434333322221111", (61, 60)),
    ("jokers-high-twos", 7, True, "83438123821ba344933282217145616155534344323321221111", (60, 61)),
    ("cutthroat", 3, False, "b514a4c393b28113442368825717213135514224311322221111", (-30, 32, -30, 32)),
    ("cutthroat", 3, True, "b344a1239b12a452919388827771666655554414333322221111", (-30, 36, -30, -30)),
    ("two-player", 9, False, "b5a29182796852463322112211", (34, 33)),
    ("two-player", 9, True, "b4a3928a928874615544332211", (35, 32)),
]


@pytest.mark.parametrize(("preset", "deal", "highest", "counts", "scores"), PINNED)
def test_pinned_lines(preset: str, deal: int, highest: bool, counts: str, scores: tuple[int, ...]) -> None:
    assert counts_and_scores(find_preset(preset), deal, highest) == (counts, scores)


@pytest.mark.parametrize(("deal", "expected"), [(1, [8, 24, 76, 216, 1893, 5564]),
                                                (2, [12, 39, 119, 204, 1888, 6641])])
def test_perft_from_the_first_lead(deal: int, expected: list[int]) -> None:
    game = bid_threes(Game(Rules(), deal=deal))
    assert [perft(game, depth) for depth in range(1, 7)] == expected
