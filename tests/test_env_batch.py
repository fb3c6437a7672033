"""The batched environment is the AEC environment's hand in rows: for the same seeds and actions, the
same seats to move, observations, masks and rewards; and it refuses what it cannot play."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.env import BatchEnv, raw_env
from spades.errors import IllegalMoveError, RulesError, SpadesError


def play_both(rules: str, seeds: list[int], choice_seed: int) -> BatchEnv:
    """Play the seeds' hands in a batch and in one AEC environment each, the batch's random legal
    actions in both, checking at every step that they agree."""
    batch = BatchEnv(rules, rows=len(seeds))
    batch.reset(seeds=seeds)
    envs = [raw_env(rules=rules, seed=s) for s in seeds]
    for e in envs:
        e.reset()
    rng = np.random.default_rng(choice_seed)
    while not batch.done:
        obs, mask = batch.observe(), batch.action_mask()
        for i, e in enumerate(envs):
            assert e.agent_selection == f"player_{batch.turn[i]}"
            mine = e.observe(e.agent_selection)
            np.testing.assert_array_equal(mine["observation"], obs[i])
            np.testing.assert_array_equal(mine["action_mask"].astype(bool), mask[i])
        actions = batch.random_actions(rng)
        batch.step(actions)
        for e, a in zip(envs, actions, strict=True):
            e.step(int(a))
    for i, e in enumerate(envs):
        for s, agent in enumerate(e.possible_agents):
            assert e.rewards[agent] == batch.rewards[i, s]
            np.testing.assert_array_equal(e.observe(agent)["observation"], batch.observe([s] * len(seeds))[i])
    return batch


@pytest.mark.parametrize("rules", ["standard", "cutthroat", "jokers", "suicide", "whiz", "bicycle"])
def test_the_batch_plays_the_aec_hand(rules: str) -> None:
    batch = play_both(rules, [0, 7, 1233], choice_seed=1)
    assert batch.rewards.shape == (3, 4)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(0, 2**40), min_size=1, max_size=4), choice=st.integers(0, 2**32))
def test_any_seeds_and_actions_agree(seeds: list[int], choice: int) -> None:
    play_both("parlor", seeds, choice)


def test_random_deals_play_whole_hands() -> None:
    batch = BatchEnv("cutthroat", rows=200)
    rng = np.random.default_rng(3)
    batch.reset(rng=rng)
    steps = 0
    while not batch.done:
        batch.step(batch.random_actions(rng))
        steps += 1
    assert steps == 4 + 52
    assert (batch.observe()[:, :54] == 0).all()  # every card played
    assert not batch.action_mask().any()


def test_what_it_cannot_play_is_refused() -> None:
    for rules in ("pagat", "online", "two-player", "three-player"):
        with pytest.raises(RulesError, match="batched environment"):
            BatchEnv(rules, rows=2)
    with pytest.raises(SpadesError, match="rows"):
        BatchEnv("standard", rows=0)
    batch = BatchEnv("standard", rows=2)
    with pytest.raises(SpadesError, match="one of the two"):
        batch.reset()
    with pytest.raises(SpadesError, match="2 seeds"):
        batch.reset(seeds=[1])
    batch.reset(seeds=[1, 2])
    before = batch.observe()
    with pytest.raises(IllegalMoveError, match="Row 1"):
        batch.step(np.array([55, 0]))  # a card in the bidding
    with pytest.raises(SpadesError, match="one whole-number action a row"):
        batch.step(np.array([55.0, 56.0]))
    np.testing.assert_array_equal(batch.observe(), before)
