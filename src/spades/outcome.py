"""A scored hand in words and numbers, stated once for every score sheet that shows one.

``spades.scoring`` decides the points; this says what they were for (a contract made or set, 10
for 200, each nil made or broken with the tricks a broken one took, the bags, the bag penalty, a
Boston, a renege) so the table's sheet, the scorekeeper and the paper sheet word it alike.

The rules text's third worked hand: a team bids 5, wins 8 and its bags reach 10.

>>> from spades.rules import Rules
>>> from spades.scoring import Bid, score_hand
>>> r = Rules()
>>> side = score_hand(r, [Bid(3), Bid(5), Bid(2), Bid(0)], [5, 5, 3, 0], [7, 0]).sides[0]
>>> describe_side(r, side).texts
('made 5 (+50)', '3 bags (+3)', '10 bags reached (\u2212100)')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from spades.rules import Rules
from spades.scoring import Bid, NilResult, SideScore

__all__ = ["Note", "SideOutcome", "broken_nils", "describe_side", "plural", "signed"]

NoteKind = Literal["renege", "no_bids", "ten_for_200", "made", "set", "bags", "nil", "penalty", "boston"]
_ORDINARY: frozenset[NoteKind] = frozenset({"made", "bags"})


@dataclass(frozen=True, slots=True)
class Note:
    """One thing a side's hand came to, in words, e.g. ``nil broken, took 2 tricks (−100)``."""

    kind: NoteKind
    text: str


@dataclass(frozen=True, slots=True)
class SideOutcome:
    """A side's scored hand as a sheet shows it: the numbers and the words."""

    contract: int
    """Tricks the side's bidders bid (not its nils); 10 for 10 for 200."""
    made: bool
    bags: int
    """Bags this hand added."""
    penalties: int
    """How many times the side's bags reached the limit this hand."""
    notes: tuple[Note, ...]

    @property
    def texts(self) -> tuple[str, ...]:
        """Every note's words, in the order a sheet gives them."""
        return tuple(n.text for n in self.notes)

    @property
    def remarks(self) -> tuple[str, ...]:
        """The words beyond a contract simply made and its bags, which a sheet's columns already show."""
        return tuple(n.text for n in self.notes if n.kind not in _ORDINARY)


def signed(points: int) -> str:
    """Points as a score sheet writes a change: ``+50``, ``−100`` (a true minus sign), ``0``.

    >>> signed(50), signed(-100), signed(0)
    ('+50', '\u2212100', '0')
    """
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def plural(n: int, word: str) -> str:
    """``n`` and the word, in the plural unless ``n`` is 1: how every sheet and message counts things.

    >>> plural(1, "trick"), plural(0, "bag"), plural(3, "extra trick")
    ('1 trick', '0 bags', '3 extra tricks')
    """
    return f"{n} {word}{'s' * (n != 1)}"


def _nil(n: NilResult, who: str) -> Note:
    """A nil's note: who bid it, blind or not, made or broken (with the tricks taken), and its points."""
    kind = "blind nil" if n.blind else "nil"
    outcome = "made" if n.made else f"broken, took {plural(n.tricks, 'trick')}"
    return Note("nil", f"{who}{kind} {outcome} ({signed(n.points)})")


def describe_side(
    rules: Rules,
    side: SideScore,
    *,
    no_bids: bool = False,
    reneged: bool = False,
    seat_name: Callable[[int], str] | None = None,
) -> SideOutcome:
    """A side's scored hand in words; ``seat_name`` names a nil's bidder (else the nil is the side's).

    >>> from spades.rules import Rules
    >>> from spades.scoring import Bid, score_hand
    >>> r = Rules()
    >>> s = score_hand(r, [Bid(0), Bid(6), Bid(4), Bid(2)], [2, 5, 3, 3], [0, 0]).sides[0]
    >>> describe_side(r, s, seat_name=lambda seat: "South").texts
    ('set on 4 (\u221240)', '2 bags (+2)', 'South: nil broken, took 2 tricks (\u2212100)')
    """
    notes: list[Note] = []
    if reneged:
        notes.append(Note("renege", "reneged"))
    if no_bids:
        notes.append(Note("no_bids", f"no bids: 10 a trick ({signed(side.contract_points)})"))
    elif side.ten_for_two_hundred:
        notes.append(Note("ten_for_200",
                          f"10 for 200 {'made' if side.made else 'failed'} ({signed(side.contract_points)})"))
    elif side.contract or not side.nils:
        if side.made:
            notes.append(Note("made", f"made {side.contract} ({signed(side.contract_points)})"))
        else:
            notes.append(Note("set", f"set on {side.contract} ({signed(side.contract_points)})"))
    if side.bags_added:
        notes.append(Note("bags", f"{plural(side.bags_added, 'bag')} ({signed(side.bag_points)})"))
    notes.extend(_nil(n, f"{seat_name(n.seat)}: " if seat_name else "") for n in side.nils)
    if side.penalties:
        reached = rules.bag_limit * side.penalties
        notes.append(Note("penalty", f"{reached} bags reached ({signed(-side.penalty_points)})"))
    if side.boston_points:
        notes.append(Note("boston", f"Boston: all {side.tricks} tricks ({signed(side.boston_points)})"))
    return SideOutcome(contract=side.contract, made=side.made, bags=side.bags_added,
                       penalties=side.penalties, notes=tuple(notes))


def broken_nils(rules: Rules, bids: Sequence[Bid | None], tricks: Sequence[int]) -> list[int]:
    """The seats that bid nil (or blind nil) and have taken a trick: their nil is lost already.

    >>> from spades.rules import NilRule, Rules
    >>> broken_nils(Rules(), [Bid(0), Bid(3), Bid(0), None], [1, 2, 0, 0])
    [0]
    >>> broken_nils(Rules(players=3, nil=NilRule.PLAIN), [Bid(0), Bid(3), Bid(4)], [1, 2, 0])
    []
    """
    return [s for s, (bid, won) in enumerate(zip(bids, tricks, strict=True))
            if bid is not None and bid.is_nil(rules) and won]
