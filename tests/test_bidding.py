"""Every bidding rule, on the path of a seat that has looked and of one that has not (blind nil).

The rules are checked here against the rules text and against invariants written out again in
the test, not against ``spades.bidding`` itself; quotes are from the rules text.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_mixes import option_mixes
from spades import Bid, Game, MakeBid, find_preset
from spades.bidding import BidRules, blind_nil_open
from spades.errors import IllegalMoveError, RulesError
from spades.game import Phase
from spades.moves import ACTION_BIDS, Draw, Look
from spades.paper.scorekeeper import (
    HandEntry,
    PlayerLine,
    ScoreGame,
    ScorekeeperError,
    SoloLine,
    TeamLine,
    bid_choices,
)
from spades.rules import PRESETS, BidFormat, NilRule, Rules


def blind_table(rules: Rules, deal: int = 1) -> Game:
    """A first hand where every seat may bid blind nil (a deficit of 0: any time)."""
    return Game(rules.replace(blind_nil=True, blind_nil_deficit=0), deal=deal)


def look_and_bid(game: Game, bid: Bid) -> int:
    """The seat to bid looks and bids; its seat."""
    seat = game.turn
    assert seat is not None
    game.apply(seat, Look())
    game.apply(seat, MakeBid(bid))
    return seat


def refused(game: Game, bid: Bid, match: str) -> None:
    """The seat to bid may not make this bid: it is not offered, and it is refused with this reason."""
    seat = game.turn
    assert seat is not None
    before = (list(game.log), list(game.bids), list(game.looked), game.turn)
    assert bid not in game.legal_bids(seat)
    with pytest.raises(IllegalMoveError, match=match):
        game.apply(seat, MakeBid(bid))
    assert (list(game.log), list(game.bids), list(game.looked), game.turn) == before


# -- board, on the path of a seat that has not looked ---------------------------------------------

def test_the_issue_9_reproduction_blind_nil_under_board_after_a_partners_2_is_refused() -> None:
    """Board: a partner's 2 leaves the team under 4, so the other partner may not bid (blind) nil."""
    game = Game(find_preset("online").replace(blind_nil_deficit=0), deal=1)
    look_and_bid(game, Bid(2))
    look_and_bid(game, Bid(3))
    partner = game.turn
    assert partner is not None and not game.looked[partner]
    assert game.legal_bids(partner) == [] and game.view(partner).can_look
    refused(game, Bid.blind_nil(), r"must bid at least 4 \(board\): look at your cards, then bid 2 to 13\.")
    with pytest.raises(IllegalMoveError, match=r"^Look at your cards before you bid\.$"):
        game.apply(partner, MakeBid(Bid(2)))
    game.apply(partner, Look())
    assert game.legal_bids(partner) == [Bid(x) for x in range(2, 14)]


def test_board_after_a_partners_nil_the_other_bids_at_least_4_never_nil_or_blind_nil() -> None:
    """Board after a nil, whether the nil was plain or blind, and whether the other partner has looked."""
    for first in (Bid.nil(), Bid.blind_nil()):
        game = blind_table(Rules(min_team_bid=4))
        if first.blind:
            game.apply(game.turn, MakeBid(first))
        else:
            look_and_bid(game, first)
        look_and_bid(game, Bid(3))
        refused(game, Bid.blind_nil(), r"at least 4 \(board\): look at your cards, then bid 4 to 13\.")
        game.apply(game.turn, Look())
        assert game.legal_bids(game.turn) == [Bid(x) for x in range(4, 14)]
        refused(game, Bid.nil(), r"at least 4 \(board\): you may bid 4 to 13\.")
        refused(game, Bid(3), r"at least 4 \(board\): you may bid 4 to 13\.")


def test_board_leaves_blind_nil_open_to_the_first_partner_and_after_a_partners_4() -> None:
    """Board counts only a team's two bids together: a first bidder may bid blind nil, and so may
    the partner of a 4 (the team has its 4)."""
    game = blind_table(Rules(min_team_bid=4))
    assert game.legal_bids(game.turn) == [Bid.blind_nil()]
    look_and_bid(game, Bid(4))
    look_and_bid(game, Bid(1))
    assert game.legal_bids(game.turn) == [Bid.blind_nil()]
    game.apply(game.turn, MakeBid(Bid.blind_nil()))
    assert game.legal_bids(game.turn) == []  # the partner of the 1 must look and make up 3


