"""Many hands at once for self-play: the AEC environment's hand, in lockstep rows on the numpy fast path.

Each row is one hand (the first of a new game, as the AEC environment's ``reward="hand"``): the
seats bid in turn, then play, every row at the same step. `observe` gives the seat to move's
observation in every row, the same vector as the AEC environment's (`spades.env.observation`),
`action_mask` its legal actions, `step` takes one action a row; once `done`, `rewards` holds each
seat's side's points for the hand. The play is `spades.fast.PlayState`'s, the legal bids
`BidRules`' and the scores `score_batch`'s, so no rule is stated here.

Rows dealt from seeds (`reset(seeds=...)`) are the engine's numbered deals, the AEC
environment's for the same seeds, and the same actions give the same observations, masks and
rewards (``tests/env/test_batch.py`` plays both). Rows dealt from a numpy generator
(`reset(rng=...)`) are uniformly random deals, for speed.

The rules covered are those of a hand the fast path plays and scores: three or four players, no
blind nil, no pass, no misdeal, no 10 for 200, bids on the first hand, the first lead not by the
lowest club; others raise RulesError.

>>> import numpy as np
>>> batch = BatchEnv("standard", rows=3)
>>> batch.reset(seeds=[0, 1, 2])
>>> while not batch.done:
...     batch.step(batch.random_actions(np.random.default_rng(1)))
>>> batch.rewards.shape
(3, 4)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from spades.bidding import BidRules
from spades.env.aec import ACTIONS, deal_of_seed, rules_of
from spades.env.observation import (
    CARDS,
    COLUMNS,
    MARK_AT,
    MARKS,
    NO_MARK,
    PHASES,
    PLACES,
    encode,
    rule_flags,
    side_order,
    value_column,
)
from spades.errors import IllegalMoveError, RulesError, SpadesError
from spades.fast import PlayState, popcount, random_hands, score_batch
from spades.game import Game, Phase
from spades.moves import ACTION_BIDS, BID_ACTION
from spades.rules import BidFormat, FirstLead, Rules

__all__ = ["BatchEnv"]

U64 = np.uint64
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float32]

_BID, _PLAY = PHASES.index(Phase.BID), PHASES.index(Phase.PLAY)


def _refusal(rules: Rules) -> str | None:
    """Why the batch cannot play a hand of these rules, or None."""
    if rules.players == 2:
        return "two players draw their hands"
    if rules.blind_nil or rules.nil_pass:
        return "blind nil and nil passes are not batch moves"
    if rules.misdeal_no_spades:
        return "a misdeal is not a batch move"
    if rules.ten_for_two_hundred:
        return "10 for 200 is not a batch bid"
    if rules.first_hand_no_bids:
        return "the first hand has no bids"
    if rules.first_lead is FirstLead.TWO_OF_CLUBS:
        return "the lowest club's lead is not a batch rule"
    return None


class BatchEnv:
    """``rows`` hands of one rule set, played together a step at a time (see the module)."""

    def __init__(self, rules: Rules | str | None, rows: int) -> None:
        self.rules = rules_of(rules)
        why = _refusal(self.rules)
        if why is not None:
            raise RulesError(f"The batched environment plays no hand of these rules: {why}.")
        if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
            raise SpadesError(f"A batch has a whole number of rows from 1, not {rows!r}.")
        self.rows = rows
        self._flags = np.array(rule_flags(self.rules), dtype=np.int64)
        self._bid_masks = self._bid_table()
        n = self.rules.players
        self._side = np.array([self.rules.side_of(s) for s in range(n)], dtype=np.int64)
        self._sides_seen = np.array([side_order(self.rules, s) for s in range(n)], dtype=np.int64)
        """Per seat, the sides in the order its observation lists them."""
        self._trumps = U64(self.rules.deck_spec.suit_masks[3])
        self._suit_of = np.array(self.rules.deck_spec.suit_of, dtype=np.int64)
        self._at = np.arange(rows)
        self.rewards: Ints = np.zeros((rows, n), dtype=np.int64)
        """Each seat's points for the hand (its side's), once ``done``."""
        self._scores = self._bags = np.zeros((rows, self.rules.sides), dtype=np.int64)
        """Each side's score and bags: 0 until the hand is scored."""
        self._state: PlayState | None = None
        self._legal_now: npt.NDArray[np.uint64] | None = None

    def _bid_table(self) -> Bools:
        """The legal bid actions by the partner's bid (0: none yet, else 1 + its index in the bids)
        and the seat's spades (for Whiz and Mirror; one column otherwise), from `BidRules`."""
        r = self.rules
        need_spades = r.bid_format in (BidFormat.WHIZ, BidFormat.MIRROR)
        counts = range(r.hand_size + 1) if need_spades else (-1,)
        table = np.zeros((1 + len(ACTION_BIDS), len(counts), ACTIONS), dtype=np.bool_)
        bid_rules = BidRules.of(r)
        for code, partner in enumerate((None, *ACTION_BIDS)):
            for i, spades in enumerate(counts):
                table[code, i, list(bid_rules.actions(partner, True, spades, False))] = True
        return table

    def reset(self, seeds: Sequence[int] | None = None, rng: np.random.Generator | None = None) -> None:
        """Deal every row: the engine's deals for ``seeds`` (as the AEC environment's), or random ones."""
        n = self.rules.players
        if (seeds is None) == (rng is None):
            raise SpadesError("Deal the batch from seeds or from a generator (one of the two).")
        if seeds is not None:
            if len(seeds) != self.rows:
                raise SpadesError(f"A batch of {self.rows} rows needs {self.rows} seeds, not {len(seeds)}.")
            games = [Game(self.rules, deal=deal_of_seed(s)) for s in seeds]
            self._hands = np.array([g.hands for g in games], dtype=U64)
            self._dealer = np.array([g.dealer for g in games], dtype=np.int64)
        else:
            assert rng is not None
            self._hands = random_hands(self.rules, self.rows, rng)
            self._dealer = rng.integers(0, n, size=self.rows)
        self._bids = np.zeros((self.rows, n), dtype=np.int64)
        """Each seat's bid mark: 0 not yet, else 1 + the bid's index in ``ACTION_BIDS``."""
        self._played = np.zeros((self.rows, n), dtype=U64)
        self._voids = np.zeros((self.rows, n), dtype=np.int64)
        self._state = None
        self._legal_now = None
        self._step = 0
        self.rewards = np.zeros((self.rows, n), dtype=np.int64)
        self._scores = self._bags = np.zeros((self.rows, self.rules.sides), dtype=np.int64)

    @property
    def done(self) -> bool:
        """Whether every row's hand is over."""
        return self._state is not None and self._state.done

    @property
    def turn(self) -> Ints:
        """The seat to move in each row."""
        if self._state is None:
            return (self._dealer + 1 + self._step) % self.rules.players
        return self._state.turn

    def _seat_hands(self) -> npt.NDArray[np.uint64]:
        """The cards each seat holds now, per row."""
        return self._hands if self._state is None else self._state.hands

    def action_mask(self) -> Bools:
        """(rows, ACTIONS): the actions the seat to move may take, per row."""
        if self.done:
            return np.zeros((self.rows, ACTIONS), dtype=np.bool_)
        if self._state is None:
            return self._bid_masks[self._partner_bid(), self._spades_column()]
        legal = np.ascontiguousarray(self._legal(), dtype="<u8").view(np.uint8).reshape(self.rows, 8)
        mask = np.zeros((self.rows, ACTIONS), dtype=np.bool_)
        mask[:, :54] = np.unpackbits(legal, axis=1, bitorder="little")[:, :54]
        return mask

    def _legal(self) -> npt.NDArray[np.uint64]:
        """The masks of the cards the seat to play may play, per row, worked out once a step."""
        assert self._state is not None
        if self._legal_now is None:
            self._legal_now = self._state.legal()
        return self._legal_now

    def _partner_bid(self) -> Ints:
        """The bid mark of the partner of the seat to bid (0 without a partner or before it bids)."""
        if not self.rules.has_partners:
            return np.zeros(self.rows, dtype=np.int64)
        return self._bids[self._at, (self.turn + 2) % 4]

    def _spades_column(self) -> Ints:
        """The bid table's column: the spades of the seat to bid where bids count them, else 0."""
        if self._bid_masks.shape[1] == 1:
            return np.zeros(self.rows, dtype=np.int64)
        spades: Ints = popcount(self._hands[self._at, self.turn] & self._trumps)
        return spades

    def random_actions(self, rng: np.random.Generator) -> Ints:
        """A uniformly random legal action per row (the play's by the fast path's own sampler)."""
        if self._state is not None:
            return self._state.random_cards(rng, self._legal())
        mask = self.action_mask()
        picked: Ints = (rng.random(mask.shape) * mask).argmax(axis=1)
        return picked

    def step(self, actions: npt.ArrayLike) -> None:
        """Take one action a row for the seat to move; an illegal one raises and changes nothing."""
        acts = np.asarray(actions)
        if acts.shape != (self.rows,) or not np.issubdtype(acts.dtype, np.integer):
            raise SpadesError(f"Step takes one whole-number action a row ({self.rows}), not {acts!r}.")
        if self.done:
            raise SpadesError("The hands are over: reset the batch.")
        acts = acts.astype(np.int64)
        if self._state is None:
            inside = (acts >= 0) & (acts < ACTIONS)
            legal = inside & self.action_mask()[self._at, np.where(inside, acts, 0)]
        else:
            bit = np.left_shift(U64(1), np.clip(acts, 0, 63).astype(U64))
            legal = (acts >= 0) & (acts < 54) & (self._legal() & bit != 0)
        if not legal.all():
            row = int(np.flatnonzero(~legal)[0])
            raise IllegalMoveError(f"Row {row}: action {int(acts[row])} is not legal there.")
        self._legal_now = None
        if self._state is None:
            self._bid(acts)
        else:
            self._play(acts)

    def _bid(self, acts: Ints) -> None:
        """Record a bid in every row; after the last seat's, the play starts."""
        n = self.rules.players
        self._bids[self._at, self.turn] = 1 + acts - BID_ACTION
        self._step += 1
        if self._step < n:
            return
        leader = self._dealer if self.rules.first_lead is FirstLead.DEALER else (self._dealer + 1) % n
        self._state = PlayState.start(self.rules, self._hands, leader)

    def _play(self, cards: Ints) -> None:
        """Play a card in every row, noting who played it and what it showed; score the finished hand."""
        state = self._state
        assert state is not None
        seat = state.turn
        if state.position:
            led = self._suit_of[state.trick[:, 0]]
            off = self._suit_of[cards] != led
            self._voids[self._at[off], seat[off]] |= np.left_shift(1, led[off])
        self._played[self._at, seat] |= np.left_shift(U64(1), cards.astype(U64))
        state.play(cards)
        if state.done:
            sides = self.rules.sides
            self._scores, self._bags = score_batch(self.rules, self._bids - 1, state.tricks_won,
                                                   np.zeros((self.rows, sides), dtype=np.int64))
            self.rewards = self._scores[:, self._side]

    def observe(self, seats: npt.ArrayLike | None = None) -> Floats:
        """(rows, SIZE): the observation of a seat in each row, by default the seat to move."""
        n, rows, at = self.rules.players, self.rows, self._at
        seat = self.turn if seats is None else np.asarray(seats, dtype=np.int64) % n
        places = [(seat + p) % n for p in range(n)]
        state = self._state
        f = np.zeros((rows, COLUMNS), dtype=np.int64)
        cards = f[:, CARDS]
        cards[:, 0] = self._seat_hands()[at, seat].astype(np.int64)
        if state is not None and state.position:
            cards[:, 5] = np.bitwise_or.reduce(np.left_shift(1, state.trick[:, :state.position]), axis=1)
        marks = f[:, MARKS]
        marks[:] = NO_MARK
        voids = f[:, _VOIDS:_VOIDS + 4 * PLACES].reshape(rows, PLACES, 4)
        for p, s in enumerate(places):
            cards[:, 1 + p] = self._played[at, s].astype(np.int64)
            marks[:, p] = MARK_AT[p] + self._bids[at, s]
            voids[:, p] = (self._voids[at, s, None] >> _SUITS) & 1
            if state is not None:
                f[:, _TRICKS + p] = state.tricks_won[at, s]
        if state is not None and state.position:
            marks[:, 4] = MARK_AT[4] + (state.leader - seat) % n
        if not self.done:
            marks[:, 5] = MARK_AT[5] + (self.turn - seat) % n
            marks[:, 7] = MARK_AT[7] + (_BID if state is None else _PLAY)
        marks[:, 6] = MARK_AT[6] + (self._dealer - seat) % n
        seen = self._sides_seen[seat]
        sides = seen.shape[1]
        f[:, _SCORES:_SCORES + sides] = self._scores[at[:, None], seen]
        f[:, _BAGS:_BAGS + sides] = self._bags[at[:, None], seen]
        if state is not None:
            f[:, _STATE] = state.broken
        f[:, _STATE + 1] = 1  # looked: no blind nil here
        f[:, _RULES:] = self._flags
        return encode(f)


_VOIDS, _TRICKS, _SCORES, _BAGS, _STATE, _RULES = map(
    value_column, ("voids", "tricks_won", "scores", "bags", "state", "rules"))
"""Where the numbers the batch fills start among the features."""
_SUITS = np.arange(4, dtype=np.int64)
