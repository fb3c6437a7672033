"""What a hosted tournament is: its choices, the people registered, the tables each round opened; and its
results, made from what those tables played.

A tournament is stored as one JSON document (``to_json``) with a version. People register one by one and
make the entrants in registration order: duplicate pairs and fixed-pair Swiss pair the first with the
second..., a team of four is four in a row, individual Swiss seats each person on their own; a missing
partner or team-mate is a computer player. Duplicate pairs seats the pairs by the Mitchell movement
(``spades.tournament.movement``), an odd number of pairs filled by a computer pair; Swiss and teams pair
each round from the standings so far (``spades.tournament.swiss``), and an entrant left over sits the round
out with a bye. Every table of round ``r`` plays that round's boards, deal numbers drawn from the
tournament's secret seed as the command line's are; or, in a Swiss of rounds to a target, a game of its
own to the rules' target (its deal number drawn from the host's secret, a board of its own in the results).

A board counts (in the standings and its traveller) once every table of its round has played it, so that
nothing a table sees tells another about cards it has still to play; a round the host ended counts the
boards every table had played by then (the others are not compared, and a table still playing one learns
nothing of it). A game to a target counts once it is over, or as it stood when the host ended the round.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spades.arena import deal_number
from spades.game import HandResult
from spades.rules import Rules
from spades.scoring import game_winner
from spades.tournament.movement import mitchell
from spades.tournament.run import Entry, Format, Round, TournamentResult, Traveller, board_played
from spades.tournament.scores import BoardScore, Seating
from spades.tournament.swiss import met_before, swiss_round

__all__ = ["Person", "Tournament"]


@dataclass
class Person:
    """Someone registered: their name, the hash of their secret registration token, whether a computer
    player plays for them from now on (withdrawn after the start, or replaced by the host), and the hash of
    their player token if they registered with an account (their seats are linked to it)."""

    name: str
    token: str
    computer: bool = False
    player: str | None = None


@dataclass
class Tournament:
    """A tournament as stored: what the host chose, who registered, what each round opened."""

    code: str
    name: str
    rules: Rules
    rounds: int
    boards: int
    """Boards per round."""
    level: str
    turn_seconds: float
    grace: float
    seed: int
    """The secret seed the boards' deal numbers come from (shown once the tournament is over)."""
    host: str
    """The hash of the host's secret token."""
    format: Format = "duplicate-pairs"
    individual: bool = False
    """Swiss only: each person is an entrant, partners changing every round."""
    to_target: bool = False
    """Swiss only: a round is a game to the rules' target at each table (``boards`` is then 0)."""
    people: list[Person] = field(default_factory=list)
    tables: list[list[str]] = field(default_factory=list)
    """The codes of each opened round's tables, table by table."""
    paired: list[tuple[tuple[Seating, ...], tuple[int, ...]]] = field(default_factory=list)
    """Swiss and teams: each opened round's tables and byes, as the standings paired them."""
    cuts: list[list[int] | None] = field(default_factory=list)
    """Per opened round: the boards of each table that count since the host ended it (None: not ended)."""
    over: bool = False

    @property
    def status(self) -> Literal["open", "playing", "over"]:
        """``open`` (registering), ``playing`` or ``over``."""
        return "over" if self.over else "playing" if self.tables else "open"

    @property
    def size(self) -> int:
        """The people an entrant is: 1 in individual Swiss, 4 in teams, else 2 (a pair)."""
        return 1 if self.individual else 4 if self.format == "teams" else 2

    @property
    def entrants(self) -> int:
        """The entrants people make, in registration order (the last one's missing people computers)."""
        return -(-len(self.people) // self.size)

    @property
    def current(self) -> int:
        """The round being played (or the last one played), from 0; -1 before the start."""
        return len(self.tables) - 1

    def entrant_name(self, entrant: int) -> str:
        """An entrant's name: its people's, a computer player's for a missing one; the filling pair's."""
        if entrant >= self.entrants:
            return "Computer pair"
        names = [self.people[i].name if i < len(self.people) else "Computer" for i in self.members(entrant)]
        return " & ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " & " + names[-1]

    def members(self, entrant: int) -> range:
        """The people numbers an entrant seats (those past the last person are computer players)."""
        return range(entrant * self.size, (entrant + 1) * self.size)

    def movement(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Duplicate pairs: each round's tables as (North-South pair, East-West pair); an odd field's
        computer pair is numbered ``entrants`` (``TournamentError`` if the field cannot play the rounds)."""
        return mitchell(self.entrants, self.rounds)

    def round_tables(self, r: int) -> tuple[Seating, ...]:
        """Round ``r``'s tables: the movement's (duplicate pairs), or as the standings paired them."""
        if self.format == "duplicate-pairs":
            return tuple(Seating(r, t, (ns,), (ew,)) for t, (ns, ew) in enumerate(self.movement()[r]))
        return self.paired[r][0]

    def byes(self, r: int) -> tuple[int, ...]:
        """The entrants who sit round ``r`` out (Swiss and teams, when the field does not divide)."""
        return () if self.format == "duplicate-pairs" else self.paired[r][1]

    def repeats(self, r: int) -> bool:
        """Whether round ``r`` repeats a match (pairs, teams) or a partnership (individual) of an earlier
        round: only when no pairing of its entrants avoids it."""
        earlier = [s for past in range(r) for s in self.round_tables(past)]
        return bool(met_before(self.round_tables(r), self.individual) & met_before(earlier, self.individual))

    def seats(self, r: int, t: int) -> list[int | None]:
        """Who sits North, East, South and West at table ``t`` of round ``r``: a person's number, or None
        where a computer player sits. A pair sits North and South (or East and West) in its order; a team's
        first two play at the first table of its match, the other two at the second."""
        s = self.round_tables(r)[t]
        if self.individual:
            (north, south), (east, west) = s.ns, s.ew
        else:
            first = 2 if self.format == "teams" and s.table % 2 else 0
            north, south = self.members(s.ns[0])[first:first + 2]
            east, west = self.members(s.ew[0])[first:first + 2]
        return [i if i < len(self.people) else None for i in (north, east, south, west)]

    def first_board(self, r: int) -> int:
        """The number (from 0) of round ``r``'s first board: a round to a target makes each table's game a
        board."""
        return sum(len(self.round_tables(p)) for p in range(r)) if self.to_target else r * self.boards

    def deals(self, r: int) -> tuple[int, ...]:
        """Round ``r``'s boards as deal numbers. To a target, each table's game's: keyed by the host's
        secret, since its people see its number once it is over, and it must tell them no other table's."""
        first = self.first_board(r)
        if self.to_target:
            return tuple(int.from_bytes(hashlib.blake2b(str(first + t).encode(), digest_size=6,
                                                        key=self.host.encode()[:64]).digest()) + 1
                         for t in range(len(self.round_tables(r))))
        return tuple(deal_number(self.seed, first + b) for b in range(self.boards))

    def first_deal(self, r: int, table: int) -> int:
        """The deal number table ``table`` of round ``r`` deals first: the round's first board, or its
        game."""
        return self.deals(r)[table if self.to_target else 0]

    def done(self, hands: Sequence[HandResult]) -> bool:
        """Whether a table has played all it plays: its boards, or its game to the target."""
        if self.to_target:
            return bool(hands) and game_winner(self.rules, hands[-1].scores_after) is not None
        return len(hands) >= self.boards

    def pair_next(self, played: Sequence[Sequence[Sequence[HandResult]]]) -> None:
        """Swiss and teams: pair the next round from the standings after what was played (round one from
        the registration order); the movement seats duplicate pairs by itself."""
        if self.format == "duplicate-pairs":
            return
        order = [s.entrant for _, s in self.result(played).standings()]
        r = len(self.paired)
        self.paired.append(swiss_round(r, order, (s for past in self.paired for s in past[0]),
                                       (e for past in self.paired for e in past[1]),
                                       individual=self.individual, teams=self.format == "teams"))

    def counted(self, hands: Sequence[Sequence[HandResult]], r: int) -> list[int]:
        """How many hands of each table of round ``r`` count, from what each played: the boards every table
        has played, or a whole game once over; since the host ended the round, what counted then."""
        cut = self.cuts[r]
        if cut is not None:
            return cut
        if self.to_target:
            return [len(h) if self.done(h) else 0 for h in hands]
        return [min(map(len, hands), default=0)] * len(hands)

    def end_round(self, hands: Sequence[Sequence[HandResult]]) -> None:
        """The host ends the round being played, whose tables played ``hands``: the boards every table has
        played count, or each game to a target as it stands."""
        r = self.current
        self.cuts[r] = [len(h) for h in hands] if self.to_target else self.counted(hands, r)

    def round_over(self, hands: Sequence[Sequence[HandResult]], r: int) -> bool:
        """Whether round ``r`` is over: the host ended it, or every table played all it plays."""
        return self.cuts[r] is not None or all(map(self.done, hands))

    def result(self, played: Sequence[Sequence[Sequence[HandResult]]]) -> TournamentResult:
        """The results so far as the command line's tournaments have them (standings, travellers, CSV,
        JSON, PDF), from the hands each table of each opened round played, board by board: only the
        boards that count. The seed and the deal numbers are shown once the tournament is over: one deal
        number gives away the seed, and with it every board still to play."""
        entries = tuple(Entry(self.entrant_name(e), tuple(
            "computer" if i >= len(self.people) or self.people[i].computer else "person"
            for i in self.members(e))) for e in range(self.entrants))
        fill = None
        if self.format == "duplicate-pairs" and self.entrants % 2:
            fill = Entry("Computer pair", (self.level, self.level))
        result = TournamentResult(self.format, self.individual, self.rules, self.seed if self.over else 0,
                                  self.boards, entries, fill)
        for r, hands in enumerate(played):
            deals, seatings, first = self.deals(r), self.round_tables(r), self.first_board(r)
            result.rounds.append(Round(r, deals if self.over else (), seatings, self.byes(r)))
            for seating, table_hands, count in zip(seatings, hands, self.counted(hands, r), strict=True):
                for b, hand in enumerate(table_hands[:count]):
                    board = seating.table if self.to_target else b
                    bids, tricks, play, points = board_played(hand)
                    score = BoardScore(seating, first + board, points[0], points[1])
                    deal = deals[board] if self.over else 0
                    result.lines.append(Traveller(score, deal, bids, tricks, play))
        return result

    def to_json(self) -> dict[str, Any]:
        """The stored document."""
        return {"name": self.name, "format": self.format, "individual": self.individual,
                "to_target": self.to_target,
                "rules": self.rules.to_dict(), "rounds": self.rounds,
                "boards": self.boards, "level": self.level, "turn_seconds": self.turn_seconds,
                "grace": self.grace, "seed": self.seed, "host": self.host,
                "people": [{"name": p.name, "token": p.token, "computer": p.computer, "player": p.player}
                           for p in self.people],
                "tables": self.tables, "cuts": self.cuts, "over": self.over,
                "paired": [{"tables": [[list(s.ns), list(s.ew)] for s in tables], "byes": list(byes)}
                           for tables, byes in self.paired]}

    @classmethod
    def from_json(cls, code: str, data: dict[str, Any]) -> Tournament:
        """The tournament a stored document holds (one stored before Swiss is duplicate pairs, its cuts a
        number for every table)."""
        paired = [(tuple(Seating(r, t, tuple(ns), tuple(ew)) for t, (ns, ew) in enumerate(p["tables"])),
                   tuple(p["byes"])) for r, p in enumerate(data.get("paired", []))]
        return cls(code, data["name"], Rules.from_dict(data["rules"]), data["rounds"], data["boards"],
                   data["level"], data["turn_seconds"], data["grace"], data["seed"], data["host"],
                   data.get("format", "duplicate-pairs"), data.get("individual", False),
                   data.get("to_target", False), [Person(**p) for p in data["people"]], data["tables"],
                   paired, [[c] * len(codes) if isinstance(c, int) else c
                    for c, codes in zip(data["cuts"], data["tables"], strict=True)], data["over"])
