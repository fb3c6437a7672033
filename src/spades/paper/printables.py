"""Printable PDFs for games played with real cards: a one-page rule sheet and a Spades score sheet.

Both are Letter size. Our own words are drawn in fpdf2's built-in fonts (Latin-1); the names a
score sheet is filled in with are drawn in DejaVu Sans, shipped in ``fonts/`` with its licence, so
"Łukasz", "Ελένη" or "Дмитрий" print as written, and a character the font lacks is transliterated
("李雷": "LiLei") or becomes "?", never an error. The rule sheet is written from a ``Rules`` value,
a preset or any mix, and states the rules in force with their numbers. The score sheet comes
blank, or filled in from a ``ScoreGame`` to keep a finished game on paper; it has a column group
per team, or per player where each scores alone.

>>> rule_sheet_pdf()[:5], score_sheet_pdf()[:5]
(b'%PDF-', b'%PDF-')
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path

from anyascii import anyascii
from fpdf import FPDF
from fpdf.fonts import TTFFont

from spades.cards import STANDARD_DECK, Card, Suit, cards_of
from spades.outcome import plural
from spades.paper.scorekeeper import HandRow, ScoreGame
from spades.rules import (
    BidFormat,
    ClubsFirstTrick,
    DeckKind,
    FailedBid,
    FailedNilTricks,
    FirstDealer,
    FirstLead,
    NilRule,
    RenegePenalty,
    Rules,
    TwoPlayerDraw,
    find_preset,
)
from spades.scoring import Bid, SideScore, score_hand

__all__ = [
    "RULE_SHEET_TITLE",
    "SCORE_SHEET_TITLE",
    "new_pdf",
    "printable",
    "rule_sections",
    "rule_sheet_pdf",
    "score_sheet_pdf",
    "table_row",
    "table_text",
    "title_block",
]

RULE_SHEET_TITLE = "Spades: the rules on one page"
SCORE_SHEET_TITLE = "Spades score sheet"
BLANK_ROWS = 22
BLANK_ROWS_WIDE = 18
"""Rows on a landscape sheet, for three or four players alone."""
HAND_COLUMN = 12
SIDE_COLUMNS = (12, 15, 15, 13, 15)
"""Relative widths of a team's or player's Bid, Tricks, Points, Bags and Total columns."""
NAME_FONT = "dejavu"
NAME_FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"
"""DejaVu Sans cut to Latin, Greek, Cyrillic and common symbols (fonts/LICENSE.DejaVu), for names."""
LATIN_1 = frozenset([*range(0x20, 0x7F), *range(0xA0, 0x100)])
"""What the built-in fonts can draw."""
INK = (30, 41, 59)
SHADE = (226, 232, 240)
ACCENT = (15, 76, 129)

# The rule sheet, in our own words, written from a Rules value: (heading, paragraphs) per section.
# A paragraph starting "- " is a bullet. Every number comes from the rules (or from score_hand).

Section = tuple[str, list[str]]

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four"}


def table_text(rules: Rules) -> str:
    """Who plays: "Four players in two partnerships", "Three players, each playing alone"."""
    if rules.has_partners:
        return "Four players in two partnerships"
    alone = ", each playing alone (cutthroat)" if rules.players == 4 else ", each playing alone"
    return f"{_NUMBER_WORDS[rules.players]} players{alone}"


def _who(rules: Rules) -> str:
    """What scores: a team, or a player alone."""
    return "team" if rules.has_partners else "player"


def _trump(rules: Rules) -> str:
    """What one trump is called: a spade, or a trump where jokers (and raised 2s) join the spades."""
    return "spade" if rules.deck is DeckKind.STANDARD else "trump"


def _names(cards: list[Card]) -> str:
    """``the 2 of clubs and the 2 of diamonds``."""
    words = [f"the {c.name}" for c in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _deck(rules: Rules) -> str:
    """The deck and the trump order, read off the rules' deck tables."""
    spec = rules.deck_spec
    if rules.deck is DeckKind.STANDARD:
        return ("Use a standard 52-card deck without jokers; aces rank high and 2s low. Spades are "
                "trump in every hand.")
    removed = [Card(c) for c in cards_of(STANDARD_DECK & ~spec.cards)]
    trumps = sorted(cards_of(spec.trumps), key=lambda c: -spec.power[c])
    raised = [Card(c) for c in trumps if spec.power[c] > 14]
    lowest = Card(trumps[-1])
    top = ", ".join(c.name for c in raised)
    text = (f"Use 52 cards: a standard deck with both jokers added and {_names(removed)} taken out. "
            f"Trumps beat every other suit in every hand. From the top they run {top}, then the ace of "
            f"spades down to the {lowest.name}.")
    odd = [c for c in raised if not c.is_joker and c.suit is not Suit.SPADES]
    if odd:
        text += f" {_names(odd).capitalize()} counts as a spade."
    return text + " Elsewhere aces rank high and 2s low."


