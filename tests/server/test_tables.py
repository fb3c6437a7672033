"""The friends' table without HTTP: seats, host, start, moves, the clock's grace and timer, chat, rematch."""
# mypy: disable-error-code="comparison-overlap"
# (a test asserts the phase, moves, and asserts it again: mypy keeps the first narrowing)

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.tables_client import merged, run_async
from spades.bots import hint
from spades.cards import cards_of
from spades.game import Phase
from spades.rules import Rules
from spades.server.present import events_of, face_up, state_of
from spades.server.store import FriendResult, Store, StoreBusy, StoreError, at_once, open_store
from spades.server.store.sqlite import SQLiteStore
from spades.server.tables.commands import (
    Back,
    Chat,
    GiveHost,
    GiveToBot,
    Keep,
    Leave,
    MakeMove,
    MovePerson,
    NextHand,
    Open,
    React,
    Rematch,
    Sit,
    Start,
)
from spades.server.tables.entries import MoveMade, entries_of, entry_json
from spades.server.tables.events import LocalBus
from spades.server.tables.hub import TableHub
from spades.server.tables.log import StoredTable, TableLog
from spades.server.tables.state import RESERVED_NAMES
from spades.server.tables.table import (
    CHAT_BURST,
    BadSeatToken,
    BadText,
    FriendsTable,
    MoveRefused,
    NotAllowed,
    StaleVersion,
    TableError,
    TableFull,
    TableOptions,
    TooFast,
    WrongTime,
)
from spades.server.tables.views import NewTableIn, table_events, tell_move, told_to, update_message, view_of


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(players: int = 4, **options: object) -> tuple[FriendsTable, Clock]:
    clock = Clock()
    rules = Rules.from_dict({"preset": {4: "standard", 3: "three-player", 2: "two-player"}[players]})
    table = FriendsTable("ABCDEF", TableOptions(rules, **options), clock, teller=tell_move)  # type: ignore[arg-type]
    return table, clock


def stored(table: FriendsTable) -> list[dict[str, Any]]:
    """The table's log as the store keeps it."""
    return [entry_json(e) for e in table.entries]


def unchanged(table: FriendsTable, error: type[Exception], call: object, *args: object) -> str:
    """Call a command that must be refused; check the table did not change; return the message."""
    before = json.dumps(stored(table))
    with pytest.raises(error) as e:
        call(*args)  # type: ignore[operator]
    assert json.dumps(stored(table)) == before
    return str(e.value)


def person_move(table: FriendsTable, seat: int) -> None:
    """The seat's person makes the move the hint suggests (or deals the next hand)."""
    game = table.game
    assert game is not None
    if game.phase is Phase.HAND_OVER:
        table.run(seat, NextHand(version=len(game.log)))
    else:
        table.run(seat, MakeMove(move=str(hint(game.view(seat), "normal").move), version=len(game.log)))


def test_names_are_checked_and_a_full_table_refuses() -> None:
    t, _ = make()
    assert "empty" in unchanged(t, BadText, t.join, "   ")
    assert "too long" in unchanged(t, BadText, t.join, "x" * 25)
    assert "control" in unchanged(t, BadText, t.join, "Ann\x07")
    assert "control" in unchanged(t, BadText, t.join, "Ann\u202e")
    tokens = [t.join(name)[0] for name in ("Ann", "Bob", "Cy")]
    for taken in ("ann", "Computer (West)", "You"):  # the messages name seats: "Ann to play", "You bid 3"
        assert "choose another name" in unchanged(t, BadText, t.join, taken)
    tokens.append(t.join("Di")[0])
    assert [t.seat_of(tok) for tok in tokens] == [0, 1, 2, 3]
    assert t.host == 0 and t.seats[1].name == "Bob"
    assert "full" in unchanged(t, TableFull, t.join, "Eve")
    assert "not valid" in unchanged(t, BadSeatToken, t.seat_of, "forged-token-forged-token")


def test_seats_before_the_start() -> None:
    t, _ = make()
    host, _ = t.join("Ann")
    bob, _ = t.join("Bob", 2)
    assert t.seat_of(bob) == 2
    t.run(2, Sit(to=1))
    assert t.seat_of(bob) == 1 and t.seats[2].name is None
    assert "taken" in unchanged(t, WrongTime, t.run, 1, Sit(to=0))
    assert "Only the host" in unchanged(t, NotAllowed, t.run, 1, MovePerson(seat=0, to=3))
    t.run(0, MovePerson(seat=1, to=0))  # the host swaps with Bob, and stays host
    assert t.seat_of(bob) == 0 and t.seat_of(host) == 1 and t.host == 1
    assert stored(t)[-1]["k"] == "sit"  # the same person is host: no news
    assert "no seat" in unchanged(t, TableError, t.run, 0, Sit(to=4)).lower()
    assert "Only the host" in unchanged(t, NotAllowed, t.run, 0, Start())
    t.run(1, Start())
    assert "started" in unchanged(t, WrongTime, t.run, 0, Sit(to=2))
    assert "started" in unchanged(t, WrongTime, t.run, 1, Start())


