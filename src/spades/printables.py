"""Printable PDFs for games played with real cards: a one-page rule sheet and a Spades score sheet.

Both are Letter size and drawn with fpdf2's built-in fonts, so they need no font files. The
score sheet comes blank, or filled in from a ``ScoreGame`` to keep a finished game on paper;
it has a column group per team, or per player where each scores alone.

>>> rule_sheet_pdf()[:5], score_sheet_pdf()[:5]
(b'%PDF-', b'%PDF-')
"""

from __future__ import annotations

from fpdf import FPDF
from fpdf.fonts import FontFace

from spades.rules import FailedBid, NilRule, Rules
from spades.scorekeeper import ScoreGame

__all__ = ["RULE_SHEET_TITLE", "SCORE_SHEET_TITLE", "rule_sheet_pdf", "score_sheet_pdf"]

RULE_SHEET_TITLE = "Spades: the rules on one page"
SCORE_SHEET_TITLE = "Spades score sheet"
BLANK_ROWS = 22
BLANK_ROWS_WIDE = 18
"""Rows on a landscape sheet, for three or four players alone."""
HAND_COLUMN = 12
SIDE_COLUMNS = (12, 15, 15, 13, 15)
"""Relative widths of a team's or player's Bid, Tricks, Points, Bags and Total columns."""
INK = (30, 41, 59)
SHADE = (226, 232, 240)
ACCENT = (15, 76, 129)

# The rule sheet, in our own words: (heading, paragraphs). A paragraph starting "- " is a bullet.
_RULES: list[tuple[str, list[str]]] = [
    ("The game", [
        "Four players, two teams. Partners sit across the table from each other. Use a standard "
        "52-card deck without jokers; aces rank high and 2s low. Spades are trump in every hand. "
        "The first team to 500 points wins.",
    ]),
    ("The deal", [
        "Draw for the first deal: the highest card deals. Deal the whole deck one card at a time, "
        "face down, starting at the dealer's left, so each player holds 13 cards. After each "
        "hand the deal moves one seat to the left.",
    ]),
    ("Bidding", [
        "Starting at the dealer's left, each player says once how many tricks they expect to "
        "win, from 1 to 13. Nobody passes and no bid can be changed. Partners add their bids: "
        "that total is the team's contract, and it does not matter which partner wins the tricks.",
        "- Nil: a bid of 0 is a promise to win no tricks at all. It is scored on its own: plus 100 "
        "if kept, minus 100 if broken. The partner's bid is the team's contract.",
        "- Blind nil (if your table allows it): a nil declared before looking at your cards, "
        "usually only when your team is 100 or more points behind. It scores 200 or minus 200. "
        "After bidding, the blind nil bidder and partner may swap 2 cards face down.",
    ]),
    ("Playing the tricks", [
        "The player at the dealer's left leads the first trick with any card but a spade. Each "
        "player in turn, clockwise, plays one card. Follow the suit led if you can; if you "
        "cannot, play anything, a spade included. You never have to beat the cards already down.",
        "- The highest spade in the trick wins it. With no spade, the highest card of the suit "
        "led wins. The winner leads the next trick.",
        "- Nobody may lead a spade until a spade has been played to an earlier trick (spades are "
        "broken), unless spades are all the leader has left.",
    ]),
    ("Scoring each hand", [
        "- Made the contract: 10 points per trick bid, plus 1 point for each extra trick (a bag).",
        "- Fell short (set): minus 10 points per trick bid. Tricks won count for nothing.",
        "- Nil kept: plus 100. Nil broken: minus 100. Blind nil: plus or minus 200. A broken nil's "
        "tricks do not help the partner's contract, but they do count as bags.",
        "- Bags are kept across the whole game. Each time a team reaches 10, it loses 100 points "
        "and starts counting again; bags past 10 carry over (8 bags plus 3 more: minus 100, and "
        "1 bag left).",
        "Example: a team bids 5 and wins 7 tricks. It scores 50 plus 2 bags, 52 in all.",
    ]),
    ("Winning", [
        "The game ends after the hand in which a team reaches 500. If both teams pass 500 in the "
        "same hand, the higher score wins; if the scores are level, play one more hand. Scores "
        "may go below zero.",
    ]),
    ("House rules to settle before you start", [
        "- A set scores 0, or minus 10 per trick short, instead of minus 10 per trick bid.",
        "- No bag penalty, or minus 1 per bag with no penalty.",
        "- A broken nil's tricks count toward the partner's contract, or for nothing at all.",
        "- 10 for 200: a team bids exactly 10 tricks for 200 points, or loses 200.",
        "- Board: each team must bid at least 4 between its partners.",
        "- Renege (failing to follow suit when you could): the team is set, or 3 tricks are "
        "added to its contract.",
        "- A shorter game to 200 or 300, a longer one to 1000, or a low mark such as minus 200 "
        "at which a team loses.",
    ]),
]