def test_board_on_the_looked_path() -> None:
    """A partner's 1 leaves 3 to make up; a partner's 5 leaves any bid, nil included."""
    game = Game(Rules(min_team_bid=4), deal=3)
    game.apply(game.turn, MakeBid(Bid(1)))
    game.apply(game.turn, MakeBid(Bid(5)))
    assert game.legal_bids(game.turn) == [Bid(x) for x in range(3, 14)]
    refused(game, Bid.nil(), r"you may bid 3 to 13\.")
    game.apply(game.turn, MakeBid(Bid(3)))
    assert game.legal_bids(game.turn)[:2] == [Bid.nil(), Bid(1)]


# -- Suicide, Whiz, Mirror ---------------------------------------------------------------------------

def test_suicide_one_partner_nil_the_other_at_least_4_on_both_paths() -> None:
    game = blind_table(find_preset("suicide"))
    game.apply(game.turn, MakeBid(Bid.blind_nil()))  # North: the team's nil
    look_and_bid(game, Bid(5))  # East: the other team's number first
    refused(game, Bid.blind_nil(), r"In Suicide one partner bids nil and the other at least 4: "
                                   r"look at your cards, then bid 4 to 13\.")
    game.apply(game.turn, Look())
    refused(game, Bid.nil(), r"you may bid 4 to 13\.")
    game.apply(game.turn, MakeBid(Bid(4)))
    assert game.legal_bids(game.turn) == [Bid.blind_nil()]  # West: the partner of a number bids nil
    game.apply(game.turn, MakeBid(Bid.blind_nil()))
    assert game.phase is Phase.PASS


def test_whiz_allows_blind_nil_and_mirror_refuses_it_in_the_rules() -> None:
    """In Whiz you bid your spades or nil, so a blind nil (a nil) stands; in Mirror your bid is
    your spades exactly, which nobody can bid without looking."""
    whiz = blind_table(find_preset("whiz"))
    assert whiz.legal_bids(whiz.turn) == [Bid.blind_nil()]
    seat = whiz.turn
    assert seat is not None
    whiz.apply(seat, Look())
    spades = (whiz.hands[seat] & whiz.spec.trumps).bit_count()
    assert whiz.legal_bids(seat) == [Bid.nil(), *([Bid(spades)] if spades else [])]
    with pytest.raises(RulesError, match="turn blind nil off"):
        find_preset("mirror").replace(blind_nil=True)


# -- 10 for 200, no nil, the deficit -------------------------------------------------------------------

def test_ten_for_200_is_never_bid_blind_and_never_by_the_first_partner() -> None:
    """10 for 200 is a team bid made after the partner's number, by a seat that has looked."""
    game = blind_table(Rules(ten_for_two_hundred=True))
    refused(game, Bid.ten_for_200(), r"^Look at your cards before you bid, or bid blind nil\.$")
    game.apply(game.turn, Look())
    refused(game, Bid.ten_for_200(), "second partner, after a number")
    game.apply(game.turn, MakeBid(Bid(3)))
    look_and_bid(game, Bid(2))
    refused(game, Bid.ten_for_200(), r"^Look at your cards before you bid, or bid blind nil\.$")
    game.apply(game.turn, Look())
    assert game.legal_bids(game.turn)[-1] == Bid.ten_for_200()
    game.apply(game.turn, MakeBid(Bid.ten_for_200()))


def test_no_nil_the_lowest_bid_is_1() -> None:
    """"The lowest bid is 1 and nobody may bid nil.\""""
    game = Game(Rules(nil=NilRule.NONE), deal=5)
    assert game.legal_bids(game.turn) == [Bid(x) for x in range(1, 14)]
    refused(game, Bid.nil(), "no nil: bid at least 1")
    with pytest.raises(RulesError):
        Rules(nil=NilRule.NONE, blind_nil=True)


