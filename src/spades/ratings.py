"""Ratings of people and computer levels from rated games' results: openskill's team model.

Two partners are a team; in cutthroat each player is a team of one. Each person (and each computer
level, ``computer:expert``...) has one rating per *rated rule set* (``RATED``): a skill ``mu`` and its
uncertainty ``sigma``, shown on the familiar 1500 scale (a new player is 1500 ± 350), and
*provisional* until ``PROVISIONAL_GAMES`` rated games. Everything here is a pure function of results:
the server keeps the ratings and calls ``rate`` in the transaction that records a game's end.

>>> result = GameResult(rules="standard", game="t", seats=("ann", "bob", "cat", "dan"),
...                     sides=(0, 1, 0, 1), places=(0, 1))
>>> after = rate(result, {})
>>> after["ann"].shown > 1500 > after["bob"].shown, after["ann"].games
(True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean

from openskill.models import PlackettLuce

from spades.errors import SpadesError
from spades.rules import PRESETS, Rules

__all__ = [
    "COMPUTER",
    "FREE_OPTIONS",
    "PROVISIONAL_GAMES",
    "RATED",
    "SCALE",
    "GameResult",
    "NotRated",
    "Rating",
    "computer",
    "level_of",
    "places_of",
    "rate",
    "rated_rules_of",
]

RATED: dict[str, Rules] = {"standard": PRESETS["standard"], "cutthroat": PRESETS["cutthroat"]}
"""The rated rule sets, by name: a game is rated only under one of them (each rated apart)."""
FREE_OPTIONS = ("target", "low_mark")
"""The options a rated game may set as it likes: how long the game is, not how it is played."""
COMPUTER = "computer:"
"""The prefix of a computer level's rated id (``computer:expert``); a person's id is never one."""
PROVISIONAL_GAMES = 10
"""Rated games a rating takes to stop being provisional (and to enter the leaderboard)."""
_MODEL = PlackettLuce()
MU: float = _MODEL.mu
SIGMA: float = _MODEL.sigma
SCALE = 42.0
"""Shown points per unit of openskill's skill: a new player's uncertainty (25/3) is then 350, as in Glicko."""
SHOWN_START = 1500


class NotRated(SpadesError):
    """Rules that no rated rule set covers: such a game cannot be rated."""


def rated_rules_of(rules: Rules) -> str:
    """The name of the rated rule set a game's rules play, or NotRated saying why there is none.

    >>> rated_rules_of(PRESETS["standard"].replace(target=200))
    'standard'
    >>> rated_rules_of(PRESETS["standard"].replace(blind_nil=True))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spades.ratings.NotRated: Only these rule sets are rated: ... these rules change blind_nil.
    """
    played = _played(rules)
    for name, rated in RATED.items():
        if _played(rated) == played:
            return name
    nearest = min(RATED.values(), key=lambda r: len(_differences(_played(r), played)))
    changed = ", ".join(_differences(_played(nearest), played))
    raise NotRated(f"Only these rule sets are rated: {', '.join(RATED)} (any target or low mark); these "
                   f"rules change {changed}.")


def _played(rules: Rules) -> dict[str, object]:
    """How the rules play a game: every option but the free ones."""
    return {k: v for k, v in rules.to_dict().items() if k != "name" and k not in FREE_OPTIONS}


def _differences(a: Mapping[str, object], b: Mapping[str, object]) -> list[str]:
    """The options whose values differ."""
    return [k for k in a if a[k] != b.get(k)]


def computer(level: str) -> str:
    """A computer level's rated id.

    >>> computer("expert")
    'computer:expert'
    """
    return COMPUTER + level


def level_of(player: str) -> str | None:
    """The computer level a rated id names, or None for a person's."""
    return player.removeprefix(COMPUTER) if player.startswith(COMPUTER) else None


