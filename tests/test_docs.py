"""The README stays a front door, the docs stay readable as text, and the site's generated parts say
what the code says (the whole site is built by ``mkdocs build --strict`` in scripts/test)."""

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from spades.rules import OPTIONS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's target."""


@pytest.fixture(scope="module")
def hooks() -> ModuleType:
    """The docs' hook module (docs/hooks.py is no package: loaded from its file)."""
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_is_short_with_short_lines() -> None:
    """At most 250 lines, each under 110 characters: the details live in docs/."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert [n for n, line in enumerate(lines, 1) if len(line) >= 110] == []


def test_docs_lines_are_short() -> None:
    """Every line of the docs' Markdown is under 110 characters, so it reads as text too."""
    long = [f"{page.relative_to(ROOT)}:{n}" for page in sorted((ROOT / "docs").rglob("*.md"))
            for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if len(line) >= 110]
    assert long == []


def test_readme_links_lead_to_files() -> None:
    """Each relative link in the README leads to a file of the repository."""
    targets = [t.split("#")[0] for t in LINK.findall(README.read_text(encoding="utf-8"))
               if not re.match(r"[a-z]+:|#", t)]
    assert targets, "the README links into docs/"
    assert [t for t in targets if not (ROOT / t).is_file()] == []


def test_rule_options_page_has_every_option_and_choice(hooks: ModuleType) -> None:
    """The generated rule options list each option once, with each of its choices and its bounds."""
    text = hooks.rule_options()
    for o in OPTIONS:
        assert text.count(f"| `{o.name}` |") == 1, o.name
        assert all(f"`{value}`: {label}" in text for value, label in o.choices), o.name
        if o.low is not None:
            assert f"{o.low} to {o.high}" in text, o.name


def test_rule_presets_page_shows_what_each_preset_sets(hooks: ModuleType) -> None:
    """Each preset's row names exactly the options it sets otherwise than the standard game."""
    rows = {line.split("`")[1]: line for line in hooks.rule_presets().splitlines()[2:]}
    assert list(rows) == list(PRESETS)
    assert "`players=3`" in rows["three-player"] and "`bag_penalty=0`" in rows["three-player"]
    assert "`blind_nil=true`" in rows["pagat"] and "players=" not in rows["pagat"]
    assert "none" in rows["standard"]


def test_doctests_are_fenced_and_prose_is_left_alone(hooks: ModuleType) -> None:
    """A doctest (its prompts and output up to a blank line) becomes a code block; the prose does not."""
    docstring = "Prose first.\n\n>>> [1, 2]\n[1, 2]\n\nMore prose.\n    >>> x = 1"
    assert hooks.fence_doctests(docstring) == ("Prose first.\n\n```pycon\n>>> [1, 2]\n[1, 2]\n```\n\n"
                                               "More prose.\n    ```pycon\n    >>> x = 1\n    ```")
