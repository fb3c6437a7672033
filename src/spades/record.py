"""A whole game as JSON (format version, rules, deal number or decks, every move) that replays.

>>> from spades.game import Game
>>> from spades.rules import Rules
>>> g = Game(Rules(), deal=3)
>>> text = dump_record(g)
>>> replay(load_record(text)).view(2) == g.view(2)
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from spades.errors import RecordError, SpadesError
from spades.game import Game
from spades.moves import Move, parse_move
from spades.rules import Rules

__all__ = ["FORMAT", "VERSION", "GameRecord", "dump_record", "extend", "load_record", "load_records",
           "record_of", "replay"]

FORMAT = "spades-record"
VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    """The parsed contents of a record: enough to rebuild the game move by move."""

    rules: Rules
    deal: int | None
    decks: tuple[tuple[int, ...], ...] | None
    first_dealer: int | None
    moves: tuple[tuple[int, Move] | None, ...]
    """Each move with its seat; None where the next hand was dealt."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "deal": self.deal,
            "decks": None if self.decks is None else [list(d) for d in self.decks],
            "first_dealer": self.first_dealer,
            "moves": [None if m is None else [m[0], str(m[1])] for m in self.moves],
        }


def record_of(game: Game) -> GameRecord:
    """The record of a game so far."""
    return GameRecord(
        rules=game.rules,
        deal=game.deal_number,
        decks=None if game.decks is None else tuple(tuple(d) for d in game.decks),
        first_dealer=game.first_dealer,
        moves=tuple(game.log),
    )


def dump_record(game: Game) -> str:
    """The game's record as JSON text."""
    return json.dumps(record_of(game).to_json())


def load_record(data: str | dict[str, Any]) -> GameRecord:
    """Parse a record from JSON text or an object; anything malformed raises RecordError."""
    if isinstance(data, str):
        data = _parsed(data)
    if not isinstance(data, dict):
        raise RecordError("A record is a JSON object.")
    if data.get("format") != FORMAT:
        raise RecordError(f"Not a Spades record: its format is {data.get('format')!r}.")
    if data.get("version") != VERSION:
        raise RecordError(f"Record version {data.get('version')!r} is not known (this reads {VERSION}).")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except SpadesError as e:
        raise RecordError(f"The record's rules are invalid: {e}") from e
    deal = data.get("deal")
    decks = data.get("decks")
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
        raise RecordError("The record's deal number is not a whole number.")
    if decks is not None and not (
        isinstance(decks, list)
        and all(isinstance(d, list) and all(type(c) is int for c in d) for d in decks)
    ):
        raise RecordError("The record's decks must be lists of card numbers.")
    first = data.get("first_dealer")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
        raise RecordError("The record's first dealer is not a seat number.")
    raw = data.get("moves")
    if not isinstance(raw, list):
        raise RecordError("The record has no list of moves.")
    moves: list[tuple[int, Move] | None] = []
    for i, m in enumerate(raw):
        if m is None:
            moves.append(None)
            continue
        if not (isinstance(m, list) and len(m) == 2 and type(m[0]) is int and isinstance(m[1], str)):
            raise RecordError(f"Move {i} is not a [seat, text] pair: {m!r}.")
        try:
            moves.append((m[0], parse_move(m[1])))
        except SpadesError as e:
            raise RecordError(f"Move {i} cannot be read: {e}") from e
    return GameRecord(
        rules=rules, deal=deal,
        decks=None if decks is None else tuple(tuple(d) for d in decks),
        first_dealer=first, moves=tuple(moves),
    )


def _parsed(text: str) -> Any:
    """JSON text's value; RecordError saying where it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"The record is not valid JSON: {e.msg} at character {e.pos}.") from e


def load_records(text: str) -> list[GameRecord]:
    """The records in JSON text holding one record, or an array of them (as the server's download of a
    person's games is); anything malformed raises RecordError, naming the record at fault.

    >>> g = Game(Rules(), deal=3)
    >>> len(load_records(f"[{dump_record(g)}, {dump_record(g)}]"))
    2
    """
    data = _parsed(text)
    if not isinstance(data, list):
        return [load_record(data)]
    records = []
    for i, item in enumerate(data):
        try:
            records.append(load_record(item))
        except RecordError as e:
            raise RecordError(f"Record {i + 1} of {len(data)}: {e}") from e
    return records


def replay(record: GameRecord, *, upto: int | None = None) -> Game:
    """Rebuild the game the record describes (its first ``upto`` moves), checking each move."""
    try:
        game = Game(record.rules, record.deal, decks=record.decks, first_dealer=record.first_dealer)
    except SpadesError as e:
        raise RecordError(f"The record's game cannot be set up: {e}") from e
    extend(game, record.moves if upto is None else record.moves[:upto])
    return game


def extend(game: Game, moves: Iterable[tuple[int, Move] | None], *, first: int = 0) -> None:
    """Make logged moves (numbered from ``first``) on a game, checking each; the server's catch-up."""
    for i, m in enumerate(moves, first):
        try:
            if m is None:
                game.next_hand()
            else:
                game.apply(*m)
        except SpadesError as e:
            raise RecordError(f"Move {i} does not replay: {e}") from e