def test_the_host_keeps_seats_for_computer_players() -> None:
    t, _ = make()
    t.join("Ann")
    bob, _ = t.join("Bob", 1)
    assert "Only the host" in unchanged(t, NotAllowed, t.run, 1, Keep(seat=2))
    assert "person's seat" in unchanged(t, WrongTime, t.run, 0, Keep(seat=1))
    t.run(0, Keep(seat=2))
    assert "already kept" in unchanged(t, WrongTime, t.run, 0, Keep(seat=2))
    assert "keeps South for a computer player" in unchanged(t, WrongTime, t.join, "Cy", 2)
    assert "keeps South" in unchanged(t, WrongTime, t.run, 1, Sit(to=2))
    t.run(0, Keep(seat=3))
    assert "or kept for computer players" in unchanged(t, TableFull, t.join, "Cy")
    t.run(0, Open(seat=3))
    assert t.join("Cy")[1] == 3
    t.run(0, Start())
    game = t.game
    assert game is not None and t.seats[2].played_by_bot and game.turn in (0, 1, 3)
    replayed = FriendsTable.replay(t.code, t.options, t.entries, t.clock, tell_move)
    assert [s.kept for s in replayed.seats] == [False, False, True, False]
    assert replayed.seat_of(bob) == 1


def test_computer_players_fill_the_empty_seats_and_the_seed_is_secret() -> None:
    t, _ = make()
    _ann, seat = t.join("Ann")
    t.run(seat, Start())
    game = t.game
    assert game is not None and game.turn == seat  # the computer players moved up to Ann
    view = view_of(t, seat)
    assert view.deal is None and view.game is not None and view.game.deal == 0
    assert [s.bot for s in view.seats] == [False, True, True, True]
    assert view.seats[1].name == "Computer (East)" and view.game.seats[0].name == "You"


def test_bad_moves_leave_the_table_unchanged() -> None:
    t, _ = make()
    t.join("Ann")
    t.join("Bob")
    t.run(0, Start())
    game = t.game
    assert game is not None
    turn = game.turn
    assert turn in (0, 1)
    other = 1 - turn
    v = len(game.log)
    assert "moved on" in unchanged(t, StaleVersion, t.run, turn, MakeMove(move="look", version=v - 1))
    refusal = unchanged(t, MoveRefused, t.run, other, MakeMove(move="bid 3", version=v))
    assert refusal == f"It is {('Ann', 'Bob')[turn]}'s turn, not yours."  # people, not places
    unchanged(t, MoveRefused, t.run, turn, MakeMove(move="dance", version=v))
    unchanged(t, MoveRefused, t.run, turn, MakeMove(move="play 2C", version=v))  # a card during the bidding
    person_move(t, turn)
    assert len(game.log) > v
    replayed = MakeMove(move="bid 3", version=v)  # the same move, replayed
    assert "moved on" in unchanged(t, StaleVersion, t.run, turn, replayed)


def test_grace_period_bot_and_hand_back() -> None:
    t, clock = make(grace=30)
    _ann, a = t.join("Ann")
    t.join("Bob")
    t.connected(1, "bob-1")
    t.run(a, Start())
    t.disconnected(1, "bob-old")  # a goodbye from an older connection is not leaving
    assert t.seats[1].away_since is None
    t.disconnected(1, "bob-1")
    assert view_of(t, 0).seats[1].away_left == 30  # seconds left, not a time of day: any page can count
    clock.now += 29
    assert not t.tick() and not t.seats[1].bot
    assert view_of(t, 0).seats[1].away_left == 1 and view_of(t, 0).seats[0].away_left is None
    clock.now += 1
    assert t.tick() and t.seats[1].bot
    assert view_of(t, 0).seats[1].away_left is None  # covered: no countdown
    game = t.game
    assert game is not None
    assert game.turn == a and t.seats[1].played_by_bot  # the computer played Bob's seat up to Ann
    bid = MakeMove(move="bid 3", version=len(game.log))
    assert "computer player has your seat" in unchanged(t, WrongTime, t.run, 1, bid)
    t.connected(1, "bob-2")
    assert not t.seats[1].bot and t.seats[1].away_since is None


def test_away_for_want_of_a_page_is_missed_and_leaving_is_not() -> None:
    """A page still open on another process answers an ``away`` (``missed``), but not a person's leaving;
    a process that stopped leaves its people away, and no one else."""
    t, clock = make(grace=30)
    t.join("Ann", conn="p1")
    t.join("Bob", conn="p2")
    t.run(0, Start())
    assert t.connected_through() == {"p1", "p2"} and not t.processes_stopped({"p3"})
    assert t.processes_stopped({"p2"}) and t.missed(1) and not t.missed(0)
    assert t.connected_through() == {"p1"} and stored(t)[-1]["k"] == "away"
    clock.now += 30
    assert t.tick() and t.missed(1)  # covered by a computer player, and still missed
    t.connected(1, "p1")
    assert not t.missed(1) and not t.seats[1].bot
    t.run(1, Leave())
    assert t.seats[1].bot and t.seats[1].away_since is not None and not t.missed(1)
    t.run(1, Back())
    assert not t.seats[1].left


