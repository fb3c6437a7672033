"""The API over real HTTP: the referee's checks, hidden cards, persistence, deals, stats, errors."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from server.api_client import Player, cards_in, simple_move
from spades.deal import MAX_DEAL
from spades.game import Game
from spades.rules import MAX_TARGET, OPTIONS, PRESETS, RULE_GROUPS, Rules
from spades.server.run import BackgroundServer


def play_hand(p: Player, state: dict[str, Any]) -> dict[str, Any]:
    """Play the person's seat with simple legal moves until the hand (or game) is over."""
    while state["phase"] not in ("hand_over", "game_over"):
        state = p.move(state, simple_move(state))["state"]
    return state


def test_first_hand_south_bids_first_and_sees_only_its_cards(client: httpx.Client) -> None:
    p = Player(client)
    s = p.new_game(deal=77)
    assert s["phase"] == "bid" and s["turn"] == s["human"] and s["seats"][s["human"]]["name"] == "You"
    assert len(s["hand"]) == 13 and s["legal_bids"][:2] == ["nil", "1"] and "13" in s["legal_bids"]
    positions = {x["name"]: x["position"] for x in s["seats"]}
    assert positions == {"You": "bottom", "West": "left", "North": "top", "East": "right"}
    assert s["dealer"] == 1 and s["message"] == "Your turn to bid."


def test_no_response_during_a_hand_holds_another_seats_cards(client: httpx.Client) -> None:
    p = Player(client, level="normal")
    state = p.new_game(deal=4242)
    mine = set(state["hand"])
    start = len(p.responses)
    state = play_hand(p, state)
    review = state["review"]
    assert review is not None and sum(len(h) for h in review["dealt"]) == 52
    others = set().union(*(set(h) for i, h in enumerate(review["dealt"]) if i != state["human"]))
    assert set(review["dealt"][state["human"]]) == mine
    played: set[str] = set()
    for data in p.responses[start:-1]:  # every answer before the one that ends the hand
        for ev in data.get("events", []):
            if ev["card"]:
                played.add(ev["card"])
        visible = cards_in(data)
        assert not (visible & others) - played, "another seat's unplayed card was sent"
    last = p.responses[-1]
    assert cards_in(last["state"]["review"]) >= others
    assert p.call("GET", f"/api/games/{state['id']}/hands/0") == review
    state = p.next_hand(state)["state"]
    assert "not finished" in p.call("GET", f"/api/games/{state['id']}/hands/1", expect=404)["detail"]


def test_illegal_card_gets_the_engines_reason_and_the_state(client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=42)
    state = p.move(state, "bid 3")["state"]
    assert state["phase"] == "play" and state["turn"] == state["human"]
    dimmed = [c for c in state["hand"] if c not in state["legal"]]
    assert dimmed and all(state["reasons"][c] for c in dimmed)
    out = p.move(state, f"play {dimmed[0]}", expect=409)
    assert out["detail"] == state["reasons"][dimmed[0]] and out["state"]["version"] == state["version"]


def test_a_move_sent_twice_or_out_of_turn_returns_the_current_state(client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=9)
    after = p.move(state, "bid 2")["state"]
    again = p.move(state, "bid 2", expect=409)
    assert "moved on" in again["detail"] and again["state"] == after
    wrong = p.move(after, "bid 4", expect=409)
    assert "not to bid" in wrong["detail"] and wrong["state"] == after


def test_numbered_and_daily_deals_give_everyone_the_same_cards(client: httpx.Client) -> None:
    a, b = Player(client), Player(client)
    assert a.new_game(deal=123456)["hand"] == b.new_game(deal=123456)["hand"]
    da, db = a.new_game(daily="2026-12-01"), b.new_game(daily="2026-12-01")
    assert da["deal"] == db["deal"] == 20261201 and da["hand"] == db["hand"] and da["daily"] == "2026-12-01"
    assert client.get("/api/daily", params={"day": "2026-12-01"}).json() == 20261201
    fresh = a.new_game()
    assert 1 <= fresh["deal"] <= MAX_DEAL


