"""The games as OpenSpiel Python games, registered on import with ``pyspiel.register_game``.

>>> import pyspiel, cardtable.research.openspiel
>>> game = pyspiel.load_game("cardtable_deserto", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 20, 4)

**Names** (``pyspiel.load_game(name, params)``): every game of the one list of
games (:func:`cardtable.games.specs`) whose declaration names an
``openspiel_name``: ``cardtable_klondike``, ``cardtable_desturado``,
``cardtable_demonthief``, ``cardtable_demons_and_thieves``,
``cardtable_devils_square``, ``cardtable_deserto``; :func:`register` again (or
:func:`load_game` by the game's name) registers a game added since. The
parameters are the game's own options (an option whose default is "none",
Klondike's ``redeals``, is ``-1`` for none) and the settings below. Actions
are the fixed action space of :mod:`cardtable.research.actions` (a game that
declares none is refused when loaded); ``action_to_string`` is the move's
notation.

**The one-player games** are single-player games with one chance node, the
deal: outcome ``d`` of ``deals`` (default 1000, equally likely) plays deal
number ``d``; ``deal=N`` (default -1: chance) plays deal ``N`` with no chance
node. Rewards come after every move (``RewardModel.REWARDS``): the change of
the game's first progress number plus ``win_bonus`` (default 10) for the
winning move, as in the Gymnasium environments. The game ends when it is won,
when no move is legal, or after ``max_steps`` moves (default 1000). (The
Gymnasium environments also end a game that can no longer make progress;
that search is left out here, where algorithms clone and replay states by the
thousand.) Observation: the vector and text of the game's encoder
(:func:`~cardtable.research.observations.solitaire_encoder`: the
:class:`~cardtable.research.observations.SolitaireEncoder` unless the game
declares its own). Information state (perfect recall) as a string: the
observation text, then every move so far, each followed by the cards it
turned face up that had never been seen (``3f+9H``). Face-down cards are
never in either.

**A multi-player game** is, unless its declaration names its own class
(``openspiel_game``: Deserto's, below), an imperfect-information game for its
seats whose chance is one node, the deal, as for the one-player games
(settings ``deals``, ``deal`` and ``max_steps``, default 1000, -1 and 1000).
Returns are the win share at the end (the rules' ``result``: 1 / number of
winners, 0 for the others; a game stopped at ``max_steps`` is shared by all:
a constant-sum game). Observation: the seat's encoder
(:func:`~cardtable.research.observations.seat_encoder`) as a tensor and its
text. Information state (perfect recall), as a string: the seat's text of the
position after the deal, then for every move what the seat learnt of it (the
rules' ``public_move``) and its text of the position after it. No
information-state tensor. ``resample_from_infostate`` deals anew what the
player cannot see (the rules' ``sample``), keeping the present and the
player's own record of the past, as for Deserto.

**Deserto** is an imperfect-information game for ``players`` 2 to 4 whose
chance nodes are the deck: each card dealt or drawn is a chance node whose
outcomes are the four kinds, each with the probability of its share of the
cards nobody has seen (so a game's chance nodes follow exactly the shuffled
deck of the rules). A move that draws is followed by one chance node per card
drawn. Returns are the win share at the end (1 / number of winners, 0 for the
others: a constant-sum game). Observation: the
:class:`~cardtable.research.observations.DesertoEncoder` vector (65 numbers) and
text. Information state (perfect recall), as a string: the seat, its dealt
hand, every move as that seat saw it (:meth:`~cardtable.games.deserto.Deserto.public_move`:
a gift's kind only for giver and receiver) with the cards the seat drew,
then its hand; as a tensor of 1548 numbers: the observation (65), the dealt
hand by kind (4), then one row of 29 per turn for up to 51 turns: the mover
(4, counted from the observer), the action (20: a gift the observer did not
see is the 21st number, "a gift"), the cards the observer drew by kind (4).
``resample_from_infostate(player, sampler)`` deals the cards ``player`` cannot
see anew with :meth:`~cardtable.games.deserto.Deserto.sample` (seeded from
the sampler), so OpenSpiel's information-set MCTS can play it. A sampled
state keeps the present only: its action history is empty and the other
seats' records of the past hold only what ``player`` saw.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar, overload

import numpy as np
import numpy.typing as npt
import pyspiel

from ..core.errors import CardtableError, IllegalMoveError, OptionError
from ..core.multiplayer import MultiplayerRules
from ..core.rules import Rules
from ..core.shuffle import shuffled
from ..core.spec import GameSpec, resolve
from ..games import rules_for, spec_for, specs
from ..games.deserto import GAME as DESERTO_SPEC
from ..games.deserto import HAND_SIZE, KIND_COUNTS, KINDS, Deserto, DesertoState
from .actions import ActionSpace, action_space, play_step
from .observations import DESERTO_SIZE, MAX_SEATS, DesertoEncoder, Encoder, SeatEncoder, seat_encoder, solitaire_encoder


def solitaires() -> dict[str, str]:
    """The OpenSpiel name of each one-player game that declares one, read from the one list
    of games now.

    >>> solitaires()["devils-square"]
    'cardtable_devils_square'
    """
    return {s.name: s.openspiel_name for s in specs() if s.one_player and s.openspiel_name is not None}


def game_names() -> tuple[str, ...]:
    """Every OpenSpiel name the games declare, in the order of the one list of games.

    >>> game_names()[-1]
    'cardtable_deserto'
    """
    return tuple(s.openspiel_name for s in specs() if s.openspiel_name is not None)


class _Solitaires(Mapping[str, str]):
    """:func:`solitaires`, as a mapping read anew at every use."""

    def __getitem__(self, game: str) -> str:
        return solitaires()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(solitaires())

    def __len__(self) -> int:
        return len(solitaires())

    def __repr__(self) -> str:
        return repr(solitaires())


class _GameNames(Sequence[str]):
    """:func:`game_names`, as a sequence read anew at every use."""

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> Any:
        return game_names()[i]

    def __len__(self) -> int:
        return len(game_names())

    def __repr__(self) -> str:
        return repr(game_names())


SOLITAIRES: Mapping[str, str] = _Solitaires()
"""The OpenSpiel name of each one-player game (:func:`solitaires`, read live)."""

DESERTO: str = str(DESERTO_SPEC.openspiel_name)
"""The OpenSpiel name of Deserto."""

GAME_NAMES: Sequence[str] = _GameNames()
"""Every registered name (:func:`game_names`, read live)."""

SOLITAIRE_SETTINGS = {"deals": 1000, "deal": -1, "max_steps": 1000, "win_bonus": 10.0}
"""The one-player games' own parameters and their defaults."""

