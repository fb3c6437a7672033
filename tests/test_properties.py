"""Random games under every preset and random option mixes, checked against the rules' invariants."""

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_mixes import OPTIONS, option_mixes
from spades.cards import Card, cards_of
from spades.errors import IllegalMoveError, RulesError
from spades.game import Game, Phase
from spades.moves import Look, MakeBid, Misdeal, Play
from spades.record import dump_record, load_record, replay
from spades.rules import (
    PRESETS,
    FirstLead,
    Rules,
)

SPADE = 3
REASONS = [r"You must follow suit: you hold a (club|diamond|heart|spade)\.",
           r"Spades have not been broken: lead another suit\.", r"The first lead may not be a spade\.",
           r"You must lead the \w+ of clubs to the first trick\.",
           r"On the first trick you must play your lowest club, the \w+ of clubs\.",
           r"No spades on the first trick: play a heart or a diamond\.",
           r"You must beat the [\w ]+ when you can\."]
"""Every reason a card may not be played, as patterns."""

def legal_follow(game: Game, seat: int, card: int) -> None:
    """Independent checks of following suit and breaking spades for a card about to be played."""
    spec, hand = game.spec, game.hands[seat]
    if game.trick:
        led = spec.suit_of[game.trick[0][1]]
        holds = hand & spec.suit_masks[led]
        assert not holds or holds >> card & 1, "did not follow suit"
    elif spec.suit_of[card] == SPADE and not game.broken and not game.rules.spades_led_any_time:
        assert not hand & ~spec.trumps, "led a spade before spades were broken"
        if not game.tricks and game.rules.first_lead is FirstLead.LEFT_OF_DEALER:
            assert not hand & ~spec.trumps


def check_view_hides(game: Game, seat: int) -> None:
    """A seat's view holds no card hidden from it: others' hands, the set-aside cards, others' discards."""
    v = game.view(seat)
    hidden = game.set_aside & ~game.discards[seat]
    for other in range(game.players):
        if other != seat:
            hidden |= game.hands[other] & ~v.passed
    shown = v.hand | v.received | v.discarded | v.played | sum(1 << c for c in v.offered)
    assert not shown & hidden, "a view shows a hidden card"
    assert v.hand == (game.hands[seat] if v.looked else 0)


def snapshot(game: Game) -> tuple[object, ...]:
    return (*(game.view(s) for s in range(game.players)), list(game.log), list(game.hands))


def play_random(rules: Rules, deal: int, seed: int, hands: int = 2) -> Game:
    """Play random legal moves (looks, blind nils, misdeals and passes too), checking invariants."""
    game = Game(rules, deal=deal)
    rng = random.Random(seed)
    done = 0
    while game.phase is not Phase.GAME_OVER and done < hands:
        if game.phase is Phase.HAND_OVER:
            result = game.history[-1]
            assert sum(result.tricks_won) == rules.hand_size == len(result.tricks)
            assert all(len(t.cards) == rules.players for t in result.tricks)
            played = [c for t in result.tricks for _, c in t.cards]
            assert len(set(played)) == len(played) == rules.hand_size * rules.players
            assert result.scores_after == tuple(game.scores)
            done += 1
            if done < hands:
                game.next_hand()
            continue
        seat = game.turn
        assert seat is not None
        if rules.misdeal_no_spades and game.phase is Phase.BID and game.redeals < 3:
            callers = [s for s in range(rules.players) if game.can_move(s, Misdeal())]
            if callers and rng.random() < 0.5:
                game.apply(callers[0], Misdeal())
                continue
        check_view_hides(game, rng.randrange(rules.players))
        moves = game.legal_moves(seat)
        assert moves, f"no legal move for the seat to act in {game.phase}"
        move = rng.choice(moves)
        if isinstance(move, Look) and rng.random() < 0.3 and game.legal_bids(seat):
            move = MakeBid(game.legal_bids(seat)[0])  # blind nil, where it is open
        if game.phase is Phase.PLAY:
            legal = game.legal_plays(seat)
            assert legal and not legal & ~game.hands[seat]
            banned = game.hands[seat] & ~legal
            if banned and rng.random() < 0.2:
                card = Card(rng.choice(list(cards_of(banned))))
                before = snapshot(game)
                text = game.play_reason(seat, card)
                assert text and any(re.fullmatch(p, text) for p in REASONS), text
                assert game.rules.must_beat or "beat" not in text
                assert not game.tricks or "first trick" not in text
                with pytest.raises(IllegalMoveError):
                    game.apply(seat, Play(card))
                assert snapshot(game) == before
            assert isinstance(move, Play)
            legal_follow(game, seat, move.card)
        game.apply(seat, move)
    return game


def check_replays(game: Game) -> None:
    again = replay(load_record(dump_record(game)))
    assert all(again.view(s) == game.view(s) for s in range(game.players))
    assert again.history == game.history and again.log == game.log


@pytest.mark.parametrize("name", list(PRESETS))
@settings(max_examples=10, deadline=None)
@given(deal=st.integers(1, 2**53 - 1), seed=st.integers(0, 2**32))
def test_random_games_under_every_preset(name: str, deal: int, seed: int) -> None:
    check_replays(play_random(PRESETS[name], deal, seed))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), deal=st.integers(1, 10**6), seed=st.integers(0, 2**32))
def test_random_games_under_random_option_mixes(rules: Rules, deal: int, seed: int) -> None:
    game = play_random(rules, deal, seed)
    check_replays(game)
    assert Rules.from_dict(rules.to_dict()) == rules


@settings(max_examples=200, deadline=None)
@given(options=st.fixed_dictionaries({}, optional=OPTIONS))
def test_rules_either_build_or_refuse_with_a_rules_error(options: dict[str, Any]) -> None:
    try:
        rules = Rules(**options)
    except RulesError as e:
        assert str(e).endswith(".")
    else:
        assert Rules.from_dict(rules.to_dict()) == rules


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(1, 10**6), seed=st.integers(0, 2**32), moves=st.integers(0, 80))
def test_copies_are_independent(deal: int, seed: int, moves: int) -> None:
    game = play_random(Rules(blind_nil=True, nil_pass=2), deal, seed, hands=1)
    rng = random.Random(seed)
    if game.phase is Phase.HAND_OVER:
        game.next_hand()
    for _ in range(moves):
        if game.phase not in (Phase.BID, Phase.PASS, Phase.PLAY):
            break
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    before = snapshot(game)
    twin = game.copy()
    play_random_from(twin, rng)
    assert snapshot(game) == before


def play_random_from(game: Game, rng: random.Random) -> None:
    """Play the current hand out with random legal moves."""
    while game.phase in (Phase.BID, Phase.PASS, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_moves(seat)))
