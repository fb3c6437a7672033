"""The fast path for simulation: many deals of one rule set played at once as numpy arrays.

``spades bench`` measures how many random hands a second the engine's rules allow at scale (the
search player has playouts of its own). Here every hand of a batch sits in a row of
arrays (card masks as ``uint64``), and one vectorised step plays the next card in every row,
so the Python overhead is paid once per card position, not once per card. The rules are read
from the engine's statement of them: a trick goes to its strongest card by ``DeckSpec.strength``
(as `trick_winner`), a side's score is `score_hand`'s (kept in a table as each new case comes up),
the random bids are `BidRules`'; the legal cards are `legal_play_mask` in whole-array steps.
``tests/test_fast.py`` plays random deals under random rule sets through both and checks every
legal set, trick winner and score agrees.

>>> import numpy as np
>>> from spades.rules import Rules
>>> rng = np.random.default_rng(1)
>>> rules = Rules()
>>> hands = random_hands(rules, 1000, rng)
>>> state = PlayState.start(rules, hands, leader=np.zeros(1000, dtype=np.int64))
>>> won = state.play_out(rng)
>>> bool((won.sum(axis=1) == 13).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spades.bidding import BidRules
from spades.cards import cards_of
from spades.errors import RulesError
from spades.game import Game, Phase
from spades.rules import BidFormat, ClubsFirstTrick, Rules
from spades.scoring import Bid, score_hand

__all__ = ["PlayState", "random_bids", "random_hands", "score_batch"]

U64 = np.uint64
Masks = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_M1, _M2, _M4 = U64(0x5555555555555555), U64(0x3333333333333333), U64(0x0F0F0F0F0F0F0F0F)
_H01 = U64(0x0101010101010101)


def popcount(m: Masks) -> Ints:
    """Cards in each mask (SWAR bit count, so it runs on any numpy)."""
    m = m - ((m >> U64(1)) & _M1)
    m = (m & _M2) + ((m >> U64(2)) & _M2)
    m = (m + (m >> U64(4))) & _M4
    return ((m * _H01) >> U64(56)).astype(np.int64)


def lowest_card(m: Masks) -> Ints:
    """The lowest card number in each (non-empty) mask; -1 for an empty one."""
    low = m & (~m + U64(1))
    out = np.log2(low.astype(np.float64), where=low != 0, out=np.full(m.shape, -1.0))
    return out.astype(np.int64)


def _nonzero_or(a: Masks, b: Masks) -> Masks:
    """``a`` where it is not 0, else ``b``, element by element."""
    return np.where(a != 0, a, b)


class _Tables:
    """Per-card lookup arrays for one rule set's deck."""

    def __init__(self, rules: Rules) -> None:
        spec = rules.deck_spec
        self.trumps = U64(spec.trumps)
        self.suit_masks = np.array(spec.suit_masks, dtype=U64)
        suit_of = np.zeros(54, dtype=np.int64)
        suit_mask_of = np.zeros(54, dtype=U64)
        for c in range(54):
            s = spec.suit_of[c]
            suit_of[c] = s
            suit_mask_of[c] = spec.suit_masks[s]
        self.suit_of = suit_of
        self.suit_mask_of = suit_mask_of
        self.beats = np.array(spec.beaten_by, dtype=U64)
        """``beats[c]``: the cards that beat ``c`` once it leads or wins a trick (``DeckSpec.beaten_by``)."""
        self.strength = np.array([[-1, *row] for row in spec.strength], dtype=np.int64).ravel()
        """``DeckSpec.strength`` in one row, each led suit's 54 after a -1 for "no card yet"."""
        self.led_at = np.array([55 * s + 1 for s in spec.suit_of], dtype=np.int64)
        """``strength[led_at[lead] + c]``: card ``c``'s strength in a trick led by ``lead`` (-1: no card)."""
        self.deck = np.array(list(cards_of(spec.cards)), dtype=np.int64)
        self.scores = _Scores(rules)


