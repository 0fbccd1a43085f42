"""The one-player tables of the web app: every table the server owns, and what a player may do at it.

A :class:`SolitaireTables` keeps each game in memory (rebuilt from the
database's save file when the server restarts) and writes it to the
:class:`~cardtable.web.database.Database` after every change. Every move goes
through the engine's ``play``; every request names the move count it was made
on (``at``), and a request made on a stale position, an illegal or unreadable
move, or a move in a finished game raises
:class:`~cardtable.web.errors.TableError` and changes nothing.

The answer to every request is the table as the player may see it
(:meth:`SolitaireTables.table_json`): the table from
:mod:`cardtable.web.table_json` and the game's facts (level and deal label,
outcome, undo and redo, the autocomplete offer).

A table of a daily deal (:mod:`cardtable.web.daily`; its level is
:data:`~cardtable.web.statistics.DAILY_LEVEL`) is made by :meth:`SolitaireTables.start`,
is never left for another game, and hides its deal number (``deal``, ``seed``, the
label) until it is won or given up (:meth:`SolitaireTables.give_up`). What happens
at a table is told to :attr:`SolitaireTables.listeners` (``move``, ``undo``,
``restart``, ``hint``, ``finish``, ``won``, ``given-up``), and
:attr:`SolitaireTables.extras` add to its JSON.

A multi-player game is played in a room (:mod:`cardtable.web.rooms`), even by
one person against bots: a table of one is refused with a pointer to
``POST /api/rooms``.

>>> from cardtable.web.database import Database
>>> tables = SolitaireTables(Database(":memory:"))
>>> t = tables.create("me", "klondike", {}, deal=0)
>>> t["label"], t["at"]
('Random (0)', 0)
>>> tables.play("me", t["id"], 0, move="d")["at"]
1
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..api import load, new_game
from ..core.errors import CardtableError, IllegalMoveError, MoveParseError, NoLevelDealError, OptionError
from ..core.game import Game, Outcome
from ..core.scoring import scores
from ..games import spec_for
from ..levels import LEVELS, deal_for_level
from . import limits
from .database import Database, TableRow
from .drops import requested_move
from .errors import TableError
from .statistics import DAILY_LEVEL, deal_label, mode_text
from .table_hints import HINT_SECONDS, TableHints
from .table_json import move_steps, solitaire_table

CACHE_SIZE = 512
"""Games kept in memory; others are rebuilt from the database when asked for."""

NOT_FOUND = "no such game (it may belong to another browser)"


@dataclass
class _Table:
    row: TableRow
    game: Game[Any, Any]
    lock: threading.Lock
    hints: TableHints = field(default_factory=TableHints)


Listener = Callable[[str, TableRow, Game[Any, Any]], None]
"""Told what happened at a table: the event, the table's row and game (see the module docstring)."""

Extra = Callable[[TableRow, dict[str, Any]], None]
"""Adds to (or veils in) a table's JSON, given its row."""

AUTO_PREFIX = "auto:"
"""Marks a move of the redo list that is played again with its automatic moves."""


MAX_MOVES = 10_000
"""The most moves a table holds (``too-many`` after): each move stores the whole game again
and a table is replayed when it is read back, so a table played on for ever would slow
every request of its own (found by the bad-input audit: 1.8 ms a move at the start, 7.8 ms
after 3,000 moves). No person's game comes near it."""


