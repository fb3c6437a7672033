"""Computer players: the ``Player`` protocol, the levels, hints, and a driver that plays a game out.

A player sees a ``SeatView`` (never the ``Game``) and a random generator it must use for
every random choice, so the same seed and view always give the same move.

The levels are listed once, in ``LEVEL_REGISTRY`` (a name, a sentence and a factory each): ``random``,
``easy``, ``normal`` (the heuristic, well under a millisecond a move), ``hard`` (search, 40
samples a move, about 25 ms) and ``expert`` (250 samples a move, about 150 ms on average and
400 ms at the 95th percentile). Their budgets count samples, never time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from spades.bots.heuristic import HeuristicPlayer
from spades.bots.search import SearchPlayer
from spades.cards import cards_of
from spades.errors import SpadesError
from spades.game import Game, Phase, SeatView
from spades.moves import Draw, Look, MakeBid, Move, PassCards, Play

__all__ = [
    "EXPERT_BUDGET",
    "HARD_BUDGET",
    "LEVELS",
    "LEVEL_REGISTRY",
    "HeuristicPlayer",
    "Hint",
    "Level",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "find_level",
    "hint",
    "make_player",
    "play_out",
]


class Player(Protocol):
    """Anything that chooses a move for a seat from what that seat can see."""

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The move to make; called only when the seat has something to do."""
        ...


class RandomPlayer:
    """Uniform among legal moves: a baseline, and a fuzzer for the engine."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """A uniformly random legal move (never a misdeal; it looks unless it bids blind)."""
        if view.phase is Phase.PLAY:
            return Play(rng.choice(list(cards_of(view.legal_plays))))
        if view.phase is Phase.BID:
            if view.can_look:
                return Look() if rng.random() < 0.8 or not view.legal_bids else MakeBid(view.legal_bids[0])
            return MakeBid(rng.choice(view.legal_bids))
        if view.phase is Phase.PASS:
            cards = list(cards_of(view.hand))
            return PassCards.of(*rng.sample(cards, view.pass_count))
        return Draw(rng.random() < 0.5)


def play_out(
    game: Game,
    players: Sequence[Player],
    seed: int = 0,
    *,
    hands: int | None = None,
) -> Game:
    """Play the game on, one player per seat, until it ends or has ``hands`` finished hands.

    Every move goes through ``Game.apply``, so an illegal one raises; seat ``s`` draws its
    randomness from ``random.Random(seed * 1000 + s)``.
    """
    rngs = [random.Random(seed * 1000 + s) for s in range(game.players)]
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.HAND_OVER:
            if hands is not None and len(game.history) >= hands:
                break
            game.next_hand()
            continue
        seat = game.turn
        assert seat is not None
        game.apply(seat, players[seat].choose(game.view(seat), rngs[seat]))
    return game


@dataclass(frozen=True)
class Hint:
    """A suggested move for a seat, with one short sentence saying why."""

    move: Move
    reason: str


@dataclass(frozen=True)
class Level:
    """A named strength of computer player: what it is, in a sentence, and how to make one."""

    name: str
    description: str
    make: Callable[[bool, bool], Player]
    """Makes a player of this level from ``(bid_nil, hand_alone)``: whether it may bid nil, and
    whether each hand is scored on its own (see ``make_player``)."""
    quick: bool = True
    """It moves in well under a millisecond (it does not search): a server may let it move where
    waiting holds others up."""


HARD_BUDGET = 40
"""The hard level's search budget: samples per decision (a count, never a time, so a seed and a
view always give the same move, on a busy machine as on a fast one)."""
EXPERT_BUDGET = 250
"""The expert level's search budget, in samples per decision."""

LEVEL_REGISTRY: dict[str, Level] = {level.name: level for level in (
    Level("random", "Uniform among legal moves: a baseline.", lambda bid_nil, hand_alone: RandomPlayer()),
    Level("easy", "The heuristic without card counting, bag sense or score sense, and rougher bids.",
          lambda bid_nil, hand_alone: HeuristicPlayer("easy", bid_nil=bid_nil, careful=False)),
    Level("normal", "The heuristic: the nine strategy tips as code, well under a millisecond a move.",
          lambda bid_nil, hand_alone: HeuristicPlayer("normal", bid_nil=bid_nil, hand_alone=hand_alone)),
    Level("hard", f"Search over {HARD_BUDGET} sampled deals a move, starting from the heuristic's move.",
          lambda bid_nil, hand_alone: SearchPlayer("hard", samples=HARD_BUDGET, bid_nil=bid_nil,
                                                    hand_alone=hand_alone), quick=False),
    Level("expert", f"The same search over {EXPERT_BUDGET} sampled deals a move.",
          lambda bid_nil, hand_alone: SearchPlayer("expert", samples=EXPERT_BUDGET, bid_nil=bid_nil,
                                                    hand_alone=hand_alone), quick=False),
)}
"""Every level by name, weakest first: the one registry the CLI, the arena and the server read."""
LEVELS: tuple[str, ...] = tuple(LEVEL_REGISTRY)
"""The level names, weakest first (read off the registry)."""


def find_level(name: str) -> Level:
    """The level of this name; an unknown name is a SpadesError listing the known ones."""
    level = LEVEL_REGISTRY.get(name)
    if level is None:
        raise SpadesError(f"Unknown player level {name!r}: choose one of {', '.join(LEVELS)}.")
    return level


def make_player(level: str = "normal", *, bid_nil: bool = True, hand_alone: bool = False) -> Player:
    """A computer player of a named level; ``bid_nil=False`` stops it bidding nil. ``hand_alone``
    tells the normal and searching levels that each hand is scored on its own (a duplicate match of single
    hands): bags then cost only their point and no game is won later, where by default they weigh
    the game that follows (a bag costs its share of the 10-bag penalty)."""
    return find_level(level).make(bid_nil, hand_alone)


def hint(view: SeatView, level: str = "normal", seed: int = 0) -> Hint:
    """The move a player of this level would make in the seat, and one short sentence why."""
    if view.turn != view.seat or view.phase not in (Phase.BID, Phase.PASS, Phase.PLAY, Phase.DRAW):
        raise SpadesError("There is nothing for this seat to do now, so there is no hint.")
    player = make_player(level)
    rng = random.Random(seed)
    if isinstance(player, HeuristicPlayer | SearchPlayer):
        move, why = player.decide(view, rng)
        return Hint(move, why)
    return Hint(player.choose(view, rng), "A random legal move.")
