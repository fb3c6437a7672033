"""Benchmark: random full hands per second through the public API, the fast path and OpenSpiel.

Run ``.venv/bin/python benchmarks/bench_engine.py`` (or ``spades bench``); install OpenSpiel
with ``pip install -e '.[bench]'`` to compare against it in the same run.
"""

import argparse

from spades.benchmark import report


def main() -> None:
    """Parse the options and print the measured rates."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=5.0, help="time per engine (default 5)")
    p.add_argument("--batch", type=int, default=4096, help="hands per fast-path batch (default 4096)")
    p.add_argument("--cpu", action="store_true", help="count this process's CPU seconds (a shared machine)")
    args = p.parse_args()
    print(report(args.seconds, args.batch, cpu=args.cpu))


if __name__ == "__main__":
    main()
