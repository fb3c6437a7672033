"""The browser game's HTTP service: the referee, its store, and the static page.

``create_app`` and ``Settings`` are loaded on first use, so that a process which needs only one
part of the service (the coach's child process, a store migration) does not import the web app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spades.server.app import create_app
    from spades.server.settings import Settings

__all__ = ["Settings", "create_app"]

_HOMES = {"create_app": "spades.server.app", "Settings": "spades.server.settings"}


def __getattr__(name: str) -> Any:
    """Load ``create_app`` or ``Settings`` from its module when it is first asked for."""
    if name not in _HOMES:
        raise AttributeError(f"module 'spades.server' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
