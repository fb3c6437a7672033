"""Every rule option as one frozen value, the decks it implies, and named presets.

Rules are data: the engine reads these named options and never asks which preset it is.

>>> r = find_preset("pagat"); r.blind_nil, r.failed_bid.value
(True, 'minus_bid')
>>> Rules(players=3).replace(target=300).target
300
>>> Rules(nil=NilRule.NONE, blind_nil=True)
Traceback (most recent call last):
...
spades.errors.RulesError: Blind nil needs nil bids: turn nil on or blind nil off.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, Literal

from spades.cards import BIG_JOKER, LITTLE_JOKER, STANDARD_DECK, Card, Suit
from spades.errors import RulesError

__all__ = [
    "MAX_TARGET",
    "OPTIONS",
    "PRESETS",
    "RULE_GROUPS",
    "BidFormat",
    "ClubsFirstTrick",
    "DeckKind",
    "DeckSpec",
    "FailedBid",
    "FailedNilTricks",
    "FirstDealer",
    "FirstLead",
    "NilRule",
    "OptionKind",
    "RenegePenalty",
    "RuleOption",
    "Rules",
    "TwoPlayerDraw",
    "find_preset",
    "option",
    "preset_names",
    "rules_from_text",
]


class DeckKind(Enum):
    """Which 52 cards are used and how the trumps rank."""

    STANDARD = "standard"
    """52 cards, no jokers; spades are trump, ace high."""
    JOKERS = "jokers"
    """Big and little joker above the ace of spades; the 2♣ and 2♦ are removed."""
    JOKERS_HIGH_TWOS = "jokers_high_twos"
    """2♣ and 2♥ removed; trumps run BJ, LJ, 2♦, 2♠, A♠...; the 2♦ counts as a spade."""
    JOKERS_HIGH_SPADE_TWO = "jokers_high_spade_two"
    """2♣ and 2♥ removed; trumps run BJ, LJ, 2♠, A♠...; the 2♦ stays a diamond."""


class FirstDealer(Enum):
    """How the first dealer is chosen (from the deal number, so it replays)."""

    HIGH_CARD = "high_card"
    RANDOM = "random"


class NilRule(Enum):
    """What a bid of 0 means."""

    NIL = "nil"
    """0 is nil: a bet of nil_value on taking no tricks, apart from the partner's bid."""
    PLAIN = "plain"
    """0 is an ordinary bid with no bonus (the basic 3-player game)."""
    NONE = "none"
    """The lowest bid is 1."""


class BidFormat(Enum):
    """Constraints on what each player may bid."""

    STANDARD = "standard"
    WHIZ = "whiz"
    """Bid the number of spades you hold, or nil."""
    MIRROR = "mirror"
    """Bid exactly the number of spades you hold (none: nil)."""
    SUICIDE = "suicide"
    """One partner of each team bids nil, the other at least 4."""


class FirstLead(Enum):
    """Who leads the first trick of a hand."""

    LEFT_OF_DEALER = "left_of_dealer"
    TWO_OF_CLUBS = "two_of_clubs"
    """The holder of the lowest club in play (the 2♣, else the 3♣) leads it."""
    DEALER = "dealer"


class ClubsFirstTrick(Enum):
    """The "clubs on the first trick" house rule."""

    OFF = "off"
    STRICT = "strict"
    """Everyone plays their lowest club; no clubs: a heart or diamond, never a spade."""
    LOOSE = "loose"
    """As strict, but a player with no clubs may play a spade."""


class FailedBid(Enum):
    """What a team that falls short of its bid scores."""

    MINUS_BID = "minus_bid"
    """Minus 10 per trick bid."""
    ZERO = "zero"
    """Nothing."""
    MINUS_SHORT = "minus_short"
    """Minus 10 per trick short (bid 6, win 4: minus 20)."""


class FailedNilTricks(Enum):
    """What the tricks a failed nil bidder won count for."""

    BAGS = "bags"
    """Not toward the partner's bid, but as bags for the team (the reference's main rule)."""
    CONTRACT = "contract"
    """Toward the team's contract, and as bags beyond it."""
    NEITHER = "neither"
    """For nothing at all."""


class RenegePenalty(Enum):
    """The penalty for failing to follow suit, for games played with real cards."""

    SET = "set"
    """The reneging team fails its bid."""
    THREE_TRICKS = "three_tricks"
    """Three tricks are added to the reneging team's bid."""