def _game(rules: Rules) -> list[str]:
    """Who plays, with which cards, to what score."""
    if rules.has_partners:
        who = "Four players, two teams. Partners sit across the table from each other."
    else:
        who = (f"{_NUMBER_WORDS[rules.players]} players, each playing alone: everyone bids and scores for "
               "themselves.")
    return [f"{who} {_deck(rules)} The first {_who(rules)} to {rules.target} points wins."]


def _deal(rules: Rules) -> list[str]:
    """The first dealer, the deal (or the two-player draw), and the misdeal if played."""
    first = ("Draw for the first deal: the highest card deals." if rules.first_dealer is FirstDealer.HIGH_CARD
             else "Choose the first dealer at random.")
    size = rules.hand_size
    deck = rules.deck_spec.cards.bit_count()
    if rules.players == 2:
        discards = deck - 2 * size
        shown = ("look at the top card without showing it. Keep it and discard the next one face down, "
                 "or discard it and keep the next one"
                 if rules.two_player_draw is TwoPlayerDraw.KEEP_OR_REFUSE
                 else "look at the top two cards, keep one and discard the other face down")
        text = (f"{first} The dealer shuffles and puts the deck face down but deals no cards: the other "
                f"player draws first. Taking turns, {shown}. When the deck runs out each of you holds {size} "
                f"cards; the {discards} discards stay out of play.")
    else:
        left = deck - size * rules.players
        aside = (f" Set the {plural(left, 'card')} left over aside, face down and unseen." if left
                 else "")
        whole = "the whole deck " if not left else ""
        text = (f"{first} Deal {whole}one card at a time, face down, starting at the dealer's left, so each "
                f"player holds {size} cards.{aside}")
    turn = " The players swap roles each hand." if rules.players == 2 else (
        " After each hand the deal moves one seat to the left.")
    paragraphs = [text + turn]
    if rules.misdeal_no_spades:
        who = "anyone on their team has" if rules.has_partners else "they have"
        paragraphs.append(f"- Misdeal: a player dealt no {_trump(rules)}s may show the hand and call a "
                          f"misdeal before {who} bid. The same dealer deals again.")
    return paragraphs


