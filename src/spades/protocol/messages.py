"""The Spades bot protocol's messages: JSON objects, one a line, each with a ``type``.

The referee sends ``hello`` (the protocol's version, the rules, the seat), then ``decide`` at each of
the seat's decisions (the seat's view, exactly what ``SeatView`` holds, with the legal moves in their
text forms and a deadline), ``refused`` when an answer was not played, and ``bye`` at the end. The bot
answers ``hello`` with ``ready`` and each ``decide`` with ``move``. Each message's JSON Schema is in
``schema/`` beside this module (``schema_of``).

>>> from spades.game import Game
>>> from spades.rules import Rules
>>> g = Game(Rules(), deal=7)
>>> m = decide(g.view(0), 1, 1000)
>>> m["type"], m["legal"][:3], len(m["view"]["hand"])
('decide', ['bid nil', 'bid 1', 'bid 2'], 13)
>>> parse_answer('{"type": "move", "id": 1, "move": "bid 4"}', 1)
MakeBid(bid=Bid(4))
"""

from __future__ import annotations

import itertools
import json
from importlib import resources
from typing import Any

from spades.cards import Card, cards_of
from spades.errors import SpadesError
from spades.game import HandResult, Phase, SeatView, seat_name
from spades.moves import Draw, Look, MakeBid, Misdeal, Move, PassCards, Play, parse_move
from spades.play import Trick
from spades.rules import Rules
from spades.scoring import Bid

__all__ = [
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "AnswerError",
    "bye",
    "decide",
    "decide_line",
    "hello",
    "legal_moves",
    "parse_answer",
    "parse_ready",
    "refused",
    "schema_of",
    "view_json",
]

PROTOCOL_VERSION = 1
"""The protocol's version, sent in ``hello``; it changes whenever a message changes."""

MESSAGE_TYPES = ("hello", "ready", "decide", "move", "refused", "bye")
"""Every message type, referee's and bot's, each with its schema ``schema/<type>.json``."""


class AnswerError(SpadesError):
    """A bot's line that is not the answer the protocol asks for; the message says what is wrong."""


