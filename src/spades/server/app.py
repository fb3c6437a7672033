"""Builds the FastAPI app: settings, the store (checked before anything is served), the edges
(limits, headers, log), thin routers per resource, error mapping.

>>> import tempfile
>>> from spades.server.app import create_app
>>> from spades.server.settings import Settings
>>> create_app(Settings(db_path=tempfile.mkdtemp() + "/games.sqlite3")).title
'Spades'
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Match

from spades.protocol import Roster, parse_named_bots
from spades.protocol.remote import Remotes
from spades.server.accounts.service import Accounts
from spades.server.analyses import Analyses
from spades.server.archive import Archive
from spades.server.bots_relay import RedisRelay
from spades.server.failures import FAILURES, failure_of, invalid_detail
from spades.server.lobby import Lobby
from spades.server.middleware import (
    AccessLog,
    BodyLimit,
    Buckets,
    ClientAddress,
    RateLimit,
    SharedBuckets,
    TokenBucket,
    configure_access_log,
)
from spades.server.routes import accounts, archive, games, meta, ops, players, ratings
from spades.server.routes.lobby import router as lobby_router
from spades.server.routes.scorekeeper import router as scorekeeper_router
from spades.server.routes.tables import install as install_tables
from spades.server.routes.tournaments import pages as tournament_pages
from spades.server.routes.tournaments import router as tournaments_router
from spades.server.rules_page import router as rules_page_router
from spades.server.schemas import errors
from spades.server.service import Service
from spades.server.settings import Settings
from spades.server.standings import Standings
from spades.server.store import open_store
from spades.server.tournaments.live import Watch
from spades.server.tournaments.service import Tournaments

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR = Path(__file__).parent / "static"


_GC_THRESHOLDS = (50_000, 100, 10)
"""Objects kept between young collections (Python's default is 700), and young collections between two
of the middle generation (Python's: 10): about 5 minutes at 1,000 games, where 20 paused a loaded process
half a second each minute to find almost nothing (what a move keeps lives on, or dies by its count); not
longer, for a closed connection leaves a hundred objects in cycles that only such a collection frees."""
_GC_TUNED = False


def _tune_gc() -> None:
    """Spare the moves the garbage collector's long pauses, once per process.

    Python's full collections walk every object, and a server process holds hundreds of thousands
    (its modules, the app, the cached games): under load a move that met one waited 100 ms and
    more. What exists once the app is built lives as long as the process, so it is moved out of
    the collector's sight (``gc.freeze``); the youngest generation is collected less often, and the
    older ones, which hold the games and find almost no cycles, seldom.
    """
    global _GC_TUNED
    if not _GC_TUNED:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*_GC_THRESHOLDS)
        _GC_TUNED = True


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app: the JSON API under ``/api``, OpenAPI at ``/docs``, the page at ``/``.

    Without settings, they are read from the environment (``Settings.from_env``). The store is
    opened, upgraded and checked first: a database that cannot be reached, written or read
    raises ``StoreError`` with the reason, and nothing is served.
    """
    settings = settings or Settings.from_env()
    store = open_store(settings.database)
    try:
        store.check()
    except BaseException:
        store.close()
        raise

    coach = Analyses(store, samples=settings.coach_samples, workers=settings.coach_workers) \
        if settings.coach_workers else None

    limits = _rate_limits(settings)
    roster = Roster(parse_named_bots(settings.bots),
                    Remotes(relay=RedisRelay(settings.redis_url) if settings.redis_url else None))
    sign_ins = _buckets(settings, "sign-in", settings.sign_ins_per_minute / 60, settings.sign_in_burst)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        _tune_gc()
        yield
        for bucket in (*limits, sign_ins):
            if bucket is not None:
                await bucket.aclose()
        if coach is not None:
            coach.close()
        roster.close()
        roster.remotes.close()
        store.close()

    app = FastAPI(
        title="Spades",
        version="0.1.0",
        description="Play Spades as South with a computer partner. The server is the referee: "
        "a player only ever receives their own seat's view.",
        docs_url=None, redoc_url=None, lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.roster = roster
    app.state.service = Service(store, coach)
    app.state.token_buckets = limits[0]  # the solo game's WebSocket counts each message against them too
    app.state.archive = Archive(store, app.state.service.reviews)
    app.state.accounts = Accounts(store, sign_ins)
    app.include_router(players.router)
    app.include_router(accounts.router)
    app.include_router(games.router)
    app.include_router(archive.router)
    app.include_router(archive.pages)
    app.include_router(meta.router)
    app.include_router(scorekeeper_router, responses=errors(400, 413, 422, 429))
    app.include_router(ops.router)
    app.state.standings = Standings(store, app.state.archive)
    app.include_router(ratings.router)
    app.include_router(rules_page_router)
    install_tables(app, store, app.state.service.reviews, roster, settings.redis_url)
    app.state.lobby = Lobby(store, app.state.tables, settings.quick_fill)
    app.include_router(lobby_router)
    app.state.tournaments = Tournaments(store, app.state.tables)
    app.state.tournament_watch = Watch(app.state.tournaments)
    app.include_router(tournaments_router)
    app.include_router(tournament_pages)
    _add_error_handlers(app)
    _add_edges(app, settings, *limits)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        """The table."""
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/lobby", include_in_schema=False)
    def lobby() -> FileResponse:
        """The lobby: the listed tables, and Quick game."""
        return FileResponse(STATIC_DIR / "lobby.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def _buckets(settings: Settings, name: str, rate: float, burst: int) -> Buckets | None:
    """Rate buckets (None: no limit), in Redis if it is given, so that every process counts the same."""
    if not rate:
        return None
    if settings.redis_url:
        return SharedBuckets(settings.redis_url, name, rate, burst)
    return TokenBucket(rate, burst)


def _rate_limits(settings: Settings) -> tuple[Buckets | None, Buckets | None]:
    """The buckets per player token and per client address (None: no limit)."""
    return (_buckets(settings, "token", settings.rate_per_token, settings.burst_per_token),
            _buckets(settings, "address", settings.rate_per_address, settings.burst_per_address))


def _add_edges(app: FastAPI, settings: Settings, per_token: Buckets | None,
               per_address: Buckets | None) -> None:
    """What every request crosses, outermost first: the client address, the log and headers,
    the rate limits, the body limit."""
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(RateLimit, per_token=per_token, per_address=per_address)
    app.add_middleware(AccessLog, log=settings.access_log, hsts=settings.hsts)
    app.add_middleware(ClientAddress, trusted=settings.trusted_proxies)
    if settings.access_log:
        configure_access_log()


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def _allowed(app: FastAPI, request: Request) -> str:
    """The methods some route at this request's path takes: a 405's ``Allow`` (Starlette's own names only
    the methods of the first route there, and the API has paths with a route per method)."""
    return ", ".join(method for method in _METHODS if any(
        route.matches({**request.scope, "method": method})[0] is Match.FULL for route in app.router.routes))


def _add_error_handlers(app: FastAPI) -> None:
    """Map every error a client can cause to a 4xx with a message a person can read."""

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        allowed = _allowed(app, request) if exc.status_code == 405 else ""
        if allowed:
            exc.headers = {**(exc.headers or {}), "Allow": allowed}
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": invalid_detail(exc.errors())}, status_code=422)

    async def failed(_: Request, exc: Exception) -> JSONResponse:
        """The error's answer from the one table of them (``failures``)."""
        failure = failure_of(exc)
        return JSONResponse(failure.body, status_code=failure.status, headers=failure.headers)

    for kind in FAILURES:
        app.add_exception_handler(kind, failed)
