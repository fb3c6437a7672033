"""The printable rule sheet and score sheet: real PDFs, one Letter page, with their headings.

Checked with poppler's pdfinfo, pdftotext and pdftoppm (./scripts/test installs poppler-utils).
"""

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.paper.printables import (
    RULE_SHEET_TITLE,
    SCORE_SHEET_TITLE,
    printable,
    rule_sheet_pdf,
    score_sheet_pdf,
)
from spades.paper.scorekeeper import MAX_NAME, HandEntry, ScoreGame
from spades.rules import Rules, find_preset


def check_pdf(data: bytes, tmp_path: Path, size: str = "612 x 792") -> str:
    """Write the PDF, check it is one Letter page (portrait unless told) that renders, and return its text."""
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M)
    assert re.search(rf"^Page size:\s+{size} pts", info, re.M)  # US Letter
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")], check=True)
    assert [p.name for p in tmp_path.glob("page*.png")] == ["page-1.png"]
    assert (tmp_path / "page-1.png").stat().st_size > 2000
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_rule_sheet(tmp_path: Path) -> None:
    text = check_pdf(rule_sheet_pdf(), tmp_path)
    for heading in (RULE_SHEET_TITLE, "The deal", "Bidding", "Playing the tricks", "Scoring each hand",
                    "Winning", "House rules to settle before you start"):
        assert heading in text


def test_blank_score_sheet(tmp_path: Path) -> None:
    text = check_pdf(score_sheet_pdf(), tmp_path)
    assert SCORE_SHEET_TITLE in text
    header = next(line for line in text.splitlines() if "Tricks" in line)
    assert header.split() == ["Bid", "Tricks", "Points", "Bags", "Total"] * 2
    assert "Team 1" in text and "Team 2" in text
    assert [line.strip() for line in text.splitlines() if line.strip().isdigit()][-1] == "22"


@pytest.mark.parametrize("hands", [3, 30])
def test_filled_score_sheet(tmp_path: Path, hands: int) -> None:
    game = ScoreGame(names=("Us", "Them"))
    for a, b in [("2 2 : 8", "3 3 : 5"), ("2 2 : 7", "nil 5 : 6"), ("3 2 : 8", "3 2 : 5")]:
        game = game.add(HandEntry.parse(a, b))
    for _ in range(hands - 3):
        game = game.add(HandEntry.parse("4 3 : 6", "4 4 : 7"))  # both set: no end
    data = score_sheet_pdf(game)
    if hands > 22:  # a long game runs on to a second page, headings repeated
        pdf = tmp_path / "long.pdf"
        pdf.write_bytes(data)
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^Pages:\s+2$", info, re.M)
        return
    lines = check_pdf(data, tmp_path).splitlines()
    assert any(line.split()[:2] == ["Us", "Them"] for line in lines if line.strip())
    row = next(line.split() for line in lines if line.split()[:1] == ["2"])
    assert row == ["2", "4", "7", "+43", "7", "87", "nil", "+", "5", "6", "+151", "1", "91"]
    assert "Playing to: 500" in "\n".join(lines)


def test_score_sheets_with_a_column_per_player(tmp_path: Path) -> None:
    game = ScoreGame(find_preset("three-player"), ("Ann", "Bo", "Cy"))
    game = game.add(HandEntry.parse_players("4 : 5", "6 : 6", "5 : 6"))
    lines = check_pdf(score_sheet_pdf(game), tmp_path, size="792 x 612").splitlines()
    assert any(line.split() == ["Ann", "Bo", "Cy"] for line in lines)
    columns = ["Bid", "Tricks", "Points", "Bags", "Total"]
    assert next(line.split() for line in lines if "Tricks" in line) == columns * 3
    assert next(line.split() for line in lines if line.split()[:1] == ["1"]) == [
        "1", "4", "5", "+30", "1", "30", "6", "6", "+60", "0", "60", "5", "6", "+40", "1", "40"]
    assert "minus 10 per extra trick" in "\n".join(lines)
    (tmp_path / "blank").mkdir()
    (tmp_path / "two").mkdir()
    blank = check_pdf(score_sheet_pdf(rules=find_preset("cutthroat")), tmp_path / "blank", size="792 x 612")
    assert all(f"Player {n}" in blank for n in (1, 2, 3, 4))
    assert next(line.split() for line in blank.splitlines() if "Tricks" in line) == columns * 4
    two = check_pdf(score_sheet_pdf(rules=Rules(players=2, first_hand_no_bids=True)), tmp_path / "two")
    assert "Player 1" in two and "Player 2" in two and "First hand: no bids, 10 per trick." in two


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=MAX_NAME).filter(lambda t: t.strip() and t.isprintable()),
                min_size=2, max_size=2, unique=True))
def test_any_names_print(names: list[str]) -> None:
    """Whatever a team is called, the filled score sheet is a PDF (characters not in the font replaced)."""
    game = ScoreGame(names=(names[0], names[1])).add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
    assert score_sheet_pdf(game).startswith(b"%PDF-")
    assert all(text.isprintable() for text in map(printable, names))


def test_a_long_game_runs_on_to_more_pages_headed_again(tmp_path: Path) -> None:
    game = ScoreGame(names=("Us", "Them"), rules=Rules(target=10000))
    for _ in range(30):
        game = game.add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(score_sheet_pdf(game))
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+2$", info, re.M)
    second = subprocess.run(["pdftotext", "-f", "2", "-l", "2", "-raw", str(pdf), "-"], capture_output=True,
                            text=True, check=True).stdout
    assert second.startswith("Hand\nUs Them\nBid Tricks Points Bags Total") and "\n30 4 8 " in second
