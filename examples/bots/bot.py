#!/usr/bin/env python3
"""A Spades bot speaking the Spades bot protocol (version 1): JSON lines on stdin and stdout.

Run it in a match:  spades arena "exec:python3 examples/bots/bot.py" normal --deals 2
It needs nothing but Python. It bids its high cards and spades, and plays the lowest card that wins
the trick, or its lowest card when none does.
"""

import json
import sys

RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14, "LJ": 15, "BJ": 16}


def rank(card):
    """2-14 for 2 to ace, 15 and 16 for the jokers."""
    return RANKS.get(card) or RANKS.get(card[:-1]) or int(card[:-1])


def suit(card):
    """C, D, H or S (jokers are spades)."""
    return "S" if card in ("LJ", "BJ") else card[-1]


def power(card, led):
    """How strongly a card stands in a trick led in the suit ``led`` (0: it cannot win)."""
    if suit(card) == "S":
        return 100 + rank(card)
    return rank(card) if suit(card) == led else 0


def bid(view, legal):
    """The legal bid nearest to a count of aces, kings and spades above the ten."""
    if "look" in legal:
        return "look"
    hand = view["hand"]
    tricks = sum(rank(c) >= 13 and suit(c) != "S" for c in hand)
    tricks += sum(suit(c) == "S" and rank(c) >= 11 for c in hand) + sum(suit(c) == "S" for c in hand) // 4
    bids = [m for m in legal if m.startswith("bid ") and m.split()[1].isdigit()]
    if not bids:
        return legal[0]
    return min(bids, key=lambda m: abs(int(m.split()[1]) - max(1, tricks)))


def play(view, legal):
    """The lowest card that beats the trick so far; the lowest card when none does."""
    cards = [m.split()[1] for m in legal]
    trick = [p["card"] for p in view["trick"]]
    if not trick:
        plain = [c for c in cards if suit(c) != "S"] or cards
        return "play " + max(plain, key=rank)
    led = suit(trick[0])
    best = max(power(c, led) for c in trick)
    winners = [c for c in cards if power(c, led) > best]
    return "play " + min(winners or cards, key=lambda c: (power(c, led) if winners else 0, rank(c)))


def decide(view, legal):
    """The move for a decision."""
    phase = view["phase"]
    if phase == "bid":
        return bid(view, legal)
    if phase == "play":
        return play(view, legal)
    if phase == "draw":
        keep = rank(view["offered"][0]) >= 11 or suit(view["offered"][0]) == "S"
        return "draw keep" if keep else "draw refuse"
    return legal[0]  # a pass: the lowest cards


def main():
    """Answer each message until bye or the end of the input."""
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "ready", "name": "example-python"}
        elif kind == "decide":
            move = decide(message["view"], message["legal"])
            answer = {"type": "move", "id": message["id"], "move": move}
        elif kind == "refused":
            print(f"refused: {message['reason']}", file=sys.stderr)
            continue
        else:
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
