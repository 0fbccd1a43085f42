"""Gymnasium environments for the one-player games.

Every one-player game whose declaration (:class:`~cardtable.core.spec.GameSpec`)
names a ``gymnasium_id`` is registered on ``import cardtable.research``:
``cardtable/Klondike-v0``, ``cardtable/Desturado-v0``,
``cardtable/Demonthief-v0``, ``cardtable/DemonsAndThieves-v0`` and
``cardtable/DevilsSquare-v0`` (:func:`register` again, or :func:`make_env`,
registers a game added since); keyword arguments of ``gymnasium.make`` are the
game's options (``draw=3``, ``mode="hard"``...) and the environment's own
settings below.

- **Actions**: ``Discrete(n)``, the game's fixed action space
  (:mod:`cardtable.research.actions`). ``info["action_mask"]`` (``int8``, 1 for
  a legal action) comes with every observation. An illegal action changes
  nothing, costs ``illegal_reward`` (default -1) and sets ``info["illegal"]``.
- **Observations**: the ``int16`` vector of the game's encoder
  (:func:`~cardtable.research.observations.solitaire_encoder`: unless the game
  declares its own, :class:`~cardtable.research.observations.SolitaireEncoder`,
  where face-down cards are 1 whatever they are). ``render()`` (``render_mode="ansi"``) gives the
  position as the player sees it, as text.
- **Rewards**: the change of the game's first progress number (cards to the
  foundations in Klondike and Demonthief, a card back to a foundation is -1;
  cards into the hand in Desturado; books made in Devil's Square), plus
  ``win_bonus`` (default 10) for the move that wins.
- **Episodes** end with ``terminated`` when the game is over exactly as the
  library says (``outcome.over``: won, or no sequence of moves can make
  progress any more), and with ``truncated`` after ``max_steps`` steps
  (default 1000). Deciding "over" is a search of the positions reachable
  without progress, after every move, made cheap without changing its answer
  by :class:`~cardtable.research.over.EpisodeOver` (answers remembered for the
  episode, the game's compiled search, the stretch of play since the last
  progress); ``over_limit`` (default the library's 200,000 positions) bounds
  it. A search that reaches the bound answers "not over", so a smaller bound
  never ends a game that could go on: it only lets some lost games run to
  ``max_steps``.
- **Deals**: ``reset(seed=S)`` draws the deal number from the environment's
  generator, so a seed gives the same deal everywhere; ``options={"deal": N}``
  plays deal ``N``, ``options={"level": "hard"}`` a deal of that level
  (:func:`cardtable.deal_for_level`, its seed drawn from the generator). A
  deal drawn from the seed is never over before its first move (a few
  Desturado deals are: the next number is drawn); a deal given by number or
  level may be, and then ``info["over"]`` is True at once and any step ends
  the episode.

>>> import gymnasium, cardtable.research
>>> env = gymnasium.make("cardtable/DevilsSquare-v0")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, info["deal"] == env.reset(seed=1)[1]["deal"]
((1090,), (720,), True)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, SupportsFloat, overload

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core.errors import OptionError
from ..core.inputs import check_int, quote
from ..core.progress import DEFAULT_LIMIT, end_measure
from ..games import spec_for, specs
from ..levels import LEVELS, deal_for_level
from .actions import action_space, play_move
from .observations import solitaire_encoder
from .over import EpisodeOver

Obs = npt.NDArray[np.int16]


def env_ids() -> dict[str, str]:
    """The Gymnasium id of every one-player game that declares one (``gymnasium_id`` of its
    :class:`~cardtable.core.spec.GameSpec`), by game, read from the one list of games now.

    >>> env_ids()["devils-square"]
    'cardtable/DevilsSquare-v0'
    """
    return {s.name: s.gymnasium_id for s in specs() if s.one_player and s.gymnasium_id is not None}


def variants() -> tuple[tuple[str, dict[str, Any]], ...]:
    """Every mode of every game of :func:`env_ids` (the ``variants`` of its declaration), as
    an id and ``gymnasium.make`` options (for tests and benchmarks).

    >>> variants()[:2]
    (('cardtable/Klondike-v0', {'draw': 3}), ('cardtable/Klondike-v0', {'draw': 1}))
    """
    ids = env_ids()
    return tuple((ids[s.name], dict(v)) for s in specs() if s.name in ids for v in s.variants)


class _EnvIds(Mapping[str, str]):
    """:func:`env_ids`, as a mapping read anew at every use."""

    def __getitem__(self, game: str) -> str:
        return env_ids()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(env_ids())

    def __len__(self) -> int:
        return len(env_ids())

    def __repr__(self) -> str:
        return repr(env_ids())


class _Variants(Sequence[tuple[str, dict[str, Any]]]):
    """:func:`variants`, as a sequence read anew at every use."""

    @overload
    def __getitem__(self, i: int) -> tuple[str, dict[str, Any]]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[str, dict[str, Any]]]: ...
    def __getitem__(self, i: int | slice) -> Any:
        return variants()[i]

    def __len__(self) -> int:
        return len(variants())

    def __repr__(self) -> str:
        return repr(variants())


ENV_IDS: Mapping[str, str] = _EnvIds()
"""The registered Gymnasium id of each one-player game (:func:`env_ids`, read live).