def schema_of(message_type: str) -> dict[str, Any]:
    """The JSON Schema of a message type (shipped with the package)."""
    if message_type not in MESSAGE_TYPES:
        raise SpadesError(f"No protocol message {message_type!r}: one of {', '.join(MESSAGE_TYPES)}.")
    text = resources.files("spades.protocol").joinpath(f"schema/{message_type}.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _cards(mask: int) -> list[str]:
    """A card mask as card texts, lowest card first."""
    return [str(c) for c in cards_of(mask)]


def _bid(bid: Bid | None) -> str | None:
    """A bid's text form (``4``, ``nil``, ``blind nil``, ``10 for 200``), or None for no bid yet."""
    return None if bid is None else str(bid)


def _played(cards: tuple[tuple[int, Card], ...]) -> list[dict[str, Any]]:
    """Cards played to a trick, in order, with their seats."""
    return [{"seat": s, "card": str(c)} for s, c in cards]


def _trick(t: Trick) -> dict[str, Any]:
    """A finished trick: its cards in the order played, the leader's first (each seat in turn after it)."""
    return {"leader": t.leader, "cards": [str(c) for _, c in t.cards], "winner": t.winner}


_FINISHED: dict[int, tuple[HandResult, dict[str, Any], str]] = {}
"""Finished hands already written, as values and as JSON text, by identity (a game's views share its
``HandResult`` values)."""
_FINISHED_KEPT = 512


def _finished(r: HandResult) -> tuple[dict[str, Any], str]:
    """A finished hand, every card face up, as values and as JSON text; made once per hand and kept a
    while, since every later view of the game holds it again."""
    kept = _FINISHED.get(id(r))
    if kept is not None and kept[0] is r:
        return kept[1], kept[2]
    if len(_FINISHED) >= _FINISHED_KEPT:
        _FINISHED.clear()
    out = {
        "number": r.number, "dealer": r.dealer, "dealt": [_cards(m) for m in r.dealt],
        "bids": [_bid(b) for b in r.bids], "tricks_won": list(r.tricks_won),
        "tricks": [_trick(t) for t in r.tricks],
        "score": [{"side": s.side, "contract": s.contract, "tricks": s.tricks, "made": s.made,
                   "points": s.points, "bags_added": s.bags_added, "bags_after": s.bags_after,
                   "nils": [{"seat": n.seat, "blind": n.blind, "tricks": n.tricks, "points": n.points}
                            for n in s.nils]} for s in r.score.sides],
        "scores_after": list(r.scores_after), "set_aside": _cards(r.set_aside),
        "passes": [{"from": f, "to": t, "cards": _cards(m)} for f, t, m in r.passes],
    }
    text = _dumps(out)
    _FINISHED[id(r)] = (r, out, text)
    return out, text


def _dumps(value: object) -> str:
    """Compact JSON text."""
    return json.dumps(value, separators=(",", ":"))


def view_json(view: SeatView) -> dict[str, Any]:
    """Everything a ``SeatView`` holds but its rules (``hello`` gave them), as JSON-ready values:
    cards as their texts (``10H``, ``BJ``), bids as theirs, voids as suit letters."""
    return _present(view) | {"history": [_finished(r)[0] for r in view.history], "winner": view.winner}


def _present(view: SeatView) -> dict[str, Any]:
    """The view but its finished hands and the winner (the end of a view's JSON object)."""
    return {
        "seat": view.seat, "phase": view.phase.value, "hand_number": view.hand_number,
        "dealer": view.dealer, "turn": view.turn, "hand": _cards(view.hand), "looked": view.looked,
        "bids": [_bid(b) for b in view.bids], "tricks_won": list(view.tricks_won),
        "trick": _played(view.trick), "tricks": [_trick(t) for t in view.tricks], "broken": view.broken,
        "voids": ["".join("CDHS"[s] for s in range(4) if v >> s & 1) for v in view.voids],
        "scores": list(view.scores), "bags": list(view.bags), "passed": _cards(view.passed),
        "received": _cards(view.received), "offered": [str(c) for c in view.offered],
        "stock_left": view.stock_left, "discarded": _cards(view.discarded), "pass_count": view.pass_count,
        "legal_bids": [str(b) for b in view.legal_bids], "legal_plays": _cards(view.legal_plays),
        "can_look": view.can_look, "can_misdeal": view.can_misdeal,
        "opening_card": None if view.opening_card is None else str(view.opening_card),
    }


def legal_moves(view: SeatView) -> list[Move]:
    """Every move the seat to move may make, read off its view's legal bids, cards and passes."""
    if view.phase is Phase.PLAY:
        return [Play(c) for c in cards_of(view.legal_plays)]
    if view.phase is Phase.BID:
        moves: list[Move] = [MakeBid(b) for b in view.legal_bids]
        return moves + [Look()] * view.can_look + [Misdeal()] * view.can_misdeal
    if view.phase is Phase.PASS:
        return [PassCards.of(*cs) for cs in itertools.combinations(cards_of(view.hand), view.pass_count)]
    if view.phase is Phase.DRAW:
        return [Draw(True), Draw(False)]
    return []


def hello(rules: Rules, seat: int, move_ms: int) -> dict[str, Any]:
    """The greeting: the protocol's version, the rules, the seat (its number and its name), and the
    time each move may take."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "rules": rules.to_dict(), "seat": seat,
            "seat_name": seat_name(rules.players, seat), "players": rules.players, "move_ms": move_ms}


def decide_line(view: SeatView, decision: int, deadline_ms: int) -> str:
    """A decision as its line of JSON: the seat's view, its legal moves as text, and the milliseconds
    it has to answer. The finished hands' text is made once per hand (a game's later views repeat it)."""
    head = _dumps({"type": "decide", "id": decision, "deadline_ms": deadline_ms,
                   "legal": [str(m) for m in legal_moves(view)], "view": _present(view)})
    history = ",".join(_finished(r)[1] for r in view.history)
    return f'{head[:-2]},"history":[{history}],"winner":{_dumps(view.winner)}}}}}'


def decide(view: SeatView, decision: int, deadline_ms: int) -> dict[str, Any]:
    """A decision as JSON values: its line, read."""
    message: dict[str, Any] = json.loads(decide_line(view, decision, deadline_ms))
    return message


def refused(decision: int, fault: str, reason: str, played: Move) -> dict[str, Any]:
    """The referee's word that an answer was not played: the fault, why, and the move played instead."""
    return {"type": "refused", "id": decision, "fault": fault, "reason": reason, "played": str(played)}


def bye() -> dict[str, Any]:
    """The end: the bot should exit."""
    return {"type": "bye"}


def _object(line: str, expected: str) -> dict[str, Any]:
    """A bot's line as a JSON object of the expected type (AnswerError otherwise)."""
    try:
        data = json.loads(line)
    except ValueError:
        raise AnswerError(f"Not JSON: {line[:80]!r}.") from None
    if not isinstance(data, dict):
        raise AnswerError(f"Not a JSON object: {line[:80]!r}.")
    if data.get("type") != expected:
        raise AnswerError(f"Expected a {expected!r} message, got type {data.get('type')!r}.")
    return data


def parse_ready(line: str) -> str | None:
    """The bot's name from its ``ready`` answer (None if it gave none)."""
    name = _object(line, "ready").get("name")
    if name is not None and not isinstance(name, str):
        raise AnswerError("A ready message's name is text.")
    return name


def parse_answer(line: str, decision: int) -> Move | None:
    """The move a ``move`` answer gives for ``decision``; None for an answer to an earlier decision
    (late, already replaced: skipped). Its legality is the caller's to check."""
    data = _object(line, "move")
    answered = data.get("id")
    if isinstance(answered, bool) or not isinstance(answered, int):
        raise AnswerError("A move message's id is the decision's whole number.")
    if answered != decision:
        if answered < decision:
            return None
        raise AnswerError(f"An answer to decision {answered}, which was not asked (this is {decision}).")
    text = data.get("move")
    if not isinstance(text, str):
        raise AnswerError("A move message's move is text, such as 'play 10H'.")
    try:
        return parse_move(text)
    except SpadesError as e:
        raise AnswerError(str(e)) from None
