"""Hosted Swiss (fixed pairs and individual) and teams of four over real HTTP, on SQLite and PostgreSQL:
the host hands every seat to a computer player so the rounds play themselves, and the test computes the
standings, the byes and the pairings from the results' own lines."""

from __future__ import annotations

import csv
import io
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

from server.tables_client import run_async
from server.test_tournaments import PEOPLE, create, held, look, register
from server.test_tournaments_live import Page
from spades.server.run import BackgroundServer


def start_with_computers(client: httpx.Client, code: str, host: str, people: int) -> None:
    """Start, and let a computer player play for everyone from now on."""
    hosted = {"X-Host-Token": host}
    started = client.post(f"/api/tournaments/{code}/start", headers=hosted)
    assert started.status_code == 204, started.text
    for number in range(people):
        assert client.delete(f"/api/tournaments/{code}/entries/{number}", headers=hosted).status_code == 204


def play_through(client: httpx.Client, code: str, host: str, people: int) -> dict[str, Any]:
    """Start, let a computer player play for everyone, and wait until the tournament is over."""
    start_with_computers(client, code, host, people)
    deadline = time.monotonic() + 120
    while (now := look(client, code))["status"] != "over":
        assert time.monotonic() < deadline, now["tables"]
        time.sleep(0.3)
    return now


def matches(results: dict[str, Any], individual: bool) -> list[dict[str, tuple[bool, int]]]:
    """Each match (a round's lines between the same sides): each entrant's side in it (North-South at the
    match's first table or not) and its margin, the results of its side added up."""
    by_match: dict[tuple[int, frozenset[str]], list[dict[str, Any]]] = defaultdict(list)
    for board in results["travellers"]:
        for line in board["lines"]:
            by_match[line["round"], frozenset((line["ns"], line["ew"]))].append(line)
    out = []
    for lines in by_match.values():
        first_ns = lines[0]["ns"]
        total = sum(line["ns_result"] if line["ns"] == first_ns else -line["ns_result"] for line in lines)
        split = (lambda side: side.split(" & ")) if individual else (lambda side: [side])
        out.append({name: (side == first_ns, total if side == first_ns else -total)
                    for side in (first_ns, lines[0]["ew"]) for name in split(side)})
    return out


def expected_standings(results: dict[str, Any], individual: bool) -> list[tuple[str, int, int, int]]:
    """The standings as the test works them out: (name, points, margin, Buchholz), ranked by points, margin,
    Buchholz, then entry order; a match won is 2 points, tied 1, and a bye 1."""
    names = [e["name"] for e in results["entries"]]
    points, margin = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
    met: dict[str, list[str]] = defaultdict(list)
    for match in matches(results, individual):
        for name, (side, m) in match.items():
            points[name] += 2 if m > 0 else m == 0
            margin[name] += m
            met[name] += [o for o, (other, _) in match.items() if other != side]
    for r in results["rounds"]:
        for name in r["byes"]:
            points[name] += 1
    buchholz = {n: sum(points[o] for o in met[n]) for n in names}
    order = sorted(names, key=lambda n: (-points[n], -margin[n], -buchholz[n], names.index(n)))
    return [(n, points[n], margin[n], buchholz[n]) for n in order]


def upto(results: dict[str, Any], rounds: int) -> dict[str, Any]:
    """The results as they stood after the first ``rounds`` rounds."""
    return {**results, "rounds": results["rounds"][:rounds],
            "travellers": [{**b, "lines": [line for line in b["lines"] if line["round"] <= rounds]}
                           for b in results["travellers"]]}


def shown(results: dict[str, Any]) -> list[tuple[str, int, int, int]]:
    """The standings as the server shows them."""
    return [(s["name"], s["score"], s["margin"], s["buchholz"]) for s in results["standings"]]


def test_fixed_pair_swiss_pairs_by_the_standings_and_gives_byes(client: httpx.Client) -> None:
    code, host = create(client, format="swiss", rounds=3, boards=1, level="random")
    register(client, code, PEOPLE[:6])  # three pairs: one sits out each round
    final = play_through(client, code, host, 6)
    results = final["results"]
    assert results["format"] == "swiss" and [p["entrant"] for p in final["people"]] == [1, 1, 2, 2, 3, 3]
    assert shown(results) == expected_standings(results, individual=False)
    rounds = results["rounds"]
    assert [len(r["byes"]) for r in rounds] == [1, 1, 1] and len({r["byes"][0] for r in rounds}) == 3
    assert rounds[0]["byes"] == ["Eve & Fay"]  # round one: the entry order, the last one sits out
    for r in range(1, 3):  # later rounds: the lowest-placed of those with the fewest byes sits out
        order = [s[0] for s in expected_standings(upto(results, r), individual=False)]
        had = Counter(n for past in rounds[:r] for n in past["byes"])
        assert rounds[r]["byes"] == [[n for n in order if had[n] == min(had[m] for m in order)][-1]]
        (table,) = rounds[r]["tables"]
        assert order.index(table["ns"]) < order.index(table["ew"])  # the higher-placed pair sits North-South
    meetings = [frozenset((t["ns"], t["ew"])) for r in rounds for t in r["tables"]]
    assert len(set(meetings)) == 3  # three pairs meet each other once over three rounds


