"""The scorekeeper for players alone (cutthroat, 3 and 2 players) and the first hand without bidding."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots import make_player, play_out
from spades.game import Game, HandResult
from spades.paper.scorekeeper import (
    HandEntry,
    PlayerLine,
    ScoreGame,
    ScorekeeperError,
    SoloLine,
    TeamLine,
    status_text,
)
from spades.rules import Rules, find_preset
from spades.score_terminal import sheet_text

THREE = find_preset("three-player")
CUTTHROAT = find_preset("cutthroat")


def alone(rules: Rules, *hands: tuple[str, ...], names: tuple[str, ...] = ()) -> ScoreGame:
    game = ScoreGame(rules, names)
    for lines in hands:
        game = game.add(HandEntry.parse_players(*lines))
    return game


def test_three_players_bid_4_win_5_scores_30() -> None:
    game = alone(THREE, ("4 : 5", "6 : 6", "5 : 6"), names=("Ann", "Bo", "Cy"))
    sheet = game.sheet()
    assert sheet.totals == (30, 60, 40) and sheet.bags == (1, 0, 1)
    assert status_text(game) == "Ann 30 (1 bag), Bo 60 (0 bags), Cy 40 (1 bag)."
    # Falling short loses 10 per trick bid; a bid of 0 is an ordinary bid there, shown as 0.
    row = game.add(HandEntry.parse_players("6 : 4", "0 : 2", "0 : 11")).sheet().rows[1]
    assert row.score.points == (-60, -20, -110)
    assert [line.bid_text(THREE) for line in row.entry.lines] == ["6", "0", "0"]


def test_three_players_deal_17_tricks() -> None:
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: The tricks add up to 4 \+ 4 \+ 5 = 13, not 17\.$"):
        alone(THREE, ("4 : 4", "4 : 4", "5 : 5"))
    assert alone(THREE, ("17 : 17", "0 : 0", "0 : 0")).sheet().totals == (170, 0, 0)
    with pytest.raises(ScorekeeperError, match="No bid of 18"):
        HandEntry.parse_players("18 : 17", "0 : 0", "0 : 0")


def test_cutthroat_each_player_scores_their_own_bid() -> None:
    game = alone(CUTTHROAT, ("3 : 4", "4 : 4", "2 : 5", "nil : 0"), ("5 : 3", "3 : 4", "3 : 5", "1 : 1"))
    rows = game.sheet().rows
    assert rows[0].score.points == (31, 40, 23, 100)
    assert rows[1].score.points == (-50, 31, 32, 10)
    assert rows[1].totals == (-19, 71, 55, 110) and rows[1].bags == (1, 1, 5, 0)
    assert game.names == ("Player 1", "Player 2", "Player 3", "Player 4")
    nil = alone(CUTTHROAT, ("3 : 4", "4 : 4", "2 : 3", "nil : 2")).sheet().rows[0].score.sides[3]
    assert nil.nil_points == -100 and nil.bags_added == 2


def test_two_players() -> None:
    game = alone(find_preset("two-player"), ("5 : 7", "6 : 6"), names=("Ann", "Bo"))
    assert game.sheet().totals == (52, 60)
    with pytest.raises(ScorekeeperError, match="Enter a line for each of the 2 players, not 3"):
        game.add(HandEntry.parse_players("4 : 4", "4 : 4", "5 : 5"))


def test_blind_nil_for_a_player_far_enough_behind_the_leader() -> None:
    rules = CUTTHROAT.replace(blind_nil=True)
    game = alone(rules, ("6 : 9", "5 : 2", "1 : 1", "1 : 1"), names=("A", "B", "C", "D"))
    assert game.sheet().totals == (63, -50, 10, 10)
    later = game.add(HandEntry.parse_players("4 : 5", "bn : 0", "4 : 4", "4 : 4"))
    assert later.sheet().rows[1].score.points[1] == 200
    with pytest.raises(ScorekeeperError, match=r"^Hand 2: C: blind nil is only for a player at least 100"):
        game.add(HandEntry.parse_players("4 : 5", "4 : 0", "bn : 4", "4 : 4"))


def test_renege_sets_the_player() -> None:
    entry = HandEntry.parse_players("3 : 4", "4 : 4", "2 : 5", "nil : 0", renege=1)
    assert ScoreGame(CUTTHROAT).add(entry).sheet().rows[0].score.points == (31, -40, 23, 100)
    with pytest.raises(ScorekeeperError, match="There is no player 5 to have reneged"):
        ScoreGame(CUTTHROAT).add(HandEntry.parse_players("3 : 4", "4 : 4", "2 : 5", "nil : 0", renege=4))


def test_lines_must_be_of_the_tables_kind() -> None:
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: Each player scores alone under these rules"):
        ScoreGame(CUTTHROAT).add(HandEntry.parse("3 3 : 6", "3 3 : 7"))
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: These rules have two teams of partners"):
        ScoreGame().add(HandEntry.parse_players("3 : 6", "3 : 7"))
    with pytest.raises(ScorekeeperError, match="a line for each team, or for each player alone"):
        HandEntry()
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: Ann: enter the bid"):
        alone(THREE, (": 6", "4 : 5", "5 : 6"), names=("Ann", "Bo", "Cy"))
    with pytest.raises(ScorekeeperError, match="Give each player a name of its own"):
        ScoreGame(THREE, ("Ann", "Ann", "Cy"))


def test_first_hand_without_bidding_teams() -> None:
    rules = Rules(first_hand_no_bids=True)
    game = ScoreGame(rules, ("Us", "Them")).add(HandEntry.parse(": 7", ": 6"))
    assert game.sheet().totals == (70, 60) and game.sheet().bags == (0, 0)
    assert game.sheet().rows[0].entry.teams[0].bid_text(rules) == "-"
    assert game.add(HandEntry.parse("3 3 : 7", "3 3 : 6")).sheet().totals == (131, 120)
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: Us: hand 1 is played without bidding; enter only"):
        ScoreGame(rules, ("Us", "Them")).add(HandEntry.parse("3 3 : 7", "3 3 : 6"))
    with pytest.raises(ScorekeeperError, match=r"^Hand 2: Us: enter both partners' bids"):
        game.add(HandEntry.parse(": 7", ": 6"))
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: A hand without bids has no bid for a renege"):
        ScoreGame(rules).add(HandEntry.parse(": 7", ": 6", renege=0))
    again = ScoreGame.from_dict(game.to_dict())
    assert again == game and again.to_dict()["hands"][0] == {"teams": [{"players": [], "tricks": 7},
                                                                       {"players": [], "tricks": 6}],
                                                             "renege": None}


def test_first_hand_without_bidding_alone() -> None:
    rules = THREE.replace(first_hand_no_bids=True)
    game = alone(rules, (": 6", ": 6", ": 5"), ("4 : 5", "6 : 6", "5 : 6"))
    assert [r.totals for r in game.sheet().rows] == [(60, 60, 50), (90, 120, 90)]
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: Player 1: hand 1 is played without bidding"):
        alone(rules, ("4 : 6", ": 6", ": 5"))


def test_winner_and_tie_alone() -> None:
    rules = THREE.replace(target=100)
    won = alone(rules, ("11 : 11", "3 : 3", "3 : 3"), names=("Ann", "Bo", "Cy"))
    assert won.sheet().winner == 0 and status_text(won) == "Ann wins with 110 (Bo 30, Cy 30)."
    level = alone(rules, ("5 : 5", "5 : 5", "7 : 7"), ("5 : 5", "5 : 5", "2 : 7"), names=("Ann", "Bo", "Cy"))
    assert level.sheet().totals == (100, 100, 40) and level.sheet().tied and level.sheet().winner is None
    assert status_text(level) == "Ann and Bo are level at 100 at the end: one more hand decides it."
    assert level.add(HandEntry.parse_players("3 : 3", "2 : 2", "12 : 12")).sheet().winner == 2


def test_json_versions() -> None:
    game = alone(THREE, ("4 : 5", "6 : 6", "5 : 6"), names=("Ann", "Bo", "Cy"))
    data = game.to_dict()
    assert data["version"] == 2
    assert data["hands"][0] == {"players": [{"bid": "4", "tricks": 5}, {"bid": "6", "tricks": 6},
                                            {"bid": "5", "tricks": 6}], "renege": None}
    assert ScoreGame.from_dict(data) == game
    # What the page stored before version 2: no version at all, or version 1, two teams.
    old = {"rules": {"target": 300}, "names": ["Us", "Them"],
           "hands": [{"teams": [{"players": [{"bid": "2"}, {"bid": "2"}], "tricks": 8},
                                {"players": [{"bid": "3"}, {"bid": "3"}], "tricks": 5}], "renege": None}]}
    assert ScoreGame.from_dict(old).sheet().totals == (44, -60)
    assert ScoreGame.from_dict({**old, "version": 1}).sheet().totals == (44, -60)
    with pytest.raises(ScorekeeperError, match="Unknown scorekeeper format version 3"):
        ScoreGame.from_dict({**old, "version": 3})
    with pytest.raises(ScorekeeperError, match="'teams'\\) or each player \\('players'\\)"):
        HandEntry.from_dict({"teams": [], "players": []})
    with pytest.raises(ScorekeeperError, match="A player's tricks must be a whole number"):
        HandEntry.from_dict({"players": [{"bid": "4"}, {"bid": "4", "tricks": 9}]})


def test_sheet_text_alone() -> None:
    game = alone(THREE, ("4 : 5", "6 : 6", "5 : 6"), names=("Ann", "Bo", "Cy"))
    head, cols, row, status = sheet_text(game).splitlines()
    assert head.split("|")[1:] == [" Ann" + " " * 28, " Bo" + " " * 29, " Cy"]
    assert cols.split("|")[1:] == ["    Bid Tricks Points Bags Total"] * 3
    assert row.split("|") == ["   1 ", "      4      5    +30    1    30", "      6      6    +60    0    60",
                              "      5      6    +40    1    40"]
    assert status == "Ann 30 (1 bag), Bo 60 (0 bags), Cy 40 (1 bag)."


def _entry(game: Game, hand: HandResult) -> HandEntry:
    """The hand as a scorekeeper at that table would write it down."""
    r = game.rules
    if not r.has_partners:
        lines = zip(hand.bids, hand.tricks_won, strict=True)
        return HandEntry(players=tuple(SoloLine(b, t) for b, t in lines))
    teams = []
    for side in (0, 1):
        seats = r.seats_of(side)
        players = tuple(PlayerLine(b, nil_tricks=hand.tricks_won[s] if b.is_nil(r) else 0)
                        for s in seats if (b := hand.bids[s]) is not None)
        teams.append(TeamLine(players, sum(hand.tricks_won[s] for s in seats)))
    return HandEntry(tuple(teams))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["pagat", "cutthroat", "three-player", "two-player"]), st.booleans(),
       st.integers(1, 10**6))
def test_the_scorekeeper_agrees_with_the_engine(preset: str, no_bids: bool, deal: int) -> None:
    """A game the engine plays, written down hand by hand, scores the same on the pad.

    Easy bots rather than random ones: a random partnership bids 20 between them, which the
    engine allows and the scorekeeper refuses as a slip of the pen (no team can make it).
    """
    rules = find_preset(preset).replace(first_hand_no_bids=no_bids, target=300)
    rules = rules.replace(blind_nil=True, blind_nil_deficit=50) if rules.nil.value == "nil" else rules
    game = play_out(Game(rules, deal=deal), [make_player("easy")] * rules.players, seed=deal, hands=5)
    pad = ScoreGame(rules)
    for hand in game.history:
        pad = pad.add(_entry(game, hand))
    sheet = pad.sheet()
    for row, hand in zip(sheet.rows, game.history, strict=True):
        assert row.score == hand.score and row.totals == hand.scores_after
        assert row.totals == tuple(sum(r.score.points[s] for r in sheet.rows[:row.number])
                                   for s in range(rules.sides))
    assert sheet.winner == game.winner