def test_resume_keeps_the_same_deal_and_restart_starts_it_over(client: httpx.Client) -> None:
    p = Player(client)
    none_yet = client.get("/api/games/current", headers=p.headers)
    assert none_yet.status_code == 204 and none_yet.content == b""  # no game yet: not an error
    first = p.new_game(deal=31)
    moved = p.move(first, "bid 4")["state"]
    assert p.new_game(deal=31, resume=True) == moved
    assert p.call("GET", "/api/games/current") == moved
    restarted = p.call("POST", f"/api/games/{moved['id']}/restart", expect=201)["state"]
    assert restarted["hand"] == first["hand"] and restarted["version"] == 0 and restarted["id"] != first["id"]
    replaced = p.call("POST", f"/api/games/{moved['id']}/moves", {"move": "bid 3", "version": 1}, expect=409)
    assert replaced["detail"].startswith(f"Game {moved['id']} was replaced")
    assert replaced["state"] == restarted  # the newer game, for the page to redraw


def test_a_restarted_server_brings_back_the_same_table(tmp_path: Any) -> None:
    srv = BackgroundServer(tmp_path / "db.sqlite3").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            p = Player(c)
            state = p.new_game(deal=5)
            for _ in range(4):
                state = p.move(state, simple_move(state))["state"]
        srv.stop()
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            assert c.get("/api/games/current", headers=p.headers).json() == state
    finally:
        srv.stop()


def test_a_finished_game_counts_in_the_stats(client: httpx.Client) -> None:
    p = Player(client, rules={"preset": "standard", "options": {"target": 60}})
    none = {"played": 0, "won": 0, "win_rate": 0.0, "best_score": None, "streak": 0, "best_streak": 0}
    assert p.call("GET", "/api/stats") == {**none, "alone": none, "friends": none}
    state = p.new_game(deal=2024)
    assert state["target"] == 60
    hands = 0
    while state["phase"] != "game_over":
        state = play_hand(p, state)
        hands += 1
        assert len(state["sheet"]) == hands and state["review"] is not None
        if state["phase"] == "hand_over":
            state = p.next_hand(state)["state"]
            assert state["review"] is None and state["hand_number"] == hands
    stats = p.call("GET", "/api/stats")
    won = state["winner"] == state["human_side"]
    assert stats["played"] == 1 and stats["won"] == int(won) and stats["streak"] == int(won)
    assert stats["alone"] == {k: v for k, v in stats.items() if k not in ("alone", "friends")}
    assert stats["friends"]["played"] == 0
    assert stats["best_score"] == state["sides"][state["human_side"]]["score"]
    assert state["sheet"][-1][state["human_side"]]["total"] == stats["best_score"]
    assert p.move(state, "play AS", expect=409)["state"]["phase"] == "game_over"


def test_settings_persist_and_bad_rules_are_refused(client: httpx.Client) -> None:
    p = Player(client)
    assert p.call("GET", "/api/settings")["table_color"] == "green"
    body = p.call("GET", "/api/settings") | {"table_color": "blue", "four_color": True, "level": "hard"}
    p.call("PUT", "/api/settings", body)
    assert p.call("GET", "/api/settings") == body
    bad = body | {"rules": {"preset": "standard", "options": {"blind_nil": True, "nil": "none"}}}
    assert "Blind nil" in p.call("PUT", "/api/settings", bad, expect=400)["detail"]
    assert p.call("GET", "/api/settings") == body


def test_the_rule_options_are_described_for_the_forms(client: httpx.Client) -> None:
    """GET /api/rules: each option with its label, help, group, choice labels and bounds (spades.rules)."""
    meta = client.get("/api/rules").json()
    assert [g["name"] for g in meta["groups"]] == [key for key, _ in RULE_GROUPS]
    assert [o["name"] for o in meta["options"]] == [o.name for o in OPTIONS]
    by_name = {o["name"]: o for o in meta["options"]}
    assert by_name["target"] | {"help": ""} == {
        "name": "target", "label": "Game to", "help": "", "group": "scoring", "kind": "int", "choices": [],
        "choice_labels": {}, "default": 500, "min": 10, "max": MAX_TARGET}
    failed = by_name["failed_bid"]
    assert failed["choices"] == ["minus_bid", "zero", "minus_short"] and failed["min"] is None
    assert failed["choice_labels"]["zero"] == "nothing" and failed["group"] == "scoring"
    assert by_name["low_mark"]["kind"] == "int_or_null" and by_name["blind_nil"]["kind"] == "bool"