class TwoPlayerDraw(Enum):
    """How the two players draw their hands."""

    KEEP_OR_REFUSE = "keep_or_refuse"
    """See the top card: keep it and discard the next, or discard it and keep the next."""
    DRAW_TWO_KEEP_ONE = "draw_two_keep_one"
    """See the top two cards, keep one and discard the other."""


@dataclass(frozen=True)
class DeckSpec:
    """The cards of a deck and how they rank: derived from ``Rules.deck``, never stored.

    ``suit_of[c]`` is the suit a card plays as (a joker or raised 2♦ plays as a spade) and
    ``power[c]`` orders cards within that suit (higher wins).
    """

    kind: DeckKind
    cards: int
    suit_masks: tuple[int, int, int, int]
    suit_of: tuple[int, ...]
    power: tuple[int, ...]
    strength: tuple[tuple[int, ...], ...]
    """``strength[led][c]``: how strong card ``c`` is in a trick led in suit ``led`` (the highest wins).

    A trump ranks above every card of the led suit, and a card of a third suit is 0: it never wins.
    This table is the one statement of who wins a trick; everything else is read from it.
    """
    beaten_by: tuple[int, ...]
    """``beaten_by[c]``: the mask of cards that beat ``c`` when ``c`` is winning a trick (as the
    lead, or a trump), read off ``strength`` for bit-mask play: a higher card of its suit, and
    every trump when ``c`` is not one."""
    from_top: tuple[int, ...]
    """``from_top[c]``: how many cards of ``c``'s suit in this deck outrank it (0: the suit's top card),
    worked out once so hand-strength estimates read it instead of sorting the suit per call."""

    @property
    def trumps(self) -> int:
        """The mask of every card that plays as a spade."""
        return self.suit_masks[Suit.SPADES]

    def beats(self, a: int, b: int, led: int) -> bool:
        """Whether card ``a`` beats card ``b`` in a trick whose led suit is ``led`` (by ``strength``)."""
        strength = self.strength[led]
        return strength[a] > strength[b]


def _build_deck(kind: DeckKind) -> DeckSpec:
    """Tables for one deck kind."""
    two = {s: Card.make(2, s) for s in Suit}
    cards = STANDARD_DECK
    raised: list[Card] = []  # trumps above the ace of spades, lowest first
    if kind is DeckKind.JOKERS:
        cards = cards & ~two[Suit.CLUBS].bit & ~two[Suit.DIAMONDS].bit
    elif kind in (DeckKind.JOKERS_HIGH_TWOS, DeckKind.JOKERS_HIGH_SPADE_TWO):
        cards = cards & ~two[Suit.CLUBS].bit & ~two[Suit.HEARTS].bit
        raised = [two[Suit.SPADES]]
        if kind is DeckKind.JOKERS_HIGH_TWOS:
            raised.append(two[Suit.DIAMONDS])
    if kind is not DeckKind.STANDARD:
        cards |= LITTLE_JOKER.bit | BIG_JOKER.bit
        raised += [LITTLE_JOKER, BIG_JOKER]
    suit_of = [int(Card(c).suit) for c in range(54)]
    power = [Card(c).rank for c in range(54)]
    for i, card in enumerate(raised):
        suit_of[card] = Suit.SPADES
        power[card] = 15 + i
    masks = [0, 0, 0, 0]
    for n in range(54):
        if cards >> n & 1:
            masks[suit_of[n]] |= 1 << n
    strength = tuple(
        tuple(100 + power[c] if suit_of[c] == Suit.SPADES else power[c] if suit_of[c] == led else 0
              for c in range(54))
        for led in Suit
    )
    beaten_by = tuple(
        sum(1 << d for d in range(54) if cards >> d & 1 and strength[suit_of[c]][d] > strength[suit_of[c]][c])
        for c in range(54)
    )
    from_top = tuple(
        sum(1 for d in range(54) if masks[suit_of[c]] >> d & 1 and power[d] > power[c]) for c in range(54))
    return DeckSpec(kind, cards, (masks[0], masks[1], masks[2], masks[3]), tuple(suit_of),
                    tuple(power), strength, beaten_by, from_top)


_DECKS = {kind: _build_deck(kind) for kind in DeckKind}


