"""The Spades bot protocol: outside bots, in any language, as players.

A bot is a program that reads JSON lines on its standard input and writes JSON lines on its standard
output (as a chess engine speaks UCI). ``messages`` holds the messages and their JSON Schemas, ``referee``
runs a bot's process as a ``Player`` (``ExecPlayer``) and enforces the time, the memory and the rules,
and ``names`` turns a player's name, a level or ``exec:COMMAND``, into a player.
"""

from spades.protocol.messages import PROTOCOL_VERSION, legal_moves, schema_of, view_json
from spades.protocol.names import Roster, check_player, is_outside, parse_named_bots, resolve_player
from spades.protocol.referee import BotCommandError, ExecPlayer, Fault

__all__ = [
    "PROTOCOL_VERSION",
    "BotCommandError",
    "ExecPlayer",
    "Fault",
    "Roster",
    "check_player",
    "is_outside",
    "legal_moves",
    "parse_named_bots",
    "resolve_player",
    "schema_of",
    "view_json",
]
