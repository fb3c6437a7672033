"""The edges every request crosses before a route: its real client address, the access log and the
security headers, the rate limits and the body limit. Plain ASGI, so they cost little.

>>> bucket = TokenBucket(rate=1.0, burst=2)
>>> [bucket.take("a", now=0.0), bucket.take("a", now=0.0), bucket.take("a", now=0.0)]
[0.0, 0.0, 1.0]
>>> bucket.take("a", now=1.0), bucket.take("b", now=1.0)
(0.0, 0.0)
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import sys
import time
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ACCESS_LOG", "AccessLog", "BodyLimit", "Buckets", "ClientAddress", "RateLimit", "SharedBuckets",
           "TokenBucket", "security_headers", "too_many"]

ACCESS_LOG = logging.getLogger("spades.access")
"""One JSON line per request (``spades serve`` sends it to stderr)."""
LOG = logging.getLogger("spades.server")

PAGE_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")
"""The pages load only their own files: no inline script or style, no eval, never in a frame."""

UNLIMITED_PATHS = frozenset({"/healthz", "/readyz"})
"""Probes that the rate limits leave alone."""


def security_headers(hsts: bool) -> list[tuple[bytes, bytes]]:
    """The headers every response carries (a route may set its own Content-Security-Policy)."""
    headers = [(b"content-security-policy", PAGE_CSP.encode()),
               (b"x-content-type-options", b"nosniff"),
               (b"x-frame-options", b"DENY"),
               (b"referrer-policy", b"same-origin"),
               (b"cross-origin-opener-policy", b"same-origin")]
    if hsts:
        headers.append((b"strict-transport-security", b"max-age=31536000"))
    return headers


async def send_error(send: Send, status: int, detail: str,
                     headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer with the API's error body, ``{"detail": ...}``."""
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


class ClientAddress:
    """Put the real client address (and scheme) in the scope, from forwarded headers when the
    connection comes from a trusted proxy; anyone else's forwarded headers are ignored.

    The client is the nearest address, walking back along the chain, that is not a trusted proxy.
    """

    def __init__(self, app: ASGIApp, trusted: Iterable[str]) -> None:
        self.app = app
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted]

    def _is_trusted(self, host: str) -> bool:
        """Whether ``host`` is an address within the trusted proxies (a name is never trusted)."""
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.trusted and scope.get("client") \
                and self._is_trusted(scope["client"][0]):
            chain, proto = _forwarded(Headers(scope=scope))
            if chain:
                host = next((h for h in reversed(chain) if not self._is_trusted(h)), chain[0])
                scope = {**scope, "client": (host, 0)}
            if proto in ("http", "https"):
                scope = {**scope, "scheme": proto if scope["type"] == "http" else
                         {"http": "ws", "https": "wss"}[proto]}
        await self.app(scope, receive, send)


def _forwarded(headers: Headers) -> tuple[list[str], str | None]:
    """The client addresses a proxy chain reports (first is the farthest) and the original scheme.

    ``Forwarded`` (RFC 7239) is read if present, else ``X-Forwarded-For`` and ``X-Forwarded-Proto``.
    """
    if "forwarded" in headers:
        chain: list[str] = []
        proto = None
        for element in ",".join(headers.getlist("forwarded")).split(","):
            for pair in element.split(";"):
                key, _, value = pair.strip().partition("=")
                value = value.strip().strip('"')
                if key.lower() == "for" and value:
                    chain.append(_host_of(value))
                elif key.lower() == "proto" and value:
                    proto = value.lower()
        return chain, proto
    hops = ",".join(headers.getlist("x-forwarded-for")).split(",")
    chain = [_host_of(h.strip()) for h in hops if h.strip()]
    protos = [p.strip().lower() for p in headers.get("x-forwarded-proto", "").split(",") if p.strip()]
    return chain, protos[-1] if protos else None


def _host_of(node: str) -> str:
    """An address without its port or IPv6 brackets: ``[2001:db8::1]:80`` -> ``2001:db8::1``."""
    if node.startswith("["):
        return node[1:].partition("]")[0]
    if node.count(":") == 1:
        return node.partition(":")[0]
    return node


class AccessLog:
    """Add the security headers and ``Server-Timing`` to every response, log one JSON line per
    request (time, method, path, status, milliseconds, client), and turn a crash into a JSON 500."""

    def __init__(self, app: ASGIApp, *, log: bool, hsts: bool) -> None:
        self.app = app
        self.log = log
        self.headers = security_headers(hsts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status: int | None = None
        logged = not self.log

        def log() -> None:
            nonlocal logged
            logged = True
            client = scope.get("client")
            ACCESS_LOG.info(json.dumps({
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": scope["method"], "path": scope["path"], "status": status,
                "ms": round((time.perf_counter() - start) * 1000, 2),
                "client": client[0] if client else None}))

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in self.headers if k not in present]
                took = (time.perf_counter() - start) * 1000
                headers.append((b"server-timing", f"app;dur={took:.2f}".encode()))
                message = {**message, "headers": headers}
            elif not message.get("more_body", False) and not logged:
                log()
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if status is None:
                await send_error(send_with_headers, 500, "The server failed on this request; "
                                 "it has been logged.")
            raise
        finally:
            if not logged:
                log()


