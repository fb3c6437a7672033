"""The library installs light: the engine, the bots, the arena and the command line run without
the extras' packages, and a command that needs one names the extra to install."""

import subprocess
import sys
from pathlib import Path

import pytest

EXTRAS_ONLY = ("fastapi", "starlette", "pydantic", "uvicorn", "platformdirs", "websockets", "redis", "fpdf",
               "anyascii", "numpy", "openskill", "ray")
"""The top-level packages only the extras bring (server, redis, pdf, fast) and what they pull in."""

BLOCK = f"""
import importlib.abc, sys
EXTRAS_ONLY = {EXTRAS_ONLY!r}
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in EXTRAS_ONLY:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
"""
"""Python code that makes the extras' packages impossible to import, as in an install without them."""


def run_without_extras(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent)


def test_the_library_the_bots_the_arena_and_a_deal_need_no_extra() -> None:
    done = run_without_extras("""
import spades, spades.bots, spades.arena, spades.cli, spades.paper.scorekeeper, spades.stats
from spades.bots import make_player, play_out
from spades import Game, Rules
play_out(Game(Rules(), deal=5), [make_player("hard")] * 4, hands=1)
assert spades.cli.main(["deal", "1"]) == 0
loaded = sorted({m.partition(".")[0] for m in sys.modules} & set(EXTRAS_ONLY))
assert not loaded, loaded
print("light")
""")
    assert done.returncode == 0, done.stderr
    assert "light" in done.stdout and "North" in done.stdout


@pytest.mark.parametrize(("command", "extra"), [
    (["play", "--no-browser"], "server"), (["serve"], "server"), (["sheets", "--out", "."], "pdf"),
    (["bench", "--seconds", "1"], "fast"), (["arena", "easy", "random", "--deals", "1", "--ray"], "ray"),
    (["tournament", "--format", "swiss", "--entries", "easy,random", "--pdf", "results.pdf"], "pdf"),
])
def test_a_command_that_needs_a_missing_extra_names_it(command: list[str], extra: str) -> None:
    done = run_without_extras(f"import spades.cli; sys.exit(spades.cli.main({command!r}))")
    assert done.returncode == 2, done.stderr
    assert f"pip install 'spades[{extra}]'" in done.stderr and "Traceback" not in done.stderr


def test_the_coachs_child_process_loads_no_web_framework() -> None:
    """Each hand's review runs in a fresh interpreter that imports the coach's module: it must not
    load the web app (FastAPI, the routes, the page, the API's schemas) again for every hand."""
    web = ("fastapi", "starlette", "uvicorn", "spades.server.app", "spades.server.schemas", "pydantic")
    probe = f"import sys, spades.server.analyses; print(sorted(m for m in {web!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