def test_blind_nil_usually_only_when_the_team_is_at_least_100_behind() -> None:
    """"The usual condition is that you may bid blind nil only when your team is at least 100
    points behind.\""""
    r = Rules(blind_nil=True)
    assert [blind_nil_open(r, d) for d in (99, 100, 250)] == [False, True, True]
    assert not blind_nil_open(Rules(), 500)
    game = Game(r, deal=2)  # nobody is behind on the first hand: everyone sees their cards
    assert all(game.looked) and Bid.blind_nil() not in game.legal_bids(game.turn)
    refused(game, Bid.blind_nil(), "only for a team at least 100 points behind")


def test_too_high_a_bid_is_refused() -> None:
    game = Game(Rules(), deal=4)
    refused(game, Bid(14), r"A bid of 14 is more than the 13 tricks in a hand\.")


# -- every rule mix: the bids offered obey the rules, and every other is refused -----------------------

def check_bids(game: Game, seat: int) -> None:
    """The bids offered are exactly those the rules allow (written out here again), and every
    bid not offered is refused, leaving the game unchanged."""
    r = game.rules
    offered = game.legal_bids(seat)
    partner = game.bids[(seat + 2) % 4] if r.has_partners else None
    p_nil = partner is not None and partner.is_nil(r)
    spades = (game.hands[seat] & game.spec.trumps).bit_count()
    for bid in offered:
        assert bid.blind == (not game.looked[seat])
        if bid.ten_for_two_hundred:
            assert r.ten_for_two_hundred and partner is not None and not p_nil
            continue
        nil = bid.is_nil(r)
        assert bid.tricks <= r.hand_size and (bid.tricks > 0 or r.nil is not NilRule.NONE)
        if r.min_team_bid and partner is not None:  # BOARD, BOARD_NIL
            assert not (nil and p_nil)
            assert (0 if nil else bid.tricks) + (0 if p_nil else partner.tricks) >= r.min_team_bid
            assert nil or not p_nil or bid.tricks >= r.min_team_bid
        if r.bid_format is BidFormat.WHIZ:
            assert nil or bid.tricks == spades
        if r.bid_format is BidFormat.MIRROR:
            assert bid.tricks == spades and nil == (spades == 0)
        if r.bid_format is BidFormat.SUICIDE:
            assert nil != p_nil if partner is not None else (nil or bid.tricks >= 4)
            assert nil or bid.tricks >= 4
    before = (list(game.log), list(game.bids), game.turn)
    for bid in ACTION_BIDS:
        if bid not in offered:
            with pytest.raises(IllegalMoveError):
                game.apply(seat, MakeBid(bid))
    assert (list(game.log), list(game.bids), game.turn) == before


def bid_round(rules: Rules, deal: int, seed: int) -> Game:
    """A hand's bidding with random legal choices (looking or not), every position checked."""
    game = Game(rules, deal=deal)
    rng = random.Random(seed)
    while game.phase is Phase.BID:
        seat = game.turn
        assert seat is not None
        check_bids(game, seat)
        offered = game.legal_bids(seat)
        if not game.looked[seat] and (not offered or rng.random() < 0.5):
            game.apply(seat, Look())
            continue
        game.apply(seat, MakeBid(rng.choice(offered)))
    return game


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_offers_only_legal_bids(name: str) -> None:
    rules = PRESETS[name]
    for deal in range(1, 6):
        bid_round(rules.replace(blind_nil_deficit=0) if rules.blind_nil else rules, deal, deal)


@given(option_mixes(), st.integers(1, 10**6), st.integers(0, 99))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_rule_mixes_offer_only_legal_bids(rules: Rules, deal: int, seed: int) -> None:
    bid_round(rules, deal, seed)


def test_the_bid_rules_are_shared_per_rule_set() -> None:
    assert BidRules.of(find_preset("online")) is BidRules.of(find_preset("online").replace())


# -- the scorekeeper asks the same rules -----------------------------------------------------------------

def place(game: Game, bid: Bid) -> bool:
    """The seat to bid makes this bid if the game lets it (looking first unless it is blind)."""
    seat = game.turn
    assert seat is not None
    if not bid.blind and not game.looked[seat]:
        game.apply(seat, Look())
    if not game.can_move(seat, MakeBid(bid)):
        return False
    game.apply(seat, MakeBid(bid))
    return True


