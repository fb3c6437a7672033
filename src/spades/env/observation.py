"""The observation vector of the RL environments: what one seat sees, as float32 numbers.

Both environments (the AEC one, a seat at a time, and the batched one, many rows at once) fill a
features array (``COLUMNS`` whole numbers a row) and turn it into numbers through `encode`, the
one statement of the layout. The card blocks come first, 54 numbers a card mask (1 where that card
number is in it).

Seats are relative to the observer: place 0 is the seat itself, place 1 the seat to its left (the
next to play), and so on; sides likewise, its own first. A table of fewer than four seats leaves
the places it lacks at 0.

>>> [(b.name, b.start, b.size) for b in LAYOUT][:3]
[('hand', 0, 54), ('played', 54, 216), ('trick', 270, 54)]
>>> SIZE
743
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spades.game import Phase, SeatView
from spades.moves import BID_ACTION, bid_action
from spades.rules import BidFormat, DeckKind, NilRule, Rules

__all__ = ["CARDS", "COLUMNS", "LAYOUT", "MARKS", "MARK_AT", "NO_MARK", "PHASES", "RULE_FLAGS",
           "SIZE", "SUIT_BITS", "VALUES", "Block", "encode", "features_of_view", "mark", "rule_flags",
           "side_order", "value_column"]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

PLACES = 4
"""Seat places in every per-seat block, whatever the table's size."""
BID_SLOTS = 21
"""Per seat: 0 has not bid; ``1 + a - 54`` for a bid of action ``a`` (n tricks at 1 + n, blind nil at
19, 10 for 200 at 20)."""
PHASES = (Phase.DRAW, Phase.BID, Phase.PASS, Phase.PLAY)
"""The phases of the one-hot ``phase`` block, in order (none is set once the hand is over)."""

RULE_FLAGS: tuple[tuple[str, Callable[[Rules], int]], ...] = (
    ("two players", lambda r: r.players == 2),
    ("three players", lambda r: r.players == 3),
    ("four players", lambda r: r.players == 4),
    ("partnerships", lambda r: r.has_partners),
    ("nil is a bet", lambda r: r.nil is NilRule.NIL),
    ("blind nil", lambda r: r.blind_nil),
    ("nil pass (cards)", lambda r: r.nil_pass),
    ("jokers in the deck", lambda r: r.deck is not DeckKind.STANDARD),
    ("must beat the trick", lambda r: r.must_beat),
    ("spades led any time", lambda r: r.spades_led_any_time),
    ("Whiz bidding", lambda r: r.bid_format is BidFormat.WHIZ),
    ("Mirror bidding", lambda r: r.bid_format is BidFormat.MIRROR),
    ("Suicide bidding", lambda r: r.bid_format is BidFormat.SUICIDE),
    ("board: least team bid", lambda r: r.min_team_bid),
    ("10 for 200", lambda r: r.ten_for_two_hundred),
    ("target score", lambda r: r.target),
)
"""The ``rules`` block: each option that changes what a seat should do, as a number (1/0 for yes/no)."""


@dataclass(frozen=True)
class Block:
    """A named run of the vector: where it starts, how long it is, and what it holds."""

    name: str
    start: int
    size: int
    what: str



_BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("hand", 54, "the seat's own cards (none while a blind nil candidate has not looked)"),
    ("played", 4 * 54, "per seat place, the cards it has played this hand, the trick on the table too"),
    ("trick", 54, "the cards on the table in the current trick"),
    ("passed", 54, "the cards this seat passed this hand"),
    ("received", 54, "the cards this seat received in a pass this hand"),
    ("offered", 54, "two players: the card(s) shown to this seat in the draw"),
    ("discarded", 54, "two players: the cards this seat discarded in the draw"),
    ("chosen", 54, "the cards picked so far for the pass being made (the AEC environment only)"),
    ("bids", PLACES * BID_SLOTS, "per seat place, one-hot: not bid yet, bid 0-17, blind nil, 10 for 200"),
    ("leader", PLACES, "one-hot: the seat place that led the current trick (none before its first card)"),
    ("to_move", PLACES, "one-hot: the seat place to move"),
    ("dealer", PLACES, "one-hot: the seat place of the dealer"),
    ("phase", len(PHASES), "one-hot: draw, bid, pass, play"),
    ("voids", PLACES * 4, "per seat place, the suits (clubs, diamonds, hearts, spades) it has shown out of"),
    ("tricks_won", PLACES, "per seat place, the tricks it has won this hand"),
    ("scores", PLACES, "per side, its own first, then in the order of the seats to the left: the score"),
    ("bags", PLACES, "per side, in the order of scores: the bags held"),
    ("state", 5, "spades broken (1/0), has looked (1/0), cards to pass now, cards left in the stock, "
                 "the hand's number from 0"),
    ("rules", len(RULE_FLAGS), "the rule flags, in the order of RULE_FLAGS"),
)


def _layout() -> tuple[tuple[Block, ...], int]:
    blocks, start = [], 0
    for name, size, what in _BLOCKS:
        blocks.append(Block(name, start, size, what))
        start += size
    return tuple(blocks), start


LAYOUT, SIZE = _layout()
"""The blocks in order, and the vector's length."""
_AT = {b.name: b.start for b in LAYOUT}

