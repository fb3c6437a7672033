"""Tournaments between computer players: the command, its files, and that its results hold together."""

from __future__ import annotations

import csv
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from spades.cli import main
from spades.errors import TournamentError
from spades.tournament.run import parse_entries, run_tournament

SEATS = "NESW"


def run_json(tmp_path: Path, name: str, *args: str) -> tuple[bytes, dict[str, Any]]:
    out = tmp_path / name
    assert main(["tournament", *args, "--json", str(out)]) == 0
    data = out.read_bytes()
    return data, json.loads(data)


def hands_played(line: dict[str, Any]) -> dict[str, set[str]]:
    """Each seat's cards, read off the table's play: a trick lists its cards from its leader round."""
    held: dict[str, set[str]] = {seat: set() for seat in SEATS}
    for trick in line["play"]:
        leader, cards = trick.split(": ")
        for i, card in enumerate(cards.split()):
            held[SEATS[(SEATS.index(leader) + i) % 4]].add(card)
    return held


def test_duplicate_pairs_same_seed_same_bytes_and_any_jobs(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--entries", "normal,easy,random,normal+easy,easy", "--rounds", "2", "--boards", "2",
            "--seed", "7"]
    first, data = run_json(tmp_path, "a.json", *args)
    again, _ = run_json(tmp_path, "b.json", *args)
    spread, _ = run_json(tmp_path, "c.json", *args, "--jobs", "2")
    assert first == again == spread
    printed = capsys.readouterr().out
    assert "duplicate pairs, 5 entries, 2 rounds of 2 boards" in printed and "matchpoints" in printed

    # Every table of a round holds the same cards on a board, and the matchpoints are the test's own.
    mp: dict[str, int] = {}
    top: dict[str, int] = {}
    assert [t["board"] for t in data["travellers"]] == [1, 2, 3, 4]
    for traveller in data["travellers"]:
        lines = traveller["lines"]
        assert len(lines) == 2  # three tables, one of them the sit-out
        assert all(hands_played(line) == hands_played(lines[0]) for line in lines)
        assert all(len(cards) == 13 for cards in hands_played(lines[0]).values())
        a, b = (line["ns_result"] for line in lines)
        assert all(line["ns_result"] == line["points"][0] - line["points"][1] for line in lines)
        expected = [(2, 0), (0, 2)] if a > b else [(0, 2), (2, 0)] if a < b else [(1, 1), (1, 1)]
        assert [tuple(line["matchpoints"]) for line in lines] == expected
        for line, (ns, ew) in zip(lines, expected, strict=True):
            for name, won in ((line["ns"], ns), (line["ew"], ew)):
                mp[name] = mp.get(name, 0) + won
                top[name] = top.get(name, 0) + 2
    standings = {s["name"]: s for s in data["standings"]}
    assert {name: (s["score"], s["top"]) for name, s in standings.items()} == {
        name: (mp[name], top[name]) for name in standings}
    assert [s["place"] for s in data["standings"]] == sorted(s["place"] for s in data["standings"])
    sat_out = [b for r in data["rounds"] for b in r["byes"]]
    assert len(sat_out) == 2 and len(set(sat_out)) == 2  # a different pair sits out each round


def test_a_computer_pair_fills_an_odd_field(tmp_path: Path) -> None:
    _, data = run_json(tmp_path, "f.json", "--entries", "normal,easy,random", "--fill", "normal",
                       "--rounds", "2", "--boards", "1")
    assert all(len(t["lines"]) == 2 for t in data["travellers"])
    assert [s["name"] for s in data["standings"]] != [] and len(data["standings"]) == 3
    assert any("normal (fill)" in (line["ns"], line["ew"]) for t in data["travellers"] for line in t["lines"])
    assert all(not r["byes"] for r in data["rounds"])


