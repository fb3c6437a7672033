"""Friends' tables' updates over whole games, in one process: the bytes a seat receives a move, and
the time to make the four seats' updates.

Four people play whole games (to 500, the hint's moves), one of them saying a chat line every
``--chat`` moves; after every move each seat's page gets its update from the version before, as a
connection's later updates are made. The same updates leaving out only what never changes at the
table (the rules and reactions, as before the seldom-changing parts were also left out) are the peer
in the same run.

    .venv/bin/python benchmarks/bench_views.py --games 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from spades.bots import hint
from spades.game import Phase
from spades.rules import find_preset
from spades.server.present import face_up
from spades.server.tables.commands import Chat, MakeMove, NextHand, Start
from spades.server.tables.table import FriendsTable, TableOptions
from spades.server.tables.views import SharedView, tell_move, update_message


def four_updates(table: FriendsTable, seats: list[int], since: int, seldom: bool) -> tuple[list[str], float]:
    """The four seats' updates from version ``since`` as one look makes them, and its seconds; unless
    ``seldom``, as if every seldom-changing part had just changed (the peer: only what never changes
    at the table left out)."""
    kept = dict(table.changed)
    if not seldom:
        table.changed = dict.fromkeys(kept, table.seq)
    start = time.perf_counter()
    shared, shown = SharedView(table), None if table.game is None else face_up(table.game)
    made = [update_message(table, s, since, shared, shown, whole=False) for s in seats]
    seconds = time.perf_counter() - start
    table.changed = kept
    return made, seconds


def play(game_number: int, chat_every: int) -> tuple[list[int], list[int], list[float], list[float], int]:
    """One whole game: each update's bytes and each look's seconds (as made now, and the peer's), and
    its hands."""
    now = [0.0]  # a move a second, as people play (chat is rate limited)
    table = FriendsTable("BENCH" + str(game_number), TableOptions(find_preset("standard")), lambda: now[0],
                         teller=tell_move)
    seats = [table.join(f"Player {i}")[1] for i in range(4)]
    table.run(seats[0], Start())
    now_bytes: list[int] = []
    peer_bytes: list[int] = []
    looks: list[float] = []
    peer_looks: list[float] = []
    moves = 0
    while (game := table.game) is not None and game.phase is not Phase.GAME_OVER:
        since = table.seq
        moves += 1
        now[0] += 1
        if moves % chat_every == 0:
            table.run(seats[moves % 4], Chat(text="nice one, partner, keep it up"))
        turn = game.turn
        if game.phase is Phase.HAND_OVER or turn is None:
            table.run(seats[0], NextHand(version=len(game.log)))
        else:
            table.run(turn, MakeMove(move=str(hint(game.view(turn), "normal").move), version=len(game.log)))
        for seldom, sizes, times in ((True, now_bytes, looks), (False, peer_bytes, peer_looks)):
            made, seconds = four_updates(table, seats, since, seldom)
            sizes += [len(m.encode()) for m in made]
            times.append(seconds)
    assert table.game is not None
    return now_bytes, peer_bytes, looks, peer_looks, len(table.game.history)


def main() -> None:
    """Parse the options, play the games and print the figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=3, help="whole games to play (default 3)")
    p.add_argument("--chat", type=int, default=10, help="a chat line every this many moves (default 10)")
    args = p.parse_args()
    now_bytes: list[int] = []
    peer_bytes: list[int] = []
    looks: list[float] = []
    peer_looks: list[float] = []
    hands = 0
    for g in range(args.games):
        a, b, c, d, h = play(g, args.chat)
        now_bytes += a
        peer_bytes += b
        looks += c
        peer_looks += d
        hands += h
    print(f"{args.games} games, {hands} hands, {len(looks)} moves, a chat line every {args.chat} moves: "
          f"a seat's update {statistics.mean(now_bytes):.0f} B on average "
          f"(only the rules and reactions left out: {statistics.mean(peer_bytes):.0f} B, "
          f"{statistics.mean(now_bytes) / statistics.mean(peer_bytes):.2f}x); "
          f"four seats' updates made in {statistics.median(looks) * 1e6:.0f} us (median; the peer's "
          f"{statistics.median(peer_looks) * 1e6:.0f} us)")


if __name__ == "__main__":
    main()
