"""Deserto as a PettingZoo AEC environment: ``cardtable.research.deserto_v0.env(players=2..4)``.

The generic multi-player environment of :mod:`cardtable.research.multiplayer_env`
for Deserto (``multiplayer_env.env("deserto", ...)`` is the same game), with
Deserto's own settings:

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

from typing import Any

from pettingzoo import AECEnv

from ..games.deserto import Deserto
from . import multiplayer_env
from .multiplayer_env import REWARDS

__all__ = ["REWARDS", "env", "raw_env"]


class raw_env(multiplayer_env.raw_env):
    """Deserto for 2-4 agents, without PettingZoo's checking wrappers (see the module docstring).

    >>> import numpy as np
    >>> env = raw_env(players=2); env.reset(seed=0)
    >>> mask = env.observe(env.agent_selection)["action_mask"]
    >>> env.step(int(np.flatnonzero(mask)[0])); env.agent_selection
    'player_1'
    """

    rules: Deserto

    def __init__(self, players: int = 2, render_mode: str | None = None, reward: str = "share", **options: Any) -> None:
        super().__init__("deserto", render_mode=render_mode, reward=reward, players=players, **options)


def env(
    players: int = 2, render_mode: str | None = None, reward: str = "share", **options: Any
) -> AECEnv[Any, Any, Any]:
    """Deserto with PettingZoo's usual wrappers (actions in range, order of calls enforced).

    >>> e = env(players=4); e.reset(seed=3); len(e.agents)
    4
    """
    return multiplayer_env.wrap(raw_env(players=players, render_mode=render_mode, reward=reward, **options))
