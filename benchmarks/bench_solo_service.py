"""The solo game's service alone: CPU time per move with no web stack around it, in this one process.

Plays whole games through ``spades.server.service.Service`` on a temporary SQLite file as the server's
routes do (the credential looked up, the move made, the computer players' answers, the append, the state
and its JSON), with ``normal`` computer players, and prints this process's CPU milliseconds per move:
a steadier figure than ``bench_server.py``'s on a shared machine, since nothing else is timed. Compare
two checkouts by running each in turn, e.g.

    .venv/bin/python benchmarks/bench_solo_service.py
    PYTHONPATH=<other checkout>/src .venv/bin/python benchmarks/bench_solo_service.py
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_server import choose

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


def main() -> int:
    """Warm up, then time the moves; print CPU milliseconds per move, once per run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=3000, help="moves timed per run (default 3000)")
    ap.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.sqlite3")
        store.check()
        service = Service(store)
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
