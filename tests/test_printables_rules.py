"""The rule sheet written from a Rules value: one Letter page whose text states the rules in force.

Every preset and random option mixes are printed and read back with poppler's pdfinfo and pdftotext;
the sheet's worked example must give the score the engine gives. Then `spades sheets --rules` and the
server's `?rules=` route and the rules page written from the same sections, on a real server.
"""

import re
import subprocess
from html import escape
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings

from rule_mixes import option_mixes
from spades.cli import main
from spades.paper.printables import RULE_SHEET_TITLE, rule_sections, rule_sheet_pdf
from spades.rules import (
    PRESETS,
    BidFormat,
    ClubsFirstTrick,
    DeckKind,
    FailedBid,
    FailedNilTricks,
    FirstLead,
    NilRule,
    RenegePenalty,
    Rules,
    find_preset,
)
from spades.scoring import Bid, score_hand
from spades.server.run import BackgroundServer


def sheet_text(data: bytes, folder: Path) -> str:
    """Check the PDF is one US Letter page and return its text in writing order, on one line."""
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / "rules.pdf"
    pdf.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M), info
    assert re.search(r"^Page size:\s+612 x 792 pts", info, re.M)
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return " ".join(text.split())


def in_words(points: int) -> str:
    return str(points) if points >= 0 else f"minus {-points}"


def example_points(rules: Rules, bid: int, won: int) -> int:
    """What the engine scores side 0 (partners: bids bid-1 and 1) bidding ``bid`` and winning ``won``."""
    bids, tricks = [Bid(1)] * rules.players, [0] * rules.players
    bids[0], tricks[0], tricks[1] = Bid(bid), won, rules.hand_size - won
    if rules.has_partners:
        bids[0], bids[2], tricks[0], tricks[2] = Bid(bid - 1), Bid(1), won - 1, 1
    return score_hand(rules, bids, tricks, [0] * rules.sides).sides[0].points