_SECOND_COLUMN = "Scoring each hand"


def _new_pdf(title: str, landscape: bool = False) -> FPDF:
    """A Letter-size document with our margins, title metadata and no automatic page break."""
    pdf = FPDF(orientation="landscape" if landscape else "portrait", unit="mm", format="letter")
    pdf.set_title(title)
    pdf.set_author("Spades (open source)")
    pdf.set_creator("spades.printables")
    pdf.set_margins(16, 14, 16)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    return pdf


def _title(pdf: FPDF, title: str, subtitle: str) -> None:
    """The big heading with a spade mark, a subtitle line and a rule under them."""
    pdf.set_text_color(*INK)
    pdf.set_font("zapfdingbats", size=22)
    pdf.set_text_color(*ACCENT)
    pdf.cell(10, 11, "\xab")  # the spade in ZapfDingbats
    pdf.set_text_color(*INK)
    pdf.set_font("helvetica", "B", 22)
    pdf.cell(0, 11, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", "", 10)
    pdf.cell(0, 6, subtitle, new_x="LMARGIN", new_y="NEXT")
    pdf.set_draw_color(*ACCENT)
    pdf.set_line_width(0.6)
    pdf.line(pdf.l_margin, pdf.get_y() + 1.5, pdf.w - pdf.r_margin, pdf.get_y() + 1.5)
    pdf.ln(4)


def rule_sheet_pdf() -> bytes:
    """The one-page rule sheet (Letter) for the standard partnership game and its house rules."""
    pdf = _new_pdf(RULE_SHEET_TITLE)
    _title(pdf, RULE_SHEET_TITLE, "Four players in two partnerships. Print it, keep it by the deck.")
    pdf.set_auto_page_break(False, margin=18)  # the columns stop above the footer line
    with pdf.text_columns(ncols=2, gutter=8, line_height=1.2) as cols:
        for heading, paragraphs in _RULES:
            if heading == _SECOND_COLUMN:
                cols.new_column()
            pdf.set_font("helvetica", "B", 12.5)
            pdf.set_text_color(*ACCENT)
            with cols.paragraph(top_margin=2.5, bottom_margin=0.5) as par:
                par.write(heading)
            pdf.set_text_color(*INK)
            pdf.set_font("helvetica", "", 10.5)
            for text in paragraphs:
                if text.startswith("- "):
                    with cols.paragraph(top_margin=0.8, indent=3.5) as par:
                        par.write("\x95 " + text[2:])
                else:
                    with cols.paragraph(top_margin=0.8) as par:
                        par.write(text)
    pdf.set_y(pdf.h - 12)
    pdf.set_font("helvetica", "I", 8)
    pdf.cell(0, 5, "Keep score with the printable Spades score sheet, or with 'spades score' in a terminal.",
             align="C")
    return bytes(pdf.output())


def _reminder(rules: Rules) -> str:
    """The scoring rules in two short lines, for the foot of a score sheet."""
    if rules.bag_value == 1:
        made = "Made: 10 per trick bid + 1 per bag."
    elif rules.bag_value == -10:
        made = "Made: 10 per trick bid, minus 10 per extra trick."
    else:
        made = f"Made: 10 per trick bid, {rules.bag_value:+d} per bag."
    setback = {FailedBid.MINUS_BID: "Set: minus 10 per trick bid.", FailedBid.ZERO: "Set: nothing.",
               FailedBid.MINUS_SHORT: "Set: minus 10 per trick short."}[rules.failed_bid]
    nil = {NilRule.NIL: f"Nil: +/-{rules.nil_value}.", NilRule.PLAIN: "A bid of 0 earns no bonus.",
           NilRule.NONE: "No nil: bid at least 1."}[rules.nil]
    first = [made, setback, nil]
    if rules.blind_nil:
        first.append(f"Blind nil: +/-{rules.blind_nil_value}.")
    second = []
    if rules.bag_penalty:
        second.append(f"Every {rules.bag_limit} bags: minus {rules.bag_penalty}, and keep counting from"
                      " the bags left over.")
    if rules.first_hand_no_bids:
        second.append("First hand: no bids, 10 per trick.")
    second.append(f"First to {rules.target} wins; level at the end: one more hand.")
    return "   ".join(first) + "\n" + "   ".join(second)


def score_sheet_pdf(game: ScoreGame | None = None, *, rules: Rules | None = None) -> bytes:
    """The Spades score sheet (Letter): per team or player alone the bid, tricks, points, bags and total.

    Blank by default, for ``rules`` (the standard game unless given); given a game, its names
    and every hand are filled in (more pages only when the game ran past the sheet's rows).
    Two columns fit a portrait page; three or four players alone turn it to landscape.
    """
    rules = game.rules if game else rules or Rules()
    sides = rules.sides
    wide = sides > 2
    pdf = _new_pdf(SCORE_SHEET_TITLE, landscape=wide)
    rows = game.sheet().rows if game else ()
    who = "team" if rules.has_partners else "player"
    bids = "both team bids" if rules.has_partners else "every bid"
    _title(pdf, SCORE_SHEET_TITLE,
           f"Write {bids} before the first lead; score after the {rules.hand_size}th trick.")
    pdf.set_font("helvetica", "", 10)
    pdf.cell(95, 7, "Date: ____________________")
    pdf.cell(0, 7, f"Playing to: {rules.target if game else '__________'}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    names = game.names if game else tuple(f"{who.title()} {i + 1}: ________" for i in range(sides))
    head = FontFace(emphasis="BOLD", color=(255, 255, 255), fill_color=ACCENT)
    sub = FontFace(emphasis="BOLD", color=INK, fill_color=SHADE)
    pdf.set_auto_page_break(True, margin=14)
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.25)
    size = 9 if sides == 4 else 10
    per_side = (pdf.epw - HAND_COLUMN) / sides / sum(SIDE_COLUMNS)
    widths = (HAND_COLUMN, *(w * per_side for _ in range(sides) for w in SIDE_COLUMNS))
    pdf.set_font("helvetica", "", size)
    with pdf.table(col_widths=widths, text_align="CENTER", line_height=7.4 if wide else 8.2,
                   num_heading_rows=2, first_row_as_headings=True, headings_style=head) as table:
        top = table.row()
        top.cell("Hand", rowspan=2)
        for name in names:
            top.cell(name, colspan=len(SIDE_COLUMNS))
        columns = table.row(style=sub)
        for _ in names:
            for label in ("Bid", "Tricks", "Points", "Bags", "Total"):
                columns.cell(label)
        for n in range(max(BLANK_ROWS_WIDE if wide else BLANK_ROWS, len(rows))):
            line = table.row()
            line.cell(str(n + 1))
            if n < len(rows):
                row = rows[n]
                for side, entry in enumerate(row.entry.lines):
                    for text in (entry.bid_text(rules), str(entry.tricks), f"{row.score.points[side]:+d}",
                                 str(row.bags[side]), str(row.totals[side])):
                        line.cell(text)
            else:
                for _ in range(len(SIDE_COLUMNS) * sides):
                    line.cell("")
    pdf.set_auto_page_break(False)
    pdf.set_y(pdf.h - 22)
    pdf.set_font("helvetica", "", 8.5)
    pdf.multi_cell(0, 4.2, _reminder(rules), align="C")
    return bytes(pdf.output())
