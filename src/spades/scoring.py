"""Scoring a hand, as a pure function of the rules, the bids, the tricks and the bags held.

Bags are always passed in and returned as their own count; nothing here reads them off the
last digit of a score.

The reference's table of sample scores (team bid 5, 7 tricks: 52 points and 2 bags):

>>> from spades.rules import Rules
>>> r = Rules()
>>> s = score_hand(r, [Bid(3), Bid(0, True), Bid(2), Bid(4)], [4, 3, 3, 3], [0, 0]).sides
>>> (s[0].points, s[0].bags_added), (s[1].points, s[1].made)
((52, 2), (-237, False))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.bid import Bid
from spades.errors import SpadesError
from spades.rules import FailedBid, FailedNilTricks, RenegePenalty, Rules

__all__ = [
    "Bid", "HandScore", "NilResult", "SideScore", "game_over", "game_winner", "score_hand", "side_contract",
]


@dataclass(frozen=True, slots=True)
class NilResult:
    """How one nil or blind nil went."""

    seat: int
    blind: bool
    tricks: int
    points: int

    @property
    def made(self) -> bool:
        """Whether the bidder took no tricks."""
        return self.tricks == 0


@dataclass(frozen=True, slots=True)
class SideScore:
    """One team's (or lone player's) result for a hand, broken down as a score sheet shows."""

    side: int
    contract: int
    """Tricks bid by the side's non-nil bidders (with any renege penalty added)."""
    tricks: int
    """Tricks the side won in all, nil bidders included."""
    counted: int
    """Tricks that counted toward the contract."""
    made: bool
    ten_for_two_hundred: bool
    contract_points: int
    bags_added: int
    bag_points: int
    nils: tuple[NilResult, ...]
    penalties: int
    """How many times the bag limit was reached this hand."""
    penalty_points: int
    boston: bool
    boston_points: int
    bags_before: int
    bags_after: int

    def __init__(self, side: int, contract: int, tricks: int, counted: int, made: bool,
                 ten_for_two_hundred: bool, contract_points: int, bags_added: int, bag_points: int,
                 nils: tuple[NilResult, ...], penalties: int, penalty_points: int, boston: bool,
                 boston_points: int, bags_before: int, bags_after: int) -> None:
        """The generated ``__init__``, written out to be compiled (see ``spades.play.Trick``)."""
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "counted", counted)
        object.__setattr__(self, "made", made)
        object.__setattr__(self, "ten_for_two_hundred", ten_for_two_hundred)
        object.__setattr__(self, "contract_points", contract_points)
        object.__setattr__(self, "bags_added", bags_added)
        object.__setattr__(self, "bag_points", bag_points)
        object.__setattr__(self, "nils", nils)
        object.__setattr__(self, "penalties", penalties)
        object.__setattr__(self, "penalty_points", penalty_points)
        object.__setattr__(self, "boston", boston)
        object.__setattr__(self, "boston_points", boston_points)
        object.__setattr__(self, "bags_before", bags_before)
        object.__setattr__(self, "bags_after", bags_after)

    @property
    def nil_points(self) -> int:
        """The nil bonuses and penalties of the hand."""
        return sum(n.points for n in self.nils)

    @property
    def points(self) -> int:
        """The side's score change for the hand."""
        return (self.contract_points + self.bag_points + self.nil_points - self.penalty_points
                + self.boston_points)


@dataclass(frozen=True, slots=True)
class HandScore:
    """Every side's result for one hand."""

    sides: tuple[SideScore, ...]

    def __init__(self, sides: tuple[SideScore, ...]) -> None:
        """The generated ``__init__``, written out to be compiled (see ``spades.play.Trick``)."""
        object.__setattr__(self, "sides", sides)

    @property
    def points(self) -> tuple[int, ...]:
        """Each side's score change."""
        return tuple(s.points for s in self.sides)

    @property
    def bags(self) -> tuple[int, ...]:
        """Each side's bag count after the hand."""
        return tuple(s.bags_after for s in self.sides)


def score_hand(
    rules: Rules,
    bids: Sequence[Bid | None],
    tricks: Sequence[int],
    bags: Sequence[int],
    *,
    no_bids: bool = False,
    renege: int | None = None,
) -> HandScore:
    """Score one hand.

    ``bids`` and ``tricks`` are per seat; ``bags`` per side, as held before the hand.
    ``no_bids`` scores the "first hand without bidding" (10 per trick, nothing else);
    ``renege`` names the side that reneged, penalised as ``rules.renege_penalty`` says.
    """
    players, sides = rules.players, rules.sides
    if len(tricks) != players or len(bids) != players:
        raise SpadesError(f"Scoring needs a bid and a trick count for each of {players} seats.")
    if len(bags) != sides:
        raise SpadesError(f"Scoring needs the bags of each of {sides} sides.")
    total_tricks = rules.hand_size
    if min(tricks) < 0 or sum(tricks) != total_tricks:
        raise SpadesError(f"The tricks won must add up to {total_tricks}.")
    return HandScore(tuple([
        _score_side(rules, side, bids, tricks, bags[side], no_bids, renege == side) for side in range(sides)
    ]))