def test_turn_timer_moves_for_a_slow_person() -> None:
    t, clock = make(turn_seconds=20)
    t.join("Ann")
    t.run(0, Start())
    game = t.game
    assert game is not None and game.turn == 0
    n, seq = len(game.log), t.seq
    clock.now += 19
    assert not t.tick()
    assert view_of(t, 0).turn_left == 1
    clock.now += 1
    assert t.tick()
    assert len(game.log) > n and stored(t)[seq] == {**stored(t)[seq], "k": "move", "seat": 0, "timer": 1}
    assert not t.seats[0].bot  # the seat stays Ann's


def test_host_gives_seats_and_the_role_and_it_passes_on() -> None:
    t, _ = make()
    t.join("Ann")
    t.join("Bob")
    t.join("Cy")
    t.run(0, Start())
    assert "Only the host" in unchanged(t, NotAllowed, t.run, 1, GiveToBot(seat=2))
    t.run(0, GiveToBot(seat=2))
    assert t.seats[2].bot
    assert "already" in unchanged(t, WrongTime, t.run, 0, GiveToBot(seat=2))
    t.run(2, Back())
    assert not t.seats[2].bot
    t.run(0, GiveHost(seat=1))
    assert t.host == 1
    seq = t.seq
    t.run(1, Leave())
    assert t.host == 2 and t.seats[1].bot and t.seats[1].person  # the seat stays Bob's to come back to
    told = [json.loads(e) for e in table_events(t, 2, seq) or []]  # the log says where the role went
    assert [(e["kind"], e["text"]) for e in told[:2]] == [("leave", "Bob left the table."),
                                                          ("host", "You are the host.")]
    assert all(e["kind"] == "move" for e in told[2:])  # then the computer players' moves, if their turn


def test_leaving_before_the_start_frees_the_seat_and_the_token() -> None:
    t, _ = make()
    ann, _ = t.join("Ann")
    _bob, _ = t.join("Bob")
    t.run(0, Leave())
    assert t.host == 1 and t.seats[0].name is None
    assert [(e["k"], e.get("seat")) for e in stored(t)[-2:]] == [("leave", 0), ("host", 1)]
    unchanged(t, BadSeatToken, t.seat_of, ann)  # a replayed token of a seat given up


def test_chat_is_short_plain_and_rate_limited() -> None:
    t, clock = make()
    t.join("Ann")
    t.run(0, Chat(text="  <b>hi</b>  "))
    assert t.chat[-1].text == "<b>hi</b>"  # kept as text: the page shows it as text
    assert "too long" in unchanged(t, BadText, t.run, 0, Chat(text="x" * 201))
    assert "control" in unchanged(t, BadText, t.run, 0, Chat(text="a\nb"))
    t.run(0, React(reaction="gg"))
    assert t.chat[-1].text == "Good game!" and t.chat[-1].reaction
    assert "reactions" in unchanged(t, BadText, t.run, 0, React(reaction="<script>"))
    for i in range(CHAT_BURST - 2):
        t.run(0, Chat(text=f"line {i}"))
    assert "Slow down" in unchanged(t, TooFast, t.run, 0, Chat(text="one more"))
    clock.now += 10
    t.run(0, Chat(text="later"))


@pytest.mark.parametrize("players", [4, 3, 2])
def test_a_whole_game_then_a_rematch_with_the_same_seats(players: int) -> None:
    t, clock = make(players)
    ann, a = t.join("Ann", player="ann's player hash")
    _, b = t.join("Bob")  # no player token linked: nothing for the stats
    t.run(a, Start())
    t.run(a, GiveToBot(seat=b))
    game = t.game
    assert game is not None
    with pytest.raises(WrongTime):
        t.run(a, Rematch())
    while game.phase is not Phase.GAME_OVER:
        assert t.results(0) == []  # nothing before the end
        clock.now += 1
        before = t.seq
        person_move(t, a)
    side = t.options.rules.side_of(a)
    assert t.results(before) == t.results(0) == [FriendResult(
        game=1, seat=a, player="ann's player hash", won=game.winner == side, final_score=game.scores[side])]
    assert t.results(t.seq) == []  # told once: by the entries that ended the game
    view = view_of(t, a)
    assert view.deal == t.seed and view.game is not None and view.game.deal == t.seed
    first = t.seed
    t.run(a, Rematch())
    assert t.past_seeds == [first] and t.game is not game and t.seat_of(ann) == a
    assert t.results(0) == []  # the new game is not over
    again = FriendsTable.replay(t.code, t.options, entries_of(json.loads(json.dumps(stored(t)))), clock,
                                tell_move)
    assert view_of(again, a) == view_of(t, a)  # the log is the whole table


