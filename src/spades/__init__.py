"""Spades: a rules engine with every house rule, computer players, and the tools around them.

>>> from spades import Game, Rules, Bid, MakeBid
>>> g = Game(Rules(), deal=42)
>>> g.apply(g.turn, MakeBid(Bid(3)))
"""

from spades import pickling as pickling  # registers how compiled classes pickle (as their sources)
from spades.cards import Card, Suit
from spades.errors import (
    CardError,
    IllegalMoveError,
    OutOfTurnError,
    RecordError,
    RulesError,
    SpadesError,
    WrongPhaseError,
)
from spades.game import Game, HandResult, Phase, SeatView, Trick
from spades.moves import Draw, Look, MakeBid, Misdeal, Move, PassCards, Play, parse_move
from spades.rules import Rules, find_preset
from spades.scoring import Bid, score_hand

__all__ = [
    "Bid", "Card", "CardError", "Draw", "Game", "HandResult", "IllegalMoveError", "Look",
    "MakeBid", "Misdeal", "Move", "OutOfTurnError", "PassCards", "Phase", "Play", "RecordError",
    "Rules", "RulesError", "SeatView", "SpadesError", "Suit", "Trick", "WrongPhaseError",
    "find_preset", "parse_move", "score_hand",
]
__version__ = "0.1.0"
