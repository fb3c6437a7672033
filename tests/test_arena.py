"""The duplicate arena: a match's figures, its duplicate symmetry, processes, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades import arena
from spades.arena import format_table, run_match
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