_TABLES: dict[Rules, _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    """The rules' lookup tables, built once per rules value and kept."""
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = _Tables(rules)
    return t


def random_hands(rules: Rules, count: int, rng: np.random.Generator) -> Masks:
    """``count`` uniformly random deals as a (count, players) array of hand masks.

    Three players get 17 cards (one card left out), two players 13 each of a random 26.
    """
    t = _tables(rules)
    order = t.deck[np.argsort(rng.random((count, t.deck.size)), axis=1)]
    bits = np.left_shift(U64(1), order.astype(U64))
    per = rules.hand_size
    cols = [np.bitwise_or.reduce(bits[:, s * per:(s + 1) * per], axis=1) for s in range(rules.players)]
    return np.stack(cols, axis=1)


def random_bids(rules: Rules, hands: Masks, rng: np.random.Generator) -> Ints:
    """A uniformly random legal bid for every seat, of those `BidRules` offers a seat that has looked
    (0 is nil, or a plain 0 where that is the rule).

    Only where a seat's bids depend on neither its partner's bid nor its cards (the standard bid
    format without board or 10 for 200): other formats raise RulesError.
    """
    if rules.bid_format is not BidFormat.STANDARD or rules.min_team_bid or rules.ten_for_two_hundred:
        raise RulesError("Random batch bids cover the standard bid format without board or 10 for 200.")
    offered = BidRules.of(rules).bids(None, looked=True, spades=None)
    return rng.choice(np.array([b.tricks for b in offered], dtype=np.int64), size=hands.shape)


@dataclass
class PlayState:
    """The play of a batch of hands under one rule set, all rows at the same card position.

    ``hands`` is (rows, players) card masks; ``trick`` holds the cards of the current trick
    (-1 where not yet played); ``position`` is how many cards the trick holds.
    """

    rules: Rules
    hands: Masks
    leader: Ints
    broken: Bools
    tricks_won: Ints
    trick: Ints
    position: int
    tricks_done: int
    opening_card: int | None

    @classmethod
    def start(cls, rules: Rules, hands: Masks, leader: Ints, opening_card: int | None = None) -> PlayState:
        """A batch at the first lead of the hand (``opening_card``: the club that must lead, if any)."""
        rows, players = hands.shape
        return cls(rules, hands.astype(U64, copy=True), np.asarray(leader, dtype=np.int64).copy(),
                   np.zeros(rows, dtype=np.bool_), np.zeros((rows, players), dtype=np.int64),
                   np.full((rows, players), -1, dtype=np.int64), 0, 0, opening_card)

    @classmethod
    def from_game(cls, game: Game, hands: Masks | None = None, rows: int = 1) -> PlayState:
        """``rows`` copies of a game in its play phase; ``hands`` (rows, players) replaces the hands.

        A bot passes hands sampled to agree with what its seat has seen.
        """
        if game.phase is not Phase.PLAY:
            raise RulesError("A batch starts from a game in its play phase.")
        n = game.players
        if hands is None:
            hands = np.tile(np.array(game.hands, dtype=U64), (rows, 1))
        rows = hands.shape[0]
        trick = np.full((rows, n), -1, dtype=np.int64)
        for i, (_, c) in enumerate(game.trick):
            trick[:, i] = c
        leader = game.trick[0][0] if game.trick else game.turn
        assert leader is not None
        return cls(game.rules, hands.astype(U64, copy=True), np.full(rows, leader, dtype=np.int64),
                   np.full(rows, game.broken, dtype=np.bool_),
                   np.tile(np.array(game.tricks_won, dtype=np.int64), (rows, 1)), trick,
                   len(game.trick), len(game.tricks), game.opening_card)

    def copy(self) -> PlayState:
        """An independent copy (the arrays are copied)."""
        return PlayState(self.rules, self.hands.copy(), self.leader.copy(), self.broken.copy(),
                         self.tricks_won.copy(), self.trick.copy(), self.position, self.tricks_done,
                         self.opening_card)

    @property
    def done(self) -> bool:
        """Whether every trick of the hand has been played."""
        return self.tricks_done == self.rules.hand_size

    @property
    def turn(self) -> Ints:
        """The seat to play in each row."""
        return (self.leader + self.position) % self.rules.players

    def legal(self) -> Masks:
        """The mask of cards the seat to play may play, per row: `legal_play_mask` vectorised."""
        r, t = self.rules, _tables(self.rules)
        rows = np.arange(self.hands.shape[0])
        hand = self.hands[rows, self.turn]
        first = self.tricks_done == 0
        if self.position == 0:
            if first and self.opening_card is not None:
                bit = U64(1 << self.opening_card)
                forced = (hand & bit) != 0
            else:
                forced = np.zeros(hand.shape, dtype=np.bool_)
            if r.spades_led_any_time:
                allowed = hand
            else:
                allowed = np.where(self.broken, hand, _nonzero_or(hand & ~t.trumps, hand))
            return np.where(forced, U64(1 << (self.opening_card or 0)), allowed)
        led = self.trick[:, 0]
        follow = hand & t.suit_mask_of[led]
        if first and r.clubs_first_trick is not ClubsFirstTrick.OFF:
            club_led = t.suit_of[led] == 0
            lowest = follow & (~follow + U64(1))
            no_club = hand & ~t.trumps if r.clubs_first_trick is ClubsFirstTrick.STRICT else hand
            club_rule = np.where(follow != 0, lowest, _nonzero_or(no_club, hand))
            allowed = np.where(club_led, club_rule, _nonzero_or(follow, hand))
            if not r.must_beat:
                return allowed
            plain = ~club_led
        else:
            allowed = _nonzero_or(follow, hand)
            plain = np.ones(hand.shape, dtype=np.bool_)
        if r.must_beat:
            best = self.trick[np.arange(self.trick.shape[0]), self._winning_place()]
            winners = allowed & t.beats[best]
            allowed = np.where(plain & (winners != 0), winners, allowed)
        return allowed

    def _winning_place(self) -> Ints:
        """Per row, the place in the trick so far of its strongest card by ``DeckSpec.strength``
        for the suit led: `trick_winner`'s rule, the first of equals as there."""
        t = _tables(self.rules)
        places: Ints = t.strength[t.led_at[self.trick[:, :1]] + self.trick].argmax(axis=1)
        return places

    def play(self, cards: Ints) -> None:
        """Play one card in every row (the caller guarantees it is legal: no checks here)."""
        t = _tables(self.rules)
        rows = np.arange(self.hands.shape[0])
        seat = self.turn
        self.hands[rows, seat] &= ~np.left_shift(U64(1), cards.astype(U64))
        self.trick[:, self.position] = cards
        self.broken |= t.suit_of[cards] == 3
        self.position += 1
        n = self.rules.players
        if self.position < n:
            return
        winner = (self.leader + self._winning_place()) % n
        self.tricks_won[rows, winner] += 1
        self.leader = winner
        self.trick.fill(-1)
        self.position = 0
        self.tricks_done += 1

    def random_cards(self, rng: np.random.Generator, legal: Masks | None = None) -> Ints:
        """A uniformly random legal card for the seat to play, per row (``legal``: `legal`'s masks,
        when the caller has them already)."""
        if legal is None:
            legal = self.legal()
        k = (rng.random(legal.shape) * popcount(legal)).astype(np.int64)
        m = legal
        for j in range(int(k.max(initial=0))):
            m = np.where(k > j, m & (m - U64(1)), m)
        return lowest_card(m)

    def play_out(self, rng: np.random.Generator) -> Ints:
        """Play every row to the end of the hand with uniformly random legal cards; tricks won."""
        while not self.done:
            self.play(self.random_cards(rng))
        return self.tricks_won


def score_batch(rules: Rules, bids: Ints, tricks: Ints, bags: Ints) -> tuple[Ints, Ints]:
    """`score_hand` for many hands at once: (points, bags after) per side.

    ``bids`` and ``tricks`` are (rows, players), ``bags`` (rows, sides); a bid of 0 is nil where
    nil is played. Blind nil and 10 for 200 are not batch bids. A row that `score_hand` refuses
    (tricks that do not add up to a hand, say) raises its SpadesError.
    """
    return _tables(rules).scores.score(np.asarray(bids), np.asarray(tricks), np.asarray(bags))


class _Scores:
    """A side's `score_hand` result, kept per case: its seats' bids and tricks, its bags before.

    A side's score depends on its own seats and bags alone, the same way for every side and
    whichever of its seats made which bid, so the first row that brings a new case is scored by
    the engine and the answer kept in a table; later rows are looked up, many at once. Rows
    outside the table (bags at the bag limit or beyond, a bid above the hand, tricks that do not
    add up) are scored by the engine each time.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.radix = (rules.max_bid + 1, rules.hand_size + 1, rules.bag_limit)
        """How many values of a seat's bid, a seat's tricks and a side's bags the table holds."""
        self.seats = np.array([rules.seats_of(s) for s in range(rules.sides)], dtype=np.int64)
        """``seats[side]``: the side's seats (every side has as many)."""
        self.digits = self.radix[0] * self.radix[1]
        """A side's case is its seats' (bid, tricks) digits, the lower first, then its bags (the
        cases of one bag count together: a hand mostly meets few of them)."""
        self.per_bag = self.digits ** self.seats.shape[1]
        self.cells = np.zeros((self.per_bag * self.radix[2], 3), dtype=np.int32)
        """``cells[case]``: the side's points, its bags after, and 1 once the engine has said (32 bits
        each, as small as the rules' bounds allow, so that more of the table stays in the cache)."""

    def _cases(self, bids: Ints, tricks: Ints, bags: Ints) -> tuple[Ints, Bools]:
        """Each (row, side)'s case in the table, and which rows it holds (the others at case 0)."""
        bid_radix, trick_radix, bag_radix = self.radix
        inside = tricks @ np.ones(tricks.shape[1], dtype=np.int64) == self.rules.hand_size
        for values, radix in ((bids, bid_radix), (tricks, trick_radix), (bags, bag_radix)):
            if values.min(initial=0) < 0 or values.max(initial=0) >= radix:
                inside &= ((values >= 0) & (values < radix)).all(axis=1)
        digit = bids * trick_radix + tricks
        first, last = digit[:, self.seats[:, 0]], digit[:, self.seats[:, -1]]
        pair = np.minimum(first, last) * self.digits + np.maximum(first, last)
        case = (pair if self.seats.shape[1] == 2 else first) + bags * self.per_bag
        return np.where(inside[:, None], case, 0), inside

    def score(self, bids: Ints, tricks: Ints, bags: Ints) -> tuple[Ints, Ints]:
        """(points, bags after) per row and side: looked up, the engine asked for what is new."""
        case, inside = self._cases(bids, tricks, bags)
        found = self.cells.take(case, axis=0)
        outside: Ints = np.zeros(0, dtype=np.int64)
        answers: Ints = np.zeros((0, self.rules.sides, 2), dtype=np.int64)
        if not (inside.all() and found[:, :, 2].all()):
            asked = np.flatnonzero(~(found[:, :, 2].all(axis=1) & inside))
            unheld, answers = self._ask(bids[asked], tricks[asked], bags[asked], case[asked], inside[asked],
                                        found[asked, :, 2])
            outside = asked[unheld]
            found = self.cells.take(case, axis=0)
        points, after = found[:, :, 0].astype(np.int64), found[:, :, 1].astype(np.int64)
        points[outside], after[outside] = answers[:, :, 0], answers[:, :, 1]
        return points, after

    def _ask(self, bids: Ints, tricks: Ints, bags: Ints, case: Ints, inside: Bools,
             known: Ints) -> tuple[list[int], Ints]:
        """Score with the engine each row whose cases are not yet known (nor brought by an earlier
        row), keeping the answers in the table; the rows outside it and their (points, bags after)."""
        filled: set[int] = set()
        cases: list[int] = []
        kept: list[list[int]] = []
        outside: list[int] = []
        answers: list[list[list[int]]] = []
        rows = zip(bids.tolist(), tricks.tolist(), bags.tolist(), case.tolist(), inside.tolist(),
                   known.tolist(), strict=True)
        for i, (b, t, g, c, held, k) in enumerate(rows):
            if held and all(was or x in filled for was, x in zip(k, c, strict=True)):
                continue
            hand = score_hand(self.rules, [Bid(x) for x in b], t, g)
            if held:
                filled.update(c)
                cases += c
                kept += [[p, a, 1] for p, a in zip(hand.points, hand.bags, strict=True)]
            else:
                outside.append(i)
                answers.append([[p, a] for p, a in zip(hand.points, hand.bags, strict=True)])
        self.cells[cases] = np.array(kept, dtype=np.int32).reshape(-1, 3)
        return outside, np.array(answers, dtype=np.int64).reshape(-1, self.rules.sides, 2)
