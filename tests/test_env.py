"""The PettingZoo AEC environment: PettingZoo's own API and seed tests under several rule sets, seeds
as deal numbers, rewards per hand and per game, passes card by card, refusals, and no hidden card
in any observation."""

import itertools
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test

from spades.cards import cards_of
from spades.env import ACTIONS, env, raw_env
from spades.env.observation import LAYOUT, SIZE
from spades.errors import IllegalMoveError, SpadesError
from spades.game import Game, Phase
from spades.rules import find_preset

DICT_OBSERVATIONS = ("Observation space for each agent probably should be",
                     "Observation is not a NumPy array")
"""api_test's two warnings for every dict observation (PettingZoo's own classic games are on a list
that silences them)."""
BLOCK = {b.name: b for b in LAYOUT}


def cards_in(obs: np.ndarray, name: str, place: int = 0) -> int:
    """The mask of the cards marked in one 54-card block (``place``: which of a per-seat run)."""
    start = BLOCK[name].start + 54 * place
    mask = 0
    for c in np.flatnonzero(obs[start:start + 54]):
        mask |= 1 << int(c)
    return mask


def random_walk(e: raw_env, rng: np.random.Generator) -> Iterator[tuple[str, float]]:
    """Step the environment with random legal actions to the episode's end, yielding each agent to
    act with the reward ``last`` gives it (all it was paid since it last acted)."""
    for agent in e.agent_iter():
        obs, reward, done, cut, _ = e.last()
        yield agent, reward
        e.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("rules", ["standard", "cutthroat", "three-player", "jokers", "pagat", "online",
                                   "two-player"])
def test_pettingzoos_api_test_passes(rules: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(rules=rules, seed=3), num_cycles=300)
    assert [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATIONS)] == []


def test_the_same_seed_plays_the_same_game() -> None:
    seed_test(lambda: env(rules="pagat", reward="game"), num_cycles=200)


def test_a_seed_is_a_deal_number() -> None:
    e = raw_env(rules="jokers", seed=1233)
    e.reset()
    assert e.game is not None and e.game.deal_number == 1234
    assert e.game.hands == Game(find_preset("jokers"), deal=1234).hands
    e.reset()
    assert e.game.deal_number == 1235
    e.reset(seed=0)
    assert e.game.deal_number == 1
    mine = e.observe(e.agent_selection)["observation"]
    assert cards_in(mine, "hand") == e.game.hands[int(e.agent_selection[-1])]


def test_a_hand_pays_each_seat_its_sides_points() -> None:
    e = raw_env(rules="cutthroat", seed=8)
    e.reset()
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent, reward in random_walk(e, np.random.default_rng(1)):
        paid[agent] += reward
    assert e.game is not None and len(e.game.history) == 1
    assert [paid[a] for a in e.possible_agents] == list(e.game.history[0].score.points)


def test_a_game_pays_each_hand_and_ends_with_the_score() -> None:
    e = raw_env(rules="standard", seed=2, reward="game")
    e.reset()
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent, reward in random_walk(e, np.random.default_rng(2)):
        paid[agent] += reward
    game = e.game
    assert game is not None and len(game.history) > 1
    assert [paid[a] for a in e.possible_agents] == [game.scores[s % 2] for s in range(4)]
    assert game.phase is Phase.GAME_OVER or len(game.history) == 40


def test_a_game_past_its_hands_is_truncated() -> None:
    e = raw_env(rules="standard", seed=2, reward="game", max_hands=2)
    e.reset()
    for _ in random_walk(e, np.random.default_rng(2)):
        pass
    assert e.game is not None and len(e.game.history) == 2
    assert e.game.phase is Phase.HAND_OVER


