"""Account names: what a name may be, and its key, which look-alike names share.

A name is normalised (Unicode NFKC, so a full-width ``Ａlice`` is ``Alice``) and then checked: 3 to 20
characters, letters, digits, ``_``, ``-`` and ``.``, beginning with a letter or a digit (so that it
reads in a ``/@name`` address). Its key, also case-folded, is what must be unique: ``Alice``,
``ALICE`` and ``ａｌｉｃｅ`` are one name. The names the game gives to others (``You``, the computer
players and their levels, ``deleted player``) are refused, whatever their case or separators.

>>> check_name(" Ａlice ")
'Alice'
>>> name_key("ALICE") == name_key("ａｌｉｃｅ")
True
>>> check_name("EXPERT")
Traceback (most recent call last):
...
spades.server.accounts.names.BadName: The name "EXPERT" is kept for the game's own use: choose another.
"""

from __future__ import annotations

import unicodedata

from spades.bots import LEVELS
from spades.protocol.remote import REMOTE_PREFIX
from spades.server.accounts.errors import AccountError
from spades.server.store import DELETED_NAME
from spades.server.tables.state import RESERVED_NAMES

__all__ = ["MAX_NAME", "MIN_NAME", "BadName", "check_name", "name_key"]

MIN_NAME = 3
MAX_NAME = 20
_SEPARATORS = "_-."


class BadName(AccountError):
    """A name that cannot be an account's: the message says why."""

    status = 422


def name_key(name: str) -> str:
    """The form that look-alike names share (NFKC, trimmed, case-folded, NFKC again as case folding may
    undo it): the key of an account's name, and what ``Store.account_by_name`` looks up."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).strip().casefold())


def _bare(name: str) -> str:
    """A name's key without its separators and spaces, against which the reserved names are matched."""
    return "".join(c for c in name_key(name) if c not in _SEPARATORS and not c.isspace())


_RESERVED = frozenset(_bare(n) for n in (*RESERVED_NAMES, "Computer", *LEVELS, DELETED_NAME, "anonymous"))
"""The names the game uses for others, which no account may take."""


def check_name(name: str) -> str:
    """The name as an account keeps it (NFKC, trimmed), or ``BadName`` saying what is wrong with it."""
    if not isinstance(name, str):
        raise BadName("The name must be text.")
    shown = unicodedata.normalize("NFKC", name).strip()
    if not MIN_NAME <= len(shown) <= MAX_NAME:
        raise BadName(f"A name has {MIN_NAME} to {MAX_NAME} characters; {shown!r} has {len(shown)}.")
    wrong = sorted({c for c in shown if not (c.isalnum() or c in _SEPARATORS)})
    if wrong:
        raise BadName(f"A name holds only letters, digits, and {' '.join(_SEPARATORS)}; not "
                      f"{' '.join(repr(c) for c in wrong)}.")
    if not shown[0].isalnum():
        raise BadName("A name begins with a letter or a digit.")
    if name_key(shown).startswith(REMOTE_PREFIX):
        raise BadName(f'A name beginning "{REMOTE_PREFIX}" is how tables name the remote bots: choose '
                      'another.')
    if _bare(shown) in _RESERVED:
        raise BadName(f'The name "{shown}" is kept for the game\'s own use: choose another.')
    return shown
