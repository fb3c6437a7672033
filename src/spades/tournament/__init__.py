"""Tournaments: formats, movements, pairings and matchpoints, as pure functions of results.

``scores`` turns each table's points on each board into matchpoints and standings, ``movement`` seats
duplicate pairs round by round (a Mitchell), ``swiss`` pairs a round from the standings. The runner
that plays a tournament between computer players on this machine is ``spades.tournament.run``.
"""

from __future__ import annotations

from spades.tournament.movement import max_rounds, mitchell
from spades.tournament.scores import (
    BoardScore,
    Seating,
    Standing,
    board_matchpoints,
    duplicate_standings,
    match_standings,
    matchpoints,
    ranked,
)
from spades.tournament.swiss import choose_byes, pair_off, seat_fours

__all__ = [
    "BoardScore",
    "Seating",
    "Standing",
    "board_matchpoints",
    "choose_byes",
    "duplicate_standings",
    "match_standings",
    "matchpoints",
    "max_rounds",
    "mitchell",
    "pair_off",
    "ranked",
    "seat_fours",
]
