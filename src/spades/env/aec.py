"""The PettingZoo AEC environment: a game of the engine, one seat's decision at a time.

Each agent ``player_i`` is seat ``i``. It observes a dict: ``observation``, the float32 vector of
`spades.env.observation` made from its `SeatView` alone, and ``action_mask``, 1 for each of the
project's integer actions (`spades.moves`) it may take now. The engine checks every action, so
the environment states no rule of its own. One exception to the actions: a pass of ``k`` cards
to a partner (one action ``128 + mask`` in `spades.moves`, too many for a mask) is ``k`` steps
here, each the card's number 0-53; the ``chosen`` block shows the cards picked so far.

Seeds map to deal numbers: `reset(seed=n)` plays deal number ``n + 1`` (seeds start at 0, deal
numbers at 1: seed 1233 is ``spades deal 1234``), and a reset without one plays the deal after
the last. Rewards: with ``reward="hand"`` an episode is one hand and each seat is paid its
side's points for it; with ``reward="game"`` an episode is a whole game, each hand's points are
paid as it ends (so the return is the side's final score), and a game still going after
``max_hands`` hands (by default the arena's cap on a deal) is truncated.

>>> e = raw_env(rules="standard", seed=7)
>>> e.reset()
>>> obs, reward, done, cut, info = e.last()
>>> e.agent_selection, obs["observation"].shape, [int(a) for a in obs["action_mask"].nonzero()[0][:3]]
('player_3', (743,), [54, 55, 56])
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spades.arena import GAME_HAND_CAP
from spades.deal import MAX_DEAL, check_deal_number
from spades.env.observation import LAYOUT, SIZE, encode, features_of_view, rule_flags
from spades.errors import IllegalMoveError, SpadesError
from spades.game import Game, Phase
from spades.moves import PassCards
from spades.rules import Rules, find_preset

Floats = npt.NDArray[np.float32]

__all__ = ["ACTIONS", "REWARDS", "deal_of_seed", "env", "observation_bounds", "raw_env",
           "rules_of"]

ACTIONS = 78
"""The actions 0-77 of `spades.moves`: plays 0-53, bids 54-73, look 74, misdeal 75, draw 76 and 77."""
REWARDS = ("hand", "game")
_NUMERIC = {"tricks_won", "scores", "bags", "state", "rules"}
"""The blocks that hold counts rather than 0/1 marks."""


def observation_bounds() -> tuple[Floats, Floats]:
    """Each number's least and greatest value: 0/1 marks, counts from 0, scores of any sign."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.ones(SIZE, dtype=np.float32)
    for block in LAYOUT:
        if block.name in _NUMERIC:
            high[block.start:block.start + block.size] = np.inf
        if block.name == "scores":
            low[block.start:block.start + block.size] = -np.inf
    return low, high


