"""`spades score` and `spades sheets`: the scorekeeper in a terminal, with the page's checks."""

import io
import json
from pathlib import Path

import pytest

from spades.cli import main
from spades.paper.scorekeeper import ScoreGame

# The reference's three hands, typed as a scorekeeper would: bids, tricks (Enter takes 13 minus
# the first team's), a nil bidder's tricks, and Enter for "nobody reneged".
THREE_HANDS = "2 2\n8\n3 3\n\n\n" "2 2\n7\nnil 5\n6\n0\n\n" "3 2\n8\n3 2\n\n\n"


def run(args: list[str], typed: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(args)
    return code, capsys.readouterr().out


def test_score_three_hands_then_fix_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    code, out = run(["score", "--teams", "Ann & Bo", "Cy & Di", "--file", str(saved)], THREE_HANDS,
                    monkeypatch, capsys)
    assert code == 0
    assert "Ann & Bo 44 (4 bags), Cy & Di -60 (0 bags)." in out
    assert "Ann & Bo 87 (7 bags), Cy & Di 91 (1 bag)." in out
    assert "Ann & Bo 40 (0 bags), Cy & Di 141 (1 bag)." in out
    game = ScoreGame.from_dict(json.loads(saved.read_text()))
    assert [r.totals for r in game.sheet().rows] == [(44, -60), (87, 91), (40, 141)]

    code, out = run(["score", "--file", str(saved)], "fix 1\n2 2\n7\n3 3\n\n\ndrop 3\nquit\n",
                    monkeypatch, capsys)
    assert "Resuming the game" in out
    game = ScoreGame.from_dict(json.loads(saved.read_text()))
    assert [r.totals for r in game.sheet().rows] == [(43, 60), (86, 211)]


def test_score_refuses_impossible_hands(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    typed = ("14 1\n13\n1 1\n\n\n"  # a bid over 13
             "3 3\n6\n3 3\n6\n\n"  # 12 tricks in all
             "3 3\n20\n"  # not a trick count
             "nil 4\n6\n7\n3 3\n\n\n"  # the nil bidder won more than the team
             "drop 9\n")
    code, out = run(["score", "--set", "target=300"], typed, monkeypatch, capsys)
    assert code == 0
    assert "Not scored: Hand 1: Us: a bid of 14 is more than the 13 tricks in a hand." in out
    assert "Not scored: Hand 1: The tricks add up to 6 + 6 = 12, not 13." in out
    assert "Not scored: Tricks for Us: a number from 0 to 13, not '20'." in out
    assert "Not scored: Hand 1: Us: the nil bidder won 7 tricks, more than the team's 6." in out
    assert "Not scored: There is no hand 9: the game has 0." in out


def test_score_plays_to_the_end(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["score", "--set", "target=100"], "5 5\n10\n1 2\n\n\n", monkeypatch, capsys)
    assert code == 0 and "Us win, 100 to 30." in out


def test_score_three_players_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    # Each player's bid and tricks; Enter takes the last player's tricks as 17 minus the others'.
    saved = tmp_path / "three.json"
    typed = "4\n5\n6\n6\n5\n\n\n"
    args = ["score", "--rules", "three-player", "--players", "Ann", "Bo", "Cy", "--file", str(saved)]
    code, out = run(args, typed, monkeypatch, capsys)
    assert code == 0
    assert "Hand 1. Ann bid:" in out and "Cy tricks [6]:" in out
    assert "Ann 30 (1 bag), Bo 60 (0 bags), Cy 40 (1 bag)." in out
    game = ScoreGame.from_dict(json.loads(saved.read_text()))
    assert game.names == ("Ann", "Bo", "Cy") and game.sheet().totals == (30, 60, 40)
    code, out = run(["score", "--rules", "cutthroat"], "3\n4\n4\n4\n2\n5\nnil\n\n2\n", monkeypatch, capsys)
    assert "Player 1 31 (1 bag), Player 2 -40 (0 bags), Player 3 23 (3 bags), Player 4 100 (0 bags)." in out


def test_score_first_hand_without_bids(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["score", "--set", "first_hand_no_bids=true"], "7\n\n" "3 3\n7\n3 3\n\n\n",
                    monkeypatch, capsys)
    assert code == 0
    assert "Hand 1. Us tricks: " in out and "Reneged" not in out.split("Hand 2.")[0]
    assert "Us 70 (0 bags), Them 60 (0 bags)." in out
    assert "Hand 2. Us bids: " in out and "Us 131 (1 bag), Them 120 (0 bags)." in out


def test_score_bad_rules_and_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "cutthroat", "--players", "Ann", "Bo"]) == 2
    assert "These rules keep 4 scores, each player alone: give 4 names, not 2." in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["score", "--file", str(bad)]) == 2
    assert f"Cannot read the game in {bad}" in capsys.readouterr().err


def test_sheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    run(["score", "--file", str(saved)], THREE_HANDS, monkeypatch, capsys)
    code, out = run(["sheets", "--out", str(tmp_path / "pdf"), "--game", str(saved)], "", monkeypatch, capsys)
    assert code == 0
    for name in ("spades-rules.pdf", "spades-score-sheet.pdf"):
        path = tmp_path / "pdf" / name
        assert str(path) in out and path.read_bytes().startswith(b"%PDF-")
    code, out = run(["sheets", "--out", str(tmp_path / "three"), "--rules", "three-player"], "", monkeypatch,
                    capsys)
    landscape = b"/MediaBox [0 0 792.00 612.00]"  # a column group per player: turned to fit three
    assert code == 0 and landscape in (tmp_path / "three" / "spades-score-sheet.pdf").read_bytes()
