"""The protocol's messages: each valid under its JSON Schema, and no view holds a card its seat cannot see."""

import random

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.schemas import check
from rule_mixes import option_mixes
from spades.arena import GAME_HAND_CAP
from spades.bots import Player, RandomPlayer, make_player
from spades.cards import Card, mask_of
from spades.errors import SpadesError
from spades.game import Game, Phase
from spades.moves import Draw, Play
from spades.protocol.messages import (
    MESSAGE_TYPES,
    AnswerError,
    bye,
    decide,
    hello,
    legal_moves,
    parse_answer,
    parse_ready,
    refused,
    schema_of,
)
from spades.rules import Rules, find_preset

PRESETS = ["standard", "jokers", "jokers-high-twos", "cutthroat", "three-player", "two-player", "whiz",
           "suicide", "mirror"]


def test_every_schema_is_a_valid_schema() -> None:
    for t in MESSAGE_TYPES:
        jsonschema.Draft202012Validator.check_schema(schema_of(t))
    with pytest.raises(SpadesError, match="No protocol message"):
        schema_of("nope")


def cards_in(value: object) -> set[Card]:
    """Every card text anywhere in a JSON value (a string that parses as a card)."""
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    if isinstance(value, str):
        try:
            return {Card.parse(value)}
        except SpadesError:
            return set()
    return set()


def play_checking(rules: Rules, deal: int, hands: int, player: Player, validated: int = 2) -> int:
    """Play on, checking every decide message against the game (and its schema during the first
    ``validated`` hands: the validator is slow); the decisions checked."""
    game = Game(rules, deal=deal)
    rng = random.Random(deal)
    checked = 0
    while game.phase is not Phase.GAME_OVER and len(game.history) < hands:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
            continue
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        message = decide(view, checked + 1, 1000)
        shown = message["view"]
        assert isinstance(shown, dict)
        if len(game.history) < validated:
            check(message)
        hand = game.hand
        visible = (hand.hands[seat] if view.looked else 0) | view.played | view.passed | view.received \
            | view.discarded | mask_of(view.offered)
        assert mask_of(cards_in({k: v for k, v in shown.items() if k != "history"})) & ~visible == 0
        assert [r["number"] for r in shown["history"]] == list(range(len(game.history)))
        assert set(legal_moves(view)) == set(game.legal_moves(seat))
        assert message["legal"] == [str(m) for m in legal_moves(view)]
        game.apply(seat, player.choose(view, rng))
        checked += 1
    return checked


@pytest.mark.parametrize("preset", PRESETS)
def test_no_view_holds_a_hidden_card_over_whole_games(preset: str) -> None:
    rules = find_preset(preset).replace(blind_nil=True) if preset in ("standard", "jokers") \
        else find_preset(preset)
    assert play_checking(rules, deal=11, hands=GAME_HAND_CAP, player=make_player("normal")) > 100


@settings(max_examples=6, deadline=None)
@given(rules=option_mixes(), deal=st.integers(1, 10_000))
def test_no_view_holds_a_hidden_card_under_any_rules(rules: Rules, deal: int) -> None:
    play_checking(rules, deal, hands=2, player=RandomPlayer())


def test_the_other_messages_are_valid() -> None:
    for preset in PRESETS:
        rules = find_preset(preset)
        for seat in range(rules.players):
            check(hello(rules, seat, 250))
    check(refused(3, "illegal", "draw keep is not one of the legal moves.", Play(Card.parse("10H"))))
    check(refused(1, "malformed", "Not JSON.", Draw(True)))
    check(bye())
    check({"type": "ready", "name": "me"})
    check({"type": "move", "id": 4, "move": "bid blind nil"})


def test_answers_are_read_or_refused_with_the_reason() -> None:
    assert parse_ready('{"type": "ready"}') is None
    assert parse_answer('{"type": "move", "id": 2, "move": "play 10h"}', 2) == Play(Card.parse("10H"))
    assert parse_answer('{"type": "move", "id": 1, "move": "play 10h"}', 2) is None
    for line, why in [("play 10H", "Not JSON"), ("[1]", "Not a JSON object"),
                      ('{"type": "hello"}', "Expected"),
                      ('{"type": "move", "id": "2", "move": "look"}', "id"),
                      ('{"type": "move", "id": 9, "move": "look"}', "not asked"),
                      ('{"type": "move", "id": 2, "move": 5}', "is text"),
                      ('{"type": "move", "id": 2, "move": "play 1Z"}', "Not a card"),
                      ('{"type": "ready", "name": 5}', "name")]:
        with pytest.raises(AnswerError, match=why):
            parse_ready(line) if "ready" in line else parse_answer(line, 2)