def _bidding(rules: Rules) -> list[str]:
    """The bids allowed, the bidding formats, nil, blind nil and the passes after the bidding."""
    lowest = 0 if rules.nil is NilRule.PLAIN else 1
    first = "the other player" if rules.players == 2 else "the player at the dealer's left"
    text = (f"Starting with {first}, each player says once how many tricks they expect to win, from "
            f"{lowest} to {rules.max_bid}. Nobody passes and no bid can be changed.")
    if rules.has_partners:
        text += (" Partners add their bids: that total is the team's contract, and it does not matter which "
                 "partner wins the tricks.")
    out: list[str] = []
    if rules.first_hand_no_bids:
        out.append(f"The first hand of the game is played without bidding: each {_who(rules)} scores 10 "
                   "points per trick won. Bidding starts with the second hand.")
    out.append(text)
    trumps = _trump(rules) + "s"
    if rules.bid_format is BidFormat.WHIZ:
        out.append(f"- Whiz: bid exactly the number of {trumps} you hold, or nil. With no {trumps}, bid nil.")
    elif rules.bid_format is BidFormat.MIRROR:
        out.append(f"- Mirror: bid exactly the number of {trumps} you hold; with none, your bid is nil.")
    elif rules.bid_format is BidFormat.SUICIDE:
        out.append("- Suicide: in each team one partner bids nil and the other at least 4. The first partner "
                   "to bid chooses which: nil, or 4 or more, and the other partner must bid the other.")
    if rules.min_team_bid:
        n = rules.min_team_bid
        out.append(f"- Board: each team must bid at least {n} between its partners. The second partner "
                   f"makes up the total; after a nil, the second partner bids at least {n}, and may bid nil "
                   f"only if the first already bid {n} or more.")
    if rules.nil is NilRule.NIL:
        own = " The partner's bid alone is the team's contract." if rules.has_partners else ""
        out.append(f"- Nil: a bid of 0 is a promise to win no tricks at all. It is scored on its own: plus "
                   f"{rules.nil_value} if kept, minus {rules.nil_value} if broken.{own}")
    elif rules.nil is NilRule.PLAIN:
        out.append("- A bid of 0 is an ordinary bid with no nil bonus: it is made by winning no tricks.")
    else:
        out.append("- There is no nil: every bid is at least 1.")
    if rules.blind_nil:
        behind = (f", and only when your {_who(rules)} is at least {rules.blind_nil_deficit} points behind"
                  if rules.blind_nil_deficit else ", at any point in the game")
        k = rules.blind_nil_pass
        passing = (f" After the bidding, the blind nil bidder passes {k} cards face down to the partner, who "
                   f"passes {k} back." if k and rules.has_partners else " No cards are passed.")
        out.append(f"- Blind nil: a nil declared before looking at your cards{behind}. It scores plus or "
                   f"minus {rules.blind_nil_value}.{passing}")
    if rules.nil_pass:
        out.append(f"- After the bidding, a player who bid nil passes {rules.nil_pass} cards face down to "
                   f"the partner, who passes {rules.nil_pass} back (not when both partners bid nil).")
    if rules.ten_for_two_hundred:
        made = "10 or more tricks" if rules.ten_for_two_hundred_or_more else "exactly 10 tricks"
        out.append(f"- 10 for 200: after a partner bids a number, the second partner may bid 10 for 200 for "
                   f"the team. {made.capitalize()} between you win 200 points; anything else loses 200.")
    return out


def _first_lead(rules: Rules) -> str:
    """Who leads the first trick, and with what."""
    if rules.first_lead is FirstLead.TWO_OF_CLUBS:
        clubs = rules.deck_spec.suit_masks[Suit.CLUBS]
        low = Card((clubs & -clubs).bit_length() - 1)
        out = ("" if rules.deck_spec.cards.bit_count() == rules.hand_size * rules.players
               else " (if it is out of play, the lowest club dealt)")
        return f"Whoever holds the {low.name}{out} leads it to the first trick."
    who = "The dealer" if rules.first_lead is FirstLead.DEALER else (
        "The non-dealer" if rules.players == 2 else "The player at the dealer's left")
    card = "any card" if rules.spades_led_any_time else f"any card but a {_trump(rules)}"
    return f"{who} leads the first trick with {card}."


def _play(rules: Rules) -> list[str]:
    """What may be played, what wins a trick, when trumps may be led, and the renege penalty."""
    trumps = _trump(rules) + "s"
    text = (f"{_first_lead(rules)} Each player in turn, clockwise, plays one card. Follow the suit led if "
            f"you can; if you cannot, play anything, a {_trump(rules)} included.")
    out = [text if rules.must_beat else text + " You never have to beat the cards already down."]
    if rules.must_beat:
        out.append("- You must also beat the highest card played to the trick so far whenever you can.")
    if rules.clubs_first_trick is ClubsFirstTrick.STRICT:
        out.append("- On the first trick everyone plays their lowest club. A player with no clubs plays a "
                   "heart or a diamond, never a spade unless that is all they hold.")
    elif rules.clubs_first_trick is ClubsFirstTrick.LOOSE:
        out.append("- On the first trick everyone plays their lowest club. A player with no clubs may play "
                   "any card, a spade included.")
    if rules.deck is not DeckKind.STANDARD:
        out.append("- The jokers are trumps: they follow a spade lead, and count as spades for leading too.")
    t = _trump(rules)
    out.append(f"- The highest {t} in the trick wins it. With no {t}, the highest card of the suit led wins."
               " The winner leads the next trick.")
    if rules.spades_led_any_time:
        out.append(f"- {trumps.capitalize()} may be led at any time; they need not be broken first.")
    else:
        out.append(f"- Nobody may lead a {_trump(rules)} until one has been played to an earlier trick "
                   f"({trumps} are broken), unless {trumps} are all the leader has left.")
    side = "team" if rules.has_partners else "player"
    penalty = (f"the {side} that reneged is set" if rules.renege_penalty is RenegePenalty.SET
               else f"3 tricks are added to the bid of the {side} that reneged")
    out.append(f"- Renege (not following suit when you could): {penalty}.")
    return out


