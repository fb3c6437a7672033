"""Outside bots at friends' tables: an operator names them (SPADES_BOTS), the server offers them with the
levels, and they play a hand over the real HTTP and WebSocket, stopped with the server."""

import sys
from pathlib import Path

import httpx
import pytest

from server.tables_client import Seat, app_state, open_table, play_alone, run_async
from spades.errors import SpadesError
from spades.server.run import BackgroundServer
from spades.server.settings import Settings

EXAMPLES = Path(__file__).parents[2] / "examples" / "bots"
BOTS = f"pybot=exec:{sys.executable} {EXAMPLES / 'bot.py'}, nodebot=exec:node {EXAMPLES / 'bot.js'}"


@pytest.mark.parametrize("bot", ["pybot", "nodebot"])
def test_an_operators_bot_plays_a_hand_at_a_friends_table(tmp_path: Path, bot: str) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", bots=BOTS) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        meta = client.get("/api/rules").json()
        assert meta["bots"] == ["pybot", "nodebot"] and "expert" in meta["levels"]
        host = open_table(client, level=bot, preset="two-player" if bot == "nodebot" else "standard")
        seat = Seat(server.url, host["code"], host["token"])

        run_async(play_alone(seat))
        assert seat.table["level"] == bot
        assert [s["bot"] for s in seat.table["seats"]].count(True) == len(seat.table["seats"]) - 1
        roster = app_state(server).roster
        player = roster._players[(bot, True)]
        assert player.fault_count == 0 and player._procs
        procs = [p.popen for p in player._procs.values()]
        assert all(p.poll() is None for p in procs)
    assert all(p.poll() is not None for p in procs)  # stopped with the server


def test_a_bot_not_offered_is_refused_and_a_bad_roster_stops_the_start(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/api/rules").json()["bots"] == []
        r = client.post("/api/tables", json={"name": "Ann", "level": "pybot"})
        assert r.status_code == 400 and "random, easy, normal, hard, expert" in r.json()["detail"]
        r = client.post("/api/tables", json={"name": "Ann", "level": "exec:ls"})
        assert r.status_code == 422
    for text, why in [("pybot=exec:/no/such/bot", "not found"), ("pybot", "name=exec:COMMAND"),
                      ("expert=exec:ls", "must be new")]:
        with pytest.raises(SpadesError, match=f"SPADES_BOTS: .*{why}"):
            Settings.from_env({"SPADES_BOTS": text})
