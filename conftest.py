"""pytest at the project root: the compiled modules' doctests run on their sources, in tests/test_compiled.py.

Collected here, a compiled module's ``.py`` would clash with the extension Python imports in its place.
"""

import tomllib
from pathlib import Path

COMPILED: list[str] = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text())["tool"]["spades"][
    "compiled"
]
"""The compiled modules' sources, as pyproject.toml lists them for setup.py."""

collect_ignore = COMPILED