def test_a_page_behind_is_told_the_events_it_missed_or_resynced() -> None:
    """A page a few versions behind gets each event since (a move's line as its seat sees it); one
    further behind than the table keeps gets the whole table (resync); a table replayed from its log
    tells the same as the one that made it."""
    t, clock = make()
    _, a = t.join("Ann")
    _, b = t.join("Bob")
    t.run(a, Start())
    t.run(b, Chat(text="hello"))
    while t.seq < 200:
        clock.now += 1
        game = t.game
        assert game is not None and game.phase is not Phase.GAME_OVER
        person_move(t, a if game.turn is None else game.turn)
    again = FriendsTable.replay(t.code, t.options, entries_of(json.loads(json.dumps(stored(t)))), clock,
                                tell_move)
    for table in (t, again):
        message = json.loads(update_message(table, b, t.seq - 3))
        assert not message["resync"]
        assert [e["seq"] for e in message["events"]] == [t.seq - 3, t.seq - 2, t.seq - 1]
        moves = [e for e in message["events"] if e["kind"] == "move"]
        assert moves and all(e["text"] == e["game"]["text"] and e["game"]["seat"] == e["seat"] for e in moves)
        far = json.loads(update_message(table, b, t.seq - 150))
        assert far["resync"] and far["events"] == []
        assert json.loads(update_message(table, b, t.seq))["events"] == []
    assert update_message(again, b, t.seq - 20) == update_message(t, b, t.seq - 20)


STEPS = ("move", "move", "hand", "chat", "react", "away", "return", "tick", "reclaim", "look 0", "look 2",
         "look 4")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(STEPS), min_size=5, max_size=60))
def test_a_page_that_keeps_what_updates_leave_out_has_the_whole_view(steps: list[str]) -> None:
    """Pages that merge each update as the page does (keeping what it leaves out: the rules, and the
    seats, chat and score sheet while they stay the same) hold the whole view of their seat (or a
    spectator's, seat 4) after any mix of moves, finished hands, chat, a person away, counting down,
    replaced by a computer player and back, however far behind they look; a replayed table agrees."""
    t, clock = make(level="random")
    _, ann = t.join("Ann", conn="p1")
    _, bob = t.join("Bob", seat=2, conn="p1")
    t.run(ann, Start())
    pages: dict[int, tuple[int, dict[str, Any]]] = {}
    for step in steps:
        clock.now += 1
        game = t.game
        assert game is not None
        if step in ("move", "hand"):
            while game.phase is not Phase.GAME_OVER:
                person_move(t, ann if game.turn is None else game.turn)
                if step == "move" or game.phase is Phase.HAND_OVER:
                    break
        elif step in ("chat", "react"):
            clock.now += 60  # past the chat's rate limit
            t.run(bob, Chat(text="hi")) if step == "chat" else t.run(ann, React(reaction="nice"))
        elif step == "away":
            t.disconnected(bob, "p1")
        elif step == "return":
            t.connected(bob, "p1")
        elif step == "tick":
            clock.now += t.options.grace
            t.tick()
        elif step == "reclaim" and t.seats[bob].bot:
            t.run(bob, Back())
        elif step.startswith("look"):
            seat = int(step[-1])
            since, before = pages.get(seat, (-1, {}))
            whole = json.loads(view_of(t, seat).model_dump_json())
            message = update_message(t, seat, since, whole=seat not in pages)
            replayed = FriendsTable.replay(t.code, t.options, t.entries, clock, tell_move)
            assert message == update_message(replayed, seat,
                                             since, whole=seat not in pages)
            pages[seat] = (t.seq, merged(before, json.loads(message)["table"]))
            assert pages[seat][1] == whole


def test_an_update_leaves_out_the_seats_chat_and_sheet_only_while_they_stay_the_same() -> None:
    """Each of the seldom-changing parts comes in an update when it changed since the page's version
    (the seats also while a countdown runs in them) and is left out otherwise."""
    t, clock = make(level="random")
    _, ann = t.join("Ann", conn="p1")
    _, bob = t.join("Bob", conn="p1")
    t.run(ann, Start())

    def step() -> None:
        """The person to move moves (or Ann deals on)."""
        game = t.game
        assert game is not None
        person_move(t, ann if game.turn is None else game.turn)

    def parts(since: int) -> set[str]:
        table: dict[str, Any] = json.loads(update_message(t, ann, since, whole=False))["table"]
        game: dict[str, Any] = table["game"] or {}
        return {"seats", "chat"} & table.keys() | {"sheet"} & game.keys()

    step()
    assert parts(t.seq - 1) == set()
    t.run(bob, Chat(text="hello"))
    assert parts(t.seq - 1) == {"chat"}
    assert parts(t.seq - 2) == {"chat"}  # a page behind the chat line gets it
    game = t.game
    assert game is not None
    while game.phase is not Phase.HAND_OVER:
        step()
    assert parts(t.seq - 1) == {"sheet"}
    t.disconnected(bob, "p1")
    assert parts(t.seq - 1) == {"seats", "chat", "sheet"}  # any entry about the seats: all of them
    step()
    assert parts(t.seq - 1) == {"seats"}  # Bob's countdown
    clock.now += t.options.grace
    t.tick()
    step()
    assert parts(t.seq - 1) == set()  # a computer player has Bob's seat: nothing counts down