def deal_of_seed(seed: object) -> int:
    """The deal number a seed plays: ``seed + 1`` (a SpadesError for what is not a seed)."""
    if isinstance(seed, np.integer):
        seed = int(seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_DEAL:
        raise SpadesError(f"A seed is a whole number from 0 to {MAX_DEAL - 1}, not {seed!r}.")
    return check_deal_number(seed + 1)


def rules_of(rules: Rules | str | None) -> Rules:
    """A rules value from itself, a preset's name, or the standard preset for None."""
    if rules is None or isinstance(rules, str):
        return find_preset(rules or "standard")
    if not isinstance(rules, Rules):
        raise SpadesError(f"Rules are a Rules value or a preset's name, not {rules!r}.")
    return rules


class raw_env(AECEnv):  # type: ignore[misc]
    """Spades as a PettingZoo AEC environment; `env` wraps it as PettingZoo's classic games are."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "spades_v0",
                                          "is_parallelizable": False}

    def __init__(self, rules: Rules | str | None = None, seed: int | None = None, reward: str = "hand",
                 max_hands: int = GAME_HAND_CAP, render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise SpadesError(f"The reward is 'hand' or 'game', not {reward!r}.")
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise SpadesError(f"max_hands is a whole number from 1, not {max_hands!r}.")
        if render_mode not in (None, "ansi"):
            raise SpadesError(f"The render mode is 'ansi' or None, not {render_mode!r}.")
        self.rules = rules_of(rules)
        self._flags = rule_flags(self.rules)
        self.reward_kind = reward
        self.max_hands = max_hands
        self.render_mode = render_mode
        self._next_deal = secrets.randbelow(MAX_DEAL) + 1 if seed is None else deal_of_seed(seed)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = list(self.possible_agents)
        low, high = observation_bounds()
        space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, shape=(SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self._chosen = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same dict space for every seat."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete(78): the integer actions 0-77."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the seed's deal number (`deal_of_seed`) if given, else the one after the last."""
        deal = self._next_deal if seed is None else deal_of_seed(seed)
        self._next_deal = deal % MAX_DEAL + 1
        self.game = Game(self.rules, deal=deal)
        self._chosen = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _playing(self) -> Game:
        """The game under way (reset must come first)."""
        if self.game is None:
            raise SpadesError("Reset the environment before using it.")
        return self.game

    def _select(self) -> None:
        """The agent to move is the seat whose turn it is."""
        turn = self._playing().turn
        assert turn is not None, "a hand under way has a seat to move"
        self.agent_selection = self.possible_agents[turn]

    def legal_actions(self, agent: str) -> list[int]:
        """The actions the agent may take now (none unless it is the one to move)."""
        game = self._playing()
        if agent != self.agent_selection or self.terminations.get(agent, True) or self.truncations[agent]:
            return []
        seat = self._seats[agent]
        if game.phase is Phase.PASS:
            hand = game.hands[seat] & ~self._chosen
            return [c for c in range(54) if hand >> c & 1]
        return game.legal_actions(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation vector (from its seat's view alone) and action mask."""
        game = self._playing()
        seat = self._seats[agent]
        chosen = self._chosen if game.phase is Phase.PASS and game.turn == seat else 0
        mask = np.zeros(ACTIONS, dtype=np.int8)
        mask[self.legal_actions(agent)] = 1
        return {"observation": encode(features_of_view(game.view(seat), self._flags, chosen))[0],
                "action_mask": mask}

    def step(self, action: Any) -> None:
        """Take the action for the agent to move; an illegal one raises the engine's error."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._playing()
        seat = self._seats[agent]
        if game.phase is Phase.PASS:
            self._pick(game, seat, action)
        else:
            game.apply_action(int(action) if isinstance(action, np.integer) else action, seat)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self._end_hand(game)
        else:
            self._select()
        self._accumulate_rewards()

    def _pick(self, game: Game, seat: int, action: Any) -> None:
        """One card of a pass: picked, and the pass made once it holds enough."""
        if isinstance(action, np.integer):
            action = int(action)
        if isinstance(action, bool) or action not in self.legal_actions(self.possible_agents[seat]):
            raise IllegalMoveError(f"Pass a card you hold and have not picked (0-53), not {action!r}.")
        self._chosen |= 1 << action
        if self._chosen.bit_count() == game.pass_count(seat):
            game.apply(seat, PassCards(self._chosen))
            self._chosen = 0

    def _end_hand(self, game: Game) -> None:
        """Pay the hand's points; end the episode, or deal the next hand of the game."""
        points = game.history[-1].score.points
        for s, agent in enumerate(self.possible_agents):
            self.rewards[agent] = points[self.rules.side_of(s)]
        over = self.reward_kind == "hand" or game.phase is Phase.GAME_OVER
        cut = not over and len(game.history) >= self.max_hands
        if over or cut:
            self.terminations = dict.fromkeys(self.agents, over)
            self.truncations = dict.fromkeys(self.agents, cut)
            self._deads_step_first()
            return
        game.next_hand()
        self._select()

    def render(self) -> str | None:
        """In ``ansi`` mode, the table as everyone at it sees it: scores, bids, the trick."""
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        bids = ", ".join("-" if b is None else str(b) for b in game.bids)
        trick = " ".join(str(c) for _, c in game.trick)
        return (f"hand {game.hand_number + 1}, {game.phase.value}; scores {list(game.scores)}; "
                f"bids {bids}; trick {trick or '-'}")

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> AECEnv:
    """`raw_env` in PettingZoo's wrappers: an illegal move ends the game with -1 for its agent,
    actions are checked against the space, and the API's order is enforced."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
