"""Rules: presets by name and alias, options that combine, and contradictions refused."""

import dataclasses
from enum import Enum

import pytest

from spades.cards import Card
from spades.errors import RulesError
from spades.rules import (
    OPTIONS,
    PRESETS,
    RULE_GROUPS,
    BidFormat,
    ClubsFirstTrick,
    DeckKind,
    FailedBid,
    FailedNilTricks,
    FirstDealer,
    FirstLead,
    NilRule,
    RuleOption,
    Rules,
    find_preset,
    option,
    preset_names,
)


def test_main_rules_are_the_defaults() -> None:
    r = Rules()
    assert (r.players, r.has_partners, r.nil, r.nil_value, r.blind_nil) == (4, True, NilRule.NIL, 100, False)
    assert (r.failed_bid, r.bag_limit, r.bag_penalty, r.target) == (FailedBid.MINUS_BID, 10, 100, 500)
    assert r.first_lead is FirstLead.LEFT_OF_DEALER and r.first_dealer is FirstDealer.HIGH_CARD
    assert find_preset("standard") == r


def test_one_preset_per_column_of_the_sources_table() -> None:
    bicycle = find_preset("bicycle")
    assert not bicycle.has_partners and bicycle.failed_bid is FailedBid.ZERO and bicycle.nil is NilRule.NONE
    pagat = find_preset("pagat")
    assert pagat.has_partners and pagat.blind_nil and pagat.failed_bid is FailedBid.MINUS_BID
    assert pagat.first_dealer is FirstDealer.RANDOM and pagat.blind_nil_deficit == 100
    assert pagat.blind_nil_pass == 2 and pagat.blind_nil_value == 200
    assert find_preset("this page") == Rules()


def test_player_count_presets() -> None:
    three = find_preset("3p")
    assert (three.players, three.hand_size, three.nil, three.first_lead) == (
        3, 17, NilRule.PLAIN, FirstLead.TWO_OF_CLUBS)
    assert three.bag_value == -10 and three.bag_penalty == 0 and three.sides == 3
    two = find_preset("two")
    assert (two.players, two.hand_size, two.sides, two.has_partners) == (2, 13, 2, False)
    cut = find_preset("cutthroat")
    assert cut.players == 4 and cut.sides == 4 and cut.partner(0) is None


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_by_name_and_round_trip(name: str) -> None:
    rules = find_preset(name.upper().replace("-", " "))
    assert rules is PRESETS[name] and rules.name == name
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"preset": name}) == rules


@pytest.mark.parametrize(("alias", "name"), [("main", "standard"), ("Bicycle Cards", "bicycle"),
                                             ("3", "three-player"), ("2p", "two-player"),
                                             ("no_partners", "cutthroat"), ("joker", "jokers"),
                                             ("high twos", "jokers-high-twos")])
def test_aliases(alias: str, name: str) -> None:
    assert find_preset(alias) is PRESETS[name]
    assert name in preset_names()


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(RulesError, match=r"Unknown rules preset 'hearts'\. Known: standard"):
        find_preset("hearts")


