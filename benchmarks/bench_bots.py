"""Decision time of each bot level on real positions: the figures the issue asks for.

Positions (bids and card plays, in proportion) are taken from games between normal players;
each level then decides every one of them, and the mean, median and 95th percentile print.

    .venv/bin/python benchmarks/bench_bots.py --positions 200 --levels normal,hard,expert
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spades.bots import make_player
from spades.game import Game, Phase, SeatView
from spades.rules import find_preset


def positions(count: int, rules_name: str, seed: int) -> list[SeatView]:
    """Views of seats with a decision to make, from normal-vs-normal games, spread over hands."""
    rules = find_preset(rules_name)
    normal = make_player("normal")
    rng = random.Random(seed)
    out: list[SeatView] = []
    deal = seed * 1000 + 1
    while len(out) < count:
        game = Game(rules, deal=deal)
        deal += 1
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if rng.random() < 0.25:
                out.append(view)
            game.apply(seat, normal.choose(view, rng))
    return out[:count]


def main() -> None:
    """Time every level on the same positions and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--levels", default="easy,normal,hard,expert")
    p.add_argument("--rules", default="standard")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    views = positions(args.positions, args.rules, args.seed)
    print(f"{len(views)} positions, rules {args.rules}")
    print(f"{'level':8} {'mean ms':>9} {'median ms':>10} {'p95 ms':>9} {'max ms':>9}")
    for level in args.levels.split(","):
        player = make_player(level)
        times = []
        for i, view in enumerate(views):
            start = time.perf_counter()
            player.choose(view, random.Random(i))
            times.append(1000 * (time.perf_counter() - start))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{level:8} {statistics.mean(times):9.2f} {statistics.median(times):10.2f} {p95:9.2f} "
              f"{times[-1]:9.2f}")


if __name__ == "__main__":
    main()