def test_individual_swiss_never_repeats_a_partnership(client: httpx.Client) -> None:
    code, host = create(client, format="swiss", individual=True, rounds=3, boards=1, level="random")
    register(client, code, PEOPLE[:5])  # one table of four, one person sitting out each round
    final = play_through(client, code, host, 5)
    results = final["results"]
    assert results["individual"] and [s["name"] for s in results["standings"]] != []
    assert shown(results) == expected_standings(results, individual=True)
    partnerships = [frozenset(side.split(" & ")) for r in results["rounds"] for t in r["tables"]
                    for side in (t["ns"], t["ew"])]
    assert len(partnerships) == 6 and len(set(partnerships)) == 6
    assert sorted(n for r in results["rounds"] for n in r["byes"]) == sorted(set(
        n for r in results["rounds"] for n in r["byes"]))  # nobody sits out twice while others have not


def test_teams_play_each_deal_at_two_tables_with_the_seats_swapped(client: httpx.Client) -> None:
    code, host = create(client, format="teams", rounds=2, boards=2, level="random", turn_seconds=5)
    register(client, code, PEOPLE[:5])  # Ann's four, and Eve with three computer players
    final = play_through(client, code, host, 5)
    results = final["results"]
    teams = ["Ann, Bob, Cal & Dee", "Eve, Computer, Computer & Computer"]
    assert [e["name"] for e in results["entries"]] == teams
    for board in results["travellers"]:
        first, second = board["lines"]
        assert (first["ns"], first["ew"]) == (second["ew"], second["ns"])  # the seats swapped
        assert held(first) == held(second)  # the same cards at both tables
        assert first["margin"] == first["ns_result"] - second["ns_result"] == -second["margin"]
    assert shown(results) == expected_standings(results, individual=False)
    assert [len(r["tables"]) for r in results["rounds"]] == [2, 2]
    assert final["repeats"] is True  # two teams meet again: no other pairing exists, and it goes on
    standings = list(csv.DictReader(io.StringIO(client.get(f"/api/tournaments/{code}/standings.csv").text)))
    assert [(r["name"], int(r["score"]), int(r["margin"]), int(r["buchholz"])) for r in standings] \
        == shown(results)
    travellers = list(csv.DictReader(io.StringIO(client.get(f"/api/tournaments/{code}/travellers.csv").text)))
    assert len(travellers) == 2 * 2 * 2  # two rounds of two boards at two tables
    assert all(r["matchpoints_ns"] == "" for r in travellers)  # a match adds up, no matchpoints
    assert client.get(f"/api/tournaments/{code}/results.pdf").content[:5] == b"%PDF-"


def test_swiss_refusals_say_why_and_change_nothing(client: httpx.Client) -> None:
    refused = client.post("/api/tournaments", json={"name": "x", "format": "teams", "individual": True})
    assert refused.status_code == 400 and "Only Swiss" in refused.json()["detail"]
    code, host = create(client, format="swiss", individual=True, rounds=4, boards=1)
    hosted = {"X-Host-Token": host}
    register(client, code, PEOPLE[:3])
    few = client.post(f"/api/tournaments/{code}/start", headers=hosted)
    assert few.status_code == 409 and "at least 4 people (a table of four)" in few.json()["detail"]
    register(client, code, ["Dee"])
    many = client.post(f"/api/tournaments/{code}/start", headers=hosted)
    assert many.status_code == 409 and "4 people cannot be paired for 4 rounds" in many.json()["detail"]
    twice = client.post(f"/api/tournaments/{code}/entries", json={"name": "DEE"})
    assert twice.status_code == 409 and look(client, code)["status"] == "open"
    register(client, code, ["Eve"])
    assert client.post(f"/api/tournaments/{code}/start", headers=hosted).status_code == 204
    late = client.post(f"/api/tournaments/{code}/entries", json={"name": "Zed"})
    assert late.status_code == 409 and "registration is closed" in late.json()["detail"]
    now = look(client, code)
    assert now["status"] == "playing" and now["byes"] == ["Eve"] and len(now["tables"]) == 1
    assert now["results"]["rounds"][0]["deals"] == []  # one deal number would give the seed away
    target = client.post("/api/tournaments", json={"name": "x", "format": "teams", "to_target": True})
    assert target.status_code == 400 and "Only Swiss plays its rounds to a target" in target.json()["detail"]