def test_compatible_options_combine() -> None:
    r = Rules(blind_nil=True, blind_nil_deficit=0, blind_nil_value=100, nil_value=50, nil_pass=4,
              min_team_bid=4, ten_for_two_hundred=True, ten_for_two_hundred_or_more=True,
              first_hand_no_bids=True, misdeal_no_spades=True, first_lead=FirstLead.TWO_OF_CLUBS,
              clubs_first_trick=ClubsFirstTrick.LOOSE, failed_bid=FailedBid.MINUS_SHORT,
              bag_value=-1, bag_penalty=0, failed_nil_tricks=FailedNilTricks.NEITHER,
              boston_bonus=200, target=300, low_mark=-200)
    assert r.replace(target=1000).target == 1000 and r.replace(target=1000).name == "custom"
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules(partnerships=False, must_beat=True, deck=DeckKind.JOKERS_HIGH_TWOS).must_beat
    assert Rules(players=3, partnerships=False, target=300).target == 300


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 5}, r"Players \(players\) is 2 to 4, not 5"),
    ({"nil": NilRule.NONE, "blind_nil": True}, "Blind nil needs nil bids"),
    ({"nil_pass": 2, "nil": NilRule.PLAIN}, "nil pass needs nil bids"),
    ({"nil_pass": 2, "partnerships": False}, "nil pass needs partners"),
    ({"nil_pass": 5}, r"\(nil_pass\) is 0 to 4"),
    ({"min_team_bid": 4, "players": 3}, "Board"),
    ({"min_team_bid": 14}, r"\(min_team_bid\) is 0 to 13"),
    ({"bid_format": BidFormat.SUICIDE, "partnerships": False}, "Suicide needs partners"),
    ({"bid_format": BidFormat.WHIZ, "nil": NilRule.NONE}, "Whiz needs nil"),
    ({"ten_for_two_hundred": True, "players": 2}, "needs partners"),
    ({"ten_for_two_hundred_or_more": True}, "needs the 10 for 200 option"),
    ({"clubs_first_trick": ClubsFirstTrick.STRICT}, "first lead to be the 2 of clubs"),
    ({"clubs_first_trick": ClubsFirstTrick.STRICT, "first_lead": FirstLead.TWO_OF_CLUBS,
      "deck": DeckKind.JOKERS}, "joker decks remove"),
    ({"must_beat": True}, "cutthroat rule"),
    ({"bag_limit": 0}, r"\(bag_limit\) is 1 to 100"),
    ({"target": 0}, r"Game to \(target\) is 10 to 10000, not 0"),
    ({"low_mark": 500}, "low mark must be below"),
    ({"bid_format": BidFormat.MIRROR, "min_team_bid": 4}, "cannot add board"),
    ({"bid_format": BidFormat.WHIZ, "ten_for_two_hundred": True}, "cannot add 10 for 200"),
])
def test_contradictions_are_refused_with_a_clear_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("data", "message"), [
    ({"colour": "red"}, "Unknown rule option 'colour'"),
    ({"deck": "tarot"}, "Option deck is one of standard"),
    ({"blind_nil": "yes"}, "true or false"),
    ({"target": "500"}, "whole number"),
    ({"target": True}, "whole number"),
    ({"low_mark": 1.5}, "low_mark is a whole number or null"),
    ({"name": 3}, "is text"),
    ({"preset": "nope"}, "Unknown rules preset"),
    ({"preset": "three-player", "min_team_bid": 4}, "Board"),
])
def test_from_dict_refuses_bad_data(data: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(data)


def test_from_dict_needs_an_object() -> None:
    with pytest.raises(RulesError, match="must be an object"):
        Rules.from_dict([1, 2])  # type: ignore[arg-type]


def test_sides_and_seats() -> None:
    r = Rules()
    assert r.seats_of(1) == (1, 3) and r.side_of(2) == 0 and r.partner(3) == 1
    cut = Rules(partnerships=False)
    assert cut.seats_of(3) == (3,) and cut.side_of(3) == 3


def test_every_option_is_described_once() -> None:
    """Each field has a label, help and group; each choice a label; each number bounds around its default."""
    fields = [f for f in dataclasses.fields(Rules) if f.name != "name"]
    order = [key for key, _ in RULE_GROUPS]
    assert sorted(o.name for o in OPTIONS) == sorted(f.name for f in fields)
    assert [order.index(o.group) for o in OPTIONS] == sorted(order.index(o.group) for o in OPTIONS)
    groups = set(order)
    labels = [o.label for o in OPTIONS]
    assert len(set(labels)) == len(labels)
    for f, o in ((f, option(f.name)) for f in fields):
        assert o.label and o.help.endswith(".") and o.group in groups, o
        if isinstance(f.default, Enum):
            assert [v for v, _ in o.choices] == [e.value for e in type(f.default)]
            assert all(text for _, text in o.choices)
        elif o.kind in ("int", "int_or_null"):
            assert o.low is not None and o.high is not None and o.low < o.high
            assert o.default is None or o.low <= o.default <= o.high  # type: ignore[operator]
        else:
            assert o.kind == "bool" and o.low is None
    with pytest.raises(RulesError, match="Unknown rule option 'colour'"):
        option("colour")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_inside_the_bounds(name: str) -> None:
    rules = PRESETS[name]
    assert all(o.out_of_bounds(getattr(rules, o.name)) is None for o in OPTIONS)


@pytest.mark.parametrize("o", [o for o in OPTIONS if o.low is not None], ids=lambda o: o.name)
def test_every_number_is_bounded_with_a_message_naming_it(o: RuleOption) -> None:
    """10**19 (which once made a game that could not finish) and one past each bound are refused."""
    assert o.low is not None and o.high is not None
    for value in (10**19, -(10**19), o.low - 1, o.high + 1):
        with pytest.raises(RulesError, match=rf"\({o.name}\) is {o.low} to {o.high}, not "):
            Rules.from_dict({o.name: value})
    assert "a number that large" in (o.out_of_bounds(10**19) or "")


def test_values_in_words() -> None:
    assert option("failed_bid").value_text("minus_short") == "minus 10 per trick short"
    assert option("low_mark").value_text(None) == "none" and option("target").value_text(300) == "300"
    assert option("spades_led_any_time").value_text(False) == "off"


def test_from_top_counts_the_cards_above_each_card_in_its_suit() -> None:
    standard = Rules().deck_spec
    assert [standard.from_top[Card.parse(c)] for c in ("AS", "KS", "2S", "AH", "10H")] == [0, 1, 12, 0, 4]
    raised = Rules(deck=DeckKind.JOKERS_HIGH_TWOS).deck_spec  # big joker, little joker, 2D, 2S, then AS
    places = [raised.from_top[Card.parse(c)] for c in ("BJ", "LJ", "2D", "2S", "AS", "3D")]
    assert places == [0, 1, 2, 3, 4, 11]
