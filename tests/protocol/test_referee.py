"""Outside bots as players: the example bots play whole matches; a bot's faults are reported and played
over by the normal level, and the match finishes."""

import contextlib
import json
import sys
import time
from pathlib import Path

import pytest

from protocol.schemas import check
from spades.arena import play_duplicate, run_match
from spades.bots import make_player
from spades.cli import main
from spades.errors import SpadesError
from spades.protocol import ExecPlayer, Roster, check_player, parse_named_bots, referee, resolve_player
from spades.protocol.referee import MAX_RESTARTS
from spades.rules import find_preset
from spades.tournament.run import run_tournament

ROOT = Path(__file__).parents[2]
EXAMPLES = {"python": f"{sys.executable} {ROOT}/examples/bots/bot.py",
            "node": f"node {ROOT}/examples/bots/bot.js"}
BOTS = Path(__file__).parent / "bots"


def faulty(kind: str, *at: int) -> str:
    """The command of the faulty test bot, misbehaving in this way at these decisions."""
    return " ".join([sys.executable, str(BOTS / "faulty.py"), kind, *map(str, at)])


@pytest.mark.parametrize("language", ["python", "node"])
def test_the_example_bots_play_a_whole_duplicate_match(language: str) -> None:
    result = run_match([f"exec:{EXAMPLES[language]}"], ["normal"], deals=1)
    assert result.a.games == 2 and result.hands >= 4
    assert result.a.decisions > 100 and result.a.faults == 0


def test_every_message_both_ways_is_valid_and_the_bot_is_stopped_at_the_end(tmp_path: Path) -> None:
    log = tmp_path / "lines.jsonl"
    command = f"{sys.executable} {BOTS / 'relay.py'} {log} {EXAMPLES['python']}"
    rules = find_preset("jokers").replace(blind_nil=True)
    with ExecPlayer(command) as bot:
        play_duplicate(rules, 5, [bot], [make_player("normal")], hands=2)
        procs = [p.popen for p in bot._procs.values()]
        assert len(procs) == 4 and all(p.poll() is None for p in procs)  # one a seat: A sits in all four
    assert all(p.poll() is not None for p in procs)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    kinds: dict[str, int] = {}
    for _, line in lines:
        message = json.loads(line)
        check(message)
        kinds[message["type"]] = kinds.get(message["type"], 0) + 1
    assert kinds["hello"] == kinds["ready"] == kinds["bye"] == 4
    assert kinds["decide"] == kinds["move"] > 50


@pytest.mark.parametrize(("kind", "fault", "reason"), [
    ("illegal", "illegal", "draw keep is not one of the legal moves"),
    ("garbage", "malformed", "Not JSON"),
    ("crash", "crash", "the process exited with code 3"),
    ("late", "late", "no move in time"),
])
def test_a_fault_is_reported_and_the_normal_level_plays_that_move(kind: str, fault: str, reason: str) -> None:
    with ExecPlayer(faulty(kind, 2, 5), move_seconds=0.5) as bot:
        _, hands, a, _ = play_duplicate(find_preset("standard"), 3, [bot], [make_player("normal")],
                                             hands=1)
    assert hands == 2 and a.decisions == 2 * 2 * 13 + 2 * 2 * 1  # every decision made, the match over
    # twice at each of the four processes (side A sits in every seat over the two tables); a crashed or
    # late process is started again, until the normal level takes its seats for good
    expected = 4 * 2 if kind in ("illegal", "garbage") else MAX_RESTARTS + 1
    assert a.faults == bot.fault_count == len(bot.faults) == expected
    assert bot.restarts == (0 if kind in ("illegal", "garbage") else expected)
    assert {f.kind for f in bot.faults} == {fault}
    assert all(reason in f.reason for f in bot.faults)


def test_answers_twice_are_skipped_and_a_bot_that_never_starts_is_replaced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with ExecPlayer(faulty("stale", 1, 2, 3)) as bot:
        play_duplicate(find_preset("standard"), 3, [bot], [make_player("normal")], hands=1)
    assert bot.fault_count == 0
    monkeypatch.setattr(referee, "START_SECONDS", 0.3)
    with ExecPlayer(faulty("silent")) as bot:
        _, hands, _, _ = play_duplicate(find_preset("standard"), 3, [bot], [make_player("normal")], hands=1)
    assert hands == 2 and bot.restarts == MAX_RESTARTS + 1 == len(bot.faults)
    assert all(f.kind == "crash" and "no ready in time" in f.reason for f in bot.faults)


def test_a_bot_over_its_memory_limit_crashes_and_is_replaced(tmp_path: Path) -> None:
    hog = tmp_path / "hog.py"
    hog.write_text("import sys\nsys.stdin.readline()\nx = bytearray(400 << 20)\n")
    with ExecPlayer(f"{sys.executable} {hog}", memory_mb=200) as bot:
        play_duplicate(find_preset("two-player"), 3, [bot], [make_player("normal")], hands=1)
    assert bot.faults and all(f.kind == "crash" and "exited with code 1" in f.reason for f in bot.faults)


def test_names_and_their_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_player("hard") == "hard"
    assert parse_named_bots(f" mine=exec:{EXAMPLES['python']} ,") == {"mine": f"exec:{EXAMPLES['python']}"}
    roster = Roster(parse_named_bots(f"mine=exec:{EXAMPLES['python']}"))
    assert roster.offers("mine") and roster.player("mine", False).name == "mine"
    assert resolve_player("easy").name == "easy"
    roster.close()
    for text, why in [("mine", "name=exec:COMMAND"), ("mine=normal", "name=exec:COMMAND"),
                      ("Normal=exec:ls", "must be new"), ("normal=exec:ls", "must be new"),
                      ("a=exec:ls,a=exec:ls", "must be new"), ("a=exec:/no/such", "not found"),
                      ("a=exec:'ls", "Cannot read")]:
        with pytest.raises(SpadesError, match=why):
            parse_named_bots(text)
    with pytest.raises(SpadesError, match="at least 16 MB"):
        ExecPlayer("ls", memory_mb=1)
    assert main(["arena", "exec:/no/such/bot", "normal", "--deals", "1"]) == 2
    assert "not found" in capsys.readouterr().err
    out = tmp_path / "match.json"
    assert main(["arena", f"exec:{EXAMPLES['node']}", "normal", "--deals", "1", "--hands", "1", "--quiet",
                 "--json", str(out)]) == 0
    assert json.loads(out.read_text())["a"]["faults"] == 0


def test_an_outside_bot_enters_a_tournament() -> None:
    result = run_tournament("teams", [f"exec:{EXAMPLES['node']}", "normal"], rounds=1, boards=2)
    assert {e.name for e in result.entries} == {f"exec:{EXAMPLES['node']}", "normal"}
    with pytest.raises(SpadesError, match="not found"):
        run_tournament("teams", ["exec:/no/such/bot", "normal"])


def test_what_a_bot_started_is_stopped_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    command = f"sh -c 'sleep 300 & echo $! > {pid_file}; exec {EXAMPLES['python']}'"
    with ExecPlayer(command) as bot:
        play_duplicate(find_preset("two-player"), 3, [bot], [make_player("normal")], hands=1)
    status = Path(f"/proc/{pid_file.read_text().strip()}/status")
    for _ in range(100):  # a killed process dies as soon as it is scheduled: on a busy machine, soon
        with contextlib.suppress(FileNotFoundError):
            if "State:\tZ" not in status.read_text():
                time.sleep(0.05)
                continue
        break
    else:
        raise AssertionError(f"the bot's child lives on: {status.read_text()}")