def _example(rules: Rules, bid: int, won: int) -> SideScore:
    """Side 0's score, no bags held, when it bids ``bid`` (partners ``bid - 1`` and 1) and wins ``won``."""
    bids = [Bid(1)] * rules.players
    tricks = [0] * rules.players
    bids[0], tricks[0] = Bid(bid), won
    if rules.has_partners:
        bids[0], bids[2], tricks[0], tricks[2] = Bid(bid - 1), Bid(1), won - 1, 1
    tricks[1] = rules.hand_size - won
    return score_hand(rules, bids, tricks, [0] * rules.sides).sides[0]


def _signed(points: int) -> str:
    """``plus 2``, ``minus 20``, ``0``: a part of a score, in words."""
    return "0" if points == 0 else f"plus {points}" if points > 0 else f"minus {-points}"


def _total(points: int) -> str:
    """``52``, ``minus 60``: a hand's score, in words."""
    return str(points) if points >= 0 else f"minus {-points}"


def _per(n: int, what: str) -> str:
    """``plus 1 point for each extra trick``."""
    return f"{'plus' if n > 0 else 'minus'} {plural(abs(n), 'point')} {what}"


def _scoring(rules: Rules) -> list[str]:
    """Every score with its numbers, and a worked example scored by ``score_hand``."""
    who = _who(rules)
    bid = "contract" if rules.has_partners else "bid"
    bags = (f"{_per(rules.bag_value, 'for each extra trick')} (a bag)" if rules.bag_value
            else "nothing for extra tricks (bags)")
    out = [f"- Made the {bid}: 10 points per trick bid, {bags}."]
    out.append({
        FailedBid.MINUS_BID: "minus 10 points per trick bid. Tricks won count for nothing",
        FailedBid.ZERO: "nothing for the hand, neither won nor lost",
        FailedBid.MINUS_SHORT: "minus 10 points per trick short. Tricks won count for nothing",
    }[rules.failed_bid].join(("- Fell short (set): ", ".")))
    if rules.nil is NilRule.NIL:
        nil = f"- Nil kept: plus {rules.nil_value}. Nil broken: minus {rules.nil_value}."
        if rules.blind_nil:
            nil += f" Blind nil: plus or minus {rules.blind_nil_value}."
        if rules.failed_nil_tricks is FailedNilTricks.NEITHER:
            nil += " A broken nil's tricks count for nothing, not even as bags."
        elif not rules.has_partners:
            nil += " A broken nil's tricks count as bags."
        elif rules.failed_nil_tricks is FailedNilTricks.BAGS:
            nil += " A broken nil's tricks do not help the partner's contract, but they do count as bags."
        else:
            nil += " A broken nil's tricks count toward the partner's contract, and as bags beyond it."
        out.append(nil)
    if rules.ten_for_two_hundred:
        ten = "10 or more tricks" if rules.ten_for_two_hundred_or_more else "exactly 10 tricks"
        out.append(f"- 10 for 200: plus 200 for {ten}, minus 200 otherwise.")
    if rules.boston_bonus:
        out.append(f"- A {who} that wins all {rules.hand_size} tricks (a Boston) scores {rules.boston_bonus} "
                   "more.")
    if rules.bag_penalty:
        limit = rules.bag_limit
        example = (f" ({limit - 2} bags plus 3 more: minus {rules.bag_penalty}, and 1 bag left)" if limit > 2
                   else "")
        out.append(f"- Bags are kept across the whole game. Each time a {who}'s bags reach {limit}, the "
                   f"{who} loses {rules.bag_penalty} points and starts counting again; bags past {limit} "
                   f"carry over{example}.")
    else:
        out.append("- There is no bag penalty: bags are not counted from hand to hand.")
    made, setback = _example(rules, 5, 7), _example(rules, 6, 4)
    parts = [f"{made.contract_points} for the bid"]
    if made.bag_points or made.bags_added:
        extra = made.bags_added
        parts.append(f"{_signed(made.bag_points)} for {plural(extra, 'extra trick')}")
    if made.penalty_points:
        parts.append(f"minus {made.penalty_points} for reaching {rules.bag_limit} bags")
    out.append(f"Example: a {who} bids 5 and wins 7 tricks: {', '.join(parts)}: {_total(made.points)} in "
               f"all. Bid 6 and win 4: {_total(setback.points)}.")
    return out


