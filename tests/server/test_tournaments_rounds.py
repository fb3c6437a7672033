"""Opening a round is atomic: two processes (or threads) that open the same round at once open the same
tables, each seated once, and leave none unused; a stranger's table on a derived code is stepped over."""

from __future__ import annotations

import threading
from pathlib import Path

from server.conftest import query
from spades.errors import SpadesError
from spades.rules import Rules
from spades.server.store import open_store
from spades.server.tables.hub import TableHub
from spades.server.tables.log import TableLog
from spades.server.tables.state import TableOptions
from spades.server.tournaments.service import TABLE_TARGET, Tournaments, _table_code

NAMES = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _process(database: str) -> Tournaments:
    """What one server process has: its own connection to the store and its own tables' hub."""
    store = open_store(database)
    store.check()
    return Tournaments(store, TableHub(TableLog(store)))


def _tournament(process: Tournaments) -> tuple[str, str]:
    """A two-table tournament of eight people, open: its code and the host's token."""
    code, host = process.create("Club night", Rules(), 2, 1, "random", 30, 30)
    for name in NAMES:
        process.register(code, name, None)
    return code, host


def _tables(database: str, code: str) -> dict[str, int]:
    """The tables of the tournament in the store, each with how many entries its log holds."""
    return {c: int(n) for c, n in query(
        database, "SELECT t.code, (SELECT COUNT(*) FROM friend_entries e WHERE e.code = t.code) "
                  "FROM friend_tables t WHERE t.options LIKE ?", (f'%"tournament": "{code}"%',))}


def test_two_processes_opening_a_round_in_step_open_the_same_tables(tmp_path: Path) -> None:
    database = str(tmp_path / "spades.sqlite3")
    a, b = _process(database), _process(database)
    code, _ = _tournament(a)
    ta, tb = a._load(code)[0], b._load(code)[0]  # both read the tournament before either writes
    a._open_round(ta)
    b._open_round(tb)
    assert ta.tables == tb.tables and len(set(ta.tables[0])) == 2
    assert _tables(database, code) == dict.fromkeys(ta.tables[0], 4 + 4 + 1)  # 4 joined, 4 away, 1 deal


def test_two_threads_starting_a_tournament_at_once_leave_no_table_unused(tmp_path: Path) -> None:
    database = str(tmp_path / "spades.sqlite3")
    a, b = _process(database), _process(database)
    code, host = _tournament(a)
    barrier, refused = threading.Barrier(2), []

    def start(process: Tournaments) -> None:
        barrier.wait()
        try:
            process.start(code, host)
        except SpadesError as e:  # the second to write: it has started already
            refused.append(str(e))

    threads = [threading.Thread(target=start, args=(p,)) for p in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(refused) <= 1 and all("started already" in r for r in refused)
    opened = a._load(code)[0].tables
    assert len(opened) == 1 and _tables(database, code) == dict.fromkeys(opened[0], 9)


def test_a_strangers_table_on_a_derived_code_is_stepped_over(tmp_path: Path) -> None:
    database = str(tmp_path / "spades.sqlite3")
    a = _process(database)
    code, _ = _tournament(a)
    t = a._load(code)[0]
    squatted = _table_code(t, 0, 0, 0)
    assert a.hub.log.create(squatted, TableOptions(Rules()).to_json())
    a._open_round(t)
    assert squatted not in t.tables[0] and len(set(t.tables[0])) == 2


def test_a_rounds_tables_play_to_the_highest_target_with_no_low_mark(tmp_path: Path) -> None:
    """A board is one hand from 0-0: neither a low target nor a low mark may end a game at it."""
    a = _process(str(tmp_path / "spades.sqlite3"))
    code, _ = a.create("Club night", Rules(target=100, low_mark=-100), 1, 1, "random", 30, 30)
    for name in NAMES:
        a.register(code, name, None)
    t = a._load(code)[0]
    a._open_round(t)
    rules = TableOptions.from_json(a.hub.log.load(t.tables[0][0])[0]).rules
    assert TABLE_TARGET is not None and rules == Rules(target=TABLE_TARGET) and t.rules.target == 100
