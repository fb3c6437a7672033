"""The server's settings in one typed place: read from ``SPADES_*`` variables, command-line flags win.

>>> env = {"SPADES_PORT": "9000", "SPADES_TRUSTED_PROXIES": "10.0.0.0/8, ::1"}
>>> s = Settings.from_env(env, db_path="x.db")
>>> (s.port, s.db_path, s.trusted_proxies, s.max_body_bytes)
(9000, 'x.db', ('10.0.0.0/8', '::1'), 131072)
>>> Settings.from_env({"SPADES_PORT": "http"})
Traceback (most recent call last):
...
spades.errors.SpadesError: SPADES_PORT must be an integer, not 'http'.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from spades.bots.coach import SAMPLES as COACH_SAMPLES
from spades.errors import SpadesError
from spades.protocol import parse_named_bots

__all__ = ["ENV_PREFIX", "Settings", "default_db_path"]

ENV_PREFIX = "SPADES_"


def default_db_path() -> Path:
    """Where games and stats live: ``$SPADES_DB``, else a file in the user's data folder."""
    env = os.environ.get("SPADES_DB")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("spades", appauthor=False)) / "spades.sqlite3"


@dataclass(frozen=True)
class Settings:
    """How the service runs. Each field is set by ``SPADES_<FIELD>`` (``db_path``: ``SPADES_DB``).

    A rate of 0 turns that limit off. Several processes count requests together when ``redis_url``
    is set, else each on its own.
    """

    db_path: Path | str = field(default_factory=default_db_path, metadata={"env": "DB"})
    """The SQLite file that holds players, games and stats."""
    database_url: str = ""
    """A database URL in place of ``db_path``: ``postgresql://user:password@host:port/name`` (or
    ``sqlite:///path``)."""
    workers: int = 1
    """Server processes sharing the port and the database (``spades serve``)."""
    host: str = "127.0.0.1"
    """The address ``spades serve`` listens on."""
    port: int = 8000
    """The port ``spades serve`` listens on."""
    max_body_bytes: int = 128 * 1024
    """The largest request body accepted (413 beyond it), checked before it is read."""
    rate_per_token: float = 20.0
    """Requests a second one player token may keep up (429 beyond it); 0: no limit."""
    burst_per_token: int = 200
    """Requests one player token may send at once before its rate applies."""
    rate_per_address: float = 100.0
    """Requests a second one client address may keep up (429 beyond it); 0: no limit."""
    burst_per_address: int = 1000
    """Requests one client address may send at once before its rate applies."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (comma-separated) whose X-Forwarded-For / Forwarded headers are believed."""
    access_log: bool = True
    """One JSON line per request on stderr: time, method, path, status, duration, client."""
    hsts: bool = False
    """Send Strict-Transport-Security (browsers then always use HTTPS): only for a site served over HTTPS."""
    coach_samples: int = COACH_SAMPLES
    """Deals the coach samples per decision when it reviews a finished hand (more: steadier, slower);
    by default as many as ``spades analyze``, so both give the same review."""
    coach_workers: int = 1
    """Hands the coach reviews at once, each in a process of its own; 0: no coach."""
    quick_fill: float = 20.0
    """Seconds the longest waiter for a Quick game waits before computer players take the seats no one
    came for."""
    bots: str = ""
    """Outside bots offered with the levels at friends' tables, ``name=exec:COMMAND`` separated by commas
    (``greedy=exec:/opt/bots/greedy``): each a program speaking the bot protocol."""
    sign_ins_per_minute: float = 5.0
    """Sign-in attempts a minute that one account name, and one client address, may keep up (429 beyond
    it); 0: no limit."""
    sign_in_burst: int = 10
    """Sign-in attempts one name or address may make at once before that rate applies."""
    passkey_rp_id: str = ""
    """The host name passkeys belong to (WebAuthn's RP ID); empty: the host the browser asked for. Set it
    behind a proxy that changes the Host header."""
    passkey_origin: str = ""
    """The origin (``https://cards.example.org``) the pages are served from, which passkeys check; empty:
    the scheme and host the request came with."""
    redis_url: str = ""
    """Redis (``redis://host:port/0``) through which several server processes share friends' tables' events
    and the rate limits' counts; empty: they stay in the process (one process serves every table)."""

    def __post_init__(self) -> None:
        """Refuse values the server cannot run with, naming the variable."""
        if not 0 <= self.port < 65536:
            raise SpadesError(f"{ENV_PREFIX}PORT must be a port number (0-65535), not {self.port}.")
        for name in ("max_body_bytes", "burst_per_token", "burst_per_address", "sign_in_burst", "workers"):
            if getattr(self, name) < 1:
                raise SpadesError(f"{ENV_PREFIX}{name.upper()} must be at least 1.")
        for name in ("rate_per_token", "rate_per_address", "sign_ins_per_minute"):
            if not 0 <= getattr(self, name) < float("inf"):
                raise SpadesError(f"{ENV_PREFIX}{name.upper()} must be 0 (off) or a positive number.")
        if self.coach_samples < 2:
            raise SpadesError(f"{ENV_PREFIX}COACH_SAMPLES must be at least 2.")
        if not 1 <= self.quick_fill <= 600:
            raise SpadesError(f"{ENV_PREFIX}QUICK_FILL must be 1 to 600 seconds.")
        if not 0 <= self.coach_workers <= 8:
            raise SpadesError(f"{ENV_PREFIX}COACH_WORKERS must be 0 (no coach) to 8.")
        try:
            parse_named_bots(self.bots)
        except SpadesError as e:
            raise SpadesError(f"{ENV_PREFIX}BOTS: {e}") from None
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise SpadesError(f"{ENV_PREFIX}TRUSTED_PROXIES: {proxy!r} is not an address "
                                  "or a network.") from None

    @property
    def database(self) -> str:
        """Where the store is: the database URL if one is set, else the SQLite file's path."""
        return self.database_url or str(self.db_path)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """The settings from ``SPADES_*`` variables, then ``overrides`` (flags; None means not given)."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            name = ENV_PREFIX + f.metadata.get("env", f.name.upper())
            if name in environ:
                values[f.name] = _parse(name, environ[name], f.type)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


    def to_env(self) -> dict[str, str]:
        """The ``SPADES_*`` variables that ``from_env`` reads back as these settings (for workers)."""
        return {ENV_PREFIX + f.metadata.get("env", f.name.upper()): _text(getattr(self, f.name))
                for f in dataclasses.fields(self)}


def _text(value: object) -> str:
    """A value as its variable spells it."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def _parse(name: str, text: str, kind: Any) -> Any:
    """One variable's text as its field's type, or a SpadesError that names the variable."""
    text = text.strip()
    if kind == "bool":
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off", ""):
            return False
        raise SpadesError(f"{name} must be 1 or 0, not {text!r}.")
    if kind in ("int", "float"):
        try:
            return int(text) if kind == "int" else float(text)
        except ValueError:
            raise SpadesError(f"{name} must be {'an integer' if kind == 'int' else 'a number'}, "
                              f"not {text!r}.") from None
    if kind == "tuple[str, ...]":
        return tuple(p.strip() for p in text.split(",") if p.strip())
    return text
