"""A duplicate match of the project's players against OpenSpiel's IS-MCTS bot, in the project's engine.

Each deal is one hand from 0-0, played twice with the partnerships swapped, under the rules that
match OpenSpiel's spades (the ``parlor`` preset: a failed nil's tricks count toward the contract,
no blind nil, a set costs 10 a trick bid, 10 bags cost 100). The project's engine referees every
move. When an IS-MCTS seat is to move it is given an OpenSpiel state built from what that seat
sees and nothing more: its own hand, the bids and the cards played, with the other hands dealt at
random consistently with the voids shown (``sample_hands``, the sampler our search uses too);
every simulation of the search starts from a fresh deal drawn the same way (its resampler).
OpenSpiel numbers cards as the project does (suit * 13 + rank, clubs first) and bids as
52 + tricks (nil 52).

    pip install -e '.[bench]'
    nice -n 10 .venv/bin/python benchmarks/vs_openspiel.py --level expert --deals 20 --jobs 2

prints A (ours) minus B (IS-MCTS) per hand with its 95% interval, bids made and set, nils, bags
and both sides' decision times. Search levels run at their sample budget (they have no clock).
Each hand is scored alone, and both sides know it: OpenSpiel's returns (what IS-MCTS maximises)
are the hand's score, and our search levels are made with ``hand_alone`` (a bag costs its point,
not its share of a later 10-bag penalty); ``--game-value`` makes them weigh the game that would
follow instead, as they do in a game to the target.
A run of hours is best given ``--log FILE``: a line per deal as it ends (its margin, and the mean
and 95% interval so far), so a run stopped early still says where it stood.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from spades.arena import (
    MatchResult,
    SideStats,
    deal_number,
    format_table,
    play_duplicate,
    progress_bar,
    summarise,
)
from spades.bots import LEVELS, Player, make_player
from spades.bots.search import sample_hands
from spades.cards import Card, cards_of
from spades.game import Phase, SeatView
from spades.moves import MakeBid, Move, Play
from spades.rules import Rules, find_preset
from spades.scoring import Bid

RULES: Rules = find_preset("parlor")
"""The project's rules closest to OpenSpiel's spades."""
BID_BASE = 52
"""OpenSpiel's action for a bid of ``n`` tricks is ``BID_BASE + n`` (nil is ``BID_BASE``)."""


def openspiel_state(game: pyspiel.Game, view: SeatView, hands: list[int]) -> pyspiel.State:
    """The OpenSpiel state of this hand with the given current hands: the deal (the cards now plus
    the cards each seat has played), the bids and the play so far. OpenSpiel's player 0 is the
    seat left of the dealer, who bids and leads first in both engines."""
    n = view.rules.players
    first = (view.dealer + 1) % n
    dealt = list(hands)
    for t in view.tricks:
        for s, c in t.cards:
            dealt[s] |= 1 << c
    for s, c in view.trick:
        dealt[s] |= 1 << c
    state = game.new_initial_state()
    per_seat = [list(cards_of(dealt[(first + p) % n])) for p in range(n)]
    for i in range(view.rules.hand_size):
        for p in range(n):
            state.apply_action(per_seat[p][i])
    tricks = [b.tricks if b is not None else None for b in view.bids]
    for i in range(n):
        seat = (first + i) % n
        bid = tricks[seat]
        if bid is None:
            break
        partner = tricks[(seat + 2) % n]
        # OpenSpiel refuses partners' bids over 13 together, which the project allows: it sees 13
        state.apply_action(BID_BASE + (min(bid, 13 - partner) if partner is not None and i >= 2 else bid))
    for t in view.tricks:
        for _, c in t.cards:
            state.apply_action(int(c))
    for _, c in view.trick:
        state.apply_action(int(c))
    return state


def to_move(action: int, view: SeatView) -> Move:
    """The project's move for an OpenSpiel action, checked against what the seat may do."""
    if action < BID_BASE:
        if not view.legal_plays >> action & 1:
            raise AssertionError(f"IS-MCTS chose {Card(action)}, which the project's rules forbid here")
        return Play(Card(action))
    bid = Bid(action - BID_BASE)
    if bid not in view.legal_bids:
        raise AssertionError(f"IS-MCTS bid {bid}, which the project's rules forbid here")
    return MakeBid(bid)


