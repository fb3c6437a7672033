"""A tournament between computer players on this machine, and its results as text, JSON and CSV.

Each round deals its boards (numbered deals from the seed, as the arena's, each one hand from 0-0)
to every table; the format seats the tables: duplicate pairs by the Mitchell movement, Swiss and
teams from the standings so far. The tables of a round are played in parallel over ``jobs``
processes, and the results do not depend on how many: a board's players draw their randomness from
its deal number alone.

>>> result = run_tournament("duplicate-pairs", ["normal", "easy", "random", "normal"], rounds=2, boards=1)
>>> len(result.rounds), len(result.lines)
(2, 4)
>>> standings = [s for _, s in result.standings()]
>>> sum(s.score for s in standings) * 2 == sum(s.top for s in standings)  # 2 matchpoints a comparison
True
"""

from __future__ import annotations

import csv
import io
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from spades.arena import deal_number, seated
from spades.bots import play_out
from spades.errors import TournamentError
from spades.game import SEAT_NAMES, Game, HandResult
from spades.protocol import check_player
from spades.rules import Rules, find_preset
from spades.tournament.movement import mitchell
from spades.tournament.scores import (
    BoardScore,
    Seating,
    Standing,
    board_matchpoints,
    deal_margins,
    duplicate_standings,
    match_standings,
    ranked,
)
from spades.tournament.swiss import swiss_round

__all__ = [
    "FORMATS",
    "NAMES",
    "Entry",
    "Format",
    "Round",
    "Table",
    "TournamentResult",
    "Traveller",
    "board_played",
    "board_title",
    "format_standings",
    "format_travellers",
    "heading",
    "parse_entries",
    "run_tournament",
    "standings_table",
    "traveller_table",
]

Format = Literal["duplicate-pairs", "swiss", "teams"]
FORMATS: tuple[Format, ...] = ("duplicate-pairs", "swiss", "teams")
"""The formats, as ``spades tournament --format`` names them."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entrant: its name and the level of each player it seats (1 an individual, 2 a pair, 4 a team;
    a team's first two sit at the first table of a match, the other two at the second)."""

    name: str
    levels: tuple[str, ...]


