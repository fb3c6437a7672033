"""Turns the engine's state into the API's schemas, showing only what the player's seat may see.

A state and an event are made as plain data in the schemas' field order (``state_fields``,
``event_fields``): the solo game's socket compares and writes them as they are, with no model made a
move; ``state_of`` and ``event_lines`` check them into the models for the rest.

Everything here starts from ``game.view(seat)``, the engine's legal moves and reasons, and the
finished hands' results; other seats' cards appear only in the review of a hand that is over. A
spectator at a friends' table (the viewer numbered as the seat after the last) sees only what is
face up: no one's cards, no moves.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import orjson
from pydantic import BaseModel

from spades.bidding import BidRules
from spades.cards import Card, cards_of
from spades.game import Game, HandResult, Phase, SeatView, Trick, seat_name
from spades.moves import Draw, Look, MakeBid, Misdeal, Move, PassCards, Play
from spades.outcome import broken_nils, describe_side, plural
from spades.rules import DeckSpec, Rules
from spades.scoring import Bid, side_contract
from spades.server.schemas import EventOut, GameState, HandReview, PlayedCard, SheetRow

__all__ = ["FaceUp", "Fields", "event_fields", "event_lines", "events_of", "face_up", "human_seat",
           "json_text", "review_of", "seat_label", "side_name", "state_fields", "state_of"]

Fields = dict[str, Any]
"""A model's fields as plain data, in the model's order (its JSON as the model writes it, with
``json_text``), but for the parts made once and shared, kept as models (a trick's cards, the score sheet's
lines): not to be changed by the caller."""


def _model_fields(model: object) -> dict[str, Any]:
    """The fields of a model held in plain data, for its JSON."""
    if not isinstance(model, BaseModel):
        raise TypeError(f"{type(model).__name__} is not JSON")
    return model.__dict__


def json_text(fields: Any) -> str:
    """Plain data (``Fields``) as JSON text, written as the models write it (compact, non-ASCII as it is)."""
    return orjson.dumps(fields, default=_model_fields).decode()

T = TypeVar("T")


class _Kept(dict[Hashable, tuple[T, object, object]]):
    """Values worked out once, by keys that hold objects' ids (hashing a ``Rules`` is slow): each value is
    kept with those objects, so that a kept key's ids are still theirs (an id is reused only once its
    object is gone); all are dropped when ``size`` are kept. ``get(key)`` gives (the value, the objects)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: Hashable, value: T, owner: object, other: object = None) -> T:
        """Keep ``value`` for ``key`` with the one or two objects whose ids the key holds; the value."""
        if len(self) >= self.size:
            self.clear()
        self[key] = (value, owner, other)
        return value


Position = Literal["bottom", "left", "top", "right"]
_POSITIONS: dict[int, tuple[Position, ...]] = {
    4: ("bottom", "left", "top", "right"),
    3: ("bottom", "left", "right"),
    2: ("bottom", "top"),
}
_SUIT_ORDER = {3: 0, 2: 1, 0: 2, 1: 3}  # spades, hearts, clubs, diamonds: colours alternate


def human_seat(players: int) -> int:
    """The seat the person plays: South at every table size."""
    return seat_name_index(players, "South")


@functools.cache
def seat_name_index(players: int, name: str) -> int:
    """The seat number of a named seat (worked out once: every state and event asks for South's)."""
    return [seat_name(players, s) for s in range(players)].index(name)


Names = Sequence[str] | None
"""The people's names by seat at a friends' table (None: the solo game names seats by place)."""


def seat_label(players: int, seat: int, viewer: int | None = None, names: Names = None) -> str:
    """How messages name a seat: "You" for the viewer's seat (South by default), else its person's
    name when the table has names, else the seat's place."""
    if seat == _viewer(players, viewer):
        return "You"
    return seat_name(players, seat) if names is None else names[seat]


def _viewer(players: int, viewer: int | None) -> int:
    """The seat a state is shown to: the given one, or the solo game's South."""
    return human_seat(players) if viewer is None else viewer


def side_name(rules: Rules, side: int, viewer: int | None = None, names: Names = None) -> str:
    """A score column's name: "You & North", "East & West", or a lone seat's name."""
    seats = _seats_in_name_order(rules, side, viewer)
    return " & ".join(seat_label(rules.players, s, viewer, names) for s in seats)


