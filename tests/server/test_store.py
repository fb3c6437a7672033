"""The store over real HTTP on both databases: a move appends to the log, reads write nothing, a
move counts only on its version across processes, failures change nothing, kill -9 loses no
answered move, old databases upgrade and bad ones are refused at start."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.api_client import Player, simple_move
from server.conftest import back_to_schema_6, query
from server.processes import Served
from server.tables_client import run_async
from spades.bots import make_player
from spades.cards import cards_of
from spades.game import Game
from spades.record import dump_record
from spades.rules import Rules
from spades.server.run import BackgroundServer
from spades.server.store import SCHEMA_VERSION, StoreBusy, StoreError, at_once, base, open_store
from spades.server.store.base import Tx
from spades.server.store.sqlite import SQLiteStore
from spades.server.tables.entries import entry_json
from spades.server.tables.table import FriendsTable, TableOptions


def count(database: str, table: str) -> int:
    """How many rows a table holds."""
    return int(query(database, f"SELECT count(*) FROM {table}")[0][0])


def test_a_move_appends_its_moves_and_reads_write_nothing(database: str, client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=7)
    moved = p.move(state, simple_move(state))["state"]
    log = query(database, "SELECT seq, seat, move FROM moves WHERE game_id = ? ORDER BY seq", (moved["id"],))
    assert [r[0] for r in log] == list(range(moved["version"])) and moved["version"] > state["version"]
    assert log[state["version"]][1:] == (moved["human"], simple_move(state))
    assert query(database, "SELECT version, status FROM games WHERE id = ?", (moved["id"],)) == [
        (moved["version"], "active")]
    before = [count(database, t) for t in ("players", "games", "moves")]
    for path in ("/api/games/current", "/api/stats", "/api/settings", f"/api/games/{moved['id']}/hint"):
        p.call("GET", path)
    stranger = {"X-Player-Token": "A" * 32}
    r = client.get("/api/games/current", headers=stranger)
    assert r.status_code == 401 and "POST /api/players" in r.json()["detail"]
    assert client.put("/api/settings", json={}, headers=stranger).status_code == 401
    assert [count(database, t) for t in ("players", "games", "moves")] == before


def race(urls: list[str], path: str, body: dict[str, Any], headers: dict[str, str]) -> list[httpx.Response]:
    """The same request sent to each address at the same moment, from its own connection; the answers."""
    start = threading.Barrier(len(urls))
    answers: list[httpx.Response] = []

    def send(url: str) -> None:
        with httpx.Client(base_url=url, timeout=30) as c:
            start.wait()
            answers.append(c.post(path, json=body, headers=headers))

    senders = [threading.Thread(target=send, args=(url,)) for url in urls]
    for t in senders:
        t.start()
    for t in senders:
        t.join()
    return sorted(answers, key=lambda r: r.status_code)


def test_two_tabs_moving_on_one_version_get_one_answer_and_one_409(server: BackgroundServer,
                                                                    client: httpx.Client) -> None:
    p = Player(client, auto_play=False)
    state = p.new_game(deal=11)
    for _ in range(3):
        ok, refused = race([server.url] * 2, f"/api/games/{state['id']}/moves",
                           {"move": simple_move(state), "version": state["version"]}, p.headers)
        assert (ok.status_code, refused.status_code) == (200, 409), refused.text
        state = ok.json()["state"]
        assert refused.json()["state"] == state and "moved on" in refused.json()["detail"]
    assert p.call("GET", "/api/games/current") == state


def test_two_server_processes_serve_one_game_in_turn(database: str) -> None:
    with Served(database) as one, Served(database) as two:
        servers = [one, two]
        clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        p = Player(clients[0], auto_play=False)
        state = p.new_game(deal=21)
        for i in range(12):
            p.client = clients[i % 2]
            state = p.move(state, simple_move(state))["state"]
        for c in clients:
            assert c.get("/api/games/current", headers=p.headers).json() == state
        # the same move on the same version sent to both processes at once: one of them refuses it
        ok, refused = race([s.url for s in servers], f"/api/games/{state['id']}/moves",
                           {"move": simple_move(state), "version": state["version"]}, p.headers)
        assert (ok.status_code, refused.status_code) == (200, 409), refused.text
        assert refused.json()["state"]["version"] == ok.json()["state"]["version"] == count(database, "moves")


def test_several_workers_share_one_port(database: str) -> None:
    with Served(database, "--workers", "2") as served:
        children = Path(f"/proc/{served.proc.pid}/task/{served.proc.pid}/children").read_text().split()
        assert len(children) >= 2
        p = Player(httpx.Client(base_url=served.url, timeout=30), auto_play=False)
        state = p.new_game(deal=3)
        for _ in range(10):
            with httpx.Client(base_url=served.url, timeout=30) as fresh:  # a new connection, any worker
                p.client = fresh
                state = p.move(state, simple_move(state))["state"]
        assert count(database, "moves") == state["version"]


def test_a_failed_save_leaves_the_game_as_it_was(database: str, client: httpx.Client) -> None:
    p = Player(client, auto_play=False)
    state = p.new_game(deal=5)
    state = p.move(state, simple_move(state))["state"]
    query(database, "ALTER TABLE moves RENAME TO moves_gone")  # the save fails after its game update
    try:
        r = client.post(f"/api/games/{state['id']}/moves", headers=p.headers,
                        json={"move": simple_move(state), "version": state["version"]})
        assert r.status_code == 503 and "nothing was changed" in r.json()["detail"]
        assert p.call("GET", "/api/games/current") == state
    finally:
        query(database, "ALTER TABLE moves_gone RENAME TO moves")
    assert query(database, "SELECT version FROM games WHERE id = ?", (state["id"],)) == [(state["version"],)]
    after = p.move(state, simple_move(state))["state"]
    assert after["version"] > state["version"] and count(database, "moves") == after["version"]


def play_until_killed(url: str, answered: dict[str, dict[str, Any]], refused: list[str]) -> None:
    """One player moving as fast as answered until the server goes away; keeps its last answer."""
    with httpx.Client(base_url=url, timeout=30) as c:
        try:
            p = Player(c, auto_play=False)
            state = p.new_game(deal=random.randrange(1, 10**6))
            answered[p.headers["X-Player-Token"]] = state
            while True:
                if state["phase"] == "game_over":
                    r = c.post("/api/games", json={}, headers=p.headers)
                elif state["phase"] == "hand_over":
                    r = c.post(f"/api/games/{state['id']}/next", headers=p.headers,
                               json={"version": state["version"]})
                else:
                    r = c.post(f"/api/games/{state['id']}/moves", headers=p.headers,
                               json={"move": simple_move(state), "version": state["version"]})
                if r.status_code >= 300:
                    refused.append(r.text)
                    return
                state = r.json()["state"]
                answered[p.headers["X-Player-Token"]] = state
        except httpx.TransportError:  # the server is gone
            return
        except Exception as e:  # anything else fails the test
            refused.append(repr(e))


@pytest.mark.parametrize("how", ["kill -9", "graceful"])
def test_no_answered_move_is_lost_when_the_server_is_killed_under_load(database: str, how: str) -> None:
    for _ in range(1 if how == "graceful" else 2):
        served = Served(database)
        answered: dict[str, dict[str, Any]] = {}
        refused: list[str] = []
        players = [threading.Thread(target=play_until_killed, args=(served.url, answered, refused))
                   for _ in range(4)]
        for t in players:
            t.start()
        deadline = time.monotonic() + 120
        while len(answered) < len(players) and time.monotonic() < deadline and not refused:
            time.sleep(0.05)
        time.sleep(random.uniform(0.2, 1.5))  # every player has a game: now a random moment
        served.kill() if how == "kill -9" else served.stop()
        for t in players:
            t.join()
        assert answered and not refused
        with Served(database) as served, httpx.Client(base_url=served.url, timeout=30) as c:
            for token, last in answered.items():
                now = c.get("/api/games/current", headers={"X-Player-Token": token}).json()
                assert now["id"] >= last["id"]
                if now["id"] == last["id"]:
                    assert now["version"] >= last["version"]
                    if how == "graceful" or now["version"] == last["version"]:
                        assert now == last


def legacy_database(path: Path) -> tuple[str, Game]:
    """A database as the store before versions wrote it: a player and a game's whole record."""
    game = Game(Rules(), 99, first_dealer=1)
    bot = make_player("normal")
    rng = random.Random(1)
    while len(game.log) < 9 or game.turn != 2:  # some moves, then the person (South) to play
        seat = game.turn
        assert seat is not None
        game.apply(seat, bot.choose(game.view(seat), rng))
    token = "legacy-player-token-0001"
    with sqlite3.connect(path, isolation_level=None) as db:
        db.executescript("""
            CREATE TABLE players (token TEXT PRIMARY KEY, created TEXT NOT NULL, settings TEXT);
            CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, token TEXT NOT NULL REFERENCES
                players(token), deal INTEGER NOT NULL, daily TEXT, level TEXT NOT NULL, bots_bid_nil INTEGER
                NOT NULL, record TEXT NOT NULL, status TEXT NOT NULL, won INTEGER, final_score INTEGER,
                created TEXT NOT NULL, finished TEXT);
            CREATE INDEX games_by_token ON games(token, status);""")
        db.execute("INSERT INTO players VALUES (?, '2026-01-01', NULL)", (token,))
        db.execute("INSERT INTO games (token, deal, level, bots_bid_nil, record, status, created) VALUES"
                   " (?, 99, 'normal', 1, ?, 'active', '2026-01-01')", (token, dump_record(game)))
    return token, game


