"""Keeping score for a game played with real cards: hands entered after the fact, checked, scored.

A ``ScoreGame`` is the paper score pad: two team names, the rules, and every hand entered.
It is rescored from the first hand each time, so correcting or removing a hand rescores all
that follow. Each hand is scored by ``spades.scoring.score_hand``; this module only turns
what a scorekeeper writes down (bids, team tricks, a failed nil's tricks) into seat-by-seat
input and refuses what cannot have happened at a table.

The reference's three-hand example:

>>> g = ScoreGame(names=("Us", "Them"))
>>> g = g.add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
>>> g = g.add(HandEntry.parse("2 2 : 7", "nil 5 : 6"))
>>> g = g.add(HandEntry.parse("3 2 : 8", "3 2 : 5"))
>>> [row.totals for row in g.sheet().rows]
[(44, -60), (87, 91), (40, 141)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from spades.errors import SpadesError
from spades.rules import NilRule, Rules
from spades.scoring import Bid, HandScore, game_over, game_winner, score_hand

__all__ = [
    "FORMAT_VERSION",
    "HandEntry",
    "HandRow",
    "PlayerLine",
    "ScoreGame",
    "ScoreSheet",
    "ScorekeeperError",
    "TeamLine",
    "parse_bids",
    "run_terminal",
    "sheet_text",
    "status_text",
]

FORMAT_VERSION = 1
TRICKS = 13


class ScorekeeperError(SpadesError):
    """A hand or a game that cannot have happened at the table; the message says what to fix."""


def _whole(value: Any, what: str) -> int:
    """A whole number from JSON input, or a clear error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScorekeeperError(f"{what} must be a whole number, not {value!r}.")
    return value


def _tricks(n: int) -> str:
    """``1 trick``, ``2 tricks``."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _bid_from(value: Any) -> Bid:
    """A bid from JSON: text such as ``"4"``, ``"nil"``, ``"blind nil"``, ``"10 for 200"``, or a number."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ScorekeeperError(f"A bid is a number, nil, blind nil or 10 for 200, not {value!r}.")
    return Bid.parse(str(value))


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's bid and, for a nil bidder, whether the nil was kept and the tricks it won.

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
            return cls(Bid.parse(bid_text))
        if not re.fullmatch(r"\s*\d{1,2}\s*", won):
            raise ScorekeeperError(f"After the / comes the tricks the nil bidder won, not {won!r}.")
        return cls(Bid.parse(bid_text), kept=False, nil_tricks=int(won))

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
            raise ScorekeeperError("Each player needs a bid, e.g. {\"bid\": \"4\"}.")
        kept = data.get("kept")
        if kept is not None and not isinstance(kept, bool):
            raise ScorekeeperError(f"'kept' is true or false, not {kept!r}.")
        return cls(_bid_from(data["bid"]), kept, _whole(data.get("nil_tricks", 0), "A nil bidder's tricks"))


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's line for a hand: both partners' bids and the tricks the team won."""

    players: tuple[PlayerLine, PlayerLine]
    tricks: int

    @property
    def bid_text(self) -> str:
        """The team's bid as a score sheet shows it: ``7``, ``nil + 5``, ``BN + 4``, ``10 for 200``.

        >>> _parse_team("nil/1 5 : 6").bid_text, _parse_team("3 4 : 7").bid_text
        ('nil + 5', '7')
        """
        bids = [p.bid for p in self.players]
        if any(b.ten_for_two_hundred for b in bids):
            return "10 for 200"
        if any(b.is_zero for b in bids):
            return " + ".join("BN" if b.blind else str(b) for b in bids)
        return str(sum(b.tricks for b in bids))

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"players": [p.to_dict() for p in self.players], "tricks": self.tricks}

    @classmethod
    def from_dict(cls, data: Any) -> TeamLine:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise ScorekeeperError("Each team needs its players' bids and its tricks.")
        players = [PlayerLine.from_dict(p) for p in data["players"]]
        if len(players) != 2:
            raise ScorekeeperError(f"A team has 2 players, not {len(players)}.")
        return cls((players[0], players[1]), _whole(data.get("tricks"), "A team's tricks"))


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as the scorekeeper writes it down: each team's line and who reneged, if anyone."""

    teams: tuple[TeamLine, TeamLine]
    renege: int | None = None
    """The team (0 or 1) caught reneging this hand, penalised as the rules say."""

    @classmethod
    def parse(cls, first: str, second: str, renege: int | None = None) -> HandEntry:
        """Read each team as ``"<bid> <bid> : <tricks>"``, e.g. ``"nil/1 5 : 6"``."""
        return cls((_parse_team(first), _parse_team(second)), renege)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"teams": [t.to_dict() for t in self.teams], "renege": self.renege}

    @classmethod
    def from_dict(cls, data: Any) -> HandEntry:
        """Rebuild from ``to_dict`` output; malformed input raises ScorekeeperError."""
        if not isinstance(data, dict) or not isinstance(data.get("teams"), list) or len(data["teams"]) != 2:
            raise ScorekeeperError("A hand needs a line for each of the 2 teams.")
        renege = data.get("renege")
        if renege is not None and renege not in (0, 1):
            raise ScorekeeperError(f"The reneging team is 0, 1 or null, not {renege!r}.")
        first, second = (TeamLine.from_dict(t) for t in data["teams"])
        return cls((first, second), renege)


