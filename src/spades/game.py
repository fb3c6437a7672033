"""The game state machine: draw (two players), bid, pass, play, score, and the next hand.

``Game`` keeps the turn and moves the state on; the rules it asks live in their own modules, and
each keeps its part of a hand's state beside them: which bids are legal and why not, and the
hand's bidding (``Bidding``), in ``spades.bidding``; which cards may be played, why not and who
wins a trick, and the hand's play (``Playing``), in ``spades.play``; the two-player draw and its
``Stock`` in ``spades.draw``; a hand's score in ``spades.scoring``. Here: ``HandState`` holds one
hand (its cards, passes and those rooms) and ``Tally`` the game across hands.

Each action comes as a triple: ``verify_move`` raises a precise error, ``can_move`` answers
yes or no, ``apply`` does it. A rejected move leaves the game exactly as it was.

>>> g = Game(Rules(), deal=7)
>>> g.phase, g.turn, g.dealer
(<Phase.BID: 'bid'>, 0, 3)
>>> g.apply(0, MakeBid(Bid(4)))
>>> g.can_move(0, MakeBid(Bid(3)))
False

The same game driven by integer actions (see ``spades.moves``), as OpenSpiel drives its own:

>>> g.legal_actions()[:3], g.turn
([54, 55, 56], 1)
>>> g.apply_action(57)
>>> g.log[-1]
(1, MakeBid(bid=Bid(3)))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, TypeGuard

from spades.bidding import Bidding, BidRules, blind_nil_open
from spades.cards import ALL_CARDS, Card, Suit, cards_of
from spades.deal import DealRng, check_deal_number, shuffled
from spades.draw import Stock, kept_and_discarded, shown
from spades.errors import IllegalMoveError, OutOfTurnError, SpadesError, WrongPhaseError
from spades.moves import (
    ACTION_BIDS,
    BID_ACTION,
    Draw,
    Look,
    MakeBid,
    Misdeal,
    Move,
    PassCards,
    Play,
    action_to_move,
    bid_action,
    move_to_action,
    play_move,
)
from spades.play import Playing, Trick, lead_mask, legal_play_mask, play_refusals, trick_winner
from spades.rules import (
    BidFormat,
    DeckSpec,
    FirstDealer,
    FirstLead,
    Rules,
)
from spades.scoring import Bid, HandScore, game_winner, score_hand

__all__ = [
    "SEAT_NAMES",
    "Game",
    "HandResult",
    "HandState",
    "Phase",
    "SeatView",
    "Tally",
    "Trick",
    "card_numbers",
    "legal_play_mask",
    "nil_passes",
    "seat_name",
    "trick_winner",
]

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    4: ("North", "East", "South", "West"),
    3: ("East", "South", "West"),
    2: ("North", "South"),
}
"""Seat names by player count, in clockwise order (seat numbers are the indices)."""

SPADE: Final = int(Suit.SPADES)
CLUB: Final = int(Suit.CLUBS)


def seat_name(players: int, seat: int) -> str:
    """A seat's name at a table of this many players."""
    return SEAT_NAMES[players][seat]


class Phase(Enum):
    """Where a hand (or the game) is."""

    DRAW = "draw"
    BID = "bid"
    PASS = "pass"
    PLAY = "play"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand, every card now face up: for score sheets and the hand review."""

    number: int
    dealer: int
    dealt: tuple[int, ...]
    """Each seat's cards as dealt (or drawn), before any pass."""
    bids: tuple[Bid | None, ...]
    tricks_won: tuple[int, ...]
    tricks: tuple[Trick, ...]
    score: HandScore
    scores_after: tuple[int, ...]
    set_aside: int
    """The mask of cards out of play: the 3-player leftover, the 2-player discards."""
    passes: tuple[tuple[int, int, int], ...]
    """Each pass as (from seat, to seat, card mask)."""

    def __init__(self, number: int, dealer: int, dealt: tuple[int, ...], bids: tuple[Bid | None, ...],
                 tricks_won: tuple[int, ...], tricks: tuple[Trick, ...], score: HandScore,
                 scores_after: tuple[int, ...], set_aside: int,
                 passes: tuple[tuple[int, int, int], ...]) -> None:
        """The generated ``__init__``, written out to be compiled (see ``spades.play.Trick``)."""
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "dealt", dealt)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "tricks_won", tricks_won)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "scores_after", scores_after)
        object.__setattr__(self, "set_aside", set_aside)
        object.__setattr__(self, "passes", passes)


class _Setup:
    """What never changes in a game, shared by its copies: the rules, where its decks come from, the
    first dealer when chosen, and what bidding and playing read from the rules on every move.

    Compiled (see setup.py), reading these plain attributes costs a pointer; reading the frozen
    ``Rules`` (or one of its properties) costs a lookup or a call.
    """

    def __init__(self, rules: Rules, deal_number: int | None, decks: list[list[int]] | None,
                 first_dealer: int | None) -> None:
        self.rules = rules
        self.spec = spec = rules.deck_spec
        self.deal_number = deal_number
        self.decks = decks
        self.first_dealer = first_dealer
        """The first dealer when chosen by the caller; None when drawn from the deal number."""
        self.suit_of: tuple[int, ...] = spec.suit_of
        self.suit_masks: tuple[int, int, int, int] = spec.suit_masks
        self.strength: tuple[tuple[int, ...], ...] = spec.strength
        self.must_beat: bool = rules.must_beat
        self.spades_led_any_time: bool = rules.spades_led_any_time
        self.hand_size: int = rules.hand_size
        self.partners: bool = rules.has_partners
        self.bidding: BidRules = BidRules.of(rules)
        self.bids_need_spades: bool = rules.bid_format in (BidFormat.WHIZ, BidFormat.MIRROR)
        """Whether a seat's legal bids depend on its spades (Whiz and Mirror)."""
        self.misdeal: bool = rules.misdeal_no_spades
        self.nil_passes: bool = self.partners and bool(rules.nil_pass or rules.blind_nil_pass)
        """Whether a nil can call for passes at all (``nil_passes`` says which)."""


