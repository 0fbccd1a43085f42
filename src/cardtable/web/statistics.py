"""A browser's statistics and the games it has in progress.

Every game that ended is a row of the database's ``tables``: a one-player
table (:mod:`cardtable.web.solitaire_tables`) is its own row; a game of a
room where one person played against bots is written there when it ends
(:func:`record`), as the old tables of games against bots were, under the
player id of the browser that made the room. :func:`stats` counts them per
game, mode and level; :func:`in_progress` lists the unfinished ones, the
rooms against bots among them.

>>> from cardtable.web.database import Database
>>> stats(Database(":memory:"), "nobody")
{'rows': []}
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import CardtableError
from ..core.game import Game
from ..core.rules import Rules
from ..games import rules_for, spec_for
from .database import Database, TableRow

DAILY_LEVEL = "daily"
"""The level of a daily deal's table (:mod:`cardtable.web.daily`): its deal number is not shown
until it is won or given up, here or at the table."""

MODE_OPTIONS = {"numbering", "autoplay"}
"""Options that do not change what game is played: left out of the statistics' mode."""


def rules_mode(rules: Rules[Any, Any]) -> str:
    """The mode of a game's rules for statistics: the options that change the game, or ``standard``.

    >>> import cardtable
    >>> rules_mode(cardtable.rules_for("klondike", draw=1))
    'draw=1 redeals=unlimited foundation_return=on'
    """
    spec = {o.name: o for o in rules.OPTIONS}
    words = [f"{k}={spec[k].show(v)}" for k, v in rules.options.items() if k not in MODE_OPTIONS]
    return " ".join(words) or "standard"


def mode_text(game: Game[Any, Any]) -> str:
    """The game's mode for statistics: its options that change the game, or ``standard``.

    >>> import cardtable
    >>> mode_text(cardtable.new_game("klondike", deal=0, numbering="javasol"))
    'draw=3 redeals=unlimited foundation_return=on'
    >>> mode_text(cardtable.new_game("devils-square", deal=0))
    'standard'
    """
    return rules_mode(game.rules)


def mode_words(mode: str) -> str:
    """A statistics mode (:func:`rules_mode`) as a player reads it: each option's name and
    value in words, no ``=`` or ``_``.

    >>> mode_words("draw=1 redeals=unlimited foundation_return=on"), mode_words("standard")
    ('draw 1, redeals unlimited, foundation return on', 'standard')
    """
    return ", ".join(" ".join(part.replace("_", " ").split("=", 1)) for part in mode.split(" "))


def level_label(level: str, deal: int | None) -> str:
    """The label shown at the bottom of the table: level and deal number, as ``Hard (12345)``.

    >>> level_label("hard", 12345)
    'Hard (12345)'
    """
    return f"{level.capitalize()} ({deal})" if deal is not None else level.capitalize()


def deal_label(level: str, deal: int | None, numbering: Any = None) -> str:
    """The label shown at the bottom of the table, JavaSolitaire's way: the level, and the
    deal number, which is the whole deal (with the JavaSolitaire numbering, said so).

    >>> deal_label("hard", 12345), deal_label("random", 7, "javasol")
    ('Hard (12345)', 'Random (JavaSolitaire 7)')
    """
    if deal is not None and numbering == "javasol":
        return f"{level.capitalize()} (JavaSolitaire {deal})"
    return level_label(level, deal)


def record(
    db: Database,
    row_id: str,
    player: str,
    game: Game[Any, Any],
    seats: list[str],
    *,
    result: str,
    created: float,
    started: float | None,
    ended: float,
    hints: int,
) -> None:
    """Write the end of a room's game against bots in the statistics: ``result`` is
    ``won``, ``lost`` or ``abandoned``; ``seats`` who sat where (``you`` and the bots).

    >>> import cardtable
    >>> several = next(s.name for s in cardtable.games.specs() if not s.one_player)
    >>> db = Database(":memory:"); g = cardtable.new_game(several, deal=1)
    >>> record(db, "r", "me", g, ["you", "random"], result="lost", created=0, started=None, ended=9, hints=0)
    >>> stats(db, "me")["rows"][0]["played"]
    1
    """
    row = TableRow(
        id=row_id,
        player=player,
        game=game.name,
        mode=mode_text(game),
        level="random",
        seed=None,
        save=game.save(),
        seats=seats,
        created=created,
        started=started,
        ended=ended,
        result=result,
        hints=hints,
        moves=len(game.moves),
    )
    db.put(row)


