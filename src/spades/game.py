"""The game state machine: draw (two players), bid, pass, play, score, and the next hand.

``Game`` keeps the state and the turn; the rules it asks live in their own modules: which bids
are legal and why not in ``spades.bidding``, which cards may be played, why not and who wins a
trick in ``spades.play``, the two-player draw in ``spades.draw``, a hand's score in
``spades.scoring``.

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
from typing import TypeGuard

from spades.bidding import BidRules, blind_nil_open
from spades.cards import ALL_CARDS, Card, Suit, cards_of
from spades.deal import DealRng, check_deal_number, shuffled
from spades.draw import kept_and_discarded, shown
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
from spades.play import legal_play_mask, play_refusal, trick_winner
from spades.rules import (
    BidFormat,
    FirstDealer,
    FirstLead,
    Rules,
)
from spades.scoring import Bid, HandScore, game_winner, score_hand

__all__ = [
    "SEAT_NAMES",
    "Game",
    "HandResult",
    "Phase",
    "SeatView",
    "Trick",
    "legal_play_mask",
    "seat_name",
    "trick_winner",
]

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    4: ("North", "East", "South", "West"),
    3: ("East", "South", "West"),
    2: ("North", "South"),
}
"""Seat names by player count, in clockwise order (seat numbers are the indices)."""

SPADE = int(Suit.SPADES)
CLUB = int(Suit.CLUBS)


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
class Trick:
    """A finished trick: who led, the cards in the order played, and who won it."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


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


