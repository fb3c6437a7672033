"""The browser game's HTTP service: the referee, its SQLite store, and the static page."""

from spades.server.app import create_app
from spades.server.settings import Settings

__all__ = ["Settings", "create_app"]
