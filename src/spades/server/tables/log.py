"""Where friends' tables are kept: each table is its options and a log of entries with a version.

``TableLog`` keeps them in the server's store, beside the games (a SQLite file, or PostgreSQL
when the server is given a database URL), the same shape as a game's log of moves: an append
names the version it continues, and a stale one is refused, so several server processes can
share one table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from spades.protocol.remote import REMOTE_PREFIX
from spades.ratings import GameResult, level_of
from spades.server.store import FriendResult, Store
from spades.server.tables.entries import BadEntry, Entry, entry_json, entry_of
from spades.server.tables.table import StaleVersion, TableDamaged, TableNotFound

__all__ = ["StoredTable", "TableLog"]

StoredTable = tuple[dict[str, Any], list[Entry]]
"""A table's options (as JSON) and the entries of its log asked for."""


class TableLog:
    """Friends' tables in the store: entries as JSON, the store's answers as the tables' errors."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, code: str, options: dict[str, Any]) -> bool:
        """Store a new table (listed in the lobby if its options say so); False if the code is in use."""
        listed = bool(options.get("listed"))
        return self.store.add_table(code=code, options=json.dumps(options), listed=listed)

    def append(self, code: str, seq: int, entries: list[Entry], results: Sequence[FriendResult] = (),
               rated: GameResult | None = None) -> None:
        """Append entries after the first ``seq`` at once, with the results of a game they end (and its
        rating, if rated); StaleVersion if another got there first."""
        stored, rated = self._stored(entries, rated)
        if not self.store.append_table(code=code, version=seq, entries=stored, results=results, rated=rated):
            raise _stale(code, seq)

    async def append_soon(self, code: str, seq: int, entries: list[Entry],
                          results: Sequence[FriendResult] = (), rated: GameResult | None = None) -> None:
        """``append`` from an event loop: written by the store's writer thread, returning once committed."""
        stored, rated = self._stored(entries, rated)
        if not await self.store.append_table_soon(code=code, version=seq, entries=stored, results=results,
                                                  rated=rated):
            raise _stale(code, seq)

    def _stored(self, entries: list[Entry], rated: GameResult | None) -> tuple[list[str], GameResult | None]:
        """Entries as the store keeps them, and a rated game with its seats' rated ids."""
        if rated is not None:
            rated = replace(rated, seats=tuple(self._rated_id(player) for player in rated.seats))
        return [json.dumps(entry_json(e)) for e in entries], rated

    def _rated_id(self, player: str) -> str:
        """A seat's rated id: a remote bot's is its account's (a person's, marked a bot), the computer
        players' name while no bot account has it."""
        level = level_of(player)
        if level is None or not level.startswith(REMOTE_PREFIX):
            return player
        account = self.store.bot_by_name(name_key=level.removeprefix(REMOTE_PREFIX))
        return player if account is None else account.player_hash

    def load(self, code: str, since: int = 0, max_idle: float | None = None) -> StoredTable:
        """The table's options and its entries from ``since`` on; TableNotFound if none (or idle too long)."""
        found = self.store.table(code=code, since=since, max_idle=max_idle)
        if found is None:
            raise TableNotFound(f"No table has the code {code}: check it, or ask for a new link.")
        options, entries = found
        try:
            return json.loads(options), [entry_of(json.loads(e)) for e in entries]
        except (ValueError, BadEntry) as e:
            raise TableDamaged(f"Table {code} is damaged in the database and cannot be read: {e}") from None


def _stale(code: str, seq: int) -> StaleVersion:
    """The refusal of an append at a version the table has moved past."""
    return StaleVersion(f"Table {code} has moved past version {seq}.")
