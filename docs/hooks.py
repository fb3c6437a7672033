"""MkDocs hooks: what the site shows of the code is made from the code at build time, never restated.

- ``openapi.json``, the server's OpenAPI document from ``create_app(...).openapi()``, which the API page
  shows with Swagger UI served by the site itself (the swagger-ui-tag plugin ships it);
- ``benchmarks/RESULTS.md`` as a page, so that the figures the pages quote link to their source;
- a page's marker lines (``GENERATED``) become what they name: ``<!-- generated: rule-options -->`` the
  rule options, from the ``Rules`` fields' own metadata (``spades.rules.OPTIONS``), ``rule-presets`` what
  each preset sets, ``cli-help COMMAND`` that command's ``--help``, and ``table-commands`` the friends'
  tables' commands, from their types (``spades.server.tables.commands``), and ``protocol-schema TYPE``
  the bot protocol's JSON Schema of that message (``spades/protocol/schema``);
- ``DoctestFences``, a Griffe extension (mkdocstrings loads it), shows the docstrings' doctests as code.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from spades.cli import build_parser
from spades.protocol import schema_of
from spades.rules import OPTIONS, PRESETS, RULE_GROUPS, RuleOption
from spades.server.app import create_app
from spades.server.settings import Settings
from spades.server.tables.commands import COMMANDS

OPENAPI = "reference/openapi.json"
"""Where the OpenAPI document is in the site."""
RESULTS = "benchmarks/RESULTS.md"
"""The measured figures, at the same path in the repository and the site."""


def openapi_document() -> dict[str, Any]:
    """The server's OpenAPI document, from an app on a throwaway SQLite file (no coach, no log)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(db_path=Path(folder) / "openapi.sqlite3", coach_workers=0,
                                  access_log=False))
        try:
            return app.openapi()
        finally:
            app.state.service.store.close()


def as_set(value: object) -> str:
    """A rule option's value as ``--set`` takes it: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def option_values(o: RuleOption) -> str:
    """The values an option takes, for a table cell: each choice with its label, or the bounds."""
    if o.kind == "choice":
        return "<br>".join(f"`{value}`: {label}" for value, label in o.choices)
    if o.kind == "bool":
        return "`true` or `false`"
    bounds = f"{o.low} to {o.high}" if o.low is not None else "a whole number"
    return f"{bounds}, or `null` (none)" if o.kind == "int_or_null" else bounds


def rule_options() -> str:
    """Every rule option by group, as Markdown tables: name, default, values, label and help."""
    parts = []
    for group, heading in RULE_GROUPS:
        rows = [f"| `{o.name}` | `{as_set(o.default)}` | {option_values(o)} | **{o.label}.** {o.help} |"
                for o in OPTIONS if o.group == group]
        parts.append(f"### {heading}\n\n| option | default | values | what it is |\n|---|---|---|---|\n"
                     + "\n".join(rows))
    return "\n\n".join(parts)


def rule_presets() -> str:
    """Every preset with the options it sets otherwise than the standard game, as a Markdown table."""
    rows = []
    for name, rules in PRESETS.items():
        values = rules.to_dict()
        changed = [f"`{o.name}={as_set(values[o.name])}`" for o in OPTIONS if values[o.name] != o.default]
        rows.append(f"| `{name}` | {' '.join(changed) or 'none: every option as its default'} |")
    return "| preset | the options it sets |\n|---|---|\n" + "\n".join(rows)


def cli_help(command: str) -> str:
    """``spades COMMAND --help`` as a code block, 80 columns wide (the page's), whatever the terminal."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    sub: argparse.ArgumentParser = commands[command]
    sub.formatter_class = functools.partial(argparse.HelpFormatter, width=80)
    return "```text\n" + sub.format_help().rstrip() + "\n```"


def table_commands() -> str:
    """Every command a seated person may send, from the command types themselves, as a Markdown table."""
    rows = []
    for do, cls in COMMANDS.items():
        needs = ", ".join(f"`{f.name}`" for f in dataclasses.fields(cls))
        about = " ".join((cls.__doc__ or "").split("\n\n")[0].split()).replace("``", "`")
        rows.append(f"| `{do}` | {needs} | {about} |")
    return "| `do` | with | what it does |\n|---|---|---|\n" + "\n".join(rows)


def protocol_schema(message_type: str) -> str:
    """The bot protocol's JSON Schema of one message, as a code block."""
    return "```json\n" + json.dumps(schema_of(message_type), indent=1) + "\n```"


GENERATED: dict[str, Callable[..., str]] = {
    "protocol-schema": protocol_schema,
    "table-commands": table_commands,
    "rule-options": rule_options,
    "rule-presets": rule_presets,
    "cli-help": cli_help,
}
"""What a page's marker lines may name, and what makes the Markdown that replaces each."""
MARKER = re.compile(r"<!-- generated: (\S+)((?: \S+)*) -->")
"""A marker line: the name in ``GENERATED``, then its arguments."""


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the OpenAPI document and the measured figures to the site."""
    files.append(File.generated(config, OPENAPI, content=json.dumps(openapi_document(), indent=1)))
    repository = Path(config.config_file_path).parent
    files.append(File.generated(config, RESULTS, abs_src_path=str(repository / RESULTS)))
    return files


def generated(line: str) -> str:
    """A line as the site shows it: a marker line replaced by what it names, any other as it is."""
    marker = MARKER.fullmatch(line.strip())
    if marker is None:
        return line
    name, args = marker.group(1), marker.group(2).split()
    if name not in GENERATED:
        raise ValueError(f"Unknown marker {name!r}: the markers are {', '.join(GENERATED)}.")
    return GENERATED[name](*args)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace each marker line of the page with what it stands for."""
    return "\n".join(generated(line) for line in markdown.splitlines()) + "\n"


def fence_doctests(text: str) -> str:
    """A docstring with each doctest (its ``>>>`` lines and their output, up to a blank line) fenced as
    ``pycon`` code, which Markdown would otherwise read as quotes and links."""
    out: list[str] = []
    indent: str | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[:len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        out.append(line)
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctests of every docstring mkdocstrings loads (``fence_doctests``)."""

    def on_instance(self, *, node: object, obj: griffe.Object, agent: object, **kwargs: Any) -> None:
        """Fence the doctests of one object's docstring, as Griffe loads it."""
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
