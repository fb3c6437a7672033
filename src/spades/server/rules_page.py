"""The rules page, ``/rules``: the rule sheet's sections and the options' descriptions, as HTML.

It describes the rules asked for (``?rules=PRESET`` and any ``&set=option=value``), written by
``spades.paper.printables.rule_sections`` like the printed sheet, with every option in the words of
``spades.rules.OPTIONS``. The fixed parts (the glossary, the buttons) live in the template.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from string import Template
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from pydantic.json_schema import WithJsonSchema

from spades.errors import RulesError
from spades.paper.printables import rule_sections, table_text
from spades.rules import OPTIONS, PRESETS, RULE_GROUPS, Rules, rules_from_text

__all__ = ["MAX_CHANGES", "Changes", "Preset", "router", "rules_query"]

MAX_CHANGES = 40
"""At most this many ``set=`` changes in one address: more than there are options."""
_TEMPLATE = Template((Path(__file__).parent / "templates" / "rules.html").read_text(encoding="utf-8"))
_STANDARD = PRESETS["standard"]
_SHEETS = "/api/scorekeeper"

router = APIRouter()

Preset = Annotated[str, Query(max_length=40, description="a rules preset: " + ", ".join(PRESETS),
                              json_schema_extra={"enum": list(PRESETS)})]
_CHANGE = WithJsonSchema({"type": "string", "pattern": f"^(?:{'|'.join(o.name for o in OPTIONS)})=.+$"})
"""A rule change's form in the schema; one that has not this form (or names a value the option has not) is
a 400 that says why."""
Changes = Annotated[list[Annotated[str, _CHANGE]] | None, Query(
    alias="set", max_length=MAX_CHANGES, description="option=value changes to the preset, e.g. target=300")]


def rules_query(preset: str, changes: list[str]) -> str:
    """The query string that names these rules to ``/rules`` and the sheet routes."""
    return urlencode([("rules", preset), *(("set", c) for c in changes)])


def _slug(heading: str) -> str:
    """An anchor for a heading: ``Playing the tricks`` -> ``playing-the-tricks``."""
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _paragraphs(paragraphs: list[str]) -> str:
    """A section's paragraphs as HTML; runs of ``- `` paragraphs become one list."""
    out: list[str] = []
    items: list[str] = []
    for text in [*paragraphs, ""]:
        if text.startswith("- "):
            items.append(f"<li>{escape(text[2:])}</li>")
            continue
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items = []
        if text:
            out.append(f"<p>{escape(text)}</p>")
    return "\n".join(out)


def _changes(rules: Rules) -> list[str]:
    """The options unlike the standard game's, as ``label: value``; who plays is ``table_text``'s."""
    return [f"{o.label}: {o.value_text(getattr(rules, o.name))}" for o in OPTIONS
            if o.name not in ("players", "partnerships")
            and getattr(rules, o.name) != getattr(_STANDARD, o.name)]


def _options_table(rules: Rules) -> str:
    """Every option by group, its value here, and what it does; those unlike the standard game marked."""
    rows: list[str] = []
    for key, heading in RULE_GROUPS:
        rows.append(f'<tr class="group"><th colspan="3">{escape(heading)}</th></tr>')
        for o in (o for o in OPTIONS if o.group == key):
            value, standard = getattr(rules, o.name), getattr(_STANDARD, o.name)
            was, mark = "", ""
            if value != standard:
                was = f' <span class="was">(standard: {escape(o.value_text(standard))})</span>'
                mark = ' class="changed"'
            rows.append(f'<tr data-option="{o.name}"{mark}><td>{escape(o.label)}</td>'
                        f"<td>{escape(o.value_text(value))}{was}</td><td>{escape(o.help)}</td></tr>")
    return "\n".join(rows)


