"""Build hook: compile the hot modules with mypyc, from the same typed source.

``pyproject.toml`` holds the package's metadata; this file only adds the compiled modules.
mypyc turns the modules pyproject.toml lists (the engine's state machine and shuffle, the
bots' search) into C extensions that pip builds with the machine's C compiler; Python imports
them in place of the ``.py`` files, which stay the reference (``tests/test_compiled.py`` plays
both and compares them move by move). Set ``SPADES_PURE_PYTHON=1`` to build without them; a
failed compile also falls back to pure Python, with a warning, rather than failing the install.
"""

import os
import tomllib

from setuptools import setup
from setuptools.extension import Extension

with open("pyproject.toml", "rb") as f:
    COMPILED: list[str] = tomllib.load(f)["tool"]["spades"]["compiled"]
"""The modules worth compiling (listed in pyproject.toml): the state machine every move goes
through, the shuffle, a hand's score, and the computer players' search.

The others stay interpreted on purpose: their values (``Rules``, ``Bid``, the moves) are built
from untrusted input and validate it themselves, and compiled classes would check field types
(with a TypeError) before that validation could give its precise SpadesError. (``Bid`` has its
module, ``spades.bid``, for that: ``spades.scoring``, compiled, scores the bids.)
"""


def compiled_modules() -> list[Extension]:
    """The mypyc extensions, optional so that a machine without a compiler still installs."""
    if os.environ.get("SPADES_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        print(f"spades: building pure Python (mypyc is not available: {e})")
        return []
    modules: list[Extension] = mypycify(COMPILED, opt_level="3", group_name="spades.engine")
    for ext in modules:
        ext.optional = True
    return modules


setup(ext_modules=compiled_modules())