def to_bidding(rules: Rules, deal: int) -> Game:
    """A first hand at its bidding (the two-player draw done)."""
    game = Game(rules, deal=deal)
    while game.phase is Phase.DRAW:
        game.apply(game.turn, Draw(True))
    return game


def some_legal_bids(rules: Rules, deal: int) -> list[Bid]:
    """A legal bid for every seat (each the highest open after looking: never two nils), by seat."""
    game = to_bidding(rules, deal)
    while game.phase is Phase.BID:
        seat = game.turn
        assert seat is not None
        if not game.looked[seat]:
            game.apply(seat, Look())
        game.apply(seat, MakeBid(game.legal_bids(seat)[-1]))
    return [b for b in game.bids if b is not None]


def game_accepts(rules: Rules, deal: int, first: Bid, second: Bid | None) -> bool:
    """Whether the first bidder may bid ``first`` and, two seats on, its partner ``second`` after it."""
    game = to_bidding(rules, deal)
    if not place(game, first):
        return False
    if second is None:
        return True
    other = game.turn
    assert other is not None
    if not game.looked[other]:
        game.apply(other, Look())
    game.apply(other, MakeBid(game.legal_bids(other)[0]))
    return place(game, second)


def scorekeeper_accepts(rules: Rules, deal: int, first: Bid, second: Bid | None) -> str | None:
    """The scorekeeper's refusal of these bids written down for the first bidder's column (the
    others' columns hold legal bids), or None if it takes them."""
    game = to_bidding(rules, deal)
    seat = game.turn
    assert seat is not None
    others = some_legal_bids(rules, deal)
    if rules.has_partners:
        ours = TeamLine((PlayerLine(first), PlayerLine(second or first)), 0)
        theirs = TeamLine(tuple(PlayerLine(others[s]) for s in rules.seats_of(1 - seat % 2)), 0)
        bids: list[list[Bid | None]] = [[first, second], [others[s] for s in rules.seats_of(1 - seat % 2)]]
        tricks = [0 if all(b is not None and b.is_nil(rules) for b in side) else 1 for side in bids]
        assert any(tricks), "the others' bids are never two nils"
        tricks[tricks.index(1)] = rules.hand_size - (sum(tricks) - 1)
        lines = [TeamLine(ours.players, tricks[0]), TeamLine(theirs.players, tricks[1])]
        entry = HandEntry(tuple(lines if seat % 2 == 0 else lines[::-1]))
    else:
        written = [first if s == seat else others[s] for s in range(rules.players)]
        wins = [0] * rules.players
        wins[seat] = rules.hand_size
        entry = HandEntry(players=tuple(SoloLine(b, w) for b, w in zip(written, wins, strict=True)))
    try:
        ScoreGame(rules).add(entry)
    except ScorekeeperError as e:
        return str(e)
    return None


def check_agreement(rules: Rules, deal: int, a: Bid, b: Bid) -> None:
    """The scorekeeper takes a team's two bids exactly when the game lets its partners bid them in
    one order or the other (a lone player's bid: when the game lets the player bid it)."""
    if rules.has_partners:
        game = game_accepts(rules, deal, a, b) or game_accepts(rules, deal, b, a)
        pad = scorekeeper_accepts(rules, deal, a, b)
    else:
        game = game_accepts(rules, deal, a, None)
        pad = scorekeeper_accepts(rules, deal, a, None)
    assert game == (pad is None), (rules, a, b, pad)


SPADES_UNKNOWN = (BidFormat.WHIZ, BidFormat.MIRROR)
"""The formats whose numbers follow the spades held, which a score pad does not know: there the
scorekeeper checks all the rest."""


def paper_rules(rules: Rules) -> Rules:
    """The rules as a score pad checks them: bidding from the first hand, and no spade count."""
    if rules.bid_format in SPADES_UNKNOWN:
        rules = rules.replace(bid_format=BidFormat.STANDARD)
    return rules.replace(first_hand_no_bids=False)


@pytest.mark.parametrize("name", PRESETS)
def test_the_scorekeeper_and_the_game_agree_on_every_pair_of_bids_under_every_preset(name: str) -> None:
    rules = paper_rules(PRESETS[name])
    for deficit in {rules.blind_nil_deficit, 0} if rules.blind_nil else {0}:
        r = rules.replace(blind_nil_deficit=deficit)
        for a in ACTION_BIDS:
            for b in ACTION_BIDS if r.has_partners else ACTION_BIDS[:1]:
                check_agreement(r, 3, a, b)


