"""The coach: what each of a seat's decisions in a hand was worth, judged from what the seat knew.

For every decision of one seat (its bid, the cards it passed, each card it played with a choice)
the coach replays the record to that moment, takes the seat's ``SeatView`` (never a hidden
card), deals the unseen cards many times as the expert does, and plays every choice the seat had
out on the same deals. The expected points of a choice are the expert's measure: the side's score
change minus the opponents', with bags costed. A decision is flagged when the best choice beats
the one made by more than a threshold, and clearly (by more than two standard errors on the same
deals), on those deals and again on as many fresh ones, with a one-line reason. The random draws
are seeded by the hand and the move, so a record always gets the same review.

>>> from spades.bots import make_player, play_out
>>> from spades.game import Game
>>> from spades.record import record_of
>>> from spades.rules import find_preset
>>> game = play_out(Game(find_preset("standard"), deal=7), [make_player("normal")] * 4, hands=1)
>>> review = analyze(record_of(game), seat=2, samples=20)
>>> len(review.hands), all(d.loss >= 0 for d in review.hands[0].decisions)
(1, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from spades.bots.heuristic import HeuristicPlayer
from spades.bots.knowledge import is_nil
from spades.bots.search import SearchPlayer
from spades.cards import Card, cards_of
from spades.errors import SpadesError
from spades.game import Game, Phase, SeatView, seat_name
from spades.moves import MakeBid, Move, PassCards, Play, parse_move
from spades.record import GameRecord
from spades.scoring import Bid, HandScore, score_hand

__all__ = ["SAMPLES", "THRESHOLD", "Decision", "GameReview", "HandReview", "analyze", "format_review",
           "format_summary", "short", "where"]

SAMPLES = 250
"""Deals sampled per decision: the expert's own budget."""
THRESHOLD = 10.0
"""Points a decision must lose (against the best choice) to be flagged."""
Z_FLAG = 2.0
"""How many standard errors (paired, on the same deals) the loss must also clear to be flagged."""


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the move made and the best one, with their expected points."""

    hand: int
    """The hand's number in the game (0 for the first)."""
    move_index: int
    """The move's place in the record's list of moves."""
    phase: str
    """``bid``, ``pass`` or ``play``."""
    trick: int
    """For a play, the trick's number in the hand (1 for the first); 0 otherwise."""
    made: Move
    best: Move
    made_points: float
    """The expected points of the move made (the side's score change minus the opponents')."""
    best_points: float
    loss: float
    """``best_points - made_points``: 0 when the move made was the best."""
    flagged: bool
    reason: str
    """One line on why the best move is better (empty when the move made was the best)."""

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready values."""
        return {"hand": self.hand, "move_index": self.move_index, "phase": self.phase, "trick": self.trick,
                "made": str(self.made), "best": str(self.best), "made_short": short(self.made),
                "best_short": short(self.best), "made_points": round(self.made_points, 1),
                "best_points": round(self.best_points, 1), "loss": round(self.loss, 1),
                "flagged": self.flagged, "reason": self.reason}

    @classmethod
    def from_dict(cls, hand: int, d: dict[str, Any]) -> Decision:
        """A decision of hand ``hand`` back from ``to_dict``'s values (as a kept review holds them)."""
        return cls(hand, d["move_index"], d["phase"], d["trick"], parse_move(d["made"]),
                   parse_move(d["best"]), d["made_points"], d["best_points"], d["loss"], d["flagged"],
                   d["reason"])


@dataclass(frozen=True)
class HandReview:
    """A hand's decisions for one seat."""

    hand: int
    seat: int
    decisions: tuple[Decision, ...]
    computer_moves: int = 0
    """How many of the seat's moves in the hand a computer player made for its person (at a friends'
    table, while they were away...): not the person's decisions, so not judged."""

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The flagged decisions."""
        return tuple(d for d in self.decisions if d.flagged)

    @property
    def points_lost(self) -> float:
        """The expected points the flagged decisions gave away."""
        return sum(d.loss for d in self.mistakes)

    def to_dict(self) -> dict[str, Any]:
        """The hand's review as JSON-ready values."""
        return {"hand": self.hand, "seat": self.seat, "mistakes": len(self.mistakes),
                "points_lost": round(self.points_lost, 1), "decisions": [d.to_dict() for d in self.decisions],
                "computer_moves": self.computer_moves}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandReview:
        """A hand's review back from ``to_dict``'s values (as a kept review holds them; one kept before
        reviews counted the computer player's moves has none)."""
        return cls(d["hand"], d["seat"], tuple(Decision.from_dict(d["hand"], x) for x in d["decisions"]),
                   d.get("computer_moves", 0))


