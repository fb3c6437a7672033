"""A/B test of a computer player: the working tree's ``bots/search.py`` (or, with ``--player
heuristic``, ``bots/heuristic.py``) against a git revision's.

Both play duplicate deals of one hand (each deal twice, the sides swapping seats) with the same
sample budget and no time cap, so only the code differs; it prints the mean margin per hand of
the new player over the old, its 95% interval, and each side's nils and how many broke. The search
is played at the ``hard`` level's settings, the heuristic as ``normal``; the old side's module runs
against the working tree's other modules.

    .venv/bin/python benchmarks/ab_search.py --against 6608e02 --deals 300 --samples 40 --jobs 2
    .venv/bin/python benchmarks/ab_search.py --player heuristic --against 605db9f --deals 2000

``--nil-only`` keeps the deals where the heuristic would bid nil in some seat (a change to nil play
then shows in fewer deals).

Both versions are run from their source, interpreted, so they are timed alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import subprocess
import sys
import tempfile
from collections import Counter
from multiprocessing import get_context
from pathlib import Path
from types import ModuleType

from spades.bots import HeuristicPlayer, Player
from spades.bots.knowledge import is_nil
from spades.game import Game, Phase
from spades.moves import MakeBid
from spades.rules import find_preset

ROOT = Path(__file__).resolve().parents[1]


def load(name: str, path: Path) -> ModuleType:
    """A module run from a source file, under a name of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_players: tuple[Player, Player] | None = None
_rules = "standard"


def _made(module: ModuleType, kind: str, samples: int) -> Player:
    """The player a loaded ``search`` or ``heuristic`` module makes."""
    if kind == "search":
        player: Player = module.SearchPlayer("hard", samples=samples, seconds=None)
    else:
        player = module.HeuristicPlayer("normal")
    return player


def _setup(old_path: str, kind: str, samples: int, rules: str) -> None:
    """In each worker: the new and the old player, loaded once, and the rules they play."""
    global _players, _rules
    new = _made(load(f"{kind}_new", ROOT / f"src/spades/bots/{kind}.py"), kind, samples)
    old = _made(load(f"{kind}_old", Path(old_path)), kind, samples)
    _players, _rules = (new, old), rules


def play_deal(deal: int) -> tuple[float, Counter[str]]:
    """One duplicate deal: the new side's margin per hand over the old, and the nils each bid and broke."""
    assert _players is not None
    new, old = _players
    rules = find_preset(_rules)
    margins, nils = [], Counter[str]()
    for new_side in (0, 1):
        seats = [new, old, new, old] if new_side == 0 else [old, new, old, new]
        game = Game(rules, deal=deal)
        rng = random.Random(deal * 2 + new_side)
        while game.phase is Phase.BID or game.phase is Phase.PASS or game.phase is Phase.PLAY:
            seat = game.turn
            assert seat is not None
            game.apply(seat, seats[seat].choose(game.view(seat), rng))
        score = game.history[-1].score
        margins.append(score.points[new_side] - score.points[1 - new_side])
        for side in score.sides:
            who = "new" if side.side == new_side else "old"
            nils[f"{who} nils"] += len(side.nils)
            nils[f"{who} nils broken"] += sum(1 for n in side.nils if n.tricks)
    return sum(margins) / 2, nils


def heuristic_nil(deal: int, preset: str) -> bool:
    """Whether the heuristic, bidding for every seat, bids a nil in the deal's first hand."""
    rules = find_preset(preset)
    game = Game(rules, deal=deal)
    bot = HeuristicPlayer("normal")
    while game.phase is Phase.BID:
        seat = game.turn
        assert seat is not None
        move = bot.choose(game.view(seat), random.Random(deal))
        if isinstance(move, MakeBid) and is_nil(rules, move.bid):
            return True
        game.apply(seat, move)
    return False


def main() -> None:
    """Parse the options, play the deals and print the margin."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--against", required=True, help="git revision whose module is the old side")
    p.add_argument("--player", choices=("search", "heuristic"), default="search",
                   help="the module compared (default search, played as hard; heuristic plays as normal)")
    p.add_argument("--rules", default="standard", help="the rules preset (default standard)")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--samples", type=int, default=40, help="samples per decision for both (default 40)")
    p.add_argument("--first", type=int, default=100_001, help="the first deal number (default 100001)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--nil-only", action="store_true", help="only deals where the heuristic bids a nil")
    args = p.parse_args()
    text = subprocess.run(["git", "show", f"{args.against}:src/spades/bots/{args.player}.py"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
    numbers = iter(range(args.first, 10**9))
    deals = [next(d for d in numbers if heuristic_nil(d, args.rules)) for _ in range(args.deals)] \
        if args.nil_only else list(range(args.first, args.first + args.deals))
    setup = (f.name, args.player, args.samples, args.rules)
    with get_context("spawn").Pool(args.jobs, _setup, setup) as pool:
        out = pool.map(play_deal, deals, chunksize=4)
    Path(f.name).unlink()
    margins = [m for m, _ in out]
    mean = sum(margins) / len(margins)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1))
    half = 1.96 * sd / math.sqrt(len(margins))
    nils: Counter[str] = sum((c for _, c in out), Counter())
    budget = f"{args.samples} samples" if args.player == "search" else "normal"
    print(f"{len(margins)} duplicate deals, {args.rules}, {budget}: new - old per hand {mean:+.1f} "
          f"(95% CI {mean - half:+.1f} .. {mean + half:+.1f})")
    print(", ".join(f"{k} {v}" for k, v in sorted(nils.items())))


if __name__ == "__main__":
    main()