def test_an_old_database_is_upgraded_once(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    token, game = legacy_database(db)
    with BackgroundServer(db) as server, httpx.Client(base_url=server.url) as c:
        state = c.get("/api/games/current", headers={"X-Player-Token": token}).json()
        assert state["version"] == len(game.log)
        assert set(state["hand"]) == {str(card) for card in cards_of(game.view(2).hand)}
        moved = c.post(f"/api/games/{state['id']}/moves", headers={"X-Player-Token": token},
                       json={"move": "play " + state["legal"][0], "version": state["version"]})
        assert moved.status_code == 200, moved.text
    assert query(str(db), "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    assert "record" not in [r[1] for r in query(str(db), "PRAGMA table_info(games)")]
    with BackgroundServer(db) as server, httpx.Client(base_url=server.url) as c:  # upgraded once: reopens
        assert c.get("/api/games/current", headers={"X-Player-Token": token}).json() == moved.json()["state"]


def test_friends_tables_kept_beside_an_older_store_move_into_it(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    legacy_database(db)
    table = FriendsTable("ABCDEF", TableOptions(Rules()), time.time)
    ann, _ = table.join("Ann")
    with sqlite3.connect(db, isolation_level=None) as old:  # as the tables' own log wrote them
        old.executescript("""
            CREATE TABLE friend_tables (code TEXT PRIMARY KEY, options TEXT NOT NULL, created REAL NOT NULL,
                touched REAL NOT NULL);
            CREATE TABLE friend_entries (code TEXT NOT NULL REFERENCES friend_tables(code), seq INTEGER
                NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (code, seq));""")
        old.execute("INSERT INTO friend_tables VALUES ('ABCDEF', ?, ?, ?)",
                    (json.dumps(table.options.to_json()), time.time(), time.time()))
        old.executemany("INSERT INTO friend_entries VALUES ('ABCDEF', ?, ?)",
                        [(i, json.dumps(entry_json(e))) for i, e in enumerate(table.entries)])
    with BackgroundServer(db) as server, httpx.Client(base_url=server.url) as c:
        view = c.get("/api/tables/ABCDEF/view", headers={"X-Seat-Token": ann})
        assert view.status_code == 200 and view.json()["seats"][0]["name"] == "Ann"
        assert c.post("/api/tables/ABCDEF/seats", json={"name": "Bob"}).status_code == 201
        assert [s["name"] for s in c.get("/api/tables/ABCDEF").json()["seats"]][:2] == ["Ann", "Bob"]
    assert query(str(db), "SELECT version FROM friend_tables") == [(count(str(db), "friend_entries"),)]
    assert count(str(db), "friend_entries") > len(table.entries)


def test_a_newer_database_is_refused_with_a_message(database: str) -> None:
    with BackgroundServer(database) as server:
        assert httpx.get(server.url + "/readyz").json() == {"status": "ok"}
        query(database, "UPDATE schema_version SET version = 99")  # a newer Spades upgraded it meanwhile
        r = httpx.get(server.url + "/readyz")
        assert r.status_code == 503 and "no longer has schema version" in r.json()["detail"]
    with pytest.raises(StoreError, match="schema version 99, newer than this Spades knows"):
        BackgroundServer(database).start()


def serve_fails(db: Path) -> str:
    """Run ``spades serve`` on a database it must refuse; its message."""
    done = subprocess.run([sys.executable, "-m", "spades.cli", "serve", "--port", "0", "--db", str(db)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    return done.stderr


def test_a_damaged_database_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite3"
    store = open_store(db)
    store.check()
    for i in range(200):
        store.add_player(token=f"player-{i:04}-" + "x" * 40)
    store.close()
    data = bytearray(db.read_bytes())
    data[4096:] = random.Random(0).randbytes(len(data) - 4096)  # every page but the first turned to noise
    db.write_bytes(bytes(data))
    assert "the database cannot be used" in (message := serve_fails(db)) and "damaged" in message
    db.write_bytes(b"this is not a database at all" * 200)
    assert "file is not a database" in serve_fails(db)


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A real 2 MB file system of our own (root only: it is mounted for the test)."""
    where = tmp_path / "disk"
    where.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=2m,nr_inodes=64", "tmpfs", str(where)]
    if os.geteuid() != 0 or subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("mounting a small file system needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_refuses_the_move_and_a_read_only_one_the_start(small_disk: Path) -> None:
    db = small_disk / "games.sqlite3"
    with BackgroundServer(db) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        p = Player(c, auto_play=False)
        state = p.new_game(deal=8)
        filler = small_disk / "filler"
        with filler.open("wb", buffering=0) as f:  # fill the disk to the last byte
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass
        for _ in range(300):  # the log grows until a save finds no room
            if state["phase"] == "hand_over":
                state = p.next_hand(state)["state"]
            r = c.post(f"/api/games/{state['id']}/moves", headers=p.headers,
                       json={"move": simple_move(state), "version": state["version"]})
            if r.status_code != 200:
                break
            state = r.json()["state"]
        assert r.status_code == 503 and "full" in r.json()["detail"], r.text
        assert p.call("GET", "/api/games/current") == state
        filler.unlink()
        assert p.move(state, simple_move(state))["state"]["version"] > state["version"]
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    message = serve_fails(db)
    assert "readonly" in message or "read-only" in message, message


def test_sqlite_writers_of_any_process_wait_their_turn_on_the_lock_file(tmp_path: Path) -> None:
    """A write waits while another process holds the writers' lock file, and goes on once it is let go."""
    store = open_store(str(tmp_path / "g.sqlite3"))
    store.check()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys; f = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
        "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.readline()"),
        f"{tmp_path / 'g.sqlite3'}-writer"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "held"
        done = threading.Event()

        def write() -> None:
            store.add_player(token="T" * 32)
            done.set()

        writer = threading.Thread(target=write)
        writer.start()
        assert not done.wait(0.5), "the write went ahead while another process held the writers' lock"
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert done.wait(30)
        assert store.has_player(token="T" * 32)
        with open(f"{tmp_path / 'g.sqlite3'}-writer") as f:  # let go again: anyone may take it (once the
            for _ in range(100):                                # store's checkpoints, a moment each, let go)
                with contextlib.suppress(BlockingIOError):
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                time.sleep(0.01)
            else:
                raise AssertionError("the writers' lock file stays locked")
    finally:
        holder.kill()
        holder.wait()
        store.close()


def test_a_store_before_friends_results_upgrades_and_counts_them(tmp_path: Path) -> None:
    db = tmp_path / "v5.sqlite3"
    store = open_store(db)
    store.check()
    store.close()
    back_to_schema_6(str(db))
    query(str(db), "DROP TABLE friend_results")  # as schema version 5 left it
    query(str(db), "UPDATE schema_version SET version = 5")
    with BackgroundServer(db) as server, httpx.Client(base_url=server.url) as c:
        token = c.post("/api/players").json()["token"]
        r = c.get("/api/stats", headers={"X-Player-Token": token})
        assert r.status_code == 200 and r.json()["friends"]["played"] == 0, r.text
    assert query(str(db), "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    assert "player" in [r[1] for r in query(str(db), "PRAGMA table_info(friend_results)")]


def test_appends_from_many_threads_each_count_once_on_their_version(database: str) -> None:
    """Appends written together (one transaction for the writes waiting at once) still each hold on
    their own version: threads racing on one table make one unbroken log, and no append is lost or
    made twice, on either database."""
    store = open_store(database)
    store.check()
    codes = [f"T{i:05d}" for i in range(6)]
    for code in codes:
        assert store.add_table(code=code, options="{}")
    shared = "SHARED"
    assert store.add_table(code=shared, options="{}")
    won: list[str] = []

    def own(code: str) -> None:
        for v in range(25):
            assert store.append_table(code=code, version=v, entries=[json.dumps({"k": "chat", "n": v})])

    def race(name: str) -> None:
        for _ in range(25):
            stored = store.table(code=shared)
            assert stored is not None
            if store.append_table(code=shared, version=len(stored[1]), entries=[json.dumps({"by": name})]):
                won.append(name)

    threads = [threading.Thread(target=own, args=(c,)) for c in codes]
    threads += [threading.Thread(target=race, args=(f"r{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for code in codes:
        stored = store.table(code=code)
        assert stored is not None and [json.loads(e)["n"] for e in stored[1]] == list(range(25))
    stored = store.table(code=shared)
    assert stored is not None and sorted(json.loads(e)["by"] for e in stored[1]) == sorted(won)
    store.close()


def test_appends_that_meet_a_locked_database_all_fail_and_change_nothing(tmp_path: Path) -> None:
    """Several appends waiting while another program holds SQLite's write lock each raise StoreError
    (a failed shared transaction fails every append in it), and none was written."""
    path = tmp_path / "g.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)
    store.check()
    for i in range(4):
        assert store.add_table(code=f"T{i}", options="{}")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    errors: list[Exception] = []

    def append(code: str) -> None:
        try:
            store.append_table(code=code, version=0, entries=["{}"])
        except StoreError as e:
            errors.append(e)

    threads = [threading.Thread(target=append, args=(f"T{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 4 and all("locked" in str(e) for e in errors)
    other.execute("ROLLBACK")
    other.close()
    assert all(store.table(code=f"T{i}") == ("{}", []) for i in range(4))
    assert store.append_table(code="T0", version=0, entries=["{}"])  # free again: taken
    store.close()


def test_a_write_made_at_once_gives_up_on_a_lock_held_elsewhere_and_changes_nothing(tmp_path: Path) -> None:
    """On the event loop's path (``at_once``), a write that meets SQLite's write lock held by another
    program, or the writers' file lock held by another process, raises StoreBusy instead of waiting
    the store's seconds, and writes nothing; with the locks free it writes as usual."""
    path = tmp_path / "g.sqlite3"
    store = SQLiteStore(path)
    store.check()
    assert store.add_table(code="T0", options="{}")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with at_once(), pytest.raises(StoreBusy, match="locked"):
        store.append_table(code="T0", version=0, entries=["{}"])
    other.execute("ROLLBACK")
    other.close()
    sibling = os.open(f"{path}-writer", os.O_RDWR)
    fcntl.flock(sibling, fcntl.LOCK_EX)
    with at_once(), pytest.raises(StoreBusy, match="another process"):
        store.append_table(code="T0", version=0, entries=["{}"])
    fcntl.flock(sibling, fcntl.LOCK_UN)
    os.close(sibling)
    assert store.table(code="T0") == ("{}", [])
    with at_once():
        assert store.append_table(code="T0", version=0, entries=['{"n": 1}'])
    assert store.append_table(code="T0", version=1, entries=['{"n": 2}'])  # the usual wait again
    assert store.table(code="T0") == ("{}", ['{"n": 1}', '{"n": 2}'])
    store.close()


def test_a_writers_turn_is_had_before_the_work_and_kept_for_its_writes(tmp_path: Path) -> None:
    """``write_turn`` made ``at_once`` while another process writes raises StoreBusy before the work
    within it runs; once had, the thread's writes within it go without taking it again, and another
    process waits until it ends."""
    path = tmp_path / "g.sqlite3"
    store = SQLiteStore(path)
    store.check()
    assert store.add_table(code="T0", options="{}")
    sibling = os.open(f"{path}-writer", os.O_RDWR)
    fcntl.flock(sibling, fcntl.LOCK_EX)
    ran = False
    with at_once(), pytest.raises(StoreBusy, match="another process"), store.write_turn():
        ran = True
    assert not ran
    fcntl.flock(sibling, fcntl.LOCK_UN)
    with at_once(), store.write_turn():
        with pytest.raises(BlockingIOError):
            fcntl.flock(sibling, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert store.append_table(code="T0", version=0, entries=['{"n": 1}'])
        assert store.append_table(code="T0", version=1, entries=['{"n": 2}'])
    fcntl.flock(sibling, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free once the turn is over
    fcntl.flock(sibling, fcntl.LOCK_UN)
    os.close(sibling)
    assert store.table(code="T0") == ("{}", ['{"n": 1}', '{"n": 2}'])
    store.close()


def test_the_stores_own_thread_checkpoints_so_the_wal_starts_over(tmp_path: Path) -> None:
    """SQLite's WAL is checkpointed by the store's thread, not in a write's commit: batches of appends
    with pauses between them (each over the 1000 pages at which a commit used to checkpoint, all of
    them under the 10000 of the commit's safety net) leave a WAL file that starts over rather than
    grows; closing the store stops the thread."""
    path = tmp_path / "g.sqlite3"
    store = SQLiteStore(path)
    store.check()
    assert store.add_table(code="T0", options="{}")
    entry = json.dumps({"k": "chat", "text": "hi"})  # 2 to 3 pages written each
    sizes = []
    for batch in range(6):
        for i in range(450):
            assert store.append_table(code="T0", version=batch * 450 + i, entries=[entry])
        sizes.append(os.stat(f"{path}-wal").st_size)
        time.sleep(1.0)  # five turns of the thread
    assert sizes[-1] <= 2 * sizes[0] < 6 * sizes[0], sizes
    thread = store._checkpoints  # this store's thread (other tests' stores may keep theirs)
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()


def test_work_handed_on_from_within_at_once_waits_as_usual(tmp_path: Path) -> None:
    """``at_once`` holds for the calls made within it, not for work they hand on: as the event bus wakes
    a table's look from within a command on the loop (``call_soon_threadsafe``, which copies the
    context), the look's task, and the worker thread it hands a write to, wait for a lock held by
    another program as long as it takes, and write."""
    path = tmp_path / "g.sqlite3"
    store = SQLiteStore(path)
    store.check()
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        added: asyncio.Future[bool] = loop.create_future()

        async def look() -> None:
            try:
                added.set_result(await asyncio.to_thread(store.add_table, code="T0", options="{}"))
            except StoreError as e:
                added.set_exception(e)

        with at_once():  # as Live._run does, and the hub's publish calls the bus's listeners in it
            loop.call_soon_threadsafe(lambda: loop.create_task(look()))
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, other.execute, ("ROLLBACK",)).start()
        return await added

    assert run_async(main())  # a loop of its own: the browser tests' Playwright may run one here
    other.close()
    assert store.table(code="T0") == ("{}", [])
    store.close()


def test_a_coach_claim_is_timed_by_the_databases_clock(database: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Processes on machines whose clocks disagree share the coach's work fairly: a claim's age is read
    on the database's clock, so a process whose clock runs an hour ahead neither takes over a fresh
    claim nor sees it as old; a claim not renewed for ``stale_after`` is taken over, and then its old
    owner can no longer renew it."""
    store = open_store(database)
    store.check()
    try:
        assert store.claim_review(subject="s", hand=0, owner="a", stale_after=60)
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + 3600)
        assert not store.claim_review(subject="s", hand=0, owner="b", stale_after=60)
        claim = store.claim(subject="s", hand=0)
        assert claim is not None and claim[0] == "a" and 0 <= claim[1] < 60
        monkeypatch.undo()
        query(database, "UPDATE coach_claims SET claimed = claimed - 61")
        assert store.claim_review(subject="s", hand=0, owner="b", stale_after=60)
        assert not store.renew_claim(subject="s", hand=0, owner="a", done=1, total=9)
        assert store.renew_claim(subject="s", hand=0, owner="b", done=1, total=9)
        claim = store.claim(subject="s", hand=0)
        assert claim is not None and claim[0] == "b" and claim[2:] == (1, 9)
        assert claim[1] == pytest.approx(0, abs=5)
    finally:
        store.close()


def test_an_append_from_the_loop_waits_for_a_turn_taken_and_is_made_by_the_writer(tmp_path: Path) -> None:
    """``append_soon`` on the event loop: made at once while no one writes; while another thread has the
    writers' turn, handed to the store's writer, which makes it once the turn is free and answers only
    after its commit; closing the store stops the writer."""
    store = SQLiteStore(tmp_path / "g.sqlite3")
    store.check()
    store.add_player(token="p")
    game = Game(Rules(), 5)
    row = store.add_game(token="p", deal=5, daily=None, level="normal", bots_bid_nil=True,
                         header=dump_record(game))
    taken, free = threading.Event(), threading.Event()

    def hold_the_turn() -> None:
        with store.write_turn():
            taken.set()
            free.wait()

    async def main() -> tuple[bool, bool, bool]:
        first = await store.append_soon(game_id=row.id, version=0, entries=[None])
        holder = threading.Thread(target=hold_the_turn)
        holder.start()
        taken.wait()
        second = asyncio.ensure_future(store.append_soon(game_id=row.id, version=1, entries=[None]))
        await asyncio.sleep(0.1)
        waited = not second.done()  # it cannot be made while the turn is held
        free.set()
        made = await second
        holder.join()
        return first, waited, made

    assert run_async(main()) == (True, True, True)
    after = store.game(token="p", game_id=row.id)
    assert after is not None and after.version == 2
    writer = store._writer._thread
    assert writer is not None and writer.is_alive()
    store.close()
    assert not writer.is_alive()


def test_appends_made_in_one_turn_of_the_loop_share_a_transaction(tmp_path: Path) -> None:
    """The appends that the moves of one turn of the event loop make (several sockets' messages that came in
    together) are committed together, once, and each is answered after that commit, with its own answer."""
    store = SQLiteStore(tmp_path / "g.sqlite3")
    store.check()
    store.add_player(token="p")
    game = Game(Rules(), 5)
    rows = [store.add_game(token="p", deal=5, daily=None, level="normal", bots_bid_nil=True,
                           header=dump_record(game)) for _ in range(3)]
    commits: list[str] = []

    async def main() -> list[bool]:
        store._connection().set_trace_callback(  # the loop thread's connection, as the server's
            lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        return await asyncio.gather(*(store.append_soon(game_id=row.id, version=0, entries=[None])
                                      for row in rows),
                                    store.append_soon(game_id=rows[0].id, version=0, entries=[None]))

    assert run_async(main()) == [True, True, True, False]  # the last one's version had moved on
    assert commits == ["COMMIT"]
    assert [query(str(store.path), "SELECT version FROM games WHERE id = ?", (row.id,)) for row in rows] \
        == [[(1,)]] * 3
    store.close()


def test_a_faulty_write_of_a_loops_turn_fails_alone(tmp_path: Path) -> None:
    """If one write of a turn's shared transaction fails, the others are made again, each alone: they are
    stored and answered, and only the faulty one raises."""
    store = SQLiteStore(tmp_path / "g.sqlite3")
    store.check()

    def add(token: str) -> Callable[[Tx], int]:
        return lambda tx: tx.run("INSERT INTO players (token, created) VALUES (?, ?)", (token, "now"))

    def faulty(tx: Tx) -> int:
        raise ValueError("this write is faulty")

    async def main() -> tuple[int | BaseException, ...]:
        return await asyncio.gather(store._soon(add("a")), store._soon(faulty), store._soon(add("b")),
                                    return_exceptions=True)

    first, failed, last = run_async(main())
    assert (first, last) == (1, 1)
    assert isinstance(failed, ValueError)
    assert query(str(store.path), "SELECT token FROM players ORDER BY token") == [("a",), ("b",)]
    store.close()


def test_a_loops_appends_that_find_the_lock_taken_try_again_there(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Appends whose turn finds another writer at the lock try again a moment later on the loop (which
    serves the rest meanwhile): made there once it is free, without waking the store's writer thread."""
    monkeypatch.setattr(base, "_TRIES", 10**6)  # however long the other writer takes here
    store = SQLiteStore(tmp_path / "g.sqlite3")
    store.check()
    store.add_player(token="p")
    row = store.add_game(token="p", deal=5, daily=None, level="normal", bots_bid_nil=True,
                         header=dump_record(Game(Rules(), 5)))
    taken, free = threading.Event(), threading.Event()

    def hold_the_turn() -> None:
        with store.write_turn():
            taken.set()
            free.wait()

    async def main() -> bool:
        holder = threading.Thread(target=hold_the_turn)
        holder.start()
        taken.wait()
        append = asyncio.ensure_future(store.append_soon(game_id=row.id, version=0, entries=[None]))
        await asyncio.sleep(0.01)  # it tried, found the turn taken, and tries again
        assert not append.done()
        free.set()
        holder.join()
        return await append

    assert run_async(main()) is True
    assert "_writer" not in store.__dict__  # the writer thread was never needed
    store.close()
