"""Duplicate matches between computer players, and the statistics that measure them.

Each deal is played at two tables with the seats swapped (at ``n`` tables, one per seat, for
2 and 3 players), so the luck of the cards cancels. A deal is a whole game by default (every
hand of it replays at each table, since a deal number fixes every shuffle), or a fixed number
of hands with ``hands=``. The headline figure is the mean score margin per hand of side A
over side B, with a 95% confidence interval over the deals.

>>> result = run_match(("random", "random"), ("normal", "normal"), deals=2, hands=1)
>>> result.deals, result.hands > 0, result.margin < 0
(2, True, True)
"""

from __future__ import annotations

import math
import multiprocessing
import random
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from spades.bots import Player, make_player, play_out
from spades.errors import SpadesError
from spades.game import Game, SeatView
from spades.moves import Move
from spades.protocol import ExecPlayer, check_player, is_outside, resolve_player
from spades.rules import Rules, find_preset

__all__ = ["MatchResult", "SideStats", "deal_number", "format_table", "play_duplicate", "progress_bar",
           "run_match", "seated", "shared_player", "summarise"]

GAME_HAND_CAP = 40
"""A whole-game deal stops after this many hands even if nobody has won."""


@dataclass
class SideStats:
    """What one side's players did over a match."""

    players: tuple[str, ...]
    games_won: int = 0
    games: int = 0
    contracts: int = 0
    made: int = 0
    set: int = 0
    set_covering: int = 0
    """Contracts set while the side's own nil bidder was being covered."""
    set_breaking: int = 0
    """Contracts set in hands where an opponent's nil was broken."""
    nils: int = 0
    nils_made: int = 0
    blind_nils: int = 0
    blind_nils_made: int = 0
    bags: int = 0
    hands: int = 0
    decisions: int = 0
    faults: int = 0
    """Outside bots' answers that were late, malformed or illegal, and their crashes (each decision
    then played by the ``normal`` level)."""
    seconds: float = 0.0
    times: list[float] = field(default_factory=list, repr=False)

    @property
    def nil_rate(self) -> float:
        """The share of nil bids (blind ones included) that succeeded."""
        total = self.nils + self.blind_nils
        return (self.nils_made + self.blind_nils_made) / total if total else 0.0

    @property
    def bags_per_hand(self) -> float:
        """Bags taken per hand played."""
        return self.bags / self.hands if self.hands else 0.0

    @property
    def mean_ms(self) -> float:
        """Average decision time in milliseconds."""
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def p95_ms(self) -> float:
        """95th percentile of the decision time, in milliseconds."""
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    def merge(self, other: SideStats) -> None:
        """Add another deal's counts to these."""
        for name in ("games_won", "games", "contracts", "made", "set", "set_covering", "set_breaking",
                     "nils", "nils_made",
                     "blind_nils", "blind_nils_made", "bags", "hands", "decisions", "faults", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times += other.times

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready values."""
        out = {k: v for k, v in asdict(self).items() if k != "times"}
        out |= {"players": list(self.players), "nil_rate": self.nil_rate,
                "bags_per_hand": self.bags_per_hand, "mean_ms": self.mean_ms, "p95_ms": self.p95_ms}
        return out


@dataclass
class MatchResult:
    """A finished duplicate match: the margin per hand of A over B, and each side's figures."""

    rules: Rules
    deals: int
    hands: int
    margin: float
    """Mean score margin per hand of side A over side B (over deals)."""
    ci95: float
    """Half-width of the 95% confidence interval of ``margin``."""
    a: SideStats
    b: SideStats

    def to_dict(self) -> dict[str, Any]:
        """The same figures as the table, for scripts."""
        return {"rules": self.rules.to_dict(), "deals": self.deals, "hands": self.hands,
                "margin_per_hand": self.margin, "ci95": self.ci95,
                "ci95_low": self.margin - self.ci95, "ci95_high": self.margin + self.ci95,
                "a": self.a.summary(), "b": self.b.summary()}


class _Timed:
    """A player wrapper that records how long each decision takes, and an outside bot's faults."""

    def __init__(self, player: Player, stats: SideStats) -> None:
        self.player = player
        self.name = player.name
        self.stats = stats

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The wrapped player's move, its decision time (and faults) counted in the side's statistics."""
        outside = self.player if isinstance(self.player, ExecPlayer) else None
        faults = outside.fault_count if outside else 0
        start = time.perf_counter()
        move = self.player.choose(view, rng)
        spent = time.perf_counter() - start
        if outside:
            self.stats.faults += outside.fault_count - faults
        self.stats.decisions += 1
        self.stats.seconds += spent
        self.stats.times.append(spent)
        return move


def _layouts(rules: Rules) -> list[list[bool]]:
    """Per table, which seats side A takes: swapped partnerships, or A in each seat in turn."""
    n = rules.players
    if n == 4:
        a = [s % 2 == 0 for s in range(4)]
        return [a, [not x for x in a]]
    return [[s == t for s in range(n)] for t in range(n)]


_PLAYERS: dict[tuple[str, bool, bool], Player] = {}


def shared_player(level: str, bid_nil: bool, hand_alone: bool) -> Player:
    """One player per level, options and process (the search players keep their tables)."""
    key = (level, bid_nil, hand_alone)
    if key not in _PLAYERS:
        _PLAYERS[key] = make_player(level, bid_nil=bid_nil, hand_alone=hand_alone)
    return _PLAYERS[key]


def play_duplicate(rules: Rules, deal: int, side_a: Sequence[Player], side_b: Sequence[Player],
                   hands: int | None = None) -> tuple[float, int, SideStats, SideStats]:
    """Play one deal at every table, side A's players against side B's (each side's seats take
    its players in turn); return (A's margin per hand, hands played, A's stats, B's stats)."""
    stats = {True: SideStats(tuple(p.name for p in side_a)), False: SideStats(tuple(p.name for p in side_b))}
    margin = 0.0
    played = 0
    for layout in _layouts(rules):
        seats: list[Player] = []
        count = {True: 0, False: 0}
        for s in range(rules.players):
            mine = layout[s]
            players = side_a if mine else side_b
            seats.append(_Timed(players[count[mine] % len(players)], stats[mine]))
            count[mine] += 1
        game = Game(rules, deal=deal)
        play_out(game, seats, seed=deal, hands=GAME_HAND_CAP if hands is None else hands)
        sides_a = {rules.side_of(s) for s in range(rules.players) if layout[s]}
        sides_b = {rules.side_of(s) for s in range(rules.players) if not layout[s]}
        for result in game.history:
            played += 1
            pts = result.score.points
            margin += (sum(pts[i] for i in sides_a) / len(sides_a)
                       - sum(pts[i] for i in sides_b) / len(sides_b))
            for side in result.score.sides:
                st = stats[side.side in sides_a]
                st.hands += 1
                st.bags += side.bags_added
                if side.contract > 0:
                    st.contracts += 1
                    st.made += side.made
                    st.set += not side.made
                    st.set_covering += bool(not side.made and side.nils)
                    st.set_breaking += not side.made and any(
                        not n.made for o in result.score.sides if o.side != side.side for n in o.nils)
                for nil in side.nils:
                    if nil.blind:
                        st.blind_nils += 1
                        st.blind_nils_made += nil.made
                    else:
                        st.nils += 1
                        st.nils_made += nil.made
        if hands is None:
            for is_a, sides in ((True, sides_a), (False, sides_b)):
                stats[is_a].games += 1
                stats[is_a].games_won += game.winner in sides
    return margin / played if played else 0.0, played, stats[True], stats[False]


_Job = tuple[Rules, tuple[str, ...], tuple[str, ...], int, int | None, bool]
"""One deal of a match: the rules, each side's players, the deal number, the hands, nil bids allowed."""
_Figures = tuple[float, int, SideStats, SideStats]
"""One deal's figures: A's margin per hand, the hands played, each side's counts."""


@contextmanager
def seated(names: Iterable[str], bid_nil: bool, hand_alone: bool) -> Iterator[dict[str, Player]]:
    """A player for each name: a level's shared one, or an outside bot (``exec:COMMAND``) started for
    the ``with`` block and stopped at its end."""
    players = {name: resolve_player(name, bid_nil=bid_nil, hand_alone=hand_alone) if is_outside(name)
               else shared_player(name, bid_nil, hand_alone) for name in names}
    try:
        yield players
    finally:
        for player in players.values():
            if isinstance(player, ExecPlayer):
                player.close()


def _play_deal(job: _Job) -> _Figures:
    """Play one deal of a match between players at every table (for a worker process); a match of
    single hands scores each alone, and its players are told so (``make_player``'s ``hand_alone``)."""
    rules, a_names, b_names, deal, hands, bid_nil = job
    with seated({*a_names, *b_names}, bid_nil, hands == 1) as players:
        return play_duplicate(rules, deal, [players[n] for n in a_names], [players[n] for n in b_names],
                              hands)


def deal_number(seed: int, index: int) -> int:
    """The deal number of a match's (or a tournament's) ``index``-th deal, from 0, for a seed."""
    return seed * 1_000_003 + index + 1


def _check_levels(levels: Sequence[str]) -> tuple[str, ...]:
    """The players (levels or outside bots) as a tuple, each checked."""
    for level in levels:
        check_player(level)
    if not levels:
        raise SpadesError("Each side needs at least one player level.")
    return tuple(levels)


def run_match(
    a: Sequence[str],
    b: Sequence[str],
    *,
    rules: Rules | None = None,
    deals: int = 100,
    seed: int = 1,
    hands: int | None = None,
    jobs: int = 1,
    ray: str | None = None,
    bid_nil: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play a duplicate match of side A's levels against side B's (one level each seat, in turn); a
    level's place may hold an outside bot, ``exec:COMMAND`` (see ``spades.protocol``).

    ``hands`` None plays whole games; a number plays that many hands per deal. ``jobs`` > 1
    spreads the deals over that many processes; ``ray`` over a Ray cluster instead: its address,
    or ``""`` for the one this process is connected to, else ``$RAY_ADDRESS``'s, else a local one.
    Either way the figures are summed in deal order, so the same seed gives the same figures.
    ``progress(done, total)`` is called per deal.
    """
    rules = rules or find_preset("standard")
    a_levels, b_levels = _check_levels(a), _check_levels(b)
    if deals < 1:
        raise SpadesError("Play at least one deal.")
    if hands is not None and hands < 1:
        raise SpadesError("Play at least one hand per deal.")
    if jobs < 1:
        raise SpadesError("--jobs is at least 1.")
    if ray is not None and jobs > 1:
        raise SpadesError("--jobs and --ray each spread the deals: choose one.")
    work = [(rules, a_levels, b_levels, deal_number(seed, i), hands, bid_nil) for i in range(deals)]
    results = _results(work, jobs) if ray is None else _ray_results(work, ray)
    return summarise(rules, results, a_levels, b_levels, deals, progress)


def summarise(rules: Rules, results: Iterable[tuple[float, int, SideStats, SideStats]],
              a_names: tuple[str, ...], b_names: tuple[str, ...], deals: int,
              progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """The match made of each deal's (margin, hands, A's stats, B's stats), as they come in."""
    sa, sb = SideStats(a_names), SideStats(b_names)
    margins: list[float] = []
    total_hands = 0
    for done, (m, played, da, db) in enumerate(results, 1):
        margins.append(m)
        total_hands += played
        sa.merge(da)
        sb.merge(db)
        if progress is not None:
            progress(done, deals)
    mean = sum(margins) / len(margins)
    var = sum((x - mean) ** 2 for x in margins) / (len(margins) - 1) if len(margins) > 1 else 0.0
    return MatchResult(rules, len(margins), total_hands, mean, 1.96 * math.sqrt(var / len(margins)), sa, sb)


def _results(work: list[_Job], jobs: int) -> Iterator[_Figures]:
    """Each deal's figures in deal order: in this process for one job, else spread over a pool of
    ``jobs`` processes."""
    if jobs == 1:
        yield from map(_play_deal, work)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_play_deal, work)


def _play_deals(work: list[_Job]) -> list[_Figures]:
    """Play a run of deals (one Ray task: a task a deal would cost more than short deals take)."""
    return [_play_deal(job) for job in work]


RAY_TASKS_PER_CPU = 4
"""The deals go out in about this many tasks per CPU of the cluster: few enough that a task's cost
is small beside its deals, enough that a slow task does not leave the others idle long."""


def _check_answers(address: str) -> None:
    """Refuse at once a ``host:port`` (or ``ray://host:port``) address where nothing listens: Ray's
    client would retry it for minutes. Other forms (none, ``auto``) are Ray's to resolve."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as e:
        raise SpadesError(f"No Ray cluster answers at {address}: {e.strerror or e}.") from None


def _ray_results(work: list[_Job], address: str) -> Iterator[_Figures]:
    """Each deal's figures in deal order, the deals played as tasks on a Ray cluster: the one at
    ``address``; for "", the one this process is connected to, else ``$RAY_ADDRESS``'s, else a
    local one started for the match (and stopped after it)."""
    try:
        import ray
    except ImportError:
        raise SpadesError("--ray needs Ray, which comes with the 'ray' extra: "
                          "pip install 'spades[ray]'") from None
    started = not ray.is_initialized()
    if started:
        _check_answers(address)
        try:
            ray.init(address=address or None, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise SpadesError(f"Cannot start or reach the Ray cluster {address or '(local)'}: {e}") from None
    try:
        play = ray.remote(_play_deals)
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]  # (untyped in Ray)
        size = max(1, -(-len(work) // (RAY_TASKS_PER_CPU * cpus)))
        tasks = [play.remote(work[i:i + size]) for i in range(0, len(work), size)]
        for task in tasks:
            yield from ray.get(task)
    finally:
        if started:
            ray.shutdown()


def progress_bar(stream: TextIO | None = None) -> Callable[[int, int], None]:
    """A progress callback for ``stream`` (standard error by default): on a terminal, a bar drawn
    over itself; into a file or a pipe, a plain line each time another tenth of the deals is done,
    so that a log holds a few lines rather than every redraw."""
    out = sys.stderr if stream is None else stream
    terminal = out.isatty()
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        spent = time.perf_counter() - start
        figures = f"{done}/{total} deals, {spent:.0f}s, {spent / done * (total - done):.0f}s left"
        if terminal:
            width = 30
            bar = "#" * (width * done // total)
            out.write(f"\r[{bar:.<{width}}] {figures} " + ("\n" if done == total else ""))
        elif done * 10 // total > (done - 1) * 10 // total:
            out.write(figures + "\n")
        out.flush()

    return show


def format_table(result: MatchResult) -> str:
    """The match as a plain-text table: margin with its interval, then a row per figure."""
    a, b = result.a, result.b
    lines = [
        f"{result.deals} duplicate deals, {result.hands} hands, rules {result.rules.name}",
        f"margin per hand, A - B: {result.margin:+.1f}  "
        f"(95% CI {result.margin - result.ci95:+.1f} .. {result.margin + result.ci95:+.1f})",
        "",
        f"{'':24}{'A: ' + '+'.join(a.players):>22}{'B: ' + '+'.join(b.players):>22}",
    ]

    def row(label: str, fa: str, fb: str) -> None:
        lines.append(f"{label:24}{fa:>22}{fb:>22}")

    def pct(x: int, y: int) -> str:
        return f"{x}/{y} ({100 * x / y:.0f}%)" if y else "0/0"

    if a.games or b.games:
        row("games won", pct(a.games_won, a.games), pct(b.games_won, b.games))
    row("bids made", pct(a.made, a.contracts), pct(b.made, b.contracts))
    row("bids set", pct(a.set, a.contracts), pct(b.set, b.contracts))
    row("set beside own nil", pct(a.set_covering, a.contracts), pct(b.set_covering, b.contracts))
    row("set breaking their nil", pct(a.set_breaking, a.contracts), pct(b.set_breaking, b.contracts))
    row("nil bids made", pct(a.nils_made, a.nils), pct(b.nils_made, b.nils))
    row("nil bids per 100 hands", f"{100 * a.nils / max(1, a.hands):.1f}",
        f"{100 * b.nils / max(1, b.hands):.1f}")
    row("blind nils made", pct(a.blind_nils_made, a.blind_nils), pct(b.blind_nils_made, b.blind_nils))
    row("bags per hand", f"{a.bags_per_hand:.2f}", f"{b.bags_per_hand:.2f}")
    if a.faults or b.faults:
        row("bot faults (replaced)", str(a.faults), str(b.faults))
    row("decision ms, mean", f"{a.mean_ms:.2f}", f"{b.mean_ms:.2f}")
    row("decision ms, p95", f"{a.p95_ms:.2f}", f"{b.p95_ms:.2f}")
    return "\n".join(lines)