@dataclass(frozen=True)
class GameReview:
    """Every reviewed hand of a game for one seat."""

    seat: int
    hands: tuple[HandReview, ...]

    @property
    def decisions(self) -> int:
        """How many decisions were reviewed."""
        return sum(len(h.decisions) for h in self.hands)

    @property
    def mistakes(self) -> int:
        """How many decisions were flagged."""
        return sum(len(h.mistakes) for h in self.hands)

    @property
    def points_lost(self) -> float:
        """The expected points the flagged decisions gave away over the game."""
        return sum(h.points_lost for h in self.hands)

    @property
    def costliest(self) -> Decision | None:
        """The flagged decision that gave away the most (the first of equals), or None."""
        flagged = [d for h in self.hands for d in h.mistakes]
        return max(flagged, key=lambda d: d.loss) if flagged else None

    def to_dict(self) -> dict[str, Any]:
        """The game's review as JSON-ready values."""
        return {"seat": self.seat, "decisions": self.decisions, "mistakes": self.mistakes,
                "points_lost": round(self.points_lost, 1), "hands": [h.to_dict() for h in self.hands]}


def _choices(view: SeatView, made: Move, heuristic: HeuristicPlayer, rng: random.Random) -> list[Move]:
    """The moves worth comparing with the one made: every legal card; for a bid the numbers within
    two of the bid made and of the heuristic's, and nil; for a pass the heuristic's pass."""
    if view.phase is Phase.PLAY:
        return [Play(Card(c)) for c in cards_of(view.legal_plays)]
    base = heuristic.decide(view, rng)[0]
    if view.phase is Phase.PASS:
        return [made] + ([base] if base != made else [])
    r = view.rules
    near = {m.bid.tricks for m in (made, base) if isinstance(m, MakeBid)}
    out: list[Move] = [made]
    for b in view.legal_bids:
        if b.blind or MakeBid(b) == made:
            continue
        if (is_nil(r, b) and r.nil_value) or (not is_nil(r, b) and any(abs(b.tricks - t) <= 2 for t in near)):
            out.append(MakeBid(b))
    return out


def short(move: Move) -> str:
    """A move in a few characters: the card (K♥), the bid (4, nil) or the cards passed."""
    if isinstance(move, Play):
        return move.card.symbol
    if isinstance(move, MakeBid):
        return str(move.bid)
    assert isinstance(move, PassCards)
    return " ".join(Card(c).symbol for c in cards_of(move.cards))


def _describe(move: Move) -> str:
    """A move as the coach names it: 'the king of hearts', 'a bid of 4', 'passing ...'."""
    if isinstance(move, Play):
        return f"the {move.card.name}"
    if isinstance(move, MakeBid):
        return f"a bid of {move.bid}" if move.bid.tricks else "a nil bid"
    assert isinstance(move, PassCards)
    return "passing " + " and ".join(f"the {Card(c).name}" for c in cards_of(move.cards))


class _Tally:
    """What a choice led to over the sampled deals: points, and how often each thing happened."""

    def __init__(self) -> None:
        self.points: list[float] = []
        self.counts: dict[str, float] = {"own nil broken": 0, "partner nil broken": 0, "set": 0,
                                          "their nil broken": 0, "they are set": 0, "bags": 0, "tricks": 0}

    def add(self, view: SeatView, points: float, score: HandScore, won: Sequence[int]) -> None:
        """Count one sampled deal's outcome."""
        r = view.rules
        self.points.append(points)
        mine = r.side_of(view.seat)
        c = self.counts
        for side in score.sides:
            ours = side.side == mine
            for nil in side.nils:
                if not nil.made:
                    key = ("own nil broken" if nil.seat == view.seat else "partner nil broken") if ours \
                        else "their nil broken"
                    c[key] += 1
            if side.contract > 0 and not side.made:
                c["set" if ours else "they are set"] += 1
            if ours:
                c["bags"] += side.bags_added
        c["tricks"] += sum(won[s] for s in r.seats_of(mine))

    def mean(self) -> float:
        """The mean points."""
        return sum(self.points) / len(self.points)

    def rate(self, key: str) -> float:
        """How often (or how much, per deal) the thing counted happened."""
        return self.counts[key] / len(self.points)


