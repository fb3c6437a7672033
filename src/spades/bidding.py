"""Which bids are legal, and why any other is not: every bidding rule, stated once.

``Bidding`` is a hand's bidding as it stands (the bids made, who has looked), which ``Game``
keeps. The game asks ``BidRules.actions`` for the bids it offers and ``BidRules.refusal`` for the error
of any other; the scorekeeper asks ``BidRules.team_refusal`` of the two bids a team wrote
down. What a seat knows when it bids is all these need: its partner's bid (if made), whether
it has looked at its cards, how many spades it holds (where the format needs them), and
whether its side is far enough behind for blind nil (``blind_nil_open``).

The rules text's board example: "Each team must bid at least 4 tricks between its two
partners. If one partner bids nil, the other must bid at least 4."

>>> from spades.rules import Rules
>>> board = BidRules.of(Rules(min_team_bid=4, blind_nil=True))
>>> board.bids(Bid(2), looked=True, spades=3)
(Bid(2), Bid(3), Bid(4), Bid(5), Bid(6), Bid(7), Bid(8), Bid(9), Bid(10), Bid(11), Bid(12), Bid(13))
>>> board.refusal(Bid.blind_nil(), Bid(2), looked=False, spades=None, blind_open=True)
'Your team must bid at least 4 (board): look at your cards, then bid 2 to 13.'
"""

from __future__ import annotations

from spades.moves import ACTION_BIDS, BID_ACTION, BLIND_NIL_ACTION, TEN_FOR_200_ACTION
from spades.rules import BidFormat, NilRule, Rules
from spades.scoring import Bid

__all__ = ["BidRules", "Bidding", "blind_nil_open"]

_NO_PARTNER = -1
"""The partner "action" of a seat whose partner has not bid (or that has no partner)."""


def blind_nil_open(rules: Rules, behind: int) -> bool:
    """Whether a side ``behind`` points behind the leader may bid blind nil this hand.

    >>> from spades.rules import Rules
    >>> r = Rules(blind_nil=True)
    >>> blind_nil_open(r, 100), blind_nil_open(r, 90), blind_nil_open(r.replace(blind_nil_deficit=0), -50)
    (True, False, True)
    """
    return rules.blind_nil and (rules.blind_nil_deficit <= 0 or behind >= rules.blind_nil_deficit)


