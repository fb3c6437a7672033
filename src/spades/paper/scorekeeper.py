"""Keeping score for a game played with real cards: hands entered after the fact, checked, scored.

A ``ScoreGame`` is the paper score pad: the rules, a name per score column (two teams of
partners, or each player alone in cutthroat and the 3- and 2-player games), and every hand
entered. It is rescored from the first hand each time, so correcting or removing a hand
rescores all that follow. Each hand is scored by ``spades.scoring.score_hand``; this module
only turns what a scorekeeper writes down (bids, tricks, a failed nil's tricks) into
seat-by-seat input and refuses what cannot have happened at a table.

The reference's three-hand example:

>>> g = ScoreGame(names=("Us", "Them"))
>>> g = g.add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
>>> g = g.add(HandEntry.parse("2 2 : 7", "nil 5 : 6"))
>>> g = g.add(HandEntry.parse("3 2 : 8", "3 2 : 5"))
>>> [row.totals for row in g.sheet().rows]
[(44, -60), (87, 91), (40, 141)]

And its 3-player game, where each extra trick costs 10 (bid 4 and win 5: 30):

>>> from spades.rules import find_preset
>>> g = ScoreGame(find_preset("three-player"), ("Ann", "Bo", "Cy"))
>>> g.add(HandEntry.parse_players("4 : 5", "6 : 6", "5 : 6")).sheet().totals
(30, 60, 40)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from spades.bidding import BidRules, blind_nil_open
from spades.errors import SpadesError
from spades.outcome import plural
from spades.rules import Rules
from spades.scoring import Bid, HandScore, game_over, game_winner, score_hand

__all__ = [
    "FORMAT_VERSION",
    "MAX_HANDS",
    "MAX_NAME",
    "HandEntry",
    "HandRow",
    "Line",
    "PlayerLine",
    "ScoreGame",
    "ScoreSheet",
    "ScorekeeperError",
    "SoloLine",
    "TeamLine",
    "bid_choices",
    "default_names",
    "parse_bid",
    "parse_bids",
    "status_text",
    "table_text",
]

FORMAT_VERSION = 2
"""2 added lines for players alone and hands without bids; version 1 (two teams) still loads."""
_READABLE = (1, 2)
MAX_NAME = 40
"""The longest name of a team or player."""
MAX_HANDS = 200
"""The most hands a game may have: more than a game to the largest target takes, and a bound on the work."""
NO_BID = "-"
"""How a score sheet shows the bid of a hand played without bidding."""


class ScorekeeperError(SpadesError):
    """A hand or a game that cannot have happened at the table; the message says what to fix."""


def _whole(value: Any, what: str) -> int:
    """A whole number from JSON input, or a clear error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScorekeeperError(f"{what} must be a whole number, not {value!r}.")
    return value


def parse_bid(text: str) -> Bid:
    """``Bid.parse``, its refusal raised as a ScorekeeperError."""
    try:
        return Bid.parse(text)
    except SpadesError as e:
        raise ScorekeeperError(str(e)) from None


def _refuse(name: str, why: str | None) -> None:
    """Raise the rules' reason for refusing a bid, as the column's slip (``Us: these rules ...``)."""
    if why is not None:
        raise ScorekeeperError(f"{name}: {why[0].lower()}{why[1:]}")


