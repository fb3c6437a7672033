"""The cost of rating a game: ``spades.ratings.rate`` alone, and the append that ends a friends' table's
game with its rating against the same append without one, in the store.

Each stored game is a table's append of one entry that ends it (four distinct players, two of them
from a pool of 50 so that rows are read back and moved, and a computer level in the other two seats);
its peer is the same append without the rating. The figures are each append's time, median and p95.

    .venv/bin/python benchmarks/bench_ratings.py --games 300
    .venv/bin/python benchmarks/bench_ratings.py --games 300 --database-url postgresql://...
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from spades.ratings import GameResult, Rating, computer, rate
from spades.server.store import Store, open_store


def result(code: str, rng: random.Random) -> GameResult:
    """A finished partnership game at a table: two people from the pool against one person and the expert
    level."""
    people = rng.sample(range(50), 3)
    seats = (f"p{people[0]}", f"p{people[1]}", f"p{people[2]}", computer("expert"))
    return GameResult(rules="standard", game=f"table {code} 1", seats=seats, sides=(0, 1, 0, 1),
                      places=(0, 1) if rng.random() < 0.5 else (1, 0))


def rate_alone(games: int, rng: random.Random) -> float:
    """Microseconds per ``rate`` call, on ratings already moved by earlier games."""
    ratings: dict[str, Rating] = {}
    results = [result(f"B{i:05d}", rng) for i in range(games)]
    start = time.perf_counter()
    for r in results:
        ratings.update(rate(r, ratings))
    return (time.perf_counter() - start) / games * 1e6


def appends(store: Store, games: int, rng: random.Random, rated: bool) -> list[float]:
    """Each ending append's milliseconds, with or without its rating."""
    out = []
    for i in range(games):
        code = f"{'R' if rated else 'U'}{i:05d}"
        store.add_table(code=code, options="{}")
        r = result(code, rng) if rated else None
        start = time.perf_counter()
        assert store.append_table(code=code, version=0, entries=[json.dumps({"k": "end"})], rated=r)
        out.append((time.perf_counter() - start) * 1000)
    return out


def p95(xs: list[float]) -> float:
    return sorted(xs)[int(len(xs) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--database-url", default=None, help="PostgreSQL (default: a new SQLite file)")
    args = parser.parse_args()
    rng = random.Random(26)
    print(f"rate() alone: {rate_alone(args.games * 10, rng):.0f} us a game ({args.games * 10} games)")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(args.database_url or str(Path(folder) / "bench.sqlite3"))
        store.check()
        plain = appends(store, args.games, rng, rated=False)
        rated = appends(store, args.games, rng, rated=True)
        store.close()
    where = "PostgreSQL" if args.database_url else "SQLite"
    for name, xs in (("without a rating", plain), ("with its rating", rated)):
        print(f"{where} append that ends a game, {name}: median {statistics.median(xs):.2f} ms, "
              f"p95 {p95(xs):.2f} ms ({len(xs)} games)")


if __name__ == "__main__":
    main()
