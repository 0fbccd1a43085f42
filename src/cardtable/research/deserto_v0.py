"""Deserto as a PettingZoo AEC environment: ``cardtable.research.deserto_v0.env(players=2..4)``.

- **Agents** ``player_0`` .. ``player_{n-1}``, the game's seats; the seat to
  move is ``agent_selection`` (a seat with no cards once the deck is empty is
  skipped, as the rules say).
- **Observations**: ``{"observation", "action_mask"}``; ``observation`` is the
  ``int16`` vector of :class:`~cardtable.research.observations.DesertoEncoder`
  (what that seat knows: its hand, the area, counts, the public captured
  cards, its own gifts), ``action_mask`` the legal actions of the 20
  (``int8``; all 0 for a seat not to move).
- **Actions**: the 20 of :mod:`cardtable.research.actions` (16 placements,
  then 4 gifts: a seat that cannot place gives a card, as an action). An
  illegal action raises :class:`~cardtable.core.errors.IllegalMoveError` and
  changes nothing.
- **Rewards**, at the end only: with ``reward="share"`` (default) each winner
  gets ``1 / number of winners`` (ties share), the others 0; with
  ``reward="margin"`` each seat gets its score (cards won) minus the best
  other seat's score, divided by 51.
- The deal comes from the environment's generator (``reset(seed=S)`` gives
  the same game everywhere) and is never shown to the agents. Deserto is
  played in turns, so there is no parallel version.

>>> from cardtable.research import deserto_v0
>>> env = deserto_v0.env(players=3)
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("player_0")["action_mask"].shape
('player_0', (20,))
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import IllegalMoveError, OptionError
from ..games.deserto import Deserto, DesertoState
from .actions import action_space
from .observations import DesertoEncoder

REWARDS = ("share", "margin")
"""The reward schemes."""


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """Deserto for 2-4 agents, without PettingZoo's checking wrappers (see the module docstring).

    >>> env = raw_env(players=2); env.reset(seed=0)
    >>> mask = env.observe(env.agent_selection)["action_mask"]
    >>> env.step(int(np.flatnonzero(mask)[0])); env.agent_selection
    'player_1'
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "deserto_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: str | None = None, reward: str = "share", **options: Any) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = Deserto(players=players, **options)
        self.render_mode = render_mode
        self.reward_scheme = reward
        self._space = action_space(self.rules)
        self._encoder = DesertoEncoder(self.rules)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, self._encoder.high, dtype=np.int16),
                "action_mask": spaces.Box(0, 1, shape=(self._space.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self._space.size) for a in self.possible_agents}
        self.state_: DesertoState | None = None
        self._no_moves = np.zeros(self._space.size, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(20)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, its deal drawn from the generator (seeded by ``seed``)."""
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        self.state_ = self.rules.deal(int(self._rng.integers(0, 2**63 - 1)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.state_ is not None
        turn = self.rules.to_move(self.state_)
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` sees now, with its legal actions."""
        assert self.state_ is not None
        seat = self.possible_agents.index(agent)
        state = self.state_
        mask = self._space.mask(self.rules.legal_moves(state)) if state.turn == seat else self._no_moves
        return {"observation": self._encoder.encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (None for an agent whose game has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None and action is not None
        rules, state = self.rules, self.state_
        move = self._space.action_to_move(action)
        if move not in rules.legal_moves(state):
            raise IllegalMoveError(f"illegal move {move}: {rules.explain_illegal(state, move)}")
        self.state_ = state = rules.apply(state, move)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        result = rules.result(state)
        if result is not None:
            self.rewards = dict(zip(self.agents, self._final_rewards(list(result.scores)), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def _final_rewards(self, scores: list[int]) -> list[float]:
        if self.reward_scheme == "share":
            best = max(scores)
            winners = scores.count(best)
            return [1.0 / winners if s == best else 0.0 for s in scores]
        return [(s - max(scores[:i] + scores[i + 1 :])) / 51 for i, s in enumerate(scores)]

    def render(self) -> str | None:
        """The table as the seat to move sees it, in ``ansi`` mode."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        turn = self.rules.to_move(self.state_)
        return self._encoder.text(self.state_, 0 if turn is None else turn)

    def close(self) -> None:
        """Nothing to release."""


def env(
    players: int = 2, render_mode: str | None = None, reward: str = "share", **options: Any
) -> AECEnv[Any, Any, Any]:
    """Deserto with PettingZoo's usual wrappers (actions in range, order of calls enforced).

    >>> e = env(players=4); e.reset(seed=3); len(e.agents)
    4
    """
    inner: AECEnv[Any, Any, Any] = raw_env(players=players, render_mode=render_mode, reward=reward, **options)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)