class BidRules:
    """The bidding rules of one rule set, taken once (``BidRules.of`` shares them per ``Rules``).

    A seat's legal bids depend only on the partner's bid, whether it has looked, its spades
    and whether blind nil is open: each answer is worked out once and kept.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.max_bid = rules.max_bid
        self.lowest = 0 if rules.nil is NilRule.PLAIN else 1
        """The lowest number bid as a number (0 only where a 0 is a plain bid, not a nil)."""
        self.nil = rules.nil is NilRule.NIL
        self.blind_nil = rules.blind_nil
        self.format = rules.bid_format
        self.board = rules.min_team_bid
        self.ten = rules.ten_for_two_hundred
        self._actions: dict[int, tuple[int, ...]] = {}

    @staticmethod
    def of(rules: Rules) -> BidRules:
        """The (shared) bidding rules of a rule set."""
        found = _SHARED.get(rules)
        if found is None:
            found = _SHARED[rules] = BidRules(rules)
        return found

    # -- the legal bids ------------------------------------------------------------------------

    def actions(self, partner: Bid | None, looked: bool, spades: int, blind_open: bool) -> tuple[int, ...]:
        """The actions (see ``spades.moves``) of the legal bids, ascending; ``spades`` < 0: unknown."""
        key = ((_partner_action(partner) + 1) * 2 + looked) * 64 + (spades + 1) * 2 + blind_open
        found = self._actions.get(key)
        if found is None:
            found = self._actions[key] = self._work_out(partner, looked, spades, blind_open)
        return found

    def bids(self, partner: Bid | None, *, looked: bool, spades: int | None,
             blind_open: bool = False) -> tuple[Bid, ...]:
        """The legal bids themselves, in the order of their actions."""
        actions = self.actions(partner, looked, -1 if spades is None else spades, blind_open)
        return tuple(ACTION_BIDS[a - BID_ACTION] for a in actions)

    def _work_out(self, partner: Bid | None, looked: bool, spades: int, blind_open: bool) -> tuple[int, ...]:
        nil_ok, numbers = self._nil_and_numbers(partner, spades if looked else -1)
        if not looked:
            return (BLIND_NIL_ACTION,) if nil_ok and self.blind_nil and blind_open else ()
        actions = [BID_ACTION] if nil_ok else []
        actions += [BID_ACTION + x for x in numbers]
        if self.ten and partner is not None and not partner.is_nil(self.rules):
            actions.append(TEN_FOR_200_ACTION)
        return tuple(actions)

    def _nil_and_numbers(self, partner: Bid | None, spades: int) -> tuple[bool, list[int]]:
        """Whether a nil (blind or not) may be bid, and the numbers that may: the format's rule,
        then board's. ``spades`` < 0 (not known, or not looked at) leaves the format's numbers open."""
        nil_ok = self.nil
        numbers = list(range(self.lowest, self.max_bid + 1))
        p_nil = partner is not None and partner.is_nil(self.rules)
        if self.format is BidFormat.WHIZ and spades >= 0:  # your spades, or nil
            numbers = [spades] if spades else []
        elif self.format is BidFormat.MIRROR and spades >= 0:  # your spades exactly (none: nil)
            numbers = [spades] if spades else []
            nil_ok = spades == 0
        elif self.format is BidFormat.SUICIDE:  # one partner nil, the other at least 4
            if partner is None or p_nil:
                numbers = [x for x in numbers if x >= 4]
                nil_ok = nil_ok and partner is None
            else:
                numbers = []
        if self.board and partner is not None:  # the team bids at least board; after a nil, the other does
            need = self.board - (0 if p_nil else partner.tricks)
            numbers = [x for x in numbers if x >= need]
            nil_ok = nil_ok and not p_nil and need <= 0
        return nil_ok, numbers

    def every_bid(self) -> tuple[Bid, ...]:
        """Every bid some seat may make at some turn of a hand: what a score pad offers, knowing
        neither the spades held nor who bid first. Nil and blind nil first, then the numbers.

        >>> from spades.rules import Rules
        >>> BidRules.of(Rules(blind_nil=True, ten_for_two_hundred=True)).every_bid()[:3]
        (Bid(0), Bid(0, blind=True), Bid(1))
        >>> BidRules.of(Rules(bid_format=BidFormat.SUICIDE)).every_bid()[:3]
        (Bid(0), Bid(4), Bid(5))
        """
        partners = (None, *ACTION_BIDS) if self.rules.has_partners else (None,)
        actions = {a for p in partners for looked in (False, True) for a in self.actions(p, looked, -1, True)}
        nils = (BID_ACTION, BLIND_NIL_ACTION)
        return tuple(ACTION_BIDS[a - BID_ACTION] for a in sorted(actions, key=lambda a: (a not in nils, a)))

    # -- why a bid is not legal ------------------------------------------------------------------

    def refusal(self, bid: Bid, partner: Bid | None, *, looked: bool, spades: int | None,
                blind_open: bool) -> str | None:
        """Why a seat may not make this bid, in a sentence; None if it may.

        ``spades`` is what the seat holds (None where it is not known, as on a score pad).
        """
        known = -1 if spades is None or not looked else spades
        r = self.rules
        if bid.tricks > self.max_bid:
            return f"A bid of {bid.tricks} is more than the {self.max_bid} tricks in a hand."
        if bid.ten_for_two_hundred and not self.ten:
            return "These rules do not have the 10 for 200 bid."
        if bid.blind:
            if not self.blind_nil:
                return "These rules do not allow blind nil."
            if not blind_open:
                who = "team" if r.has_partners else "player"
                return f"Blind nil is only for a {who} at least {r.blind_nil_deficit} points behind."
            if looked:
                return "Blind nil must be bid before you look at your cards."
        elif not looked:
            blind = BLIND_NIL_ACTION in self.actions(partner, False, -1, blind_open)
            return "Look at your cards before you bid" + (", or bid blind nil." if blind else ".")
        if bid.tricks == 0 and r.nil is NilRule.NONE:
            return "These rules have no nil: bid at least 1."
        if bid.ten_for_two_hundred:
            if partner is None or partner.is_nil(r):
                return "10 for 200 is bid by the second partner, after a number."
            return None
        nil_ok, numbers = self._nil_and_numbers(partner, known)
        if (nil_ok if bid.is_nil(r) else bid.tricks in numbers):
            return None
        rule = self.narrowing_rule()
        assert rule is not None, "the standard format without board refuses no bid in range"
        return f"{rule}: {self._open_text(partner, looked, known, nil_ok, numbers)}."

    def narrowing_rule(self) -> str | None:
        """The rule that leaves a seat only some of the numbers, in words without a full stop: the
        format's (Whiz, Mirror, Suicide), else board's; None where every number may be bid.

        Refusals start with it and the table's prompt to bid quotes it, so it is worded here once.

        >>> from spades.rules import Rules
        >>> BidRules.of(Rules(bid_format=BidFormat.WHIZ)).narrowing_rule()
        'In Whiz you bid the number of spades you hold, or nil'
        >>> BidRules.of(Rules()).narrowing_rule() is None
        True
        """
        if self.format is BidFormat.WHIZ:
            return "In Whiz you bid the number of spades you hold, or nil"
        if self.format is BidFormat.MIRROR:
            return "In Mirror you bid exactly the number of spades you hold"
        if self.format is BidFormat.SUICIDE:
            return "In Suicide one partner bids nil and the other at least 4"
        if self.board:
            return f"Your team must bid at least {self.board} (board)"
        return None

    def _open_text(self, partner: Bid | None, looked: bool, spades: int, nil_ok: bool,
                   numbers: list[int]) -> str:
        """The bids still open, in words: ``you may bid nil or 4 to 13``."""
        words = (["nil"] if nil_ok else []) + ([_span(numbers)] if numbers else [])
        if self.ten and partner is not None and not partner.is_nil(self.rules):
            words.append("10 for 200")
        open_ = " or ".join(words) if words else "nothing"
        return f"you may bid {open_}" if looked else f"look at your cards, then bid {open_}"

    # -- a team's two bids, as written on a score pad ----------------------------------------------

    def team_refusal(self, first: Bid, second: Bid, blind_open: bool) -> str | None:
        """Why two partners could not have bid these (in either order), or None if they could.

        A score pad knows neither who bid first nor the spades held: a pair is legal when one
        order of the two is, each bidder having looked unless the bid is blind.
        """
        reasons = []
        for a, b in ((first, second), (second, first)):
            why = self.refusal(a, None, looked=not a.blind, spades=None, blind_open=blind_open)
            if why is None:
                why = self.refusal(b, a, looked=not b.blind, spades=None, blind_open=blind_open)
                if why is None:
                    return None
            reasons.append(why)
        return reasons[0]


class Bidding:
    """A hand's bidding as it stands: each seat's bid (None until it bids) and whether it has
    looked at its cards; with the bids open to the seat to bid, kept for the position they were
    worked out at (``asked_at``, the game's log length)."""

    def __init__(self, looked: list[bool]) -> None:
        self.bids: list[Bid | None] = [None] * len(looked)
        self.looked = looked
        self.asked_at = -1
        self.open_actions: tuple[int, ...] = ()
        """The actions of the bids open at ``asked_at``, ascending (shared by copies)."""

    def copy(self) -> Bidding:
        """An independent copy (the bids and the looks copied, the kept answer shared)."""
        c = Bidding(list(self.looked))
        c.bids = list(self.bids)
        c.asked_at, c.open_actions = self.asked_at, self.open_actions
        return c

    def done(self) -> bool:
        """Whether every seat has bid."""
        return all(b is not None for b in self.bids)


_SHARED: dict[Rules, BidRules] = {}


def _partner_action(partner: Bid | None) -> int:
    """The partner's bid as its action offset (0-19), or ``_NO_PARTNER``."""
    if partner is None:
        return _NO_PARTNER
    if partner.blind:
        return BLIND_NIL_ACTION - BID_ACTION
    if partner.ten_for_two_hundred:
        return TEN_FOR_200_ACTION - BID_ACTION
    return partner.tricks


def _span(numbers: list[int]) -> str:
    """A run of bids in words: ``3``, ``3 or 4``, ``3 to 13``."""
    if len(numbers) == 1:
        return str(numbers[0])
    if len(numbers) == 2:
        return f"{numbers[0]} or {numbers[1]}"
    return f"{numbers[0]} to {numbers[-1]}"