def _presets_table() -> str:
    """Each preset: its page, who plays and how it differs from the standard game, its two sheets."""
    rows = []
    for name, rules in PRESETS.items():
        q = escape(rules_query(name, []))
        differs = "; ".join([table_text(rules), *_changes(rules)])
        rows.append(f'<tr><td><a href="/rules?{q}" data-rules-page="{name}">{name}</a></td>'
                    f"<td>{escape(differs)}.</td>"
                    f'<td><a data-preset="{name}" href="{_SHEETS}/rule-sheet.pdf?{q}">Rule sheet</a> · '
                    f'<a href="{_SHEETS}/score-sheet.pdf?{q}">Score sheet</a></td></tr>')
    return ('<section id="sheets">\n<h2>Printable rule sheets</h2>\n<p>Each preset has its own page and a '
            "one-page rule sheet (PDF, Letter) that states its rules with their numbers, to keep by a real "
            'deck, and a score sheet to match. The <a href="/scorekeeper">scorekeeper</a> keeps score for a '
            'game played with real cards.</p>\n<table id="preset-sheets">\n<tr><th>Preset</th>'
            "<th>The table, and what differs from the standard game</th><th>Print</th></tr>\n"
            + "\n".join(rows) + "\n</table>\n<p>Any mix of options has a page too: add "
            "<code>&amp;set=option=value</code> to the address, e.g. "
            '<a href="/rules?rules=standard&amp;set=target%3D300">/rules?rules=standard&amp;set=target=300'
            "</a>; the command line prints its sheets: "
            "<code>spades sheets --rules pagat --set target=300</code>.</p>\n</section>")


def _page(title: str, intro: str, contents: list[tuple[str, str]], sections: str,
          status: int = 200) -> HTMLResponse:
    """The template filled in."""
    items = "".join(f'<li><a href="#{anchor}">{escape(text)}</a></li>' for anchor, text in contents)
    html = _TEMPLATE.substitute(title=escape(title), intro=intro, sections=sections,
                                contents=f'<ul class="contents">{items}</ul>')
    return HTMLResponse(html, status_code=status)


@router.get("/rules", include_in_schema=False)
def rules_page(rules: Preset = "standard", changes: Changes = None) -> HTMLResponse:
    """How to play, for the rules asked for; unknown rules are a 400 page that says why."""
    changes = changes or []
    try:
        chosen = rules_from_text(rules, changes)
    except RulesError as e:
        intro = f'<p class="error" role="alert">{escape(str(e))}</p><p>Choose one of the presets below.</p>'
        return _page("How to play Spades", intro, [("sheets", "Printable rule sheets")], _presets_table(),
                     400)
    sections = rule_sections(chosen)
    q = escape(rules_query(rules, changes))
    intro = (f'<p id="rules-in-force">This page describes the <strong>{escape(chosen.name)}</strong> rules: '
             f"{escape(table_text(chosen))}. Spades are trumps; before each hand everyone says how many "
             "tricks they will take, then tries to take that many: not fewer, and not too many more. "
             f'<a href="{_SHEETS}/rule-sheet.pdf?{q}" id="print-rules">Print these rules</a> · '
             f'<a href="{_SHEETS}/score-sheet.pdf?{q}">a score sheet</a>. Other tables and their '
             'rules: <a href="#sheets">the presets</a>.</p>')
    body = "\n".join(f'<section id="{_slug(h)}">\n<h2>{escape(h)}</h2>\n{_paragraphs(p)}\n</section>'
                     for h, p in sections)
    body += ('\n<section id="options">\n<h2>The options in force</h2>\n<p>Every option, as Settings names '
             "it; a dot marks those that differ from the standard game.</p>\n"
             f'<table id="options-table">\n<tr><th>Option</th><th>Here</th><th>What it does</th></tr>\n'
             f"{_options_table(chosen)}\n</table>\n</section>\n" + _presets_table())
    contents = [(_slug(h), h) for h, _ in sections] + [
        ("options", "The options in force"), ("sheets", "Printable rule sheets"),
        ("words", "Words used in Spades"), ("buttons", "The buttons")]
    title = "How to play Spades" + ("" if chosen == _STANDARD else f": the {chosen.name} rules")
    return _page(title, intro, contents, body)
