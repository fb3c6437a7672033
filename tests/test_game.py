"""The game state machine: every rule of bidding and play, each option, views, and errors."""
# mypy: disable-error-code="comparison-overlap"
# (a test asserts the phase, moves, and asserts it again: mypy keeps the first narrowing)

import random
from collections.abc import Sequence

import pytest

import spades.moves
from spades.bots import RandomPlayer, play_out
from spades.cards import Card, cards_of, mask_to_str, parse_cards, parse_mask
from spades.deal import DealRng, shuffled
from spades.errors import IllegalMoveError, OutOfTurnError, SpadesError, WrongPhaseError
from spades.game import Game, Phase
from spades.moves import Draw, Look, MakeBid, Misdeal, Move, PassCards, Play, parse_move
from spades.rules import (
    ClubsFirstTrick,
    FirstLead,
    NilRule,
    Rules,
    TwoPlayerDraw,
    find_preset,
)
from spades.scoring import Bid

N, E, S, W = range(4)
# A fixed layout: North has no hearts, South no clubs, West no clubs; see the low-spade example.
LAYOUT = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2S 3S 4S",
    "5H 6H QC KC AC 2D 3D 4D 5D 6D 5S 6S 7S",
    "KH 7H 8H 9H 7D 8D 9D 10D 8S 9S 10S JS QS",
    "AH 2H 3H 4H 10H JH QH JD QD KD AD KS AS",
]
SUITED = ["2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
          "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"]