class _Table:
    """What bidding and playing read from the rules on every move, taken once per game.

    Compiled (see setup.py), reading these plain attributes costs a pointer; reading the
    frozen ``Rules`` (or one of its properties) costs a lookup or a call.
    """

    def __init__(self, rules: Rules) -> None:
        spec = rules.deck_spec
        self.suit_of: tuple[int, ...] = spec.suit_of
        self.suit_masks: tuple[int, int, int, int] = spec.suit_masks
        self.strength: tuple[tuple[int, ...], ...] = spec.strength
        self.must_beat: bool = rules.must_beat
        self.hand_size: int = rules.hand_size
        self.partners: bool = rules.has_partners
        self.bidding: BidRules = BidRules.of(rules)
        self.bids_need_spades: bool = rules.bid_format in (BidFormat.WHIZ, BidFormat.MIRROR)
        """Whether a seat's legal bids depend on its spades (Whiz and Mirror)."""


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
    """

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
        self.rules = rules
        self.spec = rules.deck_spec
        self._table = _Table(rules)
        self.deal_number = None if deal is None else check_deal_number(deal)
        self.decks = None if decks is None else [list(d) for d in decks]
        full = sorted(cards_of(self.spec.cards))
        for i, order in enumerate(self.decks or ()):
            if sorted(order) != full:
                raise SpadesError(f"Deck {i} is not a full {self.spec.kind.value} deck.")
        n = rules.players
        self.scores = [0] * rules.sides
        self.bags = [0] * rules.sides
        self.history: list[HandResult] = []
        self.winner: int | None = None
        self.hand_number = 0
        self.log: list[tuple[int, Move] | None] = []
        """Every move applied, in order; None marks the deal of the next hand."""
        self._legal = 0
        """The mask of cards the seat to play may play: kept exact through the play, 0 in other phases."""
        self._legal_actions: tuple[int, ...] | None = None
        """The cards of ``_legal``, lowest first (worked out when first asked for)."""
        self._strength: tuple[int, ...] = self.spec.strength[0]
        """The card strengths for the current trick's led suit (see ``DeckSpec.strength``)."""
        self._led = 0
        self._top = 0
        """The strength of the best card in the current trick so far, and below it its seat."""
        self._top_seat = 0
        self._bids_at = -1
        """The log length at which ``_bids`` (the bids open to the seat to bid) was worked out."""
        self._bids: list[Bid] = []
        self._bid_actions: tuple[int, ...] = ()
        """The actions of ``_bids``, ascending."""
        self.redeals = 0
        self.deck_draws = 0
        self.first_dealer = first_dealer
        """The first dealer when chosen by the caller; None when drawn from the deal number."""
        if first_dealer is not None:
            if isinstance(first_dealer, bool) or not 0 <= first_dealer < n:
                raise SpadesError(f"No seat {first_dealer} at a table of {n}.")
            self.dealer = first_dealer
        else:
            self.dealer = self._choose_first_dealer()
        self._start_hand()

    # -- dealing -------------------------------------------------------------------------

    def _choose_first_dealer(self) -> int:
        """Draw for the first dealer from the deal number's own stream."""
        n = self.rules.players
        if self.deal_number is None:
            return n - 1
        if self.rules.first_dealer is FirstDealer.RANDOM:
            return DealRng.for_hand(self.deal_number, -1).below(n)
        size = self.spec.cards.bit_count()
        drawing = list(range(n))
        pos = 0
        while True:  # only the cards drawn so far are decoded (a tie decodes the same deck further)
            deck = shuffled(self.spec.cards, DealRng.for_hand(self.deal_number, -1), pos + len(drawing))
            drawn = {s: deck[pos + i] for i, s in enumerate(drawing)}
            pos += len(drawing)
            top = max(self.spec.power[c] for c in drawn.values())
            drawing = [s for s in drawing if self.spec.power[drawn[s]] == top]
            if len(drawing) == 1 or pos + len(drawing) > size:
                return drawing[0]

    def _next_deck(self) -> list[Card]:
        """The shuffled deck for the current hand (and redeal)."""
        if self.decks is not None:
            if not self._deck_left():
                raise SpadesError(_NO_DECK)
            order = self.decks[self.deck_draws]
            self.deck_draws += 1
            return [Card(c) for c in order]
        assert self.deal_number is not None
        self.deck_draws += 1
        return shuffled(self.spec.cards, DealRng.for_hand(self.deal_number, self.hand_number,
                                                          self.redeals))

    def _deck_left(self) -> bool:
        """Whether a deck remains for another deal (always, with a deal number)."""
        return self.decks is None or self.deck_draws < len(self.decks)

    def _start_hand(self) -> None:
        """Deal (or lay out the draw) and open the first phase of a hand."""
        self._bids_at = -1
        self._legal, self._legal_actions = 0, None
        r = self.rules
        n = r.players
        self.hands = [0] * n
        self.bids: list[Bid | None] = [None] * n
        self.tricks_won = [0] * n
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[Trick] = []
        self.broken = False
        self.voids = [0] * n
        self.passes: list[tuple[int, int, int]] = []
        self.pending_passes: list[tuple[int, int, int]] = []
        self.discards = [0] * n
        self.set_aside = 0
        self.opening_card: Card | None = None
        self.leader = (self.dealer + 1) % n
        deck = self._next_deck()
        self.stock: list[Card] = []
        self.stock_pos = 0
        self.dealt: tuple[int, ...] = ()
        """Each seat's cards as dealt (or drawn), before any pass: set once the hands are complete."""
        if n == 2:
            self.stock = deck
            self.phase = Phase.DRAW
            self.turn: int | None = (self.dealer + 1) % n
            self.looked = [True] * n
            return
        per = r.hand_size
        for i, card in enumerate(deck[: per * n]):
            self.hands[(self.dealer + 1 + i) % n] |= 1 << card
        for card in deck[per * n:]:
            self.set_aside |= 1 << card
        self._open_bidding()

    def _open_bidding(self) -> None:
        """After the deal or draw: start bidding, or go straight to play on a no-bid hand."""
        self.dealt = tuple(self.hands)
        r = self.rules
        n = r.players
        if r.first_hand_no_bids and self.hand_number == 0:
            self.looked = [True] * n
            self._open_play()
            return
        self.looked = [not self._blind_open(s) for s in range(n)]
        self.phase = Phase.BID
        self.turn = (self.dealer + 1) % n

    def _blind_open(self, seat: int) -> bool:
        """Whether the seat's side is far enough behind to bid blind nil this hand."""
        side = self.rules.side_of(seat)
        behind = max(s for i, s in enumerate(self.scores) if i != side) - self.scores[side]
        return blind_nil_open(self.rules, behind)

    def _open_play(self) -> None:
        r = self.rules
        n = r.players
        self.phase = Phase.PLAY
        self.leader = self.dealer if r.first_lead is FirstLead.DEALER else (self.dealer + 1) % n
        if r.first_lead is FirstLead.TWO_OF_CLUBS:
            held = 0
            for h in self.hands:
                held |= h & self.spec.suit_masks[CLUB]
            if held:
                low = Card((held & -held).bit_length() - 1)
                self.opening_card = low
                self.leader = next(s for s in range(n) if self.hands[s] >> low & 1)
        self.turn = self.leader
        self._set_legal(self.leader)

    # -- queries ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self.rules.players

    def partner(self, seat: int) -> int | None:
        """The seat's partner, or None."""
        return self.rules.partner(seat)

    def _is_seat(self, seat: object) -> TypeGuard[int]:
        """Whether this is a seat number at this table."""
        return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < self.players

    def _on_turn(self, seat: object) -> bool:
        """Whether the value is the seat to move (``True`` is no seat, though it equals 1)."""
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
        return list(self._bid_options(seat))

    def _bid_options(self, seat: int) -> list[Bid]:
        """The bids open to the seat to bid, worked out once per position (read only)."""
        if self._bids_at != len(self.log):
            self._bids_at = len(self.log)
            self._bid_actions = self._work_out_bids(seat)
            self._bids = [ACTION_BIDS[a - BID_ACTION] for a in self._bid_actions]
        return self._bids

    def _legal_bid_actions(self, seat: int) -> tuple[int, ...]:
        """The actions of the bids open to the seat to bid, ascending (cached with the bids)."""
        self._bid_options(seat)
        return self._bid_actions

    def _work_out_bids(self, seat: int) -> tuple[int, ...]:
        """The actions of the bids open to the seat to bid, ascending (asked of ``spades.bidding``)."""
        t = self._table
        partner = self.bids[(seat + 2) % 4] if t.partners else None
        spades = (self.hands[seat] & t.suit_masks[SPADE]).bit_count() if t.bids_need_spades else -1
        return t.bidding.actions(partner, self.looked[seat], spades, self._blind_open(seat))

    def legal_plays(self, seat: object) -> int:
        """The mask of cards the seat may play now (0 if it is not its turn to play, or not a seat)."""
        return self._legal if self._on_turn(seat) else 0

    def _set_legal(self, seat: int) -> None:
        """Work out what the seat now to play may play (only it has cards to play: one mask does)."""
        trick = [c for _, c in self.trick]
        self._legal = legal_play_mask(self.rules, self.hands[seat], trick, self.broken, not self.tricks,
                                      self.opening_card)
        self._legal_actions = None

    def _is_legal_play(self, seat: object, card: object) -> bool:
        """The short path shared by ``apply`` and ``apply_action``: a legal card by the seat to play.

        False means only "not shown legal here": the full check then gives the precise error.
        """
        return (isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 54
                and bool(self._legal >> card & 1) and self._on_turn(seat))

    def _legal_cards(self) -> tuple[int, ...]:
        """The cards of the legal mask, lowest first, worked out once per position."""
        cards = self._legal_actions
        if cards is None:
            cards = self._legal_actions = _actions_of(self._legal)
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
            return [*bids, *map(move_to_action, self._look_and_misdeal(seat))]
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
            self.log.append((seat, _PLAY_MOVES[action]))
            self._play(seat, ALL_CARDS[action])
        elif self._is_legal_bid(seat, action):
            assert isinstance(action, int)
            self.log.append((seat, _BID_MOVES[action - BID_ACTION]))
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
        if not self.looked[seat]:
            moves.append(Look())
        if self.rules.misdeal_no_spades and self.can_move(seat, Misdeal()):
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
        return shown(self.rules, self.stock, self.stock_pos)

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
        partner = self.bids[(seat + 2) % 4] if self._table.partners else None
        looked = self.looked[seat]
        spades = (self.hands[seat] & self.spec.trumps).bit_count()
        why = self._table.bidding.refusal(bid, partner, looked=looked, spades=spades,
                                          blind_open=self._blind_open(seat))
        assert why is not None, "a bid the rules allow is among the legal bids"
        raise IllegalMoveError(why)

    def _verify_play(self, seat: int, card: Card) -> None:
        why = play_refusal(self.rules, self.hands[seat], Card(card), self.trick, self.broken, not self.tricks,
                           self.opening_card)
        if why is not None:
            raise IllegalMoveError(why)

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
            self.looked[seat] = True
        elif isinstance(move, Misdeal):
            self.redeals += 1
            self._start_hand()

    def _bid(self, seat: int, bid: Bid) -> None:
        self.bids[seat] = bid
        if not bid.blind:
            self.looked[seat] = True
        n = self.players
        if all(b is not None for b in self.bids):
            self.turn = None
            self._open_passing()
        else:
            self.turn = (seat + 1) % n

    def _open_passing(self) -> None:
        r = self.rules
        if r.has_partners:
            first = (self.dealer + 1) % 4
            for side in (first % 2, 1 - first % 2):
                nil_seats = [s for s in r.seats_of(side) if (b := self.bids[s]) is not None and b.is_nil(r)]
                if len(nil_seats) != 1:
                    continue
                s = nil_seats[0]
                bid = self.bids[s]
                assert bid is not None
                k = r.blind_nil_pass if bid.blind else r.nil_pass
                if k:
                    p = (s + 2) % 4
                    self.pending_passes += [(s, p, k), (p, s, k)]
        if self.pending_passes:
            self.phase = Phase.PASS
            self.turn = self.pending_passes[0][0]
        else:
            self._open_play()

    def _pass(self, seat: int, cards: int) -> None:
        giver, taker, _ = self.pending_passes.pop(0)
        self.hands[giver] &= ~cards
        self.hands[taker] |= cards
        self.passes.append((giver, taker, cards))
        if self.pending_passes:
            self.turn = self.pending_passes[0][0]
        else:
            self._open_play()

    def _draw(self, seat: int, keep_first: bool) -> None:
        keep, drop = kept_and_discarded(self.stock, self.stock_pos, keep_first)
        self.hands[seat] |= 1 << keep
        self.discards[seat] |= 1 << drop
        self.set_aside |= 1 << drop
        self.stock_pos += 2
        if self.stock_pos >= len(self.stock):
            self._open_bidding()
        else:
            self.turn = 1 - seat

    def _play(self, seat: int, card: Card) -> None:
        """Play a legal card: the trick's best card so far is kept as it goes, and the next legal mask."""
        table = self._table
        suit = table.suit_of[card]
        hands = self.hands
        hands[seat] &= ~(1 << card)
        trick = self.trick
        if trick:
            if suit != self._led:
                self.voids[seat] |= 1 << self._led
            if self._strength[card] > self._top:
                self._top, self._top_seat = self._strength[card], seat
        else:
            self._led = suit
            self._strength = table.strength[suit]
            self._top, self._top_seat = self._strength[card], seat
        trick.append((seat, card))
        if suit == SPADE:
            self.broken = True
        n = len(hands)
        if len(trick) < n:
            nxt = self.turn = (seat + 1) % n
            if self.tricks and not table.must_beat:  # the common case, worked out here
                hand = hands[nxt]
                self._legal = hand & table.suit_masks[self._led] or hand
                self._legal_actions = None
            else:
                self._set_legal(nxt)
            return
        winner = self._top_seat
        self.tricks.append(Trick(trick[0][0], tuple(trick), winner))
        self.tricks_won[winner] += 1
        self.trick = []
        if len(self.tricks) < table.hand_size:
            self.leader = self.turn = winner
            self._set_legal(winner)
            return
        self._legal, self._legal_actions = 0, None
        self._finish_hand()

    def _finish_hand(self) -> None:
        r = self.rules
        no_bids = r.first_hand_no_bids and self.hand_number == 0
        score = score_hand(r, self.bids, self.tricks_won, self.bags, no_bids=no_bids)
        for side, s in enumerate(score.sides):
            self.scores[side] += s.points
            self.bags[side] = s.bags_after
        self.history.append(HandResult(
            number=self.hand_number, dealer=self.dealer, dealt=self.dealt,
            bids=tuple(self.bids), tricks_won=tuple(self.tricks_won), tricks=tuple(self.tricks),
            score=score, scores_after=tuple(self.scores), set_aside=self.set_aside,
            passes=tuple(self.passes),
        ))
        self.turn = None
        self.winner = game_winner(r, self.scores)
        self.phase = Phase.GAME_OVER if self.winner is not None else Phase.HAND_OVER

    def next_hand(self) -> None:
        """Deal the next hand, the deal passing to the left."""
        if self.phase is not Phase.HAND_OVER:
            raise WrongPhaseError("The next hand is dealt only once a hand is over.")
        if not self._deck_left():
            raise SpadesError(_NO_DECK)
        self.log.append(None)
        self.hand_number += 1
        self.redeals = 0
        self.dealer = (self.dealer + 1) % self.players
        self._start_hand()

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: object) -> SeatView:
        """Exactly what ``seat`` can see now."""
        if not self._is_seat(seat):
            raise self._no_seat(seat)
        looked = self.looked[seat] or self.phase not in (Phase.BID,)
        hand = self.hands[seat] if looked else 0
        return SeatView(
            rules=self.rules, seat=seat, phase=self.phase, hand_number=self.hand_number,
            dealer=self.dealer, turn=self.turn, hand=hand, looked=looked,
            bids=tuple(self.bids), tricks_won=tuple(self.tricks_won), trick=tuple(self.trick),
            tricks=tuple(self.tricks), broken=self.broken, voids=tuple(self.voids),
            scores=tuple(self.scores), bags=tuple(self.bags),
            passed=_mask_sum(c for g, _, c in self.passes if g == seat),
            received=_mask_sum(c for _, t, c in self.passes if t == seat),
            offered=self.offered(seat), discarded=self.discards[seat],
            stock_left=len(self.stock) - self.stock_pos if self.phase is Phase.DRAW else 0,
            pass_count=self.pass_count(seat), legal_bids=tuple(self.legal_bids(seat)),
            legal_plays=self.legal_plays(seat), can_look=self.can_move(seat, Look()),
            can_misdeal=self.can_move(seat, Misdeal()), opening_card=self.opening_card,
            history=tuple(self.history), winner=self.winner,
        )

    def copy(self) -> Game:
        """An independent copy (cheap: masks and small lists)."""
        return Game(self.rules, _copy_of=self)

    def _take_state(self, o: Game) -> None:
        """Become a copy of ``o``: its lists copied, its immutable values (and never-changed lists) shared."""
        self.rules, self.spec, self._table = o.rules, o.spec, o._table
        self.deal_number, self.decks = o.deal_number, o.decks
        self.first_dealer, self.dealer, self.hand_number, self.redeals = (
            o.first_dealer, o.dealer, o.hand_number, o.redeals)
        self.deck_draws, self.winner, self.phase, self.turn = o.deck_draws, o.winner, o.phase, o.turn
        self.scores, self.bags, self.history = list(o.scores), list(o.bags), list(o.history)
        self.log, self.hands, self.bids = list(o.log), list(o.hands), list(o.bids)
        self.tricks_won, self.trick, self.tricks = list(o.tricks_won), list(o.trick), list(o.tricks)
        self.voids, self.looked = list(o.voids), list(o.looked)
        self.passes, self.pending_passes = list(o.passes), list(o.pending_passes)
        self.discards, self.set_aside, self.dealt = list(o.discards), o.set_aside, o.dealt
        self.stock, self.stock_pos = o.stock, o.stock_pos
        self.leader, self.broken, self.opening_card = o.leader, o.broken, o.opening_card
        self._legal, self._legal_actions = o._legal, o._legal_actions
        self._strength, self._led, self._top, self._top_seat = o._strength, o._led, o._top, o._top_seat
        self._bids_at, self._bids, self._bid_actions = o._bids_at, o._bids, o._bid_actions


_NO_DECK = "The game's explicit decks have run out: there is no deck for another deal."

_PLAY_MOVES = tuple(play_move(c) for c in range(54))
"""Each card's Play move (the shared values ``play_move`` gives), by card number."""
_BID_MOVES = tuple(action_to_move(BID_ACTION + i) for i in range(len(ACTION_BIDS)))
"""Each bid action's (shared) MakeBid move, from ``BID_ACTION`` on."""

_MOVE_PHASE: dict[type, Phase] = {
    MakeBid: Phase.BID, Play: Phase.PLAY, PassCards: Phase.PASS, Draw: Phase.DRAW,
}

_PHASE_VERB = {
    Phase.DRAW: "draw", Phase.BID: "bid", Phase.PASS: "pass cards", Phase.PLAY: "play a card",
    Phase.HAND_OVER: "deal the next hand", Phase.GAME_OVER: "start a new game",
}


_CHUNK = 13
"""Card masks are read in 13-bit chunks (a suit each, in the standard numbering)."""


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


_CHUNKS = _chunk_tables()


def _actions_of(mask: int) -> tuple[int, ...]:
    """The card numbers of a mask, lowest first: the play actions of a legal mask."""
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

