"""The games of the web app: every table the server owns, and what a player may do at it.

A :class:`Tables` keeps each game in memory (rebuilt from the store's save file
when the server restarts) and writes it to the :class:`~cardtable.web.store.Store`
after every change. Every move goes through the engine's ``play``; every
request names the move count it was made on (``at``), and a request made on
a stale position, an illegal or unreadable move, or a move in a finished game
raises :class:`WebError` and changes nothing.

The answer to every request is the table as the player may see it
(:meth:`Tables.table_json`): the position from
:mod:`cardtable.web.positions` and the game's facts (level and deal label,
outcome, undo and redo, the autocomplete offer).

>>> from cardtable.web.store import Store
>>> tables = Tables(Store(":memory:"))
>>> t = tables.create("me", "klondike", {}, deal=0)
>>> t["label"], t["at"]
('Random (0)', 0)
>>> tables.play("me", t["id"], 0, move="d")["at"]
1
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import bots
from ..api import load, new_game
from ..core.errors import (
    CardtableError,
    IllegalMoveError,
    MoveParseError,
    NoLevelDealError,
    NotYourTurnError,
    OptionError,
)
from ..core.game import Game
from ..core.multiplayer import MultiplayerGame
from ..games import rules_class
from ..hints import hint
from ..levels import LEVELS, deal_for_level
from ..solve.solver import solve
from .positions import PLACES, drop_text, move_places, seat_drop_text, seat_position, solitaire_position
from .store import Store, TableRow
from .story import tell

HINT_SECONDS = 0.04
"""The solver's time for a hint, in seconds: an answer within 50 ms (after it, the
labelled heuristic move); a winning line found is remembered, so the hints that
follow it cost nothing."""

FINISH_NODES = 20_000
"""The solver's budget (positions) for checking that autocomplete really finishes."""

FINISH_SECONDS = 0.03
"""... and its time: the check runs once per position, inside the move's answer."""

CACHE_SIZE = 512
"""Games kept in memory; others are rebuilt from the store when asked for."""

HUMAN = "you"
"""The name of the human seat in a multi-player table's seat list."""

MODE_OPTIONS = {"numbering", "autoplay"}
"""Options that do not change what game is played: left out of the statistics' mode."""


class WebError(Exception):
    """A request the server refuses: an HTTP ``status``, a ``kind`` a program can test
    (``not-found``, ``stale``, ``illegal``, ``unparsable``, ``finished``,
    ``not-your-turn``, ``bad-request``) and a one-line message for the player.

    >>> WebError(409, "stale", "the table has changed").kind
    'stale'
    """

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message


@dataclass
class _Table:
    row: TableRow
    game: Game[Any, Any]
    lock: threading.Lock
    finish: list[str] | None = None  # the checked autocomplete line of the current position
    finish_at: int = -1
    line: list[str] | None = None  # the last solver hint's winning line, from move line_at on
    line_at: int = 0


def mode_text(game: Game[Any, Any]) -> str:
    """The game's mode for statistics: its options that change the game, or ``standard``.

    >>> import cardtable
    >>> mode_text(cardtable.new_game("klondike", deal=0, numbering="javasol"))
    'draw=3 redeals=unlimited foundation_return=on'
    >>> mode_text(cardtable.new_game("devils-square", deal=0))
    'standard'
    """
    spec = {o.name: o for o in game.rules.OPTIONS}
    words = [f"{k}={spec[k].show(v)}" for k, v in game.options.items() if k not in MODE_OPTIONS]
    return " ".join(words) or "standard"


def level_label(level: str, deal: int | None) -> str:
    """The label shown at the bottom of the table: level and deal number, as ``Hard (12345)``.

    >>> level_label("hard", 12345)
    'Hard (12345)'
    """
    return f"{level.capitalize()} ({deal})" if deal is not None else level.capitalize()


