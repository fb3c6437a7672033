"""What a seat can work out from its view: contracts, hand sizes, top cards, hand strength.

Everything here reads a ``SeatView`` (or only a hand and the rules), never a ``Game``, so the
bots built on it know exactly what a person in the seat would know.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.game import SeatView, card_numbers
from spades.rules import DeckSpec, FailedNilTricks, Rules
from spades.scoring import Bid

__all__ = ["Knowledge", "bag_cost", "estimate_tricks", "is_nil", "nil_danger", "side_state"]

SPADE = 3


def is_nil(rules: Rules, bid: Bid | None) -> bool:
    """Whether a bid is a nil (or blind nil) bet under these rules."""
    return bid is not None and bid.is_nil(rules)


def bag_cost(rules: Rules, hand_alone: bool = False) -> float:
    """What a bag is worth to the side that takes it (negative: a cost): in a game, its points now less
    its share of the penalty to come; in a hand scored on its own (``hand_alone``), its points."""
    return rules.bag_value - (0 if hand_alone else rules.bag_penalty / rules.bag_limit)


def side_state(rules: Rules, bids: tuple[Bid | None, ...], tricks_won: tuple[int, ...],
               side: int) -> tuple[int, int]:
    """A side's (contract, tricks counted toward it) so far; a contract of -1 means no bids."""
    contract = counted = 0
    for s in rules.seats_of(side):
        bid = bids[s]
        if bid is None:
            return -1, sum(tricks_won[t] for t in rules.seats_of(side))
        if is_nil(rules, bid):
            if rules.failed_nil_tricks is FailedNilTricks.CONTRACT:
                counted += tricks_won[s]
            continue
        contract = 10 if bid.ten_for_two_hundred else contract + bid.tricks
        counted += tricks_won[s]
    return contract, counted


def _ranks_held(spec: DeckSpec, cards: int) -> int:
    """A mask of the places from the top of their suit the cards hold (bit 0: the suit's top card)."""
    held = 0
    for c in card_numbers(cards):
        held |= 1 << spec.from_top[c]
    return held


def estimate_tricks(rules: Rules, hand: int) -> float:
    """Sure tricks in a hand, counted as the strategy tips count them (tips 1 and 2).

    Side suits: an ace is a trick, ace-king two, a guarded king half; long suits count less.
    Spades: the top trump is sure, the next nearly so when guarded, one more per spade past
    an average holding, and half a trick per short side suit there are spare spades to ruff.
    """
    spec = rules.deck_spec
    total = 0.0
    short = 0
    for suit in (0, 1, 2):
        cards = hand & spec.suit_masks[suit]
        length = cards.bit_count()
        if length == 0:
            short += 2
            continue
        if length == 1:
            short += 1
        held = _ranks_held(spec, cards)
        ace, king = held & 1 == 1, held & 2 == 2
        if ace:
            total += 1.0 if length <= 6 else 0.5
        if king:
            if ace:
                total += 1.0 if length <= 5 else 0.4
            elif 2 <= length <= 3:
                total += 0.5
        if rules.players < 4 and held & 4 and length >= 3 and (ace or king):
            total += 0.5
    trumps = hand & spec.trumps
    count = trumps.bit_count()
    held = _ranks_held(spec, trumps)
    honours = 0
    for i, value in ((0, 1.0), (1, 0.9), (2, 0.5)):
        if held >> i & 1 and count - 1 >= i:
            total += value
            honours += 1
    average = spec.trumps.bit_count() * rules.hand_size // spec.cards.bit_count()
    total += max(0, count - max(average, honours))
    spare = max(0, min(count, 3) - honours)
    total += 0.25 * min(short, 2 * spare)
    return total


SURE_TRICK = 3.0
"""The danger of the top trump, which wins whatever trick it is played to: above every nil limit."""