def _parse_team(text: str) -> TeamLine:
    """A team line from ``"<bid> <bid> : <tricks>"`` (``blind nil`` and ``10 for 200`` may be spelled out)."""
    bids, sep, tricks = text.partition(":")
    if not sep or not tricks.strip().isdigit():
        raise ScorekeeperError(
            f"Write a team as two bids, a colon and its tricks (\"nil 5 : 6\"), not {text!r}.")
    return TeamLine(parse_bids(bids), int(tricks))


def parse_bids(text: str) -> tuple[PlayerLine, PlayerLine]:
    """Both partners' bids from text such as ``"4 3"``, ``"nil 5"``, ``"blind nil 4"``, ``"10 for 200 3"``."""
    t = " ".join(text.lower().split())
    words = t.replace("blind nil", "bn").replace("10 for 200", "10for200").split()
    if len(words) != 2:
        raise ScorekeeperError(f"Give both partners' bids, such as \"4 3\" or \"nil 5\", not {text!r}.")
    return PlayerLine.parse(words[0]), PlayerLine.parse(words[1])


@dataclass(frozen=True, slots=True)
class HandRow:
    """A scored hand: what was entered, the engine's score, and each team's total and bags after it."""

    number: int
    entry: HandEntry
    score: HandScore
    totals: tuple[int, int]
    bags: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The scored game: a row per hand, and the winner once a team has won."""

    rows: tuple[HandRow, ...]
    winner: int | None
    tied: bool
    """The end was reached with the top scores level: one more hand decides it."""

    @property
    def totals(self) -> tuple[int, int]:
        """Each team's running total after the last hand."""
        return self.rows[-1].totals if self.rows else (0, 0)

    @property
    def bags(self) -> tuple[int, int]:
        """Each team's bags held after the last hand."""
        return self.rows[-1].bags if self.rows else (0, 0)

    @property
    def over(self) -> bool:
        """Whether the game is won (no more hands may be entered)."""
        return self.winner is not None


