"""The computer players' random numbers, seeded at their first draw: the same as seeded at once."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from spades.server.service import SeededOnUse

_DRAWS = st.lists(st.sampled_from(["random", "choice", "sample", "shuffle", "bits", "bytes", "state"]),
                  max_size=8)


@given(st.text(max_size=20), _DRAWS)
def test_draws_are_those_of_a_generator_seeded_at_once(seed: str, draws: list[str]) -> None:
    """Any mix of draws gives what ``random.Random(seed)`` gives, in the same order."""
    lazy, eager = SeededOnUse(seed), random.Random(seed)
    for draw in draws:
        assert _draw(lazy, draw) == _draw(eager, draw), draw


def _draw(rng: random.Random, draw: str) -> object:
    """One draw of a kind from a generator."""
    if draw == "random":
        return rng.random()
    if draw == "choice":
        return rng.choice(range(52))
    if draw == "sample":
        return rng.sample(range(13), 3)
    if draw == "shuffle":
        cards = list(range(13))
        rng.shuffle(cards)
        return cards
    if draw == "bits":
        return rng.getrandbits(70)
    if draw == "bytes":
        return rng.randbytes(5)
    return rng.getstate()