class IsmctsPlayer:
    """OpenSpiel's Python IS-MCTS (random rollouts, the most visited move) behind the ``Player``
    protocol; each simulation starts from a fresh ``sample_hands`` deal of the seat's view."""

    def __init__(self, sims: int = 1000, uct_c: float = 200.0) -> None:
        self.name = f"ismcts-{sims}"
        self.sims = sims
        self.uct_c = uct_c
        self.game = pyspiel.load_game("spades")

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The move IS-MCTS picks from the seat's view."""
        if view.phase is Phase.PLAY and not view.legal_plays & (view.legal_plays - 1):
            return Play(Card(view.legal_plays.bit_length() - 1))
        deals = random.Random(rng.getrandbits(64))
        state = np.random.RandomState(rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(self.game, mcts.RandomRolloutEvaluator(1, state), self.uct_c, self.sims,
                               random_state=state, use_observation_string=True)
        bot.set_resampler(lambda _state, _player: openspiel_state(self.game, view,
                                                                   sample_hands(view, deals)))
        return to_move(int(bot.step(openspiel_state(self.game, view, sample_hands(view, deals)))), view)


_sides: tuple[Player, Player] | None = None


def _setup(level: str, sims: int, uct_c: float, game_value: bool) -> None:
    """In each worker: our player and the IS-MCTS player, made once."""
    global _sides
    _sides = (make_player(level, hand_alone=not game_value), IsmctsPlayer(sims, uct_c))


Played = tuple[float, int, SideStats, SideStats]
"""A deal played in duplicate: our margin a hand, the hands played, each side's figures."""


def _deal(deal: int) -> Played:
    assert _sides is not None
    ours, theirs = _sides
    return play_duplicate(RULES, deal, [ours], [theirs], hands=1)


def _numbered(deal: int) -> tuple[int, Played]:
    return deal, _deal(deal)


def _logged(results: Iterator[tuple[int, Played]], log: Path | None) -> Iterator[Played]:
    """Each deal's result, its line (deal, margin, mean and 95% interval so far) appended to ``log``."""
    margins: list[float] = []
    for deal, played in results:
        margins.append(played[0])
        if log is not None:
            n, mean = len(margins), sum(margins) / len(margins)
            half = 1.96 * math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1) / n) if n > 1 else 0.0
            with log.open("a") as f:
                f.write(f"deal {deal}: {played[0]:+.1f}; after {n}: {mean:+.1f} +- {half:.1f} a hand\n")
        yield played


def run(level: str, deals: int, sims: int = 1000, uct_c: float = 200.0, jobs: int = 1, seed: int = 1,
        progress: bool = False, log: Path | None = None, game_value: bool = False) -> MatchResult:
    """Play ``deals`` duplicate deals of ``level`` against IS-MCTS with ``sims`` simulations."""
    numbers = [deal_number(seed, i) for i in range(deals)]
    names = ((level,), (f"ismcts-{sims}",))
    show = progress_bar() if progress else None
    if jobs == 1:
        _setup(level, sims, uct_c, game_value)
        return summarise(RULES, _logged(map(_numbered, numbers), log), *names, deals, show)
    with get_context("spawn").Pool(jobs, _setup, (level, sims, uct_c, game_value)) as pool:
        results: Iterator[tuple[int, Played]] = pool.imap_unordered(_numbered, numbers)
        return summarise(RULES, _logged(results, log), *names, deals, show)


def main() -> None:
    """Parse the options, play the match and print it."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", default="expert", choices=LEVELS, help="our players' level (default expert)")
    p.add_argument("--deals", type=int, default=20, help="duplicate deals (default 20)")
    p.add_argument("--sims", type=int, default=1000, help="IS-MCTS simulations per move (default 1000)")
    p.add_argument("--uct-c", type=float, default=200.0,
                   help="IS-MCTS exploration constant, in points (default 200: a hand scores about +-100)")
    p.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    p.add_argument("--seed", type=int, default=1, help="picks the deal numbers (default 1)")
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    p.add_argument("--log", type=Path, help="append a line to this file as each deal ends")
    p.add_argument("--game-value", action="store_true",
                   help="our search values bags and the game as in a game to the target, not the hand alone")
    args = p.parse_args()
    result = run(args.level, args.deals, args.sims, args.uct_c, args.jobs, args.seed, progress=True,
                 log=args.log, game_value=args.game_value)
    print(format_table(result))
    if args.json:
        out: dict[str, Any] = result.to_dict() | {"sims": args.sims, "uct_c": args.uct_c,
                                                  "game_value": args.game_value}
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
