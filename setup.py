"""Build hook: compile the engine's hot modules with mypyc, from the same typed source.

``pyproject.toml`` holds the package's metadata; this file only adds the compiled modules.
mypyc turns ``spades/game.py`` and ``spades/deal.py`` into C extensions that pip builds with
the machine's C compiler; Python imports them in place of the ``.py`` files, which stay the
reference (``tests/test_compiled.py`` plays both and compares them move by move). Set
``SPADES_PURE_PYTHON=1`` to build without them; a failed compile also falls back to pure
Python, with a warning, rather than failing the install.
"""

import os

from setuptools import setup
from setuptools.extension import Extension

COMPILED = ["src/spades/game.py", "src/spades/deal.py"]
"""The modules worth compiling: the state machine every move goes through, and the shuffle.

The others stay interpreted on purpose: their values (``Rules``, ``Bid``, the moves) are built
from untrusted input and validate it themselves, and compiled classes would check field types
(with a TypeError) before that validation could give its precise SpadesError.
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