def stats(db: Database, player: str) -> dict[str, Any]:
    """The player's statistics per game, mode and level (see ``docs/web.md``):
    played, won, win rate, current and best streak, best and average time of a
    win, fewest moves to a win, hints used.

    >>> from cardtable.web.solitaire_tables import SolitaireTables
    >>> tables = SolitaireTables(Database(":memory:"))
    >>> t = tables.create("me", "klondike", {}, deal=0); _ = tables.play("me", t["id"], 0, move="d")
    >>> _ = tables.create("me", "klondike", {}, deal=1)  # the first is abandoned: played, lost
    >>> row = stats(tables.db, "me")["rows"][0]; row["played"], row["won"], row["current_streak"]
    (1, 0, 0)
    """
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in db.player_tables(player, finished=True):
        key = (row.game, row.mode, row.level)
        g = groups.setdefault(
            key,
            {
                "game": row.game,
                "mode": row.mode,
                "mode_words": mode_words(row.mode),
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
                "points": [],
            },
        )
        g["points"].append(saved_scores(row.save))
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
        g["scores"] = score_summary(g["game"], [p for p in g.pop("points") if p is not None])
        rows.append(g)
    return {"rows": rows}


def saved_scores(save: str) -> list[int] | None:
    """A stored game's score by each of its game's scorings (``GameSpec.scoring``), replayed
    from its save (the server wrote it: its moves are read, not checked again); None for a
    save that does not replay.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("3f")
    >>> saved_scores(g.save())
    [15, -47]
    """
    try:
        data = json.loads(save)
        if not spec_for(data["game"]).one_player:
            return None  # a room's game: its result is its seats' scores and ranks
        rules = rules_for(data["game"], **data["options"])
        state = start = rules.deal(data["deal"]) if data.get("layout") is None else rules.from_text(data["layout"])
        moves = []
        for text in data["moves"]:
            move = rules.parse_move(text)
            moves.append(move)
            state = rules.apply(state, move)
        return [s.score(rules, start, moves) for s in spec_for(data["game"]).scoring]
    except (CardtableError, KeyError, TypeError, ValueError):
        return None


def score_summary(game: str, points: list[list[int]]) -> list[dict[str, Any]]:
    """For each of a game's scorings, over the games ``points`` (each a game's scores, as
    :func:`saved_scores` gives them): its name, title and unit, the best and the average
    score, and for a scoring with a bank (Vegas) the total.

    >>> [(s["name"], s["best"], s["average"], s["total"]) for s in score_summary("klondike", [[15, -47], [5, -52]])]
    [('standard', 15, 10.0, None), ('vegas', -47, -49.5, -99)]
    """
    out: list[dict[str, Any]] = []
    if not spec_for(game).one_player:
        return out
    for i, scoring in enumerate(spec_for(game).scoring):
        values = [p[i] for p in points if i < len(p)]
        best = None
        for v in values:
            if best is None or scoring.better(v, best):
                best = v
        out.append(
            {
                "name": scoring.name,
                "title": scoring.title,
                "unit": scoring.unit,
                "lower_is_better": scoring.lower_is_better,
                "best": best,
                "best_text": None if best is None else scoring.text(best),
                "average": sum(values) / len(values) if values else None,
                "bank": scoring.bank,
                "total": sum(values) if scoring.bank and values else None,
            }
        )
    return out


def in_progress(db: Database, player: str) -> list[dict[str, Any]]:
    """The player's unfinished games, newest first: id, game, mode, label, moves made and
    the page that resumes it (``link``): its one-player tables, and the rooms it made where
    it plays against bots.

    >>> from cardtable.web.solitaire_tables import SolitaireTables
    >>> tables = SolitaireTables(Database(":memory:")); t = tables.create("me", "klondike", {}, deal=4)
    >>> [(g["label"], g["link"] == f"/play/klondike?id={t['id']}") for g in in_progress(tables.db, "me")]
    [('Random (4)', True)]
    """
    games: list[tuple[float, dict[str, Any]]] = []
    for row in db.player_tables(player, finished=False):
        daily = row.level == DAILY_LEVEL  # its number hidden; its page is the daily deals'
        games.append(
            (
                row.created,
                {
                    "id": row.id,
                    "game": row.game,
                    "mode": row.mode,
                    "label": "Daily deal" if daily else deal_label(row.level, *_saved_deal(row.save)),
                    "moves": row.moves,
                    "link": f"/daily/play?table={row.id}" if daily else f"/play/{row.game}?id={row.id}",
                },
            )
        )
    for room, moves in db.player_rooms(player):
        seats = json.loads(room.seats)
        if sum(1 for s in seats if s.get("kind") == "human") != 1:
            continue  # a room with other people: not a game against bots
        games.append(
            (
                room.created,
                {
                    "id": room.code,
                    "game": room.game,
                    "mode": rules_mode(rules_for(room.game, **json.loads(room.options))),
                    "label": f"Room {room.code}",
                    "moves": moves,
                    "link": f"/room/{room.code}",
                },
            )
        )
    games.sort(key=lambda g: (-g[0], g[1]["id"]))
    return [g for _, g in games]


def _saved_deal(save: str) -> tuple[int | None, Any]:
    data = json.loads(save)
    deal, options = data.get("deal"), data.get("options")
    return (deal if isinstance(deal, int) else None), (options.get("numbering") if isinstance(options, dict) else None)


__all__ = [
    "DAILY_LEVEL",
    "MODE_OPTIONS",
    "deal_label",
    "in_progress",
    "level_label",
    "mode_text",
    "mode_words",
    "record",
    "rules_mode",
    "saved_scores",
    "score_summary",
    "stats",
]
