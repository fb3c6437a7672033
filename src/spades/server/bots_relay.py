"""Remote bots across server processes, through Redis: a table in one process asks a bot whose socket is
in another.

Each process keeps a key ``spades:bots:live:<name>`` for each bot connected to it, with a TTL it renews
while the bot stays (so a process that dies stops offering its bots within ``_TTL`` seconds). A request
for a decision is published on ``spades:bots:ask`` with a fresh id; the process that has the bot asks
it (``Remotes.ask_here``, the same deadline) and publishes the answer on ``spades:bots:reply:<id>``, to
which the asker subscribed first. A line told to the bot (``refused``) takes the same channel. When
Redis fails, a bot elsewhere is absent or late, as without Redis: the ``normal`` level plays.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from spades.protocol.remote import Answer, Remotes

__all__ = ["RedisRelay"]

_LIVE = "spades:bots:live:"
_ASK = "spades:bots:ask"
_REPLY = "spades:bots:reply:"
_TTL = 10
"""Seconds a bot's presence key lives unless renewed (every third of it while the bot is connected)."""
_TIMEOUT = 1.0
"""Seconds a call to Redis may take before it counts as failed."""
_WORKERS = 8
"""Requests of other processes answered at once (each waits on its bot for up to its deadline)."""
_DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
"""Drop a presence key if this process set it (not if the bot has since connected to another)."""
_log = logging.getLogger("spades.protocol")


class RedisRelay:
    """The ``Relay`` of ``spades.protocol.remote`` through Redis: a listening thread answers the other
    processes' requests for this process's bots, another renews their presence keys."""

    def __init__(self, url: str) -> None:
        import redis  # an extra: only a server that is given SPADES_REDIS_URL needs it

        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError, ValueError, KeyError)
        self._redis = redis.Redis.from_url(url, socket_timeout=_TIMEOUT, socket_connect_timeout=_TIMEOUT)
        self._redis.ping()  # a wrong URL stops the server at start
        self._stop = threading.Event()
        self._pool = ThreadPoolExecutor(_WORKERS, thread_name_prefix="spades-bots-relay")
        self._threads: list[threading.Thread] = []
        self._remotes: Remotes | None = None
        self._me = secrets.token_hex(8)
        """This process's mark on the presence keys it sets."""

    def serve(self, remotes: Remotes) -> None:
        """Start answering requests for ``remotes``' bots and renewing their presence."""
        self._remotes = remotes
        for target in (self._listen, self._renew):
            thread = threading.Thread(target=target, name="spades-bots-relay", daemon=True)
            thread.start()
            self._threads.append(thread)

    def arrived(self, name: str) -> None:
        """Set the bot's presence key."""
        self._call(lambda: self._redis.set(_LIVE + name, self._me, ex=_TTL))

    def left(self, name: str) -> None:
        """Drop the bot's presence key, unless another process has set it since."""
        self._call(lambda: self._redis.eval(_DROP, 1, _LIVE + name, self._me))

    def present(self) -> set[str]:
        """The names whose presence keys are set."""
        keys = self._call(lambda: list(self._redis.scan_iter(match=_LIVE + "*", count=1000)))
        return {key.decode()[len(_LIVE):] for key in keys or ()}

    def ask(self, name: str, greeting: str, decision: str, seconds: float) -> Answer | None:
        """Publish the request, wait for its answer on its own channel."""
        request = secrets.token_hex(8)
        try:
            with self._redis.pubsub(ignore_subscribe_messages=True) as replies:  # type: ignore[no-untyped-call, unused-ignore]
                replies.subscribe(_REPLY + request)
                self._redis.publish(_ASK, json.dumps({"name": name, "id": request, "hello": greeting,
                                                      "decide": decision}))
                end = time.monotonic() + seconds
                while (left := end - time.monotonic()) > 0:
                    message = replies.get_message(timeout=min(left, _TIMEOUT))
                    if message is not None:
                        return Answer.from_dict(json.loads(message["data"]))
        except self._errors as e:
            _log.warning("Redis failed at asking remote bot %s (%s).", name, e)
        return None

    def tell(self, name: str, line: str) -> None:
        """Publish the line for the bot's process."""
        self._call(lambda: self._redis.publish(_ASK, json.dumps({"name": name, "tell": line})))

    def close(self) -> None:
        """Stop both threads and the requests under way; close the connection."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._redis.close()

    def _call(self, call: Any) -> Any:
        """``call()``'s result, or None (logged) if Redis failed."""
        try:
            return call()
        except self._errors as e:
            _log.warning("Redis failed at relaying remote bots (%s).", e)
            return None

    def _listen(self) -> None:
        """Hear the requests (resubscribing after a failure) and hand those for this process's bots over."""
        while not self._stop.is_set():
            try:
                with self._redis.pubsub(ignore_subscribe_messages=True) as requests:  # type: ignore[no-untyped-call, unused-ignore]
                    requests.subscribe(_ASK)
                    while not self._stop.is_set():
                        message = requests.get_message(timeout=_TIMEOUT)
                        if message is not None:
                            self._heard(json.loads(message["data"]))
            except self._errors as e:
                _log.warning("Redis failed at hearing remote bots' requests (%s): retrying.", e)
                self._stop.wait(_TIMEOUT)

    def _heard(self, request: dict[str, Any]) -> None:
        """A request or a line for a bot: acted on if the bot is connected here."""
        remotes, name = self._remotes, request["name"]
        if remotes is None or remotes.get(name) is None:
            return
        if "tell" in request:
            remotes.tell(name, request["tell"])
        else:
            self._pool.submit(self._answer, remotes, request)

    def _answer(self, remotes: Remotes, request: dict[str, Any]) -> None:
        """Ask the bot here, publish its answer for the asker."""
        answer = remotes.ask_here(request["name"], request["hello"], request["decide"])
        self._call(lambda: self._redis.publish(_REPLY + request["id"], json.dumps(answer.to_dict())))

    def _renew(self) -> None:
        """Renew this process's bots' presence keys every third of their life."""
        while not self._stop.wait(_TTL / 3):
            remotes = self._remotes
            for name in remotes.here() if remotes is not None else ():
                self.arrived(name)