def deck_for(hands: Sequence[str], dealer: int, set_aside: str = "") -> list[int]:
    """The deck order that deals these hands (card i goes to the seat i places left of the dealer)."""
    n = len(hands)
    cards = [parse_cards(h) for h in hands]
    deck: list[int] = [cards[(dealer + 1 + i) % n][i // n] for i in range(sum(len(c) for c in cards))]
    return deck + parse_cards(set_aside)


def table(hands: Sequence[str] = LAYOUT, dealer: int = E, rules: Rules | None = None,
          set_aside: str = "", extra_decks: int = 0) -> Game:
    """A game dealt these hands by this dealer."""
    deck = deck_for(hands, dealer, set_aside)
    return Game(rules or Rules(), decks=[deck] * (1 + extra_decks), first_dealer=dealer)


def bid_all(game: Game, *bids: int) -> None:
    """Bid in turn from the dealer's left (0 is nil where nil is played)."""
    for b in bids:
        assert game.turn is not None
        game.apply(game.turn, MakeBid(Bid(b)))


def play(game: Game, *cards: str) -> None:
    """Play cards in turn."""
    for c in cards:
        assert game.turn is not None
        game.apply(game.turn, Play(Card.parse(c)))


def legal(game: Game, seat: int | None = None) -> str:
    """The cards a seat (default: the one to play) may play, as text."""
    s = game.turn if seat is None else seat
    assert s is not None
    return mask_to_str(game.legal_plays(s))


def cards(text: str) -> str:
    """Card text in the order ``legal`` prints it."""
    return mask_to_str(parse_mask(text))


def reason(game: Game, card: str) -> str | None:
    assert game.turn is not None
    return game.play_reason(game.turn, Card.parse(card))


def snapshot(game: Game) -> tuple[object, ...]:
    return (*(game.view(s) for s in range(game.players)), list(game.log), game.phase, game.turn)


# -- bidding ------------------------------------------------------------------------------------

def test_bidding_goes_once_round_from_the_dealers_left() -> None:
    game = table(dealer=W)
    assert game.phase is Phase.BID and game.turn == N
    assert game.legal_bids(N) == [Bid.nil()] + [Bid(x) for x in range(1, 14)]
    assert game.legal_bids(E) == []
    bid_all(game, 3, 0, 13, 1)
    assert game.phase is Phase.PLAY and game.turn == N
    assert game.bids == [Bid(3), Bid(0), Bid(13), Bid(1)]
    with pytest.raises(WrongPhaseError, match="time to play a card, not to bid"):
        game.apply(N, MakeBid(Bid(4)))  # a bid cannot be changed


def test_out_of_turn_and_wrong_phase_are_typed_errors_that_change_nothing() -> None:
    game = table(dealer=W)
    before = snapshot(game)
    with pytest.raises(OutOfTurnError, match="It is North's turn, not East's"):
        game.apply(E, MakeBid(Bid(3)))
    with pytest.raises(WrongPhaseError):
        game.apply(N, Play(Card.parse("2C")))
    with pytest.raises(WrongPhaseError):
        game.apply(N, Draw(True))
    with pytest.raises(SpadesError, match="No seat 4"):
        game.apply(4, MakeBid(Bid(3)))
    with pytest.raises(IllegalMoveError):
        game.apply(N, PassCards(parse_mask("2C 3C")))
    assert snapshot(game) == before
    assert not game.can_move(E, MakeBid(Bid(3))) and game.can_move(N, MakeBid(Bid(3)))


def test_no_nil_option() -> None:
    game = table(rules=Rules(nil=NilRule.NONE))
    assert game.legal_bids(S)[0] == Bid(1)
    with pytest.raises(IllegalMoveError, match="no nil: bid at least 1"):
        game.apply(S, MakeBid(Bid(0)))


def test_board_minimum_team_bid() -> None:
    game = table(dealer=W, rules=Rules(min_team_bid=4))
    bid_all(game, 1, 0)  # North 1, East nil
    assert game.legal_bids(S) == [Bid(x) for x in range(3, 14)]
    with pytest.raises(IllegalMoveError, match="at least 4 \\(board\\): you may bid 3 to 13"):
        game.apply(S, MakeBid(Bid(2)))
    bid_all(game, 3)
    assert game.legal_bids(W) == [Bid(x) for x in range(4, 14)]  # with a nil, the partner bids 4+
    bid_all(game, 4)
    assert game.phase is Phase.PLAY


def test_ten_for_two_hundred_is_bid_by_the_second_partner() -> None:
    game = table(dealer=W, rules=Rules(ten_for_two_hundred=True))
    assert Bid.ten_for_200() not in game.legal_bids(N)
    with pytest.raises(IllegalMoveError, match="second partner"):
        game.apply(N, MakeBid(Bid.ten_for_200()))
    bid_all(game, 4, 0)
    assert Bid.ten_for_200() in game.legal_bids(S)
    game.apply(S, MakeBid(Bid.ten_for_200()))
    assert Bid.ten_for_200() not in game.legal_bids(W)  # the partner of a nil cannot
    with pytest.raises(IllegalMoveError, match="do not have the 10 for 200"):
        table(dealer=W).apply(N, MakeBid(Bid.ten_for_200()))


def test_whiz_mirror_and_suicide_bids() -> None:
    whiz = table(dealer=W, rules=find_preset("whiz"))  # North holds 3 spades
    assert whiz.legal_bids(N) == [Bid.nil(), Bid(3)]
    with pytest.raises(IllegalMoveError, match="In Whiz you bid the number of spades you hold"):
        whiz.apply(N, MakeBid(Bid(4)))
    mirror = table(dealer=W, rules=find_preset("mirror"))
    assert mirror.legal_bids(N) == [Bid(3)]
    none = table(SUITED, dealer=N, rules=find_preset("mirror"))  # East holds no spades
    assert none.legal_bids(E) == [Bid.nil()]
    suicide = table(dealer=W, rules=find_preset("suicide"))
    assert suicide.legal_bids(N) == [Bid.nil()] + [Bid(x) for x in range(4, 14)]
    bid_all(suicide, 5, 0)
    assert suicide.legal_bids(S) == [Bid.nil()]
    bid_all(suicide, 0)
    assert suicide.legal_bids(W) == [Bid(x) for x in range(4, 14)]


def test_first_hand_without_bidding() -> None:
    game = table(rules=Rules(first_hand_no_bids=True), extra_decks=1)
    assert game.phase is Phase.PLAY and game.legal_bids(S) == []
    play_out(game, [RandomPlayer()] * 4, seed=1, hands=1)
    first = game.history[0]
    assert first.bids == (None,) * 4
    assert list(first.score.points) == [10 * (first.tricks_won[s] + first.tricks_won[s + 2]) for s in (0, 1)]
    game.next_hand()
    assert game.phase is Phase.BID


def test_misdeal_with_no_spades() -> None:
    rules = Rules(misdeal_no_spades=True)
    game = Game(rules, deal=271)  # North holds no spades; East bids first
    assert not game.hands[N] & game.spec.trumps and game.dealer == N
    assert game.view(N).can_misdeal and not game.view(E).can_misdeal
    with pytest.raises(IllegalMoveError, match="holds a spade"):
        game.apply(E, Misdeal())
    bid_all(game, 3)  # East's bid does not stop North
    first_deal = list(game.hands)
    game.apply(N, Misdeal())
    assert game.dealer == N and game.turn == E and game.bids == [None] * 4
    assert game.hands != first_deal and game.redeals == 1
    again = Game(rules, deal=271)
    again.apply(E, MakeBid(Bid(3)))
    again.apply(S, MakeBid(Bid(3)))
    with pytest.raises(IllegalMoveError, match="before anyone on your team has bid"):
        again.apply(N, Misdeal())
    with pytest.raises(IllegalMoveError, match="no misdeal"):
        Game(Rules(), deal=271).apply(N, Misdeal())


def test_misdeal_redeal_comes_from_the_attempt_stream_and_replays() -> None:
    game = Game(Rules(misdeal_no_spades=True), deal=271)
    game.apply(N, Misdeal())
    deck = shuffled(game.spec.cards, DealRng.for_hand(271, 0, 1))
    expected = [0] * 4
    for i, c in enumerate(deck):
        expected[(N + 1 + i) % 4] |= 1 << c
    assert game.hands == expected


# -- blind nil and passing -------------------------------------------------------------------

def test_blind_nil_needs_the_team_100_behind_by_default() -> None:
    rules = Rules(blind_nil=True)
    checked = 0
    for deal in range(1, 40):
        game = play_out(Game(rules, deal=deal), [RandomPlayer()] * 4, seed=deal, hands=1)
        behind = [max(game.scores) - game.scores[side] >= 100 for side in (0, 1)]
        game.next_hand()
        for seat in range(4):
            v = game.view(seat)
            assert v.can_look == behind[seat % 2] and (v.hand == 0) == behind[seat % 2]
        checked += any(behind)
    assert checked > 3


def test_a_blind_nil_deficit_of_0_means_any_time_even_when_ahead() -> None:
    rules = Rules(blind_nil=True, blind_nil_deficit=0)
    game = play_out(Game(rules, deal=9), [RandomPlayer()] * 4, seed=9, hands=1)
    while game.scores[0] == game.scores[1]:
        game = play_out(game, [RandomPlayer()] * 4, seed=9, hands=len(game.history) + 1)
    game.next_hand()
    assert all(not game.view(seat).looked and game.view(seat).can_look for seat in range(4))


def test_blind_nil_bid_then_the_two_card_exchange() -> None:
    game = table(dealer=W, rules=Rules(blind_nil=True, blind_nil_deficit=0))
    v = game.view(N)
    assert (v.hand, v.legal_bids, v.can_look) == (0, (Bid.blind_nil(),), True)
    assert not game.view(N).looked
    with pytest.raises(IllegalMoveError, match="Look at your cards before you bid"):
        game.apply(N, MakeBid(Bid(3)))
    game.apply(N, MakeBid(Bid.blind_nil()))
    for seat in (E, S, W):
        game.apply(seat, Look())
        with pytest.raises(IllegalMoveError, match="Blind nil must be bid before you look"):
            game.apply(seat, MakeBid(Bid.blind_nil()))
        game.apply(seat, MakeBid(Bid(3)))
    assert game.phase is Phase.PASS and game.turn == N and game.view(N).pass_count == 2
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="Pass exactly 2"):
        game.apply(N, PassCards(parse_mask("2C 3C 4C")))
    with pytest.raises(IllegalMoveError, match="only pass cards you hold"):
        game.apply(N, PassCards(parse_mask("AS KS")))
    with pytest.raises(OutOfTurnError):
        game.apply(S, PassCards(parse_mask("8S 9S")))
    assert snapshot(game) == before
    game.apply(N, PassCards(parse_mask("4S 3S")))
    assert game.turn == S and game.view(S).received == parse_mask("3S 4S")
    assert game.view(E).received == 0 and not game.view(W).hand & parse_mask("3S 4S")
    game.apply(S, PassCards(parse_mask("KH QS")))
    assert game.phase is Phase.PLAY and game.turn == N
    assert game.view(N).hand & parse_mask("KH QS") and not game.view(N).hand & parse_mask("3S 4S")
    assert game.view(N).passed == parse_mask("3S 4S") and game.view(N).received == parse_mask("KH QS")
    assert len(game.legal_moves(N)) == 11  # ten clubs and the king of hearts: no spade lead


def test_blind_nil_options() -> None:
    assert Bid.blind_nil() not in table(rules=Rules()).legal_bids(S)
    with pytest.raises(IllegalMoveError, match="do not allow blind nil"):
        table(rules=Rules()).apply(S, MakeBid(Bid.blind_nil()))
    no_pass = table(dealer=W, rules=Rules(blind_nil=True, blind_nil_deficit=0, blind_nil_pass=0))
    no_pass.apply(N, MakeBid(Bid.blind_nil()))
    for seat in (E, S, W):
        no_pass.apply(seat, Look())
        no_pass.apply(seat, MakeBid(Bid(3)))
    assert no_pass.phase is Phase.PLAY


@pytest.mark.parametrize("k", [2, 4])
def test_plain_nil_pass_for_online_tables(k: int) -> None:
    game = table(dealer=W, rules=Rules(nil_pass=k))
    bid_all(game, 4, 3, 0, 3)  # South bids nil
    assert game.phase is Phase.PASS and game.turn == S and game.pass_count(S) == k
    assert len(game.legal_moves(S)) == {2: 78, 4: 715}[k]
    game.apply(S, game.legal_moves(S)[0])
    assert game.turn == N and game.pass_count(N) == k
    game.apply(N, game.legal_moves(N)[-1])
    assert game.phase is Phase.PLAY and all(h.bit_count() == 13 for h in game.hands)


# -- play ------------------------------------------------------------------------------------------

def test_the_low_spade_example_trick() -> None:
    game = table(dealer=E)
    bid_all(game, 4, 3, 3, 3)
    assert game.turn == S
    play(game, "KH", "AH")
    assert game.turn == N and legal(game) == mask_to_str(parse_mask(LAYOUT[N]))  # no hearts: anything
    play(game, "2S")
    assert legal(game) == cards("5H 6H")
    assert reason(game, "7S") == "You must follow suit: you hold a heart."
    assert reason(game, "KH") == "You do not hold the king of hearts."
    play(game, "5H")
    assert game.tricks[0].winner == N and game.broken and game.turn == N
    assert game.view(S).voids[N] == 1 << 2  # North showed out of hearts
    assert "3S" in legal(game) and reason(game, "4S") is None  # North may now lead a spade


def test_spades_may_not_be_led_until_broken() -> None:
    game = table(dealer=W)
    bid_all(game, 4, 3, 3, 3)
    assert legal(game) == cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC")
    assert reason(game, "2S") == "The first lead may not be a spade."
    play(game, "2C", "QC", "7H", "2H")  # South and West have no clubs: no spade needed
    assert game.turn == E and not game.broken
    assert reason(game, "5S") == "Spades have not been broken: lead another suit."
    assert legal(game) == cards("5H 6H KC AC 2D 3D 4D 5D 6D")


def test_a_spade_may_be_played_on_the_first_trick_and_a_leader_with_only_spades_leads_one() -> None:
    game = table(SUITED, dealer=W)
    bid_all(game, 13, 1, 1, 1)
    assert legal(game) == SUITED[N]
    play(game, "2S", "2H", "2D", "2C")
    assert game.tricks[0].winner == N
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        game.apply(seat, Play(next(cards_of(game.legal_plays(seat)))))
    result = game.history[0]
    assert result.tricks_won == (13, 0, 0, 0) and result.score.sides[0].boston


def test_boston_bonus_in_a_game() -> None:
    game = table(SUITED, dealer=W, rules=Rules(boston_bonus=100))
    bid_all(game, 10, 1, 2, 1)
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        game.apply(seat, Play(next(cards_of(game.legal_plays(seat)))))
    assert game.scores == [120 + 1 + 100, -20]


def test_two_of_clubs_leads() -> None:
    game = table(dealer=N, rules=Rules(first_lead=FirstLead.TWO_OF_CLUBS))
    bid_all(game, 3, 3, 3, 3)
    assert game.turn == N and legal(game) == cards("2C") and game.view(E).opening_card == Card.parse("2C")
    assert reason(game, "5C") == "You must lead the 2 of clubs to the first trick."
    play(game, "2C")
    assert legal(game) == cards("QC KC AC")


def test_dealer_leads_option() -> None:
    game = table(dealer=S, rules=Rules(first_lead=FirstLead.DEALER))
    bid_all(game, 3, 3, 3, 3)
    assert game.turn == S


def test_spades_led_any_time_option() -> None:
    game = table(dealer=W, rules=Rules(spades_led_any_time=True))
    bid_all(game, 3, 3, 3, 3)
    assert "2S" in legal(game)


@pytest.mark.parametrize("loose", [False, True])
def test_clubs_on_the_first_trick(loose: bool) -> None:
    mode = ClubsFirstTrick.LOOSE if loose else ClubsFirstTrick.STRICT
    game = table(dealer=E, rules=Rules(first_lead=FirstLead.TWO_OF_CLUBS, clubs_first_trick=mode))
    bid_all(game, 3, 3, 3, 3)
    assert game.turn == N
    play(game, "2C")
    assert legal(game) == cards("QC")
    assert reason(game, "KC") == "On the first trick you must play your lowest club, the queen of clubs."
    play(game, "QC")
    if loose:
        assert legal(game) == mask_to_str(parse_mask(LAYOUT[S]))
    else:
        assert legal(game) == cards("7H 8H 9H KH 7D 8D 9D 10D")
        assert reason(game, "8S") == "No spades on the first trick: play a heart or a diamond."
    play(game, "8S" if loose else "7D", "2H")
    assert game.tricks[0].winner == (S if loose else E)
    if not loose:  # after the first trick the ordinary rules are back: East may lead anything but a spade
        assert legal(game) == cards("5H 6H KC AC 2D 3D 4D 5D 6D")


def test_must_beat_in_cutthroat() -> None:
    game = table(dealer=E, rules=Rules(partnerships=False, must_beat=True))
    bid_all(game, 3, 3, 3, 3)
    play(game, "KH")
    assert legal(game) == cards("AH")
    assert reason(game, "2H") == "You must beat the king of hearts when you can."
    play(game, "AH")
    assert legal(game) == cards("2S 3S 4S")  # no hearts: a spade is the only way to beat the ace
    play(game, "2S")
    assert legal(game) == cards("5H 6H")  # cannot beat a trump with a heart: follow suit freely
    play(game, "5H")
    assert game.scores == [0, 0, 0, 0] and game.rules.sides == 4


def test_three_players_lead_the_two_of_clubs_or_the_three() -> None:
    rules = find_preset("three-player")
    hands = ["3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2S 3S 4S 5S 6S",
             "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 7S 8S 9S 10S",
             "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JS QS KS AS"]
    game = table(hands, dealer=0, rules=rules, set_aside="2C")
    assert game.set_aside == parse_mask("2C") and game.turn == 1
    bid_all(game, 0, 6, 5)
    assert game.turn == 0 and legal(game) == cards("3C")
    assert reason(game, "4C") == "You must lead the 3 of clubs to the first trick."
    play(game, "3C")
    assert legal(game) == mask_to_str(parse_mask(hands[1]))  # no clubs: anything, a spade included
    assert all(game.view(s).hand.bit_count() == 17 - (s == 0) for s in range(3))
    assert not any(game.view(s).hand & parse_mask("2C") for s in range(3))
    assert game.view(1).unseen & parse_mask("2C")  # the set-aside card is hidden from everyone
    moved = [hands[0].replace("3C", "2C"), hands[1], hands[2]]
    assert legal(_bid_three(table(moved, dealer=0, rules=rules, set_aside="3C"))) == "2C"


def _bid_three(game: Game) -> Game:
    bid_all(game, 1, 1, 1)
    return game


@pytest.mark.parametrize("draw", list(TwoPlayerDraw))
def test_two_player_draw_and_swap_each_hand(draw: TwoPlayerDraw) -> None:
    rules = find_preset("two-player").replace(two_player_draw=draw)
    game = Game(rules, deal=5)
    first_drawers = []
    rng = random.Random(4)
    for _ in range(3):
        assert game.phase is Phase.DRAW
        drawer = game.turn
        assert drawer == 1 - game.dealer
        first_drawers.append(drawer)
        for step in range(26):
            seat = game.turn
            assert seat is not None and seat == (drawer + step) % 2
            shown = game.view(seat).offered
            assert len(shown) == (2 if draw is TwoPlayerDraw.DRAW_TWO_KEEP_ONE else 1)
            assert game.view(1 - seat).offered == ()
            keep = rng.random() < 0.5
            kept = shown[0] if keep else game.stock[game.stock_pos + 1]
            game.apply(seat, Draw(keep))
            assert game.hands[seat] >> kept & 1
        assert game.phase is Phase.BID and game.turn == drawer
        for seat in (0, 1):
            v = game.view(seat)
            assert v.hand.bit_count() == 13 and v.discarded.bit_count() == 13
            assert not v.discarded & game.discards[1 - seat]
        assert game.set_aside.bit_count() == 26
        bid_all(game, 3, 3)
        assert game.turn == drawer  # the first drawer bids and leads first
        play_out(game, [RandomPlayer()] * 2, seed=1, hands=1)
        if game.phase is Phase.GAME_OVER:
            break
        game.next_hand()
    assert first_drawers[:3] == [1, 0, 1]


# -- views, copies, whole games -------------------------------------------------------------------

def test_view_shows_only_what_the_seat_can_see() -> None:
    game = table(dealer=W)
    bid_all(game, 4, 3)
    play_cards = game.view(S)
    assert play_cards.hand == parse_mask(LAYOUT[S]) and play_cards.legal_plays == 0
    assert play_cards.legal_bids == tuple(game.legal_bids(S)) and play_cards.bids[:2] == (Bid(4), Bid(3))
    for seat in range(4):
        v = game.view(seat)
        assert v.hand == game.hands[seat]
        assert v.unseen == game.spec.cards & ~game.hands[seat]
    fields = set(type(play_cards).__dataclass_fields__)
    assert not fields & {"hands", "stock", "set_aside", "discards", "log"}


def test_copy_is_independent() -> None:
    game = table(dealer=W)
    bid_all(game, 4, 3, 3, 3)
    play(game, "2C")
    twin = game.copy()
    play(twin, "QC", "7H", "2H")
    assert game.trick == [(N, Card.parse("2C"))] and game.turn == E and game.tricks == []
    assert len(twin.tricks) == 1 and twin.hands != game.hands and len(twin.log) == len(game.log) + 3
    play(game, "KC")
    assert twin.tricks[0].cards[1][1] == Card.parse("QC")


SHARED_BY_COPIES = {"cards", "open"}
"""The rooms' lists a copy may share: the two-player stock (never changed) and the open bids (kept
read only); the rest of what copies share is tuples and numbers."""


ROOMS = ("bidding", "play", "draw")
"""The hand's rooms, each compared on its own."""


def state_of_room(room: object) -> dict[str, object]:
    """A room's data attributes (compiled classes keep them as descriptors, not a ``__dict__``)."""
    return {name: getattr(room, name) for name in dir(room)
            if not name.startswith("_") and name not in ROOMS and not callable(getattr(room, name))}


@pytest.mark.parametrize("preset", ["online", "two-player"])
def test_a_copy_is_the_rooms_copied_and_shares_nothing_it_may_change(preset: str) -> None:
    """``copy`` copies the tally and the hand's rooms (bidding, play, draw): every list in them is
    equal in the copy and a list of its own, so no attribute can be forgotten by the copy."""
    game = Game(find_preset(preset), deal=4)
    rng = random.Random(4)
    for _ in range(30):
        game.apply_action(rng.choice(game.legal_actions()))
    twin = game.copy()
    rooms = [(game.tally, twin.tally), (game.hand, twin.hand)]
    rooms += [(getattr(game.hand, name), getattr(twin.hand, name)) for name in ROOMS]
    for mine, theirs in rooms:
        assert mine is not theirs and type(mine) is type(theirs)
        ours, copied = state_of_room(mine), state_of_room(theirs)
        assert ours.keys() == copied.keys() and ours == copied
        for name, value in ours.items():
            if isinstance(value, list) and name not in SHARED_BY_COPIES:
                assert copied[name] is not value, name


def test_a_new_hand_or_a_redeal_replaces_the_hands_state_whole() -> None:
    game = Game(Rules(misdeal_no_spades=True), deal=271)  # North holds no spades; East bids first
    bid_all(game, 3)
    dealt = game.hand
    game.apply(N, Misdeal())
    assert game.hand is not dealt and game.bids == [None] * 4 and dealt.bidding.bids[E] == Bid(3)
    while game.turn is not None:
        game.apply_action(game.legal_actions()[0])
    played = game.hand
    game.next_hand()
    assert game.hand is not played and game.tricks == [] and game.bids == [None] * 4
    assert game.hands == list(game.dealt) and sum(h.bit_count() for h in game.hands) == 52
    assert game.tally.history[-1].tricks_won == tuple(played.play.tricks_won)


def test_whole_game_runs_to_a_winner_and_the_deal_passes_left() -> None:
    game = play_out(Game(Rules(target=200, low_mark=-200), deal=3), [RandomPlayer()] * 4, seed=2)
    assert game.phase is Phase.GAME_OVER and game.winner is not None
    dealers = [h.dealer for h in game.history]
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]
    assert max(game.scores) >= 200 or min(game.scores) <= -200
    assert game.scores[game.winner] == max(game.scores)
    with pytest.raises(WrongPhaseError, match="The game is over"):
        game.apply(0, Play(Card.parse("AS")))
    with pytest.raises(WrongPhaseError):
        game.next_hand()


