"""The ratings as the API serves them: a player's profile (each rated rule set's rating and the rated
games behind it), the caller's own, and the leaderboard of each rated rule set.

The ratings themselves are ``spades.ratings``'s, kept by the store as rated games end; this module only
reads them and names the players: a computer level by its name, a person by their account's name.
"""

from __future__ import annotations

from spades.bots import LEVELS
from spades.protocol.remote import REMOTE_PREFIX
from spades.ratings import PROVISIONAL_GAMES, RATED, Rating, computer, level_of
from spades.server.accounts.names import BadName, check_name, name_key
from spades.server.archive import Archive, page_of
from spades.server.schemas import (
    LeaderboardOut,
    LeaderOut,
    ProfileOut,
    RatedGameOut,
    RatingOut,
    StandingOut,
)
from spades.server.service import NotFound
from spades.server.store import RatingChange, Store
from spades.server.tables.state import hash_token

__all__ = ["HISTORY", "Standings"]

HISTORY = 200
"""Rated games a profile lists (its rating's history): the latest."""
RECENT = 20
"""Finished games a person's profile lists, rated or not: the latest."""


class Standings:
    """Profiles and leaderboards, read from the store."""

    def __init__(self, store: Store, archive: Archive) -> None:
        self.store = store
        self.archive = archive

    def profile(self, name: str) -> ProfileOut:
        """The profile of the player with this name (a computer level's name, or an account's)."""
        return self._profile(*self.who(name))

    def who(self, name: str) -> tuple[str, str, str | None, bool]:
        """The rated id of the player with this name (any look-alike of it, or a remote bot's computer
        players' name), the name as shown, a person's player token (None for a computer level or a bot),
        and whether it is a bot account; NotFound if no player has it."""
        if name.startswith(REMOTE_PREFIX):
            account = self.store.bot_by_name(name_key=name.removeprefix(REMOTE_PREFIX))
            if account is None:  # no bot account (any more): rated as the computer players were
                return computer(name), name, None, False
            return account.player_hash, account.name, None, True
        if name in LEVELS:
            return computer(name), name, None, False
        try:
            account = self.store.account_by_name(name_key=name_key(check_name(name)))
        except BadName:  # not a name an account can have (nor is it asked of the database)
            account = None
        if account is None:
            raise NotFound(f"No player is named {name[:40]!r}.")
        if self.store.bot_by_name(name_key=account.name_key) is not None:
            return account.player_hash, account.name, None, True
        return account.player_hash, account.name, account.player, False

    def own(self, token: str) -> ProfileOut:
        """The caller's own ratings and rated games (with no rated game yet: none), under their account's
        name if they have one."""
        account = self.store.account(player=token)
        return self._profile(hash_token(token), None if account is None else account.name, token)

    def leaderboard(self, rules: str, limit: int, token: str | None = None) -> LeaderboardOut:
        """The named players and computer levels past their provisional games under a rated rule set, the
        highest first; and, for the caller (``token``: theirs, if they sent it), their own standing."""
        if rules not in RATED:
            raise NotFound(f"No rated rule set is called {rules[:40]!r}: the rated rule sets are "
                           f"{', '.join(RATED)}.")
        rows = self.store.leaderboard(rules=rules, limit=limit)
        return LeaderboardOut(rules=rules, rated_rules=list(RATED), leaders=[
            LeaderOut(rank=i + 1, name=name or level_of(player) or "", computer=name is None, bot=bot,
                      rating=r.shown, uncertainty=r.uncertainty, games=r.games)
            for i, (player, r, name, bot) in enumerate(rows)],
            you=None if token is None else self._standing(rules, token, [row[0] for row in rows]))

    def _standing(self, rules: str, token: str, listed: list[str]) -> StandingOut | None:
        """The caller's standing under a rated rule set (None before their first rated game there): their
        place among the rated ids ``listed``, highest first, if they are one of them."""
        me = hash_token(token)
        r = self.store.ratings(player=me).get(rules)
        if r is None:
            return None
        account = self.store.account(player=token)
        return StandingOut(**_rating(rules, r).model_dump(), name=None if account is None else account.name,
                           rank=listed.index(me) + 1 if me in listed else None,
                           to_list=max(0, PROVISIONAL_GAMES - r.games))

    def _profile(self, player: str, name: str | None, token: str | None = None,
                 bot: bool = False) -> ProfileOut:
        """A rated id's ratings and history, under the name shown; for a person (``token``: theirs), their
        figures and latest games too."""
        ratings = self.store.ratings(player=player)
        return ProfileOut(name=name, computer=level_of(player) is not None, bot=bot,
                          ratings=[_rating(rules, r) for rules, r in sorted(ratings.items())],
                          history=[_game(c) for c in self.store.rating_history(player=player, limit=HISTORY)],
                          stats=None if token is None else self.archive.stats(token),
                          recent=[] if token is None else self.archive.recent(token, RECENT))


def _rating(rules: str, r: Rating) -> RatingOut:
    """A rating as the API shows it."""
    return RatingOut(rules=rules, rating=r.shown, uncertainty=r.uncertainty, games=r.games,
                     provisional=r.provisional)


def _game(c: RatingChange) -> RatedGameOut:
    """A rated game of a player's history as the API shows it."""
    return RatedGameOut(game=c.game, page=f"/games/{page_of(c.game)}", rules=c.rules, place=c.place,
                        won=c.place == 0, before=c.before.shown,
                        after=c.after.shown, at=c.at)
