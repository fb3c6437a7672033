"""The scorekeeper: the reference's examples, corrections that rescore, and every refusal."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.paper.scorekeeper import HandEntry, PlayerLine, ScoreGame, ScorekeeperError, TeamLine
from spades.rules import BidFormat, FailedNilTricks, NilRule, RenegePenalty, Rules

THREE_HANDS = [("2 2 : 8", "3 3 : 5"), ("2 2 : 7", "nil 5 : 6"), ("3 2 : 8", "3 2 : 5")]


def game_of(hands: list[tuple[str, str]], rules: Rules | None = None) -> ScoreGame:
    game = ScoreGame(rules or Rules(), ("Us", "Them"))
    for first, second in hands:
        game = game.add(HandEntry.parse(first, second))
    return game


def test_three_hand_example() -> None:
    sheet = game_of(THREE_HANDS).sheet()
    assert [r.totals for r in sheet.rows] == [(44, -60), (87, 91), (40, 141)]
    assert [r.bags for r in sheet.rows] == [(4, 0), (7, 1), (0, 1)]
    assert sheet.rows[2].score.sides[0].penalties == 1
    assert sheet.winner is None and not sheet.tied


@pytest.mark.parametrize(("bid", "won", "points", "bags"), [
    ("3 2", 5, 50, 0), ("3 2", 7, 52, 2), ("3 2", 8, 53, 3), ("4 3", 7, 70, 0),
    ("3 2", 4, -50, 0), ("2 2", 3, -40, 0),
])
def test_sample_score_table(bid: str, won: int, points: int, bags: int) -> None:
    side = game_of([(f"{bid} : {won}", f"1 1 : {13 - won}")]).sheet().rows[0].score.sides[0]
    assert (side.points, side.bags_added) == (points, bags)


def test_eight_bags_plus_three() -> None:
    rows = game_of([("2 2 : 12", "1 1 : 1"), ("3 2 : 8", "3 2 : 5")]).sheet().rows
    assert rows[0].bags[0] == 8
    assert rows[1].score.sides[0].points == 50 + 3 - 100
    assert rows[1].bags[0] == 1


@pytest.mark.parametrize(("reading", "points", "bags"), [
    (FailedNilTricks.BAGS, -50 + 3 - 100, 3),
    (FailedNilTricks.CONTRACT, 50 + 2 - 100, 2),
    (FailedNilTricks.NEITHER, -50 - 100, 0),
])
def test_failed_nil_readings(reading: FailedNilTricks, points: int, bags: int) -> None:
    rules = Rules(failed_nil_tricks=reading)
    row = game_of([("nil/3 5 : 7", "3 3 : 6")], rules).sheet().rows[0]
    assert (row.totals[0], row.bags[0]) == (points, bags)
    assert row.score.sides[0].nils[0].tricks == 3


def test_correcting_hand_one_rescores_the_rest() -> None:
    game = game_of(THREE_HANDS)
    fixed = game.correct(1, HandEntry.parse("2 2 : 7", "3 3 : 6"))
    assert [r.totals for r in fixed.sheet().rows] == [(43, 60), (86, 211), (139, 261)]
    assert [r.bags[0] for r in fixed.sheet().rows] == [3, 6, 9]
    assert [r.totals for r in fixed.remove(1).sheet().rows] == [(43, 151), (96, 201)]
    assert game.sheet().rows[0].totals == (44, -60)


def test_game_end_winner_and_tie() -> None:
    rules = Rules(target=100)
    won = game_of([("5 5 : 10", "1 2 : 3")], rules)
    assert won.sheet().winner == 0
    with pytest.raises(ScorekeeperError, match="Hand 2: the game was over after hand 1"):
        won.add(HandEntry.parse("2 2 : 4", "4 5 : 9"))
    level = game_of([("6 4 : 10", "2 1 : 3"), ("2 1 : 3", "6 4 : 10")], Rules(target=130))
    sheet = level.sheet()
    assert sheet.totals == (130, 130) and sheet.tied and sheet.winner is None
    assert level.add(HandEntry.parse("2 2 : 4", "4 5 : 9")).sheet().winner == 1


@pytest.mark.parametrize(("first", "second", "message"), [
    ("3 3 : 6", "3 3 : 6", "add up to 6 \\+ 6 = 12, not 13"),
    ("14 1 : 13", "1 1 : 0", "a bid of 14 is more than the 13"),
    ("nil/2 4 : 1", "3 3 : 12", "the nil bidder won 2 tricks, more than the team's 1"),
    ("nil nil : 2", "3 3 : 11", "both partners bid nil"),
    ("bn 4 : 5", "3 3 : 8", "these rules do not allow blind nil"),
    ("10for200 3 : 10", "1 1 : 3", "these rules do not have the 10 for 200 bid"),
])
def test_refusals(first: str, second: str, message: str) -> None:
    with pytest.raises(ScorekeeperError, match=f"^Hand 1: .*{message}"):
        game_of([(first, second)])


def test_nil_outcome_must_agree_with_its_tricks() -> None:
    game = ScoreGame(names=("Us", "Them"))
    kept_but_won = TeamLine((PlayerLine(PlayerLine.parse("nil").bid, kept=True, nil_tricks=1),
                             PlayerLine.parse("4")), 6)
    with pytest.raises(ScorekeeperError, match="a nil marked kept cannot have won 1 trick\\."):
        game.add(HandEntry((kept_but_won, TeamLine.from_dict({"players": [{"bid": 3}, {"bid": 3}],
                                                                "tricks": 7}))))
    broken_none = HandEntry.from_dict({"teams": [
        {"players": [{"bid": "nil", "kept": False}, {"bid": "4"}], "tricks": 6},
        {"players": [{"bid": "3"}, {"bid": "3"}], "tricks": 7}]})
    with pytest.raises(ScorekeeperError, match="a broken nil won at least 1 trick"):
        game.add(broken_none)
    with pytest.raises(ScorekeeperError, match="only a nil bidder's tricks"):
        game_of([("4/1 3 : 6", "3 3 : 7")])


def test_a_team_may_bid_more_than_13_between_its_partners_as_at_the_table() -> None:
    """"Each player names a number of tricks from 0 to 13": a team's 8 and 7 are legal, and set."""
    assert game_of([("8 7 : 13", "1 1 : 0")]).sheet().rows[0].score.points == (-150, -20)


