"""The coach's sanity figure and speed: how often it flags South's decisions when South is played by
one level (its partner and the opponents ``normal``), in all and apart for the hands with a nil bid,
and how long it takes to review a hand.

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
from spades.moves import MakeBid
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
    # hands, decisions and flags, apart for the hands where someone bid nil (where the coach judges the
    # attack on a nil and its cover card by card)
    by_kind: dict[str, list[int]] = {"with a nil": [0, 0, 0], "without": [0, 0, 0]}
    for deal in range(1, args.deals + 1):
        game = play_out(Game(find_preset("standard"), deal=deal), players, seed=deal, hands=1)
        record = record_of(game)
        start = time.process_time()
        review = analyze(record, seat=2, samples=args.samples, threshold=args.threshold)
        spent += time.process_time() - start
        decisions += review.decisions
        flagged += review.mistakes
        lost += review.points_lost
        nil = any(m is not None and isinstance(m[1], MakeBid) and m[1].bid.tricks == 0 for m in record.moves)
        kind = by_kind["with a nil" if nil else "without"]
        kind[0] += 1
        kind[1] += review.decisions
        kind[2] += review.mistakes
    print(f"South {args.level}, {args.deals} hands, {args.samples} samples, threshold {args.threshold:.0f}: "
          f"{flagged} of {decisions} decisions flagged ({100 * flagged / max(1, decisions):.1f}%), "
          f"{lost / args.deals:.1f} points lost a hand; {spent / args.deals:.2f} s of CPU per hand reviewed")
    print("; ".join(f"{hands} hands {name}: {flags} of {made} flagged ({100 * flags / max(1, made):.1f}%)"
                    for name, (hands, made, flags) in by_kind.items()))


if __name__ == "__main__":
    main()