class Tally:
    """The game across its hands: the scores and bags, the finished hands, the winner once there is
    one, and where the dealing stands (the dealer, the hand's number, its redeals, the decks drawn)."""

    def __init__(self, sides: int, dealer: int) -> None:
        self.scores = [0] * sides
        self.bags = [0] * sides
        self.history: list[HandResult] = []
        self.winner: int | None = None
        self.dealer = dealer
        self.hand_number = 0
        self.redeals = 0
        self.deck_draws = 0

    def copy(self) -> Tally:
        """An independent copy (its lists copied; the finished hands themselves are frozen)."""
        c = Tally(0, self.dealer)
        c.scores, c.bags, c.history = list(self.scores), list(self.bags), list(self.history)
        c.winner = self.winner
        c.hand_number, c.redeals, c.deck_draws = self.hand_number, self.redeals, self.deck_draws
        return c


class HandState:
    """One hand as it stands, replaced whole when the next hand (or a redeal) starts: the cards each
    seat holds and held as dealt, the cards out of play, the nil passes, and the hand's rooms: its
    bidding (``spades.bidding.Bidding``), its play (``spades.play.Playing``) and, with two players,
    its draw (``spades.draw.Stock``)."""

    def __init__(self, players: int, leader: int, stock: list[Card]) -> None:
        self.hands = [0] * players
        """Each seat's cards now, as a mask."""
        self.dealt: tuple[int, ...] = ()
        """Each seat's cards as dealt (or drawn), before any pass: set once the hands are complete."""
        self.set_aside = 0
        """The cards out of play: the 3-player leftover, the 2-player discards."""
        self.passes: list[tuple[int, int, int]] = []
        """Each pass made, as (from seat, to seat, card mask)."""
        self.pending_passes: list[tuple[int, int, int]] = []
        """The passes still to make, in order, as (from seat, to seat, how many cards)."""
        self.bidding = Bidding([True] * players)
        self.play = Playing(players, leader)
        self.draw = Stock(stock, players)

    def copy(self) -> HandState:
        """An independent copy: the hands and passes copied, each room copied by its own ``copy``."""
        c = HandState(0, 0, [])
        c.hands, c.dealt, c.set_aside = list(self.hands), self.dealt, self.set_aside
        c.passes, c.pending_passes = list(self.passes), list(self.pending_passes)
        c.bidding, c.play, c.draw = self.bidding.copy(), self.play.copy(), self.draw.copy()
        return c


@dataclass(frozen=True)
class SeatView:
    """What one seat can see: everything a person in that seat would know, and no more."""

    rules: Rules
    seat: int
    phase: Phase
    hand_number: int
    dealer: int
    turn: int | None
    hand: int
    """The seat's own cards (0 while a blind-nil candidate has not looked)."""
    looked: bool
    bids: tuple[Bid | None, ...]
    tricks_won: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    """The cards played to the current trick, with their seats."""
    tricks: tuple[Trick, ...]
    """This hand's finished tricks."""
    broken: bool
    voids: tuple[int, ...]
    """Per seat, a 4-bit mask of the suits it has shown out of this hand."""
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    passed: int
    """Cards this seat passed this hand."""
    received: int
    """Cards this seat received in a pass this hand."""
    offered: tuple[Card, ...]
    """Two-player draw: the card(s) this seat is being shown now."""
    stock_left: int
    """Two-player draw: how many cards are left in the stock (0 outside the draw)."""
    discarded: int
    """Two-player draw: the cards this seat discarded (only it knows them)."""
    pass_count: int
    """How many cards this seat must pass now (0 if none)."""
    legal_bids: tuple[Bid, ...]
    legal_plays: int
    """The mask of cards this seat may play now (0 when not its turn to play)."""
    can_look: bool
    can_misdeal: bool
    opening_card: Card | None
    history: tuple[HandResult, ...]
    winner: int | None

    def __init__(self, rules: Rules, seat: int, phase: Phase, hand_number: int, dealer: int,
                 turn: int | None, hand: int, looked: bool, bids: tuple[Bid | None, ...],
                 tricks_won: tuple[int, ...], trick: tuple[tuple[int, Card], ...],
                 tricks: tuple[Trick, ...], broken: bool, voids: tuple[int, ...], scores: tuple[int, ...],
                 bags: tuple[int, ...], passed: int, received: int, offered: tuple[Card, ...],
                 stock_left: int, discarded: int, pass_count: int, legal_bids: tuple[Bid, ...],
                 legal_plays: int, can_look: bool, can_misdeal: bool, opening_card: Card | None,
                 history: tuple[HandResult, ...], winner: int | None) -> None:
        """The generated ``__init__``, written out to be compiled (see ``spades.play.Trick``): every
        computer player's move makes a view."""
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "looked", looked)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "tricks_won", tricks_won)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "broken", broken)
        object.__setattr__(self, "voids", voids)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "bags", bags)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "received", received)
        object.__setattr__(self, "offered", offered)
        object.__setattr__(self, "stock_left", stock_left)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "pass_count", pass_count)
        object.__setattr__(self, "legal_bids", legal_bids)
        object.__setattr__(self, "legal_plays", legal_plays)
        object.__setattr__(self, "can_look", can_look)
        object.__setattr__(self, "can_misdeal", can_misdeal)
        object.__setattr__(self, "opening_card", opening_card)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "winner", winner)

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self.rules.players

    @property
    def played(self) -> int:
        """The mask of every card played this hand, the current trick included."""
        m = 0
        for t in self.tricks:
            for _, c in t.cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m

    @property
    def unseen(self) -> int:
        """Cards in play this seat cannot see: in other hands (or set aside) for all it knows."""
        return self.rules.deck_spec.cards & ~self.hand & ~self.played & ~self.discarded