def test_rule_options_refuse_bids_they_forbid() -> None:
    with pytest.raises(ScorekeeperError, match="these rules have no nil: bid at least 1"):
        game_of([("nil 4 : 6", "3 3 : 7")], Rules(nil=NilRule.NONE))
    with pytest.raises(ScorekeeperError, match="at least 4 \\(board\\)"):
        game_of([("nil 3 : 6", "3 3 : 7")], Rules(min_team_bid=4))
    blind = Rules(blind_nil=True)
    with pytest.raises(ScorekeeperError, match="Hand 1: Us: blind nil is only for a team at least 100"):
        game_of([("bn 4 : 5", "3 3 : 8")], blind)
    behind = game_of([("3 3 : 5", "4 4 : 8"), ("bn 4 : 5", "3 3 : 8")], blind).sheet()
    assert behind.rows[1].score.sides[0].nil_points == 200
    with pytest.raises(ScorekeeperError, match="10 for 200 is bid by the second partner, after a number"):
        game_of([("10for200 nil : 10", "1 1 : 3")], Rules(ten_for_two_hundred=True))


@pytest.mark.parametrize("bids", ["4 3", "nil nil", "nil 3", "bn 3"])
def test_suicide_one_partner_bids_nil_and_the_other_at_least_4(bids: str) -> None:
    rules = Rules(bid_format=BidFormat.SUICIDE, blind_nil=True, blind_nil_deficit=0)
    assert game_of([("nil 4 : 5", "5 bn : 8")], rules).sheet().totals == (141, 253)
    with pytest.raises(ScorekeeperError, match=r"^Hand 1: Us: in Suicide one partner bids nil and the other"):
        game_of([(f"{bids} : 5", "nil 4 : 8")], rules)


def test_ten_for_two_hundred_and_renege() -> None:
    ten = Rules(ten_for_two_hundred=True)
    rows = game_of([("4 10for200 : 10", "1 1 : 3"), ("4 10for200 : 11", "1 1 : 2")], ten).sheet().rows
    assert [r.score.points[0] for r in rows] == [200, -200]
    entry = HandEntry.parse("3 2 : 7", "3 3 : 6", renege=0)
    assert ScoreGame().add(entry).sheet().rows[0].score.points == (-50, 60)
    three = ScoreGame(Rules(renege_penalty=RenegePenalty.THREE_TRICKS)).add(entry)
    assert three.sheet().rows[0].score.points[0] == -80


def test_json_round_trip_and_bad_json() -> None:
    game = game_of(THREE_HANDS, Rules(blind_nil=True, target=300))
    again = ScoreGame.from_dict(game.to_dict())
    assert again == game and again.sheet() == game.sheet()
    with pytest.raises(ScorekeeperError, match="A team's tricks must be a whole number, not None"):
        ScoreGame.from_dict({"hands": [{"teams": [{}, {}]}]})
    with pytest.raises(ScorekeeperError, match="A team has 2 players, not 1"):
        ScoreGame.from_dict({"hands": [{"teams": [{"players": [{"bid": 4}], "tricks": 6}] * 2}]})
    with pytest.raises(ScorekeeperError, match="A team's tricks must be a whole number"):
        HandEntry.from_dict({"teams": [{"players": [{"bid": 1}, {"bid": 1}], "tricks": "7"}] * 2})
    with pytest.raises(ScorekeeperError, match="These rules keep 4 scores, each player alone: give 4 names"):
        ScoreGame(Rules(partnerships=False), ("Us", "Them"))
    with pytest.raises(ScorekeeperError, match="There is no hand 4"):
        game.remove(4)


@st.composite
def hands(draw: st.DrawFn) -> list[HandEntry]:
    """Up to 12 plausible hands: numbers or nils, tricks that add up to 13, a nil's own tricks."""
    out = []
    for _ in range(draw(st.integers(0, 12))):
        first = draw(st.integers(0, 13))
        teams = []
        for won in (first, 13 - first):
            a = draw(st.sampled_from(["nil", *map(str, range(1, 7))]))
            b = str(draw(st.integers(1, 6)))
            nil = draw(st.integers(0, won)) if a == "nil" else 0
            teams.append(TeamLine((PlayerLine.parse(f"{a}/{nil}" if nil else a), PlayerLine.parse(b)), won))
        out.append(HandEntry((teams[0], teams[1])))
    return out


@settings(max_examples=60, deadline=None)
@given(hands())
def test_totals_are_running_sums_and_bags_stay_under_the_limit(entries: list[HandEntry]) -> None:
    game = ScoreGame(Rules(target=10_000))
    for entry in entries:
        game = game.add(entry)
    rows = game.sheet().rows
    for k, row in enumerate(rows):
        assert row.totals == tuple(sum(r.score.points[s] for r in rows[:k + 1]) for s in (0, 1))
        assert all(0 <= b < 10 for b in row.bags)
    if rows:
        assert game.remove(len(rows)).sheet().rows == rows[:-1]
        assert game.correct(1, entries[0]).sheet() == game.sheet()