def test_what_every_seat_sees_alike_is_made_once_and_agrees() -> None:
    """The face-up part of a game's state, made once for all seats at a version, gives each seat
    (and a spectator) the state made for it alone; one made at an older version is not used."""
    t, clock = make()
    _, a = t.join("Ann")
    t.run(a, Start())
    game = t.game
    assert game is not None
    old = face_up(game)
    for _ in range(40):
        clock.now += 1
        shown = face_up(game)
        for seat in range(5):
            alone = state_of(game, game_id=1, deal=0, daily=None, level="normal", viewer=seat)
            for made in (shown, old):
                assert state_of(game, game_id=1, deal=0, daily=None, level="normal", viewer=seat,
                                shown=made) == alone
        person_move(t, a)


@settings(max_examples=15, deadline=None)
@given(names=st.lists(st.text(st.characters(blacklist_categories=["C"]), min_size=1, max_size=12).filter(
    lambda n: n.strip() and n.strip().lower() not in {r.lower() for r in RESERVED_NAMES}),
    min_size=4, max_size=4, unique_by=lambda n: n.strip().lower()),
       moves=st.integers(1, 30))
def test_a_moves_event_is_each_seats_as_the_presenter_writes_it(names: list[str], moves: int) -> None:
    """Each seat's (and a spectator's) event for a move, kept as JSON text, is the presenter's event
    for that seat written out, whatever the people's names hold (quotes, backslashes, any script)."""
    t, _ = make()
    seats = [t.join(n)[1] for n in names]
    t.run(seats[0], Start())
    for _ in range(moves):
        game = t.game
        assert game is not None and game.turn is not None
        person_move(t, game.turn)
        told = t.recent[-1][2]
        if told is None:  # the next hand dealt: no move
            continue
        e = t.recent[-1][1]
        assert isinstance(e, MoveMade)
        seen = events_of(game, e.seat, e.move, range(5), t.seat_labels())
        assert [told_to(told, v) for v in range(5)] == [(ev.text, ev.model_dump_json()) for ev in seen]


