"""The browser game's HTTP service: the referee, its SQLite store, and the static page."""

from spades.server.app import AppSettings, create_app

__all__ = ["AppSettings", "create_app"]
