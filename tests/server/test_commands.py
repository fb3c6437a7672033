"""``spades play`` and ``spades serve`` start the real server, print its address, and keep the games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from spades.server.run import free_port
from spades.server.settings import default_db_path


@pytest.mark.parametrize("command", ["play", "serve"])
def test_the_command_prints_an_address_that_serves_the_table(tmp_path: Path, command: str) -> None:
    db = tmp_path / "games.sqlite3"
    extra = ["--no-browser"] if command == "play" else ["--host", "127.0.0.1"]
    proc = subprocess.Popen([sys.executable, "-m", "spades.cli", command, "--port", str(free_port()),
                             "--db", str(db), *extra], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert str(db) in proc.stdout.readline()
        url = proc.stdout.readline().split("ready at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        page = httpx.get(url, timeout=2)
        assert page.status_code == 200 and "Spades" in page.text
        token = httpx.post(url + "api/players").json()["token"]
        r = httpx.post(url + "api/games", json={"deal": 1}, headers={"X-Player-Token": token})
        assert r.status_code == 201 and db.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_database_lives_in_the_data_folder_unless_moved(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    monkeypatch.delenv("SPADES_DB", raising=False)
    assert default_db_path().name == "spades.sqlite3" and "spades" in default_db_path().parent.parts[-1]
    monkeypatch.setenv("SPADES_DB", str(tmp_path / "elsewhere.db"))
    assert default_db_path() == tmp_path / "elsewhere.db"