def test_a_swiss_round_to_a_target_counts_the_game_its_table_was_dealt(client: httpx.Client) -> None:
    code, host = create(client, format="swiss", to_target=True, rounds=1, level="random", turn_seconds=5,
                        options={"target": 50, "low_mark": -50})  # the next hand is dealt 5 s after the last
    hosted = {"X-Host-Token": host}
    tokens = register(client, code, PEOPLE[:4])
    assert client.post(f"/api/tournaments/{code}/start", headers=hosted).status_code == 204
    you = look(client, code, tokens["Ann"])["you"]
    seat = {"X-Seat-Token": you["token"]}
    for number in range(4):
        assert client.delete(f"/api/tournaments/{code}/entries/{number}", headers=hosted).status_code == 204
    deadline = time.monotonic() + 120
    while (view := client.get(f"/api/tables/{you['code']}/view", headers=seat).json())["game"]["phase"] \
            != "game_over":
        assert time.monotonic() < deadline, view["game"]["sides"]
        time.sleep(0.3)
    dealt = view["deal"]  # shown to the table once its game is over
    rematch = client.post(f"/api/tables/{you['code']}/commands", json={"do": "rematch"}, headers=seat)
    assert rematch.status_code == 409 and "no rematch" in rematch.json()["detail"]  # the round is its game
    assert view["tournament"] == code  # the page's way back
    final = look(client, code)
    assert final["status"] == "over" and final["to_target"] and final["boards"] == 0
    (board,) = final["results"]["travellers"]
    assert board["deal"] == dealt > 0
    totals = [sum(line["points"][side] for line in board["lines"]) for side in (0, 1)]
    assert totals == [s["score"] for s in sorted(view["game"]["sides"], key=lambda s: s["side"])]
    assert max(totals) >= 50 or min(totals) <= -50  # the target reached, or the low mark
    assert shown(final["results"]) == expected_standings(final["results"], individual=False)
    assert final["results"]["standings"][0]["score"] == 2  # the game's winner


def test_a_page_follows_a_round_to_a_target_hand_by_hand(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path / "spades.sqlite3") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        code, host = create(client, format="swiss", to_target=True, rounds=1, level="random", turn_seconds=5,
                            options={"target": 300, "low_mark": -300})  # no hand scores 300: two at least
        register(client, code, PEOPLE[:4])

        async def follow() -> list[dict[str, Any]]:
            page = await Page.open(server.url, code)
            await page.until(lambda t: t["status"] == "open")
            start_with_computers(client, code, host, 4)
            # each hand the table plays, and the game's end, come sooner than the quiet look would
            await page.until(lambda t: t["status"] == "over")
            await page.ws.close()
            return [m["tournament"] for m in page.seen]

        seen = run_async(follow())
    hands = [t["tables"][0]["played"] for t in seen if t["status"] == "playing" and t["tables"]]
    assert 1 in hands and hands == sorted(hands)  # the first hand's end was told while the game went on
    assert seen[-1]["results"]["standings"][0]["score"] == 2


def test_ending_a_round_to_a_target_counts_each_game_as_it_stands(client: httpx.Client) -> None:
    code, host = create(client, format="swiss", individual=True, to_target=True, rounds=2, level="random",
                        turn_seconds=600, options={"target": 300, "low_mark": -300})  # one hand, then a wait
    register(client, code, PEOPLE[:4])
    start_with_computers(client, code, host, 4)
    deadline = time.monotonic() + 60
    while (now := look(client, code))["tables"][0]["played"] == 0:
        assert time.monotonic() < deadline, now["tables"]
        time.sleep(0.3)
    assert now["results"]["travellers"] == []  # a game counts once it is over...
    ended = client.post(f"/api/tournaments/{code}/end-round", headers={"X-Host-Token": host})
    assert ended.status_code == 204
    after = look(client, code)  # ...or as it stood when the host ended the round
    assert after["round"] == 2 and after["tables"][0]["code"] != now["tables"][0]["code"]
    (board,) = after["results"]["travellers"]
    assert len(board["lines"]) == 1 and board["deal"] == 0  # one hand; its deal number secret until the end
    assert shown(after["results"]) == expected_standings(after["results"], individual=True)
    partners = [frozenset(side.split(" & ")) for r in after["results"]["rounds"] for t in r["tables"]
                for side in (t["ns"], t["ew"])]
    assert len(set(partners)) == 4  # round two gives everyone a new partner
