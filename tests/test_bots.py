"""The computer players: legal under every rule mix, blind to hidden cards, deterministic,
and playing the strategy tips in set positions."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_mixes import option_mixes
from spades.bots import (
    EXPERT_BUDGET,
    LEVEL_REGISTRY,
    LEVELS,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
    hint,
    make_player,
    play_out,
)
from spades.bots.knowledge import estimate_tricks, nil_danger
from spades.bots.search import _Sim, sample_hands
from spades.cards import Card, cards_of, parse_mask
from spades.errors import SpadesError
from spades.game import Game, Phase, SeatView, Trick, legal_play_mask, trick_winner
from spades.moves import Look, MakeBid, PassCards, Play
from spades.rules import (
    PRESETS,
    Rules,
)
from spades.scoring import Bid


def small_search(name: str = "hard") -> SearchPlayer:
    """A search player with a tiny, time-free budget: quick and deterministic."""
    return SearchPlayer(name, samples=6, seconds=None)


def bot_line_up(n: int) -> list[Player]:
    """Every kind of bot at one table (the search one with a tiny budget)."""
    kinds: list[Player] = [small_search(), make_player("normal"), make_player("easy"), RandomPlayer()]
    return kinds[:n]


def view_after(game: Game, rng: random.Random, done: Callable[[Game], bool]) -> SeatView:
    """Let normal players move until ``done(game)``; the view of the seat to move then."""
    normal = make_player("normal")
    while not done(game):
        seat = game.turn
        assert seat is not None
        game.apply(seat, normal.choose(game.view(seat), rng))
    assert game.turn is not None
    return game.view(game.turn)


def logged(moves: int, game: Game) -> bool:
    """Whether the game has logged this many moves (a ``done`` for ``view_after``)."""
    return len(game.log) >= moves


# -- legality -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_bot_is_legal_under_every_preset(name: str) -> None:
    rules = PRESETS[name]
    for rotation in range(2):
        players = bot_line_up(4)[rotation:] + bot_line_up(4)[:rotation]
        game = Game(rules, deal=101 + rotation)
        play_out(game, players[: rules.players], seed=rotation, hands=2)
        assert len(game.history) >= 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), deal=st.integers(1, 10**6))
def test_bots_are_legal_under_random_rule_mixes(rules: Rules, deal: int) -> None:
    game = Game(rules, deal=deal)
    play_out(game, bot_line_up(4)[: rules.players], seed=deal, hands=2)
    assert game.history


def test_blind_nil_with_passing_is_bid_and_passed_legally() -> None:
    rules = Rules(blind_nil=True, blind_nil_deficit=0, blind_nil_pass=2)
    game = Game(rules, deal=1)
    game.scores = [-300, 0]  # the bots' side (0 and 2) is far behind
    game._start_hand()
    normal = make_player("normal")
    play_out(game, [normal, normal, small_search(), normal], seed=1, hands=1)
    first = game.history[0]
    assert first.bids[0] == Bid.blind_nil()
    assert first.passes and all(cards.bit_count() == 2 for _, _, cards in first.passes)


# -- what a bot can see ------------------------------------------------------------------------


def _deck_with_swap(swap: bool) -> list[int]:
    """A deck dealt from seat 0 round the table; ``swap`` trades one card of seats 1 and 2."""
    deck = list(range(52))
    if swap:
        deck[1], deck[2] = deck[2], deck[1]
        deck[5], deck[10] = deck[10], deck[5]
    return deck


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_games_differing_in_unseen_cards_give_a_bot_the_same_input(level: str) -> None:
    rules = Rules()
    games = [Game(rules, decks=[_deck_with_swap(s)], first_dealer=3) for s in (False, True)]
    assert games[0].hands[1] != games[1].hands[1]
    for g in games:
        for seat in range(4):
            g.apply(seat, MakeBid(Bid(3)))
    views = [g.view(0) for g in games]
    assert views[0] == views[1]
    player = small_search(level) if level == "hard" else make_player(level)
    moves = [player.choose(v, random.Random(9)) for v in views]
    assert moves[0] == moves[1]


def test_samples_respect_voids_passes_and_hand_sizes() -> None:
    game = Game(Rules(nil_pass=2), deal=44)
    rng = random.Random(2)
    view = view_after(game, rng, lambda g: g.phase is Phase.PLAY and len(g.tricks) >= 4)
    spec = game.rules.deck_spec
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in game.hands]
        for other in range(4):
            for suit in range(4):
                if view.voids[other] >> suit & 1:
                    assert not hands[other] & spec.suit_masks[suit]
        partner = (view.seat + 2) % 4
        assert view.passed & view.unseen & ~hands[partner] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), deal=st.integers(1, 10**6), stop=st.integers(0, 60), tight=st.booleans(),
       quick=st.sampled_from([0, 1, 12]))
def test_sampled_hands_respect_the_view_and_every_void(rules: Rules, deal: int, stop: int, tight: bool,
                                                       quick: int) -> None:
    """Under any rule mix, at any point of the play, with the voids shown (or, ``tight``, a void in
    every suit each seat truly lacks, so the deal barely fits) and with the cards placed one by one
    (``quick`` 0) or drawn: the seat's own hand, each seat's card count, only unseen cards, no card
    of a void suit, and the cards this seat passed still with its partner."""
    game = Game(rules, deal=deal)
    rng = random.Random(deal)
    bots = [make_player("normal"), RandomPlayer()] * 2
    while game.phase is not Phase.PLAY or len(game.log) < stop:
        if game.turn is None:
            return  # the hand ended (a misdeal or 10 for 200) before this point
        game.apply(game.turn, bots[game.turn].choose(game.view(game.turn), rng))
    assert game.turn is not None
    view = game.view(game.turn)
    spec = rules.deck_spec
    if tight:
        voids = tuple(sum(1 << u for u in range(4) if not h & spec.suit_masks[u]) if s != view.seat else 0
                      for s, h in enumerate(game.hands))
        view = dataclasses.replace(view, voids=voids)
    for seed in range(5):
        hands = sample_hands(view, random.Random(seed), quick)
        assert hands[view.seat] == view.hand
        others = 0
        for s, h in enumerate(hands):
            assert h.bit_count() == game.hands[s].bit_count(), "each seat holds as many cards as it does"
            if s == view.seat:
                continue
            assert h & ~view.unseen == 0 and h & others == 0, "only unseen cards, each once"
            others |= h
            for suit in range(4):
                if view.voids[s] >> suit & 1:
                    assert not h & spec.suit_masks[suit], "no card of a suit the seat showed out of"
        partner = rules.partner(view.seat)
        if partner is not None:
            assert view.passed & view.unseen & ~hands[partner] == 0


# -- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_view_same_choice(level: str) -> None:
    game = Game(Rules(), deal=77)
    view = view_after(game, random.Random(0), lambda g: len(g.log) >= 10)
    player = make_player(level)
    assert len({player.choose(view, random.Random(5)) for _ in range(2)}) == 1


def racing_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the clock race: each reading ten seconds after the last, as on a very busy machine."""
    now = [0.0]

    def racing() -> float:
        now[0] += 10.0
        return now[0]

    monkeypatch.setattr(time, "perf_counter", racing)