def _seats_in_name_order(rules: Rules, side: int, viewer: int | None) -> tuple[int, ...]:
    """A side's seats in the order its name gives them: you first, so a sheet's bids line up with the name."""
    seats = rules.seats_of(side)
    human = _viewer(rules.players, viewer)
    return tuple(sorted(seats, key=lambda s: s != human))


_ARRANGED: _Kept[list[str]] = _Kept(8192)
"""Sets of cards already arranged, by their deck's identity and mask: each seat's state holds its hand, and
most hands are as they were a move ago."""


def _sorted(spec: DeckSpec, mask: int) -> list[str]:
    """A hand as a player arranges it: by suit, colours alternating, high cards first (kept: not to be
    changed by the caller, and the same list while the cards are the same, which a partial state then
    tells unchanged at a glance)."""
    key = (id(spec), mask)
    kept = _ARRANGED.get(key)
    if kept is not None:
        return kept[0]
    cards = sorted(cards_of(mask), key=lambda c: (_SUIT_ORDER[spec.suit_of[c]], -spec.power[c]))
    return _ARRANGED.keep(key, [str(c) for c in cards], spec)


_PLAYED: dict[tuple[int, Card], PlayedCard] = {}
"""Each seat's each card as a trick shows it, made once (a few hundred at most): every state and event
shows the trick's cards, and none changes one."""


def _played(cards: tuple[tuple[int, Card], ...]) -> list[PlayedCard]:
    """The cards of a trick, each with its seat, as the API sends them."""
    return [_PLAYED.get(p) or _PLAYED.setdefault(p, PlayedCard(seat=p[0], card=str(p[1]))) for p in cards]


def _trick(t: Trick) -> Fields:
    """A finished trick as the API sends it (``TrickOut``): its leader, its cards and its winner."""
    return {"leader": t.leader, "cards": _played(t.cards), "winner": t.winner}


@dataclass(frozen=True)
class _Fixed:
    """What a state shows alike at every version under one set of rules: the rules as JSON and the
    score sheet's legend."""

    rules: dict[str, Any]
    """``rules.to_dict()``: not to be changed by the caller (the models that take it copy it as they
    check it)."""
    sheet_legend: str


_FIXED: _Kept[_Fixed] = _Kept(256)
"""``_Fixed`` already made, by the rules' identity (a ``Rules`` is slow to hash: it was 1.5 us a state)."""


def _fixed(rules: Rules) -> _Fixed:
    """The rules' ``_Fixed``, made once: a state is made for every move."""
    kept = _FIXED.get(id(rules))
    if kept is not None:
        return kept[0]
    return _FIXED.keep(id(rules), _Fixed(rules=rules.to_dict(), sheet_legend=_sheet_legend(rules)), rules)


