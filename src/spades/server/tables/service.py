"""Friends' tables as the routes serve them: open, look, join, act, and the hint, hand reviews and coach.

``TableService`` is to ``routes/tables.py`` what ``service.Service`` is to the solo game's routes: each
route is one call here. The tables themselves are the hub's; the coach's reviews are the server's
``Reviews``, kept under the table, the game and the seat.
"""

from __future__ import annotations

from typing import Any

from spades.bots import LEVELS, hint
from spades.game import Phase
from spades.moves import MakeBid, Play
from spades.record import dump_record
from spades.server.present import review_of
from spades.server.reviews import Reviews, table_subject
from spades.server.schemas import CoachGameOut, CoachOut, HandReview, HintOut
from spades.server.tables.commands import described
from spades.server.tables.hub import TableHub, normal_code
from spades.server.tables.table import FriendsTable, NotAllowed, TableNotFound, WrongTime, hash_token
from spades.server.tables.views import CommandIn, JoinIn, JoinOut, LobbyView, NewTableIn, TableView, view_of

__all__ = ["Coached", "TableService"]

Coached = tuple[str, str, int, int, frozenset[int]]
"""What the coach needs of a seat's game: the subject its reviews are kept under, the game's record, the
seat, its finished hands, and the seat's moves a computer player made (not the person's to be judged on)."""


def _player(token: str | None) -> str | None:
    """What a seat keeps of the player token it is linked to (its hash), if one was given."""
    return None if token is None else hash_token(token)


class TableService:
    """The friends' tables of a server: the hub's tables, the coach's reviews of their seats."""

    def __init__(self, hub: TableHub, reviews: Reviews) -> None:
        self.hub = hub
        self.reviews = reviews

    def open(self, body: NewTableIn, player: str | None) -> JoinOut:
        """Open a table; the host takes the first seat (``player``: their player token, if linked)."""
        return self.hub.open(body, _player(player))

    def lobby(self, code: str) -> LobbyView:
        """What the table's code shows before sitting down."""
        return self.hub.lobby(code)

    def join(self, code: str, body: JoinIn, player: str | None) -> JoinOut:
        """Take a free seat (or the first free one) with a display name."""
        hub = self.hub
        token, seat = hub.act(code, lambda t: t.join(body.name, body.seat, conn=hub.process,
                                                     player=_player(player)))
        return JoinOut(code=normal_code(code), seat=seat, token=token)

    def view(self, code: str, token: str | None) -> TableView:
        """The table as the token's seat sees it (no token: as a spectator does)."""
        return self.hub.view(code, token)

    def command(self, code: str, token: str, body: CommandIn) -> TableView:
        """Run a seated person's command; the table as their seat then sees it."""
        command = body.command()

        def act(t: FriendsTable, seat: int) -> TableView:
            t.run(seat, command)
            return view_of(t, seat)
        return self.hub.seat_act(code, token, act)

    @staticmethod
    def commands() -> list[dict[str, Any]]:
        """The commands a seated person may send, with what each is about and the fields it needs."""
        return described()

    def hint(self, code: str, token: str) -> HintOut:
        """What the computer would do in the token's seat now, and why."""
        def read(t: FriendsTable) -> HintOut:
            seat = t.seat_of(token)
            game = t.game
            if game is None or game.turn != seat or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                raise WrongTime("There is nothing for you to do right now.")
            level = t.options.level if t.options.level in LEVELS else "normal"  # never an outside bot
            h = hint(game.view(seat), level, seed=len(game.log))
            return HintOut(move=str(h.move), reason=h.reason,
                           card=str(h.move.card) if isinstance(h.move, Play) else None,
                           bid=str(h.move.bid) if isinstance(h.move, MakeBid) else None)
        return self.hub.read(code, read)

    def hand(self, code: str, token: str, number: int) -> HandReview:
        """A finished hand of the game being played, face up, for a seated person."""
        def read(t: FriendsTable) -> HandReview:
            t.seat_of(token)
            history = t.game.history if t.game is not None else ()
            if not 0 <= number < len(history):
                raise TableNotFound(f"Hand {number + 1} of this game is not finished.")
            assert t.game is not None
            return review_of(t.game.spec, history[number])
        return self.hub.read(code, read)

    def coach_hand(self, code: str, token: str | None, number: int) -> CoachOut:
        """The coach's review of the token's seat's decisions in finished hand ``number``, or where its
        analysis stands."""
        subject, record, seat, _, computer = self.hub.read(code, lambda t: _coached(t, token, number + 1))
        return self.reviews.hand(subject, number, record, seat, computer)

    def coach_game(self, code: str, token: str | None) -> tuple[CoachGameOut, bool]:
        """The coach's summary of the token's seat's game being played, and whether some hands' analyses
        are still pending."""
        subject, record, seat, finished, computer = self.hub.read(code, lambda t: _coached(t, token, 0))
        return self.reviews.game(subject, finished, record, seat, computer)


def _coached(t: FriendsTable, token: str | None, hands: int) -> Coached:
    """For the coach, the token's seat's game (``Coached``); refused to a spectator, or if fewer than
    ``hands`` hands are finished."""
    seat = t.viewer(token)
    if seat == t.players:
        raise NotAllowed("The coach reviews a seated person's own decisions: a spectator has none.")
    if t.game is None:
        raise TableNotFound("No game has started at this table yet.")
    finished = len(t.game.history)
    if finished < hands:
        raise TableNotFound(f"Hand {hands} of this game is not finished.")
    return (table_subject(t.code, len(t.past_seeds) + 1, seat), dump_record(t.game), seat, finished,
            t.computer_moves_of(seat))