def test_swiss_individual_rotates_partners_and_writes_csv(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "results"
    assert main(["tournament", "--format", "swiss", "--individual", "--entries",
                 "normal,easy,random,normal,easy", "--rounds", "3", "--boards", "1", "--csv", str(folder),
                 "--travellers"]) == 0
    printed = capsys.readouterr().out
    assert "individual Swiss, 5 entries, 3 rounds of 1 boards" in printed and "buchholz" in printed
    assert "Board 3 (deal" in printed
    with (folder / "standings.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 5 and all(int(r["top"]) == 6 for r in rows)  # three matches or byes each
    with (folder / "travellers.csv").open() as f:
        lines = list(csv.DictReader(f))
    assert len(lines) == 3
    partners = [frozenset(side.split(" & ")) for line in lines for side in (line["ns"], line["ew"])]
    assert len(partners) == len(set(partners))  # nobody partners the same player twice


def test_the_results_print_as_a_pdf(tmp_path: Path) -> None:
    pdf = tmp_path / "results.pdf"
    assert main(["tournament", "--entries", "normal,easy,random,easy+random,normal+easy,random", "--rounds",
                 "3", "--boards", "4", "--pdf", str(pdf)]) == 0
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1))  # type: ignore[union-attr]
    assert pages > 1  # twelve travellers run on to more pages
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Tournament results" in text and "duplicate pairs, 6 entries, 3 rounds of 4 boards" in text
    assert all(f"Board {n} (deal" in text for n in range(1, 13))
    standings = text[text.index("Standings"):text.index("Board 1 (deal")]
    names = re.findall(r"^\s+\d\s+(\S+(?: #2)?)\s+\d+\s+48\s", standings, re.M)
    assert sorted(names) == sorted(["normal", "easy", "random", "easy+random", "normal+easy", "random #2"])


def test_teams_play_each_deal_at_two_tables_with_the_seats_swapped() -> None:
    result = run_tournament("teams", ["normal", "easy+random"], rounds=1, boards=2)
    assert [(s.seating.table, s.seating.ns, s.seating.ew) for s in result.scores()] == [
        (0, (0,), (1,)), (0, (0,), (1,)), (1, (1,), (0,)), (1, (1,), (0,))]
    (_, winner), (_, loser) = result.standings()
    margin = sum(s.result_of(0) for s in result.scores())
    assert winner.margin == abs(margin) == -loser.margin
    assert (winner.score, loser.score) == ((2, 0) if margin else (1, 1))
    per_deal = [m for _, lines, _ in result.travellers()  # the first team's margin on each deal, both tables
                for t, m in zip(lines, result.margins(lines), strict=True) if t.score.seating.ns == (0,)]
    assert len(per_deal) == 2 and sum(m for m in per_deal if m is not None) == margin and None not in per_deal


def test_entries_fill_their_seats() -> None:
    pair, mixed, team = parse_entries(["normal", "expert+normal", "easy+random"], 4)
    assert pair.levels == ("normal",) * 4 and mixed.levels == ("expert", "normal") * 2
    assert parse_entries(["easy", "easy"], 2)[1].name == "easy #2"
    assert team.name == "easy+random"


@pytest.mark.parametrize(("args", "message"), [
    (["--entries", "normal,wizard,easy,easy"], "Unknown player level 'wizard'"),
    (["--entries", "normal,easy,random,easy", "--rounds", "3"], "2 rounds at most"),
    (["--entries", "normal,easy,random"], "at least 4 entries"),
    (["--entries", "normal,easy,random,easy", "--rules", "cutthroat"], "four players in two partnerships"),
    (["--entries", "normal,easy,random,easy", "--individual"], "Only Swiss is played by individuals"),
    (["--format", "swiss", "--entries", "normal,easy,random", "--fill", "easy"], "fills only"),
    (["--format", "teams", "--entries", "normal+easy+random,easy"], "names 3 levels"),
    (["--format", "swiss", "--entries", "normal,easy", "--boards", "0"], "at least one board"),
])
def test_bad_requests_say_why(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *args]) == 2
    assert message in capsys.readouterr().err


def test_an_unwritable_file_is_an_error_not_a_crash(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["tournament", "--format", "swiss", "--entries", "easy,random", "--boards", "1",
                 "--json", str(tmp_path / "missing" / "x.json")]) == 2
    assert "Cannot write" in capsys.readouterr().err
    assert main(["tournament", "--format", "swiss", "--entries", "easy,random", "--boards", "1",
                 "--csv", str(blocker)]) == 2
    assert "Cannot make the folder" in capsys.readouterr().err


def test_errors_are_typed() -> None:
    with pytest.raises(TournamentError):
        run_tournament("knockout", ["normal", "easy"])
