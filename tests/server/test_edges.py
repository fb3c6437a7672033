"""The edges over real HTTP: body limit, rate limits, client address behind a proxy, the access log,
the security headers, the probes."""

from __future__ import annotations

import gc
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from spades.server.app import create_app
from spades.server.middleware import ACCESS_LOG
from spades.server.run import BackgroundServer, free_port
from spades.server.settings import Settings


@pytest.fixture
def access_lines() -> Iterator[list[dict[str, Any]]]:
    """The access log's lines while the test runs, each parsed as JSON."""
    lines: list[dict[str, Any]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(json.loads(record.getMessage()))

    handler = Keep()
    ACCESS_LOG.addHandler(handler)
    yield lines
    ACCESS_LOG.removeHandler(handler)


def _token(client: httpx.Client) -> dict[str, str]:
    r = client.post("/api/players")
    assert r.status_code == 201, r.text
    return {"X-Player-Token": r.json()["token"]}


def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", max_body_bytes=2000) as server, \
            httpx.Client(base_url=server.url) as client:
        headers = _token(client)
        big = {"level": "normal", "rules": {"preset": "standard", "options": {"x" * 3000: 1}}}
        r = client.put("/api/settings", json=big, headers=headers)
        assert r.status_code == 413
        assert r.json() == {"detail": "The request body is larger than 2000 bytes."}

        def chunks(body: bytes) -> Iterator[bytes]:
            for i in range(0, len(body), 500):
                yield body[i:i + 500]

        r = client.put("/api/settings", content=chunks(json.dumps(big).encode()),
                       headers={**headers, "Content-Type": "application/json"})
        assert r.request.headers["transfer-encoding"] == "chunked"
        assert r.status_code == 413 and "larger than 2000 bytes" in r.json()["detail"]
        small = json.dumps({"level": "hard"}).encode()
        r = client.put("/api/settings", content=chunks(small),
                       headers={**headers, "Content-Type": "application/json"})
        assert r.status_code == 200 and r.json()["level"] == "hard"
        assert client.get("/api/settings", headers=headers).json()["level"] == "hard"


def test_a_token_over_its_rate_gets_429_with_retry_after_and_others_do_not(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", rate_per_token=0.5, burst_per_token=3) as server, \
            httpx.Client(base_url=server.url) as client:
        fast, calm = _token(client), _token(client)
        assert [client.get("/api/stats", headers=fast).status_code for _ in range(3)] == [200] * 3
        r = client.get("/api/stats", headers=fast)
        assert r.status_code == 429 and r.headers["retry-after"] in ("1", "2")
        assert r.json()["detail"].startswith("Too many requests from this player: try again in")
        assert client.get("/api/stats", headers=calm).status_code == 200
        time.sleep(int(r.headers["retry-after"]))
        assert client.get("/api/stats", headers=fast).status_code == 200


def test_an_address_over_its_rate_gets_429_but_the_probes_still_answer(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", rate_per_address=0.1, burst_per_address=4) as server, \
            httpx.Client(base_url=server.url) as client:
        assert [client.get("/api/rules").status_code for _ in range(4)] == [200] * 4
        r = client.post("/api/players")
        assert r.status_code == 429 and int(r.headers["retry-after"]) == 10
        assert r.json()["detail"] == "Too many requests from this address: try again in 10 s."
        assert client.get("/healthz").json() == {"status": "ok"}


def test_forwarded_addresses_count_only_from_a_trusted_proxy(
        tmp_path: Path, access_lines: list[dict[str, Any]]) -> None:
    limits: dict[str, Any] = {"rate_per_address": 0.1, "burst_per_address": 2}
    with BackgroundServer(tmp_path / "db.sqlite3", trusted_proxies=("127.0.0.0/8", "10.0.0.0/8"),
                          **limits) as proxied, httpx.Client(base_url=proxied.url) as client:
        for _ in range(2):
            assert client.get("/api/rules", headers={"X-Forwarded-For": "203.0.113.7, 10.1.2.3"}
                              ).status_code == 200
        assert client.get("/api/rules", headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 429
        ipv6 = {"Forwarded": 'for="[2001:db8::5]:4711";proto=https'}
        assert client.get("/api/rules", headers=ipv6).status_code == 200
        assert client.get("/api/rules").status_code == 200
    clients = [line["client"] for line in access_lines]
    assert clients == ["203.0.113.7", "203.0.113.7", "203.0.113.7", "2001:db8::5", "127.0.0.1"]
    with BackgroundServer(tmp_path / "db.sqlite3", **limits) as direct, \
            httpx.Client(base_url=direct.url) as client:
        statuses = [client.get("/api/rules", headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                    for i in range(3)]
        assert statuses == [200, 200, 429]
    assert {line["client"] for line in access_lines[5:]} == {"127.0.0.1"}


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "db.sqlite3", max_body_bytes=10) as server, \
            httpx.Client(base_url=server.url) as client:
        responses = [client.get("/"), client.get("/rules"), client.get("/static/js/main.js"),
                     client.get("/api/rules"), client.get("/api/nowhere"), client.get("/api/stats"),
                     client.post("/api/games", json={"deal": 12345})]
        assert [r.status_code for r in responses] == [200, 200, 200, 200, 404, 422, 413]
        for r in responses:
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert "unsafe" not in csp
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["referrer-policy"] == "same-origin"
            assert "strict-transport-security" not in r.headers
            assert r.headers["server-timing"].startswith("app;dur=")
        docs = client.get("/docs")
        assert docs.status_code == 200 and "'sha256-" in docs.headers["content-security-policy"]
        assert "unsafe" not in docs.headers["content-security-policy"]
    with BackgroundServer(tmp_path / "db.sqlite3", hsts=True) as server:
        assert httpx.get(server.url + "/healthz").headers["strict-transport-security"] == "max-age=31536000"


def test_spades_serve_logs_a_json_line_per_request_to_stderr(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "SPADES_PORT": str(port), "SPADES_DB": str(tmp_path / "db.sqlite3")}
    proc = subprocess.Popen([sys.executable, "-m", "spades.cli", "serve"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        while f"127.0.0.1:{port}" not in (line := proc.stdout.readline()):
            assert line, "spades serve stopped before printing its address"
        assert httpx.get(f"http://127.0.0.1:{port}/healthz?x=1").status_code == 200
        line = json.loads(proc.stderr.readline())
        assert {k: line[k] for k in ("method", "path", "status", "client")} == {
            "method": "GET", "path": "/healthz", "status": 200, "client": "127.0.0.1"}
        assert line["ms"] >= 0 and line["time"].endswith("+00:00")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_crash_is_a_json_500_with_the_headers_and_a_log_line(
        tmp_path: Path, access_lines: list[dict[str, Any]]) -> None:
    app = create_app(Settings(db_path=tmp_path / "db.sqlite3"))

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        r = httpx.get(f"http://127.0.0.1:{port}/api/boom")
        assert r.status_code == 500
        assert r.json() == {"detail": "The server failed on this request; it has been logged."}
        assert r.headers["x-content-type-options"] == "nosniff"
        assert [(line["path"], line["status"]) for line in access_lines] == [("/api/boom", 500)]
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_readyz_says_when_the_database_cannot_be_written(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with BackgroundServer(data / "db.sqlite3") as server, httpx.Client(base_url=server.url) as client:
        assert client.get("/readyz").json() == {"status": "ok"}
        shutil.rmtree(data)
        data.write_text("the volume is gone")
        r = client.get("/readyz")
        assert r.status_code == 503 and "db.sqlite3" in r.json()["detail"]
        assert client.get("/healthz").status_code == 200


def test_a_serving_process_hides_its_lasting_objects_from_the_collector(tmp_path: Path) -> None:
    """Once the app is up, what it built is frozen out of full collections, which paused moves under load,
    and the older generations, which hold the games, are seldom walked (each walk paused a process 0.5 s)."""
    with BackgroundServer(tmp_path / "g.sqlite3") as server:
        assert httpx.get(server.url + "/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000
        young, middle, _ = gc.get_threshold()
        assert young >= 10_000
        assert middle >= 100
