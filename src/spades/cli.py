"""The ``spades`` command line: play, serve, deal, and the tools for bots and scorekeeping."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from spades.bots import LEVELS, make_player, play_out
from spades.bots.coach import SAMPLES, THRESHOLD, analyze, format_review
from spades.cards import Card, cards_of
from spades.errors import SpadesError
from spades.game import SEAT_NAMES, Game, HandResult, seat_name
from spades.paper.scorekeeper import ScoreGame
from spades.record import GameRecord, dump_record, load_record, load_records, replay
from spades.rules import Rules, preset_names, rules_from_text
from spades.score_terminal import run_terminal
from spades.tournament.run import FORMATS, format_standings, format_travellers, run_tournament

__all__ = ["main"]


def _rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--rules``, with any ``--set name=value`` options applied."""
    return rules_from_text(args.rules, args.set)


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    """The ``--rules`` and ``--set`` options every game-playing command takes."""
    p.add_argument("--rules", default="standard",
                   help=f"rules preset: {', '.join(preset_names())} (default standard)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rule option, e.g. --set blind_nil=true --set target=300")


def _hand_text(r: HandResult, players: int) -> str:
    """One finished hand as text: the bids, every trick, and the score line."""
    lines = [f"Hand {r.number + 1} (dealer {seat_name(players, r.dealer)})"]
    for seat in range(players):
        cards = " ".join(c.symbol for c in sorted(cards_of(r.dealt[seat]), reverse=True))
        lines.append(f"  {seat_name(players, seat):>5}: bid {r.bids[seat]!s:>9}  {cards}")
    for i, t in enumerate(r.tricks):
        played = "  ".join(f"{seat_name(players, s)[0]} {Card(c).symbol:>3}" for s, c in t.cards)
        lines.append(f"  trick {i + 1:>2}: {played}   -> {seat_name(players, t.winner)}")
    for s in r.score.sides:
        lines.append(f"  side {s.side}: bid {s.contract}, took {s.tricks}, "
                     f"{s.points:+d} (bags {s.bags_after}), total {r.scores_after[s.side]}")
    return "\n".join(lines)


def _print_history(game: Game) -> None:
    """Every finished hand of a game, as text."""
    for r in game.history:
        print(_hand_text(r, game.players))
        print()


