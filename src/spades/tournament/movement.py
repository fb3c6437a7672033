"""Who sits where in duplicate pairs: a Mitchell movement with every table playing the round's boards.

As in a bridge club's Mitchell, half the pairs stay at their tables and the other half move up one
table a round, so a moving pair meets a different stationary pair each round. Unlike a club's, the
boards do not travel: every table of a round plays the same boards at once (as online duplicate
does), and each round has boards of its own, so no pair plays a board twice and each board is
compared across every table. The stationary pair sits North-South at even tables, and at odd tables
in odd rounds only (an arrow switch at odd tables in even rounds): so, over two rounds or more, each
pair holds the same cards in the same direction as every pair it does not meet, and one ranking
compares the whole field (in a plain Mitchell the two halves are two fields).

An odd field has a gap at the last table: the moving pair that reaches it sits out the round, or
plays a computer pair where the tournament fills the gap with one.

>>> for seated in mitchell(5, 2):
...     print(seated)
((0, 2), (3, 1), (5, 4))
((0, 4), (1, 2), (5, 3))
"""

from __future__ import annotations

from spades.errors import TournamentError

__all__ = ["max_rounds", "mitchell", "tables_for"]


def tables_for(pairs: int) -> int:
    """The tables a field of this many pairs needs (an odd field's last table has a gap)."""
    return (pairs + 1) // 2


def max_rounds(pairs: int) -> int:
    """The most rounds in which every moving pair still meets a new stationary pair."""
    return tables_for(pairs)


def mitchell(pairs: int, rounds: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each round's tables as (North-South pair, East-West pair). Pairs are numbered from 0 in entry
    order: the first half stays, the rest move; an odd field's gap is pair number ``pairs``, at the
    last table. Refuses a field too small to compare anyone, and more rounds than new opponents."""
    if pairs < 3:
        raise TournamentError("Duplicate pairs needs at least 3 pairs: a board is compared across tables.")
    tables = tables_for(pairs)
    if not 1 <= rounds <= max_rounds(pairs):
        raise TournamentError(f"{pairs} pairs at {tables} tables meet a new pair for {max_rounds(pairs)} "
                          f"rounds at most; asked for {rounds}.")
    stationary = [*range(tables - 1), pairs if pairs % 2 else tables - 1]
    moving = list(range(tables - pairs % 2, pairs))
    movement = []
    for r in range(rounds):
        seated = []
        for t in range(tables):
            still, mover = stationary[t], moving[(t - r) % tables]
            seated.append((still, mover) if t * (r + 1) % 2 == 0 else (mover, still))
        movement.append(tuple(seated))
    return tuple(movement)
