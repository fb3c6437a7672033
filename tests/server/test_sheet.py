"""The score sheet's rows over HTTP: bids in the order the side's name gives its players, nils in words."""

from __future__ import annotations

import httpx

from server.api_client import Player, simple_move


def test_a_nil_row_lists_your_bid_first_and_says_how_the_nil_went(client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=7)
    human, side = state["human"], state["human_side"]
    state = p.move(state, "bid nil")["state"]
    while state["phase"] not in ("hand_over", "game_over"):
        state = p.move(state, simple_move(state))["state"]
    assert state["sides"][side]["name"] == "You & North"
    row = state["sheet"][-1][side]
    partner = state["seats"][(human + 2) % 4]["bid"]
    assert row["bid"] == f"nil + {partner}"
    taken = sum(t["winner"] == human for t in state["review"]["tricks"])
    nil = (f"You: nil broken, took {taken} trick{'s' * (taken != 1)} (\u2212100)" if taken
           else "You: nil made (+100)")
    assert nil in row["notes"]
    assert row["contract"] == int(partner)
    assert row["made"] == (row["tricks"] - taken >= int(partner))
    if not row["made"]:
        assert f"set on {partner} (\u2212{10 * int(partner)})" in row["notes"]
    assert row["bags_total"] == state["sides"][side]["bags"]
