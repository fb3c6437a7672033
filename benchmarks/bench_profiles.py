"""The cost of a profile's figures and of a finished game's page, on a store holding a person's games.

A person plays ``--games`` solo games to their end through the service (the computer players at
``random`` for their three seats, the person's moves the first legal one; a game of a hand or two), in
process, on a SQLite file (or ``--database-url``). Then, each timed ``--repeat`` times (median and p95
in milliseconds): the person's figures the first time a server process is asked (``Archive.stats`` on a
fresh archive: each game replayed from its log and counted), and every time after (each game's figures
kept); and a game's page (``Archive.finished(ref).replay()``).

    .venv/bin/python benchmarks/bench_profiles.py --games 200
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from spades.server.archive import Archive
from spades.server.schemas import SettingsIn
from spades.server.service import Service
from spades.server.store import open_store


def play(service: Service, token: str) -> int:
    """One solo game played to its end by the person's first legal move each time; its number."""
    state = service.new_game(token).state
    while state.phase != "game_over":
        if state.phase == "hand_over":
            state = service.next_hand(token, state.id, state.version).state
            continue
        move = f"bid {state.legal_bids[0]}" if state.phase == "bid" else f"play {state.legal[0]}"
        state = service.move(token, state.id, move, state.version).state
    return state.id


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and p95 milliseconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    store = open_store(args.database_url or Path(tempfile.mkdtemp()) / "profiles.sqlite3")
    store.check()
    service = Service(store)
    token = service.new_player()
    service.save_settings(token, SettingsIn.model_validate(
        {"level": "random", "rules": {"preset": "standard", "options": {"target": 10, "low_mark": -10}}}))
    start = time.perf_counter()
    games = [play(service, token) for _ in range(args.games)]
    print(f"{args.games} games played in {time.perf_counter() - start:.1f} s")
    archive = Archive(store, service.reviews)
    hands = archive.stats(token).hands
    median, p95 = timed(lambda: Archive(store, service.reviews).stats(token), args.repeat)
    print(f"figures over {args.games} games ({hands} hands), first asked: median {median:.1f} ms, "
          f"p95 {p95:.1f} ms")
    median, p95 = timed(lambda: archive.stats(token), args.repeat)
    print(f"the same, asked again: median {median:.1f} ms, p95 {p95:.1f} ms")
    median, p95 = timed(lambda: archive.finished(str(games[-1])).replay(), args.repeat)
    print(f"a game's page: median {median:.1f} ms, p95 {p95:.1f} ms")
    store.close()


if __name__ == "__main__":
    main()
