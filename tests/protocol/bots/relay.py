"""Runs a bot and passes its lines through, writing each, both ways, to a log file (one JSON line each).

``python3 relay.py LOG COMMAND...``: lines to the bot are logged as ``["in", line]``, its own as
``["out", line]``.
"""

import json
import subprocess
import sys
import threading

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 (open for the process's life)
lock = threading.Lock()
bot = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def note(way: str, line: str) -> None:
    """Log one line."""
    with lock:
        log.write(json.dumps([way, line.rstrip("\n")]) + "\n")
        log.flush()


def answers() -> None:
    """The bot's lines, logged and passed on."""
    assert bot.stdout is not None
    for line in bot.stdout:
        note("out", line)
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=answers, daemon=True).start()
assert bot.stdin is not None
for line in sys.stdin:
    note("in", line)
    bot.stdin.write(line)
    bot.stdin.flush()
bot.stdin.close()
bot.wait()
