"""A tournament's results on paper: the standings, then every board's traveller (PDF, Letter, landscape).

The tables are the ones ``spades tournament`` prints (``run.standings_table``, ``run.traveller_table``),
drawn with the printable sheets' title and rows; a table that reaches the foot of a page goes on to the
next under its headings again. Names are drawn in the built-in fonts, transliterated where they must be.

>>> from spades.tournament.run import run_tournament
>>> results_pdf(run_tournament("swiss", ["normal", "easy"], boards=1))[:5]
b'%PDF-'
"""

from __future__ import annotations

from fpdf import FPDF

from spades.paper.printables import ACCENT, INK, SHADE, new_pdf, printable, table_row, title_block
from spades.tournament.run import (
    NAMES,
    Table,
    TournamentResult,
    board_title,
    heading,
    standings_table,
    traveller_table,
)

__all__ = ["RESULTS_TITLE", "results_pdf"]

RESULTS_TITLE = "Tournament results"
ROW = 6.2
"""A row's height, in millimetres."""
FOOT = 14
"""The space kept free at the foot of each page, in millimetres."""


def _header(pdf: FPDF, widths: tuple[float, ...], cols: list[str]) -> None:
    """A table's heading row, white on the accent colour."""
    pdf.set_fill_color(*ACCENT)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("helvetica", "B", 9)
    for width, col in zip(widths, cols, strict=True):
        pdf.cell(width, ROW, col, border=1, align="C", fill=True)
    pdf.ln(ROW)
    pdf.set_text_color(*INK)
    pdf.set_font("helvetica", "", 9)


def _table(pdf: FPDF, title: str, table: Table) -> None:
    """A titled table, the names' columns wider; on a new page if its title and first rows do not fit,
    and its headings again on every page it runs on to."""
    cols, rows = table
    weights = [3.0 if c in NAMES else 2.0 if c in ("points", "matchpoints") else 1.0 for c in cols]
    widths = tuple(w * pdf.epw / sum(weights) for w in weights)
    if pdf.get_y() + 4 * ROW > pdf.h - FOOT:
        pdf.add_page()
    pdf.set_font("helvetica", "B", 11)
    pdf.set_fill_color(*SHADE)
    pdf.cell(0, ROW + 1, printable(title), new_x="LMARGIN", new_y="NEXT", fill=True)
    _header(pdf, widths, cols)
    for row in rows:
        if pdf.get_y() + ROW > pdf.h - FOOT:
            pdf.add_page()
            _header(pdf, widths, cols)
        table_row(pdf, widths, ROW, [printable(cell) for cell in row])
    pdf.ln(4)


def results_pdf(result: TournamentResult) -> bytes:
    """The results as a PDF: what was played, the standings, and each board's traveller."""
    pdf = new_pdf(RESULTS_TITLE, landscape=True)
    title_block(pdf, RESULTS_TITLE, printable(heading(result)))
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.25)
    _table(pdf, "Standings", standings_table(result))
    for _, lines, mps in result.travellers():
        _table(pdf, board_title(lines), traveller_table(result, lines, mps))
    return bytes(pdf.output())
