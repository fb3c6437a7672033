"""What speaking the bot protocol costs a decision: the example Python bot run as an ``exec:`` bot
against the same bot's code called in this process, on the same decisions.

The in-process bot is given the same view as JSON values (``view_json`` and the legal moves' texts),
so the difference is the protocol's own cost: writing the line, the pipe both ways, the bot reading and
writing JSON, reading its answer. Both play seat 0 against three ``normal`` players over the same deals
(they choose the same moves, so the games are the same); the decision times of seat 0 print, and the
overhead, the mean of the exec bot's less the in-process one's. With ``--remote`` the same bot also plays
as a remote bot: a bot account on a real server on a loopback port, its lines relayed to the server's
WebSocket by ``examples/bots/remote.py``, asked by the server's ``RemotePlayer`` as a table's would.

    .venv/bin/python benchmarks/bench_protocol.py --deals 4 [--remote]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from spades.arena import GAME_HAND_CAP
from spades.bots import Player, make_player, play_out
from spades.game import Game, SeatView
from spades.moves import Move, parse_move
from spades.protocol import ExecPlayer, legal_moves, view_json
from spades.rules import find_preset

BOT = Path(__file__).parents[1] / "examples" / "bots" / "bot.py"
BRIDGE = BOT.with_name("remote.py")


def _example() -> ModuleType:
    """The example bot's module, loaded as code."""
    spec = importlib.util.spec_from_file_location("example_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcess:
    """The example bot's ``decide`` called in this process on the view's JSON values."""

    name = "in-process"

    def __init__(self) -> None:
        self.decide = _example().decide

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The example bot's move for the view."""
        return parse_move(self.decide(view_json(view), [str(m) for m in legal_moves(view)]))


class Timed:
    """A player whose decision times are kept, and the CPU time this process spent in them."""

    def __init__(self, player: Player) -> None:
        self.player, self.name = player, player.name
        self.times: list[float] = []
        self.cpu = 0.0

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The wrapped player's move, timed."""
        start, cpu = time.perf_counter(), time.process_time()
        move = self.player.choose(view, rng)
        self.times.append(time.perf_counter() - start)
        self.cpu += time.process_time() - cpu
        return move


def run(player: Player, deals: int, preset: str) -> Timed:
    """Seat 0's decisions over ``deals`` whole games, timed (the first one's wall time, which starts an
    exec bot's process, left out of ``times``)."""
    timed = Timed(player)
    normal = make_player("normal")
    rules = find_preset(preset)
    for deal in range(1, deals + 1):
        play_out(Game(rules, deal=deal), [timed, *[normal] * (rules.players - 1)], seed=deal,
                 hands=GAME_HAND_CAP)
    timed.times.pop(0)
    return timed


def remote(deals: int, preset: str) -> Timed:
    """``run`` for the example bot as a remote bot, through the bridge, on a server of its own."""
    import httpx

    from spades.server.run import BackgroundServer

    with tempfile.TemporaryDirectory() as tmp, BackgroundServer(Path(tmp) / "db.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        player = {"X-Player-Token": client.post("/api/players").json()["token"]}
        client.post("/api/account", json={"name": "benchbot"}, headers=player).raise_for_status()
        bot = client.post("/api/account/bot", headers=player).json()
        bridge = subprocess.Popen([sys.executable, str(BRIDGE), server.url, bot["token"], sys.executable,
                                   str(BOT)])
        try:
            while bot["level"] not in client.get("/api/rules").json()["bots"]:
                time.sleep(0.05)
            assert server.app is not None
            roster = server.app.state.roster
            timed = run(roster.player(bot["level"], True), deals, preset)
            assert not roster.remotes.fault_count, roster.remotes.faults
            return timed
        finally:
            bridge.terminate()
            bridge.wait()


def main() -> None:
    """Time both and print the figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=4, help="whole games to play (default 4)")
    p.add_argument("--rules", default="standard")
    p.add_argument("--remote", action="store_true", help="also as a remote bot over a server's WebSocket")
    args = p.parse_args()
    inside = run(InProcess(), args.deals, args.rules)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ExecPlayer(f"{sys.executable} {BOT}") as bot:
        outside = run(bot, args.deals, args.rules)
        assert not bot.fault_count, bot.faults
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the bot's process, ended and waited for
    bot_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    for name, timed in (("in-process", inside), ("exec", outside)):
        times = timed.times
        ms = sorted(1000 * t for t in times)
        print(f"{name:>11}: {len(ms)} decisions, mean {statistics.fmean(ms):.3f} ms, "
              f"median {statistics.median(ms):.3f} ms, p95 {ms[int(0.95 * len(ms))]:.3f} ms")
    mean = 1000 * (statistics.fmean(outside.times) - statistics.fmean(inside.times))
    median = 1000 * (statistics.median(outside.times) - statistics.median(inside.times))
    print(f"overhead per decision: mean {mean:.3f} ms, median {median:.3f} ms (goal <= 1 ms)")
    if args.remote:
        ms = sorted(1000 * t for t in remote(args.deals, args.rules).times)
        print(f"     remote: {len(ms)} decisions, mean {statistics.fmean(ms):.3f} ms, "
              f"median {statistics.median(ms):.3f} ms, p95 {ms[int(0.95 * len(ms))]:.3f} ms")
    n = len(outside.times) + 1
    referee, alone = 1000 * outside.cpu / n, 1000 * inside.cpu / n
    bot_ms = 1000 * bot_cpu / n
    print(f"CPU a decision: in-process {alone:.3f} ms; exec {referee + bot_ms:.3f} ms (the referee "
          f"{referee:.3f}, the bot {bot_ms:.3f}, its start included): {referee + bot_ms - alone:.3f} ms more")


if __name__ == "__main__":
    main()