def _reason(made: Move, best: Move, a: _Tally, b: _Tally, loss: float) -> str:
    """One line on why ``best`` beats ``made``: the outcome whose rate differs most, in words."""
    m, x = _describe(made), _describe(best)
    of = "of the deals,"
    bad = [("own nil broken", f"{m.capitalize()} breaks your nil in {{a:.0%}} {of} {x} in {{b:.0%}}"),
           ("partner nil broken", f"{m.capitalize()} lets your partner's nil be broken in {{a:.0%}} {of} "
                                  f"{x} in {{b:.0%}}"),
           ("set", f"With {m} your side falls short of its bid in {{a:.0%}} {of} with {x} in {{b:.0%}}")]
    good = [("their nil broken", f"{x.capitalize()} breaks the opponents' nil in {{b:.0%}} {of} "
                                 f"{m} in {{a:.0%}}"),
            ("they are set", f"{x.capitalize()} sets the opponents in {{b:.0%}} {of} {m} in {{a:.0%}}")]
    options = ([(a.rate(k) - b.rate(k), k, t) for k, t in bad]
               + [(b.rate(k) - a.rate(k), k, t) for k, t in good])
    weight, key, text = max(options, key=lambda o: o[0])
    if weight >= 0.05 and key == "own nil broken" and isinstance(made, MakeBid):
        return f"A nil bid fails in {a.rate(key):.0%} of the deals: {x} is about {loss:.0f} points better."
    if weight >= 0.05:
        line = text.format(a=a.rate(key), b=b.rate(key))
    elif (bags := a.rate("bags") - b.rate("bags")) >= 0.3:
        line = f"{m.capitalize()} takes {bags:.1f} more bags on average than {x}"
    elif (more := b.rate("tricks") - a.rate("tricks")) >= 0.2:
        line = f"{x.capitalize()} wins {more:.1f} more tricks on average than {m}"
    else:
        line = f"{x.capitalize()} scores better than {m} over the deals you could be facing"
    return f"{line}: about {loss:.0f} points better."


def _outcomes(player: SearchPlayer, view: SeatView, choices: Sequence[Move], rng: random.Random,
              samples: int) -> dict[Move, _Tally]:
    """Each choice played out on the same ``samples`` sampled deals."""
    r = view.rules
    tallies = {m: _Tally() for m in choices}
    for _ in range(samples):
        hands = player.sample_deal(view, rng)
        for move in choices:
            if isinstance(move, Play):
                bids: list[Bid | None] = list(view.bids)
                won = player.card_outcome(view, hands, move.card)
            elif isinstance(move, MakeBid):
                bids, won = player.bid_outcome(view, hands, move.bid)
            else:
                assert isinstance(move, PassCards)
                bids, won = player.pass_outcome(view, hands, move.cards)
            full = [b if b is not None else Bid(1) for b in bids]
            score = score_hand(r, full, won, view.bags, no_bids=all(b is None for b in bids))
            tallies[move].add(view, player.value(view, bids, won), score, won)
    return tallies


