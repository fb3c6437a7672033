"""A hosted tournament's seating and results, in process: people paired as they registered, computer
players where a partner or a pair is missing, everyone seated once a round in every format, and only the
boards every table has played counted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots import make_player, play_out
from spades.game import Game, HandResult
from spades.rules import Rules
from spades.server.tournaments.model import Person, Tournament
from spades.server.tournaments.service import MIN_PEOPLE
from spades.tournament.run import FORMATS, Format
from spades.tournament.scores import matchpoints


def tournament(people: int, rounds: int = 2, boards: int = 2) -> Tournament:
    """A tournament of that many people (named A, B, C...), started: its rounds' tables not opened."""
    t = Tournament("TOURNY", "Test", Rules(), rounds, boards, "random", 30, 30, 7, "host")
    t.people = [Person(chr(65 + i), f"token{i}") for i in range(people)]
    return t


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMATS), st.booleans(), st.integers(0, 12), st.integers(1, 2))
def test_everyone_sits_once_a_round_unless_their_entrant_sits_out(fmt: Format, individual: bool, extra: int,
                                                                   rounds: int) -> None:
    individual = individual and fmt == "swiss"
    t = tournament(MIN_PEOPLE["individual" if individual else fmt][0] + extra, rounds=rounds, boards=1)
    t.format, t.individual = fmt, individual
    for r in range(rounds):
        t.pair_next([[[] for _ in t.round_tables(p)] for p in range(r)])  # nothing played yet
        t.tables.append(["CODE"] * len(t.round_tables(r)))
        t.cuts.append(None)
        seated = [i for table in range(len(t.round_tables(r))) for i in t.seats(r, table) if i is not None]
        out = {i for e in t.byes(r) for i in t.members(e)}
        assert sorted(seated) == sorted(set(range(len(t.people))) - out)  # each person once, or a bye
        assert len(t.byes(r)) == (0 if fmt == "duplicate-pairs" else t.entrants % (4 if individual else 2))


def hand(deal: int) -> HandResult:
    """A board's hand as random players play it."""
    return play_out(Game(Rules(), deal), [make_player("random")] * 4, seed=deal, hands=1).history[0]


def test_people_pair_in_order_and_computers_fill_a_partner_and_a_pair() -> None:
    t = tournament(5)
    assert t.entrants == 3 and [t.entrant_name(p) for p in range(4)] == ["A & B", "C & D", "E & Computer",
                                                                     "Computer pair"]
    seated = [t.seats(0, table) for table in range(2)]
    people = sorted(i for seats in seated for i in seats if i is not None)
    assert people == [0, 1, 2, 3, 4]  # everyone sits, once
    assert sum(seats.count(None) for seats in seated) == 3  # Eve's partner and the computer pair


def test_only_boards_every_table_played_count_and_an_ended_round_keeps_them() -> None:
    t = tournament(8, rounds=1)
    t.tables, t.cuts = [["AAAAAA", "BBBBBB"]], [None]
    deals = t.deals(0)
    first, second = [hand(deals[0]), hand(deals[1])], [hand(deals[0])]
    result = t.result([[first, second]])
    assert [line.score.board for line in result.lines] == [0, 0]  # board 2: one table only, not yet shown
    ns = [line.score.ns_result for line in result.lines]
    by_name = {t.entrant_name(s.entrant): s.score for _, s in result.standings()}
    mp = matchpoints(ns)
    ew = matchpoints([-r for r in ns])
    (ns0, ew0), (ns1, ew1) = t.movement()[0]
    assert by_name == {t.entrant_name(ns0): mp[0], t.entrant_name(ew0): ew[0], t.entrant_name(ns1): mp[1],
                       t.entrant_name(ew1): ew[1]}
    played_on = [first, [*second, hand(deals[1])]]
    assert not t.round_over([first, second], 0) and t.round_over(played_on, 0)
    t.end_round([first, second])  # the host ends the round
    assert t.round_over([first, second], 0) and len(t.result([played_on]).lines) == 2
    assert t.result([[first, second]]).seed == 0  # the seed is secret until the tournament is over