class Game:
    """A whole game of Spades, hand after hand, driven by moves from each seat.

    ``deal`` is the deal number that fixes every shuffle; ``decks`` (instead) gives each
    hand's deck order explicitly, as a game recorded from real cards would.

    Its state is in rooms: what never changes (the rules, the deck source), ``tally`` (the game
    across hands: scores, bags, finished hands, the dealer) and ``hand`` (the hand as it stands,
    with its bidding, play and draw), besides the ``log``, the ``phase`` and the seat to move.
    A new hand replaces ``hand`` whole. The flat names (``scores``, ``hands``, ``bids``,
    ``trick``...) read the rooms.
    """

    tally: Tally
    hand: HandState

    def __init__(
        self,
        rules: Rules,
        deal: int | None = None,
        *,
        decks: Sequence[Sequence[int]] | None = None,
        first_dealer: int | None = None,
        _copy_of: Game | None = None,
    ) -> None:
        if _copy_of is not None:  # copy() (a compiled class cannot be made without __init__)
            self._take_state(_copy_of)
            return
        if (deal is None) == (decks is None):
            raise SpadesError("A game needs a deal number or explicit decks (one of the two).")
        setup = self._setup = _Setup(rules, None if deal is None else check_deal_number(deal),
                                     None if decks is None else [list(d) for d in decks], first_dealer)
        full = sorted(cards_of(setup.spec.cards)) if setup.decks else []
        for i, order in enumerate(setup.decks or ()):
            if sorted(order) != full:
                raise SpadesError(f"Deck {i} is not a full {setup.spec.kind.value} deck.")
        n = rules.players
        if first_dealer is not None and (isinstance(first_dealer, bool) or not 0 <= first_dealer < n):
            raise SpadesError(f"No seat {first_dealer} at a table of {n}.")
        self.log: list[tuple[int, Move] | None] = []
        """Every move applied, in order; None marks the deal of the next hand."""
        self.phase = Phase.BID
        self.turn: int | None = None
        dealer = first_dealer if first_dealer is not None else self._choose_first_dealer()
        self.tally = Tally(rules.sides, dealer)
        self._start_hand()

    # -- the rooms' state under its flat names -----------------------------------------------

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self._setup.rules

    @property
    def spec(self) -> DeckSpec:
        """The deck the rules play with."""
        return self._setup.spec

    @property
    def deal_number(self) -> int | None:
        """The deal number that fixes every shuffle (None with explicit decks)."""
        return self._setup.deal_number

    @property
    def decks(self) -> list[list[int]] | None:
        """The explicit decks, one a hand (None with a deal number)."""
        return self._setup.decks

    @property
    def first_dealer(self) -> int | None:
        """The first dealer when chosen by the caller; None when drawn from the deal number."""
        return self._setup.first_dealer

    @property
    def scores(self) -> list[int]:
        """Each side's score."""
        return self.tally.scores

    @scores.setter
    def scores(self, scores: list[int]) -> None:
        self.tally.scores = scores

    @property
    def bags(self) -> list[int]:
        """Each side's bags held."""
        return self.tally.bags

    @property
    def history(self) -> list[HandResult]:
        """The finished hands."""
        return self.tally.history

    @property
    def winner(self) -> int | None:
        """The side that won the game, once it is over."""
        return self.tally.winner

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self.tally.dealer

    @property
    def hand_number(self) -> int:
        """This hand's number, from 0."""
        return self.tally.hand_number

    @property
    def redeals(self) -> int:
        """How many times this hand was dealt again (a misdeal)."""
        return self.tally.redeals

    @property
    def deck_draws(self) -> int:
        """How many decks have been dealt (or drawn from) so far."""
        return self.tally.deck_draws

    @property
    def hands(self) -> list[int]:
        """Each seat's cards now, as a mask."""
        return self.hand.hands

    @property
    def dealt(self) -> tuple[int, ...]:
        """Each seat's cards as dealt (or drawn), before any pass."""
        return self.hand.dealt

    @property
    def set_aside(self) -> int:
        """The cards out of play: the 3-player leftover, the 2-player discards."""
        return self.hand.set_aside

    @property
    def passes(self) -> list[tuple[int, int, int]]:
        """Each pass made this hand, as (from seat, to seat, card mask)."""
        return self.hand.passes

    @property
    def pending_passes(self) -> list[tuple[int, int, int]]:
        """The passes still to make, as (from seat, to seat, how many cards)."""
        return self.hand.pending_passes

    @property
    def bids(self) -> list[Bid | None]:
        """Each seat's bid this hand (None until it bids)."""
        return self.hand.bidding.bids

    @property
    def looked(self) -> list[bool]:
        """Whether each seat has looked at its cards this hand."""
        return self.hand.bidding.looked

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self.hand.play.leader

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The cards played to the current trick, with their seats."""
        return self.hand.play.trick

    @property
    def tricks(self) -> list[Trick]:
        """This hand's finished tricks."""
        return self.hand.play.tricks

    @property
    def tricks_won(self) -> list[int]:
        """The tricks each seat has won this hand."""
        return self.hand.play.tricks_won

    @property
    def broken(self) -> bool:
        """Whether spades have been played this hand."""
        return self.hand.play.broken

    @property
    def voids(self) -> list[int]:
        """Per seat, a 4-bit mask of the suits it has shown out of this hand."""
        return self.hand.play.voids

    @property
    def opening_card(self) -> Card | None:
        """The card that must open the hand, or None."""
        return self.hand.play.opening_card

    @property
    def stock(self) -> list[Card]:
        """Two-player draw: the stock in its order (empty for a dealt hand)."""
        return self.hand.draw.cards

    @property
    def stock_pos(self) -> int:
        """Two-player draw: how many cards of the stock have been drawn."""
        return self.hand.draw.pos

    @property
    def discards(self) -> list[int]:
        """Two-player draw: the cards each seat discarded."""
        return self.hand.draw.discards

    # -- dealing -------------------------------------------------------------------------

    def _choose_first_dealer(self) -> int:
        """Draw for the first dealer from the deal number's own stream."""
        setup = self._setup
        n = setup.rules.players
        if setup.deal_number is None:
            return n - 1
        if setup.rules.first_dealer is FirstDealer.RANDOM:
            return DealRng.for_hand(setup.deal_number, -1).below(n)
        spec = setup.spec
        size = spec.cards.bit_count()
        drawing = list(range(n))
        pos = 0
        while True:  # only the cards drawn so far are decoded (a tie decodes the same deck further)
            deck = shuffled(spec.cards, DealRng.for_hand(setup.deal_number, -1), pos + len(drawing))
            drawn = {s: deck[pos + i] for i, s in enumerate(drawing)}
            pos += len(drawing)
            top = max(spec.power[c] for c in drawn.values())
            drawing = [s for s in drawing if spec.power[drawn[s]] == top]
            if len(drawing) == 1 or pos + len(drawing) > size:
                return drawing[0]

    def _next_deck(self) -> list[Card]:
        """The shuffled deck for the current hand (and redeal)."""
        setup, tally = self._setup, self.tally
        if setup.decks is not None:
            if not self._deck_left():
                raise SpadesError(_NO_DECK)
            order = setup.decks[tally.deck_draws]
            tally.deck_draws += 1
            return [Card(c) for c in order]
        assert setup.deal_number is not None
        tally.deck_draws += 1
        rng = DealRng.for_hand(setup.deal_number, tally.hand_number, tally.redeals)
        return shuffled(setup.spec.cards, rng)

    def _deck_left(self) -> bool:
        """Whether a deck remains for another deal (always, with a deal number)."""
        decks = self._setup.decks
        return decks is None or self.tally.deck_draws < len(decks)

    def _start_hand(self) -> None:
        """Deal (or lay out the draw) a new hand, replacing the last one's state, and open its first phase."""
        n = self._setup.rules.players
        dealer = self.tally.dealer
        deck = self._next_deck()
        if n == 2:
            self.hand = hand = HandState(n, (dealer + 1) % n, deck)
            self.phase = Phase.DRAW
            self.turn = (dealer + 1) % n
            return
        self.hand = hand = HandState(n, (dealer + 1) % n, [])
        dealt = n * self._setup.hand_size
        for k in range(n):  # one card at a time to the left of the dealer: seat k + 1 gets every n-th from k
            mask = 0
            for i in range(k, dealt, n):
                c: int = deck[i]
                mask |= 1 << c
            hand.hands[(dealer + 1 + k) % n] = mask
        for i in range(dealt, len(deck)):
            c = deck[i]
            hand.set_aside |= 1 << c
        self._open_bidding()

    def _open_bidding(self) -> None:
        """After the deal or draw: start bidding, or go straight to play on a no-bid hand."""
        hand = self.hand
        hand.dealt = tuple(hand.hands)
        r = self._setup.rules
        n = r.players
        if r.first_hand_no_bids and self.tally.hand_number == 0:
            self._open_play()
            return
        if r.blind_nil:
            hand.bidding.looked = [not self._blind_open(s) for s in range(n)]
        self.phase = Phase.BID
        self.turn = (self.tally.dealer + 1) % n

    def _blind_open(self, seat: int) -> bool:
        """Whether the seat's side is far enough behind to bid blind nil this hand."""
        r = self._setup.rules
        if not r.blind_nil:
            return False
        side = r.side_of(seat)
        scores = self.tally.scores
        behind = max(s for i, s in enumerate(scores) if i != side) - scores[side]
        return blind_nil_open(r, behind)

    def _open_play(self) -> None:
        setup = self._setup
        r = setup.rules
        n = r.players
        hand = self.hand
        play = hand.play
        dealer = self.tally.dealer
        self.phase = Phase.PLAY
        play.leader = dealer if r.first_lead is FirstLead.DEALER else (dealer + 1) % n
        if r.first_lead is FirstLead.TWO_OF_CLUBS:
            held = 0
            for h in hand.hands:
                held |= h & setup.suit_masks[CLUB]
            if held:
                low = Card((held & -held).bit_length() - 1)
                play.opening_card = low
                play.leader = next(s for s in range(n) if hand.hands[s] >> low & 1)
        self.turn = play.leader
        self._set_legal(play.leader)

    # -- queries ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self._setup.rules.players

    def partner(self, seat: int) -> int | None:
        """The seat's partner, or None."""
        return self._setup.rules.partner(seat)

    def _is_seat(self, seat: object) -> TypeGuard[int]:
        """Whether this is a seat number at this table."""
        return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < self.players

    def _on_turn(self, seat: object) -> bool:
        """Whether the value is the seat to move (``True`` is no seat, though it equals 1)."""
        if isinstance(seat, int) and not isinstance(seat, bool):  # compiled: compared as native numbers
            turn = self.turn
            return turn is not None and seat == turn
        return seat == self.turn and not isinstance(seat, bool)

    def _no_seat(self, seat: object) -> SpadesError:
        """The error for a value that is not a seat at this table."""
        return SpadesError(f"No seat {seat!r} at a table of {self.players}.")

    def _name(self, seat: int) -> str:
        return seat_name(self.players, seat)

    def legal_bids(self, seat: object) -> list[Bid]:
        """Every bid the seat may make now (empty if it is not its turn to bid, or not a seat)."""
        if self.phase is not Phase.BID or not self._is_seat(seat) or self.turn != seat:
            return []
        return [ACTION_BIDS[a - BID_ACTION] for a in self._legal_bid_actions(seat)]

    def _legal_bid_actions(self, seat: int) -> tuple[int, ...]:
        """The actions of the bids open to the seat to bid, ascending, worked out once per position."""
        bidding = self.hand.bidding
        if bidding.asked_at != len(self.log):
            bidding.asked_at = len(self.log)
            bidding.open_actions = self._work_out_bids(seat)
        return bidding.open_actions

    def _work_out_bids(self, seat: int) -> tuple[int, ...]:
        """The actions of the bids open to the seat to bid, ascending (asked of ``spades.bidding``)."""
        t = self._setup
        hand = self.hand
        partner = hand.bidding.bids[(seat + 2) % 4] if t.partners else None
        spades = (hand.hands[seat] & t.suit_masks[SPADE]).bit_count() if t.bids_need_spades else -1
        return t.bidding.actions(partner, hand.bidding.looked[seat], spades, self._blind_open(seat))

    def legal_plays(self, seat: object) -> int:
        """The mask of cards the seat may play now (0 if it is not its turn to play, or not a seat)."""
        return self.hand.play.legal if self._on_turn(seat) else 0

    def _set_legal(self, seat: int) -> None:
        """Work out what the seat now to play may play (only it has cards to play: one mask does)."""
        play = self.hand.play
        trick = [c for _, c in play.trick] if play.trick else ()
        play.legal = legal_play_mask(self._setup.rules, self.hand.hands[seat], trick, play.broken,
                                     not play.tricks, play.opening_card)
        play.legal_actions = None

    def _is_legal_play(self, seat: object, card: object) -> bool:
        """The short path shared by ``apply`` and ``apply_action``: a legal card by the seat to play.

        False means only "not shown legal here": the full check then gives the precise error.
        """
        return (isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 54
                and bool(self.hand.play.legal >> card & 1) and self._on_turn(seat))

    def _legal_cards(self) -> tuple[int, ...]:
        """The cards of the legal mask, lowest first, worked out once per position."""
        play = self.hand.play
        cards = play.legal_actions
        if cards is None:
            cards = play.legal_actions = card_numbers(play.legal)
        return cards

    def legal_actions(self, seat: object = None) -> list[int]:
        """Every action (see ``spades.moves``) the seat may take now, ascending (default: the seat to act).

        Like ``apply_action``, it takes any value: what is not a seat at the table has no actions.
        """
        if seat is None:
            seat = self.turn
            if seat is None:
                return []
        if self.phase is Phase.PLAY:
            return list(self._legal_cards()) if self._on_turn(seat) else []
        if not self._is_seat(seat):
            return []
        if self.phase is Phase.BID:  # the bids' actions (54-73) sort before Look's and Misdeal's
            bids = self._legal_bid_actions(seat) if seat == self.turn else ()
            extra = self._look_and_misdeal(seat)
            return [*bids, *map(move_to_action, extra)] if extra else list(bids)
        return sorted(map(move_to_action, self.legal_moves(seat)))

    def apply_action(self, action: object, seat: object = None) -> None:
        """Take an integer action after checking it, by default for the seat to move.

        An illegal or malformed action or seat (anything but an int, too) raises the error
        ``apply`` would and changes nothing.
        """
        if seat is None:
            seat = self.turn
            if seat is None:
                self._verify_open()
        elif not self._is_seat(seat):
            raise self._no_seat(seat)
        assert isinstance(seat, int), "only a finished hand or game has no seat to move"
        if self._is_legal_play(seat, action):
            assert isinstance(action, int)
            self.log.append(_SEAT_PLAYS[seat][action])
            self._play(seat, action)
        elif self._is_legal_bid(seat, action):
            assert isinstance(action, int)
            self.log.append(_SEAT_BIDS[seat][action - BID_ACTION])
            self._bid(seat, ACTION_BIDS[action - BID_ACTION])
        else:
            self.apply(seat, action_to_move(action))

    def _is_legal_bid(self, seat: int, action: object) -> bool:
        """The short path for a bid action by the seat to bid: one look in the cached bid actions."""
        if self.phase is not Phase.BID or not self._on_turn(seat):
            return False
        return action.__class__ is int and action in self._legal_bid_actions(seat)

    def legal_moves(self, seat: object) -> list[Move]:
        """Every move the seat may make now (none for what is not a seat at the table)."""
        moves: list[Move] = []
        if not self._is_seat(seat):
            return moves
        if self.phase is Phase.BID:  # the shared, frozen move values: nothing is built per call
            moves += self._look_and_misdeal(seat)
            if seat == self.turn:
                moves += [_BID_MOVES[a - BID_ACTION] for a in self._legal_bid_actions(seat)]
        elif self.phase is Phase.PLAY:
            moves += [_PLAY_MOVES[c] for c in self._legal_cards()] if self._on_turn(seat) else []
        elif self.phase is Phase.DRAW and self.turn == seat:
            moves += [Draw(True), Draw(False)]
        elif self.phase is Phase.PASS and self.turn == seat:
            k = self.pending_passes[0][2]
            moves += [PassCards(m) for m in _subsets(self.hands[seat], k)]
        return moves

    def _look_and_misdeal(self, seat: int) -> list[Move]:
        """In the bidding: Look and Misdeal, whichever the seat may play now (at any turn)."""
        moves: list[Move] = []
        if not self.hand.bidding.looked[seat]:
            moves.append(Look())
        if self._setup.misdeal and self.can_move(seat, Misdeal()):
            moves.append(Misdeal())
        return moves

    def pass_count(self, seat: object) -> int:
        """How many cards the seat must pass now, or 0."""
        if self.phase is Phase.PASS and self._on_turn(seat):
            return self.pending_passes[0][2]
        return 0

    def offered(self, seat: object) -> tuple[Card, ...]:
        """Two-player draw: the cards this seat is shown now."""
        if self.phase is not Phase.DRAW or not self._on_turn(seat):
            return ()
        return shown(self.rules, self.hand.draw.cards, self.hand.draw.pos)

    def play_reason(self, seat: object, card: Card) -> str | None:
        """Why the seat may not play this card now, in plain English; None if it may."""
        try:
            self.verify_move(seat, Play(card))
        except IllegalMoveError as e:
            return str(e)
        return None

    # -- verify / can / apply -------------------------------------------------------------

    def verify_move(self, seat: object, move: Move) -> None:
        """Raise the precise error that forbids this move now; return if it is legal.

        Seats, here and in every method, are checked as values (anything else is a SpadesError):
        a compiled method declared to take an int would turn ``True`` into seat 1.
        """
        if move.__class__ is Play and self._is_legal_play(seat, move.card):
            return
        if not self._is_seat(seat):
            raise self._no_seat(seat)
        self._verify_open()
        if isinstance(move, Look):
            if self.phase is not Phase.BID:
                raise WrongPhaseError("Looking at your cards is for the bidding.")
            if self.looked[seat]:
                raise IllegalMoveError(f"{self._name(seat)} has already seen their cards.")
            return
        if isinstance(move, Misdeal):
            self._verify_misdeal(seat, self._name(seat))
            return
        want = _MOVE_PHASE.get(type(move))
        if want is None:
            raise SpadesError(f"Not a move: {move!r}.")
        if self.phase is not want:
            raise WrongPhaseError(
                f"It is time to {_PHASE_VERB[self.phase]}, not to {_PHASE_VERB[want]}."
            )
        if self.turn != seat:
            assert self.turn is not None
            raise OutOfTurnError(f"It is {self._name(self.turn)}'s turn, not {self._name(seat)}'s.")
        if isinstance(move, MakeBid):
            if not isinstance(move.bid, Bid):
                raise SpadesError(f"A bid move holds a Bid, not {move.bid!r}.")
            self._verify_bid(seat, move.bid)
        elif isinstance(move, Play):
            card = move.card
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 53:
                raise SpadesError(f"A play holds a card (0-53), not {card!r}.")
            self._verify_play(seat, card)
        elif isinstance(move, PassCards):
            k = self.pending_passes[0][2]
            cards: object = getattr(move, "cards")  # noqa: B009 (untyped: compiled code would check it)
            if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
                raise SpadesError(f"A pass holds a card mask, not {cards!r}.")
            if cards & ~self.hands[seat]:
                raise IllegalMoveError("You can only pass cards you hold.")
            if cards.bit_count() != k:
                raise IllegalMoveError(f"Pass exactly {k} cards to your partner.")
        elif isinstance(move, Draw):
            keep: object = getattr(move, "keep_first")  # noqa: B009 (as above)
            if not isinstance(keep, bool):
                raise SpadesError(f"A draw keeps the first card (True) or not (False), not {keep!r}.")

    def _verify_open(self) -> None:
        """Raise if the game or the hand is over (no seat may move)."""
        if self.phase is Phase.GAME_OVER:
            raise WrongPhaseError("The game is over.")
        if self.phase is Phase.HAND_OVER:
            raise WrongPhaseError("The hand is over: deal the next hand first.")

    def _verify_misdeal(self, seat: int, name: str) -> None:
        if not self.rules.misdeal_no_spades:
            raise IllegalMoveError("These rules have no misdeal for a hand without spades.")
        if self.phase is not Phase.BID:
            raise WrongPhaseError("A misdeal is called before the bidding is done.")
        if not self.looked[seat]:
            raise IllegalMoveError("Look at your cards before you call a misdeal.")
        if self.hands[seat] & self.spec.trumps:
            raise IllegalMoveError(f"{name} holds a spade, so there is no misdeal.")
        if any(self.bids[s] is not None for s in self.rules.seats_of(self.rules.side_of(seat))):
            raise IllegalMoveError("A misdeal must be called before anyone on your team has bid.")
        if not self._deck_left():
            raise IllegalMoveError(_NO_DECK)

    def _verify_bid(self, seat: int, bid: Bid) -> None:
        if bid_action(bid) in self._legal_bid_actions(seat):
            return
        partner = self.bids[(seat + 2) % 4] if self._setup.partners else None
        looked = self.looked[seat]
        spades = (self.hands[seat] & self.spec.trumps).bit_count()
        why = self._setup.bidding.refusal(bid, partner, looked=looked, spades=spades,
                                          blind_open=self._blind_open(seat))
        assert why is not None, "a bid the rules allow is among the legal bids"
        raise IllegalMoveError(why)

    def _verify_play(self, seat: int, card: Card) -> None:
        why = self.play_refusals(seat, 1 << card).get(Card(card))
        if why is not None:
            raise IllegalMoveError(why)

    def play_refusals(self, seat: int, cards: int) -> dict[Card, str]:
        """Why the seat whose turn it is to play (not checked: ``play_reason`` checks) may not play each of
        ``cards`` (a mask) that it may not, in plain English."""
        return play_refusals(self.rules, self.hands[seat], cards, self.trick, self.broken, not self.tricks,
                             self.opening_card)

    def can_move(self, seat: object, move: Move) -> bool:
        """Whether the move is legal now."""
        try:
            self.verify_move(seat, move)
        except SpadesError:
            return False
        return True

    def apply(self, seat: object, move: Move) -> None:
        """Make a move after checking it; an illegal one raises and changes nothing."""
        self.verify_move(seat, move)
        assert isinstance(seat, int)
        self.apply_unchecked(seat, move)

    def apply_unchecked(self, seat: int, move: Move) -> None:
        """Make a move the caller knows is legal (the fast path for simulations)."""
        self.log.append((seat, move))
        if isinstance(move, Play):
            self._play(seat, move.card)
        elif isinstance(move, MakeBid):
            self._bid(seat, move.bid)
        elif isinstance(move, PassCards):
            self._pass(seat, move.cards)
        elif isinstance(move, Draw):
            self._draw(seat, move.keep_first)
        elif isinstance(move, Look):
            self.hand.bidding.looked[seat] = True
        elif isinstance(move, Misdeal):
            self.tally.redeals += 1
            self._start_hand()

    def _bid(self, seat: int, bid: Bid) -> None:
        bidding = self.hand.bidding
        bidding.bids[seat] = bid
        if not bid.blind:
            bidding.looked[seat] = True
        if bidding.done():
            self.turn = None
            self._open_passing()
        else:
            self.turn = (seat + 1) % len(bidding.bids)

    def _open_passing(self) -> None:
        hand, setup = self.hand, self._setup
        if setup.nil_passes:
            hand.pending_passes += nil_passes(setup.rules, hand.bidding.bids, self.tally.dealer)
        if hand.pending_passes:
            self.phase = Phase.PASS
            self.turn = hand.pending_passes[0][0]
        else:
            self._open_play()

    def _pass(self, seat: int, cards: int) -> None:
        hand = self.hand
        giver, taker, _ = hand.pending_passes.pop(0)
        hand.hands[giver] &= ~cards
        hand.hands[taker] |= cards
        hand.passes.append((giver, taker, cards))
        if hand.pending_passes:
            self.turn = hand.pending_passes[0][0]
        else:
            self._open_play()

    def _draw(self, seat: int, keep_first: bool) -> None:
        hand = self.hand
        draw = hand.draw
        keep, drop = kept_and_discarded(draw.cards, draw.pos, keep_first)
        hand.hands[seat] |= 1 << keep
        draw.discards[seat] |= 1 << drop
        hand.set_aside |= 1 << drop
        draw.pos += 2
        if draw.left() <= 0:
            self._open_bidding()
        else:
            self.turn = 1 - seat

    def _play(self, seat: int, c: int) -> None:
        """Play a legal card: the trick's best card so far is kept as it goes, and the next legal mask."""
        setup = self._setup
        suit = setup.suit_of[c]
        hands = self.hand.hands
        play = self.hand.play
        hands[seat] = hands[seat] & ~(1 << c)  # compiled: native numbers, not the generic in-place operator
        trick = play.trick
        if trick:
            if suit != play.led:
                play.voids[seat] |= 1 << play.led
            if play.strength[c] > play.top:
                play.top, play.top_seat = play.strength[c], seat
        else:
            play.led = suit
            play.strength = setup.strength[suit]
            play.top, play.top_seat = play.strength[c], seat
        trick.append(_SEAT_CARDS[seat][c])
        if suit == SPADE:
            play.broken = True
        n = len(hands)
        if len(trick) < n:
            nxt = self.turn = (seat + 1) % n
            if play.tricks and not setup.must_beat:  # the common case, worked out here
                hand = hands[nxt]
                play.legal = hand & setup.suit_masks[play.led] or hand
                play.legal_actions = None
            else:
                self._set_legal(nxt)
            return
        winner = play.top_seat
        play.tricks.append(Trick(trick[0][0], tuple(trick), winner))
        play.tricks_won[winner] = play.tricks_won[winner] + 1
        play.trick = []
        if len(play.tricks) < setup.hand_size:  # a later trick's lead: only spades' being open matters
            play.leader = self.turn = winner
            spades_open = play.broken or setup.spades_led_any_time
            play.legal = lead_mask(hands[winner], setup.suit_masks[SPADE], spades_open)
            play.legal_actions = None
            return
        play.legal, play.legal_actions = 0, None
        self._finish_hand()

    def _finish_hand(self) -> None:
        r = self._setup.rules
        tally, hand = self.tally, self.hand
        bids, tricks_won = hand.bidding.bids, hand.play.tricks_won
        no_bids = r.first_hand_no_bids and tally.hand_number == 0
        score = score_hand(r, bids, tricks_won, tally.bags, no_bids=no_bids)
        for side, s in enumerate(score.sides):
            tally.scores[side] += s.points
            tally.bags[side] = s.bags_after
        tally.history.append(HandResult(
            number=tally.hand_number, dealer=tally.dealer, dealt=hand.dealt,
            bids=tuple(bids), tricks_won=tuple(tricks_won), tricks=tuple(hand.play.tricks),
            score=score, scores_after=tuple(tally.scores), set_aside=hand.set_aside,
            passes=tuple(hand.passes),
        ))
        self.turn = None
        tally.winner = game_winner(r, tally.scores)
        self.phase = Phase.GAME_OVER if tally.winner is not None else Phase.HAND_OVER

    def next_hand(self) -> None:
        """Deal the next hand, the deal passing to the left."""
        if self.phase is not Phase.HAND_OVER:
            raise WrongPhaseError("The next hand is dealt only once a hand is over.")
        if not self._deck_left():
            raise SpadesError(_NO_DECK)
        self.log.append(None)
        tally = self.tally
        tally.hand_number += 1
        tally.redeals = 0
        tally.dealer = (tally.dealer + 1) % self.players
        self._start_hand()

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: object) -> SeatView:
        """Exactly what ``seat`` can see now."""
        if not self._is_seat(seat):
            raise self._no_seat(seat)
        tally, hand = self.tally, self.hand
        play = hand.play
        bidding = self.phase is Phase.BID
        looked = hand.bidding.looked[seat] or not bidding
        extra = self._look_and_misdeal(seat) if bidding else []  # neither is open outside the bidding
        return SeatView(
            rules=self.rules, seat=seat, phase=self.phase, hand_number=tally.hand_number,
            dealer=tally.dealer, turn=self.turn, hand=hand.hands[seat] if looked else 0, looked=looked,
            bids=tuple(hand.bidding.bids), tricks_won=tuple(play.tricks_won), trick=tuple(play.trick),
            tricks=tuple(play.tricks), broken=play.broken, voids=tuple(play.voids),
            scores=tuple(tally.scores), bags=tuple(tally.bags),
            passed=_mask_sum(c for g, _, c in hand.passes if g == seat),
            received=_mask_sum(c for _, t, c in hand.passes if t == seat),
            offered=self.offered(seat), discarded=hand.draw.discards[seat],
            stock_left=hand.draw.left() if self.phase is Phase.DRAW else 0,
            pass_count=self.pass_count(seat), legal_bids=tuple(self.legal_bids(seat)),
            legal_plays=self.legal_plays(seat), can_look=any(isinstance(m, Look) for m in extra),
            can_misdeal=any(isinstance(m, Misdeal) for m in extra), opening_card=play.opening_card,
            history=tuple(tally.history), winner=tally.winner,
        )

    def copy(self) -> Game:
        """An independent copy (cheap: masks and small lists)."""
        return Game(self.rules, _copy_of=self)

    def _take_state(self, o: Game) -> None:
        """Become a copy of ``o``: what never changes shared, the tally and the hand copied by their rooms."""
        self._setup, self.tally, self.hand = o._setup, o.tally.copy(), o.hand.copy()
        self.log, self.phase, self.turn = list(o.log), o.phase, o.turn


