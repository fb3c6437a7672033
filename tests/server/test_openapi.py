"""The OpenAPI document tells the truth: schemathesis sends generated requests (valid and invalid) to
every operation of the real server over HTTP, with every check it has, and finds nothing.

Its settings are in schemathesis.toml beside this file: a player, games and friends' tables made on the
server first (``made_for_schemathesis``), so that the routes are reached past their 401s and 404s. The
pytest form runs each operation apart, a test for each; the command line runs every phase as a person
would: the schema's examples, its boundaries (coverage), generated data (fuzzing) and requests chained
by the links between operations (stateful).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from string import Template
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from server.api_client import simple_move
from spades.server.app import create_app
from spades.server.run import BackgroundServer
from spades.server.settings import Settings

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = 20
"""Requests generated per operation (and per phase on the command line): enough to find a loose schema."""


def made_for_schemathesis(url: str) -> dict[str, str]:
    """What schemathesis.toml names, made on the server at ``url``: a player for the routes that need one,
    a player with an account for the accounts' routes, players with a game each, two friends' tables
    with the host's seat token, and a tournament open for registration with four people (one more starts
    it) and the host's and the first person's tokens; the first hand of the first game and of the first
    table played out, so that their hand routes have a hand to show."""
    with httpx.Client(base_url=url) as client:
        def player() -> str:
            token: str = client.post("/api/players").json()["token"]
            return token

        def game(token: str) -> dict[str, Any]:
            state: dict[str, Any] = client.post("/api/games", json={"deal": 7},
                                                headers={"X-Player-Token": token}).json()["state"]
            return state

        def table() -> tuple[str, str]:
            r = client.post("/api/tables", json={"name": "Host"}).json()
            return r["code"], r["token"]

        with_game, restarter = player(), player()
        state = game(with_game)
        while state["phase"] != "hand_over":
            move = {"move": simple_move(state), "version": state["version"]}
            state = client.post(f"/api/games/{state['id']}/moves", json=move,
                                headers={"X-Player-Token": with_game}).json()["state"]
        (code, seat), (commands_code, commands_seat) = table(), table()
        seat_headers = {"X-Seat-Token": seat}
        view = client.post(f"/api/tables/{code}/commands", json={"do": "start"}, headers=seat_headers).json()
        while view["game"]["phase"] != "hand_over":
            move = {"do": "move", "move": simple_move(view["game"]), "version": view["game"]["version"]}
            view = client.post(f"/api/tables/{code}/commands", json=move, headers=seat_headers).json()
        tournament = client.post("/api/tournaments", json={"name": "Fuzzed", "rounds": 1, "boards": 1}).json()
        entries = [client.post(f"/api/tournaments/{tournament['code']}/entries", json={"name": name}).json()
                   for name in ("Ann", "Bob", "Cal", "Dee")]
        account = player()
        client.post("/api/account", json={"name": "schemathesis", "password": "a password"},
                    headers={"X-Player-Token": account})
        return {"PLAYER": player(), "ACCOUNT": account, "PLAYER_WITH_GAME": with_game,
                "GAME": str(state["id"]), "RESTARTER": restarter, "RESTARTED": str(game(restarter)["id"]),
                "TABLE": code, "SEAT": seat,
                "COMMANDS_TABLE": commands_code, "COMMANDS_SEAT": commands_seat,
                "TOURNAMENT": tournament["code"], "TOURNAMENT_HOST": tournament["host_token"],
                "TOURNAMENT_ENTRY": entries[0]["token"]}


def config_with(values: dict[str, str]) -> str:
    """schemathesis.toml with the values it names."""
    return Template(CONFIG.read_text()).substitute(values)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundServer]:
    """One server for the whole run, without rate limits (schemathesis sends as fast as it can), with the
    coach (reviewing hands on as few deals as it may), so that its routes answer too."""
    path: Path = tmp_path_factory.mktemp("openapi") / "spades.sqlite3"
    with BackgroundServer(path, rate_per_token=0, rate_per_address=0, access_log=False, coach_workers=1,
                          coach_samples=2) as s:
        yield s


@pytest.fixture(scope="module")
def made(server: BackgroundServer) -> dict[str, str]:
    """The values schemathesis.toml names, made on the server."""
    return made_for_schemathesis(server.url)


DOCUMENT = create_app(Settings(db_path=Path(tempfile.mkdtemp()) / "document.sqlite3")).openapi()
"""The app's OpenAPI document, as the app makes it without a server."""

STAND_INS = {"PLAYER": "player" * 4, "ACCOUNT": "account" * 3, "PLAYER_WITH_GAME": "with-game" * 3,
             "GAME": "900001", "RESTARTER": "restarter" * 3, "RESTARTED": "900002", "TABLE": "TTTTTT",
             "SEAT": "seat" * 6,
             "COMMANDS_TABLE": "CCCCCC", "COMMANDS_SEAT": "commands" * 3, "TOURNAMENT": "RRRRRR",
             "TOURNAMENT_HOST": "host" * 6, "TOURNAMENT_ENTRY": "entry" * 5}
"""Values of the right form that stand in for the made ones while the tests are collected (before the
server that makes them runs): each request has them replaced by the real ones."""

schema = schemathesis.openapi.from_dict(DOCUMENT, config=SchemathesisConfig.from_str(config_with(STAND_INS)))


def test_the_server_serves_this_document(server: BackgroundServer) -> None:
    assert httpx.get(server.url + "/openapi.json").json() == DOCUMENT


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("OPTIONS", "/api/settings", "GET, PUT"), ("DELETE", "/api/settings", "GET, PUT"),
    ("PATCH", "/api/scorekeeper/score-sheet.pdf", "GET, POST"), ("GET", "/api/games/3/moves", "POST"),
    ("PUT", "/healthz", "GET")])
def test_a_method_a_path_does_not_take_is_a_405_naming_every_one_it_does(
        server: BackgroundServer, method: str, path: str, allow: str) -> None:
    r = httpx.request(method, server.url + path)
    assert r.status_code == 405 and r.headers["Allow"] == allow
    assert r.json() == {"detail": "Method Not Allowed"}


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: Any, server: BackgroundServer,
                                               made: dict[str, str]) -> None:
    """Each operation apart, with valid and invalid data: every check schemathesis has."""
    real = {str(STAND_INS[name]): value for name, value in made.items()}
    for where in (case.headers, case.path_parameters):
        for key, value in (where or {}).items():
            where[key] = type(value)(real.get(str(value), value))
    case.call_and_validate(base_url=server.url)


def test_the_command_line_with_every_check_finds_nothing(server: BackgroundServer, made: dict[str, str],
                                                         tmp_path: Path) -> None:
    """``schemathesis run --checks all`` as a person runs it, each phase bounded to a few examples."""
    config = tmp_path / "schemathesis.toml"
    config.write_text(config_with(made))
    run = subprocess.run(
        [Path(sys.executable).with_name("schemathesis"), "--config-file", config, "run",
         server.url + "/openapi.json", "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "25",
         "--workers", "1", "--no-color"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
