"""The moves a seat can make, as small frozen values whose text forms round-trip.

>>> parse_move("play 10h")
Play(Card.parse('10H'))
>>> [str(parse_move(t)) for t in ("bid blind nil", "pass AS KH", "draw keep", "look", "misdeal")]
['bid blind nil', 'pass KH AS', 'draw keep', 'look', 'misdeal']

Every move also has a stable integer action, for bots and learning code (OpenSpiel's habit).
The encoding is part of the project's promise and never changes:

* 0-53: ``Play(card)``, the card number (so a legal card list is a legal action list);
* 54-71: ``MakeBid(Bid(n))`` for n = 0-17 (``BID_ACTION + n``; 0 is nil, or a plain 0);
* 72: blind nil; 73: 10 for 200; 74: ``Look()``; 75: ``Misdeal()``;
* 76: ``Draw(True)`` (keep), 77: ``Draw(False)`` (refuse); 78-127 are kept for later moves;
* 128 and up: ``PassCards(mask)`` is ``PASS_ACTION + mask``, the whole pass as one action.

>>> [move_to_action(parse_move(t)) for t in ("play 2C", "bid 4", "bid blind nil", "look", "pass 3C")]
[0, 58, 72, 74, 130]
>>> action_to_move(58), action_to_move(130)
(MakeBid(bid=Bid(4)), PassCards(cards=2))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from spades.cards import ALL_CARDS, Card, cards_of, mask_of, parse_cards
from spades.errors import SpadesError
from spades.scoring import Bid

__all__ = [
    "ACTION_BIDS",
    "BID_ACTION",
    "BLIND_NIL_ACTION",
    "DRAW_KEEP_ACTION",
    "DRAW_REFUSE_ACTION",
    "LOOK_ACTION",
    "MISDEAL_ACTION",
    "PASS_ACTION",
    "TEN_FOR_200_ACTION",
    "Draw",
    "Look",
    "MakeBid",
    "Misdeal",
    "Move",
    "PassCards",
    "Play",
    "action_to_move",
    "bid_action",
    "move_to_action",
    "parse_move",
    "play_move",
]


@dataclass(frozen=True, slots=True)
class MakeBid:
    """Bid a number of tricks, nil, blind nil or 10 for 200."""

    bid: Bid

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Play({self.card!r})"


@dataclass(frozen=True, slots=True)
class PassCards:
    """Pass cards face down to the partner (the nil and blind nil exchange); a card mask."""

    cards: int

    @classmethod
    def of(cls, *cards: Card) -> PassCards:
        """The pass of these cards."""
        return cls(mask_of(cards))

    def __str__(self) -> str:
        return "pass " + " ".join(str(c) for c in cards_of(self.cards))


@dataclass(frozen=True, slots=True)
class Draw:
    """Two-player draw: keep the first card shown (else the second), discarding the other."""

    keep_first: bool

    def __str__(self) -> str:
        return "draw keep" if self.keep_first else "draw refuse"


@dataclass(frozen=True, slots=True)
class Look:
    """Look at your cards (giving up blind nil for this hand)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True)
class Misdeal:
    """Call a misdeal: you were dealt no spades."""

    def __str__(self) -> str:
        return "misdeal"


Move = MakeBid | Play | PassCards | Draw | Look | Misdeal


def parse_move(text: str) -> Move:
    """Read a move from its text form (``bid 4``, ``play QH``, ``pass AS KH``...)."""
    if not isinstance(text, str):
        raise SpadesError(f"A move is text such as 'play QH', not {text!r}.")
    return _parsed(text)


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Move:
    """``parse_move`` of a text, kept for the next time it is read (moves are frozen values, and the
    server reads one a request: the few texts a game uses come back again and again)."""
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word == "bid":
        return MakeBid(Bid.parse(rest))
    if word == "play":
        return Play(Card.parse(rest))
    if word == "pass":
        return PassCards(mask_of(parse_cards(rest)))
    if word == "draw" and rest.lower() in ("keep", "refuse"):
        return Draw(rest.lower() == "keep")
    if word == "look" and not rest:
        return Look()
    if word == "misdeal" and not rest:
        return Misdeal()
    raise SpadesError(f"Not a move: {text!r}. Moves are bid, play, pass, draw, look, misdeal.")


BID_ACTION: Final = 54
"""The action of ``MakeBid(Bid(n))`` is ``BID_ACTION + n`` (n = 0-17)."""
BLIND_NIL_ACTION: Final = 72
TEN_FOR_200_ACTION: Final = 73
LOOK_ACTION: Final = 74
MISDEAL_ACTION: Final = 75
DRAW_KEEP_ACTION: Final = 76
DRAW_REFUSE_ACTION: Final = 77
PASS_ACTION: Final = 128
"""The action of ``PassCards(mask)`` is ``PASS_ACTION + mask``."""

ACTION_BIDS: Final[tuple[Bid, ...]] = (*(Bid(n) for n in range(18)), Bid.blind_nil(), Bid.ten_for_200())
"""The bid of each bid action 54-73 in order, made once (the engine shares these frozen values)."""

_PLAYS = tuple(Play(c) for c in ALL_CARDS)
_FIXED: dict[int, Move] = {
    **{BID_ACTION + i: MakeBid(bid) for i, bid in enumerate(ACTION_BIDS)},
    LOOK_ACTION: Look(), MISDEAL_ACTION: Misdeal(),
    DRAW_KEEP_ACTION: Draw(True), DRAW_REFUSE_ACTION: Draw(False),
}
_FIXED_ACTION = {move: action for action, move in _FIXED.items()}


def play_move(card: int) -> Play:
    """The (shared, frozen) ``Play`` of a card number 0-53, made once at import."""
    return _PLAYS[card]


def action_to_move(action: object) -> Move:
    """The move an integer action stands for; a SpadesError if it stands for none."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise SpadesError(f"An action is a whole number, not {action!r}.")
    if 0 <= action <= 53:
        return _PLAYS[action]
    if action >= PASS_ACTION:
        return PassCards(action - PASS_ACTION)
    move = _FIXED.get(action)
    if move is None:
        raise SpadesError(f"No move has the action {action}.")
    return move


def bid_action(bid: Bid) -> int:
    """The integer action of ``MakeBid(bid)``."""
    if bid.blind:
        return BLIND_NIL_ACTION
    if bid.ten_for_two_hundred:
        return TEN_FOR_200_ACTION
    return BID_ACTION + bid.tricks


def move_to_action(move: Move) -> int:
    """The integer action of a move (the inverse of ``action_to_move``)."""
    if isinstance(move, Play):
        card = move.card
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 53:
            raise SpadesError(f"A play holds a card (0-53), not {card!r}.")
        return int(card)
    if isinstance(move, PassCards):
        if isinstance(move.cards, bool) or not isinstance(move.cards, int) or move.cards < 0:
            raise SpadesError(f"A pass holds a card mask, not {move.cards!r}.")
        return PASS_ACTION + move.cards
    if isinstance(move, MakeBid) and isinstance(move.bid, Bid):
        return bid_action(move.bid)
    try:
        return _FIXED_ACTION[move]
    except (KeyError, TypeError):
        raise SpadesError(f"Not a move: {move!r}.") from None
