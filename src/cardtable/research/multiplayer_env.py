"""Any multi-player game as a PettingZoo AEC environment: ``multiplayer_env.env(game, **options)``.

Every game of the one list of games (:func:`cardtable.games.specs`) with more
than one seat and an action space (``action_moves`` in its
:class:`~cardtable.core.spec.GameSpec`) is served, a game registered later
too; Deserto's is also :mod:`cardtable.research.deserto_v0`.

- **Agents** ``player_0`` .. ``player_{n-1}``, the game's seats; the seat to
  move (the rules' ``to_move``) is ``agent_selection``.
- **Observations**: ``{"observation", "action_mask"}``; ``observation`` is the
  ``int16`` vector of the game's encoder
  (:func:`~cardtable.research.observations.seat_encoder`: the one its
  declaration names, or the generic
  :class:`~cardtable.research.observations.ViewEncoder` of the seat's view),
  what that seat knows and nothing more; ``action_mask`` the legal actions
  (``int8``; all 0 for a seat not to move).
- **Actions**: the game's fixed action space (:mod:`cardtable.research.actions`).
  An illegal action raises :class:`~cardtable.core.errors.IllegalMoveError` and
  changes nothing.
- **Rewards**, at the end only (the rules' ``result``): with ``reward="share"``
  (default) each winner gets ``1 / number of winners`` (ties share), the others
  0; with ``reward="margin"`` each seat gets its score minus the best other
  seat's score, divided by the number of cards in the game.
- The deal comes from the environment's generator (``reset(seed=S)`` gives
  the same game everywhere) and is never shown to the agents. The games are
  played in turns, so there is no parallel version.

>>> e = env("deserto", players=3)
>>> e.reset(seed=1)
>>> e.agent_selection, e.observe("player_0")["action_mask"].shape, e.metadata["name"]
('player_0', (20,), 'deserto_v0')
>>> env("klondike")
Traceback (most recent call last):
...
cardtable.core.errors.OptionError: klondike is a game for one player: use Gymnasium (cardtable.research.make_env)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import IllegalMoveError, OptionError
from ..core.inputs import check_int, quote
from ..core.multiplayer import MultiplayerRules
from ..games import spec_for
from .actions import action_space
from .observations import seat_encoder

REWARDS = ("share", "margin")
"""The reward schemes."""


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """A multi-player game, without PettingZoo's checking wrappers (see the module docstring).

    >>> e = raw_env("deserto", players=2); e.reset(seed=0)
    >>> mask = e.observe(e.agent_selection)["action_mask"]
    >>> e.step(int(np.flatnonzero(mask)[0])); e.agent_selection
    'player_1'
    """

    def __init__(self, game: str, render_mode: str | None = None, reward: str = "share", **options: Any) -> None:
        super().__init__()
        spec = spec_for(game)
        if spec.one_player:
            raise OptionError(f"{spec.name} is a game for one player: use Gymnasium (cardtable.research.make_env)")
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        rules = spec.rules(**options)
        assert isinstance(rules, MultiplayerRules)
        self.rules: MultiplayerRules[Any, Any] = rules
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        self.reward_scheme = reward
        self._space = action_space(rules)
        self._encoder = seat_encoder(rules)
        self._cards = len(rules.deck())
        self.possible_agents = [f"player_{s}" for s in range(rules.players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(self._encoder.low, self._encoder.high, dtype=np.int16),
                "action_mask": spaces.Box(0, 1, shape=(self._space.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self._space.size) for a in self.possible_agents}
        self.state_: Any = None
        """The rules' position now (None before the first ``reset``)."""
        self._no_moves = np.zeros(self._space.size, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(n)``, the game's action space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, its deal drawn from the generator (seeded by ``seed``, a whole number of
        at least 0; another seed is refused, :class:`OptionError`, before anything changes).
        ``options`` are taken and not used: there are none, and PettingZoo's API test passes
        some to see that a reset takes them."""
        if seed is not None:
            check_int(seed, "seed", OptionError, 0)
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
        turn = self.rules.to_move(self.state_)
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` sees now, with its legal actions."""
        self._check_started()
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {quote(agent)} (agents: {', '.join(self.possible_agents)})")
        seat = self.possible_agents.index(agent)
        rules, state = self.rules, self.state_
        mask = self._space.mask(rules.legal_moves(state)) if rules.to_move(state) == seat else self._no_moves
        return {"observation": self._encoder.encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (None for an agent whose game has ended).
        Before ``reset``, and once every agent has left the ended game, ``ResetNeeded``."""
        self._check_started()
        if not self.agents:
            raise ResetNeeded("the game has ended and every agent has left: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move: give an action, not None")
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

    def _check_started(self) -> None:
        if self.state_ is None:
            raise ResetNeeded("call reset() first")

    def _final_rewards(self, scores: list[int]) -> list[float]:
        if self.reward_scheme == "share":
            best = max(scores)
            winners = scores.count(best)
            return [1.0 / winners if s == best else 0.0 for s in scores]
        return [(s - max(scores[:i] + scores[i + 1 :])) / self._cards for i, s in enumerate(scores)]

    def render(self) -> str | None:
        """The table as the seat to move sees it, in ``ansi`` mode."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        turn = self.rules.to_move(self.state_)
        return self._encoder.text(self.state_, 0 if turn is None else turn)

    def close(self) -> None:
        """Nothing to release."""


def wrap(inner: AECEnv[Any, Any, Any]) -> AECEnv[Any, Any, Any]:
    """``inner`` with PettingZoo's order of calls enforced. Not its ``AssertOutOfBoundsWrapper``:
    the environment checks every action itself (``TypeError`` for what is no whole number,
    ``ValueError`` out of range, :class:`IllegalMoveError` for an illegal one), where that
    wrapper's ``assert`` gave an ``AssertionError``, or nothing under ``python -O``.

    >>> type(wrap(raw_env("deserto"))).__name__
    'OrderEnforcingWrapper'
    """
    return wrappers.OrderEnforcingWrapper(inner)


def env(game: str, render_mode: str | None = None, reward: str = "share", **options: Any) -> AECEnv[Any, Any, Any]:
    """A multi-player game with PettingZoo's usual wrappers; ``options`` are the game's.

    >>> e = env("deserto", players=4); e.reset(seed=3); len(e.agents)
    4
    """
    return wrap(raw_env(game, render_mode=render_mode, reward=reward, **options))