def _winning(rules: Rules) -> list[str]:
    """When the game ends and who wins."""
    who = _who(rules)
    low = f", or sinks to {_total(rules.low_mark)} or below" if rules.low_mark is not None else ""
    both = "both teams" if rules.has_partners else "both players" if rules.players == 2 else "several players"
    return [f"The game ends after the hand in which a {who} reaches {rules.target}{low}. If {both} pass "
            f"{rules.target} in the same hand, the highest score wins; if the top scores are level, play one "
            "more hand. Scores may go below zero."]


def _house(rules: Rules) -> list[str]:
    """The usual house rules this sheet does not use: what to settle before the first deal."""
    out = ["- " + {
        FailedBid.MINUS_BID: "A set scores 0, or minus 10 per trick short, not minus 10 per trick bid.",
        FailedBid.ZERO: "A set costs minus 10 per trick bid, or per trick short, instead of nothing.",
        FailedBid.MINUS_SHORT: "A set costs minus 10 per trick bid, or nothing, instead of per trick short.",
    }[rules.failed_bid]]
    if rules.bag_penalty and rules.bag_value == 1:
        out.append("- No bag penalty, or minus 1 per bag with no penalty.")
    standard_bids = rules.has_partners and rules.bid_format is BidFormat.STANDARD
    if rules.nil is NilRule.NIL and rules.has_partners:
        out.append("- A broken nil's tricks count " + {
            FailedNilTricks.BAGS: "toward the partner's contract, or for nothing.",
            FailedNilTricks.CONTRACT: "only as bags, or for nothing.",
            FailedNilTricks.NEITHER: "as bags, or toward the partner's contract.",
        }[rules.failed_nil_tricks])
    if rules.nil is NilRule.NIL and not rules.blind_nil:
        out.append("- Blind nil: a nil bid before looking at your cards, for double the stake.")
    if standard_bids and not rules.ten_for_two_hundred:
        out.append("- 10 for 200: a team bids exactly 10 tricks for 200 points, or loses 200.")
    if standard_bids and not rules.min_team_bid:
        out.append("- Board: each team must bid at least 4 between its partners.")
    if rules.low_mark is None:
        out.append(f"- A shorter or longer game than {rules.target}, or a low mark such as minus 200 at "
                   f"which a {_who(rules)} loses.")
    return out


def rule_sections(rules: Rules) -> list[Section]:
    """The rule sheet's sections for these rules, in reading order: what the PDF prints.

    >>> [h for h, _ in rule_sections(find_preset("three-player"))][:3]
    ['The game', 'The deal', 'Bidding']
    """
    sections = [("The game", _game(rules)), ("The deal", _deal(rules)), ("Bidding", _bidding(rules)),
                ("Playing the tricks", _play(rules)), ("Scoring each hand", _scoring(rules)),
                ("Winning", _winning(rules)), ("House rules to settle before you start", _house(rules))]
    return [(heading, paragraphs) for heading, paragraphs in sections if paragraphs]


def printable(text: str, glyphs: Container[int] = LATIN_1) -> str:
    """``text`` as a font with these ``glyphs`` can draw it: a missing character transliterated, else "?".

    >>> printable("Łukasz 李雷 😀"), printable("Łukasz", {*range(32, 127), ord("Ł")})
    ('Lukasz LiLei :grinning:', 'Łukasz')
    """
    out = []
    for char in text:
        if ord(char) in glyphs:
            out.append(char)
            continue
        ascii_text = anyascii(char)
        out.append(ascii_text if ascii_text.isprintable() and ascii_text else "?")
    return "".join(out)


