"""The scorekeeper's HTTP routes against a real server: scoring a whole game, refusals as 4xx, the PDFs."""

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from spades.paper.scorekeeper import MAX_HANDS, ScoreGame, ScorekeeperError
from spades.server.routes import scorekeeper
from spades.server.run import BackgroundServer


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with BackgroundServer(tmp_path_factory.mktemp("scorekeeper") / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def team(a: str, b: str, tricks: int, **nil: Any) -> dict[str, Any]:
    first: dict[str, Any] = {"bid": a, **nil}
    return {"players": [first, {"bid": b}], "tricks": tricks}


THREE = [
    {"teams": [team("2", "2", 8), team("3", "3", 5)]},
    {"teams": [team("2", "2", 7), team("nil", "5", 6, kept=True)]},
    {"teams": [team("3", "2", 8), team("3", "2", 5)]},
]


def solo(bid: str | None, tricks: int) -> dict[str, Any]:
    return {"tricks": tricks} if bid is None else {"bid": bid, "tricks": tricks}


def test_score_the_three_hands(client: httpx.Client) -> None:
    r = client.post("/api/scorekeeper/score", json={"names": ["Us", "Them"], "hands": THREE})
    assert r.status_code == 200
    body = r.json()
    assert [[t["total"] for t in row["sides"]] for row in body["rows"]] == [[44, -60], [87, 91], [40, 141]]
    assert body["rows"][1]["sides"][1]["bid"] == "nil + 5"
    assert body["rows"][1]["sides"][1]["notes"] == ["made 5 (+50)", "1 bag (+1)", "nil made (+100)"]
    third = body["rows"][2]["sides"]
    assert third[0]["notes"] == ["made 5 (+50)", "3 bags (+3)", "10 bags reached (\u2212100)"]
    assert [(t["contract"], t["made"], t["penalties"]) for t in third] == [(5, True, 1), (5, True, 0)]
    assert body["alone"] is False and body["hand_size"] == 13
    assert body["bids"] == ["nil", *map(str, range(1, 14))]
    assert body["status"] == "Us 40 (0 bags), Them 141 (1 bag)."
    assert body["winner"] is None and body["tied"] is False


def test_rules_and_edits_are_rescored(client: httpx.Client) -> None:
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
    ({"rules": {"players": 3}, "names": ["A", "B"]}, 400,
     "These rules keep 3 scores, each player alone: give 3 names, not 2."),
    ({"rules": {"players": 3}, "hands": [{"teams": [team("2", "2", 8), team("3", "3", 9)]}]}, 400,
     "Hand 1: Each player scores alone under these rules: enter a line per player."),
    ({"rules": {"players": 3}, "hands": [{"players": [solo("4", 5), solo("6", 6), solo("5", 5)]}]}, 400,
     "Hand 1: The tricks add up to 5 + 6 + 5 = 16, not 17."),
    ({"rules": {"players": 2}, "hands": [{"players": [solo("4", 5), solo("blind nil", 8)]}]}, 400,
     "Hand 1: Player 2: these rules do not allow blind nil."),
    ({"rules": {"players": 2}, "hands": [{"players": [solo("4", 5), solo("six", 8)]}]}, 400,
     "Hand 1: Not a bid: 'six'."),
    ({"rules": {"first_hand_no_bids": True}, "hands": [{"teams": [team("2", "2", 8), team("3", "3", 5)]}]},
     400, "Hand 1: Team 1: hand 1 is played without bidding; enter only the tricks."),
    ({"hands": [{"players": [solo("4", 5), solo("4", 8)], "teams": []}]}, 422,
     "Invalid request: hands.0.teams"),
    ({"hands": [{"players": [solo("4", 5)] * 5}]}, 422, "Invalid request: hands.0.players"),
    ({"names": ["A", "B", "C", "D", "E"]}, 422, "Invalid request: names"),
    ({"hands": [{"players": [{"bid": "4"}, {"bid": 4, "tricks": 9}]}]}, 422,
     "Invalid request: hands.0.players.0.tricks"),
    ({"hands": [{"renege": None}]}, 400, "Hand 1: A hand needs a line for each team ('teams') or each"),
    ({"rules": {"target": "lots"}}, 400, "Option target is a whole number, not 'lots'."),
    ({"names": ["", "Them"]}, 400, "Team 1 needs a name of 1 to 40 characters."),
    ({"names": ["Us", "The\u0007m"]}, 400, "Team 2's name has a character that cannot be written"),
    ({"hands": [{"teams": [team("2", "2", 8)]}]}, 422, "Invalid request: hands.0.teams"),
    ({"hands": [], "extra": 1}, 422, "Invalid request: extra"),
    ({"names": ["x" * 41, "Them"]}, 422, "Invalid request: names.0"),
    ({"hands": [{"teams": [team("nil" * 7, "2", 8), team("3", "3", 5)]}]}, 422,
     "Invalid request: hands.0.teams.0.players.0.bid"),
    ({"hands": [{"teams": [team("2", "2", 10**30), team("3", "3", 5)]}]}, 422,
     "Invalid request: hands.0.teams.0.tricks"),
    ({"hands": [{"teams": [team("2", "2", 8), team("3", "3", 5)], "renege": 9}]}, 422,
     "Invalid request: hands.0.renege"),
    ({"hands": [{"teams": [team("3", "3", 5), team("3", "3", 8)]}] * (MAX_HANDS + 1)}, 422,
     "Invalid request: hands"),
])
def test_refusals_are_4xx_with_a_message(client: httpx.Client, game: dict[str, Any], status: int,
                                         detail: str) -> None:
    r = client.post("/api/scorekeeper/score", json=game)
    assert r.status_code == status
    assert r.json()["detail"].startswith(detail)


