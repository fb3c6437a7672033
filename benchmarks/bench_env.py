"""Benchmark: the RL environments' speed, against OpenSpiel's ``rl_environment`` on spades in the same run.

Run ``.venv/bin/python benchmarks/bench_env.py`` (the ``rl`` and ``bench`` extras). Both AEC loops
do what a learner's loop does: read the acting seat's observation and legal actions, pick one of
them at random, step. Times are this process's CPU seconds (``time.process_time``), so that other
work on a shared machine is not counted against either side.

- AEC steps a second: ``spades.env.raw_env`` (the observation vector and the action mask at every
  step) and OpenSpiel's ``rl_environment.Environment("spades")`` (its observation tensors and legal
  actions at every step), standard rules, one hand an episode.
- Batched hands a second (``spades.env.BatchEnv``, ``--rows`` rows a batch, random deals, the fast
  path's random legal actions): with the observation vectors and masks at every step, and without
  them (the actions only); and the deals from seeds (the engine's numbered deals).
"""

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from spades.env import BatchEnv, raw_env


def rate(seconds: float, run: Callable[[], int]) -> float:
    """Units a CPU second: ``run`` (returning how many it did) called until ``seconds`` are spent."""
    done, start = 0, time.process_time()
    while (spent := time.process_time() - start) < seconds:
        done += run()
    return done / spent


def aec_episode(e: raw_env, rng: np.random.Generator) -> int:
    """One hand of the AEC environment with random legal actions; the steps taken."""
    e.reset()
    steps = 0
    for _ in e.agent_iter():
        obs, _, done, cut, _ = e.last()
        e.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def openspiel_episode(env: object, rng: np.random.Generator) -> int:
    """One episode of OpenSpiel's spades ``rl_environment`` with random legal actions; the steps taken."""
    step = env.reset()  # type: ignore[attr-defined]
    steps = 0
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])  # type: ignore[attr-defined]
        steps += 1
    return steps


def batch_hands(batch: BatchEnv, rng: np.random.Generator, observe: bool, seeds: bool) -> int:
    """One batch of hands played to the end; the hands played."""
    if seeds:
        start = int(rng.integers(0, 2**40))
        batch.reset(seeds=range(start, start + batch.rows))
    else:
        batch.reset(rng=rng)
    while not batch.done:
        if observe:
            batch.observe()
            batch.action_mask()
        batch.step(batch.random_actions(rng))
    return batch.rows


def main() -> None:
    """Parse the options and print the measured rates."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement (default 5)")
    p.add_argument("--rows", type=int, default=4096, help="hands per batch (default 4096)")
    args = p.parse_args()
    rng = np.random.default_rng(1)
    aec = raw_env(rules="standard", seed=0)  # each reset deals the next deal number
    ours = rate(args.seconds, lambda: aec_episode(aec, rng))
    print(f"AEC, spades.env:              {ours:10,.0f} steps/s")
    try:
        from open_spiel.python import rl_environment
    except ImportError:
        print("AEC, OpenSpiel:               not installed (pip install -e '.[bench]')")
    else:
        spiel = rl_environment.Environment("spades")
        theirs = rate(args.seconds, lambda: openspiel_episode(spiel, rng))
        print(f"AEC, OpenSpiel rl_environment:{theirs:10,.0f} steps/s  (ours {ours / theirs:.2f}x)")
    batch = BatchEnv("standard", rows=args.rows)
    for label, observe, seeds in (("actions only, random deals", False, False),
                                  ("observations and masks, random deals", True, False),
                                  ("actions only, deals from seeds", False, True)):
        hands = rate(args.seconds, partial(batch_hands, batch, rng, observe, seeds))
        print(f"batch of {args.rows}, {label}: {hands:10,.0f} hands/s")


if __name__ == "__main__":
    main()