def test_hand_over_needs_next_hand() -> None:
    game = play_out(Game(Rules(), deal=8), [RandomPlayer()] * 4, seed=1, hands=1)
    assert game.phase is Phase.HAND_OVER
    with pytest.raises(WrongPhaseError, match="deal the next hand first"):
        game.apply(0, MakeBid(Bid(3)))
    game.next_hand()
    assert game.hand_number == 1 and game.dealer == (game.history[0].dealer + 1) % 4


def test_game_needs_a_deal_or_decks() -> None:
    with pytest.raises(SpadesError, match="one of the two"):
        Game(Rules())
    with pytest.raises(SpadesError, match="not a full standard deck"):
        Game(Rules(), decks=[list(range(51))])
    with pytest.raises(SpadesError, match="No seat 7"):
        Game(Rules(), deal=1, first_dealer=7)


def test_legal_moves_cover_every_phase() -> None:
    moves: list[Move] = table(dealer=W).legal_moves(N)
    assert len(moves) == 14 and all(isinstance(m, MakeBid) for m in moves)
    blind = table(dealer=W, rules=Rules(blind_nil=True, blind_nil_deficit=0))
    assert blind.legal_moves(N) == [Look(), MakeBid(Bid.blind_nil())]


@pytest.mark.parametrize("move", [MakeBid(Bid(4)), MakeBid(Bid.nil()), MakeBid(Bid.blind_nil()),
                                  MakeBid(Bid.ten_for_200()), Play(Card.parse("10H")), Play(Card.parse("BJ")),
                                  PassCards(parse_mask("AS KH")), Draw(True), Draw(False), Look(), Misdeal()])
