"""The coach: it flags a planted blunder and not the best move, reads no hidden card, and prints."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from spades.bots import make_player, play_out
from spades.bots.coach import GameReview, HandReview, analyze
from spades.bots.search import sample_hands
from spades.cards import Card, cards_of
from spades.cli import main
from spades.game import Game
from spades.moves import PassCards, Play
from spades.record import GameRecord, dump_record, record_of
from spades.rules import find_preset

RULES = find_preset("standard")
NORMAL = [make_player("normal")] * 4
DEAL = 89
"""In deal 89 played by ``normal`` bots South bids nil and, last to play to the seventh trick (the
record's move 31, after 9♣ 3♣ 8♦), may trump with the 4♠ or the 9♠ or throw a side card."""
MOVE = 31


def _game_from(record: GameRecord, moves: int, *extra: tuple[int, Play]) -> Game:
    """The record's first ``moves`` moves, then ``extra``, then normal bots to the end of the hand."""
    game = Game(record.rules, record.deal, first_dealer=record.first_dealer)
    for m in record.moves[:moves]:
        assert m is not None
        game.apply(*m)
    for seat, move in extra:
        game.apply(seat, move)
    return play_out(game, NORMAL, seed=DEAL, hands=1)


def test_the_coach_flags_a_planted_blunder_and_not_the_best_move() -> None:
    played = record_of(play_out(Game(RULES, deal=DEAL), NORMAL, seed=DEAL, hands=1))
    seat, move = played.moves[MOVE]  # type: ignore[misc]
    game = _game_from(played, MOVE)
    assert seat == 2 and game.history[0].bids[2] is not None and game.history[0].bids[2].tricks == 0
    assert isinstance(move, Play) and move.card.suit != 3  # South threw a card: its nil held the trick off
    blunder = _game_from(played, MOVE, (2, Play(Card.parse("9S"))))  # trumps, last to play: nil broken
    review = analyze(record_of(blunder), seat=2, samples=40)
    judged = {d.move_index: d for d in review.hands[0].decisions}
    bad = judged[MOVE]
    assert bad.flagged and bad.loss > 100
    kept = review.hands[0].to_dict()  # as the server keeps it, and reads it back for the game's summary
    assert HandReview.from_dict(kept).to_dict() == kept
    assert GameReview(2, (HandReview.from_dict(kept),)).costliest == replace(bad, loss=round(bad.loss, 1),
        made_points=round(bad.made_points, 1), best_points=round(bad.best_points, 1))
    assert isinstance(bad.best, Play) and bad.best.card.suit != 3
    assert "nil" in bad.reason and bad.reason.startswith("The 9 of spades breaks your nil in 100%")
    assert review.hands[0].points_lost >= bad.loss
    thrown = {d.move_index: d for d in analyze(played, seat=2, samples=40).hands[0].decisions}[MOVE]
    assert not thrown.flagged  # the bots' own discard, safe too
    best = _game_from(played, MOVE, (2, bad.best))
    judged = {d.move_index: d for d in analyze(record_of(best), seat=2, samples=40).hands[0].decisions}
    assert judged[MOVE].best == bad.best and judged[MOVE].loss == 0 and not judged[MOVE].flagged
    assert judged[MOVE].reason == ""


def _deck(game: Game) -> list[int]:
    """The deck order that deals this game's first hand as it was dealt."""
    result = game.history[0]
    hands = [sorted(cards_of(h)) for h in result.dealt]
    return [hands[(result.dealer + 1 + i) % 4].pop(0) for i in range(52)]


def test_the_analysis_never_reads_a_card_the_seat_could_not_see() -> None:
    first = play_out(Game(RULES, deal=DEAL), NORMAL, seed=DEAL, hands=1)
    record = record_of(first)
    order = [c for m in record.moves if m is not None and isinstance(m[1], Play) for c in [int(m[1].card)]]
    when = {c: i for i, c in enumerate(order)}
    dealt = first.history[0].dealt
    # the two cards of one suit held by East and West that stay hidden from South the longest
    east, west = max(((e, w) for e in cards_of(dealt[1]) for w in cards_of(dealt[3]) if e // 13 == w // 13),
                     key=lambda p: min(when[p[0]], when[p[1]]))
    deck = _deck(first)
    other = [west if c == east else east if c == west else c for c in deck]
    hidden_until = next(i for i, m in enumerate(record.moves) if m is not None and isinstance(m[1], Play)
                        and int(m[1].card) in (east, west))
    assert hidden_until > 20
    games = []
    for d in (deck, other):
        game = Game(RULES, decks=[d], first_dealer=first.history[0].dealer)
        for m in record.moves[:hidden_until]:
            assert m is not None
            game.apply(*m)
        games.append(play_out(game, NORMAL, seed=7, hands=1))
    assert games[0].history[0].dealt != games[1].history[0].dealt
    reviews = [analyze(record_of(g), seat=2, samples=30) for g in games]
    before = [[d.to_dict() for d in r.hands[0].decisions if d.move_index < hidden_until] for r in reviews]
    assert len(before[0]) >= 4
    assert before[0] == before[1]


def test_spades_analyze_prints_the_review_and_refuses_a_bad_seat(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dump_record(play_out(Game(RULES, deal=DEAL), NORMAL, seed=DEAL, hands=1)))
    assert main(["analyze", str(path), "--seat", "S", "--hand", "1", "--samples", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Hand 1, South:") and "trick 7 " in out  # the discard at the seventh trick
    summary = out[out.index("Summary, South:"):].splitlines()
    assert summary[1].startswith("  Hand 1: ") and summary[2].startswith("  Game: ")
    assert " mistake(s) of " in summary[2] and summary[2].endswith(" points lost")
    assert main(["analyze", str(path), "--seat", "middle"]) == 2
    assert "No seat 'middle'" in capsys.readouterr().err
    assert main(["analyze", str(path), "--hand", "3"]) == 2
    assert "no hand 3" in capsys.readouterr().err


def test_passes_are_reviewed_with_each_hand_its_size_amid_the_exchange() -> None:
    rules = find_preset("online")  # nil and blind nil with a 2-card exchange
    normal = [make_player("normal")] * 4
    for deal in range(1, 60):
        game = play_out(Game(rules, deal=deal), normal, seed=deal, hands=1)
        passes = [i for i, m in enumerate(game.log)
                  if m is not None and m[0] == 2 and isinstance(m[1], PassCards)]
        if passes and game.log[passes[0] - 1] is not None and game.log[passes[0] - 1][0] == 0:  # type: ignore[index]
            break  # North bid nil and passed first: South holds two cards more than its partner
    else:
        raise AssertionError("no deal where South passes back to a nil partner")
    before = Game(rules, deal=deal)
    for m in game.log[:passes[0]]:
        assert m is not None
        before.apply(*m)
    view = before.view(2)
    for seed in range(20):
        hands = sample_hands(view, random.Random(seed))
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in before.hands]
    steps: list[tuple[int, int]] = []
    review = analyze(record_of(game), seat=2, samples=10, progress=lambda d, t: steps.append((d, t)))
    assert [d.phase for d in review.hands[0].decisions].count("pass") == len(passes)
    total = review.decisions
    assert steps == [(done, total) for done in range(total + 1)]
