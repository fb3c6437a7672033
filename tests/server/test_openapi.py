"""The OpenAPI document tells the truth: schemathesis sends generated requests (valid and invalid) to
every operation of the real server over HTTP and checks each answer against the document."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from spades.server.app import create_app
from spades.server.run import BackgroundServer
from spades.server.settings import Settings

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundServer]:
    """One server for the whole run, without rate limits (schemathesis sends as fast as it can)."""
    path: Path = tmp_path_factory.mktemp("openapi") / "spades.sqlite3"
    with BackgroundServer(path, rate_per_token=0, rate_per_address=0, access_log=False) as s:
        yield s


@pytest.fixture(scope="module")
def player(server: BackgroundServer) -> dict[str, Any]:
    """A player with a game going, so that the game routes are reached past their 404."""
    token = httpx.post(server.url + "/api/players").json()["token"]
    game = httpx.post(server.url + "/api/games", json={"deal": 7}, headers={"X-Player-Token": token})
    return {"token": token, "game": game.json()["state"]["id"]}


DOCUMENT = create_app(Settings(db_path=Path(tempfile.mkdtemp()) / "document.sqlite3")).openapi()
"""The app's OpenAPI document (schemathesis needs it when the tests are collected)."""

schema = schemathesis.openapi.from_dict(DOCUMENT)


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
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: Any, server: BackgroundServer,
                                               player: dict[str, Any]) -> None:
    if "game_id" in (case.path_parameters or {}) and case.path_parameters["game_id"] == 1:
        case.path_parameters["game_id"] = player["game"]
    case.call_and_validate(base_url=server.url, headers={"X-Player-Token": player["token"]}, checks=CHECKS)
