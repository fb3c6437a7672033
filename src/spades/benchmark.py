"""Random full hands per second: the public API, the numpy fast path, and OpenSpiel's spades.

Each rate plays whole hands (deal, bids, 52 cards, the score) choosing uniformly among the
legal moves. The public API is measured twice, both times playing the consecutive hands of
numbered games (``next_hand``), a new game every ``HANDS_PER_GAME`` hands or once one is won
(random bids seldom win, and an endless game's log and history would grow without bound):
with integer actions (``legal_actions``/``apply_action``, the loop OpenSpiel is driven by)
and with Move objects (``apply``). OpenSpiel plays a new state per hand, its deal being 52 chance actions. The
engines take turns in short slices, so a machine whose load changes during the run slows
them all alike; on a machine shared with other work, ``cpu=True`` counts this process's CPU time
(``time.process_time``) instead of the wall clock, so the time the others take is not counted
against whichever engine was running. OpenSpiel is optional (``pip install 'spades[bench]'``);
without it its rate is reported as missing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from spades import game as game_module
from spades.fast import PlayState, random_bids, random_hands, score_batch
from spades.game import Game, Phase
from spades.rules import Rules

__all__ = [
    "HANDS_PER_GAME",
    "WARM_UP_HANDS",
    "Rate",
    "Runner",
    "action_runner",
    "engine_build",
    "fast_runner",
    "measure",
    "openspiel_runner",
    "public_runner",
    "report",
]


@dataclass(frozen=True)
class Rate:
    """Hands played and the seconds they took."""

    name: str
    hands: int
    seconds: float

    @property
    def per_second(self) -> float:
        """Hands per second."""
        return self.hands / self.seconds


Runner = Callable[[int], int]
"""Plays round ``i`` of an engine's work and returns how many hands it played."""


def _timed(name: str, seconds: float, runner: Runner, first: int = 0,
           clock: Callable[[], float] = time.perf_counter) -> Rate:
    """Call ``runner(first), runner(first + 1)...`` until ``seconds`` have passed on ``clock``."""
    start = clock()
    hands, i = 0, first
    while clock() - start < seconds:
        hands += runner(i)
        i += 1
    return Rate(name, hands, clock() - start)


HANDS_PER_GAME = 10
"""Hands the public-API runners play in one game before starting the next (about a real game's length)."""


def _consecutive_hands(rules: Rules, play_hand: Callable[[Game], None]) -> Runner:
    """Round ``i`` plays the next hand of a numbered game, starting game ``i + 1`` when that one is done."""
    game = Game(rules, deal=1)

    def hand(i: int) -> int:
        nonlocal game
        if game.phase is Phase.GAME_OVER or len(game.history) >= HANDS_PER_GAME:
            game = Game(rules, deal=i + 1)
        elif game.phase is Phase.HAND_OVER:
            game.next_hand()
        play_hand(game)
        return 1

    return hand


def action_runner(rules: Rules | None = None) -> Runner:
    """Hands through ``Game`` driven by integer actions, each checked by ``apply_action``."""
    rng = random.Random(1)

    def play_hand(game: Game) -> None:
        while game.turn is not None:
            game.apply_action(rng.choice(game.legal_actions()))

    return _consecutive_hands(rules or Rules(), play_hand)


def public_runner(rules: Rules | None = None) -> Runner:
    """Hands through ``Game`` driven by Move objects, picked from ``legal_moves`` and checked by ``apply``."""
    rng = random.Random(1)

    def play_hand(game: Game) -> None:
        while (seat := game.turn) is not None:
            game.apply(seat, rng.choice(game.legal_moves(seat)))

    return _consecutive_hands(rules or Rules(), play_hand)


WARM_UP_HANDS = 65536
"""Hands the fast path plays (4096 at a time) before its clock starts: ``score_batch`` asks the
engine for each new case's score once and keeps it, and these fill most of what random hands bring."""


def fast_runner(rules: Rules | None = None, batch: int = 4096) -> Runner:
    """Batches of random deals played at once by ``spades.fast``, scored by ``score_batch``;
    ``WARM_UP_HANDS`` of them played first, so that what is timed is the steady state."""
    rules = rules or Rules()
    rng = np.random.default_rng(1)

    def hands(i: int, rows: int = batch) -> int:
        dealt = random_hands(rules, rows, rng)
        bids = random_bids(rules, dealt, rng)
        state = PlayState.start(rules, dealt, leader=rng.integers(0, rules.players, size=rows))
        score_batch(rules, bids, state.play_out(rng), np.zeros((rows, rules.sides), dtype=np.int64))
        return rows

    for i in range(WARM_UP_HANDS // 4096):
        hands(-1 - i, 4096)
    return hands


def openspiel_runner() -> Runner | None:
    """OpenSpiel's spades (C++) driven from the same kind of Python loop; None if not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)

    def hand(i: int) -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return hand


def measure(seconds: float = 5.0, batch: int = 4096, slices: int = 5, cpu: bool = False) -> list[Rate]:
    """Each engine's rate over ``seconds`` in all, taken in ``slices`` turns; OpenSpiel last if present.

    ``cpu``: seconds of this process's CPU time rather than of the wall clock."""
    clock = time.process_time if cpu else time.perf_counter
    runners: dict[str, Runner] = {
        "public API (Game.apply_action)": action_runner(),
        "public API (Game.apply)": public_runner(),
        f"fast path (numpy, {batch} hands a batch)": fast_runner(batch=batch),
    }
    spiel = openspiel_runner()
    if spiel is not None:
        runners["OpenSpiel spades (pyspiel)"] = spiel
    totals = {name: Rate(name, 0, 0.0) for name in runners}
    done = dict.fromkeys(runners, 0)
    for _ in range(slices):
        for name, runner in runners.items():
            r = _timed(name, seconds / slices, runner, first=done[name], clock=clock)
            done[name] += max(1, r.hands)
            t = totals[name]
            totals[name] = Rate(name, t.hands + r.hands, t.seconds + r.seconds)
    return list(totals.values())


def engine_build() -> str:
    """Whether ``spades.game`` runs compiled by mypyc (see setup.py) or as its Python source."""
    path = str(game_module.__file__)
    return "pure Python (spades/game.py)" if path.endswith(".py") else "compiled with mypyc (setup.py)"


def report(seconds: float = 5.0, batch: int = 4096, cpu: bool = False) -> str:
    """Measure the rates in one run and describe them, with the ratios to OpenSpiel."""
    rates = measure(seconds, batch, cpu=cpu)
    lines = [f"engine: {engine_build()}; timed by {'CPU time' if cpu else 'the wall clock'}"]
    lines += [f"{r.name:<40} {r.per_second:>12,.0f} hands/s  ({r.hands} in {r.seconds:.1f} s)"
              for r in rates]
    spiel = next((r for r in rates if r.name.startswith("OpenSpiel")), None)
    if spiel is None:
        lines.append("OpenSpiel is not installed: pip install 'spades[bench]' to compare.")
    else:
        for r in rates:
            if r is not spiel:
                lines.append(f"{r.name} / OpenSpiel: {r.per_second / spiel.per_second:.2f}x")
    return "\n".join(lines)