>>> ENV_IDS["klondike"], "deserto" in ENV_IDS
('cardtable/Klondike-v0', False)
"""

VARIANTS: Sequence[tuple[str, dict[str, Any]]] = _Variants()
"""Every game and mode as an id and ``gymnasium.make`` options (:func:`variants`, read live).

>>> len(VARIANTS), VARIANTS[-1]
(8, ('cardtable/DevilsSquare-v0', {}))
"""

_SEVERAL = "{} is a game for several players: use cardtable.research.multiplayer_env"

RESET_OPTIONS = ("deal", "level")
"""The keys ``reset(options=...)`` understands."""


def _finite(value: object, what: str) -> float:
    """``value`` as a float if it is a finite real number (not a bool), else :class:`OptionError`.

    >>> _finite(10, "win_bonus"), _finite(-0.5, "illegal_reward")
    (10.0, -0.5)
    >>> _finite(float("nan"), "win_bonus")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: win_bonus must be a finite number, not nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise OptionError(f"{what} must be a finite number, not {quote(value)}")
    return float(value)


class SolitaireEnv(gymnasium.Env[Obs, np.int64]):
    """One one-player game as a Gymnasium environment (see the module docstring).

    >>> env = SolitaireEnv("klondike", draw=3)
    >>> obs, info = env.reset(options={"deal": 0})
    >>> a = env.moves.index(env.rules.parse_move("3f"))
    >>> bool(info["action_mask"][a]), env.step(a)[1]  # the ace of spades to its foundation
    (True, 1.0)
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: str = "klondike",
        render_mode: str | None = None,
        max_steps: int = 1000,
        win_bonus: float = 10.0,
        illegal_reward: float = -1.0,
        over_limit: int = DEFAULT_LIMIT,
        **options: Any,
    ) -> None:
        spec = spec_for(game)
        if not spec.one_player:
            raise OptionError(_SEVERAL.format(spec.name))
        rules = spec.rules(**options)
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.max_steps = check_int(max_steps, "max_steps", OptionError, 1)
        self.win_bonus = _finite(win_bonus, "win_bonus")
        self.illegal_reward = _finite(illegal_reward, "illegal_reward")
        self.over_limit = check_int(over_limit, "over_limit", OptionError, 1)
        self._space = action_space(rules)
        self.moves = self._space.moves
        """The move of each action (``str`` is its notation)."""
        self._encoder = solitaire_encoder(rules)
        self.action_space = spaces.Discrete(self._space.size)
        self.observation_space = spaces.Box(self._encoder.low, self._encoder.high, dtype=np.int16)
        self._auto = bool(rules.options.get("autoplay"))
        self.deal: int | None = None
        self.state: Any = None
        self._legal: list[Any] = []
        self._steps = 0
        self._progress: tuple[int, ...] = ()
        self._over = False
        self._ended = False  # a step has said terminated or truncated

    # --- the episode --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """A new deal: by number (``options["deal"]``), by level, or drawn from the seed.
        Options are checked before the seed is taken: a refused reset leaves the episode
        and the generator as they were."""
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"reset options are a dict (or None), not {type(options).__name__}")
        options = dict(options or {})
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise OptionError(f"unknown reset option {unknown[0]!r} (known: {', '.join(RESET_OPTIONS)})")
        if "deal" in options and "level" in options:
            raise OptionError("give a deal or a level, not both")
        rules = self.rules
        if "deal" in options:
            rules.deal(options["deal"])  # DealNumberError for a bad number, before anything changes
        if "level" in options and options["level"] not in LEVELS:
            raise OptionError(f"unknown level {quote(options['level'])} (levels: {', '.join(LEVELS)})")
        super().reset(seed=seed)
        if "deal" in options:
            deal = options["deal"]
        elif "level" in options:
            level_seed = int(self.np_random.integers(0, 2**63 - 1))
            deal = deal_for_level(rules.name, options["level"], seed=level_seed, **rules.options)
        else:
            deal = None
        while True:
            if deal is None:  # drawn from the generator: a deal where a move can be made
                number = int(self.np_random.integers(0, 2**63 - 1))
                self.state = rules.deal(number)
            else:
                self.state = rules.deal(deal)  # DealNumberError for a bad number
                number = deal
            self.deal = number
            self._steps = 0
            self._ended = False
            self._over_memo = EpisodeOver(rules, self.over_limit)
            self._update()
            if deal is not None or not self._over:
                break
        return self._encoder.encode(self.state), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play action ``action``; an illegal one changes nothing and costs ``illegal_reward``.
        After a step that said terminated or truncated, ``ResetNeeded``, with nothing changed (a
        deal over at its reset still takes one step, which says terminated)."""
        if self.state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._ended:  # a step said terminated or truncated: nothing more to play
            raise gymnasium.error.ResetNeeded("the episode has ended: call reset() before step()")
        move = self._space.action_to_move(action)
        self._steps += 1
        reward = 0.0
        illegal = move not in self._legal
        if illegal:
            reward = self.illegal_reward
        else:
            before = self._progress[0]
            self.state = play_move(self.rules, self.state, move, self._auto)
            self._update()
            reward = float(self._progress[0] - before)  # as play_step gives it
            if self.won:
                reward += self.win_bonus
        truncated = not self._over and self._steps >= self.max_steps
        self._ended = self._over or truncated
        info = self._info()
        info["illegal"] = illegal
        return self._encoder.encode(self.state), reward, self._over, truncated, info

    def _update(self) -> None:
        rules, state = self.rules, self.state
        self._progress = rules.progress(state)
        self.won = rules.is_won(state)
        self._legal = [] if self.won else rules.legal_moves(state)
        # Over exactly as Game.outcome says: won, or no reachable position makes progress
        # (can_progress is False), found cheaply along the episode (EpisodeOver: answers
        # remembered, the game's compiled search, the stretch of play since the last progress).
        self._over = self.won or self._over_memo.over(state, self._legal, end_measure(rules, state))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._space.mask(self._legal), "deal": self.deal, "won": self.won, "over": self._over}

    # --- looking at it --------------------------------------------------------------------

    def text(self) -> str:
        """The position as the player sees it (face-down cards as ``##``).

        >>> env = SolitaireEnv("desturado", mode="hard"); _ = env.reset(options={"deal": 0})
        >>> env.text().splitlines()[-1]
        '4: 9C'
        """
        if self.state is None:
            raise gymnasium.error.ResetNeeded("call reset() first")
        return self._encoder.text(self.state)

    def render(self) -> str | None:
        """The text of the position in ``ansi`` mode; nothing otherwise."""
        return self.text() if self.render_mode == "ansi" else None

    def legal_actions(self) -> list[int]:
        """The legal actions now, in action order.

        >>> env = SolitaireEnv("klondike"); _ = env.reset(options={"deal": 0})
        >>> [str(env.moves[a]) for a in env.legal_actions()]
        ['d', '3f']
        """
        return [int(a) for a in np.flatnonzero(self._space.mask(self._legal))]