@dataclass(frozen=True)
class Rating:
    """One player's rating under one rated rule set: openskill's skill and uncertainty, and its games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating on the 1500 scale.

        >>> Rating().shown, Rating(mu=MU + 1).shown
        (1500, 1542)
        """
        return round(SHOWN_START + (self.mu - MU) * SCALE)

    @property
    def uncertainty(self) -> int:
        """The uncertainty on the same scale (one standard deviation).

        >>> Rating().uncertainty
        350
        """
        return round(self.sigma * SCALE)

    @property
    def provisional(self) -> bool:
        """Whether it rests on too few games to be trusted (nor listed)."""
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class GameResult:
    """All that rating a finished game needs: who sat where, on which side, and how the sides placed."""

    rules: str
    """The rated rule set (``RATED``)."""
    game: str
    """The game's reference, unique among rated games (a game is rated once)."""
    seats: tuple[str, ...]
    """The rated id of each seat: a person's, or a computer level's (``computer``)."""
    sides: tuple[int, ...]
    """Each seat's side (team)."""
    places: tuple[int, ...]
    """Each side's place, 0 for the winner; sides with equal scores share a place (``places_of``)."""
    left: frozenset[int] = field(default_factory=frozenset)
    """Seats whose person left (a computer player had their seat at the end): a loss for them, whatever
    the result."""

    @property
    def players(self) -> list[str]:
        """The rated ids in the game, each once, sorted (the order the store locks their rows in)."""
        return sorted(set(self.seats))

    @property
    def last(self) -> int:
        """The place of a person who left: after every side."""
        return max(self.places) + 1

    def place(self, seat: int) -> int:
        """A seat's place as it is rated: its side's, or ``last`` for a person who left."""
        return self.last if seat in self.left else self.places[self.sides[seat]]


def places_of(scores: Sequence[int], winner: int) -> tuple[int, ...]:
    """Each side's place from the final scores: the winner first, the others by score (equal scores
    share a place).

    >>> places_of([120, 520, 300, 300], winner=1)
    (2, 0, 1, 1)
    """
    others = sorted({s for i, s in enumerate(scores) if i != winner}, reverse=True)
    return tuple(0 if i == winner else 1 + others.index(s) for i, s in enumerate(scores))


def rate(result: GameResult, before: Mapping[str, Rating]) -> dict[str, Rating]:
    """Every rated id's rating after the game, from theirs before (a missing one is new).

    A person who left is rated as if their side had come last. An id playing for several sides (a computer
    level on both) moves by the mean of its sides' changes: a game it plays against itself says little
    about it.
    """
    if not (len(result.seats) == len(result.sides) and set(result.sides) == set(range(len(result.places)))):
        raise SpadesError("A game result needs a side for each seat and a place for each side.")
    old = {player: before.get(player, Rating()) for player in result.players}
    moved = _rated_seats(result, result.places, old)
    for seat in result.left:
        side = result.sides[seat]
        places = tuple(result.place(seat) if i == side else p for i, p in enumerate(result.places))
        moved[seat] = _rated_seats(result, places, old)[seat]
    after: dict[str, Rating] = {}
    for player, was in old.items():
        sides = {result.sides[i]: i for i, p in enumerate(result.seats) if p == player}.values()
        after[player] = Rating(mu=was.mu + fmean(moved[i][0] - was.mu for i in sides),
                               sigma=fmean(moved[i][1] for i in sides), games=was.games + 1)
    return after


def _rated_seats(result: GameResult, places: Sequence[int],
                 old: Mapping[str, Rating]) -> dict[int, tuple[float, float]]:
    """openskill's (mu, sigma) after the game for each seat, the sides placed as ``places`` says."""
    teams = [[i for i, side in enumerate(result.sides) if side == s] for s in range(len(places))]
    rated = _MODEL.rate([[_MODEL.rating(mu=old[result.seats[i]].mu, sigma=old[result.seats[i]].sigma)
                          for i in team] for team in teams], ranks=list(places))
    return {i: (r.mu, r.sigma) for team, new in zip(teams, rated, strict=True)
            for i, r in zip(team, new, strict=True)}
