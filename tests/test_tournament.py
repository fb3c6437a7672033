"""Tournaments' pure parts: matchpoints against examples worked by hand, the Mitchell movement, Swiss."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.errors import TournamentError
from spades.tournament import (
    BoardScore,
    Seating,
    choose_byes,
    duplicate_standings,
    match_standings,
    matchpoints,
    max_rounds,
    mitchell,
    pair_off,
    ranked,
    seat_fours,
)
from spades.tournament.swiss import met_before, swiss_round


def line(board: int, table: int, ns: tuple[int, ...], ew: tuple[int, ...], ns_points: int, ew_points: int,
         round: int = 0) -> BoardScore:
    return BoardScore(Seating(round, table, ns, ew), board, ns_points, ew_points)


def test_matchpoints_count_two_a_pair_beaten_and_one_a_tie() -> None:
    assert matchpoints([79, 79, -160]) == [3, 3, 0]
    assert matchpoints([-79, -79, 160]) == [1, 1, 4]
    assert matchpoints([10, 20, 30, 40]) == [0, 2, 4, 6]
    assert matchpoints([5, 5, 5]) == [2, 2, 2]
    assert matchpoints([7]) == [0]


def test_duplicate_standings_against_a_worked_example() -> None:
    # Board 0 at three tables; board 1 at two (pairs 2 and 5 sat out).
    scores = [
        line(0, 0, (0,), (3,), 120, 41),   # NS +79
        line(0, 1, (1,), (4,), 120, 41),   # NS +79, a tie with table 0
        line(0, 2, (2,), (5,), -100, 60),  # NS -160
        line(1, 0, (0,), (3,), 50, 70),    # NS -20
        line(1, 1, (4,), (1,), 62, -10),   # pair 4 North-South +72; pair 1 East-West -72
    ]
    # Board 0: NS 0 and 1 each beat 2 and tie each other (3 of 4), 2 gets 0;
    #          EW 3 and 4 tie each other (1), 5 beats both (4).
    # Board 1: NS 4 (+72) beats 0 (-20): 2 and 0 of 2; EW 3 (+20) beats 1 (-72): 2 and 0 of 2.
    expected = {0: (3, 6, 79 - 20, 2), 1: (3, 6, 79 - 72, 2), 2: (0, 4, -160, 1),
                3: (1 + 2, 6, -79 + 20, 2), 4: (1 + 2, 6, -79 + 72, 2), 5: (4, 4, 160, 1)}
    standings = duplicate_standings(6, scores)
    assert {s.entrant: (s.score, s.top, s.margin, s.boards) for s in standings} == expected
    assert [round(s.percent, 2) for s in standings] == [50.0, 50.0, 0.0, 50.0, 50.0, 100.0]
    places = [(place, s.entrant) for place, s in ranked(standings, by_percent=True)]
    # 0, 3 and 4 share 50% and 3 matchpoints; the margin (+59, -59, -7) orders them; then 1 on 50%.
    assert places == [(1, 5), (2, 0), (3, 1), (4, 4), (5, 3), (6, 2)]


def test_a_computer_pair_filling_the_field_is_compared_with_but_not_ranked() -> None:
    scores = [line(0, 0, (0,), (1,), 100, 0), line(0, 1, (3,), (2,), 50, 0)]  # 3 is the filler
    standings = duplicate_standings(3, scores)
    assert [s.entrant for s in standings] == [0, 1, 2]
    assert [(s.score, s.top) for s in standings] == [(2, 2), (0, 2), (2, 2)]


def test_a_teams_match_totals_the_margin_per_deal_over_both_tables() -> None:
    # Team 0 holds North-South at table 0 and East-West at table 1, on the same two deals.
    scores = [
        line(0, 0, (0,), (1,), 100, 30), line(0, 1, (1,), (0,), 80, 20),   # deal 0: 0 is +70 -60 = +10
        line(1, 0, (0,), (1,), -50, 60), line(1, 1, (1,), (0,), -40, 50),  # deal 1: 0 is -110 +90 = -20
    ]
    a, b = match_standings(2, scores)
    assert (a.score, a.top, a.margin, a.boards) == (0, 2, -10, 4)
    assert (b.score, b.top, b.margin, b.boards) == (2, 2, 10, 4)
    assert (a.buchholz, b.buchholz) == (2, 0)


def test_swiss_match_points_byes_and_tie_breaks() -> None:
    # Individual Swiss, five players: round 0 player 4 has the bye; round 1 player 0 has it.
    scores = [
        line(0, 0, (0, 3), (1, 2), 60, 40), line(1, 0, (0, 3), (1, 2), -10, 40),
        line(2, 0, (1, 4), (2, 3), 50, 50, round=1),                               # a tie at 0
    ]
    standings = match_standings(5, scores, byes=[4, 0])
    # Round 0: NS 0+3 total (60-40) + (-10-40) = -30: 1 and 2 win (2 points, +30), 0 and 3 lose (-30).
    assert [(s.score, s.top, s.margin) for s in standings] == [(1, 4, -30), (3, 4, 30), (3, 4, 30),
                                                              (1, 4, -30), (2, 4, 0)]
    # Buchholz, the points of every opponent met: 0 met 1 and 2 (3 + 3); 1 met 0 and 3, then 2 and 3
    # (1 + 1 + 3 + 1); 2 met 0 and 3, then 1 and 4 (1 + 1 + 3 + 2); 3 met 1 and 2, then 1 and 4; 4 met 2, 3.
    assert [s.buchholz for s in standings] == [6, 6, 7, 11, 4]
    places = [(place, s.entrant) for place, s in ranked(standings, by_percent=False)]
    assert places == [(1, 2), (2, 1), (3, 4), (4, 3), (5, 0)]  # Buchholz parts 2 from 1, and 3 from 0


def test_equal_standings_share_a_place() -> None:
    scores = [line(0, 0, (0,), (1,), 10, 10)]
    places = ranked(match_standings(2, scores), by_percent=False)
    assert [(p, s.entrant) for p, s in places] == [(1, 0), (1, 1)]


@pytest.mark.parametrize("pairs", range(3, 41))
def test_mitchell_meets_new_opponents_and_never_repeats_a_board(pairs: int) -> None:
    boards_a_round = 3
    rounds = max_rounds(pairs)
    movement = mitchell(pairs, rounds)
    gap = pairs if pairs % 2 else None
    met: set[frozenset[int]] = set()
    compared: set[frozenset[int]] = set()  # held the same cards in the same direction
    boards: dict[int, list[int]] = {p: [] for p in range(pairs + 1)}
    for r, tables in enumerate(movement):
        seated = [p for table in tables for p in table]
        assert sorted(seated) == list(range(pairs + (gap is not None)))  # everyone once a round
        playing = [table for table in tables if gap not in table]
        for ns, ew in playing:
            assert frozenset((ns, ew)) not in met
            met.add(frozenset((ns, ew)))
            boards[ns] += range(r * boards_a_round, (r + 1) * boards_a_round)
            boards[ew] += range(r * boards_a_round, (r + 1) * boards_a_round)
        for direction in (0, 1):
            compared |= {frozenset(c) for c in itertools.combinations([t[direction] for t in playing], 2)}
    for played in boards.values():
        assert len(played) == len(set(played))  # no pair plays a board twice
    if pairs not in (3, 5):  # one field: each pair met or was compared with each other (3 and 5 sit out)
        assert met | compared == {frozenset(c) for c in itertools.combinations(range(pairs), 2)}
    with pytest.raises(TournamentError, match="at most"):
        mitchell(pairs, rounds + 1)


def test_mitchell_refuses_a_field_too_small_to_compare() -> None:
    with pytest.raises(TournamentError, match="at least 3 pairs"):
        mitchell(2, 1)


def test_byes_go_to_the_lowest_placed_with_the_fewest_byes() -> None:
    assert choose_byes([4, 3, 2, 1, 0], [0] * 5, 1) == [0]
    assert choose_byes([4, 3, 2, 1, 0], [0, 1, 0, 0, 0], 2) == [2, 0]  # 1 has had one
    assert choose_byes([4, 3, 2, 1, 0], [1, 1, 1, 1, 0], 1) == [4]


def can_avoid(players: Sequence[int], avoid: set[frozenset[int]]) -> bool:
    """Whether any pairing of the players avoids every pair in ``avoid`` (by trying them all)."""
    if not players:
        return True
    head, rest = players[0], players[1:]
    return any(frozenset((head, mate)) not in avoid and can_avoid([p for p in rest if p != mate], avoid)
               for mate in rest)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 13), st.integers(1, 7), st.randoms(use_true_random=False))
def test_individual_swiss_repeats_a_partnership_only_when_it_must(players: int, rounds: int,
                                                                  rng: random.Random) -> None:
    played: list[Seating] = []
    byes: list[int] = []
    for r in range(rounds):
        order = rng.sample(range(players), players)  # the standings so far, in some order
        tables, sitting = swiss_round(r, order, played, byes, individual=True)
        playing = [p for p in order if p not in sitting]
        assert len(sitting) == players % 4
        assert sorted(p for s in tables for p in s.entrants) == sorted(playing)
        before = met_before(played, individual=True)
        if met_before(tables, individual=True) & before:
            assert not can_avoid(playing, before)
        played += tables
        byes += sitting
    had = Counter(byes)
    assert max(had[p] for p in range(players)) - min(had[p] for p in range(players)) <= 1


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 13), st.integers(1, 8), st.booleans(), st.randoms(use_true_random=False))
def test_pairs_and_teams_swiss_repeat_an_opponent_only_when_they_must(entrants: int, rounds: int, teams: bool,
                                                                      rng: random.Random) -> None:
    played: list[Seating] = []
    byes: list[int] = []
    for r in range(rounds):
        order = rng.sample(range(entrants), entrants)
        tables, sitting = swiss_round(r, order, played, byes, teams=teams)
        playing = [p for p in order if p not in sitting]
        matches = tables[::2] if teams else tables
        assert sorted(itertools.chain.from_iterable(s.entrants for s in matches)) == sorted(playing)
        if teams:  # a match is two tables, the seats swapped at the second
            assert all((a.ns, a.ew) == (b.ew, b.ns) for a, b in zip(tables[::2], tables[1::2], strict=True))
        before = met_before(played, individual=False)
        if met_before(tables, individual=False) & before:
            assert not can_avoid(playing, before)
        played += tables
        byes += sitting


def test_the_top_of_the_standings_meets_the_top() -> None:
    assert pair_off([5, 2, 7, 1], set()) == ((5, 2), (7, 1))
    assert seat_fours([5, 2, 7, 1], {frozenset((5, 1))}) == (((5, 2), (7, 1)),)
    with pytest.raises(TournamentError):
        pair_off([1, 2, 3], set())
    with pytest.raises(TournamentError):
        seat_fours([1, 2, 3, 4, 5, 6], set())