def test_one_look_makes_every_seats_update(tmp_path: Path) -> None:
    """The hub's batched updates: each seat its own view (no card of another's hand), a token without
    a seat its error, nothing for a page already up to date."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    hub = TableHub(TableLog(store))
    joined = hub.open(NewTableIn(name="Ann"))
    code = joined.code
    tokens = [joined.token] + [hub.act(code, joining(n))[0] for n in ("Bo", "Cy", "Di")]
    hub.act(code, lambda t: t.run(0, Start()))
    seq, hands = hub.read(code, lambda t: (t.seq, t.game.hands if t.game else ()))
    asks: list[tuple[str | None, int, bool]] = [(token, 0, True) for token in tokens]
    asks.append(("no-such-token", 0, True))
    made, _ = hub.updates(code, asks, seq)
    for seat, update in enumerate(made[:4]):
        assert isinstance(update, tuple) and update[0] == seq
        message = json.loads(update[1])
        assert message["table"]["you"] == seat and not message["resync"]
        shown = set(message["table"]["game"]["hand"])
        assert shown == {str(c) for c in cards_of(hands[seat])}
        assert not shown & {str(c) for s in range(4) if s != seat for c in cards_of(hands[s])}
    assert isinstance(made[4], TableError)
    assert hub.updates(code, [(tokens[0], seq, False)], seq) == ([None], [])  # up to date: nothing to send
    game = hub.read(code, lambda t: t.game)
    assert game is not None and game.turn is not None
    turn, move, version = game.turn, str(hint(game.view(game.turn), "normal").move), len(game.log)
    move_made = MakeMove(move=move, version=version)
    made, _ = hub.seat_act_and_updates(code, tokens[turn], lambda t, s: t.run(s, move_made), asks)
    again, _ = hub.updates(code, asks, seq)  # the command's own look makes what a look after it makes
    assert made[:4] == again[:4] and str(made[4]) == str(again[4])
    assert isinstance(made[0], tuple) and made[0][0] > seq
    store.close()


def joining(name: str) -> Callable[[FriendsTable], tuple[str, int]]:
    """A hub action: this person sits down at the table (their seat's token and number)."""
    return lambda t: t.join(name)


def run_as_seat(command: MakeMove, table: FriendsTable, seat: int) -> None:
    """A hub seat action: the seat runs this command."""
    table.run(seat, command)


def _started_on_two_hubs(store: Store) -> tuple[TableHub, TableHub, str, list[str]]:
    """Two processes' hubs on one store, a table of four people started by the first and cached by both:
    the hubs, the table's code and the seats' tokens."""
    one, two = TableHub(TableLog(store)), TableHub(TableLog(store))
    joined = one.open(NewTableIn(name="Ann"))
    code = joined.code
    tokens = [joined.token] + [one.act(code, joining(n))[0] for n in ("Bo", "Cy", "Di")]
    one.act(code, lambda t: t.run(0, Start()))
    two.read(code, lambda t: t.seq)
    return one, two, code, tokens


def test_two_hubs_on_one_store_act_on_what_the_log_says(tmp_path: Path) -> None:
    """Two processes' hubs share a table: each acts on its own copy without reading the log first,
    yet a move the other process made is never lost, never made twice, and a move that is only
    right after it is taken (the stale copy's refusal is checked against the log)."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    one, two, code, tokens = _started_on_two_hubs(store)

    def next_move(hub: TableHub) -> tuple[str, str, int]:
        game = hub.read(code, lambda t: t.game)
        assert game is not None and game.turn is not None
        return tokens[game.turn], str(hint(game.view(game.turn), "normal").move), len(game.log)

    token, move, version = next_move(one)
    one.seat_act(code, token, lambda t, s: t.run(s, MakeMove(move=move, version=version)))
    stale = two.read(code, lambda t: t.seq, known=0)  # its cached copy, not caught up
    assert stale < one.read(code, lambda t: t.seq)
    token, move, version = next_move(one)  # the next seat's move: its turn only on the log
    two.seat_act(code, token, lambda t, s: t.run(s, MakeMove(move=move, version=version)))
    assert two.read(code, lambda t: t.seq, known=0) == one.read(code, lambda t: t.seq)
    with pytest.raises(StaleVersion):  # the same move again, sent to the other process
        one.seat_act(code, token, lambda t, s: t.run(s, MakeMove(move=move, version=version)))
    stored = store.table(code=code)
    assert stored is not None and [json.loads(e)["k"] for e in stored[1]].count("move") == 2
    store.close()


def test_a_hub_catches_up_from_the_entries_the_bus_carries(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes' hubs on one bus: the entries each change carries bring the other's cached copy
    up to date without a trip to the store, to the same table; entries that do not join up with the
    copy (an event went astray) are passed over and the store read instead."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    bus = LocalBus()
    one, two = TableHub(TableLog(store), bus), TableHub(TableLog(store), bus)
    astray = TableHub(TableLog(store))  # a third process whose events reach no one
    joined = one.open(NewTableIn(name="Ann"))
    code = joined.code
    two.read(code, lambda t: t.seq)  # the second process caches the table
    reads: list[int] = []
    load = two.log.load

    def counted(code: str, since: int = 0, max_idle: float | None = None) -> StoredTable:
        reads.append(since)
        return load(code, since, max_idle)

    monkeypatch.setattr(two.log, "load", counted)

    def same() -> None:
        seq = one.read(code, lambda t: t.seq)
        assert two.read(code, lambda t: (t.seq, t.entries, [s.name for s in t.seats]), known=seq) == \
            one.read(code, lambda t: (t.seq, t.entries, [s.name for s in t.seats]))

    one.act(code, lambda t: t.join("Bo"))
    one.act(code, lambda t: t.join("Cy"))  # two events, the second joining up with the first
    same()
    assert reads == []
    one.act(code, lambda t: t.run(0, Chat(text="Hello there")))
    same()
    assert reads == []
    astray.act(code, lambda t: t.join("Di"))
    one.act(code, lambda t: t.run(0, Start()))  # carries the start, not Di's seat before it
    same()
    assert len(reads) == 1
    store.close()


def test_entries_heard_that_do_not_apply_leave_the_copy_to_the_store(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A garbled event on the bus (an entry that cannot be applied) costs the copy, not the table: the
    hub reads the table from the store again and says so in the log."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    bus = LocalBus()
    one, two = TableHub(TableLog(store), bus), TableHub(TableLog(store), bus)
    code = one.open(NewTableIn(name="Ann")).code
    one.act(code, lambda t: t.join("Bo"))
    seq = two.read(code, lambda t: t.seq)
    bus.publish(code, seq + 1, [{"k": "join", "at": 0.0, "seat": 2}])  # type: ignore[list-item]  # no name
    assert two.read(code, lambda t: (t.seq, [s.name for s in t.seats])) == (seq, ["Ann", "Bo", None, None])
    assert "do not apply" in caplog.text
    one.act(code, lambda t: t.join("Cy"))  # and the next real event is applied as usual
    assert two.read(code, lambda t: [s.name for s in t.seats], known=seq + 1) == ["Ann", "Bo", "Cy", None]
    store.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"], indirect=True)
def test_only_quick_tables_on_a_local_store_are_worked_on_the_event_loop(database: str) -> None:
    """The hub lets the server work a table on its event loop only where nothing can wait long: a
    SQLite store, the table cached, computer players that do not search."""
    store = open_store(database)
    store.check()
    hub = TableHub(TableLog(store))
    normal = hub.open(NewTableIn(name="Ann")).code
    expert = hub.open(NewTableIn(name="Bo", level="expert")).code
    local = "://" not in database
    assert hub.quick(normal) is local and not hub.quick(expert)
    assert not TableHub(TableLog(store)).quick(normal)  # another process, the table not cached there
    store.close()


def test_a_failed_save_leaves_the_table_as_the_store_has_it(tmp_path: Path) -> None:
    """A command whose entries cannot be stored (the database is locked by another program) is refused
    with StoreError, and the table is then as it was for everyone: the hub's copy does not run ahead."""
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)
    store.check()
    hub = TableHub(TableLog(store))
    joined = hub.open(NewTableIn(name="Ann"))
    before = hub.read(joined.code, lambda t: (t.seq, [s.name for s in t.seats]))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file's write lock
    with pytest.raises(StoreError, match="locked"):
        hub.act(joined.code, lambda t: t.join("Bo"))
    assert hub.read(joined.code, lambda t: (t.seq, [s.name for s in t.seats])) == before
    other.execute("ROLLBACK")
    other.close()
    hub.act(joined.code, lambda t: t.join("Bo"))  # free again: the same command is taken
    assert hub.read(joined.code, lambda t: t.seq) > before[0]
    store.close()