MAX_TARGET = 10_000
"""The largest game, and the furthest a score may fall: bounds that keep every game finite and small."""

RULE_GROUPS: tuple[tuple[str, str], ...] = (
    ("players", "Players and deck"), ("bidding", "Bidding"), ("nil", "Nil"), ("play", "Play"),
    ("scoring", "Scoring"),
)
"""The groups a player looks for the options in, in order: (key, heading)."""

OptionKind = Literal["bool", "int", "choice", "int_or_null"]


@dataclass(frozen=True)
class RuleOption:
    """One rule option as people read it: the words of Settings, the scorekeeper, the sheet and ``/rules``.

    ``choices`` pairs each value of a choice with its label; ``low`` and ``high`` bound a number.
    """

    name: str
    label: str
    help: str
    group: str
    kind: OptionKind
    default: bool | int | str | None
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None

    def out_of_bounds(self, value: object) -> str | None:
        """Why ``value`` is outside this option's bounds, or None when it is inside (or not a number)."""
        if self.low is None or self.high is None or isinstance(value, bool) or not isinstance(value, int):
            return None
        if self.low <= value <= self.high:
            return None
        shown = value if abs(value) < 10**15 else "a number that large"
        return f"{self.label} ({self.name}) is {self.low} to {self.high}, not {shown}."

    def value_text(self, value: object) -> str:
        """A value as the reader sees it: a choice's label, on/off, a number, or none.

        >>> option("failed_bid").value_text(FailedBid.ZERO), option("blind_nil").value_text(True)
        ('nothing', 'on')
        """
        if isinstance(value, Enum):
            value = value.value
        if self.kind == "choice":
            return dict(self.choices)[str(value)]
        if isinstance(value, bool):
            return "on" if value else "off"
        return "none" if value is None else str(value)


@dataclass(frozen=True)
class _Words:
    """What ``_about`` stores in a field's metadata; ``OPTIONS`` turns it into a ``RuleOption``."""

    group: str
    label: str
    help: str
    low: int | None
    high: int | None
    choices: dict[Any, str]


