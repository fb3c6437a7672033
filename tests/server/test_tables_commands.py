"""The friends' tables' commands as types: the server lists them, a new one is one type, and a log the
code cannot read is refused as the server's fault without a 500."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import httpx
import pytest

from server.tables_client import Seat, join, open_table, run_async
from spades.rules import Rules
from spades.server.run import BackgroundServer
from spades.server.tables.commands import COMMANDS, About, Command, command_of, needs
from spades.server.tables.entries import ChatSaid, entry_json
from spades.server.tables.table import FriendsTable, TableError, TableOptions
from spades.server.tables.views import table_events, tell_move


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("commands") / "spades.sqlite3"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[BackgroundServer]:
    with BackgroundServer(db) as s:
        yield s


@pytest.fixture
def echo() -> Iterator[None]:
    """A command made up for one test (say a text twice in the chat): all it takes is its type."""

    @dataclass(frozen=True, kw_only=True)
    class Echo(Command, do="echo"):
        """Say a text twice in the chat."""

        about: ClassVar[About] = "chat"
        text: str = needs("the text to echo")

        def run(self, table: FriendsTable, by: int) -> None:
            """The same checks a chat line has, then one line with the text twice."""
            table.check_rate(by)
            table.commit(ChatSaid(seat=by, text=f"{self.text} {self.text}"))

    yield
    del COMMANDS[Echo.do]


def test_the_server_lists_the_commands_a_page_may_send(server: BackgroundServer) -> None:
    listed = httpx.get(server.url + "/api/tables/commands").json()
    assert [c["do"] for c in listed] == list(COMMANDS)
    by_kind = {c["do"]: c for c in listed}
    assert by_kind["move"] == {"do": "move", "about": "game", "fields": ["move", "version"]}
    assert by_kind["chat"]["about"] == "chat" and by_kind["sit"] == {"do": "sit", "about": "table",
                                                                     "fields": ["to"]}


def test_a_command_missing_what_it_needs_is_refused_with_its_name(server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url) as c:
        ann = open_table(c)
        r = c.post(f"/api/tables/{ann['code']}/commands", json={"do": "move_person", "seat": 0},
                   headers={"X-Seat-Token": ann["token"]})
        assert r.status_code == 400 and r.json() == {"detail": "'move_person' needs 'to'."}
        r = c.post(f"/api/tables/{ann['code']}/commands", json={"do": "dance"},
                   headers={"X-Seat-Token": ann["token"]})
        assert r.status_code == 422 and "'move', 'next'" in r.text


def test_a_new_command_is_one_type_over_http_and_the_websocket(server: BackgroundServer, echo: None) -> None:
    with httpx.Client(base_url=server.url) as c:
        assert "echo" in [k["do"] for k in c.get("/api/tables/commands").json()]
        ann = open_table(c)
        code = ann["code"]
        r = c.post(f"/api/tables/{code}/commands", json={"do": "echo", "text": "hi"},
                   headers={"X-Seat-Token": ann["token"]})
        assert r.status_code == 200 and r.json()["chat"][-1]["text"] == "hi hi"
        seated = {"X-Seat-Token": ann["token"]}
        r = c.post(f"/api/tables/{code}/commands", json={"do": "echo"}, headers=seated)
        assert r.status_code == 400 and r.json()["detail"] == "'echo' needs the text to echo."
        bob = join(c, code, "Bob")

    async def over_the_websocket() -> None:
        seat = Seat(server.url, code, bob["token"])
        await seat.connect()
        await seat.until(lambda t: bool(t))
        await seat.send({"do": "echo", "text": "ho", "id": 1})
        await seat.until(lambda t: t["chat"][-1]["text"] == "ho ho")
        await seat.close()
        events = [e for m in seat.received if m["type"] == "update" for e in m["events"]]
        assert events[-1]["kind"] == "chat" and events[-1]["text"] == "You: ho ho"
    run_async(over_the_websocket())


def test_a_command_takes_only_its_own_fields() -> None:
    with pytest.raises(TableError, match="'chat' takes only 'text', not 'seat', 'move'"):
        command_of({"do": "chat", "text": "hi", "seat": 3, "move": "x"})
    with pytest.raises(TableError, match="'start' takes nothing beside 'do', not 'seat'"):
        command_of({"do": "start", "seat": None})
    with pytest.raises(TableError, match="The commands are move, next"):
        command_of({"do": "dance"})


def test_the_name_you_is_kept_for_each_persons_own_seat(server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url) as c:
        ann = open_table(c)
        r = c.post(f"/api/tables/{ann['code']}/seats", json={"name": " you "})
        assert r.status_code == 422
        kept = 'The name "You" is kept for each person\'s own seat: choose another name.'
        assert r.json()["detail"] == kept
        r = c.post(f"/api/tables/{ann['code']}/seats", json={"name": "computer (north)"})  # Ann's seat
        assert r.status_code == 422 and "kept for the computer players" in r.json()["detail"]


def test_a_log_this_code_cannot_read_is_refused_without_changing_it(server: BackgroundServer,
                                                                     db: Path) -> None:
    with httpx.Client(base_url=server.url) as c:
        ann = open_table(c)
        code = ann["code"]
        with sqlite3.connect(db) as conn:  # a writer from elsewhere left an entry no Spades knows
            version = conn.execute("SELECT version FROM friend_tables WHERE code = ?", (code,)).fetchone()[0]
            conn.execute("INSERT INTO friend_entries VALUES (?, ?, ?)", (code, version, '{"k": "juggle"}'))
            conn.execute("UPDATE friend_tables SET version = version + 1 WHERE code = ?", (code,))
        before = _entries(db, code)
        for r in (c.get(f"/api/tables/{code}"),
                  c.post(f"/api/tables/{code}/seats", json={"name": "Bob"}),
                  c.get(f"/api/tables/{code}/view", headers={"X-Seat-Token": ann["token"]})):
            assert r.status_code == 503 and "damaged" in r.json()["detail"], r.text
        assert _entries(db, code) == before


def _entries(db: Path, code: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [e for (e,) in conn.execute("SELECT entry FROM friend_entries WHERE code = ? ORDER BY seq",
                                           (code,))]


def test_a_person_who_leaves_before_the_start_is_named_in_the_line() -> None:
    """Leaving before the start frees the seat: the line still names who left, as it was then."""
    t = FriendsTable("ABC234", TableOptions(Rules()), clock=lambda: 0.0, teller=tell_move)
    _, ann = t.join("Ann")
    _, eve = t.join("Eve")
    since = t.seq
    t.run(eve, command_of({"do": "leave"}))
    assert [json.loads(e)["text"] for e in table_events(t, ann, since) or []] == ["Eve left the table."]
    assert entry_json(t.entries[-1]) == {"k": "leave", "seat": eve, "name": "Eve", "at": 0.0}
