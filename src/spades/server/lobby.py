"""The lobby: the friends' tables their hosts list there, and the Quick game's queue.

A person who presses Quick game waits in the store's queue (one wait a player, whichever process they
ask) for a rule set. Whenever someone waiting asks how it stands (the page asks every second), their
process looks for a group to seat (``pick``): the longest waiter with the others nearest their rating,
within a window that widens as they wait; a whole table of them at once, or whoever is there once the
longest waiter has waited ``fill_after`` seconds (computer players take the other seats). A rating is the
person's under the rated rule set the rules play (``spades.ratings``), and a table of such rules is rated;
partners are paired strongest with weakest (``seating``). The process claims the group by a
compare-and-set on each of their rows in one transaction (another process that claimed any of them first
wins, and this claim changes nothing), then forms an ordinary friends' table with them seated and the
game dealt. A person's seat token is made from their player token and their
wait's ticket, so only their own requests can learn it, on any process; the table keeps its hash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from spades.errors import SpadesError
from spades.game import Phase
from spades.ratings import NotRated, Rating, computer, rated_rules_of
from spades.rules import PRESETS, Rules
from spades.server.store import QuickWait, Store
from spades.server.tables.commands import Start
from spades.server.tables.hub import TableHub, new_code
from spades.server.tables.state import (
    MAX_NAME,
    NotAllowed,
    TableError,
    TableNotFound,
    TableOptions,
    hash_token,
)
from spades.server.tables.table import FriendsTable
from spades.server.tables.views import LobbyView, lobby_of

__all__ = ["BASE_WINDOW", "FILL_AFTER", "WIDEN", "Listed", "Lobby", "QuickStatus", "Waiting", "pick",
           "quick_rules", "rated_as", "rules_key", "rules_of", "seat_token", "seating", "window"]

Listed = tuple[LobbyView, list[int | None]]
"""A listed table as the lobby shows it, and the rating of who sits in each seat (``Lobby.tables``)."""

BASE_WINDOW = 100.0
"""Points either side of a person's rating within which they meet others at once."""
WIDEN = 25.0
"""Points the window widens by for each second waited."""
FILL_AFTER = 20.0
"""Seconds the longest waiter waits before computer players take the seats no one came for (the server's
``quick_fill`` setting)."""
STALE = 10.0
"""Seconds a wait lasts without its page asking: the person left (a claimed table never formed is given
up after as long, and its people wait again)."""
KEPT = 60.0
"""Seconds a seat from a Quick game is given back to its person pressing again (a second press, or a
second tab), rather than a new wait."""
LISTED_IDLE = 3600.0
"""A listed table untouched for this long leaves the lobby."""
LISTED_MAX = 50
"""At most this many tables are listed, the latest touched first."""
QUICK_LEVEL, QUICK_GRACE, QUICK_TURN = "normal", 30.0, 30.0
"""A Quick game's table: its computer players' level, and clocks so that no one holds the others up."""


@dataclass(frozen=True)
class Waiting:
    """Someone waiting, as ``pick`` sees them."""

    player: str
    rating: float
    waited: float


def window(waited: float) -> float:
    """Points either side of a rating within which someone who has waited ``waited`` seconds meets others."""
    return BASE_WINDOW + WIDEN * waited


def pick(waiting: Sequence[Waiting], seats: int, fill_after: float) -> list[Waiting] | None:
    """Whom to seat at one table now, or None: the longest waiter who can be seated, with the others
    nearest their rating (each within the wider of the two's windows); a table's worth, or fewer once the
    longest waiter has waited ``fill_after`` seconds. At most ``seats``, each once.

    >>> ann, bob = Waiting("ann", 1500, 3), Waiting("bob", 1900, 1)
    >>> pick([ann, bob], 2, 20) is None        # 400 points apart, and not waited long
    True
    >>> [w.player for w in pick([Waiting("ann", 1500, 12), bob], 2, 20)]   # ann's window is 400 now
    ['ann', 'bob']
    >>> [w.player for w in pick([Waiting("ann", 1500, 21)], 4, 20)]        # the rest: computer players
    ['ann']
    """
    for anchor in sorted(waiting, key=lambda w: -w.waited):
        near = sorted((w for w in waiting if w.player != anchor.player
                       and abs(w.rating - anchor.rating) <= max(window(anchor.waited), window(w.waited))),
                      key=lambda w: abs(w.rating - anchor.rating))
        group = [anchor, *near[:seats - 1]]
        if len(group) == seats or anchor.waited >= fill_after:
            return group
    return None


