"""The card table in the browser: a web app served by cardtable itself.

One more layer on the library: the server owns every game, sends each player
only what that seat may see (:mod:`cardtable.web.table_json`), and every move
goes through the engine's ``play``: at a one-player table over HTTP
(:mod:`cardtable.web.solitaire_tables`), in a room of a multi-player game over
a WebSocket, against people or bots (:mod:`cardtable.web.rooms`). Both refuse
with one error vocabulary (:mod:`cardtable.web.errors`). Games, rooms and
statistics (:mod:`cardtable.web.statistics`) live in one SQLite file
(:mod:`cardtable.web.database`); the routes are in :mod:`cardtable.web.app`;
``cardtable serve`` starts it.

>>> from cardtable.web import create_app
>>> create_app(":memory:").title
'cardtable'
"""

from .app import create_app

__all__ = ["create_app"]