def test_a_command_on_the_event_loop_waits_for_no_writer_and_leaves_the_copy_alone(tmp_path: Path) -> None:
    """On the event loop (``at_once``), while another process writes, a command is refused with
    StoreBusy before it runs: the hub's copy of the table is kept as it was (not dropped, so the worker
    thread the command then goes to does not replay the table's whole log), and the command is then
    taken."""
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    store.check()
    hub = TableHub(TableLog(store))
    code = hub.open(NewTableIn(name="Ann")).code
    copy = hub.read(code, lambda t: t)
    tried: list[int] = []

    def join(t: FriendsTable) -> tuple[str, int]:
        tried.append(t.seq)
        return t.join("Bo")

    sibling = os.open(f"{path}-writer", os.O_RDWR)  # another process's turn at the writers' lock
    fcntl.flock(sibling, fcntl.LOCK_EX)
    with at_once(), pytest.raises(StoreBusy):
        hub.act(code, join)
    assert tried == [] and hub.read(code, lambda t: t) is copy and copy.seq == len(copy.entries)
    fcntl.flock(sibling, fcntl.LOCK_UN)
    os.close(sibling)
    with at_once():
        hub.act(code, join)
    assert hub.read(code, lambda t: t) is copy and [s.name for s in copy.seats if s.person] == ["Ann", "Bo"]
    assert TableHub(TableLog(store)).read(code, lambda t: t.seq) == copy.seq  # stored
    store.close()


def test_a_command_on_the_event_loop_awaits_its_append_with_the_table_locked(tmp_path: Path) -> None:
    """``seat_act_soon``: a move on a stale copy is taken on the log's (once, with the look's update);
    while its append waits for the writers' lock (another process's turn), the table is locked (a second
    command on the loop is refused with StoreBusy, nothing done) and no look sees the move; once
    stored, it is there for every process, and the same move again is refused."""
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    store.check()
    one, two, code, tokens = _started_on_two_hubs(store)

    def next_move() -> tuple[str, MakeMove]:
        game = one.read(code, lambda t: t.game)
        assert game is not None and game.turn is not None
        return tokens[game.turn], MakeMove(move=str(hint(game.view(game.turn), "normal").move),
                                           version=len(game.log))

    token, move = next_move()
    one.seat_act(code, token, lambda t, s: t.run(s, move))  # two's copy is now behind
    token, move = next_move()
    sibling = os.open(f"{path}-writer", os.O_RDWR)
    fcntl.flock(sibling, fcntl.LOCK_EX)

    async def race() -> tuple[list[Any], int]:
        asks: list[Any] = [(token, -1, True)]
        task = asyncio.create_task(two.seat_act_soon(code, token, lambda t, s: t.run(s, move), asks))
        await asyncio.sleep(0.1)  # the append waits for the writers' lock
        assert not task.done()
        with pytest.raises(StoreBusy):
            await two.seat_act_soon(code, token, lambda t, s: t.run(s, move), None)
        seen = one.read(code, lambda t: t.seq)
        fcntl.flock(sibling, fcntl.LOCK_UN)
        updates, _ = await task
        return updates, seen

    updates, seen = run_async(race())
    os.close(sibling)
    after = one.read(code, lambda t: t.seq)
    assert after == seen + 1 == two.read(code, lambda t: t.seq, known=0)
    assert isinstance(updates[0], tuple) and updates[0][0] == after
    with pytest.raises(StaleVersion):
        run_async(two.seat_act_soon(code, token, lambda t, s: t.run(s, move), None))
    stored = store.table(code=code)
    assert stored is not None and len(stored[1]) == after
    store.close()


def test_the_table_knows_which_moves_a_computer_player_made_for_a_person() -> None:
    """Away past the grace period, given away by the host, out of time: each such move is the
    computer player's, as are the empty seat's; the person's own are not, and a replay agrees."""
    t, clock = make(grace=30, turn_seconds=20)
    t.join("Ann")
    t.join("Bob")
    t.join("Cy")  # the fourth seat is a computer player's
    for seat, conn in ((1, "bob-1"), (2, "cy-1")):
        t.connected(seat, conn)
    t.run(0, Start())
    game = t.game
    assert game is not None
    people = {i for i in range(4) if t.seats[i].person}

    def turn_to(seat: int) -> None:
        """The people move until it is ``seat``'s turn."""
        while game.turn != seat:
            assert game.turn is not None and game.turn in people
            person_move(t, game.turn)

    turn_to(1)
    t.disconnected(1, "bob-1")
    clock.now += 30
    away = len(game.log)  # the next move's place in the game's log
    assert t.tick() and t.seats[1].bot  # away: the computer player moves for Bob from here
    t.connected(1, "bob-2")
    turn_to(2)
    given = len(game.log)
    t.run(0, GiveToBot(seat=2))
    t.run(2, Back())
    turn_to(0)
    clock.now += 20
    timed = len(game.log)
    assert t.tick()  # Ann's turn timer ran out
    while game.phase is not Phase.HAND_OVER:
        person_move(t, game.turn)  # type: ignore[arg-type]
    empty = {i for i, m in enumerate(game.log) if m is not None and m[0] == 3}
    assert t.computer_moves_of(1) == {away} and t.computer_moves_of(2) == {given}
    assert t.computer_moves_of(0) == {timed} and t.computer_moves_of(3) == empty
    assert t.computer_moves == {away, given, timed} | empty
    again = FriendsTable.replay(t.code, t.options, t.entries, clock, tell_move)
    assert again.computer_moves == t.computer_moves
    while game.phase is not Phase.GAME_OVER:
        person_move(t, game.turn if game.phase is not Phase.HAND_OVER else 0)
    assert {away, given, timed} <= t.computer_moves  # the game's earlier hands keep theirs
    t.run(0, Rematch())
    assert t.computer_moves_of(1) == frozenset()  # a new game: none yet


