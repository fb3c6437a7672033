"""``spades score``: the scorekeeper as a terminal program, prompting for each hand and printing the sheet.

The scoring and its checks are ``spades.paper.scorekeeper``'s; this module only asks and prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from spades.errors import SpadesError
from spades.paper.scorekeeper import (
    HandEntry,
    PlayerLine,
    ScoreGame,
    ScorekeeperError,
    SoloLine,
    TeamLine,
    parse_bid,
    parse_bids,
    status_text,
)
from spades.rules import Rules

__all__ = ["run_terminal", "sheet_text"]


def sheet_text(game: ScoreGame) -> str:
    """The game as a score sheet in text: per hand and column the bid, tricks, points, bags and total.

    >>> g = ScoreGame(names=("Us", "Them")).add(HandEntry.parse("2 2 : 8", "3 3 : 5"))
    >>> print(sheet_text(g))
    Hand | Us                             | Them
         |    Bid Tricks Points Bags Total|    Bid Tricks Points Bags Total
       1 |      4      8    +44    4    44|      6      5    -60    0   -60
    Us 44 (4 bags), Them -60 (0 bags).
    """
    cols = "    Bid Tricks Points Bags Total"
    heads = [f"{name:<{len(cols) - 1}}" for name in game.names[:-1]] + [game.names[-1]]
    lines = ["Hand | " + "| ".join(heads), "     |" + "|".join([cols] * len(game.names))]
    for row in game.sheet().rows:
        cells = [f"{line.bid_text(game.rules):>7} {line.tricks:>6} {row.score.points[s]:>+6} {row.bags[s]:>4}"
                 f" {row.totals[s]:>5}" for s, line in enumerate(row.entry.lines)]
        lines.append(f"{row.number:>4} |" + "|".join(cells))
    lines.append(status_text(game))
    return "\n".join(lines)


_COMMANDS = """At the first prompt of a hand you may also type: sheet, fix N (re-enter hand N),
drop N (remove hand N), quit."""
_TEAM_HELP = """Enter each hand after it is played. Bids: both partners, e.g. "4 3", "nil 5", "bn 4",
"10 for 200 3"; then the team's tricks, and a nil bidder's own tricks."""
_SOLO_HELP = """Enter each hand after it is played: each player's bid (a number, nil, bn) and tricks."""
_NO_BIDS_HELP = "The first hand is played without bidding: enter only the tricks."


def _number(text: str, what: str, top: int, default: int | None = None) -> int:
    """A number from 0 to ``top`` typed at a prompt (Enter takes the default, if any)."""
    t = text.strip()
    if not t and default is not None:
        return default
    if not t.isdigit() or int(t) > top:
        raise ScorekeeperError(f"{what}: a number from 0 to {top}, not {text!r}.")
    return int(t)


def _first_prompt(game: ScoreGame, number: int) -> str:
    """The prompt that opens hand ``number``: the first column's bids (its tricks on a hand without bids)."""
    name = game.names[0]
    if game.no_bids(number):
        return f"{name} tricks: "
    return f"{name} bids: " if game.rules.has_partners else f"{name} bid: "


def _ask_hand(game: ScoreGame, ask: Callable[[str], str], first: str, number: int) -> HandEntry:
    """Prompt for the rest of hand ``number``; ``first`` is the answer already typed to the first prompt."""
    r = game.rules
    no_bids = game.no_bids(number)
    teams: list[TeamLine] = []
    solos: list[SoloLine] = []
    for side, name in enumerate(game.names):
        answer = first if side == 0 else None
        left = r.hand_size - sum(t.tricks for t in teams) - sum(p.tricks for p in solos)
        default = left if side == r.sides - 1 and left >= 0 else None
        prompt = f"  {name} tricks [{default}]: " if default is not None else f"  {name} tricks: "
        if no_bids:
            typed = ask(prompt) if answer is None else answer
            tricks = _number(typed, f"Tricks for {name}", r.hand_size, default)
            if r.has_partners:
                teams.append(TeamLine((), tricks))
            else:
                solos.append(SoloLine(None, tricks))
        elif r.has_partners:
            players = parse_bids(ask(f"  {name} bids: ") if answer is None else answer)
            tricks = _number(ask(prompt), f"Tricks for {name}", r.hand_size, default)
            teams.append(TeamLine(tuple(_ask_nil(r, name, p, ask) for p in players), tricks))
        else:
            bid = parse_bid(ask(f"  {name} bid: ") if answer is None else answer)
            solos.append(SoloLine(bid, _number(ask(prompt), f"Tricks for {name}", r.hand_size, default)))
    renege = None if no_bids else _ask_renege(game, ask)
    return HandEntry(tuple(teams), tuple(solos), renege)


def _ask_nil(rules: Rules, name: str, p: PlayerLine, ask: Callable[[str], str]) -> PlayerLine:
    """A partner's line, with the tricks asked for if the bid is a nil."""
    if not p.bid.is_nil(rules):
        return p
    won = _number(ask(f"  {name}: tricks the {p.bid} bidder won [0]: "), "A nil's tricks", rules.hand_size, 0)
    return replace(p, nil_tricks=won)


def _ask_renege(game: ScoreGame, ask: Callable[[str], str]) -> int | None:
    """Who reneged this hand, if anyone."""
    choices = ", ".join(f"{i + 1} ({n})" for i, n in enumerate(game.names))
    text = ask(f"  Reneged? Enter for nobody, or {choices}: ").strip()
    if text and not (text.isdigit() and 1 <= int(text) <= len(game.names)):
        raise ScorekeeperError(f"Reneged is Enter or 1 to {len(game.names)}, not {text!r}.")
    return int(text) - 1 if text else None


def run_terminal(game: ScoreGame, ask: Callable[[str], str], say: Callable[[str], None],
                 save: Callable[[ScoreGame], None]) -> ScoreGame:
    """Keep score at a terminal until the game is won, or ``quit``/end of input; returns the game.

    ``ask`` prompts and returns a line (raising EOFError at the end), ``say`` prints, and
    ``save`` is called after every change so an interrupted game can be resumed.
    """
    say(_TEAM_HELP if game.rules.has_partners else _SOLO_HELP)
    if game.rules.first_hand_no_bids:
        say(_NO_BIDS_HELP)
    say(_COMMANDS)
    if game.hands:
        say(sheet_text(game))
    while not game.sheet().over:
        try:
            number = len(game.hands) + 1
            line = ask(f"Hand {number}. {_first_prompt(game, number)}").strip()
            command, _, arg = line.lower().partition(" ")
            if command in ("quit", "q", "exit"):
                break
            if command == "sheet":
                say(sheet_text(game))
                continue
            if command in ("fix", "drop"):
                if not arg.strip().isdigit():
                    raise ScorekeeperError(f"Say which hand to {command}, e.g. '{command} 2'.")
                fix = int(arg)
                game.index(fix)
                if command == "drop":
                    game = game.remove(fix)
                else:
                    again = ask(f"  {_first_prompt(game, fix)}")
                    game = game.correct(fix, _ask_hand(game, ask, again, fix))
                say(sheet_text(game))
            else:
                game = game.add(_ask_hand(game, ask, line, number))
                say(status_text(game))
        except EOFError:
            break
        except SpadesError as e:
            say(f"  Not scored: {e}")
            continue
        save(game)
    say(sheet_text(game))
    return game