def nil_danger(rules: Rules, hand: int, passing: int = 0) -> float:
    """How likely a hand is to take a trick if it bids nil (0 is a safe nil hand; tip 4).

    High cards in short suits and any spade above about the 9 are the danger, the top trump a
    trick for certain; low cards (2s to 5s) make a suit safe. ``passing`` cards can be given away,
    the worst ones first.
    """
    spec = rules.deck_spec
    dangers: list[float] = []
    for suit in (0, 1, 2):
        cards = hand & spec.suit_masks[suit]
        length = cards.bit_count()
        lows = sum(1 for c in card_numbers(cards) if spec.power[c] <= 5)
        for c in card_numbers(cards):
            rank = spec.from_top[c]
            if rank == 0:
                dangers.append(1.0 if length < 5 else 0.6)
            elif rank == 1:
                dangers.append(0.8 if length < 4 else 0.4)
            elif rank == 2:
                dangers.append(0.5 if length < 3 else 0.2)
            elif rank == 3 and length <= 2:
                dangers.append(0.2)
        if length >= 4 and lows == 0:
            dangers.append(0.4)
    trumps = hand & spec.trumps
    count = trumps.bit_count()
    for c in card_numbers(trumps):
        rank = spec.from_top[c]
        dangers.append(SURE_TRICK if rank == 0 else 1.0 if rank < 5 else 0.5 if rank < 8 else 0.1)
    if count > 3:
        dangers.append(0.8 * (count - 3))
    dangers.sort(reverse=True)
    return sum(dangers[passing:])


@dataclass(frozen=True)
class Knowledge:
    """The facts a seat works from during the play, derived once from its view."""

    view: SeatView
    spec: DeckSpec
    partner: int | None
    unseen: int
    tricks_left: int
    contract: int
    """Our side's contract (-1 on a hand without bids)."""
    counted: int
    opp_needs: tuple[int, ...]
    """Tricks each other side still needs (0 when made; -1 on a hand without bids)."""

    def __init__(self, view: SeatView, spec: DeckSpec, partner: int | None, unseen: int, tricks_left: int,
                 contract: int, counted: int, opp_needs: tuple[int, ...]) -> None:
        """The generated ``__init__``, written out to be compiled (see ``spades.play.Trick``): every
        decision in the play makes one."""
        object.__setattr__(self, "view", view)
        object.__setattr__(self, "spec", spec)
        object.__setattr__(self, "partner", partner)
        object.__setattr__(self, "unseen", unseen)
        object.__setattr__(self, "tricks_left", tricks_left)
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "counted", counted)
        object.__setattr__(self, "opp_needs", opp_needs)

    @classmethod
    def of(cls, view: SeatView) -> Knowledge:
        """Work the facts out from a view."""
        r = view.rules
        side = r.side_of(view.seat)
        contract, counted = side_state(r, view.bids, view.tricks_won, side)
        needs = []
        for other in range(r.sides):
            if other == side:
                continue
            c, got = side_state(r, view.bids, view.tricks_won, other)
            needs.append(-1 if c < 0 else max(0, c - got))
        return cls(view, r.deck_spec, r.partner(view.seat), view.unseen,
                   r.hand_size - len(view.tricks), contract, counted, tuple(needs))

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.view.rules

    @property
    def need(self) -> int:
        """Tricks our side still needs for its contract (0 once made)."""
        return max(0, self.contract - self.counted) if self.contract >= 0 else self.tricks_left

    def nil_seat(self, seat: int | None) -> bool:
        """Whether a seat bid nil and has not yet taken a trick."""
        return seat is not None and is_nil(self.rules, self.view.bids[seat]) and (
            self.view.tricks_won[seat] == 0)

    def opponents(self) -> list[int]:
        """The seats playing against us."""
        r = self.rules
        mine = r.side_of(self.view.seat)
        return [s for s in range(r.players) if r.side_of(s) != mine]

    def is_boss(self, card: int) -> bool:
        """Whether no unseen card of the card's suit can beat it."""
        spec = self.spec
        suit = spec.suit_of[card]
        power = spec.power[card]
        return all(spec.power[c] < power for c in card_numbers(self.unseen & spec.suit_masks[suit]))

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds now."""
        played = sum(1 for t in self.view.tricks for s, _ in t.cards if s == seat)
        played += sum(1 for s, _ in self.view.trick if s == seat)
        return self.rules.hand_size - played
