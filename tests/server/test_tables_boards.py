"""A friends' table that plays given boards (a tournament's): each board one hand from 0-0 from its deal
number, then the next board, and after the last the table is over; the deal numbers stay hidden."""

from __future__ import annotations

import random

import pytest

from spades.bots import make_player
from spades.game import Game, Phase
from spades.rules import Rules
from spades.server.tables.commands import MakeMove, NextHand, Rematch, Start
from spades.server.tables.entries import entries_of, entry_json
from spades.server.tables.table import FriendsTable, TableError, TableOptions, WrongTime
from spades.server.tables.views import view_of


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def boards_table(boards: tuple[int, ...], turn_seconds: float = 0.0) -> tuple[FriendsTable, int, Clock]:
    """A table of these boards with one person (North), computer players elsewhere, started."""
    clock = Clock()
    options = TableOptions(Rules(target=100), boards=boards, turn_seconds=turn_seconds, tournament="TOURNY")
    table = FriendsTable("BRDS23", options, clock=clock)
    _, seat = table.join("Ann")
    table.run(seat, Start())
    return table, seat, clock


def play_hand(table: FriendsTable, seat: int) -> None:
    """Play the person's moves (a random legal one each) until the hand is over."""
    player, rng = make_player("random"), random.Random(1)
    while table.active():
        game = table.game
        assert game is not None and game.turn == seat
        table.run(seat, MakeMove(move=str(player.choose(game.view(seat), rng)), version=len(game.log)))


def test_each_board_is_a_hand_from_love_all_dealt_from_its_number() -> None:
    table, ann, _ = boards_table((11, 22))
    assert table.seed == 11 and view_of(table, ann).boards_left == 1
    play_hand(table, ann)
    first = table.game
    assert first is not None and len(first.history) == 1 and table.board_over and table.between_deals
    with pytest.raises(WrongTime, match="no rematch"):
        table.run(ann, Rematch())
    table.run(ann, NextHand(version=len(first.log)))
    game = table.game
    assert game is not None and table.seed == 22 and game.scores == [0, 0] and not game.history
    assert game.hands == Game(table.options.rules, 22).hands  # the board's own cards, whoever played before
    play_hand(table, ann)
    played = table.played_boards()
    assert len(played) == 2 and played[0] == first.history[0]
    assert table.board_over and not table.between_deals
    with pytest.raises(WrongTime, match="boards are all played"):
        table.run(ann, NextHand(version=len(game.log)))


def test_a_table_of_boards_replays_from_its_log_and_shows_no_deal_number() -> None:
    table, ann, _ = boards_table((5, 6))
    play_hand(table, ann)
    assert table.game is not None
    table.run(ann, NextHand(version=len(table.game.log)))
    play_hand(table, ann)
    stored = [entry_json(e) for e in table.entries]
    again = FriendsTable.replay("BRDS23", TableOptions.from_json(table.options.to_json()), entries_of(stored),
                                table.clock)
    assert again.played_boards() == table.played_boards() and again.options.boards == (5, 6)
    view = view_of(again, ann)
    assert view.boards_left == 0 and '"boards_left":0' in view.model_dump_json()
    assert view.tournament == "TOURNY"
    plain = FriendsTable("PLAIN2", TableOptions(Rules()), table.clock)
    assert "boards_left" not in view_of(plain, 0).model_dump_json()  # other tables' views are as they were
    assert "tournament" not in view_of(plain, 0).model_dump_json()
    assert view.deal is None and view.past_deals == [] and view.game is not None and view.game.deal == 0


def test_the_turn_timer_deals_the_next_board_and_stops_after_the_last() -> None:
    table, ann, clock = boards_table((7, 8), turn_seconds=5)
    play_hand(table, ann)
    clock.now += 5
    assert table.tick() and table.seed == 8
    play_hand(table, ann)
    clock.now += 50
    assert not table.tick() and table.turn_left(clock.now) is None
    assert table.game is not None and table.game.phase in (Phase.HAND_OVER, Phase.GAME_OVER)


@pytest.mark.parametrize("options", [{"boards": (0,)}, {"boards": (True,)}, {"boards": (3,), "rated": True}])
def test_bad_boards_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(TableError):
        TableOptions(Rules(), **options)  # type: ignore[arg-type]