def _about(group: str, label: str, help_text: str, *, low: int | None = None, high: int | None = None,
           choices: dict[Any, str] | None = None) -> dict[str, _Words]:
    """A ``Rules`` field's metadata: its label, help, group, bounds and choice labels."""
    return {"words": _Words(group, label, help_text, low, high, choices or {})}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every option of a game of Spades. Build it by keyword; invalid mixes raise RulesError.

    The defaults are the reference's main rules: four players in two partnerships, nil worth
    100, no blind nil, minus 10 per trick bid for a set, 10 bags cost 100, game to 500.
    """

    name: str = field(default="custom", compare=False)

    # Players and deck
    players: int = field(default=4, metadata=_about(
        "players", "Players", "How many play: 2, 3 or 4.", low=2, high=4))
    partnerships: bool = field(default=True, metadata=_about(
        "players", "Partnerships (off: cutthroat)",
        "With four players: two teams of partners sitting across; off, each alone (2 and 3 always are)."))
    deck: DeckKind = field(default=DeckKind.STANDARD, metadata=_about(
        "players", "Deck", "Which 52 cards are used and how trumps rank.", choices={
            DeckKind.STANDARD: "52 cards, no jokers",
            DeckKind.JOKERS: "jokers above the ace of spades (2♣ and 2♦ out)",
            DeckKind.JOKERS_HIGH_TWOS: "jokers, then 2♦ and 2♠ as high trumps",
            DeckKind.JOKERS_HIGH_SPADE_TWO: "jokers, then 2♠ as a high trump",
        }))
    first_dealer: FirstDealer = field(default=FirstDealer.HIGH_CARD, metadata=_about(
        "players", "First dealer", "Who deals the first hand.", choices={
            FirstDealer.HIGH_CARD: "the highest card drawn",
            FirstDealer.RANDOM: "chosen at random",
        }))
    two_player_draw: TwoPlayerDraw = field(default=TwoPlayerDraw.KEEP_OR_REFUSE, metadata=_about(
        "players", "Two-player draw", "How two players draw their hands.", choices={
            TwoPlayerDraw.KEEP_OR_REFUSE: "keep the top card or the next",
            TwoPlayerDraw.DRAW_TWO_KEEP_ONE: "see two cards, keep one",
        }))

    # Bidding and nil
    nil: NilRule = field(default=NilRule.NIL, metadata=_about(
        "nil", "Nil", "What a bid of 0 means.", choices={
            NilRule.NIL: "nil: win no trick for a bonus",
            NilRule.PLAIN: "0 is an ordinary bid (no bonus)",
            NilRule.NONE: "no nil (the lowest bid is 1)",
        }))
    nil_value: int = field(default=100, metadata=_about(
        "nil", "Nil is worth", "Points won for a kept nil, lost for a broken one.", low=0, high=1000))
    blind_nil: bool = field(default=False, metadata=_about(
        "nil", "Blind nil", "A nil bid before looking at your cards, for more points."))
    blind_nil_value: int = field(default=200, metadata=_about(
        "nil", "Blind nil is worth", "Points won or lost on a blind nil.", low=0, high=1000))
    blind_nil_deficit: int = field(default=100, metadata=_about(
        "nil", "Blind nil only when behind by",
        "How far behind a team must be to bid blind nil (0: any time).",
        low=0, high=MAX_TARGET))
    blind_nil_pass: int = field(default=2, metadata=_about(
        "nil", "Cards passed after blind nil",
        "Cards a blind nil bidder and partner exchange (0: no passing).",
        low=0, high=4))
    nil_pass: int = field(default=0, metadata=_about(
        "nil", "Cards passed after nil", "Cards a nil bidder and partner exchange (online tables: 2 or 4).",
        low=0, high=4))
    min_team_bid: int = field(default=0, metadata=_about(
        "bidding", "Least a team may bid (board)",
        "Board: the least a team may bid between its partners (4 where played).", low=0, high=13))
    bid_format: BidFormat = field(default=BidFormat.STANDARD, metadata=_about(
        "bidding", "Bidding style", "What each player may bid.", choices={
            BidFormat.STANDARD: "any number of tricks",
            BidFormat.WHIZ: "whiz: the spades you hold, or nil",
            BidFormat.MIRROR: "mirror: exactly the spades you hold",
            BidFormat.SUICIDE: "suicide: one partner nil, the other 4 or more",
        }))
    ten_for_two_hundred: bool = field(default=False, metadata=_about(
        "bidding", "10 for 200", "A team may bid 10 tricks for 200 points, or lose 200."))
    ten_for_two_hundred_or_more: bool = field(default=False, metadata=_about(
        "bidding", "11 or more also makes 10 for 200",
        "With 10 for 200: whether 11 or more tricks also make it."))
    first_hand_no_bids: bool = field(default=False, metadata=_about(
        "bidding", "First hand without bids",
        "The first hand is played without bidding, 10 points per trick."))
    misdeal_no_spades: bool = field(default=False, metadata=_about(
        "bidding", "A hand without spades may be thrown in", "A player dealt no trumps may call a misdeal."))

    # Play
    first_lead: FirstLead = field(default=FirstLead.LEFT_OF_DEALER, metadata=_about(
        "play", "First lead", "Who leads the first trick of a hand.", choices={
            FirstLead.LEFT_OF_DEALER: "the dealer's left",
            FirstLead.TWO_OF_CLUBS: "the holder of the lowest club, with it",
            FirstLead.DEALER: "the dealer",
        }))
    spades_led_any_time: bool = field(default=False, metadata=_about(
        "play", "Spades may be led any time", "Off: no spade is led until one has been played (broken)."))
    clubs_first_trick: ClubsFirstTrick = field(default=ClubsFirstTrick.OFF, metadata=_about(
        "play", "Clubs on the first trick", "Everyone plays their lowest club to the first trick.", choices={
            ClubsFirstTrick.OFF: "off",
            ClubsFirstTrick.STRICT: "lowest club; without clubs, no spade",
            ClubsFirstTrick.LOOSE: "lowest club; without clubs, any card",
        }))
    must_beat: bool = field(default=False, metadata=_about(
        "play", "Must beat the highest card if able",
        "Cutthroat: you must beat the highest card so far whenever you can."))

    # Scoring
    failed_bid: FailedBid = field(default=FailedBid.MINUS_BID, metadata=_about(
        "scoring", "A failed bid scores", "What a team that falls short of its bid scores (a set).", choices={
            FailedBid.MINUS_BID: "minus 10 per trick bid",
            FailedBid.ZERO: "nothing",
            FailedBid.MINUS_SHORT: "minus 10 per trick short",
        }))
    bag_value: int = field(default=1, metadata=_about(
        "scoring", "Points per bag",
        "Points per trick over the bid (1; -1 where bags cost a point; -10 in the 3-player game).",
        low=-100, high=100))
    bag_limit: int = field(default=10, metadata=_about(
        "scoring", "Bags that cost a penalty", "How many bags cost the bag penalty.", low=1, high=100))
    bag_penalty: int = field(default=100, metadata=_about(
        "scoring", "Bag penalty", "Points lost each time bags reach the limit (0: no bag penalty).",
        low=0, high=1000))
    failed_nil_tricks: FailedNilTricks = field(default=FailedNilTricks.BAGS, metadata=_about(
        "nil", "A failed nil's tricks count as", "What a broken nil's tricks count for.", choices={
            FailedNilTricks.BAGS: "bags, not toward the partner's bid",
            FailedNilTricks.CONTRACT: "toward the partner's bid",
            FailedNilTricks.NEITHER: "nothing",
        }))
    boston_bonus: int = field(default=0, metadata=_about(
        "scoring", "Bonus for all the tricks (Boston)", "Points for a team that wins every trick of a hand.",
        low=0, high=1000))
    renege_penalty: RenegePenalty = field(default=RenegePenalty.SET, metadata=_about(
        "play", "Renege penalty", "The penalty for not following suit when able (for games with real cards).",
        choices={
            RenegePenalty.SET: "the team that reneged is set",
            RenegePenalty.THREE_TRICKS: "3 tricks added to its bid",
        }))
    target: int = field(default=500, metadata=_about(
        "scoring", "Game to", "The score that wins the game.", low=10, high=MAX_TARGET))
    low_mark: int | None = field(default=None, metadata=_about(
        "scoring", "A score this low loses", "A score at or below this loses the game (-200, -500), or none.",
        low=-MAX_TARGET, high=MAX_TARGET))

    def __post_init__(self) -> None:
        for problem in self._problems():
            raise RulesError(problem)

    def _problems(self) -> list[str]:
        """Every contradiction in these options, as messages."""
        p = [problem for o in OPTIONS if (problem := o.out_of_bounds(getattr(self, o.name)))]
        if not (isinstance(self.name, str) and 0 < len(self.name) <= 40 and self.name.isprintable()):
            p.append("A rules name is 1 to 40 printable characters.")
        if p:
            return p
        teams = self.has_partners
        if self.blind_nil and self.nil is not NilRule.NIL:
            p.append("Blind nil needs nil bids: turn nil on or blind nil off.")
        if self.nil_pass and self.nil is not NilRule.NIL:
            p.append("A nil pass needs nil bids.")
        if self.nil_pass and not teams:
            p.append("A nil pass needs partners.")
        if self.min_team_bid and not teams:
            p.append("Board (a minimum team bid) needs partners.")
        if self.bid_format is BidFormat.SUICIDE and not teams:
            p.append("Suicide needs partners: one of each team bids nil.")
        if self.bid_format in (BidFormat.SUICIDE, BidFormat.WHIZ, BidFormat.MIRROR) and (
            self.nil is not NilRule.NIL
        ):
            p.append(f"{self.bid_format.value.title()} needs nil bids.")
        if self.ten_for_two_hundred and not teams:
            p.append("10 for 200 is a team bid and needs partners.")
        if self.ten_for_two_hundred_or_more and not self.ten_for_two_hundred:
            p.append("'10 or more makes it' needs the 10 for 200 option.")
        if self.clubs_first_trick is not ClubsFirstTrick.OFF and (
            self.first_lead is not FirstLead.TWO_OF_CLUBS
        ):
            p.append("Clubs on the first trick needs the first lead to be the 2 of clubs.")
        if self.clubs_first_trick is not ClubsFirstTrick.OFF and self.deck is not DeckKind.STANDARD:
            p.append("Clubs on the first trick needs the 2 of clubs, which joker decks remove.")
        if self.must_beat and teams:
            p.append("'Must beat the highest card' is a cutthroat rule: turn partnerships off.")
        if self.low_mark is not None and self.low_mark >= self.target:
            p.append("The low mark must be below the target.")
        if self.bid_format is not BidFormat.STANDARD and self.min_team_bid:
            p.append(f"{self.bid_format.value.title()} sets its own bids; it cannot add board.")
        if self.bid_format is not BidFormat.STANDARD and self.ten_for_two_hundred:
            p.append(f"{self.bid_format.value.title()} sets its own bids; it cannot add 10 for 200.")
        if self.bid_format is BidFormat.MIRROR and self.blind_nil:
            p.append("Mirror bids the spades held, so nobody may bid before looking: turn blind nil off.")
        return p

    # Derived facts the engine reads (on every hand: each worked out once, on first reading)

    @cached_property
    def has_partners(self) -> bool:
        """Whether seats play in two partnerships."""
        return self.players == 4 and self.partnerships

    @cached_property
    def sides(self) -> int:
        """How many scores are kept: 2 teams, or one per player."""
        return 2 if self.has_partners else self.players

    @cached_property
    def hand_size(self) -> int:
        """Cards per player: 13, or 17 in the 3-player game."""
        return 17 if self.players == 3 else 13

    @cached_property
    def max_bid(self) -> int:
        """The highest bid one player may make."""
        return self.hand_size

    @cached_property
    def deck_spec(self) -> DeckSpec:
        """The cards and trump order this game uses."""
        return _DECKS[self.deck]

    def side_of(self, seat: int) -> int:
        """The score column a seat plays for."""
        return seat % 2 if self.has_partners else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that play for a side."""
        return (side, side + 2) if self.has_partners else (side,)

    def partner(self, seat: int) -> int | None:
        """The seat across the table, or None without partnerships."""
        return (seat + 2) % 4 if self.has_partners else None

    # Text forms

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (checked again), named "custom" once one differs from these
        rules' own: a preset's own values given again keep its name.

        >>> PRESETS["standard"].replace(target=500).name, PRESETS["standard"].replace(target=300).name
        ('standard', 'custom')
        """
        if "name" not in changes and any(getattr(self, key, None) != value for key, value in changes.items()):
            changes["name"] = "custom"
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options: enums as their values."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, Enum) else v
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rebuild from ``to_dict`` output; unknown keys and bad values raise RulesError.

        A ``preset`` key starts from that preset; the other keys change it, as ``replace`` does.
        """
        if not isinstance(data, dict):
            raise RulesError("Rules must be an object of option names and values.")
        data = dict(data)
        base = find_preset(str(data.pop("preset"))) if "preset" in data else cls()
        known = {f.name: f for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise RulesError(f"Unknown rule option {key!r}.")
            current = getattr(base, key)
            if isinstance(current, Enum) or key in _ENUM_FIELDS:
                enum_type = _ENUM_FIELDS[key]
                try:
                    changes[key] = enum_type(value)
                except ValueError:
                    allowed = ", ".join(e.value for e in enum_type)
                    raise RulesError(f"Option {key} is one of {allowed}, not {value!r}.") from None
            elif key == "low_mark":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                    raise RulesError("Option low_mark is a whole number or null.")
                changes[key] = value
            elif isinstance(current, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"Option {key} is true or false, not {value!r}.")
                changes[key] = value
            elif isinstance(current, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(f"Option {key} is a whole number, not {value!r}.")
                changes[key] = value
            else:
                if not isinstance(value, str):
                    raise RulesError(f"Option {key} is text, not {value!r}.")
                changes[key] = value
        return base.replace(**changes)


def _describe(f: dataclasses.Field[Any]) -> RuleOption:
    """A field's ``RuleOption`` from its metadata and its default."""
    words: _Words = f.metadata["words"]
    default = f.default
    kind: OptionKind = "int_or_null" if default is None else "bool" if isinstance(default, bool) else "int"
    choices: tuple[tuple[str, str], ...] = ()
    if isinstance(default, Enum):
        kind, default = "choice", default.value
        choices = tuple((member.value, words.choices[member]) for member in type(f.default))  # type: ignore[union-attr]
    return RuleOption(f.name, words.label, words.help, words.group, kind, default, choices, words.low,
                      words.high)


_GROUP_ORDER = [key for key, _ in RULE_GROUPS]
OPTIONS: tuple[RuleOption, ...] = tuple(sorted(
    (_describe(f) for f in dataclasses.fields(Rules) if f.name != "name"),
    key=lambda o: _GROUP_ORDER.index(o.group)))
"""Every rule option, described once, in the order of ``RULE_GROUPS``."""


def option(name: str) -> RuleOption:
    """The description of one rule option by its field name.

    >>> option("target").label, option("target").low, option("target").high
    ('Game to', 10, 10000)
    """
    for o in OPTIONS:
        if o.name == name:
            return o
    raise RulesError(f"Unknown rule option {name!r}.")


_ENUM_FIELDS: dict[str, type[Enum]] = {
    "deck": DeckKind,
    "first_dealer": FirstDealer,
    "two_player_draw": TwoPlayerDraw,
    "nil": NilRule,
    "bid_format": BidFormat,
    "first_lead": FirstLead,
    "clubs_first_trick": ClubsFirstTrick,
    "failed_bid": FailedBid,
    "failed_nil_tricks": FailedNilTricks,
    "renege_penalty": RenegePenalty,
}


def _preset(name: str, **options: Any) -> Rules:
    """A named preset: the standard game with these options changed."""
    return Rules(name=name, **options)


PRESETS: dict[str, Rules] = {
    # The reference's "This page" column: its main rules.
    "standard": _preset("standard"),
    # Bicycle Cards: each player alone, a set scores 0, no nil, 10 bags cost 100.
    "bicycle": _preset("bicycle", partnerships=False, nil=NilRule.NONE, failed_bid=FailedBid.ZERO),
    # Pagat: partnerships, nil and blind nil, a random first dealer.
    "pagat": _preset("pagat", blind_nil=True, first_dealer=FirstDealer.RANDOM),
    # The game we measure ourselves against: a failed nil's tricks count toward the contract.
    "parlor": _preset("parlor", failed_nil_tricks=FailedNilTricks.CONTRACT),
    "cutthroat": _preset("cutthroat", partnerships=False),
    "three-player": _preset("three-player", players=3, partnerships=False, nil=NilRule.PLAIN,
                            first_lead=FirstLead.TWO_OF_CLUBS, bag_value=-10, bag_penalty=0),
    "two-player": _preset("two-player", players=2, partnerships=False),
    "jokers": _preset("jokers", deck=DeckKind.JOKERS),
    "jokers-high-twos": _preset("jokers-high-twos", deck=DeckKind.JOKERS_HIGH_TWOS),
    "online": _preset("online", blind_nil=True, nil_pass=2, min_team_bid=4),
    "suicide": _preset("suicide", bid_format=BidFormat.SUICIDE),
    "whiz": _preset("whiz", bid_format=BidFormat.WHIZ),
    "mirror": _preset("mirror", bid_format=BidFormat.MIRROR),
}

_ALIASES = {
    "main": "standard", "default": "standard", "partnership": "standard", "this-page": "standard",
    "bicycle-cards": "bicycle", "solitaire-parlor": "parlor", "no-partners": "cutthroat",
    "3": "three-player", "3p": "three-player", "three": "three-player",
    "2": "two-player", "2p": "two-player", "two": "two-player", "joker": "jokers",
    "high-twos": "jokers-high-twos", "4": "standard",
}


def preset_names() -> list[str]:
    """The preset names, in the order listed."""
    return list(PRESETS)


def rules_from_text(preset: str, changes: Sequence[str] = ()) -> Rules:
    """A preset with ``name=value`` changes, as ``--set`` and ``/rules?set=`` give them (JSON, else text).

    >>> r = rules_from_text("pagat", ["target=300", "deck=jokers"]); r.target, r.deck.value, r.name
    (300, 'jokers', 'custom')
    """
    rules = find_preset(preset)
    if not changes:
        return rules
    data: dict[str, Any] = {"preset": rules.name}
    for item in changes:
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"A rule change is option=value, such as target=300, not {item!r}.")
        try:
            data[key.strip()] = json.loads(value)
        except ValueError:  # not JSON (or a number too long to read): the text itself
            data[key.strip()] = value
    return Rules.from_dict(data)


def find_preset(name: str) -> Rules:
    """A preset by name or alias, case and ``_``/space insensitive.

    >>> find_preset("Bicycle Cards").failed_bid
    <FailedBid.ZERO: 'zero'>
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(
            f"Unknown rules preset {name!r}. Known: {', '.join(PRESETS)}."
        ) from None
