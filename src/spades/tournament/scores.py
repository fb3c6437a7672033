"""A tournament's results as numbers: matchpoints per board, matches won, and the standings.

A board is one numbered deal played as a single hand from 0-0. A side's *result* on a board is its
hand's points minus its opponents'. Duplicate pairs compares each result with every other table's
result in the same direction on the same board (the pairs that held the same cards): 2 matchpoints
per pair beaten, 1 per tie. Swiss and teams add up a match's results instead: 2 points for a match
won, 1 for a tie, 0 for a loss.

Three tables play a board; North-South score +60, +60 and -40 (East-West the opposite):

>>> matchpoints([60, 60, -40])
[3, 3, 0]
>>> matchpoints([-60, -60, 40])
[1, 1, 4]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "BYE_POINTS",
    "BoardScore",
    "Seating",
    "Standing",
    "board_matchpoints",
    "deal_margins",
    "duplicate_standings",
    "match_standings",
    "matchpoints",
    "ranked",
]

BYE_POINTS = 1
"""A bye in Swiss or teams counts as a tied match: 1 point of 2, with no margin and no opponent."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One table of a round: the entrants holding North-South and East-West. A side is one pair or
    team (duplicate pairs, fixed-pair Swiss, teams) or two individuals (individual Swiss)."""

    round: int
    table: int
    ns: tuple[int, ...]
    ew: tuple[int, ...]

    @property
    def entrants(self) -> tuple[int, ...]:
        """Everyone at the table, North-South first."""
        return self.ns + self.ew


@dataclass(frozen=True, slots=True)
class BoardScore:
    """What one table scored on one board: each side's points for the hand."""

    seating: Seating
    board: int
    """The board's number in the tournament, from 0."""
    ns_points: int
    ew_points: int

    @property
    def ns_result(self) -> int:
        """North-South's result: its points minus East-West's (East-West's is the negative)."""
        return self.ns_points - self.ew_points

    def result_of(self, entrant: int) -> int:
        """The result of the side the entrant sat on."""
        return self.ns_result if entrant in self.seating.ns else -self.ns_result


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's place so far: its score out of the most it could have had, and the tie-breaks."""

    entrant: int
    score: int
    """Matchpoints (duplicate pairs), or match points: 2 a win, 1 a tie or a bye (Swiss, teams)."""
    top: int
    """The most ``score`` could have been over what the entrant played (and its byes)."""
    margin: int
    """The entrant's results added up: its sides' points minus their opponents', over every board."""
    boards: int
    """Boards played."""
    buchholz: int = 0
    """Swiss and teams: the match points of every opponent met, added (a tie-break)."""

    @property
    def percent(self) -> float:
        """``score`` as a percentage of ``top`` (50 before anything is scored)."""
        return 100 * self.score / self.top if self.top else 50.0


def matchpoints(results: Sequence[int]) -> list[int]:
    """Each result's matchpoints against the others on the same board and in the same direction:
    2 per result it beats, 1 per other result it ties."""
    return [sum(2 if r > o else r == o for o in results) - 1 for r in results]


def _by_key(scores: Iterable[BoardScore], key: str) -> dict[object, list[BoardScore]]:
    """The scores grouped by board, or by match (a round's tables among the same entrants)."""
    groups: dict[object, list[BoardScore]] = defaultdict(list)
    for s in scores:
        group = s.board if key == "board" else (s.seating.round, frozenset(s.seating.entrants))
        groups[group].append(s)
    return groups


def board_matchpoints(lines: Sequence[BoardScore]) -> list[tuple[int, int]]:
    """Each table's (North-South, East-West) matchpoints on one board, from every table's score."""
    ns = matchpoints([line.ns_result for line in lines])
    ew = matchpoints([-line.ns_result for line in lines])
    return list(zip(ns, ew, strict=True))


def deal_margins(lines: Sequence[BoardScore]) -> list[int]:
    """Teams: on one board, each table's North-South team's margin, its result at that table plus its result
    at the other table of its match (where it sat East-West); a match's margins add up to its total."""
    def other(line: BoardScore) -> BoardScore:
        return next(o for o in lines if o is not line and o.seating.round == line.seating.round
                    and set(o.seating.entrants) == set(line.seating.entrants))
    return [line.ns_result - other(line).ns_result for line in lines]


def duplicate_standings(entrants: int, scores: Iterable[BoardScore]) -> list[Standing]:
    """Duplicate pairs: each pair's matchpoints over the boards it played (entrants numbered from 0;
    a higher number is a computer pair filling an odd field, compared with but not ranked)."""
    mp, top, margin, boards = ([0] * entrants for _ in range(4))
    for lines in _by_key(scores, "board").values():
        for line, points in zip(lines, board_matchpoints(lines), strict=True):
            for pair, won in zip((line.seating.ns[0], line.seating.ew[0]), points, strict=True):
                if pair < entrants:
                    mp[pair] += won
                    top[pair] += 2 * (len(lines) - 1)
                    margin[pair] += line.result_of(pair)
                    boards[pair] += 1
    return [Standing(e, mp[e], top[e], margin[e], boards[e]) for e in range(entrants)]


def match_standings(entrants: int, scores: Iterable[BoardScore], byes: Iterable[int] = ()) -> list[Standing]:
    """Swiss and teams: each match's results added per side (a team's over its two tables), 2 points
    to the side ahead, 1 each for a tie; ``byes`` lists an entrant once per bye it had."""
    points, top, margin, boards = ([0] * entrants for _ in range(4))
    met: list[list[int]] = [[] for _ in range(entrants)]
    for lines in _by_key(scores, "match").values():
        side = lines[0].seating.ns
        total = sum(line.result_of(side[0]) for line in lines)
        for entrant in lines[0].seating.entrants:
            own = total if entrant in side else -total
            points[entrant] += 2 if own > 0 else own == 0
            top[entrant] += 2
            margin[entrant] += own
            boards[entrant] += sum(entrant in line.seating.entrants for line in lines)
            met[entrant] += [o for o in lines[0].seating.entrants if (o in side) != (entrant in side)]
    for entrant in byes:
        points[entrant] += BYE_POINTS
        top[entrant] += 2
    return [Standing(e, points[e], top[e], margin[e], boards[e], sum(points[o] for o in met[e]))
            for e in range(entrants)]


def ranked(standings: Iterable[Standing], by_percent: bool) -> list[tuple[int, Standing]]:
    """The standings in order with their places, tied entrants sharing one. Duplicate pairs ranks by
    percentage, then matchpoints; Swiss and teams by match points, then margin, then Buchholz; the
    entry order settles what is left (and a shared place still lists the earlier entrant first)."""

    def key(s: Standing) -> tuple[float, ...]:
        return (-s.percent, -s.score, -s.margin) if by_percent else (-s.score, -s.margin, -s.buchholz)

    order = sorted(standings, key=lambda s: (key(s), s.entrant))
    places: list[tuple[int, Standing]] = []
    for i, s in enumerate(order):
        tied = places and key(places[-1][1]) == key(s)
        places.append((places[-1][0] if tied else i + 1, s))
    return places
