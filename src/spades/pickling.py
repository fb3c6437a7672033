"""Pickling and copying the engine's values the same way in both builds.

mypyc's compiled classes can only be made through their ``__init__``, and the default pickling
(which ``copy`` uses too) makes them without it: on the compiled build a ``Game`` or a
``HandResult`` would not pickle, ``copy.deepcopy`` or cross to another process, where the
interpreted build's would. Registered here with ``copyreg``, which ``pickle`` and ``copy`` both
read: a frozen value is rebuilt from its fields, a game from its record (``spades.record``: the
rules, the deal and every move, replayed and checked), whichever build is imported.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from spades.game import Game, HandResult, SeatView
from spades.play import Trick
from spades.record import GameRecord, record_of, replay
from spades.scoring import HandScore, NilResult, SideScore

__all__ = ["FROZEN"]

FROZEN: tuple[type, ...] = (HandResult, SeatView, Trick, NilResult, SideScore, HandScore)
"""The compiled engine's frozen dataclasses: each ``__init__`` takes its fields in order."""


def _by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    """A frozen value as its class and its fields."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


def _by_record(game: Game) -> tuple[Callable[[GameRecord], Game], tuple[GameRecord]]:
    """A game as its record, replayed when it is read back (``Game.copy`` is the quick copy)."""
    return replay, (record_of(game),)


for _kind in FROZEN:
    copyreg.pickle(_kind, _by_fields)
copyreg.pickle(Game, _by_record)