@given(option_mixes(), st.integers(1, 10**6), st.sampled_from(ACTION_BIDS), st.sampled_from(ACTION_BIDS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_scorekeeper_and_the_game_agree_under_random_rule_mixes(rules: Rules, deal: int, a: Bid,
                                                                    b: Bid) -> None:
    check_agreement(paper_rules(rules), deal, a, b)


# -- the table's prompt and the score pad's bid list ask the same rules ----------------------------------

def refusal(game: Game, seat: int, bid: Bid) -> str:
    """The game's reason for refusing the seat this bid."""
    with pytest.raises(IllegalMoveError) as refused_:
        game.apply(seat, MakeBid(bid))
    return str(refused_.value)


def prompt_and_refusal_rules(rules: Rules, deal: int, seed: int) -> tuple[set[str], set[str]]:
    """Over a hand's random bidding: the rule sentences the table's prompt to bid quotes, and the
    rule sentences the refusals of the bids not offered start with ("<rule>: you may bid ...")."""
    from spades.server.present import state_of  # the server extra, which the test install has

    game = to_bidding(rules, deal)
    rng = random.Random(seed)
    prompts, heads = set(), set()
    while game.phase is Phase.BID:
        seat = game.turn
        assert seat is not None
        if not game.looked[seat]:
            game.apply(seat, Look())
        message = state_of(game, game_id=1, deal=deal, daily=None, level="normal", viewer=seat).message
        assert message.startswith("Your turn to bid.")
        if message != "Your turn to bid.":
            prompts.add(message.removeprefix("Your turn to bid. ").removesuffix("."))
        offered = game.legal_bids(seat)
        for bid in ACTION_BIDS:
            if bid not in offered and bid.tricks <= rules.max_bid:
                why = refusal(game, seat, bid)
                if ": you may bid" in why:
                    heads.add(why.partition(": you may bid")[0])
        game.apply(seat, MakeBid(rng.choice(offered)))
    return prompts, heads


@pytest.mark.parametrize("rules", [*PRESETS.values(), Rules(bid_format=BidFormat.WHIZ),
                                   Rules(bid_format=BidFormat.MIRROR), Rules(bid_format=BidFormat.SUICIDE),
                                   Rules(min_team_bid=4), Rules(min_team_bid=6)])
def test_the_tables_prompt_to_bid_words_the_rule_as_the_refusals_do(rules: Rules) -> None:
    """The prompt ("Your turn to bid. In Whiz you ...") quotes the rule a refused bid is refused by,
    word for word, and quotes none where no bid is refused by a format or board."""
    rules = rules.replace(first_hand_no_bids=False)
    prompts: set[str] = set()
    heads: set[str] = set()
    for deal in range(1, 9):
        p, h = prompt_and_refusal_rules(rules, deal, deal)
        prompts |= p
        heads |= h
    assert len(prompts) <= 1 and heads == prompts, (prompts, heads)


@pytest.mark.parametrize("name", PRESETS)
def test_the_score_pads_bids_are_the_bids_the_game_offers_somewhere(name: str) -> None:
    """The scorekeeper's bid list (its page's choices) is every bid a seat of a game is offered in
    some position and nothing else (the offers gathered over random hands), nil and blind nil first."""
    rules = paper_rules(PRESETS[name]).replace(blind_nil_deficit=0)
    seen: set[str] = set()
    for deal in range(1, 40):
        game = to_bidding(rules, deal)
        rng = random.Random(deal)
        while game.phase is Phase.BID:
            seat = game.turn
            assert seat is not None
            offered = game.legal_bids(seat)
            seen.update(b.written(rules) for b in offered)
            if not game.looked[seat] and (not offered or rng.random() < 0.5):
                game.apply(seat, Look())
                continue
            game.apply(seat, MakeBid(rng.choice(offered)))
    choices = bid_choices(rules)
    assert sorted(choices) == sorted(seen)
    nils = [c for c in ("nil", "blind nil") if c in seen]
    assert choices[:len(nils)] == nils
