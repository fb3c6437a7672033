"""The library-facing commands: a numbered deal played out, written as a record, and replayed."""

import json
from pathlib import Path

import pytest

from spades.cli import main
from spades.record import load_record, replay


def test_deal_writes_a_record_that_replays_to_the_same_scores(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    assert main(["deal", "9", "--hands", "2", "--level", "easy", "--record", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Hand 1 (dealer" in printed and "Hand 2 (dealer" in printed and "trick 13" in printed
    game = replay(load_record(out.read_text()))
    assert len(game.history) == 2
    assert main(["replay", str(out)]) == 0
    assert f"scores side 0: {game.scores[0]}, side 1: {game.scores[1]}" in capsys.readouterr().out


def test_same_deal_number_prints_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["deal", "31", "--rules", "three-player"])
    first = capsys.readouterr().out
    main(["deal", "31", "--rules", "three-player"])
    assert capsys.readouterr().out == first
    assert "East" in first and "North" not in first


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not valid JSON"),
    (json.dumps({"format": "chess"}), "Not a Spades record"),
    (json.dumps({"format": "spades-record", "version": 1, "rules": {}, "deal": 5,
                 "moves": [[2, "play AS"]]}), "Move 0 does not replay"),
    (json.dumps({"format": "spades-record", "version": 1, "rules": {"players": 9}, "deal": 5,
                 "moves": []}), "rules are invalid"),
])
def test_a_corrupt_record_is_refused_with_its_reason(tmp_path: Path, content: str, message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert main(["replay", str(bad)]) == 2
    assert message in capsys.readouterr().err


def test_bad_arguments_are_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "0"]) == 2
    assert "Deal numbers run from 1" in capsys.readouterr().err
    assert main(["deal", "4", "--set", "nil=sometimes"]) == 2
    assert "Option nil is one of" in capsys.readouterr().err
    assert main(["replay", "/nonexistent/record.json"]) == 2
    assert "Cannot read" in capsys.readouterr().err
