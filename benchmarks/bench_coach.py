"""The coach's sanity figure and speed: how often it flags South's decisions when South is played by
one level (its partner and the opponents ``normal``), and how long it takes to review a hand.

    nice -n 10 .venv/bin/python benchmarks/bench_coach.py --level normal --deals 10
    nice -n 10 .venv/bin/python benchmarks/bench_coach.py --level random --deals 10

A strong South should be flagged rarely and a random one often.
"""

from __future__ import annotations

import argparse
import time

from spades.bots import LEVELS, make_player, play_out
from spades.bots.coach import SAMPLES, THRESHOLD, analyze
from spades.game import Game
from spades.record import record_of
from spades.rules import find_preset


def main() -> None:
    """Play the deals, review South in each, print the flag rate and the time per hand."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", default="normal", choices=LEVELS, help="South's level (default normal)")
    p.add_argument("--deals", type=int, default=10, help="hands to play and review (default 10)")
    p.add_argument("--samples", type=int, default=SAMPLES, help=f"coach samples (default {SAMPLES})")
    p.add_argument("--threshold", type=float, default=THRESHOLD)
    args = p.parse_args()
    players = [make_player("normal")] * 4
    players[2] = make_player(args.level)
    decisions = flagged = 0
    lost = spent = 0.0
    for deal in range(1, args.deals + 1):
        game = play_out(Game(find_preset("standard"), deal=deal), players, seed=deal, hands=1)
        start = time.process_time()
        review = analyze(record_of(game), seat=2, samples=args.samples, threshold=args.threshold)
        spent += time.process_time() - start
        decisions += review.decisions
        flagged += review.mistakes
        lost += review.points_lost
    print(f"South {args.level}, {args.deals} hands, {args.samples} samples, threshold {args.threshold:.0f}: "
          f"{flagged} of {decisions} decisions flagged ({100 * flagged / max(1, decisions):.1f}%), "
          f"{lost / args.deals:.1f} points lost a hand; {spent / args.deals:.2f} s of CPU per hand reviewed")


if __name__ == "__main__":
    main()