def decision(player: Player, view: SeatView) -> tuple[object, object]:
    """A player's move (and reason) with seed 5, and how far it drew on its random stream."""
    rng = random.Random(5)
    move = player.decide(view, rng) if isinstance(player, HeuristicPlayer | SearchPlayer) else (
        player.choose(view, rng))
    return move, rng.getstate()


@pytest.mark.parametrize("level", LEVELS)
def test_the_default_players_never_read_the_clock(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same view and seed give the same move, reason and samples on a racing clock as on an
    idle one: the budgets count samples."""
    game = Game(Rules(), deal=78)
    views = [view_after(game, random.Random(0), partial(logged, n)) for n in (1, 3, 30)]
    calm = [decision(make_player(level), v) for v in views]
    racing_clock(monkeypatch)
    assert [decision(make_player(level), v) for v in views] == calm


def test_a_time_cap_is_an_explicit_option_and_does_cut_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(Rules(), deal=78)
    view = view_after(game, random.Random(0), lambda g: len(g.log) >= 30)
    assert SearchPlayer("hard").seconds is None
    uncapped = decision(SearchPlayer("hard", samples=40), view)
    racing_clock(monkeypatch)
    assert decision(SearchPlayer("hard", samples=40, seconds=0.5), view)[1] != uncapped[1]


def test_one_registry_names_describes_and_makes_every_level() -> None:
    assert LEVELS == tuple(LEVEL_REGISTRY) == ("random", "easy", "normal", "hard", "expert")
    for name, level in LEVEL_REGISTRY.items():
        assert level.name == name and level.description.endswith(".")
        assert make_player(name).name == name
    expert = make_player("expert")
    assert isinstance(expert, SearchPlayer) and expert.samples == EXPERT_BUDGET


def test_make_player_refuses_an_unknown_level() -> None:
    with pytest.raises(SpadesError, match="Unknown player level"):
        make_player("grandmaster")


# -- strategy in set positions -----------------------------------------------------------------


def position(hand: str, *, seat: int = 0, bids: tuple[Bid | None, ...] = (Bid(3),) * 4,
             trick: str = "", leader: int = 1, won: tuple[int, ...] | None = None,
             rules: Rules | None = None) -> SeatView:
    """A consistent play-phase view for ``seat`` holding ``hand`` with ``trick`` on the table
    (played from ``leader`` on); the earlier tricks are filled with other cards, won as ``won``
    says (by default all by the opponents, alternately)."""
    rules = rules or Rules()
    template = Game(rules, deal=1).view(seat)
    cards = [Card.parse(t) for t in trick.split()]
    on_table = tuple(((leader + i) % 4, c) for i, c in enumerate(cards))
    mask = parse_mask(hand)
    done = 13 - mask.bit_count()
    winners = [1 + 2 * (i % 2) for i in range(done)]
    if won is not None:
        winners = [s for s in range(4) for _ in range(won[s])]
    pool = [c for c in range(52) if not mask >> c & 1 and c not in cards]
    random.Random(0).shuffle(pool)
    earlier = tuple(Trick(0, tuple((j, Card(pool[4 * i + j])) for j in range(4)), winners[i])
                    for i in range(done))
    broken = any(c.suit == 3 for t in earlier for _, c in t.cards) or any(c.suit == 3 for c in cards)
    legal = legal_play_mask(rules, mask, [c for _, c in on_table], broken, not earlier, None)
    return dataclasses.replace(
        template, phase=Phase.PLAY, turn=seat, hand=mask, looked=True, bids=bids,
        trick=on_table, tricks=earlier, broken=broken, legal_plays=legal, legal_bids=(),
        can_look=False, can_misdeal=False, tricks_won=tuple(winners.count(s) for s in range(4)),
        voids=(0,) * 4,
    )


def test_covers_partners_nil_by_overtaking() -> None:
    # North (0) covers South (2), who bid nil and is winning with the king of hearts.
    view = position("AH 3H 4C 9D", bids=(Bid(4), Bid(3), Bid(0), Bid(3)), trick="5H KH 2H", leader=1)
    h = hint(view, "normal")
    assert h.move == Play(Card.parse("AH"))
    assert h.reason == "Cover your partner's nil: the king of hearts is winning the trick."
    assert small_search().choose(view, random.Random(1)) == Play(Card.parse("AH"))


def test_plays_high_ahead_of_a_nil_partner() -> None:
    view = position("AD 10D 3D 4C", bids=(Bid(4), Bid(3), Bid(0), Bid(3)), trick="6D", leader=3)
    assert make_player("normal").choose(view, random.Random(1)) == Play(Card.parse("AD"))


def test_does_not_trump_partners_sure_winner() -> None:
    # East led, South (partner) won with the ace of diamonds, West followed: North plays last.
    view = position("3S 9S 4C KC 8H", bids=(Bid(4), Bid(3), Bid(4), Bid(3)), trick="5D AD 3D", leader=1,
                    won=(2, 2, 2, 2))
    h = hint(view, "normal")
    assert h.move == Play(Card.parse("8H"))  # the low card from the shortest side suit (tip 8)
    assert h.reason == "Don't trump your partner's winning ace of diamonds: throw the 8 of hearts."
    assert small_search().choose(view, random.Random(2)) in (Play(Card.parse("8H")), Play(Card.parse("4C")))
    expert = SearchPlayer("expert", samples=60, seconds=None)  # never weighs taking the partner's trick
    for seed in range(4):
        move = expert.choose(view, random.Random(seed))
        assert isinstance(move, Play) and move.card.suit != 3, seed


def test_the_search_never_takes_a_trick_from_its_partner_as_last_player() -> None:
    """Unless the partner bid nil: then taking its trick is covering the nil."""
    rng = random.Random(5)
    search, normal = small_search(), make_player("normal")
    checked = 0
    for deal in range(1, 40):
        game = Game(Rules(), deal=deal)
        while game.phase is Phase.BID or (game.phase is Phase.PLAY and len(game.tricks) < 12):
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            move = (search if game.phase is Phase.PLAY else normal).choose(view, rng)
            if len(game.trick) == 3 and game.phase is Phase.PLAY:
                partner_wins = trick_winner(game.spec, game.trick) == (seat + 2) % 4
                keeps = [c for c in cards_of(view.legal_plays)
                         if trick_winner(game.spec, [*game.trick, (seat, c)]) == (seat + 2) % 4]
                partner_bid = view.bids[(seat + 2) % 4]
                if partner_wins and keeps and partner_bid is not None and partner_bid.tricks:
                    assert isinstance(move, Play) and move.card in keeps
                    checked += 1
            game.apply(seat, move)
    assert checked > 30


def test_the_playouts_take_no_bags_to_set_a_side_already_set() -> None:
    """A side past its contract wants more tricks only to set a side that can still make its own."""
    sim = _Sim(Rules())
    bids = [Bid(4), Bid(3), Bid(4), Bid(3)]
    assert not sim.wants(bids, [4, 0, 4, 0], 0, 3)  # East-West need 6 of the last 3: already set
    assert sim.wants(bids, [4, 2, 4, 2], 0, 3)  # they need 2 of the last 3: worth setting
    assert not sim.wants(bids, [4, 5, 4, 1], 0, 3)  # they have made theirs
    assert sim.wants(bids, [3, 0, 4, 0], 0, 3)  # short of its own contract


def test_a_hand_scored_alone_counts_a_bag_as_its_point() -> None:
    """Alone, a hand's extra trick is worth its bag's point; in a game it costs the bag's share of
    the 10-bag penalty (100 / 10) as well."""
    view = position("AH 3H 4C 9D", bids=(Bid(4), Bid(3), Bid(4), Bid(3)), won=(4, 1, 3, 1))
    bids = view.bids
    bag, no_bag = [5, 2, 4, 2], [4, 3, 4, 2]  # North-South 9 or 8 of their 8; East-West set either way
    alone = SearchPlayer("expert", samples=6, hand_alone=True)
    in_game = SearchPlayer("expert", samples=6)
    assert alone.value(view, bids, bag) - alone.value(view, bids, no_bag) == 1
    assert in_game.value(view, bids, bag) - in_game.value(view, bids, no_bag) == 1 - 10


def test_nil_bidder_plays_its_highest_losing_card() -> None:
    view = position("QC 10C 3C 5D", bids=(Bid(0), Bid(3), Bid(4), Bid(3)), trick="KC", leader=3)
    h = hint(view, "normal")
    assert h.move == Play(Card.parse("QC"))
    assert h.reason == ("You bid nil: the queen of clubs is the highest card that still loses "
                        "to the king of clubs.")
    assert small_search().choose(view, random.Random(3)) == Play(Card.parse("QC"))


def test_lowest_spade_that_wins_when_playing_last() -> None:
    view = position("3S 9S KS 4C 5C", trick="5H 7H AH", leader=1)
    h = hint(view, "normal")
    assert h.move == Play(Card.parse("3S"))
    assert h.reason == "The 3 of spades is the lowest spade that wins the trick."


def test_leads_a_side_ace_early() -> None:
    view = position("AH 7H 4H 8C 5C 3D", trick="", leader=0)
    h = hint(view, "normal")
    assert h.move == Play(Card.parse("AH"))
    assert "early" in h.reason


def test_ducks_once_the_contract_is_made() -> None:
    view = position("KD 9D 4C", bids=(Bid(1), Bid(3), Bid(1), Bid(3)), trick="2D", leader=3,
                    won=(2, 4, 0, 4))
    assert make_player("normal").choose(view, random.Random(1)) == Play(Card.parse("9D"))


def test_leads_low_into_an_opponents_nil_before_its_own_contract_is_made() -> None:
    """East bid nil; North-South still need 5 of 9 tricks. A broken nil is worth more than the
    tricks an ace might cash now: North leads its lowest card, not the ace of hearts."""
    view = position("AH KH 7H 2H AD 3D 4C 9S 8S", bids=(Bid(4), Bid(0), Bid(3), Bid(4)), leader=0,
                    won=(1, 0, 1, 2))
    move, why = HeuristicPlayer().decide(view, random.Random(1))
    assert move == Play(Card.parse("2H")) and "nil bidder" in why


def test_takes_no_bag_to_set_a_side_already_set() -> None:
    """East-West need 5 of the last 3 tricks: they are set whoever wins these, so North ducks."""
    view = position("KD 9D 4C", bids=(Bid(1), Bid(3), Bid(1), Bid(3)), trick="2D", leader=3,
                    won=(5, 1, 4, 0))
    assert make_player("normal").choose(view, random.Random(1)) == Play(Card.parse("9D"))
    view = position("KD 9D 4C", bids=(Bid(1), Bid(3), Bid(1), Bid(3)), trick="2D", leader=3,
                    won=(5, 3, 2, 0))  # they need 3 of the last 3: North takes the trick to set them
    assert make_player("normal").choose(view, random.Random(1)) == Play(Card.parse("KD"))


def test_takes_the_trick_when_bags_cost_nothing() -> None:
    """Both contracts are made: a bag that counts toward a penalty is ducked; where bags are not
    penalised, or in a hand scored on its own (a bag is then just its point), North takes the trick."""
    made = position("KD 9D 4C", bids=(Bid(1), Bid(3), Bid(1), Bid(3)), trick="2D", leader=3, won=(2, 4, 0, 4))
    assert make_player("normal").choose(made, random.Random(1)) == Play(Card.parse("9D"))
    assert make_player("normal", hand_alone=True).choose(made, random.Random(1)) != Play(Card.parse("9D"))
    free = Rules(bag_penalty=0)
    view = position("KD 9D 4C", bids=(Bid(1), Bid(3), Bid(1), Bid(3)), trick="2D", leader=3,
                    won=(2, 4, 0, 4), rules=free)
    assert make_player("normal").choose(view, random.Random(1)) != Play(Card.parse("9D"))


# -- bidding and passing -----------------------------------------------------------------------


NIL_HAND = "2C 3C 4C 6C 9C 2D 3D 5D 7D 2H 4H 6H 3S"


def bid_view(hand: str, *, seat: int = 0, bids: tuple[Bid | None, ...] = (None,) * 4,
             rules: Rules | None = None) -> SeatView:
    """A bid-phase view for ``seat``, by replacing the hand and bids of a real one."""
    rules = rules or Rules()
    game = Game(rules, deal=1, first_dealer=(seat - 1) % 4)
    template = game.view(seat)
    return dataclasses.replace(template, hand=parse_mask(hand), bids=bids)


def test_counts_sure_tricks_as_the_tips_do() -> None:
    rules = Rules()
    # Tip 2: the ace and king of hearts with four small spades is about three tricks.
    assert 2.5 <= estimate_tricks(rules, parse_mask("AH KH 7H 2S 3S 4S 5S 6C 7C 8C 6D 7D 8D")) <= 3.5
    assert estimate_tricks(rules, parse_mask("AS KS QS JS 10S AH KH AD KD AC KC QC JC")) >= 10


def test_bids_nil_with_a_hand_made_for_it_and_not_when_told_not_to() -> None:
    view = bid_view(NIL_HAND, bids=(None, None, Bid(4), Bid(3)))
    assert nil_danger(view.rules, view.hand) < 1
    assert make_player("normal").choose(view, random.Random(1)) == MakeBid(Bid(0))
    assert make_player("normal", bid_nil=False).choose(view, random.Random(1)) != MakeBid(Bid(0))
    strong = bid_view("AS KS 9S 5S AH KH 3H AD 4D 6C 7C 8C 9C")
    assert make_player("normal").choose(strong, random.Random(1)) not in (MakeBid(Bid(0)),)


def test_bids_nil_with_a_guarded_king_beside_a_partner_who_can_cover() -> None:
    """A king of hearts with two low guards and the 8 of spades (``nil_danger`` 1.3): nil beside a
    partner who bid 3, a number beside one who bid 2 (a weak partner covers a nil badly)."""
    hand = "KH 6H 4H 8S 2C 3C 4C 6C 9C 2D 3D 5D 7D"
    assert make_player("normal").choose(bid_view(hand, bids=(None, None, Bid(3), None)),
                                        random.Random(1)) == MakeBid(Bid(0))
    assert make_player("normal").choose(bid_view(hand, bids=(None, None, Bid(2), None)),
                                        random.Random(1)) != MakeBid(Bid(0))


def test_never_bids_nil_holding_the_top_trump() -> None:
    """The ace of spades wins whatever trick it goes to, so a nil holding it is lost before it starts,
    however low the rest (a hand ``normal`` once bid nil with, in deal 12); passed away, it is no
    danger."""
    hand = "AS 4S 2S 10H 2H QD 8D 4D 9C 8C 7C 4C 3C"
    for bids in ((None, None, None, None), (None, None, Bid(4), None)):
        for level in ("normal", "expert"):
            move = make_player(level).choose(bid_view(hand, bids=bids), random.Random(1))
            assert move != MakeBid(Bid(0)), (level, bids)
    rules = Rules()
    assert nil_danger(rules, parse_mask(hand)) > 2.2 > nil_danger(rules, parse_mask(hand), passing=1)


def test_blind_nil_only_when_far_behind() -> None:
    rules = Rules(blind_nil=True, blind_nil_deficit=0)
    game = Game(rules, deal=3)
    seat = game.turn
    assert seat is not None
    assert make_player("normal").choose(game.view(seat), random.Random(1)) == Look()
    game.scores = [0, 0]
    game.scores[rules.side_of(seat)] = -250
    game._start_hand()
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert view.can_look
    assert make_player("normal").choose(view, random.Random(1)) == MakeBid(Bid.blind_nil())
    for behind in (0, 60):  # near the end but only a little behind: no gamble, though the rules allow it
        game.scores = [400, 400]
        game.scores[rules.side_of(seat)] -= behind
        game._start_hand()
        view = game.view(game.turn or 0)
        assert view.can_look and make_player("normal").choose(view, random.Random(1)) == Look()


def test_passes_low_cards_to_a_nil_partner_and_high_ones_from_a_nil() -> None:
    rules = Rules(blind_nil=True, blind_nil_deficit=0)
    game = Game(rules, deal=8, first_dealer=3)
    normal = make_player("normal")
    game.apply(0, MakeBid(Bid.blind_nil()))
    for seat in (1, 2, 3):
        game.apply(seat, Look())
        game.apply(seat, MakeBid(Bid(3)))
    assert game.phase is Phase.PASS and game.turn == 0
    nil_hand = game.hands[0]
    move = normal.choose(game.view(0), random.Random(1))
    assert isinstance(move, PassCards)
    spec = rules.deck_spec
    top = sorted(cards_of(nil_hand), key=lambda c: spec.power[c] + 20 * (spec.suit_of[c] == 3))[-2:]
    assert set(cards_of(move.cards)) == set(top)
    game.apply(0, move)
    partner_hand = game.hands[2]
    back = normal.choose(game.view(2), random.Random(1))
    assert isinstance(back, PassCards)
    low = sorted(cards_of(partner_hand & ~spec.trumps), key=lambda c: spec.power[c])
    assert all(spec.power[c] <= spec.power[low[2]] for c in cards_of(back.cards))
    assert not back.cards & spec.trumps


def test_hint_needs_a_seat_with_something_to_do() -> None:
    game = Game(Rules(), deal=2)
    idle = (game.turn + 1) % 4  # type: ignore[operator]
    with pytest.raises(SpadesError):
        hint(game.view(idle), "normal")


def test_heuristic_is_a_player() -> None:
    player: Player = HeuristicPlayer()
    assert player.name == "normal"
