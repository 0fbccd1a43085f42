"""Ratings of the people who play rated rooms, with OpenSkill's Plackett-Luce model.

A person is a browser's player id (its long random cookie); the server keeps a hash
of it (:func:`cardtable.web.rooms.holder_of`), a display name, and per game a rating
(``mu``, ``sigma``; the rating shown is ``mu - 3 sigma``, OpenSkill's ``ordinal``,
one that rises as the server grows sure of it). When a rated room's game ends, every
seat takes part in one Plackett-Luce update with the game's ranks (ties shared): a
person's rating moves; a bot's is fixed, measured once by ``bench/bot_ratings.py``
and shipped in ``bot_ratings.json`` next to this module (:func:`bot_ratings`); a seat
without a person (freed during the game) counts as a newcomer and is not kept. The
end is counted once (:meth:`~cardtable.web.database.Database.rate_game`), however
often it is processed.

>>> new = rate_game([Rating(25.0, 25 / 3, 0), Rating(25.0, 25 / 3, 0)], [1, 2], moving=[True, False])
>>> new[0].mu > 25.0, new[1] == Rating(25.0, 25 / 3, 0), new[0].games
(True, True, 1)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from openskill.models import PlackettLuce

from .database import Rating

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett-Luce (many players, ranks with ties), its defaults
(``mu`` 25, ``sigma`` 25/3)."""

NEW = Rating(MODEL.mu, MODEL.sigma, 0)
"""The rating of someone who has played no rated game."""

BOT_RATINGS_FILE = "bot_ratings.json"
"""The bots' measured ratings, shipped with the web app (written by ``bench/bot_ratings.py``)."""


def shown(rating: Rating) -> float:
    """The rating a person sees: ``mu - 3 sigma`` (OpenSkill's ordinal), to one decimal.

    >>> shown(NEW)
    0.0
    """
    return round(rating.mu - 3 * rating.sigma, 1)


def rate_game(before: Sequence[Rating], ranks: Sequence[int], moving: Sequence[bool]) -> list[Rating]:
    """The seats' ratings after a game: ``before`` each seat's, ``ranks`` the game's (1 is
    best, ties shared); only the seats with ``moving`` true change (and count one more game).

    >>> a, b = rate_game([NEW, NEW], [1, 1], moving=[True, True]); round(a.mu, 6) == round(b.mu, 6)
    True
    """
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Rating(float(new[0].mu), float(new[0].sigma), old.games + 1) if move else old
        for old, new, move in zip(before, after, moving, strict=True)
    ]


@cache
def bot_ratings() -> dict[str, dict[str, Rating]]:
    """The bots' fixed ratings, by game and bot, from the shipped file (empty if it has none).

    >>> sorted(bot_ratings()["deserto"])
    ['greedy', 'ismcts', 'random']
    """
    path = files("cardtable").joinpath("web", BOT_RATINGS_FILE)
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {
        game: {bot: Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])) for bot, r in sorted(table.items())}
        for game, table in sorted(data.get("games", {}).items())
    }


def bot_rating(game: str, bot: str) -> Rating:
    """A bot's fixed rating at ``game`` (a newcomer's if it was not measured).

    >>> bot_rating("deserto", "greedy").mu > bot_rating("deserto", "random").mu
    True
    >>> bot_rating("no-such-game", "greedy") == NEW
    True
    """
    return bot_ratings().get(game, {}).get(bot, NEW)


__all__ = ["BOT_RATINGS_FILE", "MODEL", "NEW", "bot_rating", "bot_ratings", "rate_game", "shown"]