def seating(ratings: Sequence[float], rules: Rules) -> list[int]:
    """The seat of each person of a group, by their ratings: the strongest first, the sides taking turns
    in a snake (0, 1, 1, 0...), so that partners pair the strongest with the weakest.

    >>> seating([1500, 1900, 1400, 1700], Rules())   # 1900 and 1400 partners, 1700 and 1500
    [3, 0, 2, 1]
    """
    order = sorted(range(len(ratings)), key=lambda i: -ratings[i])
    sides = [k for r in range(rules.players) for k in (range(rules.sides) if r % 2 == 0
                                                        else reversed(range(rules.sides)))]
    free = {k: list(rules.seats_of(k)) for k in range(rules.sides)}
    seats = [0] * len(ratings)
    for i, side in zip(order, (k for k in sides if free[k]), strict=False):
        seats[i] = free[side].pop(0)
    return seats


def rated_as(rules: Rules) -> str | None:
    """The rated rule set these rules play (a Quick game of them is rated), or None."""
    try:
        return rated_rules_of(rules)
    except NotRated:
        return None


def seat_token(player_token: str, ticket: str) -> str:
    """The seat token a Quick game's person gets: made from their player token and their wait's ticket,
    so that any process can give it to them, and none without their player token."""
    digest = hmac.new(player_token.encode(), ticket.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


@dataclass(frozen=True)
class QuickStatus:
    """Where a person's Quick game stands: waiting (with the countdown), or seated (with the seat)."""

    wait: QuickWait
    rules: Rules
    fill_in: float
    """Seconds before computer players take the seats no one came for (0 once seated)."""
    token: str | None
    """The seat token, once seated."""
    others: int = 0
    """How many others were waiting for the same rules, as the process looked (0 once seated)."""


class Lobby:
    """The lobby's tables and the Quick game's queue, over the store and the friends' tables' hub."""

    def __init__(self, store: Store, hub: TableHub, fill_after: float = FILL_AFTER) -> None:
        self.store = store
        self.hub = hub
        self.fill_after = fill_after

    def tables(self) -> tuple[list[Listed], list[Listed]]:
        """The listed tables, the latest touched first: those with a free seat whose game is not over (to
        join), and those whose game is under way (to watch: one may be in both); each with the rating of
        who sits in each seat under the rated rule set its rules play (None: a free seat, a person not
        known by a player token, or rules no rated rule set covers)."""
        found: list[tuple[LobbyView, str | None, list[str | None], bool, bool]] = []
        for code in self.store.listed_tables(max_idle=LISTED_IDLE, limit=LISTED_MAX):
            try:
                seen = self.hub.read(code, _listed)
            except TableError:  # expired or damaged meanwhile: not listed
                continue
            if seen is not None:
                found.append(seen)
        wanted: dict[str, set[str]] = {}
        for _, rated, ids, _, _ in found:
            if rated is not None:
                wanted.setdefault(rated, set()).update(i for i in ids if i is not None)
        known = {rated: self.store.ratings_of(players=ids, rules=rated) for rated, ids in wanted.items()}
        shown = [((view, [None if rated is None or i is None else known[rated].get(i, Rating()).shown
                          for i in ids]), free, playing) for view, rated, ids, free, playing in found]
        return [t for t, free, _ in shown if free], [t for t, _, playing in shown if playing]

    def press(self, player_token: str, name: str, rules: Rules) -> QuickStatus:
        """Quick game pressed: the person waits for ``rules`` (once, however often they press), and is
        seated at once if others are there for them."""
        FriendsTable("", TableOptions(rules), self.hub.clock).join(name)  # the name is checked first
        player, rated = hash_token(player_token), rated_as(rules)
        rating = Rating() if rated is None else self.store.ratings_of(players=[player], rules=rated).get(
            player, Rating())
        ticket = secrets.token_urlsafe(12)
        wait = QuickWait(player=player, rules=rules_key(rules), name=name.strip(), rating=rating.shown,
                         ticket=ticket, sealed=hash_token(seat_token(player_token, ticket)),
                         waited=0.0, code=None, seat=None, formed=False)
        return self._status(player_token, self.store.quick_wait(wait=wait, kept=KEPT))

    def status(self, player_token: str) -> QuickStatus:
        """How the person's Quick game stands (asking keeps them in the queue); TableNotFound if they are
        not waiting."""
        wait = self.store.quick_seen(player=hash_token(player_token))
        if wait is None:
            raise TableNotFound("You are not waiting for a Quick game: press Quick game to wait for one.")
        return self._status(player_token, wait)

    def cancel(self, player_token: str) -> None:
        """The person leaves the queue; NotAllowed if a table was formed (or is being formed) for them."""
        wait = self.store.quick_cancel(player=hash_token(player_token))
        if wait is not None:
            raise NotAllowed(f"A table was formed for you already: it is {wait.code}, where your seat waits.")

    def _status(self, player_token: str, wait: QuickWait) -> QuickStatus:
        """The person's status, once their process has looked for a table for those waiting with them."""
        others = 0
        if wait.code is None:
            others = self._match(wait.rules) - 1
            wait = self.store.quick_seen(player=wait.player) or wait
        rules = rules_of(wait.rules)
        if wait.formed:
            return QuickStatus(wait, rules, 0.0, seat_token(player_token, wait.ticket))
        return QuickStatus(wait, rules, max(0.0, self.fill_after - wait.waited), None, max(0, others))

    def _match(self, key: str) -> int:
        """Seat a group of those waiting for a rule set, if ``pick`` finds one and no other process claims
        any of them first; how many were waiting."""
        waiting = self.store.quick_waiting(rules=key, stale=STALE)
        rules = rules_of(key)
        group = pick([Waiting(w.player, w.rating, w.waited) for w in waiting], rules.players, self.fill_after)
        if group is None:
            return len(waiting)
        by_player = {w.player: w for w in waiting}
        people = [by_player[g.player] for g in group]
        code = new_code()
        seats = dict(zip((w.player for w in people), seating([w.rating for w in people], rules), strict=True))
        if self.store.quick_claim(rules=key, code=code, seats=seats):
            options = TableOptions(rules, level=QUICK_LEVEL, grace=QUICK_GRACE, turn_seconds=QUICK_TURN,
                                   rated=rated_as(rules) is not None)
            # a code taken meanwhile (one in 10^9) forms nothing: the claim lapses, and its people wait again
            if self.hub.log.create(code, options.to_json()):
                self.hub.act(code, lambda t: _seat_all(t, people, seats))
                self.store.quick_formed(code=code)
        return len(waiting)


def _seat_all(table: FriendsTable, people: Sequence[QuickWait], seats: dict[str, int]) -> None:
    """Seat a Quick game's people, each in the seat claimed for them (a name the table has already gets
    a number), and deal: computer players take the other seats."""
    taken: set[str] = set()
    for w in people:
        name, k = w.name, 2
        while name.casefold() in taken:
            name, k = f"{w.name[:MAX_NAME - 5]} ({k})", k + 1
        taken.add(name.casefold())
        table.join(name, seats[w.player], player=w.player, sealed=w.sealed)
    assert table.host is not None
    table.run(table.host, Start())


def _rated_ids(table: FriendsTable) -> tuple[str | None, list[str | None]]:
    """The rated rule set a table's rules play (None: none), and who is rated in each seat: the person
    by their player token, a computer level where a computer player plays, None where a seat is free."""
    level = computer(table.options.level)
    return rated_as(table.options.rules), [
        s.player if s.person else level if s.kept or table.started else None for s in table.seats]


def _open(table: FriendsTable) -> bool:
    """Whether someone may sit down at a listed table now: a seat is free, and its game (if one is dealt)
    is neither over nor rated (a rated table takes no one into a game under way)."""
    game = table.game
    playing = game is not None and (game.phase is Phase.GAME_OVER or table.options.rated)
    return not playing and any(not s.person and not s.kept for s in table.seats)


def _listed(table: FriendsTable) -> tuple[LobbyView, str | None, list[str | None], bool, bool] | None:
    """A listed table as the lobby lists it (its view, who is rated in each seat, whether one may join it,
    and whether its game is under way, to watch), or None if it is neither to join nor to watch."""
    game = table.game
    free, playing = _open(table), game is not None and game.phase is not Phase.GAME_OVER
    return (lobby_of(table), *_rated_ids(table), free, playing) if free or playing else None


def rules_key(rules: Rules) -> str:
    """The rule set people wait for, as the queue keys it: every option as canonical JSON, without the
    rules' name (the same rules asked for as a preset or as its options are one rule set)."""
    options = rules.to_dict()
    del options["name"]
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def rules_of(key: str) -> Rules:
    """The rules a queue's key stands for, named as their preset if they are one.

    >>> rules_of(rules_key(Rules.from_dict({"preset": "pagat", "target": 500}))).name
    'pagat'
    """
    rules = Rules.from_dict(json.loads(key))
    return next((preset for preset in PRESETS.values() if preset == rules), rules)


def quick_rules(preset: str, options: dict[str, object]) -> Rules:
    """The rules a Quick game is asked for; TableError (a 400) with the reason if they are not rules."""
    try:
        return Rules.from_dict({"preset": preset, **options})
    except SpadesError as e:
        raise TableError(str(e)) from None