def register() -> None:
    """Register the environment of every one-player game of the one list of games that
    declares a Gymnasium id (done on ``import cardtable.research``; call it again after
    :func:`cardtable.games.register` adds a game).

    >>> register(); "cardtable/Klondike-v0" in gymnasium.registry
    True
    """
    for game, env_id in env_ids().items():
        known = gymnasium.registry.get(env_id)
        if known is None or known.kwargs.get("game") != game:
            gymnasium.register(env_id, entry_point=SolitaireEnv, kwargs={"game": game})


def make_env(game: str, **kwargs: Any) -> gymnasium.Env[Obs, np.int64]:
    """``gymnasium.make`` of a one-player game's environment by the game's name (registered
    first, so a game added since the import is there too); ``kwargs`` are the game's options
    and the environment's settings. A game whose declaration has no Gymnasium id, or no
    action space, or more than one player, is refused with an :class:`OptionError`.

    >>> make_env("desturado", mode="hard").action_space
    Discrete(30)
    >>> make_env("deserto")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: deserto is a game for several players: use cardtable.research.multiplayer_env
    """
    spec = spec_for(game)
    if not spec.one_player:
        raise OptionError(_SEVERAL.format(spec.name))
    if spec.gymnasium_id is None:
        raise OptionError(f"{spec.name} has no Gymnasium environment (its GameSpec declares no gymnasium_id)")
    if spec.action_moves is None:
        raise OptionError(f"{spec.name} has no action space (its GameSpec declares no action_moves)")
    register()
    return gymnasium.make(spec.gymnasium_id, **kwargs)