SEATS_SETTINGS = {"deals": 1000, "deal": -1, "max_steps": 1000}
"""The generic multi-player games' own parameters and their defaults."""

MAX_TURNS = sum(KIND_COUNTS)
"""Deserto's most turns: each places or gives one of the 51 cards."""
TURN_ROW = MAX_SEATS + 21 + 4
"""The numbers per turn in Deserto's information-state tensor."""
INFO_STATE_SIZE = DESERTO_SIZE + 4 + MAX_TURNS * TURN_ROW
"""The length of Deserto's information-state tensor (1548)."""

NONE = -1
"""An option's "none" (Klondike's unlimited ``redeals``) as an OpenSpiel parameter."""


def _parameters(game: str) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters with their defaults."""
    return {o.name: NONE if o.default is None else o.default for o in rules_for(game).option_spec()}


def _options(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The rules' options from OpenSpiel parameters."""
    defaults = _parameters(game)
    options = {}
    for o in rules_for(game).option_spec():
        value = params.get(o.name, defaults[o.name])
        options[o.name] = None if (o.default is None and value == NONE) else value
    return options


def _load(shared_class: type[_S], game: str, params: dict[str, Any], settings: dict[str, Any]) -> _S:
    """The shared object of ``game`` with OpenSpiel parameters ``params``; a
    ``pyspiel.SpielError`` for a bad option, a game without an action space or no more in
    the list of games."""
    try:
        options = _options(game, params)
        shared = _shared(shared_class.__name__, game, tuple(sorted(options.items())), tuple(sorted(settings.items())))
    except CardtableError as error:
        raise pyspiel.SpielError(str(error)) from error
    assert isinstance(shared, shared_class)
    return shared


class _Shared:
    """What every state of one game shares (rules, action space, encoder, settings): copied
    by reference and pickled as its key, because OpenSpiel deep-copies a Python state's
    attributes on every clone and pickles them to serialize it."""

    def __init__(self, game: str, options: tuple[tuple[str, Any], ...], settings: tuple[tuple[str, Any], ...]) -> None:
        self.key = (type(self).__name__, game, options, settings)
        self.rules: Rules[Any, Any] = rules_for(game, **dict(options))
        self.space: ActionSpace = action_space(self.rules)
        self.settings = dict(settings)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_shared, self.key)


_S = TypeVar("_S", bound=_Shared)


class _SolitaireShared(_Shared):
    def __init__(self, game: str, options: tuple[tuple[str, Any], ...], settings: tuple[tuple[str, Any], ...]) -> None:
        super().__init__(game, options, settings)
        self.encoder: Encoder = solitaire_encoder(self.rules)
        self.auto = bool(self.rules.options.get("autoplay"))


class _SeatsShared(_Shared):
    def __init__(self, game: str, options: tuple[tuple[str, Any], ...], settings: tuple[tuple[str, Any], ...]) -> None:
        super().__init__(game, options, settings)
        assert isinstance(self.rules, MultiplayerRules)
        self.seats: MultiplayerRules[Any, Any] = self.rules
        self.encoder: SeatEncoder = seat_encoder(self.rules)


class _DesertoShared(_Shared):
    def __init__(self, game: str, options: tuple[tuple[str, Any], ...], settings: tuple[tuple[str, Any], ...]) -> None:
        super().__init__(game, options, settings)
        assert isinstance(self.rules, Deserto)
        self.deserto: Deserto = self.rules
        self.encoder = DesertoEncoder(self.rules)


