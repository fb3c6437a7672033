"""Swiss pairings: each round's tables made from the standings so far.

Fixed pairs and teams: going down the standings, each entrant meets the highest-placed one below it
that it has not met yet. Individual: tables of four down the standings, the first of each four
partnering the fourth and the second the third, nobody partnering someone a second time. Either way,
when going down greedily leaves the last entrants with nobody new, the search goes back and tries the
next choice, so a round repeats an opponent (pairs, teams) or a partnership (individual) only when no
pairing of the entrants playing avoids it. The search counts its steps and, past ``SEARCH_STEPS``
(far beyond what a field of a few dozen needs), settles for the greedy pairing.

Byes: when the field does not divide (an odd number of pairs or teams, individuals not a multiple of
four), the lowest-placed entrants among those with the fewest byes so far sit the round out; a bye
counts as a tied match (``scores.BYE_POINTS``). Round one takes the entry order as its standings.

>>> pair_off([0, 1, 2, 3], {frozenset((0, 1))})
((0, 2), (1, 3))
>>> seat_fours([0, 1, 2, 3, 4, 5, 6, 7], set())
(((0, 3), (1, 2)), ((4, 7), (5, 6)))
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from spades.errors import TournamentError
from spades.tournament.scores import Seating

__all__ = ["SEARCH_STEPS", "choose_byes", "met_before", "pair_off", "seat_fours", "swiss_round"]

SEARCH_STEPS = 200_000
"""The most choices the pairing search tries before it settles for the greedy pairing."""

Pairs = tuple[tuple[int, int], ...]


class _OutOfSteps(Exception):
    """The search used up its steps."""


def choose_byes(order: Sequence[int], byes_had: Sequence[int], count: int) -> list[int]:
    """The ``count`` entrants who sit out: the lowest-placed among those with the fewest byes so far
    (``byes_had`` is indexed by entrant), listed in standings order."""
    place = {e: i for i, e in enumerate(order)}
    chosen = sorted(order, key=lambda e: (byes_had[e], -place[e]))[:count]
    return sorted(chosen, key=place.__getitem__)


def _candidates(rest: Sequence[int], starts_table: bool) -> list[int]:
    """Whom the first unmatched entrant tries, best first: the next ones down the standings, except
    that the head of an individual table of four tries the fourth of the four first."""
    return [*rest[2:3], *rest[:2], *rest[3:]] if starts_table else list(rest)


def _match(order: Sequence[int], avoid: Collection[frozenset[int]], fours: bool) -> Pairs:
    """Pair the entrants down the standings, never within ``avoid`` while any pairing allows it; with
    ``fours``, consecutive pairs are a table's two partnerships."""
    steps = 0

    def search(rest: tuple[int, ...], made: int) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        for mate in _candidates(others, fours and made % 2 == 0):
            steps += 1
            if steps > SEARCH_STEPS:
                raise _OutOfSteps
            if frozenset((head, mate)) in avoid:
                continue
            left = tuple(e for e in others if e != mate)
            if any(all(frozenset((e, o)) in avoid for o in left if o != e) for e in left):
                continue  # somebody left would have nobody new
            found = search(left, made + 1)
            if found is not None:
                return [(head, mate), *found]
        return None

    try:
        found = search(tuple(order), 0)
    except _OutOfSteps:
        found = None
    if found is not None:
        return tuple(found)
    greedy: list[tuple[int, int]] = []
    rest = list(order)
    while rest:
        head = rest.pop(0)
        options = _candidates(rest, fours and len(greedy) % 2 == 0)
        mate = next((o for o in options if frozenset((head, o)) not in avoid), options[0])
        rest.remove(mate)
        greedy.append((head, mate))
    return tuple(greedy)


def pair_off(order: Sequence[int], met: Collection[frozenset[int]]) -> Pairs:
    """Fixed pairs or teams, an even number of them in standings order: who plays whom, avoiding the
    pairs in ``met`` (as frozensets of two) while any pairing can."""
    if len(order) % 2:
        raise TournamentError("Pairing needs an even number of entrants: give the odd one a bye first.")
    return _match(order, met, fours=False)


def seat_fours(order: Sequence[int], partnered: Collection[frozenset[int]]) -> tuple[Pairs, ...]:
    """Individuals, a multiple of four in standings order: each table's two partnerships, avoiding
    the partnerships in ``partnered`` while any seating can."""
    if len(order) % 4:
        raise TournamentError("Tables of four need a multiple of four players: give the rest byes first.")
    pairs = _match(order, partnered, fours=True)
    return tuple(pairs[i:i + 2] for i in range(0, len(pairs), 2))


def met_before(tables: Iterable[Seating], individual: bool) -> set[frozenset[int]]:
    """What a Swiss round avoids repeating from these tables: the partnerships (individual), or who
    played whom (pairs, teams)."""
    if individual:
        return {frozenset(side) for s in tables for side in (s.ns, s.ew)}
    return {frozenset(s.entrants) for s in tables}


def swiss_round(r: int, order: Sequence[int], earlier: Iterable[Seating], byes: Iterable[int], *,
                individual: bool = False, teams: bool = False) -> tuple[tuple[Seating, ...], tuple[int, ...]]:
    """Round ``r``'s tables and byes, from the standings order (every entrant, numbered from 0), the
    earlier rounds' tables and their byes (an entrant once per bye). A team's match is two tables, the
    first team North-South at the first and East-West at the second."""
    byes_had = [0] * len(order)
    for e in byes:
        byes_had[e] += 1
    out = choose_byes(order, byes_had, len(order) % (4 if individual else 2))
    playing = [e for e in order if e not in out]
    if individual:
        fours = seat_fours(playing, met_before(earlier, True))
        return tuple(Seating(r, i, ns, ew) for i, (ns, ew) in enumerate(fours)), tuple(out)
    pairs = pair_off(playing, met_before(earlier, False))
    if teams:
        return tuple(Seating(r, 2 * i + k, (a, b)[k:k + 1], (b, a)[k:k + 1])
                     for i, (a, b) in enumerate(pairs) for k in (0, 1)), tuple(out)
    return tuple(Seating(r, i, (a,), (b,)) for i, (a, b) in enumerate(pairs)), tuple(out)
