"""Game records: JSON that replays to the identical state, and clear errors for bad records."""

import json
import random
from typing import Any

import pytest

from spades.bots import RandomPlayer, play_out
from spades.errors import RecordError, SpadesError
from spades.game import Game
from spades.moves import MakeBid, Misdeal
from spades.record import FORMAT, VERSION, dump_record, load_record, record_of, replay
from spades.rules import Rules, find_preset
from spades.scoring import Bid


def same(a: Game, b: Game) -> bool:
    return (all(a.view(s) == b.view(s) for s in range(a.players)) and a.hands == b.hands
            and a.log == b.log and a.history == b.history and a.phase is b.phase)


def played(rules: Rules, deal: int = 4, hands: int = 2) -> Game:
    return play_out(Game(rules, deal=deal), [RandomPlayer()] * rules.players, seed=deal, hands=hands)


@pytest.mark.parametrize("preset", ["standard", "three-player", "two-player", "online", "jokers-high-twos"])
def test_records_replay_exactly(preset: str) -> None:
    game = played(find_preset(preset))
    data = json.loads(dump_record(game))
    assert data["format"] == FORMAT and data["version"] == VERSION and data["deal"] == 4
    assert data["rules"]["players"] == game.players and None in data["moves"]
    again = replay(load_record(dump_record(game)))
    assert same(game, again)


def test_a_record_of_a_game_in_progress_replays_and_continues() -> None:
    game = Game(Rules(blind_nil=True, blind_nil_deficit=0), deal=9)
    for _ in range(30):
        seat = game.turn
        assert seat is not None
        game.apply(seat, RandomPlayer().choose(game.view(seat), random.Random(len(game.log))))
    again = replay(load_record(dump_record(game)))
    assert same(game, again)
    assert same(replay(record_of(game), upto=5), replay(load_record(dump_record(game)), upto=5))


def test_explicit_decks_and_misdeals_replay() -> None:
    game = Game(Rules(misdeal_no_spades=True), deal=271)
    game.apply(1, MakeBid(Bid(3)))
    game.apply(0, Misdeal())
    assert same(game, replay(load_record(dump_record(game))))
    order = list(range(52))
    real = Game(Rules(), decks=[order], first_dealer=2)
    real.apply(3, MakeBid(Bid(4)))
    text = dump_record(real)
    assert json.loads(text)["decks"] == [order] and json.loads(text)["first_dealer"] == 2
    assert same(real, replay(load_record(text)))


def good() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(dump_record(played(Rules(), hands=1)))
    return record


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: [1, 2], "is a JSON object"),
    (lambda d: d | {"format": "chess"}, "Not a Spades record"),
    (lambda d: d | {"version": 99}, "version 99 is not known"),
    (lambda d: d | {"rules": {"players": 9}}, "rules are invalid"),
    (lambda d: d | {"deal": "x"}, "deal number is not a whole number"),
    (lambda d: d | {"deal": 0}, "cannot be set up"),
    (lambda d: d | {"deal": None}, "cannot be set up"),
    (lambda d: d | {"decks": [[1, "a"]]}, "lists of card numbers"),
    (lambda d: d | {"deal": None, "decks": [[0, 1, 2]]}, "not a full standard deck"),
    (lambda d: d | {"first_dealer": "N"}, "first dealer is not a seat"),
    (lambda d: d | {"moves": "bid 3"}, "no list of moves"),
    (lambda d: d | {"moves": [[0]]}, "Move 0 is not a \\[seat, text\\] pair"),
    (lambda d: d | {"moves": [[0, "dance"]]}, "Move 0 cannot be read"),
    (lambda d: d | {"moves": [*d["moves"][:3], d["moves"][2], *d["moves"][4:]]}, "Move 3 does not replay"),
    (lambda d: d | {"moves": d["moves"] + [None, None]}, "does not replay"),
    (lambda d: d | {"deal": d["deal"] + 1}, "does not replay"),
])
def test_corrupt_records_fail_clearly(change: Any, message: str) -> None:
    data = change(good())
    with pytest.raises(RecordError, match=message):
        replay(load_record(data if isinstance(data, str) else json.dumps(data)))
    assert issubclass(RecordError, SpadesError)