def _cmd_deal(args: argparse.Namespace) -> int:
    """``spades deal``: play a numbered deal between computer players, print it, and write its record."""
    rules = _rules_from_args(args)
    game = Game(rules, deal=args.number)
    players = [make_player(args.level)] * rules.players
    play_out(game, players, seed=args.number, hands=args.hands)
    _print_history(game)
    if args.record:
        args.record.write_text(dump_record(game) + "\n", encoding="utf-8")
        print(f"Record written to {args.record}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    """``spades replay``: rebuild each game of a file of records, checking every move, and print it."""
    records = load_records(_read(args.file))
    for number, record in enumerate(records, 1):
        if len(records) > 1:
            print(f"Game {number} of {len(records)}")
        game = replay(record)
        _print_history(game)
        scores = ", ".join(f"side {i}: {s}" for i, s in enumerate(game.scores))
        status = ("game over" if game.winner is not None
                  else f"{game.phase.value}, hand {game.hand_number + 1}")
        print(f"{len(game.log)} moves replayed ({status}); scores {scores}")
    return 0


def _read(path: Path) -> str:
    """A file's text; SpadesError saying why it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise SpadesError(f"Cannot read {path}: {e.strerror}.") from None


def _read_record(path: Path) -> GameRecord:
    """The game record in a file (as ``spades deal --record`` writes it)."""
    return load_record(_read(path))


def _seat_number(text: str, players: int) -> int:
    """A seat given by name, initial or number (North=0), at a table of this many players."""
    names = SEAT_NAMES[players]
    t = text.strip().lower()
    for i, name in enumerate(names):
        if t in (name.lower(), name[0].lower(), str(i)):
            return i
    raise SpadesError(f"No seat {text!r} at this table: choose one of {', '.join(names)}.")


def _cmd_analyze(args: argparse.Namespace) -> int:
    """``spades analyze``: the coach's review of one seat's decisions in a recorded game."""
    record = _read_record(args.record)
    seat = _seat_number(args.seat, record.rules.players)
    if args.hand is not None and args.hand < 1:
        raise SpadesError("Hands are numbered from 1.")
    review = analyze(record, seat, None if args.hand is None else args.hand - 1, samples=args.samples,
                     threshold=args.threshold)
    print(format_review(review, record.rules.players))
    return 0


def _load_score_game(path: Path) -> ScoreGame:
    """A scorekeeper game saved by ``spades score --file``."""
    try:
        return ScoreGame.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as e:
        raise SpadesError(f"Cannot read the game in {path}: {e}") from None


def _cmd_score(args: argparse.Namespace) -> int:
    """``spades score``: keep score in the terminal, saved to ``--file`` after each hand if given."""
    path: Path | None = args.file
    if path is not None and path.exists():
        game = _load_score_game(path)
        print(f"Resuming the game in {path} (its own rules and names).")
    else:
        rules = _rules_from_args(args)
        game = ScoreGame(rules, tuple(args.players or (args.teams if rules.has_partners else ())))

    def save(g: ScoreGame) -> None:
        """Write the game to ``--file`` (if given) so that the next run resumes it."""
        if path is not None:
            path.write_text(json.dumps(g.to_dict(), indent=1), encoding="utf-8")

    run_terminal(game, input, print, save)
    return 0


def _need(extra: str, *modules: str) -> None:
    """Refuse a command whose optional packages are missing, naming the extra that installs them."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            raise SpadesError(f"This command needs {module}, which comes with the {extra!r} extra: "
                              f"pip install 'spades[{extra}]'") from None


def _cmd_sheets(args: argparse.Namespace) -> int:
    """``spades sheets``: write the rule sheet and the score sheet as PDFs."""
    _need("pdf", "fpdf", "anyascii")
    from spades.paper.printables import rule_sheet_pdf, score_sheet_pdf

    game = _load_score_game(args.game) if args.game else None
    out: Path = args.out
    rules = game.rules if game else _rules_from_args(args)
    sheet = score_sheet_pdf(game, rules=rules)
    files = {"spades-rules.pdf": rule_sheet_pdf(rules), "spades-score-sheet.pdf": sheet}
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (out / name).write_bytes(data)
            print(out / name)
    except OSError as e:
        raise SpadesError(f"Cannot write the sheets to {out}: {e}") from None
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    """``spades arena``: a duplicate match between two levels; prints (and writes) its figures."""
    from spades.arena import format_table, progress_bar, run_match

    rules = _rules_from_args(args)
    result = run_match(args.a.split("+"), args.b.split("+"), rules=rules, deals=args.deals,
                       seed=args.seed, hands=args.hands, jobs=args.jobs, ray=args.ray,
                       bid_nil=not args.no_nil, progress=None if args.quiet else progress_bar())
    print(format_table(result))
    if args.json:
        try:
            args.json.write_text(json.dumps(result.to_dict(), indent=2) + "\n")
        except OSError as e:
            raise SpadesError(f"Cannot write {args.json}: {e}") from None
    return 0


def _write(path: Path, data: str | bytes) -> None:
    """Write a file the command was asked for (text as UTF-8), or say why it cannot be written."""
    try:
        path.write_bytes(data.encode() if isinstance(data, str) else data)
    except OSError as e:
        raise SpadesError(f"Cannot write {path}: {e.strerror}.") from None


def _cmd_tournament(args: argparse.Namespace) -> int:
    """``spades tournament``: a tournament between computer players; prints (and writes) the results."""
    if args.pdf:
        _need("pdf", "fpdf", "anyascii")
    result = run_tournament(args.format, [e for e in args.entries.split(",") if e.strip()],
                            rounds=args.rounds, boards=args.boards, seed=args.seed,
                            rules=_rules_from_args(args), individual=args.individual, fill=args.fill,
                            jobs=args.jobs)
    print(format_standings(result))
    if args.travellers:
        print()
        print(format_travellers(result))
    if args.json:
        _write(args.json, json.dumps(result.to_dict(), indent=1) + "\n")
    if args.csv:
        try:
            args.csv.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SpadesError(f"Cannot make the folder {args.csv}: {e.strerror}.") from None
        _write(args.csv / "standings.csv", result.standings_csv())
        _write(args.csv / "travellers.csv", result.travellers_csv())
    if args.pdf:
        from spades.tournament.printable import results_pdf

        _write(args.pdf, results_pdf(result))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    """``spades play``: the browser game on this machine, on a free local port, in a new tab."""
    _need("server", *_SERVER_MODULES)
    from spades.server.run import PLAY_PORT, free_port, run_server
    from spades.server.settings import Settings

    settings = Settings.from_env(host="127.0.0.1", port=args.port or free_port(prefer=PLAY_PORT),
                                 db_path=args.db, access_log=False)
    return run_server(settings, open_browser=not args.no_browser)


def _cmd_bench(args: argparse.Namespace) -> int:
    """``spades bench``: random full hands per second through each engine."""
    _need("fast", "numpy")
    from spades.benchmark import report

    if args.seconds <= 0 or args.batch < 1:
        raise SpadesError("--seconds must be positive and --batch at least 1.")
    print(report(args.seconds, args.batch, cpu=args.cpu))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    """``spades serve``: the browser game for others to reach, from the settings and flags."""
    _need("server", *_SERVER_MODULES)
    from spades.server.run import run_server
    from spades.server.settings import Settings

    return run_server(Settings.from_env(host=args.host, port=args.port, db_path=args.db,
                                        database_url=args.database_url, workers=args.workers),
                      open_browser=False)


_SERVER_MODULES = ("fastapi", "uvicorn", "platformdirs", "fpdf")
"""What the browser game's server imports beyond the library (the 'server' extra)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="spades", description="Spades: play, score, and test bots.")
    sub = parser.add_subparsers(dest="command", required=True)
    db_help = "the SQLite file for games and stats (default: $SPADES_DB, else the user's data folder)"
    p = sub.add_parser("play", help="play in the browser: starts the server and opens a tab on it")
    p.add_argument("--port", type=int, default=0, help="the local port (default 8421 if free, else any)")
    p.add_argument("--db", type=Path, help=db_help)
    p.add_argument("--no-browser", action="store_true", help="print the address without opening it")
    p.set_defaults(func=_cmd_play)
    p = sub.add_parser("serve", help="serve the browser game for others to reach")
    p.add_argument("--host", help="the address to listen on (default $SPADES_HOST, else 127.0.0.1)")
    p.add_argument("--port", type=int, help="the port (default $SPADES_PORT, else 8000)")
    p.add_argument("--db", type=Path, help=db_help)
    p.add_argument("--database-url", metavar="URL",
                   help="postgresql://user:password@host:port/database (or sqlite:///path) in place of "
                        "--db (default: $SPADES_DATABASE_URL)")
    p.add_argument("--workers", type=int,
                   help="processes sharing the port and the database (default $SPADES_WORKERS, else 1)")
    p.set_defaults(func=_cmd_serve)
    p = sub.add_parser("deal", help="play out a numbered deal between computer players and print it")
    p.add_argument("number", type=int, help="the deal number")
    p.add_argument("--hands", type=int, default=1, help="how many hands to play (default 1)")
    p.add_argument("--level", default="normal", choices=LEVELS,
                   help="the computer players' level (default normal)")
    p.add_argument("--record", type=Path, help="also write the game's JSON record to this file")
    add_rules_arguments(p)
    p.set_defaults(func=_cmd_deal)
    p = sub.add_parser("replay", help="replay game records (JSON), checking every move, and print them")
    p.add_argument("file", type=Path, help="a record, as 'spades deal --record' writes it or a game's "
                                           "page downloads it, or an array of them (all your games)")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("analyze", help="the coach: which decisions of a seat in a recorded game cost points")
    p.add_argument("record", type=Path, help="the record, as written by 'spades deal --record'")
    p.add_argument("--seat", default="south",
                   help="the seat to review: name, initial or number (default South)")
    p.add_argument("--hand", type=int, help="review only this hand (from 1; default every hand)")
    p.add_argument("--samples", type=int, default=SAMPLES,
                   help=f"deals sampled per decision (default {SAMPLES})")
    p.add_argument("--threshold", type=float, default=THRESHOLD,
                   help=f"points a decision must lose to be flagged (default {THRESHOLD:.0f})")
    p.set_defaults(func=_cmd_analyze)
    p = sub.add_parser("score", help="keep score in the terminal for a game played with real cards")
    p.add_argument("--teams", nargs=2, default=["Us", "Them"], metavar="NAME", help="the two team names")
    p.add_argument("--players", nargs="+", metavar="NAME",
                   help="the players' names where each scores alone (cutthroat, 3 or 2 players)")
    p.add_argument("--file", type=Path,
                   help="save the game here after every hand, and resume it if it exists")
    add_rules_arguments(p)
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("sheets", help="write the rule sheet and score sheet for the rules (PDF, Letter)")
    p.add_argument("--out", type=Path, default=Path("."), help="the folder to write them to (default .)")
    p.add_argument("--game", type=Path,
                   help="fill the score sheet from a game saved by 'spades score --file'")
    add_rules_arguments(p)
    p.set_defaults(func=_cmd_sheets)
    p = sub.add_parser("arena", help="a duplicate match between computer players, with statistics")
    p.add_argument("a", help="side A's level (random, easy, normal, hard, expert) or an outside bot, "
                             "'exec:COMMAND' (the bot protocol); 'expert+normal' mixes")
    p.add_argument("b", help="side B's level, as for A")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals to play (default 100)")
    p.add_argument("--hands", type=int, default=None,
                   help="hands per deal (default: a whole game per deal)")
    p.add_argument("--seed", type=int, default=1, help="picks the deal numbers (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="processes to use (default 1)")
    p.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                   help="spread the deals over a Ray cluster (the 'ray' extra): the one at ADDRESS, or "
                        "without one $RAY_ADDRESS's, else a local cluster started for the match")
    p.add_argument("--no-nil", action="store_true", help="bots never bid nil (as the seed's game)")
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    p.add_argument("--quiet", action="store_true",
                   help="no progress (a bar on a terminal, a line each tenth of the deals elsewhere)")
    add_rules_arguments(p)
    p.set_defaults(func=_cmd_arena)
    p = sub.add_parser("tournament", help="a tournament between computer players, with its standings")
    p.add_argument("--format", default="duplicate-pairs", choices=FORMATS,
                   help="duplicate pairs (a Mitchell movement, matchpoints), Swiss (pairs, or players with "
                        "--individual) or teams of four (default duplicate-pairs)")
    p.add_argument("--entries", required=True, metavar="LEVEL,LEVEL,...",
                   help="the entrants, comma-separated: each a level (a pair or team of it), or levels "
                        "joined by + to mix them (expert+normal); an outside bot as exec:COMMAND")
    p.add_argument("--rounds", type=int, default=1, help="rounds to play (default 1)")
    p.add_argument("--boards", type=int, default=4, help="boards (deals, one hand each) a round (default 4)")
    p.add_argument("--seed", type=int, default=1, help="picks the deal numbers (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="processes to play a round's tables on (default 1)")
    p.add_argument("--individual", action="store_true",
                   help="Swiss of single players, partners changing each round")
    p.add_argument("--fill", metavar="LEVEL",
                   help="duplicate pairs: a computer pair of this level fills an odd field "
                        "(default: a sit-out)")
    p.add_argument("--travellers", action="store_true", help="also print each board's traveller")
    p.add_argument("--json", type=Path, help="also write the whole results to this JSON file")
    p.add_argument("--csv", type=Path, metavar="FOLDER",
                   help="also write standings.csv and travellers.csv to this folder")
    p.add_argument("--pdf", type=Path, metavar="FILE",
                   help="also write the standings and travellers, to print, as a PDF (the 'pdf' extra)")
    add_rules_arguments(p)
    p.set_defaults(func=_cmd_tournament)
    p = sub.add_parser("bench", help="random hands per second: public API, fast path, OpenSpiel")
    p.add_argument("--seconds", type=float, default=5.0, help="time per engine (default 5)")
    p.add_argument("--batch", type=int, default=4096, help="hands per fast-path batch (default 4096)")
    p.add_argument("--cpu", action="store_true",
                   help="count this process's CPU seconds, not the wall clock's (for a busy, shared machine)")
    p.set_defaults(func=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors in what was asked print one clear line and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except SpadesError as e:
        print(f"spades: {e}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
