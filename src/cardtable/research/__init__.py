"""For researchers: the games as Gymnasium, PettingZoo and OpenSpiel environments.

Every environment is made from the games' declarations (the one list of games,
:func:`cardtable.games.specs`). Importing this package registers the one-player
games with Gymnasium (:mod:`cardtable.research.solitaire_env`; :func:`register`
again, or :func:`make_env`, for a game added since); a multi-player game is a
PettingZoo AEC environment (:mod:`cardtable.research.multiplayer_env`; Deserto's
also :mod:`cardtable.research.deserto_v0`); the OpenSpiel games are in
:mod:`cardtable.research.openspiel`. Every one of them numbers moves by the
game's fixed action space (:mod:`cardtable.research.actions`) and observes only
what a player can see (:mod:`cardtable.research.observations`).
It needs the ``research`` extra: ``pip install -e '.[research]'``.

>>> import gymnasium, cardtable.research
>>> gymnasium.make("cardtable/Desturado-v0", mode="hard").action_space
Discrete(30)
"""

from .actions import ActionSpace, action_space, action_to_move, move_to_action
from .solitaire_env import ENV_IDS, SolitaireEnv, make_env, register

register()

__all__ = [
    "ENV_IDS",
    "ActionSpace",
    "SolitaireEnv",
    "action_space",
    "action_to_move",
    "make_env",
    "move_to_action",
    "register",
]
