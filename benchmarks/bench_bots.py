"""Decision time of each bot level on real positions: the figures the issue asks for.

Positions (bids and card plays, in proportion) are taken from games between normal players;
each level then decides every one of them, and the mean, median and 95th percentile print.

    .venv/bin/python benchmarks/bench_bots.py --positions 200 --levels normal,hard,expert

``--solo GAMES`` instead plays whole games as the server's solo game does, South a person (played by
the normal level, untimed) and the others normal players, and prints the CPU time of the engine and
the players a person's move costs: a copy of the game, the person's move checked and applied, then
each computer player's view, decision and checked move up to the person's next decision (a single
legal card played for them; the next hand dealt). The web stack and the store are not in it
(``bench_solo_service.py`` has them).

    .venv/bin/python benchmarks/bench_bots.py --solo 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spades.bots import Player, make_player
from spades.cards import Card
from spades.game import Game, Phase, SeatView
from spades.moves import Move, Play
from spades.rules import Rules, find_preset


def positions(count: int, rules_name: str, seed: int) -> list[SeatView]:
    """Views of seats with a decision to make, from normal-vs-normal games, spread over hands."""
    rules = find_preset(rules_name)
    normal = make_player("normal")
    rng = random.Random(seed)
    out: list[SeatView] = []
    deal = seed * 1000 + 1
    while len(out) < count:
        game = Game(rules, deal=deal)
        deal += 1
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if rng.random() < 0.25:
                out.append(view)
            game.apply(seat, normal.choose(view, rng))
    return out[:count]


def solo_moves(games: int, rules_name: str, seed: int) -> tuple[int, int, float]:
    """Play ``games`` whole games as the solo service does; return the person's moves, the computer
    players' decisions, and the CPU seconds the service's work took.

    Each game is played twice: once to choose the person's moves, then again with the same moves, timed
    as a whole (every player is deterministic), so that only the service's work is timed."""
    rules = find_preset(rules_name)
    players: list[Player] = [make_player("normal") for _ in range(rules.players)]
    moves = decisions = 0
    spent = 0.0
    for g in range(games):
        chosen, _ = _solo_game(rules, players, seed * 1000 + g, None)
        start = time.process_time()
        _, made = _solo_game(rules, players, seed * 1000 + g, chosen)
        spent += time.process_time() - start
        moves, decisions = moves + len(chosen), decisions + made
    return moves, decisions, spent


def _solo_game(rules: Rules, players: list[Player], deal: int,
               replay: list[Move] | None) -> tuple[list[Move], int]:
    """One whole game as the service plays it, South the person: their moves chosen by the normal level,
    or replayed from ``replay``; returns the person's moves and the computer players' decisions."""
    human = 2 % rules.players
    game = Game(rules, deal=deal, first_dealer=(human - 1) % rules.players)
    moves: list[Move] = []
    decisions = 0
    while True:
        decisions += _advance(game, human, players, deal)
        if game.phase is Phase.GAME_OVER:
            return moves, decisions
        game = game.copy()
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
            continue
        if replay is None:
            move = players[human].choose(game.view(human), random.Random(len(game.log)))
        else:
            move = replay[len(moves)]
        moves.append(move)
        game.apply(human, move)


def _advance(game: Game, human: int, players: list[Player], game_id: int) -> int:
    """The service's answer to a move: the computer players (and the person's single legal cards) up
    to the person's next decision; returns how many decisions the computer players made."""
    decisions = 0
    while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        seat = game.turn
        assert seat is not None
        if seat == human:
            legal = game.legal_plays(seat)
            if game.phase is not Phase.PLAY or legal.bit_count() != 1:
                break
            game.apply(seat, Play(Card(legal.bit_length() - 1)))
            continue
        rng = random.Random(f"{game_id}:{len(game.log)}")
        game.apply(seat, players[seat].choose(game.view(seat), rng))
        decisions += 1
    return decisions


def main() -> None:
    """Time every level on the same positions and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--levels", default="easy,normal,hard,expert")
    p.add_argument("--rules", default="standard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--solo", type=int, metavar="GAMES", help="time the solo game's moves over GAMES games")
    args = p.parse_args()
    if args.solo:
        moves, decisions, spent = solo_moves(args.solo, args.rules, args.seed)
        print(f"{args.solo} solo games, rules {args.rules}: {moves} moves of the person, {decisions} "
              f"computer decisions, {spent:.2f} CPU s")
        print(f"engine and players a person's move: {1e6 * spent / moves:.1f} us CPU")
        return
    views = positions(args.positions, args.rules, args.seed)
    print(f"{len(views)} positions, rules {args.rules}")
    print(f"{'level':8} {'mean ms':>9} {'median ms':>10} {'p95 ms':>9} {'max ms':>9}")
    for level in args.levels.split(","):
        player = make_player(level)
        times = []
        for i, view in enumerate(views):
            start = time.perf_counter()
            player.choose(view, random.Random(i))
            times.append(1000 * (time.perf_counter() - start))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{level:8} {statistics.mean(times):9.2f} {statistics.median(times):10.2f} {p95:9.2f} "
              f"{times[-1]:9.2f}")


if __name__ == "__main__":
    main()