def _bid_from(value: Any) -> Bid:
    """A bid from JSON: text such as ``"4"``, ``"nil"``, ``"blind nil"``, ``"10 for 200"``, or a number."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ScorekeeperError(f"A bid is a number, nil, blind nil or 10 for 200, not {value!r}.")
    return parse_bid(str(value))


def _split_line(text: str, example: str) -> tuple[str, int]:
    """``"<bids> : <tricks>"`` split into the bids' text and the tricks."""
    bids, sep, tricks = text.partition(":")
    if not sep or not tricks.strip().isdigit():
        raise ScorekeeperError(f"Write {example}, not {text!r}.")
    return bids.strip(), int(tricks)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One partner's bid and, for a nil bidder, whether the nil was kept and the tricks it won.

    >>> PlayerLine.parse("nil/2"), str(PlayerLine.parse("nil/2"))
    (PlayerLine(bid=Bid(0), kept=False, nil_tricks=2), 'nil/2')
    """

    bid: Bid
    kept: bool | None = None
    """For a nil bidder: whether the nil was kept (None: judged from ``nil_tricks``)."""
    nil_tricks: int = 0
    """For a nil bidder: the tricks that player won (0 for a kept nil)."""

    @classmethod
    def parse(cls, text: str) -> PlayerLine:
        """Read ``4``, ``nil`` (kept), ``nil/2`` (broken, won 2), ``bn``, ``bn/1``, ``10 for 200``."""
        bid_text, sep, won = text.partition("/")
        if not sep:
            return cls(parse_bid(bid_text))
        if not re.fullmatch(r"\s*\d{1,2}\s*", won):
            raise ScorekeeperError(f"After the / comes the tricks the nil bidder won, not {won!r}.")
        return cls(parse_bid(bid_text), kept=False, nil_tricks=int(won))

    def __str__(self) -> str:
        return f"{self.bid}/{self.nil_tricks}" if self.nil_tricks else str(self.bid)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the bid as text, and the nil outcome for a nil bidder."""
        out: dict[str, Any] = {"bid": str(self.bid)}
        if self.kept is not None:
            out["kept"] = self.kept
        if self.nil_tricks:
            out["nil_tricks"] = self.nil_tricks
        return out

    @classmethod
    def from_dict(cls, data: Any) -> PlayerLine:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict) or "bid" not in data:
            raise ScorekeeperError("Each partner needs a bid, e.g. {\"bid\": \"4\"}.")
        kept = data.get("kept")
        if kept is not None and not isinstance(kept, bool):
            raise ScorekeeperError(f"'kept' is true or false, not {kept!r}.")
        return cls(_bid_from(data["bid"]), kept, _whole(data.get("nil_tricks", 0), "A nil bidder's tricks"))


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's line for a hand: both partners' bids (none on a hand without bidding) and its tricks."""

    players: tuple[PlayerLine, ...]
    tricks: int

    @classmethod
    def parse(cls, text: str) -> TeamLine:
        """Read ``"<bid> <bid> : <tricks>"`` (``"nil/1 5 : 6"``); ``": <tricks>"`` on a hand without bids."""
        bids, tricks = _split_line(text, "a team as two bids, a colon and its tricks (\"nil 5 : 6\")")
        return cls(parse_bids(bids) if bids else (), tricks)

    @property
    def has_bids(self) -> bool:
        """Whether any bid was entered (a hand without bidding has none)."""
        return bool(self.players)

    def bid_text(self, rules: Rules) -> str:
        """The team's bid as a score sheet shows it: ``7``, ``nil + 5``, ``BN + 4``, ``10 for 200``.

        >>> r = Rules()
        >>> TeamLine.parse("nil/1 5 : 6").bid_text(r), TeamLine.parse("3 4 : 7").bid_text(r)
        ('nil + 5', '7')
        """
        bids = [p.bid for p in self.players]
        if not bids:
            return NO_BID
        if any(b.ten_for_two_hundred for b in bids):
            return "10 for 200"
        if any(b.is_nil(rules) for b in bids):
            return " + ".join("BN" if b.blind else b.written(rules) for b in bids)
        return str(sum(b.tricks for b in bids))

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"players": [p.to_dict() for p in self.players], "tricks": self.tricks}

    @classmethod
    def from_dict(cls, data: Any) -> TeamLine:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict) or not isinstance(data.get("players", []), list):
            raise ScorekeeperError("Each team needs its players' bids and its tricks.")
        players = tuple(PlayerLine.from_dict(p) for p in data.get("players", []))
        if len(players) not in (0, 2):
            raise ScorekeeperError(f"A team has 2 players, not {len(players)}.")
        return cls(players, _whole(data.get("tricks"), "A team's tricks"))


@dataclass(frozen=True, slots=True)
class SoloLine:
    """The line of a player who scores alone: the bid (None on a hand without bidding) and the tricks won.

    >>> SoloLine.parse("nil : 2"), str(SoloLine.parse("4 : 5"))
    (SoloLine(bid=Bid(0), tricks=2), '4 : 5')
    """

    bid: Bid | None
    tricks: int

    @classmethod
    def parse(cls, text: str) -> SoloLine:
        """Read ``"<bid> : <tricks>"`` (``"4 : 5"``, ``"bn : 0"``); ``": <tricks>"`` without bids."""
        bid, tricks = _split_line(text, "a player as a bid, a colon and the tricks won (\"4 : 5\")")
        return cls(parse_bid(bid) if bid else None, tricks)

    def __str__(self) -> str:
        return f"{'' if self.bid is None else self.bid} : {self.tricks}".lstrip()

    @property
    def has_bids(self) -> bool:
        """Whether a bid was entered (a hand without bidding has none)."""
        return self.bid is not None

    def bid_text(self, rules: Rules) -> str:
        """The bid as a score sheet shows it: ``4``, ``nil``, ``blind nil``, ``0`` where 0 is no nil."""
        return NO_BID if self.bid is None else self.bid.written(rules)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the bid as text (left out on a hand without bidding) and the tricks."""
        return {"tricks": self.tricks} if self.bid is None else {"bid": str(self.bid), "tricks": self.tricks}

    @classmethod
    def from_dict(cls, data: Any) -> SoloLine:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict):
            raise ScorekeeperError(
                "Each player needs a bid and the tricks won, e.g. {\"bid\": \"4\", \"tricks\": 5}.")
        bid = data.get("bid")
        return cls(None if bid is None else _bid_from(bid), _whole(data.get("tricks"), "A player's tricks"))