def _clear_loss(a: _Tally, b: _Tally, threshold: float) -> bool:
    """Whether ``b`` beat ``a`` on the same deals by more than the threshold, and clearly (by more than
    ``Z_FLAG`` standard errors of the paired differences)."""
    diffs = [y - x for x, y in zip(a.points, b.points, strict=True)]
    n = len(diffs)
    loss = sum(diffs) / n
    se = math.sqrt(sum((d - loss) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else math.inf
    return loss > threshold and loss > Z_FLAG * se


def _judge(player: SearchPlayer, view: SeatView, made: Move, rng: random.Random, samples: int,
           threshold: float, hand: int, index: int) -> Decision:
    """The decision ``made`` in this view, against every choice worth comparing, on the same deals.

    The best of many choices on one set of deals is also the one those deals flattered most, so a
    decision that looks like a mistake is judged again, the move made against that best, on as many
    fresh deals: it is flagged only if they agree, with their figures (not the flattered ones)."""
    choices = _choices(view, made, player.heuristic, rng)
    tallies = _outcomes(player, view, choices, rng, samples if len(choices) > 1 else 1)
    best = max(choices, key=lambda m: (tallies[m].mean(), m == made))
    a, b = tallies[made], tallies[best]
    flagged = _clear_loss(a, b, threshold)
    if flagged:
        fresh = _outcomes(player, view, [made, best], rng, samples)
        flagged = _clear_loss(fresh[made], fresh[best], threshold)
        if flagged:
            a, b = fresh[made], fresh[best]
    loss = b.mean() - a.mean()
    phase = view.phase.value
    trick = len(view.tricks) + 1 if view.phase is Phase.PLAY else 0
    return Decision(hand, index, phase, trick, made, best, a.mean(), b.mean(), loss, flagged,
                    _reason(made, best, a, b, loss) if best != made else "")


def analyze(record: GameRecord, seat: int = 2, hand: int | None = None, *, samples: int = SAMPLES,
            threshold: float = THRESHOLD, seed: int = 0,
            progress: Callable[[int, int], None] | None = None, computer: Collection[int] = ()) -> GameReview:
    """Review one seat's decisions in a recorded game (in hand ``hand`` only, if given): each bid,
    pass and play with a choice, judged from the seat's view at that moment. ``progress(done,
    total)`` is called before the first decision and after each. ``computer``: the moves (by their
    place in the record) a computer player made for the seat's person, who is not judged on them:
    each hand's review counts them instead."""
    if not 0 <= seat < record.rules.players:
        raise SpadesError(f"No seat {seat} at a table of {record.rules.players}.")
    if samples < 2:
        raise SpadesError("The coach needs at least 2 sampled deals a decision.")
    game = Game(record.rules, record.deal, decks=record.decks, first_dealer=record.first_dealer)
    todo: list[tuple[int, int, SeatView, Move]] = []
    stood_in: dict[int, int] = {}
    for i, m in enumerate(record.moves):
        if m is None:
            game.next_hand()
            continue
        who, move = m
        if who == seat and (hand is None or hand == game.hand_number):
            if i in computer:
                stood_in[game.hand_number] = stood_in.get(game.hand_number, 0) + 1
            elif _worth_judging(game, seat, move):
                todo.append((game.hand_number, i, game.view(seat), move))
        game.apply(who, move)
    if hand is not None and hand > game.hand_number:
        raise SpadesError(f"The record has no hand {hand + 1}.")
    player = SearchPlayer("coach", samples=samples)
    reviews: dict[int, list[Decision]] = {h: [] for h in stood_in}
    for done, (number, i, view, move) in enumerate(todo):
        if progress is not None:
            progress(done, len(todo))
        rng = random.Random(f"coach:{seed}:{number}:{i}")
        reviews.setdefault(number, []).append(_judge(player, view, move, rng, samples, threshold, number, i))
    if progress is not None:
        progress(len(todo), len(todo))
    return GameReview(seat, tuple(HandReview(h, seat, tuple(ds), stood_in.get(h, 0))
                                  for h, ds in sorted(reviews.items())))


def _worth_judging(game: Game, seat: int, move: Move) -> bool:
    """Whether a move is a decision the coach reviews: a bid made after looking, a pass, or a play
    with more than one legal card."""
    if isinstance(move, Play):
        legal = game.legal_plays(seat)
        return bool(legal & (legal - 1))
    if isinstance(move, MakeBid):
        return not move.bid.blind and len(game.legal_bids(seat)) > 1
    return isinstance(move, PassCards)


def where(d: Decision) -> str:
    """Where in its hand a decision was made: ``bid``, ``pass`` or ``trick 5``."""
    return f"trick {d.trick}" if d.phase == "play" else d.phase


def format_review(review: GameReview, players: int) -> str:
    """The review as text: a line per decision, the flagged ones marked, then the summary."""
    name = seat_name(players, review.seat)
    lines = []
    for h in review.hands:
        lines.append(f"Hand {h.hand + 1}, {name}:")
        for d in h.decisions:
            line = f"  {where(d):<8}  {short(d.made):<8} {d.made_points:+7.1f}"
            if d.best == d.made:
                line += "   the best choice"
            else:
                line += f"   best {short(d.best):<8} {d.best_points:+7.1f}  (-{d.loss:.0f})"
            lines.append(f"{line}  MISTAKE" if d.flagged else line)
            if d.flagged:
                lines.append(f"      {d.reason}")
    return "\n".join([*lines, format_summary(review, players)])


def format_summary(review: GameReview, players: int) -> str:
    """The review in figures, as the server's game summary gives them: per hand and over the game the
    decisions judged, the mistakes and the points lost to them, and the costliest mistake."""
    name = seat_name(players, review.seat)
    lines = [f"Summary, {name}:"]
    for h in review.hands:
        lines.append(f"  Hand {h.hand + 1}: {len(h.mistakes)} mistake(s) of {len(h.decisions)} decisions, "
                     f"{h.points_lost:.0f} points lost")
    lines.append(f"  Game: {review.mistakes} mistake(s) of {review.decisions} decisions in "
                 f"{len(review.hands)} hand(s), {review.points_lost:.0f} points lost")
    if (worst := review.costliest) is not None:
        lines.append(f"  Costliest: hand {worst.hand + 1}, {where(worst)}: {short(worst.made)} where "
                     f"{short(worst.best)} was better by {worst.loss:.0f} points")
    return "\n".join(lines)
