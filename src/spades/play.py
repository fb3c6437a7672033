"""Playing a card: which cards may be played now, why another may not, and who wins the trick.

These are the rules of the play, as functions of what is on the table, and ``Playing``, the play
of one hand as it stands (the trick on the table, the tricks done, spades broken...), which
``Game`` keeps and moves on (its hot path keeps the running winner by the same
``DeckSpec.strength``).

>>> from spades.cards import parse_mask, Card
>>> from spades.rules import Rules
>>> r = Rules()
>>> hand = parse_mask("AS 2H 3H")
>>> why = play_refusals(r, hand, parse_mask("AS 2H"), [(0, Card.parse("KH"))], broken=False,
...                     first_trick=False, opening_card=None)
>>> {str(card): reason for card, reason in why.items()}
{'AS': 'You must follow suit: you hold a heart.'}
>>> trick_winner(r.deck_spec, [(0, Card.parse("KH")), (1, Card.parse("2S")), (2, Card.parse("AH"))])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.cards import Card, Suit, cards_of
from spades.rules import ClubsFirstTrick, DeckSpec, Rules

__all__ = ["Playing", "Trick", "lead_mask", "legal_play_mask", "play_refusals", "trick_winner"]

SPADE = int(Suit.SPADES)
CLUB = int(Suit.CLUBS)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in the order played, and who won it."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int

    def __init__(self, leader: int, cards: tuple[tuple[int, Card], ...], winner: int) -> None:
        """The generated ``__init__``, written out: compiled, each ``object.__setattr__`` becomes a native
        store, several times quicker than the dataclass's interpreted one (a hand makes thirteen)."""
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "winner", winner)


class Playing:
    """The play of one hand as it stands: who leads, the trick on the table, the tricks done and
    who won them, whether spades are broken, the suits each seat has shown out of.

    With them, kept as the cards fall so that no move works them out again: the mask of cards the
    seat to play may play (exact through the play, 0 before it), and the current trick's led suit
    and best card so far.
    """

    def __init__(self, players: int, leader: int) -> None:
        self.leader = leader
        self.trick: list[tuple[int, Card]] = []
        """The cards played to the current trick, with their seats."""
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * players
        self.broken = False
        self.voids = [0] * players
        """Per seat, a 4-bit mask of the suits it has shown out of."""
        self.opening_card: Card | None = None
        """The card that must open the hand (the lowest club, under that rule), or None."""
        self.legal = 0
        """The mask of cards the seat to play may play."""
        self.legal_actions: tuple[int, ...] | None = None
        """The cards of ``legal``, lowest first (worked out when first asked for)."""
        self.strength: tuple[int, ...] = ()
        """The card strengths for the current trick's led suit (see ``DeckSpec.strength``)."""
        self.led = 0
        self.top = 0
        """The strength of the best card in the current trick so far, and below it its seat."""
        self.top_seat = 0

    def copy(self) -> Playing:
        """An independent copy: its lists copied, the finished tricks and kept answers shared."""
        c = Playing(0, self.leader)
        c.trick, c.tricks, c.tricks_won = list(self.trick), list(self.tricks), list(self.tricks_won)
        c.broken, c.voids, c.opening_card = self.broken, list(self.voids), self.opening_card
        c.legal, c.legal_actions, c.strength = self.legal, self.legal_actions, self.strength
        c.led, c.top, c.top_seat = self.led, self.top, self.top_seat
        return c


def trick_winner(spec: DeckSpec, cards: Sequence[tuple[int, int]]) -> int:
    """The seat that wins a (possibly partial) trick: its strongest card by ``DeckSpec.strength``
    (the highest spade, else the highest card of the suit led)."""
    strength = spec.strength[spec.suit_of[cards[0][1]]]
    best_seat, best = cards[0]
    top = strength[best]
    for seat, card in cards[1:]:
        if strength[card] > top:
            best_seat, top = seat, strength[card]
    return best_seat


