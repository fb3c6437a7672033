"""The duplicate arena: a match's figures, its duplicate symmetry, processes, and the command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from spades import arena
from spades.arena import format_table, progress_bar, run_match
from spades.bots import SearchPlayer
from spades.cli import main
from spades.errors import SpadesError
from spades.rules import find_preset


def test_a_heuristic_beats_random_and_the_figures_add_up() -> None:
    result = run_match(["normal"], ["random"], deals=3, hands=2, seed=4)
    assert result.deals == 3
    assert result.hands == 3 * 2 * 2  # two tables per deal
    assert result.margin > 0
    assert result.a.contracts + result.b.contracts == 2 * result.hands
    assert result.a.made + result.a.set == result.a.contracts
    assert result.a.decisions > 0 and result.a.p95_ms >= 0
    table = format_table(result)
    assert "margin per hand" in table and "nil bids made" in table


def test_identical_deterministic_sides_tie_exactly() -> None:
    # Duplicate: both tables see the same cards with the seats swapped, so equal players tie.
    result = run_match(["normal"], ["normal"], deals=2, hands=1)
    assert result.margin == 0 and result.ci95 == 0


def test_whole_games_count_games_won() -> None:
    result = run_match(["normal"], ["random"], deals=1, rules=find_preset("standard").replace(target=150))
    assert result.a.games == 2 and result.a.games_won == 2


def test_mixed_teams_and_other_table_sizes() -> None:
    mixed = run_match(["normal", "easy"], ["random"], deals=1, hands=1)
    assert mixed.a.players == ("normal", "easy")
    three = run_match(["normal"], ["random"], deals=1, hands=1, rules=find_preset("three-player"))
    assert three.hands == 3  # one table per seat


def test_a_match_of_single_hands_tells_the_searching_players_so() -> None:
    """One hand per deal is scored alone, so the search values it alone; whole games weigh bags."""
    for hands, alone in ((1, True), (2, False)):
        arena._PLAYERS.clear()
        run_match(["hard"], ["normal"], deals=1, hands=hands, seed=3)
        searching = [p for p in arena._PLAYERS.values() if isinstance(p, SearchPlayer)]
        assert searching and all(p.hand_alone is alone for p in searching)


def test_processes_give_the_same_figures() -> None:
    one = run_match(["normal"], ["easy"], deals=2, hands=1, seed=2)
    two = run_match(["normal"], ["easy"], deals=2, hands=1, seed=2, jobs=2)
    assert two.margin == pytest.approx(one.margin)
    assert (two.a.made, two.b.nils) == (one.a.made, one.b.nils)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(SpadesError, match="Unknown player level"):
        run_match(["wizard"], ["random"], deals=1)
    with pytest.raises(SpadesError, match="at least one deal"):
        run_match(["normal"], ["random"], deals=0)


def test_the_arena_command_prints_a_table_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    out = tmp_path / "match.json"
    code = main(["arena", "normal", "random", "--deals", "2", "--hands", "1", "--quiet", "--json", str(out)])
    assert code == 0
    assert "margin per hand" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["deals"] == 2 and data["a"]["players"] == ["normal"]
    assert data["ci95_low"] <= data["margin_per_hand"] <= data["ci95_high"]
    assert main(["arena", "normal", "wizard", "--deals", "1", "--quiet"]) == 2


def arena_command(stderr: int | IO[str], deals: int) -> None:
    """``spades arena random random`` in a process of its own, its standard error to ``stderr``."""
    code = "import sys; from spades.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "arena", "random", "random", "--deals", str(deals),
                           "--hands", "1"], stderr=stderr, stdout=subprocess.PIPE, timeout=120, check=True)
    assert b"margin per hand" in done.stdout


def test_on_a_terminal_the_arena_draws_its_bar_over_itself() -> None:
    parent, child = os.openpty()
    try:
        arena_command(child, deals=3)
        os.close(child)
        seen = b""
        while chunk := _read_or_end(parent):
            seen += chunk
    finally:
        os.close(parent)
    text = seen.decode()
    assert text.count("\r[") == 3 and text.rstrip("\r\n").count("\n") == 0
    assert re.search(r"\r\[#{10}\.{20}\] 1/3 deals, \d+s, \d+s left", text)
    assert re.search(r"\r\[#{30}\] 3/3 deals, \d+s, 0s left \r?\n$", text)


def _read_or_end(fd: int) -> bytes:
    """The next bytes a terminal's other end holds; b"" once its last writer has closed it."""
    try:
        return os.read(fd, 4096)
    except OSError:  # Linux: EIO once the other end is closed and drained
        return b""


def test_into_a_file_the_arena_writes_a_plain_line_now_and_then(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with log.open("w") as f:
        arena_command(f, deals=12)
    text = log.read_text()
    lines = text.splitlines()
    assert "\r" not in text and all(re.fullmatch(r"\d+/12 deals, \d+s, \d+s left", ln) for ln in lines)
    assert [ln.split("/")[0] for ln in lines] == ["2", "3", "4", "5", "6", "8", "9", "10", "11", "12"]


def test_into_a_pipe_a_line_each_tenth_of_the_deals() -> None:
    read, write = os.pipe()
    with os.fdopen(read) as reader:
        with os.fdopen(write, "w") as writer:
            show = progress_bar(writer)
            for done in range(1, 26):
                show(done, 25)
        lines = reader.read().splitlines()
    assert [ln.split(" ")[0] for ln in lines] == ["3/25", "5/25", "8/25", "10/25", "13/25", "15/25", "18/25",
                                                  "20/25", "23/25", "25/25"]