_NO_DECK: Final = "The game's explicit decks have run out: there is no deck for another deal."

_PLAY_MOVES: Final = tuple(play_move(c) for c in range(54))
"""Each card's Play move (the shared values ``play_move`` gives), by card number."""
_BID_MOVES: Final = tuple(action_to_move(BID_ACTION + i) for i in range(len(ACTION_BIDS)))
"""Each bid action's (shared) MakeBid move, from ``BID_ACTION`` on."""
_SEAT_PLAYS: Final = tuple(tuple((seat, m) for m in _PLAY_MOVES) for seat in range(4))
"""Each seat's log entry for playing each card (tuples are immutable: one serves every game)."""
_SEAT_BIDS: Final = tuple(tuple((seat, m) for m in _BID_MOVES) for seat in range(4))
"""Each seat's log entry for each bid action, as ``_SEAT_PLAYS``."""
_SEAT_CARDS: Final = tuple(tuple((seat, card) for card in ALL_CARDS) for seat in range(4))
"""Each seat's entry in a trick for each card, as ``_SEAT_PLAYS``."""

_MOVE_PHASE: Final[dict[type, Phase]] = {
    MakeBid: Phase.BID, Play: Phase.PLAY, PassCards: Phase.PASS, Draw: Phase.DRAW,
}