def side_contract(rules: Rules, side: int, bids: Sequence[Bid | None]) -> tuple[int, bool]:
    """The tricks a side must take: its non-nil bids added up, or 10 for a 10 for 200 (which it says).

    Seats that have not bid count nothing. A renege's penalty tricks come later, when the hand is scored.

    >>> from spades.rules import Rules
    >>> side_contract(Rules(), 0, [Bid(3), None, Bid.nil(), None])
    (3, False)
    >>> side_contract(Rules(), 1, [None, Bid(2), None, Bid(4)])
    (6, False)
    >>> side_contract(Rules(), 0, [Bid(2), None, Bid.ten_for_200(), None])
    (10, True)
    """
    total = 0
    for s in rules.seats_of(side):
        b = bids[s]
        if b is not None and not b.is_nil(rules):
            if b.ten_for_two_hundred:
                return 10, True
            total += b.tricks
    return total, False


def _score_side(
    rules: Rules,
    side: int,
    bids: Sequence[Bid | None],
    tricks: Sequence[int],
    bags_before: int,
    no_bids: bool,
    reneged: bool,
) -> SideScore:
    """One side's result for the hand (``score_hand`` for each side): the contract made or set,
    its nils, bags and bag penalty, a Boston, a renege; or, without bids, 10 a trick."""
    seats = rules.seats_of(side)
    won = 0
    for s in seats:
        won += tricks[s]
    boston = won == rules.hand_size
    boston_points = rules.boston_bonus if boston else 0
    if no_bids:
        return SideScore(side, 0, won, won, True, False, 10 * won, 0, 0, (), 0, 0, boston,
                         boston_points, bags_before, bags_before)
    for s in seats:
        if bids[s] is None:
            raise SpadesError(f"Seat {s} has no bid to score.")
    nils: list[NilResult] = []
    contract, ten = side_contract(rules, side, bids)
    counted = 0
    failed_nil_tricks = 0
    for s in seats:
        bid = bids[s]
        assert bid is not None
        if bid.is_nil(rules):
            value = rules.blind_nil_value if bid.blind else rules.nil_value
            nils.append(NilResult(s, bid.blind, tricks[s], value if tricks[s] == 0 else -value))
            failed_nil_tricks += tricks[s]
        else:
            counted += tricks[s]
    extra_bags = 0
    if rules.failed_nil_tricks is FailedNilTricks.CONTRACT:
        counted += failed_nil_tricks
    elif rules.failed_nil_tricks is FailedNilTricks.BAGS:
        extra_bags = failed_nil_tricks
    if reneged and rules.renege_penalty is RenegePenalty.THREE_TRICKS:
        contract += 3
    if ten:
        made = counted == 10 or (rules.ten_for_two_hundred_or_more and counted >= 10)
    else:
        made = counted >= contract
    if reneged and rules.renege_penalty is RenegePenalty.SET:
        made = False
    if made:
        contract_points = 200 if ten else 10 * contract
        bags_added = counted - contract + extra_bags
    else:
        if ten:
            contract_points = -200
        elif rules.failed_bid is FailedBid.MINUS_BID:
            contract_points = -10 * contract
        elif rules.failed_bid is FailedBid.MINUS_SHORT:
            contract_points = -10 * max(0, contract - counted)
        else:
            contract_points = 0
        bags_added = extra_bags
    held = bags_before + bags_added
    penalties = held // rules.bag_limit if rules.bag_penalty else 0
    return SideScore(
        side=side, contract=contract, tricks=won, counted=counted, made=made,
        ten_for_two_hundred=ten, contract_points=contract_points, bags_added=bags_added,
        bag_points=bags_added * rules.bag_value, nils=tuple(nils), penalties=penalties,
        penalty_points=penalties * rules.bag_penalty, boston=boston, boston_points=boston_points,
        bags_before=bags_before, bags_after=held - penalties * rules.bag_limit,
    )


def game_over(rules: Rules, scores: Sequence[int]) -> bool:
    """Whether a side has reached the target or sunk to the low mark (a tie then plays on).

    >>> from spades.rules import Rules
    >>> game_over(Rules(), [505, 505]), game_over(Rules(low_mark=-200), [-200, 30])
    (True, True)
    """
    return any(s >= rules.target for s in scores) or (
        rules.low_mark is not None and any(s <= rules.low_mark for s in scores)
    )


def game_winner(rules: Rules, scores: Sequence[int]) -> int | None:
    """The side that has won, or None while the game goes on.

    The game ends once a side reaches the target (or sinks to the low mark); the highest
    score then wins, and a tie for the highest plays another hand.

    >>> from spades.rules import Rules
    >>> r = Rules()
    >>> game_winner(r, [510, 520]), game_winner(r, [505, 505]), game_winner(r, [40, 141])
    (1, None, None)
    """
    if not game_over(rules, scores):
        return None
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None
