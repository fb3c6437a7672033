"""The scorekeeper's HTTP routes: scoring a whole game, refusals as 4xx with a message, the PDFs."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spades.server.app import AppSettings, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(AppSettings(db_path=tmp_path / "db.sqlite3"))) as c:
        yield c


def team(a: str, b: str, tricks: int, **nil: Any) -> dict[str, Any]:
    first: dict[str, Any] = {"bid": a, **nil}
    return {"players": [first, {"bid": b}], "tricks": tricks}


THREE = [
    {"teams": [team("2", "2", 8), team("3", "3", 5)]},
    {"teams": [team("2", "2", 7), team("nil", "5", 6, kept=True)]},
    {"teams": [team("3", "2", 8), team("3", "2", 5)]},
]


def test_score_the_three_hands(client: TestClient) -> None:
    r = client.post("/api/scorekeeper/score", json={"names": ["Us", "Them"], "hands": THREE})
    assert r.status_code == 200
    body = r.json()
    assert [[t["total"] for t in row["teams"]] for row in body["rows"]] == [[44, -60], [87, 91], [40, 141]]
    assert body["rows"][1]["teams"][1]["bid"] == "nil + 5"
    assert body["rows"][1]["teams"][1]["notes"] == ["made 5 (+50)", "1 bag (+1)", "nil kept (+100)"]
    assert body["rows"][2]["teams"][0]["notes"] == ["made 5 (+50)", "3 bags (+3)", "10 bags reached (-100)"]
    assert body["status"] == "Us 40 (0 bags), Them 141 (1 bag)."
    assert body["winner"] is None and body["tied"] is False


def test_rules_and_edits_are_rescored(client: TestClient) -> None:
    fixed = [{"teams": [team("2", "2", 7), team("3", "3", 6)]}, *THREE[1:]]
    body = client.post("/api/scorekeeper/score", json={"hands": fixed}).json()
    assert body["totals"] == [139, 261]
    body = client.post("/api/scorekeeper/score", json={"rules": {"target": 100}, "hands": THREE[:1]}).json()
    assert body["target"] == 100 and body["winner"] is None
    body = client.post("/api/scorekeeper/score", json={"rules": {"target": 40}, "hands": THREE[:1]}).json()
    assert body["winner"] == 0 and body["status"] == "Team 1 win, 44 to -60."


@pytest.mark.parametrize(("game", "status", "detail"), [
    ({"hands": [{"teams": [team("2", "2", 8), team("3", "3", 6)]}]}, 400,
     "Hand 1: The tricks add up to 8 + 6 = 14, not 13."),
    ({"hands": [{"teams": [team("nil", "4", 6, kept=True, nil_tricks=2), team("3", "3", 7)]}]}, 400,
     "Hand 1: Team 1: a nil marked kept cannot have won 2 tricks."),
    ({"hands": [{"teams": [team("2", "2", 8), team("14", "3", 5)]}]}, 400,
     "Hand 1: Team 2: a bid of 14 is more than the 13 tricks in a hand."),
    ({"rules": {"players": 3}}, 400, "The scorekeeper is for two teams of partners (4 players)."),
    ({"rules": {"target": "lots"}}, 400, "Option target is a whole number, not 'lots'."),
    ({"names": ["", "Them"]}, 400, "Team 1 needs a name of 1 to 40 characters."),
    ({"hands": [{"teams": [team("2", "2", 8)]}]}, 422, "Invalid request: hands.0.teams"),
    ({"hands": [], "extra": 1}, 422, "Invalid request: extra"),
])
def test_refusals_are_4xx_with_a_message(client: TestClient, game: dict[str, Any], status: int,
                                         detail: str) -> None:
    r = client.post("/api/scorekeeper/score", json=game)
    assert r.status_code == status
    assert r.json()["detail"].startswith(detail)


def test_page_and_pdfs(client: TestClient) -> None:
    page = client.get("/scorekeeper")
    assert page.status_code == 200 and "Spades scorekeeper" in page.text
    assert client.get("/static/scorekeeper.js").status_code == 200
    for path in ("/api/scorekeeper/rule-sheet.pdf", "/api/scorekeeper/score-sheet.pdf"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
        assert r.content.startswith(b"%PDF-") and "attachment" in r.headers["content-disposition"]
    filled = client.post("/api/scorekeeper/score-sheet.pdf", json={"names": ["Us", "Them"], "hands": THREE})
    assert filled.status_code == 200 and filled.content.startswith(b"%PDF-")
    sixteen = {"hands": [{"teams": [team("2", "2", 8)] * 2}]}
    bad = client.post("/api/scorekeeper/score-sheet.pdf", json=sixteen)
    assert bad.status_code == 400
