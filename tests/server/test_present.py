"""The state's plain data against the game's own answers, over random rules and games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rule_mixes import option_mixes
from spades.cards import cards_of
from spades.game import Game, Phase
from spades.rules import Rules
from spades.server.present import state_fields


@settings(max_examples=25, deadline=None)
@given(rules=option_mixes(), deal=st.integers(1, 10**6), seed=st.integers(0, 10**6))
def test_a_refused_card_is_explained_in_the_words_the_move_is_refused_with(rules: Rules, deal: int,
                                                                            seed: int) -> None:
    """Every card the seat to play holds and may not play has the reason ``play_reason`` gives, through
    two hands of random moves."""
    game = Game(rules, deal)
    rng = random.Random(seed)
    while game.hand_number < 2 and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
            continue
        seat = game.turn
        assert seat is not None
        if game.phase is Phase.PLAY:
            state = state_fields(game, game_id=1, deal=deal, daily=None, level="normal", viewer=seat)
            refused = game.hands[seat] & ~game.legal_plays(seat)
            assert state["reasons"] == {str(c): game.play_reason(seat, c) for c in cards_of(refused)}
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert game.hand_number == 2 or game.phase is Phase.GAME_OVER