def check_states(rules: Rules, text: str) -> None:
    """The sheet states the rules in force, with their numbers, and no rule that is not in force."""
    def says(phrase: str, when: bool = True) -> None:
        assert (phrase in text) == when, f"{phrase!r} {'missing' if when else 'stated'} for {rules!r}"

    who = "team" if rules.has_partners else "player"
    says(RULE_SHEET_TITLE)
    says(f"reaches {rules.target}")
    says(f"holds {rules.hand_size} cards")
    says(f"from {0 if rules.nil is NilRule.PLAIN else 1} to {rules.max_bid}")
    says("Four players, two teams.", rules.has_partners)
    says(f"plus {rules.nil_value} if kept, minus {rules.nil_value} if broken", rules.nil is NilRule.NIL)
    says("There is no nil", rules.nil is NilRule.NONE)
    says("no nil bonus", rules.nil is NilRule.PLAIN)
    says("Blind nil: a nil declared before looking at your cards", rules.blind_nil)
    if rules.blind_nil:
        says(f"plus or minus {rules.blind_nil_value}")
        says(f"at least {rules.blind_nil_deficit} points behind", rules.blind_nil_deficit > 0)
        says(f"blind nil bidder passes {rules.blind_nil_pass} cards",
             rules.blind_nil_pass > 0 and rules.has_partners)
    says(f"a player who bid nil passes {rules.nil_pass} cards", rules.nil_pass > 0)
    says(f"Each time a {who}'s bags reach {rules.bag_limit}, the {who} loses {rules.bag_penalty} points",
         rules.bag_penalty > 0)
    says("There is no bag penalty", rules.bag_penalty == 0)
    nil = rules.nil is NilRule.NIL
    says("tricks count toward the partner's contract, and as bags beyond it",
         nil and rules.has_partners and rules.failed_nil_tricks is FailedNilTricks.CONTRACT)
    says("tricks count for nothing, not even as bags",
         nil and rules.failed_nil_tricks is FailedNilTricks.NEITHER)
    if rules.bag_value:
        says(f"{'plus' if rules.bag_value > 0 else 'minus'} {abs(rules.bag_value)} point")
    says({FailedBid.MINUS_BID: "Fell short (set): minus 10 points per trick bid",
          FailedBid.ZERO: "Fell short (set): nothing for the hand",
          FailedBid.MINUS_SHORT: "Fell short (set): minus 10 points per trick short"}[rules.failed_bid])
    says(f"{in_words(example_points(rules, 5, 7))} in all. Bid 6 and win 4: "
         f"{in_words(example_points(rules, 6, 4))}.")
    says(f"must bid at least {rules.min_team_bid} between its partners. The second", rules.min_team_bid > 0)
    says("the second partner may bid 10 for 200", rules.ten_for_two_hundred)
    says("10 or more tricks", rules.ten_for_two_hundred_or_more)
    for fmt in (BidFormat.WHIZ, BidFormat.MIRROR, BidFormat.SUICIDE):
        says(f"{fmt.value.title()}:", rules.bid_format is fmt)
    says("played without bidding", rules.first_hand_no_bids)
    says("call a misdeal", rules.misdeal_no_spades)
    says("The dealer leads the first trick", rules.first_lead is FirstLead.DEALER)
    says("leads it to the first trick", rules.first_lead is FirstLead.TWO_OF_CLUBS)
    says("everyone plays their lowest club", rules.clubs_first_trick is not ClubsFirstTrick.OFF)
    says("You must also beat the highest card", rules.must_beat)
    says("may be led at any time", rules.spades_led_any_time)
    says("sinks to", rules.low_mark is not None)
    says("both jokers added", rules.deck is not DeckKind.STANDARD)
    says("The 2 of diamonds counts as a spade", rules.deck is DeckKind.JOKERS_HIGH_TWOS)
    says("(a Boston)", rules.boston_bonus > 0)
    if rules.boston_bonus:
        says(f"scores {rules.boston_bonus} more")
    if rules.low_mark is not None:
        says(f"sinks to {in_words(rules.low_mark)} or below")
    says("reneged is set", rules.renege_penalty is RenegePenalty.SET)
    says("3 tricks are added", rules.renege_penalty is RenegePenalty.THREE_TRICKS)
    says(f"the {rules.name} rules")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_its_sheet(name: str, tmp_path: Path) -> None:
    rules = find_preset(name)
    check_states(rules, sheet_text(rule_sheet_pdf(rules), tmp_path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=option_mixes())
def test_random_option_mixes_fit_one_page_and_state_their_numbers(rules: Rules, tmp_path: Path) -> None:
    check_states(rules, sheet_text(rule_sheet_pdf(rules), tmp_path / "mix"))


def test_the_busiest_table_still_fits(tmp_path: Path) -> None:
    rules = Rules(blind_nil=True, blind_nil_deficit=200, nil_pass=4, min_team_bid=5, ten_for_two_hundred=True,
                  ten_for_two_hundred_or_more=True, first_hand_no_bids=True, misdeal_no_spades=True,
                  first_lead=FirstLead.TWO_OF_CLUBS, clubs_first_trick=ClubsFirstTrick.STRICT,
                  spades_led_any_time=True, failed_bid=FailedBid.MINUS_SHORT, bag_limit=5, bag_penalty=50,
                  boston_bonus=250, renege_penalty=RenegePenalty.THREE_TRICKS, target=350, low_mark=-250)
    check_states(rules, sheet_text(rule_sheet_pdf(rules), tmp_path))


def test_the_standard_sheet_reads_in_order(tmp_path: Path) -> None:
    text = sheet_text(rule_sheet_pdf(), tmp_path)
    headings = ["The game", "The deal", "Bidding", "Playing the tricks", "Scoring each hand", "Winning",
                "House rules to settle before you start"]
    assert [text.index(h) for h in headings] == sorted(text.index(h) for h in headings)
    assert "Four players in two partnerships; the standard rules." in text
    assert "a team bids 5 and wins 7 tricks: 50 for the bid, plus 2 for 2 extra tricks: 52 in all." in text
    assert "Board: each team must bid at least 4 between its partners." in text  # a house rule not in force


def test_spades_sheets_prints_the_rule_sheet_for_the_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    assert main(["sheets", "--out", str(tmp_path), "--rules", "three-player", "--set", "target=300"]) == 0
    assert str(tmp_path / "spades-rules.pdf") in capsys.readouterr().out
    text = sheet_text((tmp_path / "spades-rules.pdf").read_bytes(), tmp_path / "read")
    assert "Three players, each playing alone; the custom rules." in text
    assert "holds 17 cards. Set the 1 card left over aside" in text and "reaches 300" in text
    assert main(["sheets", "--out", str(tmp_path), "--rules", "no-such-table"]) == 2
    assert "Unknown rules preset 'no-such-table'" in capsys.readouterr().err


def test_the_rule_sheet_route_takes_a_preset(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "spades.sqlite3") as server, httpx.Client(base_url=server.url) as client:
        r = client.get("/api/scorekeeper/rule-sheet.pdf", params={"rules": "cutthroat"})
        assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
        assert 'filename="spades-rules.pdf"' in r.headers["content-disposition"]
        assert "Four players, each playing alone (cutthroat); the cutthroat rules." in sheet_text(
            r.content, tmp_path / "cutthroat")
        standard = client.get("/api/scorekeeper/rule-sheet.pdf")
        assert "the standard rules." in sheet_text(standard.content, tmp_path / "standard")
        bad = client.get("/api/scorekeeper/rule-sheet.pdf", params={"rules": "poker"})
        assert bad.status_code == 400
        assert bad.json()["detail"].startswith("Unknown rules preset 'poker'. Known: standard,")


def test_the_rules_page_states_what_the_sheet_states(tmp_path: Path) -> None:
    """/rules?rules=X&set=... is written from rule_sections, as the sheet is; unknown rules are a 400."""
    with BackgroundServer(tmp_path / "spades.sqlite3") as server, httpx.Client(base_url=server.url) as client:
        queries: tuple[tuple[tuple[tuple[str, str], ...], Rules], ...] = (
            ((("rules", "standard"),), find_preset("standard")),
            ((("rules", "three-player"),), find_preset("three-player")),
            ((("rules", "pagat"), ("set", "target=300"), ("set", "deck=jokers")),
             find_preset("pagat").replace(target=300, deck=DeckKind.JOKERS)))
        for query, rules in queries:
            page = client.get("/rules", params=query)
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            for heading, paragraphs in rule_sections(rules):
                assert f"<h2>{escape(heading)}</h2>" in page.text
                assert all(escape(p.removeprefix("- ")) in page.text for p in paragraphs), heading
        custom = (("rules", "pagat"), ("set", "target=300"))
        sheet = client.get("/api/scorekeeper/rule-sheet.pdf", params=custom)
        text = sheet_text(sheet.content, tmp_path / "custom")
        assert "the custom rules." in text and "reaches 300" in text
        for refused, message in (({"rules": "poker"}, "Unknown rules preset &#x27;poker&#x27;. Known:"),
                                 ({"set": "target"}, "A rule change is option=value, such as target=300"),
                                 ({"set": "colour=red"}, "Unknown rule option &#x27;colour&#x27;."),
                                 ({"set": "target=0"}, "Game to (target) is 10 to 10000, not 0.")):
            bad = client.get("/rules", params=refused)
            assert bad.status_code == 400 and message in bad.text, bad.text
        too_many = client.get("/rules", params=[("set", "target=300")] * 41)
        assert too_many.status_code == 422 and "set" in too_many.json()["detail"]
