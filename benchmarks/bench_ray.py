"""Benchmark: an arena on a local Ray cluster against the same arena over ``--jobs 2`` processes.

Run ``.venv/bin/python benchmarks/bench_ray.py`` (the ``ray`` extra). It plays the same match three
ways and prints each one's wall-clock seconds: over a pool of two processes (``--jobs 2``, the
pool's start included), on a local Ray cluster started for the match (``--ray``, its start
included), and on a Ray cluster already running (the start not counted: a cluster serves many
matches). It checks that all three give the same figures, bar the decision times.
"""

import argparse
import time
from typing import Any

import ray

from spades.arena import MatchResult, run_match

TIMES = ("seconds", "mean_ms", "p95_ms")
"""The figures that measure the machine, not the play."""


def figures(result: MatchResult) -> dict[str, Any]:
    """A match's JSON figures without its decision times."""
    data = result.to_dict()
    for side in ("a", "b"):
        for key in TIMES:
            del data[side][key]
    return data


def main() -> None:
    """Parse the options, play the match each way and print the seconds."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", default="normal", help="side A's level (default normal)")
    p.add_argument("--b", default="easy", help="side B's level (default easy)")
    p.add_argument("--deals", type=int, default=2000, help="duplicate deals (default 2000)")
    p.add_argument("--hands", type=int, default=1, help="hands per deal (default 1)")
    p.add_argument("--cpus", type=int, default=2, help="the local Ray cluster's CPUs (default 2)")
    args = p.parse_args()

    def match(**how: Any) -> tuple[float, MatchResult]:
        start = time.perf_counter()
        result = run_match([args.a], [args.b], deals=args.deals, hands=args.hands, seed=1, **how)
        return time.perf_counter() - start, result

    pool, by_pool = match(jobs=2)
    print(f"--jobs 2:                        {pool:7.1f} s")
    started, by_started = match(ray="")
    print(f"--ray, a local cluster started:  {started:7.1f} s  ({pool / started:.2f}x the pool's speed)")
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    try:
        running, by_running = match(ray="")
    finally:
        ray.shutdown()
    print(f"--ray, a cluster running:        {running:7.1f} s  ({pool / running:.2f}x the pool's speed)")
    same = figures(by_pool) == figures(by_started) == figures(by_running)
    print(f"{args.deals} deals, {by_pool.hands} hands; the same figures each way: {same}")


if __name__ == "__main__":
    main()
