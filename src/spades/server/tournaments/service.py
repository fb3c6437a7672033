"""Hosted tournaments as the routes serve them: create, register, start, look, end a round, withdraw.

Every change reads the tournament's document, changes it and writes it back on its version (another
process that wrote first makes this one read and try again), so any process serves any request. The
rounds move on by themselves: whoever looks at the tournament once every table of the round has played
its boards opens the next round's tables (the write's compare-and-set lets one process do it). A table's
code is derived from the tournament's secret seed, the round and the table's number, so processes that
open the same round at once open the same tables, each seated once, and none is left over. A round's
tables are ordinary friends' tables of the round's boards (``TableOptions.boards``) with the people seated
where the movement puts them, each marked away until their page connects, so that a computer player
takes the seat of anyone who does not come once the table's grace period is over.

A person's seat token at a round's table is made from their registration token's hash and the table's
code (``lobby.seat_token``): their own requests fetch it, from any process; the table keeps its hash.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from collections.abc import Callable, Mapping
from typing import TypeVar

from spades.errors import SpadesError
from spades.game import HandResult
from spades.rules import Rules, option
from spades.server.lobby import seat_token
from spades.server.store import Store
from spades.server.tables.entries import Away, BotSeated, GameDealt
from spades.server.tables.hub import CODE_ALPHABET, CODE_LENGTH, TableHub, new_code, normal_code
from spades.server.tables.state import (
    NameTaken,
    NotAllowed,
    TableError,
    TableNotFound,
    TableOptions,
    WrongTime,
    hash_token,
)
from spades.server.tables.table import FriendsTable
from spades.server.tournaments.model import Person, Tournament
from spades.tournament.movement import max_rounds
from spades.tournament.run import Format, TournamentResult

__all__ = ["ANNOUNCED", "MIN_PEOPLE", "Tournaments"]

T = TypeVar("T")
Played = list[list[list[HandResult]]]
"""The hands each table of each opened round played, board by board."""
MIN_PEOPLE = {"duplicate-pairs": (5, "three pairs"), "swiss": (3, "two pairs"),
              "individual": (4, "a table of four"), "teams": (5, "two teams")}
"""The fewest people each format starts with, and what they make (a missing partner or team-mate is a
computer player): duplicate pairs compares each board across tables, so it needs three pairs (a computer
pair fills an odd field); the others need one match."""
TABLE_TARGET = option("target").high
"""The target of a round's tables, which have no low mark either: a board is one hand from 0-0 compared by
its points, which neither changes, so no board ends a game (whose end the page would show instead of the
next board, and a linked person's stats would count, as they count no other board)."""
ANNOUNCED = "tournament:"
"""Each write of a tournament is announced on the tables' event bus under this and its code (no table's
code: the tables' listeners pass it by), at the version written, for the pages that follow it
(``live.Watch``), in every process."""
LISTED_FOR = 7 * 24 * 3600.0
"""Seconds a listed tournament stays in the list (one never started leaves it so)."""
LISTED_MOST = 50
"""At most this many tournaments are listed at once."""
_RETRIES = 8
_SEED_BELOW = 10**9


class Tournaments:
    """The hosted tournaments of a server, over the store and the friends' tables' hub."""

    def __init__(self, store: Store, hub: TableHub) -> None:
        self.store = store
        self.hub = hub

    def create(self, name: str, rules: Rules, rounds: int, boards: int, level: str, turn_seconds: float,
               grace: float, fmt: Format = "duplicate-pairs", individual: bool = False,
               to_target: bool = False, listed: bool = False) -> tuple[str, str]:
        """A new tournament open for registration: its code and the host's secret token. Its rounds are
        ``boards`` boards, or (``to_target``, Swiss only) a game to the rules' target at each table;
        ``listed``: in the list anyone may join from (``listed``), else known by its link alone."""
        _table_options(rules, level, turn_seconds, grace, (1,))  # the tables' choices checked first
        if rules.players != 4 or not rules.has_partners:
            raise TableError("A tournament is played by four players in two partnerships: choose such rules.")
        if individual and fmt != "swiss":
            raise TableError("Only Swiss is played by individuals: the other formats seat fixed pairs or "
                             "teams.")
        if to_target and fmt != "swiss":
            raise TableError("Only Swiss plays its rounds to a target: duplicate pairs and teams compare the "
                             "same boards at every table.")
        host = secrets.token_urlsafe(18)
        t = Tournament("", name, rules, rounds, 0 if to_target else boards, level, turn_seconds, grace,
                       secrets.randbelow(_SEED_BELOW) + 1, hash_token(host), fmt, individual, to_target)
        for _ in range(_RETRIES):
            code = new_code()
            if self.store.add_tournament(code=code, doc=json.dumps(t.to_json()), listed=listed):
                return code, host
        raise TableError("No free tournament code was found: try again.")

    def register(self, code: str, name: str | None, player: str | None) -> tuple[str, int]:
        """Register a person before the start, under their account's name if ``player`` (their player
        token) has an account, else under ``name``: their secret token and their number, from 0."""
        account = None if player is None else self.store.account(player=player)
        if account is not None:
            name = account.name
        if name is None:
            self._load(code)  # an unknown tournament is a 404 first
            raise TableError("Give a name to register under (or sign in to register under your account's).")
        FriendsTable("", TableOptions(Rules()), self.hub.clock).join(name)  # a name a table would seat
        token, linked = secrets.token_urlsafe(18), None if account is None else account.player_hash
        shown = name.strip()

        def change(t: Tournament) -> int:
            if t.status != "open":
                raise WrongTime("The tournament has started: registration is closed. Watch its standings.")
            if linked is not None and any(p.player == linked for p in t.people):
                raise NameTaken(f"You are registered already, as {shown}.")
            if any(p.name.casefold() == shown.casefold() for p in t.people):
                raise NameTaken(f"{shown} is registered already: register once, under another name if you "
                                "are someone else.")
            t.people.append(Person(shown, hash_token(token), player=linked))
            return len(t.people) - 1
        return token, self._change(code, change)

    def withdraw(self, code: str, number: int, token: str) -> None:
        """Withdraw person ``number`` (the host, or that person, asks with their token): before the start
        they leave the list; after it a computer player plays for them from now on."""
        def change(t: Tournament) -> None:
            person = _person(t, number)
            if hash_token(token) not in (t.host, person.token):
                raise NotAllowed("Only the host, or the person themselves, may withdraw an entry.")
            if t.over:
                raise WrongTime("The tournament is over.")
            if t.status == "open":
                del t.people[number]
                return
            if person.computer:
                raise WrongTime(f"A computer player plays for {person.name} already.")
            person.computer = True
            r = t.current
            for table, code_ in enumerate(t.tables[r]):
                seats = t.seats(r, table)
                if number in seats:
                    self.hub.act(code_, functools.partial(_to_computer, seat=seats.index(number)))
        self._change(code, change)

    def start(self, code: str, host: str) -> None:
        """The host starts the tournament: the first round's tables open."""
        def change(t: Tournament) -> None:
            _need_host(t, host)
            if t.status != "open":
                raise WrongTime("The tournament has started already.")
            least, make = MIN_PEOPLE["individual" if t.individual else t.format]
            if len(t.people) < least:
                raise WrongTime(f"This tournament needs at least {least} people ({make}); "
                                f"{len(t.people)} registered.")
            most = _most_rounds(t)
            if most is not None and t.rounds > most:
                what, new = ("people", "partners someone new") if t.individual else \
                    ("pairs", "meets a new pair")
                raise WrongTime(f"{t.entrants} {what} cannot be paired for {t.rounds} rounds: each {new} for "
                                f"{most} rounds at most. Wait for more people, or start a new tournament "
                                "with fewer rounds.")
            t.pair_next([])
            self._open_round(t)
        self._change(code, change)

    def end_round(self, code: str, host: str, number: int | None = None) -> None:
        """The host ends the round being played (round ``number``, from 1, if given: a second click on a
        page that showed that round does not end the next one too): the boards every table has played
        count, and the next round opens."""
        def change(t: Tournament) -> None:
            _need_host(t, host)
            if t.status != "playing":
                raise WrongTime("No round is being played.")
            if number is not None and number != t.current + 1:
                raise WrongTime(f"Round {number} is over already: round {t.current + 1} is being played.")
            played = [self._played(t, r, {}) for r in range(len(t.tables))]
            t.end_round(played[-1])
            self._step(t, played)
        self._change(code, change)

    def look(self, code: str, known: Mapping[str, int] | None = None,
             ) -> tuple[Tournament, TournamentResult, list[int]]:
        """The tournament (its next round opened if the last is over), its results so far, and how many
        boards each table of the current round has played; ``known``: versions some tables are known to
        have reached (this process's copies that far along are taken as they are, without asking the
        store whether they are behind)."""
        t, played = self._stepped(code, known or {})
        return t, t.result(played), [len(h) for h in played[-1]] if played else []

    def listed(self) -> list[Tournament]:
        """The tournaments their hosts listed that are open for registration or under way, made in the last
        ``LISTED_FOR`` seconds, the newest first (at most ``LISTED_MOST``)."""
        return [Tournament.from_json(code, json.loads(doc))
                for code, doc in self.store.listed_tournaments(max_age=LISTED_FOR, limit=LISTED_MOST)]

    def rules(self, code: str) -> Rules:
        """The rules a tournament's tables play (TableNotFound if there is no such tournament): its boards
        opened as solo games are dealt under them."""
        return self._load(code)[0].rules

    def seat(self, t: Tournament, token: str) -> tuple[int, str | None, int | None, str | None]:
        """For a registration token: the person's number, and at the table of the round being played (if
        they sit there) its code, their seat and their seat token; NotAllowed for a token it never gave."""
        h = hash_token(token)
        number = next((i for i, p in enumerate(t.people) if p.token == h), None)
        if number is None:
            raise NotAllowed("This registration token is not one of this tournament's: register again.")
        r = t.current
        for table, code in enumerate(t.tables[r] if r >= 0 and not t.over else []):
            seats = t.seats(r, table)
            if number in seats and not t.people[number].computer:
                return number, code, seats.index(number), seat_token(h, code)
        return number, None, None, None

    # -- inside --------------------------------------------------------------------------

    def _load(self, code: str) -> tuple[Tournament, int]:
        """The stored tournament and its version (TableNotFound if none)."""
        code = normal_code(code)
        found = self.store.tournament(code=code)
        if found is None:
            raise TableNotFound(f"No tournament has the code {code}: check the link.")
        doc, version = found
        return Tournament.from_json(code, json.loads(doc)), version

    def _change(self, code: str, change: Callable[[Tournament], T]) -> T:
        """Change the tournament and store it on the version read; read again and retry if another wrote
        first."""
        for _ in range(_RETRIES):
            t, version = self._load(code)
            out = change(t)
            if self._save(t, version):
                return out
        raise TableError("The tournament is very busy: try again.")

    def _stepped(self, code: str, known: Mapping[str, int]) -> tuple[Tournament, Played]:
        """The tournament with its rounds moved on as far as they are over, and each opened round's
        tables' played boards (``known``: as in ``look``)."""
        for _ in range(_RETRIES):
            t, version = self._load(code)
            played = [self._played(t, r, known) for r in range(len(t.tables))]
            if t.over or not played or not t.round_over(played[-1], t.current):
                return t, played
            self._step(t, played)
            if self._save(t, version):
                opened = [self._played(t, t.current, known)] if len(t.tables) > len(played) else []
                return t, [*played, *opened]
        raise TableError("The tournament is very busy: try again.")

    def _save(self, t: Tournament, version: int) -> bool:
        """Write the tournament on the version read, and announce it; False if another wrote first."""
        if not self.store.save_tournament(code=t.code, version=version, doc=json.dumps(t.to_json()),
                                          status=t.status):
            return False
        self.hub.bus.publish(ANNOUNCED + t.code, version + 1)
        return True

    def _step(self, t: Tournament, played: list[list[list[HandResult]]]) -> None:
        """The current round is over (``played``: what every opened round's tables played): pair and open
        the next, or end the tournament after the last."""
        if len(t.tables) < t.rounds:
            t.pair_next(played)
            self._open_round(t)
        else:
            t.over = True

    def _played(self, t: Tournament, r: int, known: Mapping[str, int]) -> list[list[HandResult]]:
        """The hands each table of round ``r`` played, board by board (or hand by hand of its game;
        ``known``: as in ``look``)."""
        return [self.hands_of(code, t.to_target, known.get(code)) for code in t.tables[r]]

    def hands_of(self, code: str, game: bool, known: int | None = None) -> list[HandResult]:
        """The hands a table played: its boards, or (``game``) the hands of the game it was dealt. From the
        hub's copy (taken as it is if at version ``known``), or from the store's log once the table is idle
        past the tables' expiry (a finished tournament's results stay)."""
        reader = _first_game if game else FriendsTable.played_boards
        try:
            return self.hub.read(code, reader, known)
        except TableNotFound:
            options, entries = self.hub.log.load(code)
            return reader(FriendsTable.replay(code, TableOptions.from_json(options), entries, self.hub.clock))

    def _open_round(self, t: Tournament) -> None:
        """Open the next round's tables, people seated and marked away until they connect, the first
        board dealt."""
        r = len(t.tables)
        options = _round_options(t, r)
        codes: list[str] = []
        for table in range(len(t.round_tables(r))):
            code = self._claim(t, r, table, options, codes)
            people = [(seat, t.people[i]) for seat, i in enumerate(t.seats(r, table)) if i is not None]
            deal = t.first_deal(r, table)
            self.hub.act(code, functools.partial(_seat_all, people=people, code=code, deal=deal))
            codes.append(code)
        t.tables.append(codes)
        t.cuts.append(None)

    def _claim(self, t: Tournament, r: int, table: int, options: TableOptions, taken: list[str]) -> str:
        """The code of table ``table`` of round ``r``, created now or by another process opening the same
        round: the first of the table's derived codes (``_table_code``) that is free or holds a table of
        these options, and not one of ``taken`` (this round's tables before it)."""
        wanted = json.loads(json.dumps(options.to_json()))  # as the store gives it back
        for attempt in range(_RETRIES):
            code = _table_code(t, r, table, attempt)
            if code in taken:
                continue
            if self.hub.log.create(code, wanted):
                return code
            try:
                if self.hub.log.load(code)[0] == wanted:
                    return code
            except TableNotFound:  # expired meanwhile: a stranger's table, its code not ours
                pass
        raise TableError("No free table code was found: try again.")


def _table_options(rules: Rules, level: str, turn_seconds: float, grace: float, boards: tuple[int, ...],
                   tournament: str | None = None) -> TableOptions:
    """A round's tables' options (a TableError says what is wrong with the choices)."""
    try:
        return TableOptions(rules, level=level, turn_seconds=turn_seconds, grace=grace, boards=boards,
                            tournament=tournament)
    except SpadesError as e:
        raise TableError(str(e)) from None


def _table_code(t: Tournament, r: int, table: int, attempt: int) -> str:
    """The ``attempt``-th code for table ``table`` of round ``r``, from the tournament's secret seed: every
    process that opens the round picks the same codes, and nobody outside can (a squatter only makes it
    take the next)."""
    digest = hashlib.blake2b(f"{t.code}:{t.seed}:{r}:{table}:{attempt}".encode(), digest_size=8).digest()
    n = int.from_bytes(digest, "big")
    return "".join(CODE_ALPHABET[(n >> (5 * i)) % len(CODE_ALPHABET)] for i in range(CODE_LENGTH))


def _round_options(t: Tournament, r: int) -> TableOptions:
    """Round ``r``'s tables' options: its boards, or an ordinary table's game to the rules' target."""
    if t.to_target:
        return _table_options(t.rules, t.level, t.turn_seconds, t.grace, (), t.code)
    rules = t.rules.replace(target=TABLE_TARGET, low_mark=None)
    return _table_options(rules, t.level, t.turn_seconds, t.grace, t.deals(r), t.code)


def _first_game(table: FriendsTable) -> list[HandResult]:
    """The hands of the game a table of a round to a target was dealt (its only one: a tournament's table
    takes no rematch)."""
    return list(table.game.history) if table.game is not None else []


def _seat_all(table: FriendsTable, people: list[tuple[int, Person]], code: str, deal: int) -> None:
    """Seat a round's people at their table, each away until a page of theirs connects (a computer player
    takes the seat of whoever is not there when the grace period is over), a computer player for those
    withdrawn; then deal ``deal``, the first board (or the game). Nothing if that was done (by another
    process opening the round at the same time)."""
    if table.started:
        return
    for seat, person in people:
        table.join(person.name, seat, player=person.player, sealed=hash_token(seat_token(person.token, code)))
        table.commit(BotSeated(seat=seat) if person.computer else Away(seat=seat))
    table.commit(GameDealt(seed=deal))


def _to_computer(table: FriendsTable, seat: int) -> None:
    """A computer player takes a withdrawn person's seat (if no computer player has it already)."""
    if not table.seats[seat].bot:
        table.commit(BotSeated(seat=seat))


def _most_rounds(t: Tournament) -> int | None:
    """The most rounds in which the entrants can all meet someone new: a Mitchell has a round a table;
    fixed-pair Swiss meets each other pair once (an odd field sits out once each), individual Swiss
    partners each other person once; two teams or more may meet again (None: no limit)."""
    n = t.entrants
    if t.format == "duplicate-pairs":
        return max_rounds(n)
    if t.format == "teams":
        return None
    return n - 1 if t.individual else n - 1 + n % 2


def _need_host(t: Tournament, token: str) -> None:
    """NotAllowed unless the token is the host's."""
    if hash_token(token) != t.host:
        raise NotAllowed("Only the host can do that.")


def _person(t: Tournament, number: int) -> Person:
    """Registered person ``number`` (TableNotFound if none)."""
    if not 0 <= number < len(t.people):
        raise TableNotFound(f"No one is registered as number {number}.")
    return t.people[number]