_SHARED_KINDS: dict[str, type[_Shared]] = {c.__name__: c for c in (_SolitaireShared, _SeatsShared, _DesertoShared)}
"""The kinds of shared objects, by class name (a shared object's key names its kind)."""


@cache
def _shared(
    kind: str, game: str, options: tuple[tuple[str, Any], ...], settings: tuple[tuple[str, Any], ...]
) -> _Shared:
    """The one shared object of a kind, a game and its parameters."""
    return _SHARED_KINDS[kind](game, options, settings)


def _perfect_recall(iig_obs_type: Any) -> bool:
    """Whether OpenSpiel asks an observer for the information state (perfect recall)
    rather than the observation (its default, asked with no type)."""
    return bool(iig_obs_type is not None and iig_obs_type.perfect_recall)


# --- one-player games ----------------------------------------------------------------------


def _solitaire_type(spec: GameSpec) -> Any:
    return pyspiel.GameType(
        short_name=spec.openspiel_name,
        long_name=f"cardtable {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=1,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_parameters(spec.name), **SOLITAIRE_SETTINGS},
    )


MAX_COUNT_SETTING = 2**31 - 1
"""The most ``deals`` and ``max_steps`` may be: OpenSpiel keeps them in 32 bits."""


def _check_counts(settings: dict[str, Any]) -> None:
    """``deals`` and ``max_steps`` from 1 to :data:`MAX_COUNT_SETTING`, ``deal`` -1 (a chance
    node deals) or a deal number, and ``win_bonus`` (when the game has it) a finite number
    of at least 0 (the game's largest utility is the deck plus it); else ``SpielError``,
    before anything is made.

    >>> _check_counts({"deals": 10**12, "max_steps": 5, "deal": -1})
    Traceback (most recent call last):
    ...
    pyspiel.SpielError: deals must be from 1 to 2147483647, not 1000000000000
    >>> _check_counts({"deals": 1, "max_steps": 5, "deal": -1, "win_bonus": float("nan")})
    Traceback (most recent call last):
    ...
    pyspiel.SpielError: win_bonus must be a finite number of at least 0, not nan
    """
    for name in ("deals", "max_steps"):
        if not 1 <= settings[name] <= MAX_COUNT_SETTING:
            raise pyspiel.SpielError(f"{name} must be from 1 to {MAX_COUNT_SETTING}, not {settings[name]}")
    if settings["deal"] < -1:
        raise pyspiel.SpielError(f"deal is -1 (dealt by chance) or a deal number, not {settings['deal']}")
    bonus = settings.get("win_bonus", 0.0)
    if not (math.isfinite(bonus) and bonus >= 0):  # found by the bad-input audit: nan, or a maximum below the minimum
        raise pyspiel.SpielError(f"win_bonus must be a finite number of at least 0, not {bonus}")


def check_offered(state: Any, action: object) -> int:
    """``action`` if ``state`` offers it (a legal action at a decision node, an outcome of
    :meth:`chance_outcomes` at a chance node), else :class:`~cardtable.core.errors.IllegalMoveError`
    (``TypeError`` for what is no whole number), with nothing changed: every state's
    ``_apply_action`` asks it first, since OpenSpiel does not.

    >>> import pyspiel
    >>> state = pyspiel.load_game("cardtable_klondike", {"deal": 0}).new_initial_state()
    >>> check_offered(state, 5)
    5
    >>> check_offered(state, 1)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.IllegalMoveError: action 1 is not offered here (the legal actions: 0, 5)
    """
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise TypeError(f"an action is a whole number, not {type(action).__name__}")
    chance = state.is_chance_node()
    offered = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
    if int(action) not in offered:
        listed = ", ".join(map(str, offered[:12])) + (", ..." if len(offered) > 12 else "")
        what = "the chance outcomes" if chance else "the legal actions"
        raise IllegalMoveError(f"action {action} is not offered here ({what}: {listed or 'none'})")
    return int(action)


def _check_resample(state: Any, player: object) -> None:
    """What ``resample_from_infostate`` asks of its state and player, in every multi-player
    state: a decision node, and a player of the game; else ``SpielError``."""
    if state.current_player() == pyspiel.PlayerId.CHANCE:
        raise pyspiel.SpielError("resample_from_infostate is for decision nodes")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.num_players():
        raise pyspiel.SpielError(f"no player {player!r} (players 0 to {state.num_players() - 1})")