CARDS, MARKS, VALUES = slice(0, 11), slice(11, 19), slice(19, 19 + SIZE - _AT["voids"])
COLUMNS = VALUES.stop
"""The columns of the features that `encode` reads, a row an observation: ``CARDS``, 11 card masks
(hand, played by place 0-3, trick, passed, received, offered, discarded, chosen); ``MARKS``, the
vector's positions of the one-hot marks, as `mark` gives them (each place's bid; the places of the
leader, the seat to move and the dealer; the phase); ``VALUES``, the rest of the vector as it is,
from ``voids`` to ``rules``."""
MARK_AT = tuple([_AT["bids"] + BID_SLOTS * p for p in range(PLACES)]
                + [_AT["leader"], _AT["to_move"], _AT["dealer"], _AT["phase"]])
"""Where each mark's one-hot block starts: a place's bid is marked at 0 before it bids, else at
1 + the bid's action - 54; the others at the place or the phase's index in ``PHASES``."""
NO_MARK = SIZE
"""The position of a mark that marks nothing (a place with no seat, no trick led, the hand over)."""


def mark(k: int, value: int) -> int:
    """The vector's position of mark ``k`` (of ``MARK_AT``) with this value; -1: none."""
    return MARK_AT[k] + value if value >= 0 else NO_MARK


SUIT_BITS = tuple((m & 1, m >> 1 & 1, m >> 2 & 1, m >> 3 & 1) for m in range(16))
"""Each 4-bit mask of suits as the four numbers of its place in ``voids``."""


def value_column(block: str) -> int:
    """The features' column where a block of ``VALUES`` starts (``voids`` and those after it)."""
    return VALUES.start + _AT[block] - _AT["voids"]


def rule_flags(rules: Rules) -> tuple[int, ...]:
    """The ``rules`` block for a rule set."""
    return tuple(int(f(rules)) for _, f in RULE_FLAGS)


_ROWS: dict[int, Ints] = {}


def _row_index(rows: int) -> Ints:
    """``rows`` row numbers as a column, to index each row's marks (kept per size)."""
    found = _ROWS.get(rows)
    if found is None:
        found = _ROWS[rows] = np.arange(rows)[:, None]
    return found


def encode(features: Ints) -> Floats:
    """The (rows, SIZE) float32 observations of (rows, COLUMNS) features."""
    rows = features.shape[0]
    features = np.ascontiguousarray(features, dtype="<i8")
    out = np.zeros((rows, SIZE + 1), dtype=np.float32)
    cards = features.view(np.uint8).reshape(rows, COLUMNS, 8)[:, CARDS]
    np.copyto(out[:, :11 * 54].reshape(rows, 11, 54),
              np.unpackbits(cards, axis=2, bitorder="little", count=54), casting="unsafe")
    out[_row_index(rows), features[:, MARKS]] = 1.0
    out[:, _AT["voids"]:SIZE] = features[:, VALUES]
    return out[:, :SIZE]


_SIDES: dict[tuple[int, bool, int], tuple[int, ...]] = {}


def side_order(rules: Rules, seat: int) -> tuple[int, ...]:
    """The sides as the observer's blocks list them: its own, then by the seats to its left."""
    key = (rules.players, rules.has_partners, seat)
    found = _SIDES.get(key)
    if found is None:
        out: list[int] = []
        for k in range(rules.players):
            side = rules.side_of((seat + k) % rules.players)
            if side not in out:
                out.append(side)
        found = _SIDES[key] = tuple(out)
    return found


def features_of_view(view: SeatView, flags: tuple[int, ...], chosen: int = 0) -> Ints:
    """The (1, COLUMNS) features of one seat's view, with its rules' `rule_flags` (``chosen``: the
    cards picked so far for a pass)."""
    n, seat = view.players, view.seat
    played = [0] * PLACES
    for done in view.tricks:
        for s, c in done.cards:
            played[(s - seat) % n] |= 1 << c
    trick = 0
    for s, c in view.trick:
        played[(s - seat) % n] |= 1 << c
        trick |= 1 << c
    offered = 0
    for c in view.offered:
        offered |= 1 << c
    bids: list[int] = []
    voids: list[int] = []
    tricks_won: list[int] = []
    for p in range(n):
        s = (seat + p) % n
        bid = view.bids[s]
        bids.append(mark(p, 0 if bid is None else 1 + bid_action(bid) - BID_ACTION))
        voids += SUIT_BITS[view.voids[s]]
        tricks_won.append(view.tricks_won[s])
    empty = PLACES - n
    sides = side_order(view.rules, seat)
    pad = [0] * (PLACES - len(sides))
    leader = mark(4, (view.trick[0][0] - seat) % n) if view.trick else NO_MARK
    turn = NO_MARK if view.turn is None else mark(5, (view.turn - seat) % n)
    phase = mark(7, PHASES.index(view.phase)) if view.phase in PHASES else NO_MARK
    return np.array([[
        view.hand, *played, trick, view.passed, view.received, offered, view.discarded, chosen,
        *bids, *[NO_MARK] * empty, leader, turn, mark(6, (view.dealer - seat) % n), phase,
        *voids, *[0] * (4 * empty), *tricks_won, *[0] * empty,
        *(view.scores[s] for s in sides), *pad, *(view.bags[s] for s in sides), *pad,
        int(view.broken), int(view.looked), view.pass_count, view.stock_left, view.hand_number, *flags,
    ]], dtype="<i8")