@dataclass(frozen=True)
class ScoreGame:
    """A game on the score pad: the rules chosen at the start, two team names, every hand entered.

    Adding, correcting and removing hands return a new game; each is checked by rescoring the
    whole game, so an impossible hand is refused with a message naming its number.
    """

    rules: Rules = field(default_factory=Rules)
    names: tuple[str, str] = ("Team 1", "Team 2")
    hands: tuple[HandEntry, ...] = ()

    def __post_init__(self) -> None:
        r = self.rules
        if not r.has_partners:
            raise ScorekeeperError("The scorekeeper is for two teams of partners (4 players).")
        if r.first_hand_no_bids:
            raise ScorekeeperError("The scorekeeper does not play the first hand without bidding.")
        for i, name in enumerate(self.names):
            if not isinstance(name, str) or not name.strip() or len(name) > 40:
                raise ScorekeeperError(f"Team {i + 1} needs a name of 1 to 40 characters.")

    def add(self, hand: HandEntry) -> ScoreGame:
        """The game with one more hand, checked."""
        return self._checked((*self.hands, hand))

    def correct(self, number: int, hand: HandEntry) -> ScoreGame:
        """The game with hand ``number`` (from 1) replaced; every later hand is rescored."""
        i = self._index(number)
        return self._checked((*self.hands[:i], hand, *self.hands[i + 1:]))

    def remove(self, number: int) -> ScoreGame:
        """The game without hand ``number`` (from 1); every later hand is rescored."""
        i = self._index(number)
        return self._checked(self.hands[:i] + self.hands[i + 1:])

    def _index(self, number: int) -> int:
        if not 1 <= number <= len(self.hands):
            raise ScorekeeperError(f"There is no hand {number}: the game has {len(self.hands)}.")
        return number - 1

    def _checked(self, hands: tuple[HandEntry, ...]) -> ScoreGame:
        game = replace(self, hands=hands)
        game.sheet()
        return game

    def sheet(self) -> ScoreSheet:
        """Score every hand from the first; the first impossible hand raises ScorekeeperError."""
        rows: list[HandRow] = []
        totals = (0, 0)
        bags = (0, 0)
        winner: int | None = None
        for n, entry in enumerate(self.hands, start=1):
            if winner is not None:
                raise ScorekeeperError(
                    f"Hand {n}: the game was over after hand {n - 1}; remove the hands after it.")
            try:
                score = self._score(entry, totals, bags)
            except SpadesError as e:
                raise ScorekeeperError(f"Hand {n}: {e}") from None
            totals = (totals[0] + score.points[0], totals[1] + score.points[1])
            bags = (score.bags[0], score.bags[1])
            rows.append(HandRow(n, entry, score, totals, bags))
            winner = game_winner(self.rules, totals)
        return ScoreSheet(tuple(rows), winner, winner is None and game_over(self.rules, totals))

    def _score(self, entry: HandEntry, totals: tuple[int, int], bags: tuple[int, int]) -> HandScore:
        """Check one hand against the rules and the scores before it, then score it with the engine."""
        r = self.rules
        first, second = entry.teams
        if first.tricks < 0 or second.tricks < 0:
            raise ScorekeeperError("A team cannot win fewer than 0 tricks.")
        if first.tricks + second.tricks != TRICKS:
            raise ScorekeeperError(
                f"The tricks add up to {first.tricks} + {second.tricks} = {first.tricks + second.tricks},"
                f" not {TRICKS}.")
        seat_bids: list[Bid | None] = [None] * 4
        seat_tricks = [0] * 4
        for side, team in enumerate(entry.teams):
            behind = totals[1 - side] - totals[side]
            for k, (bid, won) in enumerate(self._team_tricks(self.names[side], team, behind)):
                seat_bids[side + 2 * k] = bid
                seat_tricks[side + 2 * k] = won
        return score_hand(r, seat_bids, seat_tricks, bags, renege=entry.renege)

    def _team_tricks(self, name: str, team: TeamLine, behind: int) -> list[tuple[Bid, int]]:
        """Check a team's bids and tricks; each partner's bid with the tricks to score for that seat."""
        r = self.rules
        nils = [self._check_player(name, p, behind) for p in team.players]
        bids = [p.bid for p in team.players]
        numbers = [b.tricks for b, is_nil in zip(bids, nils, strict=True) if not is_nil]
        tens = [b for b in bids if b.ten_for_two_hundred]
        if tens and (len(tens) == 2 or any(nils)):
            raise ScorekeeperError(
                f"{name}: 10 for 200 is bid by one partner, after the other bids a number.")
        contract = 10 if tens else sum(numbers)
        if contract > TRICKS:
            raise ScorekeeperError(f"{name} bid {contract} tricks, more than the {TRICKS} in a hand.")
        if r.min_team_bid and numbers and contract < r.min_team_bid:
            raise ScorekeeperError(
                f"{name} bid {contract}: a team must bid at least {r.min_team_bid} (board).")
        nil_won = sum(p.nil_tricks for p, is_nil in zip(team.players, nils, strict=True) if is_nil)
        if all(nils) and nil_won != team.tricks:
            raise ScorekeeperError(
                f"{name}: both partners bid nil, so their tricks ({nil_won}) must make the team's"
                f" {team.tricks}.")
        if nil_won > team.tricks:
            raise ScorekeeperError(
                f"{name}: the nil bidder won {_tricks(nil_won)}, more than the team's {team.tricks}.")
        rest = team.tricks - nil_won
        out: list[tuple[Bid, int]] = []
        for p, is_nil in zip(team.players, nils, strict=True):
            if is_nil:
                out.append((p.bid, p.nil_tricks))
            else:
                out.append((p.bid, rest))
                rest = 0
        return out

    def _check_player(self, name: str, p: PlayerLine, behind: int) -> bool:
        """Check one player's line against the rules; whether the bid is a nil."""
        r = self.rules
        bid = p.bid
        if bid.tricks > TRICKS:
            raise ScorekeeperError(
                f"{name}: a bid of {bid.tricks} is more than the {TRICKS} tricks in a hand.")
        if bid.ten_for_two_hundred and not r.ten_for_two_hundred:
            raise ScorekeeperError(f"{name}: these rules do not have the 10 for 200 bid.")
        if bid.blind and not r.blind_nil:
            raise ScorekeeperError(f"{name}: these rules do not allow blind nil.")
        if bid.blind and behind < r.blind_nil_deficit:
            raise ScorekeeperError(
                f"{name}: blind nil is only for a team at least {r.blind_nil_deficit} points behind.")
        if bid.tricks == 0 and not bid.blind and r.nil is NilRule.NONE:
            raise ScorekeeperError(f"{name}: these rules have no nil; bid at least 1.")
        if not bid.is_nil(self.rules):
            if p.kept is not None or p.nil_tricks:
                raise ScorekeeperError(f"{name}: only a nil bidder's tricks are entered apart (bid {bid}).")
            return False
        if p.nil_tricks < 0:
            raise ScorekeeperError(f"{name}: a nil bidder cannot win fewer than 0 tricks.")
        if p.kept and p.nil_tricks:
            raise ScorekeeperError(
                f"{name}: a {bid} marked kept cannot have won {_tricks(p.nil_tricks)}.")
        if p.kept is False and not p.nil_tricks:
            raise ScorekeeperError(f"{name}: a broken {bid} won at least 1 trick; enter how many.")
        return True

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as the page keeps it and the CLI saves it."""
        return {"version": FORMAT_VERSION, "rules": self.rules.to_dict(), "names": list(self.names),
                "hands": [h.to_dict() for h in self.hands]}

    @classmethod
    def from_dict(cls, data: Any) -> ScoreGame:
        """Rebuild and check a game from ``to_dict`` output; bad input raises a SpadesError."""
        if not isinstance(data, dict):
            raise ScorekeeperError("A scorekeeper game is an object with rules, names and hands.")
        if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
            raise ScorekeeperError(f"Unknown scorekeeper format version {data.get('version')!r}.")
        names = data.get("names", ["Team 1", "Team 2"])
        if not isinstance(names, list) or len(names) != 2:
            raise ScorekeeperError("A game needs the names of its 2 teams.")
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise ScorekeeperError("'hands' is a list of hands.")
        game = cls(Rules.from_dict(data.get("rules", {})), (names[0], names[1]),
                   tuple(HandEntry.from_dict(h) for h in hands))
        game.sheet()
        return game


def status_text(game: ScoreGame) -> str:
    """Where the game stands, in one line: the totals and bags, the winner, or a tie to play off."""
    sheet = game.sheet()
    a, b = game.names
    (ta, tb), (ba, bb) = sheet.totals, sheet.bags
    if sheet.winner is not None:
        w = sheet.winner
        return f"{game.names[w]} win, {sheet.totals[w]} to {sheet.totals[1 - w]}."
    if sheet.tied:
        return f"Level at {ta} at the end: one more hand decides it."
    return f"{a} {ta} ({_bags(ba)}), {b} {tb} ({_bags(bb)})."


def _bags(n: int) -> str:
    return f"{n} bag" if n == 1 else f"{n} bags"


def sheet_text(game: ScoreGame) -> str:
    """The game as a score sheet in text: per hand and team the bid, tricks, points, bags and total.

    >>> g = ScoreGame(names=("Us", "Them")).add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
    >>> print(sheet_text(g))
    Hand | Us                             | Them
         |    Bid Tricks Points Bags Total|    Bid Tricks Points Bags Total
       1 |      4      8    +44    4    44|      6      5    -60    0   -60
    Us 44 (4 bags), Them -60 (0 bags).
    """
    cols = "    Bid Tricks Points Bags Total"
    lines = [f"Hand | {game.names[0]:<{len(cols) - 1}}| {game.names[1]}", f"     |{cols}|{cols}"]
    for row in game.sheet().rows:
        cells = [f"{t.bid_text:>7} {t.tricks:>6} {row.score.points[s]:>+6} {row.bags[s]:>4}"
                 f" {row.totals[s]:>5}" for s, t in enumerate(row.entry.teams)]
        lines.append(f"{row.number:>4} |{cells[0]}|{cells[1]}")
    lines.append(status_text(game))
    return "\n".join(lines)


_TERMINAL_HELP = """Enter each hand after it is played. Bids: both partners, e.g. "4 3", "nil 5", "bn 4",
"10 for 200 3". At the bids prompt you may also type: sheet, fix N (re-enter hand N),
drop N (remove hand N), quit."""


def _number(text: str, what: str, default: int | None = None) -> int:
    """A number from 0 to 13 typed at a prompt (Enter takes the default, if any)."""
    t = text.strip()
    if not t and default is not None:
        return default
    if not t.isdigit() or int(t) > TRICKS:
        raise ScorekeeperError(f"{what}: a number from 0 to {TRICKS}, not {text!r}.")
    return int(t)


def _ask_hand(game: ScoreGame, ask: Callable[[str], str], first_bids: str) -> HandEntry:
    """Prompt for the rest of a hand whose first team's bids were already typed."""
    teams: list[TeamLine] = []
    for side, name in enumerate(game.names):
        players = parse_bids(first_bids if side == 0 else ask(f"  {name} bids: "))
        default = TRICKS - teams[0].tricks if side else None
        prompt = f"  {name} tricks [{default}]: " if default is not None else f"  {name} tricks: "
        tricks = _number(ask(prompt), f"Tricks for {name}", default)
        lines = []
        for p in players:
            if p.bid.is_nil(game.rules):
                won = _number(ask(f"  {name}: tricks the {p.bid} bidder won [0]: "), "A nil's tricks", 0)
                p = replace(p, nil_tricks=won)
            lines.append(p)
        teams.append(TeamLine((lines[0], lines[1]), tricks))
    renege_text = ask(f"  Reneged? Enter for nobody, or 1 ({game.names[0]}) or 2 ({game.names[1]}): ").strip()
    if renege_text not in ("", "1", "2"):
        raise ScorekeeperError(f"Reneged is Enter, 1 or 2, not {renege_text!r}.")
    return HandEntry((teams[0], teams[1]), int(renege_text) - 1 if renege_text else None)