class SolitaireGame(pyspiel.Game):  # type: ignore[misc]
    """A one-player game for OpenSpiel (see the module docstring).

    >>> import pyspiel
    >>> game = pyspiel.load_game("cardtable_klondike", {"draw": 1, "deal": 0})
    >>> state = game.new_initial_state()
    >>> [state.action_to_string(a) for a in state.legal_actions()]
    ['d', '3f']
    """

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        settings = {k: params.get(k, v) for k, v in SOLITAIRE_SETTINGS.items()}
        shared = _load(_SolitaireShared, game, params, settings)
        _check_counts(settings)
        deck = len(shared.rules.deck())
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.space.size,
            max_chance_outcomes=1 if settings["deal"] >= 0 else settings["deals"],
            num_players=1,
            min_utility=-float(deck),
            max_utility=float(deck) + float(settings["win_bonus"]),
            max_game_length=settings["max_steps"],
        )
        super().__init__(_solitaire_type(spec_for(game)), info, params)
        self.shared = shared

    def new_initial_state(self) -> SolitaireState:
        """The state before the deal (a chance node), or deal ``deal`` when it is set."""
        return SolitaireState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SolitaireObserver:
        """The observer: the observation, or with ``perfect_recall`` the information state."""
        return SolitaireObserver(self.shared, _perfect_recall(iig_obs_type))