_PHASE_VERB: Final = {
    Phase.DRAW: "draw", Phase.BID: "bid", Phase.PASS: "pass cards", Phase.PLAY: "play a card",
    Phase.HAND_OVER: "deal the next hand", Phase.GAME_OVER: "start a new game",
}


_CHUNK: Final = 13
"""Card masks are read in 13-bit chunks (a suit each, in the standard numbering)."""


def nil_passes(rules: Rules, bids: Sequence[Bid | None], dealer: int) -> list[tuple[int, int, int]]:
    """The passes the bids call for, in order, as (from seat, to seat, how many cards): a side with
    partners and one nil (blind or not) trades that many cards with its partner (the nil's pass,
    then the pass back), the side left of the dealer first. The one statement of the rule."""
    out: list[tuple[int, int, int]] = []
    if not rules.has_partners:
        return out
    first = (dealer + 1) % 4
    for side in (first % 2, 1 - first % 2):
        nil_seats = [s for s in rules.seats_of(side) if (b := bids[s]) is not None and b.is_nil(rules)]
        if len(nil_seats) != 1:
            continue
        s = nil_seats[0]
        bid = bids[s]
        assert bid is not None
        k = rules.blind_nil_pass if bid.blind else rules.nil_pass
        if k:
            p = (s + 2) % 4
            out += [(s, p, k), (p, s, k)]
    return out