def test_players_alone_and_a_first_hand_without_bids(client: httpx.Client) -> None:
    game = {"rules": {"preset": "three-player", "first_hand_no_bids": True}, "names": ["Ann", "Bo", "Cy"],
            "hands": [{"players": [solo(None, 6), solo(None, 6), solo(None, 5)]},
                      {"players": [solo("4", 5), solo("6", 6), solo("0", 6)]}]}
    r = client.post("/api/scorekeeper/score", json=game)
    assert r.status_code == 200
    body = r.json()
    assert body["alone"] is True and body["names"] == ["Ann", "Bo", "Cy"]
    assert body["hand_size"] == 17 and body["first_hand_no_bids"] is True
    assert body["bids"] == ["0", *map(str, range(1, 18))]
    assert [[p["total"] for p in row["sides"]] for row in body["rows"]] == [[60, 60, 50], [90, 120, -10]]
    assert [p["bid"] for p in body["rows"][0]["sides"]] == ["-", "-", "-"]
    assert body["rows"][0]["sides"][0]["notes"] == ["no bids: 10 a trick (+60)"]
    assert [p["bid"] for p in body["rows"][1]["sides"]] == ["4", "6", "0"]
    assert body["rows"][1]["sides"][0]["notes"] == ["made 4 (+40)", "1 bag (\u221210)"]
    assert body["rows"][1]["sides"][2]["notes"] == ["made 0 (0)", "6 bags (\u221260)"]
    assert body["status"] == "Ann 90 (1 bag), Bo 120 (0 bags), Cy -10 (6 bags)."
    cutthroat = {"rules": {"preset": "cutthroat", "target": 100},
                 "hands": [{"players": [solo("3", 4), solo("10", 9), solo("nil", 0), solo("nil", 0)],
                            "renege": 0}]}
    body = client.post("/api/scorekeeper/score", json=cutthroat).json()
    assert body["names"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert body["totals"] == [-30, -100, 100, 100] and body["tied"] is True
    assert body["rows"][0]["sides"][0]["notes"] == ["reneged", "set on 3 (\u221230)"]
    assert body["status"] == "Player 3 and Player 4 are level at 100 at the end: one more hand decides it."
    filled = client.post("/api/scorekeeper/score-sheet.pdf", json=game)
    assert filled.status_code == 200 and filled.content.startswith(b"%PDF-")


def test_page_and_pdfs(client: httpx.Client) -> None:
    page = client.get("/scorekeeper")
    assert page.status_code == 200 and "Spades scorekeeper" in page.text
    assert client.get("/static/js/scorekeeper.js").status_code == 200
    for path in ("/api/scorekeeper/rule-sheet.pdf", "/api/scorekeeper/score-sheet.pdf",
                 "/api/scorekeeper/score-sheet.pdf?rules=cutthroat"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
        assert r.content.startswith(b"%PDF-") and "attachment" in r.headers["content-disposition"]
    filled = client.post("/api/scorekeeper/score-sheet.pdf", json={"names": ["Us", "Them"], "hands": THREE})
    assert filled.status_code == 200 and filled.content.startswith(b"%PDF-")
    sixteen = {"hands": [{"teams": [team("2", "2", 8)] * 2}]}
    bad = client.post("/api/scorekeeper/score-sheet.pdf", json=sixteen)
    assert bad.status_code == 400
    unknown = client.get("/api/scorekeeper/score-sheet.pdf?rules=five-player")
    assert unknown.status_code == 400
    assert unknown.json()["detail"].startswith("Unknown rules preset 'five-player'")


def test_names_in_any_script_print_on_the_score_sheet(client: httpx.Client, tmp_path: Path) -> None:
    """Latin, Greek and Cyrillic names print as written; CJK and emoji, not in the font, transliterated."""
    game = {"rules": {"preset": "cutthroat"}, "names": ["Łukasz", "李雷", "Ελένη 😀", "Дмитрий"],
            "hands": [{"players": [solo("3", 4), solo("3", 3), solo("3", 3), solo("3", 3)]}]}
    r = client.post("/api/scorekeeper/score-sheet.pdf", json=game)
    assert r.status_code == 200 and r.content.startswith(b"%PDF-")
    (tmp_path / "names.pdf").write_bytes(r.content)
    text = subprocess.run(["pdftotext", "-raw", str(tmp_path / "names.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Łukasz" in text and "LiLei" in text and "Ελένη :grinning:" in text and "Дмитрий" in text
    assert client.post("/api/scorekeeper/score", json=game).json()["names"] == game["names"]


def test_a_lone_surrogate_in_a_name_is_a_4xx(client: httpx.Client) -> None:
    body = b'{"names": ["Us", "Th\\ud800em"], "hands": []}'
    for path in ("/api/scorekeeper/score", "/api/scorekeeper/score-sheet.pdf"):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith("Invalid request: names.1: Input should be a valid string")
    with pytest.raises(ScorekeeperError, match="Team 2's name has a character that cannot be written"):
        ScoreGame(names=("Us", "Th\ud800em"))  # the same refusal for the terminal and the library


def test_the_longest_game_is_scored_and_printed(client: httpx.Client) -> None:
    """MAX_HANDS hands (a game to the largest target) score and print: the bound is on the work."""
    hand = {"teams": [team("2", "2", 8), team("3", "3", 5)]}
    game = {"rules": {"target": 10000}, "hands": [hand] * MAX_HANDS}
    body = client.post("/api/scorekeeper/score", json=game).json()
    assert len(body["rows"]) == MAX_HANDS and body["winner"] is None
    r = client.post("/api/scorekeeper/score-sheet.pdf", json=game)
    assert r.status_code == 200 and r.content.startswith(b"%PDF-")


def test_pdfs_wait_for_a_free_printer_then_get_a_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every printer busy past the wait, a PDF route answers 503 with Retry-After, then works again."""
    monkeypatch.setattr(scorekeeper, "PRINT_WAIT", 0.05)
    held = [scorekeeper._printers.acquire(timeout=1) for _ in range(scorekeeper.PRINTERS)]
    try:
        assert all(held)
        busy = scorekeeper.rule_sheet("standard", None)
        assert busy.status_code == 503 and busy.headers["retry-after"] == "5"
        assert b"Every printer is busy" in bytes(busy.body)
    finally:
        for _ in held:
            scorekeeper._printers.release()
    assert bytes(scorekeeper.rule_sheet("standard", None).body).startswith(b"%PDF-")