def new_pdf(title: str, landscape: bool = False) -> FPDF:
    """A Letter-size document with our margins, title metadata and no automatic page break."""
    pdf = FPDF(orientation="landscape" if landscape else "portrait", unit="mm", format="letter")
    pdf.set_title(title)
    pdf.set_author("Spades (open source)")
    pdf.set_creator("spades.paper.printables")
    pdf.set_margins(16, 14, 16)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    return pdf


def title_block(pdf: FPDF, title: str, subtitle: str) -> None:
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


RULE_SHEET_SIZES = (10.5, 10, 9.5, 9, 8.5, 8, 7.5)
"""Body font sizes tried in turn: the largest at which the sheet fits one page wins."""


def _rule_sheet(rules: Rules, size: float, split: int) -> FPDF:
    """The rule sheet in two columns at one body font size, the second starting at section ``split``.

    A column too full runs on into the next, so the result has more than one page when it does not fit.
    """
    pdf = new_pdf(RULE_SHEET_TITLE)
    title_block(pdf, RULE_SHEET_TITLE,
           f"{table_text(rules)}; the {printable(rules.name)} rules. Print it, keep it by the deck.")
    pdf.set_auto_page_break(True, margin=18)  # the columns stop above the footer line
    with pdf.text_columns(ncols=2, gutter=8, line_height=1.2) as cols:
        for n, (heading, paragraphs) in enumerate(rule_sections(rules)):
            if n == split:
                cols.new_column()
            pdf.set_font("helvetica", "B", size + 2)
            pdf.set_text_color(*ACCENT)
            with cols.paragraph(top_margin=size / 4, bottom_margin=0.5) as par:
                par.write(heading)
            pdf.set_text_color(*INK)
            pdf.set_font("helvetica", "", size)
            for text in paragraphs:
                if text.startswith("- "):
                    with cols.paragraph(top_margin=size / 13, indent=3.5) as par:
                        par.write("\x95 " + text[2:])
                else:
                    with cols.paragraph(top_margin=size / 13) as par:
                        par.write(text)
    pdf.set_auto_page_break(False)
    pdf.set_y(pdf.h - 12)
    pdf.set_font("helvetica", "I", 8)
    pdf.cell(0, 5, "Keep score with the printable Spades score sheet, or with 'spades score' in a terminal.",
             align="C")
    return pdf


def rule_sheet_pdf(rules: Rules | None = None) -> bytes:
    """The one-page rule sheet (Letter) for these rules (the standard game by default).

    It states the rules in force, numbers included, and the usual house rules it leaves out: in the
    largest type that fits, with as many whole sections as fit in the first column.
    """
    rules = rules or find_preset("standard")
    count = len(rule_sections(rules))
    for size in RULE_SHEET_SIZES:
        for split in range(count - 1, 0, -1):
            pdf = _rule_sheet(rules, size, split)
            if pdf.pages_count == 1:
                return bytes(pdf.output())
    raise AssertionError(f"The rule sheet for {rules.name} rules does not fit one page.")


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


def _row_cells(row: HandRow, rules: Rules) -> list[str]:
    """A scored hand's cells: per team or player the bid, tricks, points, bags held and total."""
    return [text for side, line in enumerate(row.entry.lines)
            for text in (line.bid_text(rules), str(line.tricks), f"{row.score.points[side]:+d}",
                         str(row.bags[side]), str(row.totals[side]))]


def table_row(pdf: FPDF, widths: tuple[float, ...], height: float, cells: list[str]) -> None:
    """One row of a table: its borders as lines and each text centred, where ``cell`` would lay
    out each text as a paragraph (several times slower, and a long game has thousands)."""
    x, y = pdf.l_margin, pdf.get_y()
    pdf.rect(x, y, sum(widths), height)
    for width, text in zip(widths, cells, strict=True):
        if text:
            pdf.text(x + (width - pdf.get_string_width(text)) / 2, y + height / 2 + 0.3 * pdf.font_size, text)
        x += width
        pdf.line(x, y, x, y + height)
    pdf.set_y(y + height)


def _fitted(pdf: FPDF, text: str, width: float, size: float) -> float:
    """The largest font size, down to 5 points, at which ``text`` fits ``width`` in the current font."""
    while size > 5 and pdf.get_string_width(text) * size / pdf.font_size_pt > width:
        size -= 0.5
    return size


