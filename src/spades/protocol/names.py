"""Player names, wherever a level is accepted: a level (``expert``) or an outside bot (``exec:COMMAND``);
and at a server, a name its operator gave an outside bot (``greedy``, from
``greedy=exec:/opt/bots/greedy``), which its ``Roster`` knows.

>>> check_player("expert"), check_player("exec:python3 bot.py")
('expert', 'exec:python3 bot.py')
>>> parse_named_bots("greedy=exec:python3 greedy.py, fast=exec:python3 fast.py")
{'greedy': 'exec:python3 greedy.py', 'fast': 'exec:python3 fast.py'}
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping

from spades.bots import LEVELS, Player, make_player
from spades.errors import SpadesError
from spades.protocol.referee import ExecPlayer, bot_command
from spades.protocol.remote import REMOTE_PREFIX, RemotePlayer, Remotes

__all__ = ["BOT_NAME", "EXEC_PREFIX", "Roster", "check_player", "is_outside", "parse_named_bots",
           "resolve_player"]

EXEC_PREFIX = "exec:"
"""The prefix of an outside bot's command line as a player name."""
BOT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
"""What an operator may name an outside bot."""


def is_outside(name: str) -> bool:
    """Whether the name is an outside bot's command (``exec:...``), not a level."""
    return name.startswith(EXEC_PREFIX)


def check_player(name: str) -> str:
    """The name, checked: a level, or ``exec:`` with a program that exists."""
    if is_outside(name):
        bot_command(name.removeprefix(EXEC_PREFIX))
    elif name not in LEVELS:
        raise SpadesError(f"Unknown player level {name!r}: choose one of {', '.join(LEVELS)}, "
                          "or exec:COMMAND for an outside bot.")
    return name


def resolve_player(name: str, *, bid_nil: bool = True, hand_alone: bool = False) -> Player:
    """A player for a name: a level's computer player, or an ``ExecPlayer`` for an outside bot (which its
    caller closes when done)."""
    if is_outside(check_player(name)):
        return ExecPlayer(name.removeprefix(EXEC_PREFIX), bid_nil=bid_nil, hand_alone=hand_alone)
    return make_player(name, bid_nil=bid_nil, hand_alone=hand_alone)


def parse_named_bots(text: str) -> dict[str, str]:
    """An operator's outside bots, ``name=exec:COMMAND`` separated by commas, each checked (its name
    new and plain, its program found)."""
    bots: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, spec = item.partition("=")
        name, spec = name.strip(), spec.strip()
        if not sep or not is_outside(spec):
            raise SpadesError(f"An outside bot is name=exec:COMMAND, not {item!r}.")
        if not BOT_NAME.fullmatch(name) or name in LEVELS or name in bots:
            raise SpadesError(f"The bot name {name!r} must be new, not a level, lower case letters, digits, "
                              "- or _ (at most 32).")
        check_player(spec)
        bots[name] = spec
    return bots


class Roster:
    """The computer players a server offers: the levels, the outside bots its operator named, and the
    remote bots connected to any of its processes (``remotes``). Each named bot is one ``ExecPlayer`` per nil
    choice, shared by every table (they take turns), until ``close``; a remote bot's name is always a
    ``RemotePlayer``, which plays the ``normal`` level while the bot is not connected.

    >>> roster = Roster({})
    >>> roster.offers("expert"), roster.offers("greedy"), roster.player("greedy", True).name
    (True, False, 'normal')
    """

    def __init__(self, named: Mapping[str, str], remotes: Remotes | None = None) -> None:
        self.named = dict(named)
        """The operator's bots: name to ``exec:COMMAND``."""
        self.remotes = remotes or Remotes()
        self._players: dict[tuple[str, bool], ExecPlayer] = {}
        self._lock = threading.Lock()

    def offers(self, name: str) -> bool:
        """Whether a table may ask for this level or bot (a remote one while it is connected)."""
        return name in LEVELS or name in self.named or self.remotes.connected(name)

    def bots(self) -> list[str]:
        """The bots offered besides the levels: the operator's, then the remote ones connected."""
        return [*self.named, *self.remotes.names()]

    def player(self, name: str, bid_nil: bool) -> Player:
        """The player for a level or a named bot; the ``normal`` level for a name no longer offered (a
        table opened before its bot was taken off)."""
        if name.startswith(REMOTE_PREFIX) and name not in self.named:
            return RemotePlayer(self.remotes, name, bid_nil)
        if name not in self.named:
            return make_player(name if name in LEVELS else "normal", bid_nil=bid_nil)
        with self._lock:
            key = (name, bid_nil)
            if key not in self._players:
                spec = self.named[name].removeprefix(EXEC_PREFIX)
                self._players[key] = ExecPlayer(spec, bid_nil=bid_nil, name=name)
            return self._players[key]

    def close(self) -> None:
        """Stop every outside bot's processes."""
        with self._lock:
            for player in self._players.values():
                player.close()
            self._players.clear()
