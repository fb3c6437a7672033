"""Ratings in the store: a rated game's end moves its ratings in the transaction that records it, once,
on both databases, whichever of several writers ends it, and however many games end at once."""

from __future__ import annotations

import itertools
import json
import threading

from spades.ratings import PROVISIONAL_GAMES, GameResult, computer
from spades.server.store import open_store

EXPERT = computer("expert")


def result(code: str, seats: tuple[str, ...], places: tuple[int, int] = (0, 1)) -> GameResult:
    return GameResult(rules="standard", game=f"table {code} 1", seats=seats, sides=(0, 1, 0, 1),
                      places=places)


def test_a_rated_end_moves_each_rating_once_with_its_history(database: str) -> None:
    store = open_store(database)
    store.check()
    assert store.add_table(code="ABCDEF", options="{}")
    rated = result("ABCDEF", ("ann", EXPERT, "cat", EXPERT))
    assert store.append_table(code="ABCDEF", version=0, entries=[json.dumps({"k": "x"})], rated=rated)
    # the same game's end appended again (on a later version) changes no rating
    assert store.append_table(code="ABCDEF", version=1, entries=[json.dumps({"k": "y"})], rated=rated)
    assert not store.append_table(code="ABCDEF", version=0, entries=[json.dumps({"k": "z"})], rated=rated)
    ann, expert = store.ratings(player="ann")["standard"], store.ratings(player=EXPERT)["standard"]
    assert ann.games == expert.games == 1 and ann.shown > 1500 > expert.shown
    [change] = store.rating_history(player="ann", limit=10)
    assert change.game == "table ABCDEF 1" and change.place == 0 and change.after == ann
    assert change.before.shown == 1500 and change.before.games == 0
    assert store.ratings(player="nobody") == {} and store.leaderboard(rules="standard", limit=10) == []
    store.close()


def test_a_solo_games_end_rates_it_with_its_result(database: str) -> None:
    store = open_store(database)
    store.check()
    store.add_player(token="t" * 32)
    row = store.add_game(token="t" * 32, deal=7, daily=None, level="easy", bots_bid_nil=True, header="{}",
                         rated="standard")
    assert row.rated == "standard"
    easy = computer("easy")
    rated = GameResult(rules="standard", game=f"game {row.id}", seats=("bob", easy, easy, easy),
                       sides=(0, 1, 0, 1), places=(1, 0))
    assert store.append(game_id=row.id, version=0, entries=[None], rated=rated)
    assert store.ratings(player="bob")["standard"].shown < 1500
    assert store.ratings(player=easy)["standard"].games == 1
    store.close()


def test_games_ending_at_once_in_two_writers_lose_no_update(database: str) -> None:
    """Two stores (as two server processes) end many games at once, every one with the expert in it: its
    rating counts every game, each moved from the one before (no update read a value another replaced)."""
    stores = [open_store(database) for _ in range(2)]
    for s in stores:
        s.check()
    games = 24
    for i in range(games):
        assert stores[0].add_table(code=f"T{i:05d}", options="{}")

    def end(k: int) -> None:
        for i in range(k, games, 2):
            code = f"T{i:05d}"
            seats = (f"p{i}", EXPERT, f"q{i}", EXPERT)
            assert stores[k].append_table(code=code, version=0, entries=[json.dumps({"k": "x"})],
                                          rated=result(code, seats, (i % 2, 1 - i % 2)))

    threads = [threading.Thread(target=end, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expert = stores[0].ratings(player=EXPERT)["standard"]
    history = stores[0].rating_history(player=EXPERT, limit=100)
    assert expert.games == games == len(history)
    assert all(a.after == b.before for a, b in itertools.pairwise(history))
    assert history[-1].after == expert
    board = stores[0].leaderboard(rules="standard", limit=5)
    assert board == [(EXPERT, expert, None, False)] and expert.games >= PROVISIONAL_GAMES
    for s in stores:
        s.close()