def test_a_fault_at_one_table_does_not_stop_the_clock_at_the_others(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """Two tables wait for the clock (a person away); one's tick fails (here its clock breaks): that is
    logged, the other's computer player still takes the seat, and the broken one recovers from the log."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    clock = Clock()
    hub = TableHub(TableLog(store), clock=clock)
    codes = []
    for _ in range(2):
        ann = hub.open(NewTableIn(name="Ann", grace=5))
        bob, _ = hub.act(ann.code, lambda t: t.join("Bob"))
        hub.seat_act(ann.code, bob, lambda t, s: t.connected(s, "bob-1"))
        hub.act(ann.code, lambda t: t.run(0, Start()))
        hub.seat_act(ann.code, bob, lambda t, s: t.disconnected(s, "bob-1"))
        codes.append(ann.code)
    clock.now += 10
    broken = hub._tables[codes[0]]
    broken.clock = lambda: 1 / 0  # a fault of ours at the first table only
    assert hub.tick() == [codes[1]]
    assert "The clock failed at table " + codes[0] in caplog.text
    assert hub.read(codes[1], lambda t: t.seats[1].bot)
    assert not hub.read(codes[0], lambda t: t.seats[1].bot)  # read again from the log, with the hub's clock
    assert hub.tick() == [codes[0]] and hub.read(codes[0], lambda t: t.seats[1].bot)
    store.close()


def test_the_hubs_clock_acts_where_a_timer_has_run_out(tmp_path: Path) -> None:
    """A person's turn timer: nothing happens before it runs out, the computer moves for them once it
    has, and a move made meanwhile starts the timer again."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    clock = Clock()
    hub = TableHub(TableLog(store), clock=clock)
    ann = hub.open(NewTableIn(name="Ann", turn_seconds=20))
    bob, _ = hub.act(ann.code, lambda t: t.join("Bob"))
    hub.act(ann.code, lambda t: t.run(0, Start()))
    game = hub.read(ann.code, lambda t: t.game)
    assert game is not None and game.turn in (0, 1)  # the computer players moved up to a person
    token = {0: ann.token, 1: bob}[game.turn]
    clock.now += 19
    assert hub.tick() == []
    move, version = str(hint(game.view(game.turn), "normal").move), len(game.log)
    hub.seat_act(ann.code, token, lambda t, s: t.run(s, MakeMove(move=move, version=version)))
    clock.now += 19  # 38 s since the start, 19 since that move: the next person still has time
    assert hub.tick() == []
    clock.now += 2
    before = hub.read(ann.code, lambda t: t.seq)
    assert hub.tick() == [ann.code]
    made = hub.read(ann.code, lambda t: stored(t)[before:])
    assert made[0]["k"] == "move" and made[0].get("timer") == 1  # then the computer players' moves
    store.close()


def test_a_hub_tells_a_move_heard_on_the_bus_as_its_maker_told_it(tmp_path: Path) -> None:
    """A move's event rides with its entry: the hub that hears it keeps the one the hub that made the
    move told (the same object, not made again), and each seat's update there is as the maker's."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.check()
    bus = LocalBus()
    one, two = TableHub(TableLog(store), bus), TableHub(TableLog(store), bus)
    host = one.open(NewTableIn(name="Ann"))
    code = host.code
    tokens = [host.token, *(one.act(code, joining(n))[0] for n in ("Bo", "Cy", "Di"))]
    one.act(code, lambda t: t.run(0, Start()))
    seq = two.read(code, lambda t: t.seq)  # the second process caches the table
    for _ in range(3):
        game = one.read(code, lambda t: t.game)
        assert game is not None and game.turn is not None
        seat, version = game.turn, len(game.log)
        move = str(hint(game.view(seat), "normal").move)
        command = MakeMove(move=move, version=version)
        one.seat_act(code, tokens[seat], partial(run_as_seat, command))
        made = one.read(code, lambda t: t.recent[-1])
        assert made[2] is not None
        assert two.read(code, lambda t: t.recent[-1], known=made[0] + 1)[2] is made[2]
    assert two.updates(code, [(tok, seq, False) for tok in tokens]) == \
        one.updates(code, [(tok, seq, False) for tok in tokens])
    store.close()