def run_terminal(game: ScoreGame, ask: Callable[[str], str], say: Callable[[str], None],
                 save: Callable[[ScoreGame], None]) -> ScoreGame:
    """Keep score at a terminal until the game is won, or ``quit``/end of input; returns the game.

    ``ask`` prompts and returns a line (raising EOFError at the end), ``say`` prints, and
    ``save`` is called after every change so an interrupted game can be resumed.
    """
    say(_TERMINAL_HELP)
    if game.hands:
        say(sheet_text(game))
    while not game.sheet().over:
        try:
            line = ask(f"Hand {len(game.hands) + 1}. {game.names[0]} bids: ").strip()
            command, _, arg = line.lower().partition(" ")
            if command in ("quit", "q", "exit"):
                break
            if command == "sheet":
                say(sheet_text(game))
                continue
            if command in ("fix", "drop"):
                number = _number(arg, "The hand to " + command)
                game._index(number)
                if command == "drop":
                    game = game.remove(number)
                else:
                    game = game.correct(number, _ask_hand(game, ask, ask(f"  {game.names[0]} bids: ")))
                say(sheet_text(game))
            else:
                game = game.add(_ask_hand(game, ask, line))
                say(status_text(game))
        except EOFError:
            break
        except SpadesError as e:
            say(f"  Not scored: {e}")
            continue
        save(game)
    say(sheet_text(game))
    return game
