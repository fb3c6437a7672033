"""The solo game's service alone: CPU time per move with no web stack around it, in this one process.

Plays whole games through ``spades.server.service.Service`` on a temporary SQLite file as the server's
routes do (the credential looked up, the move made, the computer players' answers, the append, the state
and its JSON), with ``normal`` computer players, and prints this process's CPU milliseconds per move:
a steadier figure than ``bench_server.py``'s on a shared machine, since nothing else is timed. Compare
two checkouts by running each in turn, e.g.

    .venv/bin/python benchmarks/bench_solo_service.py
    PYTHONPATH=<other checkout>/src .venv/bin/python benchmarks/bench_solo_service.py

``--socket N`` plays N games at once through the solo WebSocket's answer to a message instead (the
route's own code, ``routes.games._answer``, with partial states, on one event loop, so that their
appends share the loop's turns as on the server), for ``--seconds`` a run, and prints the CPU
microseconds a message, the load generator's choices and JSON included (the same in both checkouts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_server import choose

from spades.server.routes import games
from spades.server.schemas import GameState, SettingsIn
from spades.server.service import Service
from spades.server.store import open_store

_CHOICE = {"phase", "can_look", "legal_bids", "hand", "pass_count", "legal"}
"""The fields of a state that ``choose`` reads."""


def play(service: Service, credential: str, moves: int) -> None:
    """``moves`` requests of a player going through games: moves, next hands and new games."""
    out = service.new_game(credential, deal=random.randrange(1, 10**9))
    for _ in range(moves):
        state: GameState = out.state
        if state.phase == "game_over":
            out = service.new_game(credential, deal=random.randrange(1, 10**9))
        elif state.phase == "hand_over":
            out = service.next_hand(service.player(credential), state.id, state.version)
        else:
            shown: dict[str, Any] = state.model_dump(include=_CHOICE)  # what a client chooses from
            out = service.move(service.player(credential), state.id, choose(shown), state.version)
        out.model_dump_json()


async def socket_client(service: Service, credential: str, until: float) -> int:
    """One player's messages on the socket's answer, whole games, until ``until``: how many it sent."""
    shown, state, sent = games._Shown(), None, 0
    while time.monotonic() < until:
        if state is None or state["phase"] == "game_over":
            out = service.new_game(credential, deal=random.randrange(1, 10**9))
            state = out.state.model_dump(mode="json")
            shown.state = None
            continue
        sent += 1
        message: dict[str, Any] = {"id": sent, "game": state["id"], "version": state["version"]}
        message.update({"do": "next"} if state["phase"] == "hand_over"
                       else {"do": "move", "move": choose(state)})
        answer = json.loads(await games._answer(service, None, credential, json.dumps(message), shown))
        if answer["status"] != 200:
            raise RuntimeError(f"refused: {answer}")
        state = {**state, **answer["body"]["state"]}
    return sent


def socket_runs(service: Service, clients: int, seconds: float, runs: int) -> None:
    """Warm up, then print the CPU microseconds a message of ``clients`` players at once, once per run."""
    credentials = [service.new_player() for _ in range(clients)]

    async def run(seconds: float) -> int:
        until = time.monotonic() + seconds
        return sum(await asyncio.gather(*(socket_client(service, c, until) for c in credentials)))

    asyncio.run(run(2))
    for _ in range(runs):
        start = time.process_time()
        sent = asyncio.run(run(seconds))
        print(f"{1e6 * (time.process_time() - start) / sent:.0f} us of CPU a message ({sent} messages)")


def main() -> int:
    """Warm up, then time the moves; print CPU milliseconds per move, once per run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=3000, help="moves timed per run (default 3000)")
    ap.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    ap.add_argument("--socket", type=int, metavar="N", help="N games at once on the socket's answer")
    ap.add_argument("--seconds", type=float, default=8, help="with --socket: seconds a run (default 8)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.sqlite3")
        store.check()
        service = Service(store)
        if args.socket:
            socket_runs(service, args.socket, args.seconds, args.runs)
            store.close()
            return 0
        credential = service.new_player()
        service.save_settings(credential, SettingsIn.model_validate({"level": "normal", "speed": "instant"}))
        play(service, credential, 300)
        for _ in range(args.runs):
            start = time.process_time()
            play(service, credential, args.moves)
            print(f"{1000 * (time.process_time() - start) / args.moves:.3f} ms of CPU a move")
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