class TokenBucket:
    """Per-key token buckets: ``rate`` requests a second, up to ``burst`` at once.

    Keys not seen for longest are forgotten past ``keys`` of them (a full bucket loses nothing).
    """

    def __init__(self, rate: float, burst: int, keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float) -> float:
        """Take one request from ``key``'s bucket: 0 if allowed, else the seconds to wait."""
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return wait


    async def wait(self, key: str) -> float:
        """``take`` now (``Buckets``' interface)."""
        return self.take(key, time.monotonic())

    async def aclose(self) -> None:
        """Nothing to let go of: the buckets are this process's memory."""


class Buckets(Protocol):
    """Rate buckets by key: this process's own (``TokenBucket``) or every process's (``SharedBuckets``)."""

    async def wait(self, key: str) -> float:
        """Take one request from ``key``'s bucket: 0 if allowed, else the seconds to wait."""
        ...

    async def aclose(self) -> None:
        """Let go of connections (the server is stopping)."""
        ...


_SHARED_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or burst
tokens = math.min(burst, tokens + math.max(0, now - (tonumber(held[2]) or now)) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""
"""``TokenBucket.take`` as one Redis script, on Redis's clock: atomic, whichever process calls it."""
_REDIS_RETRY = 5.0
"""Seconds a process counts on its own after Redis failed to answer, before it asks Redis again."""
_REDIS_TIMEOUT = 0.5


class SharedBuckets:
    """``TokenBucket``'s buckets kept in Redis, so that every server process counts the same requests.

    A request costs one round trip to Redis. When Redis does not answer, the process counts on its
    own buckets for a few seconds, then asks Redis again: a rate limit must not take the site down.
    """

    def __init__(self, url: str, name: str, rate: float, burst: int) -> None:
        import redis.asyncio  # an extra: only a server given SPADES_REDIS_URL needs it

        self._redis = redis.asyncio.Redis.from_url(url, socket_timeout=_REDIS_TIMEOUT,
                                                   socket_connect_timeout=_REDIS_TIMEOUT)
        self._script = self._redis.register_script(_SHARED_BUCKET)
        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        self._prefix = f"spades:rate:{name}:"
        self._args = (rate, burst)
        self.local = TokenBucket(rate, burst)
        """The buckets counted in this process while Redis does not answer."""
        self._alone_until = 0.0

    async def wait(self, key: str) -> float:
        """Take one request from ``key``'s bucket in Redis (or, while Redis fails, this process's)."""
        now = time.monotonic()
        if now >= self._alone_until:
            try:
                return float(await self._script(keys=[self._prefix + key], args=list(self._args)))
            except self._errors as e:
                self._alone_until = now + _REDIS_RETRY
                LOG.warning("Redis did not answer the rate limit (%s): this process counts on its own "
                            "for %g s.", e, _REDIS_RETRY)
        return self.local.take(key, now)

    async def aclose(self) -> None:
        """Close the connections to Redis."""
        await self._redis.aclose()


def too_many(who: str, wait: float) -> tuple[int, str]:
    """A 429's whole seconds to wait and its words, for requests from ``who`` (this player...)."""
    seconds = math.ceil(wait)
    return seconds, f"Too many requests from {who}: try again in {seconds} s."


class RateLimit:
    """429 with Retry-After past a client address's or a player token's rate.

    With ``TokenBucket`` each server process counts on its own; with ``SharedBuckets`` (when
    ``SPADES_REDIS_URL`` is set) every process counts the same requests.
    """

    def __init__(self, app: ASGIApp, *, per_token: Buckets | None,
                 per_address: Buckets | None) -> None:
        self.app = app
        self.per_token = per_token
        self.per_address = per_address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] not in UNLIMITED_PATHS:
            client = scope.get("client")
            token = Headers(scope=scope).get("x-player-token")
            for bucket, key, who in ((self.per_address, client[0] if client else None, "this address"),
                                     (self.per_token, token, "this player")):
                if bucket is None or key is None:
                    continue
                wait = await bucket.wait(key)
                if wait:
                    seconds, detail = too_many(who, wait)
                    await send_error(send, 429, detail, [(b"retry-after", str(seconds).encode())])
                    return
        await self.app(scope, receive, send)


class BodyLimit:
    """413 for a request body over ``limit`` bytes, before any route reads it: at once from its
    Content-Length, else (a chunked body) as soon as the bytes read pass the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def _message(self) -> str:
        """The 413's words, naming the limit."""
        return f"The request body is larger than {self.limit} bytes."

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await send_error(send, 413, self._message())
                return
            await self.app(scope, receive, send)
            return
        chunks: list[Message] = []
        size = 0
        while True:
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await send_error(send, 413, self._message())
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return chunks.pop(0) if chunks else await receive()

        await self.app(scope, replay, send)


def configure_access_log() -> None:
    """Send the access log's lines, as they are, to stderr (once)."""
    if not ACCESS_LOG.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        ACCESS_LOG.addHandler(handler)
        ACCESS_LOG.setLevel(logging.INFO)
        ACCESS_LOG.propagate = False
