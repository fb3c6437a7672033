"""Reinforcement learning on the engine (the ``rl`` extra: ``pip install 'spades[rl]'``).

`env` and `raw_env` are a PettingZoo AEC environment, a seat's decision at a time;
`BatchEnv` plays many hands at once on the numpy fast path, for self-play. Both observe through
`spades.env.observation` and take the project's integer actions (`spades.moves`).
"""

from spades.env.aec import ACTIONS, env, raw_env
from spades.env.batch import BatchEnv

__all__ = ["ACTIONS", "BatchEnv", "env", "raw_env"]
