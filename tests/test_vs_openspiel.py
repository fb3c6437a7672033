"""benchmarks/vs_openspiel.py: the IS-MCTS seat sees only what its seat saw (its resampler is the
search's ``sample_hands``, tested with the bots), and a tiny match runs."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from spades.bots import SearchPlayer, make_player
from spades.bots.search import sample_hands
from spades.game import Game, Phase

pyspiel = pytest.importorskip("pyspiel")


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "vs_openspiel.py"
    spec = importlib.util.spec_from_file_location("vs_openspiel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_openspiel"] = module
    spec.loader.exec_module(module)
    return module


bench = _bench()


def _positions(deals: int) -> list[tuple[Game, int]]:
    """Games stopped at every decision of bot-played hands under the aligned rules, with the seat to move."""
    out = []
    bots = [make_player("normal"), make_player("easy")] * 2
    for deal in range(1, deals + 1):
        game = Game(bench.RULES, deal=deal)
        rng = random.Random(deal)
        while game.phase in (Phase.BID, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            out.append((game.copy(), seat))
            game.apply(seat, bots[seat].choose(game.view(seat), rng))
    return out


def test_the_resampler_never_places_a_card_against_what_the_seat_saw() -> None:
    rng = random.Random(5)
    game_os = pyspiel.load_game("spades")
    positions = _positions(6)
    for game, seat in positions[::3]:
        view = game.view(seat)
        truth = bench.openspiel_state(game_os, view, list(game.hands))
        for _ in range(8):
            hands = sample_hands(view, rng)
            assert hands[seat] == view.hand
            assert sum(h.bit_count() for h in hands) + view.played.bit_count() == 52
            others = 0
            for s in range(4):
                assert hands[s].bit_count() == game.hands[s].bit_count(), "each seat holds what it must"
                for suit in range(4):
                    if view.voids[s] >> suit & 1:
                        assert not hands[s] & game.rules.deck_spec.suit_masks[suit], "no card of a void suit"
                if s != seat:
                    others |= hands[s]
            assert others == view.unseen
            sampled = bench.openspiel_state(game_os, view, hands)
            player = truth.current_player()
            assert sampled.current_player() == player
            assert sampled.observation_string(player) == truth.observation_string(player)
            assert sampled.legal_actions() == truth.legal_actions()


def test_a_tiny_duplicate_deal_against_ismcts_runs() -> None:
    result = bench.run("normal", deals=1, sims=8)
    assert result.deals == 1 and result.hands == 2
    assert result.a.players == ("normal",) and result.b.players == ("ismcts-8",)
    assert result.b.decisions > 0 and result.a.decisions > 0
    assert result.a.contracts + result.b.contracts > 0


def test_our_search_knows_each_hand_is_scored_alone_unless_told_otherwise() -> None:
    """IS-MCTS maximises the hand's score (OpenSpiel's returns); our search is told the same."""
    for game_value in (False, True):
        bench._setup("expert", 8, 200.0, game_value)
        assert bench._sides is not None
        ours = bench._sides[0]
        assert isinstance(ours, SearchPlayer) and ours.hand_alone is not game_value