def _score_heading(pdf: FPDF, names: tuple[str, ...], name_font: tuple[str, str], widths: tuple[float, ...],
                   height: float, size: float) -> None:
    """The score table's two heading rows: Hand, a name over each group of five columns, their labels.

    Drawn with ``cell``: fpdf2's table, which lays out each cell as a paragraph, is 6 times slower.
    """
    x, y = pdf.get_x(), pdf.get_y()
    group = sum(widths[1:1 + len(SIDE_COLUMNS)])
    pdf.set_fill_color(*ACCENT)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("helvetica", "B", size)
    pdf.cell(widths[0], 2 * height, "Hand", border=1, align="C", fill=True)
    for name in names:
        pdf.set_font(*name_font, size=size)
        pdf.set_font_size(_fitted(pdf, name, group - 2, size))
        pdf.cell(group, height, name, border=1, align="C", fill=True)
    pdf.set_xy(x + widths[0], y + height)
    pdf.set_fill_color(*SHADE)
    pdf.set_text_color(*INK)
    pdf.set_font("helvetica", "B", size)
    labels = ("Bid", "Tricks", "Points", "Bags", "Total") * len(names)
    for width, label in zip(widths[1:], labels, strict=True):
        pdf.cell(width, height, label, border=1, align="C", fill=True)
    pdf.set_xy(x, y + 2 * height)


def score_sheet_pdf(game: ScoreGame | None = None, *, rules: Rules | None = None) -> bytes:
    """The Spades score sheet (Letter): per team or player alone the bid, tricks, points, bags and total.

    Blank by default, for ``rules`` (the standard game unless given); given a game, its names
    and every hand are filled in (more pages only when the game ran past the sheet's rows).
    Two columns fit a portrait page; three or four players alone turn it to landscape.
    """
    rules = game.rules if game else rules or Rules()
    sides = rules.sides
    wide = sides > 2
    pdf = new_pdf(SCORE_SHEET_TITLE, landscape=wide)
    rows = game.sheet().rows if game else ()
    who = "team" if rules.has_partners else "player"
    bids = "both team bids" if rules.has_partners else "every bid"
    title_block(pdf, SCORE_SHEET_TITLE,
           f"Write {bids} before the first lead; score after the {rules.hand_size}th trick.")
    pdf.set_font("helvetica", "", 10)
    pdf.cell(95, 7, "Date: ____________________")
    pdf.cell(0, 7, f"Playing to: {rules.target if game else '__________'}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    names = game.names if game else tuple(f"{who.title()} {i + 1}: ________" for i in range(sides))
    name_font = ("helvetica", "B")
    if game:  # names as written: in the Unicode font, which costs its loading only here
        pdf.add_font(NAME_FONT, "", NAME_FONT_FILE)
        font = pdf.fonts[NAME_FONT]
        assert isinstance(font, TTFFont)
        names = tuple(printable(name, font.cmap) for name in names)
        name_font = (NAME_FONT, "")
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.25)
    size = 9 if sides == 4 else 10
    height = 7.4 if wide else 8.2
    per_side = (pdf.epw - HAND_COLUMN) / sides / sum(SIDE_COLUMNS)
    widths = (HAND_COLUMN, *(w * per_side for _ in range(sides) for w in SIDE_COLUMNS))
    _score_heading(pdf, names, name_font, widths, height, size)
    for n in range(max(BLANK_ROWS_WIDE if wide else BLANK_ROWS, len(rows))):
        if pdf.get_y() + height > pdf.h - 14:  # a long game runs on to another page, headed again
            pdf.add_page()
            _score_heading(pdf, names, name_font, widths, height, size)
        cells = [str(n + 1), *(_row_cells(rows[n], rules) if n < len(rows) else [""] * (len(widths) - 1))]
        pdf.set_font("helvetica", "", size)
        table_row(pdf, widths, height, cells)
    pdf.set_auto_page_break(False)
    pdf.set_y(pdf.h - 22)
    pdf.set_font("helvetica", "", 8.5)
    pdf.multi_cell(0, 4.2, _reminder(rules), align="C")
    return bytes(pdf.output())