class SolitaireTables:
    """Every one-player table of the server (see the module docstring).

    ``clock`` gives the time in seconds (tests pass their own); ``hint_seconds``
    is the solver's time for a hint.

    >>> from cardtable.web.database import Database
    >>> SolitaireTables(Database(":memory:")).get("me", "nope")
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: no such game (it may belong to another browser)
    """

    def __init__(
        self,
        db: Database,
        clock: Callable[[], float] = time.time,
        hint_seconds: float = HINT_SECONDS,
        max_moves: int = MAX_MOVES,
    ) -> None:
        self.db = db
        self.clock = clock
        self.hint_seconds = hint_seconds
        self.max_moves = max_moves
        self._cache: OrderedDict[str, _Table] = OrderedDict()
        self._lock = threading.Lock()
        self.listeners: list[Listener] = []
        self.extras: list[Extra] = []

    def _tell(self, event: str, table: _Table) -> None:
        for listener in self.listeners:
            listener(event, table.row, table.game)

    # --- making and finding tables ------------------------------------------

    def create(
        self,
        player: str,
        name: str,
        options: dict[str, Any],
        deal: int | None = None,
        level: str | None = None,
        seed: int | None = None,
    ) -> dict[str, Any]:
        """A new table for ``player``: a deal by number, or by ``level`` and ``seed``
        (a random seed when none is given). A game of the same name the player left
        unfinished with moves made is counted as abandoned. A multi-player game is
        refused: it is played in a room.

        >>> from cardtable.web.database import Database
        >>> SolitaireTables(Database(":memory:")).create("me", "devils-square", {}, level="easy", seed=3)["label"]
        'Easy (...)'
        >>> from cardtable.games import specs
        >>> several = next(s for s in specs() if not s.one_player)
        >>> SolitaireTables(Database(":memory:")).create("me", several.name, {})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: ... is a game for 2 to 4 players: open a room for it (POST /api/rooms)
        """
        try:
            spec = spec_for(name)
            if spec.table is None:
                raise TableError("bad-request", f"{spec.title} is not offered in the browser")
            if not spec.one_player:
                low, high = spec.seats
                raise TableError(
                    "bad-request",
                    f"{spec.title} is a game for {low} to {high} players: open a room for it (POST /api/rooms)",
                )
            options = limits.check_options(spec, options)  # before anything is built
            if deal is not None and (level is not None or seed is not None):  # as the CLI refuses them
                raise TableError("bad-request", "give a deal number, or a level (with a seed), not both")
            if deal is None:
                level = level or "random"
                if level not in LEVELS:
                    raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
                seed = secrets.randbelow(1_000_000_000) if seed is None else seed
                deal = deal_for_level(spec.name, level, seed=seed, **options)
            else:
                level, seed = "random", None
            game = new_game(spec.name, deal=deal, **options)
        except NoLevelDealError as err:
            raise TableError("not-found", str(err)) from None
        except CardtableError as err:
            raise TableError("bad-request", str(err)) from None
        self._abandon(player, game.name)
        return self._new(player, game, level or "random", seed)

    def start(self, player: str, name: str, options: dict[str, Any], deal: int, level: str) -> dict[str, Any]:
        """A new table of a deal the server chose (a daily deal: ``level``
        :data:`~cardtable.web.statistics.DAILY_LEVEL`, its number hidden until it is won or
        given up), leaving no other table.

        >>> from cardtable.web.database import Database
        >>> t = SolitaireTables(Database(":memory:")).start("me", "klondike", {"draw": 1}, 5, "daily")
        >>> t["label"], t["deal"], t["options"]["draw"]
        ('Daily deal', None, '1')
        """
        try:
            game = new_game(name, deal=deal, **options)
        except CardtableError as err:
            raise TableError("bad-request", str(err)) from None
        return self._new(player, game, level, None)

    def _new(self, player: str, game: Game[Any, Any], level: str, seed: int | None) -> dict[str, Any]:
        row = TableRow(
            id=secrets.token_urlsafe(9),
            player=player,
            game=game.name,
            mode=mode_text(game),
            level=level,
            seed=seed,
            save=game.save(),
            created=self.clock(),
        )
        table = _Table(row, game, threading.Lock())
        with table.lock:
            self._store(table)
        return self.table_json(table)

    def _abandon(self, player: str, name: str) -> None:
        for row in self.db.player_tables(player, finished=False):
            if row.game != name or row.level == DAILY_LEVEL:
                continue  # a daily deal's table waits for its player
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
        if table is not None and self.db.shared:  # another process sharing the database may have changed it
            with table.lock:
                row = self.db.get(table_id)
                if row is None:
                    raise TableError("not-found", NOT_FOUND)
                if row != table.row:
                    table.row, table.game, table.hints = row, load(row.save), TableHints()
        if table is None:
            row = self.db.get(table_id) if isinstance(table_id, str) else None
            # A finished room game's statistics row is no table to open.
            if row is None or not spec_for(row.game).one_player:
                raise TableError("not-found", NOT_FOUND)
            game = load(row.save)
            table = _Table(row, game, threading.Lock())
            with self._lock:
                table = self._cache.setdefault(table_id, table)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        if table.row.player != player:
            raise TableError("not-found", NOT_FOUND)
        return table

    def _store(self, table: _Table) -> None:
        table.row.save = table.game.save()
        table.row.moves = len(table.game.moves)
        self.db.put(table.row)
        with self._lock:
            self._cache[table.row.id] = table
            self._cache.move_to_end(table.row.id)

    # --- what the player sees --------------------------------------------------

    def get(self, player: str, table_id: str) -> dict[str, Any]:
        """The table as the player sees it.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=1)
        >>> tables.get("me", t["id"])["game"]
        'klondike'
        """
        table = self._table(player, table_id)
        with table.lock:
            return self.table_json(table)

    def table_json(
        self, table: _Table, told: list[str] | None = None, steps: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The JSON of a table for its player (see the module docstring); ``told``: what
        just happened, in words (the moves just played or taken back), for the page's
        screen-reader line; ``steps``: the moves just played, one step each, for the page to
        play them out card by card (:func:`~cardtable.web.table_json.move_steps`). ``scores``:
        the game's score by each of its scorings (``GameSpec.scoring``); ``streak``: once the
        game has ended, the player's wins in a row at this game (this one included)."""
        game, row = table.game, table.row
        out = game.seen_outcome
        over = {"won": out.won, "over": out.over, "score": out.score, "reason": table_reason(out)}
        rules = type(game.rules)
        data = {
            "id": row.id,
            "game": game.name,
            "title": rules.title,
            "options": {o.name: o.show(game.options[o.name]) for o in rules.OPTIONS},
            "mode": row.mode,
            "deal": game.deal,
            "level": row.level,
            "seed": row.seed,
            "label": deal_label(row.level, game.deal, game.options.get("numbering")),
            "at": len(game.moves),
            "outcome": over,
            "can_undo": bool(game.moves) and row.result not in ("won", "abandoned"),
            "can_redo": bool(row.redo) and not over["won"],
            "finish": row.result != "abandoned" and bool(table.hints.finish(game)),
            "hints": row.hints,
            "started": row.started,
            "ended": row.ended,
            "result": row.result,
            "now": self.clock(),
            "notation": rules.NOTATION,
            "told": told or [],
            "steps": steps or [],
            "scores": scores(spec_for(game.name).scoring, game.rules, game.start, game.moves),
            "streak": None if row.result is None else self.streak(row.player, game.name),
            **solitaire_table(game),
        }
        if row.level == DAILY_LEVEL and row.result not in ("won", "abandoned"):
            # A daily deal's number is the whole deal: not shown until the deal is won or given up.
            data.update(deal=None, seed=None, label="Daily deal")
        for extra in self.extras:
            extra(row, data)
        return data

    def streak(self, player: str, name: str) -> int:
        """The player's wins in a row at game ``name`` (any mode and level), the newest
        ended game last: 0 after a loss or a game left.

        >>> from cardtable.web.database import Database
        >>> SolitaireTables(Database(":memory:")).streak("me", "klondike")
        0
        """
        count = 0
        for row in self.db.player_tables(player, finished=True):
            if row.game == name:
                count = count + 1 if row.result == "won" else 0
        return count

    # --- changing a table --------------------------------------------------------

    def _begin(self, player: str, table_id: str, at: Any) -> _Table:
        table = self._table(player, table_id)
        table.lock.acquire()
        if isinstance(at, bool) or not isinstance(at, int):
            table.lock.release()
            raise TableError("bad-request", "every request names the move count it was made on ('at')")
        if at != len(table.game.moves):
            table.lock.release()
            raise TableError(
                "stale", f"the table has changed (move {len(table.game.moves)}, not {at}): it is shown afresh"
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
        foundations.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.play("me", t["id"], 0, move="r")
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: Not allowed: redeal only when the stock is empty (draw with d) (rule 2).
        """
        table = self._begin(player, table_id, at)
        try:
            game = table.game
            if self._over(table):
                raise TableError("finished", "the game is over: no more moves are played at this table")
            if len(game.moves) >= self.max_moves:
                raise TableError(
                    "too-many", f"a table holds at most {self.max_moves:,} moves: undo, restart or start anew"
                )
            wanted = requested_move(game, move, drop)
            before, played = game.state, len(game.moves)
            try:
                game.play(wanted, autoplay=bool(auto))
            except MoveParseError as err:
                raise TableError("unparsable", str(err)) from None
            except IllegalMoveError:
                raise TableError("illegal", refusal(game, wanted)) from None
            table.row.redo = []
            if table.row.started is None:
                table.row.started = self.clock()
            self._settle(table)
            self._store(table)
            self._tell("move", table)
            self._tell_end(table)
            done = game.moves[played:]
            return self.table_json(table, told=moves_in_words(game, before, done), steps=move_steps(game, before, done))
        finally:
            table.lock.release()

    def _tell_end(self, table: _Table) -> None:
        if table.row.result == "won":
            self._tell("won", table)

    def _over(self, table: _Table) -> bool:
        return table.game.seen_outcome.over or table.row.result == "abandoned"

    def _settle(self, table: _Table) -> None:
        """Note the end of a game that just ended, as the table ends it (:attr:`Game.seen_outcome
        <cardtable.core.game.Game.seen_outcome>`), or un-end one a move took back."""
        game, row = table.game, table.row
        if row.result == "abandoned":
            return
        out = game.seen_outcome
        if out.over:
            if row.ended is None:
                row.ended = self.clock()
                row.result = "won" if out.won else "lost"
        else:
            row.ended, row.result = None, None

    def undo(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Take back the last move.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.undo("me", t["id"], 0)
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: nothing to undo
        """
        table = self._begin(player, table_id, at)
        try:
            if table.row.result in ("won", "abandoned"):
                raise TableError("finished", "a won game stays won" if table.row.result == "won" else "game given up")
            if not table.game.moves:
                raise TableError("illegal", "nothing to undo")
            before = len(table.game.moves)
            undone = table.game.undo()
            move = str(undone)
            # Redo repeats exactly what undo took back: a move whose automatic moves went
            # with it is played again with autoplay (kept as "auto:MOVE"), any other without.
            table.row.redo.append(f"{AUTO_PREFIX}{move}" if before - len(table.game.moves) > 1 else move)
            self._settle(table)
            self._store(table)
            self._tell("undo", table)
            words = table.game.rules.describe_move(table.game.state, undone)
            return self.table_json(table, told=[f"Taken back: {words}."])
        finally:
            table.lock.release()

    def redo(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Play again the last move taken back.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> t = tables.play("me", t["id"], 0, move="d"); t = tables.undo("me", t["id"], 1)
        >>> tables.redo("me", t["id"], 0)["at"]
        1
        """
        table = self._begin(player, table_id, at)
        try:
            game, row = table.game, table.row
            if not row.redo or row.result in ("won", "abandoned"):
                raise TableError("illegal", "nothing to redo")
            before, played = game.state, len(game.moves)
            try:
                text = row.redo.pop()
                auto = text.startswith(AUTO_PREFIX)
                game.play(text.removeprefix(AUTO_PREFIX), autoplay=auto)
            except CardtableError as err:  # a stored redo list that no longer fits: drop it
                row.redo.clear()
                raise TableError("illegal", f"cannot redo: {err}") from None
            self._settle(table)
            self._store(table)
            self._tell_end(table)
            done = game.moves[played:]
            return self.table_json(table, told=moves_in_words(game, before, done), steps=move_steps(game, before, done))
        finally:
            table.lock.release()

    def restart(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Back to the start of the same deal (not after a win). A game restarted after
        moves counts as played and lost (the page says so before), and the deal starts
        afresh: no moves, no time, no hints.

        >>> from cardtable.web.database import Database
        >>> from cardtable.web.statistics import stats
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> t = tables.play("me", t["id"], 0, move="d")
        >>> tables.restart("me", t["id"], 1)["at"], stats(tables.db, "me")["rows"][0]["played"]
        (0, 1)
        """
        table = self._begin(player, table_id, at)
        try:
            row = table.row
            if row.result in ("won", "abandoned"):
                raise TableError("finished", "a won game stays won" if row.result == "won" else "game abandoned")
            if table.game.moves:  # the game so far stays in the statistics, as lost
                self.db.put(
                    replace(
                        row,
                        id=secrets.token_urlsafe(9),
                        save=table.game.save(),
                        moves=len(table.game.moves),
                        redo=[],
                        ended=row.ended or self.clock(),
                        result=row.result or "abandoned",
                    )
                )
            table.game.restart()
            row.redo, row.started, row.hints, row.ended, row.result = [], None, 0, None, None
            self._settle(table)
            self._store(table)
            self._tell("restart", table)
            return self.table_json(table, told=["Back to the start of the deal."])
        finally:
            table.lock.release()

    def hint(self, player: str, table_id: str, at: Any, kind: str = "solver") -> dict[str, Any]:
        """A hint, in words. ``kind`` ``plain``: a move chosen from what the player sees
        only (not counted in the statistics). ``solver``: the solver's next move, which
        sees the face-down cards and says so (or a labelled heuristic move, or the news
        that the position can no longer be won); counted when it gives a move.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=8)
        >>> h = tables.hint("me", t["id"], 0)
        >>> h["hint"]["source"], h["hints"], h["hint"]["text"].startswith("The solver sees the face-down cards")
        ('solver', 1, True)
        >>> tables.hint("me", t["id"], 0, kind="plain")["hint"]["source"]
        'plain'
        """
        if kind not in ("plain", "solver"):
            raise TableError("bad-request", f"no hint of kind {kind!r} (plain, solver)")
        table = self._begin(player, table_id, at)
        try:
            if self._over(table):
                raise TableError("finished", "the game is over")
            if kind == "plain":
                data = self.table_json(table)
                data["hint"] = table.hints.plain(table.game)
                self._tell("hint", table)
                return data
            found = table.hints.hint(table.game, seconds=self.hint_seconds)
            if found["move"] is not None:
                table.row.hints += 1
                self._store(table)
            self._tell("hint", table)
            data = self.table_json(table)
            data["hint"] = found
            return data
        finally:
            table.lock.release()

    def verdict(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """For a player who asked to be told: whether the position can no longer be won
        (``verdict``: ``{status, text}``, found by looking at the face-down cards, and
        said so). Not a hint: not counted.

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "devils-square", {}, deal=1)
        >>> tables.verdict("me", t["id"], 0)["verdict"]["status"]
        'lost'
        """
        table = self._begin(player, table_id, at)
        try:
            data = self.table_json(table)
            data["verdict"] = table.hints.verdict(table.game, seconds=self.hint_seconds)
            return data
        finally:
            table.lock.release()

    def finish(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Autocomplete: play the checked line that wins from here (offered in the
        table's ``finish`` only when the solver has found it).

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=0)
        >>> tables.finish("me", t["id"], 0)
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: autocomplete is offered only when the finish follows from the cards seen
        """
        table = self._begin(player, table_id, at)
        try:
            if self._over(table):
                raise TableError("finished", "the game is over")
            line = table.hints.finish(table.game)
            if not line:
                raise TableError("illegal", "autocomplete is offered only when the finish follows from the cards seen")
            if table.row.started is None:
                table.row.started = self.clock()
            game = table.game
            before, played = game.state, len(game.moves)
            for text in line:
                game.play(text)
            table.row.redo = []
            self._settle(table)
            self._store(table)
            self._tell("finish", table)
            self._tell_end(table)
            steps = move_steps(game, before, game.moves[played:])
            return self.table_json(table, told=[f"Autocomplete played {len(line)} moves."], steps=steps)
        finally:
            table.lock.release()

    def give_up(self, player: str, table_id: str, at: Any) -> dict[str, Any]:
        """Give up the game: it ends, counted as lost, and no move can be played at it any
        more (a daily deal's number is shown then).

        >>> from cardtable.web.database import Database
        >>> tables = SolitaireTables(Database(":memory:")); t = tables.start("me", "klondike", {}, 5, "daily")
        >>> t = tables.give_up("me", t["id"], 0); t["result"], t["deal"], t["label"]
        ('abandoned', 5, 'Daily (5)')
        """
        table = self._begin(player, table_id, at)
        try:
            row = table.row
            if row.result in ("won", "abandoned"):
                raise TableError("finished", "a won game stays won" if row.result == "won" else "game given up")
            row.ended, row.result, row.redo = self.clock(), "abandoned", []
            self._store(table)
            self._tell("given-up", table)
            return self.table_json(table, told=["You gave up this deal."])
        finally:
            table.lock.release()


def table_reason(out: Outcome) -> str | None:
    """The sentence of a table's end (None while the game goes on).

    >>> from cardtable.core.game import Ending
    >>> table_reason(Outcome(False, True, 3, Ending.NO_LEGAL_MOVE))
    'Game over: there are no more valid moves to play.'
    """
    return None if out.ending is None else out.describe()


def moves_in_words(game: Game[Any, Any], before: Any, moves: list[Any]) -> list[str]:
    """The ``moves`` played from position ``before``, each in words (the automatic moves
    that follow a move are said as such).

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0); s = g.state; _ = g.play("d", autoplay=True)
    >>> moves_in_words(g, s, g.moves)
    ['Draw three cards.', 'Then on its own: Move A♠ to the spades foundation.']
    """
    words = []
    state = before
    for i, move in enumerate(moves):
        words.append(("Then on its own: " if i else "") + game.rules.describe_move(state, move) + ".")
        state = game.rules.apply(state, move)
    return words


def refusal(game: Game[Any, Any], wanted: Any) -> str:
    """Why the move ``wanted`` (a move, or its text) is refused, in words.

    >>> import cardtable
    >>> refusal(cardtable.new_game("klondike", deal=0), "35")
    'Not allowed: A♠ cannot go on 10♠ (needs the other colour and one rank lower) (rule 3).'
    """
    try:
        move = game.parse_move(wanted) if isinstance(wanted, str) else wanted
    except MoveParseError as err:
        return str(err)
    if game.rules.is_won(game.state):
        return "Not allowed: the game is won, and a won game stays won."
    return f"Not allowed: {game.rules.explain_in_words(game.state, move)}."


__all__ = ["SolitaireTables", "moves_in_words", "refusal", "table_reason"]