def lead_mask(hand: int, trumps: int, spades_open: bool) -> int:
    """The cards of ``hand`` that may lead a trick (the hand's opening card aside): any once spades are
    open (broken, or led at any time), else any but a trump while the hand holds another suit."""
    return hand if spades_open else (hand & ~trumps) or hand


def legal_play_mask(
    rules: Rules,
    hand: int,
    trick: Sequence[int],
    broken: bool,
    first_trick: bool,
    opening_card: int | None,
) -> int:
    """The cards of ``hand`` that may be played now: the one rule every player obeys.

    ``trick`` holds the cards played so far to this trick, in order; ``opening_card`` is
    the card that must open the hand (the lowest club, under that rule) or None.
    """
    spec = rules.deck_spec
    trumps = spec.suit_masks[SPADE]
    if not trick:
        if first_trick and opening_card is not None and hand >> opening_card & 1:
            return 1 << opening_card
        return lead_mask(hand, trumps, broken or rules.spades_led_any_time)
    led = spec.suit_of[trick[0]]
    follow = hand & spec.suit_masks[led]
    if first_trick and rules.clubs_first_trick is not ClubsFirstTrick.OFF and led == CLUB:
        if follow:
            return follow & -follow
        if rules.clubs_first_trick is ClubsFirstTrick.STRICT:
            return (hand & ~trumps) or hand
        return hand
    allowed = follow or hand
    if rules.must_beat:
        strength = spec.strength[led]
        best = trick[0]
        for c in trick[1:]:
            if strength[c] > strength[best]:
                best = c
        winners = allowed & spec.beaten_by[best]
        if winners:
            return winners
    return allowed


def play_refusals(
    rules: Rules,
    hand: int,
    cards: int,
    trick: Sequence[tuple[int, int]],
    broken: bool,
    first_trick: bool,
    opening_card: Card | None,
) -> dict[Card, str]:
    """Why each of ``cards`` (a mask) that may not be played now may not, in plain English (``trick``
    with seats): the cards that may are worked out once for all of them, and the reason of a held card
    once for those off the led suit and once for the others (it names no card of theirs)."""
    refused = cards & ~legal_play_mask(rules, hand, [c for _, c in trick], broken, first_trick, opening_card)
    reasons: dict[Card, str] = {}
    said: dict[bool, str] = {}  # a held card's reason is one of two: off the led suit, or not
    led = rules.deck_spec.suit_masks[rules.deck_spec.suit_of[trick[0][1]]] & hand if trick else 0
    for card in cards_of(refused):
        if not hand >> card & 1:
            reasons[card] = _refusal(rules, hand, card, trick, first_trick, opening_card)
            continue
        off = bool(led) and not led >> card & 1
        if off not in said:
            said[off] = _refusal(rules, hand, card, trick, first_trick, opening_card)
        reasons[card] = said[off]
    return reasons


def _refusal(
    rules: Rules,
    hand: int,
    card: Card,
    trick: Sequence[tuple[int, int]],
    first_trick: bool,
    opening_card: Card | None,
) -> str:
    """Why ``card``, which may not be played now, may not."""
    if not hand >> card & 1:
        return f"You do not hold the {card.name}."
    spec = rules.deck_spec
    if not trick:
        if first_trick and opening_card is not None and hand >> opening_card & 1:
            return f"You must lead the {opening_card.name} to the first trick."
        if first_trick:
            return "The first lead may not be a spade."
        return "Spades have not been broken: lead another suit."
    led = spec.suit_of[trick[0][1]]
    follow = hand & spec.suit_masks[led]
    if first_trick and rules.clubs_first_trick is not ClubsFirstTrick.OFF and led == CLUB:
        if follow:
            low = Card((follow & -follow).bit_length() - 1)
            return f"On the first trick you must play your lowest club, the {low.name}."
        return "No spades on the first trick: play a heart or a diamond."
    if follow and not follow >> card & 1:
        return f"You must follow suit: you hold a {Suit(led).singular}."
    winner = trick_winner(spec, trick)
    best = Card(next(c for s, c in trick if s == winner))
    return f"You must beat the {best.name} when you can."