class Tables:
    """Every table of the server (see the module docstring).

    ``clock`` gives the time in seconds (tests pass their own); ``hint_seconds``
    is the solver's time for a hint.

    >>> from cardtable.web.store import Store
    >>> Tables(Store(":memory:")).stats("nobody")["rows"]
    []
    """

    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, hint_seconds: float = HINT_SECONDS
    ) -> None:
        self.store = store
        self.clock = clock
        self.hint_seconds = hint_seconds
        self._cache: OrderedDict[str, _Table] = OrderedDict()
        self._lock = threading.Lock()

    # --- making and finding tables ------------------------------------------

    def create(
        self,
        player: str,
        name: str,
        options: dict[str, Any],
        deal: int | None = None,
        level: str | None = None,
        seed: int | None = None,
        seats: list[str] | None = None,
    ) -> dict[str, Any]:
        """A new table for ``player``: a deal by number, or by ``level`` and ``seed``
        (a random seed when none is given); for Deserto, ``seats`` names who plays
        each seat (``you`` for the player, else a bot). A game of the same name the
        player left unfinished with moves made is counted as abandoned.

        >>> from cardtable.web.store import Store
        >>> Tables(Store(":memory:")).create("me", "devils-square", {}, level="easy", seed=3)["label"]
        'Easy (...)'
        """
        try:
            cls = rules_class(name)
            multi = cls.name == "deserto"
            if multi:
                seats = self._check_seats(seats, options)
                game: Game[Any, Any] = new_game(cls.name, deal=secrets.randbits(62), **options)
                level = "random"
            else:
                if seats is not None:
                    raise OptionError(f"{cls.name} is a one-player game: it has no seats")
                if deal is None:
                    level = level or "random"
                    if level not in LEVELS:
                        raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
                    seed = secrets.randbelow(1_000_000_000) if seed is None else seed
                    deal = deal_for_level(cls.name, level, seed=seed, **options)
                else:
                    level, seed = "random", None
                game = new_game(cls.name, deal=deal, **options)
        except NoLevelDealError as err:
            raise WebError(404, "not-found", str(err)) from None
        except CardtableError as err:
            raise WebError(400, "bad-request", str(err)) from None
        self._abandon(player, game.name)
        row = TableRow(
            id=secrets.token_urlsafe(9),
            player=player,
            game=game.name,
            mode=mode_text(game),
            level=level or "random",
            seed=seed,
            save=game.save(),
            seats=seats,
            created=self.clock(),
        )
        table = _Table(row, game, threading.Lock())
        with table.lock:
            if multi:
                self._bots_play(table)
            self._store(table)
        return self.table_json(table)

    def _check_seats(self, seats: list[str] | None, options: dict[str, Any]) -> list[str]:
        if seats is None:
            players = options.get("players", 2)
            seats = [HUMAN] + ["greedy"] * ((int(players) if str(players).isdigit() else 2) - 1)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise OptionError("seats must be a list of names: you, random, greedy, ismcts")
        seats = [s.strip().lower() for s in seats]
        if seats.count(HUMAN) != 1 or seats[0] != HUMAN:
            raise OptionError("the first seat is yours ('you'); the others are bots")
        for s in seats[1:]:
            if s not in bots.BOTS:
                raise OptionError(f"unknown bot {s!r} (bots: {', '.join(bots.BOTS)})")
        options["players"] = len(seats)
        return seats

    def _abandon(self, player: str, name: str) -> None:
        for row in self.store.player_tables(player, finished=False):
            if row.game != name:
                continue
            table = self._table(player, row.id)
            with table.lock:
                if table.row.ended is None and table.game.moves:
                    table.row.ended, table.row.result = self.clock(), "abandoned"
                    self._store(table)

    def _table(self, player: str, table_id: str) -> _Table:
        with self._lock:
            table = self._cache.get(table_id)
            if table is not None:
                self._cache.move_to_end(table_id)
        if table is None:
            row = self.store.get(table_id) if isinstance(table_id, str) else None
            if row is None:
                raise WebError(404, "not-found", "no such game (it may belong to another browser)")
            game = load(row.save)
            table = _Table(row, game, threading.Lock())
            with self._lock:
                table = self._cache.setdefault(table_id, table)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        if table.row.player != player:
            raise WebError(404, "not-found", "no such game (it may belong to another browser)")
        return table

    def _store(self, table: _Table) -> None:
        table.row.save = table.game.save()
        table.row.moves = len(table.game.moves)
        self.store.put(table.row)
        with self._lock:
            self._cache[table.row.id] = table
            self._cache.move_to_end(table.row.id)

    # --- what the player sees --------------------------------------------------

    def get(self, player: str, table_id: str) -> dict[str, Any]:
        """The table as the player sees it.

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=1)
        >>> tables.get("me", t["id"])["game"]
        'klondike'
        """
        table = self._table(player, table_id)
        with table.lock:
            return self.table_json(table)

    def table_json(self, table: _Table) -> dict[str, Any]:
        """The JSON of a table for its player (see the module docstring)."""
        game, row = table.game, table.row
        multi = isinstance(game, MultiplayerGame)
        if multi:
            assert isinstance(game, MultiplayerGame)
            position = seat_position(game, 0)
            names = ["You" if s == HUMAN else f"{s.capitalize()} ({i + 1})" for i, s in enumerate(row.seats or [])]
            position["names"] = names
            position["log"] = [tell(event, names) for event in game.history(0)]
            outcome = game.outcome
            result = outcome.result
            ranked = ["You" if s == HUMAN else f"{s} (seat {i + 1})" for i, s in enumerate(row.seats or [])]
            over = {
                "won": bool(result and 0 in result.winners),
                "over": outcome.over,
                "score": position["won"][0],
                "reason": outcome.describe(ranked, 0),
            }
            label = "Deserto"
        else:
            position = solitaire_position(game)
            out = game.outcome
            over = {"won": out.won, "over": out.over, "score": out.score, "reason": out.describe()}
            label = level_label(row.level, game.deal)
        rules = type(game.rules)
        return {
            "id": row.id,
            "game": game.name,
            "title": rules.title,
            "options": {o.name: o.show(game.options[o.name]) for o in rules.OPTIONS},
            "mode": row.mode,
            "deal": None if multi else game.deal,
            "level": row.level,
            "seed": row.seed,
            "label": label,
            "seats": row.seats,
            "at": len(game.moves),
            "outcome": over,
            "can_undo": self._can_undo(table),
            "can_redo": bool(row.redo) and not over["won"],
            "finish": bool(self._finish_line(table)),
            "hints": row.hints,
            "started": row.started,
            "ended": row.ended,
            "result": row.result,
            "now": self.clock(),
            "notation": rules.NOTATION,
            **position,
        }

    # --- changing a table --------------------------------------------------------

    def _begin(self, player: str, table_id: str, at: Any) -> _Table:
        table = self._table(player, table_id)
        table.lock.acquire()
        if isinstance(at, bool) or not isinstance(at, int):
            table.lock.release()
            raise WebError(400, "bad-request", "every request names the move count it was made on ('at')")
        if at != len(table.game.moves):
            table.lock.release()
            raise WebError(
                409, "stale", f"the table has changed (move {len(table.game.moves)}, not {at}): it is shown afresh"
            )
        return table

    def play(
        self,
        player: str,
        table_id: str,
        at: Any,
        move: Any = None,
        drop: dict[str, Any] | None = None,
        auto: bool = False,
    ) -> dict[str, Any]:
        """Play a move, given in notation (``move``) or as a drop of cards on a pile
        (``drop``: ``{"from", "index", "to"}``); with ``auto``, safe cards then go to the
        foundations. Bots then play their turns.

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.play("me", t["id"], 0, move="r")
        Traceback (most recent call last):
        ...
        cardtable.web.tables.WebError: illegal move r: rule 2: redeal only when the stock is empty (draw with d)
        """
        table = self._begin(player, table_id, at)
        try:
            game = table.game
            if self._over(table):
                raise WebError(409, "finished", "the game is over: no move can be played")
            text = self._move_text(game, move, drop)
            try:
                if isinstance(game, MultiplayerGame):
                    game.play(text, seat=0)
                else:
                    game.play(text, autoplay=bool(auto))
            except MoveParseError as err:
                raise WebError(400, "unparsable", str(err)) from None
            except NotYourTurnError as err:
                raise WebError(409, "not-your-turn", str(err)) from None
            except IllegalMoveError as err:
                raise WebError(422, "illegal", str(err)) from None
            table.row.redo = []
            if table.row.started is None:
                table.row.started = self.clock()
            if isinstance(game, MultiplayerGame):
                self._bots_play(table)
            self._settle(table)
            self._store(table)
            return self.table_json(table)
        finally:
            table.lock.release()

    def _move_text(self, game: Game[Any, Any], move: Any, drop: dict[str, Any] | None) -> str:
        if (move is None) == (drop is None):
            raise WebError(400, "bad-request", "give a move in notation ('move') or a drop ('from', 'index', 'to')")
        if move is not None:
            if not isinstance(move, str) or len(move) > 32:
                raise WebError(400, "unparsable", f"not a {game.name} move: {move!r}")
            return move
        assert drop is not None
        src, index, dst = drop.get("from"), drop.get("index"), drop.get("to")
        if (
            not isinstance(src, str)
            or not isinstance(dst, str)
            or isinstance(index, bool)
            or not isinstance(index, int)
        ):
            raise WebError(400, "bad-request", "a drop names 'from' (a pile), 'index' (a card) and 'to' (a pile)")
        names = self._pile_names(game)
        if src not in names or dst not in names:
            raise WebError(400, "bad-request", f"no pile {src if src not in names else dst!r} on this table")
        if src == dst:
            raise WebError(422, "illegal", "the cards are already on that pile")
        if isinstance(game, MultiplayerGame):
            if src != "hand 0":
                raise WebError(422, "illegal", "you play cards from your own hand")
            return seat_drop_text(game, 0, index, dst)
        size = len(names[src])
        if not 0 <= index < size:
            raise WebError(400, "bad-request", f"pile {src} has no card {index}")
        if not names[src][index][1]:
            raise WebError(422, "illegal", "a face-down card cannot be moved")
        place = PLACES[game.name]
        if place(dst).kind in ("stock", "waste", "reserve", "draw"):
            raise WebError(422, "illegal", f"illegal move: no card may be put on the {place(dst).label}")
        text = drop_text(game, src, index, dst)
        try:
            game.parse_move(text)
        except MoveParseError:
            raise WebError(
                422, "illegal", f"illegal move: cards do not go from the {place(src).label} to the {place(dst).label}"
            ) from None
        self._check_foundation(game, text, dst, names)
        return text

    @staticmethod
    def _check_foundation(game: Game[Any, Any], text: str, dst: str, names: dict[str, list[tuple[int, bool]]]) -> None:
        """A drop on a foundation plays "to its foundation", which the rules choose: refuse
        it when the pile the card was dropped on is not one that takes it (an empty pile
        or one with the same top card as the chosen one is as good)."""
        try:
            move = game.parse_move(text)
        except CardtableError:
            return
        if not game.is_legal(move):
            return  # the engine explains
        real = move_places(game, move)[2]
        if real == dst:
            return
        top = names[dst][-1][0] if names[dst] else None
        real_top = names[real][-1][0] if names[real] else None
        if top == real_top or not names[dst]:
            return
        raise WebError(422, "illegal", f"illegal move: that card goes to {PLACES[game.name](real).label}, not here")

    @staticmethod
    def _pile_names(game: Game[Any, Any]) -> dict[str, list[tuple[int, bool]]]:
        if isinstance(game, MultiplayerGame):
            data = seat_position(game, 0)
            return {p["name"]: [(0, c["up"]) for c in p["cards"]] for p in data["piles"]}
        return {n: p for row in game.rules.display(game.state) for n, p in row}

    def _over(self, table: _Table) -> bool:
        return bool(table.game.outcome.over) or table.row.result == "abandoned"

    def _settle(self, table: _Table) -> None:
        """Note the end of a game that just ended (or un-end one a move took back)."""
        game, row = table.game, table.row
        if row.result == "abandoned":
            return
        outcome = game.outcome
        if outcome.over:
            if row.ended is None:
                row.ended = self.clock()
                if isinstance(game, MultiplayerGame):
                    result = game.outcome.result
                    row.result = "won" if result is not None and 0 in result.winners else "lost"
                else:
                    row.result = "won" if game.outcome.won else "lost"
        else:
            row.ended, row.result = None, None

    def _can_undo(self, table: _Table) -> bool:
        game = table.game
        if not game.moves or table.row.result in ("won", "abandoned"):
            return False
        if isinstance(game, MultiplayerGame):
            return any(event.seat == 0 for event in game.history(0))
        return True

    def undo(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Take back the last move (at Deserto: back to before your last move).

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.undo("me", t["id"], 0)
        Traceback (most recent call last):
        ...
        cardtable.web.tables.WebError: nothing to undo
        """
        table = self._begin(player, table_id, at)
        try:
            if not self._can_undo(table):
                raise WebError(
                    409, "illegal", "a won game stays won" if table.row.result == "won" else "nothing to undo"
                )
            game = table.game
            while True:
                human = not isinstance(game, MultiplayerGame) or game.history(0)[-1].seat == 0
                table.row.redo.append(str(game.undo()))
                if human:
                    break
            self._settle(table)
            self._store(table)
            return self.table_json(table)
        finally:
            table.lock.release()

    def redo(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Play again the last move taken back (and, at Deserto, the bots' turns after it).

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> t = tables.play("me", t["id"], 0, move="d"); t = tables.undo("me", t["id"], 1)
        >>> tables.redo("me", t["id"], 0)["at"]
        1
        """
        table = self._begin(player, table_id, at)
        try:
            game, row = table.game, table.row
            if not row.redo or row.result in ("won", "abandoned"):
                raise WebError(409, "illegal", "nothing to redo")
            redo = row.redo
            try:
                while redo:
                    game.play(redo.pop())
                    if not isinstance(game, MultiplayerGame) or game.to_move in (0, None):
                        break
            except CardtableError as err:  # a stored redo list that no longer fits: drop it
                redo.clear()
                raise WebError(409, "illegal", f"cannot redo: {err}") from None
            self._settle(table)
            self._store(table)
            return self.table_json(table)
        finally:
            table.lock.release()

    def restart(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Back to the start of the same deal (not after a win).

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> t = tables.play("me", t["id"], 0, move="d")
        >>> tables.restart("me", t["id"], 1)["at"]
        0
        """
        table = self._begin(player, table_id, at)
        try:
            if table.row.result in ("won", "abandoned"):
                raise WebError(
                    409, "finished", "a won game stays won" if table.row.result == "won" else "game abandoned"
                )
            table.game.restart()
            table.row.redo = []
            if isinstance(table.game, MultiplayerGame):
                self._bots_play(table)
            self._settle(table)
            self._store(table)
            return self.table_json(table)
        finally:
            table.lock.release()

    def hint(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """The solver's next move (or a labelled heuristic one, or the news that the
        position can no longer be won); counted in the statistics when it gives a move.

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=8)
        >>> h = tables.hint("me", t["id"], 0)
        >>> h["hint"]["source"], h["hints"]
        ('solver', 1)
        """
        table = self._begin(player, table_id, at)
        try:
            game = table.game
            if self._over(table):
                raise WebError(409, "finished", "the game is over")
            found: dict[str, str | None]
            if isinstance(game, MultiplayerGame):
                move = bots.make("greedy", seed=len(game.moves)).choose(game, 0)
                found = {
                    "move": str(move),
                    "source": "greedy",
                    "status": "unknown",
                    "text": f"The greedy bot would play {move}.",
                }
            else:
                found = self._solver_hint(table)
            if found["move"] is not None:
                table.row.hints += 1
                self._store(table)
            data = self.table_json(table)
            data["hint"] = found
            return data
        finally:
            table.lock.release()

    def _solver_hint(self, table: _Table) -> dict[str, str | None]:
        """The solver's hint; along the winning line of an earlier hint (the player has
        played its moves so far), its next move, with no new search."""
        game = table.game
        played = [str(m) for m in game.moves[table.line_at :]] if len(game.moves) >= table.line_at else None
        line = table.line
        if line is not None and played is not None and line[: len(played)] == played and len(played) < len(line):
            move, left = line[len(played)], len(line) - len(played)
            text = f"Play {move}: it goes on with a winning line ({left} moves)."
            return {"move": move, "source": "solver", "status": "winnable", "text": text}
        h = hint(game, seconds=self.hint_seconds)
        table.line = [str(m) for m in h.line] or None
        table.line_at = len(game.moves)
        return {"move": None if h.move is None else str(h.move), "source": h.source, "status": h.status, "text": h.text}

    def finish(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Autocomplete: play the checked line that wins from here (offered in the
        table's ``finish`` only when the solver has found it).

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.finish("me", t["id"], 0)
        Traceback (most recent call last):
        ...
        cardtable.web.tables.WebError: autocomplete is offered only when every card is known and the finish is checked
        """
        table = self._begin(player, table_id, at)
        try:
            line = self._finish_line(table)
            if not line:
                raise WebError(
                    409, "illegal", "autocomplete is offered only when every card is known and the finish is checked"
                )
            if table.row.started is None:
                table.row.started = self.clock()
            for text in line:
                table.game.play(text)
            table.row.redo = []
            self._settle(table)
            self._store(table)
            return self.table_json(table)
        finally:
            table.lock.release()

    def _finish_line(self, table: _Table) -> list[str] | None:
        """The winning line from here, when no card but the stock's is face down (the
        player has been through the stock) and the solver finds it within
        :data:`FINISH_NODES` positions (cached per position)."""
        game = table.game
        at = len(game.moves)
        if table.finish_at == at:
            return table.finish
        line = None
        if not isinstance(game, MultiplayerGame) and not game.outcome.over:
            hidden = any(
                not up
                for row in game.rules.display(game.state)
                for name, pile in row
                for _, up in pile
                if name != "stock"
            )
            if not hidden:
                result = solve(game, seconds=FINISH_SECONDS, nodes=FINISH_NODES)
                if result.solved:
                    line = [str(m) for m in result.moves]
        table.finish, table.finish_at = line, at
        return line

    # --- computer players ------------------------------------------------------------

    def _bots_play(self, table: _Table) -> None:
        game = table.game
        assert isinstance(game, MultiplayerGame)
        seats = table.row.seats or []
        while (seat := game.to_move) is not None and seat != 0:
            name = seats[seat]
            budget = {"seconds": 0.25} if name == "ismcts" else {}
            seed = zlib.crc32(f"{table.row.id} {len(game.moves)}".encode())  # not hash(): PYTHONHASHSEED varies
            bot = bots.make(name, seed=seed, **budget)
            game.play(bot.choose(game, seat), seat=seat)

    # --- statistics --------------------------------------------------------------

    def stats(self, player: str) -> dict[str, Any]:
        """The player's statistics per game, mode and level (see ``docs/web.md``):
        played, won, win rate, current and best streak, best and average time of a
        win, fewest moves to a win, hints used.

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:"))
        >>> t = tables.create("me", "klondike", {}, deal=0); _ = tables.play("me", t["id"], 0, move="d")
        >>> _ = tables.create("me", "klondike", {}, deal=1)  # the first is abandoned: played, lost
        >>> row = tables.stats("me")["rows"][0]; row["played"], row["won"], row["current_streak"]
        (1, 0, 0)
        """
        groups: dict[tuple[str, str, str], dict[str, Any]] = {}
        for row in self.store.player_tables(player, finished=True):
            key = (row.game, row.mode, row.level)
            g = groups.setdefault(
                key,
                {
                    "game": row.game,
                    "mode": row.mode,
                    "level": row.level,
                    "played": 0,
                    "won": 0,
                    "current_streak": 0,
                    "best_streak": 0,
                    "best_time": None,
                    "times": [],
                    "fewest_moves": None,
                    "hints": 0,
                    "results": [],
                },
            )
            g["played"] += 1
            g["hints"] += row.hints
            won = row.result == "won"
            g["results"].append("W" if won else "L")
            if won:
                g["won"] += 1
                g["current_streak"] += 1
                g["best_streak"] = max(g["best_streak"], g["current_streak"])
                seconds = (row.ended or 0) - (row.started if row.started is not None else row.created)
                g["times"].append(seconds)
                g["best_time"] = seconds if g["best_time"] is None else min(g["best_time"], seconds)
                g["fewest_moves"] = row.moves if g["fewest_moves"] is None else min(g["fewest_moves"], row.moves)
            else:
                g["current_streak"] = 0
        rows = []
        for key in sorted(groups):
            g = groups[key]
            times = g.pop("times")
            g["win_rate"] = g["won"] / g["played"]
            g["average_time"] = sum(times) / len(times) if times else None
            g["results"] = "".join(g["results"][-20:])
            rows.append(g)
        return {"rows": rows}

    def in_progress(self, player: str) -> list[dict[str, Any]]:
        """The player's unfinished games, newest first: id, game, label and moves made.

        >>> from cardtable.web.store import Store
        >>> tables = Tables(Store(":memory:")); t = tables.create("me", "klondike", {}, deal=4)
        >>> [g["label"] for g in tables.in_progress("me")]
        ['Random (4)']
        """
        games = []
        for row in self.store.player_tables(player, finished=False):
            deal = None if row.seats else _saved_deal(row.save)
            label = "Deserto" if row.seats else level_label(row.level, deal)
            games.append({"id": row.id, "game": row.game, "mode": row.mode, "label": label, "moves": row.moves})
        return games


def _saved_deal(save: str) -> int | None:
    deal = json.loads(save).get("deal")
    return deal if isinstance(deal, int) else None


__all__ = ["HINT_SECONDS", "Tables", "WebError", "level_label", "mode_text"]