def _chunk_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per chunk, the card numbers of each of its 8192 bit patterns (a few milliseconds, at import)."""
    tables = []
    for offset in range(0, 54, _CHUNK):
        size = min(_CHUNK, 54 - offset)
        table: list[tuple[int, ...]] = [()] * (1 << size)
        for m in range(1, 1 << size):
            table[m] = ((m & -m).bit_length() - 1 + offset, *table[m & (m - 1)])
        tables.append(tuple(table))
    return tuple(tables)


_CHUNKS: Final = _chunk_tables()


def card_numbers(mask: int) -> tuple[int, ...]:
    """The card numbers of a mask, lowest first (the play actions of a legal mask): ``cards_of`` as plain
    numbers, a table look-up a suit, for the code that walks masks on every move (the players' too)."""
    out: tuple[int, ...] = ()
    for table in _CHUNKS:  # a mask within one suit (following suit) is a single look-up
        part = mask & 8191
        if part:
            out = out + table[part] if out else table[part]
        mask >>= _CHUNK
        if not mask:
            break
    return out


def _mask_sum(masks: Iterator[int]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


def _subsets(mask: int, k: int) -> Iterator[int]:
    """Every k-card subset of a mask."""
    cards = list(cards_of(mask))

    def rec(start: int, left: int, acc: int) -> Iterator[int]:
        if left == 0:
            yield acc
            return
        for i in range(start, len(cards) - left + 1):
            yield from rec(i + 1, left - 1, acc | 1 << cards[i])

    yield from rec(0, k, 0)