def parse_entries(texts: Sequence[str], size: int) -> tuple[Entry, ...]:
    """Entries from their texts: a level, or levels joined by ``+`` (``expert+normal``), repeated to
    fill the ``size`` seats of an entrant. A name given twice gets a number (``normal #2``)."""
    entries: list[Entry] = []
    for text in texts:
        levels = tuple(t.strip() for t in text.split("+"))
        for level in levels:
            check_player(level)
        if size % len(levels):
            fits = " or ".join(str(n) for n in (1, 2, 4) if n <= size)
            raise TournamentError(f"The entry {text!r} names {len(levels)} levels: an entrant here "
                                  f"seats {size} players, so name {fits}.")
        seen = sum(e.levels == levels * (size // len(levels)) for e in entries)
        name = "+".join(levels) + (f" #{seen + 1}" if seen else "")
        entries.append(Entry(name, levels * (size // len(levels))))
    return tuple(entries)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's boards (deal numbers), its tables, and who sat out."""

    number: int
    deals: tuple[int, ...]
    tables: tuple[Seating, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Traveller:
    """How one table bid, played and scored one board: the line a traveller shows."""

    score: BoardScore
    deal: int
    bids: tuple[str, ...]
    """Each seat's bid, North first."""
    tricks: tuple[int, ...]
    """Tricks each seat won, North first."""
    play: tuple[str, ...]
    """Each trick as its leader's initial and the cards in the order played: ``W: 4C KC 2C 9C``."""


@dataclass
class TournamentResult:
    """A finished tournament: what was asked, each round's seating and every table's every board."""

    format: Format
    individual: bool
    rules: Rules
    seed: int
    boards: int
    entries: tuple[Entry, ...]
    fill: Entry | None
    rounds: list[Round] = field(default_factory=list)
    lines: list[Traveller] = field(default_factory=list)

    def scores(self) -> list[BoardScore]:
        """Every table's score on every board, in the order played."""
        return [t.score for t in self.lines]

    def standings(self) -> list[tuple[int, Standing]]:
        """The standings with their places (ties share one)."""
        n = len(self.entries)
        if self.format == "duplicate-pairs":
            return ranked(duplicate_standings(n, self.scores()), by_percent=True)
        byes = [e for r in self.rounds for e in r.byes]
        return ranked(match_standings(n, self.scores(), byes), by_percent=False)

    def name(self, entrant: int) -> str:
        """An entrant's name (the computer pair filling an odd field is the one past the last)."""
        if entrant < len(self.entries):
            return self.entries[entrant].name
        assert self.fill is not None
        return f"{self.fill.name} (fill)"

    def travellers(self) -> Iterator[tuple[int, list[Traveller], list[tuple[int, int] | None]]]:
        """Each board (from 0) with its lines and, in duplicate pairs, each line's matchpoints."""
        by_board: dict[int, list[Traveller]] = {}
        for t in self.lines:
            by_board.setdefault(t.score.board, []).append(t)
        for board, lines in sorted(by_board.items()):
            points: list[tuple[int, int] | None] = [None] * len(lines)
            if self.format == "duplicate-pairs":
                points = list(board_matchpoints([t.score for t in lines]))
            yield board, lines, points

    def margins(self, lines: Sequence[Traveller]) -> list[int | None]:
        """Teams: each line's North-South team's margin on the board over both tables of its match (None
        in the other formats)."""
        if self.format != "teams":
            return [None] * len(lines)
        return list(deal_margins([t.score for t in lines]))

    def side_name(self, side: tuple[int, ...]) -> str:
        """A side of a table in words: a pair's or team's name, or two individuals'."""
        return " & ".join(self.name(e) for e in side)

    def to_dict(self) -> dict[str, Any]:
        """Everything, for scripts: the same tournament always gives the same JSON."""
        return {
            "format": self.format, "individual": self.individual, "rules": self.rules.to_dict(),
            "seed": self.seed, "boards_per_round": self.boards,
            "entries": [{"name": e.name, "levels": list(e.levels)} for e in self.entries],
            "fill": list(self.fill.levels) if self.fill else None,
            "standings": [_standing_dict(place, s, self.entries[s.entrant]) for place, s in self.standings()],
            "rounds": [{"round": r.number + 1, "deals": list(r.deals), "byes": [self.name(e) for e in r.byes],
                        "tables": [{"table": s.table + 1, "ns": self.side_name(s.ns),
                                    "ew": self.side_name(s.ew)} for s in r.tables]} for r in self.rounds],
            "travellers": [{"board": board + 1, "deal": lines[0].deal,
                            "lines": [self._line_dict(t, mp, margin) for t, mp, margin
                                      in zip(lines, mps, self.margins(lines), strict=True)]}
                           for board, lines, mps in self.travellers()],
        }

    def _line_dict(self, t: Traveller, mp: tuple[int, int] | None, margin: int | None) -> dict[str, Any]:
        """One traveller line as JSON (``mp``: its matchpoints, ``margin``: its North-South team's margin)."""
        s = t.score
        return {"round": s.seating.round + 1, "table": s.seating.table + 1,
                "ns": self.side_name(s.seating.ns), "ew": self.side_name(s.seating.ew),
                "bids": list(t.bids), "tricks": list(t.tricks), "points": [s.ns_points, s.ew_points],
                "ns_result": s.ns_result,
                "matchpoints": list(mp) if mp else None, "margin": margin, "play": list(t.play)}

    def standings_csv(self) -> str:
        """The standings as CSV, a row an entrant."""
        rows = [_standing_dict(place, s, self.entries[s.entrant]) for place, s in self.standings()]
        return _csv(rows[0].keys() if rows else (), [[*r.values()] for r in rows])

    def travellers_csv(self) -> str:
        """Every traveller line as CSV, a row a table and board."""
        header = ["board", "deal", "round", "table", "ns", "ew", "bid_n", "bid_e", "bid_s", "bid_w",
                  "tricks_n", "tricks_e", "tricks_s", "tricks_w", "points_ns", "points_ew", "ns_result",
                  "matchpoints_ns", "matchpoints_ew", "margin_ns", "play"]
        rows = []
        for board, lines, mps in self.travellers():
            for t, mp, margin in zip(lines, mps, self.margins(lines), strict=True):
                d = self._line_dict(t, mp, margin)
                rows.append([board + 1, t.deal, d["round"], d["table"], d["ns"], d["ew"], *t.bids, *t.tricks,
                             *d["points"], d["ns_result"], *(mp or ("", "")),
                             "" if margin is None else margin, " / ".join(t.play)])
        return _csv(header, rows)


def _standing_dict(place: int, s: Standing, entry: Entry) -> dict[str, Any]:
    """One entrant's standing as JSON (and a CSV row)."""
    return {"place": place, "name": entry.name, "levels": "+".join(entry.levels), "score": s.score,
            "top": s.top, "percent": round(s.percent, 2), "margin": s.margin, "buchholz": s.buchholz,
            "boards": s.boards}


def _csv(header: Iterable[str], rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV text under a header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


TableJob = tuple[Rules, tuple[str, ...], tuple[int, ...]]
"""A table to play: the rules, the levels North, East, South, West, and the deals."""
BoardPlayed = tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...]]
"""A board as a table played it: the bids, each seat's tricks, each trick's cards, each side's points."""


def _play_table(job: TableJob) -> list[BoardPlayed]:
    """Play a table's boards (for a worker process): each deal one hand from 0-0 by these levels
    (North, East, South, West), who know each hand is scored alone. Per board: the bids, each seat's
    tricks, each trick's cards, and each side's points."""
    rules, levels, deals = job
    with seated(set(levels), True, True) as by_name:
        players = [by_name[level] for level in levels]
        return [board_played(play_out(Game(rules, deal=deal), players, seed=deal, hands=1).history[0])
                for deal in deals]


def board_played(hand: HandResult) -> BoardPlayed:
    """A board's hand as its traveller line needs it: the bids, each seat's tricks, each trick's cards
    (its leader's initial first), each side's points."""
    play = tuple(f"{SEAT_NAMES[4][t.leader][0]}: " + " ".join(str(c) for _, c in t.cards)
                 for t in hand.tricks)
    return tuple(str(b) for b in hand.bids), hand.tricks_won, play, hand.score.points


def _seat_levels(result: TournamentResult, seating: Seating) -> tuple[str, ...]:
    """The levels at a table, North, East, South, West: an individual plays its level; a pair or
    team seats two of its players, a team the second two at the second table of its match."""

    def side(entrants: tuple[int, ...]) -> tuple[str, ...]:
        if len(entrants) == 2:
            return tuple(result.entries[e].levels[0] for e in entrants)
        e = entrants[0]
        entry = result.entries[e] if e < len(result.entries) else result.fill
        assert entry is not None
        first = 2 if result.format == "teams" and seating.table % 2 else 0
        return entry.levels[first:first + 2]

    (n, s), (e, w) = side(seating.ns), side(seating.ew)
    return (n, e, s, w)


def _seat(result: TournamentResult, r: int, movement: tuple[tuple[tuple[int, int], ...], ...]
          ) -> tuple[tuple[Seating, ...], tuple[int, ...]]:
    """Round ``r``'s tables and byes: the movement's for duplicate pairs, from the standings so far for
    Swiss and teams."""
    n = len(result.entries)
    if result.format == "duplicate-pairs":
        gap = n if n % 2 else None
        played = [t for t in movement[r] if result.fill or gap not in t]
        out = [e for t in movement[r] if gap in t and not result.fill for e in t if e != gap]
        return tuple(Seating(r, i, (ns,), (ew,)) for i, (ns, ew) in enumerate(played)), tuple(out)
    order = [s.entrant for _, s in result.standings()]
    return swiss_round(r, order, (s for past in result.rounds for s in past.tables),
                       (e for past in result.rounds for e in past.byes),
                       individual=result.individual, teams=result.format == "teams")


def _check(fmt: str, individual: bool, entries: int, fill: str | None, rules: Rules) -> None:
    """Refuse what cannot be run, saying why."""
    if fmt not in FORMATS:
        raise TournamentError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    if rules.players != 4 or not rules.has_partners:
        raise TournamentError("Tournaments are for four players in two partnerships; the rules "
                              f"{rules.name!r} have {rules.players} players"
                              f"{'' if rules.has_partners else ' each on their own'}.")
    if individual and fmt != "swiss":
        raise TournamentError("Only Swiss is played by individuals: the others seat fixed sides.")
    if fill is not None and fmt != "duplicate-pairs":
        raise TournamentError("A computer pair fills only an odd field of duplicate pairs.")
    duplicate = fmt == "duplicate-pairs"
    least = 4 if individual or (duplicate and fill is None) else 3 if duplicate else 2
    if entries < least:
        raise TournamentError(f"This tournament needs at least {least} entries; it has {entries}.")


def run_tournament(fmt: str, entries: Sequence[str], *, rounds: int = 1, boards: int = 4, seed: int = 1,
                   rules: Rules | None = None, individual: bool = False, fill: str | None = None,
                   jobs: int = 1) -> TournamentResult:
    """Play a tournament between computer players: ``fmt`` is one of ``FORMATS``; each entry a level or
    levels joined by ``+``; ``rounds`` of ``boards`` boards each. ``individual`` makes a Swiss of single
    players; ``fill`` is the level of the computer pair that fills an odd field of duplicate pairs
    (else the pair meeting the gap sits out)."""
    rules = rules or find_preset("standard")
    _check(fmt, individual, len(entries), fill, rules)
    if rounds < 1 or boards < 1:
        raise TournamentError("Play at least one round of at least one board.")
    if jobs < 1:
        raise TournamentError("--jobs is at least 1.")
    size = 1 if individual else 4 if fmt == "teams" else 2
    fill_entry = None
    if fill is not None and len(entries) % 2:
        fill_entry = parse_entries([fill], 2)[0]
    result = TournamentResult(cast(Format, fmt), individual, rules, seed, boards,
                              parse_entries(entries, size), fill_entry)
    movement = mitchell(len(result.entries), rounds) if fmt == "duplicate-pairs" else ()
    with _tables(jobs) as play:
        for r in range(rounds):
            tables, byes = _seat(result, r, movement)
            deals = tuple(deal_number(seed, r * boards + b) for b in range(boards))
            result.rounds.append(Round(r, deals, tables, byes))
            played = play([(rules, _seat_levels(result, s), deals) for s in tables])
            for seating, boards_played in zip(tables, played, strict=True):
                for b, (bids, tricks, trick_cards, points) in enumerate(boards_played):
                    score = BoardScore(seating, r * boards + b, points[0], points[1])
                    result.lines.append(Traveller(score, deals[b], bids, tricks, trick_cards))
    return result


@contextmanager
def _tables(jobs: int) -> Iterator[Callable[[list[TableJob]], list[list[BoardPlayed]]]]:
    """Plays a round's tables: in this process for one job, else over a pool of ``jobs`` processes
    (kept for the whole tournament), the results in the tables' order either way."""
    if jobs == 1:
        yield lambda work: list(map(_play_table, work))
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield lambda work: pool.map(_play_table, work)


Table = tuple[list[str], list[list[str]]]
"""A table as text: its column headings and its rows."""


def heading(result: TournamentResult) -> str:
    """What was played, in a line."""
    kind = "individual Swiss" if result.individual else result.format.replace("-", " ")
    each = f"{result.boards} boards" if result.boards else f"a game to {result.rules.target}"
    return (f"{kind}, {len(result.entries)} entries, {len(result.rounds)} rounds of {each}, "
            f"rules {result.rules.name}, seed {result.seed}")


def standings_table(result: TournamentResult) -> Table:
    """The standings as a table: place, entry, score, top, percentage, margin (and Swiss's Buchholz)."""
    dup = result.format == "duplicate-pairs"
    cols = ["place", "entry", "matchpoints" if dup else "points", "top", "%", "margin"]
    rows = [[str(place), result.entries[s.entrant].name, str(s.score), str(s.top), f"{s.percent:.1f}",
             f"{s.margin:+d}"] + ([] if dup else [str(s.buchholz)]) for place, s in result.standings()]
    return cols + ([] if dup else ["buchholz"]), rows


def traveller_table(result: TournamentResult, lines: Sequence[Traveller],
                    mps: Sequence[tuple[int, int] | None]) -> Table:
    """A board's traveller as a table: a row a table, with its sides, bids (North, East, South, West),
    tricks and points per side, North-South's result and, in duplicate pairs, the matchpoints (in teams,
    North-South's margin over both tables of its match)."""
    cols = ["table", "N-S", "E-W", "N", "E", "S", "W", "tricks", "points", "result"]
    rows = []
    for t, mp, margin in zip(lines, mps, result.margins(lines), strict=True):
        s = t.score
        rows.append([str(s.seating.table + 1), result.side_name(s.seating.ns), result.side_name(s.seating.ew),
                     *t.bids, f"{t.tricks[0] + t.tricks[2]}-{t.tricks[1] + t.tricks[3]}",
                     f"{s.ns_points:+d} {s.ew_points:+d}", f"{s.ns_result:+d}"]
                    + ([f"{mp[0]}-{mp[1]}"] if mp else []) + ([] if margin is None else [f"{margin:+d}"]))
    extra = (["matchpoints"] if any(mps) else []) + (["margin"] if result.format == "teams" else [])
    return cols + extra, rows


def board_title(lines: Sequence[Traveller]) -> str:
    """A traveller's title: the board, its deal number (none while a hosted tournament keeps it secret) and
    its round."""
    first = lines[0]
    deal = f"deal {first.deal}, " if first.deal else ""
    return f"Board {first.score.board + 1} ({deal}round {first.score.seating.round + 1})"


NAMES = ("entry", "N-S", "E-W")
"""The columns of names, which read from the left; the others are numbers, read from the right."""


def _aligned(table: Table, indent: str = "") -> list[str]:
    """A table as lines of text in columns."""
    cols, rows = table
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    return [indent + "  ".join(v.ljust(w) if cols[i] in NAMES else v.rjust(w)
                               for i, (v, w) in enumerate(zip(row, widths, strict=True)))
            for row in [cols, *rows]]


def format_standings(result: TournamentResult) -> str:
    """The standings as plain text, under a line saying what was played."""
    return "\n".join([heading(result), "", *_aligned(standings_table(result))])


def format_travellers(result: TournamentResult) -> str:
    """Each board's traveller as plain text."""
    out = []
    for _, lines, mps in result.travellers():
        out += [board_title(lines), *_aligned(traveller_table(result, lines, mps), "  ")]
    return "\n".join(out)
