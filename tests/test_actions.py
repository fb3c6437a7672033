"""Integer actions: the encoding round-trips, agrees with verify_move, and drives games as moves do."""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_mixes import option_mixes
from spades.cards import ALL_CARDS, parse_mask
from spades.errors import SpadesError, WrongPhaseError
from spades.game import Game, Phase
from spades.moves import (
    BID_ACTION,
    PASS_ACTION,
    Draw,
    Look,
    MakeBid,
    Misdeal,
    Move,
    PassCards,
    Play,
    action_to_move,
    move_to_action,
)
from spades.rules import PRESETS, Rules
from spades.scoring import Bid

EVERY_BID = [Bid(n) for n in range(18)] + [Bid.blind_nil(), Bid.ten_for_200()]
EVERY_MOVE: list[Move] = [
    *(Play(c) for c in ALL_CARDS), *(MakeBid(b) for b in EVERY_BID),
    Look(), Misdeal(), Draw(True), Draw(False),
    PassCards(0), PassCards(parse_mask("AS")), PassCards(parse_mask("2C 3C LJ BJ")),
]
FIXED_ACTIONS = range(78)
"""Every action below the passes: the cards, the bids and the other moves (78-127 are kept for later)."""


def test_every_move_round_trips_through_its_action() -> None:
    actions = [move_to_action(m) for m in EVERY_MOVE]
    assert len(set(actions)) == len(actions)
    assert [action_to_move(a) for a in actions] == EVERY_MOVE
    assert actions[:54] == list(range(54)) and actions[54:72] == list(range(BID_ACTION, BID_ACTION + 18))
    assert actions[72:78] == [72, 73, 74, 75, 76, 77]
    assert actions[-1] == PASS_ACTION + parse_mask("2C 3C LJ BJ")


def test_every_action_below_the_passes_round_trips_or_is_refused() -> None:
    for a in range(PASS_ACTION):
        if a in FIXED_ACTIONS:
            assert move_to_action(action_to_move(a)) == a
        else:
            with pytest.raises(SpadesError, match=f"No move has the action {a}"):
                action_to_move(a)


@pytest.mark.parametrize("bad", [-1, 78, 127, True, "3", 2.0, None])
def test_malformed_actions_are_refused_and_change_nothing(bad: object) -> None:
    game = Game(Rules(), deal=5)
    before = game.copy()
    with pytest.raises(SpadesError):
        game.apply_action(bad)
    assert game.log == before.log and game.view(0) == before.view(0)


@pytest.mark.parametrize("bad", [Play(54), Play(True), PassCards(-1), MakeBid(4)])  # type: ignore[arg-type]
def test_malformed_moves_have_no_action(bad: Move) -> None:
    with pytest.raises(SpadesError):
        move_to_action(bad)


def check_actions_agree(game: Game) -> None:
    """For every seat, every action is legal exactly when verify_move accepts its move, and apply_action
    refuses an illegal one with apply's own error, changing nothing."""
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        assert legal == sorted(move_to_action(m) for m in game.legal_moves(seat))
        candidates = [*FIXED_ACTIONS, *(PASS_ACTION + m.cards for m in game.legal_moves(seat)
                                        if isinstance(m, PassCards))]
        if game.phase is Phase.PASS:
            candidates.append(PASS_ACTION + game.hands[seat])
        for a in candidates:
            move = action_to_move(a)
            assert game.can_move(seat, move) == (a in legal), (seat, move)
            if a in legal:
                continue
            with pytest.raises(SpadesError) as by_move:
                game.verify_move(seat, move)
            log = list(game.log)
            with pytest.raises(type(by_move.value), match="^" + re.escape(str(by_move.value))):
                game.apply_action(a, seat)
            assert game.log == log
    if game.turn is not None:
        assert game.legal_actions() == game.legal_actions(game.turn)


def play_by_actions_and_moves(rules: Rules, deal: int, seed: int, hands: int) -> tuple[Game, Game]:
    """The same random choices made twice: once as actions, once as the moves they stand for."""
    by_action, by_move = Game(rules, deal=deal), Game(rules, deal=deal)
    rng = random.Random(seed)
    while by_action.phase is not Phase.GAME_OVER and len(by_action.history) < hands:
        if by_action.phase is Phase.HAND_OVER:
            by_action.next_hand()
            by_move.next_hand()
            continue
        seat = by_action.turn
        assert seat is not None
        a = rng.choice(by_action.legal_actions())
        by_action.apply_action(a)
        by_move.apply(seat, action_to_move(a))
        assert by_action.log == by_move.log
        seats = range(rules.players)
        assert [by_action.view(s) for s in seats] == [by_move.view(s) for s in seats]
    return by_action, by_move


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_agrees_action_by_action(name: str) -> None:
    rules = PRESETS[name]
    game = Game(rules, deal=31)
    rng = random.Random(2)
    while game.phase is not Phase.GAME_OVER and len(game.history) < 2:
        if game.phase is Phase.HAND_OVER:
            check_actions_agree(game)
            game.next_hand()
            continue
        check_actions_agree(game)
        game.apply_action(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("seat", [-1, 4, "0"])
def test_a_seat_not_at_the_table_has_no_actions_or_moves(seat: int) -> None:
    game = Game(Rules(blind_nil=True, blind_nil_deficit=0), deal=5)
    assert game.legal_actions(seat) == [] and game.legal_moves(seat) == []
    with pytest.raises(SpadesError, match="No seat"):
        game.apply_action(74, seat)


def test_a_finished_hand_or_game_has_no_actions() -> None:
    game, _ = play_by_actions_and_moves(Rules(), deal=3, seed=1, hands=1)
    assert game.phase is Phase.HAND_OVER and game.legal_actions() == []
    with pytest.raises(WrongPhaseError, match="deal the next hand"):
        game.apply_action(0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes(), deal=st.integers(1, 10**6), seed=st.integers(0, 10**6))
def test_games_driven_by_actions_match_games_driven_by_moves(rules: Rules, deal: int, seed: int) -> None:
    by_action, by_move = play_by_actions_and_moves(rules, deal, seed, hands=2)
    assert by_action.history == by_move.history and by_action.scores == by_move.scores


def test_true_is_not_a_seat() -> None:
    # bool is an int in Python; a seat given as True must not pass for seat 1.
    game = Game(Rules(), deal=5)
    assert game.turn == 1
    assert game.legal_bids(True) == [] and game.legal_actions(True) == [] and game.legal_moves(True) == []
    for _ in range(4):
        game.apply_action(game.legal_actions()[3])
    assert game.phase is Phase.PLAY and game.turn == 1 and game.legal_plays(1)
    assert game.legal_plays(True) == 0 and game.legal_actions(True) == []
    with pytest.raises(SpadesError, match="No seat True"):
        game.apply_action(game.legal_actions()[0], True)
    with pytest.raises(SpadesError, match="No seat True"):
        game.apply(True, Play(ALL_CARDS[game.legal_actions()[0]]))
    with pytest.raises(SpadesError, match="No seat True"):
        game.view(True)