def test_a_nil_pass_is_picked_card_by_card() -> None:
    """Under the online rules a nil bidder and its partner trade two cards: two steps each."""
    e = raw_env(rules="online", seed=11)
    e.reset()
    game = e.game
    assert game is not None
    rng = np.random.default_rng(5)
    while game.phase is Phase.BID:
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(54 if not any(game.bids) and mask[54] else int(rng.choice(np.flatnonzero(mask))))
    assert game.phase is Phase.PASS
    giver = int(e.agent_selection[-1])
    first, second = [c for c in cards_of(game.hands[giver])][:2]
    e.step(first)
    obs = e.observe(e.agent_selection)
    assert cards_in(obs["observation"], "chosen") == 1 << first and game.passes == []
    assert obs["action_mask"][first] == 0 and obs["action_mask"][second] == 1
    for wrong in (first, True, "2C"):
        with pytest.raises(IllegalMoveError):
            e.step(wrong)
    e.step(second)
    assert game.passes == [(giver, (giver + 2) % 4, 1 << first | 1 << second)]
    assert cards_in(e.observe(e.possible_agents[giver])["observation"], "passed") == 1 << first | 1 << second


@pytest.mark.parametrize("rules", ["pagat", "online", "three-player", "two-player", "jokers-high-twos"])
def test_no_observation_holds_a_hidden_card(rules: str) -> None:
    """Over whole games, every seat's card blocks hold no card of another seat's hand (bar the cards
    it passed its partner itself), nor its own before it has looked; the mask is only its own."""
    e = raw_env(rules=rules, seed=40, reward="game", max_hands=4)
    e.reset()
    game = e.game
    assert game is not None
    seen = ("hand", "trick", "received", "offered", "discarded", "chosen")
    for agent, _ in random_walk(e, np.random.default_rng(7)):
        for s, other in enumerate(e.possible_agents):
            obs = e.observe(other)
            hidden = 0
            for t in range(game.players):
                if t != s:
                    hidden |= game.hands[t]
            if not game.looked[s] and game.phase is Phase.BID:
                hidden |= game.hands[s]
            marked = 0
            for name in seen:
                marked |= cards_in(obs["observation"], name)
            for place in range(4):
                marked |= cards_in(obs["observation"], "played", place)
            assert marked & hidden == 0, (agent, other)
            assert other == e.agent_selection or not obs["action_mask"].any()


def test_the_ansi_render_shows_only_what_the_table_shows() -> None:
    e = raw_env(rules="standard", seed=5, render_mode="ansi")
    e.reset()
    e.step(58)  # bid 4
    line = e.render()
    assert line is not None and line.startswith("hand 1, bid; scores [0, 0]; bids ") and "4" in line
    assert raw_env(seed=5).render() is None


def test_bad_arguments_and_illegal_actions_are_refused() -> None:
    with pytest.raises(SpadesError, match="reward"):
        raw_env(reward="trick")
    with pytest.raises(SpadesError, match="seed"):
        raw_env(seed=-1)
    with pytest.raises(SpadesError, match="preset"):
        raw_env(rules="no-such-rules")
    with pytest.raises(SpadesError, match="render mode"):
        raw_env(render_mode="human")
    e = raw_env(seed=4)
    with pytest.raises(SpadesError, match="Reset"):
        e.observe("player_0")
    e.reset()
    first, log = e.agent_selection, list(e.game.log) if e.game else []
    with pytest.raises(IllegalMoveError):
        e.step(0)  # a card, in the bidding
    assert e.game is not None and e.game.log == log and e.agent_selection == first
    wrapped = env(seed=4)
    wrapped.reset()
    wrapped.step(0)
    assert wrapped.terminations[first] and wrapped.rewards[first] == -1


def test_the_spaces_and_the_layout_agree() -> None:
    e = raw_env(rules="three-player", seed=1)
    e.reset()
    space, actions = e.observation_space("player_0"), e.action_space("player_0")
    assert isinstance(space, spaces.Dict) and isinstance(actions, spaces.Discrete)
    assert space["observation"].shape == (SIZE,) and actions.n == ACTIONS
    assert sum(b.size for b in LAYOUT) == SIZE
    assert all(a.start + a.size == b.start for a, b in itertools.pairwise(LAYOUT))
    assert space.contains(e.observe("player_2"))


def test_the_docs_table_is_the_layout() -> None:
    page = (Path(__file__).parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", page, flags=re.M)
    assert [(name, int(start), int(size)) for name, start, size in rows] == [
        (b.name, b.start, b.size) for b in LAYOUT]
    assert f"vector of {SIZE} numbers" in page
