"""Tables stored before the typed commands replay, and their updates stay the same byte for byte.

``data/tables_golden.json`` holds logs written by the table code of 2026-12-04 (before commands and
entries became types), played as people play: seats taken and swapped, seats kept and opened, the
host handed on, chat and reactions, a person away, replaced and back, the turn timer, whole hands and
a game to its end at 3 and 4 seats. With each log it holds, for every version and every viewer (each
seat and a spectator), the SHA-256 of the update messages that code sent: the whole table, and the
update from the version before (whole, and leaving out what the page keeps). Replaying the stored
entries today must give the same messages.

``python tests/server/test_tables_golden.py`` records the file again (only when the messages are meant
to change: say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from spades.rules import Rules
from spades.server.tables.entries import entries_of, entry_json
from spades.server.tables.table import FriendsTable, TableOptions
from spades.server.tables.views import SharedView, tell_move, update_message

GOLDEN = Path(__file__).parent / "data" / "tables_golden.json"


def _digests(table: FriendsTable, shared: SharedView | None = None) -> list[str]:
    """The update messages' digests at the table's version, for every viewer: whole, and from the
    version before (whole and partial); each made alone, or all with one ``shared`` view (as one look
    at the table makes its connections' updates)."""
    out = []
    for viewer in range(table.players + 1):
        for since, whole in ((-1, True), (table.seq - 1, True), (table.seq - 1, False)):
            message = update_message(table, viewer, since, shared, whole=whole)
            out.append(hashlib.sha256(message.encode()).hexdigest()[:16])
    return out


def _replayed(options: dict[str, Any], entries: list[dict[str, Any]]) -> list[list[str]]:
    """The digests at every version of a log replayed entry by entry (the clock at each entry's time)."""
    now = [0.0]
    table = FriendsTable("GOLDEN", TableOptions.from_json(options), lambda: now[0], teller=tell_move)
    out = []
    for e in entries_of(entries):
        now[0] = e.at
        table.extend([e])
        out.append(_digests(table))
        assert _digests(table, SharedView(table)) == out[-1]
    return out


def test_tables_stored_before_replay_to_the_same_updates() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert len(golden) >= 2
    for recorded in golden:
        assert _replayed(recorded["options"], recorded["entries"]) == recorded["digests"]


def test_entries_written_today_read_as_the_stored_ones() -> None:
    for recorded in json.loads(GOLDEN.read_text()):
        assert [entry_json(e) for e in entries_of(recorded["entries"])] == recorded["entries"]


# -- recording ---------------------------------------------------------------------------------------


def _play(players: int, target: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table played through most of what people do, to the game's end and a rematch (unless its deal
    makes a long game: 400 steps at most); its options and entries."""
    from spades.game import Phase
    from spades.server.tables.commands import (
        Back,
        Chat,
        GiveHost,
        GiveToBot,
        Keep,
        Leave,
        MakeMove,
        MovePerson,
        NextHand,
        Open,
        React,
        Rematch,
        Sit,
        Start,
    )

    clock = [1000.0]
    preset = {4: "standard", 3: "three-player"}[players]
    options = TableOptions(Rules.from_dict({"preset": preset, "target": target}), grace=10, turn_seconds=20)
    t = FriendsTable("GOLDEN", options, lambda: clock[0], teller=tell_move)
    ann, _ = t.join("Ann", conn="p1")
    bob, _ = t.join("Bob", seat=2, conn="p1")
    t.run(t.seat_of(bob), Sit(to=1))
    t.run(t.seat_of(ann), MovePerson(seat=t.seat_of(bob), to=2))
    free = [i for i, s in enumerate(t.seats) if not s.person][-1]
    t.run(t.seat_of(ann), Keep(seat=free))
    t.run(t.seat_of(ann), Open(seat=free))
    eve, _ = t.join("Eve", conn="p2")
    t.run(t.seat_of(eve), Leave())
    eve, _ = t.join("Eve", conn="p2")
    t.run(t.seat_of(ann), GiveHost(seat=t.seat_of(bob)))
    t.run(t.seat_of(bob), Chat(text="Hello all"))
    t.run(t.seat_of(ann), React(reaction="nice"))
    t.run(t.seat_of(bob), Start())
    step = 0
    while t.game is not None and t.game.phase is not Phase.GAME_OVER and step < 400:
        game = t.game
        clock[0] += 1.5
        step += 1
        if game.phase is Phase.HAND_OVER:
            t.run(t.seat_of(ann), NextHand(version=len(game.log)))
            continue
        assert game.turn is not None
        seat = game.turn
        if step == 7:
            t.disconnected(seat, "p1" if seat != t.seat_of(eve) else "p2")
            clock[0] += 11
            t.tick()
            t.run(seat, Back())
        elif step == 12:
            host = t.host
            assert host is not None
            other = next(i for i, s in enumerate(t.seats) if s.person and not s.bot and i != host)
            t.run(host, GiveToBot(seat=other))
            t.connected(other, "p3")
        elif step == 20:
            clock[0] += 21
            t.tick()
        else:
            move = game.legal_moves(seat)[step % len(game.legal_moves(seat))]
            t.run(seat, MakeMove(move=str(move), version=len(game.log)))
    if t.game is not None and t.game.phase is Phase.GAME_OVER:
        t.run(t.seat_of(ann), Rematch())
    return options.to_json(), [entry_json(e) for e in t.entries]


def record() -> None:
    """Write the golden file from the code as it is."""
    golden = []
    for players, target in ((4, 150), (3, 120)):
        options, entries = _play(players, target)
        golden.append({"options": options, "entries": entries, "digests": _replayed(options, entries)})
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(golden, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parents[1]))
    record()
