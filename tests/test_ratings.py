"""Ratings from rated games' results (``spades.ratings``): worked expectations and invariants."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades.errors import SpadesError
from spades.ratings import (
    PROVISIONAL_GAMES,
    GameResult,
    NotRated,
    Rating,
    computer,
    level_of,
    places_of,
    rate,
    rated_rules_of,
)
from spades.rules import PRESETS

PAIRS = (0, 1, 0, 1)
"""Seats 0 and 2 against 1 and 3: the partnership game's sides."""


def game(seats: tuple[str, ...], places: tuple[int, ...], sides: tuple[int, ...] = PAIRS,
         left: frozenset[int] = frozenset()) -> GameResult:
    return GameResult(rules="standard", game="g", seats=seats, sides=sides, places=places, left=left)


def test_a_first_game_moves_winners_up_and_losers_down_by_the_same_worked_amount() -> None:
    after = rate(game(("ann", "bob", "cat", "dan"), (0, 1)), {})
    # openskill's Plackett-Luce, two teams of two new players: mu 25 -> 25 +- 1.9643, sigma 8.3333 -> 8.1780
    assert after["ann"].mu == pytest.approx(26.9643, abs=1e-4)
    assert after["bob"].mu == pytest.approx(23.0357, abs=1e-4)
    assert after["ann"].sigma == after["bob"].sigma == pytest.approx(8.1780, abs=1e-4)
    assert [after[p].shown for p in ("ann", "cat", "bob", "dan")] == [1583, 1583, 1417, 1417]
    assert after["ann"].uncertainty == 343 and after["ann"].games == 1


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Rating(mu=30.0, sigma=4.0, games=40), Rating(mu=20.0, sigma=4.0, games=40)
    before = {"s1": strong, "s2": strong, "w1": weak, "w2": weak}
    expected = rate(game(("s1", "w1", "s2", "w2"), (0, 1)), before)
    upset = rate(game(("s1", "w1", "s2", "w2"), (1, 0)), before)
    assert 0 < expected["s1"].mu - 30 < 30 - upset["s1"].mu
    assert 0 < 20 - expected["w1"].mu < upset["w1"].mu - 20


def test_a_strong_partner_shares_the_win_so_the_weak_one_gains_less_than_alone() -> None:
    new = Rating()
    with_expert = rate(game(("ann", "bob", computer("expert"), "dan"), (0, 1)),
                       {computer("expert"): Rating(mu=35.0, sigma=3.0, games=500)})
    even = rate(game(("ann", "bob", "cat", "dan"), (0, 1)), {})
    assert new.mu < with_expert["ann"].mu < even["ann"].mu


def test_cutthroat_places_each_player_and_equal_scores_share_a_place() -> None:
    places = places_of([250, 510, 250, 90], winner=1)
    assert places == (1, 0, 1, 2)
    after = rate(GameResult(rules="cutthroat", game="c", seats=("a", "b", "c", "d"), sides=(0, 1, 2, 3),
                            places=places), {})
    assert after["a"].mu == pytest.approx(after["c"].mu)
    assert after["b"].mu > after["a"].mu > after["d"].mu
    assert after["d"].mu < 25 < after["b"].mu


def test_a_person_who_left_takes_a_loss_though_their_side_won() -> None:
    after = rate(game(("ann", "bob", "cat", "dan"), (0, 1), left=frozenset({2})), {})
    assert after["ann"].mu > 25 > after["cat"].mu
    assert after["bob"].mu < 25 and after["dan"].mu < 25
    assert after["cat"].mu == pytest.approx(rate(game(("ann", "bob", "cat", "dan"), (1, 0)), {})["cat"].mu)


def test_a_level_on_both_sides_moves_by_the_mean_of_its_sides() -> None:
    normal = computer("normal")
    after = rate(game(("ann", normal, normal, normal), (0, 1)), {})
    assert after["ann"].mu > 25
    assert after[normal].mu == pytest.approx(25.0) and after[normal].games == 1
    assert level_of(normal) == "normal" and level_of("ann") is None


def test_a_rating_is_provisional_until_enough_games() -> None:
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional
    r: dict[str, Rating] = {}
    for i in range(PROVISIONAL_GAMES):
        assert "ann" not in r or r["ann"].provisional
        r = rate(game(("ann", "bob", "cat", "dan"), (i % 2, 1 - i % 2)), r)
    assert not r["ann"].provisional and r["ann"].uncertainty < 350


def test_the_rated_rule_sets_and_their_free_target() -> None:
    assert rated_rules_of(PRESETS["standard"]) == "standard"
    assert rated_rules_of(PRESETS["standard"].replace(target=100)) == "standard"
    assert rated_rules_of(PRESETS["cutthroat"].replace(target=300)) == "cutthroat"
    with pytest.raises(NotRated, match="change players, nil"):
        rated_rules_of(PRESETS["three-player"])
    with pytest.raises(NotRated, match="change failed_bid"):
        rated_rules_of(PRESETS["bicycle"].replace(nil=PRESETS["standard"].nil))


def test_a_result_without_a_place_for_each_side_is_refused() -> None:
    with pytest.raises(SpadesError, match="a place for each side"):
        rate(game(("a", "b", "c", "d"), (0,)), {})


ratings = st.builds(Rating, mu=st.floats(0, 50), sigma=st.floats(0.5, 8.4), games=st.integers(0, 1000))


@given(st.lists(ratings, min_size=4, max_size=4), st.sampled_from([(0, 1), (1, 0)]))
def test_winners_never_lose_points_and_losers_never_gain(before: list[Rating],
                                                         places: tuple[int, int]) -> None:
    seats = ("a", "b", "c", "d")
    after = rate(game(seats, places), dict(zip(seats, before, strict=True)))
    for seat, player in enumerate(seats):
        won = places[PAIRS[seat]] == 0
        change = after[player].mu - before[seat].mu
        assert change > 0 if won else change < 0
        assert after[player].games == before[seat].games + 1 and after[player].sigma > 0
