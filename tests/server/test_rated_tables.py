"""What a rated friends' table's game end asks the ratings for (``FriendsTable.rated_game``), in process:
cutthroat's four sides placed by their scores, and who is rated in each seat."""

from __future__ import annotations

from spades.game import Phase
from spades.ratings import computer, places_of
from spades.rules import find_preset
from spades.server.tables.commands import Leave, MakeMove, NextHand, Start
from spades.server.tables.table import FriendsTable, TableOptions


def played_out(t: FriendsTable) -> None:
    """The people at the table make their first legal move each turn until the game ends."""
    while (game := t.game) is not None and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.HAND_OVER:
            t.run(0, NextHand(version=len(game.log)))
            continue
        assert game.turn is not None
        t.run(game.turn, MakeMove(move=str(game.legal_moves(game.turn)[0]), version=len(game.log)))


def test_a_rated_cutthroat_game_rates_each_player_as_a_side_of_their_own() -> None:
    rules = find_preset("cutthroat").replace(target=10, low_mark=-10)
    t = FriendsTable("CUTCUT", TableOptions(rules, level="easy", rated=True), clock=lambda: 0.0)
    t.join("Ann", player="ann")
    t.join("Bob", player="bob")
    t.run(0, Start())
    before = t.seq
    played_out(t)
    result = t.rated_game(before)
    game = t.game
    assert result is not None and game is not None and game.winner is not None
    assert result.rules == "cutthroat" and result.game == "table CUTCUT 1"
    assert result.seats == ("ann", "bob", computer("easy"), computer("easy")) and result.sides == (0, 1, 2, 3)
    assert result.places == places_of(game.scores, game.winner) and not result.left
    assert t.rated_game(t.seq) is None  # asked again from after the end: nothing more to rate
    unrated = FriendsTable("PLAINS", TableOptions(rules, level="easy"), clock=lambda: 0.0)
    unrated.join("Ann", player="ann")
    unrated.run(0, Start())
    played_out(unrated)
    assert unrated.rated_game(0) is None


def test_a_person_who_leaves_a_rated_game_is_rated_last_and_the_rest_by_the_result() -> None:
    rules = find_preset("standard").replace(target=10, low_mark=-10)
    t = FriendsTable("PAIRSS", TableOptions(rules, level="easy", rated=True), clock=lambda: 0.0)
    for name in ("ann", "bob", "cy"):
        t.join(name.title(), player=name)
    t.run(0, Start())
    t.run(1, Leave())
    played_out(t)
    result = t.rated_game(0)
    assert result is not None and result.seats == ("ann", "bob", "cy", computer("easy"))
    assert result.left == {1} and result.place(1) == 2 and result.place(0) == result.places[0]