class SolitaireState(pyspiel.State):  # type: ignore[misc]
    """A position of a one-player game, with its step count, rewards and log.

    >>> import pyspiel
    >>> state = pyspiel.load_game("cardtable_desturado", {"mode": "hard"}).new_initial_state()
    >>> state.apply_action(4); state.position == state.shared.rules.deal(4)
    True
    """

    def __init__(self, game: SolitaireGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.position: Any = None
        self.steps = 0
        self.won = False
        self.legal: tuple[int, ...] = ()
        self.reward = 0.0
        self.total = 0.0
        self.log: tuple[str, ...] = ()
        self.seen: frozenset[int] = frozenset()
        deal = self.shared.settings["deal"]
        if deal >= 0:
            self._start(deal)

    def _start(self, deal: int) -> None:
        self.position = self.shared.rules.deal(deal)
        self.log = (f"+{self._reveal()}",)
        self._update()

    def _reveal(self) -> str:
        """The cards face up now that were never seen before, in display order, as text."""
        rules = self.shared.rules
        new = [c for line in rules.display(self.position) for _, pile in line for c, up in pile if up]
        fresh = [c for c in new if c not in self.seen]
        self.seen = self.seen | frozenset(fresh)
        return " ".join(rules.card_text(c) for c in fresh)

    def _update(self) -> None:
        rules, space = self.shared.rules, self.shared.space
        self.won = rules.is_won(self.position)
        moves = [] if self.won else rules.legal_moves(self.position)
        self.legal = tuple(sorted(space.move_to_action(m) for m in moves))

    def current_player(self) -> int:
        """0, the chance player before the deal, or terminal."""
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0

    def is_terminal(self) -> bool:
        """Won, no legal move, or ``max_steps`` moves made."""
        if self.position is None:
            return False
        return self.won or not self.legal or self.steps >= self.shared.settings["max_steps"]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely."""
        deals = self.shared.settings["deals"]
        return [(d, 1.0 / deals) for d in range(deals)]

    def _apply_action(self, action: int) -> None:
        action = check_offered(self, action)
        if self.position is None:
            self._start(action)
            return
        move = self.shared.space.action_to_move(action)
        self.position, gain = play_step(self.shared.rules, self.position, move, self.shared.auto)
        self.steps += 1
        self._update()
        self.reward = gain + (self.shared.settings["win_bonus"] if self.won else 0)
        self.total += self.reward
        fresh = self._reveal()
        self.log += (f"{move}+{fresh}" if fresh else str(move),)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.shared.space.action_to_move(action))

    def rewards(self) -> list[float]:
        """The reward of the last move."""
        return [self.reward]

    def returns(self) -> list[float]:
        """The rewards so far, added."""
        return [self.total]

    def __str__(self) -> str:
        if self.position is None:
            return "(before the deal)"
        return str(self.shared.rules.to_text(self.position))


class SolitaireObserver:
    """OpenSpiel's Python observer of a one-player game (observation or information state).

    >>> import pyspiel
    >>> state = pyspiel.load_game("cardtable_klondike", {"deal": 0}).new_initial_state()
    >>> len(state.observation_tensor(0)), state.information_state_string(0).splitlines()[-1]
    (678, '+TH KS AS 4D TS 8D 5D')
    """

    def __init__(self, shared: _SolitaireShared, perfect_recall: bool) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else shared.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SolitaireState, player: int) -> None:
        """Fill ``tensor`` with the observation of ``state``."""
        if self.perfect_recall:
            return
        if state.position is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.shared.encoder.encode(state.position)

    def string_from(self, state: SolitaireState, player: int) -> str:
        """The observation text; with perfect recall, then the moves and what they turned up."""
        if state.position is None:
            return "(before the deal)"
        text = self.shared.encoder.text(state.position)
        return f"{text}\n{' '.join(state.log)}" if self.perfect_recall else text


# --- Deserto ----------------------------------------------------------------------------------


class Turn(NamedTuple):
    """One Deserto turn in a state's record: who moved, the action, the seat that received
    a gift (-1 for a placement), the move as a seat outside a gift sees it and as giver and
    receiver see it, and the cards each seat drew (None where the record does not know).

    >>> Turn(0, 18, 1, "seat 0: gives a card to seat 1", "seat 0: GT, gives a thief to seat 1", ((), ())).receiver
    1
    """

    mover: int
    action: int
    receiver: int
    public: str
    private: str
    drawn: tuple[tuple[int, ...] | None, ...]


def _seats_type(spec: GameSpec, parameters: dict[str, Any], information_state_tensor: bool) -> Any:
    """The OpenSpiel type of a multi-player game: sequential, chance, imperfect
    information, constant sum (the win shared), returns at the end."""
    return pyspiel.GameType(
        short_name=spec.openspiel_name,
        long_name=f"cardtable {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.seats[1],
        min_num_players=spec.seats[0],
        provides_information_state_string=True,
        provides_information_state_tensor=information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _seats_info(shared: _Shared, players: int, max_chance_outcomes: int, max_game_length: int) -> Any:
    """A multi-player game's sizes: returns from 0 to 1 that add up to 1 (the win share)."""
    return pyspiel.GameInfo(
        num_distinct_actions=shared.space.size,
        max_chance_outcomes=max_chance_outcomes,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=max_game_length,
    )


def _win_shares(rules: MultiplayerRules[Any, Any], position: Any) -> list[float] | None:
    """Each seat's share of the win at the end (1 / number of winners, 0 for the others);
    None while the game goes on."""
    result = rules.result(position)
    if result is None:
        return None
    return [1.0 / len(result.winners) if s in result.winners else 0.0 for s in range(rules.players)]


# --- a multi-player game: the deal is one chance node ----------------------------------------


class SeatsGame(pyspiel.Game):  # type: ignore[misc]
    """A multi-player game for OpenSpiel, its deal one chance node (see the module docstring).

    >>> game = SeatsGame("deserto", {"players": 3})  # (Deserto has a class of its own; this one works too)
    >>> game.num_players(), game.max_chance_outcomes(), game.new_initial_state().is_chance_node()
    (3, 1000, True)
    """

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        settings = {k: params.get(k, v) for k, v in SEATS_SETTINGS.items()}
        shared = _load(_SeatsShared, game, params, settings)
        _check_counts(settings)
        chances = 1 if settings["deal"] >= 0 else settings["deals"]
        info = _seats_info(shared, shared.seats.players, chances, settings["max_steps"])
        super().__init__(self.spiel_type(spec_for(game)), info, params)
        self.shared = shared

    @staticmethod
    def spiel_type(spec: GameSpec) -> Any:
        """The OpenSpiel type of ``spec``'s game as a :class:`SeatsGame`.

        >>> SeatsGame.spiel_type(DESERTO_SPEC).provides_information_state_tensor
        False
        """
        return _seats_type(spec, {**_parameters(spec.name), **SEATS_SETTINGS}, information_state_tensor=False)

    def new_initial_state(self) -> SeatsState:
        """The state before the deal (a chance node), or deal ``deal`` when it is set."""
        return SeatsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatsObserver:
        """The observer: the observation, or with ``perfect_recall`` the information state."""
        return SeatsObserver(self.shared, _perfect_recall(iig_obs_type))


class SeatsState(pyspiel.State):  # type: ignore[misc]
    """A position of a multi-player game, with its step count and every seat's record.

    ``records[seat]`` is what ``seat`` saw, a line each: its text of the position after
    the deal, then for every move what it learnt of the move and its text of the position.

    >>> state = SeatsGame("deserto", {"deal": 0}).new_initial_state()
    >>> state.current_player(), state.records[1][0][:16]
    (0, 'seat 1 hand OVT ')
    """

    def __init__(self, game: SeatsGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.position: Any = None
        self.steps = 0
        self.records: tuple[tuple[str, ...], ...] = ()
        deal = self.shared.settings["deal"]
        if deal >= 0:
            self._start(deal)

    def _start(self, deal: int) -> None:
        self.position = position = self.shared.seats.deal(deal)
        text = self.shared.encoder.text
        self.records = tuple((text(position, seat),) for seat in range(self.shared.seats.players))

    def current_player(self) -> int:
        """The seat to move; chance before the deal; terminal at the end."""
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        turn = self.shared.seats.to_move(self.position)
        if turn is None or self.steps >= self.shared.settings["max_steps"]:
            return int(pyspiel.PlayerId.TERMINAL)
        return turn

    def is_terminal(self) -> bool:
        """The game is over, or ``max_steps`` moves were made."""
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        space = self.shared.space
        return sorted(space.move_to_action(m) for m in self.shared.seats.legal_moves(self.position))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely."""
        deals = self.shared.settings["deals"]
        return [(d, 1.0 / deals) for d in range(deals)]

    def _apply_action(self, action: int) -> None:
        action = check_offered(self, action)
        if self.position is None:
            self._start(action)
            return
        rules, text = self.shared.seats, self.shared.encoder.text
        move = self.shared.space.action_to_move(action)
        before = self.position
        self.position = after = rules.apply(before, move)
        self.steps += 1
        self.records = tuple(
            (*record, str(rules.public_move(before, move, seat)), text(after, seat))
            for seat, record in enumerate(self.records)
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.shared.space.action_to_move(action))

    def returns(self) -> list[float]:
        """The win shares at the end (a game stopped at ``max_steps`` shared by all; 0
        for every seat before the end)."""
        n = self.shared.seats.players
        if not self.is_terminal():
            return [0.0] * n
        shares = _win_shares(self.shared.seats, self.position)
        return [1.0 / n] * n if shares is None else shares

    def __str__(self) -> str:
        if self.position is None:
            return "(before the deal)"
        return str(self.shared.seats.to_text(self.position))

    def resample_from_infostate(self, player: int, sampler: Any) -> SeatsState:
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt anew
        (the rules' ``sample``, seeded by ``sampler``); the other seats' records keep what
        ``player`` learnt of each move."""
        _check_resample(self, player)
        seed = int(sampler() * 2**53) if callable(sampler) else int(sampler.sample() * 2**53)
        state: SeatsState = self.get_game().new_initial_state()
        state.position = self.shared.seats.sample(self.position, player, random.Random(seed))
        state.steps = self.steps
        own = self.records[player]
        seen = tuple(line if i % 2 else "?" for i, line in enumerate(own))
        state.records = tuple(own if seat == player else seen for seat in range(len(self.records)))
        return state


class SeatsObserver:
    """OpenSpiel's Python observer of a multi-player game for one seat.

    >>> state = SeatsGame("deserto", {"deal": 0}).new_initial_state()
    >>> len(state.observation_tensor(1)), state.information_state_string(1).splitlines()[0][:16]
    (65, 'seat 1 hand OVT ')
    """

    def __init__(self, shared: _SeatsShared, perfect_recall: bool) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else shared.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SeatsState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``state``."""
        if self.perfect_recall:
            return
        if state.position is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.shared.encoder.encode(state.position, player)

    def string_from(self, state: SeatsState, player: int) -> str:
        """The seat's text of the position; with perfect recall, its whole record."""
        if state.position is None:
            return "(before the deal)"
        if self.perfect_recall:
            return "\n".join(state.records[player])
        return self.shared.encoder.text(state.position, player)


# --- Deserto: the deck a card at a time -------------------------------------------------------


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[c] += 1
    return counts


def _sorted_cards(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(k for k in range(4) for _ in range(counts[k]))


class DesertoGame(pyspiel.Game):  # type: ignore[misc]
    """Deserto for OpenSpiel (see the module docstring).

    >>> import pyspiel
    >>> state = pyspiel.load_game("cardtable_deserto").new_initial_state()
    >>> state.is_chance_node(), state.chance_outcomes()[0]
    (True, (0, 0.11764705882352941))
    """

    game = DESERTO_SPEC.name
    """The game it plays."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        shared = _load(_DesertoShared, self.game, params, {})
        info = _seats_info(shared, shared.deserto.players, 4, MAX_TURNS)
        super().__init__(self.spiel_type(spec_for(self.game)), info, params)
        self.shared = shared

    @staticmethod
    def spiel_type(spec: GameSpec) -> Any:
        """Deserto's OpenSpiel type (with an information-state tensor; no settings of its own).

        >>> DesertoGame.spiel_type(DESERTO_SPEC).short_name
        'cardtable_deserto'
        """
        return _seats_type(spec, _parameters(spec.name), information_state_tensor=True)

    def new_initial_state(self) -> DesertoSpielState:
        """The state before the deal: the first card dealt is a chance node."""
        return DesertoSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DesertoObserver:
        """The observer: the observation, or with ``perfect_recall`` the information state."""
        return DesertoObserver(self.shared, _perfect_recall(iig_obs_type))


class DesertoSpielState(pyspiel.State):  # type: ignore[misc]
    """A Deserto state whose deck is drawn by chance nodes.

    ``position`` is the rules' :class:`~cardtable.games.deserto.DesertoState`
    whose deck holds the cards not yet dealt or drawn, sorted (their order is
    not decided until a chance node draws one); ``pending`` is a move waiting
    for its draws, ``drawn`` the kinds drawn for it so far.

    >>> import pyspiel
    >>> state = pyspiel.load_game(DESERTO).new_initial_state()
    >>> for kind in deal_outcomes(Deserto(), 0): state.apply_action(kind)
    >>> state.apply_action(state.legal_actions()[0]); state.is_chance_node(), len(state.chance_outcomes())
    (True, 4)
    """

    def __init__(self, game: DesertoGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        rules = self.shared.deserto
        n = rules.players
        none: tuple[tuple[int, ...], ...] = ((),) * n
        deck = tuple(sorted(rules.deck()))
        self.position = DesertoState(rules.options["first"], none, deck, ((),) * 4, none, none, ((0, 0),) * n)
        self.dealt = 0
        self.pending = -1
        self.drawn: tuple[int, ...] = ()
        self.need = 0
        self.turns: tuple[Turn, ...] = ()
        self.hands_dealt: tuple[tuple[int, ...] | None, ...] = ((),) * n

    # --- whose turn ---------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move; chance while cards are dealt or drawn; terminal at the end."""
        if self.dealt < HAND_SIZE * self.shared.deserto.players or self.need:
            return int(pyspiel.PlayerId.CHANCE)
        if self.position.turn < 0:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.position.turn

    def is_terminal(self) -> bool:
        """Every hand is empty."""
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        space = self.shared.space
        return [space.move_to_action(m) for m in self.shared.deserto.legal_moves(self.position)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The kinds left unseen, each with its share of them."""
        counts = _counts(self.position.deck)
        for kind in self.drawn:
            counts[kind] -= 1
        total = sum(counts)
        return [(k, c / total) for k, c in enumerate(counts) if c]

    # --- moves and chance ------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        action = check_offered(self, action)
        if self.dealt < HAND_SIZE * self.shared.deserto.players:
            self._deal(action)
        elif self.need:
            self.drawn += (action,)
            if len(self.drawn) == self.need:
                self._finish()
        else:
            self.pending = action
            move = self.shared.space.action_to_move(action)
            after = self.shared.deserto.apply(self.position, move)
            self.need = len(self.position.deck) - len(after.deck)
            if not self.need:
                self._finish()

    def _deal(self, kind: int) -> None:
        rules = self.shared.deserto
        n = rules.players
        seat = (rules.options["first"] + self.dealt) % n
        p = self.position
        counts = _counts(p.deck)
        counts[kind] -= 1
        hands = list(p.hands)
        hands[seat] = tuple(sorted(hands[seat] + (kind,)))
        self.position = p._replace(hands=tuple(hands), deck=_sorted_cards(counts))
        self.dealt += 1
        self.hands_dealt = self.position.hands

    def _finish(self) -> None:
        """Apply the pending move with the drawn cards on top of the deck, and record the turn."""
        rules = self.shared.deserto
        before = self.position
        counts = _counts(before.deck)
        for kind in self.drawn:
            counts[kind] -= 1
        deck = _sorted_cards(counts) + tuple(reversed(self.drawn))  # the top (last) card was drawn first
        move = self.shared.space.action_to_move(self.pending)
        placed = before._replace(deck=deck)
        after = rules.apply(placed, move)
        mover = before.turn
        drawn: list[tuple[int, ...] | None] = []
        for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
            left = _counts(old)
            if seat == mover:
                left[move.kind] -= 1
            gained = [c - o for c, o in zip(_counts(new), left, strict=True)]
            drawn.append(_sorted_cards(gained))
        receiver = (mover - 1) % rules.players if move.pos == 4 else -1
        public = str(rules.public_move(placed, move, None))
        private = str(rules.public_move(placed, move, mover))
        self.turns += (Turn(mover, self.pending, receiver, public, private, tuple(drawn)),)
        self.position = after
        self.pending, self.drawn, self.need = -1, (), 0

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {KINDS[action]}"
        return str(self.shared.space.action_to_move(action))

    def returns(self) -> list[float]:
        """The win shares at the end (0 for every seat before)."""
        shares = _win_shares(self.shared.deserto, self.position) if self.is_terminal() else None
        return [0.0] * self.shared.deserto.players if shares is None else shares

    def __str__(self) -> str:
        return str(self.shared.deserto.to_text(self.position))

    # --- hidden information -----------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any) -> DesertoSpielState:
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt anew
        (:meth:`~cardtable.games.deserto.Deserto.sample`, seeded by ``sampler``)."""
        _check_resample(self, player)
        seed = int(sampler() * 2**53) if callable(sampler) else int(sampler.sample() * 2**53)
        sampled = self.shared.deserto.sample(self.position, player, random.Random(seed))
        state: DesertoSpielState = self.get_game().new_initial_state()
        state.position = sampled
        state.dealt = self.dealt
        state.hands_dealt = tuple(h if seat == player else None for seat, h in enumerate(self.hands_dealt))
        state.turns = tuple(self._seen_by(turn, player) for turn in self.turns)
        return state

    @staticmethod
    def _seen_by(turn: Turn, player: int) -> Turn:
        """The record of ``turn`` keeping only what ``player`` saw."""
        private = turn.private if player in (turn.mover, turn.receiver) else turn.public
        drawn = tuple(d if seat == player else None for seat, d in enumerate(turn.drawn))
        return turn._replace(private=private, drawn=drawn)


class DesertoObserver:
    """OpenSpiel's Python observer of Deserto for one seat (observation or information state).

    >>> import pyspiel
    >>> state = pyspiel.load_game(DESERTO).new_initial_state()
    >>> for kind in deal_outcomes(Deserto(), 0): state.apply_action(kind)
    >>> len(state.observation_tensor(1)), len(state.information_state_tensor(1)), state.observation_string(1)[:14]
    (65, 1548, 'seat 1 hand OV')
    """

    def __init__(self, shared: _DesertoShared, perfect_recall: bool) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(INFO_STATE_SIZE if perfect_recall else DESERTO_SIZE, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor[:DESERTO_SIZE]}
        if perfect_recall:
            self.dict["dealt"] = self.tensor[DESERTO_SIZE : DESERTO_SIZE + 4]
            self.dict["turns"] = self.tensor[DESERTO_SIZE + 4 :].reshape(MAX_TURNS, TURN_ROW)

    def set_from(self, state: DesertoSpielState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` knows of ``state``."""
        self.tensor.fill(0)
        self.dict["observation"][:] = self.shared.encoder.encode(state.position, player)
        if not self.perfect_recall:
            return
        n = self.shared.deserto.players
        self.dict["dealt"][:] = _counts(state.hands_dealt[player] or ())
        rows = self.dict["turns"]
        for t, turn in enumerate(state.turns):
            row = rows[t]
            row[(turn.mover - player) % n] = 1
            known = turn.receiver < 0 or player in (turn.mover, turn.receiver)
            row[MAX_SEATS + (turn.action if known else 20)] = 1
            drawn = turn.drawn[player]
            if drawn:
                row[MAX_SEATS + 21 :] = _counts(drawn)

    def string_from(self, state: DesertoSpielState, player: int) -> str:
        """The observation text; with perfect recall, the seat's whole record of the game."""
        if not self.perfect_recall:
            return self.shared.encoder.text(state.position, player)
        dealt = state.hands_dealt[player]
        lines = [f"seat {player} dealt {'?' if dealt is None else ''.join(KINDS[k] for k in dealt)}"]
        for turn in state.turns:
            text = turn.private if player in (turn.mover, turn.receiver) else turn.public
            drawn = turn.drawn[player]
            lines.append(f"{text}; you draw {''.join(KINDS[k] for k in drawn)}" if drawn else text)
        lines.append(f"hand {''.join(KINDS[k] for k in state.position.hands[player])}")
        return "\n".join(lines)


def deal_outcomes(rules: Deserto, deal: int) -> list[int]:
    """The chance outcomes that deal the hands of the rules' deal number ``deal``, in order
    (the shuffled deck's top card first), so an OpenSpiel state can follow a cardtable game.

    >>> r = Deserto(); state = pyspiel.load_game(DESERTO).new_initial_state()
    >>> for kind in deal_outcomes(r, 0): state.apply_action(kind)
    >>> state.position.hands == r.deal(0).hands
    True
    """
    return list(reversed(shuffled(rules.deck(), deal)))[: HAND_SIZE * rules.players]


def draw_outcomes(before: DesertoState, after: DesertoState) -> list[int]:
    """The chance outcomes of the cards drawn by the move from ``before`` to ``after`` of a
    cardtable game (the deck's top card first).

    >>> r = Deserto(); s = r.deal(0); t = r.apply(s, r.legal_moves(s)[0])
    >>> draw_outcomes(s, t) == [s.deck[-1]]
    True
    """
    k = len(before.deck) - len(after.deck)
    return list(reversed(before.deck[len(before.deck) - k :]))


# --- registration ------------------------------------------------------------------------------


def _solitaire_factory(game: str) -> type[SolitaireGame]:
    def init(self: SolitaireGame, params: dict[str, Any] | None = None) -> None:
        SolitaireGame.__init__(self, game, params)

    return type(f"{spec_for(game).openspiel_name}_game", (SolitaireGame,), {"__init__": init})


def _seats_factory(game: str) -> type[SeatsGame]:
    def init(self: SeatsGame, params: dict[str, Any] | None = None) -> None:
        SeatsGame.__init__(self, game, params)

    return type(f"{spec_for(game).openspiel_name}_game", (SeatsGame,), {"__init__": init})


def register() -> None:
    """Register with OpenSpiel every game of the one list of games that declares an
    OpenSpiel name, each with the class its declaration names (``openspiel_game``) or the
    generic one for its number of players (done on import; again registers the games added
    since, and is otherwise harmless).

    >>> import pyspiel
    >>> register(); "cardtable_devils_square" in pyspiel.registered_names()
    True
    """
    known = set(pyspiel.registered_names())
    for spec in specs():
        if spec.openspiel_name is None or spec.openspiel_name in known:
            continue
        if spec.openspiel_game is not None:
            cls = resolve(spec.openspiel_game)
            pyspiel.register_game(cls.spiel_type(spec), cls)
        elif spec.one_player:
            pyspiel.register_game(_solitaire_type(spec), _solitaire_factory(spec.name))
        else:
            pyspiel.register_game(SeatsGame.spiel_type(spec), _seats_factory(spec.name))


def load_game(game: str, params: dict[str, Any] | None = None) -> Any:
    """``pyspiel.load_game`` of a game by its cardtable name (registered first, so a game
    added since the import is there too); an :class:`OptionError` for a game whose
    declaration names no OpenSpiel name.

    >>> load_game("desturado", {"mode": "hard"}).num_distinct_actions()
    30
    """
    spec = spec_for(game)
    if spec.openspiel_name is None:
        raise OptionError(f"{spec.name} has no OpenSpiel game (its GameSpec declares no openspiel_name)")
    register()
    return pyspiel.load_game(spec.openspiel_name, dict(params or {}))


register()