Line = TeamLine | SoloLine
"""A score column's line for one hand."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as the scorekeeper writes it down: a line per team or per player, and who reneged."""

    teams: tuple[TeamLine, ...] = ()
    players: tuple[SoloLine, ...] = ()
    renege: int | None = None
    """The team or player (counted from 0) caught reneging this hand, penalised as the rules say."""

    def __post_init__(self) -> None:
        if bool(self.teams) == bool(self.players):
            raise ScorekeeperError("A hand has a line for each team, or for each player alone.")

    @property
    def lines(self) -> tuple[Line, ...]:
        """The hand's line for each score column, in order."""
        return self.teams or self.players

    @property
    def has_bids(self) -> bool:
        """Whether any bid was entered (a hand without bidding has none)."""
        return any(line.has_bids for line in self.lines)

    @classmethod
    def parse(cls, first: str, second: str, renege: int | None = None) -> HandEntry:
        """Read each team as ``"<bid> <bid> : <tricks>"``, e.g. ``"nil/1 5 : 6"``."""
        return cls((TeamLine.parse(first), TeamLine.parse(second)), renege=renege)

    @classmethod
    def parse_players(cls, *lines: str, renege: int | None = None) -> HandEntry:
        """Read each player alone as ``"<bid> : <tricks>"``, e.g. ``"nil : 0"``, ``"4 : 5"``."""
        return cls(players=tuple(SoloLine.parse(t) for t in lines), renege=renege)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``teams`` (as in version 1) or ``players``, and ``renege``."""
        key = "teams" if self.teams else "players"
        return {key: [line.to_dict() for line in self.lines], "renege": self.renege}

    @classmethod
    def from_dict(cls, data: Any) -> HandEntry:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict) or ("teams" in data) == ("players" in data):
            raise ScorekeeperError("A hand needs a line for each team ('teams') or each player ('players').")
        renege = data.get("renege")
        if renege is not None:
            _whole(renege, "The one who reneged")
        if "teams" in data:
            if not isinstance(data["teams"], list) or len(data["teams"]) != 2:
                raise ScorekeeperError("A hand needs a line for each of the 2 teams.")
            return cls(tuple(TeamLine.from_dict(t) for t in data["teams"]), renege=renege)
        if not isinstance(data["players"], list) or not 2 <= len(data["players"]) <= 4:
            raise ScorekeeperError("A hand needs a line for each of its 2 to 4 players.")
        return cls(players=tuple(SoloLine.from_dict(p) for p in data["players"]), renege=renege)


def parse_bids(text: str) -> tuple[PlayerLine, PlayerLine]:
    """Both partners' bids from text such as ``"4 3"``, ``"nil 5"``, ``"blind nil 4"``, ``"10 for 200 3"``."""
    t = " ".join(text.lower().split())
    words = t.replace("blind nil", "bn").replace("10 for 200", "10for200").split()
    if len(words) != 2:
        raise ScorekeeperError(f"Give both partners' bids, such as \"4 3\" or \"nil 5\", not {text!r}.")
    return PlayerLine.parse(words[0]), PlayerLine.parse(words[1])


def bid_choices(rules: Rules) -> list[str]:
    """Every bid one player may write down under these rules, as the scorekeeper reads it.

    The bidding rules' own list (``BidRules.every_bid``), in the words the sheet reads back.

    >>> from spades.rules import NilRule
    >>> bid_choices(Rules(players=3, nil=NilRule.PLAIN))[:3], bid_choices(Rules(blind_nil=True))[:3]
    (['0', '1', '2'], ['nil', 'blind nil', '1'])
    """
    return [b.written(rules) for b in BidRules.of(rules).every_bid()]


