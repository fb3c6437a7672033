"""The coach's reviews as the routes serve them, for solo games and friends' tables alike.

A review is kept in the store under its subject (a solo game, or one seat in a friends' table's game)
and the hand; one not kept yet is queued with the coach (``spades.server.analyses``, whose child
processes import none of this: the API's schemas would cost each analysis a quarter of a second).
"""

from __future__ import annotations

import logging

from pydantic import ValidationError

from spades.bots import coach as judged
from spades.server.analyses import Analyses, CoachUnavailable
from spades.server.schemas import (
    CoachCostliestOut,
    CoachGameOut,
    CoachHandSummaryOut,
    CoachOut,
    CoachReviewOut,
)
from spades.server.store import Store

__all__ = ["Reviews", "game_subject", "table_subject"]

_log = logging.getLogger("spades.coach")


def game_subject(game_id: int) -> str:
    """What a solo game's reviews are kept under: the person's seat in that game."""
    return f"game {game_id}"


def table_subject(code: str, game: int, seat: int) -> str:
    """What the reviews of one seat in a friends' table's game (numbered from 1 at the table) are kept
    under: each person at the table has their own, and none can be a solo game's."""
    return f"table {code} game {game} seat {seat}"


_PENDING = ("waiting", "starting", "running")


class Reviews:
    """The coach's reviews as the routes serve them, for solo games and friends' tables alike: a kept
    review from the store, else its analysis queued with the coach (None: this server has none) and
    where it stands."""

    def __init__(self, store: Store, coach: Analyses | None) -> None:
        self.store = store
        self.coach = coach

    def hand(self, subject: str, number: int, record: str, seat: int,
             computer: frozenset[int] = frozenset()) -> CoachOut:
        """The review of ``seat``'s decisions in finished hand ``number`` of the game ``record`` holds,
        or where its analysis stands (queued now if it was neither kept nor queued). ``computer``: the
        seat's moves a computer player made for its person (at a friends' table), not judged."""
        return self._hand(subject, number, record, seat, self.store.review(subject=subject, hand=number),
                          computer)

    def game(self, subject: str, finished: int, record: str, seat: int,
             computer: frozenset[int] = frozenset()) -> tuple[CoachGameOut, bool]:
        """The summary of the reviews of the game's ``finished`` hands (their analyses queued as for each
        hand), and whether some are still being analysed."""
        kept = self.store.reviews(subject=subject)
        hands: list[CoachHandSummaryOut] = []
        reviews: list[judged.HandReview] = []
        for number in range(finished):
            try:
                out = self._hand(subject, number, record, seat, kept.get(number), computer)
            except CoachUnavailable as e:
                if self.coach is None:
                    raise
                hands.append(CoachHandSummaryOut(hand=number, status="unavailable", decisions=0, mistakes=0,
                                                 points_lost=0.0, detail=str(e)))
                continue
            if out.review is None:
                hands.append(CoachHandSummaryOut(hand=number, status=out.status, decisions=0, mistakes=0,
                                                 points_lost=0.0))
                continue
            review = judged.HandReview.from_dict(out.review.model_dump())
            reviews.append(review)
            hands.append(CoachHandSummaryOut(hand=number, status="done", decisions=len(review.decisions),
                                             mistakes=len(review.mistakes),
                                             points_lost=round(review.points_lost, 1)))
        game = judged.GameReview(seat, tuple(reviews))
        worst = game.costliest
        costliest = None if worst is None else CoachCostliestOut(
            hand=worst.hand, phase=worst.phase, trick=worst.trick, made_short=judged.short(worst.made),
            best_short=judged.short(worst.best), loss=worst.loss, reason=worst.reason)
        summary = CoachGameOut(hands=hands, reviewed=len(reviews), decisions=game.decisions,
                               mistakes=game.mistakes, points_lost=round(game.points_lost, 1),
                               costliest=costliest)
        return summary, any(h.status in _PENDING for h in hands)

    def points_lost(self, subject: str) -> tuple[int, float] | None:
        """How many of a game's hands the coach has reviewed, and the points its flagged decisions lost in
        them; None if it reviewed none (nothing is queued: this is for the person's figures)."""
        reviews = [r for number, kept in self.store.reviews(subject=subject).items()
                   if (r := self._kept(subject, number, kept)) is not None]
        return (len(reviews), sum(r.points_lost for r in reviews)) if reviews else None

    def _hand(self, subject: str, number: int, record: str, seat: int, kept: str | None,
              computer: frozenset[int]) -> CoachOut:
        """A finished hand's review from its kept row, or where its analysis stands (queued if need be)."""
        review = self._kept(subject, number, kept)
        if review is None:
            if self.coach is None:
                raise CoachUnavailable("This server runs without the coach.")
            progress = self.coach.request(subject, number, record, seat, computer)
            if progress is not None:
                return CoachOut(status=progress.status, done=progress.done, total=progress.total,
                                ahead=progress.ahead)
            review = self._kept(subject, number, self.store.review(subject=subject, hand=number))
            if review is None:
                raise CoachUnavailable("The coach's review of this hand was just found unreadable and "
                                       "dropped: ask again to have it made anew.")
        return CoachOut(status="done", done=len(review.decisions), total=len(review.decisions), review=review)

    def _kept(self, subject: str, number: int, kept: str | None) -> CoachReviewOut | None:
        """A kept review as read from the store; None if there is none, or if it cannot be read.

        An unreadable row (a damaged file, a hand edit) is logged in full and dropped, so that asking
        again makes it anew: a review is derived from the game's record, which is kept, and the
        coach is deterministic, so the new one is the review that was lost."""
        if kept is None:
            return None
        try:
            return CoachReviewOut.model_validate_json(kept)
        except ValidationError as e:
            _log.warning("coach: the kept review of %s hand %s cannot be read (%s); dropped to be made "
                         "again. It was: %r", subject, number + 1, e.errors()[0]["msg"], kept)
            self.store.drop_review(subject=subject, hand=number, review=kept)
            return None
