"""The API's answer to each error a client can cause: its status, its ``{"detail": ...}`` body and headers.

One table, read by the HTTP routes' error handlers and by the solo game's WebSocket, which answers a move
as ``POST /api/games/{id}/moves`` would.

>>> failure_of(NotFound("There is no game 7 for this player."))
Failure(status=404, body={'detail': 'There is no game 7 for this player.'}, headers=None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from spades.errors import SpadesError
from spades.server.accounts.errors import AccountError, TooManyAttempts
from spades.server.analyses import CoachUnavailable
from spades.server.archive import NotOver
from spades.server.service import MoveRejected, NotFound, UnknownPlayer
from spades.server.store import StoreError

__all__ = ["FAILURES", "Failure", "failure_of", "invalid_detail"]

FAILURES: tuple[type[Exception], ...] = (NotFound, NotOver, UnknownPlayer, StoreError, CoachUnavailable,
                                         AccountError, MoveRejected, SpadesError)
"""The errors answered here (a subclass before its base)."""


@dataclass(frozen=True)
class Failure:
    """An error's answer: the HTTP status, the JSON body, and headers (``Retry-After``) if any."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] | None = None


def failure_of(exc: Exception) -> Failure:
    """The answer to one of ``FAILURES`` (anything else is the server's own failure: a 500)."""
    detail = {"detail": str(exc)}
    if isinstance(exc, NotFound):
        return Failure(404, detail)
    if isinstance(exc, NotOver):
        return Failure(409, detail)
    if isinstance(exc, UnknownPlayer):
        return Failure(401, detail)
    if isinstance(exc, StoreError):
        return Failure(503, {"detail": f"The server's database failed ({exc}), so nothing was changed: "
                                       "try again in a moment."})
    if isinstance(exc, CoachUnavailable):
        return Failure(503, detail, {"Retry-After": "30"})
    if isinstance(exc, AccountError):
        retry = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyAttempts) else None
        return Failure(exc.status, detail, retry)
    if isinstance(exc, MoveRejected):
        return Failure(409, {**detail, "state": exc.state.model_dump(mode="json")})
    if isinstance(exc, SpadesError):
        return Failure(400, detail)
    raise TypeError(f"{type(exc).__name__} is not a client's error") from exc


def invalid_detail(problems: Iterable[Mapping[str, Any]]) -> str:
    """A 422's words for a body's validation problems (pydantic's ``errors()``): each field and what is
    wrong with it."""
    parts = []
    for err in problems:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg")))
    return "Invalid request: " + "; ".join(parts)