def test_moves_round_trip_through_text_and_repr(move: Move) -> None:
    assert parse_move(str(move)) == move
    assert eval(repr(move), {**vars(spades.moves), "Card": Card, "Bid": Bid}) == move


@pytest.mark.parametrize("text", ["", "bid", "bid eleven", "play", "play 1X", "dance", "look now",
                                  "draw maybe", 7])
def test_malformed_moves_are_refused(text: object) -> None:
    with pytest.raises(SpadesError):
        parse_move(text)  # type: ignore[arg-type]


def test_explicit_decks_running_out_refuse_the_deal_and_change_nothing() -> None:
    game = table(SUITED, dealer=W, rules=Rules(misdeal_no_spades=True))  # East holds no spades
    before = snapshot(game)
    assert not game.can_move(E, Misdeal())
    with pytest.raises(IllegalMoveError, match="explicit decks have run out"):
        game.apply(E, Misdeal())
    assert snapshot(game) == before
    done = play_out(table(), [RandomPlayer()] * 4, seed=1, hands=1)
    before = snapshot(done)
    with pytest.raises(SpadesError, match="explicit decks have run out"):
        done.next_hand()
    assert snapshot(done) == before and done.hand_number == 0
    with pytest.raises(SpadesError, match="Deck 1 is not a full standard deck"):
        Game(Rules(), decks=[list(range(52)), [*range(51), 50]], first_dealer=0)


@pytest.mark.parametrize("move", [
    Play(-1), Play(54), Play("AS"), Play(True), MakeBid(4), MakeBid(None),  # type: ignore[arg-type]
    PassCards(-3), PassCards("AS KS")])  # type: ignore[arg-type]
def test_moves_holding_the_wrong_kind_of_value_are_spades_errors(move: Move) -> None:
    game = table(dealer=W, rules=Rules(nil_pass=2))
    if isinstance(move, Play):
        bid_all(game, 3, 3, 3, 3)
    elif isinstance(move, PassCards):
        bid_all(game, 0, 3, 3, 3)
    before = snapshot(game)
    with pytest.raises(SpadesError):
        game.apply(game.turn or 0, move)
    assert snapshot(game) == before