def table_text(rules: Rules) -> str:
    """The table a score pad keeps, in words: who scores together, and the cards and tricks of a hand.

    >>> from spades.rules import find_preset
    >>> table_text(Rules())
    '4 players in two teams of partners: a score per team; 13 cards each, 13 tricks.'
    >>> table_text(find_preset("cutthroat"))
    '4 players, each alone (cutthroat): a score per player; 13 cards each, 13 tricks.'
    """
    if rules.has_partners:
        who = f"{rules.players} players in two teams of partners: a score per team"
    else:
        cutthroat = " (cutthroat)" if rules.players == 4 else ""
        who = f"{rules.players} players, each alone{cutthroat}: a score per player"
    return f"{who}; {rules.hand_size} cards each, {rules.hand_size} tricks."


def default_names(rules: Rules) -> tuple[str, ...]:
    """``Team 1``, ``Team 2`` for partners; ``Player 1`` ... for players alone."""
    word = "Team" if rules.has_partners else "Player"
    return tuple(f"{word} {i + 1}" for i in range(rules.sides))


@dataclass(frozen=True, slots=True)
class HandRow:
    """A scored hand: what was entered, the engine's score, and each column's total and bags after it."""

    number: int
    entry: HandEntry
    score: HandScore
    totals: tuple[int, ...]
    bags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The scored game: a row per hand, the running totals and bags, and the winner once there is one."""

    rows: tuple[HandRow, ...]
    totals: tuple[int, ...]
    bags: tuple[int, ...]
    winner: int | None
    tied: bool
    """The end was reached with the top scores level: one more hand decides it."""

    @property
    def over(self) -> bool:
        """Whether the game is won (no more hands may be entered)."""
        return self.winner is not None


@dataclass(frozen=True)
class ScoreGame:
    """A game on the score pad: the rules chosen at the start, a name per score column, every hand.

    Without names, the columns are ``Team 1``/``Team 2`` or ``Player 1``... Adding, correcting
    and removing hands return a new game; each is checked by rescoring the whole game, so an
    impossible hand is refused with a message naming its number.
    """

    rules: Rules = field(default_factory=Rules)
    names: tuple[str, ...] = ()
    hands: tuple[HandEntry, ...] = ()

    def __post_init__(self) -> None:
        r = self.rules
        if not self.names:
            object.__setattr__(self, "names", default_names(r))
        who = "team" if r.has_partners else "player"
        if len(self.names) != r.sides:
            alone = "" if r.has_partners else ", each player alone"
            raise ScorekeeperError(
                f"These rules keep {r.sides} scores{alone}: give {r.sides} names, not {len(self.names)}.")
        for i, name in enumerate(self.names):
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
                raise ScorekeeperError(f"{who.title()} {i + 1} needs a name of 1 to {MAX_NAME} characters.")
            if not name.isprintable():
                raise ScorekeeperError(f"{who.title()} {i + 1}'s name has a character that cannot be written "
                                       "(a control character, or half of a pair).")
        if len(set(self.names)) != len(self.names):
            raise ScorekeeperError(f"Give each {who} a name of its own.")
        if len(self.hands) > MAX_HANDS:
            raise ScorekeeperError(f"A game has at most {MAX_HANDS} hands, not {len(self.hands)}.")

    @property
    def who(self) -> str:
        """What a score column is: ``team`` or ``player``."""
        return "team" if self.rules.has_partners else "player"

    def no_bids(self, number: int) -> bool:
        """Whether hand ``number`` (from 1) is played without bidding (the first, where the rules say so)."""
        return self.rules.first_hand_no_bids and number == 1

    def add(self, hand: HandEntry) -> ScoreGame:
        """The game with one more hand, checked."""
        return self._checked((*self.hands, hand))

    def correct(self, number: int, hand: HandEntry) -> ScoreGame:
        """The game with hand ``number`` (from 1) replaced; every later hand is rescored."""
        i = self.index(number)
        return self._checked((*self.hands[:i], hand, *self.hands[i + 1:]))

    def remove(self, number: int) -> ScoreGame:
        """The game without hand ``number`` (from 1); every later hand is rescored."""
        i = self.index(number)
        return self._checked(self.hands[:i] + self.hands[i + 1:])

    def index(self, number: int) -> int:
        """The position of hand ``number`` (from 1) in ``hands``, or a ScorekeeperError."""
        if not 1 <= number <= len(self.hands):
            raise ScorekeeperError(f"There is no hand {number}: the game has {len(self.hands)}.")
        return number - 1

    def _checked(self, hands: tuple[HandEntry, ...]) -> ScoreGame:
        """This game with these hands, once they score (a hand that cannot be raises and changes nothing)."""
        game = replace(self, hands=hands)
        game.sheet()
        return game

    def sheet(self) -> ScoreSheet:
        """Every hand scored from the first (once: the game cannot change); an impossible hand raises."""
        return self._sheet

    @cached_property
    def _sheet(self) -> ScoreSheet:
        """The score sheet, worked out on first use; the first impossible hand raises ScorekeeperError."""
        rows: list[HandRow] = []
        totals = (0,) * self.rules.sides
        bags = (0,) * self.rules.sides
        winner: int | None = None
        for n, entry in enumerate(self.hands, start=1):
            if winner is not None:
                raise ScorekeeperError(
                    f"Hand {n}: the game was over after hand {n - 1}; remove the hands after it.")
            try:
                score = self._score(entry, n, totals, bags)
            except SpadesError as e:
                raise ScorekeeperError(f"Hand {n}: {e}") from None
            totals = tuple(t + p for t, p in zip(totals, score.points, strict=True))
            bags = score.bags
            rows.append(HandRow(n, entry, score, totals, bags))
            winner = game_winner(self.rules, totals)
        return ScoreSheet(tuple(rows), totals, bags, winner, winner is None and game_over(self.rules, totals))

    def _score(self, entry: HandEntry, number: int, totals: tuple[int, ...],
               bags: tuple[int, ...]) -> HandScore:
        """Check one hand against the rules and the scores before it, then score it with the engine."""
        r = self.rules
        lines = self._lines(entry)
        if any(line.tricks < 0 for line in lines):
            raise ScorekeeperError(f"A {self.who} cannot win fewer than 0 tricks.")
        won = sum(line.tricks for line in lines)
        if won != r.hand_size:
            raise ScorekeeperError(
                f"The tricks add up to {' + '.join(str(line.tricks) for line in lines)} = {won},"
                f" not {r.hand_size}.")
        if entry.renege is not None and not 0 <= entry.renege < r.sides:
            raise ScorekeeperError(f"There is no {self.who} {entry.renege + 1} to have reneged.")
        no_bids = self.no_bids(number)
        if no_bids and entry.renege is not None:
            raise ScorekeeperError("A hand without bids has no bid for a renege to set.")
        seat_bids: list[Bid | None] = [None] * r.players
        seat_tricks = [0] * r.players
        for side, line in enumerate(lines):
            name = self.names[side]
            seats = r.seats_of(side)
            if no_bids:
                if line.has_bids:
                    raise ScorekeeperError(
                        f"{name}: hand 1 is played without bidding; enter only the tricks.")
                seat_tricks[seats[0]] = line.tricks
                continue
            behind = max(t for i, t in enumerate(totals) if i != side) - totals[side]
            if isinstance(line, TeamLine):
                pairs = self._team_tricks(name, line, behind)
            else:
                pairs = [(self._solo_bid(name, line, behind), line.tricks)]
            for seat, (bid, tricks) in zip(seats, pairs, strict=True):
                seat_bids[seat] = bid
                seat_tricks[seat] = tricks
        return score_hand(r, seat_bids, seat_tricks, bags, no_bids=no_bids, renege=entry.renege)

    def _lines(self, entry: HandEntry) -> tuple[Line, ...]:
        """The entry's lines, if they are of the kind and number these rules keep."""
        r = self.rules
        if r.has_partners and not entry.teams:
            raise ScorekeeperError("These rules have two teams of partners: enter a line per team.")
        if not r.has_partners and not entry.players:
            raise ScorekeeperError("Each player scores alone under these rules: enter a line per player.")
        if len(entry.lines) != r.sides:
            raise ScorekeeperError(f"Enter a line for each of the {r.sides} players, not {len(entry.lines)}.")
        return entry.lines

    def _solo_bid(self, name: str, line: SoloLine, behind: int) -> Bid:
        """Check a lone player's bid against the rules (asked of ``spades.bidding``)."""
        if line.bid is None:
            raise ScorekeeperError(f"{name}: enter the bid.")
        bid = line.bid
        _refuse(name, BidRules.of(self.rules).refusal(
            bid, None, looked=not bid.blind, spades=None, blind_open=blind_nil_open(self.rules, behind)))
        return bid

    def _team_tricks(self, name: str, team: TeamLine, behind: int) -> list[tuple[Bid, int]]:
        """Check a team's bids (asked of ``spades.bidding``) and tricks; each partner's bid with the
        tricks to score for that seat."""
        if not team.players:
            raise ScorekeeperError(f"{name}: enter both partners' bids.")
        first, second = (p.bid for p in team.players)
        _refuse(name, BidRules.of(self.rules).team_refusal(first, second, blind_nil_open(self.rules, behind)))
        nils = [self._check_player(name, p) for p in team.players]
        nil_won = sum(p.nil_tricks for p, is_nil in zip(team.players, nils, strict=True) if is_nil)
        if all(nils) and nil_won != team.tricks:
            raise ScorekeeperError(
                f"{name}: both partners bid nil, so their tricks ({nil_won}) must make the team's"
                f" {team.tricks}.")
        if nil_won > team.tricks:
            raise ScorekeeperError(
                f"{name}: the nil bidder won {plural(nil_won, 'trick')}, more than the team's {team.tricks}.")
        rest = team.tricks - nil_won
        out: list[tuple[Bid, int]] = []
        for p, is_nil in zip(team.players, nils, strict=True):
            if is_nil:
                out.append((p.bid, p.nil_tricks))
            else:
                out.append((p.bid, rest))
                rest = 0
        return out

    def _check_player(self, name: str, p: PlayerLine) -> bool:
        """Check one partner's nil outcome as written down; whether the bid is a nil."""
        bid = p.bid
        if not bid.is_nil(self.rules):
            if p.kept is not None or p.nil_tricks:
                raise ScorekeeperError(f"{name}: only a nil bidder's tricks are entered apart (bid {bid}).")
            return False
        if p.nil_tricks < 0:
            raise ScorekeeperError(f"{name}: a nil bidder cannot win fewer than 0 tricks.")
        if p.kept and p.nil_tricks:
            raise ScorekeeperError(
                f"{name}: a {bid} marked kept cannot have won {plural(p.nil_tricks, 'trick')}.")
        if p.kept is False and not p.nil_tricks:
            raise ScorekeeperError(f"{name}: a broken {bid} won at least 1 trick; enter how many.")
        return True

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as the page keeps it and the CLI saves it."""
        return {"version": FORMAT_VERSION, "rules": self.rules.to_dict(), "names": list(self.names),
                "hands": [h.to_dict() for h in self.hands]}

    @classmethod
    def from_dict(cls, data: Any) -> ScoreGame:
        """Rebuild and check a game from ``to_dict`` output (version 1 or 2); bad input: a SpadesError."""
        if not isinstance(data, dict):
            raise ScorekeeperError("A scorekeeper game is an object with rules, names and hands.")
        if data.get("version", FORMAT_VERSION) not in _READABLE:
            raise ScorekeeperError(f"Unknown scorekeeper format version {data.get('version')!r}.")
        names = data.get("names", [])
        if not isinstance(names, list) or len(names) > 4:
            raise ScorekeeperError("'names' is a list of the teams' or players' names.")
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise ScorekeeperError("'hands' is a list of hands.")
        entries = []
        for n, hand in enumerate(hands, start=1):
            try:
                entries.append(HandEntry.from_dict(hand))
            except SpadesError as e:
                raise ScorekeeperError(f"Hand {n}: {e}") from None
        game = cls(Rules.from_dict(data.get("rules", {})), tuple(names), tuple(entries))
        game.sheet()
        return game


def status_text(game: ScoreGame) -> str:
    """Where the game stands, in one line: the totals and bags, the winner, or a tie to play off."""
    sheet = game.sheet()
    names, totals = game.names, sheet.totals
    if sheet.winner is not None:
        w = sheet.winner
        if game.rules.has_partners:
            return f"{names[w]} win, {totals[w]} to {totals[1 - w]}."
        others = ", ".join(f"{n} {t}" for i, (n, t) in enumerate(zip(names, totals, strict=True)) if i != w)
        return f"{names[w]} wins with {totals[w]} ({others})."
    if sheet.tied:
        top = max(totals)
        if game.rules.has_partners:
            return f"Level at {top} at the end: one more hand decides it."
        level = " and ".join(n for n, t in zip(names, totals, strict=True) if t == top)
        return f"{level} are level at {top} at the end: one more hand decides it."
    return ", ".join(f"{n} {t} ({plural(b, 'bag')})"
                     for n, t, b in zip(names, totals, sheet.bags, strict=True)) + "."