def test_each_presets_table_comes_from_its_rules(client: httpx.Client) -> None:
    """GET /api/rules gives each preset's table as the rules work it out: the pages guess none of it."""
    presets = {p["name"]: p for p in client.get("/api/rules").json()["presets"]}
    assert presets.keys() == PRESETS.keys()
    for name, rules in PRESETS.items():
        table = presets[name]["table"]
        assert (table["seats"], table["partners"], table["sides"], table["cards_each"]) == (
            rules.players, rules.has_partners, rules.sides, rules.hand_size)
    assert presets["three-player"]["table"]["text"] == (
        "3 players, each alone: a score per player; 17 cards each, 17 tricks.")
    assert presets["standard"]["table"]["text"].startswith("4 players in two teams of partners")


@pytest.mark.parametrize(("options", "message"), [
    ({"target": 10**19}, "Game to (target) is 10 to 10000, not a number that large."),
    ({"bag_value": 10**19}, "Points per bag (bag_value) is -100 to 100, not a number that large."),
    ({"low_mark": -20000}, "A score this low loses (low_mark) is -10000 to 10000, not -20000."),
    ({"nil_value": 5000}, "Nil is worth (nil_value) is 0 to 1000, not 5000."),
])
def test_rules_out_of_bounds_are_a_400_naming_the_option(client: httpx.Client, options: dict[str, int],
                                                         message: str) -> None:
    p = Player(client)
    before = p.call("GET", "/api/settings")
    bad = before | {"rules": {"preset": "standard", "options": options}}
    assert p.call("PUT", "/api/settings", bad, expect=400)["detail"] == message
    assert p.call("GET", "/api/settings") == before
    r = client.post("/api/scorekeeper/score", json={"rules": options, "hands": []})
    assert r.status_code == 400 and r.json()["detail"] == message


def test_hint_names_a_legal_bid_then_a_legal_card(client: httpx.Client) -> None:
    p = Player(client)
    state = p.new_game(deal=8)
    h = p.call("GET", f"/api/games/{state['id']}/hint")
    assert h["bid"] in state["legal_bids"] and h["reason"]
    state = p.move(state, "bid 3")["state"]
    h = p.call("GET", f"/api/games/{state['id']}/hint")
    assert h["card"] in state["legal"] and h["move"] == f"play {h['card']}"


@pytest.mark.parametrize(("preset", "seats", "cards"), [
    ("three-player", ["bottom", "left", "right"], 17),
    ("two-player", ["bottom", "top"], 0),
    ("cutthroat", ["bottom", "left", "top", "right"], 13),
])
def test_every_table_size_plays_a_hand(client: httpx.Client, preset: str, seats: list[str],
                                       cards: int) -> None:
    p = Player(client, rules={"preset": preset, "options": {}})
    state = p.new_game(deal=3)
    assert [s["position"] for s in sorted(state["seats"], key=lambda s: (s["seat"] - state["human"])
                                          % state["players"])] == seats
    assert len(state["hand"]) == cards and len(state["sides"]) == state["players"]
    if preset == "two-player":
        assert state["phase"] == "draw" and len(state["offered"]) == 1 and state["turn"] == state["human"]
    state = play_hand(p, state)
    assert state["review"] is not None and len(state["sheet"]) == 1


def test_blind_nil_is_offered_before_the_cards_and_then_the_exchange(client: httpx.Client) -> None:
    p = Player(client, rules={"preset": "pagat", "options": {"blind_nil_deficit": 0}})
    state = p.new_game(deal=6)
    assert state["can_look"] and state["hand"] == [] and state["legal_bids"] == ["blind nil"]
    assert not cards_in(p.responses[-1])
    state = p.move(state, "bid blind nil")["state"]
    assert state["phase"] == "pass" and state["pass_count"] == 2 and len(state["hand"]) == 13
    state = p.move(state, "pass " + " ".join(state["hand"][:2]))["state"]
    assert len(state["passed"]) == 2 and len(state["received"]) == 2
    assert state["seats"][state["human"]]["bid"] == "blind nil"


