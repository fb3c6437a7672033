"""Every preset plays whole hands between random players, and the records replay."""

import pytest

from spades.bots import RandomPlayer, play_out
from spades.game import Game
from spades.record import dump_record, load_record, replay
from spades.rules import PRESETS


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_plays_and_replays(name: str) -> None:
    rules = PRESETS[name]
    game = play_out(Game(rules, deal=11), [RandomPlayer()] * rules.players, seed=3, hands=3)
    assert len(game.history) == 3
    for hand in game.history:
        assert sum(hand.tricks_won) == rules.hand_size
    again = replay(load_record(dump_record(game)))
    assert again.scores == game.scores and again.history == game.history
