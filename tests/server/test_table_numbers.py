"""Numbers the table shows beside the cards, from the server: contracts, spare tricks, bags left, order."""

from __future__ import annotations

import httpx

from server.api_client import Player, simple_move
from spades.rules import find_preset
from spades.scoring import Bid


def test_contracts_and_spare_tricks_come_once_the_bids_are_in(client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=7)
    assert state["phase"] == "bid" and state["spare_tricks"] is None
    assert all(side["contract"] is None for side in state["sides"])
    assert [side["bags_to_penalty"] for side in state["sides"]] == [10, 10]
    state = p.move(state, "bid 3")["state"]
    assert state["phase"] == "play"
    rules = find_preset("standard")
    bids = [Bid.parse(s["bid"]) for s in state["seats"]]
    for side in state["sides"]:
        wanted = sum(bids[s].tricks for s in side["seats"] if not bids[s].is_nil(rules))
        assert side["contract"] == wanted and not side["ten_for_two_hundred"]
    assert state["spare_tricks"] == 13 - sum(side["contract"] for side in state["sides"])
    while state["phase"] == "play":
        state = p.move(state, simple_move(state))["state"]
    assert any(side["bags"] for side in state["sides"])
    assert all(side["bags_to_penalty"] == 10 - side["bags"] for side in state["sides"])


def test_the_sides_are_listed_in_seat_order_yours_first_then_as_play_goes_round(client: httpx.Client) -> None:
    for preset, order in (("standard", ["You & North", "East & West"]),
                          ("three-player", ["You", "West", "East"]),
                          ("cutthroat", ["You", "West", "North", "East"])):
        p = Player(client, rules={"preset": preset, "options": {}})
        state = p.new_game(deal=3)
        names = {side["side"]: side["name"] for side in state["sides"]}
        assert [names[i] for i in state["side_order"]] == order, preset


def test_bags_left_count_down_to_the_penalty_and_say_nothing_without_one(client: httpx.Client) -> None:
    p = Player(client, rules={"preset": "standard", "options": {"bag_penalty": 0}})
    state = p.new_game(deal=9)
    assert [side["bags_to_penalty"] for side in state["sides"]] == [None, None]