def test_every_bad_request_gets_a_4xx_with_a_message(client: httpx.Client, server: BackgroundServer) -> None:
    p = Player(client)
    other = Player(client)
    state = p.new_game(deal=1)
    gid = state["id"]
    h = p.headers
    cases: list[tuple[str, str, Any, dict[str, str] | None]] = [
        ("GET", "/api/games/current", None, {}),
        ("GET", "/api/games/current", None, {"X-Player-Token": "short"}),
        ("GET", "/api/games/current", None, {"X-Player-Token": "x" * 200}),
        ("POST", "/api/games", {"deal": 0}, h),
        ("POST", "/api/games", {"deal": MAX_DEAL + 1}, h),
        ("POST", "/api/games", {"deal": "abc"}, h),
        ("POST", "/api/games", {"deal": 5, "daily": "2026-01-01"}, h),
        ("POST", "/api/games", {"daily": "2026-13-45"}, h),
        ("POST", "/api/games", {"colour": "red"}, h),
        ("POST", "/api/games", [1, 2], h),
        ("POST", f"/api/games/{gid}/moves", {"move": "fly away", "version": 0}, h),
        ("POST", f"/api/games/{gid}/moves", {"move": "play ZZ", "version": 0}, h),
        ("POST", f"/api/games/{gid}/moves", {"move": "bid 99", "version": 0}, h),
        ("POST", f"/api/games/{gid}/moves", {"move": "bid 3"}, h),
        ("POST", f"/api/games/{gid}/moves", {"move": None, "version": -1}, h),
        ("POST", f"/api/games/{gid}/moves", {"move": "bid 3", "version": 0}, other.headers),
        ("POST", "/api/games/999999/moves", {"move": "bid 3", "version": 0}, h),
        ("POST", "/api/games/notanumber/moves", {"move": "bid 3", "version": 0}, h),
        ("POST", f"/api/games/{gid}/next", {"version": 0}, h),
        ("PUT", "/api/settings", {"level": "godlike"}, h),
        ("PUT", "/api/settings", {"rules": {"preset": "nope"}}, h),
        ("PUT", "/api/settings", {"rules": {"options": {"target": "lots"}}}, h),
        ("PUT", "/api/settings", {"speed": 3}, h),
        ("GET", "/api/daily", None, h),
        ("GET", "/api/daily?day=yesterday", None, h),
    ]
    for method, path, body, headers in cases:
        r = client.request(method, path, json=body, headers=headers)
        assert 400 <= r.status_code < 500, (method, path, body, r.status_code, r.text)
        detail = r.json()["detail"]
        assert isinstance(detail, str) and len(detail) > 5, (path, detail)
    r = client.post("/api/games", content=b"{not json", headers=h | {"Content-Type": "application/json"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)


def test_openapi_and_the_pages_are_served(client: httpx.Client) -> None:
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/moves", "/api/stats", "/api/settings"} <= set(paths)
    page = client.get("/")
    assert page.status_code == 200 and "/static/js/main.js" in page.text
    assert "Spades" in client.get("/rules").text
    assert client.get("/static/js/cards.js").status_code == 200


@pytest.mark.parametrize("path", ["/", "/lobby", "/tournaments", "/tournaments/ABCDEF", "/leaderboard",
                                  "/scorekeeper", "/rules", "/games/1", "/@nobody"])
def test_every_page_names_the_manifest_that_installs_the_site(client: httpx.Client, path: str) -> None:
    # "Add to Home Screen" opens the site full screen, under its own name and icon, from any page
    page = client.get(path)
    assert '<link rel="manifest" href="/static/app.webmanifest">' in page.text, path
    manifest = client.get("/static/app.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    app = manifest.json()
    assert app["name"] == "Spades" and app["start_url"] == "/" and app["display"] == "standalone"
    for icon in app["icons"]:
        assert client.get(icon["src"]).headers["content-type"] == icon["type"]


def _deal_where_south_has_no_spades() -> int:
    """A deal number whose first hand gives South no spade (South bids first, as in the service)."""
    for deal in range(1, 20000):
        game = Game(Rules(), deal, first_dealer=1)
        if not game.hands[2] & game.spec.trumps:
            return deal
    raise AssertionError("no such deal")


def test_a_hand_without_spades_can_be_called_a_misdeal(client: httpx.Client) -> None:
    p = Player(client, rules={"preset": "standard", "options": {"misdeal_no_spades": True}})
    state = p.new_game(deal=_deal_where_south_has_no_spades())
    assert state["can_misdeal"] and not any(c.endswith("S") for c in state["hand"])
    out = p.move(state, "misdeal")
    assert out["events"][0]["kind"] == "misdeal" and out["state"]["hand"] != state["hand"]
    assert out["state"]["phase"] == "bid" and out["state"]["hand_number"] == 0


def test_ten_for_two_hundred_is_offered_to_the_second_partner(client: httpx.Client) -> None:
    p = Player(client, rules={"preset": "standard", "options": {"ten_for_two_hundred": True}})
    state = p.new_game(deal=12)
    assert "10 for 200" not in state["legal_bids"]
    state = p.move(state, "bid 3")["state"]
    state = play_hand(p, state)
    state = p.next_hand(state)["state"]  # South deals: North bids before South now
    assert state["seats"][0]["bid"] is not None and "10 for 200" in state["legal_bids"]


def test_a_huge_game_number_is_a_4xx(client: httpx.Client) -> None:
    p = Player(client)
    r = client.get(f"/api/games/{10**30}/hint", headers=p.headers)
    assert r.status_code == 422 and "game_id" in r.json()["detail"]


def two_cards_to_play(p: Player) -> dict[str, Any]:
    """Play deals until the player's turn comes with two cards left (a forced card may skip it)."""
    for deal in range(21, 61):
        state = p.new_game(deal=deal)
        while state["phase"] != "hand_over":
            if state["phase"] == "play" and len(state["hand"]) == 2 and state["turn"] == state["human"]:
                return state
            state = p.move(state, simple_move(state))["state"]
    raise AssertionError("no deal came to a turn with two cards left")


@pytest.mark.parametrize("auto", [True, False])
def test_an_only_legal_card_is_played_for_you_unless_turned_off(client: httpx.Client, auto: bool) -> None:
    p = Player(client, auto_play=auto)
    state = two_cards_to_play(p)
    out = p.move(state, "play " + state["legal"][0])
    if auto:
        assert out["state"]["phase"] == "hand_over"
        mine = [e for e in out["events"] if e["seat"] == state["human"]]
        assert len(mine) == 2 and mine[1]["text"].startswith("You play the ")
    else:
        assert out["state"]["phase"] == "play" and len(out["state"]["legal"]) == 1
        assert p.move(out["state"], "play " + out["state"]["legal"][0])["state"]["phase"] == "hand_over"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_plays_a_hand_against_the_computer(client: httpx.Client, preset: str) -> None:
    p = Player(client, rules={"preset": preset, "options": {}})
    state = play_hand(p, p.new_game(deal=17))
    assert state["rules_name"] == preset and len(state["sheet"]) == 1
    assert sum(len(h) for h in state["review"]["dealt"]) == PRESETS[preset].hand_size * state["players"]


@pytest.mark.parametrize("preset", ["three-player", "cutthroat"])
def test_a_game_without_partners_names_its_lone_winner(client: httpx.Client, preset: str) -> None:
    p = Player(client, rules={"preset": preset, "options": {"target": 40}})
    for deal in range(31, 51):
        state = p.new_game(deal=deal)
        while state["phase"] != "game_over":
            state = p.next_hand(state)["state"] if state["phase"] == "hand_over" else play_hand(p, state)
        winner = next(s["name"] for s in state["sides"] if s["side"] == state["winner"])
        assert state["message"] == ("You win the game!" if winner == "You" else f"{winner} wins the game.")
        if winner != "You":
            return
    raise AssertionError("the computer players never won a game")
