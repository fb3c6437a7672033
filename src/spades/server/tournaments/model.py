"""What a hosted tournament is: its choices, the people registered, the tables each round opened; and its
results, made from what those tables played.

A tournament is stored as one JSON document (``to_json``) with a version. People register one by one and
are paired in registration order (the first with the second...); an odd person's partner is a computer
player, and an odd number of pairs is filled by a computer pair, so every round seats everyone. The
Mitchell movement (``spades.tournament.movement``) seats the pairs; every table of round ``r`` plays that
round's boards, deal numbers drawn from the tournament's secret seed as the command line's are.

A board counts (in the standings and its traveller) once every table of its round has played it, so that
nothing a table sees tells another about cards it has still to play; a round the host ended counts the
boards every table had played by then (the others are not compared, and a table still playing one learns
nothing of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spades.arena import deal_number
from spades.game import HandResult
from spades.rules import Rules
from spades.tournament.movement import mitchell
from spades.tournament.run import Entry, Round, TournamentResult, Traveller, board_played
from spades.tournament.scores import BoardScore, Seating

__all__ = ["FORMAT", "Person", "Tournament"]

FORMAT = "duplicate-pairs"
"""The one format hosted so far."""
_NORTH, _EAST, _SOUTH, _WEST = range(4)


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
    people: list[Person] = field(default_factory=list)
    tables: list[list[str]] = field(default_factory=list)
    """The codes of each opened round's tables, table by table."""
    cuts: list[int | None] = field(default_factory=list)
    """Per opened round: the boards every table had played when the host ended it (None: not ended)."""
    over: bool = False

    @property
    def status(self) -> Literal["open", "playing", "over"]:
        """``open`` (registering), ``playing`` or ``over``."""
        return "over" if self.over else "playing" if self.tables else "open"

    @property
    def pairs(self) -> int:
        """The pairs people make, two by two in registration order."""
        return (len(self.people) + 1) // 2

    @property
    def current(self) -> int:
        """The round being played (or the last one played), from 0; -1 before the start."""
        return len(self.tables) - 1

    def pair_name(self, pair: int) -> str:
        """A pair's name: its people's, a computer player's for a missing partner; the filling pair's."""
        if pair >= self.pairs:
            return "Computer pair"
        return " & ".join(self.people[i].name if i < len(self.people) else "Computer"
                          for i in (2 * pair, 2 * pair + 1))

    def movement(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Each round's tables as (North-South pair, East-West pair); an odd field's computer pair is
        numbered ``pairs`` (``TournamentError`` if the field cannot play the rounds)."""
        return mitchell(self.pairs, self.rounds)

    def seats(self, r: int, t: int) -> list[int | None]:
        """Who sits North, East, South and West at table ``t`` of round ``r``: a person's number, or None
        where a computer player sits."""
        ns, ew = self.movement()[r][t]
        out: list[int | None] = [None] * 4
        for pair, first, second in ((ns, _NORTH, _SOUTH), (ew, _EAST, _WEST)):
            for seat, person in ((first, 2 * pair), (second, 2 * pair + 1)):
                if pair < self.pairs and person < len(self.people):
                    out[seat] = person
        return out

    def deals(self, r: int) -> tuple[int, ...]:
        """Round ``r``'s boards as deal numbers."""
        return tuple(deal_number(self.seed, r * self.boards + b) for b in range(self.boards))

    def counted(self, played: Sequence[int], r: int) -> int:
        """How many of round ``r``'s boards count, given how many each of its tables played: those every
        table has played (when the host ended the round, those every table had played by then)."""
        cut = self.cuts[r]
        return min(played, default=0) if cut is None else cut

    def round_over(self, played: Sequence[int], r: int) -> bool:
        """Whether round ``r`` is over: the host ended it, or every table played every board."""
        return self.cuts[r] is not None or all(n >= self.boards for n in played)

    def result(self, played: Sequence[Sequence[Sequence[HandResult]]]) -> TournamentResult:
        """The results so far as the command line's tournaments have them (standings, travellers, CSV,
        JSON, PDF), from the hands each table of each opened round played, board by board: only the
        boards that count (the seed is shown once the tournament is over)."""
        entries = tuple(Entry(self.pair_name(p), tuple(
            "computer" if i >= len(self.people) or self.people[i].computer else "person"
            for i in (2 * p, 2 * p + 1))) for p in range(self.pairs))
        fill = Entry("Computer pair", (self.level, self.level)) if self.pairs % 2 else None
        result = TournamentResult("duplicate-pairs", False, self.rules, self.seed if self.over else 0,
                                  self.boards, entries, fill)
        movement = self.movement() if self.tables else ()
        for r, hands in enumerate(played):
            deals = self.deals(r)
            seatings = tuple(Seating(r, t, (ns,), (ew,)) for t, (ns, ew) in enumerate(movement[r]))
            result.rounds.append(Round(r, deals, seatings, ()))
            for b in range(self.counted([len(h) for h in hands], r)):
                for seating, table_hands in zip(seatings, hands, strict=True):
                    bids, tricks, play, points = board_played(table_hands[b])
                    score = BoardScore(seating, r * self.boards + b, points[0], points[1])
                    result.lines.append(Traveller(score, deals[b], bids, tricks, play))
        return result

    def to_json(self) -> dict[str, Any]:
        """The stored document."""
        return {"name": self.name, "format": FORMAT, "rules": self.rules.to_dict(), "rounds": self.rounds,
                "boards": self.boards, "level": self.level, "turn_seconds": self.turn_seconds,
                "grace": self.grace, "seed": self.seed, "host": self.host,
                "people": [{"name": p.name, "token": p.token, "computer": p.computer, "player": p.player}
                           for p in self.people],
                "tables": self.tables, "cuts": self.cuts, "over": self.over}

    @classmethod
    def from_json(cls, code: str, data: dict[str, Any]) -> Tournament:
        """The tournament a stored document holds."""
        return cls(code, data["name"], Rules.from_dict(data["rules"]), data["rounds"], data["boards"],
                   data["level"], data["turn_seconds"], data["grace"], data["seed"], data["host"],
                   [Person(**p) for p in data["people"]], data["tables"], data["cuts"], data["over"])