def rules_json(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, made once for each set of rules. Not to be changed by the caller."""
    return _fixed(rules).rules


def _bid_text(rules: Rules, bid: Bid | None) -> str | None:
    """A seat's bid, or None before it has bid."""
    return None if bid is None else bid.written(rules)


def _sheet(rules: Rules, history: tuple[HandResult, ...], viewer: int, names: Names) -> list[list[SheetRow]]:
    """The score sheet's rows, one per finished hand, from ``viewer``'s side of the table: the same list
    for every state until a hand ends (a late hand's state made twenty lines a move)."""
    if not history:
        return []
    kept_names = None if names is None else tuple(names)
    last = history[-1]
    key = (id(last), id(rules), len(history), viewer, kept_names)
    kept = _SHEETS.get(key)
    if kept is not None:
        return kept[0]
    return _SHEETS.keep(key, [_sheet_line(rules, h, viewer, kept_names) for h in history], last, rules)


_SHEETS: _Kept[list[list[SheetRow]]] = _Kept(1024)
"""Score sheets already made, by their last hand's result (and rules), the number of hands and for whom:
a game's copies share their finished hands' results, so its sheet stays one while a hand is played. Not
to be changed by the caller."""


_LINES: _Kept[list[SheetRow]] = _Kept(8192)
"""Score sheet lines already made, by their hand's result (and rules) and for whom (each seat of a
friends' table sees its own): a game's finished hands do not change, and a state is made for every move."""


def _sheet_line(rules: Rules, h: HandResult, viewer: int, names: tuple[str, ...] | None) -> list[SheetRow]:
    """A finished hand's line of the score sheet, a row a side, as the viewer's seat names them."""
    key = (id(h), id(rules), viewer, names)
    kept = _LINES.get(key)
    if kept is not None:
        return kept[0]
    line = []
    for s in h.score.sides:
        bids = [h.bids[seat] for seat in _seats_in_name_order(rules, s.side, viewer)]
        bid = " + ".join(b.written(rules) for b in bids if b is not None) or "-"
        said = describe_side(rules, s, seat_name=lambda seat: seat_label(rules.players, seat, viewer, names))
        line.append(SheetRow(
            side=s.side, bid=bid, tricks=s.tricks, points=s.points, bags=s.bags_added,
            bags_total=s.bags_after, contract=said.contract, made=said.made, penalties=said.penalties,
            penalty_points=s.penalty_points, notes=list(said.remarks), total=h.scores_after[s.side],
        ))
    return _LINES.keep(key, line, h, rules)


@dataclass(frozen=True)
class _Said:
    """What a hand's bids show, alike in its states and events until the next bid: each seat's bid as
    written, and each side's contract (tricks, and whether it is a 10 for 200)."""

    bids: list[str | None]
    contracts: list[tuple[int, bool]]


_SAID: _Kept[_Said] = _Kept(8192)
"""``_Said`` already worked out, by the rules' identity and the bids' (kept with them: the engine's
bids are shared values, so a hand's stay the same objects while it is played)."""


def _said(rules: Rules, bids: Sequence[Bid | None]) -> _Said:
    """The hand's ``_Said`` now."""
    key = (id(rules), *map(id, bids))
    kept = _SAID.get(key)
    if kept is not None:
        return kept[0]
    return _SAID.keep(key, _Said(bids=[_bid_text(rules, b) for b in bids],
                                 contracts=[side_contract(rules, side, bids) for side in range(rules.sides)]),
                      rules, tuple(bids))


def _progress(rules: Rules, side: int, bids: Sequence[Bid | None], won: Sequence[int],
              contract: int) -> str | None:
    """Partners' tricks won of tricks bid (``contract``), "3 of 7", once both have bid (written out for two
    partners: every state and event asks it of each side, while a hand is bid and played)."""
    seats = rules.seats_of(side)
    if len(seats) != 2:
        return None
    one, other = seats
    if bids[one] is None or bids[other] is None:
        return None
    return f"{won[one] + won[other]} of {contract}"


_BIDDING_OR_PLAYING = (Phase.BID, Phase.PLAY)


@dataclass(frozen=True)
class _Tally:
    """What a hand's bids and tricks won show, alike in its states and events: each seat's bid, each
    side's contract and progress, the broken nils."""

    bids: list[str | None]
    contracts: list[tuple[int, bool]]
    progress: list[str | None]
    broken: list[int]


_TALLIES: _Kept[_Tally] = _Kept(8192)
"""``_Tally`` already worked out, by its ``_Said``'s identity, whether the hand is bid or played, and the
tricks won: a move's events and state ask for the same one, and it changes only with a bid or a trick."""


def _tally(rules: Rules, phase: Phase, bids: Sequence[Bid | None], won: Sequence[int]) -> _Tally:
    """The hand's ``_Tally`` now."""
    said = _said(rules, bids)
    playing = phase in _BIDDING_OR_PLAYING
    key = (id(said), playing, *won)
    kept = _TALLIES.get(key)
    if kept is not None:
        return kept[0]
    progress = [_progress(rules, side, bids, won, said.contracts[side][0]) if playing else None
                for side in range(rules.sides)]
    return _TALLIES.keep(key, _Tally(bids=said.bids, contracts=said.contracts, progress=progress,
                                     broken=broken_nils(rules, bids, won)), said)


def _sheet_legend(rules: Rules) -> str:
    """What the sheet's Points, Over and Bags mean under these rules (Bags: held, as the score box says)."""
    held = (f"Bags carry over: each time they reach {rules.bag_limit}, {rules.bag_penalty} points are "
            "taken off." if rules.bag_penalty else "Bags carry over from hand to hand.")
    return f"Points and Over are this hand's (Over: tricks won beyond the bid, which add to the Bags). {held}"


def review_of(spec: DeckSpec, h: HandResult) -> HandReview:
    """A finished hand face up, for the review."""
    return HandReview.model_validate(_review(spec, h))


def _review(spec: DeckSpec, h: HandResult) -> Fields:
    """``review_of`` as plain data."""
    return {"number": h.number, "dealt": [_sorted(spec, m) for m in h.dealt],
            "tricks": [_trick(t) for t in h.tricks], "set_aside": _sorted(spec, h.set_aside)}


def _message(game: Game, v: SeatView, human: int, names: Names) -> str:
    """The line under the table for this seat: whose turn, what to do now, or how the hand or
    game ended."""
    n = game.players
    if v.phase is Phase.GAME_OVER:
        assert v.winner is not None
        if human < n and v.winner == game.rules.side_of(human):
            return "You win the game!"
        verb = "win" if len(game.rules.seats_of(v.winner)) > 1 else "wins"
        return f"{side_name(game.rules, v.winner, human, names)} {verb} the game."
    if v.phase is Phase.HAND_OVER:
        return "The hand is over: see the score sheet."
    if v.turn is None:
        return ""
    if v.turn != human:
        return f"{seat_label(n, v.turn, human, names)} to {_VERB[v.phase]}."
    if v.phase is Phase.BID and v.can_look:
        return "Bid blind nil now, or look at your cards."
    if v.phase is Phase.PASS:
        return f"Choose {plural(v.pass_count, 'card')} to pass to your partner."
    if v.phase is Phase.DRAW:
        if len(v.offered) == 1:
            return "Keep this card and discard the next one, or discard this one and keep the next."
        return "Keep one of these two cards; the other is thrown away."
    if v.phase is Phase.BID:
        return "Your turn to bid." + _bid_rule(game.rules)
    return f"Your turn to {_VERB[v.phase]}."


_VERB = {Phase.DRAW: "draw", Phase.BID: "bid", Phase.PASS: "pass cards", Phase.PLAY: "play"}


def _bid_rule(rules: Rules) -> str:
    """Why the bids offered are only some numbers, in the words of the bid refusals; else nothing."""
    rule = BidRules.of(rules).narrowing_rule()
    return "" if rule is None else f" {rule}."


def _held() -> Fields:
    """What a state says of the viewer's own cards and moves for a spectator: all empty (new each time)."""
    return {"hand": [], "legal": [], "reasons": {}, "legal_bids": [], "can_look": False, "can_misdeal": False,
            "pass_count": 0, "passed": [], "received": [], "offered": []}


@dataclass(frozen=True)
class FaceUp:
    """What a game's state shows alike from every seat at one version: the bids' and tricks' sums,
    the cards on the table. Made once when several seats' states are made at that version."""

    version: int
    bids: list[str | None]
    cards: list[int]
    """How many cards each seat holds."""
    broken: frozenset[int]
    contracts: list[tuple[int, bool]]
    progress: list[str | None]
    trick: list[PlayedCard]
    last_trick: Fields | None


def _reasons(game: Game, seat: int, refused: int) -> dict[str, str]:
    """Why the seat whose turn it is to play may not play each of its ``refused`` cards: the play rule's
    own words, with the cards it may play worked out once for all of them (``game.play_reason`` takes a
    card at a time, and checks whose turn it is)."""
    return {str(c): why for c, why in game.play_refusals(seat, refused).items()}


def face_up(game: Game) -> FaceUp:
    """The parts of ``state_of`` that no seat sees differently (bids, tricks and played cards are
    face up), for the game as it stands."""
    tricks = game.tricks
    tally = _tally(game.rules, game.phase, game.bids, game.tricks_won)
    return FaceUp(
        version=len(game.log), bids=tally.bids, cards=[h.bit_count() for h in game.hands],
        broken=frozenset(tally.broken), contracts=tally.contracts, progress=tally.progress,
        trick=_played(tuple(game.trick)), last_trick=_trick(tricks[-1]) if tricks else None)


@dataclass(frozen=True)
class _Seen:
    """How a viewer's seat names and places the seats and sides: the same at every version of a game."""

    seat_names: tuple[str, ...]
    positions: tuple[Position, ...]
    sides_of: tuple[int, ...]
    side_names: tuple[str, ...]
    side_order: list[int]
    """The sides in seat order from the seat at the bottom (each state checks a copy of it in)."""


_SEEN: _Kept[_Seen] = _Kept(8192)
"""``_Seen`` already worked out, by the rules' identity, the viewer and the names: every state of a game
asks for the same few."""


def _seen_from(rules: Rules, me: int, names: Names) -> _Seen:
    """The seats' and sides' names and places as viewer ``me`` (a spectator: ``rules.players``) sees them."""
    kept_names = None if names is None else tuple(names)
    key = (id(rules), me, kept_names)
    kept = _SEEN.get(key)
    if kept is not None:
        return kept[0]
    n = rules.players
    human = human_seat(n) if me == n else me
    positions = _POSITIONS[n]
    seen = _Seen(
        seat_names=tuple(seat_label(n, s, me, names) for s in range(n)),
        positions=tuple(positions[(s - human) % n] for s in range(n)),
        sides_of=tuple(rules.side_of(s) for s in range(n)),
        side_names=tuple(side_name(rules, i, me, names) for i in range(rules.sides)),
        side_order=sorted(range(rules.sides), key=lambda i: min((s - human) % n for s in rules.seats_of(i))))
    return _SEEN.keep(key, seen, rules)


def state_of(game: Game, *, game_id: int, deal: int, daily: str | None, level: str,
             viewer: int | None = None, names: Names = None, coach: bool = False,
             shown: FaceUp | None = None, sheet: bool = True) -> GameState:
    """The state the viewer's seat (South by default; ``game.players``: a spectator, who holds no seat)
    may see, its legal moves and why others are not; ``names`` gives the people's names at a friends'
    table, ``coach`` whether the coach reviews its hands; ``shown``: the game's ``face_up`` now, if
    already made for another seat; without ``sheet``, the score sheet is left empty (for a caller that
    leaves it out of what it sends: each seat's lines of a long game, for every move)."""
    return GameState.model_validate(state_fields(game, game_id=game_id, deal=deal, daily=daily, level=level,
                                                 viewer=viewer, names=names, coach=coach, shown=shown,
                                                 sheet=sheet))


def state_fields(game: Game, *, game_id: int, deal: int, daily: str | None, level: str,
                 viewer: int | None = None, names: Names = None, coach: bool = False,
                 shown: FaceUp | None = None, sheet: bool = True) -> Fields:
    """``state_of`` as plain data."""
    rules = game.rules
    n = game.players
    me = _viewer(n, viewer)
    watching = me == n
    human = human_seat(n) if watching else me  # the seat at the bottom of the table
    spec = game.spec
    v = game.view(human)
    if shown is None or shown.version != len(game.log):
        shown = face_up(game)
    broken, contracts = shown.broken, shown.contracts
    seen = _seen_from(rules, me, names)
    fixed = _fixed(rules)
    seats = [
        {"seat": s, "name": seen.seat_names[s], "position": seen.positions[s], "human": s == me,
         "side": seen.sides_of[s], "bid": shown.bids[s], "tricks": v.tricks_won[s], "cards": shown.cards[s],
         "nil_broken": s in broken}
        for s in range(n)
    ]
    bidding_done = v.phase in (Phase.PASS, Phase.PLAY) and all(b is not None for b in v.bids)
    sides = [
        {"side": i, "name": seen.side_names[i], "score": v.scores[i], "bags": v.bags[i],
         "bags_to_penalty": rules.bag_limit - v.bags[i] if rules.bag_penalty else None,
         "contract": contracts[i][0] if all(v.bids[s] is not None for s in rules.seats_of(i)) else None,
         "ten_for_two_hundred": contracts[i][1], "seats": list(rules.seats_of(i)),
         "progress": shown.progress[i]}
        for i in range(rules.sides)
    ]
    playing = v.phase is Phase.PLAY and v.turn == human
    reasons = _reasons(game, human, v.hand & ~v.legal_plays) if playing else {}
    over = v.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    state: Fields = {
        "id": game_id, "version": len(game.log), "deal": deal, "daily": daily, "level": level,
        "rules": fixed.rules, "rules_name": rules.name, "players": n, "human": me,
        "phase": v.phase.value, "turn": v.turn, "dealer": v.dealer, "hand_number": v.hand_number,
        "seats": seats, "sides": sides, "side_order": seen.side_order,
        "spare_tricks": rules.hand_size - sum(c for c, _ in contracts) if bidding_done else None,
        "human_side": -1 if watching else rules.side_of(me), "hand": _sorted(spec, v.hand),
        "legal": _sorted(spec, v.legal_plays), "reasons": reasons,
        "legal_bids": [b.written(rules) for b in v.legal_bids], "can_look": v.can_look,
        "can_misdeal": v.can_misdeal, "pass_count": v.pass_count, "passed": _sorted(spec, v.passed),
        "received": _sorted(spec, v.received), "offered": [str(c) for c in v.offered],
        "stock": v.stock_left, "two_player_draw": rules.two_player_draw.value, "trick": shown.trick,
        "last_trick": shown.last_trick, "broken": v.broken, "target": rules.target,
        "sheet": _sheet(rules, v.history, me, names) if sheet else [], "sheet_legend": fixed.sheet_legend,
        "review": _review(spec, v.history[-1]) if over and v.history else None,
        "winner": v.winner, "message": _message(game, v, me, names), "coach": coach,
    }
    if watching:
        state.update(_held())
    return state


def events_of(game: Game, seat: int, move: Move, viewers: Sequence[int | None],
              names: Names = None) -> list[EventOut]:
    """The event for a move just applied as each of ``viewers`` may see it: all but its line is face
    up, so that part is made once, with the first viewer's line, and copied with each other's (a friends'
    table tells every seat and its spectators of each move; the solo game, one seat)."""
    face, texts = event_lines(game, seat, move, viewers, names)
    return [face, *(face.model_copy(update={"text": text}) for text in texts[1:])]


def event_lines(game: Game, seat: int, move: Move, viewers: Sequence[int | None],
                names: Names = None) -> tuple[EventOut, list[str]]:
    """``events_of`` as the first viewer's event and each viewer's line (for a caller that writes the
    others' events itself, without a model each)."""
    face, texts = event_fields(game, seat, move, viewers, names)
    return EventOut.model_validate(face), texts


def event_fields(game: Game, seat: int, move: Move, viewers: Sequence[int | None] = (None,),
                 names: Names = None) -> tuple[Fields, list[str]]:
    """``event_lines`` with the event as plain data (the viewers: South alone by default)."""
    n = game.players
    trick = _played(tuple(game.trick))
    winner: int | None = None
    if isinstance(move, Play) and not game.trick and game.tricks:
        trick, winner = _played(game.tricks[-1].cards), game.tricks[-1].winner
    texts = [_event_text(game, seat, move, _viewer(n, v), winner, names) for v in viewers]
    won = game.tricks_won
    tally = _tally(game.rules, game.phase, game.bids, won)
    face = {
        "seat": seat, "kind": _KINDS[type(move)], "text": texts[0],
        "card": str(move.card) if isinstance(move, Play) else None, "trick": trick, "winner": winner,
        "bids": tally.bids, "tricks": list(won), "progress": tally.progress, "nil_broken": tally.broken,
    }
    return face, texts


_KINDS: dict[type[Move], Literal["bid", "play", "pass", "draw", "look", "misdeal"]] = {
    Play: "play", MakeBid: "bid", PassCards: "pass", Draw: "draw", Look: "look", Misdeal: "misdeal"}


def _event_text(game: Game, seat: int, move: Move, human: int, winner: int | None, names: Names) -> str:
    """The line that tells the seat ``human`` of a move just applied (``winner``: of the trick it ended)."""
    n = game.players
    who = seat_label(n, seat, human, names)
    you = seat == human
    if isinstance(move, Play):
        text = f"{who} {'play' if you else 'plays'} the {move.card.name}."
        if winner is not None:
            takes = "take" if winner == human else "takes"
            text += f" {seat_label(n, winner, human, names)} {takes} the trick."
        return text
    if isinstance(move, MakeBid):
        return f"{who} {'bid' if you else 'bids'} {move.bid.written(game.rules)}."
    if isinstance(move, PassCards):
        return f"{who} {'pass' if you else 'passes'} {move.cards.bit_count()} cards."
    if isinstance(move, Draw):
        return f"{who} {'draw' if you else 'draws'}."
    if isinstance(move, Look):
        return f"{who} {'look' if you else 'looks'} at {'your' if you else 'their'} cards."
    assert isinstance(move, Misdeal)
    return f"{who} {'call' if you else 'calls'} a misdeal: the cards are dealt again."
